// SPDX-License-Identifier: MIT
/*
 * sm_sa_service.c - ServiceRecord (IBA 15.2.5.14): registration (Set),
 * lookup (Get, GetTable), Delete, and leases.
 *
 * A registration is named by its ServiceID, ServiceGID and ServiceP_Key: a
 * Set of the same three replaces it (new lease, new data).  Set and Delete
 * need the ServiceID and the ServiceGID components
 * (ERR_REQ_INSUFFICIENT_COMPONENTS); the GID must be a port of this subnet
 * (ERR_REQ_INVALID_GID), the P_Key (0xffff when left out) the default
 * partition's, full or limited (ERR_REQ_INVALID).  A lease counts seconds
 * from the Set, 0xffffffff never ends; answers give what is left of it.
 * Registrations past SM_SA_MAX_SERVICES, or past SM_SA_MAX_SERVICES_PER_PORT
 * from one requester, get ERR_NO_RESOURCES.  A Delete
 * removes every registration matching its components and answers the first.
 *
 * Who may: the ServiceGID is the port that offers the service (IBA
 * 15.2.5.14), so only that port registers, replaces or deletes records for
 * its GID, from any LID of its LMC range; another port only when trusted (its
 * request carries the SM_Key), as a proxy joins a multicast group
 * (sm_sa_mcmember.c); a request from inside the SM (no requester LID) is
 * trusted.  Others get ERR_REQ_DENIED and change nothing: no host takes over
 * another's record, and a record keeps the requester that made it (its
 * owner, counted against that port's share) when it is replaced.  OpenSM
 * only checks that the requester shares the ServiceP_Key, so there any host
 * of the partition can replace or delete another's record.
 * Expiry: sm_sa_services_expire() from the loop's timer (sm_sa.c arms it for
 * the next lease to end) and before every query.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sa/sm_sa_records.h"
#include "sm/sa/sm_sa_service.h"

#define SA_DEFAULT_PKEY 0xffff

void sm_sa_services_free(struct sm_sa_services *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

uint64_t sm_sa_services_expire(struct sm_sa_services *s, uint64_t now_ms)
{
	uint64_t next = UINT64_MAX;
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i].expires_ms <= now_ms)
			continue;
		if (s->v[i].expires_ms < next)
			next = s->v[i].expires_ms;
		s->v[k++] = s->v[i];
	}
	s->n = k;
	return next;
}

/* Whether registration @r matches the components @m of template @t (the
 * lease is not compared: it runs down). */
static bool matches(const struct mad_sa_service_record *t,
		    const struct mad_sa_service_record *r, uint64_t m)
{
	if (!SA_COMP(m, 0, t->id, r->id) || !SA_COMP(m, 2, t->pkey, r->pkey) ||
	    ((m & MAD_SA_SR_GID) && memcmp(t->gid, r->gid, MAD_GID_LEN)) ||
	    ((m & MAD_SA_SR_KEY) && memcmp(t->key, r->key, sizeof(t->key))) ||
	    ((m & MAD_SA_SR_NAME) && memcmp(t->name, r->name, MAD_SA_SR_NAME_LEN)))
		return false;
	for (int i = 0; i < 16; i++)
		if (!SA_COMP(m, 7 + i, t->data8[i], r->data8[i]))
			return false;
	for (int i = 0; i < 8; i++)
		if (!SA_COMP(m, 23 + i, t->data16[i], r->data16[i]))
			return false;
	for (int i = 0; i < 4; i++)
		if (!SA_COMP(m, 31 + i, t->data32[i], r->data32[i]))
			return false;
	for (int i = 0; i < 2; i++)
		if (!SA_COMP(m, 35 + i, t->data64[i], r->data64[i]))
			return false;
	return true;
}

/* @s as an answer: its lease as what is left of it at @now_ms. */
static void add_answer(const struct sm_sa_service *s, uint64_t now_ms, struct sa_out *o)
{
	struct mad_sa_service_record r = s->r;
	uint8_t rec[MAD_SA_SERVICE_RECORD_SIZE];

	if (s->expires_ms != UINT64_MAX)
		r.lease = (uint32_t)((s->expires_ms - now_ms + 999) / 1000);
	mad_sa_service_record_encode(&r, rec);
	sa_out_add(o, rec);
}

/* Registrations the port with @lid made (none counted for the SM's own, 0). */
static size_t held_by(const struct sm_sa_services *s, uint16_t lid)
{
	size_t n = 0;

	for (size_t i = 0; lid && i < s->n; i++)
		n += s->v[i].lid == lid;
	return n;
}

/* The registration named by @id, @gid and @pkey, or NULL. */
static struct sm_sa_service *find(struct sm_sa_services *s, uint64_t id,
				  const uint8_t gid[MAD_GID_LEN], uint16_t pkey)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].r.id == id && s->v[i].r.pkey == pkey &&
		    !memcmp(s->v[i].r.gid, gid, MAD_GID_LEN))
			return &s->v[i];
	return NULL;
}

/* A new slot for a registration of the port with @lid, or NULL: the table
 * or that port's share is full, or no memory. */
static struct sm_sa_service *add_slot(struct sm_sa_services *s, uint16_t lid)
{
	if (s->n == SM_SA_MAX_SERVICES || held_by(s, lid) >= SM_SA_MAX_SERVICES_PER_PORT)
		return NULL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct sm_sa_service *v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	return &s->v[s->n++];
}

/* A P_Key a registration may have: the default partition's, full or limited. */
static bool pkey_taken(uint16_t pkey)
{
	return (pkey & 0x7fff) == (SA_DEFAULT_PKEY & 0x7fff);
}

static uint16_t set(const struct sm_sa_source *src, struct mad_sa_service_record *t,
		    uint64_t m, bool trusted, struct sa_out *o)
{
	struct sm_sa_services *s = src->services;
	struct sa_port at;

	if (!(m & MAD_SA_SR_PKEY))
		t->pkey = SA_DEFAULT_PKEY;
	if (!sa_gid_port(src, t->gid, &at))
		return MAD_SA_ERR_REQ_INVALID_GID;
	if (!sa_requester_is(src, trusted, at))
		return MAD_SA_ERR_REQ_DENIED;	/* another port's GID */
	if (!pkey_taken(t->pkey))
		return MAD_SA_ERR_REQ_INVALID;	/* no partition but the default */
	struct sm_sa_service *e = find(s, t->id, t->gid, t->pkey);
	if (!e) {
		if (!(e = add_slot(s, src->requester_lid)))
			return MAD_SA_ERR_NO_RESOURCES;
		e->lid = src->requester_lid;
	}
	e->r = *t;
	e->expires_ms = t->lease == MAD_SA_SR_LEASE_INFINITE ? UINT64_MAX
			: src->now_ms + (uint64_t)t->lease * 1000;
	add_answer(e, src->now_ms, o);
	return 0;
}

int sm_sa_service_restore(struct sm_sa_services *s, const struct sm_sa_service *e)
{
	if (!pkey_taken(e->r.pkey))
		return -EINVAL;
	if (find(s, e->r.id, e->r.gid, e->r.pkey))
		return -EEXIST;
	struct sm_sa_service *slot = add_slot(s, e->lid);
	if (!slot)
		return -ENOSPC;
	*slot = *e;
	return 0;
}

uint16_t sm_sa_service_records(const struct sm_sa_source *src, const struct mad_sa *req,
			       struct sa_out *o)
{
	struct sm_sa_services *s = src->services;
	struct mad_sa_service_record t;
	struct sa_port at;
	uint64_t m = req->comp_mask;
	bool change = req->method == MAD_SA_METHOD_SET || req->method == MAD_SA_METHOD_DELETE;
	bool trusted = src->sm_key && req->sm_key == src->sm_key;

	if (!s)
		return change ? MAD_SA_ERR_NO_RESOURCES : 0;
	mad_sa_service_record_decode(req->data, &t);
	sm_sa_services_expire(s, src->now_ms);
	if (change && (m & (MAD_SA_SR_ID | MAD_SA_SR_GID)) != (MAD_SA_SR_ID | MAD_SA_SR_GID))
		return MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS;
	if (req->method == MAD_SA_METHOD_SET)
		return set(src, &t, m, trusted, o);
	if (req->method == MAD_SA_METHOD_DELETE &&	/* a GID gone from the fabric: trusted only */
	    !(sa_gid_port(src, t.gid, &at) ? sa_requester_is(src, trusted, at)
					     : trusted || !src->requester_lid))
		return MAD_SA_ERR_REQ_DENIED;
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		bool hit = matches(&t, &s->v[i].r, m);
		if (hit && (req->method != MAD_SA_METHOD_DELETE || o->n == 0))
			add_answer(&s->v[i], src->now_ms, o);
		if (!hit || req->method != MAD_SA_METHOD_DELETE)
			s->v[k++] = s->v[i];
	}
	s->n = k;
	return 0;
}

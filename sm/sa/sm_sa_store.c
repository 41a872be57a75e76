// SPDX-License-Identifier: MIT
/*
 * sm_sa_store.c - the SA's ServiceRecords, InformInfo subscriptions and
 * alias GUIDs in the store (db_sa.c), so that clients that registered once
 * (storage targets, trap subscribers, SR-IOV functions) are still known
 * after the SM restarts.
 *
 * Writing: whatever changes them (a Set, a Delete, an unsubscribe, a lease
 * that ran out; sm_sa.c) calls sm_sa_store_due(), and the tables are
 * rewritten whole in one transaction (a few thousand rows at worst) from the
 * loop's timer, at most every SM_SA_STORE_EVERY_MS.  The SA answers on the
 * loop thread, and a worker may hold db_mu for a while storing a heavy
 * sweep: the timer only takes db_mu when it is free (trylock), else it
 * tries again SM_SA_STORE_RETRY_MS later.  Without a loop (--once, tests)
 * the write happens at once when the store is free; sm_close() writes what
 * is still due (sm_sa_store_flush()).
 *
 * Clocks: in memory a lease ends on mad_now_ms()'s clock (monotonic, per
 * process), in the store on db_now_ms()'s (wall time): converted both ways
 * through what is left of the lease.
 *
 * Reading (sm_sa_store_load(), at open): a lease that ran out while the SM
 * was down is dropped; one that would last longer than it was granted (the
 * wall clock stepped back) is cut to the lease; a row the store finds
 * malformed, or the SA's rules refuse (a P_Key no Set takes, a duplicate,
 * past the table's or a port's share), is skipped.  Each kind is counted in
 * one log line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "sm/core/sm.h"
#include "sm/util/sm_log.h"
#include "sm/sa/sm_sa_store.h"
#include "sm/sa/sm_sa.h"
#include "sm/sa/sm_sa_inform.h"
#include "sm/sa/sm_sa_service.h"

/* mem <-> store */

static void service_to_db(const struct sm_sa_service *e, uint64_t now_ms, int64_t db_now,
			  struct db_sa_service *d)
{
	const struct mad_sa_service_record *r = &e->r;

	*d = (struct db_sa_service){ .id = r->id, .pkey = r->pkey, .lease = r->lease,
				     .lid = e->lid, .expires_ms = DB_SA_NEVER };
	memcpy(d->gid, r->gid, sizeof(d->gid));
	memcpy(d->key, r->key, sizeof(d->key));
	memcpy(d->name, r->name, sizeof(d->name));
	memcpy(d->data8, r->data8, sizeof(d->data8));
	memcpy(d->data16, r->data16, sizeof(d->data16));
	memcpy(d->data32, r->data32, sizeof(d->data32));
	memcpy(d->data64, r->data64, sizeof(d->data64));
	if (e->expires_ms != UINT64_MAX)
		d->expires_ms = db_now + (int64_t)(e->expires_ms - now_ms);
}

static void inform_to_db(const struct sm_sa_inform *e, struct db_sa_inform *d)
{
	const struct mad_sa_inform_info *ii = &e->ii;

	*d = (struct db_sa_inform){ .lid = e->lid, .qpn = ii->qpn, .lid_begin = ii->lid_begin,
				    .lid_end = ii->lid_end, .is_generic = ii->is_generic,
				    .type = ii->type, .trap_num = ii->trap_num,
				    .producer_type = ii->producer_type,
				    .resp_time = ii->resp_time };
	memcpy(d->gid, ii->gid, sizeof(d->gid));
}

static int save_aliases(struct sm *sm)
{
	const struct sm_sa_aliases *t = &sm->sa->aliases;
	struct db_sa_alias *da = calloc(t->n + 1, sizeof(*da));

	if (!da)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++)
		da[i] = (struct db_sa_alias){ .port_guid = t->a[i].port_guid,
					      .index = t->a[i].index, .alias = t->a[i].alias };
	int rc = db_sa_aliases_save(sm->db, da, t->n);
	free(da);
	return rc;
}

/* The tables as they are now (leases that ran out left out), under db_mu. */
static int save(struct sm *sm)
{
	const struct sm_sa_services *s = &sm->sa->services;
	const struct sm_sa_informs *in = &sm->sa->informs;
	struct db_sa_service *ds = calloc(s->n + 1, sizeof(*ds));
	struct db_sa_inform *di = calloc(in->n + 1, sizeof(*di));
	uint64_t now = mad_now_ms();
	int64_t db_now = db_now_ms(sm->db);
	size_t ns = 0;
	int rc = -ENOMEM;

	if (ds && di) {
		for (size_t i = 0; i < s->n; i++)
			if (s->v[i].expires_ms > now)
				service_to_db(&s->v[i], now, db_now, &ds[ns++]);
		for (size_t i = 0; i < in->n; i++)
			inform_to_db(&in->v[i], &di[i]);
		rc = db_sa_save(sm->db, ds, ns, di, in->n);
	}
	if (!rc)
		rc = save_aliases(sm);
	if (rc)
		sm_warn("SA: the ServiceRecords, subscriptions and alias GUIDs could not be "
			"stored: %s",
			rc == -ENOMEM ? "out of memory" : db_errmsg(sm->db));
	free(ds);
	free(di);
	return rc;
}

/* Write now if db_mu is free (@wait: wait for it).  false when it was not. */
static bool store_now(struct sm *sm, bool wait)
{
	if (wait)
		pthread_mutex_lock(&sm->db_mu);
	else if (pthread_mutex_trylock(&sm->db_mu))
		return false;
	if (sm->db)
		save(sm);	/* a failure is logged; the next change tries again */
	pthread_mutex_unlock(&sm->db_mu);
	sm->sa->store_due = false;
	sm->sa->stored_ms = mad_now_ms();
	return true;
}

static void on_store_timer(void *ctx)
{
	struct sm *sm = ctx;

	if (sm->sa->store_due && !store_now(sm, false))
		sm_timer_in(sm->loop, &sm->sa->store_timer, SM_SA_STORE_RETRY_MS);
}

/* Arm the store's timer for the next write allowed (at once after a quiet
 * second). */
static void arm(struct sm *sm)
{
	if (!sm->sa->store_timer.fn)
		sm_timer_init(&sm->sa->store_timer, on_store_timer, sm);
	sm_timer_at(sm->loop, &sm->sa->store_timer, sm->sa->stored_ms + SM_SA_STORE_EVERY_MS);
}

void sm_sa_store_due(struct sm *sm)
{
	sm->sa->store_due = true;
	if (sm->loop)
		arm(sm);
	else
		store_now(sm, false);	/* else sm_close() writes it */
}

void sm_sa_store_start(struct sm *sm)
{
	sm_sa_leases_check(sm);
	if (sm->sa->store_due)
		arm(sm);
}

void sm_sa_store_flush(struct sm *sm)
{
	if (sm->loop && sm->sa->store_timer.fn)
		sm_timer_cancel(sm->loop, &sm->sa->store_timer);
	if (sm->sa->store_due)
		store_now(sm, true);
}

/* What a load found, for its log lines. */
struct load {
	struct sm *sm;
	uint64_t now;		/* mad_now_ms() */
	int64_t db_now;		/* db_now_ms() */
	unsigned expired, cut;
	unsigned skipped_s, skipped_i, skipped_a;	/* refused by the SA's rules */
};

static int load_service(void *arg, const struct db_sa_service *d)
{
	struct load *l = arg;
	struct sm_sa_service e = { .lid = d->lid, .expires_ms = UINT64_MAX };
	struct mad_sa_service_record *r = &e.r;
	bool infinite = d->lease == MAD_SA_SR_LEASE_INFINITE;

	if (infinite != (d->expires_ms == DB_SA_NEVER)) {
		l->skipped_s++;	/* an infinite lease with an end, or the reverse */
		return 0;
	}
	if (!infinite) {
		if (d->expires_ms <= l->db_now) {
			l->expired++;
			return 0;
		}
		/* expires_ms > db_now: the difference fits; cut, it is at
		 * most 0xfffffffe s */
		uint64_t left = (uint64_t)d->expires_ms - (uint64_t)l->db_now;
		if (left > (uint64_t)d->lease * 1000) {
			left = (uint64_t)d->lease * 1000;	/* the clock stepped back */
			l->cut++;
		}
		e.expires_ms = l->now + left;
	}
	*r = (struct mad_sa_service_record){ .id = d->id, .pkey = d->pkey, .lease = d->lease };
	memcpy(r->gid, d->gid, sizeof(r->gid));
	memcpy(r->key, d->key, sizeof(r->key));
	memcpy(r->name, d->name, sizeof(r->name));
	memcpy(r->data8, d->data8, sizeof(r->data8));
	memcpy(r->data16, d->data16, sizeof(r->data16));
	memcpy(r->data32, d->data32, sizeof(r->data32));
	memcpy(r->data64, d->data64, sizeof(r->data64));
	if (sm_sa_service_restore(&l->sm->sa->services, &e))
		l->skipped_s++;
	return 0;
}

static int load_inform(void *arg, const struct db_sa_inform *d)
{
	struct load *l = arg;
	struct sm_sa_inform e = { .lid = d->lid, .ii = {
		.lid_begin = d->lid_begin, .lid_end = d->lid_end, .is_generic = d->is_generic,
		.subscribe = true, .type = d->type, .trap_num = d->trap_num, .qpn = d->qpn,
		.resp_time = d->resp_time, .producer_type = d->producer_type } };

	memcpy(e.ii.gid, d->gid, sizeof(e.ii.gid));
	/* a Report to LID 0 or a multicast LID goes nowhere */
	if (!d->lid || d->lid > MAD_MAX_UCAST_LID ||
	    sm_sa_inform_restore(&l->sm->sa->informs, &e))
		l->skipped_i++;
	return 0;
}

static int load_alias(void *arg, const struct db_sa_alias *d)
{
	struct load *l = arg;

	if (sm_sa_alias_put(&l->sm->sa->aliases, d->port_guid, d->index, d->alias))
		l->skipped_a++;	/* an alias two rows claim */
	return 0;
}

int sm_sa_store_load(struct sm *sm)
{
	struct load l = { .sm = sm, .now = mad_now_ms(), .db_now = db_now_ms(sm->db) };
	unsigned bad_s = 0, bad_i = 0, bad_a = 0;
	int rc = db_sa_services_each(sm->db, load_service, &l, &bad_s);

	if (rc == 0)
		rc = db_sa_informs_each(sm->db, load_inform, &l, &bad_i);
	if (rc == 0)
		rc = db_sa_aliases_each(sm->db, load_alias, &l, &bad_a);
	if (rc) {
		sm_warn("SA: the stored ServiceRecords and subscriptions could not be read: %s",
			db_errmsg(sm->db));
		sm_sa_services_free(&sm->sa->services);
		sm_sa_informs_free(&sm->sa->informs);
		sm_sa_aliases_free(&sm->sa->aliases);
		return rc;
	}
	sm->sa->aliases.ndue = 0;
	sm->sa->aliases.all_due = sm->sa->aliases.n > 0;	/* into the ports at the first sweep */
	if (sm->sa->aliases.n || bad_a + l.skipped_a)
		sm_notice("SA: %zu alias GUIDs restored from the store, %u rows skipped",
			  sm->sa->aliases.n, bad_a + l.skipped_a);
	unsigned skipped_s = bad_s + l.skipped_s, skipped_i = bad_i + l.skipped_i;
	if (sm->sa->services.n || sm->sa->informs.n || l.expired)
		sm_notice("SA: %zu ServiceRecords and %zu InformInfo subscriptions restored from "
			  "the store; %u leases ran out while the SM was down",
			  sm->sa->services.n, sm->sa->informs.n, l.expired);
	if (l.cut)
		sm_warn("SA: %u stored leases ended further away than granted (the clock went "
			"back): cut to their lease", l.cut);
	if (skipped_s || skipped_i)
		sm_warn("SA: %u stored ServiceRecords and %u subscriptions skipped: damaged, or "
			"what no Set could have made", skipped_s, skipped_i);
	if (l.expired || l.cut || skipped_s || skipped_i || bad_a || l.skipped_a)
		sm->sa->store_due = true;	/* the store follows */
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * sm_sa_inform.c - InformInfo subscriptions and the Reports they ask for
 * (sm_sa_inform.h).
 *
 * Set with Subscribe 1 adds a subscription for the requester's LID (Reports
 * go to that LID and the InformInfo's QPN), or replaces the same one; with
 * Subscribe 0 it removes it (ERR_REQ_INVALID when there is none).  A
 * subscription names generic traps by TrapNumber, Type and ProducerType
 * (0xffff, 0xffffff: any), and the ports it cares about by GID, or when the
 * GID is zero by a LID range (LIDRangeBegin 0xffff: every LID).  A GID
 * outside the subnet is ERR_REQ_INVALID_GID, a range ending before it begins
 * ERR_REQ_INVALID, subscriptions past SM_SA_MAX_INFORMS (or past
 * SM_SA_MAX_INFORMS_PER_PORT from one port) ERR_NO_RESOURCES.
 * InformInfoRecord (Get, GetTable) lists them, by subscriber port and Enum.
 *
 * Reports (IBA 13.4.8.2, 14.2.5.1): after each heavy sweep a MASTER with
 * subscribers compares the new fabric with the last: a port that came into
 * service (a LID and ACTIVE; a switch's port 0 with a LID) is trap 64, one
 * that left trap 65 (Informational, from the SM, the port's GID in the
 * DataDetails), a switch present in both whose ports changed between ACTIVE
 * and not trap 128 (Urgent, from the switch, its LID in the DataDetails).
 * Each matching subscriber gets a Report (class SA, method Report, Notice);
 * its ReportResp ends it, else it is sent again every SM_SA_REPORT_RETRY_MS
 * (the loop's timer), SM_SA_REPORT_TRIES times in all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_bytes.h"
#include "mad/mad_rpc.h"
#include "sm/core/sm.h"
#include "sm/util/sm_log.h"
#include "sm/sa/sm_sa_records.h"

#define NOTICE_TYPE_URGENT 1
#define NOTICE_TYPE_INFO 4
#define PRODUCER_SWITCH 2
#define PRODUCER_SM 4
#define GID_DETAILS_OFFSET 6	/* traps 64/65: 6 reserved bytes, then the GID */
#define SA_TID_OFF 8

void sm_sa_informs_free(struct sm_sa_informs *s)
{
	free(s->v);
	free(s->pending);
	memset(s, 0, sizeof(*s));
}

static bool gid_zero(const uint8_t gid[MAD_GID_LEN])
{
	static const uint8_t zero[MAD_GID_LEN];

	return !memcmp(gid, zero, MAD_GID_LEN);
}

/* Subscriptions the port with @lid holds (none counted for the SM's own, 0). */
static size_t subscribed_by(const struct sm_sa_informs *s, uint16_t lid)
{
	size_t n = 0;

	for (size_t i = 0; lid && i < s->n; i++)
		n += s->v[i].lid == lid;
	return n;
}

/* The same subscription: subscriber, QP, and what it asks for. */
static bool same(const struct sm_sa_inform *a, const struct mad_sa_inform_info *ii,
		 uint16_t lid)
{
	const struct mad_sa_inform_info *x = &a->ii;

	return a->lid == lid && x->qpn == ii->qpn && !memcmp(x->gid, ii->gid, MAD_GID_LEN) &&
	       x->lid_begin == ii->lid_begin && x->lid_end == ii->lid_end &&
	       x->is_generic == ii->is_generic && x->type == ii->type &&
	       x->trap_num == ii->trap_num && x->producer_type == ii->producer_type;
}

/* InformInfoRecords: a subscription each, its subscriber the port owning
 * the LID it subscribed from, Enum its place among that port's
 * subscriptions; SubscriberGID and Enum components honoured. */
uint16_t sm_sa_inform_records(const struct sm_sa_source *src, const struct mad_sa *req,
			      struct sa_out *o)
{
	const struct sm_sa_informs *s = src->informs;
	struct mad_sa_inform_info_record t, r;
	uint8_t rec[MAD_SA_INFORM_INFO_RECORD_SIZE];
	uint64_t m = req->comp_mask;

	mad_sa_inform_info_record_decode(req->data, &t);
	for (size_t i = 0; s && i < s->n && !sa_out_full(o); i++) {
		struct sa_port at;
		if (!sm_sa_index_lid(src->ix, s->v[i].lid, &at))
			continue;	/* its port has gone */
		memset(&r, 0, sizeof(r));
		sa_port_gid(src->subnet_prefix, sa_port_of(src->f, at)->guid, r.subscriber_gid);
		for (size_t k = 0; k < i; k++)
			r.enumeration += s->v[k].lid == s->v[i].lid;
		r.ii = s->v[i].ii;
		if (((m & MAD_SA_IIR_SUBSCRIBER_GID) &&
		     memcmp(r.subscriber_gid, t.subscriber_gid, MAD_GID_LEN)) ||
		    !SA_COMP(m, 1, r.enumeration, t.enumeration))
			continue;
		mad_sa_inform_info_record_encode(&r, rec);
		sa_out_add(o, rec);
	}
	return 0;
}

/* A new slot for a subscription of the port with @lid, or NULL: the table or
 * that port's share is full, or no memory. */
static struct sm_sa_inform *add_slot(struct sm_sa_informs *s, uint16_t lid)
{
	if (s->n == SM_SA_MAX_INFORMS || subscribed_by(s, lid) >= SM_SA_MAX_INFORMS_PER_PORT)
		return NULL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		struct sm_sa_inform *v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	return &s->v[s->n++];
}

/* A LID range a Set takes: every LID, or one that does not end before it
 * begins (a GID names the port instead). */
static bool range_taken(const struct mad_sa_inform_info *ii)
{
	return !gid_zero(ii->gid) || ii->lid_begin == MAD_SA_INFORM_ALL_LIDS ||
	       ii->lid_end >= ii->lid_begin;
}

int sm_sa_inform_restore(struct sm_sa_informs *s, const struct sm_sa_inform *e)
{
	if (!range_taken(&e->ii))
		return -EINVAL;
	for (size_t i = 0; i < s->n; i++)
		if (same(&s->v[i], &e->ii, e->lid))
			return -EEXIST;
	struct sm_sa_inform *slot = add_slot(s, e->lid);
	if (!slot)
		return -ENOSPC;
	*slot = *e;
	return 0;
}

uint16_t sm_sa_inform_set(const struct sm_sa_source *src, const struct mad_sa *req,
			  struct sa_out *o)
{
	struct sm_sa_informs *s = src->informs;
	struct mad_sa_inform_info ii;
	struct sa_port at;
	uint8_t rec[MAD_SA_INFORM_INFO_SIZE];

	if (!s)
		return MAD_SA_ERR_NO_RESOURCES;
	mad_sa_inform_info_decode(req->data, &ii);
	if (!gid_zero(ii.gid) && !sa_gid_port(src, ii.gid, &at))
		return MAD_SA_ERR_REQ_INVALID_GID;
	if (!range_taken(&ii))
		return MAD_SA_ERR_REQ_INVALID;
	size_t i = 0;
	while (i < s->n && !same(&s->v[i], &ii, src->requester_lid))
		i++;
	if (!ii.subscribe) {
		if (i == s->n)
			return MAD_SA_ERR_REQ_INVALID;	/* no such subscription */
		s->v[i] = s->v[--s->n];
	} else if (i == s->n) {
		struct sm_sa_inform *slot = add_slot(s, src->requester_lid);
		if (!slot)
			return MAD_SA_ERR_NO_RESOURCES;
		*slot = (struct sm_sa_inform){ .ii = ii, .lid = src->requester_lid };
	}
	mad_sa_inform_info_encode(&ii, rec);
	sa_out_add(o, rec);
	return 0;
}

/* An event: a generic trap about the port with @gid and @lid. */
struct event {
	struct mad_sa_notice notice;
	uint8_t gid[MAD_GID_LEN];
	uint16_t lid;
};

static bool matches(const struct mad_sa_inform_info *ii, const struct event *e)
{
	const struct mad_notice *n = &e->notice.n;

	if (!ii->is_generic || (ii->trap_num != MAD_SA_INFORM_ANY && ii->trap_num != n->trap_num) ||
	    (ii->type != MAD_SA_INFORM_ANY && ii->type != n->type) ||
	    (ii->producer_type != MAD_SA_INFORM_ANY_PRODUCER &&
	     ii->producer_type != n->producer_type))
		return false;
	if (!gid_zero(ii->gid))
		return !memcmp(ii->gid, e->gid, MAD_GID_LEN);
	return ii->lid_begin == MAD_SA_INFORM_ALL_LIDS ||
	       (e->lid >= ii->lid_begin && e->lid <= ii->lid_end);
}

static void arm_retry(struct sm *sm);

static void on_report_timer(void *ctx)
{
	struct sm *sm = ctx;

	sm_sa_reports_retry(sm, mad_now_ms());
	arm_retry(sm);
}

static void arm_retry(struct sm *sm)
{
	struct sm_sa_informs *s = &sm->sa->informs;
	uint64_t next = UINT64_MAX;

	for (size_t i = 0; i < s->npending; i++)
		if (s->pending[i].due_ms < next)
			next = s->pending[i].due_ms;
	sm_sa_timer_at(sm, &sm->sa->report_timer, on_report_timer, next);
}

static void send_report(struct sm *sm, const struct sm_sa_report *r)
{
	struct mad_addr to = { .lid = r->lid, .qpn = r->qpn };

	if (mad_rpc_send_gsi(sm->rpc, r->mad, &to))
		sm_debug("could not send a Report to LID %u", r->lid);
}

/* Report @e to subscriber @sub, and keep it until its ReportResp. */
static void report(struct sm *sm, const struct sm_sa_inform *sub, const struct event *e)
{
	struct sm_sa_informs *s = &sm->sa->informs;
	struct mad_sa sa = {
		.base_version = 1, .mgmt_class = MAD_CLASS_SA,
		.class_version = MAD_SA_CLASS_VERSION, .method = MAD_SA_METHOD_REPORT,
		.tid = ++s->tid, .attr_id = MAD_SA_ATTR_NOTICE,
	};

	if (s->npending == s->pending_cap) {
		size_t cap = s->pending_cap ? 2 * s->pending_cap : 16;
		struct sm_sa_report *p = cap <= SM_SA_MAX_REPORTS
					 ? realloc(s->pending, cap * sizeof(*p)) : NULL;
		if (!p) {	/* the oldest gives way */
			s->given_up++;
			memmove(s->pending, s->pending + 1, --s->npending * sizeof(*p));
		} else {
			s->pending = p;
			s->pending_cap = cap;
		}
	}
	struct sm_sa_report *r = &s->pending[s->npending++];
	mad_sa_notice_encode(&e->notice, sa.data);
	mad_sa_encode(&sa, r->mad);
	r->lid = sub->lid;
	r->qpn = sub->ii.qpn;
	r->tries = 1;
	r->due_ms = mad_now_ms() + SM_SA_REPORT_RETRY_MS;
	s->reports++;
	send_report(sm, r);
}

static void deliver(struct sm *sm, const struct event *e)
{
	for (size_t i = 0; i < sm->sa->informs.n; i++)
		if (matches(&sm->sa->informs.v[i].ii, e))
			report(sm, &sm->sa->informs.v[i], e);
}

/* A port is in service with a LID and ACTIVE; a switch's port 0 with a LID. */
static bool in_service(const struct sm_fabric *f, uint32_t n, uint8_t p)
{
	const struct topo_port *tp = &f->topo.nodes[n].ports[p];

	return tp->lid && (p == 0 || tp->state == MAD_PORT_ACTIVE);
}

/* Port @p of the node with @guid in @f in service. */
static bool was_in_service(const struct sm_fabric *f, uint64_t guid, uint8_t p)
{
	uint32_t n = topo_find_guid(&f->topo, guid);

	return n != TOPO_NONE && p <= f->topo.nodes[n].nports && in_service(f, n, p);
}

/* Traps 64 and 65 for the ports of @a in service and not in @b's. */
static void gid_changes(struct sm *sm, const struct sm_fabric *a, const struct sm_fabric *b,
			uint16_t trap, const struct mad_sa_notice *base)
{
	for (struct sa_port p = { TOPO_NONE, 0 }; sm_sa_next_port(a, &p);) {
		const struct topo_node *tn = &a->topo.nodes[p.node];
		if (!in_service(a, p.node, p.port) || was_in_service(b, tn->guid, p.port))
			continue;
		struct event e = { .notice = *base, .lid = tn->ports[p.port].lid };
		e.notice.n.trap_num = trap;
		sa_port_gid(sm->cfg.subnet_prefix, tn->ports[p.port].guid, e.gid);
		memcpy(e.notice.n.details + GID_DETAILS_OFFSET, e.gid, MAD_GID_LEN);
		deliver(sm, &e);
	}
}

/* Trap 128 for each switch of @now whose ports changed since @before. */
static void link_changes(struct sm *sm, const struct sm_fabric *before,
			 const struct sm_fabric *now)
{
	for (uint32_t n = 0; n < now->topo.n; n++) {
		const struct topo_node *tn = &now->topo.nodes[n];
		uint32_t o = tn->type == MAD_NODE_SWITCH ? topo_find_guid(&before->topo, tn->guid)
							 : TOPO_NONE;
		if (o == TOPO_NONE || !tn->ports[0].lid)
			continue;
		const struct topo_node *on = &before->topo.nodes[o];
		bool changed = on->nports != tn->nports;
		for (uint8_t p = 1; !changed && p <= tn->nports; p++)
			changed = (on->ports[p].state == MAD_PORT_ACTIVE) !=
				  (tn->ports[p].state == MAD_PORT_ACTIVE);
		if (!changed)
			continue;
		struct event e = { .lid = tn->ports[0].lid };
		e.notice.n = (struct mad_notice){
			.is_generic = true, .type = NOTICE_TYPE_URGENT,
			.producer_type = PRODUCER_SWITCH, .trap_num = MAD_TRAP_LINK_STATE_CHANGE,
			.issuer_lid = e.lid,
		};
		mad_put_be(e.notice.n.details, e.lid, 2);
		sa_port_gid(sm->cfg.subnet_prefix, tn->ports[0].guid, e.gid);
		memcpy(e.notice.issuer_gid, e.gid, MAD_GID_LEN);
		deliver(sm, &e);
	}
}

void sm_sa_report_changes(struct sm *sm, const struct sm_fabric *before,
			  const struct sm_fabric *now)
{
	if (!sm->sa->informs.n || sm->sm_state != MAD_SM_MASTER || now->local_node == TOPO_NONE)
		return;
	const struct topo_node *own = &now->topo.nodes[now->local_node];
	const struct topo_port *op = &own->ports[own->type == MAD_NODE_SWITCH ? 0
						 : now->local_port];
	struct mad_sa_notice base = { .n = {
		.is_generic = true, .type = NOTICE_TYPE_INFO, .producer_type = PRODUCER_SM,
		.issuer_lid = op->lid,
	} };
	sa_port_gid(sm->cfg.subnet_prefix, op->guid, base.issuer_gid);
	gid_changes(sm, now, before, SM_TRAP_GID_IN_SERVICE, &base);
	gid_changes(sm, before, now, SM_TRAP_GID_OUT_OF_SERVICE, &base);
	link_changes(sm, before, now);
	arm_retry(sm);
}

void sm_sa_report_resp(struct sm *sm, const uint8_t mad[MAD_BLOCK_SIZE])
{
	struct sm_sa_informs *s = &sm->sa->informs;
	uint64_t tid = mad_get_be(mad + SA_TID_OFF, 8);

	for (size_t i = 0; i < s->npending; i++) {
		if (mad_get_be(s->pending[i].mad + SA_TID_OFF, 8) != tid)
			continue;
		s->pending[i] = s->pending[--s->npending];
		s->acked++;
		return;
	}
}

uint64_t sm_sa_reports_retry(struct sm *sm, uint64_t now_ms)
{
	struct sm_sa_informs *s = &sm->sa->informs;
	uint64_t next = UINT64_MAX;

	for (size_t i = 0; i < s->npending;) {
		struct sm_sa_report *r = &s->pending[i];
		if (r->due_ms <= now_ms) {
			if (r->tries >= SM_SA_REPORT_TRIES) {
				s->given_up++;
				*r = s->pending[--s->npending];
				continue;
			}
			r->tries++;
			r->due_ms = now_ms + SM_SA_REPORT_RETRY_MS;
			send_report(sm, r);
		}
		if (r->due_ms < next)
			next = r->due_ms;
		i++;
	}
	return next;
}

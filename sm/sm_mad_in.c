// SPDX-License-Identifier: MIT
/*
 * sm_mad_in.c - answer SMInfo queries, take traps.
 *
 * SMInfo Get (IBA 14.4.1): answered with our GUID, priority, state and
 * ActCount, so sminfo and other SMs see us.  Trap (IBA 14.2.5.1 Notice): first
 * counted per source LID (sm_trap_limit.h): a port over traps.max_per_s is
 * reported once and then ignored for traps.holddown_s, neither logged, stored
 * nor answered.  A trap taken is logged, recorded as an event, acknowledged
 * with TrapRepress, and a generic link state change (Trap 128) makes a heavy
 * sweep due, at most once per port and second.  Everything else is counted
 * and dropped: the SMA of our own port is the adapter's business, not ours.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "mad/mad_rpc.h"
#include "sm/sm_log.h"
#include "sm/sm_mad_in.h"
#include "sm/sm_state.h"
#include "sm/sm_trap_limit.h"

static uint64_t sm_port_guid(const struct sm *sm)
{
	if (!sm->have_fabric || sm->fabric.local_node == TOPO_NONE)
		return 0;
	const struct topo_node *n = &sm->fabric.topo.nodes[sm->fabric.local_node];
	return n->ports[n->type == MAD_NODE_SWITCH ? 0 : sm->fabric.local_port].guid;
}

static void answer_sm_info(struct sm *sm, const struct mad_smp *req, const struct mad_addr *from)
{
	struct mad_rpc_stats st;

	mad_rpc_get_stats(sm->rpc, &st);
	struct mad_sm_info info = {
		.guid = sm_port_guid(sm),
		.act_count = (uint32_t)st.sent,	/* ActCount: SMPs we have sent */
		.priority = sm->cfg.sm_priority,
		.state = sm->sm_state,
	};
	struct mad_smp resp = *req;

	mad_smp_make_response(&resp, 0);
	mad_sm_info_encode(&info, resp.data);
	if (mad_rpc_send(sm->rpc, &resp, from))
		sm_warn("could not answer an SMInfo query from LID %u", from->lid);
}

/* Store a report about traps as an event (under db_mu: a worker may be
 * storing a sweep). */
static void trap_event(struct sm *sm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void trap_event(struct sm *sm, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&sm->db_mu);
	db_event_add(sm->db, 0, DB_EV_TRAP, 0, -1, "%s", text);
	pthread_mutex_unlock(&sm->db_mu);
}

/* Count the trap @n from @from against its port's rate: true to take it, with
 * *@may_sweep when it may make a heavy sweep due; false to drop it (reported
 * here when a port starts babbling or all ports together send too many). */
static bool trap_admit(struct sm *sm, const struct mad_notice *n, const struct mad_addr *from,
		       bool *may_sweep)
{
	struct sm_trap_report rep;
	unsigned max = sm->cfg.trap_max_per_s, hold = sm->cfg.trap_holddown_s;

	*may_sweep = false;
	switch (sm_trap_limit_take(&sm->traps, from->lid, mad_now_ms(), max,
				   (uint64_t)hold * 1000, &rep)) {
	case SM_TRAP_FIRST:
		if (rep.ignored)
			sm_notice("traps from LID %u are taken again: %llu were ignored", from->lid,
				  (unsigned long long)rep.ignored);
		*may_sweep = true;
		return true;
	case SM_TRAP_TAKE:
		return true;
	case SM_TRAP_BABBLING:
		sm_warn("LID %u is babbling: %u traps within a second (the last: trap %u from "
			"LID %u); its traps are ignored for %u s", from->lid, rep.count,
			n->trap_num, n->issuer_lid, hold);
		trap_event(sm, "LID %u is babbling: %u traps within a second, ignored for %u s",
			   from->lid, rep.count, hold);
		return false;
	case SM_TRAP_FLOOD:
		sm_warn("more than %u traps a second from all ports together: the excess is "
			"ignored, reported again after %u s", max * SM_TRAP_ALL_FACTOR, hold);
		trap_event(sm, "more than %u traps a second from all ports: the excess is ignored",
			   max * SM_TRAP_ALL_FACTOR);
		return false;
	default:
		return false;
	}
}

static void take_trap(struct sm *sm, const struct mad_smp *trap, const struct mad_addr *from)
{
	struct mad_notice n;
	struct mad_smp repress = *trap;
	bool may_sweep;

	mad_notice_decode(trap->data, &n);
	if (!trap_admit(sm, &n, from, &may_sweep))
		return;
	uint16_t lid = mad_notice_lid(&n);
	sm_notice("trap %u from LID %u (about LID %u)", n.trap_num, n.issuer_lid, lid);
	trap_event(sm, "trap %u from LID %u about LID %u", n.trap_num, n.issuer_lid, lid);
	repress.method = MAD_METHOD_TRAP_REPRESS;
	mad_rpc_send(sm->rpc, &repress, from);
	/* a vendor notice's trap number is its device ID: only a generic 128 counts */
	if (may_sweep && n.is_generic && n.trap_num == MAD_TRAP_LINK_STATE_CHANGE)
		sm_sweep_due(sm, "trap 128: a link changed state");
}

void sm_mad_in(void *ctx, const struct mad_smp *smp, const struct mad_addr *from)
{
	struct sm *sm = ctx;

	if (smp->method == MAD_METHOD_GET && smp->attr_id == MAD_ATTR_SM_INFO)
		answer_sm_info(sm, smp, from);
	else if (smp->method == MAD_METHOD_TRAP && smp->attr_id == MAD_ATTR_NOTICE)
		take_trap(sm, smp, from);
	else
		sm_debug("dropped an unsolicited MAD: method 0x%02x attribute 0x%04x from LID %u",
			 smp->method, smp->attr_id, from->lid);
}

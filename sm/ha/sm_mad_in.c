// SPDX-License-Identifier: MIT
/*
 * sm_mad_in.c - answer SMInfo queries, take traps.
 *
 * SMInfo (IBA 14.4.1): Get and Set from other SMs and tools, and the answers
 * to our polls of the master, go to sm_ha.c.  Trap (IBA 14.2.5.1 Notice):
 * every one is answered with TrapRepress first, so that its sender stops
 * repeating it (OpenSM's osm_trap_rcv.c does the same, before any rate
 * limit; OpenSM's own Trap 144 waits for its answer); a repress the
 * transport refuses is counted and logged, once per run of failures.  Then
 * it is counted per source LID (sm_trap_limit.h): a port over
 * traps.max_per_s is reported once and then ignored for traps.holddown_s,
 * neither logged nor stored.  A trap taken is logged and recorded as an
 * event; a generic link state change (Trap 128) or capability change (Trap
 * 144: an SM came, went or changed its priority, as another SM's Trap 144
 * says, or a port's capabilities changed) makes a heavy sweep due, at most
 * once per port and second, as OpenSM's sweep_on_trap does: its discovery
 * sees the change and its election the other SMs.  A bad M_Key (generic Trap
 * 256) is logged with what was tried (sm_mkey.c).  Everything else is
 * counted and dropped: the SMA of our own port is the adapter's business,
 * not ours.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "mad/mad_rpc.h"
#include "sm/ha/sm_ha.h"
#include "sm/util/sm_log.h"
#include "sm/ha/sm_mad_in.h"
#include "sm/core/sm_names.h"
#include "sm/core/sm_state.h"
#include "sm/ha/sm_trap_limit.h"
#include "sm/repair/sm_patch.h"

/* Store a report about traps as an event (queued while a worker stores a
 * sweep: sm_store_queue.h). */
static void trap_event(struct sm *sm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void trap_event(struct sm *sm, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	sm_store_event(&sm->store, DB_EV_TRAP, 0, -1, "%s", text);
}

/* Count the trap @n from @from against its port's rate: true to take it, with
 * *@may_sweep when it may make a heavy sweep due; false to drop it (reported
 * here when a port starts babbling or all ports together send too many). */
static bool trap_admit(struct sm *sm, const struct mad_notice *n, const struct mad_addr *from,
		       bool *may_sweep)
{
	struct sm_trap_report rep;
	unsigned max = sm->cfg.trap_max_per_s, hold = sm->cfg.trap_holddown_s;
	char name[SM_NAME_LEN];

	*may_sweep = false;
	switch (sm_trap_limit_take(sm->traps, from->lid, mad_now_ms(), max,
				   (uint64_t)hold * 1000, &rep)) {
	case SM_TRAP_FIRST:
		if (rep.ignored)
			sm_notice("traps from %s are taken again: %llu were ignored",
				  sm_name_lid(sm, from->lid, name, sizeof(name)),
				  (unsigned long long)rep.ignored);
		*may_sweep = true;
		return true;
	case SM_TRAP_TAKE:
		return true;
	case SM_TRAP_BABBLING:
		sm_name_lid(sm, from->lid, name, sizeof(name));
		sm_warn("%s is babbling: %u traps within a second (the last: trap %u from "
			"LID %u); its traps are ignored for %u s", name, rep.count,
			n->trap_num, n->issuer_lid, hold);
		trap_event(sm, "%s is babbling: %u traps within a second, ignored for %u s",
			   name, rep.count, hold);
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

/* Our port's LID, 0 while it has none. */
static uint16_t own_lid(const struct sm *sm)
{
	struct mad_local_port lp;

	return sm->t && sm->t->ops->local_port && sm->t->ops->local_port(sm->t, &lp) == 0 ? lp.lid
												: 0;
}

/* TrapRepress for @trap (number @num): by directed route back along the
 * return path; by LID to the source LID, or, SLID 0 (a trap from our own
 * node), to our own LID, as OpenSM does.  With no LID at all there is no way
 * back: the SMA repeats its Trap until the sweep it asks for gives it one. */
static void repress(struct sm *sm, const struct mad_smp *trap, const struct mad_addr *from,
		    unsigned num)
{
	struct mad_smp r = *trap;
	struct mad_addr to = *from;
	struct sm_ha *ha = sm->ha;

	mad_smp_make_trap_repress(&r);
	if (trap->mgmt_class == MAD_CLASS_SMI_DR)
		to.lid = MAD_LID_PERMISSIVE;
	else if (!to.lid)
		to.lid = own_lid(sm);
	if (!to.lid) {
		sm_debug("trap %u from LID 0 before our port has a LID: no way to repress it", num);
		return;
	}
	int rc = mad_rpc_send(sm->rpc, &r, &to);
	if (rc == 0) {
		if (ha->repress_failing)
			sm_notice("TrapRepress sent again, after %llu failed",
				  (unsigned long long)ha->repress_failing);
		ha->repress_failing = 0;
		ha->represses++;
		return;
	}
	ha->repress_failures++;
	if (!ha->repress_failing++)
		sm_warn("TrapRepress for trap %u to LID %u not sent: %s (its sender repeats the "
			"trap; said once until one is sent)", num, to.lid, strerror(-rc));
}

static void take_trap(struct sm *sm, const struct mad_smp *trap, const struct mad_addr *from)
{
	struct mad_notice n;
	bool may_sweep;

	mad_notice_decode(trap->data, &n);
	repress(sm, trap, from, n.trap_num);
	if (!trap_admit(sm, &n, from, &may_sweep))
		return;
	uint16_t lid = mad_notice_lid(&n);
	char issuer[SM_NAME_LEN], about[SM_NAME_LEN];
	sm_name_lid(sm, n.issuer_lid, issuer, sizeof(issuer));
	if (lid == n.issuer_lid)
		snprintf(about, sizeof(about), "itself");
	else
		sm_name_lid(sm, lid, about, sizeof(about));
	sm_notice("trap %u from %s, about %s", n.trap_num, issuer, about);
	trap_event(sm, "trap %u from %s, about %s", n.trap_num, issuer, about);
	if (n.is_generic && n.trap_num == MAD_TRAP_BAD_MKEY)
		sm_mkey_bad_key_trap(&n);
	/* a vendor notice's trap number is its device ID: only generic ones count */
	if (!may_sweep || !n.is_generic)
		return;
	if (n.trap_num == MAD_TRAP_LINK_STATE_CHANGE) {
		sm_patch_note(sm, sm_patch_switch_by_lid(sm, lid));
		sm_sweep_due(sm, "trap 128: a link changed state");
	} else if (n.trap_num == MAD_TRAP_CAPMASK_CHANGE) {
		sm_sweep_due(sm, "trap 144: capabilities changed (an SM may have come, gone or "
			     "changed its priority)");
	}
}

void sm_mad_in(void *ctx, const struct mad_smp *smp, const struct mad_addr *from)
{
	struct sm *sm = ctx;

	if (smp->attr_id == MAD_ATTR_SM_INFO)
		sm_ha_sm_info_in(sm, smp, from);
	else if (smp->method == MAD_METHOD_TRAP && smp->attr_id == MAD_ATTR_NOTICE)
		take_trap(sm, smp, from);
	else
		sm_debug("dropped an unsolicited MAD: method 0x%02x attribute 0x%04x from LID %u",
			 smp->method, smp->attr_id, from->lid);
}

// SPDX-License-Identifier: MIT
/*
 * sm_mad_in.c - answer SMInfo queries, take traps.
 *
 * SMInfo (IBA 14.4.1): Get and Set from other SMs and tools, and the answers
 * to our polls of the master, go to sm_ha.c.  Trap (IBA 14.2.5.1 Notice): logged,
 * recorded as an event, acknowledged with TrapRepress, and a link state change
 * (Trap 128) makes a heavy sweep due.  Everything else is counted and dropped:
 * the SMA of our own port is the adapter's business, not ours.
 */
#include <stdio.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "mad/mad_rpc.h"
#include "sm/sm_ha.h"
#include "sm/sm_log.h"
#include "sm/sm_mad_in.h"
#include "sm/sm_state.h"

static void take_trap(struct sm *sm, const struct mad_smp *trap, const struct mad_addr *from)
{
	struct mad_notice n;
	struct mad_smp repress = *trap;
	struct mad_addr to = *from;

	mad_notice_decode(trap->data, &n);
	uint16_t lid = mad_notice_lid(&n);
	sm_notice("trap %u from LID %u (about LID %u)", n.trap_num, n.issuer_lid, lid);
	pthread_mutex_lock(&sm->db_mu);	/* a worker may be storing a sweep */
	db_event_add(sm->db, 0, DB_EV_TRAP, 0, -1, "trap %u from LID %u about LID %u",
		     n.trap_num, n.issuer_lid, lid);
	pthread_mutex_unlock(&sm->db_mu);
	/* back to the sender: by directed route along the return path; by LID to
	 * the source LID, which a port without a LID yet (SLID 0) lacks: then the
	 * SMA repeats its Trap until the sweep it asks for gives it one */
	mad_smp_make_trap_repress(&repress);
	if (trap->mgmt_class == MAD_CLASS_SMI_DR)
		to.lid = MAD_LID_PERMISSIVE;
	if (to.lid)
		mad_rpc_send(sm->rpc, &repress, &to);
	else
		sm_info("trap %u from LID 0: no LID to send its TrapRepress to", n.trap_num);
	if (n.trap_num == MAD_TRAP_LINK_STATE_CHANGE)
		sm_sweep_due(sm, "trap 128: a link changed state");
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

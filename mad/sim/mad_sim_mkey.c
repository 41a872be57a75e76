// SPDX-License-Identifier: MIT
/*
 * mad_sim_mkey.c - M_Key checking by the simulated SMA (IBA 14.2.4).
 *
 * The key lives on the port holding node-wide addressing (a switch's port 0,
 * each CA port).  An SMP passes when that port's M_Key is 0 or equals the
 * SMP's.  Otherwise (14.2.4.1, table 127) a Set fails at every protection
 * level; a Get passes at levels 0 and 1 (level 1 answers with the M_Key field
 * zeroed) and fails at levels 2 and 3.  A failed check drops the SMP, counts an
 * M_KeyViolation, sends Trap 256 (bad M_Key) to the port's SM LID and, unless
 * the lease period is 0, starts the lease timer if it is not running.  Any SMP
 * with the right key stops the timer; when it runs out the port clears its
 * protect bits (14.2.4.2), so any SM may read the key and take the port over.
 * The timer is looked at whenever an SMP reaches the port.
 */
#include <errno.h>
#include <string.h>

#include "mad/sim/mad_sim_priv.h"

/* Trap 256 (IBA 14.2.5.1, table 150): the offending SMP's LID, method,
 * attribute, modifier and M_Key in the notice's details. */
static void sim_send_trap256(struct sim_fabric *f, uint32_t node, uint8_t port,
			     const struct sim_port *kp, const struct mad_smp *bad)
{
	struct mad_notice n = {
		.is_generic = true,
		.type = 0,		/* security */
		.producer_type = f->topo.nodes[node].type,
		.trap_num = MAD_TRAP_BAD_MKEY,
		.issuer_lid = kp->lid,
	};
	struct mad_smp smp;

	if (!kp->lid || !kp->sm_lid)
		return;	/* nobody to tell */
	mad_notice_set_lid(&n, kp->lid);
	n.details[4] = bad->method;
	n.details[6] = (uint8_t)(bad->attr_id >> 8);
	n.details[7] = (uint8_t)bad->attr_id;
	for (unsigned i = 0; i < 4; i++)
		n.details[8 + i] = (uint8_t)(bad->attr_mod >> (24 - 8 * i));
	for (unsigned i = 0; i < 8; i++)
		n.details[12 + i] = (uint8_t)(bad->mkey >> (56 - 8 * i));
	mad_smp_init_lid(&smp, MAD_METHOD_TRAP, MAD_ATTR_NOTICE, 0);
	smp.tid = ++f->next_trap_tid;
	mad_notice_encode(&n, smp.data);
	f->stats.traps++;
	sim_route_to_sm(f, &smp, node, port, kp->sm_lid, kp->lid, NULL);
}

bool sim_mkey_check(struct sim_fabric *f, uint32_t node, uint8_t port,
		    const struct mad_smp *smp, bool *hide)
{
	struct sim_port *kp = sim_addr_port(f, node, port);
	uint64_t now = sim_now_us();

	*hide = false;
	if (kp->mkey_lease_end_us && now >= kp->mkey_lease_end_us) {
		kp->mkey_prot = 0;	/* the lease ran out */
		kp->mkey_lease_end_us = 0;
	}
	if (kp->mkey == 0 || smp->mkey == kp->mkey) {
		kp->mkey_lease_end_us = 0;
		return true;
	}
	if (smp->method == MAD_METHOD_GET && kp->mkey_prot < 2) {
		*hide = kp->mkey_prot == 1;
		return true;
	}
	if (kp->mkey_violations < UINT16_MAX)
		kp->mkey_violations++;
	if (kp->mkey_lease && !kp->mkey_lease_end_us)
		kp->mkey_lease_end_us = now + (uint64_t)kp->mkey_lease * 1000000u;
	sim_send_trap256(f, node, port, kp, smp);
	return false;
}

int sim_set_mkey(struct sim_fabric *f, uint32_t node, uint8_t port, uint64_t key,
		 uint8_t protect, uint16_t lease_s)
{
	if (node >= f->topo.n || port > f->topo.nodes[node].nports || protect > 3)
		return -EINVAL;
	struct sim_port *kp = sim_addr_port(f, node, port);
	kp->mkey = key;
	kp->mkey_prot = protect;
	kp->mkey_lease = lease_s;
	kp->mkey_lease_end_us = 0;
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * mad_sim_ipoib.c - the hosts' IPoIB, as far as the SM sees it: each CA port
 * joins the IPoIB broadcast group of every partition in its P_Key table with
 * an MCMemberRecord Set to its SM (sim_set_ipoib(), off by default).
 *
 * When (the kernel's ipoib_verbs.c `ipoib_event`, ipoib_multicast.c): the port
 * goes ACTIVE, or a PortInfo Set carries ClientReregister on a port that says
 * IsClientReregistrationSupported.  Nothing else: with LIDs kept across an SM
 * restart or failover the port stays ACTIVE, and mlx5 raises no SM change
 * event, so without ClientReregister a host never joins again.  Lenient
 * (SIM_LENIENT_SM_CHANGE): a change of the port's SM LID also makes it
 * rejoin, as on HCAs that raise IB_EVENT_SM_CHANGE.
 *
 * How: the join (MGID ff12:401b:PKEY::ffff:ffff with the full-member bit,
 * PortGID, P_Key, JoinState full member: what IPoIB asks for a group it does
 * not create) goes LID routed from the port to its SM LID, QP1, on the
 * default P_Key (lost where either end lacks it); the SA's
 * answer, routed back to the port's LID, is taken here by its TID (the
 * hosts' own range), an SM bound at the port or not (mad_sim_gsi.c).  A join not answered within
 * the pace, or answered with an error status, is sent again after a backoff
 * that starts at the pace and doubles up to 16 times it (IPoIB: 1 s doubling
 * to 16 s, each answer awaited 3 s).  The pace (ipoib=MSEC) keeps tests short.
 *
 * Data: per CA port, once it first has to join, the partitions it joins and
 * each one's state; per fabric the earliest time something is due, which
 * the transports' timers include (mad_sim_transport.c), so an SM's event
 * loop wakes the hosts up.  Under the fabric's mutex, as everything else.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_bytes.h"
#include "mad/mad_sa_mcmember.h"
#include "mad/sim/mad_sim_priv.h"

#define IPOIB_BACKOFF_MAX 16	/* times the pace */
#define IPOIB_TID_BASE 0x1b00000000ull	/* the hosts' TIDs: apart from the SMs' */

void sim_set_ipoib(struct sim_fabric *f, unsigned pace_ms)
{
	f->ipoib_ms = pace_ms;
	f->ipoib_due_us = UINT64_MAX;
}

/* The partitions port @sp is in: the valid entries of its P_Key table. */
static unsigned port_pkeys(const struct sim_port *sp, uint16_t out[SIM_IPOIB_PARTS])
{
	unsigned n = 0;

	if (!sp->pkeys) {
		out[0] = 0xffff;	/* the default table */
		return 1;
	}
	for (unsigned i = 0; i < SIM_PKEY_CAP && n < SIM_IPOIB_PARTS; i++)
		if (sp->pkeys[i] & 0x7fff)
			out[n++] = sp->pkeys[i];
	return n;
}

static void due_at(struct sim_fabric *f, uint64_t at_us)
{
	if (at_us < f->ipoib_due_us)
		f->ipoib_due_us = at_us;
}

void sim_ipoib_event(struct sim_fabric *f, uint32_t node, uint8_t port, enum sim_ipoib_why why)
{
	struct sim_port *sp = &f->nodes[node].ports[port];

	if (!f->ipoib_ms || f->topo.nodes[node].type == MAD_NODE_SWITCH ||
	    (why == SIM_IPOIB_SM_CHANGE && !(f->lenient & SIM_LENIENT_SM_CHANGE)))
		return;
	if (!sp->ipoib && !(sp->ipoib = calloc(1, sizeof(*sp->ipoib))))
		return;	/* no memory: this host does not join (a host would retry) */
	uint16_t pkeys[SIM_IPOIB_PARTS];
	unsigned n = port_pkeys(sp, pkeys);
	uint64_t now = sim_now_us();
	struct sim_ipoib *ip = sp->ipoib;
	ip->n = (uint8_t)n;
	for (unsigned i = 0; i < n; i++)	/* leave all, join again (a flush) */
		ip->j[i] = (struct sim_ipoib_join){ .pkey = pkeys[i], .due_us = now,
						    .backoff_ms = f->ipoib_ms };
	due_at(f, now);
}

/* Send @j's join from @node's @port, LID routed to its SM (lost on the way
 * when nothing routes there or nobody is bound there, as on a fabric). */
static void send_join(struct sim_fabric *f, uint32_t node, uint8_t port, struct sim_ipoib_join *j)
{
	const struct sim_port *sp = &f->nodes[node].ports[port];
	struct mad_sa_mcmember_record r = { .pkey = j->pkey, .join_state = MAD_MC_JOIN_FULL };
	j->tid = IPOIB_TID_BASE + ++f->ipoib_tid;
	struct mad_sa sa = {
		.base_version = 1, .mgmt_class = MAD_CLASS_SA, .class_version = MAD_SA_CLASS_VERSION,
		.method = MAD_SA_METHOD_SET, .attr_id = MAD_SA_ATTR_MCMEMBER_RECORD, .tid = j->tid,
		.comp_mask = MAD_SA_MCMR_MGID | MAD_SA_MCMR_PORT_GID | MAD_SA_MCMR_PKEY |
			     MAD_SA_MCMR_JOIN_STATE,
	};
	static const uint8_t bcast[MAD_GID_LEN] = {
		0xff, 0x12, 0x40, 0x1b, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
	};
	uint8_t mad[MAD_BLOCK_SIZE];

	memcpy(r.mgid, bcast, MAD_GID_LEN);
	mad_put_be(r.mgid + 4, j->pkey | 0x8000u, 2);	/* as IPoIB forms it */
	mad_put_be(r.port_gid, sp->gid_prefix, 8);
	mad_put_be(r.port_gid + 8, f->topo.nodes[node].ports[port].guid, 8);
	mad_sa_mcmember_record_encode(&r, sa.data);
	mad_sa_encode(&sa, mad);
	f->stats.ipoib_joins++;
	/* on the default partition, as the kernel's SA client sends: both ends
	 * must hold it, one a full member (IBA 10.9.3) */
	int to = sim_lid_to_sm(f, node, port, sp->sm_lid);
	bool host_full, sm_full;
	const struct sim_port *smp = to < 0 ? NULL
				     : &f->nodes[f->sms[to].node].ports[f->sms[to].port];
	int at = smp && sim_pkey_find(sp, 0xffff, &host_full) >= 0
		 ? sim_pkey_find(smp, 0xffff, &sm_full) : -1;
	if (at < 0 || (!host_full && !sm_full)) {
		f->stats.dropped++;
		return;
	}
	sim_queue_push_raw(f, to, mad, &(struct mad_addr){ .lid = sp->lid, .qpn = 1,
							   .pkey_index = (uint16_t)at });
}

/* @j failed (no answer in time, or an error status): again after its backoff. */
static void backoff(struct sim_fabric *f, struct sim_ipoib_join *j, uint64_t now)
{
	j->sent = false;
	j->due_us = now + (uint64_t)j->backoff_ms * 1000u;
	if (j->backoff_ms < f->ipoib_ms * IPOIB_BACKOFF_MAX)
		j->backoff_ms *= 2;
}

void sim_ipoib_run(struct sim_fabric *f, uint64_t now)
{
	if (!f->ipoib_ms || now < f->ipoib_due_us)
		return;
	f->ipoib_due_us = UINT64_MAX;
	for (uint32_t n = 0; n < f->topo.n; n++) {
		if (f->topo.nodes[n].type == MAD_NODE_SWITCH)
			continue;
		for (uint8_t p = 1; p <= f->topo.nodes[n].nports; p++) {
			struct sim_port *sp = &f->nodes[n].ports[p];
			for (unsigned i = 0; sp->ipoib && i < sp->ipoib->n; i++) {
				struct sim_ipoib_join *j = &sp->ipoib->j[i];
				if (j->joined)
					continue;
				if (j->sent && now >= j->due_us)
					backoff(f, j, now);	/* no answer in time */
				if (!j->sent && now >= j->due_us && sp->state == MAD_PORT_ACTIVE &&
				    sp->lid && sp->sm_lid) {
					send_join(f, n, p, j);
					j->sent = true;
					j->due_us = now + (uint64_t)f->ipoib_ms * 1000u;
				}
				if (!j->sent && sp->state != MAD_PORT_ACTIVE)
					continue;	/* the next ACTIVE starts it again */
				due_at(f, j->due_us);
			}
		}
	}
}

bool sim_ipoib_take(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
		    uint16_t dlid)
{
	uint32_t node = f->sms[sm].node;
	uint8_t port = f->sms[sm].port;
	struct mad_sa sa;

	if (!f->ipoib_ms || mad_sa_decode(mad, MAD_BLOCK_SIZE, &sa) ||
	    sa.method != MAD_SA_METHOD_GET_RESP || sa.attr_id != MAD_SA_ATTR_MCMEMBER_RECORD ||
	    sa.tid >> 32 != IPOIB_TID_BASE >> 32 || !sim_lid_walk(f, &node, &port, dlid) ||
	    !f->nodes[node].ports[port].ipoib)
		return false;	/* not an answer to a host's join */
	struct sim_ipoib *ip = f->nodes[node].ports[port].ipoib;
	for (unsigned i = 0; i < ip->n; i++) {
		struct sim_ipoib_join *j = &ip->j[i];
		if (!j->sent || j->tid != sa.tid)
			continue;
		if (sa.status) {
			backoff(f, j, sim_now_us());
			due_at(f, j->due_us);
		} else {
			j->sent = false;
			j->joined = true;
			f->stats.ipoib_joined++;
		}
		return true;
	}
	return true;	/* an answer to a join given up: taken, nothing to do */
}

int sim_ipoib_joined(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t pkey)
{
	if (node >= f->topo.n || f->topo.nodes[node].type == MAD_NODE_SWITCH || port < 1 ||
	    port > f->topo.nodes[node].nports)
		return -EINVAL;
	const struct sim_ipoib *ip = f->nodes[node].ports[port].ipoib;
	for (unsigned i = 0; ip && i < ip->n; i++)
		if ((ip->j[i].pkey & 0x7fff) == (pkey & 0x7fff))
			return ip->j[i].joined;
	return 0;
}

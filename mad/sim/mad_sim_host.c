// SPDX-License-Identifier: MIT
/*
 * mad_sim_host.c - the hosts' SA clients, as far as the SM sees them (on
 * with sim_set_ipoib(), off by default):
 *  - IPoIB: each CA port joins the IPoIB broadcast group of every partition
 *    in its P_Key table with an MCMemberRecord Set to its SM;
 *  - the SR-IOV alias GUID service of a PF driver (the kernel's mlx4
 *    alias_GUID.c): the GUIDs its virtual functions want (sim_set_vf_guids())
 *    are registered with a GUIDInfoRecord Set per GUIDInfo block.
 *
 * When (the kernel's ipoib_verbs.c `ipoib_event`, ipoib_multicast.c; mlx4
 * mad.c `handle_client_rereg_event`, which invalidates every alias GUID
 * record so that the service registers it again): the port goes ACTIVE, or a
 * PortInfo Set carries ClientReregister on a port that says
 * IsClientReregistrationSupported.  Nothing else: with LIDs kept across an SM
 * restart or failover the port stays ACTIVE, and mlx5 raises no SM change
 * event, so without ClientReregister a host never asks again.  Lenient
 * (SIM_LENIENT_SM_CHANGE): a change of the port's SM LID also makes it ask
 * again, as on HCAs that raise IB_EVENT_SM_CHANGE.
 *
 * How: a request goes LID routed from the port to its SM LID, QP1, on the
 * default P_Key (lost where either end lacks it).  A join is what IPoIB asks
 * for a group it does not create: MGID ff12:401b:PKEY::ffff:ffff with the
 * full-member bit, PortGID, P_Key, JoinState full member.  A registration
 * names the port's LID, the block and the entries it sets.  The SA's answer,
 * routed back to the port's LID, is taken here by its TID (the hosts' own
 * range), an SM bound at the port or not (mad_sim_gsi.c).  A request not
 * answered within the pace, or answered with an error status, is sent again
 * after a backoff that starts at the pace and doubles up to 16 times it
 * (IPoIB: 1 s doubling to 16 s, each answer awaited 3 s).  The pace
 * (ipoib=MSEC) keeps tests short.
 *
 * Data: per CA port, once it first has to ask, its requests and each one's
 * state, and the VF GUIDs its driver wants; per fabric the earliest time
 * something is due, which the transports' timers include
 * (mad_sim_transport.c), so an SM's event loop wakes the hosts up.  Under the
 * fabric's mutex, as everything else.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_bytes.h"
#include "mad/mad_sa_mcmember.h"
#include "mad/sim/mad_sim_priv.h"

#define HOST_BACKOFF_MAX 16	/* times the pace */
#define HOST_TID_BASE 0x1b00000000ull	/* the hosts' TIDs: apart from the SMs' */
#define VF_BLOCKS (SIM_GUID_CAP / MAD_GUID_INFO_BLOCK)

void sim_set_ipoib(struct sim_fabric *f, unsigned pace_ms)
{
	f->ipoib_ms = pace_ms;
	f->ipoib_due_us = UINT64_MAX;
}

/* The host state of CA port @node/@port, made on first use; NULL: no memory
 * (this host asks nothing: a host would retry). */
static struct sim_host *host_of(struct sim_fabric *f, uint32_t node, uint8_t port)
{
	struct sim_port *sp = &f->nodes[node].ports[port];

	if (!sp->host)
		sp->host = calloc(1, sizeof(*sp->host));
	return sp->host;
}

int sim_set_vf_guids(struct sim_fabric *f, uint32_t node, uint8_t port, const uint64_t *guids,
		     unsigned n)
{
	if (node >= f->topo.n || f->topo.nodes[node].type == MAD_NODE_SWITCH || port < 1 ||
	    port > f->topo.nodes[node].nports || n >= SIM_GUID_CAP)
		return -EINVAL;
	struct sim_host *h = host_of(f, node, port);
	if (!h)
		return -ENOMEM;
	memset(h->vf, 0, sizeof(h->vf));
	if (n)	/* entry 0 is the port GUID */
		memcpy(h->vf + 1, guids, n * sizeof(*guids));
	return 0;
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

/* Whether GUIDInfo block @b holds a GUID the VFs want. */
static bool vf_block_used(const struct sim_host *h, unsigned b)
{
	for (unsigned k = 0; k < MAD_GUID_INFO_BLOCK; k++)
		if (h->vf[b * MAD_GUID_INFO_BLOCK + k])
			return true;
	return false;
}

static void due_at(struct sim_fabric *f, uint64_t at_us)
{
	if (at_us < f->ipoib_due_us)
		f->ipoib_due_us = at_us;
}

void sim_host_event(struct sim_fabric *f, uint32_t node, uint8_t port, enum sim_host_why why)
{
	if (!f->ipoib_ms || f->topo.nodes[node].type == MAD_NODE_SWITCH ||
	    (why == SIM_HOST_SM_CHANGE && !(f->lenient & SIM_LENIENT_SM_CHANGE)))
		return;
	struct sim_host *h = host_of(f, node, port);
	if (!h)
		return;
	uint16_t pkeys[SIM_IPOIB_PARTS];
	unsigned n = port_pkeys(&f->nodes[node].ports[port], pkeys);
	uint64_t now = sim_now_us();
	h->n = 0;	/* leave all, ask again (a flush) */
	for (unsigned i = 0; i < n; i++)
		h->r[h->n++] = (struct sim_host_req){ .kind = SIM_HOST_JOIN, .pkey = pkeys[i] };
	for (unsigned b = 0; b < VF_BLOCKS; b++)
		if (vf_block_used(h, b))
			h->r[h->n++] = (struct sim_host_req){ .kind = SIM_HOST_ALIAS,
							      .block = (uint8_t)b };
	for (unsigned i = 0; i < h->n; i++) {
		h->r[i].due_us = now;
		h->r[i].backoff_ms = f->ipoib_ms;
	}
	due_at(f, now);
}

/* @r as an SA request from @node's @port, into @sa. */
static void encode_join(const struct sim_fabric *f, uint32_t node, uint8_t port,
			const struct sim_host_req *r, struct mad_sa *sa)
{
	static const uint8_t bcast[MAD_GID_LEN] = {
		0xff, 0x12, 0x40, 0x1b, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
	};
	struct mad_sa_mcmember_record m = { .pkey = r->pkey, .join_state = MAD_MC_JOIN_FULL };

	sa->attr_id = MAD_SA_ATTR_MCMEMBER_RECORD;
	sa->comp_mask = MAD_SA_MCMR_MGID | MAD_SA_MCMR_PORT_GID | MAD_SA_MCMR_PKEY |
			MAD_SA_MCMR_JOIN_STATE;
	memcpy(m.mgid, bcast, MAD_GID_LEN);
	mad_put_be(m.mgid + 4, r->pkey | 0x8000u, 2);	/* as IPoIB forms it */
	mad_put_be(m.port_gid, f->nodes[node].ports[port].gid_prefix, 8);
	mad_put_be(m.port_gid + 8, f->topo.nodes[node].ports[port].guid, 8);
	mad_sa_mcmember_record_encode(&m, sa->data);
}

/* A registration sets the block's entries the VFs use (mlx4 alias_GUID.c:
 * LID, block and one component bit a GUID; entry 0 never). */
static void encode_alias(const struct sim_fabric *f, uint32_t node, uint8_t port,
			 const struct sim_host_req *r, struct mad_sa *sa)
{
	const struct sim_port *sp = &f->nodes[node].ports[port];
	struct mad_sa_guid_info_record g = { .lid = sp->lid, .block = r->block };

	sa->attr_id = MAD_SA_ATTR_GUID_INFO_RECORD;
	sa->comp_mask = MAD_SA_COMP(0) | MAD_SA_COMP(1);	/* LID, BlockNum */
	for (unsigned k = 0; k < MAD_GUID_INFO_BLOCK; k++) {
		g.guid[k] = sp->host->vf[r->block * MAD_GUID_INFO_BLOCK + k];
		if (g.guid[k])
			sa->comp_mask |= MAD_SA_COMP(4 + k);
	}
	mad_sa_guid_info_record_encode(&g, sa->data);
}

/* Send @r from @node's @port, LID routed to its SM (lost on the way when
 * nothing routes there or nobody is bound there, as on a fabric). */
static void send_req(struct sim_fabric *f, uint32_t node, uint8_t port, struct sim_host_req *r)
{
	const struct sim_port *sp = &f->nodes[node].ports[port];
	r->tid = HOST_TID_BASE + ++f->ipoib_tid;
	struct mad_sa sa = {
		.base_version = 1, .mgmt_class = MAD_CLASS_SA, .class_version = MAD_SA_CLASS_VERSION,
		.method = MAD_SA_METHOD_SET, .tid = r->tid,
	};
	uint8_t mad[MAD_BLOCK_SIZE];

	if (r->kind == SIM_HOST_JOIN) {
		encode_join(f, node, port, r, &sa);
		f->stats.ipoib_joins++;
	} else {
		encode_alias(f, node, port, r, &sa);
		f->stats.alias_sets++;
	}
	mad_sa_encode(&sa, mad);
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

/* @r failed (no answer in time, or an error status): again after its backoff. */
static void backoff(struct sim_fabric *f, struct sim_host_req *r, uint64_t now)
{
	r->sent = false;
	r->due_us = now + (uint64_t)r->backoff_ms * 1000u;
	if (r->backoff_ms < f->ipoib_ms * HOST_BACKOFF_MAX)
		r->backoff_ms *= 2;
}

void sim_host_run(struct sim_fabric *f, uint64_t now)
{
	if (!f->ipoib_ms || now < f->ipoib_due_us)
		return;
	f->ipoib_due_us = UINT64_MAX;
	for (uint32_t n = 0; n < f->topo.n; n++) {
		if (f->topo.nodes[n].type == MAD_NODE_SWITCH)
			continue;
		for (uint8_t p = 1; p <= f->topo.nodes[n].nports; p++) {
			struct sim_port *sp = &f->nodes[n].ports[p];
			for (unsigned i = 0; sp->host && i < sp->host->n; i++) {
				struct sim_host_req *r = &sp->host->r[i];
				if (r->done)
					continue;
				if (r->sent && now >= r->due_us)
					backoff(f, r, now);	/* no answer in time */
				if (!r->sent && now >= r->due_us && sp->state == MAD_PORT_ACTIVE &&
				    sp->lid && sp->sm_lid) {
					send_req(f, n, p, r);
					r->sent = true;
					r->due_us = now + (uint64_t)f->ipoib_ms * 1000u;
				}
				if (!r->sent && sp->state != MAD_PORT_ACTIVE)
					continue;	/* the next ACTIVE starts it again */
				due_at(f, r->due_us);
			}
		}
	}
}

bool sim_host_take(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE], uint16_t dlid)
{
	uint32_t node = f->sms[sm].node;
	uint8_t port = f->sms[sm].port;
	struct mad_sa sa;

	if (!f->ipoib_ms || mad_sa_decode(mad, MAD_BLOCK_SIZE, &sa) ||
	    sa.method != MAD_SA_METHOD_GET_RESP || sa.tid >> 32 != HOST_TID_BASE >> 32 ||
	    (sa.attr_id != MAD_SA_ATTR_MCMEMBER_RECORD &&
	     sa.attr_id != MAD_SA_ATTR_GUID_INFO_RECORD) ||
	    !sim_lid_walk(f, &node, &port, dlid) || !f->nodes[node].ports[port].host)
		return false;	/* not an answer to a host's request */
	struct sim_host *h = f->nodes[node].ports[port].host;
	for (unsigned i = 0; i < h->n; i++) {
		struct sim_host_req *r = &h->r[i];
		if (!r->sent || r->tid != sa.tid)
			continue;
		if (sa.status) {
			backoff(f, r, sim_now_us());
			due_at(f, r->due_us);
		} else {
			r->sent = false;
			r->done = true;
			if (r->kind == SIM_HOST_JOIN)
				f->stats.ipoib_joined++;
			else
				f->stats.alias_registered++;
		}
		return true;
	}
	return true;	/* an answer to a request given up: taken, nothing to do */
}

/* The state of @node/@port's last request of @kind for @what (a P_Key, 15
 * bits compared, or a block): 1 answered with success, 0 not (yet), -EINVAL
 * for no CA port. */
static int host_done(const struct sim_fabric *f, uint32_t node, uint8_t port,
		     enum sim_host_kind kind, uint16_t what)
{
	if (node >= f->topo.n || f->topo.nodes[node].type == MAD_NODE_SWITCH || port < 1 ||
	    port > f->topo.nodes[node].nports)
		return -EINVAL;
	const struct sim_host *h = f->nodes[node].ports[port].host;
	for (unsigned i = 0; h && i < h->n; i++)
		if (h->r[i].kind == kind &&
		    (kind == SIM_HOST_JOIN ? (h->r[i].pkey & 0x7fff) == (what & 0x7fff)
					   : h->r[i].block == what))
			return h->r[i].done;
	return 0;
}

int sim_ipoib_joined(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t pkey)
{
	return host_done(f, node, port, SIM_HOST_JOIN, pkey);
}

int sim_vf_guids_registered(const struct sim_fabric *f, uint32_t node, uint8_t port,
			    uint8_t block)
{
	return host_done(f, node, port, SIM_HOST_ALIAS, block);
}

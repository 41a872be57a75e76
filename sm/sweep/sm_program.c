// SPDX-License-Identifier: MIT
/*
 * sm_program.c - PortInfo, SwitchInfo and LFT programming, then activation.
 *
 * Every Set is computed against what the device reported (f->attrs), so an SMP
 * that would change nothing is never sent.  Fields we do not mean to change go
 * out as IBA's "no state change" values (PortState, PortPhysicalState,
 * LinkSpeedEnabled, LinkWidthEnabled, LinkDownDefaultState = 0; IBA 14.2.5.6).
 * Each phase submits all its SMPs, then drains the rpc window; answers are
 * written back into f->attrs so the next phase and the store see the result.
 * The answer to a Set is the attribute as the device now holds it: one that
 * does not show what was asked counts as a failure.  A Set(ACTIVE) refused
 * with 0x1C is followed by a Get: a port that went ACTIVE by itself is fine.
 * Ports with no discovered peer are left as they are (ibsmd(8)).
 * ClientReregister (IBA 14.4.11) is set in the PortInfo pass of the first
 * sweep after becoming MASTER, on ports new since the last sweep and on
 * ports whose SM LID changes, where CapabilityMask says
 * IsClientReregistrationSupported (OpenSM's osm_lid_mgr.c rule): the hosts'
 * IPoIB, ibacm and rdma_cm multicast users rejoin only on that event (mlx5
 * raises no SM change).  Every other Set writes it 0, whatever the port
 * reported (some echo a 1 back), and no answer is judged by it.
 * M_Keys go first, in a phase of their own (sm_mkey.h): every later SMP to a
 * switch then carries the key its port 0 holds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sweep/sm_link.h"
#include "sm/util/sm_log.h"
#include "sm/sa/sm_pkey_program.h"
#include "sm/sweep/sm_program.h"
#include "sm/sweep/sm_sl2vl.h"
#include "sm/repair/sm_ar.h"
#include "sm/sa/sm_sa.h"

struct prog {
	struct sm *sm;
	struct sm_fabric *f;
	const struct sm_routes *routes;
	struct sm_arena *arena;
	struct sm_program_result *res;
	uint16_t sm_lid;
	uint64_t **dirty;	/* per switch: bitmap of the LFT blocks to send */
	uint8_t **held;		/* per switch being read back: what its LFT holds */
	bool *reread;		/* per switch: its table is not what the store says */
	bool reset_seen;	/* a switch came with LinearFDBTop 0: new or reset */
	size_t nblocks;
};

struct prog_req {
	struct prog *pg;
	uint32_t node;
	uint16_t index;		/* port, or LFT block */
};

static int submit(struct prog *pg, uint8_t method, uint16_t attr, uint32_t mod,
		  uint32_t node, uint16_t index, const uint8_t *payload, mad_rpc_done_fn done)
{
	/* callbacks never submit through here (on_port_set's Get goes straight
	 * to the rpc layer), so waiting here cannot nest */
	int rc = mad_rpc_wait_backlog(pg->sm->rpc);

	if (rc)
		return rc;
	struct prog_req *r = sm_arena_alloc(pg->arena, sizeof(*r));
	if (!r)
		return -ENOMEM;
	*r = (struct prog_req){ .pg = pg, .node = node, .index = index };
	struct topo_path path = pg->f->topo.nodes[node].path;
	if (attr == MAD_ATTR_PORT_INFO) {
		sm_fabric_port_path(pg->f, node, (uint8_t)index, &path);
		mod = sm_fabric_port_info_mod(pg->f, node, (uint8_t)index);
	}
	return mad_rpc_submit_dr(pg->sm->rpc, method, attr, mod, &path,
				 sm_mkey_for(pg->f, node, (uint8_t)index), payload, done, r);
}

/* Count and log a failed SMP; @resp (may be NULL) carries the device's status. */
static void failed(struct prog *pg, const struct prog_req *r, int err,
		   const struct mad_smp *resp, const char *what)
{
	const struct topo_node *n = &pg->f->topo.nodes[r->node];
	char why[64];

	pg->res->failures++;
	sm_warn("programming: %s on 0x%016llx (%s) %u failed: %s", what,
		(unsigned long long)n->guid, n->desc, r->index,
		sm_smp_error(err, resp, why, sizeof(why)));
}

/* ---- PortInfo ---- */

/* The answer @pi (to an SMP with modifier @mod) is what port r->index holds. */
static void port_took(struct prog_req *r, uint32_t mod, const struct mad_port_info *pi)
{
	r->pg->f->attrs[r->node].pi[r->index] = *pi;
	struct topo_port *tp = &r->pg->f->topo.nodes[r->node].ports[r->index];
	tp->state = pi->port_state;
	tp->phys_state = pi->phys_state;
	/* a link whose enabled rates were raised may have trained again */
	tp->width = pi->link_width_active;
	tp->speed = mad_port_speed_active(pi, (mod & MAD_PORT_INFO_EXT_SPEEDS) != 0);
}

/*
 * Did the port take what the Set asked?  The answer to a Set is the attribute
 * as it now is (IBA 13.4.6.2), so every field we meant to change must read
 * back as asked: addressing on an endpoint (LMC where the port has one), the
 * link's MTU and VLs, and the state (ARMED may have gone on to ACTIVE).
 */
static bool port_took_all(const struct prog *pg, uint32_t n, unsigned p,
			  const struct mad_port_info *want, const struct mad_port_info *got)
{
	const struct topo_node *tn = &pg->f->topo.nodes[n];
	bool endpoint = tn->type != MAD_NODE_SWITCH || p == 0;
	bool has_lmc = tn->type != MAD_NODE_SWITCH || tn->enhanced_port0;

	if (endpoint && (got->lid != want->lid || got->sm_lid != want->sm_lid ||
			 got->gid_prefix != want->gid_prefix ||
			 (has_lmc && got->lmc != want->lmc)))
		return false;
	if ((want->neighbor_mtu && got->neighbor_mtu != want->neighbor_mtu) ||
	    (want->oper_vls && got->oper_vls != want->oper_vls))
		return false;
	if (want->port_state == MAD_PORT_ARMED)
		return got->port_state == MAD_PORT_ARMED || got->port_state == MAD_PORT_ACTIVE;
	return want->port_state == MAD_PORT_NOP || got->port_state == want->port_state;
}

/* The Get after a refused Set(ACTIVE): a port that went ACTIVE by itself
 * meanwhile (an ARMED port does on its first data packet) is what we wanted. */
static void on_active_check(void *ctx, int err, const struct mad_smp *req,
			    const struct mad_smp *resp)
{
	struct prog_req *r = ctx;
	const struct topo_node *n = &r->pg->f->topo.nodes[r->node];
	struct mad_port_info pi;

	if (!err)
		err = mad_port_info_decode(resp->data, &pi);
	if (err) {
		failed(r->pg, r, err, resp, "PortInfo Get (after a Set(ACTIVE) refused) of port");
		return;
	}
	port_took(r, req->attr_mod, &pi);
	if (pi.port_state == MAD_PORT_ACTIVE)
		return;
	r->pg->res->failures++;
	sm_warn("programming: PortInfo Set(ACTIVE) on 0x%016llx (%s) port %u refused with "
		"status 0x1C, and the port is %s", (unsigned long long)n->guid, n->desc, r->index,
		mad_port_state_name(pi.port_state));
}

/* A Set answered without error that did not take: counted as a failure. */
static void port_mismatch(struct prog_req *r, const struct mad_port_info *want,
			  const struct mad_port_info *got)
{
	const struct topo_node *n = &r->pg->f->topo.nodes[r->node];

	r->pg->res->failures++;
	sm_warn("programming: PortInfo Set on 0x%016llx (%s) port %u did not take: asked LID "
		"%u SM LID %u MTU %u VLs %u state %s, the answer shows LID %u SM LID %u MTU %u "
		"VLs %u state %s", (unsigned long long)n->guid, n->desc, r->index, want->lid,
		want->sm_lid, want->neighbor_mtu, want->oper_vls,
		mad_port_state_name(want->port_state), got->lid, got->sm_lid, got->neighbor_mtu,
		got->oper_vls, mad_port_state_name(got->port_state));
}

static void on_port_set(void *ctx, int err, const struct mad_smp *req,
			const struct mad_smp *resp)
{
	struct prog_req *r = ctx;
	struct mad_port_info want, pi;

	mad_port_info_decode(req->data, &want);
	if (err == -EREMOTEIO && resp->status == MAD_STATUS_INVALID_FIELD &&
	    want.port_state == MAD_PORT_ACTIVE) {
		/* status 0x1C: maybe Active already; ask (the answer completes it) */
		struct topo_path path;
		sm_fabric_port_path(r->pg->f, r->node, (uint8_t)r->index, &path);
		if (mad_rpc_submit_dr(r->pg->sm->rpc, MAD_METHOD_GET, MAD_ATTR_PORT_INFO,
				      req->attr_mod, &path, req->mkey, NULL, on_active_check, r) == 0)
			return;
	}
	if (!err)
		err = mad_port_info_decode(resp->data, &pi);
	if (err) {
		failed(r->pg, r, err, resp, "PortInfo Set");
		sm_mkey_set_failed(r->pg->f, r->node, (uint8_t)r->index, err);
		return;
	}
	sm_mkey_set_answered(r->pg->f, r->node, (uint8_t)r->index, &want, &pi);
	if (sm_link_port_taken(r->pg->f, r->node, r->index, &want, &pi))
		failed(r->pg, r, -ENOMEM, NULL, "PortInfo Set");
	port_took(r, req->attr_mod, &pi);
	if (!port_took_all(r->pg, r->node, r->index, &want, &pi))
		port_mismatch(r, &want, &pi);
}

static const struct mad_port_info *peer_info(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	const struct topo_port *tp = &f->topo.nodes[n].ports[p];

	if (tp->peer == TOPO_NONE || !f->attrs[tp->peer].pi_valid[tp->peer_port])
		return NULL;
	return &f->attrs[tp->peer].pi[tp->peer_port];
}

static uint8_t min8(uint8_t a, uint8_t b)
{
	return a < b ? a : b;
}

/* Was port @p of node @n (of the sweep's fabric) not up in the last sweep:
 * its node new, or the port without a link then? */
static bool port_new(const struct prog *pg, uint32_t n, unsigned p)
{
	const struct sm *sm = pg->sm;

	if (!sm->have_fabric)
		return true;
	uint32_t o = topo_find_guid(&sm->fabric.topo, pg->f->topo.nodes[n].guid);
	if (o == TOPO_NONE || p > sm->fabric.topo.nodes[o].nports)
		return true;
	return sm->fabric.topo.nodes[o].ports[p].state < MAD_PORT_INIT;
}

/* Should this PortInfo Set (to ARMED, the pass every port gets) ask the
 * clients of endpoint port @p of node @n to reregister? */
static bool rereg_wanted(const struct prog *pg, uint32_t n, unsigned p, uint8_t target_state,
			 const struct mad_port_info *cur)
{
	return target_state == MAD_PORT_ARMED &&
	       (cur->cap_mask & MAD_CAP_IS_CLIENT_REREG_SUPPORTED) &&
	       (pg->sm->first_master_sweep || cur->sm_lid != pg->sm_lid || port_new(pg, n, p));
}

/*
 * What port @p of node @n should hold, as a Set payload in @want (with the
 * no-change values); returns whether it differs from what the port holds.
 */
static bool port_wanted(const struct prog *pg, uint32_t n, unsigned p, uint8_t target_state,
			struct mad_port_info *want)
{
	const struct sm_fabric *f = pg->f;
	const struct topo_node *tn = &f->topo.nodes[n];
	const struct topo_port *tp = &tn->ports[p];
	const struct mad_port_info *cur = &f->attrs[n].pi[p];
	bool endpoint = tn->type != MAD_NODE_SWITCH || p == 0;
	bool change = false;

	*want = *cur;
	want->port_state = MAD_PORT_NOP;
	want->phys_state = MAD_PHYS_NOP;
	want->link_speed_enabled = 0;
	want->link_width_enabled = 0;
	want->link_speed_ext_enabled = 0;
	want->link_down_default = 0;
	want->client_reregister = 0;	/* never copied: one event per ask */
	if (target_state == MAD_PORT_NOP)	/* the M_Key phase: keys alone, first */
		return sm_mkey_port_wanted(f, n, (uint8_t)p, want);
	if (endpoint) {
		want->lid = tp->lid;
		want->lmc = tp->lmc;
		want->sm_lid = pg->sm_lid;
		want->gid_prefix = pg->sm->cfg.subnet_prefix;
		if (n == f->local_node && p == f->local_port)
			want->cap_mask |= MAD_CAP_IS_SM;
		want->client_reregister = rereg_wanted(pg, n, p, target_state, cur);
		change = want->lid != cur->lid || want->lmc != cur->lmc ||
			 want->sm_lid != cur->sm_lid || want->gid_prefix != cur->gid_prefix ||
			 want->cap_mask != cur->cap_mask || want->client_reregister;
	}
	const struct mad_port_info *peer = p ? peer_info(f, n, p) : NULL;
	if (peer && cur->phys_state == MAD_PHYS_LINKUP) {
		want->neighbor_mtu = min8(cur->mtu_cap, peer->mtu_cap);
		want->oper_vls = min8(cur->vl_cap, peer->vl_cap);
		change |= want->neighbor_mtu != cur->neighbor_mtu || want->oper_vls != cur->oper_vls;
	}
	if (pg->sm->sa->qos.on && (endpoint || peer)) {	/* the policy's VLHighLimit */
		want->vl_high_limit = pg->sm->sa->qos.vl[sm_qos_port_type(tn->type, p)].high_limit;
		change |= want->vl_high_limit != cur->vl_high_limit;
	}
	if (sm_pkey_enforced(&pg->sm->sa->partitions, f, n, p)) {	/* IBA 10.9.3: partitions enforced */
		want->part_enf_inb = f->attrs[n].si.part_enf_inb;	/* as far as it can */
		want->part_enf_outb = f->attrs[n].si.part_enf_outb;
		change |= want->part_enf_inb != cur->part_enf_inb ||
			  want->part_enf_outb != cur->part_enf_outb;
	}
	change |= sm_link_port_wanted(&pg->sm->cfg, pg->f,
				      pg->sm->have_fabric ? &pg->sm->fabric : NULL, n, p, want);
	/* a port with no discovered peer (IBA leaves it to the SM) stays as it is:
	 * nothing is known to set its MTU and VLs from, nor a route through it */
	if (peer && cur->phys_state == MAD_PHYS_LINKUP && cur->port_state + 1 == target_state) {
		want->port_state = target_state;
		change = true;
	}
	return change;
}

/* Submit a PortInfo Set for every port of the fabric that needs one. */
static int ports_to(struct prog *pg, uint8_t target_state, size_t *count)
{
	const struct sm_fabric *f = pg->f;

	for (uint32_t n = 0; n < f->topo.n; n++) {
		for (unsigned p = 0; p <= f->topo.nodes[n].nports; p++) {
			struct mad_port_info want;
			uint8_t buf[SMP_DATA_SIZE];

			if (!f->attrs[n].pi_valid[p] || !port_wanted(pg, n, p, target_state, &want))
				continue;
			/* the second pass only moves ARMED ports on */
			if (target_state == MAD_PORT_ACTIVE && want.port_state != MAD_PORT_ACTIVE)
				continue;
			if (want.port_state == MAD_PORT_ARMED)
				pg->f->attrs[n].armed = true;
			mad_port_info_encode(&want, buf);
			int rc = submit(pg, MAD_METHOD_SET, MAD_ATTR_PORT_INFO, p, n, (uint16_t)p,
					buf, on_port_set);
			if (rc)
				return rc;
			(*count)++;
		}
	}
	return mad_rpc_drain(pg->sm->rpc);
}

/* ---- LFTs ---- */

static void on_lft_read(void *ctx, int err, const struct mad_smp *req,
			const struct mad_smp *resp)
{
	struct prog_req *r = ctx;

	(void)req;
	if (err) {
		failed(r->pg, r, err, resp, "LFT read-back of block");
		return;
	}
	memcpy(r->pg->held[r->node] + (size_t)r->index * MAD_LFT_BLOCK, resp->data, MAD_LFT_BLOCK);
}

/* One block of a table the store records, read back to see it still holds. */
static void on_lft_spot(void *ctx, int err, const struct mad_smp *req,
			const struct mad_smp *resp)
{
	struct prog_req *r = ctx;
	const uint8_t *want = r->pg->held[r->node] + (size_t)r->index * MAD_LFT_BLOCK;

	(void)req;
	if (err || memcmp(resp->data, want, MAD_LFT_BLOCK))
		r->pg->reread[r->node] = true;
}

/* Read every block of switch @n's table (up to its LinearFDBTop) into held[n]. */
static int read_back(struct prog *pg, uint32_t n, uint16_t top)
{
	int rc = 0;

	memset(pg->held[n], MAD_LFT_NO_PORT, pg->nblocks * MAD_LFT_BLOCK);
	for (size_t b = 0; rc == 0 && b <= top / MAD_LFT_BLOCK && b < pg->nblocks; b++) {
		rc = submit(pg, MAD_METHOD_GET, MAD_ATTR_LFT, (uint32_t)b, n, (uint16_t)b, NULL,
			    on_lft_read);
		pg->res->lft_reads++;
	}
	return rc;
}

static void on_lft_set(void *ctx, int err, const struct mad_smp *req,
		       const struct mad_smp *resp)
{
	struct prog_req *r = ctx;

	if (!err && memcmp(resp->data, req->data, MAD_LFT_BLOCK))
		err = -EPROTO;	/* answered, but the block does not hold what was sent */
	if (err) {
		failed(r->pg, r, err, resp, "LFT Set of block");
		r->pg->res->lft_failed[r->node] = true;	/* the Set may or may not have landed */
		return;
	}
	r->pg->res->lft_changed[r->node] = true;
}

static void on_switch_set(void *ctx, int err, const struct mad_smp *req,
			  const struct mad_smp *resp)
{
	struct prog_req *r = ctx;
	struct sm_node_attrs *a = &r->pg->f->attrs[r->node];
	struct mad_switch_info want;

	if (!err)
		err = mad_switch_info_decode(resp->data, &a->si);
	if (!err && (mad_switch_info_decode(req->data, &want) || a->si.lft_top != want.lft_top))
		err = -EPROTO;	/* answered, but LinearFDBTop is not what was sent */
	if (err)
		failed(r->pg, r, err, resp, "SwitchInfo Set");
}

/* Mark the blocks of switch @n whose routes differ from @held. */
static void mark_dirty(struct prog *pg, uint32_t n, const uint8_t *held)
{
	const uint8_t *want = pg->routes->lft[n];

	for (size_t b = 0; b < pg->nblocks; b++)
		if (memcmp(want + b * MAD_LFT_BLOCK, held + b * MAD_LFT_BLOCK, MAD_LFT_BLOCK))
			pg->dirty[n][b / 64] |= 1ull << (b % 64);
}

/* The store's record of what @guid holds, as db_lft_load() (0: none); a
 * table still pending (its sweep never finished) is no record. */
static int lft_recorded(struct sm *sm, uint64_t guid, uint8_t *buf, size_t nblocks)
{
	bool pending = false;

	pthread_mutex_lock(&sm->db_mu);
	int found = sm->db ? db_lft_load(sm->db, guid, buf, nblocks, &pending) : -ECANCELED;
	pthread_mutex_unlock(&sm->db_mu);
	return found > 0 && pending ? 0 : found;
}

/*
 * Which LFT blocks each switch needs, against what it holds: nothing when its
 * LinearFDBTop is 0 (new or reset), else the store's record of what we
 * programmed, else (a switch someone else programmed) the blocks read back.
 * On a process's first sweep the record is trusted only once one block read
 * back matches it (another SM may have run between two ibsmd); a mismatch
 * reads that table back whole.  Only switches being checked or read back keep
 * a copy of their table meanwhile.
 */
static int lft_learn(struct prog *pg)
{
	const struct sm_fabric *f = pg->f;
	size_t bytes = pg->nblocks * MAD_LFT_BLOCK;
	bool first_contact = pg->sm->sweeps == 0;
	uint8_t *buf = malloc(bytes);
	int rc = buf ? 0 : -ENOMEM;

	for (uint32_t n = 0; rc == 0 && n < f->topo.n; n++) {
		if (!pg->routes->lft[n])
			continue;
		pg->dirty[n] = calloc(pg->nblocks / 64 + 1, sizeof(uint64_t));
		if (!pg->dirty[n]) {
			rc = -ENOMEM;
			break;
		}
		uint16_t top = f->attrs[n].si_valid ? f->attrs[n].si.lft_top : 0;
		int found = 0;
		pg->reset_seen |= top == 0;
		if (top == 0)
			memset(buf, MAD_LFT_NO_PORT, bytes);
		else
			found = lft_recorded(pg->sm, f->topo.nodes[n].guid, buf, pg->nblocks);
		if (found < 0) {
			rc = found;
		} else if (top == 0 || (found > 0 && !first_contact)) {
			pg->res->lft_unrecorded[n] = found == 0;
			mark_dirty(pg, n, buf);
		} else if (!(pg->held[n] = malloc(bytes))) {
			rc = -ENOMEM;
		} else if (found > 0) {
			size_t spot = (size_t)top / MAD_LFT_BLOCK < pg->nblocks
				      ? (size_t)top / MAD_LFT_BLOCK : pg->nblocks - 1;
			memcpy(pg->held[n], buf, bytes);
			rc = submit(pg, MAD_METHOD_GET, MAD_ATTR_LFT, (uint32_t)spot, n,
				    (uint16_t)spot, NULL, on_lft_spot);
			pg->res->lft_reads++;
		} else {
			pg->res->lft_unrecorded[n] = true;
			rc = read_back(pg, n, top);
		}
	}
	free(buf);
	if (rc == 0)
		rc = mad_rpc_drain(pg->sm->rpc);
	unsigned stale = 0;
	for (uint32_t n = 0; rc == 0 && n < f->topo.n; n++)
		if (pg->reread[n]) {
			sm_info("programming: switch 0x%016llx (%s) does not hold what the store "
				"records", (unsigned long long)f->topo.nodes[n].guid, f->topo.nodes[n].desc);
			rc = read_back(pg, n, f->attrs[n].si.lft_top);
			pg->res->lft_unrecorded[n] = true;
			stale++;
		}
	if (stale)
		sm_notice("programming: %u switches do not hold what the store records (another "
			  "SM?); their tables are read back", stale);
	if (rc == 0)
		rc = mad_rpc_drain(pg->sm->rpc);
	for (uint32_t n = 0; n < f->topo.n; n++) {
		if (rc == 0 && pg->held[n])
			mark_dirty(pg, n, pg->held[n]);
		free(pg->held[n]);
		pg->held[n] = NULL;
	}
	return rc;
}

/* Which tables will change or be recorded anew: res->lft_planned. */
static void lft_plan(struct prog *pg)
{
	for (uint32_t n = 0; n < pg->f->topo.n; n++) {
		bool any = pg->res->lft_unrecorded[n];
		for (size_t w = 0; !any && pg->dirty[n] && w < pg->nblocks / 64 + 1; w++)
			any = pg->dirty[n][w] != 0;
		pg->res->lft_planned[n] = any;
	}
}

#define LFT_AHEAD 8	/* switches */

static int lft_program(struct prog *pg)
{
	const struct sm_fabric *f = pg->f;
	const struct sm_routes *rt = pg->routes;
	uint8_t block[SMP_DATA_SIZE];
	int rc;

	for (uint32_t n = 0; n < f->topo.n; n++) {
		const struct mad_switch_info *cur = &f->attrs[n].si;
		struct mad_switch_info si;
		if (!rt->lft[n] || !f->attrs[n].si_valid)
			continue;
		bool link = sm_link_switch_wanted(&pg->sm->cfg, cur, &si);
		if (cur->lft_top == rt->max_lid && !cur->port_state_change && !link)
			continue;
		/* LinearFDBTop, and PortStateChange written back as read: a 1 clears it */
		si.lft_top = rt->max_lid;
		mad_switch_info_encode(&si, block);
		if ((rc = submit(pg, MAD_METHOD_SET, MAD_ATTR_SWITCH_INFO, 0, n, 0, block,
				 on_switch_set)))
			return rc;
	}
	/* block by block across all switches, so every switch works at once */
	uint32_t *sw = malloc(((size_t)f->topo.n + 1) * sizeof(*sw)), nsw = 0;
	if (!sw)
		return -ENOMEM;
	for (uint32_t n = 0; n < f->topo.n; n++)
		if (rt->lft[n])
			sw[nsw++] = n;
	rc = 0;
	for (size_t b = 0; rc == 0 && b < pg->nblocks; b++) {
		for (uint32_t i = 0; rc == 0 && i < nsw; i++) {
			uint32_t n = sw[i];
			/* each block lies a table away from the last one sent: ask
			 * for a later switch's block early (a miss each, else) */
			if (i + LFT_AHEAD < nsw)
				__builtin_prefetch(rt->lft[sw[i + LFT_AHEAD]] + b * MAD_LFT_BLOCK);
			if (!(pg->dirty[n][b / 64] & (1ull << (b % 64))))
				continue;
			memcpy(block, rt->lft[n] + b * MAD_LFT_BLOCK, MAD_LFT_BLOCK);
			rc = submit(pg, MAD_METHOD_SET, MAD_ATTR_LFT, (uint32_t)b, n, (uint16_t)b,
				    block, on_lft_set);
			pg->res->lft_blocks += rc == 0;
		}
	}
	free(sw);
	return rc ? rc : mad_rpc_drain(pg->sm->rpc);
}

/* ---- adaptive routing ---- */

/* The AR groups, once the static LFTs are in place (sm_ar.c), and AR on again
 * on the switches a plain LFT block turned it off on; its SMPs count with the
 * LFTs'. */
static int ar_program(struct prog *pg)
{
	struct sm_ar_result r;
	uint32_t n = pg->f->topo.n;
	bool *lft_sent = sm_arena_alloc(pg->arena, (size_t)n + 1);

	if (!lft_sent)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)	/* a failed Set may have landed */
		lft_sent[i] = pg->res->lft_changed[i] || pg->res->lft_failed[i];
	int rc = sm_ar_program(pg->sm, pg->f, pg->routes, lft_sent, pg->arena, &r);

	pg->res->failures += r.failures;
	pg->res->ar_blocks += r.group_blocks + r.lft_blocks;
	return rc;
}

/* ---- SL to VL mapping ---- */

/* SLtoVLMappingTables where the routes use SLs above 0 (sm_sl2vl.c); its SMPs
 * count with the LFTs'.  Once set everywhere, they are not read again until a
 * sweep arms a port or meets a reset switch (a device that came back). */
static int sl2vl_program(struct prog *pg)
{
	struct sm *sm = pg->sm;
	uint8_t nsl = (uint8_t)(pg->routes->check.max_sl + 1);
	struct sm_sl2vl_result r;

	/* the tables of every port are right already when this process set them
	 * for as many SLs, and no port or switch came (back) up since */
	bool qos = sm->sa->qos.on;
	if (pg->reset_seen || pg->res->portinfo_sets || qos != sm->sa->qos_vl_done)
		sm->sl2vl_done_sl = 0;
	if ((nsl > 1 || qos) && sm->sl2vl_done_sl == nsl)
		return 0;
	int rc = sm_sl2vl_program(sm, pg->f, pg->routes, &sm->sa->qos, pg->arena, &r);
	pg->res->failures += r.failures;
	if (rc == 0 && r.failures == 0) {
		sm->sl2vl_done_sl = nsl > 1 || qos ? nsl : 0;
		sm->sa->qos_vl_done = qos;
	}
	return rc;
}

/* ---- the phases ---- */

static uint16_t sm_lid_of(const struct sm_fabric *f)
{
	const struct topo_node *n = &f->topo.nodes[f->local_node];

	return n->type == MAD_NODE_SWITCH ? n->ports[0].lid : n->ports[f->local_port].lid;
}

int sm_program_ports(struct sm *sm, struct sm_fabric *f, struct sm_arena *arena,
		     struct sm_program_result *res)
{
	struct prog pg = { .sm = sm, .f = f, .arena = arena, .res = res };
	uint64_t t = mad_now_ms(), s = sm_smps_sent(sm);

	memset(res, 0, sizeof(*res));
	pg.sm_lid = sm_lid_of(f);
	int rc = ports_to(&pg, MAD_PORT_NOP, &res->portinfo_sets);
	if (rc == 0)
		rc = ports_to(&pg, MAD_PORT_ARMED, &res->portinfo_sets);
	if (rc == 0)	/* every port was asked (one whose Set failed: by SM LID) */
		sm->first_master_sweep = false;
	res->lid_ms = (uint32_t)(mad_now_ms() - t), res->lid_smps = sm_smps_sent(sm) - s;
	return rc;
}

int sm_program_routes(struct sm *sm, struct sm_fabric *f,
		      const struct sm_routes *routes, struct sm_arena *arena,
		      struct sm_program_result *res, const struct sm_program_hook *hook)
{
	struct prog pg = { .sm = sm, .f = f, .routes = routes, .arena = arena, .res = res };
	uint64_t t, s;
	int rc;

	pg.sm_lid = sm_lid_of(f);
	pg.nblocks = (size_t)routes->max_lid / MAD_LFT_BLOCK + 1;
	pg.held = calloc(f->topo.n + 1, sizeof(*pg.held));
	pg.dirty = calloc(f->topo.n + 1, sizeof(*pg.dirty));
	pg.reread = calloc(f->topo.n + 1, sizeof(*pg.reread));
	res->lft_changed = calloc(f->topo.n + 1, sizeof(*res->lft_changed));
	res->lft_failed = calloc(f->topo.n + 1, sizeof(*res->lft_failed));
	res->lft_unrecorded = calloc(f->topo.n + 1, sizeof(*res->lft_unrecorded));
	res->lft_planned = calloc(f->topo.n + 1, sizeof(*res->lft_planned));
	if (!pg.held || !pg.dirty || !pg.reread || !res->lft_changed || !res->lft_failed ||
	    !res->lft_unrecorded || !res->lft_planned) {
		free(pg.held);
		free(pg.dirty);
		free(pg.reread);
		return -ENOMEM;
	}

	t = mad_now_ms(), s = sm_smps_sent(sm);
	rc = lft_learn(&pg);
	if (rc == 0 && hook) {
		lft_plan(&pg);
		hook->lfts_planned(hook->arg);
	}
	if (rc == 0)
		rc = lft_program(&pg);
	if (rc == 0)
		rc = ar_program(&pg);
	if (rc == 0)
		rc = sl2vl_program(&pg);
	res->lft_ms = (uint32_t)(mad_now_ms() - t), res->lft_smps = sm_smps_sent(sm) - s;

	t = mad_now_ms(), s = sm_smps_sent(sm);
	if (rc == 0)
		rc = ports_to(&pg, MAD_PORT_ACTIVE, &res->activations);
	res->activate_ms = (uint32_t)(mad_now_ms() - t), res->activate_smps = sm_smps_sent(sm) - s;
	if (rc == 0)
		res->degraded_links = sm_link_mark_degraded(f);

	for (uint32_t n = 0; n < f->topo.n; n++) {
		free(pg.held[n]);
		free(pg.dirty[n]);
	}
	free(pg.held);
	free(pg.dirty);
	free(pg.reread);
	if (rc == 0 && res->failures)
		rc = -EIO;
	return rc;
}

void sm_program_result_free(struct sm_program_result *res)
{
	free(res->lft_changed);
	free(res->lft_failed);
	free(res->lft_unrecorded);
	free(res->lft_planned);
	res->lft_changed = NULL;
	res->lft_failed = NULL;
	res->lft_unrecorded = NULL;
	res->lft_planned = NULL;
}

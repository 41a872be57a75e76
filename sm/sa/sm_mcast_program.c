// SPDX-License-Identifier: MIT
/*
 * sm_mcast_program.c - MulticastForwardingTables from the groups' trees.
 *
 * The MFT (IBA 14.2.5.12) is addressed in blocks of 32 MLIDs from 0xC000
 * (attribute modifier bits 8:0) by PortMask position (bits 31:28): each entry
 * is a 16-bit mask of ports 16 * position .. 16 * position + 15.
 *
 * Flow: every group's tree (sm_mcast_tree.c) is computed over the SM's last
 * fabric and written into a wanted table per switch; each (block, position)
 * that differs from what the switch holds (sm_mcast.h: kept by switch GUID
 * across sweeps, updated as Sets are answered) is set, pipelined through the
 * rpc window, and the answer must show the block asked for.  Blocks of
 * MLIDs freed since are set to what is wanted there: nothing.  A switch with
 * no MFT (MulticastFDBCap 0) is skipped and logged; the MLIDs handed out stay
 * within the smallest MFT of the rest (mlid_limit).
 *
 * A switch this process has not programmed may hold another SM's entries
 * (an SM before us, this daemon before a restart) in any block; OpenSM reads
 * no MFT back either (osm_sw_info_rcv.c) and leans on MulticastFDBTop
 * (osm_mcast_mgr.c).  So at first contact: a switch found new or reset
 * (LinearFDBTop 0, sm_mcast_note_resets()) is empty, and gets the blocks
 * that differ from that; one that offers MulticastFDBTop (port 0
 * CapabilityMask bit 30) gets every block below the top we use set, all
 * positions, zeros included, and the top, so that whatever lies above is
 * not forwarded (and is set whole when the top rises over it); one that
 * does not gets every block of its MulticastFDBCap set (zeros above ours):
 * writing costs what reading back would, without the answers to compare.
 * MulticastFDBTop goes after the blocks when it rises, before them when it
 * falls, so no stale entry is ever below it; the SA's ClassPortInfo says so
 * (CapabilityMask2 IsMcastTopSupported).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/util/sm_arena.h"
#include "sm/util/sm_log.h"
#include "sm/sa/sm_mcast_program.h"
#include "sm/sa/sm_part_store.h"
#include "sm/core/sm_state.h"
#include "sm/sa/sm_mcast.h"
#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_sa.h"
#include "sm/sa/sm_sa_index.h"
#include "sm/sa/sm_sa_records.h"

struct mft_job {
	struct sm *sm;
	bool *failed;	/* the run's: some Set failed */
	struct sm_mcast_sw *sw;	/* its entry (the array does not move while jobs run) */
	uint32_t node;
	uint16_t block;
	uint8_t pos;
	uint16_t want[SM_MFT_BLOCK];
};

static uint16_t *held_at(struct sm_mcast_sw *s, uint32_t block, uint8_t pos)
{
	return (uint16_t *)sm_mcast_held(s, block, pos);
}

static int cmp_sw(const void *a, const void *b)
{
	const struct sm_mcast_sw *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

static struct sm_mcast_sw *sw_find(struct sm_mcast *mc, uint64_t guid)
{
	return (struct sm_mcast_sw *)sm_mcast_switch(mc, guid);
}

/* An entry for every switch of @f with an MFT, with room for @blocks. */
static int sw_prepare(struct sm_mcast *mc, const struct sm_fabric *f, uint32_t blocks)
{
	size_t add = 0;

	for (uint32_t n = 0; n < f->topo.n; n++)
		if (f->topo.nodes[n].type == MAD_NODE_SWITCH && !sw_find(mc, f->topo.nodes[n].guid))
			add++;
	if (add) {
		struct sm_mcast_sw *s = realloc(mc->sw, (mc->nsw + add) * sizeof(*s));
		if (!s)
			return -ENOMEM;
		mc->sw = s;
		size_t known = mc->nsw;	/* sorted; the new ones go after, sorted once */
		for (uint32_t n = 0; n < f->topo.n; n++) {
			const struct topo_node *tn = &f->topo.nodes[n];
			if (tn->type != MAD_NODE_SWITCH ||
			    (known && bsearch(&tn->guid, mc->sw, known, sizeof(*mc->sw), cmp_sw)))
				continue;
			mc->sw[mc->nsw++] = (struct sm_mcast_sw){
				.guid = tn->guid, .npos = (uint8_t)(tn->nports / SM_MFT_POS_PORTS + 1) };
		}
		qsort(mc->sw, mc->nsw, sizeof(*mc->sw), cmp_sw);
		size_t keep = 0;	/* a GUID twice in @f: one entry */
		for (size_t i = 0; i < mc->nsw; i++)
			if (keep == 0 || mc->sw[i].guid != mc->sw[keep - 1].guid)
				mc->sw[keep++] = mc->sw[i];
		mc->nsw = keep;
	}
	for (uint32_t i = 0; i < mc->nsw; i++) {
		struct sm_mcast_sw *s = &mc->sw[i];
		if (s->blocks >= blocks)
			continue;
		size_t per = (size_t)s->npos * SM_MFT_BLOCK;
		uint16_t *h = realloc(s->held, blocks * per * sizeof(*h));
		if (!h)
			return -ENOMEM;
		memset(h + s->blocks * per, 0, (blocks - s->blocks) * per * sizeof(*h));
		s->held = h;
		s->blocks = blocks;
	}
	return 0;
}

/* Job @j's Set failed (@err, the answer @resp): counted, logged as @what;
 * what the switch holds or forwards is not known now. */
static void set_failed(struct mft_job *j, int err, const struct mad_smp *resp, const char *what)
{
	const struct topo_node *n = &j->sm->fabric.topo.nodes[j->node];
	char why[64];

	j->sm->sa->mcast.failures++;
	*j->failed = true;
	j->sw->known = false;
	j->sw->fresh = false;
	sm_warn("multicast: %s on 0x%016llx (%s) failed: %s", what, (unsigned long long)n->guid,
		n->desc, sm_smp_error(err, resp, why, sizeof(why)));
}

static void on_set(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct mft_job *j = ctx;
	struct sm_mcast *mc = &j->sm->sa->mcast;

	(void)req;
	if (!err) {	/* every entry of the block as set, zeros included */
		for (unsigned i = 0; i < SM_MFT_BLOCK && !err; i++)
			if (((uint16_t)(resp->data[2 * i] << 8 | resp->data[2 * i + 1])) != j->want[i])
				err = -EPROTO;	/* answered, but not with the block set */
	}
	if (err) {
		char what[64];
		snprintf(what, sizeof(what), "MFT Set of block %u position %u", j->block, j->pos);
		set_failed(j, err, resp, what);
		return;
	}
	if (j->block < j->sw->blocks)	/* above held's room: cleared, nothing to keep */
		memcpy(held_at(j->sw, j->block, j->pos), j->want, sizeof(j->want));
	mc->blocks_set++;
}

struct run {
	struct sm *sm;
	struct sm_arena arena;
	bool failed;
};

/* A job for a Set to switch @node (entry @s), once the rpc window has room;
 * NULL with *@rc set when there is none. */
static struct mft_job *job_new(struct run *run, struct sm_mcast_sw *s, uint32_t node, int *rc)
{
	struct mft_job *j = NULL;

	if (!(*rc = mad_rpc_wait_backlog(run->sm->rpc)) &&
	    !(j = sm_arena_alloc(&run->arena, sizeof(*j))))
		*rc = -ENOMEM;
	if (j)
		*j = (struct mft_job){ .sm = run->sm, .failed = &run->failed, .sw = s, .node = node };
	return j;
}

/* Send @j's Set of @attr with modifier @mod and payload @data; @done answers. */
static int job_send(struct mft_job *j, uint16_t attr, uint32_t mod, const uint8_t *data,
		    mad_rpc_done_fn done)
{
	const struct sm_fabric *f = &j->sm->fabric;

	return mad_rpc_submit_dr(j->sm->rpc, MAD_METHOD_SET, attr, mod,
				 &f->topo.nodes[j->node].path, sm_mkey_for(f, j->node, 0), data,
				 done, j);
}

static int submit(struct run *run, struct sm_mcast_sw *s, uint32_t node, uint16_t block,
		  uint8_t pos, const uint16_t *want)
{
	uint8_t data[SMP_DATA_SIZE] = { 0 };
	int rc;
	struct mft_job *j = job_new(run, s, node, &rc);

	if (!j)
		return rc;
	j->block = block;
	j->pos = pos;
	memcpy(j->want, want, sizeof(j->want));
	for (unsigned i = 0; i < SM_MFT_BLOCK; i++) {
		data[2 * i] = (uint8_t)(want[i] >> 8);
		data[2 * i + 1] = (uint8_t)want[i];
	}
	return job_send(j, MAD_ATTR_MFT, (uint32_t)pos << 28 | block, data, on_set);
}

/* Whether the fabric's SA lookups know @guid: the tree's port lookup. */
static bool port_of(void *ctx, uint64_t guid, uint32_t *node, uint8_t *port)
{
	struct sa_port at;

	if (!sm_sa_index_guid(ctx, guid, &at))
		return false;
	*node = at.node;
	*port = at.port;
	return true;
}

/* The smallest MFT of the fabric's switches, as the last MLID it holds. */
static uint16_t mlid_limit(const struct sm_fabric *f)
{
	uint32_t limit = SM_MLID_LAST;

	for (uint32_t n = 0; n < f->topo.n; n++) {
		const struct sm_node_attrs *a = &f->attrs[n];
		if (f->topo.nodes[n].type != MAD_NODE_SWITCH || !a->si_valid || !a->si.mft_cap)
			continue;
		if (SM_MLID_FIRST + a->si.mft_cap - 1u < limit)
			limit = SM_MLID_FIRST + a->si.mft_cap - 1u;
	}
	return (uint16_t)limit;
}

/* Write every group's tree into @want ([node] -> [block][pos][32]). */
static int trees(struct sm *sm, uint16_t **want, uint32_t blocks)
{
	struct sm_mcast *mc = &sm->sa->mcast;
	const struct sm_fabric *f = &sm->fabric;

	for (size_t i = 0; i < mc->n; i++) {
		struct sm_mcast_group *g = mc->groups[i];
		struct sm_mcast_tree t;
		int rc = sm_mcast_tree_build(f, g, port_of, &sm->sa->index, &t);
		if (rc)
			return rc;
		uint32_t idx = g->mlid - SM_MLID_FIRST, b = idx / SM_MFT_BLOCK;
		g->tree_switches = t.nswitches;
		for (uint32_t n = 0; n < t.nnodes && b < blocks; n++) {
			if (!t.ports[n] || !want[n])
				continue;
			uint8_t npos = (uint8_t)(f->topo.nodes[n].nports / SM_MFT_POS_PORTS + 1);
			for (unsigned p = 0; p <= f->topo.nodes[n].nports; p++)
				if (t.ports[n][p / 64] & (1ull << (p % 64)))
					want[n][((size_t)b * npos + p / SM_MFT_POS_PORTS) * SM_MFT_BLOCK +
						idx % SM_MFT_BLOCK] |= (uint16_t)(1u << (p % SM_MFT_POS_PORTS));
		}
		sm_mcast_tree_free(&t);
	}
	return 0;
}

/* Does switch @n of @f honour MulticastFDBTop (port 0 CapabilityMask)? */
static bool has_top(const struct sm_fabric *f, uint32_t n)
{
	const struct sm_node_attrs *a = &f->attrs[n];

	return a->pi && a->pi_valid[0] && (a->pi[0].cap_mask & MAD_CAP_IS_MCAST_FDB_TOP_SUPPORTED);
}

/* The MulticastFDBTop that uses @blocks blocks: their last MLID, or 0xBFFF
 * (below the first MLID: none) for no block (OpenSM's "none" alike). */
static uint16_t top_of(uint32_t blocks)
{
	return (uint16_t)(SM_MLID_FIRST + blocks * SM_MFT_BLOCK - 1);
}

/*
 * Submit the Sets switch @n needs for the @blocks blocks of @want: those
 * that differ from what it holds, and every position of the blocks it may
 * hold another SM's entries in (see the head of this file).  It is known
 * from then on (a failed Set makes it unknown again).
 */
static int switch_sets(struct run *run, uint32_t n, const uint16_t *want, uint32_t blocks)
{
	static const uint16_t zero[SM_MFT_BLOCK];
	struct sm *sm = run->sm;
	const struct sm_fabric *f = &sm->fabric;
	struct sm_mcast_sw *s = sw_find(&sm->sa->mcast, f->topo.nodes[n].guid);
	bool top = has_top(f, n);
	uint32_t cap = f->attrs[n].si.mft_cap / SM_MFT_BLOCK, from = 0, to = 0, end = blocks;
	int rc = 0;

	if (!s->known && s->fresh) {	/* empty: what differs from nothing */
		memset(s->held, 0, (size_t)s->blocks * s->npos * SM_MFT_BLOCK * sizeof(*s->held));
		s->hidden = UINT32_MAX;
	} else if (!s->known) {		/* anything anywhere: below our top, or all */
		to = top ? blocks : cap > blocks ? cap : blocks;
		s->hidden = top ? blocks : UINT32_MAX;
	} else if (top && s->hidden < blocks) {	/* the top rises over what it hid */
		from = s->hidden;
		to = blocks;
		s->hidden = blocks;
	}
	end = to > end ? to : end;
	for (uint32_t b = 0; b < end && !rc; b++) {
		for (uint8_t pos = 0; pos < s->npos && !rc; pos++) {
			const uint16_t *w = b < blocks
				? want + ((size_t)b * s->npos + pos) * SM_MFT_BLOCK : zero;
			if ((b >= from && b < to) ||
			    (b < blocks && memcmp(w, held_at(s, b, pos), sizeof(zero))))
				rc = submit(run, s, n, (uint16_t)b, pos, w);
		}
	}
	if (!rc) {
		s->known = true;
		s->fresh = false;
	}
	return rc;
}

static void on_top_set(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct mft_job *j = ctx;
	struct sm_node_attrs *a = &j->sm->fabric.attrs[j->node];
	struct mad_switch_info want;

	if (!err)
		err = mad_switch_info_decode(resp->data, &a->si);
	if (!err && (mad_switch_info_decode(req->data, &want) || a->si.mft_top != want.mft_top))
		err = -EPROTO;	/* answered, but MulticastFDBTop is not what was sent */
	if (err) {
		set_failed(j, err, resp, "SwitchInfo MulticastFDBTop Set");
		return;
	}
	j->sm->sa->mcast.tops_set++;
}

/* MulticastFDBTop of switch @n to the end of @blocks, where it has one and
 * the move goes the way asked (@rise: up, else down); the rest of SwitchInfo
 * as the switch last answered it, PortStateChange left alone (a 1 clears it). */
static int top_set(struct run *run, uint32_t n, uint32_t blocks, bool rise)
{
	struct sm *sm = run->sm;
	const struct sm_fabric *f = &sm->fabric;
	struct mad_switch_info si = f->attrs[n].si;
	uint16_t want = top_of(blocks);
	uint8_t data[SMP_DATA_SIZE] = { 0 };

	struct sm_mcast_sw *s = sw_find(&sm->sa->mcast, f->topo.nodes[n].guid);
	int rc = 0;

	if (!has_top(f, n) || si.mft_top == want || (si.mft_top < want) != rise ||
	    (rise && !s->known))	/* a block Set failed: nothing goes above */
		return 0;
	struct mft_job *j = job_new(run, s, n, &rc);
	if (!j)
		return rc;
	si.mft_top = want;
	si.port_state_change = false;
	mad_switch_info_encode(&si, data);
	return job_send(j, MAD_ATTR_SWITCH_INFO, 0, data, on_top_set);
}

int sm_mcast_program(struct sm *sm)
{
	struct sm_mcast *mc = &sm->sa->mcast;
	const struct sm_fabric *f = &sm->fabric;
	int rc;

	if (!sm->have_fabric || !sm->rpc) {
		mc->dirty = false;	/* the next heavy sweep programs them all */
		return 0;
	}
	if ((!sm->sa->index.by_lid || sm->sa->index.sweep != sm->sweeps) &&
	    (rc = sm_sa_index_build(&sm->sa->index, f)) == 0)
		sm->sa->index.sweep = sm->sweeps;
	else if (!sm->sa->index.by_lid)
		return -ENOMEM;
	mc->mlid_limit = mlid_limit(f);
	uint32_t blocks = mc->top_block;
	for (size_t i = 0; i < mc->n; i++)
		if ((uint32_t)(mc->groups[i]->mlid - SM_MLID_FIRST) / SM_MFT_BLOCK + 1 > blocks)
			blocks = (uint32_t)(mc->groups[i]->mlid - SM_MLID_FIRST) / SM_MFT_BLOCK + 1;
	uint16_t **want = calloc(f->topo.n + 1, sizeof(*want));
	if (!want || (rc = sw_prepare(mc, f, blocks))) {
		free(want);
		return -ENOMEM;
	}
	rc = 0;
	for (uint32_t n = 0; n < f->topo.n && !rc; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		if (tn->type != MAD_NODE_SWITCH || !f->attrs[n].si_valid)
			continue;
		if (!f->attrs[n].si.mft_cap) {
			sm_debug("multicast: 0x%016llx (%s) has no MFT: skipped",
				 (unsigned long long)tn->guid, tn->desc);
			continue;
		}
		size_t per = (size_t)(tn->nports / SM_MFT_POS_PORTS + 1) * SM_MFT_BLOCK;
		if (!(want[n] = calloc(blocks * per + 1, sizeof(**want))))
			rc = -ENOMEM;
	}
	/* the trees take every change so far; one the SA takes while the Sets
	 * drain (a join answered meanwhile) makes the MFTs due again */
	mc->dirty = false;
	if (!rc)
		rc = trees(sm, want, blocks);
	mc->top_block = blocks;
	struct run run = { .sm = sm };
	sm_arena_init(&run.arena);
	/* a top that falls first, the blocks, then a top that rises */
	for (uint32_t n = 0; n < f->topo.n && !rc; n++)
		if (want[n])
			rc = top_set(&run, n, blocks, false);
	if (!rc)
		rc = mad_rpc_drain(sm->rpc);
	for (uint32_t n = 0; n < f->topo.n && !rc; n++)
		if (want[n])
			rc = switch_sets(&run, n, want[n], blocks);
	if (!rc)
		rc = mad_rpc_drain(sm->rpc);
	for (uint32_t n = 0; n < f->topo.n && !rc; n++)
		if (want[n])
			rc = top_set(&run, n, blocks, true);
	int drained = mad_rpc_drain(sm->rpc);
	sm_arena_free(&run.arena);
	for (uint32_t n = 0; n < f->topo.n; n++)
		free(want[n]);
	free(want);
	sm_mcast_store_due(sm, false);	/* for smquery mcast, at most once a second */
	/* a failure is tried again by the next heavy sweep, not at once */
	if (!rc && !drained && run.failed)
		rc = -EIO;
	if ((rc || drained) && !sm->stopping)
		sm_sweep_due(sm, "multicast forwarding tables could not be programmed");
	return rc ? rc : drained;
}

void sm_mcast_note_resets(struct sm *sm, const struct sm_fabric *f)
{
	struct sm_mcast *mc = &sm->sa->mcast;

	if (sw_prepare(mc, f, mc->top_block)) {	/* none fresh: all set whole */
		sm_warn("multicast: no memory to note the switches found reset");
		return;
	}
	for (uint32_t n = 0; n < f->topo.n; n++) {
		if (f->topo.nodes[n].type != MAD_NODE_SWITCH || !f->attrs[n].si_valid ||
		    f->attrs[n].si.lft_top != 0)
			continue;
		struct sm_mcast_sw *s = sw_find(mc, f->topo.nodes[n].guid);
		s->known = false;	/* new or reset: its MFT is empty */
		s->fresh = true;
	}
}

void sm_mcast_ipoib_groups(struct sm *sm)
{
	for (size_t i = 0; i < sm->sa->partitions.n; i++) {
		const struct sm_partition *p = &sm->sa->partitions.p[i];
		int rc = sm_mcast_partition(&sm->sa->mcast, p, sm_qos_match_pkey(&sm->sa->qos, p->pkey));
		if (rc)
			sm_err("multicast: the groups of partition %s (0x%04x): %s",
			       p->name, p->pkey, strerror(-rc));
	}
}

int sm_mcast_sweep(struct sm *sm)
{
	struct sm_mcast *mc = &sm->sa->mcast;
	uint64_t sets = mc->blocks_set, tops = mc->tops_set, failures = mc->failures;

	sm_mcast_ipoib_groups(sm);
	int rc = sm_mcast_program(sm);
	sm_mcast_store_due(sm, true);
	sm_info("multicast: %zu groups, %zu MLIDs, %llu MFT blocks and %llu MulticastFDBTop set, "
		"%llu failures", mc->n, mc->mlids, (unsigned long long)(mc->blocks_set - sets),
		(unsigned long long)(mc->tops_set - tops), (unsigned long long)(mc->failures - failures));
	return rc;
}

void sm_mcast_store_due(struct sm *sm, bool force)
{
	struct sm_mcast *mc = &sm->sa->mcast;
	uint64_t now = mad_now_ms();

	mc->store_due = true;
	if (!force && now - mc->stored_ms < SM_MCAST_STORE_EVERY_MS)
		return;	/* a join storm: the next program or light sweep stores */
	mc->stored_ms = now;
	mc->store_due = false;
	sm_mcast_store(sm);	/* logged on failure */
}

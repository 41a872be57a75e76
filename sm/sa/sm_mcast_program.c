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
 * rpc window, and the answer must show the block asked for.  A switch whose
 * table is not known (new to this process, or found reset) gets every block
 * a tree uses set, all its positions.  Blocks of MLIDs freed since are set
 * to what is wanted there: nothing.  A switch with no MFT (MulticastFDBCap 0)
 * is skipped and logged; the MLIDs handed out stay within the smallest MFT
 * of the rest (mlid_limit).
 */
#include <errno.h>
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

static void on_set(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct mft_job *j = ctx;
	struct sm_mcast *mc = &j->sm->sa->mcast;

	(void)req;
	if (!err) {
		for (unsigned i = 0; i < SM_MFT_BLOCK && !err; i++)
			if (((uint16_t)(resp->data[2 * i] << 8 | resp->data[2 * i + 1])) != j->want[i])
				err = -EPROTO;	/* answered, but not with the block set */
	}
	if (err) {
		const struct topo_node *n = &j->sm->fabric.topo.nodes[j->node];
		char why[64];
		mc->failures++;
		*j->failed = true;
		j->sw->known = false;	/* what it holds is not known now */
		sm_warn("multicast: MFT Set on 0x%016llx (%s) block %u position %u failed: %s",
			(unsigned long long)n->guid, n->desc, j->block, j->pos,
			sm_smp_error(err, resp, why, sizeof(why)));
		return;
	}
	memcpy(held_at(j->sw, j->block, j->pos), j->want, sizeof(j->want));
	mc->blocks_set++;
}

struct run {
	struct sm *sm;
	struct sm_arena arena;
	bool failed;
};

static int submit(struct run *run, struct sm_mcast_sw *s, uint32_t node, uint16_t block,
		  uint8_t pos, const uint16_t *want)
{
	struct sm *sm = run->sm;
	const struct sm_fabric *f = &sm->fabric;
	uint8_t data[SMP_DATA_SIZE] = { 0 };
	int rc = mad_rpc_wait_backlog(sm->rpc);

	if (rc)
		return rc;
	struct mft_job *j = sm_arena_alloc(&run->arena, sizeof(*j));
	if (!j)
		return -ENOMEM;
	*j = (struct mft_job){ .sm = sm, .failed = &run->failed, .sw = s, .node = node,
			       .block = block, .pos = pos };
	memcpy(j->want, want, sizeof(j->want));
	for (unsigned i = 0; i < SM_MFT_BLOCK; i++) {
		data[2 * i] = (uint8_t)(want[i] >> 8);
		data[2 * i + 1] = (uint8_t)want[i];
	}
	return mad_rpc_submit_dr(sm->rpc, MAD_METHOD_SET, MAD_ATTR_MFT,
				 (uint32_t)pos << 28 | block, &f->topo.nodes[node].path,
				 sm_mkey_for(f, node, 0), data, on_set, j);
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

/* Submit the Sets switch @n needs; it is known from then on (a failed Set
 * makes it unknown again). */
static int switch_sets(struct run *run, uint32_t n, const uint16_t *want, uint32_t blocks)
{
	struct sm *sm = run->sm;
	struct sm_mcast_sw *s = sw_find(&sm->sa->mcast, sm->fabric.topo.nodes[n].guid);
	bool known = s->known;
	int rc = 0;

	for (uint32_t b = 0; b < blocks && !rc; b++) {
		bool used = false;	/* an unknown switch: every position of a used block */
		for (uint8_t pos = 0; pos < s->npos && !s->known && !used; pos++)
			for (unsigned e = 0; e < SM_MFT_BLOCK && !used; e++)
				used = want[((size_t)b * s->npos + pos) * SM_MFT_BLOCK + e];
		for (uint8_t pos = 0; pos < s->npos && !rc; pos++) {
			const uint16_t *w = want + ((size_t)b * s->npos + pos) * SM_MFT_BLOCK;
			bool same = !memcmp(w, held_at(s, b, pos), SM_MFT_BLOCK * sizeof(*w));
			if (known ? !same : used)
				rc = submit(run, s, n, (uint16_t)b, pos, w);
			else if (!known)	/* not used: taken as empty, as at power-on */
				memset(held_at(s, b, pos), 0, SM_MFT_BLOCK * sizeof(*w));
		}
	}
	if (!rc && !known)
		s->known = true;
	return rc;
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
	if (!rc)
		rc = trees(sm, want, blocks);
	mc->top_block = blocks;
	struct run run = { .sm = sm };
	sm_arena_init(&run.arena);
	for (uint32_t n = 0; n < f->topo.n && !rc; n++)
		if (want[n])
			rc = switch_sets(&run, n, want[n], blocks);
	int drained = mad_rpc_drain(sm->rpc);
	sm_arena_free(&run.arena);
	for (uint32_t n = 0; n < f->topo.n; n++)
		free(want[n]);
	free(want);
	sm_mcast_store_due(sm, false);	/* for smquery mcast, at most once a second */
	/* a failure is tried again by the next heavy sweep, not at once */
	mc->dirty = false;
	if (!rc && !drained && run.failed)
		rc = -EIO;
	if ((rc || drained) && !sm->stopping)
		sm_sweep_due(sm, "multicast forwarding tables could not be programmed");
	return rc ? rc : drained;
}

void sm_mcast_note_resets(struct sm *sm, const struct sm_fabric *f)
{
	for (uint32_t n = 0; n < f->topo.n; n++)
		if (f->topo.nodes[n].type == MAD_NODE_SWITCH && f->attrs[n].si_valid &&
		    f->attrs[n].si.lft_top == 0)	/* new or reset: its MFT is empty */
			sm_mcast_forget_switches(&sm->sa->mcast, f->topo.nodes[n].guid);
}

int sm_mcast_sweep(struct sm *sm)
{
	struct sm_mcast *mc = &sm->sa->mcast;
	uint64_t sets = mc->blocks_set, failures = mc->failures;

	for (size_t i = 0; i < sm->sa->partitions.n; i++) {
		const struct sm_partition *p = &sm->sa->partitions.p[i];
		uint8_t mtu = p->mtu ? p->mtu : SM_MCAST_MTU_DEFAULT, rate = p->rate ? p->rate : SM_MCAST_RATE_DEFAULT,
			sl = p->sl;
		sm_qos_limit(sm_qos_match_pkey(&sm->sa->qos, p->pkey), sm_sa_rate_of, &mtu, &rate, &sl);
		int rc = p->ipoib ? sm_mcast_ipoib(mc, p->pkey, mtu, rate, sl) : 0;
		if (rc)
			sm_err("multicast: the IPoIB broadcast group of partition %s (0x%04x): %s",
			       p->name, p->pkey, strerror(-rc));
	}
	int rc = sm_mcast_program(sm);
	sm_mcast_store_due(sm, true);
	sm_info("multicast: %zu groups, %zu MLIDs, %llu MFT blocks set, %llu failures", mc->n,
		mc->mlids, (unsigned long long)(mc->blocks_set - sets),
		(unsigned long long)(mc->failures - failures));
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

// SPDX-License-Identifier: MIT
/*
 * sm_patch_ar.c - the AR side of a link patch (see sm_patch.h): on the
 * AR-capable switches, the groups and LIDs that would send a packet into a
 * dead link.
 *
 * After the static entries were patched (sm_patch.c):
 *  1. every group of a dead link end's switch that holds the dead port loses
 *     it; a group left empty unbinds its LIDs (AR LFT state static: the
 *     static port, patched already, carries them);
 *  2. a neighbour of a dead link end's switch Q (over a live link) whose
 *     group for a LID holds the port to Q, where Q's static way on to the LID
 *     is broken (Q had no other port: its neighbours were patched instead),
 *     unbinds that LID.  The group stays as it is: the switch's other LIDs
 *     that share it still reach their destinations through Q.
 * Then every AR LFT block that changed goes out (each change unbinds a LID,
 * never binds one), and only after those the group table blocks that
 * changed, all after the LFT blocks: so no LID is ever bound to an empty
 * group, nor, once the patch is done, to a group with a way into the dead
 * link.  The AR LFT blocks carry the patched static ports as their default
 * ports.  Finally the AR cache (sm->ar) is brought in line with what the
 * switches now hold, or the entry forgotten where a Set failed, so the
 * heavy sweep that follows sends what differs from the switches' tables.
 *
 * Last (patch_ar_keep_on()), every AR switch the patch sent a block of any
 * kind, plain LFT blocks included (which turn its AR off: sm_ar.c), gets its
 * AdaptiveRoutingInfo read back and AR turned on again where it is off.
 *
 * Why unbinding is enough: every other AR hop leads to a switch whose static
 * way on is as long as before and avoids the dead links (the static patch),
 * and whose own groups were treated the same way; so every way a group
 * allows still reaches the destination.  The heavy sweep gives the LIDs new
 * groups.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "sm/repair/sm_ar.h"
#include "sm/util/sm_log.h"
#include "sm/core/sm_mkey.h"
#include "sm/repair/sm_patch_int.h"
#include "sm/core/sm_routes.h"

/* Switch @n has groups in the routes and answered the AR probe. */
static bool ar_switch(const struct patch *p, uint32_t n)
{
	const struct sm_ar_switch *e;

	if (!p->rt->ar.lid_group || !p->rt->ar.lid_group[n])
		return false;
	e = sm_ar_find(p->sm->ar, p->f->topo.nodes[n].guid);
	return e && e->probe == SM_AR_CAPABLE;
}

static size_t lft_blocks(const struct patch *p)
{
	return sm_routes_ar_row(p->rt) / MAD_AR_LFT_PER_BLOCK;
}

static bool holds(const uint64_t *mask, uint8_t port)
{
	return mask[port / 64] >> (port % 64) & 1;
}

/* Switch @n's @lid: static. */
static int unbind(struct patch *p, uint32_t n, uint16_t lid)
{
	int rc = sm_lft_mark(p->ar_lft_dirty, n, lid / MAD_AR_LFT_PER_BLOCK, lft_blocks(p));

	if (rc < 0)
		return rc;
	p->rt->ar.lid_group[n][lid] = 0;
	p->ar_lids++;
	return 0;
}

/* Step 1 for dead link end (@n, @port). */
static int drop_port(struct patch *p, uint32_t n, uint8_t port)
{
	struct ibsmd_rt_ar *ar = &p->rt->ar;
	uint16_t *row = ar->lid_group[n], top = 0;
	int rc = 0;

	for (uint32_t lid = 0; lid <= p->rt->max_lid; lid++)
		top = row[lid] > top ? row[lid] : top;
	for (uint16_t g = 1; rc == 0 && g <= top && g <= ar->group_cap; g++) {
		uint64_t *m = ar->groups[n][g - 1];
		if (!holds(m, port))
			continue;
		m[port / 64] &= ~(1ull << (port % 64));
		p->ar_groups++;
		rc = sm_lft_mark(p->ar_group_dirty, n, g / MAD_AR_GROUPS_PER_BLOCK,
				(size_t)ar->group_cap / MAD_AR_GROUPS_PER_BLOCK + 1);
		bool empty = true;
		for (unsigned w = 0; w < IBSMD_AR_WORDS; w++)
			empty = empty && !m[w];
		for (uint32_t lid = 1; rc >= 0 && empty && lid <= p->rt->max_lid; lid++)
			if (row[lid] == g)
				rc = unbind(p, n, (uint16_t)lid);
	}
	return rc < 0 ? rc : 0;
}

/* Step 2 for dead link end switch @q; @broken: max_lid + 1 bytes of scratch. */
static int avoid_broken(struct patch *p, uint32_t q, uint8_t *broken)
{
	const struct topo_node *tq = &p->f->topo.nodes[q];
	struct ibsmd_rt_ar *ar = &p->rt->ar;
	int rc = 0;

	memset(broken, 0, (size_t)p->rt->max_lid + 1);	/* 0: not walked, 1 ok, 2 broken */
	for (unsigned r = 1; rc == 0 && r <= tq->nports; r++) {
		uint32_t m = tq->ports[r].peer;
		uint8_t mp = tq->ports[r].peer_port;
		if (m == TOPO_NONE || patch_is_dead(p, q, (uint8_t)r) || !ar_switch(p, m))
			continue;
		uint16_t *row = ar->lid_group[m];
		for (uint32_t lid = 1; rc == 0 && lid <= p->rt->max_lid; lid++) {
			uint16_t g = row[lid];
			if (!g || g > ar->group_cap || !holds(ar->groups[m][g - 1], mp))
				continue;
			if (!broken[lid])
				broken[lid] = patch_walk(p, q, (uint16_t)lid, true, NULL) < 0 ? 2 : 1;
			if (broken[lid] == 2)
				rc = unbind(p, m, (uint16_t)lid);
		}
	}
	return rc;
}

/* Dead end @i is the first of its switch's on a link to another switch (a
 * dead CA link leaves no way around it to look after: step 2 once per
 * switch, only for those). */
static bool first_switch_link(const struct patch *p, unsigned i)
{
	const struct topo *t = &p->f->topo;

	for (unsigned j = 0; j <= i; j++) {
		const struct topo_node *tn = &t->nodes[p->dead[j].node];
		uint32_t peer = tn->ports[p->dead[j].port].peer;
		if (p->dead[j].node == p->dead[i].node && tn->type == MAD_NODE_SWITCH &&
		    peer != TOPO_NONE && t->nodes[peer].type == MAD_NODE_SWITCH)
			return j == i;
	}
	return false;
}

int patch_ar_compute(struct patch *p)
{
	const struct topo *t = &p->f->topo;
	uint8_t *broken = NULL;
	int rc = 0;

	if (!p->rt->ar.lid_group)
		return 0;
	p->ar_group_dirty = calloc(t->n, sizeof(*p->ar_group_dirty));
	p->ar_lft_dirty = calloc(t->n, sizeof(*p->ar_lft_dirty));
	p->ar_failed = calloc(t->n, sizeof(*p->ar_failed));
	broken = malloc((size_t)p->rt->max_lid + 1);
	if (!p->ar_group_dirty || !p->ar_lft_dirty || !p->ar_failed || !broken)
		rc = -ENOMEM;
	for (unsigned i = 0; rc == 0 && i < p->ndead; i++)
		if (ar_switch(p, p->dead[i].node))
			rc = drop_port(p, p->dead[i].node, p->dead[i].port);
	for (unsigned i = 0; rc == 0 && i < p->ndead; i++)
		if (first_switch_link(p, i) && p->rt->lft[p->dead[i].node])
			rc = avoid_broken(p, p->dead[i].node, broken);
	free(broken);
	return rc;
}

static void on_ar_set(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct patch_req *r = ctx;

	if (!err && memcmp(resp->data, req->data, SMP_DATA_SIZE))
		err = -EPROTO;
	if (err) {
		r->p->failed++;
		r->p->ar_failed[r->node] = true;
		sm_warn("patch: %s Set to 0x%016llx (%s) failed: %s",
			req->attr_id == MAD_ATTR_AR_LFT ? "AR LFT" : "AR group table",
			(unsigned long long)r->p->f->topo.nodes[r->node].guid,
			r->p->f->topo.nodes[r->node].desc, strerror(-err));
	}
}

static int send_one(struct patch *p, uint32_t n, uint16_t attr, uint32_t mod,
		    const uint8_t *data)
{
	struct patch_req *r = sm_arena_alloc(&p->arena, sizeof(*r));
	int rc;

	if (!r)
		return -ENOMEM;
	*r = (struct patch_req){ .p = p, .node = n };
	if ((rc = mad_rpc_wait_backlog(p->sm->rpc)))
		return rc;
	return mad_rpc_submit_dr(p->sm->rpc, MAD_METHOD_SET, attr, mod, patch_path_to(p, n),
				 sm_mkey_for(p->f, n, 0), data, on_ar_set, r);
}

int patch_ar_send(struct patch *p)
{
	const struct ibsmd_rt_ar *ar = &p->rt->ar;
	size_t ngb = (size_t)ar->group_cap / MAD_AR_GROUPS_PER_BLOCK + 1;
	uint8_t data[SMP_DATA_SIZE];
	int rc = 0;

	if (!p->ar_lft_dirty)
		return 0;
	/* the LIDs unbound first, then the groups */
	for (uint32_t n = 0; rc == 0 && n < p->f->topo.n; n++)
		for (size_t b = 0; rc == 0 && p->ar_lft_dirty[n] && b < lft_blocks(p); b++) {
			if (!sm_lft_bit(p->ar_lft_dirty[n], b))
				continue;
			if (sm_ar_lft_block(p->rt, n, (uint32_t)b, data))
				return -EINVAL;
			rc = send_one(p, n, MAD_ATTR_AR_LFT, mad_ar_lft_mod((uint16_t)b), data);
			p->ar_lft_blocks++;
		}
	if (rc == 0)
		rc = mad_rpc_drain(p->sm->rpc);
	for (uint32_t n = 0; rc == 0 && n < p->f->topo.n; n++)
		for (size_t b = 0; rc == 0 && p->ar_group_dirty[n] && b < ngb; b++) {
			if (!sm_lft_bit(p->ar_group_dirty[n], b))
				continue;
			sm_ar_group_block(ar, n, ar->group_cap, (uint16_t)b, data);
			rc = send_one(p, n, MAD_ATTR_AR_GROUP_TABLE, mad_ar_group_mod((uint16_t)b), data);
			p->ar_group_blocks++;
		}
	return rc ? rc : mad_rpc_drain(p->sm->rpc);
}

void patch_ar_remember(struct patch *p)
{
	const struct ibsmd_rt_ar *ar = &p->rt->ar;

	for (uint32_t n = 0; p->ar_lft_dirty && n < p->f->topo.n; n++) {
		if (!p->ar_lft_dirty[n] && !p->ar_group_dirty[n])
			continue;
		struct sm_ar_switch *e = sm_ar_find(p->sm->ar, p->f->topo.nodes[n].guid);
		if (!e || !e->programmed)
			continue;
		if (p->ar_failed[n] || e->top > ar->group_cap || e->nlid > sm_routes_ar_row(p->rt)) {
			sm_ar_forget(e);	/* unknown what it holds: all again next time */
			continue;
		}
		memcpy(e->groups, ar->groups[n], (size_t)e->top * sizeof(*e->groups));
		memcpy(e->lid_group, ar->lid_group[n], (size_t)e->nlid * sizeof(*e->lid_group));
		e->store_due = true;	/* with the patch's record (sm_ar_store()) */
	}
}

int patch_ar_keep_on(struct patch *p)
{
	uint32_t n = p->f->topo.n;
	bool *touched = sm_arena_alloc(&p->arena, (size_t)n + 1);
	const struct topo_path **paths = sm_arena_alloc(&p->arena, ((size_t)n + 1) * sizeof(*paths));
	size_t any = 0;

	if (!touched || !paths)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		touched[i] = p->dirty[i] || p->lft_failed[i] ||
			     (p->ar_lft_dirty && (p->ar_lft_dirty[i] || p->ar_group_dirty[i]));
		paths[i] = touched[i] ? patch_path_to(p, i) : NULL;
		any += touched[i];
	}
	if (!any)
		return 0;
	struct sm_ar_result r;
	int rc = sm_ar_keep_on(p->sm, p->f, touched, paths, &p->arena, &r);
	p->failed += r.failures;
	p->ar_info_smps += r.info_reads + r.info_sets;
	return rc;
}

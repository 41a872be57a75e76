// SPDX-License-Identifier: MIT
/*
 * check_rt_lmc.c - LMC multipath in every built-in engine: on the 128-host
 * 3-level radix-8 fat tree with LMC 2, every leaf sends the four LIDs of each
 * CA port on another leaf out of four different up-links (also as rt_quality()
 * counts it for route-check), and the effective bisection bandwidth toward
 * each LID offset (the source LID does not change a route: the 4 x 4 LID
 * combinations are the four destination offsets) is not below that of LMC 0.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "routing/rt_quality.h"
#include "tests/check_util.h"
#include "tests/rt_testview.h"

static const struct ibsmd_routing_engine *const engines[] = {
	&rt_ftree_engine, &rt_minhop_engine, &rt_updn_engine, &rt_dfsssp_engine,
};

/* Route @r with @e; the EBB toward each LID offset below @noff into @ebb
 * (the state lives that long), rt_quality()'s LMC figures into @lmc. */
static void route(struct rtv *r, const struct ibsmd_routing_engine *e, double *ebb,
		  unsigned noff, struct rt_quality *lmc)
{
	void *state = NULL;

	rtv_clear(r);
	ck_assert_int_eq(e->setup ? e->setup(&r->ctx, &state) : 0, 0);
	ck_assert_int_eq(e->compute_unicast(&r->ctx, state), 0);
	for (unsigned off = 0; off < noff; off++) {
		struct rt_quality q;
		struct rt_quality_opts o = { .pairings = 20, .seed = 1, .engine = e,
					     .engine_state = state, .lid_offset = off };
		ck_assert_int_eq(rt_quality(&r->ctx, &o, &q), 0);
		ck_assert_uint_eq(q.unreachable, 0);
		ck_assert_uint_eq(q.loops, 0);
		ck_assert_int_eq(q.cdg_rc, 0);
		ebb[off] = q.ebb;
		*lmc = q;
	}
	if (e->destroy)
		e->destroy(state);
}

/* The switch CA port @lid's node hangs off. */
static uint32_t leaf_of(const struct rtv *r, uint32_t lid)
{
	uint32_t n = r->v.lid_node[lid];

	return r->v.nodes[n].ports[r->v.lid_port[lid]].peer;
}

START_TEST(four_lids_four_uplinks)
{
	const struct ibsmd_routing_engine *e = engines[_i];
	char *path = rtv_topogen("fattree --levels 3 --radix 8");
	double base, ebb[4];
	struct rtv r;
	uint32_t remote = 0, spread = 0;

	ck_assert_ptr_nonnull(path);
	ck_assert_int_eq(rtv_load(&r, path, NULL, NULL), 0);
	unlink(path);
	free(path);
	struct rt_quality q;
	route(&r, e, &base, 1, &q);
	ck_assert_uint_eq(q.lmc.pairs, 0);
	ck_assert_int_eq(rtv_set_lmc(&r, 2), 0);
	route(&r, e, ebb, 4, &q);
	/* route-check's figure: 128 hosts x 124 remote ones, every LID its own link */
	ck_assert_uint_eq(q.lmc.pairs, 128 * 124);
	ck_assert_uint_eq(q.lmc.spread, q.lmc.pairs);
	ck_assert_double_gt(q.lmc.distinct, 3 * q.lmc.links);
	for (uint32_t s = 0; s < r.v.nnodes; s++) {
		bool leaf = false;
		for (unsigned p = 1; ibsmd_is_switch(&r.v, s) && p <= r.v.nodes[s].nports; p++)
			leaf |= r.v.nodes[s].ports[p].peer != IBSMD_NO_NODE &&
				!ibsmd_is_switch(&r.v, r.v.nodes[s].ports[p].peer);
		for (uint32_t lid = 1; leaf && lid <= r.v.max_lid; lid++) {
			const struct ibsmd_rt_port *cp;
			if (r.v.lid_node[lid] == IBSMD_NO_NODE ||
			    ibsmd_is_switch(&r.v, r.v.lid_node[lid]) || leaf_of(&r, lid) == s)
				continue;
			cp = &r.v.nodes[r.v.lid_node[lid]].ports[r.v.lid_port[lid]];
			if (cp->lid != lid)
				continue;	/* counted at the base LID */
			ck_assert_uint_eq(cp->lmc, 2);
			uint8_t ports[4];
			unsigned distinct = 0;
			for (unsigned off = 0; off < 4; off++) {
				ports[off] = ibsmd_lft_get(&r.ctx, s, (uint16_t)(lid + off));
				bool seen = false;
				for (unsigned k = 0; k < off; k++)
					seen |= ports[k] == ports[off];
				distinct += !seen;
			}
			remote++;
			spread += distinct == 4;
		}
	}
	/* 32 leaves, each with 124 remote CA ports */
	ck_assert_uint_eq(remote, 32 * 124);
	ck_assert_msg(spread == remote, "%s: %u of %u remote destinations leave a leaf on "
		      "four different up-links", e->name, spread, remote);
	for (unsigned off = 0; off < 4; off++)
		ck_assert_msg(ebb[off] >= base, "%s: EBB toward LID offset %u %.4f < %.4f at "
			      "LMC 0", e->name, off, ebb[off], base);
	rtv_free(&r);
}
END_TEST

static Suite *lmc_suite(void)
{
	Suite *s = suite_create("lmc");
	TCase *tc = tcase_create("lmc");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, four_lids_four_uplinks, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(lmc_suite)

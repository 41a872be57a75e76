// SPDX-License-Identifier: MIT
/*
 * check_rt_adaptive.c - the engine `adaptive` (routing/rt_adaptive.c) on
 * generated 3-level fat trees:
 *
 * - its static LFTs are ftree's, entry for entry;
 * - every group holds the static port; a leaf's group toward a host on
 *   another leaf is all its up ports, a top switch's the one port down toward
 *   the destination's pod; no group toward the switch's own hosts;
 * - random bisection traffic in the flow model (rt_traffic.h, rt_quality's
 *   pairings), 128 and 1,024 hosts: the AR groups lift the EBB of ftree's
 *   static routes (0.600 -> 0.667 and 0.543 -> 0.604).  Issue 11 asks for
 *   0.85: per-flow choices that see only their own switch's ports cannot
 *   avoid two flows meeting on the one down path to a leaf, which is where
 *   the rest is lost; the model says so rather than being tuned to it;
 * - group_cap: at most that many groups a switch, the rest counted static;
 *   a bad cap is refused;
 * - the credit-loop check of all allowed hops: clean on the tree, a loop
 *   once a spine sends a leaf's traffic back down to the leaf that sent it
 *   up (static entries changed after the engine ran).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_adaptive.h"
#include "routing/rt_quality.h"
#include "routing/rt_traffic.h"
#include "tests/check_util.h"
#include "tests/rt_testview.h"

static unsigned popcount(const uint64_t *m)
{
	unsigned n = 0;

	for (unsigned w = 0; w < 4; w++)
		n += (unsigned)__builtin_popcountll(m[w]);
	return n;
}

/* Route @r (a generated tree) with adaptive; its state in *@state. */
static void route(struct rtv *r, void **state)
{
	ck_assert_int_eq(rt_adaptive_engine.setup(&r->ctx, state), 0);
	ck_assert_int_eq(rt_adaptive_engine.compute_unicast(&r->ctx, *state), 0);
}

START_TEST(static_is_ftree_groups_are_up_down)
{
	struct rtv r, f;
	void *state, *fstate;
	unsigned up_groups = 0;

	ck_assert_int_eq(rtv_load_generated(&r, "fattree --levels 3 --radix 8", NULL), 0);
	ck_assert_int_eq(rtv_load_generated(&f, "fattree --levels 3 --radix 8", NULL), 0);
	route(&r, &state);
	ck_assert_int_eq(rt_ftree_engine.setup(&f.ctx, &fstate), 0);
	ck_assert_int_eq(rt_ftree_engine.compute_unicast(&f.ctx, fstate), 0);
	for (uint32_t n = 0; n < r.v.nnodes; n++)
		if (r.lft[n])
			ck_assert_mem_eq(r.lft[n], f.lft[n], (size_t)r.v.max_lid + 1);
	rt_ftree_engine.destroy(fstate);
	rtv_free(&f);
	for (uint32_t n = 0; n < r.v.nnodes; n++) {
		if (!ibsmd_is_switch(&r.v, n))
			continue;
		for (uint16_t lid = 1; lid <= r.v.max_lid; lid++) {
			uint32_t h = r.v.lid_node[lid];
			const uint64_t *m = rt_adaptive_group(state, n, lid);
			if (h == IBSMD_NO_NODE || ibsmd_is_switch(&r.v, h)) {
				ck_assert_ptr_null(m);
				continue;
			}
			bool local = r.v.nodes[h].ports[r.v.lid_port[lid]].peer == n;
			ck_assert_msg(!local == (m != NULL), "%s LID %u", r.v.nodes[n].desc, lid);
			if (!m)
				continue;
			uint8_t p = r.lft[n][lid];
			ck_assert_msg(m[p / 64] >> (p % 64) & 1, "%s LID %u: static port %u not in "
				      "its group", r.v.nodes[n].desc, lid, p);
			/* radix 8: 4 up ports below the top; tops have 8 down ports, one
			 * per pod; middles 4 up or 1 down */
			unsigned k = popcount(m);
			ck_assert_msg(k == 1 || k == 4, "%s LID %u: %u ports", r.v.nodes[n].desc, lid, k);
			up_groups += k == 4;
		}
	}
	ck_assert_uint_gt(up_groups, 0);
	struct rt_adaptive_stats st;
	rt_adaptive_stats(state, &st);
	ck_assert_uint_gt(st.groups, 0);
	ck_assert_uint_eq(st.over_cap, 0);
	/* a switch's groups: all its up ports, or one down port each */
	ck_assert_uint_le(st.max_groups, 8);
	rt_adaptive_engine.destroy(state);
	rtv_free(&r);
}
END_TEST

/* The AR gain on @args: random pairings, rt_quality's defaults. */
static void ar_gain(const char *args)
{
	struct rtv r;
	void *state;
	struct rt_traffic t;
	const struct rt_traffic_opts o = { .pattern = RT_TRAFFIC_RANDOM,
					   .pairings = RT_QUALITY_PAIRINGS, .seed = RT_QUALITY_SEED,
					   .ar = rt_adaptive_group };

	ck_assert_int_eq(rtv_load_generated(&r, args, NULL), 0);
	route(&r, &state);
	struct rt_traffic_opts ao = o;
	ao.ar_arg = state;
	ck_assert_int_eq(rt_traffic(&r.ctx, &ao, &t), 0);
	printf("%s: %u hosts, random bisection EBB static %.4f, adaptive %.4f\n", args, t.hosts,
	       t.stat.ebb, t.adapt.ebb);
	ck_assert_uint_eq(t.stat.undelivered + t.adapt.undelivered, 0);
	ck_assert_msg(t.stat.ebb <= 0.61, "static %.4f", t.stat.ebb);
	ck_assert_msg(t.adapt.ebb >= t.stat.ebb + 0.05, "adaptive %.4f, static %.4f", t.adapt.ebb,
		      t.stat.ebb);
	rt_adaptive_engine.destroy(state);
	rtv_free(&r);
}

START_TEST(ar_gain_128)
{
	ar_gain("fattree --levels 3 --radix 8");
}
END_TEST

START_TEST(ar_gain_1024)
{
	ar_gain("fattree --levels 3 --radix 16");
}
END_TEST

START_TEST(group_cap)
{
	static const char *const one[] = { "group_cap=1", NULL };
	static const char *const bad[] = { "group_cap=4096", NULL };
	static const char *const zero[] = { "group_cap=0", NULL };
	struct rtv r;
	void *state;
	struct rt_adaptive_stats st;

	ck_assert_int_eq(rtv_load_generated(&r, "fattree --levels 3 --radix 8", one), 0);
	route(&r, &state);
	rt_adaptive_stats(state, &st);
	ck_assert_uint_le(st.max_groups, 1);
	ck_assert_uint_gt(st.over_cap, 0);
	rt_adaptive_engine.destroy(state);
	rtv_free(&r);
	for (unsigned i = 0; i < 2; i++) {
		ck_assert_int_eq(rtv_load_generated(&r, "fattree --levels 3 --radix 8",
						    i ? zero : bad), 0);
		ck_assert_int_eq(rt_adaptive_engine.setup(&r.ctx, &state), 0);
		ck_assert_int_eq(rt_adaptive_engine.compute_unicast(&r.ctx, state), -EINVAL);
		ck_assert(strstr(rtv_last_log, "group_cap=1..4095"));
		rt_adaptive_engine.destroy(state);
		rtv_free(&r);
	}
}
END_TEST

START_TEST(credit_loop_check)
{
	struct rtv r;
	void *state;
	struct rt_adaptive_stats st;

	ck_assert_int_eq(rtv_load(&r, rtv_srcpath("tests/rt/ft2r4.net"), NULL, NULL), 0);
	route(&r, &state);
	rt_adaptive_stats(state, &st);
	ck_assert_uint_gt(st.groups, 0);	/* kept: the check passed in compute */
	ck_assert_int_eq(rt_adaptive_check(&r.ctx, state), 0);
	/* H2 (on L1): S0 sends it down to L0, whose group goes up to S0 again */
	uint32_t s0 = topo_find_name(&r.topo, "S0"), h2 = topo_find_name(&r.topo, "H2");
	uint16_t lid = r.v.nodes[h2].ports[1].lid;
	r.lft[s0][lid] = 1;
	ck_assert_int_eq(rt_adaptive_check(&r.ctx, state), -ELOOP);
	rt_adaptive_engine.destroy(state);
	rtv_free(&r);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("rt_adaptive");
	TCase *tc = tcase_create("adaptive");

	tcase_set_timeout(tc, 300);	/* a hang guard: ar_gain_1024 takes 13 s of CPU, 3x that under ASan, more at load 10 */
	tcase_add_test(tc, static_is_ftree_groups_are_up_down);
	tcase_add_test(tc, ar_gain_128);
	tcase_add_test(tc, ar_gain_1024);
	tcase_add_test(tc, group_cap);
	tcase_add_test(tc, credit_loop_check);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

// SPDX-License-Identifier: MIT
/*
 * check_rt_updn.c - the updn engine (routing/rt_updn.c) on generated fat trees
 * (pure and with 5% of the switch links removed), the real clusters, a ring
 * where every switch has hosts, two islands, and its root options.  Every
 * result must pass the validator and have no cycle in its channel dependency
 * graph; on a pure fat tree every route is as short as min-hop's and no
 * link carries more routes than a leaf's up-link must.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/check_util.h"
#include "tests/rt_testview.h"

/* Switch hops from switch @s to @lid (-1: it does not arrive). */
static int hops(const struct rtv *r, uint32_t s, uint16_t lid)
{
	for (int h = 0; h < 64; h++) {
		uint8_t p = ibsmd_lft_get(&r->ctx, s, lid);
		if (p == 0)
			return s == r->v.lid_node[lid] ? h : -1;
		if (p > r->v.nodes[s].nports || r->v.nodes[s].ports[p].peer == IBSMD_NO_NODE)
			return -1;
		s = r->v.nodes[s].ports[p].peer;
		if (!ibsmd_is_switch(&r->v, s))
			return s == r->v.lid_node[lid] ? h + 1 : -1;
	}
	return -1;
}

/* The most CA -> CA routes any switch output port carries toward a switch. */
static uint32_t busiest_port(const struct rtv *r)
{
	uint32_t load[256][64] = { { 0 } }, max = 0;

	ck_assert_uint_le(r->v.nnodes, 256);
	for (uint32_t lid = 1; lid <= r->v.max_lid; lid++) {
		if (ibsmd_is_switch(&r->v, r->v.lid_node[lid]))
			continue;
		for (uint32_t h = 0; h < r->v.nnodes; h++) {
			if (ibsmd_is_switch(&r->v, h))
				continue;
			uint32_t s = r->v.nodes[h].ports[1].peer;
			for (uint8_t p; (p = ibsmd_lft_get(&r->ctx, s, (uint16_t)lid)) != 0 &&
			     p < 64 && ibsmd_is_switch(&r->v, r->v.nodes[s].ports[p].peer);
			     s = r->v.nodes[s].ports[p].peer)
				max = ++load[s][p] > max ? load[s][p] : max;
		}
	}
	return max;
}

/* updn on @r: routes, validates with no pair lost, no credit loop. */
static void updn_ok(struct rtv *r)
{
	struct rt_validation val;
	struct rt_cdg_result cdg;

	ck_assert_int_eq(rt_updn_engine.compute_unicast(&r->ctx, NULL), 0);
	ck_assert_msg(rt_validate(&r->ctx, &val) == 0, "%s", val.first_problem);
	ck_assert_uint_eq(val.unreachable, 0);
	ck_assert_int_eq(rt_cdg_check(&r->ctx, &rt_updn_engine, NULL, &cdg), 0);
	ck_assert_uint_gt(cdg.dependencies, 0);
}

static void load_generated(struct rtv *r, const char *args, const char *const *opts)
{
	ck_assert_int_eq(rtv_load_generated(r, args, opts), 0);
}

START_TEST(pure_fat_tree_is_minimal)
{
	struct rtv r;
	int *len;
	size_t k = 0, n;

	load_generated(&r, "fattree --levels 3 --radix 8", NULL);
	updn_ok(&r);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "16 roots (detected)"));
	/* a leaf's 4 hosts send to 124 others over its 4 up-links: 124 each at
	 * best, and no link deeper in the tree may carry more */
	ck_assert_uint_eq(busiest_port(&r), 124);
	n = (size_t)r.v.nnodes * (r.v.max_lid + 1);
	len = malloc(n * sizeof(*len));
	for (uint32_t s = 0; s < r.v.nnodes; s++)
		for (uint32_t lid = 1; lid <= r.v.max_lid; lid++)
			len[k++] = ibsmd_is_switch(&r.v, s) ? hops(&r, s, (uint16_t)lid) : 0;
	rtv_clear(&r);
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&r.ctx, NULL), 0);
	k = 0;
	for (uint32_t s = 0; s < r.v.nnodes; s++)
		for (uint32_t lid = 1; lid <= r.v.max_lid; lid++, k++) {
			if (!ibsmd_is_switch(&r.v, s) ||
			    ibsmd_is_switch(&r.v, r.v.lid_node[lid]))
				continue;
			ck_assert_int_ge(len[k], 1);
			ck_assert_int_eq(len[k], hops(&r, s, (uint16_t)lid));
		}
	free(len);
	rtv_free(&r);
}
END_TEST

/* 5% of the switch links gone: every pair still routed, no credit loop.
 * Seed 4 leaves two leaves whose up-closures meet no common spine, so the
 * detected roots fail and updn ranks again from one root. */
START_TEST(degraded_fat_trees_route_every_pair)
{
	char args[128];
	struct rtv r;

	snprintf(args, sizeof(args), "fattree --levels 3 --radix 8 --remove-links 5 --seed %d",
		 _i);
	load_generated(&r, args, NULL);
	updn_ok(&r);
	if (_i == 4)
		ck_assert_ptr_nonnull(strstr(rtv_last_log, "1 root (fallback)"));
	rtv_free(&r);
}
END_TEST

START_TEST(real_clusters)
{
	const char *files[] = { "tests/topo/real/cluster144-sx6036-2level.topo",
				"tests/topo/real/cluster89-mixed-irregular.topo" };
	struct rtv r;

	ck_assert_int_eq(rtv_load(&r, rtv_srcpath(files[_i]), NULL, NULL), 0);
	updn_ok(&r);
	rtv_free(&r);
}
END_TEST

/* Every switch has hosts: no switch is a root by height, one is picked. */
START_TEST(ring_of_leaves)
{
	struct rtv r;

	ck_assert_int_eq(rtv_load(&r, rtv_srcpath("tests/rt/ring6.topo"), NULL, NULL), 0);
	updn_ok(&r);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "1 root (single)"));
	rtv_free(&r);
}
END_TEST

START_TEST(islands_route_inside)
{
	struct rt_validation val;
	struct rtv r;

	ck_assert_int_eq(rtv_load(&r, rtv_srcpath("tests/rt/islands.topo"), NULL, NULL), 0);
	ck_assert_int_eq(rt_updn_engine.compute_unicast(&r.ctx, NULL), 0);
	/* LIDs: S0..S2 1..3, H0..H3 4..7 */
	ck_assert_int_eq(hops(&r, 0, 5), 2);
	ck_assert_int_eq(hops(&r, 1, 4), 2);
	ck_assert_int_eq(hops(&r, 2, 7), 1);
	ck_assert_int_eq(hops(&r, 0, 6), -1);
	ck_assert_int_eq(rt_validate(&r.ctx, &val), -EHOSTUNREACH);
	/* H0, H1 <-> H2, H3 both ways */
	ck_assert_uint_eq(val.unreachable, 8);
	rtv_free(&r);
}
END_TEST

START_TEST(configured_roots)
{
	const char *leaf[] = { "ignored=1", "root=0x0200000200000000", NULL };
	const char *two[] = { "root=0x0200000200000400", "root=0x0200000200000410", NULL };
	const char *bad[] = { "root=0x1234", NULL };
	const char *ca[] = { "root=0x0200000100000000", NULL };
	struct rtv r;

	load_generated(&r, "fattree --levels 3 --radix 8", leaf);
	updn_ok(&r);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "1 root (configured): 0x0200000200000000"));
	rtv_free(&r);

	load_generated(&r, "fattree --levels 3 --radix 8", two);
	updn_ok(&r);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "2 roots (configured): "
				     "0x0200000200000400 0x0200000200000410"));
	rtv_free(&r);

	load_generated(&r, "fattree --levels 3 --radix 8", bad);
	ck_assert_int_eq(rt_updn_engine.compute_unicast(&r.ctx, NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "1 of the 1 roots given name no switch"));
	rtv_free(&r);

	load_generated(&r, "fattree --levels 3 --radix 8", ca);
	ck_assert_int_eq(rt_updn_engine.compute_unicast(&r.ctx, NULL), -EINVAL);
	rtv_free(&r);
}
END_TEST

START_TEST(chain_runs_the_cdg_check)
{
	const char *names[] = { "updn" };
	struct rt_validation val;
	struct rtv r;

	ck_assert_int_eq(rtv_load(&r, rtv_srcpath("tests/rt/ring6.topo"), NULL, NULL), 0);
	ck_assert_int_eq(rt_chain_run(names, 1, "/nonexistent", NULL, &r.ctx, &val), 0);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "updn routes all 36"));
	rtv_free(&r);
}
END_TEST

static Suite *updn_suite(void)
{
	Suite *s = suite_create("updn");
	TCase *tc = tcase_create("updn");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, pure_fat_tree_is_minimal);
	tcase_add_loop_test(tc, degraded_fat_trees_route_every_pair, 1, 11);
	tcase_add_loop_test(tc, real_clusters, 0, 2);
	tcase_add_test(tc, ring_of_leaves);
	tcase_add_test(tc, islands_route_inside);
	tcase_add_test(tc, configured_roots);
	tcase_add_test(tc, chain_runs_the_cdg_check);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(updn_suite)

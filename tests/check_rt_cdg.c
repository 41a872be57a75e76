// SPDX-License-Identifier: MIT
/*
 * check_rt_cdg.c - the channel dependency graph check (routing/rt_cdg.c):
 * hand-made tables on a ring of four switches (clockwise everywhere: a credit
 * loop; along a line: none; per-destination SLs from a path_sl hook: none),
 * min-hop on rings and a degraded fat tree (credit loops it must find),
 * updn on the same fabrics (none), and a 1,000-switch ring (a cycle as long
 * as the ring: the search must not recurse).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/check_util.h"
#include "tests/rt_testview.h"

/* ring4.topo: S0..S3 are nodes 0..3 with LIDs 1..4, H0..H3 nodes 4..7 with
 * LIDs 5..8; port 1 leads to the next switch, 2 to the previous, 3 the host. */
static struct rtv r;

static const struct ibsmd_routing_engine plain = { .name = "plain" };

static void ring4(void)
{
	ck_assert_int_eq(rtv_load(&r, rtv_srcpath("tests/rt/ring4.topo"), NULL, NULL), 0);
	ck_assert_uint_eq(r.v.max_lid, 8);
}

/* Every LID of switch @dst's pair delivered there; elsewhere out of @port(s). */
static void route_to(uint32_t dst, uint8_t (*port)(uint32_t s, uint32_t dst))
{
	for (uint32_t s = 0; s < 4; s++) {
		r.lft[s][1 + dst] = s == dst ? 0 : port(s, dst);
		r.lft[s][5 + dst] = s == dst ? 3 : port(s, dst);
	}
}

static uint8_t clockwise(uint32_t s, uint32_t dst)
{
	(void)s;
	(void)dst;
	return 1;
}

/* along the line S0-S1-S2-S3 (the S3-S0 link unused) */
static uint8_t along_line(uint32_t s, uint32_t dst)
{
	return dst > s ? 1 : 2;
}

START_TEST(clockwise_ring_loops)
{
	struct rt_cdg_result res;

	ring4();
	for (uint32_t d = 0; d < 4; d++)
		route_to(d, clockwise);
	ck_assert_int_eq(rt_cdg_check(&r.ctx, &plain, NULL, &res), -ELOOP);
	ck_assert_uint_eq(res.cycle_len, 4);
	ck_assert_uint_eq(res.cycle_sl, 0);
	/* each switch's port 1 channel, by GUID and name */
	ck_assert_ptr_nonnull(strstr(res.first_cycle, "SL 0: 0x0000000000200000 (S0) port 1 ->"));
	ck_assert_ptr_nonnull(strstr(res.first_cycle, "(S3) port 1 -> back to the first"));
	/* from S(i) to S(i+2), S(i+1)'s channel waits for S(i+2)'s: 4 distinct */
	ck_assert_uint_eq(res.dependencies, 4);
	rtv_free(&r);
}
END_TEST

START_TEST(line_routes_do_not_loop)
{
	struct rt_cdg_result res;

	ring4();
	for (uint32_t d = 0; d < 4; d++)
		route_to(d, along_line);
	ck_assert_int_eq(rt_cdg_check(&r.ctx, &plain, NULL, &res), 0);
	ck_assert_uint_eq(res.cycle_len, 0);
	ck_assert_uint_eq(res.sls, 1);
	/* S0->S1->S2, S1->S2->S3, and back the same way */
	ck_assert_uint_eq(res.dependencies, 4);
	rtv_free(&r);
}
END_TEST

/* SL = destination LID: each SL carries one destination's in-tree. */
static uint8_t sl_by_dlid(const struct ibsmd_rt_ctx *ctx, void *state, uint16_t slid,
			  uint16_t dlid)
{
	(void)ctx;
	(void)slid;
	*(unsigned *)state += 1;
	return (uint8_t)dlid;
}

/* everything on SL 3 */
static uint8_t sl_three(const struct ibsmd_rt_ctx *ctx, void *state, uint16_t slid,
			uint16_t dlid)
{
	(void)ctx;
	(void)state;
	(void)slid;
	(void)dlid;
	return 3;
}

START_TEST(path_sl_separates_channels)
{
	const struct ibsmd_routing_engine by_dlid = { .name = "sl", .path_sl = sl_by_dlid };
	const struct ibsmd_routing_engine on_three = { .name = "sl3", .path_sl = sl_three };
	struct rt_cdg_result res;
	unsigned calls = 0;

	ring4();
	for (uint32_t d = 0; d < 4; d++)
		route_to(d, clockwise);
	ck_assert_int_eq(rt_cdg_check(&r.ctx, &by_dlid, &calls, &res), 0);
	ck_assert_uint_eq(res.sls, 4);	/* CA to CA traffic: 4 destination LIDs */
	ck_assert_uint_eq(calls, 4 * 4);	/* 4 host LIDs x 4 host LIDs */
	ck_assert_int_eq(rt_cdg_check(&r.ctx, &on_three, NULL, &res), -ELOOP);
	ck_assert_uint_eq(res.cycle_sl, 3);
	ck_assert_ptr_nonnull(strstr(res.first_cycle, "SL 3:"));
	rtv_free(&r);
}
END_TEST

START_TEST(minhop_loops_where_updn_does_not)
{
	const char *file = _i == 0 ? "tests/rt/ring6.topo" : NULL;
	struct rt_cdg_result res;
	char *gen = NULL;

	if (!file) {
		gen = rtv_topogen("torus --dims 4x4");
		ck_assert_ptr_nonnull(gen);
	}
	ck_assert_int_eq(rtv_load(&r, gen ? gen : rtv_srcpath(file), NULL, NULL), 0);
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&r.ctx, NULL), 0);
	ck_assert_int_eq(rt_cdg_check(&r.ctx, &rt_minhop_engine, NULL, &res), -ELOOP);
	ck_assert_uint_ge(res.cycle_len, 3);
	rtv_clear(&r);
	ck_assert_int_eq(rt_updn_engine.compute_unicast(&r.ctx, NULL), 0);
	ck_assert_int_eq(rt_cdg_check(&r.ctx, &rt_updn_engine, NULL, &res), 0);
	rtv_free(&r);
	if (gen) {
		unlink(gen);
		free(gen);
	}
}
END_TEST

/* A ring of 1,000 switches routed clockwise: one cycle through all of them. */
START_TEST(long_cycle_without_recursion)
{
	enum { N = 1000 };
	char path[] = "/tmp/rt-ring-XXXXXX";
	struct rt_cdg_result res;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < N; i++)
		fprintf(f, "Switch 3 \"S%d\"\n[1] \"S%d\"[2]\n[3] \"H%d\"[1]\n\n"
			"Hca 1 \"H%d\"\n[1] \"S%d\"[3]\n\n", i, (i + 1) % N, i, i, i);
	fclose(f);
	ck_assert_int_eq(rtv_load(&r, path, NULL, NULL), 0);
	unlink(path);
	for (uint32_t n = 0; n < r.v.nnodes; n++) {
		if (!r.lft[n])
			continue;
		memset(r.lft[n], 1, (size_t)r.v.max_lid + 1);
		r.lft[n][r.v.nodes[n].ports[0].lid] = 0;
		r.lft[n][r.v.nodes[r.v.nodes[n].ports[3].peer].ports[1].lid] = 3;
	}
	ck_assert_int_eq(rt_cdg_check(&r.ctx, &plain, NULL, &res), -ELOOP);
	ck_assert_uint_eq(res.cycle_len, N);
	rtv_free(&r);
}
END_TEST

static Suite *cdg_suite(void)
{
	Suite *s = suite_create("cdg");
	TCase *tc = tcase_create("cdg");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, clockwise_ring_loops);
	tcase_add_test(tc, line_routes_do_not_loop);
	tcase_add_test(tc, path_sl_separates_channels);
	tcase_add_loop_test(tc, minhop_loops_where_updn_does_not, 0, 2);
	tcase_add_test(tc, long_cycle_without_recursion);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(cdg_suite)

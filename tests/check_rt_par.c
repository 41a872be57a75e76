// SPDX-License-Identifier: MIT
/*
 * check_rt_par.c - validation and the credit-loop check give the same answer
 * on one core as on several (routing/rt_par.c): the counts, the first problem
 * and the first cycle, byte for byte, on good tables and broken ones, with
 * and without path SLs.
 *
 * The fabrics are large enough for several LID blocks per check: a 3-level
 * radix-24 fat tree (4,176 LIDs) routed by ftree, then broken at random
 * entries (losses and loops, to CA and switch LIDs), and degraded so that
 * some routes turn onto SLs above 0; an 8x8x8 torus routed by min-hop, whose
 * routes have credit loops; a 4x4x4 torus routed by dfsssp.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_par.h"
#include "tests/check_util.h"
#include "tests/rt_testview.h"

static const unsigned worker_counts[] = { 1, 2, 3, 7 };
#define NCOUNTS (sizeof(worker_counts) / sizeof(worker_counts[0]))

static void load_generated(struct rtv *r, const char *args)
{
	ck_assert_int_eq(rtv_load_generated(r, args, NULL), 0);
}

/* rt_validate() and rt_cdg_check() on @r with every worker count: all alike. */
static void same_everywhere(struct rtv *r, const struct ibsmd_routing_engine *e, void *state,
			    int want_val, int want_cdg)
{
	struct rt_validation val[NCOUNTS];
	struct rt_cdg_result cdg[NCOUNTS];

	for (unsigned i = 0; i < NCOUNTS; i++) {
		rt_par_set_workers(worker_counts[i]);
		memset(&val[i], 0, sizeof(val[i]));
		memset(&cdg[i], 0, sizeof(cdg[i]));
		ck_assert_int_eq(rt_validate(&r->ctx, &val[i]), want_val);
		ck_assert_int_eq(rt_cdg_check(&r->ctx, e, state, &cdg[i]), want_cdg);
	}
	rt_par_set_workers(0);
	for (unsigned i = 1; i < NCOUNTS; i++) {
		ck_assert_msg(memcmp(&val[0], &val[i], sizeof(val[0])) == 0,
			      "%u workers: %s / 1 worker: %s", worker_counts[i],
			      val[i].first_problem, val[0].first_problem);
		ck_assert_msg(memcmp(&cdg[0], &cdg[i], sizeof(cdg[0])) == 0,
			      "%u workers: %s / 1 worker: %s", worker_counts[i],
			      cdg[i].first_cycle, cdg[0].first_cycle);
	}
	ck_assert_uint_gt(cdg[0].dependencies, 0);
}

/* Break @n entries, chosen by a fixed generator: a port that may not exist,
 * port 0, or a neighbour that may send it back (loops). */
static void break_entries(struct rtv *r, unsigned n)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (unsigned i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint32_t node = (uint32_t)(x % r->v.nnodes);
		uint16_t lid = (uint16_t)(1 + (x >> 20) % r->v.max_lid);
		if (!r->lft[node])
			continue;
		r->lft[node][lid] = (uint8_t)((x >> 40) % (r->v.nodes[node].nports + 2u));
	}
}

START_TEST(ftree_good_broken_and_turning)
{
	const struct ibsmd_routing_engine *e = &rt_ftree_engine;
	struct rtv r;
	void *state = NULL;

	load_generated(&r, "fattree --levels 3 --radix 24");
	ck_assert_uint_gt(r.v.max_lid, 4096);
	ck_assert_int_eq(e->setup(&r.ctx, &state), 0);
	ck_assert_int_eq(e->compute_unicast(&r.ctx, state), 0);
	same_everywhere(&r, e, state, 0, 0);
	break_entries(&r, 3000);
	same_everywhere(&r, e, state, -EHOSTUNREACH, -ELOOP);
	e->destroy(state);
	rtv_free(&r);

	load_generated(&r, "fattree --levels 3 --radix 24 --remove-links 45 --seed 7");
	ck_assert_int_eq(e->setup(&r.ctx, &state), 0);
	ck_assert_int_eq(e->compute_unicast(&r.ctx, state), 0);
	ck_assert_msg(strstr(rtv_last_log, "routes turn down-then-up, on SLs up to") &&
		      !strstr(rtv_last_log, "on SLs up to 0;"), "%s", rtv_last_log);
	same_everywhere(&r, e, state, 0, 0);
	e->destroy(state);
	rtv_free(&r);
}
END_TEST

START_TEST(minhop_torus_credit_loop)
{
	struct rtv r;

	load_generated(&r, "torus --dims 8x8x8 --hosts-per-switch 4");
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&r.ctx, NULL), 0);
	same_everywhere(&r, &rt_minhop_engine, NULL, 0, -ELOOP);
	rtv_free(&r);
}
END_TEST

/* dfsssp's path SLs, called from every worker at once */
START_TEST(dfsssp_torus_layers)
{
	const struct ibsmd_routing_engine *e = &rt_dfsssp_engine;
	struct rtv r;
	void *state = NULL;

	load_generated(&r, "torus --dims 4x4x4 --hosts-per-switch 8");
	ck_assert_uint_gt(r.v.max_lid, 512);
	ck_assert_int_eq(e->setup(&r.ctx, &state), 0);
	ck_assert_int_eq(e->compute_unicast(&r.ctx, state), 0);
	same_everywhere(&r, e, state, 0, 0);
	e->destroy(state);
	rtv_free(&r);
}
END_TEST

static Suite *par_suite(void)
{
	Suite *s = suite_create("rt_par");
	TCase *tc = tcase_create("same");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, ftree_good_broken_and_turning);
	tcase_add_test(tc, minhop_torus_credit_loop);
	tcase_add_test(tc, dfsssp_torus_layers);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(par_suite)

// SPDX-License-Identifier: MIT
/*
 * check_rt_dfsssp.c - the dfsssp engine (routing/rt_dfsssp.c) on small
 * fabrics: a torus, a dragonfly, a 2-level fat tree and the real clusters.
 * Every result must reach every pair and have no credit loop given the
 * engine's path SLs (rt_cdg_check()); a torus needs more than one layer, a
 * fat tree exactly one; with too few VLs allowed the engine falls back to
 * escape paths instead of failing; its EBB is at least min-hop's.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "routing/rt_quality.h"
#include "tests/check_util.h"
#include "tests/rt_testview.h"

static void load_generated(struct rtv *r, const char *args, const char *const *opts)
{
	char *path = rtv_topogen(args);

	ck_assert_ptr_nonnull(path);
	ck_assert_int_eq(rtv_load(r, path, NULL, opts), 0);
	unlink(path);
	free(path);
}

/* The highest path SL of a CA -> CA route. */
static unsigned max_sl(const struct rtv *r, void *state)
{
	unsigned max = 0;

	for (uint32_t s = 1; s <= r->v.max_lid; s++)
		for (uint32_t d = 1; d <= r->v.max_lid; d++) {
			if (ibsmd_is_switch(&r->v, r->v.lid_node[s]) ||
			    ibsmd_is_switch(&r->v, r->v.lid_node[d]))
				continue;
			unsigned sl = rt_dfsssp_engine.path_sl(&r->ctx, state, (uint16_t)s,
							       (uint16_t)d);
			max = sl > max ? sl : max;
		}
	return max;
}

/* dfsssp on @r: every pair reached, no credit loop on the SLs it gives; the
 * highest SL used, and the EBB in *@ebb. */
static unsigned dfsssp_ok(struct rtv *r, double *ebb)
{
	struct rt_validation val;
	struct rt_cdg_result cdg;
	void *state = NULL;

	ck_assert_int_eq(rt_dfsssp_engine.setup(&r->ctx, &state), 0);
	ck_assert_int_eq(rt_dfsssp_engine.compute_unicast(&r->ctx, state), 0);
	ck_assert_msg(rt_validate(&r->ctx, &val) == 0, "%s", val.first_problem);
	ck_assert_uint_eq(val.unreachable, 0);
	ck_assert_msg(rt_cdg_check(&r->ctx, &rt_dfsssp_engine, state, &cdg) == 0, "%s",
		      cdg.first_cycle);
	unsigned sl = max_sl(r, state);
	ck_assert_uint_eq(cdg.sls, sl + 1);
	struct rt_quality q;
	struct rt_quality_opts o = { .pairings = 20, .seed = 1, .engine = &rt_dfsssp_engine,
				     .engine_state = state };
	ck_assert_int_eq(rt_quality(&r->ctx, &o, &q), 0);
	*ebb = q.ebb;
	rt_dfsssp_engine.destroy(state);
	return sl;
}

static double minhop_ebb(struct rtv *r)
{
	struct rt_quality q;
	struct rt_quality_opts o = { .pairings = 20, .seed = 1 };

	rtv_clear(r);
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&r->ctx, NULL), 0);
	ck_assert_int_eq(rt_quality(&r->ctx, &o, &q), 0);
	return q.ebb;
}

static const char *const shapes[] = {
	"torus --dims 4x4x4 --hosts-per-switch 2",
	"dragonfly",
	"mesh --dims 3x3 --hosts-per-switch 2",
	"torus --dims 5x3 --remove-links 10 --seed 2",
};

/* Shortest paths close credit loops here: several layers, none left. */
START_TEST(layers_break_credit_loops)
{
	struct rtv r;
	double ebb;

	load_generated(&r, shapes[_i], NULL);
	unsigned sl = dfsssp_ok(&r, &ebb);
	ck_assert_msg(_i == 2 || sl >= 1, "%s: SL %u", shapes[_i], sl);
	ck_assert_uint_le(sl, 7);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "dfsssp: "));
	ck_assert_msg(ebb >= minhop_ebb(&r), "%s: EBB %.4f below min-hop's", shapes[_i], ebb);
	rtv_free(&r);
}
END_TEST

static const char *const trees[] = {
	"tests/topo/real/cluster89-mixed-irregular.topo",
	"tests/topo/real/cluster144-sx6036-2level.topo",
};

START_TEST(trees_need_one_layer)
{
	struct rtv r;
	double ebb;

	if (_i < 2)
		ck_assert_int_eq(rtv_load(&r, rtv_srcpath(trees[_i]), NULL, NULL), 0);
	else
		load_generated(&r, "fattree --levels 3 --radix 8", NULL);
	ck_assert_uint_eq(dfsssp_ok(&r, &ebb), 0);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "dfsssp: 1 layer (SL 0)"));
	ck_assert_msg(ebb >= minhop_ebb(&r), "EBB %.4f below min-hop's", ebb);
	rtv_free(&r);
}
END_TEST

/* Fewer VLs than the shortest paths need: escape paths on the last layer,
 * still every pair and no credit loop; one VL: up*-down* on SL 0 alone. */
START_TEST(escape_paths_within_the_budget)
{
	char opt[16];
	const char *opts[] = { opt, NULL };
	struct rtv r;
	double ebb;

	snprintf(opt, sizeof(opt), "vls=%d", _i);
	load_generated(&r, "torus --dims 4x4x4 --hosts-per-switch 2", opts);
	ck_assert_uint_eq(dfsssp_ok(&r, &ebb), (unsigned)_i - 1);
	ck_assert_msg(strstr(rtv_last_log, "escape paths"), "%s", rtv_last_log);
	rtv_free(&r);
}
END_TEST

START_TEST(bad_vls_refused)
{
	static const char *const bad[] = { "vls=0", "vls=16", "vls=", "vls=2x", "vls=-1" };
	const char *opts[] = { bad[_i], NULL };
	void *state = (void *)1;
	struct rtv r;

	ck_assert_int_eq(rtv_load(&r, rtv_srcpath("tests/rt/ring6.topo"), NULL, opts), 0);
	ck_assert_int_eq(rt_dfsssp_engine.setup(&r.ctx, &state), -EINVAL);
	ck_assert_ptr_null(state);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "vls=1..15"));
	rtv_free(&r);
}
END_TEST

/* The daemon's chain: dfsssp passes its own CDG check with its SLs. */
START_TEST(chain_keeps_dfsssp)
{
	const char *names[] = { "dfsssp" };
	struct rt_validation val;
	struct rtv r;

	load_generated(&r, "torus --dims 5x5", NULL);
	ck_assert_int_eq(rt_chain_run(names, 1, "/nonexistent", NULL, &r.ctx, &val), 0);
	ck_assert_uint_ge(val.max_sl, 1);
	rtv_free(&r);
}
END_TEST

static Suite *dfsssp_suite(void)
{
	Suite *s = suite_create("dfsssp");
	TCase *tc = tcase_create("dfsssp");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, layers_break_credit_loops, 0, 4);
	tcase_add_loop_test(tc, trees_need_one_layer, 0, 3);
	tcase_add_loop_test(tc, escape_paths_within_the_budget, 1, 4);
	tcase_add_loop_test(tc, bad_vls_refused, 0, 5);
	tcase_add_test(tc, chain_keeps_dfsssp);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(dfsssp_suite)

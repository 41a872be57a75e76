// SPDX-License-Identifier: MIT
/*
 * check_rt_rebalance.c - congestion-aware rebalancing end to end on the
 * traffic model: a steady hot-spot pattern (one fixed random matching, the
 * same in every counter interval) over ftree's static routes; the port loads
 * the model gives are what the ports' data counters would show; the
 * rebalancer (rt_rebalance.c) moves LFT entries within the AR groups of
 * rt_adaptive; the model runs again on the new LFTs; until no move is left.
 * The effective bandwidth must rise by at least 20%, every pair stay
 * reachable and the routes free of credit loops, and a settled pattern make
 * no further move.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_adaptive.h"
#include "routing/rt_rebalance.h"
#include "routing/rt_traffic.h"
#include "tests/check_util.h"
#include "tests/rt_testview.h"

#define MAX_MOVES 4096

struct bed {
	struct rtv r;
	void *state;		/* the adaptive engine's: its groups */
	double **load;		/* per switch node */
	bool *moved;		/* [node * (max_lid + 1) + lid] */
	struct rt_traffic_opts traffic;
};

static void bed_open(struct bed *b, const char *args, enum rt_traffic_pattern pattern)
{
	memset(b, 0, sizeof(*b));
	ck_assert_int_eq(rtv_load_generated(&b->r, args, NULL), 0);
	ck_assert_int_eq(rt_adaptive_engine.setup(&b->r.ctx, &b->state), 0);
	ck_assert_int_eq(rt_adaptive_engine.compute_unicast(&b->r.ctx, b->state), 0);
	b->load = calloc(b->r.v.nnodes, sizeof(*b->load));
	b->moved = calloc((size_t)b->r.v.nnodes * (b->r.v.max_lid + 1u), sizeof(*b->moved));
	ck_assert_ptr_nonnull(b->moved);
	ck_assert_ptr_nonnull(b->load);
	for (uint32_t n = 0; n < b->r.v.nnodes; n++)
		if (ibsmd_is_switch(&b->r.v, n))
			ck_assert_ptr_nonnull(b->load[n] = calloc(b->r.v.nodes[n].nports + 1u,
								 sizeof(double)));
	b->traffic = (struct rt_traffic_opts){ .pattern = pattern, .pairings = 1, .seed = 1,
					       .port_load = b->load };
}

static void bed_close(struct bed *b)
{
	for (uint32_t n = 0; n < b->r.v.nnodes; n++)
		free(b->load[n]);
	free(b->load);
	free(b->moved);
	rt_adaptive_engine.destroy(b->state);
	rtv_free(&b->r);
}

/* One counter interval: the model's EBB, its port loads into b->load. */
static double interval(struct bed *b)
{
	struct rt_traffic t;

	ck_assert_int_eq(rt_traffic(&b->r.ctx, &b->traffic, &t), 0);
	ck_assert_uint_eq(t.stat.undelivered, 0);
	return t.stat.ebb;
}

/* The hysteresis the daemon keeps (a destination moved on a switch within the
 * hour stays), here for the whole test: each (switch, LID) moves once. */
static bool not_moved(void *arg, uint32_t sw, uint16_t lid)
{
	struct bed *b = arg;

	return !b->moved[(size_t)sw * (b->r.v.max_lid + 1u) + lid];
}

static uint32_t rebalance(struct bed *b, uint32_t budget)
{
	static struct rt_rebalance_move moves[MAX_MOVES];
	const struct rt_rebalance_opts o = { .hot = 0.8, .cool = 0.5, .max_moves = budget,
		.groups = rt_adaptive_group, .groups_arg = b->state, .may_move = not_moved,
		.may_move_arg = b };
	uint32_t n;

	ck_assert_int_eq(rt_rebalance(&b->r.ctx, (const double *const *)b->load, &o, moves, &n), 0);
	for (uint32_t i = 0; i < n; i++) {
		const uint64_t *m = rt_adaptive_group(b->state, moves[i].sw, moves[i].lid);
		ck_assert_ptr_nonnull(m);
		ck_assert(m[moves[i].to / 64] >> (moves[i].to % 64) & 1);
		ck_assert_uint_ne(moves[i].from, moves[i].to);
		ck_assert_double_gt(moves[i].from_load, 0.8);
		ck_assert_double_le(moves[i].to_load, 0.5);
		ck_assert_uint_eq(b->r.lft[moves[i].sw][moves[i].lid], moves[i].to);
		b->moved[(size_t)moves[i].sw * (b->r.v.max_lid + 1u) + moves[i].lid] = true;
	}
	return n;
}

static void routes_sound(struct bed *b)
{
	static const struct ibsmd_routing_engine one_sl = { .name = "rebalanced" };
	struct rt_validation val;
	struct rt_cdg_result cdg;

	ck_assert_int_eq(rt_validate(&b->r.ctx, &val), 0);
	ck_assert_uint_eq(val.unreachable + val.loops + val.sw_unreachable + val.sw_loops, 0);
	ck_assert_int_eq(rt_cdg_check(&b->r.ctx, &one_sl, NULL, &cdg), 0);
}

static void hot_spot(const char *args, enum rt_traffic_pattern pattern, unsigned max_rounds)
{
	struct bed b;

	bed_open(&b, args, pattern);
	double first = interval(&b), ebb = first;
	uint32_t total = 0, n = 0;
	unsigned round;
	ck_assert_msg(first <= 0.6, "%s: static ftree EBB %.4f, want <= 0.6 for a hot spot",
		      args, first);
	for (round = 0; round < max_rounds; round++) {
		if (!(n = rebalance(&b, MAX_MOVES)))
			break;
		total += n;
		routes_sound(&b);
		ebb = interval(&b);
		if (getenv("REBALANCE_TRACE"))
			printf("  round %u: %u moves, EBB %.4f\n", round, n, ebb);
	}
	printf("%s, %s: EBB %.4f -> %.4f (%+.0f%%) with %u moves in %u rounds\n", args,
	       rt_traffic_pattern_name(pattern), first, ebb, 100 * (ebb / first - 1), total, round);
	ck_assert_msg(n == 0, "still moving after %u rounds", max_rounds);
	ck_assert_msg(ebb >= 1.2 * first, "EBB %.4f -> %.4f: less than +20%%", first, ebb);
	/* settled: the same pattern again moves nothing */
	ck_assert_double_eq_tol(interval(&b), ebb, 1e-12);
	ck_assert_uint_eq(rebalance(&b, MAX_MOVES), 0);
	bed_close(&b);
}

START_TEST(hot_spot_128)
{
	hot_spot("fattree --levels 3 --radix 8", RT_TRAFFIC_BITREV, 60);
}
END_TEST

START_TEST(hot_spot_2level)
{
	hot_spot("fattree --levels 2 --radix 16", RT_TRAFFIC_BITREV, 20);
}
END_TEST

START_TEST(budget_and_options)
{
	static struct rt_rebalance_move moves[8];
	struct bed b;
	uint32_t n;

	bed_open(&b, "fattree --levels 3 --radix 8", RT_TRAFFIC_BITREV);
	interval(&b);
	struct rt_rebalance_opts o = { .hot = 0.8, .cool = 0.8, .max_moves = 5,
		.groups = rt_adaptive_group, .groups_arg = b.state };
	ck_assert_int_eq(rt_rebalance(&b.r.ctx, (const double *const *)b.load, &o, moves, &n),
			 -EINVAL);
	o.cool = 0.5;
	o.groups = NULL;
	ck_assert_int_eq(rt_rebalance(&b.r.ctx, (const double *const *)b.load, &o, moves, &n),
			 -EINVAL);
	o.groups = rt_adaptive_group;
	ck_assert_int_eq(rt_rebalance(&b.r.ctx, (const double *const *)b.load, &o, moves, &n), 0);
	ck_assert_uint_eq(n, 5);	/* many more would be worth it: the budget holds */
	o.max_moves = 0;
	ck_assert_int_eq(rt_rebalance(&b.r.ctx, (const double *const *)b.load, &o, moves, &n), 0);
	ck_assert_uint_eq(n, 0);
	bed_close(&b);
}
END_TEST

/* Every switch port at @l. */
static void load_all(struct bed *b, double l)
{
	for (uint32_t n = 0; n < b->r.v.nnodes; n++)
		for (unsigned p = 0; b->load[n] && p <= b->r.v.nodes[n].nports; p++)
			b->load[n][p] = l;
}

START_TEST(hot_needs_a_cool_path)
{
	struct bed b;

	bed_open(&b, "fattree --levels 2 --radix 8", RT_TRAFFIC_BITREV);
	uint32_t leaf = topo_find_name(&b.r.topo, "L0");
	ck_assert_uint_ne(leaf, TOPO_NONE);
	/* L0's first up port hot, everything else warm (above cool): stays */
	load_all(&b, 0.6);
	b.load[leaf][5] = 1.0;
	ck_assert_uint_eq(rebalance(&b, MAX_MOVES), 0);
	/* nothing above hot: nothing moves, however cool the rest */
	load_all(&b, 0.2);
	b.load[leaf][5] = 0.8;
	ck_assert_uint_eq(rebalance(&b, MAX_MOVES), 0);
	/* hot with cool paths beside it: entries leave port 5, and only it */
	b.load[leaf][5] = 1.0;
	uint32_t n = rebalance(&b, MAX_MOVES);
	ck_assert_uint_gt(n, 0);
	routes_sound(&b);
	bed_close(&b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rt_rebalance");
	TCase *tc = tcase_create("model");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, hot_spot_128);
	tcase_add_test(tc, hot_spot_2level);
	tcase_add_test(tc, budget_and_options);
	tcase_add_test(tc, hot_needs_a_cool_path);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

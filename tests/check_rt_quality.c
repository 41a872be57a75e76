// SPDX-License-Identifier: MIT
/*
 * check_rt_quality.c - the quality figures of routing/rt_quality.c on
 * hand-made tables whose answers are counted by hand:
 *
 * - the 2-level radix-4 fat tree (tests/rt/ft2r4.net: leaves L0..L3 with
 *   hosts on ports 1-2 and spines S0, S1 on ports 3-4; hosts H0..H7 in leaf
 *   order, Hj on leaf j/2).  "dmodk" sends Hj up port 3 + j % 2 and every
 *   spine down to the leaf: no two flows of any shift share a link; "one
 *   spine" sends everything up port 3: shifts 1 and 7 keep one flow per up
 *   link, the others put two on each;
 * - the same with a loop, a hole and a wrong port (pairs counted by hand);
 * - a ring of four switches routed clockwise (tests/rt/ring4.topo): lengths
 *   3, 4, 5 and a credit loop;
 * - two switches joined by one cable, two hosts on each: a pairing either
 *   keeps both flows on their switch (EBB 1) or sends two flows each way over
 *   the cable (EBB 1/2);
 * - one switch with four hosts: nothing is ever shared;
 * - the traffic model (rt_traffic.c), in its own test case at the end.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "routing/rt_quality.h"
#include "routing/rt_traffic.h"
#include "tests/check_util.h"
#include "tests/rt_testview.h"

static struct rtv r;

static uint32_t node(const char *name)
{
	uint32_t n = topo_find_name(&r.topo, name);

	ck_assert_msg(n != TOPO_NONE, "no node %s", name);
	return n;
}

static uint16_t host_lid(unsigned j)
{
	char name[16];

	snprintf(name, sizeof(name), "H%u", j);
	return r.v.nodes[node(name)].ports[1].lid;
}

static void set_entry(const char *sw, unsigned host, uint8_t port)
{
	r.lft[node(sw)][host_lid(host)] = port;
}

/* ft2r4 with host Hj sent up port @up(j) by every other leaf (switch LIDs
 * routed by min-hop). */
static void ft_route(uint8_t (*up)(unsigned j))
{
	char name[8];

	ck_assert_int_eq(rtv_load(&r, rtv_srcpath("tests/rt/ft2r4.net"), NULL, NULL), 0);
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&r.ctx, NULL), 0);
	for (unsigned j = 0; j < 8; j++) {
		for (unsigned l = 0; l < 4; l++) {
			snprintf(name, sizeof(name), "L%u", l);
			set_entry(name, j, j / 2 == l ? (uint8_t)(j % 2 + 1) : up(j));
		}
		set_entry("S0", j, (uint8_t)(j / 2 + 1));
		set_entry("S1", j, (uint8_t)(j / 2 + 1));
	}
}

static uint8_t up_dmodk(unsigned j)
{
	return (uint8_t)(3 + j % 2);
}

static uint8_t up_one_spine(unsigned j)
{
	(void)j;
	return 3;
}

static void measure(unsigned pairings, struct rt_quality *q)
{
	const struct rt_quality_opts o = { .pairings = pairings, .seed = 7 };

	ck_assert_int_eq(rt_quality(&r.ctx, &o, q), 0);
}

START_TEST(dmodk_fat_tree)
{
	struct rt_quality q;

	ft_route(up_dmodk);
	measure(10, &q);
	ck_assert_uint_eq(q.hosts, 8);
	ck_assert_uint_eq(q.switches, 6);
	ck_assert_uint_eq(q.pairs, 56);
	ck_assert_uint_eq(q.unreachable, 0);
	ck_assert_uint_eq(q.loops, 0);
	ck_assert_int_eq(q.validation_rc, 0);
	ck_assert_int_eq(q.cdg_rc, 0);
	/* 8 pairs on one leaf cross 2 links, 48 over a spine cross 4 */
	for (unsigned h = 0; h <= RT_QUALITY_MAX_HOPS; h++)
		ck_assert_uint_eq(q.hops[h], h == 2 ? 8 : h == 4 ? 48 : 0);
	/* 8 links to hosts carry 7 routes; 8 up and 8 down links carry 6 */
	ck_assert_uint_eq(q.load.links, 24);
	ck_assert_uint_eq(q.load.min, 6);
	ck_assert_uint_eq(q.load.max, 7);
	ck_assert_double_eq_tol(q.load.mean, 152.0 / 24, 1e-9);
	ck_assert_double_eq_tol(q.load.stddev, sqrt(2.0) / 3, 1e-9);
	ck_assert_uint_eq(q.shifts, 7);
	ck_assert_uint_eq(q.shifts_free, 7);
	ck_assert_uint_eq(q.shift_worst, 1);
	ck_assert_uint_eq(q.pairings, 10);
	ck_assert(q.ebb > 0.5 && q.ebb <= 1.0);
	rtv_free(&r);
}
END_TEST

START_TEST(one_spine_fat_tree)
{
	struct rt_quality q, dmodk;

	ft_route(up_dmodk);
	measure(50, &dmodk);
	rtv_free(&r);
	ft_route(up_one_spine);
	measure(50, &q);
	ck_assert_uint_eq(q.unreachable + q.loops, 0);
	ck_assert_uint_eq(q.load.links, 24);
	ck_assert_uint_eq(q.load.min, 0);	/* S1 and the ports to it idle */
	ck_assert_uint_eq(q.load.max, 12);	/* 2 sources x 6 destinations */
	ck_assert_double_eq_tol(q.load.mean, (8 * 7 + 8 * 12) / 24.0, 1e-9);
	ck_assert_uint_eq(q.shifts_free, 2);
	ck_assert_uint_eq(q.shift_worst, 2);
	/* the same pairings share more links on one spine than on two */
	ck_assert(q.ebb < dmodk.ebb);
	rtv_free(&r);
}
END_TEST

START_TEST(broken_fat_tree)
{
	struct rt_quality q;

	ft_route(up_dmodk);
	set_entry("S0", 2, 1);		/* H2: L0 -> S0 -> L0 -> ... for 6 sources */
	set_entry("L3", 5, 0xff);	/* H5: nothing from L3's 2 hosts */
	set_entry("L2", 4, 2);		/* H4: to H5 instead, for all 7 sources */
	measure(0, &q);
	ck_assert_uint_eq(q.pairs, 56);
	ck_assert_uint_eq(q.loops, 6);
	ck_assert_uint_eq(q.unreachable, 9);
	ck_assert_uint_eq(q.hops[2] + q.hops[4], 56 - 15);
	ck_assert_int_eq(q.validation_rc, -EHOSTUNREACH);
	ck_assert(q.validation.first_problem[0]);
	/* every shift has a flow to H4, lost: none is contention-free */
	ck_assert_uint_eq(q.shifts_free, 0);
	ck_assert_uint_eq(q.pairings, 0);
	ck_assert(q.ebb == 0);
	rtv_free(&r);
}
END_TEST

START_TEST(ring_clockwise)
{
	struct rt_quality q;
	char name[8];

	ck_assert_int_eq(rtv_load(&r, rtv_srcpath("tests/rt/ring4.topo"), NULL, NULL), 0);
	for (unsigned s = 0; s < 4; s++) {
		snprintf(name, sizeof(name), "S%u", s);
		for (unsigned j = 0; j < 4; j++)
			set_entry(name, j, j == s ? 3 : 1);
	}
	measure(5, &q);
	ck_assert_uint_eq(q.pairs, 12);
	ck_assert_uint_eq(q.unreachable + q.loops, 0);
	ck_assert_uint_eq(q.hops[3], 4);
	ck_assert_uint_eq(q.hops[4], 4);
	ck_assert_uint_eq(q.hops[5], 4);
	ck_assert_int_eq(q.cdg_rc, -ELOOP);
	ck_assert_uint_eq(q.cdg.cycle_len, 4);
	/* shift s puts s flows on every clockwise link */
	ck_assert_uint_eq(q.shifts_free, 1);
	ck_assert_uint_eq(q.shift_worst, 3);
	rtv_free(&r);
}
END_TEST

/* Load a fabric given as ibsim net text. */
static void load_text(const char *text)
{
	char path[] = "/tmp/check_rt_quality.XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ck_assert_int_eq(rtv_load(&r, path, NULL, NULL), 0);
	unlink(path);
}

static const char line2[] =
	"Switch 3 \"A\"\n[1] \"H0\"[1]\n[2] \"H1\"[1]\n[3] \"B\"[3]\n\n"
	"Switch 3 \"B\"\n[1] \"H2\"[1]\n[2] \"H3\"[1]\n[3] \"A\"[3]\n\n"
	"Hca 1 \"H0\"\n[1] \"A\"[1]\n\nHca 1 \"H1\"\n[1] \"A\"[2]\n\n"
	"Hca 1 \"H2\"\n[1] \"B\"[1]\n\nHca 1 \"H3\"\n[1] \"B\"[2]\n";

START_TEST(two_switches_one_cable)
{
	struct rt_quality q, again;

	load_text(line2);
	for (unsigned j = 0; j < 4; j++) {
		set_entry("A", j, j < 2 ? (uint8_t)(j + 1) : 3);
		set_entry("B", j, j >= 2 ? (uint8_t)(j - 1) : 3);
	}
	measure(3000, &q);
	ck_assert_uint_eq(q.unreachable + q.loops, 0);
	/* a pairing scores 1 (both pairs local) or 1/2 (both across): one in three local */
	double local = (q.ebb - 0.5) * 2 * 3000;
	ck_assert_double_eq_tol(local, round(local), 1e-6);
	ck_assert(local > 900 && local < 1100);
	/* the same seed, the same pairings */
	measure(3000, &again);
	ck_assert(again.ebb == q.ebb);
	/* shifts 1 and 3: one flow each way over the cable; shift 2: two */
	ck_assert_uint_eq(q.shifts_free, 2);
	ck_assert_uint_eq(q.shift_worst, 2);
	rtv_free(&r);
}
END_TEST

START_TEST(one_switch)
{
	static const char text[] =
		"Switch 4 \"X\"\n[1] \"H0\"[1]\n[2] \"H1\"[1]\n[3] \"H2\"[1]\n[4] \"H3\"[1]\n\n"
		"Hca 1 \"H0\"\n[1] \"X\"[1]\n\nHca 1 \"H1\"\n[1] \"X\"[2]\n\n"
		"Hca 1 \"H2\"\n[1] \"X\"[3]\n\nHca 1 \"H3\"\n[1] \"X\"[4]\n";
	struct rt_quality q;

	load_text(text);
	for (unsigned j = 0; j < 4; j++)
		set_entry("X", j, (uint8_t)(j + 1));
	ck_assert_int_eq(rt_quality(&r.ctx, NULL, &q), 0);
	ck_assert_uint_eq(q.pairings, RT_QUALITY_PAIRINGS);
	ck_assert(q.ebb == 1.0);
	ck_assert_uint_eq(q.shifts_free, 3);
	ck_assert_uint_eq(q.hops[2], 12);
	ck_assert_uint_eq(q.load.min, 3);
	ck_assert_uint_eq(q.load.max, 3);
	ck_assert(q.load.stddev == 0);
	rtv_free(&r);
}
END_TEST

/*
 * The flow-level traffic model (routing/rt_traffic.c), held to the EBB
 * above: on ft2r4 with two hosts a leaf no link ever carries more than two
 * flows of a pairing, so the two measures are equal pairing by pairing
 * ("dmodk" also keeps the shifts contention-free); the one-spine shifts
 * counted by hand, and AR groups of both up ports on the leaves undoing the
 * damage; the two switches' all-to-all and shifts counted by hand; on
 * generated fat trees and a torus the model is never below rt_quality.
 */
static double model(enum rt_traffic_pattern p, unsigned pairings, struct rt_traffic *t)
{
	const struct rt_traffic_opts o = { .pattern = p, .pairings = pairings, .seed = 7 };

	ck_assert_int_eq(rt_traffic(&r.ctx, &o, t), 0);
	ck_assert_uint_eq(t->stat.undelivered, 0);
	ck_assert(!t->adaptive);
	return t->stat.ebb;
}

static double quality_ebb(unsigned pairings)
{
	const struct rt_quality_opts o = { .pairings = pairings, .seed = 7 };
	struct rt_quality q;

	ck_assert_int_eq(rt_quality(&r.ctx, &o, &q), 0);
	return q.ebb;
}

START_TEST(traffic_contention_free)
{
	struct rt_traffic t;

	ft_route(up_dmodk);
	ck_assert(model(RT_TRAFFIC_SHIFT, 0, &t) == 1.0);
	ck_assert_uint_eq(t.hosts, 8);
	ck_assert_uint_eq(t.rounds, 7);
	ck_assert_uint_eq(t.flows, 56);
	/* random pairings are not: two hosts of a leaf may send to hosts of one
	 * parity; but with two hosts a leaf, no link ever carries more than two */
	ck_assert_double_eq_tol(model(RT_TRAFFIC_RANDOM, 50, &t), quality_ebb(50), 1e-12);
	ck_assert(t.stat.ebb < 1.0);
	ck_assert_uint_eq(t.rounds, 50);
	ck_assert_uint_eq(t.flows, 400);
	rtv_free(&r);
}
END_TEST

/* The leaves' AR group toward a host on another leaf: both up ports. */
static const uint64_t *leaf_up_group(const void *arg, uint32_t n, uint16_t lid)
{
	static const uint64_t up[4] = { 1u << 3 | 1u << 4 };
	const struct rtv *rv = arg;
	const char *desc = rv->v.nodes[n].desc;
	uint32_t dst = rv->v.lid_node[lid];

	if (desc[0] != 'L' || ibsmd_is_switch(&rv->v, dst) ||
	    rv->v.nodes[dst].ports[1].peer == n)
		return NULL;
	return up;
}

START_TEST(traffic_uniformly_shared)
{
	struct rt_traffic t;

	ft_route(up_one_spine);
	/* two flows at most on a link: max-min gives 1/2 where rt_quality says 1/2 */
	ck_assert_double_eq_tol(model(RT_TRAFFIC_RANDOM, 200, &t), quality_ebb(200), 1e-12);
	ck_assert(t.stat.ebb < 0.9);
	/* shifts 1 and 7: every flow alone; 2..6: two on each up link */
	ck_assert_double_eq_tol(model(RT_TRAFFIC_SHIFT, 0, &t), (2 + 5 * 0.5) / 7, 1e-12);
	/* with both up ports as AR group each leaf spreads its two flows */
	const struct rt_traffic_opts o = { .pattern = RT_TRAFFIC_SHIFT, .ar = leaf_up_group,
					   .ar_arg = &r };
	ck_assert_int_eq(rt_traffic(&r.ctx, &o, &t), 0);
	ck_assert(t.adaptive);
	ck_assert_double_eq_tol(t.stat.ebb, (2 + 5 * 0.5) / 7, 1e-12);
	ck_assert_uint_eq(t.adapt.undelivered, 0);
	ck_assert(t.adapt.ebb == 1.0);
	const struct rt_traffic_opts rnd = { .pattern = RT_TRAFFIC_RANDOM, .pairings = 200,
					     .seed = 7, .ar = leaf_up_group, .ar_arg = &r };
	ck_assert_int_eq(rt_traffic(&r.ctx, &rnd, &t), 0);
	ck_assert_msg(t.adapt.ebb > t.stat.ebb + 0.1, "AR %.4f static %.4f", t.adapt.ebb,
		      t.stat.ebb);
	rtv_free(&r);
}
END_TEST

START_TEST(traffic_undelivered)
{
	struct rt_traffic t;
	const struct rt_traffic_opts o = { .pattern = RT_TRAFFIC_SHIFT };

	ft_route(up_dmodk);
	set_entry("S0", 2, 1);		/* H2 via S0: back to L0, a loop for 6 sources */
	set_entry("L3", 5, 0xff);	/* H5 from L3: nowhere for H6, H7 */
	ck_assert_int_eq(rt_traffic(&r.ctx, &o, &t), 0);
	ck_assert_uint_eq(t.stat.undelivered, 8);
	ck_assert(t.stat.ebb <= (56 - 8) / 56.0);
	ck_assert(t.stat.ebb > 0);
	rtv_free(&r);
}
END_TEST

START_TEST(traffic_two_switches)
{
	struct rt_traffic t;

	load_text(line2);
	for (unsigned j = 0; j < 4; j++) {
		set_entry("A", j, j < 2 ? (uint8_t)(j + 1) : 3);
		set_entry("B", j, j >= 2 ? (uint8_t)(j - 1) : 3);
	}
	/* all-to-all, k = 3: the 8 flows across get 1/4 of the cable (3/4 of
	 * their ideal 1/3), the 4 local ones the rest of their host links: 1/2,
	 * counted as 1 */
	ck_assert_double_eq_tol(model(RT_TRAFFIC_ALLTOALL, 0, &t), (8 * 0.75 + 4) / 12, 1e-12);
	ck_assert_uint_eq(t.flows, 12);
	ck_assert_uint_eq(t.rounds, 1);
	/* shifts 1 and 3: one flow each way over the cable; shift 2: two */
	ck_assert_double_eq_tol(model(RT_TRAFFIC_SHIFT, 0, &t), 2.5 / 3, 1e-12);
	ck_assert_double_eq_tol(model(RT_TRAFFIC_RANDOM, 300, &t), quality_ebb(300), 1e-12);
	rtv_free(&r);
}
END_TEST

START_TEST(traffic_bad_pattern)
{
	struct rt_traffic t;
	const struct rt_traffic_opts o = { .pattern = (enum rt_traffic_pattern)(RT_TRAFFIC_BITREV + 1) };
	enum rt_traffic_pattern p;

	ft_route(up_dmodk);
	ck_assert_int_eq(rt_traffic(&r.ctx, &o, &t), -EINVAL);
	ck_assert_int_eq(rt_traffic_pattern_parse("alltoall", &p), 0);
	ck_assert_int_eq(p, RT_TRAFFIC_ALLTOALL);
	ck_assert_str_eq(rt_traffic_pattern_name(RT_TRAFFIC_SHIFT), "shift");
	ck_assert_int_eq(rt_traffic_pattern_parse("Shift", &p), -EINVAL);
	ck_assert_int_eq(rt_traffic_pattern_parse("", &p), -EINVAL);
	rtv_free(&r);
}
END_TEST

/* Never below rt_quality's EBB, on the same tables and pairings. */
static const struct {
	const char *args;
	const struct ibsmd_routing_engine *e;
} fabrics[] = {
	{ "fattree --levels 3 --radix 8", &rt_ftree_engine },
	{ "fattree --levels 3 --radix 8", &rt_minhop_engine },
	{ "torus --dims 4x4 --hosts-per-switch 2", &rt_minhop_engine },
};

START_TEST(traffic_never_below_quality)
{
	struct rt_traffic t;
	void *state = NULL;

	ck_assert_int_eq(rtv_load_generated(&r, fabrics[_i].args, NULL), 0);
	if (fabrics[_i].e->setup)
		ck_assert_int_eq(fabrics[_i].e->setup(&r.ctx, &state), 0);
	ck_assert_int_eq(fabrics[_i].e->compute_unicast(&r.ctx, state), 0);
	if (fabrics[_i].e->destroy)
		fabrics[_i].e->destroy(state);
	double m = model(RT_TRAFFIC_RANDOM, 20, &t), q = quality_ebb(20);
	printf("%s, %s: model %.4f, rt_quality %.4f\n", fabrics[_i].args, fabrics[_i].e->name,
	       m, q);
	ck_assert_msg(m >= q - 1e-12, "model %.6f below rt_quality %.6f", m, q);
	ck_assert(m <= 1.0);
	rtv_free(&r);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("rt_quality");
	TCase *tc = tcase_create("quality");

	tcase_add_test(tc, dmodk_fat_tree);
	tcase_add_test(tc, one_spine_fat_tree);
	tcase_add_test(tc, broken_fat_tree);
	tcase_add_test(tc, ring_clockwise);
	tcase_add_test(tc, two_switches_one_cable);
	tcase_add_test(tc, one_switch);
	suite_add_tcase(s, tc);
	tc = tcase_create("traffic");
	tcase_add_test(tc, traffic_contention_free);
	tcase_add_test(tc, traffic_uniformly_shared);
	tcase_add_test(tc, traffic_undelivered);
	tcase_add_test(tc, traffic_two_switches);
	tcase_add_test(tc, traffic_bad_pattern);
	tcase_add_loop_test(tc, traffic_never_below_quality, 0,
			    sizeof(fabrics) / sizeof(fabrics[0]));
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

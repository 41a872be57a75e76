// SPDX-License-Identifier: MIT
/*
 * check_sm_perf_feed.c - telemetry end to end on the simulated 2-level fat
 * tree routed by ftree: a steady hot spot (bitrev) routed through the LFTs
 * the sim's switches hold drives the port counters (sm_sim_traffic.c); the
 * PerfMgt poller's passes (sm_perf_feed_pass, as the daemon runs them) feed
 * rebalancing, which moves LFT entries until the pattern's EBB, read back
 * through the model from the devices' LFTs, has risen by 20% and more, then
 * settles; a pass cut short or not covering every switch port judges
 * nothing; an error count injected by the sim's event file isolates a link
 * through the poller; a sim spec's traffic= is computed off the loop.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/mad_perf.h"
#include "sm/telemetry/sm_perf_feed.h"
#include "sm/telemetry/sm_sim_traffic.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"
#include "sm/telemetry/sm_rebalance.h"
#include "sm/util/sm_loop.h"

/* Counter intervals: long enough that a millisecond is a small error. */
#define INTERVAL_US 40000

static void start_r8(struct sm *sm, bool rebalance)
{
	sm_start_r8(sm, "ftree");
	sm->cfg.rebalance_enable = rebalance;
	ck_assert_int_eq(sm_sweep_heavy(sm), 0);
}

/* The hot spot over the LFTs the devices hold now: its EBB; the ports
 * count at its rates from now on. */
static double traffic(struct sm *sm)
{
	struct rt_traffic tr;

	ck_assert_int_eq(sm_sim_traffic(fab(sm), RT_TRAFFIC_BITREV, &tr), 0);
	ck_assert_uint_eq(tr.stat.undelivered, 0);
	ck_assert_uint_gt(tr.flows, 0);
	return tr.stat.ebb;
}

/* One whole counter pass after an interval of traffic. */
static void pass(struct sm *sm)
{
	struct sm_perf_stats st;

	usleep(INTERVAL_US);
	ck_assert_int_eq(sm_perf_feed_pass(sm, NULL, NULL, &st), 0);
	ck_assert(!st.partial);
	ck_assert_uint_eq(st.failed, 0);
}

START_TEST(hot_spot_rebalanced_from_counters)
{
	struct sm sm;

	start_r8(&sm, true);
	double first = traffic(&sm), ebb = first;
	ck_assert_msg(first <= 0.6, "bitrev on ftree: EBB %.4f", first);
	/* the first pass has no interval yet: nothing judged */
	pass(&sm);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_ROUTE_MOVED), 0);
	/* the hot spot holds flows back: the ports they cross wait (for
	 * bandwidth, or for credits behind a full link), idle ones never */
	const struct topo *t = sim_fabric_topo(fab(&sm));
	unsigned waiting = 0;
	for (uint32_t n = 0; n < t->n; n++)
		for (uint8_t p = 1; t->nodes[n].type == MAD_NODE_SWITCH && p <= t->nodes[n].nports;
		     p++) {
			struct mad_port_counters pc;
			struct mad_port_counters_ext pce;
			ck_assert_int_eq(sim_perf_get(fab(&sm), n, p, &pc, &pce), 0);
			waiting += pc.xmit_wait > 0;
			ck_assert(pce.xmit_data || !pc.xmit_wait);
		}
	ck_assert_uint_gt(waiting, 0);
	long moved = 0, quiet = 0;
	int passes;
	for (passes = 0; passes < 30 && quiet < 3; passes++) {
		pass(&sm);
		long now = events_of_kind(&sm, DB_EV_ROUTE_MOVED);
		quiet = now == moved ? quiet + 1 : 0;
		moved = now;
		ebb = traffic(&sm);	/* follows the moved entries */
	}
	printf("sim fattree-2l-r8, bitrev through the counters: EBB %.4f -> %.4f, %ld moves, "
	       "settled after %d passes\n", first, ebb, moved, passes - 3);
	ck_assert_int_eq(quiet, 3);	/* settled: three passes without a move */
	ck_assert_int_gt(moved, 0);
	ck_assert_msg(ebb >= 1.2 * first, "EBB %.4f -> %.4f", first, ebb);
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

struct stopper {
	unsigned calls, after;
};

/* Ports the poller asks: linked ones of nodes with a LID. */
static unsigned polled_ports(const struct sm *sm)
{
	const struct topo *t = &sm->fabric.topo;
	unsigned n = 0;

	for (uint32_t i = 0; i < t->n; i++)
		for (unsigned p = 1; p <= t->nodes[i].nports; p++)
			n += t->nodes[i].ports[p].peer != TOPO_NONE &&
			     t->nodes[i].ports[t->nodes[i].type == MAD_NODE_SWITCH ? 0 : p].lid;
	return n;
}

/* Other work falls due after @after questions, and stays due. */
static bool stop_after(void *ctx)
{
	struct stopper *s = ctx;

	return ++s->calls > s->after;
}

START_TEST(partial_pass_judged_when_complete)
{
	struct sm sm;
	struct sm_perf_stats st;

	start_r8(&sm, true);
	traffic(&sm);
	pass(&sm);		/* first samples */
	usleep(INTERVAL_US);
	/* cut short half way (the poller asks once per port before it sends
	 * ClassPortInfo Gets, then once per port it asks): the loads so far are
	 * kept, nothing is judged */
	unsigned half = polled_ports(&sm) * 3 / 2;
	struct stopper s = { .after = half };
	ck_assert_int_eq(sm_perf_feed_pass(&sm, stop_after, &s, &st), 0);
	ck_assert(st.partial);
	ck_assert_uint_gt(sm.perf_feed->observed, 0);
	ck_assert(sm.perf_feed->open);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_ROUTE_MOVED), 0);
	/* a heavy sweep in between: the pass starts over, then completes */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	s = (struct stopper){ .after = half };
	ck_assert_int_eq(sm_perf_feed_pass(&sm, stop_after, &s, &st), 0);
	ck_assert(st.partial);
	uint32_t piece = sm.perf_feed->observed;
	ck_assert_uint_gt(piece, 0);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_ROUTE_MOVED), 0);
	ck_assert_int_eq(sm_perf_feed_pass(&sm, NULL, NULL, &st), 0);
	ck_assert(!st.partial);
	ck_assert(!sm.perf_feed->open);
	ck_assert_int_gt(events_of_kind(&sm, DB_EV_ROUTE_MOVED), 0);
	sm_close(&sm);
}
END_TEST

START_TEST(incomplete_pass_not_judged)
{
	struct sm sm;

	start_r8(&sm, true);
	traffic(&sm);
	pass(&sm);
	/* S0's PMA stops answering PortCountersExtended (the poller, which
	 * learnt otherwise from its ClassPortInfo, still asks): its ports'
	 * loads are missing, and the pass is not judged on the rest */
	uint32_t s0 = sim_node_named(&sm, "S0");
	ck_assert_int_eq(sim_perf_set_caps(fab(&sm), s0, MAD_PERF_CAP_XMIT_WAIT), 0);
	struct sm_perf_stats st;
	usleep(INTERVAL_US);
	ck_assert_int_eq(sm_perf_feed_pass(&sm, NULL, NULL, &st), 0);
	ck_assert_uint_gt(st.failed, 0);
	ck_assert_uint_gt(st.ports, 0);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_ROUTE_MOVED), 0);
	ck_assert_ptr_null(sm.rebalance->load);
	/* answering again: judged */
	ck_assert_int_eq(sim_perf_set_caps(fab(&sm), s0, SIM_PERF_CAPS), 0);
	pass(&sm);
	ck_assert_int_gt(events_of_kind(&sm, DB_EV_ROUTE_MOVED), 0);
	sm_close(&sm);
}
END_TEST

START_TEST(injected_errors_isolate_through_poller)
{
	struct sm sm;
	char path[300], err[256];

	start_r8(&sm, false);
	pass(&sm);		/* first samples: not judged */
	ck_assert_uint_gt(lft_uses(&sm, "L0", 5), 0);
	snprintf(path, sizeof(path), "%s/events", dbdir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "# 5,000 symbol errors on L0's link to S0\n0 counter \"L0\"[5] symbol_errors 5000\n");
	fclose(f);
	ck_assert_int_eq(sim_events_load(fab(&sm), path, err, sizeof(err)), 0);
	pass(&sm);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_LINK_ISOLATED), 1);
	ck_assert(sm.sweep_due);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(lft_uses(&sm, "L0", 5), 0);
	/* the link stays up, its counters keep coming: no second isolation */
	pass(&sm);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_LINK_ISOLATED), 1);
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

START_TEST(rates_and_patterns_checked)
{
	struct sm sm;
	struct mad_port_counters pc;
	struct mad_port_counters_ext pce;

	start_r8(&sm, false);
	struct sim_fabric *f = fab(&sm);
	uint32_t l0 = sim_node_named(&sm, "L0");
	/* a rate is counted when the PMA answers, fractions carried over */
	const struct sim_perf_rate r = { .xmit_data = 0.5 };
	ck_assert_int_eq(sim_perf_set_rate(f, l0, 5, &r), 0);
	usleep(INTERVAL_US);
	pass(&sm);
	ck_assert_int_eq(sim_perf_get(f, l0, 5, &pc, &pce), 0);
	ck_assert_uint_ge(pce.xmit_data, INTERVAL_US / 1000 / 2 - 1);
	ck_assert_uint_le(pce.xmit_data, 10000);
	/* the worst values are refused */
	const struct sim_perf_rate neg = { .rcv_data = -1 }, nan = { .xmit_wait_ns = 0.0 / 0.0 },
		huge = { .xmit_pkts = 1e300 };
	ck_assert_int_eq(sim_perf_set_rate(f, l0, 5, &neg), -EINVAL);
	ck_assert_int_eq(sim_perf_set_rate(f, l0, 5, &nan), -EINVAL);
	ck_assert_int_eq(sim_perf_set_rate(f, l0, 5, &huge), -EINVAL);
	ck_assert_int_eq(sim_perf_set_rate(f, l0, 9, &r), -EINVAL);
	ck_assert_int_eq(sim_perf_set_rate(f, 100000, 1, &r), -EINVAL);
	/* traffic= names: lower-case letters under 16; the daemon knows them */
	ck_assert_int_eq(sim_set_traffic(f, "Bitrev"), -EINVAL);
	ck_assert_int_eq(sim_set_traffic(f, "abcdefghijklmnop"), -EINVAL);
	ck_assert_int_eq(sim_set_traffic(f, "nosuch"), 0);
	ck_assert_int_eq(sm_sim_traffic_follow(&sm), -EINVAL);
	ck_assert_int_eq(sim_set_traffic(f, "bitrev"), 0);
	ck_assert_int_eq(sm_sim_traffic_follow(&sm), 0);
	ck_assert_int_eq(sim_set_traffic(f, ""), 0);
	ck_assert_int_eq(sm_sim_traffic_follow(&sm), 0);
	sm_close(&sm);
}
END_TEST

static void fired(void *arg)
{
	*(bool *)arg = true;
}

/* traffic= runs the model on a worker: the loop serves what is due (a timer
 * here, the control socket in the daemon) while it computes, and the ports
 * count at its rates once it is done. */
START_TEST(traffic_model_off_the_loop)
{
	struct sm sm;
	struct sm_timer t;
	bool due_ran = false;

	sm_start_cut_tree(&sm);	/* 128 hosts: the model takes a while */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	struct sim_fabric *f = fab(&sm);
	ck_assert_int_eq(sim_set_traffic(f, "shift"), 0);
	sm.loop = sm_loop_new();
	ck_assert_ptr_nonnull(sm.loop);
	sm_timer_init(&t, fired, &due_ran);
	sm_timer_in(sm.loop, &t, 0);
	ck_assert_int_eq(sm_sim_traffic_follow(&sm), 0);
	ck_assert_msg(due_ran, "the loop did not run while the traffic model computed");
	pass(&sm);
	pass(&sm);
	uint64_t h0 = sim_fabric_topo(f)->nodes[sim_node_named(&sm, "H0")].guid;
	struct port_rows r = counters_latest(&sm, h0, 1);
	ck_assert_uint_eq(r.rows, 1);
	ck_assert_uint_gt(r.last.c.xmit_data, 0);
	sm_loop_free(sm.loop);
	sm.loop = NULL;
	sm_close(&sm);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_perf_feed");
	TCase *tc = tcase_create("sim");

	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, hot_spot_rebalanced_from_counters);
	tcase_add_test(tc, partial_pass_judged_when_complete);
	tcase_add_test(tc, incomplete_pass_not_judged);
	tcase_add_test(tc, injected_errors_isolate_through_poller);
	tcase_add_test(tc, rates_and_patterns_checked);
	tcase_add_test(tc, traffic_model_off_the_loop);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

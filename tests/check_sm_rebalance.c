// SPDX-License-Identifier: MIT
/*
 * check_sm_rebalance.c - rebalancing in the daemon, on the simulated 2-level
 * fat tree routed by ftree: the traffic model's port loads for a steady hot
 * spot (bitrev) are fed in as the PerfMgt poller would; each pass moves LFT
 * entries, programs exactly the changed blocks into the devices, records a
 * route_moved event per move; the model's EBB on what the devices hold rises
 * by 20% and more; once settled nothing moves; the hourly budget holds; a
 * heavy sweep keeps the moves.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo_rate.h"
#include "mad/model/topo_view.h"
#include "routing/rt_traffic.h"
#include "sm/telemetry/sm_rebalance.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

static void start_r8(struct sm *sm)
{
	sm_start_r8(sm, "ftree");
	sm->cfg.rebalance_enable = 1;
	ck_assert_int_eq(sm_sweep_heavy(sm), 0);
}

/* The model over the LFTs the switches hold (read from the devices): its
 * EBB; with @feed, its port loads go to the rebalancer as counters would. */
static double interval(struct sm *sm, bool feed)
{
	const struct topo *t = &sm->fabric.topo;
	struct topo_view m;
	struct rt_traffic tr;
	double **load = calloc(t->n, sizeof(*load));
	uint8_t **lft = calloc(t->n, sizeof(*lft));
	uint16_t top = sm->routes.max_lid;

	ck_assert_int_eq(topo_view_build(t, top, &m), 0);
	for (uint32_t n = 0; n < t->n; n++) {
		if (t->nodes[n].type != MAD_NODE_SWITCH)
			continue;
		load[n] = calloc(t->nodes[n].nports + 1u, sizeof(double));
		lft[n] = malloc((size_t)top + 1);
		uint32_t s = topo_find_guid(sim_fabric_topo(fab(sm)), t->nodes[n].guid);
		for (uint16_t lid = 0; lid <= top; lid++)
			lft[n][lid] = sim_get_lft(fab(sm), s, lid);
	}
	const struct ibsmd_rt_ctx ctx = { .view = &m.v, .lft = lft };
	const struct rt_traffic_opts o = { .pattern = RT_TRAFFIC_BITREV, .port_load = load };
	ck_assert_int_eq(rt_traffic(&ctx, &o, &tr), 0);
	ck_assert_uint_eq(tr.stat.undelivered, 0);
	for (uint32_t n = 0; n < t->n; n++) {
		for (unsigned p = 1; feed && load[n] && p <= t->nodes[n].nports; p++)
			ck_assert_int_eq(sm_rebalance_observe_load(sm, t->nodes[n].guid, (uint8_t)p,
								   load[n][p]), 0);
		free(load[n]);
		free(lft[n]);
	}
	free(load);
	free(lft);
	topo_view_free(&m);
	return tr.stat.ebb;
}

/* What the devices hold is what sm->routes says. */
static void programmed(struct sm *sm)
{
	const struct topo *t = &sm->fabric.topo;

	for (uint32_t n = 0; n < t->n; n++) {
		uint32_t s = topo_find_guid(sim_fabric_topo(fab(sm)), t->nodes[n].guid);
		for (uint16_t lid = 1; sm->routes.lft[n] && lid <= sm->routes.max_lid; lid++)
			ck_assert_uint_eq(sim_get_lft(fab(sm), s, lid), sm->routes.lft[n][lid]);
	}
}

/* The devices' LFT blocks, switch by switch, in one buffer to free. */
static uint8_t *blocks(struct sm *sm, size_t *len)
{
	const struct topo *t = sim_fabric_topo(fab(sm));
	size_t row = ((size_t)sm->routes.max_lid / 64 + 1) * 64;
	uint8_t *b = malloc(t->n * row);

	for (uint32_t n = 0; n < t->n; n++)
		for (size_t lid = 0; lid < row; lid++)
			b[n * row + lid] = t->nodes[n].type == MAD_NODE_SWITCH
					   ? sim_get_lft(fab(sm), n, (uint16_t)lid) : 0;
	*len = t->n * row / 64;
	return b;
}

/* A route_moved event names its switch and the node the moved LID is
 * (sm_names.c): 'switch "S1": LID 12 ("H3" 0x... port 1) moved from port'. */
static int check_moved_names(void *arg, const struct db_event *ev)
{
	unsigned lid, port;
	char sw[8], host[8];

	if (strcmp(ev->kind, DB_EV_ROUTE_MOVED))
		return 0;
	ck_assert_msg(sscanf(ev->detail, "switch \"%7[^\"]\": LID %u (\"%7[^\"]\" 0x%*16x port %u) "
			     "moved from port ", sw, &lid, host, &port) == 4 && host[0] == 'H' &&
		      strchr("LS", sw[0]) && port == 1, "route_moved: '%s'", ev->detail);
	++*(int *)arg;
	return 0;
}

START_TEST(hot_spot_rebalanced)
{
	struct sm sm;
	int moved, total = 0, round;

	start_r8(&sm);
	double first = interval(&sm, true), ebb = first;
	ck_assert_msg(first <= 0.6, "bitrev on ftree: EBB %.4f", first);
	uint64_t now = mad_now_ms();
	for (round = 0; round < 20; round++) {
		size_t nb;
		uint8_t *before = blocks(&sm, &nb);
		uint64_t smps = sm_smps_sent(&sm);
		if ((moved = sm_rebalance_pass(&sm, now)) <= 0) {
			free(before);
			break;
		}
		/* one LFT Set per block that changed, no more */
		uint8_t *after = blocks(&sm, &nb);
		uint64_t changed = 0;
		for (size_t i = 0; i < nb; i++)
			changed += memcmp(before + 64 * i, after + 64 * i, 64) != 0;
		ck_assert_uint_gt(changed, 0);
		ck_assert_uint_eq(sm_smps_sent(&sm) - smps, changed);
		free(before);
		free(after);
		total += moved;
		ck_assert_int_eq(events_of_kind(&sm, DB_EV_ROUTE_MOVED), total);
		programmed(&sm);
		ebb = interval(&sm, true);
	}
	ck_assert_int_eq(moved, 0);
	int named = 0;
	ck_assert_int_eq(db_events_each(sm.db, 0, check_moved_names, &named), 0);
	ck_assert_int_eq(named, total);
	printf("sim fattree-2l-r8, bitrev: EBB %.4f -> %.4f with %d moves in %d passes\n", first,
	       ebb, total, round);
	ck_assert_msg(ebb >= 1.2 * first, "EBB %.4f -> %.4f", first, ebb);
	/* settled: the same loads again move nothing */
	ck_assert_double_eq_tol(interval(&sm, true), ebb, 1e-12);
	ck_assert_int_eq(sm_rebalance_pass(&sm, now), 0);
	/* nor once the hour of hysteresis is over */
	interval(&sm, true);
	ck_assert_int_eq(sm_rebalance_pass(&sm, now + 2 * 3600 * 1000), 0);
	/* a heavy sweep keeps the moves: the devices' LFTs stay as they are */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	programmed(&sm);
	ck_assert_double_eq_tol(interval(&sm, false), ebb, 1e-12);
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

static uint32_t by_desc(const struct topo *t, const char *desc)
{
	for (uint32_t n = 0; n < t->n; n++)
		if (!strcmp(t->nodes[n].desc, desc))
			return n;
	ck_abort_msg("no node %s", desc);
	return TOPO_NONE;
}

START_TEST(budget_and_switches)
{
	struct sm sm;

	start_r8(&sm);
	sm.cfg.rebalance_moves_per_hour = 3;
	uint64_t now = mad_now_ms();
	interval(&sm, true);
	ck_assert_int_eq(sm_rebalance_pass(&sm, now), 3);
	interval(&sm, true);
	ck_assert_int_eq(sm_rebalance_pass(&sm, now + 1000), 0);	/* spent for the hour */
	interval(&sm, true);
	ck_assert_int_gt(sm_rebalance_pass(&sm, now + 3600 * 1000 + 1), 0);
	/* off: nothing, and the loads are forgotten */
	sm.cfg.rebalance_enable = 0;
	sm.cfg.rebalance_moves_per_hour = 256;
	interval(&sm, true);
	ck_assert_int_eq(sm_rebalance_pass(&sm, now + 7200 * 1000), 0);
	ck_assert_ptr_null(sm.rebalance->load);
	/* loads for what is no switch port of the fabric are refused */
	const struct topo *t = &sm.fabric.topo;
	uint32_t h = by_desc(t, "H0"), l = by_desc(t, "L0");
	ck_assert_int_eq(sm_rebalance_observe_load(&sm, t->nodes[h].guid, 1, 0.5), -EINVAL);
	ck_assert_int_eq(sm_rebalance_observe_load(&sm, t->nodes[l].guid, 0, 0.5), -EINVAL);
	ck_assert_int_eq(sm_rebalance_observe_load(&sm, t->nodes[l].guid, 9, 0.5), -EINVAL);
	ck_assert_int_eq(sm_rebalance_observe_load(&sm, 0x1234, 1, 0.5), -EINVAL);
	ck_assert_int_eq(sm_rebalance_observe_load(&sm, t->nodes[l].guid, 5, -1), -EINVAL);
	/* counters: a 4X QDR link (32 Gb/s of data) full for a second, and
	 * waiting a quarter of the time */
	const struct topo_port *tp = &t->nodes[l].ports[5];
	ck_assert_int_eq(sm_rebalance_observe_port(&sm, t->nodes[l].guid, 5,
		(uint64_t)mad_rate_mbps(tp->width, tp->speed) * 1000000 / 8, 250000, 1000, 1000), 0);
	ck_assert_double_eq_tol(sm.rebalance->load[l][5], 1.25, 1e-9);
	ck_assert_int_eq(sm_rebalance_observe_port(&sm, t->nodes[l].guid, 5, 1, 0, 0, 0), -EINVAL);
	sm_close(&sm);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_rebalance");
	TCase *tc = tcase_create("sim");

	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, hot_spot_rebalanced);
	tcase_add_test(tc, budget_and_switches);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_isolate.c - bad-link and flapping-link isolation: the windowed
 * policy on its own (sm_isolate_policy.c), then the daemon's side on the
 * simulated 2-level fat tree (sm_isolate.c): a link over a threshold leaves
 * the programmed routes while staying up, is stored (a restart keeps it) with
 * an event, comes back by command or after a clean window; host links and a
 * leaf's last up link are never isolated; a flapping link is isolated and
 * its later flaps change no LFT block.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/telemetry/sm_isolate.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

/* ---- the policy alone ---- */

START_TEST(window_sums_and_ages_out)
{
	struct sm_iso_tracker t = { 0 };
	struct sm_iso_counts c, d = { .symbol_errors = 40 }, zero = { 0 };

	/* a port that reports nothing is not followed */
	ck_assert_int_eq(sm_iso_track_add(&t, 0x10, 1, &zero, 1000, 160), 0);
	ck_assert_uint_eq(t.n, 0);
	for (int i = 0; i < 5; i++)	/* 40 every 10 s: 200 in the 160 s window */
		ck_assert_int_eq(sm_iso_track_add(&t, 0x10, 1, &d, 100000 + i * 10000, 160), 0);
	sm_iso_track_sum(&t, 0x10, 1, 140000, 160, &c);
	ck_assert_uint_eq(c.symbol_errors, 200);
	sm_iso_track_sum(&t, 0x10, 2, 140000, 160, &c);	/* another port: nothing */
	ck_assert_uint_eq(c.symbol_errors, 0);
	/* 150 s later the first three samples have left the window */
	sm_iso_track_sum(&t, 0x10, 1, 140000 + 150000, 160, &c);
	ck_assert_uint_eq(c.symbol_errors, 40);
	/* a whole window later nothing is left, and pruning forgets the port */
	sm_iso_track_sum(&t, 0x10, 1, 140000 + 170000, 160, &c);
	ck_assert(sm_iso_clean(&c));
	sm_iso_track_prune(&t, 140000 + 170000, 160);
	ck_assert_uint_eq(t.n, 0);
	sm_iso_track_free(&t);
}
END_TEST

START_TEST(judge_thresholds)
{
	struct sm_iso_policy p = { .window_s = 600, .symbol_errors = 1000,
				   .link_error_recovery = 20, .link_downed = 0, .flaps = 5 };
	struct sm_iso_counts c = { .symbol_errors = 999, .link_downed = 1000000 };
	char why[160];

	/* below every threshold; link_downed 0 is not judged at all */
	ck_assert_ptr_null(sm_iso_judge(&p, &c, why, sizeof(why)));
	c.symbol_errors = 1000;
	ck_assert_str_eq(sm_iso_judge(&p, &c, why, sizeof(why)), "errors");
	ck_assert_str_eq(why, "SymbolErrorCounter +1000 in 600 s (threshold 1000)");
	c = (struct sm_iso_counts){ .flaps = 5 };
	ck_assert_str_eq(sm_iso_judge(&p, &c, why, sizeof(why)), "flaps");
	/* the worst counts do not overflow the text */
	c = (struct sm_iso_counts){ .link_error_recovery = UINT64_MAX };
	ck_assert_str_eq(sm_iso_judge(&p, &c, why, 16), "errors");
	ck_assert_uint_eq(strlen(why), 15);
}
END_TEST

/* ---- on the simulated fat tree ---- */

static void start_r8(struct sm *sm)
{
	sm_start_r8(sm, NULL);
	ck_assert_int_eq(sm_sweep_heavy(sm), 0);
}

static uint32_t node(struct sm *sm, const char *name)
{
	uint32_t n = topo_find_name(sim_fabric_topo(fab(sm)), name);

	ck_assert_uint_ne(n, TOPO_NONE);
	return n;
}

static uint64_t guid_of(struct sm *sm, const char *name)
{
	return sim_fabric_topo(fab(sm))->nodes[node(sm, name)].guid;
}

START_TEST(errors_isolate_then_restore)
{
	struct sm sm;
	struct mad_port_info pi;
	char msg[256];

	start_r8(&sm);
	uint64_t now = mad_now_ms();
	ck_assert_uint_gt(lft_uses(&sm, "L0", 5), 0);
	/* under the threshold (1000 symbol errors in 600 s): nothing */
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, guid_of(&sm, "L0"), 5, 600, 0, 0, now), 0);
	ck_assert(!sm.sweep_due);
	/* over it: L0 port 5 (to S0) leaves routing, a heavy sweep is due */
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, guid_of(&sm, "L0"), 5, 400, 0, 0,
						   now + 10000), 1);
	ck_assert(sm.sweep_due);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_LINK_ISOLATED), 1);
	/* more errors on it (either end) isolate nothing more */
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, guid_of(&sm, "S0"), 1, 5000, 0, 0,
						   now + 20000), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(lft_uses(&sm, "L0", 5), 0);
	ck_assert_uint_eq(lft_uses(&sm, "S0", 1), 0);
	assert_subnet_up(fab(&sm));
	/* the link itself stays up: its counters keep coming */
	ck_assert_int_eq(sim_get_port_info(fab(&sm), node(&sm, "L0"), 5, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ACTIVE);

	/* a restart keeps it out */
	sm_close(&sm);
	start_r8(&sm);
	ck_assert_uint_eq(sm.iso->set.n, 1);
	ck_assert_uint_eq(lft_uses(&sm, "L0", 5), 0);

	/* restore: by the S0 end, by description; unknown ones are refused */
	ck_assert_int_eq(sm_isolate_restore(&sm, "S0", 2, "test", msg, sizeof(msg)), -ENOENT);
	ck_assert_int_eq(sm_isolate_restore(&sm, "nosuch", 1, "test", msg, sizeof(msg)), -EINVAL);
	ck_assert_int_eq(sm_isolate_restore(&sm, "S0", 1, "test", msg, sizeof(msg)), 0);
	ck_assert(sm.sweep_due);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_LINK_RESTORED), 1);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_gt(lft_uses(&sm, "L0", 5), 0);
	sm_close(&sm);
	start_r8(&sm);
	ck_assert_uint_eq(sm.iso->set.n, 0);
	sm_close(&sm);
}
END_TEST

START_TEST(never_hosts_nor_the_last_path)
{
	struct sm sm;

	start_r8(&sm);
	uint64_t l0 = guid_of(&sm, "L0"), now = mad_now_ms();
	/* a host's link over the threshold: reported, never isolated */
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, l0, 1, 0, 0, 1000, now), 0);
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, guid_of(&sm, "H0"), 1, 0, 1000, 0, now), 0);
	ck_assert_uint_eq(sm.iso->set.n, 0);
	/* L0's up links: three go, the last stays */
	for (uint8_t p = 5; p <= 7; p++)
		ck_assert_int_eq(sm_isolate_observe_errors(&sm, l0, p, 0, 20, 0, now), 1);
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, l0, 8, 0, 20, 0, now), 0);
	ck_assert_uint_eq(sm.iso->set.n, 3);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	ck_assert_uint_eq(lft_uses(&sm, "L0", 5) + lft_uses(&sm, "L0", 6) +
			  lft_uses(&sm, "L0", 7), 0);
	/* the cap: with max_links 3 no fourth link goes anywhere */
	sm.cfg.iso_max_links = 3;
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, guid_of(&sm, "L1"), 5, 0, 20, 0, now), 0);
	/* 0 turns isolation off */
	sm.cfg.iso_max_links = 0;
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, guid_of(&sm, "L2"), 5, 0, 20, 0, now), 0);
	ck_assert_uint_eq(sm.iso->set.n, 3);
	sm_close(&sm);
}
END_TEST

START_TEST(auto_restore_after_a_clean_window)
{
	struct sm sm;

	start_r8(&sm);
	sm.cfg.iso_window_s = 10;
	sm.cfg.iso_auto_restore = 1;
	uint64_t now = mad_now_ms();
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, guid_of(&sm, "L1"), 6, 0, 0, 5, now), 1);
	sm_isolate_tick(&sm, now + 5000);	/* within the window: stays */
	ck_assert_uint_eq(sm.iso->set.n, 1);
	/* errors go on: the window is not clean */
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, guid_of(&sm, "L1"), 6, 3, 0, 0,
						   now + 9000), 0);
	sm_isolate_tick(&sm, now + 12000);
	ck_assert_uint_eq(sm.iso->set.n, 1);
	sm_isolate_tick(&sm, now + 20000);	/* clean since now + 9 s */
	ck_assert_uint_eq(sm.iso->set.n, 0);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_LINK_RESTORED), 1);
	/* off: an isolated link stays however clean */
	sm.cfg.iso_auto_restore = 0;
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, guid_of(&sm, "L1"), 7, 0, 0, 5,
						   now + 30000), 1);
	sm_isolate_tick(&sm, now + 100000);
	ck_assert_uint_eq(sm.iso->set.n, 1);
	sm_close(&sm);
}
END_TEST

/* Every switch's programmed LFT, LIDs 1..max_lid, in one buffer to free. */
static uint8_t *lft_snapshot(struct sm *sm)
{
	const struct topo *t = sim_fabric_topo(fab(sm));
	uint16_t top = sm->routes.max_lid;
	uint8_t *buf = calloc((size_t)t->n * top + 1, 1);

	ck_assert_ptr_nonnull(buf);
	for (uint32_t n = 0; n < t->n; n++)
		for (uint16_t lid = 1; t->nodes[n].type == MAD_NODE_SWITCH && lid <= top; lid++)
			buf[(size_t)n * top + lid - 1] = sim_get_lft(fab(sm), n, lid);
	return buf;
}

START_TEST(flapping_link_isolated)
{
	struct sm sm;

	start_r8(&sm);
	sm.cfg.iso_flaps = 3;
	uint32_t l2 = node(&sm, "L2");
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(sm.iso->set.n, 0);
		ck_assert_int_eq(sim_link_set(fab(&sm), l2, 7, false), 0);
		sm_sweep_heavy(&sm);
		ck_assert_uint_eq(lft_uses(&sm, "L2", 7), 0);	/* rerouted: down */
		ck_assert_int_eq(sim_link_set(fab(&sm), l2, 7, true), 0);
		sm_sweep_heavy(&sm);
	}
	ck_assert_uint_eq(sm.iso->set.n, 1);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_LINK_ISOLATED), 1);
	ck_assert_str_eq(sm.iso->set.links[0].cause, "flaps");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(lft_uses(&sm, "L2", 7), 0);
	/* it flaps on: the routes no longer follow it */
	uint8_t *before = lft_snapshot(&sm);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(sim_link_set(fab(&sm), l2, 7, false), 0);
		sm_sweep_heavy(&sm);
		uint8_t *down = lft_snapshot(&sm);
		ck_assert_int_eq(memcmp(before, down, (size_t)sim_fabric_topo(fab(&sm))->n *
					sm.routes.max_lid), 0);
		free(down);
		ck_assert_int_eq(sim_link_set(fab(&sm), l2, 7, true), 0);
		ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	}
	uint8_t *after = lft_snapshot(&sm);
	ck_assert_int_eq(memcmp(before, after, (size_t)sim_fabric_topo(fab(&sm))->n *
				sm.routes.max_lid), 0);
	free(before);
	free(after);
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_isolate");
	TCase *tc = tcase_create("policy");

	tcase_add_test(tc, window_sums_and_ages_out);
	tcase_add_test(tc, judge_thresholds);
	suite_add_tcase(s, tc);
	tc = tcase_create("sim");
	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, errors_isolate_then_restore);
	tcase_add_test(tc, never_hosts_nor_the_last_path);
	tcase_add_test(tc, auto_restore_after_a_clean_window);
	tcase_add_test(tc, flapping_link_isolated);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_patch.c - fast link repair (sm/sm_patch.c) on the simulated
 * 16-host 3-level fat tree (tests/topo/ft3r4.topo), routed by ftree.
 *
 * A top switch's link to a pod dies; the switches' Trap 128 notes them; the
 * patch must leave every CA pair reachable over live links by the tables the
 * simulated switches hold (read from the devices, before any heavy sweep),
 * send only the blocks it changed, and record itself; the heavy sweep that
 * follows still brings the subnet up.  Before the patch some pairs are cut:
 * the check can fail.  With the traps lost, a light sweep notes the
 * switches instead; a report without a dead link sends nothing.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "mad/mad_sim.h"
#include "sm/sm.h"
#include "sm/sm_patch.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"

/* CA pairs whose route by the simulated LFTs crosses the dead link (@dn,
 * @dp) or is not delivered. */
static unsigned cut_pairs(struct sim_fabric *f, uint32_t dn, uint8_t dp)
{
	const struct topo *t = sim_fabric_topo(f);
	const struct topo_port *dead = &t->nodes[dn].ports[dp];
	unsigned cut = 0;

	for (uint32_t s = 0; s < t->n; s++) {
		if (t->nodes[s].type == MAD_NODE_SWITCH)
			continue;
		uint32_t first = t->nodes[s].ports[1].peer;
		for (uint32_t d = 0; d < t->n; d++) {
			if (d == s || t->nodes[d].type == MAD_NODE_SWITCH)
				continue;
			struct mad_port_info pi;
			ck_assert_int_eq(sim_get_port_info(f, d, 1, &pi), 0);
			uint32_t n = first;
			bool ok = false;
			for (int hops = 0; hops < 16 && !ok; hops++) {
				uint8_t p = sim_get_lft(f, n, pi.lid);
				if (p == 0 || p > t->nodes[n].nports || (n == dn && p == dp) ||
				    (n == dead->peer && p == dead->peer_port))
					break;
				ok = t->nodes[n].ports[p].peer == d;
				n = t->nodes[n].ports[p].peer;
				if (t->nodes[n].type != MAD_NODE_SWITCH)
					break;
			}
			cut += !ok;
		}
	}
	return cut;
}

/* The figures of the last sweep of kind "patch" (strings not kept). */
static int last_patch(void *arg, const struct db_sweep *sw)
{
	struct db_sweep *last = arg;

	if (!strcmp(sw->kind, "patch")) {
		*last = *sw;
		last->kind = "patch";
		last->st.result = sw->st.result && !strcmp(sw->st.result, "ok") ? "ok" : "not ok";
	}
	return 0;
}

/*
 * Bring the tree up with ftree, then kill top switch @name's link out of
 * @port, which routes use, and take the Trap 128 that follows (one end noted
 * is enough: the patch asks it, and marks both ends dead).  The top switch's
 * node in the simulator.
 */
static uint32_t up_then_kill(struct sm *sm, const char *name, uint8_t port)
{
	char err[128];

	sm_start_file(sm, "ft3r4.topo");
	ck_assert_int_eq(sm_config_set_routing(&sm->cfg, "ftree", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_sweep_heavy(sm), 0);
	uint32_t spine = topo_find_name(sim_fabric_topo(fab(sm)), name);
	ck_assert_uint_gt(cut_pairs(fab(sm), spine, port), 0);	/* routes use the link */
	ck_assert_int_eq(sim_link_set(fab(sm), spine, port, false), 0);
	for (int i = 0; i < 20 && !sm->patch.npending; i++)
		mad_rpc_poll(sm->rpc, 10);
	ck_assert_uint_ge(sm->patch.npending, 1);
	ck_assert(sm->sweep_due);
	return spine;
}

START_TEST(spine_link_patched_before_the_heavy_sweep)
{
	struct sm sm;
	struct sim_stats before, after;
	uint32_t spine = up_then_kill(&sm, "C0.0", 2);	/* to A1.0 */

	sim_get_stats(fab(&sm), &before);
	ck_assert_int_eq(sm_patch(&sm), 0);
	sim_get_stats(fab(&sm), &after);
	ck_assert_uint_eq(cut_pairs(fab(&sm), spine, 2), 0);
	ck_assert_uint_eq(sm.patch.npending, 0);
	ck_assert_uint_eq(sm.patch.patches, 1);
	ck_assert_uint_gt(sm.patch.last_entries, 0);
	/* one 64-entry block per switch covers this fabric: only the changed
	 * switches got one, far fewer than the 20 a full reprogram sends */
	ck_assert_uint_eq(after.lft_block_sets - before.lft_block_sets, sm.patch.last_blocks);
	ck_assert_uint_gt(sm.patch.last_blocks, 0);
	ck_assert_uint_lt(sm.patch.last_blocks, 10);
	ck_assert_uint_gt(sm.patch.last_smps, sm.patch.last_blocks);	/* and the PortInfo Gets */
	/* stored as a sweep of kind patch: Gets, Sets, entries */
	struct db_sweep last = { 0 };
	ck_assert_int_eq(db_sweeps_each(sm.db, last_patch, &last), 0);
	ck_assert_int_gt(last.id, 0);
	ck_assert_str_eq(last.st.result, "ok");
	ck_assert_uint_eq(last.st.lft_entries, sm.patch.last_entries);
	ck_assert_uint_eq(last.st.lft_smps, sm.patch.last_blocks);
	ck_assert_uint_eq(last.st.discovery_smps + last.st.lft_smps, sm.patch.last_smps);

	/* the heavy sweep confirms: the dead link stays unused */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(cut_pairs(fab(&sm), spine, 2), 0);
	sm_close(&sm);
}
END_TEST

/* With the traps lost, the light sweep's PortStateChange notes the switches. */
START_TEST(light_sweep_notes_what_traps_missed)
{
	struct sm sm;
	uint32_t spine = up_then_kill(&sm, "C1.1", 4);	/* to A3.1 */

	sm.patch.npending = 0;	/* as if the traps were lost */
	ck_assert_int_eq(sm_sweep_light(&sm), 1);
	ck_assert_uint_ge(sm.patch.npending, 1);
	ck_assert_int_eq(sm_patch(&sm), 0);
	ck_assert_uint_eq(cut_pairs(fab(&sm), spine, 4), 0);
	sm_close(&sm);
}
END_TEST

/* A report from a switch whose links all live changes nothing. */
START_TEST(nothing_dead_nothing_sent)
{
	struct sm sm;
	struct sim_stats before, after;

	sm_start_file(&sm, "ft3r4.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	const struct topo *t = sim_fabric_topo(fab(&sm));
	sm_patch_note(&sm, topo_find_name(t, "A0.0"));
	sm_patch_note(&sm, UINT32_MAX);	/* an unknown LID's switch: ignored */
	ck_assert_uint_eq(sm.patch.npending, 1);
	sim_get_stats(fab(&sm), &before);
	ck_assert_int_eq(sm_patch(&sm), 0);
	sim_get_stats(fab(&sm), &after);
	ck_assert_uint_eq(after.lft_block_sets, before.lft_block_sets);
	ck_assert_uint_eq(sm.patch.patches, 0);
	ck_assert_uint_eq(sm.patch.npending, 0);
	sm_close(&sm);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_patch");
	TCase *tc = tcase_create("patch");

	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, spine_link_patched_before_the_heavy_sweep);
	tcase_add_test(tc, light_sweep_notes_what_traps_missed);
	tcase_add_test(tc, nothing_dead_nothing_sent);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

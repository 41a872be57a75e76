// SPDX-License-Identifier: MIT
/*
 * check_sm_patch.c - fast link repair (sm/repair/sm_patch.c) on the simulated
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
#include <stdlib.h>
#include <string.h>

#include "mad/sim/mad_sim.h"
#include "sm/core/sm.h"
#include "sm/repair/sm_patch.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

/* Whether switch @n delivers CA @d's @lid by the simulated LFTs without
 * crossing the dead link (@dn, @dp). */
static bool delivered(struct sim_fabric *f, uint32_t n, uint32_t d, uint16_t lid, uint32_t dn,
		      uint8_t dp)
{
	const struct topo *t = sim_fabric_topo(f);
	const struct topo_port *dead = &t->nodes[dn].ports[dp];

	for (int hops = 0; hops < 16; hops++) {
		uint8_t p = sim_get_lft(f, n, lid);
		if (p == 0 || p > t->nodes[n].nports || (n == dn && p == dp) ||
		    (n == dead->peer && p == dead->peer_port))
			return false;
		n = t->nodes[n].ports[p].peer;
		if (n == d)
			return true;
		if (t->nodes[n].type != MAD_NODE_SWITCH)
			return false;
	}
	return false;
}

static uint16_t lid_of(struct sim_fabric *f, uint32_t ca)
{
	struct mad_port_info pi;

	ck_assert_int_eq(sim_get_port_info(f, ca, 1, &pi), 0);
	return pi.lid;
}

/* CA pairs whose route by the simulated LFTs crosses the dead link (@dn,
 * @dp) or is not delivered. */
static unsigned cut_pairs(struct sim_fabric *f, uint32_t dn, uint8_t dp)
{
	const struct topo *t = sim_fabric_topo(f);
	unsigned cut = 0;

	for (uint32_t s = 0; s < t->n; s++) {
		if (t->nodes[s].type == MAD_NODE_SWITCH)
			continue;
		for (uint32_t d = 0; d < t->n; d++)
			if (d != s && t->nodes[d].type != MAD_NODE_SWITCH)
				cut += !delivered(f, t->nodes[s].ports[1].peer, d, lid_of(f, d), dn, dp);
	}
	return cut;
}

/*
 * The AR choices the simulated switches hold that lead into the dead link
 * (@dn, @dp): per switch and CA LID bounded to a group, each port of the
 * group that is a dead end or whose peer does not deliver the LID by its
 * static entries over live links (with the peer's own groups checked the
 * same way, every way AR may take then arrives).  *@holding: groups that
 * hold a dead port.
 */
static unsigned bad_ar_choices(struct sim_fabric *f, uint32_t dn, uint8_t dp, unsigned *holding)
{
	const struct topo *t = sim_fabric_topo(f);
	const struct topo_port *dead = &t->nodes[dn].ports[dp];
	unsigned bad = 0;

	*holding = 0;
	for (uint32_t s = 0; s < t->n; s++) {
		struct mad_ar_info ai;
		uint64_t ports[4];
		if (t->nodes[s].type != MAD_NODE_SWITCH || sim_get_ar_info(f, s, &ai))
			continue;
		for (uint16_t g = 1; g <= ai.group_top; g++) {
			ck_assert_int_eq(sim_get_ar_group(f, s, g, ports), 0);
			*holding += (s == dn && (ports[dp / 64] >> (dp % 64) & 1)) ||
				    (s == dead->peer && (ports[dead->peer_port / 64] >>
							 (dead->peer_port % 64) & 1));
		}
		for (uint32_t d = 0; d < t->n; d++) {
			struct mad_ar_lft_entry e;
			if (t->nodes[d].type == MAD_NODE_SWITCH)
				continue;
			uint16_t lid = lid_of(f, d);
			ck_assert_int_eq(sim_get_ar_lft(f, s, lid, &e), 0);
			if (e.state != MAD_AR_BOUNDED)
				continue;
			ck_assert_int_eq(sim_get_ar_group(f, s, e.group, ports), 0);
			for (unsigned p = 1; p <= t->nodes[s].nports; p++) {
				if (!(ports[p / 64] >> (p % 64) & 1))
					continue;
				uint32_t q = t->nodes[s].ports[p].peer;
				bool dead_end = (s == dn && p == dp) ||
						(s == dead->peer && p == dead->peer_port);
				bad += dead_end || (q != d && !delivered(f, q, d, lid, dn, dp));
			}
		}
	}
	return bad;
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

/* The rest of up_then_kill(), the SM started. */
static uint32_t heavy_then_kill(struct sm *sm, const char *name, uint8_t port)
{
	ck_assert_int_eq(sm_sweep_heavy(sm), 0);
	uint32_t spine = topo_find_name(sim_fabric_topo(fab(sm)), name);
	ck_assert_uint_gt(cut_pairs(fab(sm), spine, port), 0);	/* routes use the link */
	ck_assert_int_eq(sim_link_set(fab(sm), spine, port, false), 0);
	for (int i = 0; i < 20 && !sm->patch->npending; i++)
		mad_rpc_poll(sm->rpc, 10);
	ck_assert_uint_ge(sm->patch->npending, 1);
	ck_assert(sm->sweep_due);
	return spine;
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
	return heavy_then_kill(sm, name, port);
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
	ck_assert_uint_eq(sm.patch->npending, 0);
	ck_assert_uint_eq(sm.patch->patches, 1);
	ck_assert_uint_gt(sm.patch->last_entries, 0);
	/* one 64-entry block per switch covers this fabric: only the changed
	 * switches got one, far fewer than the 20 a full reprogram sends */
	ck_assert_uint_eq(after.lft_block_sets - before.lft_block_sets, sm.patch->last_blocks);
	ck_assert_uint_gt(sm.patch->last_blocks, 0);
	ck_assert_uint_lt(sm.patch->last_blocks, 10);
	ck_assert_uint_gt(sm.patch->last_smps, sm.patch->last_blocks);	/* and the PortInfo Gets */
	/* stored as a sweep of kind patch: Gets, Sets, entries */
	struct db_sweep last = { 0 };
	ck_assert_int_eq(db_sweeps_each(sm.db, last_patch, &last), 0);
	ck_assert_int_gt(last.id, 0);
	ck_assert_str_eq(last.st.result, "ok");
	ck_assert_uint_eq(last.st.lft_entries, sm.patch->last_entries);
	ck_assert_uint_eq(last.st.lft_smps, sm.patch->last_blocks);
	ck_assert_uint_eq(last.st.ar_smps, 0);	/* ftree: no AR */
	ck_assert_uint_eq(last.st.discovery_smps + last.st.lft_smps, sm.patch->last_smps);

	/* the heavy sweep confirms: the dead link stays unused */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(cut_pairs(fab(&sm), spine, 2), 0);
	sm_close(&sm);
}
END_TEST

/*
 * The patch's Sets fail (every switch took an M_Key the SM does not know, as
 * another SM might leave; Gets still pass at protect level 1): the switches
 * kept what they held, so the store must not record the patched tables as
 * theirs.  The heavy sweep that follows, the keys gone again, then reads them
 * back and leaves no pair on the dead link; trusting the record, it would
 * skip the blocks it believes sent.
 */
START_TEST(failed_patch_sets_leave_no_record)
{
	struct sm sm;
	uint32_t spine = up_then_kill(&sm, "C0.0", 2);
	const struct topo *t = sim_fabric_topo(fab(&sm));
	size_t nblocks = (size_t)sm.routes.max_lid / 64 + 1;
	uint8_t lft[64 * 64];
	bool pending;

	for (uint32_t n = 0; n < t->n; n++)
		if (t->nodes[n].type == MAD_NODE_SWITCH)
			ck_assert_int_eq(sim_set_mkey(fab(&sm), n, 0, 0x5eedull, 1, 0), 0);
	ck_assert_int_ne(sm_patch(&sm), 0);	/* Sets failed: a heavy sweep is due */
	ck_assert_uint_gt(cut_pairs(fab(&sm), spine, 2), 0);	/* nothing took */
	/* every record the store still trusts is what the switch holds */
	unsigned known = 0;
	for (uint32_t n = 0; n < sm.fabric.topo.n; n++) {
		if (!sm.routes.lft[n])
			continue;
		uint64_t guid = sm.fabric.topo.nodes[n].guid;
		int found = db_lft_load(sm.db, guid, lft, nblocks, &pending);
		ck_assert_int_ge(found, 0);
		if (found == 0 || pending)
			continue;
		known++;
		uint32_t sn = topo_find_guid(t, guid);
		for (uint16_t lid = 1; lid <= sm.routes.max_lid; lid++)
			ck_assert_msg(lft[lid] == sim_get_lft(fab(&sm), sn, lid),
				      "%s: the store says LID %u leaves by port %u, the switch "
				      "holds %u", t->nodes[sn].desc, lid, lft[lid],
				      sim_get_lft(fab(&sm), sn, lid));
	}
	ck_assert_uint_gt(known, 0);	/* the switches the patch left alone */
	for (uint32_t n = 0; n < t->n; n++)
		if (t->nodes[n].type == MAD_NODE_SWITCH)
			ck_assert_int_eq(sim_set_mkey(fab(&sm), n, 0, 0, 0, 0), 0);
	int rc;
	for (int i = 0; i < 3 && (rc = sm_sweep_heavy(&sm)) != 0; i++)
		;
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(cut_pairs(fab(&sm), spine, 2), 0);
	sm_close(&sm);
}
END_TEST

/* With the traps lost, the light sweep's PortStateChange notes the switches. */
START_TEST(light_sweep_notes_what_traps_missed)
{
	struct sm sm;
	uint32_t spine = up_then_kill(&sm, "C1.1", 4);	/* to A3.1 */

	sm.patch->npending = 0;	/* as if the traps were lost */
	ck_assert_int_eq(sm_sweep_light(&sm), 1);
	ck_assert_uint_ge(sm.patch->npending, 1);
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
	ck_assert_uint_eq(sm.patch->npending, 1);
	sim_get_stats(fab(&sm), &before);
	ck_assert_int_eq(sm_patch(&sm), 0);
	sim_get_stats(fab(&sm), &after);
	ck_assert_uint_eq(after.lft_block_sets, before.lft_block_sets);
	ck_assert_uint_eq(sm.patch->patches, 0);
	ck_assert_uint_eq(sm.patch->npending, 0);
	sm_close(&sm);
}
END_TEST

/* The SM started on ft3r4.topo with every switch marked `ar` (a copy in
 * dbdir), routing with the engine adaptive. */
static void start_ar_tree(struct sm *sm)
{
	char path[300], cmd[700], spec[310], err[128];

	snprintf(path, sizeof(path), "%s/ft3r4-ar.topo", dbdir);
	snprintf(cmd, sizeof(cmd), "sed 's/^Switch.*/& # ar/' %s > %s", topo_path("ft3r4.topo"),
		 path);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(spec, sizeof(spec), "sim:%s", path);
	sm_start(sm, spec);
	ck_assert_int_eq(sm_config_set_routing(&sm->cfg, "adaptive", err, sizeof(err)), 0);
}

/* AR switches of the sim with AR off. */
static unsigned ar_switches_off(struct sm *sm)
{
	struct sim_fabric *f = fab(sm);
	const struct topo *t = sim_fabric_topo(f);
	unsigned off = 0;

	for (uint32_t n = 0; n < t->n; n++) {
		struct mad_ar_info ai;
		if (sim_get_ar_info(f, n, &ai) == 0)
			off += !ai.enable;
	}
	return off;
}

/* On AR switches (every switch of ft3r4.topo marked `ar`, engine
 * adaptive): the patch also takes the dead port out of the groups, unbinds
 * the LIDs whose group would lead into it, sends only those blocks after the
 * LFT blocks, and keeps the AR cache true, so that the heavy sweep after it
 * leaves the switches holding exactly the engine's tables.  The switches
 * whose AR the patch's LFT blocks turned off have it on again (issue 20
 * item 4). */
START_TEST(ar_groups_patched_off_the_dead_link)
{
	struct sm sm;
	struct sim_stats before, after;
	unsigned holding;

	start_ar_tree(&sm);
	uint32_t spine = heavy_then_kill(&sm, "C0.0", 2);	/* to A1.0 */
	struct sim_fabric *f = fab(&sm);
	ck_assert_uint_gt(bad_ar_choices(f, spine, 2, &holding), 0);	/* the test can fail */
	ck_assert_uint_gt(holding, 0);

	sim_get_stats(f, &before);
	ck_assert_int_eq(sm_patch(&sm), 0);
	sim_get_stats(f, &after);
	ck_assert_uint_eq(cut_pairs(f, spine, 2), 0);
	ck_assert_uint_eq(bad_ar_choices(f, spine, 2, &holding), 0);
	ck_assert_uint_eq(holding, 0);
	/* only the changed blocks, counted with the patch's SMPs */
	ck_assert_uint_gt(sm.patch->last_ar_group_blocks, 0);
	ck_assert_uint_gt(sm.patch->last_ar_lft_blocks, 0);
	ck_assert_uint_eq(after.ar_group_sets - before.ar_group_sets, sm.patch->last_ar_group_blocks);
	ck_assert_uint_eq(after.ar_lft_sets - before.ar_lft_sets, sm.patch->last_ar_lft_blocks);
	/* the plain LFT blocks turned AR off on their switches (no_fallback 0):
	 * the patch turned it on again there, and only there */
	ck_assert_uint_gt(after.ar_lft_turned_off, before.ar_lft_turned_off);
	ck_assert_uint_eq(after.ar_info_sets - before.ar_info_sets,
			  after.ar_lft_turned_off - before.ar_lft_turned_off);
	ck_assert_uint_eq(ar_switches_off(&sm), 0);
	ck_assert_uint_eq(after.lft_block_sets - before.lft_block_sets, sm.patch->last_blocks);
	ck_assert_uint_lt(sm.patch->last_ar_lft_blocks, 20);
	ck_assert_uint_ge(sm.patch->last_smps, sm.patch->last_blocks +
			  sm.patch->last_ar_group_blocks + sm.patch->last_ar_lft_blocks);
	struct db_sweep last = { 0 };
	ck_assert_int_eq(db_sweeps_each(sm.db, last_patch, &last), 0);
	ck_assert_uint_eq(last.st.ar_smps, sm.patch->last_ar_group_blocks + sm.patch->last_ar_lft_blocks);
	ck_assert_uint_eq(last.st.lft_smps, sm.patch->last_blocks + last.st.ar_smps +
			  sm.patch->last_ar_info_smps);
	ck_assert_uint_gt(sm.patch->last_ar_info_smps, after.ar_info_sets - before.ar_info_sets);
	assert_ar_stored(&sm);	/* the patched tables, as the switches hold them */

	/* the heavy sweep: the switches hold the engine's tables */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_ar_tables_match(&sm);
	ck_assert_uint_eq(cut_pairs(f, spine, 2), 0);
	ck_assert_uint_eq(bad_ar_choices(f, spine, 2, &holding), 0);
	sm_close(&sm);
}
END_TEST

/* The link back before the heavy sweep: the engine wants the tables of
 * before the patch again, which only a cache that knows what the patch sent
 * tells apart from what the switches hold. */
START_TEST(ar_link_back_after_a_patch)
{
	struct sm sm;

	start_ar_tree(&sm);
	uint32_t spine = heavy_then_kill(&sm, "C0.0", 2);
	ck_assert_int_eq(sm_patch(&sm), 0);
	ck_assert_uint_gt(sm.patch->last_ar_lft_blocks, 0);
	ck_assert_int_eq(sim_link_set(fab(&sm), spine, 2, true), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	assert_ar_tables_match(&sm);
	sm_close(&sm);
}
END_TEST

/* A host's link dead: nothing leads around it, and no AR entry elsewhere
 * changes for the LID it took away (the heavy sweep's). */
START_TEST(ar_host_link_changes_no_ar_entry)
{
	struct sm sm;
	struct sim_stats before, after;

	start_ar_tree(&sm);
	heavy_then_kill(&sm, "L0.0", 2);	/* to H1 (H0 is the SM's) */
	sim_get_stats(fab(&sm), &before);
	ck_assert_int_eq(sm_patch(&sm), 0);
	sim_get_stats(fab(&sm), &after);
	ck_assert_uint_eq(sm.patch->patches, 1);
	ck_assert_uint_eq(sm.patch->last_ar_group_blocks + sm.patch->last_ar_lft_blocks, 0);
	ck_assert_uint_eq(after.ar_lft_sets + after.ar_group_sets,
			  before.ar_lft_sets + before.ar_group_sets);
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
	tcase_add_test(tc, failed_patch_sets_leave_no_record);
	tcase_add_test(tc, light_sweep_notes_what_traps_missed);
	tcase_add_test(tc, nothing_dead_nothing_sent);
	tcase_add_test(tc, ar_groups_patched_off_the_dead_link);
	tcase_add_test(tc, ar_link_back_after_a_patch);
	tcase_add_test(tc, ar_host_link_changes_no_ar_entry);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

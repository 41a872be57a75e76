// SPDX-License-Identifier: MIT
/*
 * check_sm_hw.c - whole sweeps on a sim fabric that behaves as hardware does
 * where ibsim is lenient (issue 15): extended speeds told only to an SM that
 * sets SMSupportExtendedSpeeds, devices without SL to VL mapping, link timers
 * and thresholds as configured, enabled speeds and widths raised to what is
 * supported, and VLs carried only where the arbitration tables weigh them.
 * Each test looks at the simulated devices, not at what the SM believes.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_rate.h"
#include "mad/mad_sim.h"
#include "sm/sm.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"

/* The SM's idea of port @port of the node named @name in the sim's file. */
static const struct topo_port *sm_port(struct sm *sm, const char *name, uint8_t port)
{
	const struct topo *st = sim_fabric_topo(fab(sm));
	uint32_t s = topo_find_name(st, name);

	ck_assert_uint_ne(s, TOPO_NONE);
	uint32_t n = topo_find_guid(&sm->fabric.topo, st->nodes[s].guid);
	ck_assert_uint_ne(n, TOPO_NONE);
	return &sm->fabric.topo.nodes[n].ports[port];
}

/* Extended speeds are reported only to an SM that sets attribute-modifier bit
 * 31 on PortInfo; without it every NDR link looks like QDR. */
START_TEST(extended_speeds_are_asked_for)
{
	struct sm sm;

	sm_start_file(&sm, "ndr.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	static const struct { const char *node; uint8_t port, width, speed; } want[] = {
		{ "N1", 1, 2, MAD_SPEED_NDR }, { "N2", 2, 2, MAD_SPEED_NDR },
		{ "N1", 3, 2, MAD_SPEED_NDR }, { "HN1", 1, 2, MAD_SPEED_NDR },
		{ "N1", 5, 16, MAD_SPEED_HDR }, { "HH1", 1, 16, MAD_SPEED_HDR },
		{ "N1", 4, 2, MAD_SPEED_QDR }, { "HQ2", 1, 2, MAD_SPEED_QDR },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct topo_port *tp = sm_port(&sm, want[i].node, want[i].port);
		ck_assert_msg(tp->width == want[i].width && tp->speed == want[i].speed,
			      "%s port %u: %s%s, expected %s%s", want[i].node, want[i].port,
			      mad_rate_width_name(tp->width, MAD_RATE_IBND),
			      mad_rate_speed_name(tp->speed, MAD_RATE_IBND),
			      mad_rate_width_name(want[i].width, MAD_RATE_IBND),
			      mad_rate_speed_name(want[i].speed, MAD_RATE_IBND));
	}
	sm_close(&sm);
}
END_TEST

/* Build a 3-level radix-8 fat tree with 40 links cut (ftree then routes some
 * CA pairs on SL 1) into dbdir, and start an SM on it routing with ftree. */
static void start_cut_tree(struct sm *sm)
{
	char cmd[1200], spec[700], err[128];

	snprintf(spec, sizeof(spec), "sim:%s/cut.topo", dbdir);
	snprintf(cmd, sizeof(cmd), "%s/contrib/topogen/ibsmd-topogen fattree --levels 3 "
		 "--radix 8 --remove-links 40 --seed 1 -o %s",
		 getenv("top_builddir") ? getenv("top_builddir") : ".", spec + 4);
	ck_assert_int_eq(system(cmd), 0);
	sm_start(sm, spec);
	ck_assert_int_eq(sm_config_set_routing(&sm->cfg, "ftree", err, sizeof(err)), 0);
}

/* The first node of @type in the sim's file order, after @after (TOPO_NONE: from
 * the start) that has a cabled port. */
static uint32_t first_of(struct sm *sm, uint8_t type, uint32_t after)
{
	const struct topo *st = sim_fabric_topo(fab(sm));

	for (uint32_t n = after == TOPO_NONE ? 0 : after + 1; n < st->n; n++)
		if (st->nodes[n].type == type && st->nodes[n].ports[1].peer != TOPO_NONE)
			return n;
	ck_abort_msg("no node of type %u", type);
	return TOPO_NONE;
}

/* A switch and a CA without SL to VL mapping reject SLtoVLMappingTable: the
 * sweep skips them (logged) and still succeeds; the others are mapped. */
START_TEST(devices_without_sl_mapping_are_skipped)
{
	struct sim_stats st;
	struct mad_sl2vl tab;
	struct sm sm;

	start_cut_tree(&sm);
	uint32_t ca = first_of(&sm, MAD_NODE_CA, TOPO_NONE);
	uint32_t other_ca = first_of(&sm, MAD_NODE_CA, ca);
	uint32_t sw = first_of(&sm, MAD_NODE_SWITCH, TOPO_NONE);
	ck_assert_int_eq(sim_node_set_quirks(fab(&sm), ca, SIM_QUIRK_NO_SL_MAPPING), 0);
	ck_assert_int_eq(sim_node_set_quirks(fab(&sm), sw, SIM_QUIRK_NO_SL_MAPPING), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	sim_get_stats(fab(&sm), &st);
	ck_assert_uint_gt(st.sl2vl_sets, 0);
	ck_assert_int_eq(sim_get_sl2vl(fab(&sm), other_ca, 0, 1, &tab), 0);
	ck_assert_uint_eq(tab.vl[1], 1);
	ck_assert_int_eq(sim_get_sl2vl(fab(&sm), ca, 0, 1, &tab), 0);
	ck_assert_uint_eq(tab.vl[1], 0);	/* untouched: it has no tables */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);	/* and no sweep fails on them */
	sm_close(&sm);
}
END_TEST

static Suite *hw_suite(void)
{
	Suite *s = suite_create("sm_hw");
	TCase *tc = tcase_create("hardware");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_add_test(tc, extended_speeds_are_asked_for);
	tcase_add_test(tc, devices_without_sl_mapping_are_skipped);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(hw_suite)

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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "mad/model/topo_rate.h"
#include "mad/sim/mad_sim.h"
#include "sm/core/sm.h"
#include "sm/sweep/sm_sl2vl.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/core/sm_sl2vl_table.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

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
		{ "N2", 5, 2, MAD_SPEED_XDR }, { "HX2", 1, 2, MAD_SPEED_XDR },
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

	sm_start_cut_tree(&sm);
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

/* What the SL2VL phase is judged by, on the sim's own devices. */
struct sl2vl_seen {
	struct sim_stats st;
	struct mad_sl2vl *tables;	/* every switch pair of cabled ports, then every
					 * cabled CA port, in the sim's node order */
	size_t ntables, pairs, ca_ports, switches;
	size_t unlinked;		/* switch ports without a link, checked */
	size_t minority_outputs;	/* per switch, the data ports that do not want
					 * the table most of them want (1 + this many
					 * optimized Sets per switch) */
};

/* Bring the cut radix-8 tree up with ftree (routes on SLs 0-1), its first
 * three CAs with only four data VLs (the leaf ports facing them want another
 * table), every switch offering optimized SL to VL programming or none; a
 * store of its own (@db). */
static void sl2vl_bring_up(struct sm *sm, const char *db, bool optimized, struct sl2vl_seen *seen)
{
	snprintf(dbpath, sizeof(dbpath), "%s/%s", dbdir, db);
	sm_start_cut_tree(sm);
	struct sim_fabric *f = fab(sm);
	const struct topo *t = sim_fabric_topo(f);
	bool *four_vls = calloc(t->n, sizeof(*four_vls));
	unsigned four = 0;

	ck_assert_ptr_nonnull(four_vls);
	sim_set_opt_sl2vl(f, optimized);
	memset(seen, 0, sizeof(*seen));
	for (uint32_t n = 0; n < t->n && four < 3; n++)
		if (t->nodes[n].type != MAD_NODE_SWITCH && t->nodes[n].ports[1].peer != TOPO_NONE) {
			ck_assert_int_eq(sim_node_set_quirks(f, n, SIM_QUIRK_FOUR_VLS), 0);
			four_vls[n] = true;
			four++;
		}
	for (uint32_t n = 0; n < t->n; n++) {
		const struct topo_node *tn = &t->nodes[n];
		size_t d = 0, d4 = 0;
		for (unsigned p = 1; p <= tn->nports; p++)
			if (tn->ports[p].peer != TOPO_NONE) {
				d++;
				d4 += four_vls[tn->ports[p].peer];
			}
		if (tn->type != MAD_NODE_SWITCH) {
			seen->ca_ports += d;
		} else if (d >= 2) {
			seen->pairs += d * (d - 1);
			seen->switches++;
			seen->minority_outputs += d4 < d - d4 ? d4 : d - d4;
		}
	}
	free(four_vls);
	ck_assert_int_eq(sm_sweep_heavy(sm), 0);
	assert_subnet_up(f);
	sim_get_stats(f, &seen->st);
	ck_assert_ptr_nonnull(seen->tables = calloc(seen->pairs + seen->ca_ports,
						    sizeof(*seen->tables)));
	for (uint32_t n = 0; n < t->n; n++) {
		const struct topo_node *tn = &t->nodes[n];
		bool sw = tn->type == MAD_NODE_SWITCH;
		for (unsigned i = sw ? 1 : 0; i <= (sw ? tn->nports : 0); i++)
			for (unsigned o = 1; o <= tn->nports; o++) {
				if (tn->ports[o].peer == TOPO_NONE || (sw && (o == i ||
				    tn->ports[i].peer == TOPO_NONE)))
					continue;
				ck_assert_uint_lt(seen->ntables, seen->pairs + seen->ca_ports);
				ck_assert_int_eq(sim_get_sl2vl(f, n, (uint8_t)i, (uint8_t)o,
							       &seen->tables[seen->ntables++]), 0);
			}
	}
	ck_assert_uint_eq(seen->ntables, seen->pairs + seen->ca_ports);

	/* ports without a link: what the SA says of them (sm_sl2vl_table) is what
	 * the switch holds (an optimized Set writes them too) */
	unsigned nsl = sm->routes.check.max_sl + 1u;
	for (uint32_t n = 0; n < t->n; n++) {
		const struct topo_node *tn = &t->nodes[n];
		uint32_t m = topo_find_guid(&sm->fabric.topo, tn->guid);
		if (tn->type != MAD_NODE_SWITCH)
			continue;
		ck_assert_uint_ne(m, TOPO_NONE);
		for (unsigned o = 1; o <= tn->nports; o++) {
			struct mad_sl2vl held, said;
			if (tn->ports[o].peer != TOPO_NONE)
				continue;
			sm_sl2vl_table(&sm->fabric, m, o, nsl, &said);
			for (unsigned i = 0; i <= tn->nports; i += tn->nports) {
				ck_assert_int_eq(sim_get_sl2vl(f, n, (uint8_t)i, (uint8_t)o, &held), 0);
				ck_assert_msg(!memcmp(&held, &said, sizeof(held)),
					      "%s %u -> %u: SL 1 on VL %u, the SA says %u", tn->name,
					      i, o, held.vl[1], said.vl[1]);
			}
			seen->unlinked++;
		}
	}
}

/*
 * Switches that offer optimized SL to VL programming (SwitchInfo) get one Set
 * for all their pairs, and one for all inputs to each port whose VLs want
 * another table, none read first; switches that do not are read and set pair
 * by pair as before, and never get an optimized Set; the tables the devices
 * hold are the same either way.  A switch that offers it but refuses the Set
 * is programmed pair by pair.
 */
START_TEST(sl2vl_optimized_where_switches_offer_it)
{
	struct sl2vl_seen opt, pair;
	struct sm sm;

	sl2vl_bring_up(&sm, "pair.db", false, &pair);
	sm_close(&sm);
	sl2vl_bring_up(&sm, "opt.db", true, &opt);
	printf("ftree on the cut radix-8 tree: SL2VL pair by pair %llu Gets + %llu Sets, "
	       "optimized %llu Gets + %llu Sets (%zu switches, %zu CA ports)\n",
	       (unsigned long long)pair.st.sl2vl_gets, (unsigned long long)pair.st.sl2vl_sets,
	       (unsigned long long)opt.st.sl2vl_gets, (unsigned long long)opt.st.sl2vl_sets,
	       opt.switches, opt.ca_ports);
	/* pair by pair: every table read, and set (power-on maps all SLs on VL 0) */
	ck_assert_uint_eq(pair.st.sl2vl_gets, pair.pairs + pair.ca_ports);
	ck_assert_uint_eq(pair.st.sl2vl_sets, pair.pairs + pair.ca_ports);
	ck_assert_uint_eq(pair.st.sl2vl_opt_refused, 0);
	/* optimized: CA ports as before; a Set per switch and one per port that
	 * wants another table than most of its switch's (four VLs or eight) */
	ck_assert_uint_eq(opt.st.sl2vl_gets, opt.ca_ports);
	ck_assert_uint_gt(opt.minority_outputs, 0);
	ck_assert_uint_eq(opt.st.sl2vl_sets, opt.switches + opt.minority_outputs + opt.ca_ports);
	ck_assert_uint_eq(opt.st.sl2vl_opt_refused, 0);
	/* the same tables on every pair and CA port */
	ck_assert_uint_eq(opt.ntables, pair.ntables);
	size_t four_vl_tables = 0;
	for (size_t i = 0; i < opt.ntables; i++) {
		ck_assert_msg(!memcmp(&opt.tables[i], &pair.tables[i], sizeof(opt.tables[i])),
			      "table %zu: SL 1 on VL %u optimized, VL %u pair by pair", i,
			      opt.tables[i].vl[1], pair.tables[i].vl[1]);
		ck_assert_uint_eq(opt.tables[i].vl[1], 1);
		four_vl_tables += opt.tables[i].vl[5] == 1;	/* 5 mod 4 */
	}
	ck_assert_uint_gt(four_vl_tables, 3);
	ck_assert_uint_gt(opt.unlinked, 0);

	/* a switch that says it can but refuses: pair by pair, no failure */
	const struct topo *t = sim_fabric_topo(fab(&sm));
	uint32_t sw = first_of(&sm, MAD_NODE_SWITCH, TOPO_NONE);
	size_t d = 0;
	for (unsigned p = 1; p <= t->nodes[sw].nports; p++)
		d += t->nodes[sw].ports[p].peer != TOPO_NONE;
	ck_assert_int_eq(sim_node_set_quirks(fab(&sm), sw, SIM_QUIRK_NO_OPT_SL2VL), 0);
	struct sm_sl2vl_result res;
	struct sm_arena arena;
	sm_arena_init(&arena);
	ck_assert_int_eq(sm_sl2vl_program(&sm, &sm.fabric, &sm.routes, NULL, &arena, &res), 0);
	sm_arena_free(&arena);
	ck_assert_uint_eq(res.group_refused, 1);
	ck_assert_uint_eq(res.failures, 0);
	ck_assert_uint_eq(res.grouped, opt.switches);
	ck_assert_uint_eq(res.tables, d * (d - 1) + opt.ca_ports);
	ck_assert_uint_eq(res.sets, 0);	/* all right already */
	free(opt.tables);
	free(pair.tables);
	sm_close(&sm);
}
END_TEST

/* Every port and switch of the sim holds the link parameters of @c. */
static void assert_link_params(struct sim_fabric *f, const struct sm_config *c)
{
	const struct topo *t = sim_fabric_topo(f);
	struct mad_switch_info si;
	struct mad_port_info pi;

	for (uint32_t n = 0; n < t->n; n++) {
		const struct topo_node *tn = &t->nodes[n];
		bool sw = tn->type == MAD_NODE_SWITCH;
		if (sw) {
			ck_assert_int_eq(sim_get_switch_info(f, n, &si), 0);
			ck_assert_uint_eq(si.life_time, c->life_time);
			ck_assert_int_eq(sim_get_port_info(f, n, 0, &pi), 0);
			ck_assert_uint_eq(pi.subnet_timeout, c->subnet_timeout);
		}
		for (unsigned p = 1; p <= tn->nports; p++) {
			const struct topo_port *tp = &tn->ports[p];
			if (tp->peer == TOPO_NONE)
				continue;
			ck_assert_int_eq(sim_get_port_info(f, n, (uint8_t)p, &pi), 0);
			ck_assert_uint_eq(pi.local_phys_errors, c->local_phy_errors);
			ck_assert_uint_eq(pi.overrun_errors, c->overrun_errors);
			if (!sw) {
				ck_assert_uint_eq(pi.subnet_timeout, c->subnet_timeout);
				continue;
			}
			bool leaf = t->nodes[tp->peer].type != MAD_NODE_SWITCH;
			ck_assert_msg(pi.hoq_life == (leaf ? c->hoq_life_leaf : c->hoq_life),
				      "%s port %u: HOQLife 0x%x", tn->name, p, pi.hoq_life);
			ck_assert_uint_eq(pi.vl_stall_count, c->vl_stall_count);
		}
	}
}

/* HOQLife (0x10 toward hosts), VLStallCount, SubnetTimeOut, the error
 * thresholds and LifeTimeValue are written as configured, and a second sweep
 * has nothing left to write. */
START_TEST(link_timers_and_thresholds_are_written)
{
	struct sim_stats first, second;
	struct sm sm;

	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	assert_link_params(fab(&sm), &sm.cfg);
	ck_assert_uint_eq(sm.cfg.hoq_life, 0x12);	/* OpenSM's defaults */
	ck_assert_uint_eq(sm.cfg.hoq_life_leaf, 0x10);
	ck_assert_uint_eq(sm.cfg.subnet_timeout, 0x12);

	/* other values: written where they differ, then quiet again */
	sm.cfg.hoq_life = 0x13;
	sm.cfg.vl_stall_count = 5;
	sm.cfg.local_phy_errors = 4;
	sm.cfg.life_time = 0x11;
	sim_get_stats(fab(&sm), &first);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_link_params(fab(&sm), &sm.cfg);
	sim_get_stats(fab(&sm), &second);
	ck_assert_uint_gt(second.sets, first.sets);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(fab(&sm), &first);
	ck_assert_uint_eq(first.sets, second.sets);
	sm_close(&sm);
}
END_TEST

/* A device that keeps some parameters fixed (as ibsim does) is asked once per
 * process, not on every sweep. */
START_TEST(link_parameters_not_taken_are_not_asked_again)
{
	struct sim_stats first, second;
	struct mad_port_info pi;
	struct sm sm;

	sm_start_file(&sm, "ndr.topo");
	const struct topo *t = sim_fabric_topo(fab(&sm));
	for (uint32_t n = 0; n < t->n; n++)
		ck_assert_int_eq(sim_node_set_quirks(fab(&sm), n, SIM_QUIRK_FIXED_LINK), 0);
	uint32_t n1 = topo_find_name(t, "N1");
	ck_assert_int_eq(sim_port_set_enabled(fab(&sm), n1, 3, 1, MAD_SPEED_SDR, 0), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	ck_assert_int_eq(sim_get_port_info(fab(&sm), n1, 3, &pi), 0);
	ck_assert_uint_eq(pi.local_phys_errors, 8);	/* power-on, as it were */
	ck_assert_uint_eq(pi.link_width_enabled, 1);
	ck_assert_uint_eq(sm_port(&sm, "N1", 3)->degraded, TOPO_DEGRADED_WIDTH | TOPO_DEGRADED_SPEED);
	sim_get_stats(fab(&sm), &first);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(fab(&sm), &second);
	ck_assert_uint_eq(second.sets, first.sets);
	sm_close(&sm);
}
END_TEST

static int count_degraded(void *arg, const struct db_event *ev)
{
	unsigned *n = arg;

	*n += strcmp(ev->kind, DB_EV_LINK_DEGRADED) == 0;
	return 0;
}

/* The "discovered" event of a cold store counts the degraded links. */
static int discovered_counts_degraded(void *arg, const struct db_event *ev)
{
	bool *seen = arg;

	if (strcmp(ev->kind, DB_EV_DISCOVERED) == 0)
		*seen = strstr(ev->detail, ", 1 of them degraded") != NULL;
	return 0;
}

static unsigned degraded_events(struct sm *sm)
{
	unsigned events = 0;

	ck_assert_int_eq(db_events_each(sm->db, 0, count_degraded, &events), 0);
	return events;
}

/* Link N1[3] - HN1[1] with 1x SDR enabled at N1's end trains 1xSDR. */
static void narrow_hn1_link(struct sm *sm, uint32_t *n1)
{
	*n1 = topo_find_name(sim_fabric_topo(fab(sm)), "N1");
	ck_assert_int_eq(sim_port_set_enabled(fab(sm), *n1, 3, 1, MAD_SPEED_SDR, 0), 0);
}

/* A port narrowed by firmware or an earlier SM gets "all supported" written
 * and its link trains at full rate again; the relaxed configuration leaves
 * it, and the link is reported degraded: an event and `smquery links`. */
START_TEST(enabled_rates_are_raised_or_reported)
{
	struct mad_port_info pi;
	uint32_t n1;
	struct sm sm;

	sm_start_file(&sm, "ndr.topo");
	narrow_hn1_link(&sm, &n1);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sim_get_port_info(fab(&sm), n1, 3, &pi), 0);
	ck_assert_uint_eq(pi.link_width_enabled, pi.link_width_supported);
	ck_assert_uint_eq(pi.link_speed_ext_enabled, pi.link_speed_ext_supported);
	ck_assert_uint_eq(pi.link_width_active, 2);
	ck_assert_uint_eq(pi.link_speed_ext_active, 8);
	ck_assert_uint_eq(sm_port(&sm, "N1", 3)->speed, MAD_SPEED_NDR);
	ck_assert_uint_eq(sm_port(&sm, "N1", 3)->degraded, 0);
	sm_close(&sm);

	/* relaxed: left as found, and reported: on a cold store in the one
	 * "discovered" event, later as link_degraded from each end's port */
	unlink(dbpath);
	sm_start_file(&sm, "ndr.topo");
	sm.cfg.enable_all_supported = 0;
	narrow_hn1_link(&sm, &n1);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sim_get_port_info(fab(&sm), n1, 3, &pi), 0);
	ck_assert_uint_eq(pi.link_width_active, 1);
	const struct topo_port *tp = sm_port(&sm, "N1", 3);
	ck_assert_uint_eq(tp->width, 1);
	ck_assert_uint_eq(tp->speed, MAD_SPEED_SDR);
	ck_assert_uint_eq(tp->degraded, TOPO_DEGRADED_WIDTH | TOPO_DEGRADED_SPEED);
	ck_assert_uint_eq(sm_port(&sm, "HN1", 1)->degraded, TOPO_DEGRADED_WIDTH | TOPO_DEGRADED_SPEED);
	ck_assert_uint_eq(sm_port(&sm, "N1", 1)->degraded, 0);
	ck_assert_uint_eq(degraded_events(&sm), 0);
	bool counted = false;
	ck_assert_int_eq(db_events_each(sm.db, 0, discovered_counts_degraded, &counted), 0);
	ck_assert(counted);
	/* a second link narrowed (at HN2's end, speed only): reported once */
	uint32_t hn2 = topo_find_name(sim_fabric_topo(fab(&sm)), "HN2");
	ck_assert_int_eq(sim_port_set_enabled(fab(&sm), hn2, 1, 3, MAD_SPEED_SDR, 0), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(sm_port(&sm, "N2", 3)->degraded, TOPO_DEGRADED_SPEED);
	ck_assert_uint_eq(degraded_events(&sm), 2);	/* one from each end's port */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(degraded_events(&sm), 2);
	sm_close(&sm);
}
END_TEST

/* Data on SL @sl between every two CAs: how many traces fail (the first
 * logged). */
static unsigned failed_traces(struct sim_fabric *f, uint8_t sl)
{
	const struct topo *t = sim_fabric_topo(f);
	struct mad_port_info pi;
	unsigned failed = 0;
	char why[160];

	for (uint32_t a = 0; a < t->n; a++) {
		if (t->nodes[a].type != MAD_NODE_CA || t->nodes[a].ports[1].peer == TOPO_NONE)
			continue;
		for (uint32_t b = 0; b < t->n; b++) {
			if (b == a || t->nodes[b].type != MAD_NODE_CA ||
			    t->nodes[b].ports[1].peer == TOPO_NONE)
				continue;
			ck_assert_int_eq(sim_get_port_info(f, b, 1, &pi), 0);
			if (sim_data_trace(f, a, 1, pi.lid, sl, why, sizeof(why)) && !failed++)
				printf("SL %u %s -> %s: %s\n", sl, t->nodes[a].name,
				       t->nodes[b].name, why);
		}
	}
	return failed;
}

/* ftree moves some routes to SL 1; a VL without weight in the arbitration
 * tables is never sent, so every data port's low table must weigh VL 0 and
 * VL 1.  The sim refuses to carry an unweighed VL (unless told to relax). */
START_TEST(vl_arbitration_weighs_every_vl_in_use)
{
	struct sim_stats first, second;
	struct mad_vlarb_block b;
	struct sm sm;

	sm_start_cut_tree(&sm);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(failed_traces(fab(&sm), 0), 0);
	ck_assert_uint_eq(failed_traces(fab(&sm), 1), 0);
	sim_get_stats(fab(&sm), &first);
	ck_assert_uint_gt(first.vlarb_sets, 0);
	uint32_t ca = first_of(&sm, MAD_NODE_CA, TOPO_NONE);
	ck_assert_int_eq(sim_get_vlarb(fab(&sm), ca, 1, MAD_VLARB_LOW_0_31, &b), 0);
	ck_assert_uint_eq(b.e[1].vl, 1);
	ck_assert_uint_gt(b.e[1].weight, 0);

	/* nothing left to set: a second sweep sends no table */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(fab(&sm), &second);
	ck_assert_uint_eq(second.vlarb_sets, first.vlarb_sets);
	sm_close(&sm);
}
END_TEST

/* The strict data path is what catches an SM that leaves VL arbitration as
 * the vendor made it: a port whose table weighs VL0 only carries no SL 1,
 * unless the sim is told to relax. */
START_TEST(unweighed_vls_are_not_carried)
{
	static const struct mad_addr dr = { .lid = MAD_LID_PERMISSIVE };
	struct mad_vlarb_block power_on = { .e = { { 0, 255 } } };
	struct mad_port_info pi;
	struct mad_smp req, resp;
	struct topo_path path;
	struct sm sm;
	char why[160];

	sm_start_cut_tree(&sm);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	const struct topo *st = sim_fabric_topo(fab(&sm));
	uint32_t ca = first_of(&sm, MAD_NODE_CA, TOPO_NONE);
	uint32_t other = first_of(&sm, MAD_NODE_CA, ca);
	ck_assert_int_eq(sim_get_port_info(fab(&sm), other, 1, &pi), 0);
	ck_assert_int_eq(sim_data_trace(fab(&sm), ca, 1, pi.lid, 1, why, sizeof(why)), 0);

	/* the CA's table back to its power-on contents, by an SMP as anyone could */
	uint32_t n = topo_find_guid(&sm.fabric.topo, st->nodes[ca].guid);
	sm_fabric_port_path(&sm.fabric, n, 1, &path);
	mad_smp_init_dr(&req, MAD_METHOD_SET, MAD_ATTR_VL_ARB_TABLE,
			MAD_VLARB_MOD(MAD_VLARB_LOW_0_31, 0), &path);
	mad_vlarb_encode(&power_on, req.data);
	ck_assert_int_eq(mad_rpc_call(sm.rpc, &req, &dr, &resp), 0);
	ck_assert_int_eq(sim_data_trace(fab(&sm), ca, 1, pi.lid, 0, why, sizeof(why)), 0);
	ck_assert_int_eq(sim_data_trace(fab(&sm), ca, 1, pi.lid, 1, why, sizeof(why)), -EAGAIN);
	ck_assert_msg(strstr(why, "no VLArbitrationTable entry weighs VL1"), "%s", why);
	sim_set_lenient(fab(&sm), SIM_LENIENT_VLARB);
	ck_assert_int_eq(sim_data_trace(fab(&sm), ca, 1, pi.lid, 1, why, sizeof(why)), 0);
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
	tcase_add_test(tc, sl2vl_optimized_where_switches_offer_it);
	tcase_add_test(tc, link_timers_and_thresholds_are_written);
	tcase_add_test(tc, enabled_rates_are_raised_or_reported);
	tcase_add_test(tc, link_parameters_not_taken_are_not_asked_again);
	tcase_add_test(tc, vl_arbitration_weighs_every_vl_in_use);
	tcase_add_test(tc, unweighed_vls_are_not_carried);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(hw_suite)

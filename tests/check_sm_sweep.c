// SPDX-License-Identifier: MIT
/*
 * check_sm_sweep.c - whole heavy sweeps on the simulated fabric.
 *
 * Each test opens an SM on "sim:FILE" with a fresh store, sweeps, and then looks
 * at the simulated devices themselves (port states, LIDs, the LFTs the sweep
 * programmed) rather than at what the SM believes.  Faults are injected through
 * the sim API: links going down, nodes that do not answer, paths too long for
 * directed route, and a fabric that needs more LIDs than IBA has.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/sim/mad_sim.h"
#include "routing/rt.h"
#include "sm/core/sm.h"
#include "sm/core/sm_state.h"
#include "sm/sweep/sm_discover.h"
#include "sm/util/sm_log.h"
#include "sm/ha/sm_mad_in.h"
#include "mad/model/topo_view.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

static int count_events(void *arg, const struct db_event *ev)
{
	(void)ev;
	(*(int *)arg)++;
	return 0;
}

START_TEST(brings_up_and_second_sweep_is_quiet)
{
	struct sm sm;
	struct sim_stats before, after;

	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	ck_assert_uint_eq(sm.sm_state, MAD_SM_MASTER);

	sim_get_stats(fab(&sm), &before);
	ck_assert_uint_gt(before.lft_block_sets, 0);
	int events = 0;
	ck_assert_int_eq(db_events_each(sm.db, 0, count_events, &events), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(fab(&sm), &after);
	ck_assert_uint_eq(after.sets, before.sets);	/* no SMP that changes nothing */
	ck_assert_uint_eq(after.lft_block_sets, before.lft_block_sets);
	/* and no event: the switches' external ports now answer with the switch's
	 * LID (as real ones do), which is no change (it was "lid 0 -> N" on each) */
	int again = 0;
	ck_assert_int_eq(db_events_each(sm.db, 0, count_events, &again), 0);
	ck_assert_int_eq(again, events);
	ck_assert_int_eq(sm_sweep_light(&sm), 0);
	sm_close(&sm);
}
END_TEST

/*
 * The sweep stores the LFTs while it sends them (pending), and confirms them
 * when programming is done: none is left pending.  A table left pending (a
 * sweep that stopped midway) is no record of the switch: the next sweep reads
 * it back instead of trusting it, and sends only what the switch lacks.
 */
START_TEST(lfts_stored_while_sent_are_confirmed)
{
	struct sm sm;
	struct sim_stats before, after;
	uint8_t lft[64 * 64];
	bool pending = true;

	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	const struct topo *t = &sm.fabric.topo;
	size_t nblocks = (size_t)sm.routes.max_lid / 64 + 1;
	unsigned switches = 0;
	for (uint32_t n = 0; n < t->n; n++) {
		if (t->nodes[n].type != MAD_NODE_SWITCH)
			continue;
		switches++;
		ck_assert_int_eq(db_lft_load(sm.db, t->nodes[n].guid, lft, nblocks, &pending),
				 (int)nblocks);
		ck_assert(!pending);
		ck_assert_mem_eq(lft, sm.routes.lft[n], nblocks * 64);
	}
	ck_assert_uint_eq(switches, 2);

	/* a pending record that is wrong: trusted, it would make the sweep send
	 * blocks the switch already holds */
	uint32_t sa = topo_find_guid(t, sim_fabric_topo(fab(&sm))->nodes[sim_node_named(&sm,
				     "SA")].guid);
	ck_assert_uint_ne(sa, TOPO_NONE);
	memset(lft, 1, nblocks * 64);
	ck_assert_int_eq(db_lft_save_table(sm.db, t->nodes[sa].guid, lft, nblocks, true), 0);
	sim_get_stats(fab(&sm), &before);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(fab(&sm), &after);
	ck_assert_uint_eq(after.lft_block_sets, before.lft_block_sets);
	ck_assert_uint_gt(after.gets, before.gets);	/* SA's table read back */
	ck_assert_int_eq(db_lft_load(sm.db, t->nodes[sa].guid, lft, nblocks, &pending),
			 (int)nblocks);
	ck_assert(!pending);
	ck_assert_mem_eq(lft, sm.routes.lft[sa], nblocks * 64);
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

static void lids_by_guid(struct sim_fabric *f, uint64_t *guids, uint16_t *lids, size_t *n)
{
	const struct topo *t = sim_fabric_topo(f);
	struct mad_port_info pi;

	*n = 0;
	for (uint32_t i = 0; i < t->n; i++)
		for (unsigned p = t->nodes[i].type == MAD_NODE_SWITCH ? 0 : 1;
		     p <= (t->nodes[i].type == MAD_NODE_SWITCH ? 0u : t->nodes[i].nports); p++) {
			if (sim_get_port_info(f, i, (uint8_t)p, &pi) || !pi.lid)
				continue;
			guids[*n] = t->nodes[i].ports[p].guid;
			lids[(*n)++] = pi.lid;
		}
}

START_TEST(lids_survive_a_restart)
{
	struct sm sm;
	static uint64_t g1[1024], g2[1024];
	static uint16_t l1[1024], l2[1024];
	size_t n1, n2;

	sm_start_file(&sm, "real/cluster89-mixed-irregular.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	lids_by_guid(fab(&sm), g1, l1, &n1);
	sm_close(&sm);

	/* a cold fabric again (every LID 0), the same store */
	sm_start_file(&sm, "real/cluster89-mixed-irregular.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	lids_by_guid(fab(&sm), g2, l2, &n2);
	ck_assert_uint_eq(n1, n2);
	ck_assert_uint_gt(n1, 0);
	for (size_t i = 0; i < n1; i++) {
		ck_assert_uint_eq(g1[i], g2[i]);
		ck_assert_uint_eq(l1[i], l2[i]);
	}
	sm_close(&sm);
}
END_TEST

START_TEST(real_cluster_with_sm_on_a_switch)
{
	struct sm sm;

	sm_start_file(&sm, "real/cluster144-sx6036-2level.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	const struct topo *t = sim_fabric_topo(fab(&sm));
	ck_assert_uint_eq(sm.fabric.topo.nodes[sm.fabric.local_node].type, MAD_NODE_SWITCH);
	ck_assert_uint_eq(sm.fabric.local_port, 0);
	ck_assert_uint_eq(sm.fabric.topo.n, t->n);
	ck_assert_uint_eq(topo_count_links(&sm.fabric.topo), topo_count_links(t));
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

START_TEST(link_down_trap_resweeps_around_it)
{
	struct sm sm;

	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	const struct topo *t = sim_fabric_topo(fab(&sm));
	uint32_t sa = topo_find_name(t, "SA");
	ck_assert_int_eq(sim_link_set(fab(&sm), sa, 3, false), 0);
	/* the switches' Trap 128 reaches the SM and makes a heavy sweep due */
	for (int i = 0; i < 10 && !sm.sweep_due; i++)
		mad_rpc_poll(sm.rpc, 10);
	ck_assert(sm.sweep_due);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	/* nothing crosses the dead link any more */
	for (uint16_t lid = 1; lid <= 16; lid++)
		ck_assert_uint_ne(sim_get_lft(fab(&sm), sa, lid), 3);

	/* the light sweep sees the link come back */
	ck_assert_int_eq(sim_link_set(fab(&sm), sa, 3, true), 0);
	ck_assert_int_eq(sm_sweep_light(&sm), 1);
	sm_close(&sm);
}
END_TEST

/* Trap @num from LID @lid, generic or not, handed to the SM as the rpc layer would. */
static void send_trap(struct sm *sm, uint16_t lid, bool generic, uint16_t num)
{
	struct mad_notice n = { .is_generic = generic, .type = 1, .trap_num = num,
				.issuer_lid = lid };
	struct mad_addr from = { .lid = lid };
	struct mad_smp trap;

	mad_smp_init_lid(&trap, MAD_METHOD_TRAP, MAD_ATTR_NOTICE, 0);
	mad_notice_set_lid(&n, lid);
	mad_notice_encode(&n, trap.data);
	sm_mad_in(sm, &trap, &from);
}

/* A vendor-specific notice's trap number is a device ID: 128 there is no link
 * state change.  A port's second Trap 128 within a second makes no sweep due. */
START_TEST(only_a_generic_trap_128_sweeps_once_a_second)
{
	struct sm sm;

	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	send_trap(&sm, 1, false, MAD_TRAP_LINK_STATE_CHANGE);
	ck_assert(!sm.sweep_due);
	send_trap(&sm, 2, true, MAD_TRAP_LINK_STATE_CHANGE);
	ck_assert(sm.sweep_due);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert(!sm.sweep_due);
	send_trap(&sm, 2, true, MAD_TRAP_LINK_STATE_CHANGE);
	ck_assert(!sm.sweep_due);
	sm_close(&sm);
}
END_TEST

static int count_silent(void *arg, const struct db_event *ev)
{
	unsigned *n = arg;

	*n += strcmp(ev->kind, DB_EV_UNRESPONSIVE) == 0;
	return 0;
}

START_TEST(silent_nodes_are_recorded_and_skipped)
{
	struct sm sm;
	struct sim_fabric *f;

	sm_start_file(&sm, "real/cluster144-sx6036-2level.topo");
	f = fab(&sm);
	const struct topo *t = sim_fabric_topo(f);
	unsigned dead = 0, cas = 0;
	/* about 5% of the nodes: every 20th CA */
	for (uint32_t n = 0; n < t->n; n++)
		if (t->nodes[n].type == MAD_NODE_CA && cas++ % 20 == 0) {
			ck_assert_int_eq(sim_node_dead(f, n, true), 0);
			dead++;
		}
	ck_assert_int_ge(sm_sweep_heavy(&sm), -EIO);
	size_t silent = 0;
	for (size_t i = 0; i < sm.fabric.nissues; i++)
		silent += sm.fabric.issues[i].kind == SM_ISSUE_UNRESPONSIVE;
	ck_assert_uint_ge(silent, dead);
	ck_assert_uint_eq(sm.fabric.topo.n, t->n - dead);
	sm_close(&sm);

	struct db *db;
	char err[256];
	unsigned silent_events = 0;
	ck_assert_int_eq(db_open(dbpath, DB_READONLY, &db, err, sizeof(err)), 0);
	ck_assert_int_eq(db_events_each(db, 0, count_silent, &silent_events), 0);
	ck_assert_uint_ge(silent_events, dead);
	db_close(db);
}
END_TEST

START_TEST(duplicate_guid_is_an_error_not_a_merge)
{
	struct sm sm;

	sm_start_file(&sm, "twoswitch.topo");
	const struct topo *t = sim_fabric_topo(fab(&sm));
	uint32_t h0 = topo_find_name(t, "H0"), h3 = topo_find_name(t, "H3");
	ck_assert_int_eq(sim_node_set_guid(fab(&sm), h3, t->nodes[h0].guid), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	size_t dups = 0;
	for (size_t i = 0; i < sm.fabric.nissues; i++)
		dups += sm.fabric.issues[i].kind == SM_ISSUE_DUPLICATE_GUID;
	ck_assert_uint_eq(dups, 1);
	/* H0 is still H0, linked to SA only; the impostor is not in the fabric */
	ck_assert_uint_eq(sm.fabric.topo.n, t->n - 1);
	uint32_t me = topo_find_guid(&sm.fabric.topo, t->nodes[h0].guid);
	ck_assert_uint_ne(me, TOPO_NONE);
	uint32_t peer = sm.fabric.topo.nodes[me].ports[1].peer;
	ck_assert_str_eq(sm.fabric.topo.nodes[peer].desc, "SA");
	sm_close(&sm);
}
END_TEST

static int count_duplicates(void *arg, const struct db_event *ev)
{
	unsigned *n = arg;

	*n += strcmp(ev->kind, "duplicate_guid") == 0;
	return 0;
}

/* Every port of the sim with a LID: the LIDs differ, and match @lids if set. */
static void same_lids_as(struct sim_fabric *f, uint16_t *lids, size_t *n, bool first)
{
	static uint64_t guids[64];
	uint16_t now[64];
	size_t k;

	lids_by_guid(f, guids, now, &k);
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < i; j++)
			ck_assert_uint_ne(now[i], now[j]);
	if (first) {
		memcpy(lids, now, sizeof(now));
		*n = k;
	}
	ck_assert_uint_eq(k, *n);
	for (size_t i = 0; i < k; i++)
		ck_assert_msg(now[i] == lids[i], "port GUID 0x%llx: LID %u, was %u",
			      (unsigned long long)guids[i], now[i], lids[i]);
}

/* Hosts H0 and H1 share a port GUID, switch SB's GUID is H2's port GUID: both
 * clashes are recorded, and no LID moves over sweeps and a restart. */
START_TEST(duplicate_port_guids_keep_their_lids)
{
	struct sm sm;
	uint16_t lids[64];
	size_t n = 0;

	sm_start_file(&sm, "duplicate-port-guid.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	size_t dups = 0;
	for (size_t i = 0; i < sm.fabric.nissues; i++)
		dups += sm.fabric.issues[i].kind == SM_ISSUE_DUPLICATE_GUID;
	ck_assert_uint_eq(dups, 2);
	same_lids_as(fab(&sm), lids, &n, true);
	ck_assert_uint_eq(n, 8);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	same_lids_as(fab(&sm), lids, &n, false);
	sm_close(&sm);
	for (int run = 0; run < 2; run++) {	/* cold fabrics, the same store */
		sm_start_file(&sm, "duplicate-port-guid.topo");
		ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
		same_lids_as(fab(&sm), lids, &n, false);
		sm_close(&sm);
	}

	struct db *db;
	char err[256];
	unsigned events = 0;
	ck_assert_int_eq(db_open(dbpath, DB_READONLY, &db, err, sizeof(err)), 0);
	ck_assert_int_eq(db_events_each(db, 0, count_duplicates, &events), 0);
	ck_assert_uint_ge(events, 2);
	db_close(db);
}
END_TEST

START_TEST(routing_options_reach_the_engines)
{
	struct sm sm;
	char err[128];

	/* a root that is no switch: updn refuses, the chain falls back to minhop */
	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_int_eq(sm_config_set_routing(&sm.cfg, "updn", err, sizeof(err)), 0);
	snprintf(sm.cfg.routing_options[0], sizeof(sm.cfg.routing_options[0]),
		 "root=0x%016llx", (unsigned long long)sim_fabric_topo(fab(&sm))->nodes[0].guid);
	sm.cfg.nrouting_options = 1;
	ck_assert_int_eq(sm_sweep_heavy(&sm), -EHOSTUNREACH);
	ck_assert_int_eq(sm_config_set_routing(&sm.cfg, "updn,minhop", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	/* a root that is a switch: updn takes it */
	const struct topo *t = sim_fabric_topo(fab(&sm));
	snprintf(sm.cfg.routing_options[0], sizeof(sm.cfg.routing_options[0]),
		 "root=0x%016llx", (unsigned long long)t->nodes[topo_find_name(t, "SB")].guid);
	ck_assert_int_eq(sm_config_set_routing(&sm.cfg, "updn", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sm_close(&sm);
}
END_TEST

static int last_sweep(void *arg, const struct db_sweep *sw)
{
	struct db_sweep *out = arg;

	*out = *sw;
	out->kind = out->st.result = NULL;
	return 0;
}

static int light_total(void *arg, const struct db_light_interval *li)
{
	struct db_light_interval *sum = arg;

	sum->sweeps += li->sweeps;
	sum->smps.sent += li->smps.sent;
	return 0;
}

/*
 * A sweep slowed by a 3 ms SMP latency and a lossy link is recorded whole: it
 * began before discovery (not when it was stored), its stages fit in it, and it
 * counts the SMPs it lost and sent again.  Light sweeps are counted too.
 */
START_TEST(sweeps_are_recorded_whole)
{
	struct sm sm;

	sm_start_file(&sm, "twoswitch.topo");
	sim_set_latency(fab(&sm), 3000);
	const struct topo *t = sim_fabric_topo(fab(&sm));
	sim_set_seed(fab(&sm), 5);
	ck_assert_int_eq(sim_link_loss(fab(&sm), topo_find_name(t, "SA"), 3, 0.3), 0);
	int rc = sm_sweep_heavy(&sm);
	ck_assert_msg(rc == 0 || rc == -EIO, "%s", strerror(-rc));
	struct db_sweep sw;
	ck_assert_int_eq(db_sweeps_each(sm.db, last_sweep, &sw), 0);
	uint32_t stages = sw.st.discovery_ms + sw.st.lid_ms + sw.st.routing_ms + sw.st.lft_ms +
			  sw.st.activate_ms + sw.st.store_ms;
	ck_assert_uint_ge(sw.st.discovery_ms, 9);	/* three hops of 3 ms at least */
	ck_assert_msg(sw.ended_ms - sw.started_ms + 2 >= stages, "%lld ms for stages of %u ms",
		      (long long)(sw.ended_ms - sw.started_ms), stages);
	ck_assert_uint_ge(sw.st.smps.sent, sw.st.discovery_smps + sw.st.lid_smps +
			  sw.st.lft_smps + sw.st.activate_smps);
	ck_assert_uint_gt(sw.st.smps.retried, 0);
	ck_assert_int_eq(sim_link_loss(fab(&sm), topo_find_name(t, "SA"), 3, 0), 0);
	sim_set_latency(fab(&sm), 0);
	while (sm_sweep_heavy(&sm) == -EIO)
		;
	ck_assert_int_eq(sm_sweep_light(&sm), 0);
	ck_assert_int_eq(sm_sweep_light(&sm), 0);
	struct db_light_interval light = { .sweeps = 0 };
	ck_assert_int_eq(db_light_each(sm.db, light_total, &light), 0);
	ck_assert_uint_eq(light.sweeps, 2);
	ck_assert_uint_gt(light.smps.sent, 0);
	sm_close(&sm);
}
END_TEST

START_TEST(lossy_links_converge_over_sweeps)
{
	struct sm sm;

	memset(&sm, 0, sizeof(sm));
	sm_config_defaults(&sm.cfg);
	snprintf(sm.cfg.backend, sizeof(sm.cfg.backend), "sim:%.400s", topo_path("twoswitch.topo"));
	snprintf(sm.cfg.db_path, sizeof(sm.cfg.db_path), "%s", dbpath);
	sm.cfg.timeout_ms = 10;
	sm.cfg.retries = 1;	/* so a loss often outlasts the retries */
	ck_assert_int_eq(sm_open(&sm), 0);
	const struct topo *t = sim_fabric_topo(fab(&sm));
	uint32_t sa = topo_find_name(t, "SA");
	sim_set_seed(fab(&sm), 11);
	ck_assert_int_eq(sim_link_loss(fab(&sm), sa, 3, 0.2), 0);
	ck_assert_int_eq(sim_link_loss(fab(&sm), sa, 6, 0.2), 0);
	/* a sweep that loses SMPs still routes and programs what it reached, and
	 * says so; later sweeps finish the job */
	int rc = -EIO, sweeps = 0;
	while (rc && sweeps < 60) {
		rc = sm_sweep_heavy(&sm);
		sweeps++;
		ck_assert_msg(rc == 0 || rc == -EIO, "sweep %d: %s", sweeps, strerror(-rc));
		/* a probe lost into a live port is asked again by light sweeps, which
		 * call for a heavy sweep once it answers */
		for (size_t i = 0; rc == 0 && i < sm.fabric.nissues; i++)
			if (sm.fabric.issues[i].probe) {
				while (sm_sweep_light(&sm) == 0)
					;
				rc = -EAGAIN;
			}
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_int_gt(sweeps, 1);	/* the loss did bite */
	ck_assert_int_eq(sim_link_loss(fab(&sm), sa, 3, 0), 0);
	ck_assert_int_eq(sim_link_loss(fab(&sm), sa, 6, 0), 0);
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

START_TEST(a_lost_probe_keeps_a_known_link)
{
	struct sm sm;
	struct sim_stats before, after;

	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	const struct topo *t = sim_fabric_topo(fab(&sm));
	uint32_t sa = topo_find_name(t, "SA");
	/* every MAD over SA port 6 (to HD's port 1) is lost, the cable still up */
	ck_assert_int_eq(sim_link_loss(fab(&sm), sa, 6, 1.0), 0);
	sim_get_stats(fab(&sm), &before);
	/* HD port 1 cannot be asked: the sweep says so, and keeps the link */
	ck_assert_int_eq(sm_sweep_heavy(&sm), -EIO);
	sim_get_stats(fab(&sm), &after);
	/* nothing rerouted, nothing reset */
	ck_assert_uint_eq(after.lft_block_sets, before.lft_block_sets);
	ck_assert_uint_eq(after.sets, before.sets);
	ck_assert_uint_eq(topo_count_links(&sm.fabric.topo), topo_count_links(t));
	/* the loss gone, a sweep is clean again */
	ck_assert_int_eq(sim_link_loss(fab(&sm), sa, 6, 0), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

/* A line of @nsw switches with a host at each end. */
static struct sim_fabric *chain_fabric(unsigned nsw)
{
	struct topo t;
	struct sim_fabric *f;

	topo_init(&t);
	uint32_t h0 = topo_add_node(&t, MAD_NODE_CA, 1, 0x1000);
	strcpy(t.nodes[h0].name, "H0");
	uint32_t prev = h0;
	uint8_t prev_port = 1;
	for (unsigned i = 0; i < nsw; i++) {
		uint32_t s = topo_add_node(&t, MAD_NODE_SWITCH, 4, 0x2000 + i);
		snprintf(t.nodes[s].name, sizeof(t.nodes[s].name), "S%u", i);
		ck_assert_int_eq(topo_link(&t, prev, prev_port, s, 1), 0);
		prev = s;
		prev_port = 2;
	}
	uint32_t h1 = topo_add_node(&t, MAD_NODE_CA, 1, 0x3000);
	strcpy(t.nodes[h1].name, "H1");
	ck_assert_int_eq(topo_link(&t, prev, prev_port, h1, 1), 0);
	ck_assert_int_eq(sim_fabric_from_topo(&t, &f), 0);
	topo_free(&t);
	return f;
}

START_TEST(hop_limit_is_recorded)
{
	struct sim_fabric *f = chain_fabric(70);
	struct mad_transport *tr;
	struct sm sm;

	memset(&sm, 0, sizeof(sm));
	sm_config_defaults(&sm.cfg);
	sm.cfg.timeout_ms = 20;
	ck_assert_int_eq(sim_transport_new(f, &tr), 0);
	struct mad_rpc_opts ro = { .window = 16, .per_node = 4, .timeout_ms = 20, .retries = 0 };
	struct mad_rpc *rpc = mad_rpc_new(tr, &ro);
	struct sm_fabric fab_;
	struct sm_arena arena;
	sm_fabric_init(&fab_);
	sm_arena_init(&arena);
	ck_assert_int_eq(sm_discover(rpc, &fab_, &arena), 0);
	/* H0 and the 63 switches within 63 hops; the rest are out of reach */
	ck_assert_uint_eq(fab_.topo.n, 1 + 63);
	bool flagged = false;
	for (size_t i = 0; i < fab_.nissues; i++)
		flagged |= fab_.issues[i].kind == SM_ISSUE_HOP_LIMIT;
	ck_assert(flagged);
	sm_fabric_free(&fab_);
	sm_arena_free(&arena);
	mad_rpc_free(rpc);
	mad_transport_close(tr);
	sim_fabric_free(f);
}
END_TEST

START_TEST(too_many_lids_is_a_clear_error)
{
	struct sm sm;

	/* 128 LIDs per CA port at LMC 7: the 2-switch example has 5 CA ports, fine;
	 * a fabric of 400 CAs would need 51,200.  Build that one. */
	struct topo t;
	struct sim_fabric *f;
	topo_init(&t);
	uint32_t sw[2];
	for (int i = 0; i < 2; i++)
		sw[i] = topo_add_node(&t, MAD_NODE_SWITCH, 254, 0x100 + (uint64_t)i);
	ck_assert_int_eq(topo_link(&t, sw[0], 254, sw[1], 254), 0);
	for (unsigned h = 0; h < 400; h++) {
		uint32_t n = topo_add_node(&t, MAD_NODE_CA, 1, 0x10000 + h);
		ck_assert_int_eq(topo_link(&t, sw[h % 2], (uint8_t)(h / 2 + 1), n, 1), 0);
	}
	ck_assert_int_eq(sim_fabric_from_topo(&t, &f), 0);
	topo_free(&t);

	memset(&sm, 0, sizeof(sm));
	ck_assert_int_eq(sm_init(&sm), 0);
	sm_config_defaults(&sm.cfg);
	sm.cfg.lmc = 7;
	snprintf(sm.cfg.db_path, sizeof(sm.cfg.db_path), "%s", dbpath);
	char err[256];
	ck_assert_int_eq(db_open(dbpath, DB_WRITER, &sm.db, err, sizeof(err)), 0);
	ck_assert_int_eq(sim_transport_new(f, &sm.t), 0);
	struct mad_rpc_opts ro = { .window = 64, .per_node = 4, .timeout_ms = 50, .retries = 1 };
	sm.rpc = mad_rpc_new(sm.t, &ro);
	sm_state_event(&sm, SM_EV_PORT_READY, "test");
	ck_assert_int_eq(sm_sweep_heavy(&sm), -ENOSPC);
	sm_close(&sm);
	sim_fabric_free(f);
}
END_TEST

/*
 * ftree on a heavily cut 3-level radix-8 tree turns some routes down-then-up,
 * on SLs above 0 (routing/rt_ftree.c): the sweep maps SL n to VL n, so every
 * switch on such a route carries it on the VL of its SL; a second sweep reads
 * the tables and sets none.  A whole tree sends no SL2VL SMP at all.  The
 * turned routes are found by running ftree again on the SM's fabric.
 */
/*
 * VL15 has no flow control: a switch drops SMPs beyond its buffer.  With the
 * buffer as small as the SM's per-node cap, a whole bring-up of 36-port
 * switches (discovery asks ~38 questions of each in a row) loses nothing.
 */
START_TEST(vl15_buffers_are_not_overrun)
{
	struct sim_stats st;
	struct sm sm;

	sm_start_file(&sm, "real/cluster144-sx6036-2level.topo");
	sim_set_smp_buffer(fab(&sm), sm.cfg.smps_per_node);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	sim_get_stats(fab(&sm), &st);
	ck_assert_uint_eq(st.overflows, 0);
	ck_assert_uint_eq(st.dropped, 0);
	sm_close(&sm);
}
END_TEST

/* Set(ACTIVE) on a port that went ACTIVE by itself answers 0x1C; a Get that
 * shows it Active makes that a success, as OpenSM does. */
START_TEST(port_active_by_itself_is_no_failure)
{
	struct sm sm;

	sm_start_file(&sm, "twoswitch.topo");
	sim_set_arm_to_active(fab(&sm), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

/* The SM on port 1 of a dual-ported CA: its port 2 takes Sets only on its
 * own fabric path (hop 0 reaches port 1 alone), and comes up like any other. */
START_TEST(other_port_of_the_sms_own_ca)
{
	char spec[480];
	struct mad_port_info pi;
	struct sm sm;

	snprintf(spec, sizeof(spec), "sim:%.400s,host=HD:1", topo_path("twoswitch.topo"));
	sm_start(&sm, spec);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	const struct topo *t = sim_fabric_topo(fab(&sm));
	ck_assert_int_eq(sim_get_port_info(fab(&sm), topo_find_name(t, "HD"), 2, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ACTIVE);
	ck_assert_uint_ne(pi.lid, 0);
	ck_assert_uint_eq(pi.neighbor_mtu, 4);
	sm_close(&sm);
}
END_TEST

/* A port whose peer never answered is left alone (ibsmd(8)): not armed or
 * activated without a neighbour to take its MTU and VLs from. */
START_TEST(port_without_a_peer_is_left_alone)
{
	struct mad_port_info pi;
	struct sm sm;

	sm_start_file(&sm, "twoswitch.topo");
	const struct topo *t = sim_fabric_topo(fab(&sm));
	uint32_t h3 = topo_find_name(t, "H3"), sb = topo_find_name(t, "SB");
	ck_assert_int_eq(sim_node_dead(fab(&sm), h3, true), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sim_get_port_info(fab(&sm), sb, 2, &pi), 0);
	ck_assert_uint_eq(pi.phys_state, MAD_PHYS_LINKUP);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_INIT);
	ck_assert_int_eq(sim_get_port_info(fab(&sm), sb, 1, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ACTIVE);
	/* it answers again: the next sweep brings it up */
	ck_assert_int_eq(sim_node_dead(fab(&sm), h3, false), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

START_TEST(sl2vl_follows_the_routes_sls)
{
	const char *trees[] = { "--remove-links 40 --seed 1", "" };	/* cut, whole */
	char cmd[1200], spec[700], err[128];
	struct sim_stats first, second;
	struct sm sm;

	for (unsigned i = 0; i < 2; i++) {
		snprintf(dbpath, sizeof(dbpath), "%s/tree%u.db", dbdir, i);
		snprintf(spec, sizeof(spec), "sim:%s/tree%u.topo", dbdir, i);
		snprintf(cmd, sizeof(cmd), "%s/contrib/topogen/ibsmd-topogen fattree --levels 3 "
			 "--radix 8 %s -o %s", getenv("top_builddir") ? getenv("top_builddir") : ".",
			 trees[i], spec + 4);
		ck_assert_int_eq(system(cmd), 0);
		sm_start(&sm, spec);
		ck_assert_int_eq(sm_config_set_routing(&sm.cfg, "ftree", err, sizeof(err)), 0);
		ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
		assert_subnet_up(fab(&sm));
		sim_get_stats(fab(&sm), &first);
		ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
		sim_get_stats(fab(&sm), &second);
		printf("ftree, 3-level radix-8 tree %s: SL2VL %llu Gets + %llu Sets, then "
		       "%llu Gets + %llu Sets\n", i ? "(whole)" : trees[i],
		       (unsigned long long)first.sl2vl_gets,
		       (unsigned long long)first.sl2vl_sets,
		       (unsigned long long)(second.sl2vl_gets - first.sl2vl_gets),
		       (unsigned long long)(second.sl2vl_sets - first.sl2vl_sets));
		ck_assert_uint_eq(second.sets, first.sets);
		if (i == 1) {	/* the whole tree: all routes on SL 0 */
			ck_assert_uint_eq(second.sl2vl_gets + second.sl2vl_sets, 0);
			sm_close(&sm);
			break;
		}
		ck_assert_uint_gt(first.sl2vl_sets, 0);
		/* set everywhere once: the next sweep does not even read them */
		ck_assert_uint_eq(second.sl2vl_gets, first.sl2vl_gets);

		/* ftree's routes again, on the fabric as the SM saw it */
		const struct topo *t = &sm.fabric.topo, *st = sim_fabric_topo(fab(&sm));
		uint16_t max_lid = 0;
		for (uint32_t n = 0; n < t->n; n++)
			for (unsigned p = 0; p <= t->nodes[n].nports; p++)
				max_lid = t->nodes[n].ports[p].lid > max_lid ? t->nodes[n].ports[p].lid
									      : max_lid;
		struct topo_view m;
		ck_assert_int_eq(topo_view_build(t, max_lid, &m), 0);
		uint8_t **rows = calloc(t->n, sizeof(*rows));
		for (uint32_t n = 0; n < t->n; n++)
			if (t->nodes[n].type == MAD_NODE_SWITCH)
				rows[n] = malloc((size_t)max_lid + 1);
		struct ibsmd_rt_ctx ctx = { .view = &m.v, .lft = rows, .log = sm_log };
		void *state = NULL;
		ck_assert_int_eq(rt_ftree_engine.setup(&ctx, &state), 0);
		ck_assert_int_eq(rt_ftree_engine.compute_unicast(&ctx, state), 0);

		/* every turned CA -> CA route, hop by hop through the sim's tables */
		unsigned turned = 0, hops = 0;
		struct mad_sl2vl tab;
		for (uint32_t a = 0; a < t->n; a++) {
			if (t->nodes[a].type != MAD_NODE_CA)
				continue;
			for (uint32_t b = 0; b < t->n; b++) {
				if (b == a || t->nodes[b].type != MAD_NODE_CA)
					continue;
				uint16_t dlid = t->nodes[b].ports[1].lid;
				uint8_t sl = rt_ftree_engine.path_sl(&ctx, state,
								     t->nodes[a].ports[1].lid, dlid);
				if (sl == 0)
					continue;
				turned++;
				/* the sim numbers nodes in file order, the SM as it found them */
				uint32_t s = topo_find_guid(st, t->nodes[a].guid);
				ck_assert_int_eq(sim_get_sl2vl(fab(&sm), s, 0, 1, &tab), 0);
				ck_assert_uint_eq(tab.vl[sl], sl);
				uint8_t in = st->nodes[s].ports[1].peer_port;
				s = st->nodes[s].ports[1].peer;
				for (unsigned h = 0; st->nodes[s].type == MAD_NODE_SWITCH; h++) {
					ck_assert_uint_lt(h, 64);
					uint8_t out = sim_get_lft(fab(&sm), s, dlid);
					ck_assert_uint_le(out, st->nodes[s].nports);
					ck_assert_int_eq(sim_get_sl2vl(fab(&sm), s, in, out, &tab), 0);
					ck_assert_msg(tab.vl[sl] == sl, "%s %u -> %u: SL %u on VL %u",
						      st->nodes[s].name, in, out, sl, tab.vl[sl]);
					hops++;
					in = st->nodes[s].ports[out].peer_port;
					s = st->nodes[s].ports[out].peer;
				}
				ck_assert_uint_eq(st->nodes[s].guid, t->nodes[b].guid);
			}
		}
		printf("  %u turned CA -> CA routes, %u switch hops checked\n", turned, hops);
		ck_assert_uint_gt(turned, 0);
		rt_ftree_engine.destroy(state);
		for (uint32_t n = 0; n < t->n; n++)
			free(rows[n]);
		free(rows);
		topo_view_free(&m);
		sm_close(&sm);
	}
}
END_TEST

static Suite *sweep_suite(void)
{
	Suite *s = suite_create("sm_sweep");
	TCase *tc = tcase_create("sweep");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_add_test(tc, brings_up_and_second_sweep_is_quiet);
	tcase_add_test(tc, lfts_stored_while_sent_are_confirmed);
	tcase_add_test(tc, lids_survive_a_restart);
	tcase_add_test(tc, real_cluster_with_sm_on_a_switch);
	tcase_add_test(tc, link_down_trap_resweeps_around_it);
	tcase_add_test(tc, only_a_generic_trap_128_sweeps_once_a_second);
	tcase_add_test(tc, silent_nodes_are_recorded_and_skipped);
	tcase_add_test(tc, duplicate_guid_is_an_error_not_a_merge);
	tcase_add_test(tc, duplicate_port_guids_keep_their_lids);
	tcase_add_test(tc, routing_options_reach_the_engines);
	tcase_add_test(tc, sweeps_are_recorded_whole);
	tcase_add_test(tc, lossy_links_converge_over_sweeps);
	tcase_add_test(tc, a_lost_probe_keeps_a_known_link);
	tcase_add_test(tc, hop_limit_is_recorded);
	tcase_add_test(tc, too_many_lids_is_a_clear_error);
	tcase_add_test(tc, sl2vl_follows_the_routes_sls);
	tcase_add_test(tc, vl15_buffers_are_not_overrun);
	tcase_add_test(tc, port_active_by_itself_is_no_failure);
	tcase_add_test(tc, other_port_of_the_sms_own_ca);
	tcase_add_test(tc, port_without_a_peer_is_left_alone);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(sweep_suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_perf_pma.c - the performance manager and what a PMA says of
 * itself, on the sim backend (port0.topo: SA has an enhanced port 0, SB a
 * base one): PortXmitWait is stored as time with the node's
 * PortSamplesControl.Tick (set by the sim's API or its pma-tick event), in
 * the store and the metrics; a node that answers no PortSamplesControl keeps
 * the 4 ns default and is not asked again; the worst ticks (0, 255) and a
 * tick its counter belies; rebalancing sees the waiting time whatever the
 * tick; switch port 0 is sampled where the PMA has one and goes to neither
 * isolation nor rebalancing; the sim's PMA refuses what hardware does.
 * quantum.topo: an NVIDIA Quantum's tick is octets of the whole port (a
 * port waiting half the time is stored as half, not fallen back), a ConnectX
 * host's and another vendor's switch's IBA's symbol times, in the sim too.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/mad_perf.h"
#include "sm/telemetry/sm_perf_feed.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"
#include "sm/telemetry/sm_rebalance.h"

#define INTERVAL_US 20000	/* between two passes */

static struct sm sm;

static void setup(void)
{
	fixture_setup();
	sm_start_file(&sm, "port0.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
}

static void teardown(void)
{
	sm_close(&sm);
	fixture_teardown();
}

static uint32_t node(const char *name)
{
	return sim_node_named(&sm, name);
}

static uint64_t guid(const char *name)
{
	return sim_fabric_topo(fab(&sm))->nodes[node(name)].guid;
}

static void add_wait(const char *name, uint8_t port, uint64_t ticks)
{
	ck_assert_int_eq(sim_perf_add(fab(&sm), node(name), port,
				      &(struct sim_perf_delta){ .xmit_wait = ticks }), 0);
}

static struct sm_perf_stats pass(void)
{
	struct sm_perf_stats st;

	ck_assert_int_eq(sm_perf_pass(&sm, NULL, NULL, &st), 0);
	ck_assert_uint_eq(st.failed, 0);
	return st;
}

/* The store's running totals of port @port of @name. */
static struct db_port_counts total(const char *name, uint8_t port)
{
	return counters_total(&sm, guid(name), port).last.c;
}

/* The newest stored delta of port @port of @name. */
static struct db_port_counts latest(const char *name, uint8_t port)
{
	return counters_latest(&sm, guid(name), port).last.c;
}

/* The value of the metrics sample of @family for port @port of @name, or -1
 * (ibsmd's names, labelled with the node's GUID, on every port). */
static long long metric(const char *family, const char *name, uint8_t port)
{
	const struct db_metrics_opts o = {
		.names = DB_METRICS_NAMES_IBSMD,
		.ports = DB_METRICS_SWITCH_SWITCH | DB_METRICS_SWITCH_CA | DB_METRICS_CA,
		.groups = DB_METRICS_WAIT | DB_METRICS_ERRORS,
	};
	char *buf = NULL, want[96];
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	long long v = -1;

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(db_metrics_print(sm.db, out, 0, &o, NULL), 0);
	fclose(out);
	snprintf(want, sizeof(want), "%s{guid=\"0x%016llx\",port=\"%u\",", family,
		 (unsigned long long)guid(name), port);
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (!strncmp(line, want, strlen(want)))
			v = atoll(strrchr(line, ' ') + 1);
	free(buf);
	return v;
}

/* The sim's links train to QDR, a symbol time of 1 ns: Tick 15 is 16 ns, 100
 * ticks are stored as 400 units of 4 ns; 100 ticks of the default Tick 0 are
 * 100 ns, 25 units. */
START_TEST(stored_wait_uses_the_nodes_tick)
{
	ck_assert_int_eq(sim_perf_set_tick(fab(&sm), node("SA"), 15), 0);
	add_wait("SA", 3, 100);
	add_wait("H0", 1, 100);
	struct sm_perf_stats st = pass();
	ck_assert_uint_eq(st.psc, 7);
	ck_assert_uint_eq(total("SA", 3).xmit_wait, 400);
	ck_assert_uint_eq(total("H0", 1).xmit_wait, 25);
	ck_assert_int_eq(metric("infiniband_port_transmit_wait_total", "SA", 3), 400);
	ck_assert_int_eq(metric("infiniband_port_transmit_wait_total", "H0", 1), 25);
	/* the tick was read once: a later pass asks no PortSamplesControl */
	usleep(INTERVAL_US);
	add_wait("SA", 3, 1);
	st = pass();
	ck_assert_uint_eq(st.psc, 0);
	ck_assert_uint_eq(latest("SA", 3).xmit_wait, 4);
	ck_assert_uint_eq(total("SA", 3).xmit_wait, 404);
}
END_TEST

/* The sim's pma-tick event sets a node's tick; a rate's waiting time comes
 * back as the same time whatever tick counted it. */
START_TEST(tick_from_the_event_file)
{
	char path[300], err[256];
	snprintf(path, sizeof(path), "%s/events", dbdir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("0 pma-tick \"H2\" 7   # 8 ns ticks at QDR\n", f);
	fclose(f);
	ck_assert_int_eq(sim_events_load(fab(&sm), path, err, sizeof(err)), 0);
	add_wait("H2", 1, 5);
	pass();
	ck_assert_uint_eq(total("H2", 1).xmit_wait, 5 * 2);
	/* 1 ms waited per ms on H2 and on H3 (tick 0) */
	const struct sim_perf_rate busy = { .xmit_wait_ns = 1e6 };
	ck_assert_int_eq(sim_perf_set_rate(fab(&sm), node("H2"), 1, &busy), 0);
	ck_assert_int_eq(sim_perf_set_rate(fab(&sm), node("H3"), 1, &busy), 0);
	usleep(INTERVAL_US);
	pass();
	uint64_t h2 = latest("H2", 1).xmit_wait, h3 = latest("H3", 1).xmit_wait;
	ck_assert_uint_gt(h3, (INTERVAL_US / 1000) * 250000 - 1);	/* 4 ns units */
	/* the same time within a quarter (the two ports are read at slightly
	 * different moments, further apart on a loaded machine); the tick
	 * ignored would make them 8x apart */
	ck_assert_uint_lt(h2 > h3 ? h2 - h3 : h3 - h2, h3 / 4);
}
END_TEST

/* A PMA that refuses PortSamplesControl keeps the 4 ns default and is not
 * asked again; one that drops it is asked three times, then the same. */
START_TEST(no_samples_control_keeps_the_default)
{
	ck_assert_int_eq(sim_perf_set_tick(fab(&sm), node("H1"), SIM_PSC_REFUSED), 0);
	ck_assert_int_eq(sim_perf_set_tick(fab(&sm), node("H2"), SIM_PSC_SILENT), 0);
	add_wait("H1", 1, 7);
	add_wait("H2", 1, 9);
	ck_assert_uint_eq(pass().psc, 7);
	ck_assert_uint_eq(total("H1", 1).xmit_wait, 7);
	ck_assert_uint_eq(total("H2", 1).xmit_wait, 9);
	ck_assert_uint_eq(pass().psc, 1);	/* H2 again */
	ck_assert_uint_eq(pass().psc, 1);
	ck_assert_uint_eq(pass().psc, 0);	/* three times unanswered: the default */
	ck_assert_int_eq(sim_perf_set_tick(fab(&sm), node("H1"), 256), -EINVAL);
	ck_assert_int_eq(sim_perf_set_tick(fab(&sm), node("H1"), -3), -EINVAL);
}
END_TEST

/* Tick 0 and 255 are both lengths (1 ns and 256 ns at QDR); a tick that
 * would have the port wait longer than the interval is absurd: the node
 * falls back to 4 ns ticks for good. */
START_TEST(worst_ticks)
{
	ck_assert_int_eq(sim_perf_set_tick(fab(&sm), node("H3"), 0), 0);
	ck_assert_int_eq(sim_perf_set_tick(fab(&sm), node("HD"), 255), 0);
	pass();			/* first samples */
	usleep(INTERVAL_US);
	add_wait("H3", 1, 10);
	add_wait("HD", 1, 10);
	pass();
	ck_assert_uint_eq(latest("H3", 1).xmit_wait, 2);		/* 10 ns */
	ck_assert_uint_eq(latest("HD", 1).xmit_wait, 10 * 64);	/* 2.56 us */
	/* 4 * 10^6 ticks of 256 ns is 1.02 s, in a 20 ms interval (below a
	 * second however slow the machine): absurd; of 4 ns, 16 ms */
	usleep(INTERVAL_US);
	add_wait("HD", 2, 4000000);
	pass();
	ck_assert_uint_eq(latest("HD", 2).xmit_wait, 4000000);
	usleep(INTERVAL_US);
	add_wait("HD", 1, 10);	/* the other port of the node too */
	pass();
	ck_assert_uint_eq(latest("HD", 1).xmit_wait, 10);
	/* more than the interval even at 4 ns: no more than all of it */
	usleep(INTERVAL_US);
	add_wait("H3", 1, 2000000000u);
	pass();
	uint64_t w = latest("H3", 1).xmit_wait;
	ck_assert_uint_le(w, 250000ull * 1000);		/* a second at most */
	ck_assert_uint_ge(w, 250000ull * (INTERVAL_US / 1000));
}
END_TEST

/* SA's enhanced port 0 is sampled and stored (not in the metrics: no link);
 * SB's base port 0 is not.  Errors and waiting there isolate nothing and
 * rebalance nothing. */
START_TEST(switch_port0_sampled_never_a_link)
{
	struct sm_perf_stats st;

	sm.cfg.rebalance_enable = true;
	ck_assert_int_eq(sm_perf_feed_pass(&sm, NULL, NULL, &st), 0);
	ck_assert_uint_eq(st.ports, 17);	/* 16 linked ports and SA's port 0 */
	ck_assert_uint_eq(st.failed, 0);
	ck_assert_int_eq(sim_perf_add(fab(&sm), node("SA"), 0,
				      &(struct sim_perf_delta){ .symbol_errors = 5000,
								.link_downed = 9,
								.xmit_data = 1000,
								.xmit_wait = 4000000 }), 0);
	for (int i = 0; i < 3; i++) {
		usleep(INTERVAL_US);
		ck_assert_int_eq(sm_perf_feed_pass(&sm, NULL, NULL, &st), 0);
		ck_assert_uint_eq(st.failed, 0);
	}
	struct port_rows f = counters_total(&sm, guid("SA"), 0);
	ck_assert_uint_eq(f.rows, 1);
	ck_assert_uint_eq(f.last.c.symbol_errors, 5000);
	ck_assert_uint_eq(f.last.c.xmit_data, 1000);
	ck_assert_uint_eq(counters_total(&sm, guid("SB"), 0).rows, 0);
	/* stored, but no link: not in the metrics */
	ck_assert_int_eq(metric("infiniband_port_symbol_error_total", "SA", 0), -1);
	ck_assert_int_eq(metric("infiniband_port_symbol_error_total", "SA", 3), 0);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_LINK_ISOLATED), 0);
	ck_assert_int_eq(events_of_kind(&sm, DB_EV_ROUTE_MOVED), 0);
	ck_assert(!sm.sweep_due);
}
END_TEST

/* Other work falls due after @ctx's count of questions (a pass cut short
 * keeps its loads for rebalancing to judge later). */
static bool stop_after(void *ctx)
{
	return --*(int *)ctx < 0;
}

/* Rebalancing gets PortXmitWait as time whatever the tick: ports waiting half
 * the time, on SA (Tick 15, 16 ns) and SB (Tick 0, 1 ns), load 0.5. */
START_TEST(rebalancing_sees_time)
{
	const struct topo *t = sim_fabric_topo(fab(&sm));
	const struct sim_perf_rate half = { .xmit_wait_ns = 5e5 };
	struct sm_perf_stats st;

	sm.cfg.rebalance_enable = true;
	ck_assert_int_eq(sim_perf_set_tick(fab(&sm), node("SA"), 15), 0);
	for (uint8_t p = 1; p <= 6; p++)
		if (t->nodes[node("SA")].ports[p].peer != TOPO_NONE) {
			ck_assert_int_eq(sim_perf_set_rate(fab(&sm), node("SA"), p, &half), 0);
			ck_assert_int_eq(sim_perf_set_rate(fab(&sm), node("SB"), p, &half), 0);
		}
	ck_assert_int_eq(sm_perf_feed_pass(&sm, NULL, NULL, &st), 0);	/* first samples */
	usleep(INTERVAL_US);
	/* 17 questions over the nodes' jobs, then all but the last port: cut
	 * short, the loads are kept */
	int left = 17 + 16;
	ck_assert_int_eq(sm_perf_feed_pass(&sm, stop_after, &left, &st), 0);
	ck_assert(st.partial);
	ck_assert_ptr_nonnull(sm.rebalance->load);
	unsigned seen[2] = { 0, 0 };
	const char *sw[2] = { "SA", "SB" };
	for (int i = 0; i < 2; i++) {
		uint32_t n = topo_find_guid(&sm.fabric.topo, guid(sw[i]));
		ck_assert_uint_ne(n, TOPO_NONE);
		for (uint8_t p = 1; sm.rebalance->load[n] && p <= 6; p++) {
			double load = sm.rebalance->load[n][p];
			if (load == 0)
				continue;	/* uncabled, or the port cut */
			ck_assert_msg(load > 0.4 && load < 0.65, "%s[%u] load %.3f", sw[i], p, load);
			seen[i]++;
		}
	}
	ck_assert_uint_gt(seen[0], 0);
	ck_assert_uint_gt(seen[1], 0);
}
END_TEST

/* Send @pm to the PMA at LID @lid and read its answer back into @pm. */
static void ask(uint16_t lid, struct mad_perf *pm)
{
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_transport *tr = sm.t;
	struct mad_addr to = { .lid = lid, .qpn = MAD_PERF_QPN }, from;

	mad_perf_encode(pm, buf);
	ck_assert_int_eq(tr->ops->send(tr, buf, &to), 0);
	ck_assert_int_eq(mad_transport_recv_mad(tr, buf, &from, 100), 0);
	ck_assert_int_eq(mad_perf_decode(buf, sizeof(buf), pm), 0);
	ck_assert_uint_eq(pm->method, MAD_METHOD_GET_RESP);
}

static uint16_t lid_of(const char *name)
{
	struct mad_port_info pi;
	const struct topo_node *tn = &sim_fabric_topo(fab(&sm))->nodes[node(name)];

	ck_assert_int_eq(sim_get_port_info(fab(&sm), node(name),
					   tn->type == MAD_NODE_SWITCH ? 0 : 1, &pi), 0);
	return pi.lid;
}

/* The sim's PMA: PortSelect 0 only on an enhanced port 0; PortSamplesControl
 * with the node's Tick, or refused by a node that has none. */
START_TEST(sim_pma_is_strict)
{
	struct mad_perf pm;
	struct mad_port_samples_control psc;

	mad_perf_init(&pm, MAD_METHOD_GET, MAD_PERF_ATTR_PORT_COUNTERS);
	pm.data[1] = 0;
	ask(lid_of("SB"), &pm);
	ck_assert_uint_eq(pm.status, MAD_STATUS_INVALID_FIELD);
	mad_perf_init(&pm, MAD_METHOD_GET, MAD_PERF_ATTR_PORT_COUNTERS);
	ask(lid_of("SA"), &pm);
	ck_assert_uint_eq(pm.status, 0);
	ck_assert_int_eq(sim_perf_add(fab(&sm), node("SB"), 0,
				      &(struct sim_perf_delta){ .xmit_wait = 1 }), -EINVAL);

	ck_assert_int_eq(sim_perf_set_tick(fab(&sm), node("SB"), 255), 0);
	mad_perf_init(&pm, MAD_METHOD_GET, MAD_PERF_ATTR_PORT_SAMPLES_CONTROL);
	pm.data[1] = 3;
	ask(lid_of("SB"), &pm);
	ck_assert_uint_eq(pm.attr_id, MAD_PERF_ATTR_PORT_SAMPLES_CONTROL);
	ck_assert_uint_eq(pm.status, 0);
	mad_port_samples_control_decode(pm.data, &psc);
	ck_assert_uint_eq(psc.tick, 255);
	ck_assert_uint_eq(psc.port_select, 3);
	mad_perf_init(&pm, MAD_METHOD_GET, MAD_PERF_ATTR_PORT_SAMPLES_CONTROL);
	pm.data[1] = 9;		/* SB has 8 ports */
	ask(lid_of("SB"), &pm);
	ck_assert_uint_eq(pm.status, MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(sim_perf_set_tick(fab(&sm), node("H0"), SIM_PSC_REFUSED), 0);
	mad_perf_init(&pm, MAD_METHOD_GET, MAD_PERF_ATTR_PORT_SAMPLES_CONTROL);
	pm.data[1] = 1;
	ask(lid_of("H0"), &pm);
	ck_assert_uint_eq(pm.status, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
}
END_TEST

/* ---- quantum.topo: ticks by device ---- */

static void setup_quantum(void)
{
	fixture_setup();
	sm_start_file(&sm, "quantum.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	/* Q1 reports Tick 7 by itself, as a Quantum does; the others are
	 * told to, so all three read alike */
	static const char *const tick7[] = { "OS", "CX" };
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(sim_perf_set_tick(fab(&sm), node(tick7[i]), 7), 0);
}

/* Tick 7 on 4xHDR links: a Quantum's tick is 8 octets of the port, 320 ps;
 * anyone else's 8 symbol times, 1280 ps.  Q1 port 3 counts 31.25 * 10^6
 * ticks, 10 ms (2.5 * 10^6 units): half a 20 ms interval, 40 ms read by
 * IBA's rule, which would be absurd and fall back to 4 ns ticks. */
START_TEST(quantum_ticks_are_port_octets)
{
	pass();			/* first samples */
	usleep(INTERVAL_US);
	add_wait("Q1", 3, 31250000);
	add_wait("OS", 1, 1000);
	add_wait("CX", 1, 1000);
	pass();
	ck_assert_uint_eq(latest("Q1", 3).xmit_wait, 2500000);
	ck_assert_uint_eq(total("Q1", 3).xmit_wait, 2500000);
	ck_assert_int_eq(metric("infiniband_port_transmit_wait_total", "Q1", 3), 2500000);
	ck_assert_uint_eq(latest("OS", 1).xmit_wait, 1000 * 1280 / 4000);
	ck_assert_uint_eq(latest("CX", 1).xmit_wait, 1000 * 1280 / 4000);
	/* Q1's tick stands: not fallen back to 4 ns */
	usleep(INTERVAL_US);
	add_wait("Q1", 1, 100);
	pass();
	ck_assert_uint_eq(latest("Q1", 1).xmit_wait, 100 * 320 / 4000);
}
END_TEST

/* The ratio of port @port of @name's newest stored wait to its interval. */
static double waited_share(const char *name, uint8_t port)
{
	struct db_port_row r = counters_latest(&sm, guid(name), port).last;

	ck_assert_uint_gt(r.interval_ms, 0);
	return (double)r.c.xmit_wait * SM_PERF_WAIT_UNIT_PS / 1e9 / r.interval_ms;
}

/* The sim counts a rate's waiting time by the same rule: ports of Q1 and CX
 * waiting half the time are stored as half of it (a sim counting IBA's ticks
 * on Q1 would show an eighth: a quarter of the ticks, each read as 320 ps). */
START_TEST(quantum_sim_counts_by_device)
{
	const struct sim_perf_rate half = { .xmit_wait_ns = 5e5 };

	ck_assert_int_eq(sim_perf_set_rate(fab(&sm), node("Q1"), 3, &half), 0);
	ck_assert_int_eq(sim_perf_set_rate(fab(&sm), node("CX"), 1, &half), 0);
	pass();
	usleep(2 * INTERVAL_US);
	pass();
	const char *names[] = { "Q1", "CX" };
	const uint8_t ports[] = { 3, 1 };
	for (int i = 0; i < 2; i++) {
		double share = waited_share(names[i], ports[i]);
		ck_assert_msg(share > 0.4 && share < 0.6, "%s[%u] waited %.3f", names[i],
			      ports[i], share);
		ck_assert_int_eq(metric("infiniband_port_transmit_wait_total", names[i], ports[i]),
				 (long long)total(names[i], ports[i]).xmit_wait);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_perf_pma");
	TCase *tc = tcase_create("pma");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, stored_wait_uses_the_nodes_tick);
	tcase_add_test(tc, tick_from_the_event_file);
	tcase_add_test(tc, no_samples_control_keeps_the_default);
	tcase_add_test(tc, worst_ticks);
	tcase_add_test(tc, switch_port0_sampled_never_a_link);
	tcase_add_test(tc, rebalancing_sees_time);
	tcase_add_test(tc, sim_pma_is_strict);
	suite_add_tcase(s, tc);
	tc = tcase_create("quantum");
	tcase_add_checked_fixture(tc, setup_quantum, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, quantum_ticks_are_port_octets);
	tcase_add_test(tc, quantum_sim_counts_by_device);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

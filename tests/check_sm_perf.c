// SPDX-License-Identifier: MIT
/*
 * check_sm_perf.c - the performance manager on the sim backend: a pass
 * samples every linked port through the simulated PMAs, the store's deltas
 * and totals equal what the devices counted, counters near saturation are
 * cleared and the clear is accounted for, a PMA without
 * PortCountersExtended is read from its 32-bit counters (and one with no
 * capability bits at all), the sample hook
 * sees every port, and a due sweep or other work cuts a pass short, to be
 * resumed where it stopped.
 */
#include <check.h>
#include <string.h>

#include "sm/telemetry/sm_perf.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

static struct sm sm;

static void setup(void)
{
	sm_fixture_swept(&sm, "twoswitch.topo");
}

static void teardown(void)
{
	sm_fixture_stop(&sm);
}

static uint32_t node(const char *name)
{
	uint32_t i = topo_find_name(sim_fabric_topo(fab(&sm)), name);

	ck_assert_uint_ne(i, TOPO_NONE);
	return i;
}

static uint64_t guid(const char *name)
{
	return sim_fabric_topo(fab(&sm))->nodes[node(name)].guid;
}

static void add(const char *name, uint8_t port, const struct sim_perf_delta *d)
{
	ck_assert_int_eq(sim_perf_add(fab(&sm), node(name), port, d), 0);
}

static struct sm_perf_stats pass(void)
{
	struct sm_perf_stats st;

	ck_assert_int_eq(sm_perf_pass(&sm, NULL, NULL, &st), 0);
	return st;
}

static int count_any(void *arg, const struct db_port_row *r)
{
	(void)r;
	++*(unsigned *)arg;
	return 0;
}

static struct port_rows latest(const char *name, uint8_t port)
{
	return counters_latest(&sm, guid(name), port);
}

static struct port_rows total(const char *name, uint8_t port)
{
	return counters_total(&sm, guid(name), port);
}

START_TEST(pass_reads_what_the_ports_counted)
{
	struct sim_stats ss;

	add("SA", 3, &(struct sim_perf_delta){ .xmit_data = 1000, .xmit_pkts = 10,
					       .symbol_errors = 5, .xmit_wait = 7 });
	struct sm_perf_stats st = pass();
	ck_assert_uint_eq(st.ports, 16);	/* every linked port of the fabric */
	ck_assert_uint_eq(st.failed, 0);
	ck_assert_uint_eq(st.cpi, 7);		/* one ClassPortInfo per node */
	ck_assert_uint_eq(st.psc, 7);		/* and one PortSamplesControl */
	sim_get_stats(fab(&sm), &ss);
	ck_assert_uint_eq(ss.perf_in, 2 * 7 + 2 * 16);	/* + PortCounters and Extended */
	struct port_rows f = total("SA", 3);
	ck_assert_uint_eq(f.rows, 1);
	ck_assert_uint_eq(f.last.c.xmit_data, 1000);
	ck_assert_uint_eq(f.last.c.symbol_errors, 5);
	ck_assert_uint_eq(f.last.c.xmit_wait, 1);	/* 7 ticks of 1 ns (Tick 0, QDR):
							 * one 4 ns unit, 3 ns carried */

	/* the next pass stores the delta only, and asks no ClassPortInfo again */
	add("SA", 3, &(struct sim_perf_delta){ .xmit_data = 500, .symbol_errors = 2 });
	st = pass();
	ck_assert_uint_eq(st.cpi, 0);
	ck_assert_uint_eq(st.psc, 0);
	f = latest("SA", 3);
	ck_assert_uint_eq(f.rows, 1);
	ck_assert_uint_eq(f.last.c.xmit_data, 500);
	ck_assert_uint_eq(f.last.c.symbol_errors, 2);
	ck_assert_uint_eq(f.last.c.xmit_wait, 0);
	ck_assert_uint_gt(f.last.interval_ms, 0);
	ck_assert_uint_eq(latest("SB", 3).rows, 0);	/* idle ports store no row */
	f = total("SA", 3);
	ck_assert_uint_eq(f.last.c.xmit_data, 1500);
	ck_assert_uint_eq(f.last.c.symbol_errors, 7);
}
END_TEST

/* A counter past half its range is cleared; the next delta counts from zero. */
START_TEST(near_saturation_is_cleared)
{
	struct mad_port_counters pc;
	struct mad_port_counters_ext pce;

	add("SB", 5, &(struct sim_perf_delta){ .symbol_errors = 40000, .xmit_data = 9 });
	struct sm_perf_stats st = pass();
	ck_assert_uint_eq(st.cleared, 1);
	ck_assert_int_eq(sim_perf_get(fab(&sm), node("SB"), 5, &pc, &pce), 0);
	ck_assert_uint_eq(pc.symbol_errors, 0);
	ck_assert_uint_eq(pce.xmit_data, 9);	/* the extended counters are not touched */
	add("SB", 5, &(struct sim_perf_delta){ .symbol_errors = 10, .xmit_data = 1 });
	st = pass();
	ck_assert_uint_eq(st.cleared, 0);
	ck_assert_uint_eq(latest("SB", 5).last.c.symbol_errors, 10);
	ck_assert_uint_eq(latest("SB", 5).last.c.xmit_data, 1);
	ck_assert_uint_eq(total("SB", 5).last.c.symbol_errors, 40010);
	ck_assert_uint_eq(total("SB", 5).last.c.xmit_data, 10);
}
END_TEST

/* Every other counter of both attributes reaches the store too; a 4-bit
 * counter (LocalLinkIntegrityErrors) past 7 is cleared like the others. */
START_TEST(every_counter_is_stored)
{
	add("SA", 5, &(struct sim_perf_delta){
		.rcv_remote_phys_errors = 1, .rcv_switch_relay_errors = 2,
		.xmit_constraint_errors = 3, .rcv_constraint_errors = 4,
		.local_link_integrity_errors = 9, .excessive_buffer_overrun_errors = 6,
		.vl15_dropped = 7, .xmit_pkts = 10, .multicast_xmit_pkts = 5,
		.multicast_rcv_pkts = 8 });
	struct sm_perf_stats st = pass();
	ck_assert_uint_eq(st.cleared, 1);
	struct db_port_counts c = total("SA", 5).last.c;
	ck_assert_uint_eq(c.rcv_remote_phys_errors, 1);
	ck_assert_uint_eq(c.rcv_switch_relay_errors, 2);
	ck_assert_uint_eq(c.xmit_constraint_errors, 3);
	ck_assert_uint_eq(c.rcv_constraint_errors, 4);
	ck_assert_uint_eq(c.local_link_integrity_errors, 9);
	ck_assert_uint_eq(c.excessive_buffer_overrun_errors, 6);
	ck_assert_uint_eq(c.vl15_dropped, 7);
	ck_assert_uint_eq(c.xmit_pkts, 15);
	ck_assert_uint_eq(c.unicast_xmit_pkts, 10);
	ck_assert_uint_eq(c.multicast_xmit_pkts, 5);
	ck_assert_uint_eq(c.multicast_rcv_pkts, 8);
	ck_assert_uint_eq(c.rcv_pkts, 8);
	/* counted from zero after the clear: 2 more, not 2 - 9 */
	add("SA", 5, &(struct sim_perf_delta){ .local_link_integrity_errors = 2,
					       .vl15_dropped = 1 });
	st = pass();
	ck_assert_uint_eq(st.cleared, 0);
	c = total("SA", 5).last.c;
	ck_assert_uint_eq(c.local_link_integrity_errors, 11);
	ck_assert_uint_eq(c.vl15_dropped, 8);
	ck_assert_uint_eq(latest("SA", 5).last.c.vl15_dropped, 1);
}
END_TEST

/* Without PortCountersExtended the 32-bit counters are read, and cleared
 * before they stick at 2^32 - 1. */
START_TEST(no_extended_counters)
{
	struct sim_stats before, after;

	ck_assert_int_eq(sim_perf_set_caps(fab(&sm), node("H1"), MAD_PERF_CAP_XMIT_WAIT), 0);
	add("H1", 1, &(struct sim_perf_delta){ .rcv_data = 3000000000u, .rcv_pkts = 4 });
	sim_get_stats(fab(&sm), &before);
	struct sm_perf_stats st = pass();
	sim_get_stats(fab(&sm), &after);
	ck_assert_uint_eq(after.perf_in - before.perf_in, 2 * 7 + 2 * 16 - 1 + 1);	/* + the clear */
	ck_assert_uint_eq(st.cleared, 1);
	ck_assert_uint_eq(latest("H1", 1).last.c.rcv_data, 3000000000u);
	add("H1", 1, &(struct sim_perf_delta){ .rcv_data = 3000000000u });
	pass();
	add("H1", 1, &(struct sim_perf_delta){ .rcv_data = 5 });
	pass();
	ck_assert_uint_eq(latest("H1", 1).last.c.rcv_data, 5);
	ck_assert_uint_eq(total("H1", 1).last.c.rcv_data, 6000000005u);
}
END_TEST

/* A PMA whose CapabilityMask is 0 is asked ClassPortInfo once, then read. */
START_TEST(pma_without_capabilities)
{
	ck_assert_int_eq(sim_perf_set_caps(fab(&sm), node("H2"), 0), 0);
	add("H2", 1, &(struct sim_perf_delta){ .xmit_data = 12 });
	struct sm_perf_stats st = pass();
	ck_assert_uint_eq(st.ports, 16);
	ck_assert_uint_eq(total("H2", 1).last.c.xmit_data, 12);
	st = pass();
	ck_assert_uint_eq(st.cpi, 0);
	ck_assert_uint_eq(st.ports, 16);
}
END_TEST

struct seen {
	unsigned calls;
	uint64_t errors;
	uint64_t guid;
};

static void hook(void *ctx, const struct db_port_sample *s)
{
	struct seen *sn = ctx;

	sn->calls++;
	if (s->guid == sn->guid && s->port == 2)
		sn->errors += s->delta.symbol_errors + s->delta.link_downed;
}

START_TEST(hook_sees_every_port)
{
	struct seen sn = { .guid = guid("HD") };

	ck_assert_int_eq(sm_perf_set_hook(&sm, hook, &sn), 0);
	pass();
	ck_assert_uint_eq(sn.calls, 16);
	/* a link that goes down counts in LinkDownedCounter at both ends */
	ck_assert_int_eq(sim_link_set(fab(&sm), node("HD"), 2, false), 0);
	ck_assert_int_eq(sim_link_set(fab(&sm), node("HD"), 2, true), 0);
	add("HD", 2, &(struct sim_perf_delta){ .symbol_errors = 3 });
	pass();
	ck_assert_uint_eq(sn.calls, 32);
	ck_assert_uint_eq(sn.errors, 4);
	ck_assert_uint_eq(latest("SB", 6).last.c.link_downed, 1);
	ck_assert_int_eq(sm_perf_set_hook(&sm, NULL, NULL), 0);
	pass();
	ck_assert_uint_eq(sn.calls, 32);
}
END_TEST

struct yield_after {
	unsigned calls, after;
};

static bool yield_after(void *ctx)
{
	struct yield_after *y = ctx;

	return ++y->calls > y->after;
}

static unsigned latest_rows(void)
{
	unsigned n = 0;

	ck_assert_int_eq(db_counters_latest_each(sm.db, count_any, &n), 0);
	return n;
}

/* Other work cuts a pass short; the next call resumes it where it stopped
 * and its rows join the same pass. */
START_TEST(yield_resumes_where_it_stopped)
{
	const struct topo *t = sim_fabric_topo(fab(&sm));
	struct yield_after y = { .after = 16 + 6 };	/* 16 ClassPortInfo, then 6 ports */
	struct sm_perf_stats st;

	for (uint32_t n = 0; n < t->n; n++)
		for (uint8_t p = 1; p <= t->nodes[n].nports; p++)
			if (t->nodes[n].ports[p].peer != TOPO_NONE)
				add(t->nodes[n].name, p, &(struct sim_perf_delta){ .xmit_data = 5 });
	ck_assert_int_eq(sm_perf_pass(&sm, yield_after, &y, &st), 0);
	ck_assert(st.partial);
	unsigned first = st.ports;
	ck_assert_uint_gt(first, 0);
	ck_assert_uint_lt(first, 16);
	ck_assert_uint_eq(latest_rows(), first);
	st = pass();
	ck_assert(!st.partial);
	ck_assert_uint_eq(st.ports, 16 - first);
	ck_assert_uint_eq(latest_rows(), 16);	/* one pass, in two parts */
	/* a heavy sweep in between starts the pass again */
	y = (struct yield_after){ .after = 16 + 3 };
	ck_assert_int_eq(sm_perf_pass(&sm, yield_after, &y, &st), 0);
	ck_assert(st.partial);
	ck_assert_uint_eq(st.ports, 3);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	st = pass();
	ck_assert(!st.partial);
	ck_assert_uint_eq(st.ports, 16);
}
END_TEST

START_TEST(sweep_due_cuts_the_pass)
{
	sm.sweep_due = true;
	struct sm_perf_stats st = pass();
	ck_assert(st.partial);
	ck_assert_uint_eq(st.cpi, 0);
	ck_assert_uint_eq(st.ports, 0);
	sm.sweep_due = false;
}
END_TEST

/* The PMA refuses a port that does not exist, and the pass goes on. */
START_TEST(pma_checks_port_select)
{
	struct mad_perf pm;
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_port_info pi;
	ck_assert_int_eq(sim_get_port_info(fab(&sm), node("SA"), 0, &pi), 0);
	struct mad_addr to = { .lid = pi.lid, .qpn = MAD_PERF_QPN };
	struct mad_transport *tr = sm.t;
	struct mad_addr from;

	mad_perf_init(&pm, MAD_METHOD_GET, MAD_PERF_ATTR_PORT_COUNTERS);
	pm.data[1] = 9;		/* SA has 8 ports */
	mad_perf_encode(&pm, buf);
	ck_assert_int_eq(tr->ops->send(tr, buf, &to), 0);
	ck_assert_int_eq(mad_transport_recv_mad(tr, buf, &from, 100), 0);
	ck_assert_int_eq(mad_perf_decode(buf, sizeof(buf), &pm), 0);
	ck_assert_uint_eq(pm.method, MAD_METHOD_GET_RESP);
	ck_assert_uint_eq(pm.status, MAD_STATUS_INVALID_FIELD);
	ck_assert_uint_eq(from.lid, to.lid);
	ck_assert_uint_eq(pass().ports, 16);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_perf");
	TCase *tc = tcase_create("perf");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, pass_reads_what_the_ports_counted);
	tcase_add_test(tc, near_saturation_is_cleared);
	tcase_add_test(tc, every_counter_is_stored);
	tcase_add_test(tc, no_extended_counters);
	tcase_add_test(tc, pma_without_capabilities);
	tcase_add_test(tc, hook_sees_every_port);
	tcase_add_test(tc, yield_resumes_where_it_stopped);
	tcase_add_test(tc, sweep_due_cuts_the_pass);
	tcase_add_test(tc, pma_checks_port_select);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

// SPDX-License-Identifier: MIT
/*
 * check_rt.c - routing/: min-hop on small hand-made views, the validator's
 * verdicts on tables made to fail, and the fallback chain.
 *
 * The view is a ring of four switches S0..S3 (port 1 to the next, port 2 to
 * the previous, port 3 to a host, port 4 a second, parallel link S0-S1), each
 * with a host Hi on port 3.  Host LIDs are 1..4, switch LIDs 5..8.
 * Plugins run in a child process (rt_sandbox.c): those that crash, hang, exit
 * or write past their rows are contained and the chain falls back.
 */
#include <check.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "routing/rt.h"
#include "tests/check_util.h"

#define NSW 4
#define NN (2 * NSW)
#define MAXLID 8

static struct ibsmd_rt_port ports[NN][5];
static struct ibsmd_rt_node nodes[NN];
static uint32_t lid_node[MAXLID + 1];
static uint8_t lid_port[MAXLID + 1];
static uint32_t switch_node[NSW], node_switch[NN];
static struct ibsmd_rt_view view;
static uint8_t rows[NN][MAXLID + 1];
static uint8_t *lft[NN];
static char last_log[512];
static char all_log[8192];	/* every line since build_ring() */

static void test_log(int prio, const char *fmt, ...)
{
	va_list ap;

	(void)prio;
	va_start(ap, fmt);
	vsnprintf(last_log, sizeof(last_log), fmt, ap);
	va_end(ap);
	size_t n = strlen(all_log);
	snprintf(all_log + n, sizeof(all_log) - n, "%s\n", last_log);
}

static struct ibsmd_rt_ctx ctx = { .view = &view, .lft = lft, .log = test_log };

static void link_ports(uint32_t a, uint8_t pa, uint32_t b, uint8_t pb)
{
	ports[a][pa] = (struct ibsmd_rt_port){ .peer = b, .peer_port = pb };
	ports[b][pb] = (struct ibsmd_rt_port){ .peer = a, .peer_port = pa };
}

static void build_ring(void)
{
	memset(ports, 0, sizeof(ports));
	for (uint32_t n = 0; n < NN; n++)
		for (unsigned p = 0; p < 5; p++)
			ports[n][p].peer = IBSMD_NO_NODE;
	for (uint32_t s = 0; s < NSW; s++) {
		nodes[s] = (struct ibsmd_rt_node){ .guid = 0x10 + s, .type = IBSMD_NODE_SWITCH,
			.nports = 4, .desc = "switch", .ports = ports[s] };
		nodes[NSW + s] = (struct ibsmd_rt_node){ .guid = 0x20 + s, .type = IBSMD_NODE_CA,
			.nports = 1, .desc = "host", .ports = ports[NSW + s] };
		lft[s] = rows[s];
		lft[NSW + s] = NULL;
		switch_node[s] = s;
		node_switch[s] = s;
		node_switch[NSW + s] = IBSMD_NO_NODE;
	}
	for (uint32_t s = 0; s < NSW; s++) {
		link_ports(s, 1, (s + 1) % NSW, 2);
		link_ports(s, 3, NSW + s, 1);
	}
	link_ports(0, 4, 1, 4);
	for (uint32_t l = 0; l <= MAXLID; l++)
		lid_node[l] = IBSMD_NO_NODE;
	for (uint32_t s = 0; s < NSW; s++) {
		ports[NSW + s][1].lid = (uint16_t)(1 + s);
		lid_node[1 + s] = NSW + s;
		lid_port[1 + s] = 1;
		ports[s][0].lid = (uint16_t)(5 + s);
		lid_node[5 + s] = s;
		lid_port[5 + s] = 0;
	}
	view = (struct ibsmd_rt_view){ .nnodes = NN, .nodes = nodes, .max_lid = MAXLID,
		.lid_node = lid_node, .lid_port = lid_port, .nswitches = NSW,
		.switch_node = switch_node, .node_switch = node_switch };
	memset(rows, IBSMD_NO_PORT, sizeof(rows));
	all_log[0] = 0;
}

START_TEST(minhop_routes_shortest_and_spreads)
{
	struct rt_validation res;

	build_ring();
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&ctx, NULL), 0);
	ck_assert_int_eq(rt_validate(&ctx, &res), 0);
	ck_assert_uint_eq(res.pairs, 16);
	/* each switch delivers its own host and itself */
	for (uint32_t s = 0; s < NSW; s++) {
		ck_assert_uint_eq(rows[s][1 + s], 3);
		ck_assert_uint_eq(rows[s][5 + s], 0);
	}
	/* one hop away: the direct ring link (or the parallel one, S0<->S1) */
	ck_assert(rows[2][4] == 1);
	ck_assert(rows[3][3] == 2);
	/* S0 reaches S1's two LIDs over one of the parallel links: S1's own LID
	 * is balanced apart from the CA LIDs (management traffic) */
	ck_assert(rows[0][2] == 1 || rows[0][2] == 4);
	ck_assert(rows[0][6] == 1 || rows[0][6] == 4);
}
END_TEST

START_TEST(validate_finds_holes_and_loops)
{
	struct rt_validation res;

	build_ring();
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&ctx, NULL), 0);
	rows[2][1] = IBSMD_NO_PORT;	/* S2 no longer knows H0 */
	ck_assert_int_eq(rt_validate(&ctx, &res), -EHOSTUNREACH);
	ck_assert_uint_ge(res.unreachable, 1);
	ck_assert_uint_eq(res.loops, 0);
	ck_assert_ptr_nonnull(strstr(res.first_problem, "no route"));

	build_ring();
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&ctx, NULL), 0);
	rows[1][3] = 2;		/* S1 sends H2's LID back to S0 ... */
	rows[0][3] = 1;		/* ... which sends it to S1 again */
	ck_assert_int_eq(rt_validate(&ctx, &res), -EHOSTUNREACH);
	ck_assert_uint_ge(res.loops, 1);
	ck_assert_ptr_nonnull(strstr(res.first_problem, "loops"));

	build_ring();
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&ctx, NULL), 0);
	rows[3][2] = 3;		/* H1's LID delivered to H3: a CA does not forward */
	ck_assert_int_eq(rt_validate(&ctx, &res), -EHOSTUNREACH);
}
END_TEST

START_TEST(validate_checks_switch_lids)
{
	struct rt_validation res;

	build_ring();
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&ctx, NULL), 0);
	ck_assert_int_eq(rt_validate(&ctx, &res), 0);
	/* 4 switch LIDs, from 4 switches and their 4 hosts */
	ck_assert_uint_eq(res.sw_pairs, 32);
	rows[2][5] = 200;	/* S2 sends S0's LID to a port it does not have */
	ck_assert_int_eq(rt_validate(&ctx, &res), -EHOSTUNREACH);
	ck_assert_uint_eq(res.unreachable + res.loops, 0);
	ck_assert_uint_ge(res.sw_unreachable, 2);	/* S2 and H2 */
	ck_assert_msg(strstr(res.first_problem, "to switch LID 5") &&
		      strstr(res.first_problem, "no route"), "%s", res.first_problem);

	build_ring();
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&ctx, NULL), 0);
	rows[1][6] = 3;		/* S1 hands its own LID to its host, not to port 0 */
	ck_assert_int_eq(rt_validate(&ctx, &res), -EHOSTUNREACH);
	ck_assert_uint_eq(res.sw_unreachable, 8);	/* nobody reaches S1 */

	build_ring();
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&ctx, NULL), 0);
	rows[0][8] = 1;		/* S0 sends S3's LID to S1 ... */
	rows[1][8] = 2;		/* ... which sends it back */
	ck_assert_int_eq(rt_validate(&ctx, &res), -EHOSTUNREACH);
	ck_assert_uint_ge(res.sw_loops, 4);	/* S0, S1 and their hosts */
	ck_assert_uint_eq(res.loops + res.unreachable, 0);
}
END_TEST

START_TEST(chain_falls_back)
{
	const char *names[] = { "no-such-engine", "minhop" };
	struct rt_validation res;

	build_ring();
	rows[0][0] = 7;	/* garbage the chain must clear */
	ck_assert_int_eq(rt_chain_run(names, 2, "/nonexistent", NULL, &ctx, &res), 1);
	ck_assert_ptr_nonnull(strstr(last_log, "minhop routes all 16"));
	ck_assert_uint_eq(rows[0][0], IBSMD_NO_PORT);
	ck_assert_int_eq(rt_chain_run(names, 1, "/nonexistent", NULL, &ctx, &res), -EHOSTUNREACH);
	ck_assert_ptr_nonnull(strstr(last_log, "no-such-engine"));
	ck_assert_ptr_null(rt_builtin_find("no-such-engine"));
	ck_assert_ptr_eq(rt_builtin_find("minhop"), &rt_minhop_engine);
}
END_TEST

START_TEST(unreachable_switch_left_unrouted)
{
	struct rt_validation res;

	build_ring();
	/* cut S2 off: S1-S2 and S2-S3 links gone */
	ports[1][1].peer = ports[2][2].peer = IBSMD_NO_NODE;
	ports[2][1].peer = ports[3][2].peer = IBSMD_NO_NODE;
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&ctx, NULL), 0);
	ck_assert_uint_eq(rows[0][3], IBSMD_NO_PORT);
	ck_assert_uint_eq(rows[2][1], IBSMD_NO_PORT);
	ck_assert_int_eq(rt_validate(&ctx, &res), -EHOSTUNREACH);
	/* H2 <-> 3 others, both ways */
	ck_assert_uint_eq(res.unreachable, 6);
}
END_TEST

static const char *plugin(const char *name)
{
	static char path[2][512];
	static int i;

	i ^= 1;
	snprintf(path[i], sizeof(path[i]), "%s/tests/.libs/%s.so",
		 getenv("top_builddir") ? getenv("top_builddir") : ".", name);
	return path[i];
}

START_TEST(plugins_load_and_bad_abi_is_refused)
{
	const char *names[] = { plugin("rt_badabi"), plugin("rt_example") };
	struct rt_validation res;
	char refusal[512];

	build_ring();
	ck_assert_int_eq(rt_chain_run(names, 1, "/nonexistent", NULL, &ctx, &res), -EHOSTUNREACH);
	snprintf(refusal, sizeof(refusal), "%s", last_log);
	char has[32];
	snprintf(has, sizeof(has), "has ABI %u; refused", IBSMD_ROUTING_ABI_VERSION);
	ck_assert_msg(strstr(refusal, "built for routing ABI 2") && strstr(refusal, has),
		      "%s", refusal);
	/* the chain moves on to the third party's engine, which routes the ring */
	ck_assert_int_eq(rt_chain_run(names, 2, "/nonexistent", NULL, &ctx, &res), 1);
	ck_assert_ptr_nonnull(strstr(last_log, "dmodk routes all 16"));
	ck_assert(rows[1][1] == 2 || rows[1][1] == 4);	/* S1 -> H0: back to S0 */
}
END_TEST

START_TEST(engine_misrouting_switch_lids_is_refused)
{
	const char *names[] = { plugin("rt_badswitch"), "minhop" };
	struct rt_validation res;

	build_ring();
	ck_assert_int_eq(rt_chain_run(names, 1, "/nonexistent", NULL, &ctx, &res), -EHOSTUNREACH);
	ck_assert_msg(strstr(last_log, "badswitch fails validation: 0 of 16 CA pairs") &&
		      strstr(last_log, "to switch LIDs 24 of 32 unreachable"), "%s", last_log);
	ck_assert_int_eq(rt_chain_run(names, 2, "/nonexistent", NULL, &ctx, &res), 1);
	ck_assert_uint_eq(res.sw_unreachable, 0);
}
END_TEST

START_TEST(same_source_builds_as_a_plugin)
{
	const char *names[] = { plugin("rt_minhop_plugin") };
	static uint8_t builtin[NN][MAXLID + 1];
	struct rt_validation res;

	build_ring();
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&ctx, NULL), 0);
	memcpy(builtin, rows, sizeof(rows));
	ck_assert_int_eq(rt_chain_run(names, 1, "/nonexistent", NULL, &ctx, &res), 0);
	ck_assert_ptr_nonnull(strstr(last_log, "minhop routes all 16"));
	ck_assert_mem_eq(rows, builtin, sizeof(rows));
}
END_TEST

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Chain [@so, minhop]: the plugin fails with @expect in the log, minhop routes. */
static void plugin_falls_back(const char *so, const struct rt_plugin_limits *lim,
			      const char *expect)
{
	const char *names[] = { plugin(so), "minhop" };
	struct rt_validation res;

	build_ring();
	ck_assert_int_eq(rt_chain_run(names, 2, "/nonexistent", lim, &ctx, &res), 1);
	ck_assert_msg(strstr(all_log, expect), "no '%s' in:\n%s", expect, all_log);
	ck_assert_msg(strstr(all_log, "misbehave: about to "), "%s", all_log);	/* its own line */
	ck_assert_ptr_nonnull(strstr(all_log, "trying the next engine, minhop"));
	ck_assert_ptr_nonnull(strstr(last_log, "minhop routes all 16"));
	ck_assert(rows[1][1] == 2 || rows[1][1] == 4);
}

START_TEST(crashing_plugin_is_contained)
{
	plugin_falls_back("rt_crash", NULL, "plugin misbehave crashed: signal 11");
}
END_TEST

START_TEST(plugin_writing_past_its_rows_is_contained)
{
	plugin_falls_back("rt_overrun", NULL, "plugin misbehave crashed: signal 11");
}
END_TEST

START_TEST(exiting_plugin_is_contained)
{
	plugin_falls_back("rt_exit", NULL,
			  "plugin misbehave exited with status 0 before returning");
}
END_TEST

START_TEST(hanging_plugin_is_killed_after_its_budget)
{
	const struct rt_plugin_limits lim = { .timeout_ms = 300 };
	uint64_t t0 = now_ms();

	plugin_falls_back("rt_hang", &lim, "plugin misbehave ran over its time budget of 300 ms");
	ck_assert_uint_lt(now_ms() - t0, 3000);
}
END_TEST

static void on_alarm(int sig)
{
	(void)sig;
}

/* A daemon's handler only sets a flag: the wait for a plugin must still end. */
START_TEST(signal_ends_the_wait_for_a_plugin)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { .tv_usec = 200000 } };

	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	uint64_t t0 = now_ms();
	plugin_falls_back("rt_hang", NULL, "plugin misbehave stopped: a signal interrupted");
	ck_assert_uint_lt(now_ms() - t0, 1000);
}
END_TEST

static int sleep_long(const struct ibsmd_rt_ctx *c, void *state)
{
	(void)c;
	(void)state;
	sleep(30);
	return 0;
}

static int hog(const struct ibsmd_rt_ctx *c, void *state)
{
	(void)c;
	(void)state;
	void *p = malloc((size_t)256 << 20);
	free(p);
	return p ? 0 : -ENOMEM;
}

/* The API an event loop uses: start, poll the descriptor, collect. */
START_TEST(sandbox_waits_without_blocking)
{
	static const struct ibsmd_routing_engine sleeper = { .name = "sleeper",
		.abi_version = IBSMD_ROUTING_ABI_VERSION, .compute_unicast = sleep_long };
	static uint8_t builtin[NN][MAXLID + 1];
	struct rt_sandbox *sb;

	build_ring();
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&ctx, NULL), 0);
	memcpy(builtin, rows, sizeof(rows));
	memset(rows, IBSMD_NO_PORT, sizeof(rows));
	ck_assert_int_eq(rt_sandbox_start(&rt_minhop_engine, &ctx, NULL, &sb), 0);
	struct pollfd p = { .fd = rt_sandbox_fd(sb), .events = POLLIN };
	ck_assert_int_eq(poll(&p, 1, 10000), 1);
	ck_assert_int_eq(rt_sandbox_collect(sb, &ctx), 0);
	ck_assert_mem_eq(rows, builtin, sizeof(rows));
	rt_sandbox_free(sb);

	ck_assert_int_eq(rt_sandbox_start(&sleeper, &ctx, NULL, &sb), 0);
	ck_assert_int_eq(rt_sandbox_collect(sb, &ctx), -EAGAIN);
	p.fd = rt_sandbox_fd(sb);
	ck_assert_int_eq(poll(&p, 1, 100), 0);
	ck_assert_int_gt(rt_sandbox_remaining_ms(sb), 50000);
	rt_sandbox_cancel(sb);
	ck_assert_int_eq(rt_sandbox_collect(sb, &ctx), -ECANCELED);
	ck_assert_int_eq(rt_sandbox_collect(sb, &ctx), -ECANCELED);
	ck_assert_ptr_nonnull(strstr(last_log, "plugin sleeper stopped"));
	rt_sandbox_free(sb);
}
END_TEST

/* @e in a sandbox within @lim, waited for: what rt_sandbox_collect() says. */
static int sandboxed(const struct ibsmd_routing_engine *e, const struct rt_plugin_limits *lim)
{
	struct rt_sandbox *sb;
	int rc = rt_sandbox_start(e, &ctx, lim, &sb);

	if (rc)
		return rc;
	while ((rc = rt_sandbox_collect(sb, &ctx)) == -EAGAIN) {
		struct pollfd p = { .fd = rt_sandbox_fd(sb), .events = POLLIN };
		poll(&p, 1, rt_sandbox_remaining_ms(sb));
	}
	rt_sandbox_free(sb);
	return rc;
}

START_TEST(plugin_memory_is_bounded)
{
	static const struct ibsmd_routing_engine hungry = { .name = "hungry",
		.abi_version = IBSMD_ROUTING_ABI_VERSION, .compute_unicast = hog };
	const struct rt_plugin_limits small = { .memory_mb = 64 }, big = { .memory_mb = 1024 };

	build_ring();
	int rc = sandboxed(&hungry, &small);
	ck_assert_msg(rc == -ENOMEM || rc == -ECHILD, "%d", rc);
	ck_assert_int_eq(sandboxed(&hungry, &big), 0);
}
END_TEST

/* The chain as an event loop drives it: a plugin runs while the loop polls;
 * cancelled, it ends the chain with no fallback; else the next engine routes. */
START_TEST(chain_steps_without_blocking)
{
	const char *names[] = { plugin("rt_hang"), "minhop" };
	const char *crash_first[] = { plugin("rt_crash"), "minhop" };
	struct rt_validation res;
	struct rt_chain *c;

	build_ring();
	ck_assert_int_eq(rt_chain_start(names, 2, "/nonexistent", NULL, &ctx, &res, &c), 0);
	ck_assert_int_eq(rt_chain_step(c), -EAGAIN);
	ck_assert_int_ge(rt_chain_fd(c), 0);
	ck_assert_int_gt(rt_chain_remaining_ms(c), 50000);
	struct pollfd p = { .fd = rt_chain_fd(c), .events = POLLIN };
	ck_assert_int_eq(poll(&p, 1, 50), 0);
	ck_assert_int_eq(rt_chain_step(c), -EAGAIN);
	rt_chain_cancel(c);
	ck_assert_int_eq(rt_chain_step(c), -ECANCELED);
	ck_assert_int_eq(rt_chain_step(c), -ECANCELED);
	ck_assert_int_eq(rt_chain_fd(c), -1);
	ck_assert_ptr_null(strstr(all_log, "minhop"));
	rt_chain_free(c);

	build_ring();
	ck_assert_int_eq(rt_chain_start(crash_first, 2, "/nonexistent", NULL, &ctx, &res, &c), 0);
	int rc;
	while ((rc = rt_chain_step(c)) == -EAGAIN) {
		p.fd = rt_chain_fd(c);
		ck_assert_int_ge(poll(&p, 1, rt_chain_remaining_ms(c)), 0);
	}
	ck_assert_int_eq(rc, 1);
	ck_assert_ptr_nonnull(strstr(all_log, "plugin misbehave crashed"));
	ck_assert_ptr_nonnull(strstr(last_log, "minhop routes all 16"));
	rt_chain_free(c);
}
END_TEST

static Suite *rt_suite(void)
{
	Suite *s = suite_create("routing");
	TCase *tc = tcase_create("minhop");

	tcase_add_test(tc, minhop_routes_shortest_and_spreads);
	tcase_add_test(tc, validate_finds_holes_and_loops);
	tcase_add_test(tc, validate_checks_switch_lids);
	tcase_add_test(tc, chain_falls_back);
	tcase_add_test(tc, unreachable_switch_left_unrouted);
	tcase_add_test(tc, plugins_load_and_bad_abi_is_refused);
	tcase_add_test(tc, engine_misrouting_switch_lids_is_refused);
	tcase_add_test(tc, same_source_builds_as_a_plugin);
	suite_add_tcase(s, tc);
	tc = tcase_create("sandbox");
	tcase_add_test(tc, crashing_plugin_is_contained);
	tcase_add_test(tc, plugin_writing_past_its_rows_is_contained);
	tcase_add_test(tc, exiting_plugin_is_contained);
	tcase_add_test(tc, hanging_plugin_is_killed_after_its_budget);
	tcase_add_test(tc, signal_ends_the_wait_for_a_plugin);
	tcase_add_test(tc, sandbox_waits_without_blocking);
	tcase_add_test(tc, plugin_memory_is_bounded);
	tcase_add_test(tc, chain_steps_without_blocking);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(rt_suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_jobs.c - jobs in the daemon (sm/jobs/): two SMs on one simulated
 * fat tree (tests/check_sm_ha.c's way: each a whole daemon on a thread of
 * its own, at its own host), each with its control socket, told of a job as
 * the Slurm hooks tell them (contrib/slurm/: every SM).
 *
 * - the MASTER routes the job at once: the switches' programmed LFTs for the
 *   job's LIDs change, and the ring over them (random rank order) meets no
 *   contention there, where ftree's tables gave it some; the STANDBY only
 *   stores the job;
 * - the MASTER dies (its port with it: ftree's routes change, one host
 *   fewer): the STANDBY takes over, and its first heavy sweep routes the
 *   job from its store: no contention again;
 * - the job ends at the new MASTER: every switch's table is ftree's again,
 *   entry for entry (what a heavy sweep with no job programs).
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "mad/mad_attr.h"
#include "mad/sim/mad_sim.h"
#include "sm/core/sm.h"
#include "sm/core/sm_state.h"
#include "sm/sm_daemon.h"
#include "sm/sm_life.h"
#include "sm/util/sm_log.h"
#include "tests/check_sm_peers.h"
#include "tests/check_util.h"

#define JOB_HOSTS "H3,H17,H8,H30,H12,H25,H1,H22,H9,H28,H14,H5"	/* 12 hosts, every leaf but one */

static char dbdir[] = "/tmp/ibsmd-jobs-XXXXXX";
static struct sim_fabric *fab;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void start(struct node_sm *n, const char *host, uint8_t prio)
{
	memset(n, 0, sizeof(*n));
	snprintf(n->host, sizeof(n->host), "%s", host);
	sm_config_defaults(&n->sm.cfg);
	snprintf(n->sm.cfg.backend, sizeof(n->sm.cfg.backend), "sim:shared");
	snprintf(n->sm.cfg.db_path, sizeof(n->sm.cfg.db_path), "%s/%s.db", dbdir, host);
	snprintf(n->sm.cfg.socket_path, sizeof(n->sm.cfg.socket_path), "%.60s/%.16s.sock", dbdir,
		 host);
	snprintf(n->sm.cfg.routing[0], sizeof(n->sm.cfg.routing[0]), "ftree");
	n->sm.cfg.nrouting = 1;
	n->sm.cfg.timeout_ms = 20;
	n->sm.cfg.retries = 1;
	n->sm.cfg.sweep_interval_s = 1;
	n->sm.cfg.sm_priority = prio;
	ck_assert_int_eq(sm_open_store(&n->sm), 0);
	peer_run(n, fab);
}

static void wait_for(struct node_sm *n, uint8_t want, uint64_t after)
{
	uint64_t t0 = now_ms();

	while (peer_state(n) != want || peer_sweeps(n) <= after) {
		ck_assert_msg(now_ms() - t0 < 10000, "%s: still %s (%llu sweeps)", n->host,
			      mad_sm_state_name(peer_state(n)), (unsigned long long)peer_sweeps(n));
		usleep(5000);
	}
}

/* One line to @n's control socket; its answer into @out. */
static void ask(struct node_sm *n, const char *line, char *out, size_t len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	size_t got = 0;
	ssize_t k;

	ck_assert_uint_lt(strlen(n->sm.cfg.socket_path), sizeof(sa.sun_path));
	memcpy(sa.sun_path, n->sm.cfg.socket_path, strlen(n->sm.cfg.socket_path) + 1);
	for (int i = 0; i < 100 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)); i++)
		usleep(20000);
	ck_assert_int_eq(write(fd, line, strlen(line)), (ssize_t)strlen(line));
	while (got + 1 < len && (k = read(fd, out + got, len - 1 - got)) > 0)
		got += (size_t)k;
	out[got] = '\0';
	close(fd);
}

/* Every switch's programmed entries for every CA LID, in node order. */
static uint8_t *tables(void)
{
	const struct topo *t = sim_fabric_topo(fab);
	uint8_t *x = malloc((size_t)t->n * 64), *p = x;

	for (uint32_t n = 0; n < t->n; n++)
		for (uint16_t lid = 0; lid < 64; lid++)
			*p++ = t->nodes[n].type == MAD_NODE_SWITCH && lid ? sim_get_lft(fab, n, lid) : 0;
	return x;
}

static uint16_t lid_of(const char *host)
{
	struct mad_port_info pi;

	ck_assert_int_eq(sim_get_port_info(fab, peer_node_of(fab, host), 1, &pi), 0);
	return pi.lid;
}

/* The ring of JOB_HOSTS as the fabric forwards it: the most flows on one
 * switch-to-switch link (1: no contention). */
static unsigned ring_worst(void)
{
	const struct topo *t = sim_fabric_topo(fab);
	char hosts[] = JOB_HOSTS, *save = NULL, *names[16];
	unsigned n = 0, worst = 0, *use = calloc((size_t)t->n * 64, sizeof(*use));

	for (char *w = strtok_r(hosts, ",", &save); w; w = strtok_r(NULL, ",", &save))
		names[n++] = w;
	for (unsigned i = 0; i < n; i++) {
		uint16_t to = lid_of(names[(i + 1) % n]);
		uint32_t at = t->nodes[peer_node_of(fab, names[i])].ports[1].peer;
		for (int hops = 0; hops < 8 && t->nodes[at].type == MAD_NODE_SWITCH; hops++) {
			uint8_t p = sim_get_lft(fab, at, to);
			uint32_t next = t->nodes[at].ports[p].peer;
			if (t->nodes[next].type == MAD_NODE_SWITCH) {
				unsigned u = ++use[(size_t)at * 64 + p];
				worst = u > worst ? u : worst;
			}
			at = next;
		}
		ck_assert_uint_eq(at, peer_node_of(fab, names[(i + 1) % n]));
	}
	free(use);
	return worst;
}

START_TEST(job_survives_failover_and_ends_on_base_routes)
{
	struct node_sm a, b;
	char out[1024];

	start(&a, "H0", 10);
	wait_for(&a, MAD_SM_MASTER, 0);
	start(&b, "H31", 1);
	wait_for(&b, MAD_SM_STANDBY, 0);
	uint8_t *base = tables();
	ck_assert_uint_gt(ring_worst(), 1);	/* ftree's tables: contention */

	ask(&a, "job start train ring " JOB_HOSTS "\n", out, sizeof(out));
	ck_assert_msg(strncmp(out, "ok: job train started: 12 hosts", 31) == 0, "%s", out);
	ask(&b, "job start train ring " JOB_HOSTS "\n", out, sizeof(out));
	ck_assert_msg(strstr(out, "ok: job train stored: 12 hosts") == out, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "not MASTER"));
	ck_assert_uint_eq(ring_worst(), 1);
	uint8_t *routed = tables();
	ck_assert_mem_ne(base, routed, sim_fabric_topo(fab)->n * 64);
	/* a name in use, unknown hosts, a host of the job: refused, nothing changed */
	ask(&a, "job start train ring H2\n", out, sizeof(out));
	ck_assert_str_eq(out, "error: job train runs already\n");
	ask(&a, "job start other alltoall H2,H99,H98\n", out, sizeof(out));
	ck_assert_str_eq(out, "error: job other: 2 hosts not in the fabric (H99 first); "
			 "nothing done\n");
	ask(&a, "job start other alltoall H2,H3\n", out, sizeof(out));
	ck_assert_str_eq(out, "error: job other: host H3 is in job train, which runs\n");
	uint8_t *now = tables();
	ck_assert_mem_eq(now, routed, sim_fabric_topo(fab)->n * 64);
	free(now);

	/* failover: the standby routes the job from its own store */
	uint64_t before = peer_sweeps(&b);
	peer_kill(&a);
	wait_for(&b, MAD_SM_MASTER, before);
	/* the sweep that made it MASTER may have begun as a STANDBY's: the next
	 * one, as MASTER, routes */
	for (uint64_t t0 = now_ms(); now_ms() - t0 < 10000; usleep(20000)) {
		ask(&b, "job list\n", out, sizeof(out));
		if (strstr(out, "routed"))
			break;
		if (peer_sweeps(&b) == before + 1)
			ask(&b, "resweep\n", out, sizeof(out));
	}
	ask(&b, "job list\n", out, sizeof(out));
	ck_assert_str_eq(out, "ok: 1 job: train (ring, 12 hosts, routed)\n");
	ck_assert_uint_eq(ring_worst(), 1);

	ask(&b, "job end train json\n", out, sizeof(out));
	ck_assert_msg(strstr(out, "{\"ok\": true, \"result\": \"job train ended: ") == out, "%s",
		      out);
	now = tables();
	ck_assert_uint_gt(ring_worst(), 1);
	before = peer_sweeps(&b);
	ask(&b, "resweep\n", out, sizeof(out));
	wait_for(&b, MAD_SM_MASTER, before);
	uint8_t *fresh = tables();
	ck_assert_mem_eq(now, fresh, sim_fabric_topo(fab)->n * 64);
	free(fresh);
	free(now);
	ask(&b, "job end train\n", out, sizeof(out));
	ck_assert_str_eq(out, "error: no job train runs\n");
	peer_kill(&b);
	free(base);
	free(routed);
}
END_TEST

static void setup(void)
{
	char path[400], err[256];

	strcpy(dbdir, "/tmp/ibsmd-jobs-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dbdir));
	sm_log_set_level(LOG_WARNING);
	sm_daemon_block_signals();
	snprintf(path, sizeof(path), "%s/contrib/fabrics/fattree-2l-r8.topo",
		 getenv("top_srcdir") ? getenv("top_srcdir") : ".");
	ck_assert_int_eq(sim_fabric_load(path, &fab, err, sizeof(err)), 0);
}

static void teardown(void)
{
	char cmd[300];

	sim_fabric_free(fab);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dbdir);
	ck_assert_int_eq(system(cmd), 0);
}

static Suite *make_suite(void)
{
	Suite *s = suite_create("sm_jobs");
	TCase *tc = tcase_create("jobs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, job_survives_failover_and_ends_on_base_routes);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_ha.c - two SMs on one simulated fabric (IBA 14.4): election,
 * failover, handover, SM_Key, two masters that meet, a STANDBY's load; and a
 * peer SM played by the test (OpenSM's part: Trap 144, SMInfo answers).
 *
 * Each SM is a whole daemon (sm_daemon_run) on a thread of its own, attached
 * to its own host of one sim fabric (sim_transport_new_at).  "Killing" an SM
 * stops its thread with SIGTERM aimed at that thread and closes its port, so
 * it neither answers nor polls any more and its port loses IsSM, as after a
 * SIGKILL.  The tests watch the SMs' states, the devices' LIDs and the LFT
 * blocks the fabric was sent, and ask SMInfo the way sminfo does, from a third
 * port acting as a tool.
 *
 * The hosts' IPoIB (sim_set_ipoib) keeps its broadcast group across a
 * failover: the standby that takes over asks every port to reregister in its
 * first sweep, the hosts join through it, and its MFTs reach them all.
 *
 * With HA_TOPO=FILE in the environment (contrib/bench/ha.sh, `make bench`)
 * only the failover and the standby's load run, on that fabric (its hosts H0
 * and H2, routed by the engines HA_ROUTING names, default the configuration's),
 * wait up to a minute for each step and print their figures instead of
 * asserting the 5 s.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mad/mad_attr.h"
#include "mad/mad_rpc.h"
#include "mad/sim/mad_sim.h"
#include "sm/core/sm.h"
#include "sm/sm_daemon.h"
#include "sm/ha/sm_ha.h"
#include "sm/util/sm_log.h"
#include "sm/core/sm_state.h"
#include "tests/check_sim_flood.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_sm_peers.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"

#define KEY 0x1234567890abcdefULL
#define ROGUE_KEY 0xbadULL

static struct sim_fabric *sim;
static const char *bench_topo;	/* HA_TOPO: a benchmark on that fabric */
static uint64_t step_ms = 5000;	/* the longest wait for one step */
static unsigned rpc_timeout_ms = 20;	/* the SMs' sweep.timeout_ms */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void setup(void)
{
	char path[400], err[256];

	strcpy(dbdir, "/tmp/ibsmd-ha-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dbdir));
	sm_log_set_level(getenv("HA_LOG") ? LOG_INFO : LOG_WARNING);
	sm_daemon_block_signals();	/* before any thread: SIGTERM reaches signalfds */
	if (bench_topo)
		snprintf(path, sizeof(path), "%s", bench_topo);
	else
		snprintf(path, sizeof(path), "%s/tests/topo/twoswitch.topo",
			 getenv("top_srcdir") ? getenv("top_srcdir") : ".");
	ck_assert_int_eq(sim_fabric_load(path, &sim, err, sizeof(err)), 0);
}

static void teardown(void)
{
	char cmd[300];

	sim_fabric_free(sim);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dbdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* An SM daemon at @host's port 1 with the default HA settings, M_Key @mkey
 * (0: off) at protect level @protect, light sweeps every @sweep_s seconds. */
static void start_cfg(struct node_sm *n, const char *host, uint8_t prio, uint64_t key,
		      uint64_t mkey, uint8_t protect, unsigned sweep_s)
{
	memset(n, 0, sizeof(*n));
	snprintf(n->host, sizeof(n->host), "%s", host);
	sm_config_defaults(&n->sm.cfg);
	snprintf(n->sm.cfg.backend, sizeof(n->sm.cfg.backend), "sim:shared");
	snprintf(n->sm.cfg.db_path, sizeof(n->sm.cfg.db_path), "%s/%s.db", dbdir, host);
	n->sm.cfg.socket_path[0] = '\0';
	n->sm.cfg.timeout_ms = rpc_timeout_ms;
	n->sm.cfg.retries = 1;
	n->sm.cfg.sweep_interval_s = sweep_s;
	n->sm.cfg.sm_priority = prio;
	n->sm.cfg.sm_key = key;
	n->sm.cfg.mkey_key = mkey;
	n->sm.cfg.mkey_protect = protect;
	if (getenv("HA_ROUTING")) {	/* a benchmark's engine chain */
		char err[128];
		ck_assert_int_eq(sm_config_set_routing(&n->sm.cfg, getenv("HA_ROUTING"), err,
						       sizeof(err)), 0);
	}
	ck_assert_int_eq(sm_open_store(&n->sm), 0);
	peer_run(n, sim);
}

static void start(struct node_sm *n, const char *host, uint8_t prio, uint64_t key)
{
	start_cfg(n, host, prio, key, 0, 0, 1);
}

/* Masters among the running SMs right now. */
static unsigned masters(struct node_sm **all, size_t n)
{
	unsigned m = 0;

	for (size_t i = 0; i < n; i++)
		m += all[i]->running && peer_state(all[i]) == MAD_SM_MASTER;
	return m;
}

/* The last heavy sweep brought the subnet up (read while the daemon runs: a
 * string half written compares unequal). */
static bool subnet_up(struct node_sm *n)
{
	char r[sizeof(n->sm.last_result)];

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	memcpy(r, n->sm.last_result, sizeof(r));
	r[sizeof(r) - 1] = '\0';
	return strcmp(r, "subnet up") == 0;
}

/* Wait up to @max_ms for @n to be in @want with more than @after heavy sweeps
 * behind it, and, as a MASTER, the subnet up.  The time it took, in ms. */
static uint64_t wait_for(struct node_sm *n, uint8_t want, uint64_t after, uint64_t max_ms)
{
	uint64_t t0 = now_ms();

	while (peer_state(n) != want || peer_sweeps(n) <= after ||
	       (want == MAD_SM_MASTER && !subnet_up(n))) {
		ck_assert_msg(now_ms() - t0 < max_ms, "%s: still %s after %llu ms (%llu sweeps)",
			      n->host, mad_sm_state_name(peer_state(n)), (unsigned long long)max_ms,
			      (unsigned long long)peer_sweeps(n));
		usleep(5000);
	}
	return now_ms() - t0;
}

/* For @ms, exactly one master among @all, always. */
static void one_master_for(struct node_sm **all, size_t n, uint64_t ms)
{
	uint64_t t0 = now_ms();

	while (now_ms() - t0 < ms) {
		ck_assert_uint_eq(masters(all, n), 1);
		usleep(10000);
	}
}

/* Every CA port's LID, in node order; the rest of @lids stays 0. */
static void ca_lids(uint16_t *lids, size_t max)
{
	const struct topo *t = sim_fabric_topo(sim);
	struct mad_port_info pi;
	size_t i = 0;

	memset(lids, 0, max * sizeof(*lids));
	for (uint32_t n = 0; n < t->n; n++)
		for (unsigned p = 1; t->nodes[n].type != MAD_NODE_SWITCH && p <= t->nodes[n].nports;
		     p++) {
			ck_assert_uint_lt(i, max);
			ck_assert_int_eq(sim_get_port_info(sim, n, (uint8_t)p, &pi), 0);
			lids[i++] = pi.lid;
		}
}

/* @m at H0 becomes master, then @s at H2 stands by beside it. */
static void master_and_standby(struct node_sm *m, uint8_t m_prio, uint64_t m_key,
			       struct node_sm *s, uint8_t s_prio, uint64_t s_key)
{
	struct node_sm *all[] = { m, s };

	start(m, "H0", m_prio, m_key);
	wait_for(m, MAD_SM_MASTER, 0, step_ms);
	start(s, "H2", s_prio, s_key);
	wait_for(s, MAD_SM_STANDBY, 0, step_ms);
	/* a light sweep or two of the master's see the other SM */
	one_master_for(all, 2, 2000);
	ck_assert_uint_eq(peer_state(m), MAD_SM_MASTER);
	ck_assert_uint_eq(peer_state(s), MAD_SM_STANDBY);
	/* each knows one master: the master itself, the standby the one it polls */
	ck_assert_uint_eq(sm_ha_masters_seen(&m->sm), 1);
	ck_assert_uint_eq(sm_ha_masters_seen(&s->sm), 1);
	ck_assert_uint_gt(s->sm.ha->polls, 0);
}

static uint64_t lft_sets(void)
{
	struct sim_stats st;

	sim_get_stats(sim, &st);
	return st.lft_block_sets;
}

START_TEST(failover_then_handover_back)
{
	struct node_sm a, b;
	struct node_sm *all[] = { &a, &b };
	size_t nlids = 2 * sim_fabric_topo(sim)->n;	/* more than the CA ports */
	uint16_t *before = calloc(nlids, sizeof(*before)), *after = calloc(nlids, sizeof(*after));

	master_and_standby(&a, 10, KEY, &b, 5, KEY);

	/* the master dies: the standby takes over within poll interval x
	 * retries + a sweep, without moving a LID or writing an LFT block */
	ca_lids(before, nlids);
	uint64_t lfts = lft_sets(), b_sweeps = peer_sweeps(&b);
	peer_kill(&a);
	uint64_t took = wait_for(&b, MAD_SM_MASTER, b_sweeps, step_ms);
	printf("takeover after the master's death: %llu ms (poll %u ms x %u), %u nodes\n",
	       (unsigned long long)took, b.sm.cfg.ha_poll_interval_ms, b.sm.cfg.ha_poll_retries,
	       sim_fabric_topo(sim)->n);
	if (!bench_topo)
		ck_assert_uint_lt(took, 5000);
	ck_assert_uint_ge(took, (uint64_t)b.sm.cfg.ha_poll_interval_ms *
				(b.sm.cfg.ha_poll_retries - 1));
	ca_lids(after, nlids);
	ck_assert_mem_eq(before, after, nlids * sizeof(*before));
	printf("LFT blocks written across the failover: %llu\n",
	       (unsigned long long)(lft_sets() - lfts));
	ck_assert_uint_eq(lft_sets(), lfts);

	/* the higher-priority SM comes back: STANDBY first (a master is up),
	 * then the master's light sweep sees its IsSM and hands over */
	start(&a, "H0", 10, KEY);
	uint64_t t0 = now_ms(), two_since = 0;
	while (peer_state(&a) != MAD_SM_MASTER || peer_state(&b) != MAD_SM_STANDBY) {
		ck_assert_msg(now_ms() - t0 < step_ms + 3000, "no handover: H0 %s, H2 %s",
			      mad_sm_state_name(peer_state(&a)), mad_sm_state_name(peer_state(&b)));
		/* the new master takes over when it answers HANDOVER, the old one
		 * stands by when that answer reaches it: two MASTERs only that long */
		if (masters(all, 2) < 2)
			two_since = 0;
		else if (!two_since)
			two_since = now_ms();
		ck_assert_msg(!two_since || now_ms() - two_since < 100,
			      "two MASTERs for %llu ms", (unsigned long long)(now_ms() - two_since));
		usleep(1000);
	}
	printf("handover to the returning higher-priority SM: %llu ms\n",
	       (unsigned long long)(now_ms() - t0));
	one_master_for(all, 2, 1500);
	ck_assert_uint_eq(peer_state(&a), MAD_SM_MASTER);
	peer_kill(&b);
	peer_kill(&a);
	free(before);
	free(after);
}
END_TEST

/* Every cabled CA port's IPoIB joined, and a packet to @mlid from each
 * reaches every other exactly once. */
static bool ipoib_all_reached(uint16_t mlid)
{
	const struct topo *t = sim_fabric_topo(sim);
	bool ok = true;

	for (uint32_t n = 0; ok && n < t->n; n++)
		for (unsigned p = 1; ok && t->nodes[n].type != MAD_NODE_SWITCH &&
				     p <= t->nodes[n].nports; p++) {
			if (t->nodes[n].ports[p].peer == TOPO_NONE)
				continue;
			ok = sim_ipoib_joined(sim, n, (uint8_t)p, 0xffff) == 1;
			unsigned *hits = mcast_flood(sim, n, (uint8_t)p, mlid);
			for (uint32_t m = 0; ok && m < t->n; m++)
				for (unsigned q = 1; ok && t->nodes[m].type != MAD_NODE_SWITCH &&
						     q <= t->nodes[m].nports; q++)
					ok = t->nodes[m].ports[q].peer == TOPO_NONE ||
					     hits[m * MCAST_FLOOD_PORTS + q] == (m != n || q != p);
			free(hits);
		}
	return ok;
}

static uint64_t ipoib_joined(void)
{
	struct sim_stats st;

	sim_get_stats(sim, &st);
	return st.ipoib_joined;
}

/* Wait up to @max_ms for every host to be a member through the master, the
 * MFTs reaching them all; the time it took, in ms. */
static uint64_t wait_ipoib(uint16_t mlid, uint64_t joined_before, uint64_t max_ms)
{
	const struct topo *t = sim_fabric_topo(sim);
	unsigned ports = 0;
	uint64_t t0 = now_ms();

	for (uint32_t n = 0; n < t->n; n++)
		for (unsigned p = 1; t->nodes[n].type != MAD_NODE_SWITCH && p <= t->nodes[n].nports; p++)
			ports += t->nodes[n].ports[p].peer != TOPO_NONE;
	while (ipoib_joined() < joined_before + ports || !ipoib_all_reached(mlid)) {
		ck_assert_msg(now_ms() - t0 < max_ms, "after %llu ms: %llu of %u hosts joined, "
			      "or the MFTs do not reach them all", (unsigned long long)max_ms,
			      (unsigned long long)(ipoib_joined() - joined_before), ports);
		usleep(5000);
	}
	return now_ms() - t0;
}

/* IPoIB across a failover (issue 20): the hosts joined the broadcast group
 * through the master; it dies; the standby's first sweep as MASTER asks
 * every port to reregister, the hosts join through it (LIDs kept, no port
 * went down: nothing else would make them), and its MFTs reach them all. */
START_TEST(failover_hosts_rejoin)
{
	struct node_sm a, b;

	sim_set_ipoib(sim, 20);
	master_and_standby(&a, 10, KEY, &b, 5, KEY);
	wait_ipoib(0xc000, 0, step_ms);
	uint64_t joined = ipoib_joined(), b_sweeps = peer_sweeps(&b);
	peer_kill(&a);
	uint64_t took = wait_for(&b, MAD_SM_MASTER, b_sweeps, step_ms);
	uint64_t rejoin = wait_ipoib(0xc000, joined, step_ms);
	printf("IPoIB after a failover: master after %llu ms, every host a member through it "
	       "and reached by its MFTs %llu ms later\n", (unsigned long long)took,
	       (unsigned long long)rejoin);
	peer_kill(&b);
}
END_TEST

/* A tool's port at H1, asking SMInfo the way sminfo does. */
struct tool {
	struct mad_transport *t;
	struct mad_rpc *rpc;
};

static void tool_open(struct tool *tl)
{
	struct mad_rpc_opts o = { .window = 1, .timeout_ms = 100, .retries = 2 };

	ck_assert_int_eq(sim_transport_new_at(sim, peer_node_of(sim, "H1"), 1, &tl->t), 0);
	tl->rpc = mad_rpc_new(tl->t, &o);
	ck_assert_ptr_nonnull(tl->rpc);
}

static void tool_close(struct tool *tl)
{
	mad_rpc_free(tl->rpc);
	mad_transport_close(tl->t);
}

/* SMInfo @method to H0 (DR path 1,1) carrying the M_Key @mkey, and in its
 * payload the SM_Key @key and the sender's state @from_state. */
static int tool_ask(struct tool *tl, uint8_t method, uint32_t mod, uint64_t key, uint64_t mkey,
		    uint8_t from_state, struct mad_sm_info *out)
{
	struct topo_path path = { .hops = 2, .port = { 0, 1, 1 } };
	const struct mad_addr dr = { .lid = MAD_LID_PERMISSIVE };
	struct mad_sm_info req = { .guid = 0x42, .sm_key = key, .priority = 15,
				   .state = from_state };
	struct mad_smp smp, resp;

	mad_smp_init_dr(&smp, method, MAD_ATTR_SM_INFO, mod, &path);
	smp.mkey = mkey;
	mad_sm_info_encode(&req, smp.data);
	int rc = mad_rpc_call(tl->rpc, &smp, &dr, &resp);
	if (rc == 0)
		rc = mad_sm_info_decode(resp.data, out);
	return rc;
}

/* As a MASTER tool would ask, without an M_Key. */
static int tool_sm_info(struct tool *tl, uint8_t method, uint32_t mod, uint64_t key,
			struct mad_sm_info *out)
{
	return tool_ask(tl, method, mod, key, 0, MAD_SM_MASTER, out);
}

START_TEST(rogue_with_wrong_key_never_masters)
{
	struct node_sm a, rogue;
	struct node_sm *all[] = { &a, &rogue };
	struct tool tl;

	master_and_standby(&a, 5, KEY, &rogue, 15, ROGUE_KEY);
	ck_assert(!a.sm.ha->handover_sent);

	/* SMInfo from a tool: with M_Key off anyone sees the key (OpenSM's
	 * reading); a Set with the wrong key changes nothing, with the right
	 * one it is obeyed */
	struct mad_sm_info info;
	tool_open(&tl);
	char logpath[300], *text = NULL;
	size_t len = 0;
	snprintf(logpath, sizeof(logpath), "%s/debug.log", dbdir);
	ck_assert_int_eq(sm_log_open(logpath, LOG_DEBUG, 0), 0);
	ck_assert_int_eq(tool_sm_info(&tl, MAD_METHOD_GET, 0, KEY, &info), 0);
	ck_assert_uint_eq(info.state, MAD_SM_MASTER);
	ck_assert_uint_eq(info.priority, 5);
	ck_assert_uint_eq(info.sm_key, KEY);
	/* the SM's debug log says the key was its own, never what it is */
	sm_log_set_level(LOG_WARNING);	/* left open: other threads may log */
	FILE *f = fopen(logpath, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ne(getdelim(&text, &len, '\0', f), -1);
	fclose(f);
	ck_assert_msg(!strstr(text, "1234567890abcdef"), "SM_Key logged:\n%s", text);
	ck_assert_msg(strstr(text, "SM_Key ours"), "%s", text);
	free(text);
	ck_assert_int_eq(tool_sm_info(&tl, MAD_METHOD_GET, 0, ROGUE_KEY, &info), 0);
	ck_assert_uint_eq(info.sm_key, KEY);
	ck_assert_int_eq(tool_sm_info(&tl, MAD_METHOD_SET, SM_HA_DISABLE, ROGUE_KEY, &info), 0);
	ck_assert_uint_eq(info.state, MAD_SM_MASTER);
	ck_assert_uint_eq(peer_state(&a), MAD_SM_MASTER);
	/* ... and a HANDOVER with the wrong key makes no master either */
	ck_assert_int_eq(tool_sm_info(&tl, MAD_METHOD_SET, SM_HA_HANDOVER, ROGUE_KEY, &info), 0);
	ck_assert_uint_eq(masters(all, 2), 1);
	/* a modifier beyond DISCOVER is refused, with the right key too */
	ck_assert_int_eq(tool_sm_info(&tl, MAD_METHOD_SET, 6, KEY, &info), -EREMOTEIO);
	ck_assert_int_eq(tool_sm_info(&tl, MAD_METHOD_SET, 0xffffffff, KEY, &info), -EREMOTEIO);
	ck_assert_uint_eq(peer_state(&a), MAD_SM_MASTER);
	/* DISCOVER comes from a MASTER only, ACKNOWLEDGE from a STANDBY only */
	ck_assert_int_eq(tool_ask(&tl, MAD_METHOD_SET, SM_HA_DISCOVER, KEY, 0, MAD_SM_STANDBY,
				  &info), -EREMOTEIO);
	ck_assert_int_eq(tool_ask(&tl, MAD_METHOD_SET, SM_HA_ACKNOWLEDGE, KEY, 0, MAD_SM_MASTER,
				  &info), -EREMOTEIO);
	/* a MASTER is not switched off by DISABLE, even with the key: it would leave
	 * the fabric unmanaged (it hands over instead) */
	ck_assert_int_eq(tool_sm_info(&tl, MAD_METHOD_SET, SM_HA_DISABLE, KEY, &info), -EREMOTEIO);
	ck_assert_uint_eq(peer_state(&a), MAD_SM_MASTER);
	tool_close(&tl);
	peer_kill(&rogue);
	peer_kill(&a);
}
END_TEST

/* At the defaults the SM_Key is OpenSM's (1), and a Get without any key sees
 * it, as OpenSM's Get must for OpenSM to take ibsmd for a peer.  Our port's
 * M_Key guards it: at protect level 1 a Get without the M_Key sees 0, at
 * level 2 it gets no answer, and a Set without it changes nothing. */
START_TEST(sm_key_shown_as_opensm_reads_it)
{
	struct node_sm a;
	struct tool tl;
	struct mad_sm_info info;
	const uint64_t mkey = 0x5eed0000feedULL;

	struct sm_config defaults;
	sm_config_defaults(&defaults);
	ck_assert_uint_eq(defaults.sm_key, 1);	/* what OpenSM has by default */
	start(&a, "H0", 5, defaults.sm_key);
	wait_for(&a, MAD_SM_MASTER, 0, step_ms);
	tool_open(&tl);
	ck_assert_int_eq(tool_ask(&tl, MAD_METHOD_GET, 0, 0, 0, MAD_SM_NOT_ACTIVE, &info), 0);
	ck_assert_uint_eq(info.sm_key, 1);
	ck_assert_uint_eq(info.state, MAD_SM_MASTER);
	peer_kill(&a);

	/* M_Key on our port */
	memset(&a, 0, sizeof(a));
	start_cfg(&a, "H0", 5, 1, mkey, 1, 1);
	wait_for(&a, MAD_SM_MASTER, 0, step_ms);
	ck_assert_int_eq(tool_ask(&tl, MAD_METHOD_GET, 0, 0, 0, MAD_SM_NOT_ACTIVE, &info), 0);
	ck_assert_uint_eq(info.sm_key, 0);
	ck_assert_int_eq(tool_ask(&tl, MAD_METHOD_GET, 0, 0, mkey, MAD_SM_NOT_ACTIVE, &info), 0);
	ck_assert_uint_eq(info.sm_key, 1);
	ck_assert_int_eq(tool_ask(&tl, MAD_METHOD_SET, SM_HA_DISCOVER, 1, 0, MAD_SM_MASTER, &info),
			 -ETIMEDOUT);
	peer_kill(&a);
	start_cfg(&a, "H0", 5, 1, mkey, 2, 1);
	wait_for(&a, MAD_SM_MASTER, 0, step_ms);
	ck_assert_int_eq(tool_ask(&tl, MAD_METHOD_GET, 0, 0, 0, MAD_SM_NOT_ACTIVE, &info),
			 -ETIMEDOUT);
	ck_assert_int_eq(tool_ask(&tl, MAD_METHOD_GET, 0, 0, mkey, MAD_SM_NOT_ACTIVE, &info), 0);
	ck_assert_uint_eq(info.sm_key, 1);
	ck_assert_uint_eq(peer_state(&a), MAD_SM_MASTER);
	tool_close(&tl);
	peer_kill(&a);
}
END_TEST

/* With M_Key on (one key, protect 1) on both SMs, each SMInfo request to a
 * peer carries the M_Key of the peer's port, which the peer checks: a
 * higher SM that joins gets HANDOVER and masters. */
START_TEST(handover_with_mkey_on)
{
	struct node_sm a, b;
	struct node_sm *all[] = { &a, &b };
	const uint64_t mkey = 0x5eed0000feedULL;

	start_cfg(&a, "H0", 5, KEY, mkey, 1, 1);
	wait_for(&a, MAD_SM_MASTER, 0, step_ms);
	start_cfg(&b, "H2", 10, KEY, mkey, 1, 1);
	uint64_t t0 = now_ms();
	while (peer_state(&b) != MAD_SM_MASTER || peer_state(&a) != MAD_SM_STANDBY) {
		ck_assert_msg(now_ms() - t0 < step_ms, "no handover with M_Key on: H0 %s, H2 %s",
			      mad_sm_state_name(peer_state(&a)), mad_sm_state_name(peer_state(&b)));
		usleep(5000);
	}
	one_master_for(all, 2, 1000);
	peer_kill(&b);
	peer_kill(&a);
}
END_TEST

/* @a at H0 and @b at H2 each master half of the fabric (the two links
 * between the switches down), then the halves join: each meets the other
 * MASTER, says so, and stops programming; within a few polls exactly one
 * master is left, up, and the other stands by under it.  With one SM_Key
 * the master is A, the higher (B hands over to it); with two keys no
 * HANDOVER is possible and whichever met the other first stood by. */
static void halves_join(uint64_t key_a, uint64_t key_b)
{
	struct node_sm a, b;
	struct node_sm *all[] = { &a, &b };
	uint32_t sa = peer_node_of(sim, "SA");

	ck_assert_int_eq(sim_link_set(sim, sa, 3, false), 0);
	ck_assert_int_eq(sim_link_set(sim, sa, 5, false), 0);
	start(&a, "H0", 10, key_a);
	start(&b, "H2", 5, key_b);
	wait_for(&a, MAD_SM_MASTER, 0, step_ms);
	wait_for(&b, MAD_SM_MASTER, 0, step_ms);
	ck_assert_uint_eq(masters(all, 2), 2);
	uint64_t t0 = now_ms();
	ck_assert_int_eq(sim_link_set(sim, sa, 3, true), 0);
	ck_assert_int_eq(sim_link_set(sim, sa, 5, true), 0);
	struct node_sm *m = &a, *o = &b;
	for (uint64_t a0 = peer_sweeps(&a), b0 = peer_sweeps(&b);; usleep(5000)) {
		m = peer_state(&a) == MAD_SM_MASTER ? &a : &b;
		o = m == &a ? &b : &a;
		if (peer_state(m) == MAD_SM_MASTER && peer_state(o) == MAD_SM_STANDBY && subnet_up(m) &&
		    peer_sweeps(m) > (m == &a ? a0 : b0))
			break;
		ck_assert_msg(now_ms() - t0 < 3 * step_ms, "after the join: H0 %s, H2 %s",
			      mad_sm_state_name(peer_state(&a)), mad_sm_state_name(peer_state(&b)));
	}
	printf("halves joined (SM_Keys %s): one master, %s, after %llu ms\n",
	       key_a == key_b ? "equal" : "different", m->host,
	       (unsigned long long)(now_ms() - t0));
	one_master_for(all, 2, 1500);
	ck_assert_uint_eq(peer_state(m), MAD_SM_MASTER);
	if (key_a == key_b)
		ck_assert_ptr_eq(m, &a);
	/* whoever met the other said so in its store (the event, and the status
	 * `smquery status` shows: "none" again once the master found itself
	 * alone); the last election saw one master */
	long met = 0;
	for (size_t i = 0; i < 2; i++) {
		struct db *db;
		char seen[16] = "", other[200] = "", err[256];
		ck_assert_int_eq(db_open(all[i]->sm.cfg.db_path, DB_READONLY, &db, err,
					 sizeof(err)), 0);
		ck_assert_int_eq(db_status_get(db, DB_ST_MASTERS_SEEN, seen, sizeof(seen)), 0);
		ck_assert_str_eq(seen, "1");
		if (db_events_of_kind(db, DB_EV_OTHER_MASTER)) {
			met++;
			ck_assert_int_eq(db_status_get(db, DB_ST_OTHER_MASTER, other,
						       sizeof(other)), 0);
			ck_assert_msg(!strcmp(other, "none") ||
				      strstr(other, "was MASTER beside us"), "%s", other);
		}
		db_close(db);
	}
	ck_assert_int_gt(met, 0);
	peer_kill(&b);
	peer_kill(&a);
}

START_TEST(two_masters_with_one_key_meet)
{
	halves_join(KEY, KEY);
}
END_TEST

START_TEST(two_masters_with_different_keys_meet)
{
	halves_join(KEY, ROGUE_KEY);
}
END_TEST

/* An SM's port acting as a peer SM (OpenSM's part): it answers SMInfo as a
 * STANDBY of priority 15 holding KEY, and takes a HANDOVER. */
struct peer {
	struct mad_transport *t;
	uint64_t guid;
	uint64_t trap_tid;
	bool repressed, asked, handed_over;
	struct node_sm *master;		/* the SM it expects HANDOVER from */
};

static void peer_answer(struct peer *p, const struct mad_smp *req, const struct mad_addr *from,
			uint8_t state)
{
	struct mad_sm_info me = { .guid = p->guid, .sm_key = KEY, .priority = 15, .state = state };
	struct mad_smp resp = *req;
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr to = *from;

	mad_smp_make_response(&resp, 0);
	memset(resp.data, 0, sizeof(resp.data));
	mad_sm_info_encode(&me, resp.data);
	if (req->mgmt_class == MAD_CLASS_SMI_DR)
		to.lid = MAD_LID_PERMISSIVE;
	mad_smp_encode(&resp, buf);
	ck_assert_int_eq(p->t->ops->send(p->t, buf, &to), 0);
}

/* Serve the peer's port until @done(p) or @max_ms. */
static bool peer_serve(struct peer *p, bool (*done)(const struct peer *p), uint64_t max_ms)
{
	uint64_t t0 = now_ms();

	while (!done(p) && now_ms() - t0 < max_ms) {
		uint8_t buf[MAD_BLOCK_SIZE];
		struct mad_addr from;
		struct mad_smp smp;
		size_t len = sizeof(buf);
		if (p->t->ops->recv(p->t, buf, &len, &from, 20) ||
		    mad_smp_decode(buf, sizeof(buf), &smp))
			continue;
		if (smp.method == MAD_METHOD_TRAP_REPRESS && smp.tid == p->trap_tid) {
			p->repressed = true;
		} else if (smp.attr_id == MAD_ATTR_SM_INFO && smp.method == MAD_METHOD_GET) {
			p->asked = true;
			peer_answer(p, &smp, &from, p->handed_over ? MAD_SM_MASTER : MAD_SM_STANDBY);
		} else if (smp.attr_id == MAD_ATTR_SM_INFO && smp.method == MAD_METHOD_SET &&
			   smp.attr_mod == SM_HA_HANDOVER) {
			p->handed_over = true;
			peer_answer(p, &smp, &from, MAD_SM_MASTER);
		}
	}
	return done(p);
}

/* Repressed, handed the subnet, and the old master stands by (its polls are
 * answered as they come). */
static bool peer_handed_over(const struct peer *p)
{
	return p->repressed && p->handed_over && peer_state(p->master) == MAD_SM_STANDBY;
}

static bool peer_asked(const struct peer *p)
{
	return p->asked;
}

/* A STANDBY that outranks the master tells it with Trap 144 (SM priority
 * changed), as OpenSM does on every poll: the master represses it, sweeps,
 * asks the peer's SMInfo and hands the subnet over.  With light sweeps off,
 * nothing else would show the master the peer. */
START_TEST(trap_144_from_a_peer_sm_elects)
{
	struct node_sm a;
	struct peer p = { .trap_tid = 0x1440001, .master = &a };
	struct mad_port_info pi;
	uint32_t h2 = peer_node_of(sim, "H2");

	rpc_timeout_ms = 500;	/* the peer answers from the test's thread */
	start_cfg(&a, "H0", 5, KEY, 0, 0, 0);
	rpc_timeout_ms = 20;
	wait_for(&a, MAD_SM_MASTER, 0, step_ms);
	ck_assert_int_eq(sim_transport_new_at(sim, h2, 1, &p.t), 0);
	p.guid = sim_fabric_topo(sim)->nodes[h2].ports[1].guid;
	ck_assert(!peer_serve(&p, peer_asked, 1000));	/* the master has not seen it */
	ck_assert_int_eq(sim_get_port_info(sim, peer_node_of(sim, "H0"), 1, &pi), 0);
	struct mad_notice n = { .is_generic = true, .type = 4, .producer_type = 1,
				.trap_num = MAD_TRAP_CAPMASK_CHANGE };
	struct mad_port_info own;
	ck_assert_int_eq(sim_get_port_info(sim, h2, 1, &own), 0);
	n.issuer_lid = own.lid;
	mad_notice_set_lid(&n, own.lid);
	n.details[5] = 1;		/* OtherLocalChanges */
	n.details[11] = 0x08;		/* SM priority changed */
	struct mad_smp trap;
	uint8_t buf[MAD_BLOCK_SIZE];
	mad_smp_init_lid(&trap, MAD_METHOD_TRAP, MAD_ATTR_NOTICE, 0);
	trap.tid = p.trap_tid;
	mad_notice_encode(&n, trap.data);
	mad_smp_encode(&trap, buf);
	const struct mad_addr to_master = { .lid = pi.lid };
	ck_assert_int_eq(p.t->ops->send(p.t, buf, &to_master), 0);
	ck_assert_msg(peer_serve(&p, peer_handed_over, step_ms),
		      "after Trap 144: repressed %d, asked %d, HANDOVER %d, the master %s",
		      p.repressed, p.asked, p.handed_over, mad_sm_state_name(peer_state(&a)));
	mad_transport_close(p.t);
	peer_kill(&a);
}
END_TEST

/* A STANDBY at the defaults only polls its master, as OpenSM's does: one
 * SMP per poll interval; with ha.standby_sweeps it keeps light sweeps. */
START_TEST(standby_only_polls)
{
	for (unsigned sweeps_on = 0; sweeps_on <= 1; sweeps_on++) {
		struct node_sm a, b;
		master_and_standby(&a, 10, KEY, &b, 5, KEY);
		b.sm.cfg.ha_standby_sweeps = sweeps_on;	/* read by the loop: a word */
		usleep(100000);
		uint64_t polls = __atomic_load_n(&b.sm.ha->polls, __ATOMIC_ACQUIRE);
		uint64_t sent = sm_smps_sent(&b.sm);
		usleep(3000000);
		polls = __atomic_load_n(&b.sm.ha->polls, __ATOMIC_ACQUIRE) - polls;
		sent = sm_smps_sent(&b.sm) - sent;
		printf("STANDBY, ha.standby_sweeps %u: %llu SMPs in 3 s, %llu of them polls\n",
		       sweeps_on, (unsigned long long)sent, (unsigned long long)polls);
		ck_assert_uint_ge(polls, 3000 / b.sm.cfg.ha_poll_interval_ms - 1);
		if (sweeps_on)
			ck_assert_uint_gt(sent, polls + 5);	/* a light sweep a second */
		else
			ck_assert_uint_le(sent, polls + 1);	/* + an answer to A's SMInfo */
		peer_kill(&b);
		peer_kill(&a);
	}
}
END_TEST

/* `make bench` (HA_TOPO): a STANDBY's load on the fabric, in SMPs a minute
 * over HA_LOAD_S seconds (default 60) at the default sweep interval, and the
 * takeover after its master's death, with ha.standby_sweeps 0 and 1, each on
 * a fresh copy of the fabric and fresh stores. */
START_TEST(standby_load_and_takeover)
{
	unsigned secs = getenv("HA_LOAD_S") ? (unsigned)atoi(getenv("HA_LOAD_S")) : 60;
	struct sm_config defaults;

	sm_config_defaults(&defaults);
	for (unsigned on = 0; on <= 1; on++) {
		struct node_sm a, b;
		if (on) {	/* the fabric and the stores as they were for the first */
			teardown();
			setup();
		}
		start_cfg(&a, "H0", 10, KEY, 0, 0, defaults.sweep_interval_s);
		wait_for(&a, MAD_SM_MASTER, 0, step_ms);
		start_cfg(&b, "H2", 5, KEY, 0, 0, defaults.sweep_interval_s);
		b.sm.cfg.ha_standby_sweeps = on;	/* read by the loop: a word */
		wait_for(&b, MAD_SM_STANDBY, 0, step_ms);
		sleep(1);
		uint64_t sent = sm_smps_sent(&b.sm), t0 = now_ms();
		sleep(secs);
		sent = sm_smps_sent(&b.sm) - sent;
		uint64_t ms = now_ms() - t0, b_sweeps = peer_sweeps(&b);
		printf("standby load, ha.standby_sweeps %u, sweep.interval %u s: %llu SMPs in "
		       "%llu ms: %llu a minute (%llu light sweeps)\n", on,
		       defaults.sweep_interval_s, (unsigned long long)sent, (unsigned long long)ms,
		       (unsigned long long)(sent * 60000 / ms),
		       (unsigned long long)__atomic_load_n(&b.sm.light_sweeps, __ATOMIC_ACQUIRE));
		peer_kill(&a);
		uint64_t took = wait_for(&b, MAD_SM_MASTER, b_sweeps, step_ms);
		printf("takeover, ha.standby_sweeps %u: %llu ms after the master's death "
		       "(poll %u ms x %u), %u nodes\n", on, (unsigned long long)took,
		       b.sm.cfg.ha_poll_interval_ms, b.sm.cfg.ha_poll_retries,
		       sim_fabric_topo(sim)->n);
		peer_kill(&b);
	}
}
END_TEST

START_TEST(rank_is_priority_then_lowest_guid)
{
	ck_assert(sm_ha_outranks(10, 0x20, 5, 0x10));
	ck_assert(!sm_ha_outranks(5, 0x10, 10, 0x20));
	ck_assert(sm_ha_outranks(7, 0x10, 7, 0x20));
	ck_assert(!sm_ha_outranks(7, 0x20, 7, 0x10));
	ck_assert(!sm_ha_outranks(7, 0x10, 7, 0x10));
}
END_TEST

static Suite *ha_suite(void)
{
	Suite *s = suite_create("sm_ha");
	TCase *tc = tcase_create("two SMs");

	bench_topo = getenv("HA_TOPO");
	if (bench_topo)
		step_ms = 60000;
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, bench_topo ? 1800 : 60);
	if (!bench_topo)
		tcase_add_test(tc, rank_is_priority_then_lowest_guid);
	tcase_add_test(tc, failover_then_handover_back);
	if (bench_topo)
		tcase_add_test(tc, standby_load_and_takeover);
	if (!bench_topo) {
		tcase_add_test(tc, rogue_with_wrong_key_never_masters);
		tcase_add_test(tc, sm_key_shown_as_opensm_reads_it);
		tcase_add_test(tc, handover_with_mkey_on);
		tcase_add_test(tc, two_masters_with_one_key_meet);
		tcase_add_test(tc, two_masters_with_different_keys_meet);
		tcase_add_test(tc, trap_144_from_a_peer_sm_elects);
		tcase_add_test(tc, standby_only_polls);
		tcase_add_test(tc, failover_hosts_rejoin);
	}
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(ha_suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_mkey.c - M_Key (IBA 14.2.4) end to end on the simulated fabric.
 *
 * The derivation (SipHash-2-4 against its published vectors, one key per
 * GUID); the sim's SMA with a wrong key (level 1 hides the key, level 2 drops
 * Gets, Sets always fail, Trap 256, the lease); an SM that sets keys and
 * sweeps again with every SMP carrying the right key (no violation counted on
 * any port); a rogue SMP, through the SM's port or from a host of its own,
 * that can neither change a port nor read it, reported as a trap 256 event; a spare holding a key nobody knows, reported and taken
 * over once its lease runs out; and M_Key off touching no key.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/sim/mad_sim.h"
#include "sm/core/sm.h"
#include "sm/util/sm_log.h"
#include "sm/core/sm_mkey.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

#define KEY 0x1122334455667788ull
#define OLD_KEY 0xdeadbeef00c0ffeeull

static char dbdir[] = "/tmp/ibsmd-mkey-XXXXXX";
static char dbpath[256];

static void setup(void)
{
	strcpy(dbdir, "/tmp/ibsmd-mkey-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dbdir));
	snprintf(dbpath, sizeof(dbpath), "%s/sm.db", dbdir);
	sm_log_set_level(getenv("MKEY_DEBUG") ? LOG_DEBUG : LOG_CRIT);
}

static void teardown(void)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dbdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* An SM on twoswitch.topo (attached at H0) with M_Key @key / @secret. */
static void sm_start(struct sm *sm, uint64_t key, const char *secret, uint8_t protect,
		     uint16_t lease_s)
{
	memset(sm, 0, sizeof(*sm));
	sm_config_defaults(&sm->cfg);
	snprintf(sm->cfg.backend, sizeof(sm->cfg.backend), "sim:%s/tests/topo/twoswitch.topo",
		 getenv("top_srcdir") ? getenv("top_srcdir") : ".");
	snprintf(sm->cfg.db_path, sizeof(sm->cfg.db_path), "%s", dbpath);
	sm->cfg.timeout_ms = 20;
	sm->cfg.retries = 1;
	sm->cfg.mkey_key = key;
	snprintf(sm->cfg.mkey_secret, sizeof(sm->cfg.mkey_secret), "%s", secret);
	sm->cfg.mkey_protect = protect;
	sm->cfg.mkey_lease_s = lease_s;
	ck_assert_int_eq(sm_open(sm), 0);
}

static struct sim_fabric *fab(struct sm *sm)
{
	return sim_transport_fabric(sm->t);
}

static uint32_t node_named(struct sim_fabric *f, const char *name)
{
	const struct topo *t = sim_fabric_topo(f);

	for (uint32_t n = 0; n < t->n; n++)
		if (strcmp(t->nodes[n].name, name) == 0)
			return n;
	ck_abort_msg("no node %s", name);
	return TOPO_NONE;
}

static struct mad_port_info port_info(struct sim_fabric *f, uint32_t node, uint8_t port)
{
	struct mad_port_info pi;

	ck_assert_int_eq(sim_get_port_info(f, node, port, &pi), 0);
	return pi;
}

/* Calls @fn for every port holding a key: a switch's port 0, every CA port. */
static void each_key_port(struct sim_fabric *f, void (*fn)(struct sim_fabric *f, uint32_t n,
							  uint8_t p, void *arg), void *arg)
{
	const struct topo *t = sim_fabric_topo(f);

	for (uint32_t n = 0; n < t->n; n++) {
		bool sw = t->nodes[n].type == MAD_NODE_SWITCH;
		for (unsigned p = sw ? 0 : 1; p <= (sw ? 0u : t->nodes[n].nports); p++)
			fn(f, n, (uint8_t)p, arg);
	}
}

/* A raw SMP as a rogue would send it through the SM's port: H0 -> SA -> H1. */
static int rogue(struct sm *sm, uint8_t method, uint64_t mkey, struct mad_port_info *pi)
{
	struct topo_path path = { 0 };
	struct mad_smp req, resp;
	static const struct mad_addr dr = { .lid = MAD_LID_PERMISSIVE };

	ck_assert_int_eq(mad_drpath_push(&path, 1), 0);
	ck_assert_int_eq(mad_drpath_push(&path, 2), 0);
	mad_smp_init_dr(&req, method, MAD_ATTR_PORT_INFO, 1, &path);
	req.mkey = mkey;
	if (method == MAD_METHOD_SET)
		mad_port_info_encode(pi, req.data);
	int rc = mad_rpc_call(sm->rpc, &req, &dr, &resp);
	if (rc == 0)
		ck_assert_int_eq(mad_port_info_decode(resp.data, pi), 0);
	return rc;
}

struct ev_count {
	const char *kind, *detail;
	int n;
};

static int count_one(void *arg, const struct db_event *ev)
{
	struct ev_count *c = arg;

	if (strcmp(ev->kind, c->kind) == 0 && (!c->detail || strstr(ev->detail, c->detail)))
		c->n++;
	return 0;
}

static int events(struct sm *sm, const char *kind, const char *detail)
{
	struct ev_count c = { .kind = kind, .detail = detail };

	ck_assert_int_eq(db_events_each(sm->db, 0, count_one, &c), 0);
	return c.n;
}

START_TEST(siphash_matches_the_reference_vectors)
{
	const uint64_t k[2] = { 0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull };
	uint8_t msg[15];

	for (unsigned i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)i;
	ck_assert_uint_eq(sm_siphash(k, msg, 0), 0x726fdb47dd0e0e31ull);
	ck_assert_uint_eq(sm_siphash(k, msg, 15), 0xa129ca6149be45e5ull);
	ck_assert_uint_eq(sm_siphash(k, msg, 8), 0x93f5f5799a932462ull);
}
END_TEST

START_TEST(derived_keys_differ_per_port_and_secret)
{
	struct sm_config c;
	struct sm_mkeys a = { 0 }, b = { 0 };

	sm_config_defaults(&c);
	ck_assert_int_eq(sm_mkey_setup(&a, &c, NULL, NULL), 0);
	ck_assert(!a.on);	/* the default: off */
	ck_assert_uint_eq(sm_mkey_wanted(&a, 0x0002c90300000001ull), 0);
	snprintf(c.mkey_secret, sizeof(c.mkey_secret), "s3cret");
	ck_assert_int_eq(sm_mkey_setup(&a, &c, NULL, NULL), 0);
	snprintf(c.mkey_secret, sizeof(c.mkey_secret), "s3cret2");
	ck_assert_int_eq(sm_mkey_setup(&b, &c, NULL, NULL), 0);
	ck_assert(a.on && a.derive);
	uint64_t k1 = sm_mkey_wanted(&a, 0x0002c90300000001ull);
	uint64_t k2 = sm_mkey_wanted(&a, 0x0002c90300000002ull);
	ck_assert_uint_ne(k1, 0);
	ck_assert_uint_ne(k1, k2);
	ck_assert_uint_eq(k1, sm_mkey_wanted(&a, 0x0002c90300000001ull));	/* stable */
	ck_assert_uint_ne(k1, sm_mkey_wanted(&b, 0x0002c90300000001ull));
	sm_mkey_free(&a);
	sm_mkey_free(&b);
}
END_TEST

/* The sim's SMA per IBA table 127, and its lease timer. */
START_TEST(sim_enforces_protect_levels_and_the_lease)
{
	struct sm sm;
	struct mad_port_info pi;
	struct sim_stats st0, st1;

	sm_start(&sm, 0, "", 0, 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);	/* LIDs and SM LIDs: traps can go */
	uint32_t h1 = node_named(fab(&sm), "H1");
	ck_assert_int_eq(sim_set_mkey(fab(&sm), h1, 1, KEY, 1, 1), 0);

	/* level 1: a Get with a wrong key answers, M_Key zeroed; the right one shows it */
	ck_assert_int_eq(rogue(&sm, MAD_METHOD_GET, 0, &pi), 0);
	ck_assert_uint_eq(pi.mkey, 0);
	ck_assert_int_eq(rogue(&sm, MAD_METHOD_GET, KEY, &pi), 0);
	ck_assert_uint_eq(pi.mkey, KEY);
	ck_assert_uint_eq(port_info(fab(&sm), h1, 1).mkey_violations, 0);

	/* a Set with a wrong key fails (no answer), counts, traps, starts the lease */
	sim_get_stats(fab(&sm), &st0);
	pi.lid = 77;
	ck_assert_int_eq(rogue(&sm, MAD_METHOD_SET, 1, &pi), -ETIMEDOUT);
	sim_get_stats(fab(&sm), &st1);
	ck_assert_uint_ne(port_info(fab(&sm), h1, 1).lid, 77);
	ck_assert_uint_ge(port_info(fab(&sm), h1, 1).mkey_violations, 1);
	ck_assert_uint_gt(st1.traps, st0.traps);

	/* level 2: a Get with a wrong key fails too */
	ck_assert_int_eq(sim_set_mkey(fab(&sm), h1, 1, KEY, 2, 1), 0);
	ck_assert_int_eq(rogue(&sm, MAD_METHOD_GET, 0, &pi), -ETIMEDOUT);
	/* ... until the lease (1 s) runs out: the protect bits are cleared */
	usleep(1100 * 1000);
	ck_assert_int_eq(rogue(&sm, MAD_METHOD_GET, 0, &pi), 0);
	ck_assert_uint_eq(pi.mkey, KEY);
	ck_assert_uint_eq(pi.mkey_prot, 0);
	sm_close(&sm);
}
END_TEST

static void holds_key(struct sim_fabric *f, uint32_t n, uint8_t p, void *arg)
{
	const struct sm_mkeys *k = arg;
	struct mad_port_info pi = port_info(f, n, p);
	uint64_t guid = sim_fabric_topo(f)->nodes[n].ports[p].guid;

	ck_assert_uint_eq(pi.mkey, sm_mkey_wanted(k, guid));
	ck_assert_uint_eq(pi.mkey_prot, k->protect);
	ck_assert_uint_eq(pi.mkey_lease, k->lease_s);
	ck_assert_uint_eq(pi.mkey_violations, 0);	/* the SM never sent a wrong key */
}

static int count_stored(void *arg, uint64_t guid, uint64_t mkey)
{
	(void)guid;
	(void)mkey;
	(*(int *)arg)++;
	return 0;
}

/* Keys set everywhere; a second heavy sweep and a light sweep get through. */
static void programs_keys(const char *secret, uint64_t key)
{
	struct sm sm;
	struct sm_mkeys k = { 0 };
	struct sim_stats before, after;

	sm_start(&sm, key, secret, 2, 60);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sm_mkey_setup(&k, &sm.cfg, NULL, NULL), 0);
	each_key_port(fab(&sm), holds_key, &k);
	int stored = 0;
	ck_assert_int_eq(db_mkeys_load(sm.db, count_stored, &stored), 0);
	ck_assert_int_eq(stored, 2 + 5 + 1);	/* 2 switches, 5 CAs + HD's second port */

	sim_get_stats(fab(&sm), &before);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sm_sweep_light(&sm), 0);
	sim_get_stats(fab(&sm), &after);
	ck_assert_uint_eq(after.sets, before.sets);	/* nothing left to change */
	ck_assert_uint_gt(after.gets, before.gets);
	each_key_port(fab(&sm), holds_key, &k);
	ck_assert_int_eq(events(&sm, DB_EV_TRAP, "trap 256"), 0);

	/* a restart against the same fabric: the SM forgets all but its store,
	 * and finds its way in by the stored topology and keys (at level 2 a
	 * probe with a wrong key goes unanswered) */
	sm_fabric_free(&sm.fabric);
	sm.have_fabric = false;
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(sm.fabric.topo.n, 7);
	each_key_port(fab(&sm), holds_key, &k);
	ck_assert_int_eq(events(&sm, DB_EV_TRAP, "trap 256"), 0);
	sm_close(&sm);
	sm_mkey_free(&k);
}

START_TEST(sm_sets_one_key_and_sweeps_again)
{
	programs_keys("", KEY);
}
END_TEST

START_TEST(sm_sets_derived_keys_and_sweeps_again)
{
	programs_keys("tenant fabric", 0);
}
END_TEST

/* A new key (as SIGHUP applies it): the SM gets in with the keys it stored,
 * over a restart too, and sets the new ones without a single violation. */
START_TEST(changed_key_is_rolled_out_with_the_stored_ones)
{
	struct sm sm;
	struct sm_mkeys k = { 0 };

	sm_start(&sm, KEY, "", 2, 60);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sm_fabric_free(&sm.fabric);	/* and a restart, as above */
	sm.have_fabric = false;
	snprintf(sm.cfg.mkey_secret, sizeof(sm.cfg.mkey_secret), "rotated");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sm_mkey_setup(&k, &sm.cfg, NULL, NULL), 0);
	each_key_port(fab(&sm), holds_key, &k);
	ck_assert_int_eq(events(&sm, "mkey_foreign", NULL), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sm_close(&sm);
	sm_mkey_free(&k);
}
END_TEST

/* A device that answers a key Set without taking the key (as ibsim): asked
 * once, then left alone; its neighbours keep theirs. */
START_TEST(port_that_does_not_take_a_key_is_not_asked_again)
{
	struct sm sm;
	struct sim_stats before, after;

	sm_start(&sm, KEY, "", 1, 60);
	uint32_t h3 = node_named(fab(&sm), "H3");
	ck_assert_int_eq(sim_node_set_quirks(fab(&sm), h3, SIM_QUIRK_NO_MKEY), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(port_info(fab(&sm), h3, 1).mkey, 0);
	ck_assert_uint_eq(port_info(fab(&sm), node_named(fab(&sm), "H2"), 1).mkey, KEY);
	sim_get_stats(fab(&sm), &before);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(fab(&sm), &after);
	ck_assert_uint_eq(after.sets, before.sets);
	sm_close(&sm);
}
END_TEST

START_TEST(rogue_can_neither_change_nor_read_and_is_reported)
{
	struct sm sm;
	struct mad_port_info pi;

	sm_start(&sm, KEY, "", 2, 60);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	uint32_t h1 = node_named(fab(&sm), "H1");
	struct mad_port_info was = port_info(fab(&sm), h1, 1);

	ck_assert_int_eq(rogue(&sm, MAD_METHOD_GET, 0, &pi), -ETIMEDOUT);
	ck_assert_int_eq(rogue(&sm, MAD_METHOD_GET, KEY ^ 1, &pi), -ETIMEDOUT);
	pi = was;
	pi.lid = 99;
	pi.mkey = 0;
	pi.port_state = MAD_PORT_NOP;
	pi.phys_state = MAD_PHYS_DISABLED;
	ck_assert_int_eq(rogue(&sm, MAD_METHOD_SET, 0, &pi), -ETIMEDOUT);
	struct mad_port_info now = port_info(fab(&sm), h1, 1);
	ck_assert_uint_eq(now.lid, was.lid);
	ck_assert_uint_eq(now.mkey, KEY);
	ck_assert_uint_eq(now.port_state, MAD_PORT_ACTIVE);
	ck_assert_uint_ge(now.mkey_violations, 3);
	/* each attempt raised Trap 256 to the SM, which recorded it */
	ck_assert_int_ge(events(&sm, DB_EV_TRAP, "trap 256"), 3);
	/* the SM itself still gets in */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sm_close(&sm);
}
END_TEST

/* A Get to H1 carrying H2's real key (one a stale SM would send): the trap
 * 256 it raises is logged and recorded without the key. */
START_TEST(bad_key_trap_does_not_log_the_key)
{
	struct sm sm;
	struct mad_port_info pi;
	char logpath[300], hex[17], *text = NULL;
	size_t len = 0;

	snprintf(logpath, sizeof(logpath), "%s/ibsmd.log", dbdir);
	sm_start(&sm, 0, "trap secret", 2, 60);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	uint64_t h2_key = port_info(fab(&sm), node_named(fab(&sm), "H2"), 1).mkey;
	ck_assert_uint_ne(h2_key, 0);
	ck_assert_int_eq(sm_log_open(logpath, LOG_DEBUG, 0), 0);
	ck_assert_int_eq(rogue(&sm, MAD_METHOD_GET, h2_key, &pi), -ETIMEDOUT);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);	/* the trap is surely taken */
	sm_log_set_level(LOG_CRIT);	/* left open: other threads may log */
	ck_assert_int_ge(events(&sm, DB_EV_TRAP, "trap 256"), 1);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h2_key);
	ck_assert_int_eq(events(&sm, DB_EV_TRAP, hex + 4), 0);
	FILE *f = fopen(logpath, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ne(getdelim(&text, &len, '\0', f), -1);
	fclose(f);
	ck_assert_msg(!strstr(text, hex + 4), "H2's key %s logged:\n%s", hex, text);
	ck_assert_msg(strstr(text, "carrying a wrong M_Key (the key is not logged"), "%s", text);
	free(text);
	sm_close(&sm);
}
END_TEST

/* A rogue host with a transport of its own on the fabric (at H3), going for H1
 * along H3 -> SB -> SA -> H1: no read, no change, and the SM hears of it. */
START_TEST(rogue_host_on_the_fabric_is_refused_and_reported)
{
	struct sm sm;
	struct mad_transport *t;
	const struct mad_rpc_opts o = { .window = 4, .timeout_ms = 20, .retries = 0 };
	static const struct mad_addr dr = { .lid = MAD_LID_PERMISSIVE };
	struct topo_path path = { 0 };
	struct mad_smp req, resp;

	sm_start(&sm, KEY, "", 2, 60);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	uint32_t h1 = node_named(fab(&sm), "H1");
	struct mad_port_info was = port_info(fab(&sm), h1, 1);
	ck_assert_int_eq(sim_transport_new_at(fab(&sm), node_named(fab(&sm), "H3"), 1, &t), 0);
	struct mad_rpc *rpc = mad_rpc_new(t, &o);
	ck_assert_ptr_nonnull(rpc);
	ck_assert_int_eq(mad_drpath_push(&path, 1), 0);
	ck_assert_int_eq(mad_drpath_push(&path, 3), 0);
	ck_assert_int_eq(mad_drpath_push(&path, 2), 0);

	mad_smp_init_dr(&req, MAD_METHOD_GET, MAD_ATTR_PORT_INFO, 1, &path);
	req.mkey = KEY + 1;
	ck_assert_int_eq(mad_rpc_call(rpc, &req, &dr, &resp), -ETIMEDOUT);
	struct mad_port_info pi = was;
	pi.lid = 99;
	pi.port_state = MAD_PORT_DOWN;
	mad_smp_init_dr(&req, MAD_METHOD_SET, MAD_ATTR_PORT_INFO, 1, &path);
	req.mkey = 0;
	mad_port_info_encode(&pi, req.data);
	ck_assert_int_eq(mad_rpc_call(rpc, &req, &dr, &resp), -ETIMEDOUT);
	ck_assert_uint_eq(port_info(fab(&sm), h1, 1).lid, was.lid);
	ck_assert_uint_eq(port_info(fab(&sm), h1, 1).port_state, MAD_PORT_ACTIVE);

	/* the traps went to H1's SM, ours: it takes them when it next listens */
	for (int i = 0; i < 20 && events(&sm, DB_EV_TRAP, "trap 256") < 2; i++)
		ck_assert_int_ge(mad_rpc_poll(sm.rpc, 10), 0);
	ck_assert_int_eq(events(&sm, DB_EV_TRAP, "trap 256"), 2);
	mad_rpc_free(rpc);
	mad_transport_close(t);
	sm_close(&sm);
}
END_TEST

/* A spare that another SM left with a key: reported, then taken over once its
 * lease runs out.  At level 1 (_i = 1) its Gets answer with the key hidden and
 * the SM's Sets go unanswered; at level 2 even NodeInfo goes unanswered. */
START_TEST(spare_with_unknown_key_is_reported_and_recovered_after_its_lease)
{
	struct sm sm;
	uint8_t level = (uint8_t)_i;

	sm_start(&sm, KEY, "", 1, 60);
	uint32_t h2 = node_named(fab(&sm), "H2");
	ck_assert_int_eq(sim_set_mkey(fab(&sm), h2, 1, OLD_KEY, level, 1), 0);
	int rc = sm_sweep_heavy(&sm);
	ck_assert_uint_eq(port_info(fab(&sm), h2, 1).mkey, OLD_KEY);
	if (level == 1) {
		ck_assert_int_ne(rc, 0);	/* H2 ignores the SM's Sets */
		ck_assert_int_ge(events(&sm, "mkey_unknown", NULL), 1);
	} else {
		ck_assert_uint_eq(sm.fabric.topo.n, 6);	/* H2 is not seen */
		ck_assert_int_ge(events(&sm, "unresponsive", NULL), 1);
	}
	ck_assert_int_eq(events(&sm, "mkey_foreign", NULL), 0);

	usleep(1100 * 1000);	/* H2's lease runs out: its key can be read */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	struct mad_port_info pi = port_info(fab(&sm), h2, 1);
	ck_assert_uint_eq(pi.mkey, KEY);
	ck_assert_uint_eq(pi.mkey_prot, 1);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ACTIVE);
	ck_assert_int_eq(events(&sm, "mkey_foreign", NULL), 1);
	sm_close(&sm);
}
END_TEST

static void untouched(struct sim_fabric *f, uint32_t n, uint8_t p, void *arg)
{
	struct mad_port_info pi = port_info(f, n, p);

	(void)arg;
	ck_assert_uint_eq(pi.mkey, 0);
	ck_assert_uint_eq(pi.mkey_prot, 0);
	ck_assert_uint_eq(pi.mkey_lease, 0);
}

START_TEST(mkey_off_sets_no_key)
{
	struct sm sm;
	int stored = 0;

	sm_start(&sm, 0, "", 3, 60);	/* protect and lease alone do nothing */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	each_key_port(fab(&sm), untouched, NULL);
	ck_assert_int_eq(db_mkeys_load(sm.db, count_stored, &stored), 0);
	ck_assert_int_eq(stored, 0);
	sm_close(&sm);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_mkey");
	TCase *tc = tcase_create("mkey");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, siphash_matches_the_reference_vectors);
	tcase_add_test(tc, derived_keys_differ_per_port_and_secret);
	tcase_add_test(tc, sim_enforces_protect_levels_and_the_lease);
	tcase_add_test(tc, sm_sets_one_key_and_sweeps_again);
	tcase_add_test(tc, sm_sets_derived_keys_and_sweeps_again);
	tcase_add_test(tc, changed_key_is_rolled_out_with_the_stored_ones);
	tcase_add_test(tc, port_that_does_not_take_a_key_is_not_asked_again);
	tcase_add_test(tc, rogue_can_neither_change_nor_read_and_is_reported);
	tcase_add_test(tc, rogue_host_on_the_fabric_is_refused_and_reported);
	tcase_add_test(tc, bad_key_trap_does_not_log_the_key);
	tcase_add_loop_test(tc, spare_with_unknown_key_is_reported_and_recovered_after_its_lease,
			    1, 3);
	tcase_add_test(tc, mkey_off_sets_no_key);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

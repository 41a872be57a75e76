// SPDX-License-Identifier: MIT
/*
 * check_sm_rereg.c - IPoIB keeps its multicast across an SM restart: the sim
 * fabric's hosts run IPoIB (sim_set_ipoib: they join the broadcast group of
 * their partitions when their port goes ACTIVE, and again only on
 * ClientReregister, as mlx5 hosts do), and after a restart of the SM on its
 * store, or a new SM on another store, the IPoIB broadcast group has every
 * CA port as a member again within the first sweep, with MFTs that carry a
 * packet from any member to every other one exactly once.  Also the
 * ClientReregister rule itself (OpenSM's osm_lid_mgr.c): the first sweep as
 * MASTER and ports new since the last sweep, only where CapabilityMask says
 * IsClientReregistrationSupported, and written 0 in every other Set although
 * the ports read it back as 1.  A join answered while the MFT Sets drain
 * makes the MFTs due again.  And the store's worst rows: each one the
 * SA's rules refuse is skipped, the rest load.
 *
 * Fabric: tests/topo/twoswitch.topo (six CA ports), the hosts at a 20 ms pace.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <check.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mad/mad_rpc.h"
#include "sm/core/sm_state.h"
#include "sm/sa/sm_mcast.h"
#include "sm/sa/sm_mcast_program.h"
#include "sm/sa/sm_part_store.h"
#include "sm/sa/sm_sa.h"
#include "sm/sa/sm_sa_alias.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"
#include "tests/check_sim_flood.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"

#define PACE_MS 20

static struct sim_fabric *f;
static struct sm sm;

static void setup(void)
{
	char err[256];

	fixture_setup();
	ck_assert_int_eq(sim_fabric_load(topo_path("twoswitch.topo"), &f, err, sizeof(err)), 0);
	sim_set_ipoib(f, PACE_MS);
}

static void teardown(void)
{
	sm_close(&sm);
	sim_fabric_free(f);
	fixture_teardown();
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint32_t node_named(const char *name)
{
	uint32_t n = topo_find_name(sim_fabric_topo(f), name);

	ck_assert_uint_ne(n, TOPO_NONE);
	return n;
}

static struct sm_mcast_group *bcast(void)
{
	uint8_t mgid[MAD_GID_LEN];

	sm_mcast_ipoib_mgid(0x7fff, mgid);
	return sm_mcast_find(&sm.sa->mcast, mgid);
}

/* Every cabled CA port a full member of the IPoIB broadcast group. */
static bool all_members(void)
{
	const struct topo *t = sim_fabric_topo(f);
	const struct sm_mcast_group *g = bcast();
	unsigned want = 0, have = 0;

	for (uint32_t n = 0; g && n < t->n; n++)
		for (unsigned p = 1; t->nodes[n].type != MAD_NODE_SWITCH && p <= t->nodes[n].nports;
		     p++) {
			if (t->nodes[n].ports[p].peer == TOPO_NONE)
				continue;
			want++;
			for (size_t i = 0; i < g->n; i++)
				have += g->members[i].guid == t->nodes[n].ports[p].guid &&
					(g->members[i].join & MAD_MC_JOIN_FULL);
		}
	return g && want && have == want;
}

/* A packet from each member of the broadcast group reaches every other
 * member exactly once, and nothing else. */
static void assert_mft_reaches_all(void)
{
	const struct topo *t = sim_fabric_topo(f);
	const struct sm_mcast_group *g = bcast();

	ck_assert_ptr_nonnull(g);
	for (size_t i = 0; i < g->n; i++) {
		uint32_t sn = TOPO_NONE;
		uint8_t sp = 0;
		for (uint32_t n = 0; n < t->n && sn == TOPO_NONE; n++)
			for (unsigned p = 1; p <= t->nodes[n].nports; p++)
				if (t->nodes[n].type != MAD_NODE_SWITCH &&
				    t->nodes[n].ports[p].guid == g->members[i].guid)
					sn = n, sp = (uint8_t)p;
		ck_assert_uint_ne(sn, TOPO_NONE);
		unsigned *hits = mcast_flood(f, sn, sp, g->mlid);
		for (uint32_t n = 0; n < t->n; n++)
			for (unsigned p = 1; t->nodes[n].type != MAD_NODE_SWITCH &&
					     p <= t->nodes[n].nports; p++) {
				bool member = false;
				for (size_t k = 0; k < g->n; k++)
					member |= k != i && g->members[k].guid == t->nodes[n].ports[p].guid;
				ck_assert_msg(hits[n * MCAST_FLOOD_PORTS + p] == member,
					      "from %s:%u, %s:%u reached %u times", t->nodes[sn].name,
					      sp, t->nodes[n].name, p, hits[n * MCAST_FLOOD_PORTS + p]);
			}
		free(hits);
	}
}

/* Serve the SA and program the MFTs, as the daemon's loop does, until every
 * CA port is a member or @ms pass; whether they all are. */
static bool run_until_all_members(uint64_t ms)
{
	uint64_t t0 = now_ms();

	while (now_ms() - t0 < ms) {
		ck_assert_int_ge(mad_rpc_poll(sm.rpc, 5), 0);
		if (sm.sa->mcast.dirty)
			ck_assert_int_eq(sm_mcast_program(&sm), 0);
		if (all_members() && !sm.sa->mcast.dirty)
			return true;
	}
	return false;
}

/* Serve the SA as the daemon's loop does until @n aliases are known and
 * none is left to program, or @ms pass; whether they were. */
static bool run_until_aliases(uint64_t ms, size_t n)
{
	uint64_t t0 = now_ms();

	while (now_ms() - t0 < ms) {
		ck_assert_int_ge(mad_rpc_poll(sm.rpc, 5), 0);
		if (sm.sa->aliases.ndue)
			ck_assert_int_eq(sm_sa_alias_program(&sm, &sm.fabric, false), 0);
		if (sm.sa->aliases.n == n && !sm.sa->aliases.ndue)
			return true;
	}
	return false;
}

static uint64_t reregs(void)
{
	struct sim_stats st;

	sim_get_stats(f, &st);
	return st.client_reregs;
}

/* An SM brings the fabric up; its hosts join as their ports go ACTIVE. */
static void first_sm(void)
{
	sm_start_on(&sm, f);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_msg(run_until_all_members(2000), "the hosts did not join at bring-up");
	assert_mft_reaches_all();
}

/* ClientReregister as OpenSM sets it: every port in the first sweep as
 * MASTER, a port that comes back later, never again otherwise; 0 in every
 * other Set, though the ports read it back as 1; not on ports without
 * IsClientReregistrationSupported. */
START_TEST(client_reregister_as_opensm)
{
	struct mad_port_info pi;

	sim_set_ipoib(f, 0);
	ck_assert_int_eq(sim_node_set_quirks(f, node_named("HD"), SIM_QUIRK_NO_CLIENT_REREG), 0);
	sm_start_on(&sm, f);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(reregs(), 4);	/* H0 H1 H2 H3; not HD's two ports */
	ck_assert(!sm.first_master_sweep);
	/* the Set that activated the port came after, with the bit 0 */
	ck_assert_int_eq(sim_get_port_info(f, node_named("H1"), 1, &pi), 0);
	ck_assert_uint_eq(pi.client_reregister, 0);
	ck_assert_int_eq(sim_get_port_info(f, node_named("HD"), 2, &pi), 0);
	ck_assert_uint_eq(pi.client_reregister, 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(reregs(), 4);
	/* MASTER again (after a STANDBY spell): every port once more, ports
	 * already ACTIVE: the bit stays as written, 1 */
	sm.sm_state = MAD_SM_STANDBY;
	sm_state_event(&sm, SM_EV_HANDOVER, "test");
	ck_assert(sm.first_master_sweep);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(reregs(), 8);
	ck_assert_int_eq(sim_get_port_info(f, node_named("H1"), 1, &pi), 0);
	ck_assert_uint_eq(pi.client_reregister, 1);
	/* a Set H1 needs for another reason (its link narrowed): the bit 0,
	 * not the 1 the port reports */
	ck_assert_int_eq(sim_port_set_enabled(f, node_named("H1"), 1, 1, 1, 0), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sim_get_port_info(f, node_named("H1"), 1, &pi), 0);
	ck_assert_uint_ne(pi.link_width_enabled, 1);	/* the Set went */
	ck_assert_uint_eq(pi.client_reregister, 0);
	ck_assert_uint_eq(reregs(), 8);
	/* a port back after a sweep without it: new, asked */
	ck_assert_int_eq(sim_link_set(f, node_named("H3"), 1, false), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sim_link_set(f, node_named("H3"), 1, true), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(reregs(), 9);
}
END_TEST

/* The SM restarts on its store: the groups, members and MLIDs are served
 * before the first sweep, and that sweep's MFTs reach every member. */
START_TEST(restart_serves_the_groups_at_once)
{
	first_sm();
	uint16_t mlid = bcast()->mlid;
	size_t members = bcast()->n;
	sm_close(&sm);

	sm_start_on(&sm, f);
	ck_assert_msg(all_members(), "the restarted SM does not serve the group before its sweep");
	ck_assert_uint_eq(bcast()->mlid, mlid);
	ck_assert_uint_eq(bcast()->n, members);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert(all_members());
	assert_mft_reaches_all();
	ck_assert_uint_eq(reregs(), 2 * 6);	/* both SMs' first sweeps asked every host */
}
END_TEST

/* An SM with no record of the groups (another store: a standby's, say)
 * takes over: its first sweep asks the hosts to reregister, and they all
 * are members again, with MFTs that reach them, within the sweep. */
START_TEST(new_sm_hosts_rejoin)
{
	first_sm();
	sm_close(&sm);
	snprintf(dbpath, sizeof(dbpath), "%s/other.db", dbdir);

	sm_start_on(&sm, f);
	ck_assert_ptr_nonnull(bcast());
	ck_assert_uint_eq(bcast()->n, 0);
	uint64_t t0 = now_ms();
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_msg(run_until_all_members(2000), "the hosts did not join the new SM");
	printf("hosts members again %llu ms after the new SM's sweep began\n",
	       (unsigned long long)(now_ms() - t0));
	assert_mft_reaches_all();
}
END_TEST

/* A PF's VF alias GUIDs, registered with the first SM through the SA, are
 * known to an SM with no record of them (another store: a standby's, say)
 * once it takes over: its first sweep's ClientReregister makes the host
 * register them again, as mlx4's alias GUID service does. */
START_TEST(new_sm_learns_vf_aliases)
{
	const uint64_t vfs[] = { 0x0002c90300bb0001ull, 0, 0x0002c90300bb0003ull };
	uint32_t h = node_named("H1");
	uint64_t port_guid = sim_fabric_topo(f)->nodes[h].ports[1].guid, owner;

	ck_assert_int_eq(sim_set_vf_guids(f, h, 1, NULL, 0), 0);	/* none wanted */
	ck_assert_int_eq(sim_set_vf_guids(f, h, 1, vfs, 3), 0);
	ck_assert_int_eq(sim_set_vf_guids(f, h, 1, vfs, 32), -EINVAL);	/* past GUIDCap - 1 */
	ck_assert_int_eq(sim_set_vf_guids(f, node_named("SA"), 1, vfs, 3), -EINVAL);	/* a switch */
	first_sm();
	ck_assert_msg(run_until_aliases(2000, 2), "the host did not register its VF GUIDs");
	ck_assert(sm_sa_alias_find(&sm.sa->aliases, vfs[2], &owner));
	ck_assert_uint_eq(owner, port_guid);
	ck_assert_uint_eq(sm_sa_alias_at(&sm.sa->aliases, port_guid, 3), vfs[2]);
	sm_close(&sm);
	snprintf(dbpath, sizeof(dbpath), "%s/other.db", dbdir);

	sm_start_on(&sm, f);
	ck_assert_uint_eq(sm.sa->aliases.n, 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_msg(run_until_aliases(2000, 2), "the host did not register with the new SM");
	ck_assert(sm_sa_alias_find(&sm.sa->aliases, vfs[0], &owner));
	ck_assert_uint_eq(owner, port_guid);
	ck_assert_uint_eq(sm_sa_alias_at(&sm.sa->aliases, port_guid, 1), vfs[0]);
	ck_assert_uint_eq(sm_sa_alias_at(&sm.sa->aliases, port_guid, 2), 0);
	ck_assert_int_eq(sim_vf_guids_registered(f, h, 1, 0), 1);
	ck_assert_int_eq(sim_vf_guids_registered(f, h, 1, 1), 0);	/* nothing there to ask */
	struct sim_stats st;
	sim_get_stats(f, &st);
	ck_assert_uint_eq(st.alias_registered, 2);	/* one block, once with each SM */
}
END_TEST

static void ignore_answer(void *ctx, int err, const struct mad_smp *req,
			  const struct mad_smp *resp)
{
	(void)ctx;
	(void)req;
	(void)resp;
	ck_assert_int_eq(err, 0);
}

/* A join the SA answers while the MFT Sets drain is not lost: the MFTs are
 * due again, and the next programming reaches the new member.  (The
 * ClientReregister that makes the host join is queued just before: it goes
 * out, and the join comes back, while programming drains.) */
START_TEST(join_while_programming_kept)
{
	uint8_t data[SMP_DATA_SIZE];
	struct topo_path path;
	bool deleted;

	first_sm();
	uint32_t h1 = topo_find_guid(&sm.fabric.topo,
				     sim_fabric_topo(f)->nodes[node_named("H1")].guid);
	uint64_t guid = sm.fabric.topo.nodes[h1].ports[1].guid;
	ck_assert_int_eq(sm_mcast_leave(&sm.sa->mcast, bcast(), guid, MAD_MC_JOIN_FULL, &deleted),
			 0);
	ck_assert(!all_members());
	struct mad_port_info pi = sm.fabric.attrs[h1].pi[1];
	pi.port_state = MAD_PORT_NOP;
	pi.phys_state = MAD_PHYS_NOP;
	pi.link_speed_enabled = pi.link_width_enabled = pi.link_speed_ext_enabled = 0;
	pi.link_down_default = 0;
	pi.client_reregister = 1;
	sm_fabric_port_path(&sm.fabric, h1, 1, &path);
	mad_port_info_encode(&pi, data);
	ck_assert_int_eq(mad_rpc_submit_dr(sm.rpc, MAD_METHOD_SET, MAD_ATTR_PORT_INFO,
					   sm_fabric_port_info_mod(&sm.fabric, h1, 1), &path, 0, data,
					   ignore_answer, NULL), 0);
	ck_assert(!all_members());
	ck_assert_int_eq(sm_mcast_program(&sm), 0);
	ck_assert(all_members());
	ck_assert_msg(sm.sa->mcast.dirty, "a join answered during programming was forgotten");
	ck_assert_int_eq(sm_mcast_program(&sm), 0);
	assert_mft_reaches_all();
}
END_TEST

static struct sm_mcast_group *group(const char *text)
{
	uint8_t mgid[MAD_GID_LEN];

	ck_assert_int_eq(inet_pton(AF_INET6, text, mgid), 1);
	return sm_mcast_find(&sm.sa->mcast, mgid);
}

/* Rows of the store's groups that no SA would have made are skipped and
 * logged, one by one; the good ones load, a row stored before the codes
 * were kept by its MTU and rate words. */
START_TEST(stored_groups_worst_rows)
{
	static const char *const groups[] = {
		/* mgid, mlid, mtu word, rate word, mtu code, rate code, well known */
		"'ff12:601b::1', 49153, '2048', '10G', 4, 3, 0",	/* good */
		"'ff12:601b::2', 49154, '4096', '100G', NULL, NULL, 0",	/* before the codes */
		"'nonsense', 49155, '2048', '10G', 4, 3, 0",
		"'fe80::1', 49156, '2048', '10G', 4, 3, 0",		/* unicast */
		"'ff12:601b::3', 16, '2048', '10G', 4, 3, 0",		/* no MLID */
		"'ff12:601b::4', 49153, '2048', '10G', 4, 3, 0",	/* ::1's MLID */
		"'ff12:601b::5', 49157, '2048', '10G', 4, 3, 0",	/* a JoinState 0 */
		"'ff12:601b::6', 49158, '2048', '10G', 4, 3, 0",	/* send-only alone */
		"'ff12:601b::7', 49159, NULL, '10G', 9, 3, 0",		/* MTU code 9 */
		"'ff12:601b::8', 49160, '2048', '10G', 4, 3, 0",	/* a member GUID 0 */
		"'ff12:601b::9', 49161, '2048', '10G', 4, 3, 1",	/* well known, empty */
	};
	static const char *const members[] = {
		"'ff12:601b::1', %lld, 1", "'ff12:601b::2', %lld, 9", "'nonsense', %lld, 1",
		"'fe80::1', %lld, 1", "'ff12:601b::3', %lld, 1", "'ff12:601b::4', %lld, 1",
		"'ff12:601b::5', %lld, 0", "'ff12:601b::6', %lld, 4", "'ff12:601b::7', %lld, 1",
		"'ff12:601b::8', 0, 1",
	};
	long long h1 = (long long)sim_fabric_topo(f)->nodes[node_named("H1")].ports[1].guid;
	char sql[512];
	sqlite3 *db;

	sm_start_on(&sm, f);	/* a store with the schema */
	sm_close(&sm);
	ck_assert_int_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		snprintf(sql, sizeof(sql), "INSERT INTO mcast_groups (mgid, mlid, mtu, rate, "
			 "mtu_code, rate_code, well_known, pkey, qkey, sl, tree_switches) "
			 "VALUES (%s, 65535, 4660, 0, 0)", groups[i]);
		ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK, "%s: %s", sql,
			      sqlite3_errmsg(db));
	}
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		char row[128];
		snprintf(row, sizeof(row), members[i], h1);
		snprintf(sql, sizeof(sql), "INSERT INTO mcast_members (mgid, guid, join_state) "
			 "VALUES (%s)", row);
		ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK, "%s: %s", sql,
			      sqlite3_errmsg(db));
	}
	sqlite3_close(db);

	sm_start_on(&sm, f);
	const struct sm_mcast_group *g = group("ff12:601b::1");
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->mlid, 0xc001);
	ck_assert_uint_eq(g->n, 1);
	ck_assert_uint_eq(g->members[0].guid, (uint64_t)h1);
	ck_assert_uint_eq(g->members[0].join, MAD_MC_JOIN_FULL);
	ck_assert_uint_eq(g->qkey, 4660);
	g = group("ff12:601b::2");
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->mtu, 5);
	ck_assert_uint_eq(g->rate, 16);
	ck_assert_uint_eq(g->members[0].join, 9);
	ck_assert_ptr_nonnull(group("ff12:601b::9"));	/* an IPoIB-like group, kept empty */
	static const char *const gone[] = {
		"fe80::1", "ff12:601b::3", "ff12:601b::4", "ff12:601b::5", "ff12:601b::6",
		"ff12:601b::7", "ff12:601b::8",
	};
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		ck_assert_msg(!group(gone[i]), "%s loaded", gone[i]);
	/* the IPoIB group the partitions make, and the three loaded */
	ck_assert_uint_eq(sm.sa->mcast.n, 4);
	ck_assert_uint_eq(sm.sa->mcast.mlids, 4);
	/* they go back to the store as they are */
	ck_assert_int_eq(sm_mcast_store(&sm), 0);
	sm_close(&sm);
	sm_start_on(&sm, f);
	ck_assert_uint_eq(sm.sa->mcast.n, 4);
	ck_assert_uint_eq(group("ff12:601b::2")->mtu, 5);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_rereg");
	TCase *tc = tcase_create("sim");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, client_reregister_as_opensm);
	tcase_add_test(tc, restart_serves_the_groups_at_once);
	tcase_add_test(tc, new_sm_hosts_rejoin);
	tcase_add_test(tc, new_sm_learns_vf_aliases);
	tcase_add_test(tc, stored_groups_worst_rows);
	tcase_add_test(tc, join_while_programming_kept);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

// SPDX-License-Identifier: MIT
/*
 * check_db_topo.c - storing snapshots: the round trip, the diff as events,
 * aborted and crashed sweeps, a full disk, and the time to store a large one.
 */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "db/db_int.h"
#include "mad/mad_attr.h"
#include "tests/check_db_fixture.h"
#include "tests/check_util.h"

/* Events after @since, as "kind guid[port] detail" lines. */
struct ev_log {
	char text[8192];
	int n;
	int64_t last;
};

static int ev_collect(void *arg, const struct db_event *ev)
{
	struct ev_log *log = arg;
	size_t used = strlen(log->text);

	snprintf(log->text + used, sizeof(log->text) - used, "%s 0x%016" PRIx64 "[%d] %s\n",
		 ev->kind, ev->guid, ev->port, ev->detail);
	log->n++;
	log->last = ev->id;
	return 0;
}

static void ev_since(struct db *db, struct ev_log *log)
{
	int64_t since = log->last;

	memset(log, 0, sizeof(*log));
	log->last = since;
	ck_assert_int_eq(db_events_each(db, since, ev_collect, log), 0);
}

static int count_kind(const struct ev_log *log, const char *kind)
{
	int n = 0;
	size_t len = strlen(kind);

	for (const char *p = log->text; (p = strstr(p, kind)); p += len)
		if ((p == log->text || p[-1] == '\n') && p[len] == ' ')
			n++;
	return n;
}

static int sweep(struct db *db, const struct topo *t)
{
	int64_t id;

	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), 0);
	int n = db_store_topology(db, id, t);
	ck_assert_msg(n >= 0, "%s", db_errmsg(db));
	ck_assert_int_eq(db_sweep_end(db, id, NULL), 0);
	return n;
}

static void assert_stored(struct db *db, const struct topo *want)
{
	struct topo back;
	char why[128];

	ck_assert_int_eq(db_load_topology(db, &back), 0);
	ck_assert_msg(fix_topo_equal(want, &back, why, sizeof(why)), "%s", why);
	topo_free(&back);
}

START_TEST(round_trip)
{
	char *path = fix_tmp_path();
	struct topo t, back;
	char why[128];

	fix_small(&t);
	t.nodes[4].ports[1].lmc = 2;
	struct db *db = fix_store(path, &t);
	ck_assert_int_eq(db_load_topology(db, &back), 0);
	ck_assert_msg(fix_topo_equal(&t, &back, why, sizeof(why)), "%s", why);
	/* same order, links both ways, the GUID above 2^63 intact */
	for (uint32_t i = 0; i < t.n; i++)
		ck_assert_uint_eq(back.nodes[i].guid, t.nodes[i].guid);
	ck_assert_uint_eq(topo_count_links(&back), 6);
	uint32_t s2 = topo_find_guid(&back, FIX_SW2);
	ck_assert_uint_eq(back.nodes[s2].path.hops, 1);
	ck_assert_uint_eq(back.nodes[s2].ports[8].peer, topo_find_guid(&back, FIX_SW1));
	ck_assert_uint_eq(back.nodes[s2].ports[8].peer_port, 8);
	int64_t first, last;
	ck_assert_int_eq(db_node_seen(db, FIX_SW2, &first, &last), 0);
	ck_assert_int_eq(first, FIX_TIME_MS);
	ck_assert_int_eq(db_node_seen(db, 0x1234, &first, &last), -ENOENT);
	topo_free(&back);
	db_close(db);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

START_TEST(diff_events)
{
	char *path = fix_tmp_path();
	struct ev_log log = { .last = 0 };
	struct topo t;

	fix_small(&t);
	struct db *db = fix_store(path, &t);
	ev_since(db, &log);
	/* a cold store: the fabric in one event, no node_added / link_added */
	ck_assert_int_eq(log.n, 1);
	ck_assert_str_eq(log.text, "discovered 0x0000000000000000[-1] 5 nodes (2 switches, 3 CAs, "
			 "0 routers), 6 links\n");

	/* the same snapshot again: nothing happened */
	db_freeze_clock(db, FIX_TIME_MS + 1000);
	ck_assert_int_eq(sweep(db, &t), 0);
	ev_since(db, &log);
	ck_assert_int_eq(log.n, 0);
	int64_t first, last;
	ck_assert_int_eq(db_node_seen(db, FIX_H1, &first, &last), 0);
	ck_assert_int_eq(first, FIX_TIME_MS);
	ck_assert_int_eq(last, FIX_TIME_MS + 1000);

	/* add a node */
	fix_add_host(&t, 0x0002c9030000f000ULL, "node04 mlx5_0", 9, 0, 3);
	ck_assert_int_eq(sweep(db, &t), 3);
	ev_since(db, &log);
	ck_assert_msg(strstr(log.text, "port_changed 0x0002c9030000a000[3] state Down -> Active, "
			     "phys Polling -> LinkUp, speed QDR -> DDR\n"), "%s", log.text);
	ck_assert_msg(strstr(log.text, "node_added 0x0002c9030000f000[-1] Ca 1 ports "
			     "\"node04 mlx5_0\"\n"), "%s", log.text);
	ck_assert_msg(strstr(log.text, "link_added 0x0002c9030000a000[3] 0x0002c9030000a000[3] "
			     "\"leaf-1\" - 0x0002c9030000f000[1] \"node04 mlx5_0\"\n"),
		      "%s", log.text);
	assert_stored(db, &t);

	/* remove a link (one of the two parallel trunks) and take the port down */
	struct topo_node *s1 = &t.nodes[0], *s2 = &t.nodes[1];
	s1->ports[8].peer = s2->ports[8].peer = TOPO_NONE;
	s1->ports[8].peer_port = s2->ports[8].peer_port = 0;
	s1->ports[8].state = MAD_PORT_DOWN;
	s1->ports[8].phys_state = MAD_PHYS_POLLING;
	ck_assert_int_eq(sweep(db, &t), 2);
	ev_since(db, &log);
	ck_assert_int_eq(count_kind(&log, DB_EV_LINK_REMOVED), 1);
	ck_assert_msg(strstr(log.text, "port_changed 0x0002c9030000a000[8] state Active -> Down, "
			     "phys LinkUp -> Polling\n"), "%s", log.text);
	assert_stored(db, &t);

	/* a new description and a LID: node_changed and port_changed */
	snprintf(t.nodes[2].desc, sizeof(t.nodes[2].desc), "node01 mlx5_1");
	t.nodes[2].ports[2].lid = 40;
	ck_assert_int_eq(sweep(db, &t), 2);
	ev_since(db, &log);
	ck_assert_msg(strstr(log.text, "node_changed 0x0002c9030000c000[-1] description "
			     "\"node01 mlx5_0\" -> \"node01 mlx5_1\"\n"), "%s", log.text);
	ck_assert_msg(strstr(log.text, "port_changed 0x0002c9030000c000[2] lid 4 -> 40\n"),
		      "%s", log.text);

	/* a node goes: node_removed and its link */
	struct topo small;
	fix_small(&small);
	ck_assert_int_eq(sweep(db, &small), 7);
	ev_since(db, &log);
	ck_assert_int_eq(count_kind(&log, DB_EV_NODE_REMOVED), 1);
	ck_assert_int_eq(count_kind(&log, DB_EV_LINK_REMOVED), 1);
	ck_assert_int_eq(count_kind(&log, DB_EV_LINK_ADDED), 1);	/* trunk 8 back */
	assert_stored(db, &small);
	topo_free(&small);
	db_close(db);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

/*
 * Only port 0 of a switch has a LID: whatever a switch answers for the LID of
 * its external ports (its own LID once an SM set port 0, 0 before) is no
 * change, and is not stored.  Port 0's LID still is.
 */
START_TEST(switch_external_port_lids)
{
	char *path = fix_tmp_path();
	struct ev_log log = { .last = 0 };
	struct topo t;

	fix_small(&t);
	struct db *db = fix_store(path, &t);
	ev_since(db, &log);
	for (uint32_t i = 0; i < t.n; i++) {
		struct topo_node *n = &t.nodes[i];
		for (unsigned p = 1; n->type == MAD_NODE_SWITCH && p <= n->nports; p++) {
			n->ports[p].lid = n->ports[0].lid;
			n->ports[p].lmc = 3;
		}
	}
	ck_assert_int_eq(sweep(db, &t), 0);
	ev_since(db, &log);
	ck_assert_msg(log.n == 0, "%s", log.text);
	struct topo back;
	ck_assert_int_eq(db_load_topology(db, &back), 0);
	uint32_t s1 = topo_find_guid(&back, FIX_SW1);
	ck_assert_uint_eq(back.nodes[s1].ports[0].lid, 1);
	ck_assert_uint_eq(back.nodes[s1].ports[3].lid, 0);
	ck_assert_uint_eq(back.nodes[s1].ports[3].lmc, 0);
	topo_free(&back);
	t.nodes[topo_find_guid(&t, FIX_SW1)].ports[0].lid = 20;
	ck_assert_int_eq(sweep(db, &t), 1);
	ev_since(db, &log);
	ck_assert_str_eq(log.text, "port_changed 0x0002c9030000a000[0] lid 1 -> 20\n");
	db_close(db);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

START_TEST(unresponsive_nodes)
{
	char *path = fix_tmp_path();
	struct ev_log log = { .last = 0 };
	struct topo t;

	fix_small(&t);
	t.nodes[4].responded = false;
	uint32_t ghost = topo_add_node(&t, MAD_NODE_SWITCH, 8, 0);	/* no GUID known */
	t.nodes[ghost].path.hops = 2;
	t.nodes[ghost].path.port[1] = 7;
	t.nodes[ghost].path.port[2] = 5;
	struct db *db = fix_store(path, &t);
	ev_since(db, &log);
	ck_assert_int_eq(count_kind(&log, DB_EV_UNRESPONSIVE), 2);
	ck_assert_msg(strstr(log.text, "unresponsive 0x0000000000000000[-1] Switch \"\" did not "
			     "answer; directed route [7,5]\n"), "%s", log.text);
	struct topo back;
	ck_assert_int_eq(db_load_topology(db, &back), 0);
	ck_assert_uint_eq(back.n, 5);	/* the GUID-less node is not stored */
	ck_assert(!back.nodes[topo_find_guid(&back, FIX_H3)].responded);
	topo_free(&back);
	/* still silent next sweep: no new event for the stored one */
	ck_assert_int_eq(sweep(db, &t), 1);
	ev_since(db, &log);
	ck_assert_int_eq(count_kind(&log, DB_EV_UNRESPONSIVE), 1);
	ck_assert_ptr_nonnull(strstr(log.text, "directed route [7,5]"));
	db_close(db);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

static int sweep_row(void *arg, const struct db_sweep *sw)
{
	struct db_sweep *out = arg;

	*out = *sw;
	out->st.result = NULL;	/* valid only during the call */
	out->kind = NULL;
	ck_assert(sw->id == 2 ? !strcmp(sw->st.result, "aborted: lost the fabric")
			      : !strcmp(sw->st.result, "ok"));
	return 0;
}

START_TEST(abort_keeps_previous)
{
	char *path = fix_tmp_path();
	struct ev_log log = { .last = 0 };
	struct topo t, big;
	int64_t id;

	fix_small(&t);
	struct db *db = fix_store(path, &t);
	ev_since(db, &log);
	fix_big(&big, 4, 4);
	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), 0);
	ck_assert_int_eq(id, 2);
	ck_assert_int_gt(db_store_topology(db, id, &big), 0);
	ck_assert_int_eq(db_status_set(db, DB_ST_SM_STATE, "MASTER"), 0);
	ck_assert_int_eq(db_sweep_abort(db, id, "lost the fabric"), 0);
	assert_stored(db, &t);
	char val[16];
	ck_assert_int_eq(db_status_get(db, DB_ST_SM_STATE, val, sizeof(val)), -ENOENT);
	ck_assert_int_eq(db_sweep_end(db, id, NULL), -ESRCH);
	ev_since(db, &log);
	ck_assert_int_eq(log.n, 1);
	ck_assert_str_eq(log.text, "error 0x0000000000000000[-1] aborted: lost the fabric\n");
	struct db_sweep last;
	ck_assert_int_eq(db_sweeps_each(db, sweep_row, &last), 0);
	ck_assert_int_eq(last.id, 2);
	ck_assert_int_eq(last.nodes, 5);
	/* the next sweep goes on from there */
	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), 0);
	ck_assert_int_eq(id, 3);
	ck_assert_int_eq(db_sweep_abort(db, id, NULL), 0);
	topo_free(&big);
	db_close(db);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

START_TEST(crash_mid_sweep)
{
	char *path = fix_tmp_path();
	struct topo t, big;

	fix_small(&t);
	db_close(fix_store(path, &t));
	fix_big(&big, 8, 8);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char err[256];
		struct db *db;
		int64_t id;

		if (db_open(path, DB_WRITER, &db, err, sizeof(err)) ||
		    db_sweep_begin(db, "heavy", &id) || db_store_topology(db, id, &big) <= 0)
			_exit(2);
		_exit(0);	/* dies inside the sweep, no commit, no close */
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	char err[256];
	struct db *db;
	ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), 0);
	assert_stored(db, &t);
	db_close(db);
	topo_free(&big);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

START_TEST(disk_full)
{
	char *path = fix_tmp_path();
	struct topo t, big;
	int64_t id;

	fix_small(&t);
	struct db *db = fix_store(path, &t);
	fix_big(&big, 40, 30);
	/* full at the store's present size, whatever its page size */
	ck_assert_int_eq(sqlite3_exec(db->sql, "PRAGMA max_page_count = 1", NULL, NULL, NULL),
			 SQLITE_OK);
	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), 0);
	ck_assert_int_eq(db_store_topology(db, id, &big), -ENOSPC);
	ck_assert_msg(strstr(db_errmsg(db), "full"), "%s", db_errmsg(db));
	ck_assert_int_eq(db_sweep_end(db, id, NULL), -ESRCH);	/* the sweep is over */
	assert_stored(db, &t);
	ck_assert_int_eq(sqlite3_exec(db->sql, "PRAGMA max_page_count = 1000000", NULL, NULL,
				      NULL), SQLITE_OK);
	ck_assert_int_gt(sweep(db, &big), 0);
	assert_stored(db, &big);
	db_close(db);
	topo_free(&big);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 4,000 36-port switches, 28,000 2-port CAs: 32k nodes, 204k ports, 32k links. */
START_TEST(large_fabric)
{
	char *path = fix_tmp_path();
	struct topo t;

	fix_big(&t, 4000, 7);
	char err[256];
	struct db *db;
	ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), 0);
	double t0 = now_s();
	int events = sweep(db, &t);
	double t1 = now_s();
	ck_assert_int_eq(events, 1);	/* cold: one "discovered" event */
	t.nodes[5].ports[3].state = MAD_PORT_ARMED;
	ck_assert_int_eq(sweep(db, &t), 1);
	double t2 = now_s();
	struct topo back;
	ck_assert_int_eq(db_load_topology(db, &back), 0);
	double t3 = now_s();
	ck_assert_msg(fix_topo_equal(&t, &back, err, sizeof(err)), "%s", err);
	printf("large fabric: %u nodes, %zu links: first store %.3f s, "
	       "resweep %.3f s, load %.3f s\n", t.n, topo_count_links(&t), t1 - t0, t2 - t1,
	       t3 - t2);
	ck_assert_msg(t1 - t0 < 10 && t2 - t1 < 10, "storing took far too long");
	topo_free(&back);
	db_close(db);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

static Suite *topo_suite(void)
{
	Suite *s = suite_create("db_topo");
	TCase *tc = tcase_create("store");

	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, diff_events);
	tcase_add_test(tc, switch_external_port_lids);
	tcase_add_test(tc, unresponsive_nodes);
	tcase_add_test(tc, abort_keeps_previous);
	tcase_add_test(tc, crash_mid_sweep);
	tcase_add_test(tc, disk_full);
	tcase_add_test(tc, large_fabric);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(topo_suite)

// SPDX-License-Identifier: MIT
/*
 * check_db_history.c - what the store remembers of the SM's work: sweeps with
 * their true start and stage times, light sweeps per interval, the lifetime
 * totals, retention, the migration of a version 1 store (to the newest), and the metrics
 * (text and the atomically written file).
 */
#include <check.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/check_db_fixture.h"
#include "tests/check_util.h"

static struct db *open_writer(const char *path)
{
	char err[256];
	struct db *db;

	ck_assert_msg(db_open(path, DB_WRITER, &db, err, sizeof(err)) == 0, "%s", err);
	db_freeze_clock(db, FIX_TIME_MS);
	return db;
}

/* One SQL statement's single integer answer, on a connection of its own. */
static int64_t sql_int(const char *path, const char *sql)
{
	sqlite3 *s;
	sqlite3_stmt *st;
	int64_t v = -1;

	ck_assert_int_eq(sqlite3_open(path, &s), SQLITE_OK);
	ck_assert_msg(sqlite3_prepare_v2(s, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql,
		      sqlite3_errmsg(s));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(s);
	return v;
}

static void sql_exec(const char *path, const char *sql)
{
	sqlite3 *s;
	char *msg = NULL;

	ck_assert_int_eq(sqlite3_open(path, &s), SQLITE_OK);
	ck_assert_msg(sqlite3_exec(s, sql, NULL, NULL, &msg) == SQLITE_OK, "%s: %s", sql, msg);
	sqlite3_close(s);
}

static int last_sweep(void *arg, const struct db_sweep *sw)
{
	struct db_sweep *out = arg;

	*out = *sw;
	out->kind = out->st.result = NULL;
	return 0;
}

/* A heavy sweep that began 6.5 s before it was stored keeps that start. */
START_TEST(sweep_true_start_and_stages)
{
	char *path = fix_tmp_path();
	struct db *db = open_writer(path);
	struct topo t;
	int64_t id;

	fix_small(&t);
	db_freeze_clock(db, FIX_TIME_MS + 6500);
	ck_assert_int_eq(db_sweep_begin_at(db, "heavy", FIX_TIME_MS, &id), 0);
	ck_assert_int_ge(db_store_topology(db, id, &t), 0);
	db_freeze_clock(db, FIX_TIME_MS + 7000);
	const struct db_sweep_stats st = {
		.result = "subnet up", .discovery_ms = 400, .lid_ms = 300, .routing_ms = 3500,
		.lft_ms = 2000, .activate_ms = 300, .store_ms = 500,
		.smps = { .sent = 1000, .lost = 7, .retried = 21 },
	};
	ck_assert_int_eq(db_sweep_end(db, id, &st), 0);
	struct db_sweep sw;
	ck_assert_int_eq(db_sweeps_each(db, last_sweep, &sw), 0);
	ck_assert_int_eq(sw.started_ms, FIX_TIME_MS);
	ck_assert_int_eq(sw.ended_ms, FIX_TIME_MS + 7000);
	ck_assert_uint_eq(sw.st.store_ms, 500);
	ck_assert_uint_eq(sw.st.routing_ms, 3500);
	ck_assert_uint_eq(sw.st.smps.sent, 1000);
	ck_assert_uint_eq(sw.st.smps.lost, 7);
	ck_assert_uint_eq(sw.st.smps.retried, 21);
	/* a negative start is refused; an aborted sweep keeps its start and figures */
	ck_assert_int_eq(db_sweep_begin_at(db, "heavy", -1, &id), -EINVAL);
	ck_assert_int_eq(db_sweep_begin_at(db, "heavy", FIX_TIME_MS + 8000, &id), 0);
	db_freeze_clock(db, FIX_TIME_MS + 9000);
	const struct db_sweep_stats part = { .discovery_ms = 900, .smps = { .sent = 50 } };
	ck_assert_int_eq(db_sweep_abort_stats(db, id, "no routes", &part), 0);
	ck_assert_int_eq(db_sweeps_each(db, last_sweep, &sw), 0);
	ck_assert_int_eq(sw.started_ms, FIX_TIME_MS + 8000);
	ck_assert_uint_eq(sw.st.discovery_ms, 900);
	db_close(db);
	/* the totals: one ok heavy sweep of 7 s, one failed of 1 s */
	ck_assert_int_eq(sql_int(path, "SELECT ms FROM sweep_totals WHERE kind = 'heavy'"
				 " AND result = 'ok'"), 7000);
	ck_assert_int_eq(sql_int(path, "SELECT smps_sent FROM sweep_totals WHERE result = 'failed'"),
			 50);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

struct light_log {
	struct db_light_interval li[8];
	int n;
};

static int light_collect(void *arg, const struct db_light_interval *li)
{
	struct light_log *log = arg;

	ck_assert_int_lt(log->n, 8);
	log->li[log->n++] = *li;
	return 0;
}

START_TEST(light_sweeps_per_interval)
{
	char *path = fix_tmp_path();
	struct db *db = open_writer(path);
	struct light_log log = { .n = 0 };

	/* three in the first minute (one finds 2 changes, one fails), one in the next */
	const struct db_light_sweep quiet = { .ms = 10, .smps = { .sent = 40 } };
	const struct db_light_sweep changed = { .ms = 30, .changes = 2,
						.smps = { .sent = 41, .lost = 1, .retried = 3 } };
	const struct db_light_sweep failed = { .ms = 5, .failed = true };
	db_freeze_clock(db, FIX_TIME_MS + 1000);
	ck_assert_int_eq(db_light_sweep_record(db, &quiet), 0);
	db_freeze_clock(db, FIX_TIME_MS + 2000);
	ck_assert_int_eq(db_light_sweep_record(db, &changed), 0);
	db_freeze_clock(db, FIX_TIME_MS + 59999);
	ck_assert_int_eq(db_light_sweep_record(db, &failed), 0);
	db_freeze_clock(db, FIX_TIME_MS + 60000);
	ck_assert_int_eq(db_light_sweep_record(db, &quiet), 0);
	ck_assert_int_eq(db_light_each(db, light_collect, &log), 0);
	ck_assert_int_eq(log.n, 2);
	const struct db_light_interval *a = &log.li[0], *b = &log.li[1];
	ck_assert_int_eq(a->started_ms, FIX_TIME_MS);
	ck_assert_int_eq(a->last_ms, FIX_TIME_MS + 59999);
	ck_assert_uint_eq(a->sweeps, 3);
	ck_assert_uint_eq(a->changed, 1);
	ck_assert_uint_eq(a->failed, 1);
	ck_assert_uint_eq(a->changes, 2);
	ck_assert_uint_eq(a->ms, 45);
	ck_assert_uint_eq(a->max_ms, 30);
	ck_assert_uint_eq(a->smps.sent, 81);
	ck_assert_uint_eq(a->smps.lost, 1);
	ck_assert_uint_eq(a->smps.retried, 3);
	ck_assert_int_eq(b->started_ms, FIX_TIME_MS + 60000);
	ck_assert_uint_eq(b->sweeps, 1);
	/* not inside an open sweep, not on a reader */
	int64_t id;
	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), 0);
	ck_assert_int_eq(db_light_sweep_record(db, &quiet), -EBUSY);
	ck_assert_int_eq(db_sweep_end(db, id, NULL), 0);
	db_close(db);
	ck_assert_int_eq(sql_int(path, "SELECT sweeps FROM sweep_totals WHERE kind = 'light'"
				 " AND result = 'ok'"), 2);
	char err[256];
	ck_assert_int_eq(db_open(path, DB_READONLY, &db, err, sizeof(err)), 0);
	ck_assert_int_eq(db_light_sweep_record(db, &quiet), -EROFS);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

/* Keep 50 events and 5 sweeps: the store stays bounded, the counts do not drop. */
START_TEST(retention_bounds_the_store)
{
	char *path = fix_tmp_path();
	struct db *db = open_writer(path);
	int64_t id;

	db_set_retention(db, 50, 5);
	for (int i = 0; i < 20; i++) {
		ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), 0);
		for (int e = 0; e < 10; e++)
			ck_assert_int_eq(db_event_add(db, id, DB_EV_TRAP, 0, -1, "trap %d", e), 0);
		ck_assert_int_eq(db_sweep_end(db, id, NULL), 0);
		/* a light sweep every minute: each new interval prunes too */
		db_freeze_clock(db, FIX_TIME_MS + (i + 1) * DB_LIGHT_INTERVAL_MS);
		const struct db_light_sweep ls = { .ms = 1 };
		ck_assert_int_eq(db_light_sweep_record(db, &ls), 0);
	}
	db_close(db);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM events"), 50);
	ck_assert_int_eq(sql_int(path, "SELECT min(id) FROM events"), 151);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM sweeps"), 5);
	ck_assert_int_eq(sql_int(path, "SELECT min(id) FROM sweeps"), 16);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM light_sweeps"), 5);
	ck_assert_int_eq(sql_int(path, "SELECT pruned FROM event_totals WHERE kind = 'trap'"),
			 150);
	ck_assert_int_eq(sql_int(path, "SELECT sweeps FROM sweep_totals WHERE kind = 'heavy'"),
			 20);
	/* 0 keeps everything */
	db = open_writer(path);
	db_set_retention(db, 0, 0);
	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), 0);
	ck_assert_int_eq(db_event_add(db, id, DB_EV_TRAP, 0, -1, "one more"), 0);
	ck_assert_int_eq(db_sweep_end(db, id, NULL), 0);
	db_close(db);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM events"), 51);
	fix_tmp_free(path);
}
END_TEST

/* A store written by version 1 gets the new columns and its sweeps in the totals. */
START_TEST(migrates_version_1)
{
	char *path = fix_tmp_path();
	struct db *db = open_writer(path);

	db_close(db);
	/* back to what version 1 had: sweeps without the new columns, no new tables */
	sql_exec(path, "DROP TABLE light_sweeps; DROP TABLE sweep_totals; DROP TABLE event_totals;"
		 " DROP TABLE mkey; DROP TABLE isolated_links;"
		 " DROP TABLE partitions; DROP TABLE partition_members;"
		 " DROP TABLE mcast_groups; DROP TABLE mcast_members;"
		 " DROP TABLE port_counters; DROP TABLE counter_passes;"
		 " DROP TABLE port_counter_totals; DROP TABLE path_sls; DROP TABLE lft_pending;"
		 " DROP TABLE ar; DROP TABLE sa_services; DROP TABLE sa_informs;"
		 " DROP TABLE sa_aliases; DROP TABLE jobs; DROP TABLE cc_nodes; DROP TABLE cc_totals;"
		 " ALTER TABLE sweeps DROP COLUMN store_ms; ALTER TABLE sweeps DROP COLUMN smps_sent;"
		 " ALTER TABLE sweeps DROP COLUMN smps_lost;"
		 " ALTER TABLE sweeps DROP COLUMN smps_retried;"
		 " ALTER TABLE ports DROP COLUMN degraded;"
		 " INSERT INTO sweeps (kind, started, ended, result, discovery_smps, lft_smps)"
		 " VALUES ('heavy', 1000, 3000, 'subnet up', 10, 5),"
		 " ('heavy', 4000, 4500, 'aborted: no routes', 3, 0),"
		 " ('heavy', 5000, NULL, NULL, 0, 0);"
		 " PRAGMA user_version = 1");
	char err[256];
	ck_assert_int_eq(db_open(path, DB_READONLY, &db, err, sizeof(err)), -EPROTO);
	db = open_writer(path);
	db_close(db);
	ck_assert_int_eq(sql_int(path, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	ck_assert_int_eq(sql_int(path, "SELECT smps_sent FROM sweeps WHERE id = 1"), 15);
	ck_assert_int_eq(sql_int(path, "SELECT sweeps * 100000 + ms FROM sweep_totals"
				 " WHERE result = 'ok'"), 102000);
	ck_assert_int_eq(sql_int(path, "SELECT ms FROM sweep_totals WHERE result = 'failed'"),
			 500);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM sweep_totals"), 2);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM mkey"), 0);	/* step 3 */
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM isolated_links"), 0);	/* step 5 */
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM mcast_groups"), 0);	/* step 6 */
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM port_counters"), 0);	/* step 7 */
	ck_assert_int_eq(sql_int(path, "SELECT ar_smps FROM sweeps WHERE id = 1"), 0);	/* step 8 */
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM path_sls"), 0);	/* step 9 */
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM lft_pending"), 0);	/* step 10 */
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM ar"), 0);	/* step 11 */
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM sa_services"), 0);	/* step 12 */
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM sa_informs"), 0);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM sa_aliases"), 0);	/* step 14 */
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM jobs"), 0);	/* step 15 */
	fix_tmp_free(path);
}
END_TEST

/* Remove the line that starts with @prefix from @text (the free space of a
 * file system shared with everyone changes between two outputs). */
static void drop_line(char *text, const char *prefix)
{
	char *l = strstr(text, prefix);

	ck_assert_ptr_nonnull(l);
	char *end = strchr(l + 1, '\n');
	memmove(l, end + 1, strlen(end + 1) + 1);
}

/* Run db_metrics_print into a buffer. */
static char *metrics_text(struct db *db, int64_t now_ms)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(db_metrics_print(db, f, now_ms, NULL, NULL), 0);
	fclose(f);
	return buf;
}

START_TEST(metrics_text_and_file)
{
	char *path = fix_tmp_path();
	struct topo t;
	int64_t id;

	fix_small(&t);
	struct db *db = fix_store(path, &t);	/* one heavy sweep at FIX_TIME_MS */
	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), 0);
	ck_assert_int_eq(db_event_add(db, id, "we\"ird\\kind\n\t\xff", 0, -1, "x"), 0);
	ck_assert_int_eq(db_status_set(db, DB_ST_SM_STATE, "MASTER"), 0);
	const struct db_sweep_stats st = { .result = "3 SMPs failed; resweep due",
					   .smps = { .sent = 9, .lost = 3 } };
	db_freeze_clock(db, FIX_TIME_MS + 2000);
	ck_assert_int_eq(db_sweep_end(db, id, &st), 0);
	char *text = metrics_text(db, FIX_TIME_MS + 12000);
	static const char *const want[] = {
		"# TYPE ibsmd_sweeps_total counter\n",
		"ibsmd_sweeps_total{kind=\"heavy\",result=\"incomplete\"} 1\n",
		"ibsmd_sweeps_total{kind=\"heavy\",result=\"ok\"} 1\n",
		"ibsmd_sweep_duration_seconds_sum{kind=\"heavy\"} 2.000\n",
		"ibsmd_sweep_duration_seconds_count{kind=\"heavy\"} 2\n",
		"ibsmd_smps_lost_total{kind=\"heavy\"} 4\n",	/* 1 in fix_store */
		"ibsmd_last_sweep_age_seconds{kind=\"heavy\"} 10.000\n",
		"ibsmd_nodes{type=\"switch\"} 2\n",
		"ibsmd_nodes{type=\"ca\"} 3\n",
		"ibsmd_links 6\n",
		"ibsmd_lids 6\n",
		"ibsmd_events_total{kind=\"discovered\"} 1\n",
		"ibsmd_events_total{kind=\"we\\\"ird\\\\kind\\n__\"} 1\n",
		"ibsmd_sm_state{state=\"MASTER\"} 1\n",
		"ibsmd_sm_state{state=\"STANDBY\"} 0\n",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(strstr(text, want[i]), "no '%s' in:\n%s", want[i], text);

	/* the file: written whole, readable by all, nothing left beside it */
	char file[4200], dir[4000];
	snprintf(dir, sizeof(dir), "%s.d", path);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	snprintf(file, sizeof(file), "%s/ibsmd.prom", dir);
	ck_assert_int_eq(db_metrics_write_file(db, file, FIX_TIME_MS + 12000, NULL, NULL), 0);
	ck_assert_int_eq(db_metrics_write_file(db, file, FIX_TIME_MS + 12000, NULL, NULL), 0);
	FILE *f = fopen(file, "r");
	ck_assert_ptr_nonnull(f);
	char back[65536];
	size_t n = fread(back, 1, sizeof(back) - 1, f);
	back[n] = 0;
	fclose(f);
	drop_line(back, "\nibsmd_store_free_bytes ");
	drop_line(text, "\nibsmd_store_free_bytes ");
	ck_assert_str_eq(back, text);
	struct stat sb;
	ck_assert_int_eq(stat(file, &sb), 0);
	ck_assert_int_eq(sb.st_mode & 0777, 0644);
	char cmd[4100];
	snprintf(cmd, sizeof(cmd), "test \"$(ls %s | wc -l)\" = 1", dir);
	ck_assert_int_eq(system(cmd), 0);
	/* never over the store, its WAL, or what is not a regular file */
	char side[4200];
	ck_assert_int_eq(db_metrics_write_file(db, path, 0, NULL, NULL), -EINVAL);
	ck_assert_msg(strstr(db_errmsg(db), "is the store's file"), "%s", db_errmsg(db));
	snprintf(side, sizeof(side), "%s-wal", path);
	ck_assert_int_eq(db_metrics_write_file(db, side, 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(db_metrics_write_file(db, dir, 0, NULL, NULL), -EINVAL);
	ck_assert_msg(strstr(db_errmsg(db), "not a regular file"), "%s", db_errmsg(db));
	ck_assert_int_eq(db_status_set(db, DB_ST_SM_LID, "9"), 0);	/* the store still works */
	/* a directory that is not there: an error naming the path, no file */
	snprintf(file, sizeof(file), "%s/missing/ibsmd.prom", dir);
	ck_assert_int_eq(db_metrics_write_file(db, file, 0, NULL, NULL), -ENOENT);
	ck_assert_msg(strstr(db_errmsg(db), file), "%s", db_errmsg(db));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(text);
	db_close(db);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

static Suite *history_suite(void)
{
	Suite *s = suite_create("db_history");
	TCase *tc = tcase_create("history");

	tcase_add_test(tc, sweep_true_start_and_stages);
	tcase_add_test(tc, light_sweeps_per_interval);
	tcase_add_test(tc, retention_bounds_the_store);
	tcase_add_test(tc, migrates_version_1);
	tcase_add_test(tc, metrics_text_and_file);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(history_suite)

// SPDX-License-Identifier: MIT
/*
 * check_db_misc.c - status keys, the LID map, LFT blocks, AR tables, sweep
 * records, events outside sweeps, and misuse of the sweep calls.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <sqlite3.h>
#include <string.h>

#include "tests/check_db_fixture.h"
#include "tests/check_util.h"

static struct db *open_writer(char **path)
{
	char err[256];
	struct db *db;

	*path = fix_tmp_path();
	ck_assert_msg(db_open(*path, DB_WRITER, &db, err, sizeof(err)) == 0, "%s", err);
	db_freeze_clock(db, FIX_TIME_MS);
	return db;
}

static int status_cat(void *arg, const char *key, const char *value)
{
	strcat(arg, key);
	strcat(arg, "=");
	strcat(arg, value);
	strcat(arg, ";");
	return 0;
}

START_TEST(status_keys)
{
	char *path;
	struct db *db = open_writer(&path);
	char buf[64] = "";

	ck_assert_int_eq(db_status_get(db, DB_ST_SM_STATE, buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(db_status_set(db, DB_ST_SM_STATE, "DISCOVERING"), 0);
	ck_assert_int_eq(db_status_set(db, DB_ST_SM_STATE, "MASTER"), 0);
	ck_assert_int_eq(db_status_set(db, DB_ST_SM_LID, "1"), 0);
	ck_assert_int_eq(db_status_get(db, DB_ST_SM_STATE, buf, 4), 0);
	ck_assert_str_eq(buf, "MAS");	/* truncated to the buffer */
	buf[0] = 0;
	ck_assert_int_eq(db_status_each(db, status_cat, buf), 0);
	ck_assert_str_eq(buf, "sm_lid=1;sm_state=MASTER;");
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

struct lid_row {
	uint64_t guid[4];
	uint16_t lid[4];
	uint8_t lmc[4];
	int n;
};

static int lid_collect(void *arg, uint64_t guid, uint16_t lid, uint8_t lmc)
{
	struct lid_row *r = arg;

	ck_assert_int_lt(r->n, 4);
	r->guid[r->n] = guid;
	r->lid[r->n] = lid;
	r->lmc[r->n++] = lmc;
	return 0;
}

static int lid_stop(void *arg, uint64_t guid, uint16_t lid, uint8_t lmc)
{
	(void)arg, (void)guid, (void)lid, (void)lmc;
	return 7;
}

START_TEST(lid_map)
{
	char *path;
	struct db *db = open_writer(&path);
	struct lid_row r = { .n = 0 };

	ck_assert_int_eq(db_lids_save(db, FIX_SW2, 12, 0), 0);
	ck_assert_int_eq(db_lids_save(db, FIX_H1 + 1, 4, 2), 0);
	ck_assert_int_eq(db_lids_save(db, FIX_SW2, 1, 0), 0);	/* replaced */
	ck_assert_int_eq(db_lids_load(db, lid_collect, &r), 0);
	ck_assert_int_eq(r.n, 2);
	ck_assert_uint_eq(r.guid[0], FIX_SW2);
	ck_assert_uint_eq(r.lid[0], 1);
	ck_assert_uint_eq(r.guid[1], FIX_H1 + 1);
	ck_assert_uint_eq(r.lid[1], 4);
	ck_assert_uint_eq(r.lmc[1], 2);
	ck_assert_int_eq(db_lids_load(db, lid_stop, NULL), 7);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

START_TEST(lft_blocks)
{
	char *path;
	struct db *db = open_writer(&path);
	uint8_t block[64], lft[3 * 64];

	for (int i = 0; i < 64; i++)
		block[i] = (uint8_t)(i % 9);
	ck_assert_int_eq(db_lft_save(db, FIX_SW1, 2, block), 0);
	block[0] = 33;
	ck_assert_int_eq(db_lft_save(db, FIX_SW1, 2, block), 0);
	ck_assert_int_eq(db_lft_save(db, FIX_SW1, 7, block), 0);	/* beyond what we ask */
	ck_assert_int_eq(db_lft_load(db, FIX_SW1, lft, 3, NULL), 3);	/* the table covers 0..7 */
	ck_assert_uint_eq(lft[0], 0xff);
	ck_assert_uint_eq(lft[127], 0xff);
	ck_assert_mem_eq(lft + 128, block, 64);
	ck_assert_int_eq(db_lft_load(db, FIX_SW2, lft, 3, NULL), 0);
	ck_assert_uint_eq(lft[128], 0xff);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

/* A table stored while it goes out stays pending until confirmed; a block
 * patched into it keeps it so; storing it plainly or forgetting it ends it. */
/* Rewrite a column of the stored AR row of @guid with @blob (@len bytes). */
static void damage_ar_row(const char *path, uint64_t guid, const char *column,
			  const void *blob, int len)
{
	char sql[128];
	sqlite3 *s;
	sqlite3_stmt *st;

	snprintf(sql, sizeof(sql), "UPDATE ar SET %s = ? WHERE switch_guid = ?", column);
	ck_assert_int_eq(sqlite3_open(path, &s), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(s, sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_blob(st, 1, blob, len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (int64_t)guid);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
	ck_assert_int_eq(sqlite3_changes(s), 1);
	sqlite3_finalize(st);
	sqlite3_close(s);
}

/* AR tables: what is saved loads back (long runs, all four port words, a
 * LID row ending on a group); a row whose groups do not fit its top, whose
 * runs name a group past top or run past the LID space, or are cut short,
 * is -EBADMSG; forgetting leaves none; values past the limits are refused. */
START_TEST(ar_tables)
{
	char *path;
	struct db *db = open_writer(&path);
	char err[256];
	static uint16_t lid_group[1000];
	uint64_t groups[3][4] = { { 6, 0, 0, 1ull << 63 }, { 0xf0, 1, 2, 3 }, { 2, 0, 0, 0 } };
	struct db_ar_table t = { .top = 3, .groups = groups, .nlid = 1000, .lid_group = lid_group },
			   got;

	for (unsigned i = 0; i < 1000; i++)
		lid_group[i] = (uint16_t)(i < 10 ? 0 : i < 500 ? 1 + i % 2 : i < 998 ? 3 : 2);
	ck_assert_int_eq(db_ar_load(db, FIX_SW1, &got), 0);
	ck_assert_ptr_null(got.lid_group);
	ck_assert_int_eq(db_ar_save(db, FIX_SW1, &t), 0);
	ck_assert_int_eq(db_ar_load(db, FIX_SW1, &got), 1);
	ck_assert_uint_eq(got.top, 3);
	ck_assert_uint_eq(got.nlid, 1000);
	ck_assert_mem_eq(got.groups, groups, sizeof(groups));
	ck_assert_mem_eq(got.lid_group, lid_group, sizeof(lid_group));
	db_ar_table_free(&got);
	t.top = DB_AR_MAX_GROUP + 1;
	ck_assert_int_eq(db_ar_save(db, FIX_SW2, &t), -EINVAL);
	t.top = 3;
	t.nlid = DB_AR_MAX_LIDS + 1;
	ck_assert_int_eq(db_ar_save(db, FIX_SW2, &t), -EINVAL);
	t = (struct db_ar_table){ 0 };	/* AR off: no group, no LID */
	ck_assert_int_eq(db_ar_save(db, FIX_SW2, &t), 0);
	ck_assert_int_eq(db_ar_load(db, FIX_SW2, &got), 1);
	ck_assert_uint_eq(got.top, 0);
	ck_assert_uint_eq(got.nlid, 0);
	db_ar_table_free(&got);
	ck_assert_int_eq(db_ar_forget(db, FIX_SW2), 0);
	ck_assert_int_eq(db_ar_load(db, FIX_SW2, &got), 0);
	db_close(db);

	static const struct {
		const char *column;
		uint8_t blob[8];
		int len;
	} bad[] = {
		{ "groups", { 0 }, 31 },			/* not 3 groups of 32 bytes */
		{ "lid_groups", { 5, 4 }, 2 },			/* group 4 past top 3 */
		{ "lid_groups", { 0x80, 0x80, 0x03, 1, 1, 1 }, 6 },	/* 49,152 + 1 LIDs */
		{ "lid_groups", { 1, 1, 0xff, 0xff }, 4 },	/* cut short */
		{ "lid_groups", { 0, 1 }, 2 },			/* a run of none */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), 0);
		t = (struct db_ar_table){ .top = 3, .groups = groups, .nlid = 1,
					  .lid_group = lid_group };
		ck_assert_int_eq(db_ar_save(db, FIX_SW1, &t), 0);
		db_close(db);
		damage_ar_row(path, FIX_SW1, bad[i].column, bad[i].blob, bad[i].len);
		ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), 0);
		ck_assert_msg(db_ar_load(db, FIX_SW1, &got) == -EBADMSG, "case %zu", i);
		ck_assert_ptr_null(got.lid_group);
		db_close(db);
	}
	fix_tmp_free(path);
}
END_TEST

START_TEST(lft_pending)
{
	char *path;
	struct db *db = open_writer(&path);
	uint8_t table[2 * 64], lft[2 * 64], block[64];
	bool pending = false;

	memset(table, 3, sizeof(table));
	memset(block, 4, sizeof(block));
	ck_assert_int_eq(db_lft_save_table(db, FIX_SW1, table, 2, true), 0);
	ck_assert_int_eq(db_lft_save_table(db, FIX_SW2, table, 2, true), 0);
	ck_assert_int_eq(db_lft_load(db, FIX_SW1, lft, 2, &pending), 2);
	ck_assert(pending);
	ck_assert_mem_eq(lft, table, sizeof(table));
	ck_assert_int_eq(db_lft_save(db, FIX_SW1, 1, block), 0);
	ck_assert_int_eq(db_lft_load(db, FIX_SW1, lft, 2, &pending), 2);
	ck_assert(pending);
	ck_assert_mem_eq(lft + 64, block, 64);
	ck_assert_int_eq(db_lft_confirm(db, FIX_SW1), 0);
	ck_assert_int_eq(db_lft_load(db, FIX_SW1, lft, 2, &pending), 2);
	ck_assert(!pending);
	ck_assert_int_eq(db_lft_load(db, FIX_SW2, lft, 2, &pending), 2);
	ck_assert(pending);	/* only the switch confirmed */
	ck_assert_int_eq(db_lft_save_table(db, FIX_SW2, table, 2, false), 0);
	ck_assert_int_eq(db_lft_load(db, FIX_SW2, lft, 2, &pending), 2);
	ck_assert(!pending);
	ck_assert_int_eq(db_lft_save_table(db, FIX_SW2, table, 2, true), 0);
	ck_assert_int_eq(db_lft_forget(db, FIX_SW2), 0);
	ck_assert_int_eq(db_lft_load(db, FIX_SW2, lft, 2, &pending), 0);
	ck_assert(!pending);
	ck_assert_int_eq(db_lft_save_table(db, FIX_SW2, table, 2, false), 0);
	ck_assert_int_eq(db_lft_load(db, FIX_SW2, lft, 2, &pending), 2);
	ck_assert(!pending);	/* no pending mark outlived the forget */
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

/* db_batch(): one transaction of its own, all or nothing. */
static int batch_two_then_fail(struct db *db, void *arg)
{
	uint8_t block[64] = { 0 };
	int err = db_lft_save(db, FIX_SW1, 0, block);

	if (!err)
		err = db_lids_save(db, FIX_SW1, 7, 0);
	return err ? err : *(int *)arg;
}

static int count_lids(void *arg, uint64_t guid, uint16_t lid, uint8_t lmc)
{
	(void)guid, (void)lid, (void)lmc;
	++*(int *)arg;
	return 0;
}

START_TEST(batch_all_or_nothing)
{
	char *path;
	struct db *db = open_writer(&path);
	uint8_t lft[64];
	int fail = -EIO, ok = 0, lids = 0;

	ck_assert_int_eq(db_batch(db, batch_two_then_fail, &fail), -EIO);
	ck_assert_int_eq(db_lft_load(db, FIX_SW1, lft, 1, NULL), 0);
	ck_assert_int_eq(db_lids_load(db, count_lids, &lids), 0);
	ck_assert_int_eq(lids, 0);
	ck_assert_int_eq(db_batch(db, batch_two_then_fail, &ok), 0);
	ck_assert_int_eq(db_lft_load(db, FIX_SW1, lft, 1, NULL), 1);
	ck_assert_int_eq(db_lids_load(db, count_lids, &lids), 0);
	ck_assert_int_eq(lids, 1);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

static int sweep_copy(void *arg, const struct db_sweep *sw)
{
	struct db_sweep *out = arg;

	*out = *sw;
	ck_assert_str_eq(sw->kind, "light");
	ck_assert_str_eq(sw->st.result, "subnet up");
	out->kind = out->st.result = NULL;
	return 0;
}

START_TEST(sweep_records)
{
	char *path;
	struct db *db = open_writer(&path);
	struct topo t;
	int64_t id;

	fix_small(&t);
	ck_assert_int_eq(db_sweep_begin(db, "light", &id), 0);
	ck_assert_int_eq(db_store_topology(db, id, &t), 1);	/* cold: "discovered" */
	db_freeze_clock(db, FIX_TIME_MS + 1500);
	const struct db_sweep_stats st = {
		.result = "subnet up", .discovery_smps = 100, .lid_smps = 20, .lft_smps = 30,
		.activate_smps = 40, .discovery_ms = 1, .lid_ms = 2, .routing_ms = 3,
		.lft_ms = 4, .activate_ms = 5,
	};
	ck_assert_int_eq(db_sweep_end(db, id, &st), 0);
	struct db_sweep sw;
	ck_assert_int_eq(db_sweeps_each(db, sweep_copy, &sw), 0);
	ck_assert_int_eq(sw.id, id);
	ck_assert_int_eq(sw.started_ms, FIX_TIME_MS);
	ck_assert_int_eq(sw.ended_ms, FIX_TIME_MS + 1500);
	ck_assert_uint_eq(sw.nodes, 5);
	ck_assert_uint_eq(sw.links, 6);
	ck_assert_uint_eq(sw.st.discovery_smps, 100);
	ck_assert_uint_eq(sw.st.lid_smps, 20);
	ck_assert_uint_eq(sw.st.lft_smps, 30);
	ck_assert_uint_eq(sw.st.activate_smps, 40);
	ck_assert_uint_eq(sw.st.discovery_ms + sw.st.lid_ms + sw.st.routing_ms, 6);
	ck_assert_uint_eq(sw.st.lft_ms * 10 + sw.st.activate_ms, 45);
	topo_free(&t);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

static int event_check(void *arg, const struct db_event *ev)
{
	int *n = arg;

	ck_assert_str_eq(ev->kind, DB_EV_TRAP);
	ck_assert_uint_eq(ev->guid, FIX_SW2);
	ck_assert_int_eq(ev->port, 3);
	ck_assert_int_eq(ev->sweep_id, 0);
	ck_assert_int_eq(ev->time_ms, FIX_TIME_MS);
	ck_assert_str_eq(ev->detail, "trap 128 from lid 2");
	(*n)++;
	return 0;
}

START_TEST(sweep_misuse_and_loose_events)
{
	char *path;
	struct db *db = open_writer(&path);
	struct topo t;
	int64_t id, id2;
	int n = 0;

	topo_init(&t);
	ck_assert_int_eq(db_event_add(db, 0, DB_EV_TRAP, FIX_SW2, 3, "trap %d from lid %d", 128,
				      2), 0);
	ck_assert_int_eq(db_events_each(db, 0, event_check, &n), 0);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(db_sweep_begin(db, "medium", &id), -EINVAL);
	ck_assert_int_eq(db_store_topology(db, 1, &t), -ESRCH);
	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), 0);
	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id2), -EBUSY);
	ck_assert_int_eq(db_event_add(db, id + 1, DB_EV_ERROR, 0, -1, "x"), -ESRCH);
	ck_assert_int_eq(db_event_add(db, id, "", 0, -1, "x"), -EINVAL);
	ck_assert_int_eq(db_store_topology(db, id, &t), 0);	/* an empty fabric */
	ck_assert_int_eq(db_sweep_end(db, id, NULL), 0);
	ck_assert_int_eq(db_sweep_end(db, id, NULL), -ESRCH);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

static int job_cat(void *arg, const struct db_job *j)
{
	char *buf = arg;

	sprintf(buf + strlen(buf), "%s/%s/%lld/%s;", j->name, j->pattern,
		(long long)j->started_ms, j->hosts);
	return strcmp(j->name, "stop") == 0 ? 7 : 0;
}

/* Jobs kept in start order, a name stored once, a reader sees them, and
 * deleting names what was there. */
START_TEST(jobs)
{
	char *path, buf[512] = "", err[256];
	struct db *db = open_writer(&path), *rd;

	ck_assert_int_eq(db_job_save(db, &(struct db_job){ "b", "ring", 5, "n1\nn2" }), 0);
	ck_assert_int_eq(db_job_save(db, &(struct db_job){ "a", "alltoall", 6, "n3" }), 0);
	ck_assert_int_eq(db_job_save(db, &(struct db_job){ "b", "ring", 7, "n9" }), -EEXIST);
	ck_assert_int_eq(db_job_each(db, job_cat, buf), 0);
	ck_assert_str_eq(buf, "b/ring/5/n1\nn2;a/alltoall/6/n3;");
	ck_assert_int_eq(db_job_delete(db, "b"), 1);
	ck_assert_int_eq(db_job_delete(db, "b"), 0);
	ck_assert_int_eq(db_job_save(db, &(struct db_job){ "b", "ring", 8, "n4" }), 0);
	ck_assert_int_eq(db_job_save(db, &(struct db_job){ "stop", "ring", 9, "n5" }), 0);
	ck_assert_int_eq(db_job_save(db, &(struct db_job){ "after", "ring", 9, "n6" }), 0);
	ck_assert_int_eq(db_open(path, DB_READONLY, &rd, err, sizeof(err)), 0);
	buf[0] = '\0';
	ck_assert_int_eq(db_job_each(rd, job_cat, buf), 7);	/* stopped by the callback */
	ck_assert_str_eq(buf, "a/alltoall/6/n3;b/ring/8/n4;stop/ring/9/n5;");
	ck_assert_int_eq(db_job_save(rd, &(struct db_job){ "c", "ring", 1, "x" }), -EROFS);
	ck_assert_int_eq(db_job_delete(rd, "a"), -EROFS);
	db_close(rd);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

static Suite *misc_suite(void)
{
	Suite *s = suite_create("db_misc");
	TCase *tc = tcase_create("misc");

	tcase_add_test(tc, status_keys);
	tcase_add_test(tc, lid_map);
	tcase_add_test(tc, lft_blocks);
	tcase_add_test(tc, lft_pending);
	tcase_add_test(tc, ar_tables);
	tcase_add_test(tc, batch_all_or_nothing);
	tcase_add_test(tc, sweep_records);
	tcase_add_test(tc, sweep_misuse_and_loose_events);
	tcase_add_test(tc, jobs);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(misc_suite)

// SPDX-License-Identifier: MIT
/*
 * check_db_open.c - opening the store: creation and migration from empty,
 * reopening keeps data, one writer, read-only refuses writes, missing files,
 * newer schemas and foreign files are refused with a clear message, and a
 * foreign file is left as it was; a store holding M_Keys is no one else's.
 */
#include <check.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/check_db_fixture.h"
#include "tests/check_util.h"

static void set_user_version(const char *path, int version)
{
	sqlite3 *s;
	char sql[64];

	ck_assert_int_eq(sqlite3_open(path, &s), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", version);
	ck_assert_int_eq(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
}

START_TEST(create_migrate_reopen)
{
	char *path = fix_tmp_path();
	char err[256], val[32];
	struct db *db;
	struct topo t, back;

	fix_small(&t);
	db = fix_store(path, &t);
	db_close(db);
	/* reopening as writer migrates nothing and keeps the data */
	ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), 0);
	ck_assert_int_eq(db_load_topology(db, &back), 0);
	ck_assert_uint_eq(back.n, 5);
	db_close(db);
	topo_free(&back);
	ck_assert_int_eq(db_open(path, DB_READONLY, &db, err, sizeof(err)), 0);
	ck_assert_int_eq(db_load_topology(db, &back), 0);
	ck_assert_msg(fix_topo_equal(&t, &back, err, sizeof(err)), "%s", err);
	ck_assert_int_eq(db_status_get(db, DB_ST_LAST_SWEEP, val, sizeof(val)), 0);
	ck_assert_str_eq(val, "1");
	db_close(db);
	topo_free(&back);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

START_TEST(one_writer)
{
	char *path = fix_tmp_path();
	char err[256];
	struct db *w, *w2, *r;

	ck_assert_int_eq(db_open(path, DB_WRITER, &w, err, sizeof(err)), 0);
	ck_assert_int_eq(db_open(path, DB_WRITER, &w2, err, sizeof(err)), -EBUSY);
	ck_assert_ptr_null(w2);
	ck_assert_msg(strstr(err, "already open for writing") && strstr(err, path), "%s", err);
	/* readers are welcome while the writer works */
	ck_assert_int_eq(db_open(path, DB_READONLY, &r, err, sizeof(err)), 0);
	db_close(r);
	db_close(w);
	ck_assert_int_eq(db_open(path, DB_WRITER, &w2, err, sizeof(err)), 0);
	db_close(w2);
	fix_tmp_free(path);
}
END_TEST

START_TEST(readonly_refuses_writes)
{
	char *path = fix_tmp_path();
	char err[256];
	struct db *db;
	int64_t id;
	uint8_t lft[64] = { 0 };
	struct topo t;

	fix_small(&t);
	db_close(fix_store(path, &t));
	ck_assert_int_eq(db_open(path, DB_READONLY, &db, err, sizeof(err)), 0);
	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), -EROFS);
	ck_assert_int_eq(db_status_set(db, "k", "v"), -EROFS);
	ck_assert_int_eq(db_event_add(db, 0, DB_EV_TRAP, 0, -1, "x"), -EROFS);
	ck_assert_int_eq(db_lids_save(db, 1, 2, 0), -EROFS);
	ck_assert_int_eq(db_lft_save(db, 1, 0, lft), -EROFS);
	ck_assert_ptr_nonnull(strstr(db_errmsg(db), "read-only"));
	db_close(db);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

START_TEST(missing_file)
{
	char err[256];
	struct db *db;

	ck_assert_int_eq(db_open("/nonexistent/ibsmd.db", DB_READONLY, &db, err, sizeof(err)),
			 -ENOENT);
	ck_assert_ptr_null(db);
	ck_assert_msg(strstr(err, "/nonexistent/ibsmd.db") && strstr(err, "No such file"),
		      "%s", err);
}
END_TEST

START_TEST(directory_is_named)
{
	char err[512];
	struct db *db;

	ck_assert_int_eq(db_open("/", DB_READONLY, &db, err, sizeof(err)), -EISDIR);
	ck_assert_str_eq(err, "/: not a database file but a directory");
	ck_assert_int_eq(db_open("/", DB_WRITER, &db, err, sizeof(err)), -EISDIR);
	ck_assert_str_eq(err, "/: cannot open for writing: Is a directory");
}
END_TEST

START_TEST(newer_schema_refused)
{
	char *path = fix_tmp_path();
	char err[256];
	struct db *db;

	ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), 0);
	db_close(db);
	set_user_version(path, DB_SCHEMA_VERSION + 1);
	ck_assert_int_eq(db_open(path, DB_READONLY, &db, err, sizeof(err)), -EPROTO);
	char want[64];
	snprintf(want, sizeof(want), "version %d is newer", DB_SCHEMA_VERSION + 1);
	ck_assert_msg(strstr(err, want) && strstr(err, "upgrade ibsmd"), "%s", err);
	ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), -EPROTO);
	ck_assert_ptr_null(db);
	/* back to this build's version: accepted again */
	set_user_version(path, DB_SCHEMA_VERSION);
	ck_assert_int_eq(db_open(path, DB_READONLY, &db, err, sizeof(err)), 0);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

/* The whole of @path into @buf (at most @len bytes); its size. */
static size_t slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "rb");

	ck_assert_ptr_nonnull(f);
	size_t n = fread(buf, 1, len, f);
	fclose(f);
	return n;
}

static void journal_mode(const char *path, char *mode, size_t len)
{
	sqlite3 *s;
	sqlite3_stmt *st;

	ck_assert_int_eq(sqlite3_open_v2(path, &s, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(s, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	snprintf(mode, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(s);
}

START_TEST(foreign_and_empty_files)
{
	static char before[65536], after[65536];
	char *path = fix_tmp_path();
	char err[256], mode[16], wal[512];
	struct db *db;
	sqlite3 *s;

	ck_assert_int_eq(sqlite3_open(path, &s), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(s, "CREATE TABLE t (x); INSERT INTO t VALUES (42)", NULL,
				      NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	size_t n = slurp(path, before, sizeof(before));
	ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), -EPROTO);
	ck_assert_msg(strstr(err, "not an ibsmd database"), "%s", err);
	ck_assert_int_eq(db_open(path, DB_READONLY, &db, err, sizeof(err)), -EPROTO);
	/* refused before anything was changed: same bytes, still a rollback journal */
	ck_assert_uint_eq(slurp(path, after, sizeof(after)), n);
	ck_assert_mem_eq(after, before, n);
	journal_mode(path, mode, sizeof(mode));
	ck_assert_str_eq(mode, "delete");
	snprintf(wal, sizeof(wal), "%s-wal", path);
	ck_assert_int_ne(access(wal, F_OK), 0);
	fix_tmp_free(path);

	path = fix_tmp_path();
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(db_open(path, DB_READONLY, &db, err, sizeof(err)), -EPROTO);
	ck_assert_msg(strstr(err, "empty database"), "%s", err);
	fix_tmp_free(path);
}
END_TEST

/* The permission bits of others on @path and its -wal and -shm, ORed. */
static mode_t others_bits(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };
	char buf[512];
	struct stat st;
	mode_t bits = 0;

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", path, suffix[i]);
		ck_assert_msg(stat(buf, &st) == 0, "%s", buf);
		bits |= st.st_mode & S_IRWXO;
	}
	return bits;
}

static void chmod_all(const char *path, mode_t mode)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };
	char buf[512];

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", path, suffix[i]);
		ck_assert_int_eq(chmod(buf, mode), 0);
	}
}

/* The store was made 0644, and the M_Keys in it readable by every user. */
START_TEST(store_with_keys_is_no_one_elses)
{
	char *path = fix_tmp_path();
	char err[256];
	struct db *db;
	struct stat st;

	umask(022);
	ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), 0);
	ck_assert_uint_eq(others_bits(path), S_IROTH);	/* no keys: as made */
	ck_assert_int_eq(db_mkey_save(db, 0x0002c90300000001ull, 0x5ec2e75ec2e75ec2ull), 0);
	ck_assert_uint_eq(others_bits(path), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0640);	/* the group may still read */
	db_close(db);
	/* an older ibsmd's store with keys, world-readable: the writer closes it */
	chmod_all(path, 0644);
	ck_assert_int_eq(db_open(path, DB_READONLY, &db, err, sizeof(err)), 0);
	db_close(db);
	ck_assert_uint_eq(others_bits(path), S_IROTH);	/* a reader changes nothing */
	ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), 0);
	ck_assert_uint_eq(others_bits(path), 0);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

static Suite *open_suite(void)
{
	Suite *s = suite_create("db_open");
	TCase *tc = tcase_create("open");

	tcase_add_test(tc, create_migrate_reopen);
	tcase_add_test(tc, one_writer);
	tcase_add_test(tc, readonly_refuses_writes);
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, directory_is_named);
	tcase_add_test(tc, newer_schema_refused);
	tcase_add_test(tc, foreign_and_empty_files);
	tcase_add_test(tc, store_with_keys_is_no_one_elses);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(open_suite)

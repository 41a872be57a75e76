// SPDX-License-Identifier: MIT
/*
 * check_db_sa.c - the SA's registrations in the store (db_sa.c): what is
 * saved loads back field by field; a save replaces the tables whole; a row
 * with a value its field cannot hold (each column at its worst) is skipped
 * and counted, the others still load.
 */
#include <check.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "tests/check_db_fixture.h"
#include "tests/check_util.h"

#define MAX_ROWS 8

struct got {
	struct db_sa_service s[MAX_ROWS];
	struct db_sa_inform i[MAX_ROWS];
	unsigned ns, ni;
};

static int take_service(void *arg, const struct db_sa_service *s)
{
	struct got *g = arg;

	ck_assert_uint_lt(g->ns, MAX_ROWS);
	g->s[g->ns++] = *s;
	return 0;
}

static int take_inform(void *arg, const struct db_sa_inform *ii)
{
	struct got *g = arg;

	ck_assert_uint_lt(g->ni, MAX_ROWS);
	g->i[g->ni++] = *ii;
	return 0;
}

static int stop_at_first(void *arg, const struct db_sa_service *s)
{
	(void)arg;
	(void)s;
	return -ECANCELED;
}

/* Every field at a value that shows its width and byte order. */
static struct db_sa_service full_service(void)
{
	struct db_sa_service s = {
		.id = 0x8000000000000abcULL, .pkey = 0xffff, .lease = 3600, .lid = 0xbfff,
		.data16 = { 0x0102, 0xfffe }, .data32 = { 0x01020304, 0xfffffffe },
		.data64 = { 0x0102030405060708ULL, 0xfffffffffffffffeULL },
		.expires_ms = FIX_TIME_MS + 3600000,
	};

	for (unsigned k = 0; k < 16; k++) {
		s.gid[k] = (uint8_t)(0xfe - k);
		s.key[k] = (uint8_t)k;
		s.data8[k] = (uint8_t)(0x80 + k);
	}
	memset(s.name, 'n', sizeof(s.name));	/* full: no NUL */
	return s;
}

static struct db_sa_inform full_inform(void)
{
	struct db_sa_inform ii = {
		.lid = 0x1234, .qpn = 0xffffff, .lid_begin = 0xffff, .lid_end = 7,
		.is_generic = true, .type = 0xffff, .trap_num = 0x80,
		.producer_type = 0xffffff, .resp_time = 31,
	};

	memset(ii.gid, 0xa5, sizeof(ii.gid));
	return ii;
}

static struct db *open_at(const char *path)
{
	char err[256];
	struct db *db;

	ck_assert_msg(db_open(path, DB_WRITER, &db, err, sizeof(err)) == 0, "%s", err);
	db_freeze_clock(db, FIX_TIME_MS);
	return db;
}

static void load(struct db *db, struct got *g, unsigned *bad_s, unsigned *bad_i)
{
	memset(g, 0, sizeof(*g));
	ck_assert_int_eq(db_sa_services_each(db, take_service, g, bad_s), 0);
	ck_assert_int_eq(db_sa_informs_each(db, take_inform, g, bad_i), 0);
}

/* Saved, then loaded back: the same, field by field; an infinite lease as
 * such; a second save replaces the first; a callback's error stops. */
START_TEST(round_trip)
{
	char *path = fix_tmp_path();
	struct db *db = open_at(path);
	struct db_sa_service s[2] = { full_service(), full_service() };
	struct db_sa_inform ii = full_inform();
	unsigned bad_s, bad_i;
	struct got g;

	s[1].id = 7;
	s[1].lease = 0xffffffff;
	s[1].expires_ms = DB_SA_NEVER;
	s[1].lid = 0;
	load(db, &g, &bad_s, &bad_i);
	ck_assert_uint_eq(g.ns + g.ni + bad_s + bad_i, 0);
	ck_assert_int_eq(db_sa_save(db, s, 2, &ii, 1), 0);
	db_close(db);
	db = open_at(path);
	load(db, &g, &bad_s, &bad_i);
	ck_assert_uint_eq(bad_s + bad_i, 0);
	ck_assert_uint_eq(g.ns, 2);
	ck_assert_uint_eq(g.ni, 1);
	ck_assert_mem_eq(g.s[0].gid, s[0].gid, sizeof(s[0].gid));
	ck_assert_uint_eq(g.s[0].id, s[0].id);
	ck_assert_uint_eq(g.s[0].pkey, s[0].pkey);
	ck_assert_uint_eq(g.s[0].lease, s[0].lease);
	ck_assert_mem_eq(g.s[0].key, s[0].key, sizeof(s[0].key));
	ck_assert_mem_eq(g.s[0].name, s[0].name, sizeof(s[0].name));
	ck_assert_mem_eq(g.s[0].data8, s[0].data8, sizeof(s[0].data8));
	ck_assert_mem_eq(g.s[0].data16, s[0].data16, sizeof(s[0].data16));
	ck_assert_mem_eq(g.s[0].data32, s[0].data32, sizeof(s[0].data32));
	ck_assert_mem_eq(g.s[0].data64, s[0].data64, sizeof(s[0].data64));
	ck_assert_uint_eq(g.s[0].lid, 0xbfff);
	ck_assert_int_eq(g.s[0].expires_ms, FIX_TIME_MS + 3600000);
	ck_assert_uint_eq(g.s[1].id, 7);
	ck_assert_uint_eq(g.s[1].lease, 0xffffffff);
	ck_assert_int_eq(g.s[1].expires_ms, DB_SA_NEVER);
	ck_assert_uint_eq(g.i[0].lid, ii.lid);
	ck_assert_uint_eq(g.i[0].qpn, ii.qpn);
	ck_assert_mem_eq(g.i[0].gid, ii.gid, sizeof(ii.gid));
	ck_assert_uint_eq(g.i[0].lid_begin, ii.lid_begin);
	ck_assert_uint_eq(g.i[0].lid_end, ii.lid_end);
	ck_assert(g.i[0].is_generic);
	ck_assert_uint_eq(g.i[0].type, ii.type);
	ck_assert_uint_eq(g.i[0].trap_num, ii.trap_num);
	ck_assert_uint_eq(g.i[0].producer_type, ii.producer_type);
	ck_assert_uint_eq(g.i[0].resp_time, ii.resp_time);
	ck_assert_int_eq(db_sa_services_each(db, stop_at_first, NULL, &bad_s), -ECANCELED);
	/* replaced whole */
	ck_assert_int_eq(db_sa_save(db, &s[1], 1, NULL, 0), 0);
	load(db, &g, &bad_s, &bad_i);
	ck_assert_uint_eq(g.ns, 1);
	ck_assert_uint_eq(g.ni, 0);
	ck_assert_uint_eq(g.s[0].id, 7);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

static void run_sql(const char *path, const char *sql)
{
	sqlite3 *s;
	char *err = NULL;

	ck_assert_int_eq(sqlite3_open(path, &s), SQLITE_OK);
	ck_assert_msg(sqlite3_exec(s, sql, NULL, NULL, &err) == SQLITE_OK, "%s: %s", sql, err);
	ck_assert_int_eq(sqlite3_changes(s), 1);
	sqlite3_close(s);
}

/* Save two services and two subscriptions, damage the second of one kind
 * (@inform) with @sql: that row alone is skipped and counted. */
static void damage_second_row(const char *path, const char *sql, bool inform)
{
	struct db_sa_service s[2] = { full_service(), full_service() };
	struct db_sa_inform ii[2] = { full_inform(), full_inform() };
	unsigned bad_s, bad_i;
	struct db *db = open_at(path);
	struct got g;

	s[1].id = 1;
	ii[1].lid = 1;
	ck_assert_int_eq(db_sa_save(db, s, 2, ii, 2), 0);
	db_close(db);
	run_sql(path, sql);
	db = open_at(path);
	load(db, &g, &bad_s, &bad_i);
	unsigned hit = inform ? 1 : 0;

	ck_assert_msg(bad_s == 1 - hit && bad_i == hit && g.ns == 1 + hit && g.ni == 2 - hit, "%s: %u+%u damaged, %u+%u loaded", sql, bad_s, bad_i,
		      g.ns, g.ni);
	ck_assert_uint_eq(g.s[0].id, s[0].id);
	ck_assert_uint_eq(g.i[0].lid, ii[0].lid);
	db_close(db);
}

/* Each column at a value its field cannot hold: that row alone is skipped
 * and counted (the good row beside it loads). */
START_TEST(damaged_rows)
{
	static const char *const bad_services[] = {
		"service_id = 'x'",			/* a text */
		"gid = x'00'",				/* a GID of one byte */
		"pkey = 65536",
		"pkey = -1",
		"lease = 4294967296",
		"lease = 1.5",				/* a real */
		"service_key = zeroblob(17)",
		"name = 'storage'",			/* a text, not the 64 bytes */
		"data = zeroblob(63)",
		"lid = 65536",
		"expires_ms = 9223372036854775807",	/* DB_SA_NEVER as a number */
		"expires_ms = 'soon'",
	};
	static const char *const bad_informs[] = {
		"lid = -1", "qpn = 16777216", "gid = zeroblob(15)", "lid_begin = 65536",
		"lid_end = -1", "is_generic = 2", "type = 65536", "trap_num = 'x'",
		"producer_type = 16777216", "resp_time = 32",
	};
	char *path = fix_tmp_path();
	char sql[200];

	for (size_t k = 0; k < sizeof(bad_services) / sizeof(bad_services[0]); k++) {
		snprintf(sql, sizeof(sql), "UPDATE sa_services SET %s WHERE service_id = 1",
			 bad_services[k]);
		damage_second_row(path, sql, false);
	}
	for (size_t k = 0; k < sizeof(bad_informs) / sizeof(bad_informs[0]); k++) {
		snprintf(sql, sizeof(sql), "UPDATE sa_informs SET %s WHERE lid = 1", bad_informs[k]);
		damage_second_row(path, sql, true);
	}
	fix_tmp_free(path);
}
END_TEST

static int take_alias(void *arg, const struct db_sa_alias *a)
{
	struct db_sa_alias *out = arg;

	for (;; out++)
		if (!out->port_guid) {
			*out = *a;
			return 0;
		}
}

/* Alias GUIDs: saved whole and read back in order, every bit of the GUIDs
 * kept (the top bit too); a row with GUID 0 or an index out of 1..32767 is
 * skipped and counted. */
START_TEST(aliases)
{
	char *path = fix_tmp_path();
	char err[256];
	struct db *db;
	const struct db_sa_alias want[] = {
		{ 0x8002c90300000001ull, 1, 0xfffffffffffffffeull },
		{ 0x0002c90300000002ull, 127, 0x0002c90300aa0001ull },
		{ 0x0002c90300000002ull, 5, 1 },
	};
	struct db_sa_alias got[8];
	unsigned bad;

	ck_assert_msg(db_open(path, DB_WRITER, &db, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(db_sa_aliases_save(db, want, 3), 0);
	ck_assert_int_eq(db_sa_aliases_save(db, want, 3), 0);	/* replaced, not added */
	memset(got, 0, sizeof(got));
	ck_assert_int_eq(db_sa_aliases_each(db, take_alias, got, &bad), 0);
	ck_assert_uint_eq(bad, 0);
	for (unsigned k = 0; k < 3; k++) {
		ck_assert_uint_eq(got[k].port_guid, want[k].port_guid);
		ck_assert_uint_eq(got[k].index, want[k].index);
		ck_assert_uint_eq(got[k].alias, want[k].alias);
	}
	ck_assert_uint_eq(got[3].port_guid, 0);
	db_close(db);
	sqlite3 *raw;
	ck_assert_int_eq(sqlite3_open(path, &raw), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(raw, "UPDATE sa_aliases SET idx = 0 WHERE idx = 1;"
				      " UPDATE sa_aliases SET alias_guid = 0 WHERE idx = 127;"
				      " UPDATE sa_aliases SET port_guid = 'x' WHERE idx = 5",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);
	ck_assert_msg(db_open(path, DB_WRITER, &db, err, sizeof(err)) == 0, "%s", err);
	memset(got, 0, sizeof(got));
	ck_assert_int_eq(db_sa_aliases_each(db, take_alias, got, &bad), 0);
	ck_assert_uint_eq(bad, 3);
	ck_assert_uint_eq(got[0].port_guid, 0);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

static Suite *sa_suite(void)
{
	Suite *s = suite_create("db_sa");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, damaged_rows);
	tcase_add_test(tc, aliases);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(sa_suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_path_sl.c - the routing engine's path SLs in the store: rows
 * run-length coded and read back as they were (runs past 127, SLs 0..15, a
 * row shorter or longer than the LIDs asked for), and the daemon's writer
 * (sm_path_sl_store.c) writing only the rows that changed and dropping those
 * gone or all 0.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sweep/sm_path_sl_store.h"
#include "tests/check_db_fixture.h"
#include "tests/check_util.h"

#define NLIDS 600

struct seen {
	unsigned n;
	uint64_t source[8];
	uint8_t sls[8][NLIDS + 100];
};

static int collect(void *arg, uint64_t source, bool by_switch, const uint8_t *sls, size_t n)
{
	struct seen *s = arg;

	ck_assert(!by_switch);
	ck_assert_uint_lt(s->n, 8);
	s->source[s->n] = source;
	memcpy(s->sls[s->n++], sls, n);
	return 0;
}

static struct db *open_writer(char **path)
{
	char err[256];
	struct db *db;

	*path = fix_tmp_path();
	ck_assert_msg(db_open(*path, DB_WRITER, &db, err, sizeof(err)) == 0, "%s", err);
	return db;
}

/* A table keyed by CA LID: rows for LIDs 3 and 9, 600 DLIDs each. */
struct table {
	struct rt_path_sls t;
	uint32_t row_of[NLIDS];
	uint8_t sl[2 * NLIDS];
};

static void table_init(struct table *tb)
{
	memset(tb, 0, sizeof(*tb));
	for (unsigned k = 0; k < NLIDS; k++)
		tb->row_of[k] = UINT32_MAX;
	tb->row_of[3] = 0;
	tb->row_of[9] = 1;
	for (unsigned d = 0; d < NLIDS; d++) {
		tb->sl[d] = d < 200 ? 0 : d < 450 ? 1 : (uint8_t)(d % 16);	/* a run of 250 */
		tb->sl[NLIDS + d] = d == 599 ? 15 : 0;				/* one SL at the end */
	}
	tb->t = (struct rt_path_sls){ .by_switch = false, .max_lid = NLIDS - 1,
				      .nkeys = NLIDS, .row_of = tb->row_of, .sl = tb->sl };
}

START_TEST(rows_round_trip)
{
	char *path;
	struct db *db = open_writer(&path);
	struct table tb;
	struct seen s = { 0 };

	table_init(&tb);
	ck_assert_int_eq(db_path_sls_save(db, 3, false, tb.sl, NLIDS), 0);
	ck_assert_int_eq(db_path_sls_save(db, 9, false, tb.sl + NLIDS, NLIDS), 0);
	ck_assert_int_eq(db_path_sls_each(db, NLIDS + 100, collect, &s), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.source[0], 3);
	ck_assert_mem_eq(s.sls[0], tb.sl, NLIDS);
	ck_assert_mem_eq(s.sls[1], tb.sl + NLIDS, NLIDS);
	for (unsigned d = NLIDS; d < NLIDS + 100; d++)	/* past the stored row: SL 0 */
		ck_assert_uint_eq(s.sls[1][d], 0);
	/* asked for fewer DLIDs than stored (the fabric shrank): those */
	s.n = 0;
	ck_assert_int_eq(db_path_sls_each(db, 300, collect, &s), 0);
	ck_assert_mem_eq(s.sls[0], tb.sl, 300);
	/* all 0: the row goes */
	memset(tb.sl, 0, NLIDS);
	ck_assert_int_eq(db_path_sls_save(db, 3, false, tb.sl, NLIDS), 0);
	s.n = 0;
	ck_assert_int_eq(db_path_sls_each(db, NLIDS, collect, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.source[0], 9);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

START_TEST(only_changed_rows_written)
{
	char *path;
	struct db *db = open_writer(&path);
	struct sm_fabric f = { 0 };
	struct sm_path_sl_rows stored = { 0 };
	struct table tb;
	struct seen s = { 0 };
	uint8_t marker[NLIDS] = { [5] = 7 };

	/* an earlier run's row: cleared by the first store */
	ck_assert_int_eq(db_path_sls_save(db, 44, false, marker, NLIDS), 0);
	table_init(&tb);
	ck_assert_int_eq(sm_path_sls_store(db, &f, &tb.t, &stored), 0);
	ck_assert_int_eq(db_path_sls_each(db, NLIDS, collect, &s), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.source[0] + s.source[1], 12);
	/* the same SLs again: nothing written (the row altered behind its back
	 * stays altered) */
	ck_assert_int_eq(db_path_sls_save(db, 9, false, marker, NLIDS), 0);
	ck_assert_int_eq(sm_path_sls_store(db, &f, &tb.t, &stored), 0);
	s.n = 0;
	ck_assert_int_eq(db_path_sls_each(db, NLIDS, collect, &s), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_mem_eq(s.sls[1], marker, NLIDS);
	/* LID 9's row changes: rewritten; LID 3's all 0 now: dropped */
	tb.sl[NLIDS + 10] = 2;
	memset(tb.sl, 0, NLIDS);
	ck_assert_int_eq(sm_path_sls_store(db, &f, &tb.t, &stored), 0);
	s.n = 0;
	ck_assert_int_eq(db_path_sls_each(db, NLIDS, collect, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.source[0], 9);
	ck_assert_mem_eq(s.sls[0], tb.sl + NLIDS, NLIDS);
	/* no table (an engine without SLs): every row goes */
	struct rt_path_sls none = { 0 };
	ck_assert_int_eq(sm_path_sls_store(db, &f, &none, &stored), 0);
	s.n = 0;
	ck_assert_int_eq(db_path_sls_each(db, NLIDS, collect, &s), 0);
	ck_assert_uint_eq(s.n, 0);
	sm_path_sl_rows_free(&stored);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_path_sl");
	TCase *tc = tcase_create("store");

	tcase_add_test(tc, rows_round_trip);
	tcase_add_test(tc, only_changed_rows_written);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

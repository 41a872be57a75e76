// SPDX-License-Identifier: MIT
/*
 * check_db_counters.c - the port counter store: history rows only for ports
 * that counted something, totals from a port's first sample on, retention by
 * age and by row count (the oldest whole passes go), passes kept apart and a
 * pass's parts together, counters beyond
 * INT64_MAX stored as that, and a reader refused the writes.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>

#include "db/db.h"
#include "tests/check_db_fixture.h"
#include "tests/check_util.h"

struct tally {
	unsigned rows;
	uint64_t xmit_data, symbol_errors;
	int64_t first_ts;
};

static int count_row(void *arg, const struct db_port_row *r)
{
	struct tally *t = arg;

	if (!t->rows++)
		t->first_ts = r->ts_ms;
	t->xmit_data += r->c.xmit_data;
	t->symbol_errors += r->c.symbol_errors;
	return 0;
}

/* Store a pass at @at ms of four ports; port 4 idle after its first sample. */
static void store_pass(struct db *db, int64_t at, uint32_t interval, int64_t keep_ms,
		       uint64_t max_rows)
{
	struct db_port_sample s[4];

	for (unsigned i = 0; i < 4; i++)
		s[i] = (struct db_port_sample){ .guid = 0x10 + i / 2, .port = (uint8_t)(1 + i % 2),
						.interval_ms = interval,
						.delta = { .xmit_data = i < 3 ? 100 : 0,
							   .symbol_errors = i == 0 } };
	db_freeze_clock(db, FIX_TIME_MS + at);
	ck_assert_int_eq(db_counters_record(db, s, 4, 3, false, keep_ms, max_rows), 0);
}

static struct tally history(struct db *db)
{
	struct tally t = { 0 };

	ck_assert_int_eq(db_counters_history_each(db, 0x10, 1, count_row, &t), 0);
	return t;
}

START_TEST(rows_totals_and_retention)
{
	char *path = fix_tmp_path();
	struct topo topo;

	fix_small(&topo);
	struct db *db = fix_store(path, &topo);
	store_pass(db, 0, 0, 0, 0);
	store_pass(db, 1000, 1000, 0, 0);
	struct tally latest = { 0 }, totals = { 0 };
	ck_assert_int_eq(db_counters_latest_each(db, count_row, &latest), 0);
	ck_assert_uint_eq(latest.rows, 3);		/* the idle port has none */
	ck_assert_int_eq(db_counters_totals_each(db, count_row, &totals), 0);
	ck_assert_uint_eq(totals.rows, 4);		/* but a total, from its first sample */
	ck_assert_uint_eq(totals.xmit_data, 600);
	ck_assert_uint_eq(history(db).rows, 2);

	/* at most 6 rows: the pass of 0 ms goes whole */
	store_pass(db, 2000, 1000, 0, 6);
	ck_assert_uint_eq(history(db).rows, 2);
	ck_assert_int_eq(history(db).first_ts, FIX_TIME_MS + 1000);
	/* 1.5 s of history: the pass of 1000 ms goes too */
	store_pass(db, 3000, 1000, 1500, 0);
	ck_assert_uint_eq(history(db).rows, 2);
	ck_assert_int_eq(history(db).first_ts, FIX_TIME_MS + 2000);
	/* the totals survive the pruning */
	totals = (struct tally){ 0 };
	ck_assert_int_eq(db_counters_totals_each(db, count_row, &totals), 0);
	ck_assert_uint_eq(totals.xmit_data, 4 * 300);
	ck_assert_uint_eq(totals.symbol_errors, 4);
	db_close(db);
	topo_free(&topo);
	fix_tmp_free(path);
}
END_TEST

/* Two passes in one millisecond stay two; the rest of a pass cut short
 * joins it, stamped with its time. */
START_TEST(passes_apart_and_parts_together)
{
	char *path = fix_tmp_path();
	struct topo topo;
	const struct db_port_sample a = { .guid = 0x42, .port = 1, .interval_ms = 5,
					  .delta = { .xmit_wait = 1 } };
	const struct db_port_sample b = { .guid = 0x42, .port = 2, .interval_ms = 5,
					  .delta = { .xmit_wait = 2 } };

	fix_small(&topo);
	struct db *db = fix_store(path, &topo);
	db_freeze_clock(db, FIX_TIME_MS);
	ck_assert_int_eq(db_counters_record(db, &a, 1, 1, false, 0, 0), 0);
	ck_assert_int_eq(db_counters_record(db, &a, 1, 1, false, 0, 0), 0);
	struct tally t = { 0 };
	ck_assert_int_eq(db_counters_latest_each(db, count_row, &t), 0);
	ck_assert_uint_eq(t.rows, 1);
	ck_assert_int_eq(t.first_ts, FIX_TIME_MS + 1);
	db_freeze_clock(db, FIX_TIME_MS + 500);
	ck_assert_int_eq(db_counters_record(db, &b, 1, 1, true, 0, 0), 0);
	t = (struct tally){ 0 };
	ck_assert_int_eq(db_counters_latest_each(db, count_row, &t), 0);
	ck_assert_uint_eq(t.rows, 2);
	ck_assert_int_eq(t.first_ts, FIX_TIME_MS + 1);
	db_close(db);
	topo_free(&topo);
	fix_tmp_free(path);
}
END_TEST

START_TEST(huge_values_and_readers)
{
	char *path = fix_tmp_path();
	struct topo topo;
	struct db_port_sample s = { .guid = 0x42, .port = 3, .interval_ms = 0,
				    .delta = { .xmit_data = UINT64_MAX } };
	char err[256];

	fix_small(&topo);
	struct db *db = fix_store(path, &topo);
	ck_assert_int_eq(db_counters_record(db, &s, 1, 1, false, 0, 0), 0);
	struct tally t = { 0 };
	ck_assert_int_eq(db_counters_totals_each(db, count_row, &t), 0);
	ck_assert_uint_eq(t.xmit_data, INT64_MAX);
	db_close(db);
	ck_assert_int_eq(db_open(path, DB_READONLY, &db, err, sizeof(err)), 0);
	ck_assert_int_eq(db_counters_record(db, &s, 1, 1, false, 0, 0), -EROFS);
	db_close(db);
	topo_free(&topo);
	fix_tmp_free(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("db_counters");
	TCase *tc = tcase_create("counters");

	tcase_add_test(tc, rows_totals_and_retention);
	tcase_add_test(tc, passes_apart_and_parts_together);
	tcase_add_test(tc, huge_values_and_readers);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

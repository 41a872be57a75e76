// SPDX-License-Identifier: MIT
/*
 * check_sm_trap_limit.c - traps counted per source port (sm_trap_limit.c):
 * one window per port, babbling reported once and held, the hold-down's end
 * with its count, the limit of all ports, and a table full of held ports.
 */
#include <check.h>
#include <stdlib.h>

#include "sm/ha/sm_trap_limit.h"
#include "tests/check_util.h"

#define HOLD_MS 5000

static struct sm_trap_limit *fresh(void)
{
	struct sm_trap_limit *l = calloc(1, sizeof(*l));

	ck_assert_ptr_nonnull(l);
	return l;
}

START_TEST(babbling_port_reported_once_then_held)
{
	struct sm_trap_limit *l = fresh();
	struct sm_trap_report rep;
	uint64_t t = 100000;

	ck_assert_int_eq(sm_trap_limit_take(l, 7, t, 3, HOLD_MS, &rep), SM_TRAP_FIRST);
	ck_assert_uint_eq(rep.ignored, 0);
	ck_assert_int_eq(sm_trap_limit_take(l, 7, t + 1, 3, HOLD_MS, NULL), SM_TRAP_TAKE);
	ck_assert_int_eq(sm_trap_limit_take(l, 7, t + 2, 3, HOLD_MS, NULL), SM_TRAP_TAKE);
	ck_assert_int_eq(sm_trap_limit_take(l, 7, t + 3, 3, HOLD_MS, &rep), SM_TRAP_BABBLING);
	ck_assert_uint_eq(rep.count, 4);
	/* another port is not affected */
	ck_assert_int_eq(sm_trap_limit_take(l, 8, t + 4, 3, HOLD_MS, NULL), SM_TRAP_FIRST);
	for (int i = 0; i < 996; i++)
		ck_assert_int_eq(sm_trap_limit_take(l, 7, t + 4 + (uint64_t)i, 3, HOLD_MS, NULL),
				 SM_TRAP_HELD);
	/* long after its window, still within the hold-down */
	ck_assert_int_eq(sm_trap_limit_take(l, 7, t + 3 + HOLD_MS - 1, 3, HOLD_MS, NULL),
			 SM_TRAP_HELD);
	ck_assert_int_eq(sm_trap_limit_take(l, 7, t + 3 + HOLD_MS, 3, HOLD_MS, &rep),
			 SM_TRAP_FIRST);
	ck_assert_uint_eq(rep.ignored, 997);
	free(l);
}
END_TEST

START_TEST(each_second_a_new_window)
{
	struct sm_trap_limit *l = fresh();

	/* 3 a second, forever: never babbling, one FIRST per second */
	for (uint64_t s = 0; s < 20; s++) {
		uint64_t t = 5000 + s * SM_TRAP_WINDOW_MS;
		ck_assert_int_eq(sm_trap_limit_take(l, 9, t, 3, HOLD_MS, NULL), SM_TRAP_FIRST);
		ck_assert_int_eq(sm_trap_limit_take(l, 9, t + 500, 3, HOLD_MS, NULL), SM_TRAP_TAKE);
		ck_assert_int_eq(sm_trap_limit_take(l, 9, t + 999, 3, HOLD_MS, NULL), SM_TRAP_TAKE);
	}
	free(l);
}
END_TEST

/* Traps from ever new LIDs (spoofed): all ports together are capped, and the
 * cap is reported once per hold-down. */
START_TEST(all_ports_capped)
{
	struct sm_trap_limit *l = fresh();
	unsigned taken = 0, reports = 0;

	for (unsigned i = 0; i < 10000; i++) {
		enum sm_trap_verdict v = sm_trap_limit_take(l, (uint16_t)(1 + i % 200), 1000 + i / 20,
							    2, HOLD_MS, NULL);
		taken += v == SM_TRAP_FIRST || v == SM_TRAP_TAKE;
		reports += v == SM_TRAP_FLOOD || v == SM_TRAP_BABBLING;
	}
	/* 500 ms: one window of all ports, at most 2 * SM_TRAP_ALL_FACTOR taken */
	ck_assert_uint_le(taken, 2 * SM_TRAP_ALL_FACTOR);
	ck_assert_uint_ge(taken, 1);
	/* each of the 200 ports babbles once; the cap is reported once */
	ck_assert_uint_le(reports, 200 + 1);
	free(l);
}
END_TEST

/* Every slot held by a babbler: a new port's traps are dropped as a flood
 * until a hold-down ends, then it gets a slot. */
START_TEST(table_full_of_held_ports)
{
	struct sm_trap_limit *l = fresh();
	const uint64_t hold = 1000 * 1000;	/* longer than it takes to fill the table */
	uint64_t t = 1000;

	/* one port a second, so that the limit of all ports stays out of it */
	for (unsigned p = 0; p < SM_TRAP_PORTS; p++, t += SM_TRAP_WINDOW_MS) {
		ck_assert_int_eq(sm_trap_limit_take(l, (uint16_t)(p + 1), t, 1, hold, NULL),
				 SM_TRAP_FIRST);
		ck_assert_int_eq(sm_trap_limit_take(l, (uint16_t)(p + 1), t, 1, hold, NULL),
				 SM_TRAP_BABBLING);
	}
	ck_assert_int_eq(sm_trap_limit_take(l, 60000, t, 1, hold, NULL), SM_TRAP_FLOOD);
	ck_assert_int_eq(sm_trap_limit_take(l, 60000, t + 1, 1, hold, NULL), SM_TRAP_FLOODED);
	/* the first babbler's hold-down is over: its slot is free */
	ck_assert_int_eq(sm_trap_limit_take(l, 60000, 1000 + hold, 1, hold, NULL), SM_TRAP_FIRST);
	free(l);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("sm_trap_limit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, babbling_port_reported_once_then_held);
	tcase_add_test(tc, each_second_a_new_window);
	tcase_add_test(tc, all_ports_capped);
	tcase_add_test(tc, table_full_of_held_ports);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

// SPDX-License-Identifier: MIT
/*
 * check_rt_file.c - the file engine (routing/rt_file.c).
 *
 * Golden input: tests/rt/ft2r4.ibroute is what `ibroute LID` printed for the
 * six switches of tests/rt/ft2r4.net (ibsmd-topogen fattree --levels 2
 * --radix 4) under ibsim after `ibsmd --backend umad --once`; ft2r4.lids is
 * the LID each port got (from the same dump's destination column).  Loaded
 * back, the tables must be exactly the dump's and route every pair.  Broken
 * dumps (tests/rt/bad-*.ibroute) must fail naming the file and line.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check_util.h"
#include "tests/rt_testview.h"

static char opt[1024];
static const char *opts[] = { opt, NULL };

static void load(struct rtv *r, const char *dump)
{
	char lids[1024];

	snprintf(opt, sizeof(opt), "file=%s", rtv_srcpath(dump));
	snprintf(lids, sizeof(lids), "%s", rtv_srcpath("tests/rt/ft2r4.lids"));
	ck_assert_int_eq(rtv_load(r, rtv_srcpath("tests/rt/ft2r4.net"), lids, opts), 0);
}

START_TEST(golden_dump_loads)
{
	struct rt_validation val;
	struct rt_cdg_result cdg;
	struct rtv r;
	unsigned routed = 0;

	load(&r, "tests/rt/ft2r4.ibroute");
	ck_assert_uint_eq(r.v.max_lid, 14);
	ck_assert_int_eq(rt_file_engine.compute_unicast(&r.ctx, NULL), 0);
	for (uint32_t n = 0; n < r.v.nnodes; n++)
		for (uint32_t lid = 0; r.lft[n] && lid <= r.v.max_lid; lid++)
			routed += r.lft[n][lid] != IBSMD_NO_PORT;
	ck_assert_uint_eq(routed, 6 * 14);	/* "14 valid lids dumped", six times */
	/* first lines of L3's dump: H0 out of port 4, H6 out of port 1, its own
	 * LID 0xc to port 0 */
	uint32_t l3 = topo_find_guid(&r.topo, 0x0200000200000030ULL);
	ck_assert_uint_ne(l3, TOPO_NONE);
	ck_assert_uint_eq(r.lft[l3][1], 4);
	ck_assert_uint_eq(r.lft[l3][7], 1);
	ck_assert_uint_eq(r.lft[l3][0xc], 0);
	ck_assert_uint_eq(r.lft[l3][0], IBSMD_NO_PORT);
	ck_assert_int_eq(rt_validate(&r.ctx, &val), 0);
	ck_assert_uint_eq(val.pairs, 64);
	ck_assert_int_eq(rt_cdg_check(&r.ctx, &rt_file_engine, NULL, &cdg), 0);
	rtv_free(&r);
}
END_TEST

static const struct {
	const char *file;
	const char *error;
} bad[] = {
	{ "bad-guid", "bad-guid.ibroute:1: no switch of the fabric has GUID 0x0200000200000099" },
	{ "bad-line", "bad-line.ibroute:5: neither an LFT entry" },
	{ "bad-port", "bad-port.ibroute:5: switch 0x0200000200000030 has no port 9" },
	{ "bad-lid", "bad-lid.ibroute:5: LID 0x101 is outside the fabric's LIDs (1..0xe)" },
	{ "bad-count", "bad-count.ibroute:5: the trailer counts 2 LIDs, the dump holds 1" },
	{ "bad-orphan", "bad-orphan.ibroute:1: LFT entry before any switch header" },
};

START_TEST(broken_dumps_name_file_and_line)
{
	char path[64];
	struct rtv r;

	snprintf(path, sizeof(path), "tests/rt/%s.ibroute", bad[_i].file);
	load(&r, path);
	ck_assert_int_eq(rt_file_engine.compute_unicast(&r.ctx, NULL), -EINVAL);
	ck_assert_msg(strstr(rtv_last_log, bad[_i].error), "log: %s", rtv_last_log);
	rtv_free(&r);
}
END_TEST

START_TEST(missing_option_or_file)
{
	struct rtv r;

	load(&r, "tests/rt/no-such.ibroute");
	ck_assert_int_eq(rt_file_engine.compute_unicast(&r.ctx, NULL), -ENOENT);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "no-such.ibroute: No such file"));
	r.ctx.noptions = 0;
	ck_assert_int_eq(rt_file_engine.compute_unicast(&r.ctx, NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "no option file=PATH"));
	rtv_free(&r);
	/* a directory opens but does not read: named, not an empty table */
	load(&r, "tests/rt");
	ck_assert_int_eq(rt_file_engine.compute_unicast(&r.ctx, NULL), -EISDIR);
	ck_assert_msg(strstr(rtv_last_log, "tests/rt: cannot read: Is a directory"), "%s",
		      rtv_last_log);
	rtv_free(&r);
}
END_TEST

static Suite *file_suite(void)
{
	Suite *s = suite_create("file");
	TCase *tc = tcase_create("file");

	tcase_add_test(tc, golden_dump_loads);
	tcase_add_loop_test(tc, broken_dumps_name_file_and_line, 0,
			    (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, missing_option_or_file);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(file_suite)

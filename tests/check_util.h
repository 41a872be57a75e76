/* SPDX-License-Identifier: MIT */
/*
 * check_util.h - the one main() every Check suite shares.
 *
 * A suite file defines `Suite *make_suite(void)` and ends with CHECK_MAIN().
 */
#ifndef IBSMD_TESTS_CHECK_UTIL_H
#define IBSMD_TESTS_CHECK_UTIL_H

#include <check.h>

#define CHECK_MAIN(make_suite)                                     \
	int main(void)                                             \
	{                                                          \
		SRunner *sr = srunner_create(make_suite());        \
		srunner_run_all(sr, CK_NORMAL);                    \
		int failed = srunner_ntests_failed(sr);            \
		srunner_free(sr);                                  \
		return failed ? 1 : 0;                             \
	}

#endif

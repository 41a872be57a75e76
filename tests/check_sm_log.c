// SPDX-License-Identifier: MIT
/*
 * check_sm_log.c - the log file: lines go to it, and sm_log_reopen() (SIGUSR1)
 * moves them to a new file of the same name after logrotate renamed the old.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sm/util/sm_log.h"
#include "tests/check_util.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;

	ck_assert_ptr_nonnull(f);
	if (getdelim(&text, &len, '\0', f) < 0) {
		free(text);
		text = strdup("");
	}
	fclose(f);
	return text;
}

START_TEST(reopen_follows_logrotate)
{
	char dir[] = "/tmp/check_sm_log.XXXXXX", path[128], rotated[128];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ibsmd.log", dir);
	snprintf(rotated, sizeof(rotated), "%s/ibsmd.log.1", dir);
	ck_assert_int_eq(sm_log_open(path, LOG_INFO, 0), 0);
	sm_notice("before the rotation");
	ck_assert_int_eq(rename(path, rotated), 0);
	sm_notice("still the old file");
	ck_assert_int_eq(sm_log_reopen(), 0);
	sm_notice("after the reopen");
	sm_debug("above the level: dropped");

	char *old = slurp(rotated), *cur = slurp(path);
	ck_assert_ptr_nonnull(strstr(old, "notice: before the rotation\n"));
	ck_assert_ptr_nonnull(strstr(old, "notice: still the old file\n"));
	ck_assert_ptr_null(strstr(old, "after the reopen"));
	ck_assert_ptr_nonnull(strstr(cur, "notice: after the reopen\n"));
	ck_assert_ptr_null(strstr(cur, "before"));
	ck_assert_ptr_null(strstr(cur, "dropped"));
	free(old);
	free(cur);

	/* the directory is gone: the old file stays in use */
	unlink(path);
	unlink(rotated);
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_int_lt(sm_log_reopen(), 0);
	sm_notice("into the unlinked file, not lost to a crash");
	sm_log_close();
	ck_assert_int_eq(sm_log_reopen(), 0);	/* no file: nothing to do */
}
END_TEST

START_TEST(level_names_read_back)
{
	for (int l = LOG_ERR; l <= LOG_DEBUG; l++)
		ck_assert_int_eq(sm_log_level_parse(sm_log_level_name(l)), l);
	ck_assert_str_eq(sm_log_level_name(LOG_ERR), "error");
	ck_assert_int_eq(sm_log_level_parse("err"), LOG_ERR);
	ck_assert_int_eq(sm_log_level_parse("loud"), -1);
}
END_TEST

static Suite *log_suite(void)
{
	Suite *s = suite_create("sm_log");
	TCase *tc = tcase_create("log");

	tcase_add_test(tc, reopen_follows_logrotate);
	tcase_add_test(tc, level_names_read_back);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(log_suite)

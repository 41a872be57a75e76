// SPDX-License-Identifier: MIT
/*
 * check_sm_log.c - the log file: lines go to it, and sm_log_reopen() (SIGUSR1)
 * moves them to a new file of the same name after logrotate renamed the old;
 * a hostile NodeDescription in a message stays on its line, escaped, in the
 * file and on stderr (journald's path under systemd) alike.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sm/util/sm_log.h"
#include "tests/check_util.h"
#include "tests/hostile_strings.h"

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

/* One log line per message, whatever the description in it: only printable
 * ASCII (the escapes) between a line's stamp and its end, so no ESC reaches
 * a terminal and no line feed forges a line of its own. */
static void assert_one_line_each(const char *text, unsigned lines)
{
	unsigned n = 0;

	for (const char *line = text; *line; n++) {
		const char *end = strchr(line, '\n');
		unsigned y, mo, d, h, mi, sec, ms;
		char level[16];

		ck_assert_ptr_nonnull(end);
		ck_assert_msg(sscanf(line, "%4u-%2u-%2u %2u:%2u:%2u.%3u ibsmd[%*u] %15[a-z]: ", &y,
				     &mo, &d, &h, &mi, &sec, &ms, level) == 8,
			      "not a log line: %.*s", (int)(end - line), line);
		for (const unsigned char *c = (const unsigned char *)line; c < (const unsigned char *)end; c++)
			ck_assert_msg(*c >= 0x20 && *c < 0x7f, "byte 0x%02x in line %u", *c, n + 1);
		line = end + 1;
	}
	ck_assert_uint_eq(n, lines);
}

START_TEST(hostile_descriptions_stay_on_their_line)
{
	char dir[] = "/tmp/check_sm_log.XXXXXX", path[128], errpath[128];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ibsmd.log", dir);
	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	int saved = dup(STDERR_FILENO), fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(dup2(fd, STDERR_FILENO), 0);
	close(fd);
	ck_assert_int_eq(sm_log_open(path, LOG_DEBUG, 1), 0);
	for (size_t i = 0; i < HOSTILE_STRINGS; i++)
		sm_warn("isolation: link 0x%016llx (%s) port %u", 0x2c9ULL + i, hostile_strings[i],
			(unsigned)i);
	sm_log_close();
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);

	char *file = slurp(path), *err = slurp(errpath);
	assert_one_line_each(file, HOSTILE_STRINGS);
	ck_assert_str_eq(file, err);
	/* kept visible, escaped */
	static const char *const shown[] = {
		"(h4\\nFAKE 2026-01-01 00:00:00.000 ibsmd[1] crit: forged)",
		"(\\x1b]52;c;cm0gLXJmIH4K\\x07clipboard written)",
		"(user\\u202egnp.exe \\u202a",
		"(say \"hi\" \\\\ \\\\\"q\\\\)",
		"(bad\\xff\\xfe\\xc0\\xaf\\xed\\xa0\\x80 utf8 \\xe2\\x80)",
		"(line\\u2028sep\\u2029para \\u0085nel \\u009b2J)",
		"(tab\\there\\x7fdel %s%n%x)",
	};
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		ck_assert_msg(strstr(file, shown[i]), "no %s in the log", shown[i]);
	free(file);
	free(err);
	unlink(path);
	unlink(errpath);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *log_suite(void)
{
	Suite *s = suite_create("sm_log");
	TCase *tc = tcase_create("log");

	tcase_add_test(tc, reopen_follows_logrotate);
	tcase_add_test(tc, level_names_read_back);
	tcase_add_test(tc, hostile_descriptions_stay_on_their_line);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(log_suite)

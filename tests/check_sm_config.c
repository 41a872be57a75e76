// SPDX-License-Identifier: MIT
/*
 * check_sm_config.c - ibsmd.yaml: every key read, every mistake named with its
 * file and line, and a bad file leaving the configuration untouched.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sm_config.h"
#include "sm/sm_log.h"
#include "tests/check_util.h"

static const char *cfg_path(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/tests/config/%s",
		 getenv("top_srcdir") ? getenv("top_srcdir") : ".", name);
	return path;
}

START_TEST(reads_every_key)
{
	struct sm_config c;
	char err[256];

	sm_config_defaults(&c);
	ck_assert_int_eq(sm_config_load(&c, cfg_path("good.yaml"), err, sizeof(err)), 0);
	ck_assert_str_eq(c.backend, "sim:fabric.topo");
	ck_assert_str_eq(c.db_path, "/tmp/x.db");
	ck_assert_uint_eq(c.nrouting, 3);
	ck_assert_str_eq(c.routing[0], "ftree");
	ck_assert_str_eq(c.routing[2], "minhop");
	ck_assert_uint_eq(c.nrouting_options, 2);
	ck_assert_str_eq(c.routing_options[0], "root=0x0002c9030000abcd");
	ck_assert_str_eq(c.routing_options[1], "file=/etc/ibsmd/lfts.dump");
	ck_assert_uint_eq(c.lmc, 2);
	ck_assert_uint_eq(c.sm_priority, 7);
	ck_assert_uint_eq(c.subnet_prefix, 0xfe80000000000001ULL);
	ck_assert_int_eq(c.log_level, LOG_DEBUG);
	ck_assert_uint_eq(c.sweep_interval_s, 0);
	ck_assert_uint_eq(c.window, 128);
	ck_assert_uint_eq(c.smps_per_node, 2);
	ck_assert_uint_eq(c.timeout_ms, 50);
	ck_assert_uint_eq(c.retries, 5);
}
END_TEST

static void expect_error(const char *file, int rc, const char *needle)
{
	struct sm_config c, before;
	char err[256] = "";

	sm_config_defaults(&c);
	before = c;
	ck_assert_int_eq(sm_config_load(&c, cfg_path(file), err, sizeof(err)), rc);
	ck_assert_msg(strstr(err, needle), "%s: '%s' lacks '%s'", file, err, needle);
	ck_assert_msg(strstr(err, file), "%s: '%s' does not name the file", file, err);
	ck_assert_mem_eq(&c, &before, sizeof(c));
}

START_TEST(mistakes_are_named)
{
	expect_error("bad-key.yaml", -EINVAL, ":3: unknown key 'sweep.windw'");
	expect_error("bad-range.yaml", -EINVAL, ":1: lmc: expected a whole number from 0 to 7");
	expect_error("bad-yaml.yaml", -EINVAL, ":");
	expect_error("bad-number.yaml", -EINVAL, ":2: sweep.window: expected a whole number");
	expect_error("bad-level.yaml", -EINVAL, ":2: log.level: 'loud' is not one of");
	expect_error("bad-root.yaml", -EINVAL, "must be a mapping");
	expect_error("bad-option.yaml", -EINVAL, ":1: routing_options: 'root' is not key=value");
	expect_error("missing.yaml", -ENOENT, "No such file");
}
END_TEST

START_TEST(routing_chain_from_the_command_line)
{
	struct sm_config c;
	char err[256];

	sm_config_defaults(&c);
	ck_assert_int_eq(sm_config_set_routing(&c, "updn,minhop", err, sizeof(err)), 0);
	ck_assert_uint_eq(c.nrouting, 2);
	ck_assert_str_eq(c.routing[1], "minhop");
	ck_assert_int_eq(sm_config_set_routing(&c, ",", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(sm_config_set_routing(&c, "a,b,c,d,e,f,g,h,i", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "at most 8"));
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("sm_config");
	TCase *tc = tcase_create("yaml");

	tcase_add_test(tc, reads_every_key);
	tcase_add_test(tc, mistakes_are_named);
	tcase_add_test(tc, routing_chain_from_the_command_line);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(config_suite)

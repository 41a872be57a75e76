// SPDX-License-Identifier: MIT
/*
 * check_mad_umad.c - the umad backend's spec parsing and error reporting, as
 * far as they can be checked without a CA: malformed specs are refused with
 * -EINVAL before libibumad is touched, and a CA that does not exist gives
 * -ENODEV with its name in the message (on a machine with or without CAs).
 * Talking to a port is tested under ibsim (tests/interop/probe-vs-sim.sh).
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "mad/mad_transport.h"
#include "tests/check_util.h"

static int open_spec(const char *spec, char *err, size_t len)
{
	struct mad_transport *t = NULL;

	err[0] = '\0';
	int rc = mad_transport_open(spec, &t, err, len);
	ck_assert_ptr_null(t);	/* all the specs here must fail */
	return rc;
}

START_TEST(bad_specs_are_einval)
{
	static const char *const specs[] = {
		"umad:mlx5_0:x", "umad:mlx5_0:", "umad::1", "umad:mlx5_0:255",
		"umad:mlx5_0:-1", "umad:mlx5_0:1x", "umad:mlx5_0:1:2",
		"umad:a_ca_name_of_twenty_chars",
	};
	char err[256];

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		int rc = open_spec(specs[i], err, sizeof(err));
		ck_assert_msg(rc == -EINVAL, "%s: rc %d (%s)", specs[i], rc, err);
		ck_assert_msg(strncmp(err, "umad: ", 6) == 0, "%s: message '%s'", specs[i],
			      err);
	}
}
END_TEST

START_TEST(long_ca_name_is_named_in_message)
{
	char err[256];

	ck_assert_int_eq(open_spec("umad:a_ca_name_of_twenty_chars:1", err, sizeof(err)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "a_ca_name_of_twenty_chars"));
	ck_assert_ptr_nonnull(strstr(err, "longer than 19"));
}
END_TEST

START_TEST(unknown_ca_is_enodev)
{
	char err[256];

	ck_assert_int_eq(open_spec("umad:nosuchca9:1", err, sizeof(err)), -ENODEV);
	ck_assert_msg(strstr(err, "no CA named 'nosuchca9'"), "message '%s'", err);
	/* Without a port the backend looks for CAs first: either there is none
	 * at all, or none of that name. */
	ck_assert_int_eq(open_spec("umad:nosuchca9", err, sizeof(err)), -ENODEV);
	ck_assert_msg(strstr(err, "nosuchca9") || strstr(err, "no InfiniBand CA found"),
		      "message '%s'", err);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("mad_umad");
	TCase *tc = tcase_create("spec");

	tcase_add_test(tc, bad_specs_are_einval);
	tcase_add_test(tc, long_ca_name_is_named_in_message);
	tcase_add_test(tc, unknown_ca_is_enodev);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

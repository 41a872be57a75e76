// SPDX-License-Identifier: MIT
/*
 * check_mad_umad.c - the umad backend's spec parsing and error reporting, as
 * far as they can be checked without a CA: malformed specs are refused with
 * -EINVAL before libibumad is touched, and a CA that does not exist gives
 * -ENODEV with its name in the message (on a machine with or without CAs);
 * the choice of the SM's port (mad_umad_port.c) over fake lists of ports as
 * sysfs shows them: InfiniBand only, a named CA or port that is not there,
 * one that is there without its link.  Talking to a port is tested under
 * ibsim (tests/interop/probe-vs-sim.sh).
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "mad/mad_transport.h"
#include "mad/mad_umad_port.h"
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

/* A node with two irdma (Ethernet) ports, ACTIVE, listed first, and an
 * mlx5 InfiniBand port (OpenSM issue #40), and a CA with a port whose link
 * layer sysfs calls Unknown. */
static const struct mad_umad_port issue40[] = {
	{ "irdma0", 1, 4, 5, "Ethernet" },
	{ "irdma1", 1, 4, 5, "Ethernet" },
	{ "mlx5_0", 1, 2, 5, "InfiniBand" },	/* INIT, link up: before any SM */
	{ "odd0", 1, 4, 5, "Unknown" },
};
static const char cas40[][MAD_UMAD_NAME_LEN] = { "irdma0", "irdma1", "mlx5_0", "odd0" };

static int choose(const struct mad_umad_port *p, size_t n, const char (*cas)[MAD_UMAD_NAME_LEN],
		  size_t ncas, const char *ca, int port, size_t *chosen, char *err)
{
	err[0] = '\0';
	return mad_umad_port_choose(p, n, cas, ncas, ca, port, chosen, err, 256);
}

/* Issue 20 item 10: never a port that is not InfiniBand, named or not. */
START_TEST(only_infiniband_ports)
{
	char err[256];
	size_t c = 99;

	ck_assert_int_eq(choose(issue40, 4, cas40, 4, "", MAD_UMAD_PORT_ANY, &c, err), 0);
	ck_assert_uint_eq(c, 2);	/* mlx5_0, though the irdma ports are ACTIVE */
	ck_assert_int_eq(choose(issue40, 4, cas40, 4, "mlx5_0", MAD_UMAD_PORT_ANY, &c, err), 0);
	ck_assert_uint_eq(c, 2);
	ck_assert_int_eq(choose(issue40, 4, cas40, 4, "irdma0", 1, &c, err), -ENODEV);
	ck_assert_msg(strstr(err, "irdma0 port 1 is Ethernet, not InfiniBand"), "'%s'", err);
	ck_assert_int_eq(choose(issue40, 4, cas40, 4, "irdma1", MAD_UMAD_PORT_ANY, &c, err),
			 -ENODEV);
	ck_assert_msg(strstr(err, "CA irdma1 has no InfiniBand port"), "'%s'", err);
	ck_assert_int_eq(choose(issue40, 4, cas40, 4, "odd0", 1, &c, err), -ENODEV);
	ck_assert_msg(strstr(err, "is Unknown, not InfiniBand"), "'%s'", err);
	/* only Ethernet ports: nothing to take, nothing named: wait for one */
	ck_assert_int_eq(choose(issue40, 2, cas40, 2, "", MAD_UMAD_PORT_ANY, &c, err), -ENOENT);
	ck_assert_msg(strstr(err, "no InfiniBand port"), "'%s'", err);
	ck_assert(mad_umad_port_is_ib("IB"));	/* libibumad's word without sysfs */
	ck_assert(!mad_umad_port_is_ib("Ethernet") && !mad_umad_port_is_ib(""));
}
END_TEST

/* A named CA or port that does not exist: -ENODEV, the CAs there are in the
 * message; one that exists without its link: -ENETDOWN (wait), chosen. */
START_TEST(named_missing_or_down)
{
	static const struct mad_umad_port two[] = {
		{ "mlx5_0", 1, 1, 2, "InfiniBand" },	/* DOWN, Polling */
		{ "mlx5_0", 2, 4, 5, "InfiniBand" },
		{ "mlx5_1", 1, 1, 3, "InfiniBand" },	/* DOWN, Disabled */
	};
	static const char cas[][MAD_UMAD_NAME_LEN] = { "mlx5_0", "mlx5_1" };
	char err[256];
	size_t c = 99;

	ck_assert_int_eq(choose(two, 3, cas, 2, "mlx5_9", 1, &c, err), -ENODEV);
	ck_assert_msg(strstr(err, "no CA named 'mlx5_9' (CAs: mlx5_0 mlx5_1)"), "'%s'", err);
	ck_assert_int_eq(choose(two, 3, cas, 2, "mlx5_0", 3, &c, err), -ENODEV);
	ck_assert_msg(strstr(err, "CA mlx5_0 has no port 3"), "'%s'", err);
	ck_assert_int_eq(choose(two, 3, cas, 2, "mlx5_0", 1, &c, err), -ENETDOWN);
	ck_assert_uint_eq(c, 0);
	ck_assert_msg(strstr(err, "mlx5_0 port 1 (link down)"), "'%s'", err);
	ck_assert_int_eq(choose(two, 3, cas, 2, "mlx5_0", MAD_UMAD_PORT_ANY, &c, err), 0);
	ck_assert_uint_eq(c, 1);	/* the one up */
	ck_assert_int_eq(choose(two, 3, cas, 2, "mlx5_1", MAD_UMAD_PORT_ANY, &c, err), -ENETDOWN);
	ck_assert_msg(strstr(err, "a port of mlx5_1 (link down)"), "'%s'", err);
	ck_assert_int_eq(choose(two, 1, cas, 2, "", MAD_UMAD_PORT_ANY, &c, err), -ENETDOWN);
	/* no CA at all: named, an error; unnamed, wait for the driver */
	ck_assert_int_eq(choose(two, 0, cas, 0, "mlx5_0", 1, &c, err), -ENODEV);
	ck_assert_msg(strstr(err, "no CA named 'mlx5_0': no InfiniBand CA found"), "'%s'", err);
	ck_assert_int_eq(choose(two, 0, cas, 0, "", MAD_UMAD_PORT_ANY, &c, err), -ENOENT);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("mad_umad");
	TCase *tc = tcase_create("spec");

	tcase_add_test(tc, bad_specs_are_einval);
	tcase_add_test(tc, long_ca_name_is_named_in_message);
	tcase_add_test(tc, unknown_ca_is_enodev);
	tcase_add_test(tc, only_infiniband_ports);
	tcase_add_test(tc, named_missing_or_down);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

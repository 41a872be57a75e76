// SPDX-License-Identifier: MIT
/*
 * check_sm_notify.c - the sd_notify messages, caught on a fake NOTIFY_SOCKET
 * (an AF_UNIX datagram socket bound here, as systemd binds its own), and the
 * watchdog interval read from WATCHDOG_USEC / WATCHDOG_PID.  A build without
 * libsystemd must send nothing and ask for no watchdog.
 */
#include "config.h"

#include <check.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sm/util/sm_notify.h"
#include "tests/check_util.h"

static char dir[] = "/tmp/check_sm_notify.XXXXXX";
static char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
static int sock = -1;

static void fake_systemd_up(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sock_path, sizeof(sock_path), "%s/notify", dir);
	memcpy(a.sun_path, sock_path, sizeof(sock_path));
	sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(sock, 0);
	ck_assert_int_eq(bind(sock, (struct sockaddr *)&a, sizeof(a)), 0);
	setenv("NOTIFY_SOCKET", sock_path, 1);
}

static void fake_systemd_down(void)
{
	close(sock);
	unlink(sock_path);
	rmdir(dir);
}

/* The next datagram, or "" when none comes within @ms. */
static const char *received(int ms)
{
	static char buf[1024];
	struct pollfd p = { .fd = sock, .events = POLLIN };

	buf[0] = '\0';
	if (poll(&p, 1, ms) == 1) {
		ssize_t n = recv(sock, buf, sizeof(buf) - 1, 0);
		buf[n > 0 ? n : 0] = '\0';
	}
	return buf;
}

#ifdef HAVE_LIBSYSTEMD
START_TEST(each_message_arrives_as_systemd_reads_it)
{
	ck_assert_int_eq(sm_notify_ready(), 0);
	ck_assert_str_eq(received(1000), "READY=1");
	ck_assert_int_eq(sm_notify_status("MASTER, sweep %d: %s", 7, "ok"), 0);
	ck_assert_str_eq(received(1000), "STATUS=MASTER, sweep 7: ok");
	/* a newline would start a second assignment: flattened */
	ck_assert_int_eq(sm_notify_status("two\nREADY=1"), 0);
	ck_assert_str_eq(received(1000), "STATUS=two READY=1");
	ck_assert_int_eq(sm_notify_watchdog(), 0);
	ck_assert_str_eq(received(1000), "WATCHDOG=1");
	ck_assert_int_eq(sm_notify_reloading(), 0);
	const char *r = received(1000);
	ck_assert_msg(strncmp(r, "RELOADING=1\nMONOTONIC_USEC=", 27) == 0, "got '%s'", r);
	ck_assert_uint_gt(strtoull(r + 27, NULL, 10), 0);
	ck_assert_int_eq(sm_notify_stopping(), 0);
	ck_assert_str_eq(received(1000), "STOPPING=1");
	/* a status longer than the buffer is cut, not overrun */
	char big[2000];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(sm_notify_status("%s", big), 0);
	ck_assert_uint_eq(strlen(received(1000)), 511);
}
END_TEST

START_TEST(watchdog_interval_is_what_systemd_asks)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	unsetenv("WATCHDOG_USEC");
	ck_assert_uint_eq(sm_notify_watchdog_interval_ms(), 0);
	setenv("WATCHDOG_USEC", "30000000", 1);
	setenv("WATCHDOG_PID", pid, 1);
	ck_assert_uint_eq(sm_notify_watchdog_interval_ms(), 30000);
	unsetenv("WATCHDOG_PID");	/* no PID: meant for us */
	ck_assert_uint_eq(sm_notify_watchdog_interval_ms(), 30000);
	snprintf(pid, sizeof(pid), "%d", (int)getpid() + 1);
	setenv("WATCHDOG_PID", pid, 1);	/* another process's watchdog */
	ck_assert_uint_eq(sm_notify_watchdog_interval_ms(), 0);
	unsetenv("WATCHDOG_PID");
	setenv("WATCHDOG_USEC", "999", 1);	/* under 1 ms: 1, never 0 (which means none) */
	ck_assert_uint_eq(sm_notify_watchdog_interval_ms(), 1);
	setenv("WATCHDOG_USEC", "bogus", 1);
	ck_assert_uint_eq(sm_notify_watchdog_interval_ms(), 0);
}
END_TEST
#else
START_TEST(without_libsystemd_nothing_is_sent)
{
	ck_assert_int_eq(sm_notify_ready(), 0);
	ck_assert_int_eq(sm_notify_status("x"), 0);
	ck_assert_int_eq(sm_notify_watchdog(), 0);
	ck_assert_int_eq(sm_notify_stopping(), 0);
	ck_assert_int_eq(sm_notify_reloading(), 0);
	ck_assert_str_eq(received(100), "");
	setenv("WATCHDOG_USEC", "30000000", 1);
	ck_assert_uint_eq(sm_notify_watchdog_interval_ms(), 0);
}
END_TEST
#endif

START_TEST(outside_systemd_every_call_is_a_no_op)
{
	unsetenv("NOTIFY_SOCKET");
	ck_assert_int_eq(sm_notify_ready(), 0);
	ck_assert_int_eq(sm_notify_status("up"), 0);
	ck_assert_int_eq(sm_notify_watchdog(), 0);
	ck_assert_str_eq(received(100), "");
}
END_TEST

static Suite *notify_suite(void)
{
	Suite *s = suite_create("sm_notify");
	TCase *tc = tcase_create("notify");

	tcase_add_checked_fixture(tc, fake_systemd_up, fake_systemd_down);
#ifdef HAVE_LIBSYSTEMD
	tcase_add_test(tc, each_message_arrives_as_systemd_reads_it);
	tcase_add_test(tc, watchdog_interval_is_what_systemd_asks);
#else
	tcase_add_test(tc, without_libsystemd_nothing_is_sent);
#endif
	tcase_add_test(tc, outside_systemd_every_call_is_a_no_op);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(notify_suite)

// SPDX-License-Identifier: MIT
/*
 * sm_notify.c - sd_notify messages (see sm_notify.h).
 *
 * With libsystemd (HAVE_LIBSYSTEMD, found by configure) the messages go
 * through sd_notify(); without it each function does nothing.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "sm/util/sm_notify.h"

#ifdef HAVE_LIBSYSTEMD
#include <systemd/sd-daemon.h>

/* sd_notify() gives >0 sent, 0 no NOTIFY_SOCKET, <0 -errno. */
static int send_state(const char *state)
{
	int rc = sd_notify(0, state);

	return rc < 0 ? rc : 0;
}

uint64_t sm_notify_watchdog_interval_ms(void)
{
	uint64_t usec = 0;

	if (sd_watchdog_enabled(0, &usec) <= 0)
		return 0;
	return usec < 1000 ? 1 : usec / 1000;
}
#else
static int send_state(const char *state)
{
	(void)state;
	return 0;
}

uint64_t sm_notify_watchdog_interval_ms(void)
{
	return 0;
}
#endif

int sm_notify_ready(void)
{
	return send_state("READY=1");
}

int sm_notify_status(const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int n = snprintf(msg, sizeof(msg), "STATUS=");

	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	/* one line: a newline would start a new (bogus) assignment */
	for (char *p = msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
	return send_state(msg);
}

int sm_notify_watchdog(void)
{
	return send_state("WATCHDOG=1");
}

int sm_notify_stopping(void)
{
	return send_state("STOPPING=1");
}

int sm_notify_reloading(void)
{
	struct timespec ts;
	char msg[64];

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(msg, sizeof(msg), "RELOADING=1\nMONOTONIC_USEC=%llu",
		 (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000);
	return send_state(msg);
}

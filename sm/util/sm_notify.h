/* SPDX-License-Identifier: MIT */
/*
 * sm_notify.h - telling systemd how the daemon is (sd_notify, Type=notify).
 *
 * Each call sends one datagram to $NOTIFY_SOCKET through libsystemd.  Outside
 * systemd (no NOTIFY_SOCKET) and in a build without libsystemd every call is a
 * no-op that returns 0.  Calls return 0 or -errno, never fail the daemon.
 */
#ifndef IBSMD_SM_NOTIFY_H
#define IBSMD_SM_NOTIFY_H

#include <stdint.h>

/* READY=1: start-up is done (the SM knows its role), or a reload finished. */
int sm_notify_ready(void);

/* STATUS=...: one line for `systemctl status`. */
int sm_notify_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* WATCHDOG=1: the loop is healthy.  Send it at least twice per
 * sm_notify_watchdog_interval_ms(). */
int sm_notify_watchdog(void);

/*
 * The watchdog period systemd asked for (WatchdogSec=, from WATCHDOG_USEC when
 * WATCHDOG_PID is unset or this process), in ms, at least 1.  0 when no
 * watchdog is asked for.
 */
uint64_t sm_notify_watchdog_interval_ms(void);

/* STOPPING=1: shutting down. */
int sm_notify_stopping(void);

/* RELOADING=1 (with MONOTONIC_USEC): SIGHUP is being handled; send
 * sm_notify_ready() when done. */
int sm_notify_reloading(void);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_notify.h - tell systemd how the daemon is doing (sd_notify protocol).
 * Placeholder until the libsystemd-backed module lands: every call is a no-op.
 */
#ifndef IBSMD_SM_NOTIFY_H
#define IBSMD_SM_NOTIFY_H

#include <stdint.h>

void sm_notify_ready(void);
void sm_notify_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sm_notify_watchdog(void);
uint64_t sm_notify_watchdog_interval_ms(void);
void sm_notify_stopping(void);
void sm_notify_reloading(void);

#endif

// SPDX-License-Identifier: MIT
/*
 * sm_notify.c - placeholder: no-ops until the libsystemd-backed module lands.
 */
#include "sm/sm_notify.h"

void sm_notify_ready(void) {}
void sm_notify_status(const char *fmt, ...) { (void)fmt; }
void sm_notify_watchdog(void) {}
uint64_t sm_notify_watchdog_interval_ms(void) { return 0; }
void sm_notify_stopping(void) {}
void sm_notify_reloading(void) {}

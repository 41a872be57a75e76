/* SPDX-License-Identifier: MIT */
/*
 * sm_log.h - the daemon's log: syslog priorities, to stderr and/or a file.
 *
 * Lines look like "2026-11-22 02:10:03.123 ibsmd[42] notice: subnet up in 1.2 s".
 * Messages above the configured level are dropped before formatting; the
 * others are escaped whole (topo_text_escape(): control bytes, invalid UTF-8,
 * bidi controls, line separators, backslashes), so a string from the fabric
 * or a file may be logged with a plain %s and never makes a line of its own.
 */
#ifndef IBSMD_SM_LOG_H
#define IBSMD_SM_LOG_H

#include <syslog.h>

/* Open @path for appending (NULL: stderr only).  0 or -errno. */
int sm_log_open(const char *path, int level, int also_stderr);
void sm_log_close(void);
/* Open the log file again at its path (after logrotate moved it); the old
 * stream is kept if that fails.  0 or -errno. */
int sm_log_reopen(void);
void sm_log_set_level(int level);
/* Parse "err", "warning", "notice", "info", "debug".  -1 if unknown. */
int sm_log_level_parse(const char *name);
/* "notice" for LOG_NOTICE: what sm_log_level_parse() reads back. */
const char *sm_log_level_name(int level);

void sm_log(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define sm_err(...) sm_log(LOG_ERR, __VA_ARGS__)
#define sm_warn(...) sm_log(LOG_WARNING, __VA_ARGS__)
#define sm_notice(...) sm_log(LOG_NOTICE, __VA_ARGS__)
#define sm_info(...) sm_log(LOG_INFO, __VA_ARGS__)
#define sm_debug(...) sm_log(LOG_DEBUG, __VA_ARGS__)

#endif

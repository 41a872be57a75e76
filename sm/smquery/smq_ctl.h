/* SPDX-License-Identifier: MIT */
/*
 * smq_ctl.h - smquery's client for ibsmd's control socket.
 */
#ifndef IBSMD_SMQ_CTL_H
#define IBSMD_SMQ_CTL_H

#include <stdbool.h>

/* Send @command to the ibsmd listening on @path and print its answer.
 * SMQ_OK when it answered "ok...", SMQ_FAIL otherwise (with a message). */
int smq_ctl_ask(const char *path, const char *command, bool json);

/* The same, waiting up to @timeout_ms for the answer (a job's start waits
 * for the daemon to route it). */
int smq_ctl_ask_wait(const char *path, const char *command, bool json, int timeout_ms);

#endif

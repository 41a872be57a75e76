/* SPDX-License-Identifier: MIT */
/*
 * smq_job.h - smquery's job commands for the running ibsmd (smq_job.c).
 */
#ifndef IBSMD_SMQ_JOB_H
#define IBSMD_SMQ_JOB_H

#include <stdbool.h>

/* "job start NAME --hosts LIST [--pattern P] [--order FILE]", "job end
 * NAME", "job list" (@argv[0] is "job"), to the ibsmd on @socket_path.
 * SMQ_OK, SMQ_FAIL or SMQ_USAGE. */
int smq_job(const char *socket_path, bool json, int argc, char **argv);

#endif

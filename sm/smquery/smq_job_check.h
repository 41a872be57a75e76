/* SPDX-License-Identifier: MIT */
/*
 * smq_job_check.h - the stored jobs (smq_job_check.c): `smquery jobs`,
 * `route-check --job NAME`, `smquery rails`.
 */
#ifndef IBSMD_SMQ_JOB_CHECK_H
#define IBSMD_SMQ_JOB_CHECK_H

#include "routing/rt.h"
#include "sm/smquery/smq.h"

int smq_cmd_jobs(struct smq *q, int argc, char **argv);
int smq_cmd_rails(struct smq *q, int argc, char **argv);

/* route-check --job NAME: job @name's EBB per round under engine @e (with
 * @options) and under the stored routes.  SMQ_OK or SMQ_FAIL (reported). */
int smq_route_check_job(struct smq *q, const char *name, const struct ibsmd_routing_engine *e,
			const char *const *options, unsigned noptions);

#endif

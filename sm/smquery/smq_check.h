/* SPDX-License-Identifier: MIT */
/*
 * smq_check.h - `smquery route-check` (smq_check.c), for smquery.c's table.
 */
#ifndef IBSMD_SM_SMQ_CHECK_H
#define IBSMD_SM_SMQ_CHECK_H

#include "sm/smquery/smq.h"

/* route-check [--pairings N] [--seed S] [--engine NAME [--option K=V]...]: the
 * quality report of the stored LFTs. */
int smq_cmd_route_check(struct smq *q, int argc, char **argv);

#endif

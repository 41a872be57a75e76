/* SPDX-License-Identifier: MIT */
/*
 * smq_path_sl.h - the path SLs the daemon stored (path_sls), read back for
 * `smquery route-check` as an engine whose path_sl answers from them
 * (smq_path_sl.c).
 */
#ifndef IBSMD_SMQ_PATH_SL_H
#define IBSMD_SMQ_PATH_SL_H

#include "routing/ibsmd/routing.h"
#include "routing/rt_path_sl.h"
#include "sm/smquery/smq.h"

struct smq_path_sls {
	struct ibsmd_routing_engine e;	/* "stored": path_sl only */
	struct rt_path_sls t;		/* by the view's switch nodes or CA LIDs */
};

/* Load the stored path SLs for view @v (built from @q's topology): 1 with
 * @out's engine ready (its state: &out->t), 0 when none are stored (every
 * route on SL 0), -errno on a store error. */
int smq_path_sls_load(struct smq *q, const struct ibsmd_rt_view *v, struct smq_path_sls *out);
void smq_path_sls_free(struct smq_path_sls *s);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_routes.h - a sweep's routing result, as the SM keeps it: the LFT rows,
 * AR groups and path SLs the routing stage (sm/sweep/sm_route.c) produced and
 * the SA, the repair and the telemetry read.
 */
#ifndef IBSMD_SM_ROUTES_H
#define IBSMD_SM_ROUTES_H

#include <stdint.h>

#include "routing/rt.h"
#include "routing/rt_path_sl.h"

struct sm_routes {
	uint16_t max_lid;
	uint8_t **lft;		/* per node: whole 64-entry blocks covering 0..max_lid
				 * (0xff beyond), NULL for non-switches */
	uint32_t nnodes;
	const char *engine;	/* the engine whose result this is */
	struct rt_validation check;	/* check.max_sl: the highest SL a CA route
					 * uses, so SL2VL tables must be programmed */
	/* AR groups (routing ABI 3): rows for the AR-capable switches only
	 * (f->attrs[n].ar_group_cap), sm_routes_ar_row() entries each; all NULL
	 * when the fabric has none */
	struct ibsmd_rt_ar ar;
	struct rt_path_sls sls;	/* the engine's path SLs when check.max_sl > 0
				 * (empty when too big to keep) */
};

/* Entries of an AR LID row (whole AR LFT blocks past max_lid). */
static inline uint32_t sm_routes_ar_row(const struct sm_routes *r)
{
	return ((uint32_t)r->max_lid / 64 + 1) * 64;
}

/* Free @r's rows and zero it. */
void sm_routes_free(struct sm_routes *r);

#endif

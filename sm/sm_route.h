/* SPDX-License-Identifier: MIT */
/*
 * sm_route.h - the routing stage: hand the fabric to the engine chain.
 */
#ifndef IBSMD_SM_ROUTE_H
#define IBSMD_SM_ROUTE_H

#include <stdint.h>

#include "routing/rt.h"
#include "sm/sm_config.h"
#include "sm/sm_fabric.h"
#include "db/model/topo_view.h"

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

/*
 * Build the routing view of @f (LIDs as assigned, only physically up links) and
 * run the configured chain; when @f has AR-capable switches the engine is
 * handed a ctx->ar with the smallest of their group caps, less group 0.
 * 0 with @out filled (sm_routes_free()), or -errno when no engine produced a
 * valid result (logged).
 */
int sm_route(const struct sm_fabric *f, uint16_t max_lid, const struct sm_config *cfg,
	     struct sm_routes *out);

/* The same in two steps, so the chain can run while the fabric's topology
 * changes (the sweep programs LIDs meanwhile): sm_route_prepare() builds the
 * view of @f into @m (topo_view_free()) and @out's empty LFT and AR rows;
 * sm_route_view() then runs the chain over @m alone into @out (freed when it
 * fails).  0 or -errno, as sm_route(). */
int sm_route_prepare(const struct sm_fabric *f, uint16_t max_lid, struct topo_view *m,
		     struct sm_routes *out);
int sm_route_view(const struct topo_view *m, const struct sm_config *cfg,
		  struct sm_routes *out);
void sm_routes_free(struct sm_routes *r);

#endif

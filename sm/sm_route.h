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
	struct rt_path_sls sls;	/* the engine's path SLs when check.max_sl > 0
				 * (empty when too big to keep) */
};

/*
 * Build the routing view of @f (LIDs as assigned, only physically up links) and
 * run the configured chain.  0 with @out filled (sm_routes_free()), or -errno
 * when no engine produced a valid result (logged).
 */
int sm_route(const struct sm_fabric *f, uint16_t max_lid, const struct sm_config *cfg,
	     struct sm_routes *out);

/* The same over a view built already (topo_view_build()): the sweep builds it
 * before it starts programming the fabric, which changes the topology's port
 * states while the chain runs on the view. */
int sm_route_view(const struct topo_view *m, const struct sm_config *cfg,
		  struct sm_routes *out);
void sm_routes_free(struct sm_routes *r);

#endif

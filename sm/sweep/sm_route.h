/* SPDX-License-Identifier: MIT */
/*
 * sm_route.h - the routing stage: hand the fabric to the engine chain.
 */
#ifndef IBSMD_SM_ROUTE_H
#define IBSMD_SM_ROUTE_H

#include <stdint.h>

#include "routing/rt.h"
#include "sm/core/sm_config.h"
#include "sm/core/sm_fabric.h"
#include "sm/core/sm_routes.h"
#include "mad/model/topo_view.h"

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

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_discover.h - the heavy sweep's discovery stage.
 */
#ifndef IBSMD_SM_DISCOVER_H
#define IBSMD_SM_DISCOVER_H

#include "mad/mad_rpc.h"
#include "sm/util/sm_arena.h"
#include "sm/core/sm_fabric.h"

/*
 * Breadth-first directed-route discovery from the SM's port (IBA 14.2.2):
 * NodeInfo, NodeDescription, SwitchInfo and PortInfo, with the rpc layer's window
 * of SMPs in flight.  Fills @f (initialised by the caller); request contexts come
 * from @arena.  Nodes that do not answer, duplicate GUIDs and the hop limit are
 * recorded in f->issues and the sweep goes on without them.
 * Returns 0, or -EHOSTUNREACH when the SM's own node does not answer, or the
 * transport's -errno.
 */
int sm_discover(struct mad_rpc *rpc, struct sm_fabric *f, struct sm_arena *arena);

#endif

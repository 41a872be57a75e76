/* SPDX-License-Identifier: MIT */
/*
 * sm_view.h - the routing view (struct ibsmd_rt_view) of a struct topo, for
 * the daemon's routing stage (sm_route.c) and for smquery route-check.
 */
#ifndef IBSMD_SM_VIEW_H
#define IBSMD_SM_VIEW_H

#include <stdint.h>

#include "ibsmd/routing.h"
#include "db/model/topo.h"

/* A view and the arrays it owns; it borrows the topology's descriptions. */
struct sm_view {
	struct ibsmd_rt_view v;
	struct ibsmd_rt_node *nodes;
	struct ibsmd_rt_port *ports;
	uint32_t *lid_node;
	uint8_t *lid_port;
};

/*
 * Build @m->v from @t: every node in @t's order, each port with its LID and
 * LMC, and as a link only a cabled port whose physical state is LinkUp
 * (PortInfo PortPhysicalState, IBA 14.2.5.6); LIDs above @max_lid are left
 * out of the LID index.  0, or -ENOMEM with nothing to free.  @t must outlive
 * the view; sm_view_free() releases it.
 */
int sm_view_build(const struct topo *t, uint16_t max_lid, struct sm_view *m);
void sm_view_free(struct sm_view *m);

#endif

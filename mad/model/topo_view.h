/* SPDX-License-Identifier: MIT */
/*
 * topo_view.h - the routing view (struct ibsmd_rt_view) of a struct topo, for
 * the daemon's routing stage (sm_route.c) and for smquery route-check.
 *
 * It sits with the model, not in routing/: it needs only the public engine
 * API's types (ibsmd/routing.h, no code of routing/), so the model library
 * still links nothing but libc, smquery gets it without the daemon's library,
 * and routing/ never sees a struct topo (engines and plugins see views only).
 */
#ifndef IBSMD_TOPO_VIEW_H
#define IBSMD_TOPO_VIEW_H

#include <stdint.h>

#include "mad/model/topo.h"
#include "ibsmd/routing.h"

/* A view and the arrays it owns; it borrows the topology's descriptions. */
struct topo_view {
	struct ibsmd_rt_view v;
	struct ibsmd_rt_node *nodes;
	struct ibsmd_rt_port *ports;
	uint32_t *lid_node;
	uint8_t *lid_port;
	uint32_t *switch_node;
	uint32_t *node_switch;
};

/*
 * Build @m->v from @t: every node in @t's order, each port with its LID and
 * LMC, and as a link only a cabled port whose physical state is LinkUp
 * (PortInfo PortPhysicalState, IBA 14.2.5.6) with neither end marked
 * isolated (topo_port.isolated); LIDs above @max_lid are left
 * out of the LID index.  The switches are numbered in node order.  0, or -ENOMEM with nothing to free.  @t must outlive
 * the view; topo_view_free() releases it.
 */
int topo_view_build(const struct topo *t, uint16_t max_lid, struct topo_view *m);
void topo_view_free(struct topo_view *m);

#endif

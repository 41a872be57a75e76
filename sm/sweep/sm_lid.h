/* SPDX-License-Identifier: MIT */
/*
 * sm_lid.h - the LID manager: which port gets which LID (IBA 14.2.5.6, LID/LMC).
 */
#ifndef IBSMD_SM_LID_H
#define IBSMD_SM_LID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "sm/core/sm_fabric.h"

/* A port that owns LIDs: a switch's port 0, or a CA or router port. */
struct sm_lid_endpoint {
	uint32_t node;
	uint8_t port;
	uint8_t lmc;
	uint16_t lid;
	uint64_t guid;		/* port GUID */
	uint64_t node_guid;	/* orders ports that share a port GUID */
	bool duplicate;		/* another port with this GUID comes first: it
				 * neither takes nor writes the map's LID */
	bool map_changed;	/* the persistent map needs this entry written */
};

struct sm_lid_plan {
	struct sm_lid_endpoint *ep;	/* sorted by GUID */
	size_t n;
	uint16_t max_lid;
	size_t kept_from_map, kept_from_fabric, fresh;
};

/*
 * Give every endpoint of @f a base LID and LMC, and write them into the topology
 * ports (f->topo.nodes[n].ports[p].lid/lmc); f->attrs keeps what the devices hold.
 * Order of preference: the persistent map in @db (a port keeps its LID across
 * restarts), then a LID the port already has when it is valid, unique and
 * aligned to 2^LMC, then the lowest free aligned range, in GUID order so the
 * result is the same for the same fabric.  LIDs of ports that are away stay
 * reserved unless the fabric needs them.  Switch port 0 gets one LID (LMC 0).
 * Ports that share a port GUID (a misconfigured fabric; discovery reports it)
 * never trade LIDs: the one that holds the map's LID keeps it (else the one
 * with the lowest node GUID takes it), the others keep the LID they hold.
 * @plan is filled (free it with sm_lid_plan_free()).
 * Returns 0, -ENOSPC when the fabric needs more than 49,151 unicast LIDs (with a
 * message in @err), -ENOMEM, or the store's -errno.
 */
int sm_lid_assign(struct sm_fabric *f, uint8_t lmc, struct db *db,
		  struct sm_lid_plan *plan, char *err, size_t errlen);

void sm_lid_plan_free(struct sm_lid_plan *plan);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_sa_index.h - the SA's lookups into a published fabric: the port that owns
 * a LID, the port with a port GUID.
 *
 * Built once per published sweep (sm_sa_in() rebuilds it when sm->sweeps
 * moves), so that a PathRecord costs its hops, not a scan of the fabric.
 */
#ifndef IBSMD_SM_SA_INDEX_H
#define IBSMD_SM_SA_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm/core/sm_fabric.h"

/* A port that owns a LID: a switch's port 0, or a CA or router port. */
struct sa_port {
	uint32_t node;
	uint8_t port;
};

struct sa_guid_port {
	uint64_t guid;
	struct sa_port at;
};

struct sm_sa_index {
	uint64_t sweep;			/* the sm->sweeps it was built for */
	struct sa_port *by_lid;		/* [0 .. nlids - 1], node TOPO_NONE: none */
	uint32_t nlids;
	struct sa_guid_port *by_guid;	/* sorted by GUID */
	size_t nguids;
};

/* Index @f's LID-owning ports.  0 or -ENOMEM (then @ix is empty).  @ix must be
 * empty or built before (it is rebuilt). */
int sm_sa_index_build(struct sm_sa_index *ix, const struct sm_fabric *f);
void sm_sa_index_free(struct sm_sa_index *ix);

/* The port whose LID range (base .. base + 2^LMC - 1) holds @lid. */
bool sm_sa_index_lid(const struct sm_sa_index *ix, uint16_t lid, struct sa_port *out);
/* The LID-owning port with port GUID @guid. */
bool sm_sa_index_guid(const struct sm_sa_index *ix, uint64_t guid, struct sa_port *out);

/* Step @p to the next port of @f that owns a LID and has one (start from
 * node TOPO_NONE): a switch's port 0, CA and router ports.  False at the end. */
bool sm_sa_next_port(const struct sm_fabric *f, struct sa_port *p);

#endif

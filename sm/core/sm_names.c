// SPDX-License-Identifier: MIT
/*
 * sm_names.c - LIDs and ports named by their node (see sm_names.h).  A LID is
 * found by a walk over the last fabric's nodes: names are for log lines and
 * events (traps are rate-limited, isolation rare), so no index is kept in
 * step with every sweep; at 27,648 hosts the walk takes well under a
 * millisecond.
 */
#include <inttypes.h>
#include <stdio.h>

#include "sm/core/sm_names.h"

uint32_t sm_lid_owner(const struct sm *sm, uint16_t lid, uint8_t *port)
{
	const struct topo *t = &sm->fabric.topo;

	*port = 0;
	for (uint32_t i = 0; lid && sm->have_fabric && i < t->n; i++) {
		const struct topo_node *n = &t->nodes[i];
		unsigned first = n->type == MAD_NODE_SWITCH ? 0 : 1;
		unsigned last = n->type == MAD_NODE_SWITCH ? 0 : n->nports;

		for (unsigned p = first; p <= last; p++) {
			const struct topo_port *tp = &n->ports[p];
			if (tp->lid && lid >= tp->lid && (unsigned)(lid - tp->lid) < (1u << (tp->lmc & 7))) {
				*port = (uint8_t)p;
				return i;
			}
		}
	}
	return TOPO_NONE;
}

const char *sm_name_lid(const struct sm *sm, uint16_t lid, char *buf, size_t len)
{
	uint8_t port;
	uint32_t i = sm_lid_owner(sm, lid, &port);

	if (i == TOPO_NONE) {
		snprintf(buf, len, "LID %u (%s)", lid, !lid ? "none" : sm->have_fabric
			 ? "not in the last sweep" : "no sweep yet");
		return buf;
	}
	const struct topo_node *n = &sm->fabric.topo.nodes[i];
	snprintf(buf, len, "LID %u (\"%s\" 0x%016" PRIx64 " port %u)", lid, n->desc, n->guid,
		 port);
	return buf;
}

const char *sm_name_port(const struct sm *sm, uint64_t guid, unsigned port, char *buf,
			 size_t len)
{
	uint32_t i = sm->have_fabric ? topo_find_guid(&sm->fabric.topo, guid) : TOPO_NONE;

	if (i == TOPO_NONE)
		snprintf(buf, len, "0x%016" PRIx64 " port %u", guid, port);
	else
		snprintf(buf, len, "\"%s\" 0x%016" PRIx64 " port %u",
			 sm->fabric.topo.nodes[i].desc, guid, port);
	return buf;
}

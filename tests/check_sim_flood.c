// SPDX-License-Identifier: MIT
/*
 * check_sim_flood.c - a multicast packet followed through a sim fabric's
 * MFTs (check_sim_flood.h).
 */
#include <check.h>
#include <stdlib.h>

#include "tests/check_sim_flood.h"

/* Flood @mlid from switch @sw, entered by @in; count CA ports reached. */
static void flood(struct sim_fabric *f, uint32_t sw, uint8_t in, uint16_t mlid, unsigned *hits,
		  unsigned depth)
{
	const struct topo *t = sim_fabric_topo(f);
	const struct topo_node *n = &t->nodes[sw];

	ck_assert_msg(depth < 16, "MLID 0x%04x loops", mlid);
	for (unsigned p = 1; p <= n->nports; p++) {
		if (p == in || !sim_get_mft(f, sw, mlid, (uint8_t)p))
			continue;
		const struct topo_port *tp = &n->ports[p];
		ck_assert_uint_ne(tp->peer, TOPO_NONE);
		if (t->nodes[tp->peer].type == MAD_NODE_SWITCH)
			flood(f, tp->peer, tp->peer_port, mlid, hits, depth + 1);
		else
			hits[tp->peer * MCAST_FLOOD_PORTS + tp->peer_port]++;
	}
}

unsigned *mcast_flood(struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t mlid)
{
	const struct topo *t = sim_fabric_topo(f);
	unsigned *hits = calloc((size_t)t->n * MCAST_FLOOD_PORTS, sizeof(*hits));
	const struct topo_port *tp = &t->nodes[node].ports[port];

	ck_assert_ptr_nonnull(hits);
	if (tp->peer != TOPO_NONE)
		flood(f, tp->peer, tp->peer_port, mlid, hits, 0);
	return hits;
}

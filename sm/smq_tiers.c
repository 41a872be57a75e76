// SPDX-License-Identifier: MIT
/*
 * smq_tiers.c - the tier of every switch of the stored topology, for the
 * pictures of it (`topology --format dot`, `map`).
 *
 * The store keeps no ranking of the routing engine, so it is computed here
 * the way fat-tree ranking starts: tier 0 are the leaves, the switches with
 * CAs; every other switch is one above the nearest leaf (hops, breadth
 * first).  A switch with CAs that is linked to another leaf and has more
 * switch links than CAs is cabled like a spine (an SM host plugged into it):
 * it is not a leaf, and gets its tier from the leaves like the others.
 * Switches no leaf reaches, and all CAs and routers, have SMQ_NO_TIER.
 */
#include <errno.h>
#include <stdlib.h>

#include "mad/mad_attr.h"
#include "sm/smq.h"

static bool smq_is_switch(const struct topo *t, uint32_t idx)
{
	return idx != TOPO_NONE && t->nodes[idx].type == MAD_NODE_SWITCH;
}

/* CA (and router) links and switch links of switch @n. */
static void smq_tier_counts(const struct topo *t, const struct topo_node *n, unsigned *cas,
			    unsigned *sws)
{
	*cas = *sws = 0;
	for (unsigned p = 1; p <= n->nports; p++) {
		uint32_t peer = n->ports[p].peer;

		if (smq_is_switch(t, peer))
			(*sws)++;
		else if (peer != TOPO_NONE)
			(*cas)++;
	}
}

/* Is switch @s, which has CAs, linked to another switch with CAs? */
static bool smq_tier_next_to_leaf(const struct topo *t, uint32_t s)
{
	const struct topo_node *n = &t->nodes[s];
	unsigned cas, sws;

	for (unsigned p = 1; p <= n->nports; p++) {
		uint32_t peer = n->ports[p].peer;

		if (!smq_is_switch(t, peer))
			continue;
		smq_tier_counts(t, &t->nodes[peer], &cas, &sws);
		if (cas)
			return true;
	}
	return false;
}

int smq_tiers(const struct topo *t, uint16_t *tier, uint16_t *height)
{
	uint32_t *queue = malloc(((size_t)t->n + 1) * sizeof(*queue));
	uint32_t head = 0, tail = 0;
	unsigned cas, sws;

	if (!queue)
		return -ENOMEM;
	*height = 0;
	for (uint32_t i = 0; i < t->n; i++) {
		tier[i] = SMQ_NO_TIER;
		if (t->nodes[i].type != MAD_NODE_SWITCH)
			continue;
		smq_tier_counts(t, &t->nodes[i], &cas, &sws);
		if (cas && !(sws > cas && smq_tier_next_to_leaf(t, i))) {
			tier[i] = 0;
			queue[tail++] = i;
		}
	}
	while (head < tail) {
		const struct topo_node *n = &t->nodes[queue[head]];
		uint16_t next = (uint16_t)(tier[queue[head++]] + 1);

		for (unsigned p = 1; p <= n->nports; p++) {
			uint32_t peer = n->ports[p].peer;

			if (smq_is_switch(t, peer) && tier[peer] == SMQ_NO_TIER) {
				tier[peer] = next;
				*height = next > *height ? next : *height;
				queue[tail++] = peer;
			}
		}
	}
	free(queue);
	return 0;
}

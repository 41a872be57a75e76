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
 * it is not a leaf, and gets its tier from the leaves like the others, as
 * long as such switches hold at most a tenth of the CAs (in a torus or a
 * mesh every switch looks like that: they all stay leaves).
 * Switches no leaf reaches, and all CAs and routers, have SMQ_NO_TIER.
 */
#include <errno.h>
#include <stdlib.h>

#include "mad/mad_attr.h"
#include "sm/smquery/smq.h"

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

/* Does switch @i look like a spine with a CA or two plugged in?  *@cas: its CAs. */
static bool smq_tier_spine_like(const struct topo *t, uint32_t i, unsigned *cas)
{
	unsigned sws;

	smq_tier_counts(t, &t->nodes[i], cas, &sws);
	return *cas && sws > *cas && smq_tier_next_to_leaf(t, i);
}

int smq_tiers(const struct topo *t, uint16_t *tier, uint16_t *height)
{
	uint32_t *queue = malloc(((size_t)t->n + 1) * sizeof(*queue));
	uint32_t head = 0, tail = 0;
	uint64_t all = 0, spine_like = 0;
	unsigned cas;

	if (!queue)
		return -ENOMEM;
	*height = 0;
	for (uint32_t i = 0; i < t->n; i++)
		if (t->nodes[i].type == MAD_NODE_SWITCH) {
			bool spine = smq_tier_spine_like(t, i, &cas);
			all += cas;
			spine_like += spine ? cas : 0;
		}
	bool demote = spine_like * 10 <= all;
	for (uint32_t i = 0; i < t->n; i++) {
		tier[i] = SMQ_NO_TIER;
		if (t->nodes[i].type != MAD_NODE_SWITCH)
			continue;
		bool spine = smq_tier_spine_like(t, i, &cas);
		if (cas && !(spine && demote)) {
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

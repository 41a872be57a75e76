// SPDX-License-Identifier: MIT
/*
 * rt_minhop.c - min-hop routing with least-loaded port choice.
 *
 * Distances are switch-to-switch only: one BFS per destination switch over the
 * switch graph (O(S * E) in all, not OpenSM's O(N^3) relaxation), and a CA is
 * routed through the switch it hangs off.  For each destination switch D, every
 * LID that D delivers (its own, and those of the CA ports cabled to it) is routed
 * at every other switch S out of one of the ports that lead one hop closer to D;
 * among those, the port that carries the fewest LIDs so far wins, so parallel
 * links and equal-cost paths share the load.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt.h"

struct minhop_edge {
	uint32_t to;		/* switch number at the other end */
	uint8_t port;		/* our port */
};

struct minhop {
	const struct ibsmd_rt_view *v;
	uint32_t nsw;
	uint32_t *sw_node;	/* switch number -> node */
	uint32_t *node_sw;	/* node -> switch number, or IBSMD_NO_NODE */
	/* switch-to-switch links only, as adjacency lists: edges[first[s]..first[s+1]) */
	uint32_t *first;
	struct minhop_edge *edges;
	uint16_t *dist;		/* BFS distances to the current destination */
	uint32_t *queue;
	/* per switch: the ports one hop closer to the destination */
	uint32_t *cand_first;
	uint8_t *cand;
	uint32_t **load;	/* [switch][port]: LIDs routed out of it */
};

static void minhop_free(struct minhop *m)
{
	if (!m)
		return;
	for (uint32_t s = 0; m->load && s < m->nsw; s++)
		free(m->load[s]);
	free(m->load);
	free(m->sw_node);
	free(m->node_sw);
	free(m->first);
	free(m->edges);
	free(m->dist);
	free(m->queue);
	free(m->cand_first);
	free(m->cand);
	free(m);
}

static int build_adjacency(struct minhop *m)
{
	const struct ibsmd_rt_view *v = m->v;
	size_t nedges = 0;

	for (uint32_t s = 0; s < m->nsw; s++) {
		const struct ibsmd_rt_node *n = &v->nodes[m->sw_node[s]];
		for (unsigned p = 1; p <= n->nports; p++)
			nedges += n->ports[p].peer != IBSMD_NO_NODE &&
				  m->node_sw[n->ports[p].peer] != IBSMD_NO_NODE;
	}
	m->first = malloc((m->nsw + 1) * sizeof(*m->first));
	m->edges = malloc((nedges + 1) * sizeof(*m->edges));
	m->cand_first = malloc((m->nsw + 1) * sizeof(*m->cand_first));
	m->cand = malloc(nedges + 1);
	if (!m->first || !m->edges || !m->cand_first || !m->cand)
		return -ENOMEM;
	nedges = 0;
	for (uint32_t s = 0; s < m->nsw; s++) {
		const struct ibsmd_rt_node *n = &v->nodes[m->sw_node[s]];
		m->first[s] = (uint32_t)nedges;
		for (unsigned p = 1; p <= n->nports; p++) {
			uint32_t peer = n->ports[p].peer;
			if (peer != IBSMD_NO_NODE && m->node_sw[peer] != IBSMD_NO_NODE)
				m->edges[nedges++] = (struct minhop_edge){ m->node_sw[peer], (uint8_t)p };
		}
	}
	m->first[m->nsw] = (uint32_t)nedges;
	return 0;
}

static struct minhop *minhop_new(const struct ibsmd_rt_view *v)
{
	struct minhop *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->v = v;
	m->node_sw = malloc(v->nnodes * sizeof(*m->node_sw));
	m->sw_node = malloc(v->nnodes * sizeof(*m->sw_node));
	if (!m->node_sw || !m->sw_node)
		goto fail;
	for (uint32_t n = 0; n < v->nnodes; n++) {
		m->node_sw[n] = IBSMD_NO_NODE;
		if (v->nodes[n].type == IBSMD_NODE_SWITCH) {
			m->node_sw[n] = m->nsw;
			m->sw_node[m->nsw++] = n;
		}
	}
	m->dist = malloc((m->nsw + 1) * sizeof(*m->dist));
	m->queue = malloc((m->nsw + 1) * sizeof(*m->queue));
	m->load = calloc(m->nsw + 1, sizeof(*m->load));
	if (!m->dist || !m->queue || !m->load || build_adjacency(m))
		goto fail;
	for (uint32_t s = 0; s < m->nsw; s++) {
		m->load[s] = calloc((size_t)v->nodes[m->sw_node[s]].nports + 1, sizeof(uint32_t));
		if (!m->load[s])
			goto fail;
	}
	return m;
fail:
	minhop_free(m);
	return NULL;
}

/* Hop distances from every switch to switch @dst (UINT16_MAX: unreachable),
 * then, per switch, the ports that lead one hop closer. */
static void bfs_from(struct minhop *m, uint32_t dst)
{
	uint32_t head = 0, tail = 0, nc = 0;

	for (uint32_t s = 0; s < m->nsw; s++)
		m->dist[s] = UINT16_MAX;
	m->dist[dst] = 0;
	m->queue[tail++] = dst;
	while (head < tail) {
		uint32_t s = m->queue[head++];
		for (uint32_t e = m->first[s]; e < m->first[s + 1]; e++) {
			uint32_t t = m->edges[e].to;
			if (m->dist[t] == UINT16_MAX) {
				m->dist[t] = m->dist[s] + 1;
				m->queue[tail++] = t;
			}
		}
	}
	for (uint32_t s = 0; s < m->nsw; s++) {
		m->cand_first[s] = nc;
		for (uint32_t e = m->first[s]; e < m->first[s + 1]; e++)
			if (m->dist[m->edges[e].to] + 1 == m->dist[s])
				m->cand[nc++] = m->edges[e].port;
	}
	m->cand_first[m->nsw] = nc;
}

/* The least-loaded port of switch @s one hop closer to the BFS root. */
static uint8_t best_port(const struct minhop *m, uint32_t s)
{
	const uint32_t *load = m->load[s];
	uint8_t best = IBSMD_NO_PORT;
	uint32_t best_load = UINT32_MAX;

	for (uint32_t c = m->cand_first[s]; c < m->cand_first[s + 1]; c++)
		if (load[m->cand[c]] < best_load) {
			best_load = load[m->cand[c]];
			best = m->cand[c];
		}
	return best;
}

/* A LID a destination switch delivers, and the port it leaves that switch by. */
struct minhop_dest {
	uint16_t lid;
	uint8_t port;
};

/* The LIDs switch @dst delivers: its own and those of the CAs cabled to it. */
static size_t dest_lids(const struct minhop *m, uint32_t dst, struct minhop_dest *out)
{
	const struct ibsmd_rt_view *v = m->v;
	const struct ibsmd_rt_node *n = &v->nodes[m->sw_node[dst]];
	size_t k = 0;

	for (unsigned l = 0; n->ports[0].lid && l < (1u << n->ports[0].lmc); l++)
		out[k++] = (struct minhop_dest){ (uint16_t)(n->ports[0].lid + l), 0 };
	for (unsigned p = 1; p <= n->nports; p++) {
		uint32_t peer = n->ports[p].peer;
		if (peer == IBSMD_NO_NODE || v->nodes[peer].type == IBSMD_NODE_SWITCH)
			continue;
		const struct ibsmd_rt_port *cp = &v->nodes[peer].ports[n->ports[p].peer_port];
		for (unsigned l = 0; cp->lid && l < (1u << cp->lmc); l++)
			out[k++] = (struct minhop_dest){ (uint16_t)(cp->lid + l), (uint8_t)p };
	}
	return k;
}

/*
 * Route @ndest LIDs at switch @s, which is not their destination: each goes out
 * of the least-loaded port one hop closer.  For more than a couple of LIDs the
 * candidates are ordered by load once and filled like water: every candidate
 * at the lowest level takes one LID, then the level rises and the ports that
 * reach it join, which hands out the same counts as picking the least-loaded
 * port for each LID in turn, in O(candidates log candidates + LIDs).
 */
static void route_at(struct minhop *m, uint32_t s, uint8_t *row,
		     const struct minhop_dest *dest, size_t ndest)
{
	uint32_t first = m->cand_first[s], nc = m->cand_first[s + 1] - first;
	uint32_t *load = m->load[s];
	uint8_t ord[256];

	if (nc == 0)
		return;	/* the destination is out of reach from here */
	if (ndest < 3 || nc == 1) {
		for (size_t i = 0; i < ndest; i++) {
			uint8_t port = best_port(m, s);
			row[dest[i].lid] = port;
			load[port]++;
		}
		return;
	}
	for (uint32_t i = 0; i < nc; i++) {	/* insertion sort by (load, port) */
		uint8_t port = m->cand[first + i];
		uint32_t j = i;
		for (; j > 0 && (load[ord[j - 1]] > load[port] ||
				 (load[ord[j - 1]] == load[port] && ord[j - 1] > port)); j--)
			ord[j] = ord[j - 1];
		ord[j] = port;
	}
	uint32_t level = load[ord[0]], k = 1, p = 0;
	while (k < nc && load[ord[k]] == level)
		k++;
	for (size_t i = 0; i < ndest; i++) {
		row[dest[i].lid] = ord[p];
		load[ord[p]]++;
		if (++p == k) {
			level++;
			while (k < nc && load[ord[k]] == level)
				k++;
			p = 0;
		}
	}
}

/* Route @ndest LIDs of switch @dst at every switch; switch by switch, so each
 * switch's LFT row and load counters stay in cache. */
static void route_dests(struct minhop *m, const struct ibsmd_rt_ctx *ctx, uint32_t dst,
			const struct minhop_dest *dest, size_t ndest)
{
	for (uint32_t s = 0; s < m->nsw; s++) {
		uint8_t *row = ctx->lft[m->sw_node[s]];
		if (s != dst) {
			route_at(m, s, row, dest, ndest);
			continue;
		}
		for (size_t i = 0; i < ndest; i++) {
			row[dest[i].lid] = dest[i].port;
			m->load[s][dest[i].port]++;
		}
	}
}

static int minhop_compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	struct minhop *m = minhop_new(ctx->view);

	(void)state;
	/* at most 255 ports, each with 2^7 LIDs */
	struct minhop_dest *dest = malloc(256 * 128 * sizeof(*dest));
	if (!m || !dest) {
		minhop_free(m);
		free(dest);
		return -ENOMEM;
	}
	for (uint32_t d = 0; d < m->nsw; d++) {
		size_t n = dest_lids(m, d, dest);
		if (!n)
			continue;
		bfs_from(m, d);
		route_dests(m, ctx, d, dest, n);
	}
	free(dest);
	minhop_free(m);
	return 0;
}

IBSMD_ROUTING_ENGINE(minhop) = {
	.name = "minhop",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.description = "shortest paths, least-loaded port among equals",
	.compute_unicast = minhop_compute,
};

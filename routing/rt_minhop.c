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

struct minhop {
	const struct ibsmd_rt_view *v;
	uint32_t nsw;
	uint32_t *sw_node;	/* switch number -> node */
	uint32_t *node_sw;	/* node -> switch number, or IBSMD_NO_NODE */
	uint16_t *dist;		/* BFS distances to the current destination */
	uint32_t *queue;
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
	free(m->dist);
	free(m->queue);
	free(m);
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
	if (!m->dist || !m->queue || !m->load)
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

/* Hop distances from every switch to switch @dst (UINT16_MAX: unreachable). */
static void bfs_from(struct minhop *m, uint32_t dst)
{
	const struct ibsmd_rt_view *v = m->v;
	uint32_t head = 0, tail = 0;

	for (uint32_t s = 0; s < m->nsw; s++)
		m->dist[s] = UINT16_MAX;
	m->dist[dst] = 0;
	m->queue[tail++] = dst;
	while (head < tail) {
		uint32_t s = m->queue[head++];
		const struct ibsmd_rt_node *n = &v->nodes[m->sw_node[s]];
		for (unsigned p = 1; p <= n->nports; p++) {
			uint32_t peer = n->ports[p].peer;
			if (peer == IBSMD_NO_NODE || m->node_sw[peer] == IBSMD_NO_NODE)
				continue;
			uint32_t t = m->node_sw[peer];
			if (m->dist[t] == UINT16_MAX) {
				m->dist[t] = m->dist[s] + 1;
				m->queue[tail++] = t;
			}
		}
	}
}

/* The least-loaded port of switch @s one hop closer to the BFS root. */
static uint8_t best_port(struct minhop *m, uint32_t s)
{
	const struct ibsmd_rt_node *n = &m->v->nodes[m->sw_node[s]];
	uint8_t best = IBSMD_NO_PORT;
	uint32_t best_load = UINT32_MAX;

	for (unsigned p = 1; p <= n->nports; p++) {
		uint32_t peer = n->ports[p].peer;
		if (peer == IBSMD_NO_NODE || m->node_sw[peer] == IBSMD_NO_NODE)
			continue;
		if (m->dist[m->node_sw[peer]] + 1 != m->dist[s])
			continue;
		if (m->load[s][p] < best_load) {
			best_load = m->load[s][p];
			best = (uint8_t)p;
		}
	}
	return best;
}

static void route_lid(struct minhop *m, const struct ibsmd_rt_ctx *ctx, uint32_t dst,
		      uint16_t lid, uint8_t port_at_dst)
{
	for (uint32_t s = 0; s < m->nsw; s++) {
		uint8_t port;
		if (s == dst)
			port = port_at_dst;
		else if (m->dist[s] == UINT16_MAX)
			continue;
		else
			port = best_port(m, s);
		if (port == IBSMD_NO_PORT)
			continue;
		ibsmd_lft_set(ctx, m->sw_node[s], lid, port);
		m->load[s][port]++;
	}
}

/* Route every LID switch @dst delivers: its own and its CAs'. */
static void route_switch_lids(struct minhop *m, const struct ibsmd_rt_ctx *ctx, uint32_t dst)
{
	const struct ibsmd_rt_view *v = m->v;
	const struct ibsmd_rt_node *n = &v->nodes[m->sw_node[dst]];

	for (unsigned l = 0; n->ports[0].lid && l < (1u << n->ports[0].lmc); l++)
		route_lid(m, ctx, dst, (uint16_t)(n->ports[0].lid + l), 0);
	for (unsigned p = 1; p <= n->nports; p++) {
		uint32_t peer = n->ports[p].peer;
		if (peer == IBSMD_NO_NODE || v->nodes[peer].type == IBSMD_NODE_SWITCH)
			continue;
		const struct ibsmd_rt_port *cp = &v->nodes[peer].ports[n->ports[p].peer_port];
		for (unsigned l = 0; cp->lid && l < (1u << cp->lmc); l++)
			route_lid(m, ctx, dst, (uint16_t)(cp->lid + l), (uint8_t)p);
	}
}

static int minhop_compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	struct minhop *m = minhop_new(ctx->view);

	(void)state;
	if (!m)
		return -ENOMEM;
	for (uint32_t d = 0; d < m->nsw; d++) {
		bfs_from(m, d);
		route_switch_lids(m, ctx, d);
	}
	minhop_free(m);
	return 0;
}

const struct ibsmd_routing_engine rt_minhop_engine = {
	.name = "minhop",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.description = "shortest paths, least-loaded port among equals",
	.compute_unicast = minhop_compute,
};

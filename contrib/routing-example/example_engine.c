// SPDX-License-Identifier: MIT
/*
 * example_engine.c - a routing engine written the way a third party writes one:
 * against the installed <ibsmd/routing.h> only, built as a shared object, and
 * named in ibsmd's chain (`routing: [example, minhop]`, with example.so in the
 * plugin directory, or `--routing /path/to/example.so`).
 *
 * "dmodk": shortest paths, and among the ports that lead one hop closer, the
 * one picked by destination LID modulo their number, so the LIDs of one
 * destination switch fan out over its equal-cost uplinks deterministically.
 * Distances come from one breadth-first search per destination switch over the
 * switch graph; hosts are reached through the switch they are cabled to.  The
 * view's switch index (switch_node, ABI 2) lists the switches to visit.
 *
 * ibsmd runs a plugin in a child process with a time budget (plugin_timeout,
 * 60 s by default) and its LFT rows in memory shared with the daemon: if the
 * engine crashes, hangs, calls exit() or writes past its rows, the daemon logs
 * the engine's name and the signal or status and moves on to the next engine
 * of the chain.  Each run is a fresh child: keep no state between runs.
 *
 * Build: cc -shared -fPIC $(pkg-config --cflags ibsmd-routing) -o example.so
 *        example_engine.c
 */
#include <errno.h>
#include <stdlib.h>

#include <ibsmd/routing.h>

struct bfs {
	uint32_t *dist;
	uint32_t *queue;
};

static void bfs_from(const struct ibsmd_rt_view *v, uint32_t root, struct bfs *b)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t n = 0; n < v->nnodes; n++)
		b->dist[n] = UINT32_MAX;
	b->dist[root] = 0;
	b->queue[tail++] = root;
	while (head < tail) {
		uint32_t s = b->queue[head++];
		for (unsigned p = 1; p <= v->nodes[s].nports; p++) {
			uint32_t t = v->nodes[s].ports[p].peer;
			if (ibsmd_is_switch(v, t) && b->dist[t] == UINT32_MAX) {
				b->dist[t] = b->dist[s] + 1;
				b->queue[tail++] = t;
			}
		}
	}
}

/* Port of switch @s for @lid: the (lid mod k)-th of the k ports one hop closer. */
static uint8_t pick(const struct ibsmd_rt_view *v, const struct bfs *b, uint32_t s,
		    uint16_t lid)
{
	unsigned k = 0, want;
	const struct ibsmd_rt_node *n = &v->nodes[s];

	for (unsigned p = 1; p <= n->nports; p++)
		k += ibsmd_is_switch(v, n->ports[p].peer) && b->dist[n->ports[p].peer] + 1 == b->dist[s];
	if (!k)
		return IBSMD_NO_PORT;
	want = lid % k;
	for (unsigned p = 1; p <= n->nports; p++)
		if (ibsmd_is_switch(v, n->ports[p].peer) &&
		    b->dist[n->ports[p].peer] + 1 == b->dist[s] && want-- == 0)
			return (uint8_t)p;
	return IBSMD_NO_PORT;
}

static void route_lid(const struct ibsmd_rt_ctx *ctx, const struct bfs *b, uint32_t dst,
		      uint16_t lid, uint8_t port_at_dst)
{
	const struct ibsmd_rt_view *v = ctx->view;

	for (uint32_t i = 0; i < v->nswitches; i++) {
		uint32_t s = v->switch_node[i];
		if (b->dist[s] != UINT32_MAX)
			ibsmd_lft_set(ctx, s, lid, s == dst ? port_at_dst : pick(v, b, s, lid));
	}
}

static int dmodk_compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	const struct ibsmd_rt_view *v = ctx->view;
	struct bfs b = { malloc(v->nnodes * sizeof(uint32_t)), malloc(v->nnodes * sizeof(uint32_t)) };

	(void)state;
	if (!b.dist || !b.queue) {
		free(b.dist);
		free(b.queue);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < v->nswitches; i++) {
		uint32_t d = v->switch_node[i];
		bfs_from(v, d, &b);
		const struct ibsmd_rt_node *n = &v->nodes[d];
		if (n->ports[0].lid)
			route_lid(ctx, &b, d, n->ports[0].lid, 0);
		for (unsigned p = 1; p <= n->nports; p++) {
			uint32_t peer = n->ports[p].peer;
			if (peer == IBSMD_NO_NODE || ibsmd_is_switch(v, peer))
				continue;
			const struct ibsmd_rt_port *cp = &v->nodes[peer].ports[n->ports[p].peer_port];
			for (unsigned l = 0; cp->lid && l < (1u << cp->lmc); l++)
				route_lid(ctx, &b, d, (uint16_t)(cp->lid + l), (uint8_t)p);
		}
	}
	free(b.dist);
	free(b.queue);
	return 0;
}

IBSMD_ROUTING_ENGINE(dmodk) = {
	.name = "dmodk",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.description = "shortest paths, uplink chosen by destination LID modulo k",
	.compute_unicast = dmodk_compute,
};

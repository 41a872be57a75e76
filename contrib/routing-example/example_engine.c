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
 * Adaptive routing (ABI 3), with the option ar=1: where the fabric has
 * AR-capable switches the daemon hands a ctx->ar, and compute_ar gives each
 * switch, per destination LID, the group of all the ports one hop closer (the
 * k the LFT chose among).  Equal port sets share a group number, numbered in
 * the order the destination switches are visited, so the same fabric gets the
 * same numbers every run and a resweep sends nothing new.  The daemon checks
 * the groups like the LFTs: legal, linked ports, and no credit loop in the
 * union of every hop they allow.  On a fat tree every shortest path is an
 * up/down path, so that holds; on a ring or a torus it does not, the daemon
 * refuses the result and the chain moves on: hence an option.
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

/* ar=1 among the options? */
static int ar_wanted(const struct ibsmd_rt_ctx *ctx)
{
	for (unsigned i = 0; ctx->options && i < ctx->noptions; i++) {
		const char *o = ctx->options[i];
		if (o[0] == 'a' && o[1] == 'r' && o[2] == '=' && o[3] == '1' && !o[4])
			return 1;
	}
	return 0;
}

/* The group number of port set @m on switch @s, added when new; 0 when the
 * switch's groups are full.  @sets holds the group_cap sets seen so far. */
static uint16_t group_of(const struct ibsmd_rt_ctx *ctx, uint32_t s, const uint64_t *m,
			 uint64_t (*sets)[IBSMD_AR_WORDS], uint16_t *nsets)
{
	for (uint16_t g = 0; g < *nsets; g++) {
		unsigned w = 0;
		while (w < IBSMD_AR_WORDS && sets[g][w] == m[w])
			w++;
		if (w == IBSMD_AR_WORDS)
			return (uint16_t)(g + 1);
	}
	if (*nsets >= ctx->ar->group_cap)
		return 0;
	for (unsigned w = 0; w < IBSMD_AR_WORDS; w++)
		sets[*nsets][w] = m[w];
	ibsmd_ar_group_set(ctx, s, (uint16_t)(*nsets + 1), m);
	return ++*nsets;
}

/* compute_ar: per switch and CA LID, the ports one hop closer to the LID's
 * switch; one search per destination switch, as compute_unicast does. */
static int dmodk_compute_ar(const struct ibsmd_rt_ctx *ctx, void *state)
{
	const struct ibsmd_rt_view *v = ctx->view;
	struct bfs b = { malloc(v->nnodes * sizeof(uint32_t)), malloc(v->nnodes * sizeof(uint32_t)) };
	size_t cap = (size_t)ctx->ar->group_cap + 1;
	uint64_t(*sets)[IBSMD_AR_WORDS] = malloc(v->nswitches * cap * sizeof(*sets) + 1);
	uint16_t *nsets = calloc(v->nswitches + 1, sizeof(*nsets));
	int rc = b.dist && b.queue && sets && nsets ? 0 : -ENOMEM;

	(void)state;
	for (uint32_t j = 0; rc == 0 && ar_wanted(ctx) && j < v->nswitches; j++) {
		uint32_t d = v->switch_node[j];
		bfs_from(v, d, &b);
		for (unsigned dp = 1; dp <= v->nodes[d].nports; dp++) {
			uint32_t ca = v->nodes[d].ports[dp].peer;
			if (ca == IBSMD_NO_NODE || ibsmd_is_switch(v, ca))
				continue;
			const struct ibsmd_rt_port *cp = &v->nodes[ca].ports[v->nodes[d].ports[dp].peer_port];
			for (uint32_t i = 0; i < v->nswitches; i++) {
				uint32_t s = v->switch_node[i];
				const struct ibsmd_rt_node *n = &v->nodes[s];
				uint64_t m[IBSMD_AR_WORDS] = { 0 };
				if (s == d || !ctx->ar->lid_group[s])
					continue;	/* the last hop, or no AR on this switch */
				for (unsigned p = 1; p <= n->nports; p++)
					if (ibsmd_is_switch(v, n->ports[p].peer) &&
					    b.dist[n->ports[p].peer] + 1 == b.dist[s])
						m[p / 64] |= 1ULL << (p % 64);
				if (!(m[0] | m[1] | m[2] | m[3]))
					continue;
				uint16_t g = group_of(ctx, s, m, sets + i * cap, &nsets[i]);
				for (unsigned l = 0; cp->lid && l < (1u << cp->lmc); l++)
					ibsmd_ar_lid_set(ctx, s, (uint16_t)(cp->lid + l), g);
			}
		}
	}
	free(b.dist);
	free(b.queue);
	free(sets);
	free(nsets);
	return rc;
}

IBSMD_ROUTING_ENGINE(dmodk) = {
	.name = "dmodk",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.description = "shortest paths, uplink chosen by destination LID modulo k",
	.compute_unicast = dmodk_compute,
	.compute_ar = dmodk_compute_ar,
};

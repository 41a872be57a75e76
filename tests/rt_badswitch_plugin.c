// SPDX-License-Identifier: MIT
/*
 * rt_badswitch_plugin.c - a plugin that routes every CA LID by a shortest path
 * but sends every switch LID to port 200: ibsmd must refuse it, since LID-routed
 * management traffic needs routes to switches (tests/check_rt.c).
 */
#include <errno.h>
#include <stdlib.h>

#include <ibsmd/routing.h>

/* Breadth first from the switch delivering @lid (on @first_port) over switch
 * links; each switch reached forwards to the one it was reached from. */
static int route_lid(const struct ibsmd_rt_ctx *ctx, uint32_t *queue, uint8_t *seen,
		     uint32_t first, uint8_t first_port, uint16_t lid)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint32_t head = 0, tail = 0;

	for (uint32_t n = 0; n < v->nnodes; n++)
		seen[n] = 0;
	seen[first] = 1;
	queue[tail++] = first;
	ibsmd_lft_set(ctx, first, lid, first_port);
	while (head < tail) {
		const struct ibsmd_rt_node *t = &v->nodes[queue[head++]];
		for (unsigned p = 1; p <= t->nports; p++) {
			uint32_t s = t->ports[p].peer;
			if (s == IBSMD_NO_NODE || !ibsmd_is_switch(v, s) || seen[s])
				continue;
			seen[s] = 1;
			queue[tail++] = s;
			ibsmd_lft_set(ctx, s, lid, t->ports[p].peer_port);
		}
	}
	return 0;
}

static int compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint32_t *queue = malloc((v->nnodes + 1) * sizeof(*queue));
	uint8_t *seen = malloc(v->nnodes + 1);

	(void)state;
	for (uint32_t lid = 1; queue && seen && lid <= v->max_lid; lid++) {
		uint32_t n = v->lid_node[lid];
		if (n == IBSMD_NO_NODE)
			continue;
		if (ibsmd_is_switch(v, n)) {
			for (uint32_t s = 0; s < v->nnodes; s++)
				ibsmd_lft_set(ctx, s, (uint16_t)lid, s == n ? 0 : 200);
			continue;
		}
		const struct ibsmd_rt_port *p = &v->nodes[n].ports[v->lid_port[lid]];
		if (p->peer != IBSMD_NO_NODE && ibsmd_is_switch(v, p->peer))
			route_lid(ctx, queue, seen, p->peer, p->peer_port, (uint16_t)lid);
	}
	int rc = queue && seen ? 0 : -ENOMEM;
	free(queue);
	free(seen);
	return rc;
}

const struct ibsmd_routing_engine ibsmd_routing_engine = {
	.name = "badswitch",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.compute_unicast = compute,
};

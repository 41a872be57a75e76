// SPDX-License-Identifier: MIT
/*
 * rt_arbad_plugin.c - a plugin whose LFTs are good (the example engine's
 * dmodk, its source included) and whose AR groups (routing ABI 3) are bad in
 * the way its option bad=WHAT says: the daemon must refuse the result, name
 * the fault, and the chain move on, whatever bytes the child left in the
 * shared AR area (tests/check_rt_ar.c).
 *   garbage   every AR byte 0xff, written around the inline helpers
 *   cap       a group number past group_cap
 *   port      a group with port 255, which no switch has
 *   unlinked  a group with a port that has no link
 *   ca        a group with a port cabled to another CA
 *   empty     a LID given a group with no port
 *   switchlid a group for a switch's LID
 *   loop      every group all of the switch's links: a credit loop
 * The helpers' own range checks are called with the worst values too (they
 * must write nothing).
 */
#include <string.h>

#include <ibsmd/routing.h>

/* the example's engine becomes an unused static: ours is below */
#undef IBSMD_ROUTING_ENGINE
#define IBSMD_ROUTING_ENGINE(id) \
	static const struct ibsmd_routing_engine example_##id __attribute__((unused))
#include "../contrib/routing-example/example_engine.c"

static const char *bad_option(const struct ibsmd_rt_ctx *ctx)
{
	for (unsigned i = 0; ctx->options && i < ctx->noptions; i++)
		if (!strncmp(ctx->options[i], "bad=", 4))
			return ctx->options[i] + 4;
	return "";
}

/* The first switch with AR rows and a CA LID it does not serve directly. */
static int target(const struct ibsmd_rt_ctx *ctx, uint32_t *sw, uint16_t *lid)
{
	const struct ibsmd_rt_view *v = ctx->view;

	for (uint32_t i = 0; i < v->nswitches; i++) {
		uint32_t s = v->switch_node[i];
		if (!ctx->ar->lid_group[s])
			continue;
		for (uint16_t l = 1; l <= v->max_lid; l++) {
			uint32_t h = v->lid_node[l];
			if (h != IBSMD_NO_NODE && !ibsmd_is_switch(v, h) &&
			    v->nodes[h].ports[v->lid_port[l]].peer != s) {
				*sw = s;
				*lid = l;
				return 0;
			}
		}
	}
	return -1;
}

/* A port of switch @s matching @want: 's' to a switch, 'c' to a CA, 'n' unlinked. */
static unsigned port_to(const struct ibsmd_rt_view *v, uint32_t s, char want)
{
	for (unsigned p = 1; p <= v->nodes[s].nports; p++) {
		uint32_t peer = v->nodes[s].ports[p].peer;
		char is = peer == IBSMD_NO_NODE ? 'n' : ibsmd_is_switch(v, peer) ? 's' : 'c';
		if (is == want)
			return p;
	}
	return 0;
}

static int arbad_compute_ar(const struct ibsmd_rt_ctx *ctx, void *state)
{
	const struct ibsmd_rt_view *v = ctx->view;
	const char *bad = bad_option(ctx);
	uint64_t m[IBSMD_AR_WORDS] = { 0 }, all[IBSMD_AR_WORDS];
	uint32_t s;
	uint16_t lid;

	(void)state;
	memset(all, 0xff, sizeof(all));
	/* the helpers refuse what is out of range */
	ibsmd_ar_group_set(ctx, UINT32_MAX, 1, all);
	ibsmd_ar_group_set(ctx, v->switch_node[0], 0, all);
	ibsmd_ar_group_set(ctx, v->switch_node[0], UINT16_MAX, all);
	ibsmd_ar_lid_set(ctx, v->switch_node[0], UINT16_MAX, 1);
	ibsmd_ar_lid_set(ctx, v->switch_node[0], 1, UINT16_MAX);
	if (target(ctx, &s, &lid))
		return 0;
	if (!strcmp(bad, "garbage")) {
		for (uint32_t n = 0; n < v->nnodes; n++) {
			if (!ctx->ar->lid_group[n])
				continue;
			memset(ctx->ar->lid_group[n], 0xff, ((size_t)v->max_lid + 1) * 2);
			memset(ctx->ar->groups[n], 0xff, (size_t)ctx->ar->group_cap * sizeof(all));
		}
		return 0;
	}
	if (!strcmp(bad, "cap")) {
		ctx->ar->lid_group[s][lid] = (uint16_t)(ctx->ar->group_cap + 1);
		return 0;
	}
	if (!strcmp(bad, "loop")) {
		for (uint32_t i = 0; i < v->nswitches; i++) {
			uint32_t n = v->switch_node[i];
			memset(m, 0, sizeof(m));
			for (unsigned p = 1; p <= v->nodes[n].nports; p++)
				if (ibsmd_is_switch(v, v->nodes[n].ports[p].peer))
					m[p / 64] |= 1ULL << (p % 64);
			ibsmd_ar_group_set(ctx, n, 1, m);
			for (uint16_t l = 1; l <= v->max_lid; l++)
				if (v->lid_node[l] != IBSMD_NO_NODE &&
				    !ibsmd_is_switch(v, v->lid_node[l]) &&
				    v->nodes[v->lid_node[l]].ports[v->lid_port[l]].peer != n)
					ibsmd_ar_lid_set(ctx, n, l, 1);
		}
		return 0;
	}
	unsigned p = !strcmp(bad, "port") ? 255 : !strcmp(bad, "unlinked") ? port_to(v, s, 'n')
		     : !strcmp(bad, "ca") ? port_to(v, s, 'c') : port_to(v, s, 's');
	if (strcmp(bad, "empty"))
		m[p / 64] |= 1ULL << (p % 64);
	ibsmd_ar_group_set(ctx, s, 1, m);
	if (!strcmp(bad, "switchlid"))
		lid = v->nodes[v->switch_node[0]].ports[0].lid;
	ibsmd_ar_lid_set(ctx, s, lid, 1);
	return 0;
}

const struct ibsmd_routing_engine ibsmd_routing_engine = {
	.name = "arbad",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.compute_unicast = dmodk_compute,
	.compute_ar = arbad_compute_ar,
};

// SPDX-License-Identifier: MIT
/*
 * rt_ar.c - checks of adaptive routing groups (see rt_ar.h).
 *
 * The union check: a channel is a switch's port to another switch,
 * chan_off[S] + p.  Per destination switch D, allow[S] is where S may send a
 * packet for D; a packet in on channel c (S -> T) may go on out of any port
 * allowed at T, so next[c] |= allow[T].  After every D, next[] is the
 * graph's adjacency as port masks, searched depth first (iteratively) for a
 * cycle.  Memory: 32 bytes per channel and per switch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_ar.h"

#define PORTS (64 * IBSMD_AR_WORDS)

/* The switch number at the far end of switch number @s's port @p, or IBSMD_NO_NODE. */
static uint32_t far_switch(const struct ibsmd_rt_view *v, uint32_t s, unsigned p)
{
	uint32_t peer = v->nodes[v->switch_node[s]].ports[p].peer;

	return ibsmd_is_switch(v, peer) ? v->node_switch[peer] : IBSMD_NO_NODE;
}

static bool bit(const uint64_t *m, unsigned p)
{
	return m[p / 64] >> (p % 64) & 1;
}

/* The switch a CA LID is cabled to, as a node, or IBSMD_NO_NODE (a switch
 * LID, a LID nobody owns). */
static uint32_t ca_lid_switch(const struct ibsmd_rt_view *v, uint32_t lid)
{
	uint32_t h = v->lid_node[lid];

	if (h >= v->nnodes || ibsmd_is_switch(v, h) || v->lid_port[lid] > v->nodes[h].nports)
		return IBSMD_NO_NODE;
	uint32_t sw = v->nodes[h].ports[v->lid_port[lid]].peer;
	return ibsmd_is_switch(v, sw) ? sw : IBSMD_NO_NODE;
}

void rt_ar_allow_static(const struct ibsmd_rt_ctx *ctx, const uint16_t *lids, uint32_t nlids,
			uint64_t (*allow)[IBSMD_AR_WORDS])
{
	const struct ibsmd_rt_view *v = ctx->view;

	for (uint32_t s = 0; s < v->nswitches; s++)
		for (uint32_t i = 0; i < nlids; i++) {
			uint8_t p = ibsmd_lft_get(ctx, v->switch_node[s], lids[i]);
			if (p && p != IBSMD_NO_PORT)
				allow[s][p / 64] |= 1ULL << (p % 64);
		}
}

/* The CA LIDs by the switch number they are cabled to: lids[first[d] ..
 * first[d + 1]]. */
static int lids_by_switch(const struct ibsmd_rt_view *v, uint32_t **first, uint16_t **lids)
{
	uint32_t nsw = v->nswitches;

	*first = calloc((size_t)nsw + 2, sizeof(**first));
	*lids = malloc(((size_t)v->max_lid + 1) * sizeof(**lids));
	if (!*first || !*lids)
		return -ENOMEM;
	for (uint32_t lid = 1; lid <= v->max_lid; lid++) {
		uint32_t sw = ca_lid_switch(v, lid);
		if (sw != IBSMD_NO_NODE)
			(*first)[v->node_switch[sw] + 2]++;
	}
	for (uint32_t d = 0; d < nsw; d++)
		(*first)[d + 2] += (*first)[d + 1];
	for (uint32_t lid = 1; lid <= v->max_lid; lid++) {
		uint32_t sw = ca_lid_switch(v, lid);
		if (sw != IBSMD_NO_NODE)
			(*lids)[(*first)[v->node_switch[sw] + 1]++] = (uint16_t)lid;
	}
	return 0;
}

struct cdg {
	uint32_t *chan_off;	/* [nsw + 1] */
	uint32_t *chan_sw;	/* channel -> its switch */
	uint32_t nchan;
	uint64_t (*next)[IBSMD_AR_WORDS];
	uint64_t (*allow)[IBSMD_AR_WORDS];
	uint32_t *stack;
	uint8_t *colour;	/* 1 on the stack, 2 done */
	uint32_t *first;	/* lids_by_switch() */
	uint16_t *lids;
};

static void cdg_free(struct cdg *g)
{
	free(g->chan_off);
	free(g->chan_sw);
	free(g->next);
	free(g->allow);
	free(g->stack);
	free(g->colour);
	free(g->first);
	free(g->lids);
}

static bool cycle_from(const struct ibsmd_rt_view *v, struct cdg *g, uint32_t c0)
{
	uint32_t depth = 0;

	g->stack[depth++] = c0;
	g->colour[c0] = 1;
	while (depth) {
		uint32_t c = g->stack[depth - 1], s = g->chan_sw[c], next = UINT32_MAX;
		uint32_t far = far_switch(v, s, c - g->chan_off[s]);
		for (unsigned p = 1; far != IBSMD_NO_NODE && p < PORTS &&
				     p <= v->nodes[v->switch_node[far]].nports; p++) {
			if (!bit(g->next[c], p))
				continue;
			uint32_t n = g->chan_off[far] + p;
			if (g->colour[n] == 1)
				return true;
			if (g->colour[n] == 0) {
				next = n;
				break;
			}
		}
		if (next == UINT32_MAX) {
			g->colour[c] = 2;
			depth--;
		} else {
			g->colour[next] = 1;
			g->stack[depth++] = next;
		}
	}
	return false;
}

int rt_ar_union_check(const struct ibsmd_rt_ctx *ctx, rt_ar_allow_fn fill, const void *arg)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint32_t nsw = v->nswitches;
	struct cdg g = { 0 };
	int rc = -ENOMEM;

	if (!(g.chan_off = malloc(((size_t)nsw + 1) * sizeof(*g.chan_off))))
		goto out;
	for (uint32_t s = 0; s < nsw; s++) {
		g.chan_off[s] = g.nchan;
		g.nchan += v->nodes[v->switch_node[s]].nports + 1u;
	}
	g.chan_off[nsw] = g.nchan;
	g.next = calloc((size_t)g.nchan + 1, sizeof(*g.next));
	g.chan_sw = malloc(((size_t)g.nchan + 1) * sizeof(*g.chan_sw));
	g.allow = malloc(((size_t)nsw + 1) * sizeof(*g.allow));
	g.stack = malloc(((size_t)g.nchan + 1) * sizeof(*g.stack));
	g.colour = calloc((size_t)g.nchan + 1, 1);
	if (!g.next || !g.chan_sw || !g.allow || !g.stack || !g.colour ||
	    lids_by_switch(v, &g.first, &g.lids))
		goto out;
	for (uint32_t s = 0; s < nsw; s++)
		for (uint32_t c = g.chan_off[s]; c < g.chan_off[s + 1]; c++)
			g.chan_sw[c] = s;
	for (uint32_t d = 0; d < nsw; d++) {
		memset(g.allow, 0, (size_t)nsw * sizeof(*g.allow));
		uint32_t nlids = g.first[d + 1] - g.first[d];
		if (!nlids)
			continue;	/* no CA there: nothing goes to it */
		fill(ctx, arg, d, g.lids + g.first[d], nlids, g.allow);
		for (uint32_t s = 0; s < nsw; s++)
			for (unsigned p = 1; p < PORTS && p <= v->nodes[v->switch_node[s]].nports; p++) {
				uint32_t far = far_switch(v, s, p);
				if (far == IBSMD_NO_NODE || !bit(g.allow[s], p))
					continue;
				for (unsigned w = 0; w < IBSMD_AR_WORDS; w++)
					g.next[g.chan_off[s] + p][w] |= g.allow[far][w];
			}
	}
	rc = 0;
	for (uint32_t c = 0; rc == 0 && c < g.nchan; c++)
		if (g.colour[c] == 0 && cycle_from(v, &g, c))
			rc = -ELOOP;
out:
	cdg_free(&g);
	return rc;
}

/* rt_ar_allow_fn over ctx->ar: the groups of the CA LIDs behind @d, and the
 * static ports. */
static void allow_ctx(const struct ibsmd_rt_ctx *ctx, const void *arg, uint32_t d,
		      const uint16_t *lids, uint32_t nlids, uint64_t (*allow)[IBSMD_AR_WORDS])
{
	const struct ibsmd_rt_view *v = ctx->view;
	const struct ibsmd_rt_ar *ar = ctx->ar;

	(void)arg;
	(void)d;
	rt_ar_allow_static(ctx, lids, nlids, allow);
	for (uint32_t s = 0; s < v->nswitches; s++) {
		uint32_t n = v->switch_node[s];
		for (uint32_t i = 0; ar->lid_group[n] && ar->groups[n] && i < nlids; i++) {
			uint16_t grp = ar->lid_group[n][lids[i]];
			if (grp < 1 || grp > ar->group_cap)
				continue;
			for (unsigned w = 0; w < IBSMD_AR_WORDS; w++)
				allow[s][w] |= ar->groups[n][grp - 1][w];
		}
	}
}

int rt_ar_cdg_check(const struct ibsmd_rt_ctx *ctx)
{
	return ctx->ar ? rt_ar_union_check(ctx, allow_ctx, NULL) : 0;
}

/* What group_legal() found of a group, kept per group of the switch at hand. */
enum { G_UNSEEN, G_SWITCHES, G_CAS };

/* Is group @grp of switch node @n a legal choice for @lid?  Why not in @why.
 * @seen[grp] saves the walk over the ports for groups that lead to switches
 * only (the usual case: legal for every LID once legal for one). */
static bool group_legal(const struct ibsmd_rt_ctx *ctx, uint32_t n, uint32_t lid, uint16_t grp,
			uint8_t *seen, char *why, size_t len)
{
	const struct ibsmd_rt_view *v = ctx->view;
	const struct ibsmd_rt_node *sw = &v->nodes[n];
	const uint64_t *m = ctx->ar->groups[n][grp - 1];
	bool any = false, cas = false;

	if (seen[grp] == G_SWITCHES)
		return true;
	for (unsigned p = 0; p < PORTS; p++) {
		if (!bit(m, p))
			continue;
		any = true;
		uint32_t peer = p >= 1 && p <= sw->nports ? sw->ports[p].peer : IBSMD_NO_NODE;
		cas |= peer < v->nnodes && !ibsmd_is_switch(v, peer);
		if (peer >= v->nnodes || (!ibsmd_is_switch(v, peer) && peer != v->lid_node[lid])) {
			snprintf(why, len, "switch 0x%016llx group %u (LID %u) names port %u, %s",
				 (unsigned long long)sw->guid, grp, lid, p,
				 p < 1 || p > sw->nports ? "which it lacks"
				 : peer >= v->nnodes ? "which is not linked"
						     : "which leads to another CA");
			return false;
		}
	}
	if (!any)
		snprintf(why, len, "switch 0x%016llx group %u (LID %u) is empty",
			 (unsigned long long)sw->guid, grp, lid);
	seen[grp] = cas ? G_CAS : G_SWITCHES;
	return any;
}

int rt_ar_validate(const struct ibsmd_rt_ctx *ctx, char *why, size_t len)
{
	const struct ibsmd_rt_view *v = ctx->view;
	const struct ibsmd_rt_ar *ar = ctx->ar;
	uint8_t *seen = ar ? malloc((size_t)ar->group_cap + 1) : NULL;

	if (ar && !seen)
		return -ENOMEM;
	for (uint32_t n = 0; ar && n < v->nnodes; n++) {
		if (!ar->lid_group[n] || !ar->groups[n])
			continue;
		memset(seen, G_UNSEEN, (size_t)ar->group_cap + 1);
		for (uint32_t lid = 0; lid <= v->max_lid; lid++) {
			uint16_t grp = ar->lid_group[n][lid];
			if (!grp)
				continue;
			if (grp > ar->group_cap) {
				snprintf(why, len, "switch 0x%016llx LID %u: group %u past the "
					 "cap of %u", (unsigned long long)v->nodes[n].guid, lid, grp,
					 ar->group_cap);
				free(seen);
				return -EINVAL;
			}
			if (ca_lid_switch(v, lid) == IBSMD_NO_NODE) {
				snprintf(why, len, "switch 0x%016llx: group %u for LID %u, which is "
					 "no CA's", (unsigned long long)v->nodes[n].guid, grp, lid);
				free(seen);
				return -EINVAL;
			}
			if (!group_legal(ctx, n, lid, grp, seen, why, len)) {
				free(seen);
				return -EINVAL;
			}
		}
	}
	free(seen);
	return 0;
}

bool rt_ar_any(const struct ibsmd_rt_ctx *ctx)
{
	const struct ibsmd_rt_ar *ar = ctx->ar;

	for (uint32_t n = 0; ar && n < ctx->view->nnodes; n++)
		for (uint32_t lid = 0; ar->lid_group[n] && lid <= ctx->view->max_lid; lid++)
			if (ar->lid_group[n][lid])
				return true;
	return false;
}

void rt_ar_clear(const struct ibsmd_rt_ctx *ctx)
{
	const struct ibsmd_rt_ar *ar = ctx->ar;

	for (uint32_t n = 0; ar && n < ctx->view->nnodes; n++) {
		if (ar->lid_group[n])
			memset(ar->lid_group[n], 0,
			       ((size_t)ctx->view->max_lid + 1) * sizeof(*ar->lid_group[n]));
		if (ar->groups[n])
			memset(ar->groups[n], 0, (size_t)ar->group_cap * sizeof(*ar->groups[n]));
	}
}

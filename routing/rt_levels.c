// SPDX-License-Identifier: MIT
/*
 * rt_levels.c - the levels of a fat tree (see rt_levels.h).
 *
 * Leaves are the switches with CAs.  Real fabrics have quirks: a node cabled
 * into a spine makes that spine look like a leaf, linked to the real leaves.
 * Such conflicts are settled by ranking above the leaves the switch that is
 * most spine-like (fewest CAs for its switch links), one at a time, as long as
 * those switches carry few of the CAs (a torus or a mesh would need half).
 * Then a breadth-first search from the leaves gives every switch its rank; a
 * link between two switches of one rank means the fabric is no fat tree.
 *
 * Leaf order (the order hosts are numbered in, which index-ordered routing
 * follows): leaves of one pod together, pods and leaves by GUID.  A pod at
 * level r is a connected set of switches of rank <= r; the key of a leaf is
 * the smallest leaf GUID of its pod at each level, from the top down.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "routing/rt_levels.h"

#define LV_NONE UINT32_MAX

#define RT_LEVEL_KEYS 8	/* pod levels taken into the leaf order */

static bool is_leaf(const struct rt_levels *lv, const uint8_t *demoted, uint32_t s)
{
	return lv->ncas[s] > 0 && !demoted[s];
}

/* Switch links of switch @s. */
static unsigned sw_links(const struct ibsmd_rt_view *v, const struct rt_levels *lv, uint32_t s)
{
	const struct ibsmd_rt_node *n = &v->nodes[lv->sw_node[s]];
	unsigned k = 0;

	for (unsigned p = 1; p <= n->nports; p++)
		k += ibsmd_is_switch(v, n->ports[p].peer);
	return k;
}

/* The leaf linked to another leaf that looks most like a spine, or LV_NONE. */
static uint32_t worst_conflict(const struct ibsmd_rt_view *v, const struct rt_levels *lv,
			       const uint8_t *demoted, const unsigned *links)
{
	uint32_t worst = LV_NONE;

	for (uint32_t s = 0; s < lv->nsw; s++) {
		if (!is_leaf(lv, demoted, s))
			continue;
		const struct ibsmd_rt_node *n = &v->nodes[lv->sw_node[s]];
		bool conflict = false;
		for (unsigned p = 1; p <= n->nports && !conflict; p++) {
			uint32_t peer = n->ports[p].peer;
			conflict = ibsmd_is_switch(v, peer) && is_leaf(lv, demoted, lv->node_sw[peer]);
		}
		if (!conflict)
			continue;
		/* CA share ncas / (ncas + links): smaller is more spine-like */
		if (worst == LV_NONE ||
		    (uint64_t)lv->ncas[s] * (lv->ncas[worst] + links[worst]) <
		    (uint64_t)lv->ncas[worst] * (lv->ncas[s] + links[s]))
			worst = s;
	}
	return worst;
}

/* Settle leaf-to-leaf links; -EINVAL when that takes too many CAs away. */
static int settle_leaves(const struct ibsmd_rt_ctx *ctx, const char *who, struct rt_levels *lv,
			 uint8_t *demoted)
{
	const struct ibsmd_rt_view *v = ctx->view;
	unsigned *links = malloc((lv->nsw + 1) * sizeof(*links));
	uint64_t cas = 0, moved = 0;
	uint32_t s;

	if (!links)
		return -ENOMEM;
	for (s = 0; s < lv->nsw; s++) {
		links[s] = sw_links(v, lv, s);
		cas += lv->ncas[s];
	}
	while ((s = worst_conflict(v, lv, demoted, links)) != LV_NONE) {
		moved += lv->ncas[s];
		if (moved * 10 > cas) {
			ctx->log(LOG_ERR, "routing: %s: not a fat tree: switches with CAs are "
				 "linked to each other (switch 0x%016llx, %s, among others)", who,
				 (unsigned long long)v->nodes[lv->sw_node[s]].guid,
				 v->nodes[lv->sw_node[s]].desc ? v->nodes[lv->sw_node[s]].desc : "");
			free(links);
			return -EINVAL;
		}
		demoted[s] = 1;
	}
	free(links);
	for (s = 0; s < lv->nsw; s++)
		if (demoted[s])
			ctx->log(LOG_NOTICE, "routing: %s: switch 0x%016llx (%s) has %u CA ports "
				 "but is cabled like a spine: ranked above the leaves", who,
				 (unsigned long long)v->nodes[lv->sw_node[s]].guid,
				 v->nodes[lv->sw_node[s]].desc ? v->nodes[lv->sw_node[s]].desc : "",
				 lv->ncas[s]);
	return 0;
}

/* Breadth-first ranks from the leaves; -EINVAL on a link within a level. */
static int rank_switches(const struct ibsmd_rt_ctx *ctx, const char *who, struct rt_levels *lv,
			 const uint8_t *demoted)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint32_t *queue = malloc((lv->nsw + 1) * sizeof(*queue));
	uint32_t head = 0, tail = 0;

	if (!queue)
		return -ENOMEM;
	for (uint32_t s = 0; s < lv->nsw; s++) {
		lv->rank[s] = is_leaf(lv, demoted, s) ? 0 : RT_NORANK;
		if (lv->rank[s] == 0)
			queue[tail++] = s;
	}
	while (head < tail) {
		uint32_t s = queue[head++];
		const struct ibsmd_rt_node *n = &v->nodes[lv->sw_node[s]];
		for (unsigned p = 1; p <= n->nports; p++) {
			if (!ibsmd_is_switch(v, n->ports[p].peer))
				continue;
			uint32_t t = lv->node_sw[n->ports[p].peer];
			if (lv->rank[t] == RT_NORANK) {
				lv->rank[t] = lv->rank[s] + 1;
				lv->height = lv->rank[t] > lv->height ? lv->rank[t] : lv->height;
				queue[tail++] = t;
			} else if (lv->rank[t] == lv->rank[s]) {
				ctx->log(LOG_ERR, "routing: %s: not a fat tree: switches 0x%016llx "
					 "and 0x%016llx, both at level %u, are linked", who,
					 (unsigned long long)n->guid,
					 (unsigned long long)v->nodes[n->ports[p].peer].guid,
					 lv->rank[s]);
				free(queue);
				return -EINVAL;
			}
		}
	}
	free(queue);
	return 0;
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

struct leaf_key {
	uint64_t k[RT_LEVEL_KEYS + 1];
	uint32_t sw;
};

static int leaf_key_cmp(const void *a, const void *b)
{
	const struct leaf_key *x = a, *y = b;

	for (unsigned i = 0; i <= RT_LEVEL_KEYS; i++)
		if (x->k[i] != y->k[i])
			return x->k[i] < y->k[i] ? -1 : 1;
	return 0;
}

/* Key slot of pod level @r (the top pods first), or -1 when not kept. */
static int key_slot(const struct rt_levels *lv, unsigned r)
{
	int slot = (int)lv->height - 1 - (int)r;

	return slot < RT_LEVEL_KEYS ? slot : -1;
}

/* Fill @keys[i].k[slot of r] with the smallest leaf GUID of leaf i's pod at level r. */
static void pod_keys(const struct ibsmd_rt_view *v, const struct rt_levels *lv, unsigned r,
		     uint32_t *up, uint64_t *minguid, struct leaf_key *keys)
{
	for (uint32_t s = 0; s < lv->nsw; s++) {
		up[s] = s;
		minguid[s] = UINT64_MAX;
	}
	for (uint32_t s = 0; s < lv->nsw; s++) {
		const struct ibsmd_rt_node *n = &v->nodes[lv->sw_node[s]];
		for (unsigned p = 1; lv->rank[s] <= r && p <= n->nports; p++) {
			if (!ibsmd_is_switch(v, n->ports[p].peer))
				continue;
			uint32_t t = lv->node_sw[n->ports[p].peer];
			if (lv->rank[t] <= r)
				up[uf_find(up, s)] = uf_find(up, t);
		}
	}
	for (uint32_t i = 0; i < lv->nleaves; i++) {
		uint32_t root = uf_find(up, keys[i].sw);
		uint64_t g = v->nodes[lv->sw_node[keys[i].sw]].guid;
		if (g < minguid[root])
			minguid[root] = g;
	}
	for (uint32_t i = 0; i < lv->nleaves; i++)
		keys[i].k[key_slot(lv, r)] = minguid[uf_find(up, keys[i].sw)];
}

static int order_leaves(const struct ibsmd_rt_view *v, struct rt_levels *lv)
{
	struct leaf_key *keys = calloc(lv->nleaves + 1, sizeof(*keys));
	uint32_t *up = malloc((lv->nsw + 1) * sizeof(*up));
	uint64_t *minguid = malloc((lv->nsw + 1) * sizeof(*minguid));
	int rc = -ENOMEM;

	if (!keys || !up || !minguid)
		goto out;
	for (uint32_t i = 0; i < lv->nleaves; i++) {
		keys[i].sw = lv->leaves[i];
		keys[i].k[RT_LEVEL_KEYS] = v->nodes[lv->sw_node[lv->leaves[i]]].guid;
	}
	for (unsigned r = 1; r < lv->height; r++)
		if (key_slot(lv, r) >= 0)
			pod_keys(v, lv, r, up, minguid, keys);
	qsort(keys, lv->nleaves, sizeof(*keys), leaf_key_cmp);
	for (uint32_t i = 0; i < lv->nleaves; i++)
		lv->leaves[i] = keys[i].sw;
	rc = 0;
out:
	free(keys);
	free(up);
	free(minguid);
	return rc;
}

void rt_levels_free(struct rt_levels *lv)
{
	free(lv->rank);
	free(lv->ncas);
	free(lv->leaves);
	memset(lv, 0, sizeof(*lv));
}

static int levels_alloc(const struct ibsmd_rt_view *v, struct rt_levels *lv)
{
	memset(lv, 0, sizeof(*lv));
	lv->nsw = v->nswitches;
	lv->sw_node = v->switch_node;
	lv->node_sw = v->node_switch;
	lv->rank = malloc((lv->nsw + 1) * sizeof(*lv->rank));
	lv->ncas = calloc(lv->nsw + 1, sizeof(*lv->ncas));
	lv->leaves = malloc((lv->nsw + 1) * sizeof(*lv->leaves));
	if (!lv->rank || !lv->ncas || !lv->leaves)
		return -ENOMEM;
	for (uint32_t s = 0; s < lv->nsw; s++) {
		const struct ibsmd_rt_node *n = &v->nodes[lv->sw_node[s]];
		for (unsigned p = 1; p <= n->nports; p++) {
			uint32_t peer = n->ports[p].peer;
			lv->ncas[s] += peer != IBSMD_NO_NODE && !ibsmd_is_switch(v, peer);
		}
	}
	return 0;
}

int rt_levels_find(const struct ibsmd_rt_ctx *ctx, const char *who, struct rt_levels *lv)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint8_t *demoted = NULL;
	int rc = levels_alloc(v, lv);

	if (rc == 0 && !(demoted = calloc(lv->nsw + 1, 1)))
		rc = -ENOMEM;
	if (rc == 0)
		rc = settle_leaves(ctx, who, lv, demoted);
	if (rc == 0)
		rc = rank_switches(ctx, who, lv, demoted);
	for (uint32_t s = 0; rc == 0 && s < lv->nsw; s++)
		if (lv->rank[s] == 0)
			lv->leaves[lv->nleaves++] = s;
	if (rc == 0 && lv->nleaves == 0) {
		ctx->log(LOG_ERR, "routing: %s: no switch has a CA: nothing to route as a tree",
			 who);
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = order_leaves(v, lv);
	free(demoted);
	if (rc)
		rt_levels_free(lv);
	return rc;
}
// SPDX-License-Identifier: MIT
/*
 * rt_levels.c - the levels of a fat tree (see rt_levels.h).
 *
 * Leaves are the switches with compute nodes (CNs): every CA and router port
 * by default; with OpenSM's cn_guid_file, the CA ports it lists; with its
 * io_guid_file alone, every CA port it does not list (I/O nodes, which may
 * hang anywhere).  A switch with CAs but no CN is no leaf: its CAs are routed
 * after the leaves' (rt_ftree.c).
 *
 * Without roots, the levels come from the leaves up.  Real fabrics have
 * quirks: a node cabled into a spine makes that spine look like a leaf,
 * linked to the real leaves.  Such conflicts are settled by ranking above the
 * leaves the switch that is most spine-like (fewest CNs for its switch links),
 * one at a time, as long as those switches carry few of the CNs (a torus or
 * a mesh would need half).  Then a breadth-first search from the leaves gives
 * every switch its rank; a link between two switches of one rank means the
 * fabric is no fat tree.
 *
 * With roots (root=GUID options, OpenSM's root_guid_file: switch node GUIDs)
 * the levels come from the top down, as OpenSM ranks them: a switch's depth
 * is its hops from the nearest root; every leaf must be at the same depth,
 * the rank of a switch is that depth less its own.  A switch below the
 * leaves is an error; links within a level are left unused.  A root GUID that
 * names no switch here is logged and passed over (a spine may be away); none
 * left is an error.
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
#include "routing/rt_guids.h"

#define LV_NONE UINT32_MAX

#define RT_LEVEL_KEYS 8	/* pod levels taken into the leaf order */

static bool is_leaf(const struct rt_levels *lv, const uint8_t *demoted, uint32_t s)
{
	return lv->ncn[s] > 0 && !demoted[s];
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
		/* CN share ncn / (ncn + links): smaller is more spine-like */
		if (worst == LV_NONE ||
		    (uint64_t)lv->ncn[s] * (lv->ncn[worst] + links[worst]) <
		    (uint64_t)lv->ncn[worst] * (lv->ncn[s] + links[s]))
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
		cas += lv->ncn[s];
	}
	while ((s = worst_conflict(v, lv, demoted, links)) != LV_NONE) {
		moved += lv->ncn[s];
		if (moved * 10 > cas) {
			ctx->log(LOG_ERR, "routing: %s: not a fat tree: switches with compute "
				 "nodes are linked to each other (switch 0x%016llx, %s, among others; "
				 "root=, root_guid_file= or cn_guid_file= say which is which)", who,
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
				 lv->ncn[s]);
	return 0;
}

/*
 * Breadth first over the switch links from the @tail switches in @queue
 * (their @level 0, every other switch's RT_NORANK): each switch's hops from
 * the nearest of them into @level.  With @flat_bad, a link between two
 * switches of one level is an error (-EINVAL, logged).  Returns the highest
 * level in *@top.
 */
static int bfs_levels(const struct ibsmd_rt_ctx *ctx, const char *who,
		      const struct rt_levels *lv, uint16_t *level, uint32_t *queue, uint32_t tail, bool flat_bad,
		      uint16_t *top)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint32_t head = 0;

	*top = 0;
	while (head < tail) {
		uint32_t s = queue[head++];
		const struct ibsmd_rt_node *n = &v->nodes[lv->sw_node[s]];
		for (unsigned p = 1; p <= n->nports; p++) {
			if (!ibsmd_is_switch(v, n->ports[p].peer))
				continue;
			uint32_t t = lv->node_sw[n->ports[p].peer];
			if (level[t] == RT_NORANK) {
				level[t] = level[s] + 1;
				*top = level[t] > *top ? level[t] : *top;
				queue[tail++] = t;
			} else if (flat_bad && level[t] == level[s]) {
				ctx->log(LOG_ERR, "routing: %s: not a fat tree: switches 0x%016llx "
					 "and 0x%016llx, both at level %u, are linked", who,
					 (unsigned long long)n->guid,
					 (unsigned long long)v->nodes[n->ports[p].peer].guid, level[s]);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Breadth-first ranks from the leaves; -EINVAL on a link within a level. */
static int rank_switches(const struct ibsmd_rt_ctx *ctx, const char *who, struct rt_levels *lv,
			 const uint8_t *demoted)
{
	uint32_t *queue = malloc((lv->nsw + 1) * sizeof(*queue));
	uint32_t tail = 0;

	if (!queue)
		return -ENOMEM;
	for (uint32_t s = 0; s < lv->nsw; s++) {
		lv->rank[s] = is_leaf(lv, demoted, s) ? 0 : RT_NORANK;
		if (lv->rank[s] == 0)
			queue[tail++] = s;
	}
	int rc = bfs_levels(ctx, who, lv, lv->rank, queue, tail, true, &lv->height);
	free(queue);
	return rc;
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
	free(lv->ncn);
	free(lv->leaves);
	memset(lv, 0, sizeof(*lv));
}

/* Whether CA port @p of node @ca is a compute node, by the lists given. */
static bool is_cn(const struct ibsmd_rt_view *v, uint32_t ca, unsigned p,
		  const struct rt_guids *cns, const struct rt_guids *ios)
{
	const struct ibsmd_rt_node *n = &v->nodes[ca];

	if (!cns->given && !ios->given)
		return true;	/* every CA and router port */
	if (n->type != IBSMD_NODE_CA)
		return false;
	if (cns->given)
		return rt_guids_has(cns, n->ports[p].guid);
	return !rt_guids_has(ios, n->ports[p].guid);
}

static int levels_alloc(const struct ibsmd_rt_ctx *ctx, const char *who, struct rt_levels *lv,
			const struct rt_guids *cns, const struct rt_guids *ios)
{
	const struct ibsmd_rt_view *v = ctx->view;

	memset(lv, 0, sizeof(*lv));
	lv->nsw = v->nswitches;
	lv->sw_node = v->switch_node;
	lv->node_sw = v->node_switch;
	lv->rank = malloc((lv->nsw + 1) * sizeof(*lv->rank));
	lv->ncas = calloc(lv->nsw + 1, sizeof(*lv->ncas));
	lv->ncn = calloc(lv->nsw + 1, sizeof(*lv->ncn));
	lv->leaves = malloc((lv->nsw + 1) * sizeof(*lv->leaves));
	if (!lv->rank || !lv->ncas || !lv->ncn || !lv->leaves)
		return -ENOMEM;
	uint64_t cas = 0, cn = 0;
	for (uint32_t s = 0; s < lv->nsw; s++) {
		const struct ibsmd_rt_node *n = &v->nodes[lv->sw_node[s]];
		for (unsigned p = 1; p <= n->nports; p++) {
			uint32_t peer = n->ports[p].peer;
			if (peer == IBSMD_NO_NODE || ibsmd_is_switch(v, peer))
				continue;
			lv->ncas[s]++;
			lv->ncn[s] += is_cn(v, peer, n->ports[p].peer_port, cns, ios);
		}
		cas += lv->ncas[s];
		cn += lv->ncn[s];
	}
	if (cns->given || ios->given)
		ctx->log(LOG_INFO, "routing: %s: %llu of %llu CA ports are compute nodes "
			 "(%s)", who, (unsigned long long)cn, (unsigned long long)cas,
			 cns->given ? "cn_guid_file" : "all but io_guid_file's");
	return 0;
}

/* The depth of every switch below the roots @roots (switch node GUIDs), in
 * @depth (RT_NORANK: not reached).  -EINVAL when none is a switch here. */
static int depth_from_roots(const struct ibsmd_rt_ctx *ctx, const char *who,
			    const struct rt_levels *lv, const struct rt_guids *roots, uint16_t *depth,
			    uint32_t *queue)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint32_t tail = 0;
	uint16_t top;

	for (uint32_t s = 0; s < lv->nsw; s++) {
		depth[s] = RT_NORANK;
		if (rt_guids_has(roots, v->nodes[lv->sw_node[s]].guid)) {
			depth[s] = 0;
			queue[tail++] = s;
		}
	}
	if (tail < roots->n)
		ctx->log(LOG_WARNING, "routing: %s: %zu of the %zu roots given name no switch "
			 "of the fabric: passed over", who, roots->n - tail, roots->n);
	if (!tail) {
		ctx->log(LOG_ERR, "routing: %s: none of the roots given is a switch of the fabric",
			 who);
		return -EINVAL;
	}
	return bfs_levels(ctx, who, lv, depth, queue, tail, false, &top);
}

/* Ranks from the roots down: every leaf at one depth, nothing below it. */
static int rank_from_roots(const struct ibsmd_rt_ctx *ctx, const char *who,
			   struct rt_levels *lv, const struct rt_guids *roots)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint16_t *depth = malloc((lv->nsw + 1) * sizeof(*depth));
	uint32_t *queue = malloc((lv->nsw + 1) * sizeof(*queue));
	uint32_t leaf = LV_NONE;
	int rc = depth && queue ? depth_from_roots(ctx, who, lv, roots, depth, queue) : -ENOMEM;

	for (uint32_t s = 0; rc == 0 && s < lv->nsw; s++) {
		if (!lv->ncn[s] || depth[s] == RT_NORANK)
			continue;
		if (leaf == LV_NONE) {
			leaf = s;
		} else if (depth[s] != depth[leaf]) {
			ctx->log(LOG_ERR, "routing: %s: compute nodes on two levels below the "
				 "roots: switch 0x%016llx at %u, 0x%016llx at %u", who,
				 (unsigned long long)v->nodes[lv->sw_node[leaf]].guid, depth[leaf],
				 (unsigned long long)v->nodes[lv->sw_node[s]].guid, depth[s]);
			rc = -EINVAL;
		}
	}
	if (rc == 0 && leaf == LV_NONE) {
		ctx->log(LOG_ERR, "routing: %s: no compute node below the roots", who);
		rc = -EINVAL;
	}
	for (uint32_t s = 0; rc == 0 && s < lv->nsw; s++) {
		if (depth[s] != RT_NORANK && depth[s] > depth[leaf]) {
			ctx->log(LOG_ERR, "routing: %s: switch 0x%016llx is below the leaves "
				 "(%u hops from the roots, the leaves %u)", who,
				 (unsigned long long)v->nodes[lv->sw_node[s]].guid, depth[s],
				 depth[leaf]);
			rc = -EINVAL;
		}
		lv->rank[s] = depth[s] == RT_NORANK ? RT_NORANK : (uint16_t)(depth[leaf] - depth[s]);
	}
	if (rc == 0)
		lv->height = depth[leaf];
	free(depth);
	free(queue);
	return rc;
}

/* Ranks from the leaves up, spine-like leaves settled first. */
static int rank_from_leaves(const struct ibsmd_rt_ctx *ctx, const char *who, struct rt_levels *lv)
{
	uint8_t *demoted = calloc(lv->nsw + 1, 1);
	int rc = demoted ? settle_leaves(ctx, who, lv, demoted) : -ENOMEM;

	if (rc == 0)
		rc = rank_switches(ctx, who, lv, demoted);
	free(demoted);
	return rc;
}

int rt_levels_find(const struct ibsmd_rt_ctx *ctx, const char *who, struct rt_levels *lv)
{
	struct rt_guids roots, cns = { 0 }, ios = { 0 };
	int rc = rt_guids_from_options(ctx, who, "root", "root_guid_file", &roots);

	if (rc == 0)
		rc = rt_guids_from_options(ctx, who, NULL, "cn_guid_file", &cns);
	if (rc == 0)
		rc = rt_guids_from_options(ctx, who, NULL, "io_guid_file", &ios);
	if (rc == 0)
		rc = levels_alloc(ctx, who, lv, &cns, &ios);
	if (rc == 0)
		rc = roots.given ? rank_from_roots(ctx, who, lv, &roots)
				 : rank_from_leaves(ctx, who, lv);
	for (uint32_t s = 0; rc == 0 && s < lv->nsw; s++)
		if (lv->rank[s] == 0)
			lv->leaves[lv->nleaves++] = s;
	if (rc == 0 && lv->nleaves == 0) {
		ctx->log(LOG_ERR, "routing: %s: no switch has a compute node: nothing to route "
			 "as a tree", who);
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = order_leaves(ctx->view, lv);
	rt_guids_free(&roots);
	rt_guids_free(&cns);
	rt_guids_free(&ios);
	if (rc)
		rt_levels_free(lv);
	return rc;
}

// SPDX-License-Identifier: MIT
/*
 * rt_updn.c - up/down routing (Autonet's up* then down*), free of credit loops.
 *
 * Ranking: switches are ranked by BFS distance from a set of roots; ties are
 * broken by node GUID (then node index), which makes the ranking a total
 * order.  A hop toward a lower key is "up", toward a higher key "down".  A
 * legal route is up* then down*: it never turns from down to up, so the
 * channel dependencies all point along the total order and cannot close a
 * cycle (no credit loop, IBA 18.2.4.3 deadlock avoidance left to the SM).
 *
 * Roots: every "root=GUID" option (several allowed) names one; without any,
 * the switches farthest from the CA-bearing switches are the roots (the top
 * rank of a fat tree).  Switches the roots do not reach (another component)
 * become roots of their own.  When a detected root set leaves a connected
 * pair with no legal route (a degraded tree whose leaves reach disjoint sets
 * of spines), the whole fabric is ranked again from one root: the CA-bearing
 * switch with the most switch links.  A single-root BFS ranking always has a
 * legal route (up the BFS tree to the root, down the tree to the target).
 *
 * Routes: per destination switch D, two breadth-first passes over the
 * switch graph.  (1) The down region: switches with an all-down path to D,
 * BFS backward from D over down hops; they forward down along it, so a packet
 * that arrives going down keeps going down.  (2) Every other switch must go up
 * first: a second BFS, merged with the first in distance order, over up hops
 * into already-routed switches.  Each switch forwards to a neighbour one step
 * shorter, the least-loaded such port (as min-hop does); the LIDs of D (its
 * own and its CAs') are spread over those ports, ties going round from a
 * per-switch start.  O(switches * links) in all.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "routing/rt.h"
#include "routing/rt_guids.h"

#define UPDN_NONE UINT16_MAX

struct updn {
	const struct ibsmd_rt_ctx *ctx;
	const struct ibsmd_rt_view *v;
	uint32_t nsw;
	const uint32_t *sw_node;	/* the view's switch_node: switch number -> node */
	const uint32_t *node_sw;	/* the view's node_switch */
	/* switch-to-switch links as CSR: adj_sw/adj_port[adj_off[s] ..] */
	uint32_t *adj_off, *adj_sw;
	uint8_t *adj_port;
	uint32_t *comp;		/* connected component of each switch */
	uint32_t *key;		/* position in the (rank, GUID) order: up = lower */
	uint32_t *rank;
	bool *is_root;
	bool *cas;		/* switches with CAs (the sources of data traffic) */
	/* per destination */
	uint16_t *ddist, *dist;
	uint32_t *qdown, *qup;
	uint32_t *load_off, *load;	/* [load_off[s] + port]: LIDs routed out of it */
	uint8_t *cand;		/* scratch: candidate ports of one switch */
	uint16_t *lids;		/* scratch: the LIDs a switch delivers */
	uint8_t *lid_port;	/* and the port it delivers each on */
};

static void updn_free(struct updn *u)
{
	if (!u)
		return;
	free(u->adj_off);
	free(u->adj_sw);
	free(u->adj_port);
	free(u->comp);
	free(u->key);
	free(u->rank);
	free(u->is_root);
	free(u->cas);
	free(u->ddist);
	free(u->dist);
	free(u->qdown);
	free(u->qup);
	free(u->load_off);
	free(u->load);
	free(u->cand);
	free(u->lids);
	free(u->lid_port);
	free(u);
}

static bool is_sw_port(const struct updn *u, const struct ibsmd_rt_port *p)
{
	return p->peer != IBSMD_NO_NODE && u->node_sw[p->peer] != IBSMD_NO_NODE;
}

/* Index the switches and lay out their switch-to-switch links. */
static int updn_index(struct updn *u)
{
	const struct ibsmd_rt_view *v = u->v;
	size_t nadj = 0, nload = 0;

	u->nsw = v->nswitches;
	u->sw_node = v->switch_node;
	u->node_sw = v->node_switch;
	u->adj_off = malloc((u->nsw + 1) * sizeof(*u->adj_off));
	u->load_off = malloc((u->nsw + 1) * sizeof(*u->load_off));
	if (!u->adj_off || !u->load_off)
		return -ENOMEM;
	for (uint32_t s = 0; s < u->nsw; s++) {
		const struct ibsmd_rt_node *n = &v->nodes[u->sw_node[s]];
		u->adj_off[s] = (uint32_t)nadj;
		u->load_off[s] = (uint32_t)nload;
		nload += (size_t)n->nports + 1;
		for (unsigned p = 1; p <= n->nports; p++)
			nadj += is_sw_port(u, &n->ports[p]);
	}
	u->adj_off[u->nsw] = (uint32_t)nadj;
	u->load_off[u->nsw] = (uint32_t)nload;
	u->adj_sw = malloc((nadj + 1) * sizeof(*u->adj_sw));
	u->adj_port = malloc(nadj + 1);
	u->load = calloc(nload + 1, sizeof(*u->load));
	u->cand = malloc(256);
	u->lids = malloc(256 * 128 * sizeof(*u->lids));
	u->lid_port = malloc(256 * 128);
	if (!u->adj_sw || !u->adj_port || !u->load || !u->cand || !u->lids || !u->lid_port)
		return -ENOMEM;
	for (uint32_t s = 0, i = 0; s < u->nsw; s++) {
		const struct ibsmd_rt_node *n = &v->nodes[u->sw_node[s]];
		for (unsigned p = 1; p <= n->nports; p++) {
			if (!is_sw_port(u, &n->ports[p]))
				continue;
			u->adj_sw[i] = u->node_sw[n->ports[p].peer];
			u->adj_port[i++] = (uint8_t)p;
		}
	}
	return 0;
}

static bool has_cas(const struct updn *u, uint32_t s)
{
	const struct ibsmd_rt_node *n = &u->v->nodes[u->sw_node[s]];

	for (unsigned p = 1; p <= n->nports; p++)
		if (n->ports[p].peer != IBSMD_NO_NODE && !is_sw_port(u, &n->ports[p]))
			return true;
	return false;
}

static struct updn *updn_new(const struct ibsmd_rt_ctx *ctx)
{
	struct updn *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->ctx = ctx;
	u->v = ctx->view;
	if (updn_index(u) == 0) {
		size_t n = (size_t)u->nsw + 1;
		u->comp = malloc(n * sizeof(*u->comp));
		u->key = malloc(n * sizeof(*u->key));
		u->rank = malloc(n * sizeof(*u->rank));
		u->is_root = calloc(n, sizeof(*u->is_root));
		u->cas = calloc(n, sizeof(*u->cas));
		u->ddist = malloc(n * sizeof(*u->ddist));
		u->dist = malloc(n * sizeof(*u->dist));
		u->qdown = malloc(n * sizeof(*u->qdown));
		u->qup = malloc(n * sizeof(*u->qup));
		if (u->comp && u->key && u->rank && u->is_root && u->cas && u->ddist &&
		    u->dist && u->qdown && u->qup) {
			for (uint32_t s = 0; s < u->nsw; s++)
				u->cas[s] = has_cas(u, s);
			return u;
		}
	}
	updn_free(u);
	return NULL;
}

/*
 * BFS over the switch graph from the switches with @mark set (distance 0) into
 * @d (UINT32_MAX: not reached).  With @cover, a switch left unreached starts a
 * new BFS of its own (and is marked), so every switch ends up with a distance.
 */
static void updn_bfs(struct updn *u, bool *mark, uint32_t *d, bool cover)
{
	uint32_t *q = u->qup, head = 0, tail = 0;

	for (uint32_t s = 0; s < u->nsw; s++) {
		d[s] = mark[s] ? 0 : UINT32_MAX;
		if (mark[s])
			q[tail++] = s;
	}
	for (uint32_t next = 0;;) {
		while (head < tail) {
			uint32_t s = q[head++];
			for (uint32_t i = u->adj_off[s]; i < u->adj_off[s + 1]; i++)
				if (d[u->adj_sw[i]] == UINT32_MAX) {
					d[u->adj_sw[i]] = d[s] + 1;
					q[tail++] = u->adj_sw[i];
				}
		}
		while (cover && next < u->nsw && d[next] != UINT32_MAX)
			next++;
		if (!cover || next >= u->nsw)
			return;
		mark[next] = true;
		d[next] = 0;
		q[tail++] = next;
	}
}

/* Label the connected components of the switch graph. */
static void updn_components(struct updn *u)
{
	uint32_t *q = u->qup;

	for (uint32_t s = 0; s < u->nsw; s++)
		u->comp[s] = UINT32_MAX;
	for (uint32_t c = 0; c < u->nsw; c++) {
		uint32_t head = 0, tail = 0;
		if (u->comp[c] != UINT32_MAX)
			continue;
		u->comp[c] = c;
		q[tail++] = c;
		while (head < tail) {
			uint32_t s = q[head++];
			for (uint32_t i = u->adj_off[s]; i < u->adj_off[s + 1]; i++)
				if (u->comp[u->adj_sw[i]] == UINT32_MAX) {
					u->comp[u->adj_sw[i]] = c;
					q[tail++] = u->adj_sw[i];
				}
		}
	}
}

/* Roots from the "root=GUID" and "root_guid_file=PATH" options (OpenSM's
 * file of switch node GUIDs): a GUID that is no switch here is logged and
 * passed over.  0, or -EINVAL for a bad option or when roots were given but
 * none is a switch here.  Other options belong to other engines. */
static int roots_from_options(struct updn *u, unsigned *nroots)
{
	const struct ibsmd_rt_ctx *ctx = u->ctx;
	struct rt_guids roots;
	int rc = rt_guids_from_options(ctx, "updn", "root", "root_guid_file", &roots);

	*nroots = 0;
	for (uint32_t t = 0; rc == 0 && t < u->nsw; t++)
		if (rt_guids_has(&roots, u->v->nodes[u->sw_node[t]].guid)) {
			u->is_root[t] = true;
			(*nroots)++;
		}
	if (rc == 0 && *nroots < roots.n)
		ctx->log(*nroots ? LOG_WARNING : LOG_ERR, "routing: updn: %zu of the %zu roots "
			 "given name no switch of the fabric%s", roots.n - *nroots, roots.n,
			 *nroots ? ": passed over" : "");
	if (rc == 0 && roots.given && !*nroots)
		rc = -EINVAL;
	rt_guids_free(&roots);
	return rc;
}

/* The switches farthest from any CA-bearing switch (the top of a tree). */
static unsigned roots_detect(struct updn *u)
{
	uint32_t top = 0;
	unsigned n = 0;

	updn_bfs(u, u->cas, u->rank, false);
	for (uint32_t s = 0; s < u->nsw; s++)
		if (u->rank[s] != UINT32_MAX && u->rank[s] > top)
			top = u->rank[s];
	for (uint32_t s = 0; s < u->nsw; s++) {
		u->is_root[s] = top > 0 && u->rank[s] == top;
		n += u->is_root[s];
	}
	return n;
}

/* One root: the CA-bearing switch with the most switch links (lowest GUID on
 * ties), or switch 0 when no switch has CAs. */
static uint32_t root_single(const struct updn *u)
{
	uint32_t best = 0, best_deg = 0;
	bool best_cas = false;

	for (uint32_t s = 0; s < u->nsw; s++) {
		uint32_t deg = u->adj_off[s + 1] - u->adj_off[s];
		bool cas = u->cas[s];
		if (cas < best_cas)
			continue;
		if (cas == best_cas && (deg < best_deg || (deg == best_deg &&
		    u->v->nodes[u->sw_node[s]].guid >= u->v->nodes[u->sw_node[best]].guid)))
			continue;
		best = s;
		best_deg = deg;
		best_cas = cas;
	}
	return best;
}

struct rank_key {
	uint32_t rank;
	uint32_t sw;
	uint64_t guid;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct rank_key *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->sw < y->sw ? -1 : x->sw > y->sw;
}

/* Rank from the roots marked in is_root; key[] becomes the total order. */
static int updn_rank(struct updn *u)
{
	struct rank_key *order = malloc(((size_t)u->nsw + 1) * sizeof(*order));

	if (!order)
		return -ENOMEM;
	updn_bfs(u, u->is_root, u->rank, true);
	for (uint32_t s = 0; s < u->nsw; s++)
		order[s] = (struct rank_key){ .rank = u->rank[s], .sw = s,
					      .guid = u->v->nodes[u->sw_node[s]].guid };
	qsort(order, u->nsw, sizeof(*order), cmp_rank);
	for (uint32_t i = 0; i < u->nsw; i++)
		u->key[order[i].sw] = i;
	free(order);
	return 0;
}

/*
 * Distances to destination switch @d over legal routes: ddist[] over all-down
 * paths (the down region), dist[] for every switch (the down region keeps its
 * down distance; the others go up first).  The two queues stay sorted by
 * distance, so popping the nearer head visits switches in distance order.
 */
static void updn_distances(struct updn *u, uint32_t d)
{
	uint32_t dh = 0, dt = 0, uh = 0, ut = 0;

	for (uint32_t s = 0; s < u->nsw; s++)
		u->ddist[s] = u->dist[s] = UPDN_NONE;
	u->ddist[d] = u->dist[d] = 0;
	u->qdown[dt++] = d;
	while (dh < dt) {	/* backward over down hops s -> t: key[s] < key[t] */
		uint32_t t = u->qdown[dh++];
		for (uint32_t i = u->adj_off[t]; i < u->adj_off[t + 1]; i++) {
			uint32_t s = u->adj_sw[i];
			if (u->key[s] < u->key[t] && u->ddist[s] == UPDN_NONE) {
				u->ddist[s] = u->dist[s] = (uint16_t)(u->ddist[t] + 1);
				u->qdown[dt++] = s;
			}
		}
	}
	dh = 0;
	while (dh < dt || uh < ut) {	/* backward over up hops s -> t: key[s] > key[t] */
		uint32_t t;
		if (uh == ut || (dh < dt && u->dist[u->qdown[dh]] <= u->dist[u->qup[uh]]))
			t = u->qdown[dh++];
		else
			t = u->qup[uh++];
		for (uint32_t i = u->adj_off[t]; i < u->adj_off[t + 1]; i++) {
			uint32_t s = u->adj_sw[i];
			if (u->key[s] > u->key[t] && u->dist[s] == UPDN_NONE) {
				u->dist[s] = (uint16_t)(u->dist[t] + 1);
				u->qup[ut++] = s;
			}
		}
	}
}

/* The ports of switch @s one legal step closer to the destination, in cand[]. */
static unsigned updn_candidates(struct updn *u, uint32_t s)
{
	bool down = u->ddist[s] != UPDN_NONE;
	unsigned n = 0;

	for (uint32_t i = u->adj_off[s]; i < u->adj_off[s + 1]; i++) {
		uint32_t t = u->adj_sw[i];
		if (down ? u->key[t] > u->key[s] && u->ddist[t] + 1 == u->ddist[s]
			 : u->key[t] < u->key[s] && u->dist[t] + 1 == u->dist[s])
			u->cand[n++] = u->adj_port[i];
	}
	return n;
}

/* The LIDs switch @d delivers (its own, its CAs') into lids[]/lid_port[]. */
static unsigned updn_dest_lids(struct updn *u, uint32_t d)
{
	const struct ibsmd_rt_view *v = u->v;
	const struct ibsmd_rt_node *n = &v->nodes[u->sw_node[d]];
	unsigned k = 0;

	for (unsigned p = 0; p <= n->nports; p++) {
		const struct ibsmd_rt_port *lp = &n->ports[0];
		if (p > 0) {
			if (n->ports[p].peer == IBSMD_NO_NODE || is_sw_port(u, &n->ports[p]))
				continue;
			lp = &v->nodes[n->ports[p].peer].ports[n->ports[p].peer_port];
		}
		for (unsigned l = 0; lp->lid && l < (1u << (lp->lmc & 7)); l++) {
			u->lids[k] = (uint16_t)(lp->lid + l);
			u->lid_port[k++] = (uint8_t)p;
		}
	}
	return k;
}

/*
 * Give each of the @nlids LIDs in lids[] the least-loaded of the @nc ports in
 * cand[] at switch @node, counting it in @load.  Done a level at a time: every
 * port at the lowest load takes the next LID in turn, starting from cand[@first]
 * (callers vary it per switch, so that switches placed alike in a symmetric
 * fabric do not all send one destination up the same way).
 */
static void updn_spread(struct updn *u, uint32_t node, uint32_t *load, unsigned nc,
			unsigned nlids, unsigned first)
{
	uint32_t level = UINT32_MAX;
	unsigned k = 0;

	assert(nc > 0);	/* a switch with a distance has a neighbour one closer */
	for (unsigned c = 0; c < nc; c++)
		level = load[u->cand[c]] < level ? load[u->cand[c]] : level;
	while (k < nlids) {
		uint32_t next = UINT32_MAX;
		for (unsigned i = 0, c = first; i < nc && k < nlids; i++) {
			uint8_t p = u->cand[c];
			c = c + 1 < nc ? c + 1 : 0;
			if (load[p] <= level) {
				ibsmd_lft_set(u->ctx, node, u->lids[k++], p);
				load[p]++;
			}
			next = load[p] < next ? load[p] : next;
		}
		level = next;
	}
}

/*
 * Switches without CAs that have no legal route to switch @d (two roots of a
 * multi-rooted tree) still need one to its LIDs: LID-routed management
 * traffic to a switch LID is checked from every switch (rt_validate.c).  They
 * take a shortest path of any direction into the switches that do route to
 * @d, breadth first from those.  No legal route passes through a stranded
 * switch (a legal route's tail is legal), so CA traffic never takes these
 * entries and the order up*-then-down* keeps holding for it.
 */
static void updn_route_stranded(struct updn *u, uint32_t d, unsigned nlids)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t s = 0; s < u->nsw; s++)
		if (u->dist[s] != UPDN_NONE)
			u->qup[tail++] = s;
	while (head < tail) {
		uint32_t t = u->qup[head++];
		for (uint32_t i = u->adj_off[t]; i < u->adj_off[t + 1]; i++) {
			uint32_t s = u->adj_sw[i];
			if (u->dist[s] != UPDN_NONE || u->comp[s] != u->comp[d])
				continue;
			u->dist[s] = (uint16_t)(u->dist[t] + 1);
			u->qup[tail++] = s;
			uint8_t port = UINT8_MAX;	/* s's port to t: t's entry gives it */
			for (uint32_t j = u->adj_off[s]; j < u->adj_off[s + 1]; j++)
				if (u->adj_sw[j] == t && u->adj_port[j] < port)
					port = u->adj_port[j];
			for (unsigned k = 0; k < nlids; k++)
				ibsmd_lft_set(u->ctx, u->sw_node[s], u->lids[k], port);
		}
	}
}

/*
 * Route the LIDs of destination switch @d everywhere.  Returns false when a
 * switch with CAs, connected to @d, has no legal route to it under this
 * ranking.  Switches without CAs that have none get one through
 * updn_route_stranded().
 */
static bool updn_route_dest(struct updn *u, uint32_t d)
{
	unsigned nlids = updn_dest_lids(u, d), stranded = 0;

	if (!nlids)
		return true;
	updn_distances(u, d);
	for (uint32_t s = 0; s < u->nsw; s++) {
		uint32_t *load = &u->load[u->load_off[s]];
		uint32_t node = u->sw_node[s];
		if (s == d) {
			for (unsigned k = 0; k < nlids; k++)
				ibsmd_lft_set(u->ctx, node, u->lids[k], u->lid_port[k]);
			continue;
		}
		if (u->dist[s] == UPDN_NONE) {
			if (u->comp[s] != u->comp[d])
				continue;
			if (u->cas[s])
				return false;
			stranded++;
			continue;
		}
		unsigned nc = updn_candidates(u, s);
		updn_spread(u, node, load, nc, nlids, nc ? s % nc : 0);
	}
	if (stranded)
		updn_route_stranded(u, d, nlids);
	return true;
}

static void updn_reset(struct updn *u)
{
	const struct ibsmd_rt_ctx *ctx = u->ctx;

	memset(u->load, 0, (size_t)u->load_off[u->nsw] * sizeof(*u->load));
	for (uint32_t s = 0; s < u->nsw; s++)
		memset(ctx->lft[u->sw_node[s]], IBSMD_NO_PORT, (size_t)u->v->max_lid + 1);
}

static void log_roots(const struct updn *u, const char *how)
{
	char list[256] = "";
	unsigned n = 0;
	size_t len = 0;

	for (uint32_t s = 0; s < u->nsw; s++) {
		if (!u->is_root[s] || u->rank[s] != 0)
			continue;
		if (n++ < 4 && len < sizeof(list) - 20)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s0x%016" PRIx64,
						n > 1 ? " " : "", u->v->nodes[u->sw_node[s]].guid);
	}
	u->ctx->log(LOG_INFO, "routing: updn: %u root%s (%s): %s%s", n, n == 1 ? "" : "s", how,
		    list, n > 4 ? " ..." : "");
}

/* Rank from the marked roots and route everything: 0, -EAGAIN when a pair
 * has no legal route under this ranking, or -ENOMEM. */
static int updn_run(struct updn *u, const char *how)
{
	int rc = updn_rank(u);

	if (rc)
		return rc;
	log_roots(u, how);
	for (uint32_t d = 0; d < u->nsw; d++)
		if (!updn_route_dest(u, d))
			return -EAGAIN;
	return 0;
}

static int updn_compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	struct updn *u = updn_new(ctx);
	unsigned nroots;
	int rc;

	(void)state;
	if (!u)
		return -ENOMEM;
	rc = roots_from_options(u, &nroots);
	if (rc || !u->nsw)
		goto out;
	const char *how = nroots ? "configured" : "detected";
	if (!nroots && !(nroots = roots_detect(u))) {
		u->is_root[root_single(u)] = true;
		how = "single";
	}
	updn_components(u);
	rc = updn_run(u, how);
	if (rc == -EAGAIN) {
		ctx->log(LOG_NOTICE, "routing: updn: the %s roots leave switches without an "
			 "up-then-down route; ranking again from one root", how);
		memset(u->is_root, 0, u->nsw * sizeof(*u->is_root));
		u->is_root[root_single(u)] = true;
		updn_reset(u);
		rc = updn_run(u, "fallback");
		if (rc == -EAGAIN)	/* cannot happen on a single-root BFS ranking */
			rc = -EHOSTUNREACH;
	}
out:
	updn_free(u);
	return rc;
}

IBSMD_ROUTING_ENGINE(updn) = {
	.name = "updn",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.description = "up*/down* routing: shortest legal paths, no credit loops; "
		       "options root=GUID (several allowed) or root_guid_file=PATH (OpenSM's); "
		       "default: detected",
	.compute_unicast = updn_compute,
	.deadlock_free = true,
};

// SPDX-License-Identifier: MIT
/*
 * rt_dfsssp.c - globally balanced shortest paths on virtual layers: deadlock
 * free on any topology (the name operators know from OpenSM's DFSSSP; the
 * algorithm here is our own).
 *
 * Paths: one Dijkstra search per destination LID over the switch graph, from
 * the destination's switch backward.  A link costs DF_HOP (so the paths are
 * shortest in hops first) plus the routes already placed on it (so among
 * equally short paths the one over the least-used links wins, fabric wide,
 * not just at the next hop as min-hop does); after each LID the routes its
 * tree really carries (the CAs behind each switch, gathered from the leaves
 * of the tree inward) are added to the links.  A second pass takes each
 * LID's routes off again and routes it anew, now seeing the load of every
 * other LID, not just of those before it (torus 4x4x4: EBB 0.483 -> 0.490,
 * dragonfly 0.548 -> 0.557).  With LMC > 0 the LIDs of one port also pay
 * DF_SIBLING per link an earlier LID of that port crosses, so they take paths
 * as disjoint as the shortest paths allow before any load counts.  Switch
 * LIDs (management traffic) get the same shortest paths but add no load.
 *
 * Layers: if the channel dependency graph of all CA -> CA routes has no
 * cycle (rt_cdg_check() on SL 0; every fat tree), one layer (SL 0) carries
 * everything.  Otherwise each (source switch, destination LID) path goes on
 * the lowest layer where its dependencies close no cycle (first fit, checked
 * by a search from each new dependency's head for its tail; fewer layers than
 * breaking each cycle at its least-used dependency: 5 instead of 8 on the
 * torus 4x4x4).  A layer is an SL; the SM maps SL n to VL n (sm_sl2vl.c), so
 * the layers may use at most the data VLs of the links: option "vls=N"
 * (1..15, default 8: VL0-7, what switches commonly report in PortInfo VLCap;
 * the routing view carries no VL counts).  When some path fits on none, the
 * layering is done again on one layer fewer, and every LID with a path that
 * fits nowhere is routed up*-down* instead (the updn engine's tables, which
 * have no cycle by construction), all of its paths on the last layer, which
 * holds nothing else: escape paths rather than failure.  The log says how
 * many layers were used and why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "routing/rt.h"

#define DF_NONE UINT32_MAX
#define DF_HOP ((uint64_t)1 << 52)	/* above any sum of loads and sibling costs */
#define DF_SIBLING ((uint64_t)1 << 42)	/* above any sum of (loads << 8) on a path */
#define DF_PASSES 2			/* the second sees every other LID's load */
#define DF_MAX_LAYERS 15		/* data VLs: VL0-14 */
#define DF_DEFAULT_VLS 8

struct df_path {
	uint32_t chan;		/* first channel (a switch-to-switch edge) in chans[] */
	uint32_t len;		/* channels */
	uint32_t src;		/* source index */
	uint16_t lid;
	uint8_t layer;
};

struct dfsssp {
	const struct ibsmd_rt_ctx *ctx;
	const struct ibsmd_rt_view *v;
	uint32_t nsw, nedges;
	uint32_t *sw_node, *node_sw;
	/* switch-to-switch edges, CSR: edges adj_off[s] .. adj_off[s+1]-1 leave s */
	uint32_t *adj_off, *e_to, *e_from, *e_rev;
	uint8_t *e_port;
	uint32_t *hosts;	/* per switch: CA ports with a LID (route sources) */
	/* per LMC offset and edge: CA routes toward LIDs of that offset placed on
	 * it (each offset is balanced on its own, as LMC 0 would be) */
	uint64_t *load, *cur_load;	/* cur_load: of the offset at hand */
	unsigned nclass;	/* 2^(the highest LMC of a CA port) */
	unsigned cls;		/* the LMC offset at hand */
	uint32_t *sib, *sib_tag;	/* per edge: earlier LIDs of the port crossing it */
	/* one search */
	uint64_t *dist, *acc;
	uint32_t *via;		/* per switch: the edge toward the destination */
	uint32_t *heap, *heap_pos, *order, norder;
	/* dependencies: dep_off[e] + position of e2 in e's head's edges */
	uint32_t *dep_off, ndeps;
	/* layers */
	unsigned budget, nlayers;
	uint32_t nsrc, *src_idx;	/* per switch with hosts, else DF_NONE */
	uint8_t *layer;		/* [src * (max_lid + 1) + lid]; NULL: all on 0 */
	uint32_t escaped;	/* LIDs on escape paths */
};

static void df_free(struct dfsssp *d)
{
	if (!d)
		return;
	free(d->sw_node);
	free(d->node_sw);
	free(d->adj_off);
	free(d->e_to);
	free(d->e_from);
	free(d->e_rev);
	free(d->e_port);
	free(d->hosts);
	free(d->load);
	free(d->sib);
	free(d->sib_tag);
	free(d->dist);
	free(d->acc);
	free(d->via);
	free(d->heap);
	free(d->heap_pos);
	free(d->order);
	free(d->dep_off);
	free(d->src_idx);
	free(d->layer);
	free(d);
}

static bool df_sw_port(const struct dfsssp *d, const struct ibsmd_rt_port *p)
{
	return p->peer < d->v->nnodes && d->node_sw[p->peer] != DF_NONE;
}

/* The CA (or router) port behind port @p of switch node @n, or NULL. */
static const struct ibsmd_rt_port *df_ca_port(const struct dfsssp *d, uint32_t n, unsigned p)
{
	const struct ibsmd_rt_port *sp = &d->v->nodes[n].ports[p];

	if (sp->peer >= d->v->nnodes || df_sw_port(d, sp) ||
	    sp->peer_port > d->v->nodes[sp->peer].nports)
		return NULL;
	return &d->v->nodes[sp->peer].ports[sp->peer_port];
}

/* Switches, edges (with their reverses), hosts per switch, dependency slots. */
static int df_index(struct dfsssp *d)
{
	const struct ibsmd_rt_view *v = d->v;
	size_t n = (size_t)v->nnodes + 1;

	d->node_sw = malloc(n * sizeof(*d->node_sw));
	d->sw_node = malloc(n * sizeof(*d->sw_node));
	if (!d->node_sw || !d->sw_node)
		return -ENOMEM;
	for (uint32_t i = 0; i < v->nnodes; i++) {
		d->node_sw[i] = DF_NONE;
		if (ibsmd_is_switch(v, i))
			d->sw_node[d->node_sw[i] = d->nsw++] = i;
	}
	n = (size_t)d->nsw + 1;
	d->adj_off = calloc(n, sizeof(*d->adj_off));
	d->hosts = calloc(n, sizeof(*d->hosts));
	d->src_idx = malloc(n * sizeof(*d->src_idx));
	if (!d->adj_off || !d->hosts || !d->src_idx)
		return -ENOMEM;
	for (uint32_t s = 0; s < d->nsw; s++) {
		const struct ibsmd_rt_node *nd = &v->nodes[d->sw_node[s]];
		d->adj_off[s] = d->nedges;
		for (unsigned p = 1; p <= nd->nports; p++) {
			const struct ibsmd_rt_port *ca = df_ca_port(d, d->sw_node[s], p);
			d->nedges += df_sw_port(d, &nd->ports[p]);
			d->hosts[s] += ca && ca->lid;
		}
		d->src_idx[s] = d->hosts[s] ? d->nsrc++ : DF_NONE;
	}
	d->adj_off[d->nsw] = d->nedges;
	n = (size_t)d->nedges + 1;
	d->e_to = malloc(n * sizeof(*d->e_to));
	d->e_from = malloc(n * sizeof(*d->e_from));
	d->e_rev = malloc(n * sizeof(*d->e_rev));
	d->e_port = malloc(n);
	for (uint32_t i = 0; i < v->nnodes; i++)
		for (unsigned p = 1; !ibsmd_is_switch(v, i) && p <= v->nodes[i].nports; p++)
			if (v->nodes[i].ports[p].lid && (1u << (v->nodes[i].ports[p].lmc & 7)) > d->nclass)
				d->nclass = 1u << (v->nodes[i].ports[p].lmc & 7);
	d->nclass += !d->nclass;
	d->load = calloc(n * d->nclass, sizeof(*d->load));
	d->cur_load = d->load;
	d->sib = calloc(n, sizeof(*d->sib));
	d->sib_tag = calloc(n, sizeof(*d->sib_tag));
	d->dep_off = malloc(n * sizeof(*d->dep_off));
	if (!d->e_to || !d->e_from || !d->e_rev || !d->e_port || !d->load || !d->sib || !d->sib_tag ||
	    !d->dep_off)
		return -ENOMEM;
	for (uint32_t s = 0, e = 0; s < d->nsw; s++) {
		const struct ibsmd_rt_node *nd = &v->nodes[d->sw_node[s]];
		for (unsigned p = 1; p <= nd->nports; p++) {
			if (!df_sw_port(d, &nd->ports[p]))
				continue;
			d->e_from[e] = s;
			d->e_to[e] = d->node_sw[nd->ports[p].peer];
			d->e_port[e++] = (uint8_t)p;
		}
	}
	/* the reverse of s -> t (port p) is the edge of t whose port leads to s's p */
	for (uint32_t s = 0; s < d->nsw; s++)
		for (uint32_t e = d->adj_off[s]; e < d->adj_off[s + 1]; e++) {
			const struct ibsmd_rt_port *sp = &v->nodes[d->sw_node[s]].ports[d->e_port[e]];
			uint32_t t = d->e_to[e];
			d->e_rev[e] = DF_NONE;
			for (uint32_t r = d->adj_off[t]; r < d->adj_off[t + 1]; r++)
				if (d->e_port[r] == sp->peer_port && d->e_to[r] == s)
					d->e_rev[e] = r;
		}
	uint64_t ndeps = 0;
	for (uint32_t e = 0; e < d->nedges; e++) {
		d->dep_off[e] = (uint32_t)ndeps;
		ndeps += d->adj_off[d->e_to[e] + 1] - d->adj_off[d->e_to[e]];
	}
	if (ndeps >= UINT32_MAX)
		return -E2BIG;
	d->ndeps = (uint32_t)ndeps;
	return 0;
}

static int df_budget(struct dfsssp *d)
{
	const struct ibsmd_rt_ctx *ctx = d->ctx;

	d->budget = DF_DEFAULT_VLS;
	for (unsigned i = 0; ctx->options && i < ctx->noptions; i++) {
		const char *o = ctx->options[i];
		char *end;
		if (strncmp(o, "vls=", 4) != 0)
			continue;
		unsigned long n = strtoul(o + 4, &end, 10);
		if (!o[4] || *end || n < 1 || n > DF_MAX_LAYERS) {
			ctx->log(LOG_ERR, "routing: dfsssp: option '%s': want vls=1..%u", o,
				 DF_MAX_LAYERS);
			return -EINVAL;
		}
		d->budget = (unsigned)n;
	}
	return 0;
}

static struct dfsssp *df_new(const struct ibsmd_rt_ctx *ctx, int *rc)
{
	struct dfsssp *d = calloc(1, sizeof(*d));

	*rc = -ENOMEM;
	if (!d)
		return NULL;
	d->ctx = ctx;
	d->v = ctx->view;
	if ((*rc = df_index(d)) == 0 && (*rc = df_budget(d)) == 0) {
		size_t n = (size_t)d->nsw + 1;
		d->dist = malloc(n * sizeof(*d->dist));
		d->acc = malloc(n * sizeof(*d->acc));
		d->via = malloc(n * sizeof(*d->via));
		d->heap = malloc(n * sizeof(*d->heap));
		d->heap_pos = malloc(n * sizeof(*d->heap_pos));
		d->order = malloc(n * sizeof(*d->order));
		*rc = d->dist && d->acc && d->via && d->heap && d->heap_pos && d->order ? 0
											: -ENOMEM;
	}
	if (*rc == 0)
		return d;
	df_free(d);
	return NULL;
}

/* ---- paths ---------------------------------------------------------------- */

static void heap_up(struct dfsssp *d, uint32_t i)
{
	uint32_t s = d->heap[i];

	while (i > 0) {
		uint32_t parent = (i - 1) / 2, ps = d->heap[parent];
		if (d->dist[ps] <= d->dist[s])
			break;
		d->heap[i] = ps;
		d->heap_pos[ps] = i;
		i = parent;
	}
	d->heap[i] = s;
	d->heap_pos[s] = i;
}

static uint32_t heap_pop(struct dfsssp *d, uint32_t *n)
{
	uint32_t top = d->heap[0], s = d->heap[--*n], i = 0;

	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && d->dist[d->heap[c + 1]] < d->dist[d->heap[c]])
			c++;
		if (d->dist[d->heap[c]] >= d->dist[s])
			break;
		d->heap[i] = d->heap[c];
		d->heap_pos[d->heap[i]] = i;
		i = c;
	}
	d->heap[i] = s;
	d->heap_pos[s] = i;
	d->heap_pos[top] = DF_NONE;
	return top;
}

/* What crossing edge @e costs for the LID of port @tag (0: no siblings):
 * DF_HOP, then sibling LIDs on it, then its load; ties go to the edge whose
 * place among its switch's edges, rotated by the LMC offset, comes first, so
 * that on a symmetric fabric each offset's routes are a rotated copy of
 * offset 0's: as balanced, and leaving each switch on another link. */
static uint64_t df_cost(const struct dfsssp *d, uint32_t e, uint32_t tag)
{
	uint32_t from = d->e_from[e], deg = d->adj_off[from + 1] - d->adj_off[from];
	uint64_t c = DF_HOP + (d->cur_load[e] << 8) + (e - d->adj_off[from] + d->cls) % deg;

	if (tag && d->sib_tag[e] == tag)
		c += DF_SIBLING * d->sib[e];
	return c;
}

/* Dijkstra toward switch @dst: dist[], via[] (each switch's edge toward it),
 * order[] (switches by distance, norder of them). */
static void df_search(struct dfsssp *d, uint32_t dst, uint32_t tag)
{
	uint32_t nheap = 0;

	for (uint32_t s = 0; s < d->nsw; s++) {
		d->dist[s] = UINT64_MAX;
		d->via[s] = DF_NONE;
		d->heap_pos[s] = DF_NONE;
	}
	d->norder = 0;
	d->dist[dst] = 0;
	d->heap[nheap++] = dst;
	d->heap_pos[dst] = 0;
	while (nheap) {
		uint32_t u = heap_pop(d, &nheap);
		d->order[d->norder++] = u;
		for (uint32_t e = d->adj_off[u]; e < d->adj_off[u + 1]; e++) {
			uint32_t t = d->e_to[e], r = d->e_rev[e];
			if (r == DF_NONE)
				continue;
			uint64_t c = d->dist[u] + df_cost(d, r, tag);
			if (c >= d->dist[t])
				continue;
			d->dist[t] = c;
			d->via[t] = r;
			if (d->heap_pos[t] == DF_NONE) {
				d->heap[nheap] = t;
				d->heap_pos[t] = nheap++;
			}
			heap_up(d, d->heap_pos[t]);
		}
	}
}

/* Program @lid along the last search (delivered on @port of @dst); with
 * @count, add the CA routes toward it to the links they cross, and with a
 * @tag mark the links for the port's next LIDs. */
static void df_place(struct dfsssp *d, uint32_t dst, uint16_t lid, uint8_t port, bool count,
		     uint32_t tag)
{
	for (uint32_t i = 0; i < d->norder; i++) {
		uint32_t s = d->order[i];
		d->acc[s] = d->hosts[s];
		ibsmd_lft_set(d->ctx, d->sw_node[s], lid,
			      s == dst ? port : d->e_port[d->via[s]]);
	}
	for (uint32_t i = d->norder; count && i-- > 1;) {
		uint32_t s = d->order[i], e = d->via[s];
		if (!d->acc[s])
			continue;
		d->cur_load[e] += d->acc[s];
		d->acc[d->e_to[e]] += d->acc[s];
		if (!tag)
			continue;
		if (d->sib_tag[e] != tag) {
			d->sib_tag[e] = tag;
			d->sib[e] = 0;
		}
		d->sib[e]++;
	}
}

static uint32_t df_next_edge(const struct dfsssp *d, uint32_t s, uint16_t lid);

/* Take the CA routes toward @lid (delivered at switch @dst) off the links. */
static void df_unplace(struct dfsssp *d, uint32_t dst, uint16_t lid)
{
	for (uint32_t s = 0; s < d->nsw; s++) {
		uint32_t at = s, e;
		for (uint32_t hops = 0; d->hosts[s] && at != dst && hops < d->nsw &&
		     (e = df_next_edge(d, at, lid)) != DF_NONE; hops++) {
			d->cur_load[e] -= d->hosts[s];
			at = d->e_to[e];
		}
	}
}

/* Route the LIDs of CA port @ca on port @p of switch @dst; @again: they are
 * routed already, and their loads come off first. */
static void df_route_port(struct dfsssp *d, uint32_t dst, unsigned p,
			  const struct ibsmd_rt_port *ca, uint32_t *tag, bool again)
{
	unsigned nlids = 1u << (ca->lmc & 7);

	*tag += nlids > 1;
	for (unsigned l = 0; again && l < nlids; l++) {
		d->cur_load = &d->load[(size_t)l * d->nedges];
		df_unplace(d, dst, (uint16_t)(ca->lid + l));
	}
	for (unsigned l = 0; l < nlids; l++) {
		d->cur_load = &d->load[(size_t)l * d->nedges];
		d->cls = l;
		df_search(d, dst, nlids > 1 ? *tag : 0);
		df_place(d, dst, (uint16_t)(ca->lid + l), (uint8_t)p, true, nlids > 1 ? *tag : 0);
	}
}

static void df_route_all(struct dfsssp *d)
{
	const struct ibsmd_rt_view *v = d->v;
	uint32_t tag = 0;
	for (unsigned pass = 0; pass < DF_PASSES; pass++)
		for (uint32_t dst = 0; dst < d->nsw; dst++) {
			uint32_t n = d->sw_node[dst];
			for (unsigned p = 1; p <= v->nodes[n].nports; p++) {
				const struct ibsmd_rt_port *ca = df_ca_port(d, n, p);
				if (ca && ca->lid)
					df_route_port(d, dst, p, ca, &tag, pass > 0);
			}
		}
	/* the switches' own LIDs: shortest paths, no load */
	d->cur_load = d->load;
	d->cls = 0;
	for (uint32_t dst = 0; dst < d->nsw; dst++) {
		const struct ibsmd_rt_port *p0 = &v->nodes[d->sw_node[dst]].ports[0];
		if (!p0->lid)
			continue;
		df_search(d, dst, 0);
		for (unsigned l = 0; l < (1u << (p0->lmc & 7)); l++)
			df_place(d, dst, (uint16_t)(p0->lid + l), 0, false, 0);
	}
}

/* ---- channel dependencies and their cycles ----------------------------------- */

/* Is @lid a CA (or router) LID?  Those are the routes that need buffers. */
static bool df_ca_lid(const struct dfsssp *d, uint32_t lid)
{
	uint32_t n = d->v->lid_node[lid];

	return n < d->v->nnodes && !ibsmd_is_switch(d->v, n);
}

/* The switch edge switch @s forwards @lid on, or DF_NONE (delivered, lost). */
static uint32_t df_next_edge(const struct dfsssp *d, uint32_t s, uint16_t lid)
{
	uint8_t p = ibsmd_lft_get(d->ctx, d->sw_node[s], lid);

	for (uint32_t e = d->adj_off[s]; e < d->adj_off[s + 1]; e++)
		if (d->e_port[e] == p)
			return e;
	return DF_NONE;
}

static uint32_t df_dep(const struct dfsssp *d, uint32_t e1, uint32_t e2)
{
	return d->dep_off[e1] + (e2 - d->adj_off[d->e_to[e1]]);
}

/* Every CA route from a switch with hosts to a CA LID, as a path of
 * channels, counted into @cnt (paths per dependency). */
static int df_collect(struct dfsssp *d, uint32_t *cnt, struct df_path **paths, uint32_t *npaths,
		      uint32_t **chans)
{
	const struct ibsmd_rt_view *v = d->v;
	size_t cap = 0, ccap = 0, nchan = 0;

	*npaths = 0;
	for (uint32_t lid = 1; lid <= v->max_lid; lid++) {
		if (!df_ca_lid(d, lid))
			continue;
		for (uint32_t s = 0; s < d->nsw; s++) {
			uint32_t at = s, prev = DF_NONE, len = 0, e;
			while (d->hosts[s] && len <= d->nsw &&
			       (e = df_next_edge(d, at, (uint16_t)lid)) != DF_NONE) {
				if (prev != DF_NONE)
					cnt[df_dep(d, prev, e)]++;
				if (nchan == ccap) {
					ccap = ccap ? 2 * ccap : 4096;
					uint32_t *m = realloc(*chans, ccap * sizeof(*m));
					if (!m)
						return -ENOMEM;
					*chans = m;
				}
				(*chans)[nchan++] = prev = e;
				at = d->e_to[e];
				len++;
			}
			if (!len)
				continue;
			if (*npaths == cap) {
				cap = cap ? 2 * cap : 1024;
				struct df_path *m = realloc(*paths, cap * sizeof(*m));
				if (!m)
					return -ENOMEM;
				*paths = m;
			}
			(*paths)[(*npaths)++] = (struct df_path){ (uint32_t)(nchan - len), len,
								  d->src_idx[s], (uint16_t)lid, 0 };
		}
	}
	return 0;
}

static void df_path_count(const struct dfsssp *d, const struct df_path *p, const uint32_t *chans,
			  uint32_t *cnt, int delta)
{
	for (uint32_t i = 1; i < p->len; i++)
		cnt[df_dep(d, chans[p->chan + i - 1], chans[p->chan + i])] += (uint32_t)delta;
}

struct df_layers {
	struct df_path *paths;
	uint32_t npaths, *chans;
	uint32_t *cnt[DF_MAX_LAYERS];	/* per layer: paths per dependency */
	uint32_t *stack;
	uint32_t *seen, gen;	/* per channel: the search that last reached it */
};

/* Does channel @to reach channel @from over layer @L's dependencies? */
static bool df_reaches(const struct dfsssp *d, struct df_layers *w, unsigned L, uint32_t to,
		       uint32_t from)
{
	uint32_t depth = 0;

	w->gen++;
	w->seen[to] = w->gen;
	w->stack[depth++] = to;
	while (depth) {
		uint32_t c = w->stack[--depth], t = d->e_to[c];
		if (c == from)
			return true;
		for (uint32_t e2 = d->adj_off[t]; e2 < d->adj_off[t + 1]; e2++)
			if (w->seen[e2] != w->gen && w->cnt[L][df_dep(d, c, e2)]) {
				w->seen[e2] = w->gen;
				w->stack[depth++] = e2;
			}
	}
	return false;
}

/* Put path @p on layer @L if that leaves the layer without a cycle. */
static bool df_try_layer(const struct dfsssp *d, struct df_layers *w, struct df_path *p,
			 unsigned L)
{
	const uint32_t *c = &w->chans[p->chan];
	bool fresh = false;

	for (uint32_t i = 1; i < p->len && !fresh; i++)
		fresh = !w->cnt[L][df_dep(d, c[i - 1], c[i])];
	df_path_count(d, p, w->chans, w->cnt[L], 1);
	for (uint32_t i = 1; fresh && i < p->len; i++)
		if (w->cnt[L][df_dep(d, c[i - 1], c[i])] == 1 && df_reaches(d, w, L, c[i], c[i - 1])) {
			df_path_count(d, p, w->chans, w->cnt[L], -1);
			return false;
		}
	p->layer = (uint8_t)L;
	return true;
}

/* First fit: every path on the lowest of @nl layers it fits on; the number
 * of paths that fit nowhere (layer 0xff). */
static uint32_t df_first_fit(const struct dfsssp *d, struct df_layers *w, unsigned nl,
			     unsigned *used)
{
	uint32_t left = 0;

	*used = 0;
	for (unsigned l = 0; l < nl; l++)
		memset(w->cnt[l], 0, ((size_t)d->ndeps + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < w->npaths; i++) {
		struct df_path *p = &w->paths[i];
		unsigned L = 0;
		while (L < nl && !df_try_layer(d, w, p, L))
			L++;
		if (L == nl) {
			p->layer = 0xff;
			left++;
		} else if (L + 1 > *used) {
			*used = L + 1;
		}
	}
	return left;
}

/*
 * The LIDs with a path that fits on no layer below the last go up*-down*:
 * the updn engine's tables for them (computed into rows of our own), and
 * every path to them onto the last layer, which holds nothing else.
 */
static int df_escape(struct dfsssp *d, struct df_layers *w)
{
	const struct ibsmd_rt_view *v = d->v;
	uint8_t last = (uint8_t)(d->budget - 1), *esc = calloc((size_t)v->max_lid + 1, 1);
	uint8_t **rows = calloc((size_t)v->nnodes + 1, sizeof(*rows));
	struct ibsmd_rt_ctx ctx = *d->ctx;
	int rc = esc && rows ? 0 : -ENOMEM;

	for (uint32_t n = 0; rc == 0 && n < v->nnodes; n++)
		if (d->ctx->lft[n] && !(rows[n] = malloc((size_t)v->max_lid + 1)))
			rc = -ENOMEM;
		else if (rows[n])
			memset(rows[n], IBSMD_NO_PORT, (size_t)v->max_lid + 1);
	ctx.lft = rows;
	if (rc == 0)
		rc = rt_updn_engine.compute_unicast(&ctx, NULL);
	if (rc == 0) {
		for (uint32_t i = 0; i < w->npaths; i++)
			esc[w->paths[i].lid] |= w->paths[i].layer == 0xff;
		for (uint32_t lid = 1; lid <= v->max_lid; lid++) {
			d->escaped += esc[lid];
			for (uint32_t n = 0; esc[lid] && n < v->nnodes; n++)
				if (rows[n])
					d->ctx->lft[n][lid] = rows[n][lid];
		}
		/* every path to an escaped LID, from every source switch, on the last layer */
		for (uint32_t s = 0; s < d->nsw; s++)
			for (uint32_t lid = 1; d->hosts[s] && lid <= v->max_lid; lid++)
				if (esc[lid])
					d->layer[(size_t)d->src_idx[s] * (v->max_lid + 1u) + lid] = last;
	}
	for (uint32_t n = 0; rows && n < v->nnodes; n++)
		free(rows[n]);
	free(rows);
	free(esc);
	return rc;
}

/* Every path on a layer (see the top of the file). */
static int df_layer_paths(struct dfsssp *d)
{
	const struct ibsmd_rt_view *v = d->v;
	struct df_layers w = { 0 };
	uint32_t left;
	int rc = -ENOMEM;

	w.stack = malloc(((size_t)d->nedges + 1) * sizeof(*w.stack));
	w.seen = calloc((size_t)d->nedges + 1, sizeof(*w.seen));
	d->layer = calloc((size_t)d->nsrc * (v->max_lid + 1u) + 1, 1);
	for (unsigned l = 0; l < d->budget; l++)
		if (!(w.cnt[l] = calloc((size_t)d->ndeps + 1, sizeof(uint32_t))))
			goto out;
	if (!w.stack || !w.seen || !d->layer ||
	    (rc = df_collect(d, w.cnt[0], &w.paths, &w.npaths, &w.chans)))
		goto out;
	left = df_first_fit(d, &w, d->budget, &d->nlayers);
	if (left) {	/* again, with the last layer kept for escape paths */
		d->nlayers = d->budget;
		df_first_fit(d, &w, d->budget - 1, &(unsigned){ 0 });
	}
	for (uint32_t i = 0; i < w.npaths; i++)
		d->layer[(size_t)w.paths[i].src * (v->max_lid + 1u) + w.paths[i].lid] =
			w.paths[i].layer;
	rc = left ? df_escape(d, &w) : 0;
out:
	for (unsigned l = 0; l < DF_MAX_LAYERS; l++)
		free(w.cnt[l]);
	free(w.paths);
	free(w.chans);
	free(w.stack);
	free(w.seen);
	return rc;
}

/* One layer when all routes together have no credit loop (rt_cdg_check() on
 * SL 0 says), else as many as needed. */
static int df_layers(struct dfsssp *d)
{
	static const struct ibsmd_routing_engine one_layer = { .name = "dfsssp" };
	struct rt_cdg_result cdg;
	int rc = rt_cdg_check(d->ctx, &one_layer, NULL, &cdg);

	d->nlayers = 1;
	return rc == -ELOOP ? df_layer_paths(d) : rc;
}

static void df_log(const struct dfsssp *d)
{
	const struct ibsmd_rt_ctx *ctx = d->ctx;

	if (d->escaped)
		ctx->log(LOG_WARNING, "routing: dfsssp: the shortest paths need more than the %u "
			 "layers (SLs/VLs) allowed (vls=%u); %u LIDs take up*-down* escape paths "
			 "on SL %u", d->budget, d->budget, d->escaped, d->budget - 1);
	else if (d->nlayers == 1)
		ctx->log(LOG_NOTICE, "routing: dfsssp: 1 layer (SL 0): the shortest paths have no "
			 "credit loop");
	else
		ctx->log(LOG_NOTICE, "routing: dfsssp: %u layers (SL 0-%u of %u allowed): the "
			 "shortest paths close credit loops; each path is on the lowest layer it "
			 "leaves without one", d->nlayers, d->nlayers - 1, d->budget);
}

/* ---- the engine --------------------------------------------------------------- */

static int df_setup(const struct ibsmd_rt_ctx *ctx, void **state)
{
	int rc;

	*state = df_new(ctx, &rc);
	return rc;
}

static int df_compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	struct dfsssp *d = state;
	int rc;

	if (!d || d->v != ctx->view)
		return -EINVAL;
	df_route_all(d);
	if ((rc = df_layers(d)) == 0)
		df_log(d);
	return rc;
}

/* The layer of the path from @slid's switch to @dlid: its SL. */
static uint8_t df_path_sl(const struct ibsmd_rt_ctx *ctx, void *state, uint16_t slid,
			  uint16_t dlid)
{
	const struct dfsssp *d = state;
	const struct ibsmd_rt_view *v = ctx->view;

	if (!d || !d->layer || slid > v->max_lid || dlid > v->max_lid ||
	    v->lid_node[slid] >= v->nnodes)
		return 0;
	uint32_t n = v->lid_node[slid], sw = n;
	if (!ibsmd_is_switch(v, n)) {
		if (v->lid_port[slid] > v->nodes[n].nports)
			return 0;
		sw = v->nodes[n].ports[v->lid_port[slid]].peer;
	}
	if (sw >= v->nnodes || d->node_sw[sw] == DF_NONE || d->src_idx[d->node_sw[sw]] == DF_NONE)
		return 0;
	return d->layer[(size_t)d->src_idx[d->node_sw[sw]] * (v->max_lid + 1u) + dlid];
}

static void df_destroy(void *state)
{
	df_free(state);
}

IBSMD_ROUTING_ENGINE(dfsssp) = {
	.name = "dfsssp",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.description = "globally balanced shortest paths, credit loops broken on virtual "
		       "layers (SLs); option vls=N (layers allowed, default 8)",
	.setup = df_setup,
	.compute_unicast = df_compute,
	.deadlock_free = true,
	.path_sl = df_path_sl,
	.path_sl_by_switch = true,
	.destroy = df_destroy,
};

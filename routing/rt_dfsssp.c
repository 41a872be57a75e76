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
 * of the tree inward) are added to the links.  Four more passes take each
 * LID's routes off again and route it anew, now seeing the load of every
 * other LID, not just of those before it (EBB under ibsim, one pass -> five:
 * torus 4x4x4 0.483 -> 0.492, dragonfly 0.548 -> 0.557, the 89-host cluster
 * 0.595 -> 0.604; the 8,192-host tree takes 4.8 s of CPU).  With LMC > 0 the LIDs of one port also pay
 * DF_SIBLING per link an earlier LID of that port crosses, so they take paths
 * as disjoint as the shortest paths allow before any load counts.  Switch
 * LIDs (management traffic) get the same shortest paths but add no load.
 *
 * Layers: if the channel dependency graph of all CA -> CA routes has no
 * cycle (rt_cdg_check() on SL 0; every fat tree), one layer (SL 0) carries
 * everything.  Otherwise each (source switch, destination LID) path goes on
 * the lowest layer where its dependencies close no cycle (first fit, each
 * layer kept in topological order as it grows; fewer layers than breaking
 * each cycle at its least-used dependency: 5 instead of 8 on the torus
 * 4x4x4).  A layer is an SL; the SM maps SL n to VL n (sm_sl2vl.c), so
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
#define DF_PASSES 5			/* the later ones see every other LID's load */
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
	const uint32_t *sw_node, *node_sw;	/* the view's switch_node, node_switch */
	/* switch-to-switch edges, CSR: edges adj_off[s] .. adj_off[s+1]-1 leave s */
	uint32_t *adj_off, *e_to, *e_from, *e_rev;
	uint8_t *e_idx, *e_deg;	/* place among its switch's edges, and how many */
	uint8_t *e_port;
	/* per switch and port: the edge it starts, or DF_NONE; at port_off[s] */
	uint32_t *port_off, *port_edge;
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
	free(d->adj_off);
	free(d->e_to);
	free(d->e_from);
	free(d->e_idx);
	free(d->e_deg);
	free(d->e_rev);
	free(d->e_port);
	free(d->port_off);
	free(d->port_edge);
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

	d->node_sw = v->node_switch;
	d->sw_node = v->switch_node;
	d->nsw = v->nswitches;
	size_t n = (size_t)d->nsw + 1;
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
	/* (e_deg below: a switch has at most 255 ports, so at most 255 edges) */
	d->e_to = malloc(n * sizeof(*d->e_to));
	d->e_from = malloc(n * sizeof(*d->e_from));
	d->e_idx = malloc(n);
	d->e_deg = malloc(n);
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
	if (!d->e_to || !d->e_from || !d->e_idx || !d->e_deg || !d->e_rev || !d->e_port || !d->load || !d->sib || !d->sib_tag ||
	    !d->dep_off)
		return -ENOMEM;
	for (uint32_t s = 0, e = 0; s < d->nsw; s++) {
		const struct ibsmd_rt_node *nd = &v->nodes[d->sw_node[s]];
		for (unsigned p = 1; p <= nd->nports; p++) {
			if (!df_sw_port(d, &nd->ports[p]))
				continue;
			d->e_from[e] = s;
			d->e_idx[e] = (uint8_t)(e - d->adj_off[s]);
			d->e_to[e] = d->node_sw[nd->ports[p].peer];
			d->e_port[e++] = (uint8_t)p;
		}
	}
	for (uint32_t s = 0; s < d->nsw; s++)
		for (uint32_t e = d->adj_off[s]; e < d->adj_off[s + 1]; e++)
			d->e_deg[e] = (uint8_t)(d->adj_off[s + 1] - d->adj_off[s]);
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
	size_t nports = 0;
	d->port_off = malloc(((size_t)d->nsw + 1) * sizeof(*d->port_off));
	for (uint32_t s = 0; d->port_off && s < d->nsw; s++) {
		d->port_off[s] = (uint32_t)nports;
		nports += v->nodes[d->sw_node[s]].nports + 1u;
	}
	d->port_edge = malloc((nports + 1) * sizeof(*d->port_edge));
	if (!d->port_off || !d->port_edge)
		return -ENOMEM;
	for (size_t i = 0; i < nports; i++)
		d->port_edge[i] = DF_NONE;
	for (uint32_t s = 0; s < d->nsw; s++)
		for (uint32_t e = d->adj_off[s]; e < d->adj_off[s + 1]; e++)
			d->port_edge[d->port_off[s] + d->e_port[e]] = e;
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
	uint32_t rot = d->e_idx[e];

	if (d->cls)
		rot = (rot + d->cls) % d->e_deg[e];
	uint64_t c = DF_HOP + (d->cur_load[e] << 8) + rot;

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
			if (r == DF_NONE || d->dist[t] <= d->dist[u])
				continue;	/* settled: costs are positive */
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

	return p <= d->v->nodes[d->sw_node[s]].nports ? d->port_edge[d->port_off[s] + p] : DF_NONE;
}

static uint32_t df_dep(const struct dfsssp *d, uint32_t e1, uint32_t e2)
{
	return d->dep_off[e1] + (e2 - d->adj_off[d->e_to[e1]]);
}

/* Every CA route from a switch with hosts to a CA LID, as a path of
 * channels. */
static int df_collect(struct dfsssp *d, struct df_path **paths, uint32_t *npaths,
		      uint32_t **chans)
{
	const struct ibsmd_rt_view *v = d->v;
	size_t cap = 0, ccap = 0, nchan = 0;

	*npaths = 0;
	for (uint32_t lid = 1; lid <= v->max_lid; lid++) {
		if (!df_ca_lid(d, lid))
			continue;
		for (uint32_t s = 0; s < d->nsw; s++) {
			uint32_t at = s, len = 0, e;
			while (d->hosts[s] && len <= d->nsw &&
			       (e = df_next_edge(d, at, (uint16_t)lid)) != DF_NONE) {
				if (nchan == ccap) {
					ccap = ccap ? 2 * ccap : 4096;
					uint32_t *m = realloc(*chans, ccap * sizeof(*m));
					if (!m)
						return -ENOMEM;
					*chans = m;
				}
				(*chans)[nchan++] = e;
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

/*
 * Each layer's dependency graph is kept acyclic with a topological order of
 * its channels, updated as dependencies come (Pearce and Kelly 2006): a new
 * dependency a -> b with a before b changes nothing; otherwise the channels
 * b reaches up to a's place and those that reach a down to b's place are
 * searched (reaching a from b: a cycle) and the two sets swap places.
 */
struct df_layers {
	struct df_path *paths;
	uint32_t npaths, *chans;
	uint32_t *cnt[DF_MAX_LAYERS];	/* per layer: paths per dependency */
	uint32_t *ord[DF_MAX_LAYERS];	/* per layer: each channel's place */
	uint32_t *stack, *fwd, *bwd, *slots;
	uint32_t *seen, gen;	/* per channel: the search that last reached it */
};

static uint32_t *df_sort_ord;	/* the order df_by_ord() sorts by */

static int df_by_ord(const void *x, const void *y)
{
	uint32_t a = df_sort_ord[*(const uint32_t *)x], b = df_sort_ord[*(const uint32_t *)y];

	return a < b ? -1 : a > b;
}

static int df_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/* Channels reachable from @from over layer @L with places in [@lo, @hi],
 * forward (@dir > 0, stopping with false at @stop) or backward, into @out. */
static bool df_region(const struct dfsssp *d, struct df_layers *w, unsigned L, uint32_t from,
		      uint32_t stop, int dir, uint32_t lo, uint32_t hi, uint32_t *out, uint32_t *n)
{
	const uint32_t *ord = w->ord[L], *cnt = w->cnt[L];
	uint32_t depth = 0;

	w->gen++;
	w->seen[from] = w->gen;
	w->stack[depth++] = from;
	*n = 0;
	while (depth) {
		uint32_t c = w->stack[--depth];
		out[(*n)++] = c;
		uint32_t s = dir > 0 ? d->e_to[c] : d->e_from[c];
		for (uint32_t e = d->adj_off[s]; e < d->adj_off[s + 1]; e++) {
			uint32_t x = dir > 0 ? e : d->e_rev[e];	/* successor / predecessor */
			if (x == DF_NONE || w->seen[x] == w->gen ||
			    !cnt[dir > 0 ? df_dep(d, c, x) : df_dep(d, x, c)])
				continue;
			if (x == stop)
				return false;
			if (ord[x] < lo || ord[x] > hi)
				continue;
			w->seen[x] = w->gen;
			w->stack[depth++] = x;
		}
	}
	return true;
}

/* Layer @L gains dependency @a -> @b (its first path): false if that closes a
 * cycle (nothing changed then), else the order is mended. */
static bool df_add_dep(const struct dfsssp *d, struct df_layers *w, unsigned L, uint32_t a,
		       uint32_t b)
{
	uint32_t *ord = w->ord[L], lo = ord[b], hi = ord[a], nf, nb;

	if (lo > hi)
		return true;
	if (!df_region(d, w, L, b, a, 1, lo, hi - 1, w->fwd, &nf))
		return false;
	df_region(d, w, L, a, DF_NONE, -1, lo + 1, hi, w->bwd, &nb);
	/* the backward set first, then the forward set, in the places they held */
	for (uint32_t i = 0; i < nb; i++)
		w->slots[i] = ord[w->bwd[i]];
	for (uint32_t i = 0; i < nf; i++)
		w->slots[nb + i] = ord[w->fwd[i]];
	df_sort_ord = ord;
	qsort(w->bwd, nb, sizeof(*w->bwd), df_by_ord);
	qsort(w->fwd, nf, sizeof(*w->fwd), df_by_ord);
	qsort(w->slots, nb + nf, sizeof(*w->slots), df_u32);
	for (uint32_t i = 0; i < nb; i++)
		ord[w->bwd[i]] = w->slots[i];
	for (uint32_t i = 0; i < nf; i++)
		ord[w->fwd[i]] = w->slots[nb + i];
	return true;
}

/* Put path @p on layer @L if that leaves the layer without a cycle. */
static bool df_try_layer(const struct dfsssp *d, struct df_layers *w, struct df_path *p,
			 unsigned L)
{
	const uint32_t *c = &w->chans[p->chan];

	for (uint32_t i = 1; i < p->len; i++) {
		uint32_t *n = &w->cnt[L][df_dep(d, c[i - 1], c[i])];
		if (*n == 0 && !df_add_dep(d, w, L, c[i - 1], c[i])) {
			while (--i > 0)
				w->cnt[L][df_dep(d, c[i - 1], c[i])]--;
			return false;
		}
		(*n)++;
	}
	p->layer = (uint8_t)L;
	return true;
}

/* Take the first @n dependencies of path @p off its layer. */
static void df_untake(const struct dfsssp *d, struct df_layers *w, const struct df_path *p,
		      uint32_t n)
{
	const uint32_t *c = &w->chans[p->chan];

	for (uint32_t i = 1; i < n; i++)
		w->cnt[p->layer][df_dep(d, c[i - 1], c[i])]--;
}

/*
 * First fit: every path on the lowest of @nl layers it fits on.  A LID with
 * a path that fits nowhere is given up whole (its paths all layer 0xff, and
 * those placed already taken off again, so they hold nobody back); with
 * @stop the first such LID ends the run.  Returns the LIDs given up.
 */
static uint32_t df_first_fit(const struct dfsssp *d, struct df_layers *w, unsigned nl,
			     unsigned *used, bool stop)
{
	uint32_t left = 0, first = 0;

	*used = 0;
	for (unsigned l = 0; l < nl; l++) {
		memset(w->cnt[l], 0, ((size_t)d->ndeps + 1) * sizeof(uint32_t));
		for (uint32_t e = 0; e < d->nedges; e++)
			w->ord[l][e] = e;
	}
	for (uint32_t i = 0; i < w->npaths; i++) {
		struct df_path *p = &w->paths[i];
		unsigned L = 0;
		if (p->lid != w->paths[first].lid)
			first = i;	/* paths come LID by LID (df_collect()) */
		while (L < nl && !df_try_layer(d, w, p, L))
			L++;
		if (L < nl) {
			*used = L + 1 > *used ? L + 1 : *used;
			continue;
		}
		left++;
		if (stop)
			break;
		for (uint32_t j = first; j < i; j++) {
			df_untake(d, w, &w->paths[j], w->paths[j].len);
			w->paths[j].layer = 0xff;
		}
		for (; i < w->npaths && w->paths[i].lid == p->lid; i++)
			w->paths[i].layer = 0xff;
		i--;
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

	size_t n = (size_t)d->nedges + 1;
	w.stack = malloc(n * sizeof(*w.stack));
	w.fwd = malloc(n * sizeof(*w.fwd));
	w.bwd = malloc(n * sizeof(*w.bwd));
	w.slots = malloc(2 * n * sizeof(*w.slots));
	w.seen = calloc(n, sizeof(*w.seen));
	d->layer = calloc((size_t)d->nsrc * (v->max_lid + 1u) + 1, 1);
	for (unsigned l = 0; l < d->budget; l++)
		if (!(w.cnt[l] = calloc((size_t)d->ndeps + 1, sizeof(uint32_t))) ||
		    !(w.ord[l] = malloc(n * sizeof(uint32_t))))
			goto out;
	if (!w.stack || !w.fwd || !w.bwd || !w.slots || !w.seen || !d->layer ||
	    (rc = df_collect(d, &w.paths, &w.npaths, &w.chans)))
		goto out;
	left = df_first_fit(d, &w, d->budget, &d->nlayers, true);
	if (left) {	/* again, with the last layer kept for escape paths */
		d->nlayers = d->budget;
		left = df_first_fit(d, &w, d->budget - 1, &(unsigned){ 0 }, false);
	}
	for (uint32_t i = 0; i < w.npaths; i++)
		d->layer[(size_t)w.paths[i].src * (v->max_lid + 1u) + w.paths[i].lid] =
			w.paths[i].layer;
	rc = left ? df_escape(d, &w) : 0;
out:
	for (unsigned l = 0; l < DF_MAX_LAYERS; l++) {
		free(w.cnt[l]);
		free(w.ord[l]);
	}
	free(w.paths);
	free(w.chans);
	free(w.stack);
	free(w.fwd);
	free(w.bwd);
	free(w.slots);
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

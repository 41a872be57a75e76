// SPDX-License-Identifier: MIT
/*
 * rt_ftree.c - fat-tree routing with index-ordered assignment.
 *
 * Levels (rt_levels.c): leaves are the switches with compute nodes, the rank
 * of a switch its hops from the nearest leaf (or, given roots, the leaves'
 * depth below them less its own); a port to a switch one rank higher is an up
 * port, one rank lower a down port.  Destinations are routed in a fixed order: the
 * CA LIDs leaf by leaf in tree order, port by port (base LIDs first, then each
 * LMC offset), then the CAs of switches ranked above the leaves, then the
 * switches' own LIDs.
 *
 * For a destination on switch D:
 *  - T, the switches with a down-only path to D (D and its ancestors), and
 *    u(S), the fewest up hops from S into T, depend only on D: computed once
 *    per D, with each switch's candidate ports (up to a switch one hop nearer
 *    T; or, in T, down to a switch of T).  From one D to the next, only the
 *    switches that joined or left T, their parents, the old and new D, and
 *    the children of a switch whose u changed are computed again, top down:
 *    a switch's u and candidates depend on nothing else.
 *  - The main path climbs from D to a top switch, at each step through the
 *    parent whose links down to the current switch carry the fewest main
 *    paths so far (other routes not counted, so that a degraded corner does
 *    not shift the order everywhere after it).  On a k-ary n-tree, with destinations in leaf order, that is the
 *    index-ordered (d mod k, d / k mod k, ...) assignment: every shift
 *    permutation is contention-free.  Ties start from the parent group at
 *    the LID's LMC offset (mod the groups), so a port's 2^LMC LIDs climb
 *    through different parents and a leaf sends them up different links.
 *  - Every switch with a one-hop-shorter route into T through a main-path
 *    switch (or one already routed up towards it) routes up to it, breadth
 *    first from the main path: traffic joins the main path as low as it can.
 *  - On a degraded tree, switches with CAs left over walk towards D through
 *    their least-loaded candidate ports; the remaining switches (whose routes
 *    only their own management traffic uses) rotate over their candidates.
 *  - Switches with no up-then-down path at all (u = infinity) take a route with
 *    the fewest down-then-up turns, then hops: a Dijkstra over those switches
 *    per D.  Those routes from CAs to CA LIDs get SLs 1..7 (second part
 *    below), so the engine is deadlock free; path_sl answers from a table per
 *    LID.  Routes to a switch's own LID stay on SL 0, turns or not: management
 *    traffic, which the credit-loop check (rt_cdg.c) and the SA's path SLs
 *    leave out as well.
 *
 * Cost: O(switches + the links of the switches that change) per destination
 * switch, and per LID O(switches) plus the main path's links, so
 * O(LIDs x switches) in all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "routing/rt.h"
#include "routing/rt_levels.h"

#define FT_NONE UINT32_MAX
#define FT_BATCH 64

/* One route that needs a down-then-up turn: from the CAs of switch node @src
 * to @dlid; @sl is filled by ft_sl_assign(). */
struct ft_turn {
	uint32_t src;
	uint16_t dlid;
	uint8_t sl;
};

#define FT_MAX_SL 7

/* ---- service levels ---- */

/*
 * Service levels for the routes of a degraded fat tree that
 * turn down-then-up.
 *
 * Routes that only go up then down cannot close a credit loop (every channel
 * dependency goes up, turns down, or goes on down: order the up channels by
 * level, then the down channels), so they stay on SL 0.  A route with a turn
 * adds a down -> up dependency that can.  Those few routes are given SLs 1..7
 * greedily, LASH-like: a route joins the first SL whose channel dependency
 * graph it leaves acyclic.  The graphs hold only these routes, so they stay
 * small: adjacency lists in one edge pool, a reachability search per new
 * dependency, and an undo log to take a route back out of an SL it does not fit.
 */

#define SL_MAX_HOPS 64

struct sl_edge {
	uint32_t from, to;
	uint32_t next;		/* next edge out of @from, or FT_NONE */
};

struct sl_graphs {
	const struct ibsmd_rt_ctx *ctx;
	uint32_t *chan_base;	/* per node: its ports' first channel */
	uint32_t nchan;
	uint32_t *head[FT_MAX_SL + 1];	/* per SL and channel: first edge */
	struct sl_edge *edges;
	size_t nedges, cap;
	uint32_t *seen;		/* search stamps per channel */
	uint32_t gen;
	uint32_t *stack;
};

static void graphs_free(struct sl_graphs *g)
{
	free(g->chan_base);
	for (unsigned sl = 0; sl <= FT_MAX_SL; sl++)
		free(g->head[sl]);
	free(g->edges);
	free(g->seen);
	free(g->stack);
}

static int graphs_init(struct sl_graphs *g, const struct ibsmd_rt_ctx *ctx)
{
	const struct ibsmd_rt_view *v = ctx->view;

	*g = (struct sl_graphs){ .ctx = ctx };
	g->chan_base = malloc((v->nnodes + 1) * sizeof(*g->chan_base));
	if (!g->chan_base)
		return -ENOMEM;
	for (uint32_t n = 0; n < v->nnodes; n++) {
		g->chan_base[n] = g->nchan;
		g->nchan += (uint32_t)v->nodes[n].nports + 1;
	}
	for (unsigned sl = 1; sl <= FT_MAX_SL; sl++) {
		g->head[sl] = malloc(((size_t)g->nchan + 1) * sizeof(uint32_t));
		if (!g->head[sl])
			return -ENOMEM;
		for (uint32_t c = 0; c < g->nchan; c++)
			g->head[sl][c] = FT_NONE;
	}
	g->seen = calloc((size_t)g->nchan + 1, sizeof(*g->seen));
	g->stack = malloc(((size_t)g->nchan + 1) * sizeof(*g->stack));
	return g->seen && g->stack ? 0 : -ENOMEM;
}

/* The switch-to-switch channels of @t's route, at most SL_MAX_HOPS. */
static unsigned route_channels(const struct sl_graphs *g, const struct ft_turn *t, uint32_t *ch)
{
	const struct ibsmd_rt_view *v = g->ctx->view;
	uint32_t cur = t->src;
	unsigned n = 0;

	while (n < SL_MAX_HOPS) {
		uint8_t p = ibsmd_lft_get(g->ctx, cur, t->dlid);
		if (p == 0 || p > v->nodes[cur].nports)
			break;
		uint32_t peer = v->nodes[cur].ports[p].peer;
		if (!ibsmd_is_switch(v, peer))
			break;
		ch[n++] = g->chan_base[cur] + p;
		cur = peer;
	}
	return n;
}

static bool has_edge(const struct sl_graphs *g, unsigned sl, uint32_t a, uint32_t b)
{
	for (uint32_t e = g->head[sl][a]; e != FT_NONE; e = g->edges[e].next)
		if (g->edges[e].to == b)
			return true;
	return false;
}

/* Is channel @to reachable from @from in SL @sl's graph? */
static bool reaches(struct sl_graphs *g, unsigned sl, uint32_t from, uint32_t to)
{
	uint32_t top = 0;

	g->gen++;
	g->stack[top++] = from;
	g->seen[from] = g->gen;
	while (top) {
		uint32_t c = g->stack[--top];
		if (c == to)
			return true;
		for (uint32_t e = g->head[sl][c]; e != FT_NONE; e = g->edges[e].next) {
			uint32_t d = g->edges[e].to;
			if (g->seen[d] != g->gen) {
				g->seen[d] = g->gen;
				g->stack[top++] = d;
			}
		}
	}
	return false;
}

static int add_edge(struct sl_graphs *g, unsigned sl, uint32_t a, uint32_t b)
{
	if (g->nedges == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 256;
		struct sl_edge *e = realloc(g->edges, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		g->edges = e;
		g->cap = cap;
	}
	g->edges[g->nedges] = (struct sl_edge){ .from = a, .to = b, .next = g->head[sl][a] };
	g->head[sl][a] = (uint32_t)g->nedges++;
	return 0;
}

/* Take the last edges added to SL @sl back out, down to @mark. */
static void undo_edges(struct sl_graphs *g, unsigned sl, size_t mark)
{
	while (g->nedges > mark) {
		const struct sl_edge *e = &g->edges[--g->nedges];
		g->head[sl][e->from] = e->next;
	}
}

/* Add the dependencies of route @ch[0..n-1] to SL @sl: 1 if they fit without
 * a cycle, 0 if not (nothing added), -ENOMEM. */
static int try_sl(struct sl_graphs *g, unsigned sl, const uint32_t *ch, unsigned n)
{
	size_t mark = g->nedges;

	for (unsigned i = 0; i + 1 < n; i++) {
		if (has_edge(g, sl, ch[i], ch[i + 1]))
			continue;
		if (reaches(g, sl, ch[i + 1], ch[i])) {
			undo_edges(g, sl, mark);
			return 0;
		}
		if (add_edge(g, sl, ch[i], ch[i + 1]))
			return -ENOMEM;
	}
	return 1;
}

/*
 * Give each of @t[0..n-1] (routes already in ctx's LFTs) an SL from 1 to
 * FT_MAX_SL such that, per SL, their channel dependencies form no cycle.
 * 0, -EDEADLK when some route fits no SL, -ENOMEM.
 */
static int ft_sl_assign(const struct ibsmd_rt_ctx *ctx, struct ft_turn *t, size_t n)
{
	struct sl_graphs g;
	uint32_t ch[SL_MAX_HOPS];
	int rc = n ? graphs_init(&g, ctx) : 0;

	for (size_t i = 0; rc == 0 && i < n; i++) {
		unsigned len = route_channels(&g, &t[i], ch);
		t[i].sl = 0;
		for (unsigned sl = 1; sl <= FT_MAX_SL && !t[i].sl && rc == 0; sl++) {
			int fit = try_sl(&g, sl, ch, len);
			if (fit < 0)
				rc = fit;
			else if (fit)
				t[i].sl = (uint8_t)sl;
		}
		if (rc == 0 && !t[i].sl)
			rc = -EDEADLK;
	}
	if (n)
		graphs_free(&g);
	return rc;
}

#define FT_INF UINT16_MAX

struct ft_group {		/* the parallel up links to one parent */
	uint32_t parent;	/* switch */
	uint32_t first;		/* into the owner's up ports */
	uint32_t n;
};

struct ft_sw {
	uint32_t node;
	uint32_t pbase;		/* into the per-port arrays */
	uint32_t up, nup;	/* into ftree.ports, grouped by parent */
	uint32_t down, ndown;	/* into ftree.ports */
	uint32_t grp, ngrp;	/* into ftree.groups */
};

/* The SL table kept for path_sl, one run per destination LID. */
struct ft_state {
	struct ft_turn *turns;	/* sorted by dlid */
	size_t nturns;
	uint32_t *first;	/* [0..max_lid + 1]: first turn of a dlid */
};

struct ftree {
	const struct ibsmd_rt_ctx *ctx;
	const struct ibsmd_rt_view *v;
	struct rt_levels lv;
	struct ft_sw *sw;
	uint8_t *ports;		/* up and down port lists */
	uint32_t *lpeer;	/* the switch at the other end of each */
	struct ft_group *groups;
	uint32_t *peer;		/* per port: peer switch or FT_NONE */
	uint8_t *peer_port;
	uint32_t *pgroup;	/* per up port: its group */
	uint32_t *load;		/* per port: LIDs routed out of it */
	uint32_t *main_load;	/* per port: LIDs whose main path goes down it */
	uint32_t *by_rank;	/* ranked switches, top level first */
	uint32_t nranked;
	uint32_t *casw;		/* switches with CAs */
	uint32_t ncasw;
	/* per destination switch */
	uint32_t dst;
	uint32_t *in_t;		/* == tgen: in T */
	uint32_t tgen;
	uint8_t *was_t;		/* in the last destination's T */
	uint32_t *tlist;	/* the last destination's T */
	uint32_t ntlist;
	uint8_t *stale;		/* u and candidates to compute again */
	uint16_t *u;
	uint32_t *cand_off, *cand_n;
	uint8_t *cand;		/* candidate ports, at the switch's port slots */
	uint32_t *cursor;	/* per switch: the candidate to use next */
	uint8_t **row;		/* per switch: its LFT row */
	/* the routes of the last FT_BATCH LIDs, LID by LID (nsw bytes each), go
	 * to the rows together: each LID touches one cache line per switch
	 * otherwise, and the rows are the bulk of the engine's memory traffic */
	uint8_t *col;
	uint16_t *col_lid;
	uint32_t ncol;
	uint8_t *at;		/* the column of the LID at hand */
	uint32_t ninf;		/* switches with u = infinity */
	uint8_t *nh;		/* their next hop port, IBSMD_NO_PORT if none */
	uint8_t *turns;		/* and the turns on their route */
	uint16_t *hops;
	/* per LID */
	uint32_t *routed;	/* == rgen: routed */
	uint32_t rgen;
	unsigned off;		/* the LMC offset of the LID at hand */
	uint32_t *queue;
	/* routes with turns from switches with CAs: to CA LIDs, on SLs */
	struct ft_turn *tp;
	size_t ntp, tpcap;
	size_t nsw_turns;	/* and to switch LIDs, on SL 0 (counted only) */
};

static uint32_t pslot(const struct ftree *f, uint32_t s, unsigned p)
{
	return f->sw[s].pbase + p;
}

/* ---- fabric structure ---- */

static void ftree_free(struct ftree *f)
{
	rt_levels_free(&f->lv);
	free(f->sw);
	free(f->ports);
	free(f->lpeer);
	free(f->cursor);
	free(f->row);
	free(f->groups);
	free(f->peer);
	free(f->peer_port);
	free(f->pgroup);
	free(f->load);
	free(f->main_load);
	free(f->by_rank);
	free(f->casw);
	free(f->in_t);
	free(f->was_t);
	free(f->tlist);
	free(f->stale);
	free(f->u);
	free(f->cand_off);
	free(f->cand_n);
	free(f->cand);
	free(f->nh);
	free(f->turns);
	free(f->hops);
	free(f->routed);
	free(f->queue);
	free(f->tp);
	free(f->col);
	free(f->col_lid);
}

static int alloc_arrays(struct ftree *f, uint32_t nslots)
{
	uint32_t n = f->lv.nsw + 1;

	f->ports = malloc(nslots + 1);
	f->lpeer = malloc((nslots + 1) * sizeof(*f->lpeer));
	f->cursor = calloc(n, sizeof(*f->cursor));
	f->row = malloc(n * sizeof(*f->row));
	f->groups = malloc((nslots + 1) * sizeof(*f->groups));
	f->peer = malloc((nslots + 1) * sizeof(*f->peer));
	f->peer_port = calloc(nslots + 1, 1);
	f->pgroup = malloc((nslots + 1) * sizeof(*f->pgroup));
	f->load = calloc(nslots + 1, sizeof(*f->load));
	f->main_load = calloc(nslots + 1, sizeof(*f->main_load));
	f->cand = malloc(nslots + 1);
	f->by_rank = malloc(n * sizeof(*f->by_rank));
	f->casw = malloc(n * sizeof(*f->casw));
	f->in_t = calloc(n, sizeof(*f->in_t));
	f->was_t = calloc(n, 1);
	f->tlist = malloc(n * sizeof(*f->tlist));
	f->stale = malloc(n);
	f->u = malloc(n * sizeof(*f->u));
	f->cand_off = malloc(n * sizeof(*f->cand_off));
	f->cand_n = calloc(n, sizeof(*f->cand_n));
	f->nh = malloc(n);
	f->turns = malloc(n);
	f->hops = malloc(n * sizeof(*f->hops));
	f->routed = calloc(n, sizeof(*f->routed));
	f->queue = malloc(n * sizeof(*f->queue));
	f->col = malloc((size_t)n * FT_BATCH);
	f->col_lid = malloc(FT_BATCH * sizeof(*f->col_lid));
	if (!f->col || !f->col_lid ||
	    !f->ports || !f->lpeer || !f->cursor || !f->row || !f->groups || !f->peer || !f->peer_port || !f->pgroup || !f->load || !f->main_load ||
	    !f->cand || !f->by_rank || !f->casw || !f->in_t || !f->was_t || !f->tlist ||
	    !f->stale || !f->u || !f->cand_off ||
	    !f->cand_n || !f->nh || !f->turns || !f->hops || !f->routed || !f->queue)
		return -ENOMEM;
	return 0;
}

/* Up ports of @s grouped by parent (groups in port order), then down ports. */
static void list_ports(struct ftree *f, uint32_t s, uint32_t *next_port, uint32_t *next_grp)
{
	const struct ibsmd_rt_node *n = &f->v->nodes[f->sw[s].node];
	struct ft_sw *w = &f->sw[s];
	uint16_t r = f->lv.rank[s];

	w->up = *next_port;
	w->grp = *next_grp;
	/* a group per parent, in order of its first port, its ports contiguous */
	for (unsigned p = 1; p <= n->nports; p++) {
		uint32_t t = f->peer[pslot(f, s, p)];
		if (t == FT_NONE || f->lv.rank[t] != r + 1)
			continue;
		bool seen = false;
		for (uint32_t g = w->grp; g < w->grp + w->ngrp && !seen; g++)
			seen = f->groups[g].parent == t;
		if (seen)
			continue;
		struct ft_group *grp = &f->groups[w->grp + w->ngrp];
		*grp = (struct ft_group){ .parent = t, .first = *next_port };
		for (unsigned q = p; q <= n->nports; q++) {
			if (f->peer[pslot(f, s, q)] != t)
				continue;
			f->lpeer[*next_port] = t;
			f->ports[(*next_port)++] = (uint8_t)q;
			f->pgroup[pslot(f, s, q)] = w->grp + w->ngrp;
			grp->n++;
		}
		w->ngrp++;
	}
	w->nup = *next_port - w->up;
	*next_grp += w->ngrp;
	w->down = *next_port;
	for (unsigned p = 1; p <= n->nports; p++) {
		uint32_t t = f->peer[pslot(f, s, p)];
		if (t != FT_NONE && r > 0 && f->lv.rank[t] == r - 1) {
			f->lpeer[*next_port] = t;
			f->ports[(*next_port)++] = (uint8_t)p;
		}
	}
	w->ndown = *next_port - w->down;
}

/* The ranked switches, top level first, by switch number within a level. */
static void order_by_rank(struct ftree *f)
{
	f->nranked = 0;
	for (int r = f->lv.height; r >= 0; r--)
		for (uint32_t s = 0; s < f->lv.nsw; s++)
			if (f->lv.rank[s] == r)
				f->by_rank[f->nranked++] = s;
}

static int ftree_build(struct ftree *f, const struct ibsmd_rt_ctx *ctx)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint32_t nslots = 0, next_port = 0, next_grp = 0;
	int rc;

	f->ctx = ctx;
	f->v = v;
	rc = rt_levels_find(ctx, "ftree", &f->lv);
	if (rc)
		return rc;
	f->sw = calloc(f->lv.nsw + 1, sizeof(*f->sw));
	if (!f->sw)
		return -ENOMEM;
	for (uint32_t s = 0; s < f->lv.nsw; s++) {
		f->sw[s].node = f->lv.sw_node[s];
		f->sw[s].pbase = nslots;
		nslots += (uint32_t)v->nodes[f->sw[s].node].nports + 1;
	}
	if ((rc = alloc_arrays(f, nslots)))
		return rc;
	for (uint32_t s = 0; s < f->lv.nsw; s++) {
		const struct ibsmd_rt_node *n = &v->nodes[f->sw[s].node];
		for (unsigned p = 0; p <= n->nports; p++) {
			uint32_t peer = p ? n->ports[p].peer : IBSMD_NO_NODE;
			f->peer[pslot(f, s, p)] = ibsmd_is_switch(v, peer) ? f->lv.node_sw[peer] : FT_NONE;
			f->peer_port[pslot(f, s, p)] = n->ports[p].peer_port;
		}
	}
	for (uint32_t s = 0; s < f->lv.nsw; s++) {
		if (f->lv.rank[s] == RT_NORANK)
			continue;
		if (!(f->row[s] = ctx->lft[f->sw[s].node])) {
			ctx->log(LOG_ERR, "routing: ftree: switch 0x%016llx has no LFT row",
				 (unsigned long long)v->nodes[f->sw[s].node].guid);
			return -EINVAL;
		}
		list_ports(f, s, &next_port, &next_grp);
		if (f->lv.ncas[s])
			f->casw[f->ncasw++] = s;
	}
	order_by_rank(f);
	f->dst = FT_NONE;
	/* no destination yet: every switch unreachable, all to compute */
	for (uint32_t i = 0; i < f->nranked; i++)
		f->u[f->by_rank[i]] = FT_INF;
	f->ninf = f->nranked;
	memset(f->stale, 1, f->lv.nsw + 1);
	return 0;
}

/* ---- per destination switch ---- */

/* T: @d and every switch above it with a down-only path to it, also listed
 * in f->queue; returns how many. */
static uint32_t mark_t(struct ftree *f, uint32_t d)
{
	uint32_t head = 0, tail = 0;

	f->tgen++;
	f->in_t[d] = f->tgen;
	f->queue[tail++] = d;
	while (head < tail) {
		const struct ft_sw *w = &f->sw[f->queue[head++]];
		for (uint32_t i = w->up; i < w->up + w->nup; i++) {
			uint32_t t = f->lpeer[i];
			if (f->in_t[t] != f->tgen) {
				f->in_t[t] = f->tgen;
				f->queue[tail++] = t;
			}
		}
	}
	return tail;
}

/* u(s) and the candidate ports of @s, from its parents' u (computed before
 * it) or, in T, from which of its children are in T; true when u(s) changed. */
static bool set_candidates(struct ftree *f, uint32_t s)
{
	const struct ft_sw *w = &f->sw[s];
	uint32_t off = w->pbase, next = off;
	uint16_t best = FT_INF, was = f->u[s];

	if (f->in_t[s] == f->tgen) {
		best = 0;
		for (uint32_t i = w->down; s != f->dst && i < w->down + w->ndown; i++)
			if (f->in_t[f->lpeer[i]] == f->tgen)
				f->cand[next++] = f->ports[i];
	} else {
		for (uint32_t i = w->up; i < w->up + w->nup; i++) {
			uint16_t pu = f->u[f->lpeer[i]];
			if (pu < best) {
				best = pu;
				next = off;
			}
			if (pu == best && pu != FT_INF)
				f->cand[next++] = f->ports[i];
		}
		best = best == FT_INF ? FT_INF : best + 1;
	}
	f->u[s] = best;
	f->cand_off[s] = off;
	f->cand_n[s] = next - off;
	f->ninf += (best == FT_INF) - (was == FT_INF);
	return best != was;
}

/* @s joined or left T: it and its parents (their candidates in T) are stale. */
static void t_changed(struct ftree *f, uint32_t s)
{
	const struct ft_sw *w = &f->sw[s];

	f->stale[s] = 1;
	for (uint32_t i = w->up; i < w->up + w->nup; i++)
		f->stale[f->lpeer[i]] = 1;
}

/* Route label of a switch, for the turn search: (turns, hops). */
static uint32_t label(const struct ftree *f, uint32_t s)
{
	if (f->u[s] != FT_INF)
		return (uint32_t)(2 * f->u[s] + f->lv.rank[s] - f->lv.rank[f->dst]);
	return f->nh[s] == IBSMD_NO_PORT ? UINT32_MAX : (uint32_t)f->turns[s] << 16 | f->hops[s];
}

/* Does @s's route start upwards? */
static bool starts_up(const struct ftree *f, uint32_t s)
{
	if (f->u[s] != FT_INF)
		return f->u[s] > 0;
	return f->lv.rank[f->peer[pslot(f, s, f->nh[s])]] > f->lv.rank[s];
}

/* A binary min-heap of (label << 32 | switch). */
struct ft_heap {
	uint64_t *a;
	size_t n, cap;
};

static int heap_push(struct ft_heap *h, uint64_t x)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		uint64_t *a = realloc(h->a, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		h->a = a;
		h->cap = cap;
	}
	size_t i = h->n++;
	while (i && h->a[(i - 1) / 2] > x) {
		h->a[i] = h->a[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->a[i] = x;
	return 0;
}

static uint64_t heap_pop(struct ft_heap *h)
{
	uint64_t top = h->a[0], x = h->a[--h->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->a[c + 1] < h->a[c])
			c++;
		if (h->a[c] >= x)
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->n)
		h->a[i] = x;
	return top;
}

/* Offer switch @s (no up-then-down route) the route out of its port @p to
 * neighbour @t, whose route is known. */
static int offer(struct ftree *f, struct ft_heap *h, uint32_t s, uint8_t p, uint32_t t)
{
	uint32_t lt = label(f, t);
	bool down = f->lv.rank[t] < f->lv.rank[s];
	uint32_t turns = (lt >> 16) + (down && starts_up(f, t));
	uint32_t cost = turns << 16 | ((lt & 0xffff) + 1);

	if (turns > UINT8_MAX || cost >= label(f, s))
		return 0;
	f->nh[s] = p;
	f->turns[s] = (uint8_t)turns;
	f->hops[s] = (uint16_t)(cost & 0xffff);
	return heap_push(h, (uint64_t)cost << 32 | s);
}

/* Offer the unsettled neighbours of @t (u = infinity) the route through @t. */
static int offer_neighbours(struct ftree *f, struct ft_heap *h, uint32_t t, const uint8_t *settled)
{
	const struct ft_sw *w = &f->sw[t];
	int rc = 0;

	for (uint32_t i = w->up; rc == 0 && i < w->down + w->ndown; i++) {
		uint32_t s = f->lpeer[i];
		if (f->u[s] == FT_INF && !settled[s])
			rc = offer(f, h, s, f->peer_port[w->pbase + f->ports[i]], t);
	}
	return rc;
}

/*
 * Routes with the fewest down-then-up turns, then hops, for the switches
 * without an up-then-down route: Dijkstra over them, from their neighbours
 * that have one (a route's label only depends on its next hop's).
 */
static int route_turns(struct ftree *f)
{
	struct ft_heap h = { 0 };
	uint8_t *settled = calloc(f->lv.nsw + 1, 1);
	int rc = settled ? 0 : -ENOMEM;

	for (uint32_t i = 0; i < f->nranked; i++)
		f->nh[f->by_rank[i]] = IBSMD_NO_PORT;
	for (uint32_t i = 0; rc == 0 && i < f->nranked; i++) {
		uint32_t s = f->by_rank[i];
		const struct ft_sw *w = &f->sw[s];
		for (uint32_t k = w->up; f->u[s] == FT_INF && rc == 0 && k < w->down + w->ndown; k++)
			if (f->u[f->lpeer[k]] != FT_INF)
				rc = offer(f, &h, s, f->ports[k], f->lpeer[k]);
	}
	while (rc == 0 && h.n) {
		uint64_t x = heap_pop(&h);
		uint32_t s = (uint32_t)x;
		if (settled[s] || (uint32_t)(x >> 32) != label(f, s))
			continue;
		settled[s] = 1;
		rc = offer_neighbours(f, &h, s, settled);
	}
	free(h.a);
	free(settled);
	return rc;
}

/*
 * The common case, a switch's own LID on a sound tree: only switches without
 * CAs lack an up-then-down route (a spine, to another spine), and each of them
 * reaches a switch that has one by going down.  Routes only their management
 * traffic takes, with one turn: set them bottom up, without the search.  False
 * when that does not cover them all.
 */
static bool route_down_first(struct ftree *f)
{
	for (uint32_t i = f->nranked; i-- > 0;) {
		uint32_t s = f->by_rank[i];
		const struct ft_sw *w = &f->sw[s];
		if (f->u[s] != FT_INF)
			continue;
		if (f->lv.ncas[s])
			return false;
		f->nh[s] = IBSMD_NO_PORT;
		for (uint32_t k = w->down; k < w->down + w->ndown; k++) {
			uint32_t c = f->lpeer[k];
			if (f->u[c] != FT_INF || f->nh[c] != IBSMD_NO_PORT) {
				f->nh[s] = f->ports[k];
				f->turns[s] = 1;
				break;
			}
		}
		if (f->nh[s] == IBSMD_NO_PORT)
			return false;
	}
	return true;
}

/* The state of destination switch @d, from the last destination's. */
static int prepare_dst(struct ftree *f, uint32_t d)
{
	uint32_t nt;

	if (f->dst != FT_NONE)
		f->stale[f->dst] = 1;
	f->stale[d] = 1;
	f->dst = d;
	nt = mark_t(f, d);
	for (uint32_t i = 0; i < f->ntlist; i++) {
		uint32_t s = f->tlist[i];
		if (f->in_t[s] != f->tgen) {
			f->was_t[s] = 0;
			t_changed(f, s);
		}
	}
	for (uint32_t i = 0; i < nt; i++) {
		uint32_t s = f->queue[i];
		if (!f->was_t[s]) {
			f->was_t[s] = 1;
			t_changed(f, s);
		}
	}
	memcpy(f->tlist, f->queue, nt * sizeof(*f->tlist));
	f->ntlist = nt;
	/* top down: a switch's parents are final before it */
	for (uint32_t i = 0; i < f->nranked; i++) {
		uint32_t s = f->by_rank[i];
		if (!f->stale[s])
			continue;
		f->stale[s] = 0;
		if (!set_candidates(f, s))
			continue;
		const struct ft_sw *w = &f->sw[s];
		for (uint32_t k = w->down; k < w->down + w->ndown; k++)
			f->stale[f->lpeer[k]] = 1;
	}
	return f->ninf && !route_down_first(f) ? route_turns(f) : 0;
}

/* ---- per LID ---- */

/* Switch @s routes the LID at hand out of @port (its row entry is staged). */
static void put_route(struct ftree *f, uint32_t s, uint8_t port)
{
	f->at[s] = port;
}

/* The staged routes into the rows.  Every ranked switch has one for every
 * staged LID (fill_rest() routes those the walks left), in routing order. */
static void flush_routes(struct ftree *f)
{
	for (uint32_t i = 0; i < f->nranked; i++) {
		uint32_t s = f->by_rank[i];
		uint8_t *row = f->row[s];
		const uint8_t *c = f->col + s;
		for (uint32_t j = 0; j < f->ncol; j++, c += f->lv.nsw)
			row[f->col_lid[j]] = *c;
	}
	f->ncol = 0;
}

static void set_route(struct ftree *f, uint32_t s, uint8_t port, bool count)
{
	put_route(f, s, port);
	f->routed[s] = f->rgen;
	if (count)
		f->load[pslot(f, s, port)]++;
}

/* The least-loaded of @n ports listed at @ports of switch @s. */
static uint8_t least_loaded(const struct ftree *f, uint32_t s, const uint8_t *ports, uint32_t n)
{
	uint8_t best = ports[0];

	for (uint32_t i = 1; i < n; i++)
		if (f->load[pslot(f, s, ports[i])] < f->load[pslot(f, s, best)])
			best = ports[i];
	return best;
}

/* Main paths down the links from group @g's parent to its child @s.  Other
 * routes are not counted: on a degraded tree, the detours of a few switches
 * would otherwise shift the index order of every main path after them. */
static uint64_t group_load(const struct ftree *f, uint32_t s, const struct ft_group *g)
{
	uint64_t sum = 0;

	for (uint32_t i = g->first; i < g->first + g->n; i++)
		sum += f->main_load[pslot(f, g->parent, f->peer_port[pslot(f, s, f->ports[i])])];
	return sum;
}

/* Climb from the destination switch through the least-loaded parents; the
 * main path goes into f->queue[0..]; returns its length. */
static uint32_t main_path(struct ftree *f)
{
	uint32_t len = 0, s = f->dst;

	f->queue[len++] = s;
	while (f->sw[s].ngrp) {
		const struct ft_sw *w = &f->sw[s];
		/* ties go to the first group from one that moves with the LMC
		 * offset: a port's LIDs climb through different parents */
		uint32_t first = w->grp + f->off % w->ngrp;
		const struct ft_group *best = &f->groups[first];
		uint64_t best_load = group_load(f, s, best);
		for (uint32_t i = 1; i < w->ngrp; i++) {
			uint32_t g = w->grp + (f->off + i) % w->ngrp;
			uint64_t l = group_load(f, s, &f->groups[g]);
			if (l < best_load) {
				best_load = l;
				best = &f->groups[g];
			}
		}
		/* the parent's least-loaded port of the group */
		uint32_t p = best->parent;
		uint8_t down = f->peer_port[pslot(f, s, f->ports[best->first])];
		for (uint32_t i = best->first + 1; i < best->first + best->n; i++) {
			uint8_t q = f->peer_port[pslot(f, s, f->ports[i])];
			if (f->main_load[pslot(f, p, q)] < f->main_load[pslot(f, p, down)])
				down = q;
		}
		set_route(f, p, down, true);
		f->main_load[pslot(f, p, down)]++;
		f->queue[len++] = p;
		s = p;
	}
	return len;
}

/* Breadth first from the main path (queue[0..len-1]): children one hop
 * further from T than a routed switch route up to it. */
static void join_main_path(struct ftree *f, uint32_t len)
{
	for (uint32_t head = 0; head < len; head++) {
		uint32_t x = f->queue[head];
		const struct ft_sw *w = &f->sw[x];
		for (uint32_t i = w->down; i < w->down + w->ndown; i++) {
			uint32_t slot = w->pbase + f->ports[i], c = f->lpeer[i];
			if (f->routed[c] == f->rgen || f->in_t[c] == f->tgen ||
			    f->u[c] != f->u[x] + 1)
				continue;
			const struct ft_group *g = &f->groups[f->pgroup[pslot(f, c, f->peer_port[slot])]];
			set_route(f, c, least_loaded(f, c, &f->ports[g->first], g->n), true);
			f->queue[len++] = c;
		}
	}
}

/* From switch @s (with CAs, not routed yet) towards the destination through
 * least-loaded candidates, until a routed switch. */
static void walk(struct ftree *f, uint32_t s)
{
	while (f->routed[s] != f->rgen) {
		uint8_t port;
		if (f->u[s] != FT_INF)
			port = least_loaded(f, s, &f->cand[f->cand_off[s]], f->cand_n[s]);
		else if ((port = f->nh[s]) == IBSMD_NO_PORT)
			return;
		set_route(f, s, port, true);
		s = f->peer[pslot(f, s, port)];
	}
}

static int note_turn(struct ftree *f, uint32_t s, uint16_t lid)
{
	if (f->ntp == f->tpcap) {
		size_t cap = f->tpcap ? 2 * f->tpcap : 64;
		struct ft_turn *tp = realloc(f->tp, cap * sizeof(*tp));
		if (!tp)
			return -ENOMEM;
		f->tp = tp;
		f->tpcap = cap;
	}
	f->tp[f->ntp++] = (struct ft_turn){ .src = f->sw[s].node, .dlid = lid };
	return 0;
}

/* The candidates of a switch in turn, for routes only its own traffic uses. */
static uint8_t next_candidate(struct ftree *f, uint32_t s)
{
	if (++f->cursor[s] >= f->cand_n[s])
		f->cursor[s] = 0;
	return f->cand[f->cand_off[s] + f->cursor[s]];
}

/* The switches not routed yet: routes only their own traffic takes. */
static void fill_rest(struct ftree *f)
{
	for (uint32_t i = 0; i < f->nranked; i++) {
		uint32_t s = f->by_rank[i];
		if (f->routed[s] == f->rgen)
			continue;
		put_route(f, s, f->u[s] != FT_INF ? next_candidate(f, s) : f->nh[s]);
	}
}

/* Route @lid, delivered by the destination switch out of @port. */
static int route_lid(struct ftree *f, uint16_t lid, uint8_t port)
{
	int rc = 0;

	if (lid > f->v->max_lid)
		return 0;
	if (f->ncol == FT_BATCH)
		flush_routes(f);
	f->col_lid[f->ncol] = lid;
	f->at = f->col + (size_t)f->ncol * f->lv.nsw;
	f->rgen++;
	set_route(f, f->dst, port, false);
	join_main_path(f, main_path(f));
	for (uint32_t i = 0; i < f->ncasw; i++)
		walk(f, f->casw[i]);
	fill_rest(f);
	/* the SLs are for CA -> CA routes only, the ones the credit-loop check,
	 * the SL2VL tables and the SA's path SLs cover (routing/rt_cdg.c): what
	 * goes to a switch's own LID is management traffic there */
	bool to_switch = ibsmd_is_switch(f->v, f->v->lid_node[lid]);
	for (uint32_t i = 0; f->ninf && rc == 0 && i < f->ncasw; i++) {
		uint32_t s = f->casw[i];
		if (f->u[s] != FT_INF || f->nh[s] == IBSMD_NO_PORT)
			continue;
		if (to_switch)
			f->nsw_turns++;
		else
			rc = note_turn(f, s, lid);
	}
	f->ncol++;
	return rc;
}

/* ---- destinations in order ---- */

/* Route LID offset @off of every CA port on switch @s. */
static int route_cas_of(struct ftree *f, uint32_t s, unsigned off)
{
	const struct ibsmd_rt_view *v = f->v;
	const struct ibsmd_rt_node *n = &v->nodes[f->sw[s].node];
	int rc = 0;

	for (unsigned p = 1; rc == 0 && p <= n->nports; p++) {
		uint32_t peer = n->ports[p].peer;
		if (peer == IBSMD_NO_NODE || ibsmd_is_switch(v, peer))
			continue;
		const struct ibsmd_rt_port *cp = &v->nodes[peer].ports[n->ports[p].peer_port];
		if (!cp->lid || off >= (1u << cp->lmc))
			continue;
		if (f->dst != s)
			rc = prepare_dst(f, s);
		if (rc == 0)
			rc = route_lid(f, (uint16_t)(cp->lid + off), (uint8_t)p);
	}
	return rc;
}

static int route_own_lid(struct ftree *f, uint32_t s, unsigned off)
{
	const struct ibsmd_rt_port *p0 = &f->v->nodes[f->sw[s].node].ports[0];
	int rc = 0;

	if (!p0->lid || off >= (1u << p0->lmc))
		return 0;
	if (f->dst != s)
		rc = prepare_dst(f, s);
	return rc ? rc : route_lid(f, (uint16_t)(p0->lid + off), 0);
}

/* CA LIDs leaf by leaf in tree order, then those on inner switches, then the
 * switches' own; each pass over all base LIDs before the next LMC offset. */
static int route_all(struct ftree *f)
{
	unsigned noff = 1;
	int rc = 0;

	for (uint32_t n = 0; n < f->v->nnodes; n++)
		for (unsigned p = 0; p <= f->v->nodes[n].nports; p++)
			if ((1u << f->v->nodes[n].ports[p].lmc) > noff)
				noff = 1u << f->v->nodes[n].ports[p].lmc;
	for (unsigned off = 0; rc == 0 && off < noff; off++) {
		f->off = off;
		for (uint32_t i = 0; rc == 0 && i < f->lv.nleaves; i++)
			rc = route_cas_of(f, f->lv.leaves[i], off);
		for (uint32_t i = 0; rc == 0 && i < f->ncasw; i++)
			if (f->lv.rank[f->casw[i]] > 0)
				rc = route_cas_of(f, f->casw[i], off);
	}
	for (unsigned off = 0; rc == 0 && off < noff; off++) {
		f->off = off;
		for (uint32_t i = 0; rc == 0 && i < f->nranked; i++)
			rc = route_own_lid(f, f->by_rank[f->nranked - 1 - i], off);
	}
	flush_routes(f);
	return rc;
}

/* ---- the engine ---- */

static int turn_cmp(const void *a, const void *b)
{
	const struct ft_turn *x = a, *y = b;

	if (x->dlid != y->dlid)
		return x->dlid < y->dlid ? -1 : 1;
	return x->src < y->src ? -1 : x->src > y->src;
}

/* Keep @f's turn routes in @st, indexed by destination LID. */
static int keep_turns(struct ft_state *st, struct ftree *f)
{
	uint16_t max_lid = f->v->max_lid;

	free(st->turns);
	free(st->first);
	*st = (struct ft_state){ 0 };
	if (!f->ntp)
		return 0;
	st->first = calloc((size_t)max_lid + 2, sizeof(*st->first));
	if (!st->first)
		return -ENOMEM;
	qsort(f->tp, f->ntp, sizeof(*f->tp), turn_cmp);
	for (size_t i = 0; i < f->ntp; i++)
		st->first[f->tp[i].dlid + 1]++;
	for (uint32_t l = 1; l <= (uint32_t)max_lid + 1; l++)
		st->first[l] += st->first[l - 1];
	st->turns = f->tp;
	st->nturns = f->ntp;
	f->tp = NULL;
	return 0;
}

static unsigned max_sl(const struct ftree *f)
{
	unsigned m = 0;

	for (size_t i = 0; i < f->ntp; i++)
		m = f->tp[i].sl > m ? f->tp[i].sl : m;
	return m;
}

static int ftree_compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	struct ftree f = { 0 };
	int rc = ftree_build(&f, ctx);

	if (rc == 0)
		rc = route_all(&f);
	if (rc == 0 && (rc = ft_sl_assign(ctx, f.tp, f.ntp)) == -EDEADLK)
		ctx->log(LOG_ERR, "routing: ftree: %zu routes need down-then-up turns and do "
			 "not fit in %u SLs without a credit loop", f.ntp, FT_MAX_SL);
	if (rc == 0) {
		ctx->log(LOG_INFO, "routing: ftree: %u levels, %u leaves, %u switches ranked; "
			 "%zu CA -> CA routes turn down-then-up, on SLs up to %u; %zu CA -> "
			 "switch LID routes do, on SL 0 (management)", f.lv.height + 1, f.lv.nleaves,
			 f.nranked, f.ntp, max_sl(&f), f.nsw_turns);
		if (state)
			rc = keep_turns(state, &f);
	}
	ftree_free(&f);
	return rc == -EDEADLK ? -EINVAL : rc;
}

static int ftree_setup(const struct ibsmd_rt_ctx *ctx, void **state)
{
	(void)ctx;
	*state = calloc(1, sizeof(struct ft_state));
	return *state ? 0 : -ENOMEM;
}

static void ftree_destroy(void *state)
{
	struct ft_state *st = state;

	if (!st)
		return;
	free(st->turns);
	free(st->first);
	free(st);
}

/* SL 0, except for the routes with turns: the SL ft_sl_assign gave them. */
static uint8_t ftree_path_sl(const struct ibsmd_rt_ctx *ctx, void *state, uint16_t slid,
			     uint16_t dlid)
{
	const struct ibsmd_rt_view *v = ctx->view;
	const struct ft_state *st = state;

	if (!st || !st->nturns || slid > v->max_lid || dlid > v->max_lid)
		return 0;
	uint32_t src = v->lid_node[slid];
	if (src == IBSMD_NO_NODE)
		return 0;
	if (!ibsmd_is_switch(v, src))
		src = v->nodes[src].ports[v->lid_port[slid]].peer;
	for (uint32_t i = st->first[dlid]; i < st->first[dlid + 1]; i++)
		if (st->turns[i].src == src)
			return st->turns[i].sl;
	return 0;
}

IBSMD_ROUTING_ENGINE(ftree) = {
	.name = "ftree",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.description = "fat tree, index-ordered; degraded trees with the fewest turns, "
		       "on their own SLs; options root=GUID, root_guid_file=, cn_guid_file=, "
		       "io_guid_file= (OpenSM's files)",
	.setup = ftree_setup,
	.compute_unicast = ftree_compute,
	.deadlock_free = true,
	.path_sl = ftree_path_sl,
	.path_sl_by_switch = true,	/* its SL table is keyed by the source switch */
	.destroy = ftree_destroy,
};

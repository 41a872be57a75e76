// SPDX-License-Identifier: MIT
/*
 * rt_cdg.c - the channel dependency graph of a routing result, and its cycles.
 *
 * A channel is one direction of a switch-to-switch link on one SL (the SM maps
 * SL n to VL n, so an SL is a set of buffers): switch S's output port P.  A
 * route that enters switch S through channel A and leaves through channel B
 * makes B's buffer a thing A's packets wait for: a dependency A -> B.  A cycle
 * of dependencies can deadlock the fabric (a credit loop); Dally and Seitz's
 * condition: routes without one are deadlock free.  Links to CAs cannot be on
 * a cycle (a CA does not forward), so only switch-to-switch channels count.
 *
 * Build: for each destination LID the LFT entries form an in-tree, so each
 * source switch's path is walked only until it joins a switch already walked
 * for that LID and SL (a stamp per switch): O(LIDs x switches) in all.  With a
 * path_sl hook, the sources are grouped by the SL it gives them first.  A
 * dependency A -> B enters switch S on port q (where A lands) and leaves on
 * port p, so dependencies are kept, deduplicated for free, as one bit per
 * (SL, switch, q, p): a bit matrix per switch and SL in use.
 *
 * A job first copies its block of LIDs out of the LFT rows, LID by LID (a
 * slice of the tables, a byte per switch number), which the walks then read.
 *
 * Destinations are independent: blocks of LIDs are built on every core
 * (rt_par.c), each worker into its own bit matrices and stamps, and the
 * matrices are OR-ed together afterwards, so the graph is the same on any
 * number of cores.  path_sl is called from every worker at once only for the
 * engines known to keep their state read-only while it runs (ftree, dfsssp);
 * for any other engine, a plugin's above all, the calls take turns under a lock.
 *
 * Cycles: an iterative depth-first search (explicit stack, an edge cursor per
 * channel) over the channels; an edge back to a channel on the stack closes
 * the first cycle, which is described switch by switch.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt.h"
#include "routing/rt_par.h"

#define CDG_NSL 16
#define CDG_NONE UINT32_MAX
#define CDG_BLOCK_LIDS 512	/* destination LIDs per job */
#define CDG_TILE 32		/* LFT rows copied together into a slice */

/* What one worker builds: its dependency bits, and its walk stamps. */
struct cdg_part {
	uint64_t *mat[CDG_NSL];	/* per SL, allocated when the SL is used */
	uint32_t *stamp;	/* per node: (LID << 4 | SL) + 1 of the last walk */
	/* the LFT entries of the block at hand, LID by LID (a byte per switch
	 * number): a walk reads one entry per switch for one LID, a cache miss
	 * each in the rows, and the copy reads the rows in order */
	uint8_t *slice;
	int rc;
};

struct cdg {
	const struct ibsmd_rt_ctx *ctx;
	const struct ibsmd_rt_view *v;
	uint32_t nchan;		/* channel = chan_off[switch node] + port */
	uint32_t *chan_off;	/* per node; CDG_NONE for non-switches */
	uint32_t *chan_node;	/* channel -> its switch node */
	uint32_t *chan_peer;	/* channel -> the switch node it leads to, or CDG_NONE */
	uint8_t *chan_peer_port;	/* and the port it arrives on */
	uint8_t *nports;	/* per node: its ports, for the walks */
	uint8_t *rwords;	/* per node: row_words() */
	size_t *mat_off;	/* per node: first word of its q x p bit matrix */
	size_t nwords;
	uint64_t **mat;		/* the merged graph: part[0]'s matrices */
	struct cdg_part part[RT_PAR_MAX_WORKERS];
	uint32_t *src;		/* switches with CAs (no path_sl) */
	uint32_t nsrc;
	struct cdg_ca *cas;	/* CA ports, by their switch (with path_sl) */
	uint32_t ncas;
	uint32_t *first_ca;	/* per switch with CAs: its first in cas[] */
	uint32_t nfirst;
	/* while building */
	const struct ibsmd_routing_engine *e;
	void *state;
	pthread_mutex_t *sl_lock;	/* NULL: path_sl may run on every worker at once */
};

/* A CA port routes start from: its switch, its base LID and LMC. */
struct cdg_ca {
	uint32_t sw;
	uint16_t lid;
	uint8_t lmc;
};

static unsigned row_words(const struct ibsmd_rt_node *n)
{
	return ((unsigned)n->nports + 1 + 63) / 64;
}

static void cdg_free(struct cdg *g)
{
	free(g->chan_off);
	free(g->chan_node);
	free(g->chan_peer);
	free(g->chan_peer_port);
	free(g->nports);
	free(g->rwords);
	free(g->mat_off);
	for (unsigned w = 0; w < RT_PAR_MAX_WORKERS; w++) {
		for (unsigned sl = 0; sl < CDG_NSL; sl++)
			free(g->part[w].mat[sl]);
		free(g->part[w].stamp);
		free(g->part[w].slice);
	}
	free(g->src);
	free(g->cas);
	free(g->first_ca);
}

static int cdg_init(struct cdg *g, const struct ibsmd_rt_ctx *ctx, unsigned workers)
{
	const struct ibsmd_rt_view *v = ctx->view;

	memset(g, 0, sizeof(*g));
	g->ctx = ctx;
	g->v = v;
	g->mat = g->part[0].mat;
	g->chan_off = malloc((v->nnodes + 1) * sizeof(*g->chan_off));
	g->mat_off = malloc((v->nnodes + 1) * sizeof(*g->mat_off));
	g->src = malloc((v->nnodes + 1) * sizeof(*g->src));
	g->first_ca = malloc((v->nnodes + 1) * sizeof(*g->first_ca));
	if (!g->chan_off || !g->mat_off || !g->src || !g->first_ca)
		return -ENOMEM;
	for (unsigned w = 0; w < workers; w++)
		if (!(g->part[w].stamp = calloc(v->nnodes + 1, sizeof(uint32_t))) ||
		    !(g->part[w].slice = malloc((size_t)CDG_BLOCK_LIDS * v->nswitches + 1)))
			return -ENOMEM;
	for (uint32_t n = 0; n < v->nnodes; n++) {
		const struct ibsmd_rt_node *nd = &v->nodes[n];
		g->chan_off[n] = CDG_NONE;
		if (!ibsmd_is_switch(v, n))
			continue;
		g->chan_off[n] = g->nchan;
		g->nchan += (uint32_t)nd->nports + 1;
		g->mat_off[n] = g->nwords;
		g->nwords += (size_t)(nd->nports + 1) * row_words(nd);
		for (unsigned p = 1; p <= nd->nports; p++) {
			uint32_t peer = nd->ports[p].peer;
			if (peer != IBSMD_NO_NODE && !ibsmd_is_switch(v, peer)) {
				g->src[g->nsrc++] = n;
				break;
			}
		}
	}
	g->chan_node = malloc(((size_t)g->nchan + 1) * sizeof(*g->chan_node));
	g->chan_peer = malloc(((size_t)g->nchan + 1) * sizeof(*g->chan_peer));
	g->chan_peer_port = malloc((size_t)g->nchan + 1);
	g->nports = calloc(v->nnodes + 1, 1);
	g->rwords = calloc(v->nnodes + 1, 1);
	if (!g->chan_peer || !g->chan_peer_port || !g->nports || !g->rwords)
		return -ENOMEM;
	g->cas = malloc(((size_t)v->nnodes * 2 + 1) * sizeof(*g->cas));
	if (!g->chan_node || !g->cas)
		return -ENOMEM;
	/* CA ports grouped by switch, so a switch's LFT row stays in cache */
	for (uint32_t i = 0; i < g->nsrc; i++) {
		const struct ibsmd_rt_node *sw = &v->nodes[g->src[i]];
		uint32_t first = g->ncas;
		for (unsigned p = 1; p <= sw->nports; p++) {
			uint32_t peer = sw->ports[p].peer;
			if (peer == IBSMD_NO_NODE || ibsmd_is_switch(v, peer))
				continue;
			const struct ibsmd_rt_port *cp = &v->nodes[peer].ports[sw->ports[p].peer_port];
			if (!cp->lid)
				continue;
			if (g->ncas % v->nnodes == 0 && g->ncas) {
				struct cdg_ca *more = realloc(g->cas, ((size_t)g->ncas * 2 + 1) *
							      sizeof(*more));
				if (!more)
					return -ENOMEM;
				g->cas = more;
			}
			g->cas[g->ncas++] = (struct cdg_ca){ g->src[i], cp->lid, cp->lmc & 7 };
		}
		if (g->ncas > first)
			g->first_ca[g->nfirst++] = first;
	}
	for (uint32_t n = 0; n < v->nnodes; n++) {
		if (g->chan_off[n] == CDG_NONE)
			continue;
		g->nports[n] = v->nodes[n].nports;
		g->rwords[n] = (uint8_t)row_words(&v->nodes[n]);
		for (unsigned p = 0; p <= v->nodes[n].nports; p++) {
			const struct ibsmd_rt_port *out = &v->nodes[n].ports[p];
			uint32_t c = g->chan_off[n] + p;
			g->chan_node[c] = n;
			g->chan_peer[c] = p && ibsmd_is_switch(v, out->peer) ? out->peer : CDG_NONE;
			g->chan_peer_port[c] = out->peer_port;
		}
	}
	return 0;
}

/* The bit of dependency (in on port @q, out on port @p) at switch @n in @mat. */
static uint64_t *dep_word(const struct cdg *g, uint64_t *mat, uint32_t n, unsigned q,
			  unsigned p, uint64_t *bit)
{
	*bit = 1ull << (p % 64);
	return &mat[g->mat_off[n] + (size_t)q * row_words(&g->v->nodes[n]) + p / 64];
}

/*
 * Walk @lid's route from switch @s on @sl, adding the dependencies at every
 * switch after the first, until the route leaves the switches or joins a
 * switch walked before for this LID and SL.  @col holds every switch's entry
 * for @lid, by switch number.
 */
static void cdg_walk(const struct cdg *g, struct cdg_part *pt, const uint8_t *col,
		     uint32_t s, uint16_t lid, unsigned sl)
{
	uint32_t tag = ((uint32_t)lid << 4 | sl) + 1;
	uint64_t *mat = pt->mat[sl];
	unsigned in_port = 0;	/* 0: the route starts here */

	/* @s is a switch all along (a source, then a channel's far end), so it
	 * has an LFT row, and @lid is at most max_lid */
	for (;;) {
		uint8_t p = col[g->v->node_switch[s]];
		if (p == 0 || p > g->nports[s])
			return;
		uint32_t c = g->chan_off[s] + p;
		if (g->chan_peer[c] == CDG_NONE)
			return;
		if (in_port)
			mat[g->mat_off[s] + (size_t)in_port * g->rwords[s] + p / 64] |=
				1ull << (p % 64);
		if (pt->stamp[s] == tag)
			return;
		pt->stamp[s] = tag;
		in_port = g->chan_peer_port[c];
		s = g->chan_peer[c];
	}
}

static int cdg_use_sl(const struct cdg *g, struct cdg_part *pt, unsigned sl)
{
	if (!pt->mat[sl] && !(pt->mat[sl] = calloc(g->nwords + 1, sizeof(uint64_t))))
		return -ENOMEM;
	return 0;
}

static unsigned cdg_path_sl(const struct cdg *g, uint16_t slid, uint16_t dlid)
{
	unsigned sl;

	if (g->sl_lock)
		pthread_mutex_lock(g->sl_lock);
	sl = g->e->path_sl(g->ctx, g->state, slid, dlid) & (CDG_NSL - 1);
	if (g->sl_lock)
		pthread_mutex_unlock(g->sl_lock);
	return sl;
}

/* Every route from a CA port to @lid, on the SL path_sl gives it; one walk per
 * switch and SL (the CAs of a switch share its LFT row).  With
 * path_sl_by_switch only the first CA of each switch is asked. */
static int cdg_add_lid_by_sl(const struct cdg *g, struct cdg_part *pt, const uint8_t *col,
			     uint16_t lid)
{
	bool by_switch = g->e->path_sl_by_switch;
	uint32_t n = by_switch ? g->nfirst : g->ncas, last_sw = CDG_NONE;
	unsigned last_sl = CDG_NSL;

	for (uint32_t i = 0; i < n; i++) {
		const struct cdg_ca *ca = &g->cas[by_switch ? g->first_ca[i] : i];
		for (unsigned l = 0; l < (1u << ca->lmc); l++) {
			unsigned sl = cdg_path_sl(g, (uint16_t)(ca->lid + l), lid);
			if (ca->sw == last_sw && sl == last_sl)
				continue;
			if (cdg_use_sl(g, pt, sl))
				return -ENOMEM;
			cdg_walk(g, pt, col, ca->sw, lid, sl);
			last_sw = ca->sw;
			last_sl = sl;
		}
	}
	return 0;
}

/* Job @job: the CA to CA routes to LIDs of one block, into @worker's part.
 * What goes to a switch's own LID is management traffic, on VL15 without
 * credits, or negligible: CA to CA traffic only, as ibdmchk checks it. */
static void cdg_build_block(void *arg, unsigned job, unsigned worker)
{
	const struct cdg *g = arg;
	const struct ibsmd_rt_view *v = g->v;
	struct cdg_part *pt = (struct cdg_part *)&g->part[worker];
	uint32_t l0 = 1 + job * CDG_BLOCK_LIDS;
	uint32_t l1 = l0 + CDG_BLOCK_LIDS <= (uint32_t)v->max_lid + 1 ? l0 + CDG_BLOCK_LIDS
								    : (uint32_t)v->max_lid + 1;

	if (!g->e->path_sl && (pt->rc = cdg_use_sl(g, pt, 0)))
		return;
	/* CDG_TILE rows at a time: each LID's entries for them are one run */
	for (uint32_t sw0 = 0; sw0 < v->nswitches; sw0 += CDG_TILE) {
		uint32_t n = v->nswitches - sw0 < CDG_TILE ? v->nswitches - sw0 : CDG_TILE;
		const uint8_t *row[CDG_TILE];
		for (uint32_t i = 0; i < n; i++)
			row[i] = g->ctx->lft[v->switch_node[sw0 + i]];
		for (uint32_t lid = l0; lid < l1; lid++) {
			uint8_t *to = pt->slice + (size_t)(lid - l0) * v->nswitches + sw0;
			for (uint32_t i = 0; i < n; i++)	/* no row: a walk stops there */
				to[i] = row[i] ? row[i][lid] : 0;
		}
	}
	for (uint32_t lid = l0; pt->rc == 0 && lid < l1; lid++) {
		const uint8_t *col = pt->slice + (size_t)(lid - l0) * v->nswitches;
		if (v->lid_node[lid] == IBSMD_NO_NODE || ibsmd_is_switch(v, v->lid_node[lid]))
			continue;
		if (g->e->path_sl) {
			pt->rc = cdg_add_lid_by_sl(g, pt, col, (uint16_t)lid);
			continue;
		}
		for (uint32_t i = 0; i < g->nsrc; i++)
			cdg_walk(g, pt, col, g->src[i], (uint16_t)lid, 0);
	}
}

/* Build on every core, then OR every worker's matrices into part 0's. */
static int cdg_build(struct cdg *g, const struct ibsmd_routing_engine *e, void *state,
		     unsigned workers)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	unsigned nblocks = ((unsigned)g->v->max_lid + CDG_BLOCK_LIDS - 1) / CDG_BLOCK_LIDS;

	g->e = e;
	g->state = state;
	g->sl_lock = e->path_sl && e != &rt_ftree_engine && e != &rt_dfsssp_engine ? &lock : NULL;
	if (!e->path_sl && cdg_use_sl(g, &g->part[0], 0))
		return -ENOMEM;
	rt_par_run(nblocks, cdg_build_block, g);
	for (unsigned w = 0; w < workers; w++)
		if (g->part[w].rc)
			return g->part[w].rc;
	for (unsigned w = 1; w < workers; w++)
		for (unsigned sl = 0; sl < CDG_NSL; sl++) {
			uint64_t *from = g->part[w].mat[sl];
			if (!from)
				continue;
			if (!g->mat[sl]) {
				g->mat[sl] = from;
				g->part[w].mat[sl] = NULL;
				continue;
			}
			for (size_t i = 0; i < g->nwords; i++)
				g->mat[sl][i] |= from[i];
		}
	return 0;
}

/*
 * The next successor of channel @c on @sl at or after port *@cursor of the
 * switch it leads to, advancing the cursor; CDG_NONE when none is left (or
 * @c is no switch-to-switch channel).
 */
static uint32_t next_dep(const struct cdg *g, unsigned sl, uint32_t c, unsigned *cursor)
{
	uint32_t n = g->chan_node[c];
	unsigned port = c - g->chan_off[n];
	const struct ibsmd_rt_port *out = &g->v->nodes[n].ports[port];

	if (port == 0 || !ibsmd_is_switch(g->v, out->peer))
		return CDG_NONE;
	uint32_t s = out->peer;
	unsigned nports = g->v->nodes[s].nports;

	while (*cursor <= nports) {
		unsigned p = (*cursor)++;
		uint64_t bit, *w = dep_word(g, g->mat[sl], s, out->peer_port, p, &bit);
		if (*w & bit)
			return g->chan_off[s] + p;
	}
	return CDG_NONE;
}

static void describe_cycle(const struct cdg *g, unsigned sl, const uint32_t *stack,
			   uint32_t len, struct rt_cdg_result *res)
{
	size_t at = 0, cap = sizeof(res->first_cycle);

	res->cycle_len = len;
	res->cycle_sl = (uint8_t)sl;
	at += (size_t)snprintf(res->first_cycle, cap, "SL %u:", sl);
	for (uint32_t i = 0; i < len && at < cap; i++) {
		uint32_t n = g->chan_node[stack[i]];
		const struct ibsmd_rt_node *nd = &g->v->nodes[n];
		at += (size_t)snprintf(res->first_cycle + at, cap - at,
				       " 0x%016" PRIx64 " (%s) port %u ->", nd->guid,
				       nd->desc ? nd->desc : "", stack[i] - g->chan_off[n]);
	}
	if (at < cap)
		snprintf(res->first_cycle + at, cap - at, " back to the first");
}

/* Depth-first search of one SL's graph; -ELOOP with the first cycle in @res. */
static int cdg_find_cycle(const struct cdg *g, unsigned sl, struct rt_cdg_result *res)
{
	uint8_t *color = calloc((size_t)g->nchan + 1, 1);	/* 0 new, 1 on stack, 2 done */
	unsigned *cursor = calloc((size_t)g->nchan + 1, sizeof(*cursor));
	uint32_t *stack = malloc(((size_t)g->nchan + 1) * sizeof(*stack));
	int rc = 0;

	if (!color || !cursor || !stack)
		rc = -ENOMEM;
	for (uint32_t root = 0; rc == 0 && root < g->nchan; root++) {
		uint32_t depth = 0;
		if (color[root])
			continue;
		color[root] = 1;
		stack[depth++] = root;
		while (depth && rc == 0) {
			uint32_t c = stack[depth - 1];
			uint32_t next = next_dep(g, sl, c, &cursor[c]);
			if (next == CDG_NONE) {
				color[c] = 2;
				depth--;
			} else if (color[next] == 1) {
				uint32_t from = depth - 1;
				while (stack[from] != next)
					from--;
				describe_cycle(g, sl, stack + from, depth - from, res);
				rc = -ELOOP;
			} else if (color[next] == 0) {
				color[next] = 1;
				stack[depth++] = next;
			}
		}
	}
	free(color);
	free(cursor);
	free(stack);
	return rc;
}

static uint64_t popcount_all(const uint64_t *w, size_t n)
{
	uint64_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += (uint64_t)__builtin_popcountll(w[i]);
	return k;
}

int rt_cdg_check(const struct ibsmd_rt_ctx *ctx, const struct ibsmd_routing_engine *e,
		 void *state, struct rt_cdg_result *res)
{
	struct cdg g;
	int rc;

	unsigned workers = rt_par_workers(((unsigned)ctx->view->max_lid + CDG_BLOCK_LIDS - 1) /
					  CDG_BLOCK_LIDS);

	*res = (struct rt_cdg_result){ 0 };
	rc = cdg_init(&g, ctx, workers);
	if (rc == 0)
		rc = cdg_build(&g, e, state, workers);
	for (unsigned sl = 0; rc == 0 && sl < CDG_NSL; sl++) {
		if (!g.mat[sl])
			continue;
		res->sls++;
		res->max_sl = (uint8_t)sl;
		res->dependencies += popcount_all(g.mat[sl], g.nwords);
		rc = cdg_find_cycle(&g, sl, res);
	}
	cdg_free(&g);
	return rc;
}

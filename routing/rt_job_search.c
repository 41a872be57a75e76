// SPDX-License-Identifier: MIT
/*
 * rt_job_search.c - the local search that finishes a job's routes
 * (rt_job_int.h).
 *
 * Cost: over every round of the job and every switch-to-switch link, the
 * load past the link's capacity: OWN x (e + e^2) for the job's own load in
 * that round, e its excess over 1, plus f^2 for that load and the other
 * jobs' heaviest load there together, f their excess.  A flow's share of its
 * bandwidth only falls where a link of its path is loaded past 1; the square
 * makes three flows on one link cost more than two on each of two links; a
 * link another job uses costs more than a free one; OWN, and the linear
 * term, keep the job from loading a link past 1 by itself to spare another
 * job's link: its own pattern comes first.
 *
 * Data: the job's loads per round and link; for the destination at hand, its
 * in-tree: every switch a flow toward it crosses, how many links are left
 * from there, and the traffic per round passing through it.
 *
 * Flow, destination by destination, pass after pass (until a pass moves
 * nothing, R->passes, or R->budget candidate routes walked): build the
 * in-tree; take its switches lowest rank
 * first; at each, every other port that leads the same way (up if the entry
 * goes up, down if down; only where a link on its way is loaded past 1 in
 * a round it carries traffic of) onto a route toward the destination that is one
 * link shorter and goes up then down (walked through the current tables)
 * is a candidate; the one that lowers the cost most takes the entry, and the
 * loads and the in-tree's traffic move with the traffic passing there.  No
 * pass runs when no link is past its capacity in any round: no move could
 * lower the cost.
 * A route's length never changes, and every route stays up-then-down.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_job_int.h"

#define GAIN 1e-6	/* a move must lower the cost by more than this */
#define OWN 64.0	/* the weight of the job's own contention */

struct visit {
	uint32_t sw;
	uint16_t rank;
	uint8_t left;		/* links from here to the destination */
};

struct search {
	struct jr *R;
	const struct jnet *n;
	unsigned nrounds;
	double *load;		/* [round * nlinks + link] */
	uint8_t *round_of;	/* per item */
	/* the in-tree */
	struct visit *vis;
	uint32_t nvis, viscap;
	double *w;		/* [visit * nrounds + round] */
	uint32_t *slot;		/* per switch: its visit, valid when stamp matches */
	uint32_t *stamp, gen;
	uint64_t walks;		/* candidate routes walked, against R->budget */
};

static double *load_of(const struct search *S, unsigned r)
{
	return &S->load[(size_t)r * S->n->nlinks];
}

static int add_visit(struct search *S, uint32_t s, uint8_t left)
{
	if (S->stamp[s] == S->gen)
		return (int)S->slot[s];
	if (S->nvis == S->viscap) {
		uint32_t cap = S->viscap ? 2 * S->viscap : 64;
		struct visit *v = realloc(S->vis, cap * sizeof(*v));
		double *w = realloc(S->w, (size_t)cap * S->nrounds * sizeof(*w));
		if (v)
			S->vis = v;
		if (w)
			S->w = w;
		if (!v || !w)
			return -ENOMEM;
		S->viscap = cap;
	}
	S->stamp[s] = S->gen;
	S->slot[s] = S->nvis;
	S->vis[S->nvis] = (struct visit){ s, S->n->lv.rank[s], left };
	return (int)S->nvis++;
}

static int visit_cmp(const void *a, const void *b)
{
	const struct visit *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->sw < y->sw ? -1 : x->sw > y->sw;
}

/* The in-tree of endpoint @d: the switches its flows cross, lowest rank
 * first, with the traffic per round passing each. */
static int build_tree(struct search *S, uint32_t d)
{
	struct jr *R = S->R;
	uint32_t links[JN_MAX_HOPS];

	S->gen++;
	S->nvis = 0;
	for (size_t k = R->dst_first[d]; k < R->dst_first[d + 1]; k++) {
		const struct jitem *it = &R->rounds.items[R->dst_items[k]];
		int hops = jnet_walk(S->n, &R->eps[d], it->src_sw, false, links);
		uint32_t s = it->src_sw;
		for (int h = 0; h < hops; h++) {
			int v = add_visit(S, s, (uint8_t)(hops - h));
			if (v < 0)
				return v;
			s = S->n->link_to[links[h]];
		}
	}
	if (S->nvis)
		qsort(S->vis, S->nvis, sizeof(*S->vis), visit_cmp);
	for (uint32_t v = 0; v < S->nvis; v++)
		S->slot[S->vis[v].sw] = v;
	memset(S->w, 0, (size_t)S->nvis * S->nrounds * sizeof(double));
	for (size_t k = R->dst_first[d]; k < R->dst_first[d + 1]; k++) {
		size_t i = R->dst_items[k];
		const struct jitem *it = &R->rounds.items[i];
		int hops = jnet_walk(S->n, &R->eps[d], it->src_sw, false, links);
		uint32_t s = it->src_sw;
		for (int h = 0; h < hops; h++) {
			S->w[(size_t)S->slot[s] * S->nrounds + S->round_of[i]] +=
				it->count * (double)it->demand;
			s = S->n->link_to[links[h]];
		}
	}
	return 0;
}

static double own_cost(double x)
{
	return x > 1 ? OWN * ((x - 1) + (x - 1) * (x - 1)) : 0;
}

static double shared_cost(double x)
{
	return x > 1 ? (x - 1) * (x - 1) : 0;
}

/* The cost change on a link of own load @own and background @bg when @w
 * more crosses it (@w < 0: less). */
static double link_delta(double own, double bg, double w)
{
	return own_cost(own + w) - own_cost(own) + shared_cost(own + bg + w) -
	       shared_cost(own + bg);
}

static bool in(const uint32_t *links, int n, uint32_t l)
{
	for (int i = 0; i < n; i++)
		if (links[i] == l)
			return true;
	return false;
}

/* The cost change of moving traffic @w of each round off @old and onto @new
 * (links both lists hold stay). */
static double delta(const struct search *S, const double *w, const uint32_t *old, int nold,
		    const uint32_t *new, int nnew)
{
	const float *bg = S->R->bg;
	double sum = 0;

	for (unsigned r = 0; r < S->nrounds; r++) {
		if (w[r] == 0)
			continue;
		const double *load = load_of(S, r);
		for (int i = 0; i < nnew; i++)
			if (!in(old, nold, new[i]))
				sum += link_delta(load[new[i]], bg[new[i]], w[r]);
		for (int i = 0; i < nold; i++)
			if (!in(new, nnew, old[i]))
				sum += link_delta(load[old[i]], bg[old[i]], -w[r]);
	}
	return sum;
}

static void move_load(struct search *S, const double *w, const uint32_t *old, int nold,
		      const uint32_t *new, int nnew)
{
	for (unsigned r = 0; r < S->nrounds; r++) {
		if (w[r] == 0)
			continue;
		double *load = &S->load[(size_t)r * S->n->nlinks];
		for (int i = 0; i < nold; i++)
			load[old[i]] -= w[r];
		for (int i = 0; i < nnew; i++)
			load[new[i]] += w[r];
	}
}

/*
 * After a move at visit @v: the traffic through it leaves the switches of
 * @old (links, from @v's switch on) and passes those of @new; switches new to
 * the in-tree join it (at the end: this pass still tries them).
 */
static int move_tree(struct search *S, uint32_t v, const uint32_t *old, const uint32_t *new,
		     int len)
{
	double w[RT_JOB_MAX_ROUNDS];

	memcpy(w, &S->w[(size_t)v * S->nrounds], S->nrounds * sizeof(double));
	for (int i = 0; i + 1 < len; i++) {
		uint32_t s = S->n->link_to[old[i]];
		double *x = &S->w[(size_t)S->slot[s] * S->nrounds];
		for (unsigned r = 0; r < S->nrounds; r++)
			x[r] -= w[r];
	}
	for (int i = 0; i + 1 < len; i++) {
		uint32_t s = S->n->link_to[new[i]], had = S->nvis;
		int k = add_visit(S, s, (uint8_t)(len - 1 - i));
		if (k < 0)
			return k;
		if (S->nvis > had)
			memset(&S->w[(size_t)k * S->nrounds], 0, S->nrounds * sizeof(double));
		double *x = &S->w[(size_t)k * S->nrounds];
		for (unsigned r = 0; r < S->nrounds; r++)
			x[r] += w[r];
	}
	return 0;
}

/* Does a link of @path carry more than its capacity in a round traffic @w
 * takes part in?  If not, moving that traffic cannot lower the cost. */
static bool loaded(const struct search *S, const double *w, const uint32_t *path, int len)
{
	for (unsigned r = 0; r < S->nrounds; r++) {
		const double *load = load_of(S, r);
		for (int i = 0; w[r] > 0 && i < len; i++)
			if (load[path[i]] + S->R->bg[path[i]] > 1 + GAIN)
				return true;
	}
	return false;
}

/* Try the other ports of visit @v toward endpoint @d; 1 when it moved, 0,
 * -ENOMEM. */
static int try_move(struct search *S, uint32_t d, uint32_t v)
{
	const struct jnet *n = S->n;
	const struct jep *ep = &S->R->eps[d];
	uint32_t s = S->vis[v].sw, old[JN_MAX_HOPS + 1], cand[JN_MAX_HOPS + 1],
		 best[JN_MAX_HOPS + 1];
	const double *w = &S->w[(size_t)v * S->nrounds];
	uint8_t p0 = n->ctx->lft[n->sw_node[s]][ep->lid], bestp = 0;
	uint32_t t0 = jnet_peer(n, s, p0);
	int left = S->vis[v].left;
	double best_gain = -GAIN, total = 0;

	for (unsigned r = 0; r < S->nrounds; r++)
		total += w[r];
	if (left < 1 || t0 >= n->nsw || total <= 0 || jr_bit(S->R, S->R->frozen, d, s))
		return 0;
	bool up = n->lv.rank[t0] > n->lv.rank[s];
	old[0] = n->link_off[s] + p0;
	if (jnet_walk(n, ep, t0, false, old + 1) != left - 1 || !loaded(S, w, old, left))
		return 0;
	for (unsigned p = 1; p <= n->v->nodes[n->sw_node[s]].nports; p++) {
		uint32_t t = jnet_peer(n, s, p);
		if (p == p0 || t >= n->nsw || n->lv.rank[t] == RT_NORANK ||
		    (n->lv.rank[t] > n->lv.rank[s]) != up)
			continue;
		int hops = jnet_walk(n, ep, t, true, cand + 1);
		S->walks++;
		if (hops != left - 1 || (!up && hops != n->lv.rank[t]))
			continue;
		cand[0] = n->link_off[s] + p;
		double g = delta(S, w, old, left, cand, left);
		if (g < best_gain) {
			best_gain = g;
			bestp = (uint8_t)p;
			memcpy(best, cand, (size_t)left * sizeof(*best));
		}
	}
	if (!bestp)
		return 0;
	move_load(S, w, old, left, best, left);
	int rc = jr_set(S->R, d, s, bestp);
	if (rc == 0)
		rc = move_tree(S, v, old, best, left);
	return rc ? rc : 1;
}

static int search_dest(struct search *S, uint32_t d, unsigned *moves)
{
	int rc = build_tree(S, d);

	for (uint32_t v = 0; rc == 0 && v < S->nvis && S->walks < S->R->budget; v++) {
		rc = try_move(S, d, v);
		if (rc == 1) {
			(*moves)++;
			rc = 0;
		}
	}
	return rc;
}

static int search_init(struct search *S, struct jr *R)
{
	const struct jnet *n = R->net;
	size_t nitems = R->rounds.first[R->rounds.n];

	memset(S, 0, sizeof(*S));
	S->R = R;
	S->n = n;
	S->nrounds = R->rounds.n;
	S->load = calloc((size_t)S->nrounds * n->nlinks + 1, sizeof(*S->load));
	S->round_of = malloc(nitems + 1);
	S->slot = malloc(((size_t)n->nsw + 1) * sizeof(*S->slot));
	S->stamp = calloc((size_t)n->nsw + 1, sizeof(*S->stamp));
	if (!S->load || !S->round_of || !S->slot || !S->stamp)
		return -ENOMEM;
	int rc = jr_walked(R);
	const struct jpaths *P = &R->walked;
	for (unsigned r = 0; rc == 0 && r < S->nrounds; r++)
		for (size_t i = R->rounds.first[r]; i < R->rounds.first[r + 1]; i++) {
			const struct jitem *it = &R->rounds.items[i];
			S->round_of[i] = (uint8_t)r;
			for (size_t k = P->first[i]; k < P->first[i + 1]; k++)
				load_of(S, r)[P->links[k]] += it->count * (double)it->demand;
		}
	return rc;
}

/* Is a link loaded past its capacity in a round (the other jobs' heaviest
 * loads counted)?  If none is, no move can lower the cost (try_move() needs
 * one on the route it leaves), and the search has nothing to do. */
static bool overloaded(const struct search *S)
{
	for (unsigned r = 0; r < S->nrounds; r++) {
		const double *load = load_of(S, r);
		for (uint32_t l = 0; l < S->n->nlinks; l++)
			if (load[l] + S->R->bg[l] > 1 + GAIN)
				return true;
	}
	return false;
}

static void search_free(struct search *S)
{
	free(S->load);
	free(S->round_of);
	free(S->vis);
	free(S->w);
	free(S->slot);
	free(S->stamp);
}

int jr_search(struct jr *R)
{
	struct search S;
	int rc = search_init(&S, R);
	bool busy = rc == 0 && overloaded(&S);

	for (unsigned pass = 0; busy && rc == 0 && pass < R->passes && S.walks < R->budget; pass++) {
		unsigned moves = 0;
		for (uint32_t d = 0; rc == 0 && d < R->neps && S.walks < R->budget; d++)
			if (R->dst_first[d + 1] > R->dst_first[d])
				rc = search_dest(&S, d, &moves);
		if (moves == 0)
			break;
	}
	search_free(&S);
	return rc;
}

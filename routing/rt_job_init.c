// SPDX-License-Identifier: MIT
/*
 * rt_job_init.c - a job's first routes on a regular fat tree (rt_job_int.h:
 * planes, colours).
 *
 * A permutation (the ring; each halving-doubling round): the flows that
 * leave their leaf are edge-coloured level by level.  At level 0 the graph
 * joins each flow's source leaf to its destination leaf and a colour is a
 * plane above the leaves; a flow coloured c climbs its leaf's link into plane
 * c and comes down its destination leaf's link from plane c, so a proper
 * colouring shares no leaf link.  There it reaches, on each side, the
 * switch of plane c above its leaf; where the two are one switch the flow
 * turns, else the next level colours the pair with the planes above them.
 * With as many planes above each switch as hosts below it (full bisection)
 * the colouring is proper (Konig) and the permutation contention-free.
 * Entries a round before already set (halving-doubling's rounds share one
 * table) are fixed edges of the colouring; the other jobs' heaviest loads
 * break ties between colours.  Then each round is coloured again, twice
 * over, with only the entries another round's flows cross fixed: the first
 * rounds were coloured knowing nothing of the later ones.  A round keeps its
 * new routes only when they load its links past 1 no more than the old ones.
 *
 * All-to-all: every destination gets a colour per level from its rank in
 * its rail, written in the mixed radix of the planes per level (level 0's
 * digit the lowest): rank i's colour at level 0 is i mod planes(0), at level
 * 1 (i / planes(0)) mod planes(1), and so on (Zahavi's d-mod-k by rank).
 * Where ranks follow the tree (a scheduler's sorted host list: a leaf's
 * hosts, and a pod's, are consecutive ranks), any run of consecutive ranks
 * no longer than the planes gets distinct colours, so every shift round of
 * pairwise exchange (the hosts below one switch send to a run of
 * consecutive ranks) is contention-free, up and down, and "at once" spreads
 * evenly.  Where that digit is taken on the switch the destination comes
 * down to (its leaf, then its switch in the plane chosen...; ranks in
 * another order), the destination takes the unused colour the fewest of the
 * rail's destinations in that plane hold: each down link still carries one
 * destination.  Every source leaf of the job sends toward a destination by
 * its colours.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_job_int.h"

/* A flow being coloured: its item, the switches it has reached on the
 * source and the destination side, and its edge at the level at hand. */
struct active {
	size_t item;
	uint32_t x, y;
	int64_t edge;
};

static uint8_t up_port(const struct jnet *n, uint32_t s, unsigned c)
{
	return n->up_port[(size_t)s * n->maxcol + c];
}

/* The link down from plane @c into switch @s (the reverse of its up link). */
static uint32_t down_link(const struct jnet *n, uint32_t s, unsigned c)
{
	uint8_t q = up_port(n, s, c);
	uint32_t t = jnet_peer(n, s, q);

	return n->link_off[t] + n->v->nodes[n->sw_node[s]].ports[q].peer_port;
}

static double colour_cost(void *arg, uint32_t src, uint32_t dst, unsigned c)
{
	const struct jr *R = arg;
	const struct jnet *n = R->net;

	return R->bg[n->link_off[src] + up_port(n, src, c)] + R->bg[down_link(n, dst, c)];
}

/* ---- which rounds cross which entries ---- */

struct use {
	uint32_t sw;
	uint32_t rounds;	/* bit r: a flow of round r leaves @sw toward the destination */
};

struct uses {
	size_t *first;		/* [neps + 1] */
	struct use *u;
	size_t n, cap;
};

static void uses_free(struct uses *U)
{
	free(U->first);
	free(U->u);
}

/* For every destination, the switches its flows leave and the rounds of
 * those flows. */
static int uses_collect(const struct jr *R, struct uses *U)
{
	uint32_t links[JN_MAX_HOPS];

	U->n = 0;
	if (!U->first && !(U->first = malloc(((size_t)R->neps + 1) * sizeof(*U->first))))
		return -ENOMEM;
	for (uint32_t d = 0; d < R->neps; d++) {
		U->first[d] = U->n;
		for (size_t k = R->dst_first[d]; k < R->dst_first[d + 1]; k++) {
			size_t i = R->dst_items[k];
			unsigned r = 0;
			while (R->rounds.first[r + 1] <= i)
				r++;
			const struct jitem *it = &R->rounds.items[i];
			int hops = jnet_walk(R->net, &R->eps[d], it->src_sw, false, links);
			uint32_t s = it->src_sw;
			for (int h = 0; h < hops; h++, s = R->net->link_to[links[h - 1]]) {
				size_t j = U->first[d];
				while (j < U->n && U->u[j].sw != s)
					j++;
				if (j == U->n) {
					if (U->n == U->cap) {
						size_t cap = U->cap ? 2 * U->cap : 1024;
						struct use *u = realloc(U->u, cap * sizeof(*u));
						if (!u)
							return -ENOMEM;
						U->u = u;
						U->cap = cap;
					}
					U->u[U->n++] = (struct use){ s, 0 };
				}
				U->u[j].rounds |= 1u << r;
			}
		}
	}
	U->first[R->neps] = U->n;
	return 0;
}

/* Does a flow of another round than @round leave switch @s toward @d? */
static bool used_by_others(const struct uses *U, uint32_t d, uint32_t s, unsigned round)
{
	for (size_t j = U->first[d]; j < U->first[d + 1]; j++)
		if (U->u[j].sw == s)
			return (U->u[j].rounds & ~(1u << round)) != 0;
	return false;
}

/* The colour switch @s's entry toward endpoint @d stands for when it is
 * fixed, else -1: fixed is an entry the job set before (@U NULL), or one a
 * flow of another round than @round crosses. */
static int fixed_colour(const struct jr *R, const struct uses *U, unsigned round, uint32_t d,
			uint32_t s, unsigned ncol)
{
	const struct jnet *n = R->net;

	if (U ? !used_by_others(U, d, s, round) : !jr_touched(R, d, s))
		return -1;
	uint8_t port = n->ctx->lft[n->sw_node[s]][R->eps[d].lid];
	uint8_t c = n->colour[n->link_off[s] + port];
	return c < ncol ? c : -1;
}

static int colour_permutation(struct jr *R, unsigned round, const struct uses *U,
			      struct active *a)
{
	const struct jnet *n = R->net;
	size_t na = 0;

	for (size_t i = R->rounds.first[round]; i < R->rounds.first[round + 1]; i++) {
		const struct jitem *it = &R->rounds.items[i];
		if (R->routable[it->dst] && it->src_sw != R->eps[it->dst].leaf)
			a[na++] = (struct active){ i, it->src_sw, R->eps[it->dst].leaf, -1 };
	}
	for (unsigned level = 0; na && level < n->lv.height; level++) {
		unsigned ncol = n->level_colours[level];
		if (ncol == 0)
			break;
		jcol_reset(R->col, ncol);
		for (size_t k = 0; k < na; k++) {
			uint32_t d = R->rounds.items[a[k].item].dst;
			a[k].edge = jcol_add(R->col, a[k].x, a[k].y,
					     fixed_colour(R, U, round, d, a[k].x, ncol));
			if (a[k].edge < 0)
				return (int)a[k].edge;
		}
		jcol_solve(R->col, colour_cost, R);
		size_t kept = 0;
		for (size_t k = 0; k < na; k++) {
			uint32_t d = R->rounds.items[a[k].item].dst;
			unsigned c = jcol_colour(R->col, (size_t)a[k].edge);
			int rc = jr_set(R, d, a[k].x, up_port(n, a[k].x, c));
			if (rc)
				return rc;
			a[k].x = jnet_peer(n, a[k].x, up_port(n, a[k].x, c));
			a[k].y = jnet_peer(n, a[k].y, up_port(n, a[k].y, c));
			if (a[k].x != a[k].y)
				a[kept++] = a[k];
		}
		na = kept;
	}
	return 0;
}

/* ---- all-to-all ---- */

struct spread {
	uint8_t *colours;	/* [dest * levels + level] */
	uint64_t *used;		/* [switch * words]: colours coming down to it */
	uint32_t *count;	/* [(level * nsw + plane switch) * maxcol + colour] */
	unsigned words, levels;
};

static bool used(const struct spread *sp, uint32_t s, unsigned c)
{
	return sp->used[(size_t)s * sp->words + c / 64] >> (c % 64) & 1;
}

/* Pick endpoint @d's colours, @rank its place in its rail (rail counts in
 * sp->count). */
static void pick_colours(struct jr *R, struct spread *sp, uint32_t d, uint32_t rank)
{
	const struct jnet *n = R->net;
	uint32_t y = R->eps[d].leaf;

	for (unsigned level = 0; level < sp->levels; level++) {
		unsigned ncol = n->level_colours[level], best = rank % ncol;
		uint32_t *count = &sp->count[((size_t)level * n->nsw + n->plane_of[y]) * n->maxcol];
		double best_cost = 0;
		bool taken = used(sp, y, best);
		rank /= ncol;
		for (unsigned c = 0; taken && c < ncol; c++) {
			double k = ((used(sp, y, c) ? 1e9 : 0) + count[c]) * 1e3 +
				   R->bg[down_link(n, y, c)];
			if (c == 0 || k < best_cost) {
				best = c;
				best_cost = k;
			}
		}
		sp->colours[(size_t)d * sp->levels + level] = (uint8_t)best;
		sp->used[(size_t)y * sp->words + best / 64] |= 1ull << (best % 64);
		count[best]++;
		y = jnet_peer(n, y, up_port(n, y, best));
	}
}

static int colour_alltoall(struct jr *R)
{
	const struct jnet *n = R->net;
	struct spread sp = { .words = (n->maxcol + 63) / 64 };
	unsigned rails = 0;
	int rc = 0;

	while (sp.levels < n->lv.height && n->level_colours[sp.levels])
		sp.levels++;
	if (!sp.levels)
		return 0;
	sp.colours = malloc((size_t)R->neps * sp.levels + 1);
	sp.used = calloc((size_t)n->nsw * sp.words + 1, sizeof(*sp.used));
	sp.count = malloc(((size_t)sp.levels * n->nsw * n->maxcol + 1) * sizeof(*sp.count));
	if (!sp.colours || !sp.used || !sp.count) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t d = 0; d < R->neps; d++)
		rails = R->eps[d].rail + 1u > rails ? R->eps[d].rail + 1u : rails;
	for (unsigned rail = 0; rail < rails; rail++) {
		memset(sp.count, 0, (size_t)sp.levels * n->nsw * n->maxcol * sizeof(*sp.count));
		uint32_t rank = 0;
		for (uint32_t d = 0; d < R->neps; d++)
			if (R->eps[d].rail == rail && R->routable[d])
				pick_colours(R, &sp, d, rank++);
			else
				rank += R->eps[d].rail == rail;
	}
	size_t nitems = R->rounds.first[R->rounds.n];
	for (size_t i = 0; rc == 0 && i < nitems; i++) {
		const struct jitem *it = &R->rounds.items[i];
		uint32_t x = it->src_sw, y = R->eps[it->dst].leaf;
		if (!R->routable[it->dst])
			continue;
		for (unsigned level = 0; rc == 0 && x != y && level < sp.levels; level++) {
			unsigned c = sp.colours[(size_t)it->dst * sp.levels + level];
			rc = jr_set(R, it->dst, x, up_port(n, x, c));
			x = jnet_peer(n, x, up_port(n, x, c));
			y = jnet_peer(n, y, up_port(n, y, c));
		}
	}
out:
	free(sp.colours);
	free(sp.used);
	free(sp.count);
	return rc;
}

/* ---- colouring a round again ---- */

/* Round @round's load past capacity: the sum over links of the excess, its
 * flows walked into @load (zero on entry and on return). */
static double excess(const struct jr *R, unsigned round, float *load)
{
	uint32_t links[JN_MAX_HOPS];
	double sum = 0;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = R->rounds.first[round]; i < R->rounds.first[round + 1]; i++) {
			const struct jitem *it = &R->rounds.items[i];
			int hops = jnet_walk(R->net, &R->eps[it->dst], it->src_sw, false, links);
			for (int h = 0; h < hops; h++) {
				if (pass == 0) {
					load[links[h]] += (float)it->count * it->demand;
					continue;
				}
				sum += load[links[h]] > 1 ? load[links[h]] - 1 : 0;
				load[links[h]] = 0;	/* each link counted once */
			}
		}
	return sum;
}

/* An entry as it was before a round was coloured again. */
struct saved {
	uint32_t dest, sw;
	uint8_t port;
};

/* Note the up entries of round @round's flows into @sv (room for every
 * flow's levels); their number. */
static size_t save_round(const struct jr *R, unsigned round, struct saved *sv)
{
	const struct jnet *n = R->net;
	uint32_t links[JN_MAX_HOPS];
	size_t k = 0;

	for (size_t i = R->rounds.first[round]; i < R->rounds.first[round + 1]; i++) {
		const struct jitem *it = &R->rounds.items[i];
		int hops = jnet_walk(n, &R->eps[it->dst], it->src_sw, false, links);
		uint32_t s = it->src_sw;
		for (int h = 0; h < hops; s = n->link_to[links[h++]]) {
			if (n->lv.rank[n->link_to[links[h]]] < n->lv.rank[s])
				break;
			sv[k++] = (struct saved){ it->dst, s,
						  (uint8_t)(links[h] - n->link_off[s]) };
		}
	}
	return k;
}

static int recolour(struct jr *R, unsigned round, struct uses *U, struct active *a,
		    struct saved *sv, float *load)
{
	if (R->rounds.first[round + 1] == R->rounds.first[round])
		return 0;
	double before = excess(R, round, load);
	if (before == 0)
		return 0;
	int rc = uses_collect(R, U);
	size_t nsaved = save_round(R, round, sv);
	if (rc == 0)
		rc = colour_permutation(R, round, U, a);
	if (rc == 0 && excess(R, round, load) > before)
		for (size_t k = 0; k < nsaved; k++)
			rc = rc ? rc : jr_set(R, sv[k].dest, sv[k].sw, sv[k].port);
	return rc;
}

int jr_init_routes(struct jr *R)
{
	size_t most = 0;
	struct uses U = { 0 };
	struct active *a;
	struct saved *sv;
	float *load;
	int rc = 0;

	if (R->spec->pattern == RT_JOB_ALLTOALL)
		return colour_alltoall(R);
	for (unsigned r = 0; r < R->rounds.n; r++)
		if (R->rounds.first[r + 1] - R->rounds.first[r] > most)
			most = R->rounds.first[r + 1] - R->rounds.first[r];
	a = malloc((most + 1) * sizeof(*a));
	sv = malloc((most * JN_MAX_HOPS + 1) * sizeof(*sv));
	load = calloc((size_t)R->net->nlinks + 1, sizeof(*load));
	if (!a || !sv || !load)
		rc = -ENOMEM;
	for (unsigned r = 0; rc == 0 && r < R->rounds.n; r++)
		rc = colour_permutation(R, r, NULL, a);
	for (unsigned sweep = 0; rc == 0 && R->rounds.n > 1 && sweep < 2; sweep++)
		for (unsigned r = 0; rc == 0 && r < R->rounds.n; r++)
			rc = recolour(R, r, &U, a, sv, load);
	uses_free(&U);
	free(a);
	free(sv);
	free(load);
	return rc;
}

// SPDX-License-Identifier: MIT
/*
 * rt_job_shifts.c - all-to-all as pairwise exchange, over every one of its
 * shift rounds at once (rt_job_int.h).
 *
 * The colouring by rank (rt_job_init.c) makes every shift contention-free
 * when the ranks follow the tree; in another order a leaf's ranks shifted
 * by s land on planes that repeat.  This pass then takes, destination by
 * destination, the up entry of every leaf the job sends from, and puts it
 * where that lowers, summed over all n - 1 shifts, the squares of the flows
 * sharing a link in a shift.  Pairwise exchange sends every ordered pair of
 * a rail's ranks once: rank i to rank j in shift j - i (mod n).  No shift is
 * sampled, so nothing is fitted to a few of them (as the local search over
 * RT_JOB_SHIFTS rounds would be: rt_job.h).  Rails are taken one at a time,
 * each with its own counts.  Only the leaves' entries move: the bench found
 * the switches above worth less than their cost (a 1,024-rank job in random
 * order on the 8,192-host tree: 0.868 moving the leaves' only, 0.844 moving
 * every level within the same work).
 *
 * Data: per switch and direction (its up links; the links down into it) a
 * row of counters, per shift the flows on each of its planes' links, side by
 * side.  Per destination: every source leaf's route read through the tables
 * once (tail_of(): a switch's route is its link, then the next switch's);
 * per leaf, its flows taken off their route, the up ports whose first link
 * carries the fewest flows in their shifts (SHIFT_TRIES of them, all read in
 * one row) priced whole over routes of the same length, up then down, and
 * the flows put on the cheapest (the entry kept on a tie).  The price of a
 * route: per flow and link, the flows already there in the flow's shift (one
 * more flow adds 2 x that + 1 to the sum of squares); a leaf's flows toward
 * one destination come from distinct ranks, so each is in a shift of its
 * own.  Passes over every destination follow while one moves an entry
 * (SHIFT_PASSES at most).
 *
 * Bounds: the counters' address space (SHIFT_MAP: the pass does not run past
 * it; only the rows flows touch take memory), the work (SHIFT_WORK counters
 * read and written, their filling included) and the wall time (SHIFT_MS,
 * for a job start at 27,648 hosts within a second): past either of the last
 * two the pass stops where it is, and the ranks not reached keep the
 * colouring's entries.
 * Entries a turning route crosses (R->frozen) and destinations with such
 * routes (!R->routable) keep theirs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "routing/rt_job_int.h"

#define SHIFT_MAP (1ull << 30)	/* the counters' address space, at most */
#define SHIFT_WORK 20000000u	/* counters read and written: about 0.35 s */
#define SHIFT_MS 450		/* the pass's wall time, its filling included */
#define SHIFT_TRIES 3		/* up ports whose whole routes are priced */
#define SHIFT_PASSES 3		/* over every destination, while one moves an entry */
#define NO_ROW UINT32_MAX

struct shifts {
	struct jr *R;
	const struct jnet *n;
	uint32_t k;		/* the rail's ranks */
	uint32_t *m;		/* [k]: rank i's endpoint */
	/* the ranks by leaf */
	uint32_t nleaves;
	uint32_t *leaf_sw;	/* [nleaves] */
	uint32_t *leaf_first;	/* [nleaves + 1] into by_leaf */
	uint32_t *by_leaf;	/* [k]: ranks */
	uint32_t *leaf_slot;	/* per switch: its leaf index, NO_ROW */
	/* counters: a row per switch and direction (its up links, or the
	 * links down into it), the planes side by side in each shift */
	uint32_t *row;		/* [switch * 2 + dir]: its row, NO_ROW */
	uint16_t *cnt;		/* [(row * k + shift) * ncol + plane] (mapped) */
	size_t cnt_bytes;
	uint32_t nrows, ncol;
	uint32_t *link_sw;	/* per link: the switch it leaves */
	/* the destination at hand: each source leaf's route */
	uint32_t *route;	/* [leaf * JN_MAX_HOPS + hop] */
	int *hops;		/* [leaf]: -1 none (its own leaf, or lost) */
	uint32_t *sh;		/* [k]: the shifts of the leaf at hand's flows */
	uint64_t *plane_sum;	/* [ncol]: their flows on each up link of the leaf */
	/* per switch, its route toward the destination at hand, once read
	 * (valid with tail_stamp == gen_dest) */
	uint32_t *tail;		/* [switch * JN_MAX_HOPS + hop] */
	int *tail_hops;		/* -1: it does not arrive, up then down */
	uint8_t *tail_down;	/* it only goes down */
	uint32_t *tail_stamp, gen_dest;
	uint64_t work;		/* counters read and written, against SHIFT_WORK */
	bool shared;		/* a flow was put on a link another had in its shift */
};

static uint32_t shift_of(const struct shifts *X, uint32_t i, uint32_t j)
{
	return j >= i ? j - i : j + X->k - i;
}

/* The shifts of leaf @g's flows toward rank @j, appended to X->sh from
 * @at; the new end. */
static uint32_t leaf_shifts(struct shifts *X, uint32_t g, uint32_t j, uint32_t at)
{
	for (uint32_t b = X->leaf_first[g]; b < X->leaf_first[g + 1]; b++)
		X->sh[at++] = shift_of(X, X->by_leaf[b], j);
	return at;
}

/* Link @l as the up link of its lower switch into a plane, or the link
 * down into it from that plane: its row key (switch * 2 + 1 when down) into
 * @key, its plane the return. */
static unsigned link_key(const struct shifts *X, uint32_t l, uint32_t *key)
{
	const struct jnet *n = X->n;
	uint32_t s = X->link_sw[l], t = n->link_to[l];

	if (n->lv.rank[t] > n->lv.rank[s]) {
		*key = 2 * s;
		return n->colour[l];
	}
	unsigned p = l - n->link_off[s];
	*key = 2 * t + 1;
	return n->colour[n->link_off[t] + n->v->nodes[n->sw_node[s]].ports[p].peer_port];
}

/* The counters of link @l in shift 0 (the next shift ncol further); NULL
 * for a link of no plane (none on a regular tree). */
static uint16_t *cells(struct shifts *X, uint32_t l)
{
	uint32_t key;
	unsigned plane = link_key(X, l, &key);

	if (plane >= X->ncol)
		return NULL;
	if (X->row[key] == NO_ROW)
		X->row[key] = X->nrows++;	/* mapped zero: nothing to clear */
	return &X->cnt[(size_t)X->row[key] * X->k * X->ncol + plane];
}

/* Add (@d +1) or take off (-1) the flows of shifts @sh[0 .. @nsh - 1] on
 * links @links[0 .. @len - 1]. */
static void put(struct shifts *X, const uint32_t *sh, uint32_t nsh, const uint32_t *links,
		int len, int d)
{
	for (int h = 0; h < len; h++) {
		uint16_t *c = cells(X, links[h]);
		X->work += nsh;
		for (uint32_t a = 0; c && a < nsh; a++)
			X->shared |= (c[(size_t)sh[a] * X->ncol] += (uint16_t)d) > 1 && d > 0;
	}
}

/*
 * Switch @t's route toward endpoint @ep through the tables as they are, up
 * then down (X->tail[t], its hops the return, -1 when it does not arrive so).
 * Each switch's route is read once per destination: the route of a switch
 * is its link, then the route of the switch that link leads to.  Levels are
 * taken lowest first (pass_dest()), so no entry of a switch whose route is
 * kept changes while the destination's entries are chosen; the routes of
 * the switches that do change are kept in X->route by choose().
 */
static int tail_of(struct shifts *X, const struct jep *ep, uint32_t t)
{
	const struct jnet *n = X->n;
	uint32_t chain[JN_MAX_HOPS], s = t;
	int len = 0, hops = -1;
	bool down = false;

	for (;;) {
		if (X->tail_stamp[s] == X->gen_dest) {
			hops = X->tail_hops[s];
			down = X->tail_down[s];
			break;
		}
		uint32_t l = jnet_out(n, s, ep->lid);
		if (s == ep->leaf && l == n->link_off[s] + ep->port) {
			hops = 0;
			down = true;
			break;
		}
		if (len == JN_MAX_HOPS)
			break;	/* too long from t, or a loop: s itself is not judged */
		if (l == JN_NONE || n->link_to[l] >= n->nsw) {
			X->tail_stamp[s] = X->gen_dest;	/* lost from s */
			X->tail_hops[s] = -1;
			break;
		}
		chain[len++] = s;
		s = n->link_to[l];
	}
	while (len-- > 0) {
		uint32_t c = chain[len], l = jnet_out(n, c, ep->lid), next = n->link_to[l];
		bool up = n->lv.rank[next] > n->lv.rank[c];
		if (hops < 0 || hops + 1 > JN_MAX_HOPS || (!up && !down)) {
			hops = -1;	/* down, then up again; or too long */
		} else {
			uint32_t *r = &X->tail[(size_t)c * JN_MAX_HOPS];
			r[0] = l;
			memcpy(r + 1, &X->tail[(size_t)next * JN_MAX_HOPS], (size_t)hops * sizeof(*r));
			hops++;
			down = !up;
		}
		X->tail_stamp[c] = X->gen_dest;
		X->tail_hops[c] = hops;
		X->tail_down[c] = down;
	}
	return hops;
}

/* Every source leaf's route toward rank @j into X->route (a new
 * destination: the routes read afresh). */
static void walk_all(struct shifts *X, uint32_t j)
{
	const struct jep *ep = &X->R->eps[X->m[j]];

	X->gen_dest++;
	for (uint32_t g = 0; g < X->nleaves; g++) {
		X->hops[g] = X->leaf_sw[g] == ep->leaf ? -1 : tail_of(X, ep, X->leaf_sw[g]);
		if (X->hops[g] > 0)
			memcpy(&X->route[(size_t)g * JN_MAX_HOPS],
			       &X->tail[(size_t)X->leaf_sw[g] * JN_MAX_HOPS],
			       (size_t)X->hops[g] * sizeof(*X->route));
	}
}

/* The flows already on @links in the shifts @sh[0 .. @nsh - 1] (the price
 * of a route, less what every route of that length costs alike: 2 x this
 * + len x nsh), or @bound when it reaches that. */
static uint64_t price(struct shifts *X, const uint32_t *sh, uint32_t nsh,
		      const uint32_t *links, int len, uint64_t bound)
{
	uint64_t sum = 0;

	X->work += (uint64_t)nsh * (unsigned)len;
	for (int h = 0; h < len && sum < bound; h++) {
		const uint16_t *c = cells(X, links[h]);
		for (uint32_t a = 0; c && a < nsh; a++)
			sum += c[(size_t)sh[a] * X->ncol];
	}
	return sum < bound ? sum : bound;
}

/* Up to SHIFT_TRIES up ports of leaf @s other than @p0 whose first links
 * carry the fewest of the flows of shifts X->sh[0 .. @nsh - 1] (fewer than
 * @bound) into @tries, fewest first; their number. */
static unsigned least_loaded(struct shifts *X, uint32_t s, uint8_t p0, uint32_t nsh,
			     uint64_t bound, unsigned *tries)
{
	const struct jnet *n = X->n;
	uint64_t first[SHIFT_TRIES];
	unsigned nt = 0;
	uint32_t row = X->row[2 * s];

	memset(X->plane_sum, 0, X->ncol * sizeof(*X->plane_sum));
	if (row != NO_ROW) {	/* every plane of s's up links in one row */
		const uint16_t *c = &X->cnt[(size_t)row * X->k * X->ncol];
		X->work += nsh;
		for (uint32_t a = 0; a < nsh; a++)
			for (unsigned pl = 0; pl < X->ncol; pl++)
				X->plane_sum[pl] += c[(size_t)X->sh[a] * X->ncol + pl];
	}
	for (unsigned p = 1; p <= n->v->nodes[n->sw_node[s]].nports; p++) {
		uint32_t t = jnet_peer(n, s, p), l = n->link_off[s] + p;
		if (p == p0 || t >= n->nsw || n->lv.rank[t] == RT_NORANK ||
		    n->lv.rank[t] <= n->lv.rank[s] || n->colour[l] >= X->ncol)
			continue;
		uint64_t c = X->plane_sum[n->colour[l]];
		if (c >= bound || (nt == SHIFT_TRIES && c >= first[nt - 1]))
			continue;
		unsigned at = nt < SHIFT_TRIES ? nt++ : nt - 1;
		for (; at > 0 && first[at - 1] > c; at--) {
			first[at] = first[at - 1];
			tries[at] = tries[at - 1];
		}
		first[at] = c;
		tries[at] = p;
	}
	return nt;
}

/* Leaf @g's entry toward rank @j: the cheapest up port.  1 when it moved,
 * 0, -ENOMEM. */
static int choose(struct shifts *X, uint32_t g, uint32_t j)
{
	const struct jnet *n = X->n;
	struct jr *R = X->R;
	uint32_t d = X->m[j], s = X->leaf_sw[g], *old = &X->route[(size_t)g * JN_MAX_HOPS];
	const struct jep *ep = &R->eps[d];
	int len = X->hops[g];
	uint32_t cand[JN_MAX_HOPS], best[JN_MAX_HOPS];
	uint8_t p0 = (uint8_t)(old[0] - n->link_off[s]), bestp = p0;
	unsigned tries[SHIFT_TRIES];

	if (len < 1 || n->lv.rank[n->link_to[old[0]]] <= n->lv.rank[s] ||
	    jr_bit(R, R->frozen, d, s))
		return 0;	/* going down (never from a leaf), or kept */
	uint32_t nsh = leaf_shifts(X, g, j, 0);
	put(X, X->sh, nsh, old, len, -1);
	uint64_t best_price = price(X, X->sh, nsh, old, len, UINT64_MAX);
	memcpy(best, old, (size_t)len * sizeof(*best));
	unsigned nt = best_price ? least_loaded(X, s, p0, nsh, best_price, tries) : 0;
	for (unsigned i = 0; i < nt; i++) {
		uint32_t t = jnet_peer(n, s, tries[i]);
		if (tail_of(X, ep, t) != len - 1)
			continue;
		cand[0] = n->link_off[s] + tries[i];
		memcpy(cand + 1, &X->tail[(size_t)t * JN_MAX_HOPS], (size_t)(len - 1) * sizeof(*cand));
		uint64_t c = price(X, X->sh, nsh, cand, len, best_price);
		if (c < best_price) {
			best_price = c;
			bestp = (uint8_t)tries[i];
			memcpy(best, cand, (size_t)len * sizeof(*best));
		}
	}
	put(X, X->sh, nsh, best, len, +1);
	if (bestp == p0)
		return 0;
	memcpy(old, best, (size_t)len * sizeof(*best));
	int rc = jr_set(R, d, s, bestp);
	return rc ? rc : 1;
}

/* The rail's ranks grouped by leaf, the counters filled. */
static void shifts_init(struct shifts *X)
{
	struct jr *R = X->R;

	X->nleaves = 0;
	for (uint32_t i = 0; i < X->k; i++) {
		uint32_t *slot = &X->leaf_slot[R->eps[X->m[i]].leaf];
		if (*slot == NO_ROW) {
			*slot = X->nleaves;
			X->leaf_sw[X->nleaves] = R->eps[X->m[i]].leaf;
			X->leaf_first[X->nleaves++] = 0;
		}
		X->leaf_first[*slot]++;
	}
	uint32_t at = 0;
	for (uint32_t g = 0; g < X->nleaves; g++) {
		uint32_t c = X->leaf_first[g];
		X->leaf_first[g] = at;
		at += c;
	}
	X->leaf_first[X->nleaves] = at;
	for (uint32_t i = 0; i < X->k; i++)
		X->by_leaf[X->leaf_first[X->leaf_slot[R->eps[X->m[i]].leaf]]++] = i;
	for (uint32_t g = X->nleaves; g > 0; g--)
		X->leaf_first[g] = X->leaf_first[g - 1];
	X->leaf_first[0] = 0;
	for (uint32_t g = 0; g < X->nleaves; g++)
		X->leaf_slot[X->leaf_sw[g]] = NO_ROW;
	for (uint32_t j = 0; j < X->k; j++) {
		if (!R->routable[X->m[j]])
			continue;
		walk_all(X, j);
		for (uint32_t g = 0; g < X->nleaves; g++)
			if (X->hops[g] > 0)
				put(X, X->sh, leaf_shifts(X, g, j, 0), &X->route[(size_t)g * JN_MAX_HOPS],
				    X->hops[g], +1);
	}
}

/* The counters, a row for every switch and direction, mapped anew for each
 * rail: the pages no flow touches cost nothing, and huge pages spare the
 * TLB the misses the scattered counters cause.  0; -E2BIG past SHIFT_MAP
 * bytes; -ENOMEM. */
static int counters_map(struct shifts *X)
{
	uint64_t bytes = 2 * (uint64_t)X->n->nsw * X->k * X->ncol * sizeof(*X->cnt);

	if (X->cnt)
		munmap(X->cnt, X->cnt_bytes);
	X->cnt = NULL;
	X->nrows = 0;
	memset(X->row, 0xff, ((size_t)X->n->nsw + 1) * 2 * sizeof(*X->row));
	if (bytes > SHIFT_MAP)
		return -E2BIG;
	void *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	(void)madvise(p, (size_t)bytes, MADV_HUGEPAGE);
	X->cnt = p;
	X->cnt_bytes = (size_t)bytes;
	return 0;
}

static void shifts_free(struct shifts *X)
{
	if (X->cnt)
		munmap(X->cnt, X->cnt_bytes);
	free(X->m);
	free(X->leaf_sw);
	free(X->leaf_first);
	free(X->by_leaf);
	free(X->leaf_slot);
	free(X->row);
	free(X->link_sw);
	free(X->route);
	free(X->hops);
	free(X->sh);
	free(X->plane_sum);
	free(X->tail);
	free(X->tail_hops);
	free(X->tail_down);
	free(X->tail_stamp);
}

static int shifts_alloc(struct shifts *X, uint32_t most)
{
	const struct jnet *n = X->n;
	size_t w = (size_t)most + 1, nsw = (size_t)n->nsw + 1;

	X->ncol = n->maxcol ? n->maxcol : 1;
	X->m = malloc(w * sizeof(*X->m));
	X->leaf_sw = malloc(w * sizeof(*X->leaf_sw));
	X->leaf_first = malloc((w + 1) * sizeof(*X->leaf_first));
	X->by_leaf = malloc(w * sizeof(*X->by_leaf));
	X->leaf_slot = malloc(nsw * sizeof(*X->leaf_slot));
	X->row = malloc(nsw * 2 * sizeof(*X->row));
	X->link_sw = malloc(((size_t)n->nlinks + 1) * sizeof(*X->link_sw));
	X->route = malloc(w * JN_MAX_HOPS * sizeof(*X->route));
	X->hops = malloc(w * sizeof(*X->hops));
	X->sh = malloc(w * sizeof(*X->sh));
	X->plane_sum = malloc(((size_t)X->ncol + 1) * sizeof(*X->plane_sum));
	X->tail = malloc(nsw * JN_MAX_HOPS * sizeof(*X->tail));
	X->tail_hops = malloc(nsw * sizeof(*X->tail_hops));
	X->tail_down = malloc(nsw);
	X->tail_stamp = calloc(nsw, sizeof(*X->tail_stamp));
	if (!X->m || !X->leaf_sw || !X->leaf_first || !X->by_leaf || !X->leaf_slot || !X->row ||
	    !X->link_sw || !X->route || !X->hops || !X->sh || !X->plane_sum || !X->tail ||
	    !X->tail_hops || !X->tail_down || !X->tail_stamp)
		return -ENOMEM;
	memset(X->leaf_slot, 0xff, nsw * sizeof(*X->leaf_slot));
	for (uint32_t s = 0; s < n->nsw; s++)
		for (uint32_t l = n->link_off[s]; l < n->link_off[s + 1]; l++)
			X->link_sw[l] = s;
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int jr_shifts(struct jr *R)
{
	double deadline = now_ms() + SHIFT_MS;
	struct shifts X = { .R = R, .n = R->net };
	unsigned rails = 0;
	int rc = R->net->colour ? shifts_alloc(&X, R->neps) : 0;

	for (uint32_t e = 0; R->net->colour && e < R->neps; e++)
		rails = R->eps[e].rail + 1u > rails ? R->eps[e].rail + 1u : rails;
	for (unsigned rail = 0; rc == 0 && rail < rails && X.work < SHIFT_WORK; rail++) {
		X.k = jrounds_rail_members(R->spec, rail, X.m);
		if (X.k < 3)	/* one shift: a permutation, coloured already */
			continue;
		rc = counters_map(&X);
		if (rc == -E2BIG) {	/* too many ranks: the colouring's entries stay */
			rc = 0;
			continue;
		}
		X.shared = false;
		if (rc == 0)
			shifts_init(&X);
		uint64_t moves = X.shared;	/* no link shared in any shift: done */
		for (unsigned pass = 0; rc == 0 && moves && pass < SHIFT_PASSES; pass++) {
			moves = 0;
			for (uint32_t j = 0; rc == 0 && j < X.k && X.work < SHIFT_WORK &&
					     now_ms() < deadline; j++) {
				if (!R->routable[X.m[j]])
					continue;
				walk_all(&X, j);
				for (uint32_t g = 0; rc >= 0 && g < X.nleaves; g++)
					moves += (rc = choose(&X, g, j)) > 0;
				rc = rc > 0 ? 0 : rc;
			}
		}
	}
	shifts_free(&X);
	return rc;
}

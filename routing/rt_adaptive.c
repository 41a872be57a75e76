// SPDX-License-Identifier: MIT
/*
 * rt_adaptive.c - the engine `adaptive`: ftree's static routes plus, per
 * switch and CA destination switch, the AR group (see rt_adaptive.h).
 *
 * Flow of compute_unicast:
 * 1. ftree computes the LFTs, through its engine API (its state is ours).
 * 2. Ranks: hops from the nearest switch with CAs, breadth first.
 * 3. Per destination switch D (a switch with CAs): down[S], the hops of a
 *    down-only path from S to D (breadth first from D through up links), and
 *    best[S], the hops of the shortest up*-down* path (switches by rank,
 *    highest first: down[S], or one more than the best of S's parents).
 * 4. Per switch S and D: the group (ports down one hop nearer D when S is an
 *    ancestor of D, else up to the parents on a shortest path), merged with
 *    an identical set S already has, or added while S has room.
 * 5. rt_adaptive_check(): the channel dependency graph of every hop a packet
 *    may take, static or AR (per D, a switch may send out of its group or the
 *    static port of any of D's LIDs), must have no cycle; if it has one the
 *    groups are dropped (logged), the static routes stay.
 * Cost: O(destination switches x switch links) for steps 2-3, step 4
 * O(switches x destination switches x (ports + groups of the switch)), step
 * 5 O(LFT entries + destination switches x switch links x 4 words).
 * Memory: two bytes per (switch, destination switch) pair for step 3 and as
 * many for the group numbers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "routing/rt_adaptive.h"
#include "routing/rt_ar.h"

#define AR_INF UINT16_MAX
#define AR_WORDS IBSMD_AR_WORDS	/* 64-bit words of a 256-port mask */

struct ar_state {
	void *ftree;		/* ftree's state */
	const struct ibsmd_rt_view *v;
	uint32_t nsw, cap;
	uint16_t *group;	/* [S * nsw + D]: 0 none, else the group's number + 1 */
	uint64_t (*mask)[AR_WORDS];	/* switch S's groups: mask[first[S] ..] */
	uint32_t *first;	/* [nsw + 1] */
	uint32_t ngroups, maxgroups;	/* used, allocated */
	struct rt_adaptive_stats st;
};

/* Scratch of one compute. */
struct ar_work {
	uint16_t *rank;		/* per switch; AR_INF: no CA switch reachable */
	uint32_t *order;	/* switches by rank, highest first */
	uint32_t *queue;
	uint32_t *dst;		/* the switches with CAs */
	uint32_t ndst;
	uint16_t *down, *best;	/* [k * nsw + S] for destination dst[k] */
};

static void ar_clear(struct ar_state *st)
{
	free(st->group);
	free(st->mask);
	free(st->first);
	st->group = NULL;
	st->mask = NULL;
	st->first = NULL;
	st->ngroups = st->maxgroups = 0;
	memset(&st->st, 0, sizeof(st->st));
}

static void work_free(struct ar_work *w)
{
	free(w->rank);
	free(w->order);
	free(w->queue);
	free(w->dst);
	free(w->down);
	free(w->best);
}

/* The switch at the far end of switch @s's port @p, or IBSMD_NO_NODE. */
static uint32_t peer_switch(const struct ibsmd_rt_view *v, uint32_t s, unsigned p)
{
	uint32_t peer = v->nodes[v->switch_node[s]].ports[p].peer;

	return ibsmd_is_switch(v, peer) ? v->node_switch[peer] : IBSMD_NO_NODE;
}

static bool has_cas(const struct ibsmd_rt_view *v, uint32_t s)
{
	const struct ibsmd_rt_node *nd = &v->nodes[v->switch_node[s]];

	for (unsigned p = 1; p <= nd->nports; p++)
		if (nd->ports[p].peer < v->nnodes && !ibsmd_is_switch(v, nd->ports[p].peer))
			return true;
	return false;
}

/* Step 2, and the switches by rank, highest first. */
static void ar_rank(const struct ibsmd_rt_view *v, struct ar_work *w)
{
	uint32_t nsw = v->nswitches, head = 0, tail = 0;

	for (uint32_t s = 0; s < nsw; s++) {
		w->rank[s] = has_cas(v, s) ? 0 : AR_INF;
		if (w->rank[s] == 0) {
			w->queue[tail++] = s;
			w->dst[w->ndst++] = s;
		}
	}
	while (head < tail) {
		uint32_t s = w->queue[head++];
		for (unsigned p = 1; p <= v->nodes[v->switch_node[s]].nports; p++) {
			uint32_t c = peer_switch(v, s, p);
			if (c != IBSMD_NO_NODE && w->rank[c] == AR_INF) {
				w->rank[c] = (uint16_t)(w->rank[s] + 1);
				w->queue[tail++] = c;
			}
		}
	}
	/* the queue holds the ranked switches by rank, lowest first */
	uint32_t n = 0;
	for (uint32_t i = tail; i > 0; i--)
		w->order[n++] = w->queue[i - 1];
	for (uint32_t s = 0; s < nsw; s++)
		if (w->rank[s] == AR_INF)
			w->order[n++] = s;
}

/* Step 3 for destination dst[@k]. */
static void ar_distances(const struct ibsmd_rt_view *v, struct ar_work *w, uint32_t k)
{
	uint32_t nsw = v->nswitches, head = 0, tail = 0;
	uint16_t *down = w->down + (size_t)k * nsw, *best = w->best + (size_t)k * nsw;

	for (uint32_t s = 0; s < nsw; s++)
		down[s] = AR_INF;
	down[w->dst[k]] = 0;
	w->queue[tail++] = w->dst[k];
	while (head < tail) {
		uint32_t s = w->queue[head++];
		for (unsigned p = 1; p <= v->nodes[v->switch_node[s]].nports; p++) {
			uint32_t q = peer_switch(v, s, p);
			if (q != IBSMD_NO_NODE && w->rank[s] != AR_INF &&
			    w->rank[q] == w->rank[s] + 1 && down[q] == AR_INF) {
				down[q] = (uint16_t)(down[s] + 1);
				w->queue[tail++] = q;
			}
		}
	}
	for (uint32_t i = 0; i < nsw; i++) {
		uint32_t s = w->order[i];
		best[s] = down[s];
		for (unsigned p = 1; down[s] == AR_INF && w->rank[s] != AR_INF &&
				     p <= v->nodes[v->switch_node[s]].nports; p++) {
			uint32_t q = peer_switch(v, s, p);
			if (q != IBSMD_NO_NODE && w->rank[q] == w->rank[s] + 1 &&
			    best[q] != AR_INF && best[q] + 1 < best[s])
				best[s] = (uint16_t)(best[q] + 1);
		}
	}
}

/* Step 4's port set of switch @s toward dst[@k] into @m; false when empty. */
static bool ar_ports(const struct ibsmd_rt_view *v, const struct ar_work *w, uint32_t s,
		     uint32_t k, uint64_t *m)
{
	uint32_t nsw = v->nswitches;
	const uint16_t *down = w->down + (size_t)k * nsw, *best = w->best + (size_t)k * nsw;
	bool any = false;

	memset(m, 0, AR_WORDS * sizeof(*m));
	if (best[s] == AR_INF || s == w->dst[k])
		return false;
	for (unsigned p = 1; p <= v->nodes[v->switch_node[s]].nports && p < 64 * AR_WORDS; p++) {
		uint32_t q = peer_switch(v, s, p);
		if (q == IBSMD_NO_NODE || w->rank[q] == AR_INF)
			continue;
		bool on = down[s] != AR_INF
				  ? w->rank[q] + 1 == w->rank[s] && down[q] + 1 == down[s]
				  : w->rank[q] == w->rank[s] + 1 && best[q] + 1 == best[s];
		if (on) {
			m[p / 64] |= 1ULL << (p % 64);
			any = true;
		}
	}
	return any;
}

/* Step 4: the group number + 1 of set @m on switch @s (whose groups start at
 * first[s]), added when new and there is room; 0 when there is none. */
static int ar_group_of(struct ar_state *st, uint32_t s, const uint64_t *m, uint16_t *out)
{
	uint32_t n = st->ngroups - st->first[s];

	for (uint32_t g = 0; g < n; g++)
		if (!memcmp(st->mask[st->first[s] + g], m, AR_WORDS * sizeof(*m))) {
			*out = (uint16_t)(g + 1);
			return 0;
		}
	if (n >= st->cap) {
		st->st.over_cap++;
		*out = 0;
		return 0;
	}
	if (st->ngroups == st->maxgroups) {
		uint32_t max = st->maxgroups ? 2 * st->maxgroups : 1024;
		uint64_t(*mask)[AR_WORDS] = realloc(st->mask, (size_t)max * sizeof(*mask));
		if (!mask)
			return -ENOMEM;
		st->mask = mask;
		st->maxgroups = max;
	}
	memcpy(st->mask[st->ngroups++], m, AR_WORDS * sizeof(*m));
	*out = (uint16_t)(n + 1);
	return 0;
}

static int ar_groups(struct ar_state *st, const struct ibsmd_rt_view *v, struct ar_work *w)
{
	uint32_t nsw = v->nswitches;
	uint64_t m[AR_WORDS];

	st->group = calloc((size_t)nsw * nsw + 1, sizeof(*st->group));
	st->first = calloc((size_t)nsw + 1, sizeof(*st->first));
	if (!st->group || !st->first)
		return -ENOMEM;
	for (uint32_t s = 0; s < nsw; s++) {
		st->first[s] = st->ngroups;
		for (uint32_t k = 0; k < w->ndst; k++) {
			uint16_t *g = &st->group[(size_t)s * nsw + w->dst[k]];
			if (!ar_ports(v, w, s, k, m))
				continue;
			int rc = ar_group_of(st, s, m, g);
			if (rc)
				return rc;
			st->st.entries += *g != 0;
		}
		uint32_t n = st->ngroups - st->first[s];
		st->st.max_groups = n > st->st.max_groups ? n : st->st.max_groups;
	}
	st->first[nsw] = st->ngroups;
	st->st.groups = st->ngroups;
	return 0;
}

/* ---- step 5: the channel dependency graph of all allowed hops ---- */

/* rt_ar_allow_fn: every switch's group toward destination switch @d, and the
 * static ports of the LIDs behind @d. */
static void ar_allow(const struct ibsmd_rt_ctx *ctx, const void *arg, uint32_t d,
		     const uint16_t *lids, uint32_t nlids, uint64_t (*allow)[IBSMD_AR_WORDS])
{
	const struct ar_state *st = arg;

	for (uint32_t s = 0; s < st->nsw; s++) {
		uint16_t grp = st->group[(size_t)s * st->nsw + d];
		if (grp)
			memcpy(allow[s], st->mask[st->first[s] + grp - 1], sizeof(allow[s]));
	}
	rt_ar_allow_static(ctx, lids, nlids, allow);
}

int rt_adaptive_check(const struct ibsmd_rt_ctx *ctx, const void *state)
{
	const struct ar_state *st = state;

	return st && st->group ? rt_ar_union_check(ctx, ar_allow, st) : 0;
}

/* "group_cap=N" (1..RT_ADAPTIVE_MAX_GROUPS); 0 or -EINVAL (logged). */
static int ar_options(const struct ibsmd_rt_ctx *ctx, struct ar_state *st)
{
	st->cap = RT_ADAPTIVE_MAX_GROUPS;
	for (unsigned i = 0; ctx->options && i < ctx->noptions; i++) {
		const char *o = ctx->options[i];
		char *end;
		if (strncmp(o, "group_cap=", 10) != 0)
			continue;
		unsigned long n = strtoul(o + 10, &end, 10);
		if (!o[10] || *end || n < 1 || n > RT_ADAPTIVE_MAX_GROUPS) {
			ctx->log(LOG_ERR, "routing: adaptive: option '%s': want group_cap=1..%u",
				 o, RT_ADAPTIVE_MAX_GROUPS);
			return -EINVAL;
		}
		st->cap = (uint32_t)n;
	}
	if (ctx->ar && ctx->ar->group_cap < st->cap)	/* what the switches hold */
		st->cap = ctx->ar->group_cap;
	return 0;
}

static int ar_compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	const struct ibsmd_rt_view *v = ctx->view;
	struct ar_state *st = state;
	uint32_t nsw = v->nswitches;
	struct ar_work w = { 0 };
	int rc;

	if (!st)
		return -EINVAL;
	ar_clear(st);
	st->v = v;
	st->nsw = nsw;
	if ((rc = ar_options(ctx, st)) || (rc = rt_ftree_engine.compute_unicast(ctx, st->ftree)))
		return rc;
	w.rank = malloc(((size_t)nsw + 1) * sizeof(*w.rank));
	w.order = malloc(((size_t)nsw + 1) * sizeof(*w.order));
	w.queue = malloc(((size_t)nsw + 1) * sizeof(*w.queue));
	w.dst = malloc(((size_t)nsw + 1) * sizeof(*w.dst));
	rc = w.rank && w.order && w.queue && w.dst ? 0 : -ENOMEM;
	if (rc == 0) {
		ar_rank(v, &w);
		w.down = malloc(((size_t)w.ndst * nsw + 1) * sizeof(*w.down));
		w.best = malloc(((size_t)w.ndst * nsw + 1) * sizeof(*w.best));
		rc = w.down && w.best ? 0 : -ENOMEM;
	}
	for (uint32_t k = 0; rc == 0 && k < w.ndst; k++)
		ar_distances(v, &w, k);
	if (rc == 0)
		rc = ar_groups(st, v, &w);
	work_free(&w);
	if (rc == 0 && (rc = rt_adaptive_check(ctx, st)) == -ELOOP) {
		ctx->log(LOG_WARNING, "routing: adaptive: the AR groups with the static routes "
			 "allow a credit loop: groups dropped, static routes kept");
		ar_clear(st);
		rc = 0;
	}
	if (rc == 0)
		ctx->log(LOG_INFO, "routing: adaptive: %llu AR groups (at most %u on a switch, "
			 "cap %u) for %llu switch-destination pairs, %llu left static by the cap",
			 (unsigned long long)st->st.groups, st->st.max_groups, st->cap,
			 (unsigned long long)st->st.entries, (unsigned long long)st->st.over_cap);
	return rc;
}

static int ar_setup(const struct ibsmd_rt_ctx *ctx, void **state)
{
	struct ar_state *st = calloc(1, sizeof(*st));
	int rc = st ? rt_ftree_engine.setup(ctx, &st->ftree) : -ENOMEM;

	if (rc) {
		free(st);
		return rc;
	}
	*state = st;
	return 0;
}

static void ar_destroy(void *state)
{
	struct ar_state *st = state;

	if (!st)
		return;
	rt_ftree_engine.destroy(st->ftree);
	ar_clear(st);
	free(st);
}

static uint8_t ar_path_sl(const struct ibsmd_rt_ctx *ctx, void *state, uint16_t slid,
			  uint16_t dlid)
{
	const struct ar_state *st = state;

	return st ? rt_ftree_engine.path_sl(ctx, st->ftree, slid, dlid) : 0;
}

void rt_adaptive_stats(const void *state, struct rt_adaptive_stats *out)
{
	const struct ar_state *st = state;

	memset(out, 0, sizeof(*out));
	if (st)
		*out = st->st;
}

/* The switch number a CA @lid is cabled to, or IBSMD_NO_NODE. */
static uint32_t lid_dst(const struct ibsmd_rt_view *v, uint32_t lid)
{
	uint32_t h = v->lid_node[lid];

	if (h >= v->nnodes || ibsmd_is_switch(v, h) || v->lid_port[lid] > v->nodes[h].nports)
		return IBSMD_NO_NODE;
	uint32_t peer = v->nodes[h].ports[v->lid_port[lid]].peer;
	return ibsmd_is_switch(v, peer) ? v->node_switch[peer] : IBSMD_NO_NODE;
}

const uint64_t *rt_adaptive_group(const void *state, uint32_t node, uint16_t lid)
{
	const struct ar_state *st = state;
	const struct ibsmd_rt_view *v = st ? st->v : NULL;

	if (!v || !st->group || !ibsmd_is_switch(v, node) || lid > v->max_lid)
		return NULL;
	uint32_t s = v->node_switch[node], d = lid_dst(v, lid);
	uint16_t g = d == IBSMD_NO_NODE ? 0 : st->group[(size_t)s * st->nsw + d];
	return g ? st->mask[st->first[s] + g - 1] : NULL;
}

/* compute_ar (routing ABI 3): switch S's groups keep their numbers 1..n, in
 * destination switch order, so the same fabric gets the same numbers. */
static int ar_fill(const struct ibsmd_rt_ctx *ctx, void *state)
{
	const struct ar_state *st = state;
	const struct ibsmd_rt_view *v = ctx->view;

	if (!st || !st->group)
		return 0;
	for (uint32_t s = 0; s < st->nsw; s++)
		for (uint32_t g = st->first[s]; g < st->first[s + 1]; g++)
			ibsmd_ar_group_set(ctx, v->switch_node[s], (uint16_t)(g - st->first[s] + 1),
					   st->mask[g]);
	for (uint32_t lid = 1; lid <= v->max_lid; lid++) {
		uint32_t d = lid_dst(v, lid);
		for (uint32_t s = 0; d != IBSMD_NO_NODE && s < st->nsw; s++)
			ibsmd_ar_lid_set(ctx, v->switch_node[s], (uint16_t)lid,
					 st->group[(size_t)s * st->nsw + d]);
	}
	return 0;
}

IBSMD_ROUTING_ENGINE(adaptive) = {
	.name = "adaptive",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.description = "ftree's static routes plus AR groups: per switch and destination, "
		       "the up/down-legal ports of a shortest path",
	.setup = ar_setup,
	.compute_unicast = ar_compute,
	.deadlock_free = true,
	.path_sl = ar_path_sl,
	.path_sl_by_switch = true,
	.destroy = ar_destroy,
	.compute_ar = ar_fill,
};

// SPDX-License-Identifier: MIT
/*
 * rt_rebalance.c - hot ports to cool equal-cost ports (see rt_rebalance.h).
 *
 * Flow: copy the loads into estimates (est[node][port]); weigh every CA LID
 * by the load of its leaf's port toward it; list the hot switch ports,
 * hottest first; for each, list the LIDs its LFT sends out of it that may
 * move, heaviest first, and move each to the coolest port of its group while
 * the rules hold.  Cost: O(switch ports) to find the hot ones, then per hot
 * port O(max_lid log max_lid); memory: one estimate per port, one weight and
 * one list entry per LID.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_rebalance.h"

struct rb_port {
	uint32_t node;
	uint8_t port;
	double load;
};

struct rb_lid {
	uint16_t lid;
	double weight;
};

static int rb_port_cmp(const void *a, const void *b)
{
	const struct rb_port *x = a, *y = b;

	if (x->load != y->load)
		return x->load > y->load ? -1 : 1;
	return x->node != y->node ? (x->node < y->node ? -1 : 1) : x->port - y->port;
}

static int rb_lid_cmp(const void *a, const void *b)
{
	const struct rb_lid *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return x->lid - y->lid;
}

/* The weight of every CA LID: its leaf port's load over its 2^LMC LIDs. */
static void rb_weights(const struct ibsmd_rt_view *v, const double *const *load, double *w)
{
	for (uint32_t lid = 0; lid <= v->max_lid; lid++) {
		uint32_t h = v->lid_node[lid];
		w[lid] = 0;
		if (lid == 0 || h >= v->nnodes || ibsmd_is_switch(v, h) ||
		    v->lid_port[lid] > v->nodes[h].nports)
			continue;
		const struct ibsmd_rt_port *hp = &v->nodes[h].ports[v->lid_port[lid]];
		uint32_t leaf = hp->peer;
		if (!ibsmd_is_switch(v, leaf) || !load[leaf] || hp->peer_port > v->nodes[leaf].nports)
			continue;
		w[lid] = load[leaf][hp->peer_port] / (double)(1u << (hp->lmc & 7));
	}
}

#define RB_MAX_PATH 64

/* A directed link: switch node and output port. */
struct rb_hop {
	uint32_t node;
	uint8_t port;
};

/* The links from switch @sw out of @first, then as the LFTs send @lid, up to
 * the last switch before its host: how many, or 0 when it ends nowhere. */
static unsigned rb_path(const struct ibsmd_rt_ctx *ctx, uint32_t sw, uint8_t first, uint16_t lid,
			struct rb_hop *hops)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint8_t p = first;

	for (unsigned n = 0; n < RB_MAX_PATH; n++) {
		if (p == 0 || p > v->nodes[sw].nports || v->nodes[sw].ports[p].peer >= v->nnodes)
			return 0;
		hops[n] = (struct rb_hop){ sw, p };
		sw = v->nodes[sw].ports[p].peer;
		if (!ibsmd_is_switch(v, sw))
			return n + 1;
		p = ibsmd_lft_get(ctx, sw, lid);
	}
	return 0;
}

static bool rb_on(const struct rb_hop *hops, unsigned n, const struct rb_hop *h)
{
	for (unsigned i = 0; i < n; i++)
		if (hops[i].node == h->node && hops[i].port == h->port)
			return true;
	return false;
}

/* The busiest link of @path that is not on @other (0 when none). */
static double rb_path_max(double *const *est, const struct rb_hop *path, unsigned n,
			  const struct rb_hop *other, unsigned nother)
{
	double max = 0;

	for (unsigned i = 0; i < n; i++)
		if (!rb_on(other, nother, &path[i]) && est[path[i].node][path[i].port] > max)
			max = est[path[i].node][path[i].port];
	return max;
}

/* Add @d to the estimate of every link of @path not on @other. */
static void rb_path_add(double *const *est, const struct rb_hop *path, unsigned n,
			const struct rb_hop *other, unsigned nother, double d)
{
	for (unsigned i = 0; i < n; i++)
		if (!rb_on(other, nother, &path[i]))
			est[path[i].node][path[i].port] += d;
}

/* The least of @w and what every link of @path carries. */
static double rb_path_min(double *const *est, const struct rb_hop *path, unsigned n, double w)
{
	for (unsigned i = 0; i < n; i++)
		w = est[path[i].node][path[i].port] < w ? est[path[i].node][path[i].port] : w;
	return w;
}

/*
 * Move @lid at switch @sw off port @from, to the port of @mask whose new path
 * is the least busy, if that path stays cool and the move leaves it below
 * where @from was; @wt: what the move shifts.  The port moved to, or 0.
 */
static uint8_t rb_move(const struct ibsmd_rt_ctx *ctx, const struct rt_rebalance_opts *o,
		       double *const *est, uint32_t sw, uint16_t lid, uint8_t from,
		       const uint64_t *mask, double wt)
{
	const struct ibsmd_rt_view *v = ctx->view;
	struct rb_hop old[RB_MAX_PATH], cur[RB_MAX_PATH], best[RB_MAX_PATH];
	unsigned nold = rb_path(ctx, sw, from, lid, old), nbest = 0;
	double best_max = 0;
	uint8_t to = 0;

	for (unsigned p = 1; nold && p <= v->nodes[sw].nports && p < 256; p++) {
		if (p == from || !(mask[p / 64] >> (p % 64) & 1))
			continue;
		unsigned n = rb_path(ctx, sw, (uint8_t)p, lid, cur);
		double max = n ? rb_path_max(est, cur, n, old, nold) : 0;
		if (!n || (to && max >= best_max))
			continue;
		to = (uint8_t)p;
		best_max = max;
		nbest = n;
		memcpy(best, cur, n * sizeof(*cur));
	}
	if (!to || best_max > o->cool || best_max + wt >= est[sw][from])
		return 0;
	rb_path_add(est, old, nold, best, nbest, -wt);
	rb_path_add(est, best, nbest, old, nold, wt);
	ibsmd_lft_set(ctx, sw, lid, to);
	return to;
}

/* Move what may move off the hot port @hp; false when the budget is spent. */
static bool rb_drain(const struct ibsmd_rt_ctx *ctx, const struct rt_rebalance_opts *o,
		     double *const *est, const double *w, struct rb_lid *list,
		     const struct rb_port *hp, struct rt_rebalance_move *moves, uint32_t *nmoves)
{
	const struct ibsmd_rt_view *v = ctx->view;
	struct rb_hop path[RB_MAX_PATH];
	uint32_t n = 0, sw = hp->node;
	uint8_t from = hp->port;
	double sum = 0;

	for (uint32_t lid = 1; lid <= v->max_lid; lid++) {
		if (w[lid] <= 0 || ibsmd_lft_get(ctx, sw, (uint16_t)lid) != from ||
		    (o->may_move && !o->may_move(o->may_move_arg, sw, (uint16_t)lid)))
			continue;
		unsigned np = rb_path(ctx, sw, from, (uint16_t)lid, path);
		double pw = np ? rb_path_min(est, path, np, w[lid]) : 0;
		if (pw > 0) {
			list[n++] = (struct rb_lid){ (uint16_t)lid, pw };
			sum += pw;
		}
	}
	qsort(list, n, sizeof(*list), rb_lid_cmp);
	/* which candidates carry the port's load, its counters cannot tell:
	 * each is taken to carry its share */
	double scale = sum > est[sw][from] ? est[sw][from] / sum : 1;
	for (uint32_t i = 0; i < n && est[sw][from] > o->hot; i++) {
		if (*nmoves >= o->max_moves)
			return false;
		const uint64_t *mask = o->groups(o->groups_arg, sw, list[i].lid);
		double wt = list[i].weight * scale, was_from = est[sw][from];
		uint8_t to = mask ? rb_move(ctx, o, est, sw, list[i].lid, from, mask, wt) : 0;
		if (to)
			moves[(*nmoves)++] = (struct rt_rebalance_move){ .sw = sw,
				.lid = list[i].lid, .from = from, .to = to, .from_load = was_from,
				.to_load = est[sw][to] - wt, .weight = wt };
	}
	return true;
}

int rt_rebalance(const struct ibsmd_rt_ctx *ctx, const double *const *load,
		 const struct rt_rebalance_opts *o, struct rt_rebalance_move *moves,
		 uint32_t *nmoves)
{
	const struct ibsmd_rt_view *v = ctx->view;
	size_t nports = 0;
	int rc = -ENOMEM;

	*nmoves = 0;
	if (!(o->cool < o->hot) || !o->groups)
		return -EINVAL;
	for (uint32_t s = 0; s < v->nswitches; s++)
		nports += v->nodes[v->switch_node[s]].nports + 1u;
	double **est = calloc((size_t)v->nnodes + 1, sizeof(*est));
	double *cells = malloc((nports + 1) * sizeof(*cells));
	double *w = malloc(((size_t)v->max_lid + 1) * sizeof(*w));
	struct rb_port *hot = malloc((nports + 1) * sizeof(*hot));
	struct rb_lid *list = malloc(((size_t)v->max_lid + 1) * sizeof(*list));
	if (!est || !cells || !w || !hot || !list)
		goto out;
	uint32_t nhot = 0;
	double *c = cells;
	for (uint32_t s = 0; s < v->nswitches; s++) {
		uint32_t sw = v->switch_node[s];
		est[sw] = c;
		for (unsigned p = 0; p <= v->nodes[sw].nports; p++) {
			double l = load[sw] ? load[sw][p] : 0;
			*c++ = l;
			if (p && l > o->hot && v->nodes[sw].ports[p].peer != IBSMD_NO_NODE)
				hot[nhot++] = (struct rb_port){ sw, (uint8_t)p, l };
		}
	}
	rb_weights(v, load, w);
	qsort(hot, nhot, sizeof(*hot), rb_port_cmp);
	for (uint32_t i = 0; i < nhot; i++)
		if (!rb_drain(ctx, o, est, w, list, &hot[i], moves, nmoves))
			break;
	rc = 0;
out:
	free(est);
	free(cells);
	free(w);
	free(hot);
	free(list);
	return rc;
}

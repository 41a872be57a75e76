// SPDX-License-Identifier: MIT
/*
 * rt_traffic.c - the flow-level traffic model (see rt_traffic.h).
 *
 * Data: one directed link per linked port of every node, link = off[node] +
 * port (a CA port's link is its host's injection link), with a capacity.
 * Hosts in leaf order.  A round is a list of flows (source host, destination
 * host); their paths are laid out one after the other (path_off, path).
 *
 * Flow, per round and per mode (static, then adaptive):
 * 1. static: walk each flow's path by the LFTs.  AR (t_place_all): in each
 *    of RT_TRAFFIC_AR_PASSES passes, each flow in turn is taken off its links,
 *    the way its switches choose now is found (t_choose, memoized per flow),
 *    and 1/(pass + 1) of it moves there (t_place); a path is then a list of
 *    (link, share) with each link once (pw: the shares; 1 when static);
 * 2. progressive filling: every link's fair share is its spare capacity over
 *    the summed shares of the flows not yet fixed on it; the link with the
 *    smallest (a heap, stale entries skipped by a version per link) fixes
 *    its flows at that rate, which (times their shares) is taken from the
 *    other links of their paths; repeat;
 * 3. add each flow's rate over its ideal rate (rt_traffic.h), at most 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo_rate.h"
#include "routing/rt_traffic.h"

#define T_INF 1e300

struct heap_item {
	double share;
	uint32_t link, version;
};

struct traffic {
	const struct ibsmd_rt_ctx *ctx;
	const struct ibsmd_rt_view *v;
	uint32_t nlinks, nhosts;
	bool rated;		/* capacities from link rates */
	uint32_t *off;		/* node -> the link of its port 0 */
	double *cap;		/* per link */
	uint32_t *host_node;
	uint8_t *host_port;
	/* the round */
	uint32_t nflows, *src, *dst;
	uint32_t *path_off, *path;	/* path_off[nflows + 1] */
	double *pw;		/* the share of its flow's traffic each path link carries */
	size_t npath, path_max;	/* path, pw, prev, prevw, link_flows, link_w hold path_max */
	/* AR: the previous pass's paths; per node the choice for the flow being
	 * placed (valid where stamp == cur_stamp); per link where it is in the
	 * flow's new path (valid where at_stamp == cur_stamp) */
	uint32_t *prev_off, *prev;
	double *prevw;
	uint32_t *stamp, *at_stamp, *at, *old_stamp, cur_stamp;
	double *cost, *old_w;
	uint8_t *choice, *old_port;
	uint32_t *link_node;	/* link -> its node */
	double *rate;
	double *util;		/* per link: opts->port_load's sums over the rounds */
	double *demand;		/* per link: opts->port_demand's */
	/* progressive filling, per link: load is the flows' shares summed */
	double *spare, *load, *unfixed_w, *link_w;
	uint32_t *unfixed, *version, *link_off, *link_flows;
	struct heap_item *heap;
	uint32_t nheap, heap_max;
};

static void t_free(struct traffic *T)
{
	free(T->off);
	free(T->cap);
	free(T->host_node);
	free(T->host_port);
	free(T->src);
	free(T->dst);
	free(T->path_off);
	free(T->path);
	free(T->rate);
	free(T->util);
	free(T->demand);
	free(T->spare);
	free(T->load);
	free(T->unfixed);
	free(T->version);
	free(T->link_off);
	free(T->link_flows);
	free(T->heap);
	free(T->pw);
	free(T->prev_off);
	free(T->prev);
	free(T->prevw);
	free(T->stamp);
	free(T->at_stamp);
	free(T->at);
	free(T->cost);
	free(T->choice);
	free(T->old_stamp);
	free(T->old_w);
	free(T->old_port);
	free(T->link_node);
	free(T->unfixed_w);
	free(T->link_w);
}

/* Links and capacities, hosts in leaf order.  0 or -ENOMEM. */
static int t_init(struct traffic *T, const struct ibsmd_rt_ctx *ctx)
{
	const struct ibsmd_rt_view *v = ctx->view;

	memset(T, 0, sizeof(*T));
	T->ctx = ctx;
	T->v = v;
	if (!(T->off = malloc(((size_t)v->nnodes + 1) * sizeof(*T->off))))
		return -ENOMEM;
	for (uint32_t n = 0; n < v->nnodes; n++) {
		T->off[n] = T->nlinks;
		T->nlinks += v->nodes[n].nports + 1u;
	}
	T->cap = malloc(((size_t)T->nlinks + 1) * sizeof(*T->cap));
	T->host_node = malloc(((size_t)T->nlinks + 1) * sizeof(*T->host_node));
	T->host_port = malloc((size_t)T->nlinks + 1);
	if (!T->cap || !T->host_node || !T->host_port)
		return -ENOMEM;
	T->rated = true;
	for (uint32_t n = 0; n < v->nnodes; n++)
		for (unsigned p = 0; p <= v->nodes[n].nports; p++) {
			const struct ibsmd_rt_port *pt = &v->nodes[n].ports[p];
			T->cap[T->off[n] + p] = mad_rate_mbps(pt->width, pt->speed);
			T->rated = T->rated && (p == 0 || pt->peer >= v->nnodes || T->cap[T->off[n] + p] > 0);
		}
	for (uint32_t i = 0; i < T->nlinks; i++)
		T->cap[i] = T->rated ? T->cap[i] : 1;
	for (uint32_t s = 0; s < v->nswitches; s++) {
		const struct ibsmd_rt_node *nd = &v->nodes[v->switch_node[s]];
		for (unsigned p = 1; p <= nd->nports; p++) {
			uint32_t h = nd->ports[p].peer;
			uint8_t hp = nd->ports[p].peer_port;
			if (h >= v->nnodes || ibsmd_is_switch(v, h) || hp > v->nodes[h].nports)
				continue;
			uint16_t lid = v->nodes[h].ports[hp].lid;
			if (lid && lid <= v->max_lid) {
				T->host_node[T->nhosts] = h;
				T->host_port[T->nhosts++] = hp;
			}
		}
	}
	return 0;
}

/* Room for @flows flows (their paths grow as they are walked). */
static int t_alloc_round(struct traffic *T, uint64_t flows)
{
	T->src = malloc((flows + 1) * sizeof(*T->src));
	T->dst = malloc((flows + 1) * sizeof(*T->dst));
	T->path_off = malloc((flows + 2) * sizeof(*T->path_off));
	T->rate = malloc((flows + 1) * sizeof(*T->rate));
	T->spare = malloc(((size_t)T->nlinks + 1) * sizeof(*T->spare));
	T->load = malloc(((size_t)T->nlinks + 1) * sizeof(*T->load));
	T->unfixed = malloc(((size_t)T->nlinks + 1) * sizeof(*T->unfixed));
	T->version = calloc((size_t)T->nlinks + 1, sizeof(*T->version));
	T->link_off = malloc(((size_t)T->nlinks + 2) * sizeof(*T->link_off));
	T->prev_off = malloc((flows + 2) * sizeof(*T->prev_off));
	T->stamp = calloc((size_t)T->v->nnodes + 1, sizeof(*T->stamp));
	T->cost = malloc(((size_t)T->v->nnodes + 1) * sizeof(*T->cost));
	T->choice = malloc((size_t)T->v->nnodes + 1);
	T->at_stamp = calloc((size_t)T->nlinks + 1, sizeof(*T->at_stamp));
	T->at = malloc(((size_t)T->nlinks + 1) * sizeof(*T->at));
	T->unfixed_w = malloc(((size_t)T->nlinks + 1) * sizeof(*T->unfixed_w));
	T->old_stamp = calloc((size_t)T->v->nnodes + 1, sizeof(*T->old_stamp));
	T->old_w = malloc(((size_t)T->v->nnodes + 1) * sizeof(*T->old_w));
	T->old_port = malloc((size_t)T->v->nnodes + 1);
	T->link_node = malloc(((size_t)T->nlinks + 1) * sizeof(*T->link_node));
	if (!T->src || !T->dst || !T->path_off || !T->rate || !T->spare || !T->load ||
	    !T->unfixed || !T->version || !T->link_off || !T->prev_off || !T->stamp ||
	    !T->cost || !T->choice || !T->at_stamp || !T->at || !T->unfixed_w ||
	    !T->old_stamp || !T->old_w || !T->old_port || !T->link_node)
		return -ENOMEM;
	for (uint32_t n = 0; n < T->v->nnodes; n++)
		for (unsigned p = 0; p <= T->v->nodes[n].nports; p++)
			T->link_node[T->off[n] + p] = n;
	return 0;
}

/* Room for one more link in path, prev, link_flows and the heap. */
static int t_grow(struct traffic *T)
{
	size_t max = T->path_max ? 2 * T->path_max : 4096;
	uint32_t *path = realloc(T->path, max * sizeof(*path));

	if (path)
		T->path = path;
	uint32_t *prev = path ? realloc(T->prev, max * sizeof(*prev)) : NULL;
	if (prev)
		T->prev = prev;
	uint32_t *lf = prev ? realloc(T->link_flows, max * sizeof(*lf)) : NULL;
	if (lf)
		T->link_flows = lf;
	double *w[3] = { NULL, NULL, NULL };
	if (lf && (w[0] = realloc(T->pw, max * sizeof(double))))
		T->pw = w[0];
	if (w[0] && (w[1] = realloc(T->prevw, max * sizeof(double))))
		T->prevw = w[1];
	if (w[1] && (w[2] = realloc(T->link_w, max * sizeof(double))))
		T->link_w = w[2];
	struct heap_item *heap = w[2] ? realloc(T->heap, (T->nlinks + max + 1) * sizeof(*heap)) : NULL;
	if (!heap)
		return -ENOMEM;
	T->heap = heap;
	T->path_max = max;
	return 0;
}

/* One more link on the path being laid out, carrying @w of the flow.  0 or
 * -ENOMEM. */
static int t_append(struct traffic *T, uint32_t link, double w)
{
	if (T->npath == T->path_max && t_grow(T))
		return -ENOMEM;
	T->pw[T->npath] = w;
	T->path[T->npath++] = link;
	return 0;
}

/* Step 1, static, for flow @f: its links appended to path by the LFTs.  1
 * when it is delivered, 0 when not (its links are dropped again), -ENOMEM. */
static int t_walk(struct traffic *T, uint32_t f)
{
	const struct ibsmd_rt_view *v = T->v;
	uint32_t dn = T->host_node[T->dst[f]], n = T->host_node[T->src[f]];
	uint8_t dp = T->host_port[T->dst[f]], p = T->host_port[T->src[f]];
	uint16_t lid = v->nodes[dn].ports[dp].lid;
	size_t start = T->npath;

	for (uint32_t hops = 0; hops <= v->nswitches + 1; hops++) {
		if (t_append(T, T->off[n] + p, 1))
			return -ENOMEM;
		uint32_t next = v->nodes[n].ports[p].peer;
		if (next >= v->nnodes)
			break;
		if (!ibsmd_is_switch(v, next)) {
			if (next == dn && v->nodes[n].ports[p].peer_port == dp)
				return 1;
			break;
		}
		n = next;
		p = ibsmd_lft_get(T->ctx, n, lid);
		if (p == 0 || p > v->nodes[n].nports)
			break;
	}
	T->npath = start;
	return 0;
}

/*
 * AR, step 1: how congested the way from switch node @sw to host port
 * (@dn, @dp) is for the flow being placed, and which port @sw would send all
 * of it out of (T->choice).
 *
 * This is where the model stands for per-packet AR under credit-based flow
 * control: a switch sends each packet out of the port of the group whose
 * queue drains fastest, and a port's queue drains only as fast as the links
 * behind it, since a full buffer downstream withholds credits and so
 * back-pressures into the port feeding it.  So a port's congestion is the
 * most loaded link (traffic per unit of capacity, the whole flow added) on
 * the way it leads to, the switches behind it choosing the same way for the
 * flow; without a group a switch has its static port only.  Ties: the
 * port that carries most of the flow already (so a flow moves only for a
 * less congested way), then the static port, then the lowest.  Memoized per flow (stamp); a node met again
 * while its cost is worked out (a loop) counts as undelivered (T_INF).
 */
static double t_choose(struct traffic *T, const struct rt_traffic_opts *o, uint32_t sw,
		       uint32_t dn, uint8_t dp, uint16_t lid)
{
	const struct ibsmd_rt_view *v = T->v;
	const struct ibsmd_rt_node *nd = &v->nodes[sw];

	if (T->stamp[sw] == T->cur_stamp)
		return T->cost[sw];
	T->stamp[sw] = T->cur_stamp;
	T->cost[sw] = T_INF;	/* while it is worked out: a loop back here */
	T->choice[sw] = 0;

	uint8_t stat = ibsmd_lft_get(T->ctx, sw, lid);
	uint8_t old = T->old_stamp[sw] == T->cur_stamp ? T->old_port[sw] : 0;
	const uint64_t *mask = o->ar(o->ar_arg, sw, lid);
	double best = T_INF;
	uint8_t pick = 0;
	int rank = 3;	/* of pick: 0 the old port, 1 the static one, 2 another */

	for (unsigned p = 1; p <= nd->nports; p++) {
		if (mask ? !(mask[p / 64] >> (p % 64) & 1) : p != stat)
			continue;
		const struct ibsmd_rt_port *pt = &nd->ports[p];
		if (pt->peer >= v->nnodes)
			continue;
		uint32_t link = T->off[sw] + p;
		double c = T->load[link] / T->cap[link];
		if (!ibsmd_is_switch(v, pt->peer)) {
			if (pt->peer != dn || pt->peer_port != dp)
				continue;
		} else {
			double rest = t_choose(T, o, pt->peer, dn, dp, lid);
			c = rest > c ? rest : c;
		}
		int rk = p == old ? 0 : p == stat ? 1 : 2;
		if (c < best || (c == best && rk < rank)) {
			best = c;
			pick = (uint8_t)p;
			rank = rk;
		}
	}
	T->cost[sw] = best;
	T->choice[sw] = pick;
	return best;
}

/* AR: add @w of the flow being placed to @link of its new path. */
static int t_add(struct traffic *T, uint32_t link, double w)
{
	if (T->at_stamp[link] == T->cur_stamp) {
		T->pw[T->at[link]] += w;
		return 0;
	}
	T->at_stamp[link] = T->cur_stamp;
	T->at[link] = (uint32_t)T->npath;
	return t_append(T, link, w);
}

/*
 * AR, step 1 for flow @f in pass @pass: its traffic taken off its links, a
 * share of 1 / (pass + 1) moved onto the way its switches choose now, the
 * rest kept where it was (the method of successive averages: the shares
 * converge to a split where no way the groups allow is less congested than
 * the ways the flow uses), and counted on the links again.  1 when it is
 * delivered, 0 when not, -ENOMEM.
 */
static int t_place(struct traffic *T, const struct rt_traffic_opts *o, uint32_t f,
		   unsigned pass)
{
	const struct ibsmd_rt_view *v = T->v;
	uint32_t dn = T->host_node[T->dst[f]], n = T->host_node[T->src[f]];
	uint8_t dp = T->host_port[T->dst[f]], p = T->host_port[T->src[f]];
	uint16_t lid = v->nodes[dn].ports[dp].lid;
	uint32_t sw = v->nodes[n].ports[p].peer;
	size_t start = T->npath;
	double step = 1.0 / (pass + 1);

	T->cur_stamp++;
	for (uint32_t i = pass ? T->prev_off[f] : 0; pass && i < T->prev_off[f + 1]; i++) {
		uint32_t l = T->prev[i], ln = T->link_node[l];
		if (T->old_stamp[ln] != T->cur_stamp || T->prevw[i] > T->old_w[ln]) {
			T->old_stamp[ln] = T->cur_stamp;
			T->old_w[ln] = T->prevw[i];
			T->old_port[ln] = (uint8_t)(l - T->off[ln]);
		}
	}
	double c = sw < v->nnodes && ibsmd_is_switch(v, sw) ? t_choose(T, o, sw, dn, dp, lid) : T_INF;
	for (uint32_t i = pass ? T->prev_off[f] : 0; pass && i < T->prev_off[f + 1]; i++)
		T->load[T->prev[i]] -= T->prevw[i];
	if (c >= T_INF)
		return 0;
	for (uint32_t i = pass ? T->prev_off[f] : 0; pass && i < T->prev_off[f + 1]; i++)
		if (t_add(T, T->prev[i], T->prevw[i] * (1 - step)))
			return -ENOMEM;
	if (t_add(T, T->off[n] + p, step))
		return -ENOMEM;
	for (n = sw; ibsmd_is_switch(v, n); n = v->nodes[n].ports[p].peer) {
		p = T->choice[n];
		if (t_add(T, T->off[n] + p, step))
			return -ENOMEM;
	}
	for (size_t i = start; i < T->npath; i++)
		T->load[T->path[i]] += T->pw[i];
	return 1;
}

/* AR, step 1 for the round: RT_TRAFFIC_AR_PASSES passes over the flows.
 * The undelivered flows are added to *@undelivered.  0 or -ENOMEM. */
static int t_place_all(struct traffic *T, const struct rt_traffic_opts *o,
		       uint64_t *undelivered)
{
	uint64_t lost = 0;

	memset(T->load, 0, (size_t)T->nlinks * sizeof(*T->load));
	for (unsigned pass = 0; pass < RT_TRAFFIC_AR_PASSES; pass++) {
		uint32_t *t = T->prev;
		T->prev = T->path;
		T->path = t;
		t = T->prev_off;
		T->prev_off = T->path_off;
		T->path_off = t;
		double *w = T->prevw;
		T->prevw = T->pw;
		T->pw = w;
		T->npath = 0;
		lost = 0;
		for (uint32_t f = 0; f < T->nflows; f++) {
			T->path_off[f] = (uint32_t)T->npath;
			int rc = t_place(T, o, f, pass);
			if (rc < 0)
				return rc;
			lost += !rc;
		}
		T->path_off[T->nflows] = (uint32_t)T->npath;
	}
	*undelivered += lost;
	return 0;
}

static void heap_push(struct traffic *T, double share, uint32_t link)
{
	uint32_t i = T->nheap++;

	while (i > 0 && T->heap[(i - 1) / 2].share > share) {
		T->heap[i] = T->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	T->heap[i] = (struct heap_item){ share, link, T->version[link] };
}

static struct heap_item heap_pop(struct traffic *T)
{
	struct heap_item top = T->heap[0], last = T->heap[--T->nheap];
	uint32_t i = 0;

	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= T->nheap)
			break;
		if (c + 1 < T->nheap && T->heap[c + 1].share < T->heap[c].share)
			c++;
		if (T->heap[c].share >= last.share)
			break;
		T->heap[i] = T->heap[c];
		i = c;
	}
	if (T->nheap)
		T->heap[i] = last;
	return top;
}

/* Step 2: max-min fair rates of the round's delivered flows.  A flow's
 * rate r puts r * its share on each link of its path. */
static void t_fill(struct traffic *T)
{
	memset(T->unfixed, 0, (size_t)T->nlinks * sizeof(*T->unfixed));
	memset(T->unfixed_w, 0, (size_t)T->nlinks * sizeof(*T->unfixed_w));
	memcpy(T->spare, T->cap, (size_t)T->nlinks * sizeof(*T->spare));
	for (size_t i = 0; i < T->npath; i++) {
		T->unfixed[T->path[i]]++;
		T->unfixed_w[T->path[i]] += T->pw[i];
	}
	T->link_off[0] = 0;
	for (uint32_t l = 0; l < T->nlinks; l++) {
		T->link_off[l + 1] = T->link_off[l] + T->unfixed[l];
		T->unfixed[l] = T->link_off[l];	/* a cursor while the lists fill */
	}
	for (uint32_t f = 0; f < T->nflows; f++)
		for (uint32_t i = T->path_off[f]; i < T->path_off[f + 1]; i++) {
			T->link_w[T->unfixed[T->path[i]]] = T->pw[i];
			T->link_flows[T->unfixed[T->path[i]]++] = f;
		}
	for (uint32_t l = 0; l < T->nlinks; l++)
		T->unfixed[l] = T->link_off[l + 1] - T->link_off[l];
	T->nheap = 0;
	for (uint32_t l = 0; l < T->nlinks; l++)
		if (T->unfixed[l])
			heap_push(T, T->spare[l] / T->unfixed_w[l], l);
	for (uint32_t f = 0; f < T->nflows; f++)
		T->rate[f] = -1;	/* not fixed yet */
	while (T->nheap) {
		struct heap_item it = heap_pop(T);
		if (it.version != T->version[it.link] || !T->unfixed[it.link])
			continue;
		for (uint32_t k = T->link_off[it.link]; k < T->link_off[it.link + 1]; k++) {
			uint32_t f = T->link_flows[k];
			if (T->rate[f] >= 0)
				continue;
			T->rate[f] = it.share;
			for (uint32_t i = T->path_off[f]; i < T->path_off[f + 1]; i++) {
				uint32_t l = T->path[i];
				T->spare[l] -= it.share * T->pw[i];
				T->unfixed_w[l] -= T->pw[i];
				T->version[l]++;
				if (--T->unfixed[l] && l != it.link) {
					double s = T->unfixed_w[l] > 0 ? T->spare[l] / T->unfixed_w[l] : T_INF;
					heap_push(T, s > it.share ? s : it.share, l);
				}
			}
		}
	}
}

/* Steps 1-3 for the round's flows in one mode, added to *@sum.  0 or
 * -ENOMEM. */
static int t_round(struct traffic *T, const struct rt_traffic_opts *o, unsigned k,
		   double *sum, uint64_t *undelivered)
{
	T->npath = 0;
	if (o->ar) {
		int rc = t_place_all(T, o, undelivered);
		if (rc < 0)
			return rc;
	} else {
		for (uint32_t f = 0; f < T->nflows; f++) {
			T->path_off[f] = (uint32_t)T->npath;
			int rc = t_walk(T, f);
			if (rc < 0)
				return rc;
			*undelivered += !rc;
		}
		T->path_off[T->nflows] = (uint32_t)T->npath;
	}
	t_fill(T);
	for (uint32_t f = 0; T->util && !o->ar && f < T->nflows; f++)
		for (uint32_t i = T->path_off[f]; i < T->path_off[f + 1]; i++)
			T->util[T->path[i]] += T->rate[f] / T->cap[T->path[i]];
	for (uint32_t f = 0; f < T->nflows; f++) {
		double cs = T->cap[T->off[T->host_node[T->src[f]]] + T->host_port[T->src[f]]];
		double cd = T->cap[T->off[T->host_node[T->dst[f]]] + T->host_port[T->dst[f]]];
		double x = T->rate[f] * k / (cs < cd ? cs : cd);
		for (uint32_t i = T->path_off[f]; T->demand && !o->ar && i < T->path_off[f + 1]; i++)
			T->demand[T->path[i]] += (cs < cd ? cs : cd) / k / T->cap[T->path[i]];
		*sum += T->path_off[f] == T->path_off[f + 1] ? 0 : x < 1 ? x : 1;
	}
	return 0;
}

/* splitmix64 (Steele, Lea, Flood 2014): small, and the same on every platform */
static uint64_t t_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rt_traffic_matching(uint32_t n, uint64_t *rng, uint32_t *perm)
{
	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint32_t i = n ? n - 1 : 0; i > 0; i--) {
		uint32_t j = (uint32_t)(t_random(rng) % (i + 1)), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
}

/* The flows of round @r of the pattern into src/dst. */
static void t_flows(struct traffic *T, const struct rt_traffic_opts *o, unsigned r,
		    uint64_t *rng)
{
	uint32_t n = T->nhosts;

	T->nflows = 0;
	if (o->pattern == RT_TRAFFIC_RANDOM) {
		rt_traffic_matching(n, rng, T->path_off);	/* scratch until the walk */
		for (uint32_t i = 0; i + 1 < n; i += 2) {
			T->src[T->nflows] = T->path_off[i];
			T->dst[T->nflows++] = T->path_off[i + 1];
			T->src[T->nflows] = T->path_off[i + 1];
			T->dst[T->nflows++] = T->path_off[i];
		}
		return;
	}
	if (o->pattern == RT_TRAFFIC_BITREV) {
		unsigned bits = 0;
		while (bits < 31 && (2u << bits) <= n)
			bits++;
		for (uint32_t i = 0; n > 1 && i < (1u << bits); i++) {
			uint32_t rev = 0;
			for (unsigned b = 0; b < bits; b++)
				rev |= (i >> b & 1) << (bits - 1 - b);
			if (rev != i) {
				T->src[T->nflows] = i;
				T->dst[T->nflows++] = rev;
			}
		}
		return;
	}
	/* shift r + 1; all-to-all: every shift, one after the other */
	uint32_t first = o->pattern == RT_TRAFFIC_SHIFT ? r + 1 : 1;
	uint32_t last = o->pattern == RT_TRAFFIC_SHIFT ? r + 1 : n - 1;
	for (uint32_t s = first; s <= last; s++)
		for (uint32_t i = 0; i < n; i++) {
			T->src[T->nflows] = i;
			T->dst[T->nflows++] = i + s < n ? i + s : i + s - n;
		}
}

int rt_traffic(const struct ibsmd_rt_ctx *ctx, const struct rt_traffic_opts *o,
	       struct rt_traffic *t)
{
	const struct rt_traffic_opts stat = { .pattern = o->pattern };
	struct traffic T;
	double sum[2] = { 0, 0 };
	uint64_t rng = o->seed, per_round;
	int rc;

	memset(t, 0, sizeof(*t));
	if (o->pattern > RT_TRAFFIC_BITREV)
		return -EINVAL;
	t->pattern = o->pattern;
	t->adaptive = o->ar != NULL;
	rc = t_init(&T, ctx);
	if (rc)
		goto out;
	t->rated = T.rated;
	t->hosts = T.nhosts;
	uint32_t n = T.nhosts;
	switch (o->pattern) {
	case RT_TRAFFIC_SHIFT:
		t->rounds = n > 1 ? n - 1 : 0;
		per_round = n;
		break;
	case RT_TRAFFIC_RANDOM:
		t->rounds = n > 1 ? o->pairings : 0;
		per_round = n;
		break;
	case RT_TRAFFIC_BITREV:
		t->rounds = n > 1;
		per_round = n;
		break;
	default:
		if (n > RT_TRAFFIC_MAX_ALLTOALL_HOSTS) {
			rc = -E2BIG;
			goto out;
		}
		t->rounds = n > 1;
		per_round = (uint64_t)n * (n ? n - 1 : 0);
		break;
	}
	unsigned k = o->pattern == RT_TRAFFIC_ALLTOALL && n > 1 ? n - 1 : 1;
	rc = t_alloc_round(&T, per_round);
	if (rc == 0 && o->port_load && !(T.util = calloc((size_t)T.nlinks + 1, sizeof(*T.util))))
		rc = -ENOMEM;
	if (rc == 0 && o->port_demand &&
	    !(T.demand = calloc((size_t)T.nlinks + 1, sizeof(*T.demand))))
		rc = -ENOMEM;
	for (unsigned r = 0; rc == 0 && r < t->rounds; r++) {
		t_flows(&T, o, r, &rng);
		t->flows += T.nflows;
		rc = t_round(&T, &stat, k, &sum[0], &t->stat.undelivered);
		if (rc == 0 && o->ar)
			rc = t_round(&T, o, k, &sum[1], &t->adapt.undelivered);
	}
	for (uint32_t nd = 0; rc == 0 && T.util && nd < ctx->view->nnodes; nd++)
		for (unsigned p = 0; o->port_load[nd] && p <= ctx->view->nodes[nd].nports; p++)
			o->port_load[nd][p] = t->rounds ? T.util[T.off[nd] + p] / t->rounds : 0;
	for (uint32_t nd = 0; rc == 0 && T.demand && nd < ctx->view->nnodes; nd++)
		for (unsigned p = 0; o->port_demand[nd] && p <= ctx->view->nodes[nd].nports; p++)
			o->port_demand[nd][p] = t->rounds ? T.demand[T.off[nd] + p] / t->rounds : 0;
	t->stat.ebb = t->flows ? sum[0] / (double)t->flows : 0;
	t->adapt.ebb = t->flows && o->ar ? sum[1] / (double)t->flows : 0;
out:
	t_free(&T);
	return rc;
}

static const char *const t_names[] = {
	[RT_TRAFFIC_SHIFT] = "shift",
	[RT_TRAFFIC_RANDOM] = "random",
	[RT_TRAFFIC_ALLTOALL] = "alltoall",
	[RT_TRAFFIC_BITREV] = "bitrev",
};

const char *rt_traffic_pattern_name(enum rt_traffic_pattern p)
{
	return p <= RT_TRAFFIC_BITREV ? t_names[p] : "?";
}

int rt_traffic_pattern_parse(const char *name, enum rt_traffic_pattern *p)
{
	for (unsigned i = 0; i <= RT_TRAFFIC_BITREV; i++)
		if (!strcmp(name, t_names[i])) {
			*p = (enum rt_traffic_pattern)i;
			return 0;
		}
	return -EINVAL;
}

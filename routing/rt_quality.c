// SPDX-License-Identifier: MIT
/*
 * rt_quality.c - the quality of a routing result (see rt_quality.h).
 *
 * Data: switches and hosts numbered densely (hosts in leaf order), and a
 * directed link per switch port: link = link_off[switch] + port, leading to
 * another switch or to a CA.
 *
 * Flow:
 * 1. For each destination host, the LFT entries toward its LID form a tree
 *    (or worse): every switch is settled once as delivering (with its
 *    distance), lost, or looping, by walking until a settled switch and
 *    settling the walk on the way back.  The delivering switches' ports go
 *    into next_port[switch][host], the routes table of steps 2 and 3.  The
 *    same pass counts pairs by length and verdict, and, taking the switches
 *    farthest first, adds the routes each switch gathers to its out link:
 *    the per-link path counts.  O(hosts * switches).
 * 2. Shift permutations: every flow walked through next_port, counting flows
 *    per link.  O(hosts^2 * path length), row by row of next_port.
 * 3. EBB: random perfect matchings (rt_traffic_matching(), the pairings of
 *    the traffic model's random pattern), each flow walked twice: once to
 *    count the flows per link, once to find the busiest link of its path.
 * 4. LMC path diversity: from every switch with hosts, the routes toward each
 *    LID of every remote host port with LMC > 0, walked through the LFTs;
 *    the links they cross counted with a stamp per link (one per switch and
 *    destination), weighted by the hosts on the source switch.
 * Reachability and loops are also checked by rt_validate() (its first problem
 * names the pair for the report), credit loops by rt_cdg_check().
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_quality.h"
#include "routing/rt_traffic.h"

#define Q_NONE UINT32_MAX	/* no switch */
#define Q_CA (UINT32_MAX - 1)	/* a link's far end is a CA */
#define Q_NO_ROUTE 0xff		/* next_port: this switch does not deliver */

enum { UNSEEN, ON_WALK, DELIVERED, LOST, LOOPS };

struct quality {
	const struct ibsmd_rt_ctx *ctx;
	const struct ibsmd_rt_view *v;
	uint32_t nsw, nhosts, nlinks;
	const uint32_t *sw_node;	/* the view's switch_node: switch -> node */
	const uint32_t *node_sw;	/* the view's node_switch (Q_NONE: not a switch) */
	uint32_t *sw_hosts;	/* hosts cabled to each switch */
	uint32_t *host_node, *host_sw;	/* host -> its node, its switch */
	uint8_t *host_port;	/* host -> its port on its node */
	uint32_t *link_off;	/* switch -> its port 0's link */
	uint32_t *link_next;	/* link -> the switch it leads to, Q_CA, Q_NONE */
	uint8_t *next_port;	/* [switch * nhosts + host] */
	uint32_t *flows;	/* per link: flows of the permutation at hand */
	/* step 1 scratch, per switch */
	uint8_t *state;
	uint32_t *dist, *walk, *order, *acc, *bucket;
	uint64_t *load;		/* per link: routes crossing it */
	unsigned lid_offset;	/* routes toward base LID + this (rt_quality_opts) */
};

static void q_free(struct quality *Q)
{
	free(Q->sw_hosts);
	free(Q->host_node);
	free(Q->host_sw);
	free(Q->host_port);
	free(Q->link_off);
	free(Q->link_next);
	free(Q->next_port);
	free(Q->flows);
	free(Q->state);
	free(Q->dist);
	free(Q->walk);
	free(Q->order);
	free(Q->acc);
	free(Q->bucket);
	free(Q->load);
}

/* Is port @p of node @n a host: a CA/router port with a LID, cabled to a switch? */
static bool is_host_port(const struct ibsmd_rt_view *v, uint32_t n, unsigned p)
{
	const struct ibsmd_rt_port *port = &v->nodes[n].ports[p];

	return !ibsmd_is_switch(v, n) && port->lid && port->lid <= v->max_lid &&
	       ibsmd_is_switch(v, port->peer);
}

/* Switches, then links, then hosts in leaf order (each switch's ports). */
static int q_number(struct quality *Q)
{
	const struct ibsmd_rt_view *v = Q->v;

	Q->nsw = v->nswitches;
	Q->sw_node = v->switch_node;
	Q->node_sw = v->node_switch;
	for (uint32_t s = 0; s < Q->nsw; s++) {
		Q->link_off[s] = Q->nlinks;
		Q->nlinks += v->nodes[Q->sw_node[s]].nports + 1u;
	}
	Q->link_next = malloc(((size_t)Q->nlinks + 1) * sizeof(*Q->link_next));
	if (!Q->link_next)
		return -ENOMEM;
	for (uint32_t s = 0; s < Q->nsw; s++) {
		const struct ibsmd_rt_node *nd = &v->nodes[Q->sw_node[s]];
		for (unsigned p = 0; p <= nd->nports; p++) {
			uint32_t peer = nd->ports[p].peer, *next = &Q->link_next[Q->link_off[s] + p];
			if (p == 0 || peer >= v->nnodes)
				*next = Q_NONE;
			else
				*next = ibsmd_is_switch(v, peer) ? Q->node_sw[peer] : Q_CA;
			if (*next == Q_CA && is_host_port(v, peer, nd->ports[p].peer_port)) {
				Q->host_node[Q->nhosts] = peer;
				Q->host_port[Q->nhosts] = nd->ports[p].peer_port;
				Q->host_sw[Q->nhosts++] = s;
				Q->sw_hosts[s]++;
			}
		}
	}
	return 0;
}

static int q_init(struct quality *Q, const struct ibsmd_rt_ctx *ctx)
{
	const struct ibsmd_rt_view *v = ctx->view;
	size_t n = (size_t)v->nnodes + 1;
	size_t ports = 0;

	memset(Q, 0, sizeof(*Q));
	Q->ctx = ctx;
	Q->v = v;
	for (uint32_t i = 0; i < v->nnodes; i++)
		ports += v->nodes[i].nports;
	Q->sw_hosts = calloc(n, sizeof(*Q->sw_hosts));
	Q->link_off = malloc(n * sizeof(*Q->link_off));
	Q->host_node = malloc((ports + 1) * sizeof(*Q->host_node));
	Q->host_sw = malloc((ports + 1) * sizeof(*Q->host_sw));
	Q->host_port = malloc(ports + 1);
	Q->state = malloc(n);
	Q->dist = malloc(n * sizeof(*Q->dist));
	Q->walk = malloc(n * sizeof(*Q->walk));
	Q->order = malloc(n * sizeof(*Q->order));
	Q->acc = malloc(n * sizeof(*Q->acc));
	Q->bucket = malloc((n + 1) * sizeof(*Q->bucket));
	if (!Q->sw_hosts || !Q->link_off || !Q->host_node ||
	    !Q->host_sw || !Q->host_port || !Q->state || !Q->dist || !Q->walk || !Q->order ||
	    !Q->acc || !Q->bucket || q_number(Q))
		return -ENOMEM;
	Q->next_port = malloc((size_t)Q->nsw * Q->nhosts + 1);
	Q->flows = malloc(((size_t)Q->nlinks + 1) * sizeof(*Q->flows));
	Q->load = calloc((size_t)Q->nlinks + 1, sizeof(*Q->load));
	return Q->next_port && Q->flows && Q->load ? 0 : -ENOMEM;
}

/* The LID traffic to host @d is sent to: its base LID + the offset asked
 * for, when the port's LMC covers it. */
static uint16_t q_lid(const struct quality *Q, uint32_t d)
{
	const struct ibsmd_rt_port *p = &Q->v->nodes[Q->host_node[d]].ports[Q->host_port[d]];
	unsigned off = Q->lid_offset < (1u << (p->lmc & 7)) ? Q->lid_offset : 0;

	return p->lid + off <= Q->v->max_lid ? (uint16_t)(p->lid + off) : p->lid;
}

/*
 * Where switch @s sends traffic for host @d: DELIVERED (out port to d's CA
 * port), LOST (no port, an uncabled one, another CA), or ON_WALK with *@next
 * the switch the packet goes on to.
 */
static uint8_t q_step(const struct quality *Q, uint32_t s, uint32_t d, uint32_t *next)
{
	const struct ibsmd_rt_node *nd = &Q->v->nodes[Q->sw_node[s]];
	uint8_t port = ibsmd_lft_get(Q->ctx, Q->sw_node[s], q_lid(Q, d));

	if (port == 0 || port > nd->nports)
		return LOST;
	*next = Q->link_next[Q->link_off[s] + port];
	if (*next == Q_CA)
		return nd->ports[port].peer == Q->host_node[d] &&
		       nd->ports[port].peer_port == Q->host_port[d] ? DELIVERED : LOST;
	return *next == Q_NONE ? LOST : ON_WALK;
}

/* Settle switch @s for host @d and every switch its route passes. */
static void q_settle(struct quality *Q, uint32_t s, uint32_t d)
{
	uint32_t depth = 0, next = Q_NONE, dist = 0;	/* dist: of the switch after the walk */
	uint8_t verdict;

	for (;;) {
		Q->state[s] = ON_WALK;
		Q->walk[depth++] = s;
		verdict = q_step(Q, s, d, &next);
		if (verdict != ON_WALK)
			break;
		if (Q->state[next] != UNSEEN) {
			verdict = Q->state[next] == ON_WALK ? LOOPS : Q->state[next];
			dist = verdict == DELIVERED ? Q->dist[next] : 0;
			break;
		}
		s = next;
	}
	while (depth) {
		s = Q->walk[--depth];
		Q->state[s] = verdict;
		Q->dist[s] = ++dist;
	}
}

/* Step 1 for destination host @d: verdicts, next_port, lengths, link loads. */
static void q_destination(struct quality *Q, uint32_t d, struct rt_quality *r)
{
	uint32_t dsw = Q->host_sw[d], maxd = 0, next;

	memset(Q->state, UNSEEN, Q->nsw);
	for (uint32_t s = 0; s < Q->nsw; s++)
		if (Q->state[s] == UNSEEN)
			q_settle(Q, s, d);
	for (uint32_t s = 0; s < Q->nsw; s++) {
		uint32_t srcs = Q->sw_hosts[s] - (s == dsw);
		bool ok = Q->state[s] == DELIVERED;
		Q->next_port[(size_t)s * Q->nhosts + d] =
			ok ? ibsmd_lft_get(Q->ctx, Q->sw_node[s], q_lid(Q, d)) : Q_NO_ROUTE;
		Q->acc[s] = ok ? srcs : 0;
		if (ok) {
			uint32_t len = Q->dist[s] + 1;
			r->hops[len < RT_QUALITY_MAX_HOPS ? len : RT_QUALITY_MAX_HOPS] += srcs;
			maxd = Q->dist[s] > maxd ? Q->dist[s] : maxd;
		} else if (Q->state[s] == LOOPS) {
			r->loops += srcs;
		} else {
			r->unreachable += srcs;
		}
	}
	/* counting sort of the delivering switches, farthest first */
	memset(Q->bucket, 0, ((size_t)maxd + 2) * sizeof(*Q->bucket));
	for (uint32_t s = 0; s < Q->nsw; s++)
		if (Q->state[s] == DELIVERED)
			Q->bucket[maxd - Q->dist[s] + 1]++;
	for (uint32_t i = 1; i <= maxd + 1; i++)
		Q->bucket[i] += Q->bucket[i - 1];
	for (uint32_t s = 0; s < Q->nsw; s++)
		if (Q->state[s] == DELIVERED)
			Q->order[Q->bucket[maxd - Q->dist[s]]++] = s;
	uint32_t ndeliver = Q->bucket[maxd];
	for (uint32_t i = 0; i < ndeliver; i++) {
		uint32_t s = Q->order[i];
		uint32_t link = Q->link_off[s] + Q->next_port[(size_t)s * Q->nhosts + d];
		Q->load[link] += Q->acc[s];
		next = Q->link_next[link];
		if (next != Q_CA)
			Q->acc[next] += Q->acc[s];
	}
}

/* The per-link figures over every cabled switch port. */
static void q_link_load(const struct quality *Q, struct rt_link_load *l)
{
	double sum = 0, sumsq = 0;

	*l = (struct rt_link_load){ .min = UINT64_MAX };
	for (uint32_t i = 0; i < Q->nlinks; i++) {
		if (Q->link_next[i] == Q_NONE)
			continue;
		l->links++;
		l->min = Q->load[i] < l->min ? Q->load[i] : l->min;
		l->max = Q->load[i] > l->max ? Q->load[i] : l->max;
		sum += (double)Q->load[i];
		sumsq += (double)Q->load[i] * (double)Q->load[i];
	}
	if (!l->links) {
		l->min = 0;
		return;
	}
	l->mean = sum / l->links;
	double var = sumsq / l->links - l->mean * l->mean;
	l->stddev = var > 0 ? sqrt(var) : 0;
}

/* Count flow @i -> @d on its links; the most flows on one of them after it, 0
 * when the flow is not delivered. */
static uint32_t q_flow_add(struct quality *Q, uint32_t i, uint32_t d)
{
	uint32_t s = Q->host_sw[i], most = 0;

	if (Q->next_port[(size_t)s * Q->nhosts + d] == Q_NO_ROUTE)
		return 0;
	for (;;) {
		uint32_t link = Q->link_off[s] + Q->next_port[(size_t)s * Q->nhosts + d];
		uint32_t f = ++Q->flows[link];
		most = f > most ? f : most;
		if ((s = Q->link_next[link]) == Q_CA)
			return most;
	}
}

/* The most flows on one link of flow @i -> @d's path, 0 when not delivered. */
static uint32_t q_flow_peak(const struct quality *Q, uint32_t i, uint32_t d)
{
	uint32_t s = Q->host_sw[i], most = 0;

	if (Q->next_port[(size_t)s * Q->nhosts + d] == Q_NO_ROUTE)
		return 0;
	for (;;) {
		uint32_t link = Q->link_off[s] + Q->next_port[(size_t)s * Q->nhosts + d];
		most = Q->flows[link] > most ? Q->flows[link] : most;
		if ((s = Q->link_next[link]) == Q_CA)
			return most;
	}
}

static void q_shifts(struct quality *Q, struct rt_quality *r)
{
	uint32_t n = Q->nhosts;

	r->shifts = n > 1 ? n - 1 : 0;
	for (uint32_t shift = 1; shift < n; shift++) {
		uint32_t worst = 0;
		bool delivered = true;
		memset(Q->flows, 0, (size_t)Q->nlinks * sizeof(*Q->flows));
		for (uint32_t i = 0; i < n; i++) {
			uint32_t d = i + shift < n ? i + shift : i + shift - n;
			uint32_t most = q_flow_add(Q, i, d);
			delivered = delivered && most;
			worst = most > worst ? most : worst;
		}
		r->shifts_free += delivered && worst <= 1;
		r->shift_worst = worst > r->shift_worst ? worst : r->shift_worst;
	}
}

static int q_ebb(struct quality *Q, unsigned pairings, uint64_t seed, struct rt_quality *r)
{
	uint32_t n = Q->nhosts, *perm = malloc(((size_t)n + 1) * sizeof(*perm));
	uint64_t rng = seed, flows = 0;
	double sum = 0;

	if (!perm)
		return -ENOMEM;
	for (unsigned k = 0; k < pairings && n > 1; k++) {
		rt_traffic_matching(n, &rng, perm);
		memset(Q->flows, 0, (size_t)Q->nlinks * sizeof(*Q->flows));
		for (uint32_t i = 0; i + 1 < n; i += 2) {
			q_flow_add(Q, perm[i], perm[i + 1]);
			q_flow_add(Q, perm[i + 1], perm[i]);
		}
		for (uint32_t i = 0; i + 1 < n; i += 2) {
			uint32_t a = q_flow_peak(Q, perm[i], perm[i + 1]);
			uint32_t b = q_flow_peak(Q, perm[i + 1], perm[i]);
			sum += (a ? 1.0 / a : 0) + (b ? 1.0 / b : 0);
			flows += 2;
		}
	}
	free(perm);
	r->ebb = flows ? sum / (double)flows : 0;
	return 0;
}

/* Step 4 for destination host @d (LMC @lmc > 0) from switch @s; the stamp
 * @tag marks the links crossed.  Adds to @r's sums. */
static void q_diverse(struct quality *Q, uint32_t s, uint32_t d, unsigned lmc, uint32_t tag,
		      uint32_t *stamp, struct rt_quality *r, double *links, double *distinct)
{
	uint16_t base = Q->v->nodes[Q->host_node[d]].ports[Q->host_port[d]].lid;
	uint32_t n = 1u << lmc, nlinks = 0, ndistinct = 0, nfirst = 0;
	uint8_t first[128];

	for (uint32_t l = 0; l < n && base + l <= Q->v->max_lid; l++) {
		uint32_t at = s;
		uint8_t port = ibsmd_lft_get(Q->ctx, Q->sw_node[at], (uint16_t)(base + l));
		bool seen = false;
		for (uint32_t k = 0; k < nfirst; k++)
			seen |= first[k] == port;
		if (!seen)
			first[nfirst++] = port;
		for (uint32_t hops = 0; hops <= Q->nsw; hops++) {
			if (port == 0 || port > Q->v->nodes[Q->sw_node[at]].nports)
				break;
			uint32_t link = Q->link_off[at] + port;
			nlinks++;
			if (stamp[link] != tag) {
				stamp[link] = tag;
				ndistinct++;
			}
			if ((at = Q->link_next[link]) >= Q->nsw)
				break;
			port = ibsmd_lft_get(Q->ctx, Q->sw_node[at], (uint16_t)(base + l));
		}
	}
	uint32_t w = Q->sw_hosts[s];
	r->lmc.pairs += w;
	r->lmc.spread += nfirst == n ? w : 0;
	*links += (double)w * nlinks / n;
	*distinct += (double)w * ndistinct;
}

static int q_diversity(struct quality *Q, struct rt_quality *r)
{
	uint32_t *stamp = calloc((size_t)Q->nlinks + 1, sizeof(*stamp)), tag = 0;
	double links = 0, distinct = 0;

	if (!stamp)
		return -ENOMEM;
	for (uint32_t s = 0; s < Q->nsw; s++)
		for (uint32_t d = 0; Q->sw_hosts[s] && d < Q->nhosts; d++) {
			unsigned lmc = Q->v->nodes[Q->host_node[d]].ports[Q->host_port[d]].lmc & 7;
			if (lmc && Q->host_sw[d] != s)
				q_diverse(Q, s, d, lmc, ++tag, stamp, r, &links, &distinct);
		}
	free(stamp);
	if (r->lmc.pairs) {
		r->lmc.links = links / (double)r->lmc.pairs;
		r->lmc.distinct = distinct / (double)r->lmc.pairs;
	}
	return 0;
}

int rt_quality(const struct ibsmd_rt_ctx *ctx, const struct rt_quality_opts *opts,
	       struct rt_quality *r)
{
	static const struct ibsmd_routing_engine sl0 = { .name = "quality" };
	const struct rt_quality_opts defaults = { .pairings = RT_QUALITY_PAIRINGS,
						  .seed = RT_QUALITY_SEED };
	struct quality Q;

	if (!opts)
		opts = &defaults;
	memset(r, 0, sizeof(*r));
	r->pairings = opts->pairings;
	r->seed = opts->seed;
	int rc = q_init(&Q, ctx);
	Q.lid_offset = opts->lid_offset;
	if (rc == 0) {
		r->hosts = Q.nhosts;
		r->switches = Q.nsw;
		r->pairs = (uint64_t)Q.nhosts * (Q.nhosts ? Q.nhosts - 1 : 0);
		for (uint32_t d = 0; d < Q.nhosts; d++)
			q_destination(&Q, d, r);
		q_link_load(&Q, &r->load);
		q_shifts(&Q, r);
		rc = q_ebb(&Q, opts->pairings, opts->seed, r);
		if (rc == 0)
			rc = q_diversity(&Q, r);
	}
	q_free(&Q);
	if (rc)
		return rc;
	r->validation_rc = rt_validate(ctx, &r->validation);
	if (r->validation_rc == -ENOMEM)
		return -ENOMEM;
	r->cdg_rc = rt_cdg_check(ctx, opts->engine ? opts->engine : &sl0, opts->engine_state,
				 &r->cdg);
	return r->cdg_rc == -ENOMEM ? -ENOMEM : 0;
}

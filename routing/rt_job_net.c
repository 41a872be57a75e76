// SPDX-License-Identifier: MIT
/*
 * rt_job_net.c - the fabric as the job router sees it (rt_job_int.h):
 * directed links, routes walked through the LFTs, and the planes of a
 * regular fat tree.
 *
 * Planes: at level r (1 .. the tree's height), the switches of rank >= r
 * fall into connected sets; those of level r inside one set of level r - 1
 * (level 0: the whole fabric) are its planes, numbered by their lowest switch.
 * On a k-ary fat tree, level 1 gives one plane per aggregation column (the
 * column's switches in every pod and the cores above them), level 2 inside
 * it one plane per core.  A tree is regular when every switch of rank r - 1
 * has exactly one link into each plane of level r inside its own set: a
 * colour then names one up port at every switch of that set, and the switch
 * a flow reaches on a plane is the same whichever switch below it colours
 * it, which is what the edge colouring of rt_job_route.c needs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "routing/rt_job_int.h"

static bool is_switch(const struct ibsmd_rt_view *v, uint32_t n)
{
	return ibsmd_is_switch(v, n);
}

int jnet_init(struct jnet *n, const struct ibsmd_rt_ctx *ctx)
{
	const struct ibsmd_rt_view *v = ctx->view;

	memset(n, 0, sizeof(*n));
	n->ctx = ctx;
	n->v = v;
	n->nsw = v->nswitches;
	n->sw_node = v->switch_node;
	n->node_sw = v->node_switch;
	n->link_off = malloc(((size_t)n->nsw + 1) * sizeof(*n->link_off));
	if (!n->link_off)
		return -ENOMEM;
	for (uint32_t s = 0; s < n->nsw; s++) {
		n->link_off[s] = n->nlinks;
		n->nlinks += v->nodes[n->sw_node[s]].nports + 1u;
	}
	n->link_off[n->nsw] = n->nlinks;
	n->link_to = malloc(((size_t)n->nlinks + 1) * sizeof(*n->link_to));
	if (!n->link_to)
		return -ENOMEM;
	for (uint32_t s = 0; s < n->nsw; s++) {
		const struct ibsmd_rt_node *nd = &v->nodes[n->sw_node[s]];
		for (unsigned p = 0; p <= nd->nports; p++) {
			uint32_t peer = nd->ports[p].peer, *to = &n->link_to[n->link_off[s] + p];
			if (p == 0 || peer >= v->nnodes)
				*to = JN_NONE;
			else
				*to = is_switch(v, peer) ? n->node_sw[peer] : JN_CA;
		}
	}
	return 0;
}

void jnet_free(struct jnet *n)
{
	free(n->link_off);
	free(n->link_to);
	free(n->colour);
	free(n->ncolours);
	free(n->up_port);
	free(n->plane_of);
	if (n->have_levels)
		rt_levels_free(&n->lv);
	memset(n, 0, sizeof(*n));
}

int jnet_endpoint(const struct jnet *n, uint16_t lid, uint8_t rail, struct jep *e)
{
	const struct ibsmd_rt_view *v = n->v;

	if (lid == 0 || lid > v->max_lid || v->lid_node[lid] >= v->nnodes)
		return -EINVAL;
	uint32_t node = v->lid_node[lid];
	const struct ibsmd_rt_node *nd = &v->nodes[node];
	uint8_t port = v->lid_port[lid];
	if (is_switch(v, node) || port == 0 || port > nd->nports)
		return -EINVAL;
	const struct ibsmd_rt_port *p = &nd->ports[port];
	if (!is_switch(v, p->peer) || p->lid != lid)
		return -EINVAL;
	*e = (struct jep){ .lid = lid, .rail = rail, .port = p->peer_port,
			   .leaf = n->node_sw[p->peer] };
	return 0;
}

int jnet_walk(const struct jnet *n, const struct jep *d, uint32_t s, bool updown,
	      uint32_t *links)
{
	bool down = false;

	for (int hops = 0; hops <= JN_MAX_HOPS; hops++) {
		uint32_t link = jnet_out(n, s, d->lid);
		if (s == d->leaf && link == n->link_off[s] + d->port)
			return hops;
		if (link == JN_NONE || hops == JN_MAX_HOPS)
			return -1;
		uint32_t t = n->link_to[link];
		if (t >= n->nsw)
			return -1;
		if (updown) {
			bool up = n->lv.rank[t] > n->lv.rank[s];
			if (up && down)
				return -1;
			down = !up;
		}
		if (links)
			links[hops] = link;
		s = t;
	}
	return -1;
}

/* ---- planes ---- */

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

/* Join the sets of @a and @b; the lower switch number is the root. */
static void uf_join(uint32_t *up, uint32_t a, uint32_t b)
{
	a = uf_find(up, a);
	b = uf_find(up, b);
	if (a < b)
		up[b] = a;
	else if (b < a)
		up[a] = b;
}

/*
 * Level @r: sets of switches of rank >= r into @up (roots: lowest switch);
 * @prev holds each switch's set at level r - 1.  Each set of level r gets its
 * index among those inside the same set of level r - 1 in @index (by root),
 * and @nsub[root of r - 1] counts them.
 */
static void level_sets(struct jnet *n, unsigned r, uint32_t *up, const uint32_t *prev,
		       uint32_t *index, uint32_t *nsub)
{
	const uint16_t *rank = n->lv.rank;

	for (uint32_t s = 0; s < n->nsw; s++) {
		up[s] = s;
		nsub[s] = 0;
	}
	for (uint32_t s = 0; s < n->nsw; s++) {
		if (rank[s] == RT_NORANK || rank[s] < r)
			continue;
		for (uint32_t l = n->link_off[s] + 1; l < n->link_off[s + 1]; l++) {
			uint32_t t = n->link_to[l];
			if (t < n->nsw && rank[t] != RT_NORANK && rank[t] >= r)
				uf_join(up, s, t);
		}
	}
	/* roots in switch order: each gets the next index of its parent set */
	for (uint32_t s = 0; s < n->nsw; s++)
		if (rank[s] != RT_NORANK && rank[s] >= r && uf_find(up, s) == s)
			index[s] = nsub[prev[s]]++;
}

/* Count switch @u's up links into each plane of level @r; false unless it has
 * exactly one into each.  With @ports, note them. */
static bool one_link_each(struct jnet *n, uint32_t u, uint32_t *up, const uint32_t *index,
			  unsigned ncol, uint8_t *count, uint8_t *ports)
{
	memset(count, 0, ncol);
	for (uint32_t l = n->link_off[u] + 1; l < n->link_off[u + 1]; l++) {
		uint32_t t = n->link_to[l];
		if (t >= n->nsw || n->lv.rank[t] != n->lv.rank[u] + 1)
			continue;
		unsigned c = index[uf_find(up, t)];
		n->colour[l] = (uint8_t)c;
		if (c >= ncol || count[c]++)
			return false;
		if (ports)
			ports[c] = (uint8_t)(l - n->link_off[u]);
	}
	for (unsigned c = 0; c < ncol; c++)
		if (count[c] != 1)
			return false;
	return true;
}

static int find_planes(struct jnet *n, uint32_t *up, uint32_t *prev, uint32_t *index,
		       uint32_t *nsub)
{
	const uint16_t *rank = n->lv.rank;
	uint8_t count[256];

	memset(prev, 0, (size_t)n->nsw * sizeof(*prev));
	n->regular = n->lv.height < JN_MAX_HOPS;
	/* first pass: colours and their counts; second: the ports */
	for (int pass = 0; pass < 2 && n->regular; pass++) {
		memset(prev, 0, (size_t)n->nsw * sizeof(*prev));
		for (unsigned r = 1; r <= n->lv.height && n->regular; r++) {
			level_sets(n, r, up, prev, index, nsub);
			for (uint32_t u = 0; u < n->nsw && n->regular; u++) {
				if (rank[u] != r - 1)
					continue;
				uint32_t ncol = nsub[prev[u]];
				if (ncol > 254) {
					n->regular = false;
					break;
				}
				n->ncolours[u] = (uint8_t)ncol;
				n->plane_of[u] = prev[u];
				n->maxcol = ncol > n->maxcol ? ncol : n->maxcol;
				/* every switch of a rank has as many planes above it */
				if (r - 1 < JN_MAX_HOPS && n->level_colours[r - 1] == 0)
					n->level_colours[r - 1] = (uint8_t)ncol;
				if (r - 1 >= JN_MAX_HOPS || n->level_colours[r - 1] != ncol) {
					n->regular = false;
					break;
				}
				uint8_t *ports = pass ? &n->up_port[(size_t)u * n->maxcol] : NULL;
				n->regular = one_link_each(n, u, up, index, ncol, count, ports);
			}
			for (uint32_t s = 0; s < n->nsw; s++)
				if (rank[s] != RT_NORANK && rank[s] >= r)
					prev[s] = uf_find(up, s);
		}
		if (pass == 0 && n->regular && n->maxcol &&
		    !(n->up_port = calloc((size_t)n->nsw * n->maxcol, 1)))
			return -ENOMEM;
	}
	return 0;
}

int jnet_planes(struct jnet *n)
{
	int rc = rt_levels_find(n->ctx, "jobs", &n->lv);

	if (rc)
		return rc;
	n->have_levels = true;
	n->colour = malloc((size_t)n->nlinks + 1);
	n->ncolours = calloc((size_t)n->nsw + 1, 1);
	n->plane_of = calloc((size_t)n->nsw + 1, sizeof(*n->plane_of));
	uint32_t *up = malloc(((size_t)n->nsw + 1) * sizeof(*up));
	uint32_t *prev = malloc(((size_t)n->nsw + 1) * sizeof(*prev));
	uint32_t *index = malloc(((size_t)n->nsw + 1) * sizeof(*index));
	uint32_t *nsub = malloc(((size_t)n->nsw + 1) * sizeof(*nsub));
	rc = -ENOMEM;
	if (n->colour && n->ncolours && n->plane_of && up && prev && index && nsub) {
		memset(n->colour, JN_NO_COLOUR, (size_t)n->nlinks + 1);
		rc = find_planes(n, up, prev, index, nsub);
		if (rc == 0 && !n->regular) {
			memset(n->colour, JN_NO_COLOUR, (size_t)n->nlinks + 1);
			n->maxcol = 0;
		}
	}
	free(up);
	free(prev);
	free(index);
	free(nsub);
	return rc;
}

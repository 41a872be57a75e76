// SPDX-License-Identifier: MIT
/*
 * rt_job_colour.c - edge colouring of a bipartite multigraph with some edges
 * fixed (see rt_job_int.h).
 *
 * Data: the edges, and per vertex side and colour the number of edges of that
 * colour and one of them.  Flow, per free edge (u, v) in the order added:
 *  1. a colour free at both ends, the cheapest by @cost;
 *  2. else colours a free at u and b free at v: the path from v that
 *     alternates a and b edges is swapped (a <-> b), which frees a at v; in a
 *     bipartite graph that path cannot reach u (Konig's argument: it would
 *     enter u by an a edge, and u has none).  A path through a fixed edge, or
 *     through a vertex holding two edges of one colour, is not swapped:
 *     another pair of colours is tried;
 *  3. else the colour the two ends hold fewest edges of (a shared link).
 * With every vertex's degree at most the colours and nothing fixed, step 3
 * never happens: a proper colouring, Konig's theorem.  Cost: a path is at
 * most the vertices long; in practice a few edges.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_job_int.h"

#define NO_EDGE 0u
#define MAX_TRIES 64	/* colour pairs tried for a swap, per edge */

struct jcedge {
	uint32_t src, dst;
	uint8_t colour;
	bool fixed;
	bool done;		/* coloured (fixed edges from the start) */
};

struct side {
	uint32_t *at;		/* [v * cap + c]: an edge of colour c at v, + 1 */
	uint16_t *n;		/* [v * cap + c]: edges of colour c at v */
};

struct jcol {
	uint32_t nv;
	unsigned ncol, cap;
	struct jcedge *e;
	size_t ne, ecap;
	struct side s[2];	/* 0: sources, 1: destinations */
	uint32_t *used;		/* vertices with edges, per side */
	size_t nused[2];
	uint8_t *mark;		/* per side and vertex: in used[] */
	uint32_t *path;		/* edges of the path at hand */
};

int jcol_new(uint32_t nv, unsigned ncol, struct jcol **out)
{
	struct jcol *c = calloc(1, sizeof(*c));
	size_t cells = (size_t)nv * (ncol ? ncol : 1);

	if (!c)
		return -ENOMEM;
	c->nv = nv;
	c->ncol = c->cap = ncol ? ncol : 1;
	for (int i = 0; i < 2; i++) {
		c->s[i].at = calloc(cells, sizeof(*c->s[i].at));
		c->s[i].n = calloc(cells, sizeof(*c->s[i].n));
		if (!c->s[i].at || !c->s[i].n)
			goto fail;
	}
	c->used = malloc(2 * ((size_t)nv + 1) * sizeof(*c->used));
	c->mark = calloc(2 * ((size_t)nv + 1), 1);
	c->path = malloc(2 * ((size_t)nv + 2) * sizeof(*c->path));
	if (!c->used || !c->mark || !c->path)
		goto fail;
	*out = c;
	return 0;
fail:
	jcol_free(c);
	return -ENOMEM;
}

void jcol_free(struct jcol *c)
{
	if (!c)
		return;
	for (int i = 0; i < 2; i++) {
		free(c->s[i].at);
		free(c->s[i].n);
	}
	free(c->e);
	free(c->used);
	free(c->mark);
	free(c->path);
	free(c);
}

void jcol_reset(struct jcol *c, unsigned ncol)
{
	for (int i = 0; i < 2; i++) {
		for (size_t k = 0; k < c->nused[i]; k++) {
			uint32_t v = c->used[(size_t)i * (c->nv + 1) + k];
			memset(&c->s[i].at[(size_t)v * c->cap], 0, c->cap * sizeof(uint32_t));
			memset(&c->s[i].n[(size_t)v * c->cap], 0, c->cap * sizeof(uint16_t));
			c->mark[(size_t)i * (c->nv + 1) + v] = 0;
		}
		c->nused[i] = 0;
	}
	c->ne = 0;
	c->ncol = ncol < c->cap ? ncol : c->cap;
}

static void note_used(struct jcol *c, int side, uint32_t v)
{
	uint8_t *m = &c->mark[(size_t)side * (c->nv + 1) + v];

	if (!*m) {
		*m = 1;
		c->used[(size_t)side * (c->nv + 1) + c->nused[side]++] = v;
	}
}

static uint16_t count(const struct jcol *c, int side, uint32_t v, unsigned col)
{
	return c->s[side].n[(size_t)v * c->cap + col];
}

static uint32_t edge_at(const struct jcol *c, int side, uint32_t v, unsigned col)
{
	return c->s[side].at[(size_t)v * c->cap + col];
}

static void put(struct jcol *c, size_t e, unsigned col)
{
	struct jcedge *x = &c->e[e];
	uint32_t v[2] = { x->src, x->dst };

	x->colour = (uint8_t)col;
	x->done = true;
	for (int i = 0; i < 2; i++) {
		size_t cell = (size_t)v[i] * c->cap + col;
		c->s[i].n[cell]++;
		c->s[i].at[cell] = (uint32_t)e + 1;
	}
}

static void take(struct jcol *c, size_t e)
{
	struct jcedge *x = &c->e[e];
	uint32_t v[2] = { x->src, x->dst };

	for (int i = 0; i < 2; i++) {
		size_t cell = (size_t)v[i] * c->cap + x->colour;
		c->s[i].n[cell]--;
		if (c->s[i].at[cell] == e + 1)
			c->s[i].at[cell] = NO_EDGE;
	}
	x->done = false;
}

int64_t jcol_add(struct jcol *c, uint32_t src, uint32_t dst, int fixed)
{
	if (src >= c->nv || dst >= c->nv || fixed >= (int)c->ncol)
		return -EINVAL;
	if (c->ne == c->ecap) {
		size_t cap = c->ecap ? 2 * c->ecap : 256;
		struct jcedge *e = realloc(c->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		c->e = e;
		c->ecap = cap;
	}
	size_t e = c->ne++;
	c->e[e] = (struct jcedge){ .src = src, .dst = dst, .fixed = fixed >= 0 };
	note_used(c, 0, src);
	note_used(c, 1, dst);
	if (fixed >= 0)
		put(c, e, (unsigned)fixed);
	return (int64_t)e;
}

/*
 * The path from destination @v that alternates colours @a, @b (starting
 * with a) into c->path; its length, or -1 when it cannot be swapped (a fixed
 * edge, a vertex with two edges of a colour, or it reaches source @u).
 */
static int alternating_path(struct jcol *c, uint32_t u, uint32_t v, unsigned a, unsigned b)
{
	int side = 1, len = 0;
	uint32_t x = v;
	unsigned col = a;

	for (;;) {
		uint16_t k = count(c, side, x, col);
		if (k == 0)
			return len;
		if (k > 1 || len > (int)(2 * c->nv))
			return -1;
		uint32_t e = edge_at(c, side, x, col) - 1;
		if (c->e[e].fixed)
			return -1;
		c->path[len++] = e;
		x = side ? c->e[e].src : c->e[e].dst;
		side = !side;
		if (side == 0 && x == u)
			return -1;
		/* the other colour must not be doubled where the path arrives */
		if (count(c, side, x, col) > 1)
			return -1;
		col = col == a ? b : a;
	}
}

static void swap_path(struct jcol *c, int len, unsigned a, unsigned b)
{
	for (int i = 0; i < len; i++)
		take(c, c->path[i]);
	for (int i = 0; i < len; i++)
		put(c, c->path[i], c->e[c->path[i]].colour == a ? b : a);
}

static unsigned cheapest(const struct jcol *c, uint32_t u, uint32_t v, jcol_cost_fn cost,
			 void *arg, bool free_only, bool *found)
{
	unsigned best = 0;
	double best_cost = 0;
	unsigned best_n = UINT32_MAX;

	*found = false;
	for (unsigned col = 0; col < c->ncol; col++) {
		unsigned n = (unsigned)count(c, 0, u, col) + count(c, 1, v, col);
		if (free_only && n)
			continue;
		double k = cost ? cost(arg, u, v, col) : 0;
		if (!*found || n < best_n || (n == best_n && k < best_cost)) {
			best = col;
			best_cost = k;
			best_n = n;
			*found = true;
		}
	}
	return best;
}

static void colour_edge(struct jcol *c, size_t e, jcol_cost_fn cost, void *arg)
{
	uint32_t u = c->e[e].src, v = c->e[e].dst;
	bool found;
	unsigned col = cheapest(c, u, v, cost, arg, true, &found);
	unsigned tries = 0;

	if (found) {
		put(c, e, col);
		return;
	}
	for (unsigned a = 0; a < c->ncol && tries < MAX_TRIES; a++) {
		if (count(c, 0, u, a))
			continue;
		for (unsigned b = 0; b < c->ncol && tries < MAX_TRIES; b++) {
			if (b == a || count(c, 1, v, b))
				continue;
			tries++;
			int len = alternating_path(c, u, v, a, b);
			if (len < 0)
				continue;
			swap_path(c, len, a, b);
			put(c, e, a);
			return;
		}
	}
	put(c, e, cheapest(c, u, v, cost, arg, false, &found));
}

int jcol_solve(struct jcol *c, jcol_cost_fn cost, void *arg)
{
	for (size_t e = 0; e < c->ne; e++)
		if (!c->e[e].done)
			colour_edge(c, e, cost, arg);
	return 0;
}

unsigned jcol_colour(const struct jcol *c, size_t edge)
{
	return c->e[edge].colour;
}

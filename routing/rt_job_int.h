/* SPDX-License-Identifier: MIT */
/*
 * rt_job_int.h - what the job router's files share (rt_job.h is the API):
 * the fabric as directed links (rt_job_net.c), a job's endpoints and the
 * rounds of its pattern (rt_job_pattern.c), the planes of a regular fat tree
 * (rt_job_net.c) and the bipartite edge colouring (rt_job_colour.c).
 *
 * Switches are numbered as the view numbers them; switch s's port p is
 * directed link link_off[s] + p, leading to another switch, to a CA, or
 * nowhere.
 */
#ifndef IBSMD_RT_JOB_INT_H
#define IBSMD_RT_JOB_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "routing/rt_job.h"
#include "routing/rt_levels.h"

#define JN_NONE UINT32_MAX	/* a link that leads nowhere */
#define JN_CA (UINT32_MAX - 1)	/* a link that leads to a CA */
#define JN_MAX_HOPS 32		/* switch-to-switch links a route may cross */
#define JN_NO_COLOUR 0xff

struct jnet {
	const struct ibsmd_rt_ctx *ctx;
	const struct ibsmd_rt_view *v;
	uint32_t nsw;
	const uint32_t *sw_node;	/* the view's switch_node */
	const uint32_t *node_sw;	/* the view's node_switch */
	uint32_t nlinks;
	uint32_t *link_off;	/* [nsw + 1]: switch s's port 0 */
	uint32_t *link_to;	/* per link: the switch it leads to, JN_CA, JN_NONE */
	/* the router's: levels and planes (jnet_planes()) */
	struct rt_levels lv;
	bool have_levels;
	bool regular;		/* every switch below the top has exactly one link
				 * into each plane above it */
	uint8_t *colour;	/* per link: the plane (among those above its
				 * switch) an up link leads into, JN_NO_COLOUR */
	uint8_t *ncolours;	/* per switch: planes above it (0 at the top) */
	uint8_t *up_port;	/* [s * maxcol + c]: switch s's port into plane c */
	uint32_t *plane_of;	/* per switch of rank r: the lowest switch of its
				 * set of level r (the plane it is in) */
	unsigned maxcol;
	uint8_t level_colours[JN_MAX_HOPS];	/* planes above a switch of rank r */
};

int jnet_init(struct jnet *n, const struct ibsmd_rt_ctx *ctx);
void jnet_free(struct jnet *n);

/* The levels (logged through ctx->log when no fat tree: -EINVAL) and, when
 * the tree is regular, its planes.  0, -EINVAL, -ENOMEM. */
int jnet_planes(struct jnet *n);

static inline uint32_t jnet_peer(const struct jnet *n, uint32_t s, unsigned port)
{
	return n->link_to[n->link_off[s] + port];
}

/* Switch @s's entry toward @lid (a LID of the view) as the link it leaves by
 * (link_off[s] + port), or JN_NONE when it names no port of s (0, none, past
 * its ports) or s has no table.  The route walks' step: a table row and the
 * switch's links, nothing of the view's nodes. */
static inline uint32_t jnet_out(const struct jnet *n, uint32_t s, uint16_t lid)
{
	const uint8_t *row = n->ctx->lft[n->sw_node[s]];
	uint32_t link = n->link_off[s] + (row ? row[lid] : 0);

	return link == n->link_off[s] || link >= n->link_off[s + 1] ? JN_NONE : link;
}

/* An endpoint: a CA port with a LID, on a leaf switch. */
struct jep {
	uint16_t lid;
	uint8_t rail;
	uint8_t port;		/* the leaf's port to it */
	uint32_t leaf;		/* switch number */
};

/* The endpoint of LID @lid (@rail copied): 0, or -EINVAL when the LID is no
 * CA port cabled to a switch. */
int jnet_endpoint(const struct jnet *n, uint16_t lid, uint8_t rail, struct jep *e);

/*
 * Walk the route toward @d from switch @s through the LFTs: the
 * switch-to-switch links crossed into @links (JN_MAX_HOPS room; NULL: not
 * kept).  Returns the links crossed (0 when @s is d's leaf) when the route
 * reaches d's port, -1 when it is lost or loops.  With @updown, also -1 when
 * the route goes down then up again by the levels (jnet_planes() first).
 */
int jnet_walk(const struct jnet *n, const struct jep *d, uint32_t s, bool updown,
	      uint32_t *links);

/* ---- a job's traffic ---- */

/* @count flows from the hosts on switch @src_sw to endpoint @dst (an index
 * into the job's endpoints), each carrying @demand of a link. */
struct jitem {
	uint32_t src_sw;
	uint32_t dst;
	uint32_t count;
	float demand;
};

struct jrounds {
	unsigned n;
	char name[RT_JOB_MAX_ROUNDS][16];
	size_t first[RT_JOB_MAX_ROUNDS + 1];	/* round r: items[first[r] .. first[r + 1] - 1] */
	struct jitem *items;
};

/* The endpoints of @job (rank order, each rank's in order) into @eps
 * (first[nranks] of them): 0, -EINVAL (a LID that is no CA port; logged
 * through the view's ctx->log). */
int jrounds_endpoints(const struct jnet *n, const struct rt_job_spec *job, struct jep *eps);

/* The endpoints of rail @rail in rank order (each rank's first on it) into
 * @m; their number. */
uint32_t jrounds_rail_members(const struct rt_job_spec *job, unsigned rail, uint32_t *m);

/* The rounds of @job's pattern over its endpoints @eps.  0, -EINVAL (too
 * many ranks), -ENOMEM; jrounds_free(). */
int jrounds_make(const struct rt_job_spec *job, const struct jep *eps, struct jrounds *r);
void jrounds_free(struct jrounds *r);

/* ---- a job's routes walked once (rt_job_paths.c) ---- */

/* Item i of @rounds (borrowed) crosses links[first[i] .. first[i + 1] - 1]
 * (none when it starts on its destination's leaf); ok[i]: it arrives. */
struct jpaths {
	const struct jrounds *rounds;
	size_t *first;		/* [nitems + 1] */
	uint8_t *ok;
	uint32_t *links;
};

/* Walk every item of @rounds toward its endpoint of @eps through the tables
 * as they are.  0 or -ENOMEM; jpaths_free() either way. */
int jpaths_walk(const struct jnet *n, const struct jrounds *rounds, const struct jep *eps,
		struct jpaths *P);
void jpaths_free(struct jpaths *P);
/* Round @r's traffic added to the per-link @load; then set back to 0 on the
 * links it crosses (@load zero elsewhere stays so). */
void jpaths_add_round(const struct jpaths *P, unsigned r, float *load);
void jpaths_clear_round(const struct jpaths *P, unsigned r, float *load);
/* The shares of round @r's items (rt_job.h: a flow's share, the round's EBB
 * their mean) over @load, its traffic added (jpaths_add_round()), plus @bg
 * (NULL: none) into @out; flows that do not arrive added to @undelivered. */
void jpaths_round_shares(const struct jpaths *P, unsigned r, const float *load, const float *bg,
			 struct rt_job_round_ebb *out, uint64_t *undelivered);
/* Each link's heaviest load over the rounds added to @out; @load and @sum
 * (per link) are zero before and after. */
void jpaths_peaks(const struct jpaths *P, float *load, float *sum, float *out);

/* ---- one job being routed (rt_job.c, rt_job_init.c, rt_job_search.c) ---- */

/* An entry the job moved, with what the base engine had there. */
struct jchange {
	uint32_t node;
	uint16_t lid;
	uint8_t base;
	uint32_t dest;		/* the job's endpoint index */
};

struct jcol;

struct jr {
	struct jnet *net;
	const struct rt_job_spec *spec;
	struct jep *eps;
	uint32_t neps;
	struct jrounds rounds;
	uint8_t *routable;	/* per endpoint: no base route toward it turns */
	const float *bg;	/* per link: the other jobs' heaviest loads */
	uint64_t *touched;	/* bits [dest * nsw + s]: the job set that entry */
	uint64_t *frozen;	/* bits [dest * nsw + s]: a turning route crosses s */
	struct jchange *changes;
	size_t nchanges, cap;
	size_t *dst_first;	/* [neps + 1]: items toward each endpoint... */
	size_t *dst_items;	/* ...their indices */
	struct jcol *col;
	unsigned passes;
	uint64_t budget;	/* candidate routes the search may walk */
	struct jpaths walked;	/* the items' routes... */
	bool walked_ok;		/* ...as the tables are: no entry set since */
};

/* R->walked, walked again only when an entry changed since.  0 or -ENOMEM. */
int jr_walked(struct jr *R);

/* Set switch @s's entry toward endpoint @dest to @port, noting the base
 * entry the first time.  0 or -ENOMEM. */
int jr_set(struct jr *R, uint32_t dest, uint32_t s, uint8_t port);

static inline bool jr_bit(const struct jr *R, const uint64_t *bits, uint32_t dest, uint32_t s)
{
	size_t bit = (size_t)dest * R->net->nsw + s;

	return bits[bit / 64] >> (bit % 64) & 1;
}

static inline bool jr_touched(const struct jr *R, uint32_t dest, uint32_t s)
{
	return jr_bit(R, R->touched, dest, s);
}

/* Initial routes on a regular tree: the colourings.  0 or -ENOMEM. */
int jr_init_routes(struct jr *R);

/* The local search over every round.  0 or -ENOMEM. */
int jr_search(struct jr *R);

/* All-to-all's entries moved for every shift round of pairwise exchange
 * (rt_job_shifts.c).  0 or -ENOMEM. */
int jr_shifts(struct jr *R);

/* ---- bipartite edge colouring (rt_job_colour.c) ---- */

/*
 * Edges between "sources" and "destinations" (both numbered 0..nv-1, two
 * sides), colours 0..ncol-1.  An edge is fixed (its colour given) or free.
 * jcol_solve() colours the free edges so that no two edges of a vertex share
 * a colour where that is possible: a free colour at both ends, else an
 * alternating path of two colours swapped (never through a fixed edge),
 * else the colour fewest edges of the two ends hold (@cost breaks ties among
 * equally good colours: lower first).
 */
struct jcol;
typedef double (*jcol_cost_fn)(void *arg, uint32_t src, uint32_t dst, unsigned colour);

int jcol_new(uint32_t nv, unsigned ncol, struct jcol **out);
void jcol_free(struct jcol *c);
/* Forget the edges (only the vertices used are cleared). */
void jcol_reset(struct jcol *c, unsigned ncol);
/* Add an edge; @fixed a colour or -1.  Returns its index, or -ENOMEM. */
int64_t jcol_add(struct jcol *c, uint32_t src, uint32_t dst, int fixed);
int jcol_solve(struct jcol *c, jcol_cost_fn cost, void *arg);
unsigned jcol_colour(const struct jcol *c, size_t edge);

#endif

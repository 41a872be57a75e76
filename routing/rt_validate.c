// SPDX-License-Identifier: MIT
/*
 * rt_validate.c - does every CA reach every CA LID, and every switch and CA
 * every switch LID, through the LFTs?
 *
 * Switch LIDs matter as much as CA LIDs: LID-routed management traffic (SMPs
 * to a switch's LID, the SA's and the PerfMgr's GMPs) needs those routes.  A
 * switch LID is delivered when its route reaches the switch that owns it and
 * that switch's entry for it is port 0 (its management port).
 *
 * A verdict per (switch, destination LID): delivered, lost (an entry leads
 * nowhere, or into a CA that is not the destination, or into port 0 of a
 * switch that is not), looping, or still open.  The first pass settles every
 * entry that ends at its own hop and notes where each open entry leads (switch
 * numbers fit 16 bits: a subnet has at most 49,151 LIDs); it walks the tables
 * row by row (one switch, consecutive LIDs), which keeps them in cache.  Then
 * each open entry follows the switches it leads to until a settled one, and
 * every entry on the way takes that verdict, or "loops" when the walk comes
 * back to itself: each entry is settled once, O(LIDs * switches) in all, on
 * blocks of LIDs so the verdicts stay small.
 *
 * Blocks are independent: they run on every core (rt_par.c), each worker with
 * its own verdicts, each block tallying into its own slot; the slots are summed
 * in block order, so the first problem reported is the same on any number of
 * cores.  A pair is a switch with CAs and a CA LID (its weight: the CAs on the
 * switch), or any switch and a switch LID (weight: the switch and its CAs).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt.h"
#include "routing/rt_par.h"

enum { OPEN, DELIVERED, LOST, LOOPS, ON_WALK };

#define BLOCK_LIDS 1024

#define NO_SW UINT16_MAX	/* not a switch (switch numbers fit 16 bits) */

struct checker {
	const struct ibsmd_rt_ctx *ctx;
	uint32_t nsw;
	const uint32_t *sw_node;	/* the view's switch_node: switch number -> node */
	const uint32_t *node_sw;	/* the view's node_switch */
	uint32_t *cas;		/* per switch number: CA ports cabled to it */
	uint32_t *pbase;	/* per switch number: its port 0 in peer_sw[] */
	uint16_t *peer_sw;	/* per switch port: the switch it leads to, or NO_SW */
	uint8_t *verdict[RT_PAR_MAX_WORKERS];	/* per worker: [switch][LID in block] */
	uint16_t *next[RT_PAR_MAX_WORKERS];	/* the switch an OPEN entry leads to */
	uint16_t *walk[RT_PAR_MAX_WORKERS];	/* switches on the walk at hand */
	struct rt_validation *part;	/* per block */
};

/* What a LID is a destination of: nothing, a CA port, a switch. */
enum { TO_NONE, TO_CA, TO_SWITCH };

/* Where a LID of a block is delivered: by switch @sw out of @port (port 0:
 * the switch's own LID), or nowhere (sw NO_SW). */
struct dest {
	uint8_t kind;
	uint8_t port;
	uint16_t sw;
};

static struct dest lid_dest(const struct checker *c, uint32_t lid)
{
	const struct ibsmd_rt_view *v = c->ctx->view;
	uint32_t owner = v->lid_node[lid];

	if (owner == IBSMD_NO_NODE)
		return (struct dest){ TO_NONE, 0, NO_SW };
	if (ibsmd_is_switch(v, owner))
		return (struct dest){ TO_SWITCH, 0, (uint16_t)c->node_sw[owner] };
	const struct ibsmd_rt_port *p = &v->nodes[owner].ports[v->lid_port[lid]];
	if (p->peer == IBSMD_NO_NODE || !ibsmd_is_switch(v, p->peer))
		return (struct dest){ TO_CA, 0, NO_SW };
	return (struct dest){ TO_CA, p->peer_port, (uint16_t)c->node_sw[p->peer] };
}

/*
 * The verdict of entry @port of switch @s toward a LID delivered as @d, or
 * OPEN with *next the switch it hands the packet to.  Delivered where @d's
 * switch sends it out of @d's port; a switch LID anywhere else on its own
 * switch, or port 0 elsewhere, is lost, as is a port that leads to no switch.
 */
static uint8_t first_hop(const struct checker *c, uint32_t s, uint8_t port, struct dest d,
			 uint16_t *next)
{
	if (d.kind == TO_NONE || (s == d.sw && port == d.port))
		return DELIVERED;
	if (port == 0 || port >= c->pbase[s + 1] - c->pbase[s] ||
	    (s == d.sw && d.kind == TO_SWITCH))
		return LOST;
	*next = c->peer_sw[c->pbase[s] + port];
	return *next == NO_SW ? LOST : OPEN;
}

/* Settle the open entry @i of switch @s: follow it to a settled entry, then
 * give each entry on the way that verdict (LOOPS when it came back). */
static void settle(uint8_t *verdict, const uint16_t *next, uint16_t *walk, uint32_t w,
		   uint32_t s, uint32_t i)
{
	uint32_t len = 0, t = s;
	uint8_t there;

	while ((there = verdict[(size_t)t * w + i]) == OPEN) {
		verdict[(size_t)t * w + i] = ON_WALK;
		walk[len++] = (uint16_t)t;
		t = next[(size_t)t * w + i];
	}
	if (there == ON_WALK)
		there = LOOPS;
	while (len)
		verdict[(size_t)walk[--len] * w + i] = there;
}

static void check_block(const struct checker *c, const struct dest *dest, uint8_t *verdict,
			uint16_t *next, uint16_t *walk, uint32_t l0, uint32_t l1)
{
	uint32_t w = l1 - l0;
	uint16_t to = 0;

	for (uint32_t s = 0; s < c->nsw; s++) {
		const uint8_t *lft = c->ctx->lft[c->sw_node[s]];
		uint8_t *row = &verdict[(size_t)s * w];
		uint16_t *nrow = &next[(size_t)s * w];
		for (uint32_t i = 0; i < w; i++) {
			row[i] = first_hop(c, s, lft[l0 + i], dest[i], &to);
			nrow[i] = to;
		}
	}
	for (uint32_t s = 0; s < c->nsw; s++)
		for (uint32_t i = 0; i < w; i++)
			if (verdict[(size_t)s * w + i] == OPEN)
				settle(verdict, next, walk, w, s, i);
}

static void note_problem(const struct checker *c, uint32_t s, uint32_t lid, uint8_t verdict,
			 struct rt_validation *res)
{
	const struct ibsmd_rt_view *v = c->ctx->view;
	const struct ibsmd_rt_node *from = &v->nodes[c->sw_node[s]];
	const struct ibsmd_rt_node *to = &v->nodes[v->lid_node[lid]];

	snprintf(res->first_problem, sizeof(res->first_problem),
		 "from switch 0x%016llx (%s) to %sLID %u (%s): %s",
		 (unsigned long long)from->guid, from->desc ? from->desc : "",
		 ibsmd_is_switch(v, v->lid_node[lid]) ? "switch " : "", lid,
		 to->desc ? to->desc : "", verdict == LOOPS ? "the path loops" : "no route");
}

/*
 * Count the block's pairs into @res.  @all lists the block's destination LIDs
 * (offsets in the block, ascending), @sw those of switches; a switch without
 * CAs is a source for switch LIDs only.  Problems are met in (switch, LID)
 * order, so the first one noted is the first of the block.
 */
static void tally(const struct checker *c, const struct dest *dest, const uint8_t *verdict,
		  const uint16_t *all, uint32_t nall, const uint16_t *sw, uint32_t nsw,
		  uint32_t l0, uint32_t w, struct rt_validation *res)
{
	for (uint32_t s = 0; s < c->nsw; s++) {
		const uint8_t *row = &verdict[(size_t)s * w];
		const uint16_t *idx = c->cas[s] ? all : sw;
		uint32_t n = c->cas[s] ? nall : nsw;
		res->pairs += (uint64_t)(nall - nsw) * c->cas[s];
		res->sw_pairs += (uint64_t)nsw * (c->cas[s] + 1);
		for (uint32_t k = 0; k < n; k++) {
			uint32_t i = idx[k];
			uint8_t vd = row[i];
			if (vd == DELIVERED)
				continue;
			bool to_ca = dest[i].kind == TO_CA;
			uint64_t weight = c->cas[s] + !to_ca;
			if (vd == LOOPS)
				*(to_ca ? &res->loops : &res->sw_loops) += weight;
			else
				*(to_ca ? &res->unreachable : &res->sw_unreachable) += weight;
			if (!res->first_problem[0])
				note_problem(c, s, l0 + i, vd, res);
		}
	}
}

static void validate_block(void *arg, unsigned job, unsigned worker)
{
	struct checker *c = arg;
	uint32_t max = c->ctx->view->max_lid;
	uint32_t l0 = 1 + job * BLOCK_LIDS;
	uint32_t l1 = l0 + BLOCK_LIDS <= max + 1 ? l0 + BLOCK_LIDS : max + 1;

	struct dest dest[BLOCK_LIDS];
	uint16_t all[BLOCK_LIDS], sw[BLOCK_LIDS];
	uint32_t nall = 0, nsw = 0;

	for (uint32_t l = l0; l < l1; l++) {
		dest[l - l0] = lid_dest(c, l);
		if (dest[l - l0].kind != TO_NONE)
			all[nall++] = (uint16_t)(l - l0);
		if (dest[l - l0].kind == TO_SWITCH)
			sw[nsw++] = (uint16_t)(l - l0);
	}
	check_block(c, dest, c->verdict[worker], c->next[worker], c->walk[worker], l0, l1);
	tally(c, dest, c->verdict[worker], all, nall, sw, nsw, l0, l1 - l0, &c->part[job]);
}

static void checker_free(struct checker *c)
{
	free(c->cas);
	free(c->pbase);
	free(c->peer_sw);
	for (unsigned i = 0; i < RT_PAR_MAX_WORKERS; i++) {
		free(c->verdict[i]);
		free(c->next[i]);
		free(c->walk[i]);
	}
	free(c->part);
}

static int checker_init(struct checker *c, const struct ibsmd_rt_ctx *ctx, unsigned nblocks,
			unsigned workers)
{
	const struct ibsmd_rt_view *v = ctx->view;

	memset(c, 0, sizeof(*c));
	c->ctx = ctx;
	c->nsw = v->nswitches;
	c->sw_node = v->switch_node;
	c->node_sw = v->node_switch;
	c->cas = calloc(v->nnodes + 1, sizeof(*c->cas));
	c->part = calloc(nblocks + 1, sizeof(*c->part));
	if (!c->cas || !c->part)
		return -ENOMEM;
	for (uint32_t n = 0; n < v->nnodes; n++)
		for (unsigned p = 1; !ibsmd_is_switch(v, n) && p <= v->nodes[n].nports; p++) {
			uint32_t peer = v->nodes[n].ports[p].peer;
			if (ibsmd_is_switch(v, peer))
				c->cas[c->node_sw[peer]]++;
		}
	if (c->nsw >= NO_SW)
		return -EOVERFLOW;
	c->pbase = malloc(((size_t)c->nsw + 1) * sizeof(*c->pbase));
	if (!c->pbase)
		return -ENOMEM;
	c->pbase[0] = 0;
	for (uint32_t s = 0; s < c->nsw; s++)
		c->pbase[s + 1] = c->pbase[s] + v->nodes[c->sw_node[s]].nports + 1u;
	c->peer_sw = malloc(((size_t)c->pbase[c->nsw] + 1) * sizeof(*c->peer_sw));
	if (!c->peer_sw)
		return -ENOMEM;
	for (uint32_t s = 0; s < c->nsw; s++) {
		const struct ibsmd_rt_node *n = &v->nodes[c->sw_node[s]];
		for (unsigned p = 0; p <= n->nports; p++) {
			uint32_t peer = p ? n->ports[p].peer : IBSMD_NO_NODE;
			c->peer_sw[c->pbase[s] + p] = ibsmd_is_switch(v, peer)
						      ? (uint16_t)c->node_sw[peer] : NO_SW;
		}
	}
	for (unsigned i = 0; i < workers; i++) {
		c->verdict[i] = malloc((size_t)(c->nsw + 1) * BLOCK_LIDS);
		c->next[i] = malloc((size_t)(c->nsw + 1) * BLOCK_LIDS * sizeof(*c->next[i]));
		c->walk[i] = malloc((size_t)(c->nsw + 1) * sizeof(*c->walk[i]));
		if (!c->verdict[i] || !c->next[i] || !c->walk[i])
			return -ENOMEM;
	}
	return 0;
}

static void add_part(struct rt_validation *res, const struct rt_validation *p)
{
	res->pairs += p->pairs;
	res->unreachable += p->unreachable;
	res->loops += p->loops;
	res->sw_pairs += p->sw_pairs;
	res->sw_unreachable += p->sw_unreachable;
	res->sw_loops += p->sw_loops;
	if (!res->first_problem[0])
		memcpy(res->first_problem, p->first_problem, sizeof(res->first_problem));
}

int rt_validate(const struct ibsmd_rt_ctx *ctx, struct rt_validation *res)
{
	unsigned nblocks = ((unsigned)ctx->view->max_lid + BLOCK_LIDS - 1) / BLOCK_LIDS;
	unsigned workers = rt_par_workers(nblocks);
	struct checker c;

	*res = (struct rt_validation){ 0 };
	int rc = checker_init(&c, ctx, nblocks, workers);
	if (rc == 0)
		rt_par_run(nblocks, validate_block, &c);
	for (unsigned b = 0; rc == 0 && b < nblocks; b++)
		add_part(res, &c.part[b]);
	checker_free(&c);
	if (rc)
		return rc;
	return res->unreachable || res->loops || res->sw_unreachable || res->sw_loops
	       ? -EHOSTUNREACH : 0;
}

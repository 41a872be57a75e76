// SPDX-License-Identifier: MIT
/*
 * rt_validate.c - does every CA reach every CA LID through the LFTs?
 *
 * A verdict per (switch, destination LID): delivered, lost (an entry leads
 * nowhere, or into a CA that is not the destination), or still open.  The first
 * pass settles every entry that ends at its own hop; each further pass lets a
 * switch take the verdict of the switch its entry points to, so after as many
 * passes as the longest path every route that ends has a verdict, and whatever
 * is still open goes round in a loop.  The first pass notes where each open
 * entry leads (switch numbers fit 16 bits: a subnet has at most 49,151 LIDs).  The passes walk the tables row by row
 * (one switch, consecutive LIDs), which keeps them in cache: O(LIDs * switches
 * * path length) sequential work, on blocks of LIDs so the verdicts stay small.
 * A pair is a switch with CAs and a CA LID; its weight is the CAs on the switch.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt.h"

enum { OPEN, DELIVERED, LOST };

#define BLOCK_LIDS 2048

struct checker {
	const struct ibsmd_rt_ctx *ctx;
	uint32_t nsw;
	const uint32_t *sw_node;	/* the view's switch_node: switch number -> node */
	const uint32_t *node_sw;	/* the view's node_switch */
	uint32_t *cas;		/* per switch number: CA ports cabled to it */
	uint8_t *verdict;	/* [switch][LID in block] */
	uint16_t *next;		/* [switch][LID in block]: the switch an OPEN entry leads to */
};

static bool is_ca_lid(const struct ibsmd_rt_view *v, uint32_t lid)
{
	uint32_t owner = v->lid_node[lid];

	return owner != IBSMD_NO_NODE && !ibsmd_is_switch(v, owner);
}

/* The verdict the entry of switch @s for @lid settles on its own, or OPEN with
 * *next the switch it hands the packet to; @n is that switch, @port its entry. */
static uint8_t first_hop(const struct checker *c, const struct ibsmd_rt_node *n,
			 uint8_t port, uint32_t lid, uint32_t *next)
{
	const struct ibsmd_rt_view *v = c->ctx->view;

	if (port == 0 || port > n->nports || n->ports[port].peer == IBSMD_NO_NODE)
		return LOST;
	const struct ibsmd_rt_port *p = &n->ports[port];
	if (p->peer == v->lid_node[lid] && p->peer_port == v->lid_port[lid])
		return DELIVERED;
	*next = c->node_sw[p->peer];
	return *next == IBSMD_NO_NODE ? LOST : OPEN;
}

static void check_block(struct checker *c, uint32_t l0, uint32_t l1)
{
	const struct ibsmd_rt_view *v = c->ctx->view;
	uint32_t w = l1 - l0, next = 0;
	bool changed = true, ca[BLOCK_LIDS];

	for (uint32_t l = l0; l < l1; l++)
		ca[l - l0] = is_ca_lid(v, l);
	for (uint32_t s = 0; s < c->nsw; s++) {
		const struct ibsmd_rt_node *n = &v->nodes[c->sw_node[s]];
		const uint8_t *lft = c->ctx->lft[c->sw_node[s]];
		uint8_t *verdict = &c->verdict[(size_t)s * w];
		uint16_t *nrow = &c->next[(size_t)s * w];
		for (uint32_t l = l0; l < l1; l++) {
			verdict[l - l0] = ca[l - l0] ? first_hop(c, n, lft[l], l, &next) : DELIVERED;
			nrow[l - l0] = (uint16_t)next;
		}
	}
	for (uint32_t pass = 0; changed && pass < c->nsw; pass++) {
		changed = false;
		for (uint32_t s = 0; s < c->nsw; s++) {
			uint8_t *row = &c->verdict[(size_t)s * w];
			const uint16_t *nrow = &c->next[(size_t)s * w];
			for (uint32_t i = 0; i < w; i++) {
				if (row[i] != OPEN)
					continue;
				uint8_t there = c->verdict[(size_t)nrow[i] * w + i];
				if (there != OPEN) {
					row[i] = there;
					changed = true;
				}
			}
		}
	}
}

static void tally(struct checker *c, uint32_t l0, uint32_t l1, struct rt_validation *res)
{
	const struct ibsmd_rt_view *v = c->ctx->view;
	uint32_t w = l1 - l0;

	for (uint32_t s = 0; s < c->nsw; s++) {
		if (!c->cas[s])
			continue;
		for (uint32_t l = l0; l < l1; l++) {
			if (!is_ca_lid(v, l))
				continue;
			uint8_t verdict = c->verdict[(size_t)s * w + (l - l0)];
			res->pairs += c->cas[s];
			if (verdict == DELIVERED)
				continue;
			if (verdict == OPEN)
				res->loops += c->cas[s];
			else
				res->unreachable += c->cas[s];
			if (res->first_problem[0])
				continue;
			const struct ibsmd_rt_node *from = &v->nodes[c->sw_node[s]];
			const struct ibsmd_rt_node *to = &v->nodes[v->lid_node[l]];
			snprintf(res->first_problem, sizeof(res->first_problem),
				 "from switch 0x%016llx (%s) to LID %u (%s): %s",
				 (unsigned long long)from->guid, from->desc ? from->desc : "", l,
				 to->desc ? to->desc : "",
				 verdict == OPEN ? "the path loops" : "no route");
		}
	}
}

static void checker_free(struct checker *c)
{
	free(c->cas);
	free(c->verdict);
	free(c->next);
}

static int checker_init(struct checker *c, const struct ibsmd_rt_ctx *ctx)
{
	const struct ibsmd_rt_view *v = ctx->view;

	memset(c, 0, sizeof(*c));
	c->ctx = ctx;
	c->nsw = v->nswitches;
	c->sw_node = v->switch_node;
	c->node_sw = v->node_switch;
	c->cas = calloc(v->nnodes + 1, sizeof(*c->cas));
	if (!c->cas)
		return -ENOMEM;
	for (uint32_t n = 0; n < v->nnodes; n++)
		for (unsigned p = 1; !ibsmd_is_switch(v, n) && p <= v->nodes[n].nports; p++) {
			uint32_t peer = v->nodes[n].ports[p].peer;
			if (ibsmd_is_switch(v, peer))
				c->cas[c->node_sw[peer]]++;
		}
	c->verdict = malloc((size_t)(c->nsw + 1) * BLOCK_LIDS);
	c->next = malloc((size_t)(c->nsw + 1) * BLOCK_LIDS * sizeof(*c->next));
	return c->verdict && c->next ? 0 : -ENOMEM;
}

int rt_validate(const struct ibsmd_rt_ctx *ctx, struct rt_validation *res)
{
	struct checker c;

	*res = (struct rt_validation){ 0 };
	int rc = checker_init(&c, ctx);
	for (uint32_t l0 = 1; rc == 0 && l0 <= ctx->view->max_lid; l0 += BLOCK_LIDS) {
		uint32_t l1 = l0 + BLOCK_LIDS <= (uint32_t)ctx->view->max_lid + 1
			      ? l0 + BLOCK_LIDS : (uint32_t)ctx->view->max_lid + 1;
		check_block(&c, l0, l1);
		tally(&c, l0, l1, res);
	}
	checker_free(&c);
	if (rc)
		return rc;
	return res->unreachable || res->loops ? -EHOSTUNREACH : 0;
}

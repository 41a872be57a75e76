// SPDX-License-Identifier: MIT
/*
 * smq_route.c - `smquery route SRC DST`: the path a packet from SRC to DST's
 * LID takes through the LFTs ibsmd programmed, hop by hop.
 *
 * The walk starts at SRC (a CA leaves through the port named, else its first
 * cabled port; a switch starts routing itself), then at every switch reads
 * the stored LFT entry for the destination LID (IBA 14.2.5.10: a unicast
 * packet leaves by the port its DLID's entry names) and follows the cable.
 * It ends when the LID is delivered: at a CA or router port that owns it, or
 * at a switch whose entry is port 0 for its own LID.  It fails on a switch
 * without an LFT or without a port for the LID, an uncabled port, a node
 * that does not own the LID, and a switch visited twice (a loop).  The hops
 * are collected first, then printed, the failure last.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "sm/smquery/smq.h"

#define SMQ_NO_PORT (-1)

struct smq_hop {
	uint32_t node;
	int in, out;		/* port numbers, SMQ_NO_PORT where there is none */
};

struct smq_walk {
	struct smq_hop *hops;
	uint32_t n;
	bool reached;
	char error[256];	/* why the walk stopped short ("" when reached) */
};

static void smq_walk_error(struct smq_walk *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void smq_walk_error(struct smq_walk *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->error, sizeof(w->error), fmt, ap);
	va_end(ap);
}

static void smq_walk_add(struct smq_walk *w, uint32_t node, int in, int out)
{
	w->hops[w->n++] = (struct smq_hop){ node, in, out };
}

/* One switch: follow its entry for @lid; true to go on to *@next[*@in]. */
static bool smq_walk_switch(struct smq *q, struct smq_walk *w, uint32_t sw, int in,
			    uint16_t lid, const struct smq_lids *l, uint32_t *next, int *next_in)
{
	const struct topo_node *n = &q->topo.nodes[sw];
	int found;
	uint8_t *lft = smq_lft_load(q, sw, &found);
	bool read = lft != NULL;
	int entry = read && found ? lft[lid] : MAD_LFT_NO_PORT;

	free(lft);
	if (entry > n->nports) {
		smq_walk_add(w, sw, in, SMQ_NO_PORT);
		if (!read)
			smq_walk_error(w, "reading the LFT of switch 0x%016" PRIx64 " failed",
				       n->guid);
		else if (!found)
			smq_walk_error(w, "no route: no LFT stored for switch 0x%016" PRIx64
				       " \"%s\"", n->guid, n->desc);
		else
			smq_walk_error(w, "no route: switch 0x%016" PRIx64 " \"%s\" has no port "
				       "for lid %u", n->guid, n->desc, lid);
		return false;
	}
	smq_walk_add(w, sw, in, entry);
	if (entry == 0) {
		w->reached = l->node[lid] == sw;
		if (!w->reached)
			smq_walk_error(w, "wrong destination: switch 0x%016" PRIx64 " \"%s\" "
				       "delivers lid %u to its port 0, not its LID", n->guid,
				       n->desc, lid);
		return false;
	}
	if (n->ports[entry].peer == TOPO_NONE) {
		smq_walk_error(w, "no route: port %d of switch 0x%016" PRIx64 " \"%s\" is not "
			       "cabled", entry, n->guid, n->desc);
		return false;
	}
	*next = n->ports[entry].peer;
	*next_in = n->ports[entry].peer_port;
	return true;
}

/* Walk from node @src (leaving by @port if a CA) to @lid, filling @w. */
static void smq_walk(struct smq *q, struct smq_walk *w, uint32_t src, unsigned port,
		     uint16_t lid, const struct smq_lids *l)
{
	const struct topo *t = &q->topo;
	bool *seen = calloc(t->n, sizeof(*seen));
	uint32_t cur = src;
	int in = SMQ_NO_PORT;

	if (!seen) {
		smq_walk_error(w, "out of memory");
		return;
	}
	for (;;) {
		const struct topo_node *n = &t->nodes[cur];

		if (n->type == MAD_NODE_SWITCH) {
			if (seen[cur]) {
				smq_walk_add(w, cur, in, SMQ_NO_PORT);
				smq_walk_error(w, "loop: lid %u comes back to switch 0x%016" PRIx64
					       " \"%s\"", lid, n->guid, n->desc);
				break;
			}
			seen[cur] = true;
			if (!smq_walk_switch(q, w, cur, in, lid, l, &cur, &in))
				break;
			continue;
		}
		if (in != SMQ_NO_PORT || l->node[lid] == cur) {	/* arrived, or SRC is DST */
			w->reached = l->node[lid] == cur &&
				     (in == SMQ_NO_PORT || l->port[lid] == in);
			smq_walk_add(w, cur, in, SMQ_NO_PORT);
			if (!w->reached)
				smq_walk_error(w, "wrong destination: lid %u arrives at %s 0x%016"
					       PRIx64 " \"%s\" port %d", lid,
					       mad_node_type_name(n->type), n->guid, n->desc, in);
			break;
		}
		if (!port || port > n->nports || n->ports[port].peer == TOPO_NONE) {
			smq_walk_add(w, cur, in, SMQ_NO_PORT);
			smq_walk_error(w, "no route: port %u of 0x%016" PRIx64 " \"%s\" is not "
				       "cabled", port, n->guid, n->desc);
			break;
		}
		smq_walk_add(w, cur, in, (int)port);
		in = n->ports[port].peer_port;
		cur = n->ports[port].peer;
	}
	free(seen);
}

/* The port a CA @src sends from: the one named, else its first cabled port (0: none). */
static unsigned smq_src_port(const struct topo_node *n, unsigned named)
{
	if (n->type == MAD_NODE_SWITCH || named)
		return named;
	for (unsigned p = 1; p <= n->nports; p++)
		if (n->ports[p].peer != TOPO_NONE)
			return p;
	return 0;
}

/* DST's LID: the one named, else the named port's base LID, else the node's. */
static uint16_t smq_dst_lid(const struct topo *t, const struct smq_lids *l, uint32_t dst,
			    unsigned port, const char *name)
{
	bool digits = *name != 0;

	for (const char *c = name; *c; c++)
		digits = digits && isdigit((unsigned char)*c);
	if (digits) {
		unsigned long lid = strtoul(name, NULL, 10);
		if (lid <= l->top && l->node[lid] == dst)
			return (uint16_t)lid;
	}
	return port ? t->nodes[dst].ports[port].lid : smq_node_lid(&t->nodes[dst]);
}

static void smq_hop_text(struct smq *q, const struct smq_hop *h)
{
	const struct topo_node *n = &q->topo.nodes[h->node];

	fprintf(q->out, "%-6s 0x%016" PRIx64 " \"%s\"", mad_node_type_name(n->type), n->guid,
		n->desc);
	if (h->in != SMQ_NO_PORT)
		fprintf(q->out, " [%d]", h->in);
	if (h->out != SMQ_NO_PORT)
		fprintf(q->out, " -> [%d]", h->out);
	fputc('\n', q->out);
}

static void smq_route_print(struct smq *q, const struct smq_walk *w, uint32_t src,
			    uint32_t dst, uint16_t lid)
{
	const struct topo *t = &q->topo;

	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_node(q, "from", t, src);
		smq_json_node(q, "to", t, dst);
		smq_json_int(q, "lid", lid);
		smq_json_open(q, "hops", '[');
		for (uint32_t i = 0; i < w->n; i++) {
			const struct smq_hop *h = &w->hops[i];
			const struct topo_node *n = &t->nodes[h->node];

			smq_json_open(q, NULL, '{');
			smq_json_guid(q, "guid", n->guid);
			smq_json_str(q, "type", smq_type_key(n->type));
			smq_json_str(q, "description", n->desc);
			if (h->in == SMQ_NO_PORT)
				smq_json_null(q, "in_port");
			else
				smq_json_int(q, "in_port", h->in);
			if (h->out == SMQ_NO_PORT)
				smq_json_null(q, "out_port");
			else
				smq_json_int(q, "out_port", h->out);
			smq_json_close(q, '}');
		}
		smq_json_close(q, ']');
		smq_json_bool(q, "reached", w->reached);
		smq_json_str(q, "error", w->reached ? NULL : w->error);
		smq_json_close(q, '}');
		return;
	}
	fprintf(q->out, "From %s 0x%016" PRIx64 " \"%s\" to lid %u (%s 0x%016" PRIx64
		" \"%s\")\n", mad_node_type_name(t->nodes[src].type), t->nodes[src].guid,
		t->nodes[src].desc, lid, mad_node_type_name(t->nodes[dst].type),
		t->nodes[dst].guid, t->nodes[dst].desc);
	uint32_t switches = 0;
	for (uint32_t i = 0; i < w->n; i++) {
		smq_hop_text(q, &w->hops[i]);
		switches += t->nodes[w->hops[i].node].type == MAD_NODE_SWITCH;
	}
	if (w->reached)
		fprintf(q->out, "lid %u reached through %u switch%s\n", lid, switches,
			switches == 1 ? "" : "es");
}

int smq_cmd_route(struct smq *q, int argc, char **argv)
{
	const struct topo *t = smq_topo(q);
	const struct smq_lids *l = t ? smq_lids(q) : NULL;
	unsigned sport, dport;

	(void)argc;
	if (!l)
		return SMQ_FAIL;
	uint32_t src = smq_port_find(t, argv[1], &sport);
	if (src == TOPO_NONE)
		return SMQ_FAIL;
	uint32_t dst = smq_port_find(t, argv[2], &dport);
	if (dst == TOPO_NONE)
		return SMQ_FAIL;
	uint16_t lid = smq_dst_lid(t, l, dst, dport, argv[2]);
	if (!lid || lid > l->top || l->node[lid] != dst)
		return smq_fail("0x%016" PRIx64 " \"%s\" has no LID to route to",
				t->nodes[dst].guid, t->nodes[dst].desc);
	/* each switch once, then the source, the end and a loop's return */
	struct smq_walk w = { .hops = calloc((size_t)t->n + 3, sizeof(*w.hops)) };
	if (!w.hops)
		return smq_fail("out of memory");
	smq_walk(q, &w, src, smq_src_port(&t->nodes[src], sport), lid, l);
	smq_route_print(q, &w, src, dst, lid);
	free(w.hops);
	return w.reached ? SMQ_OK : smq_fail("%s", w.error);
}

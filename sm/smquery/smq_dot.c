// SPDX-License-Identifier: MIT
/*
 * smq_dot.c - `smquery topology --format dot`: the stored fabric as an
 * undirected Graphviz graph, for dot(1) and the tools that read it.
 *
 *	graph "fabric" {
 *		graph [ranksep=1.2, nodesep=0.1];
 *		node [fontsize=10];
 *		edge [labelfontsize=8];
 *		{ rank=same; "0x0200000200000040"; ... }	one line per tier, top first
 *		"0x0200000200000000" [shape=box, label="L0\nlid 33", tooltip="..."];
 *		"0x0200000100000000" [shape=ellipse, label="H0\nlid 1", tooltip="..."];
 *		"0x0200000200000040" -- "0x0200000200000000" [taillabel=1, headlabel=5,
 *			tooltip="4xQDR"];
 *	}
 *
 * Nodes are named by node GUID and labelled with their description and LID;
 * switches are boxes, CAs ellipses, routers diamonds.  Switches of one tier
 * (smq_tiers.c) share a rank, the highest tier first, and each link is
 * written once from its higher end (a switch above a CA; between equals,
 * from the lower GUID and port), so that dot draws spines above leaves and
 * hosts at the bottom.  A link whose ports are not Active is dashed, one
 * that trained below what both ends support is orange.  Descriptions are
 * the terminal-safe text smquery shows, with '"' and '\' escaped.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "mad/model/topo_rate.h"
#include "mad/mad_attr.h"
#include "sm/smquery/smq.h"

/* Text inside a DOT quoted string: '"' and '\' escaped (no escape sequence is meant). */
static void smq_dot_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* How high a node is drawn: a switch's tier + 1, CAs and unranked switches 0. */
static unsigned smq_dot_height(const uint16_t *tier, uint32_t idx)
{
	return tier[idx] == SMQ_NO_TIER ? 0 : tier[idx] + 1u;
}

/* Is the link at port @p of node @a written from @a's end? */
static bool smq_dot_from_here(const struct topo *t, const uint16_t *tier, uint32_t a, unsigned p)
{
	const struct topo_port *port = &t->nodes[a].ports[p];
	unsigned ha = smq_dot_height(tier, a), hb = smq_dot_height(tier, port->peer);
	uint64_t ga = t->nodes[a].guid, gb = t->nodes[port->peer].guid;

	if (ha != hb)
		return ha > hb;
	return ga < gb || (ga == gb && p < port->peer_port);
}

static void smq_dot_node(FILE *f, const struct topo_node *n)
{
	fprintf(f, "\t\"0x%016" PRIx64 "\" [shape=%s, label=", n->guid,
		n->type == MAD_NODE_SWITCH ? "box" : n->type == MAD_NODE_ROUTER ? "diamond"
		: "ellipse");
	fputc('"', f);
	smq_dot_text(f, n->desc);
	fprintf(f, "\\nlid %u\", tooltip=\"%s 0x%016" PRIx64 "\"];\n", smq_node_lid(n),
		mad_node_type_name(n->type), n->guid);
}

static void smq_dot_link(FILE *f, const struct topo *t, uint32_t a, unsigned p)
{
	const struct topo_port *port = &t->nodes[a].ports[p];
	const struct topo_port *back = &t->nodes[port->peer].ports[port->peer_port];
	bool active = port->state >= MAD_PORT_ACTIVE && back->state >= MAD_PORT_ACTIVE;

	fprintf(f, "\t\"0x%016" PRIx64 "\" -- \"0x%016" PRIx64 "\" [taillabel=%u, headlabel=%u, "
		"tooltip=\"%s%s\"%s%s];\n", t->nodes[a].guid, t->nodes[port->peer].guid, p,
		port->peer_port, mad_rate_width_name(port->width, MAD_RATE_IBND),
		mad_rate_speed_name(port->speed, MAD_RATE_IBND), active ? "" : ", style=dashed",
		port->degraded || back->degraded ? ", color=orange" : "");
}

int smq_topology_dot(struct smq *q, const struct topo *t)
{
	uint16_t *tier = malloc(((size_t)t->n + 1) * sizeof(*tier));
	uint16_t height;

	if (!tier || smq_tiers(t, tier, &height)) {
		free(tier);
		return smq_fail("out of memory");
	}
	fprintf(q->out, "graph \"fabric\" {\n\t// %u switches, %u CAs, %u routers, %zu links\n"
		"\tgraph [ranksep=1.2, nodesep=0.1];\n\tnode [fontsize=10];\n\tedge [labelfontsize=8];\n",
		topo_count_type(t, MAD_NODE_SWITCH), topo_count_type(t, MAD_NODE_CA),
		topo_count_type(t, MAD_NODE_ROUTER), topo_count_links(t));
	for (unsigned h = height + 1u; h-- > 0;) {
		fputs("\t{ rank=same;", q->out);
		for (uint32_t i = 0; i < t->n; i++)
			if (tier[i] == h)
				fprintf(q->out, " \"0x%016" PRIx64 "\";", t->nodes[i].guid);
		fputs(" }\n", q->out);
	}
	for (uint32_t i = 0; i < t->n; i++)
		smq_dot_node(q->out, &t->nodes[i]);
	for (uint32_t i = 0; i < t->n; i++)
		for (unsigned p = 1; p <= t->nodes[i].nports; p++)
			if (t->nodes[i].ports[p].peer != TOPO_NONE && smq_dot_from_here(t, tier, i, p))
				smq_dot_link(q->out, t, i, p);
	fputs("}\n", q->out);
	free(tier);
	return SMQ_OK;
}

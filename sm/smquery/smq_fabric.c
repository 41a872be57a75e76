// SPDX-License-Identifier: MIT
/*
 * smq_fabric.c - the topology listings: nodes (switches, cas), links, ports.
 *
 * All read the stored topology once (smq_topo()) and walk it in the order the
 * last sweep stored it.  A link is listed once, from its lower (GUID, port)
 * end, as the store keeps it.
 */
#include <inttypes.h>
#include <string.h>

#include "mad/model/topo_rate.h"
#include "mad/mad_attr.h"
#include "sm/smquery/smq.h"

/* Which node types a listing command shows: 0 for all. */
static uint8_t smq_nodes_type(const char *cmd)
{
	if (!strcmp(cmd, "switches"))
		return MAD_NODE_SWITCH;
	if (!strcmp(cmd, "cas"))
		return MAD_NODE_CA;
	return 0;
}

int smq_cmd_nodes(struct smq *q, int argc, char **argv)
{
	const struct topo *t = smq_topo(q);
	uint8_t type = smq_nodes_type(argv[0]);

	(void)argc;
	if (!t)
		return SMQ_FAIL;
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_open(q, "nodes", '[');
	} else {
		fprintf(q->out, "%-18s  %-6s  %5s  %5s  %s\n", "GUID", "TYPE", "PORTS", "LID",
			"DESCRIPTION");
	}
	for (uint32_t i = 0; i < t->n; i++) {
		const struct topo_node *n = &t->nodes[i];

		if (type && n->type != type)
			continue;
		if (q->json)
			smq_json_node(q, NULL, t, i);
		else
			fprintf(q->out, "0x%016" PRIx64 "  %-6s  %5u  %5u  \"%s\"%s\n", n->guid,
				mad_node_type_name(n->type), n->nports, smq_node_lid(n), n->desc,
				n->responded ? "" : "  (did not answer)");
	}
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	return SMQ_OK;
}

static bool smq_link_a_end(const struct topo *t, const struct topo_node *n, unsigned p)
{
	const struct topo_port *port = &n->ports[p];

	if (port->peer == TOPO_NONE)
		return false;
	uint64_t peer = t->nodes[port->peer].guid;
	return n->guid < peer || (n->guid == peer && p < port->peer_port);
}

static void smq_json_end(struct smq *q, const char *key, const struct topo *t, uint32_t idx,
			 unsigned port)
{
	smq_json_open(q, key, '{');
	smq_json_guid(q, "guid", t->nodes[idx].guid);
	smq_json_int(q, "port", port);
	smq_json_str(q, "description", t->nodes[idx].desc);
	smq_json_close(q, '}');
}

static void smq_link_print(struct smq *q, const struct topo *t, uint32_t a, unsigned pa)
{
	const struct topo_port *p = &t->nodes[a].ports[pa];
	const struct topo_node *b = &t->nodes[p->peer];
	/* either end may have seen it: the SM marks both */
	uint8_t deg = p->degraded | b->ports[p->peer_port].degraded;

	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_end(q, "a", t, a, pa);
		smq_json_end(q, "b", t, p->peer, p->peer_port);
		smq_json_str(q, "width", mad_rate_width_name(p->width, MAD_RATE_TEXT));
		smq_json_str(q, "speed", mad_rate_speed_name(p->speed, MAD_RATE_TEXT));
		smq_json_open(q, "degraded", '[');
		if (deg & TOPO_DEGRADED_WIDTH)
			smq_json_str(q, NULL, "width");
		if (deg & TOPO_DEGRADED_SPEED)
			smq_json_str(q, NULL, "speed");
		smq_json_close(q, ']');
		smq_json_close(q, '}');
		return;
	}
	fprintf(q->out, "0x%016" PRIx64 "  %4u  0x%016" PRIx64 "  %4u  %-3s %-3s  %-11s  "
		"\"%s\" - \"%s\"\n", t->nodes[a].guid, pa, b->guid, p->peer_port,
		mad_rate_width_name(p->width, MAD_RATE_TEXT),
		mad_rate_speed_name(p->speed, MAD_RATE_TEXT),
		deg == (TOPO_DEGRADED_WIDTH | TOPO_DEGRADED_SPEED) ? "width,speed"
		: deg & TOPO_DEGRADED_WIDTH ? "width" : deg ? "speed" : "-",
		t->nodes[a].desc, b->desc);
}

int smq_cmd_links(struct smq *q, int argc, char **argv)
{
	const struct topo *t = smq_topo(q);

	(void)argc, (void)argv;
	if (!t)
		return SMQ_FAIL;
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_open(q, "links", '[');
	} else {
		fprintf(q->out, "%-18s  %4s  %-18s  %4s  %-7s  %-11s  %s\n", "A", "PORT", "B",
			"PORT", "LINK", "DEGRADED", "DESCRIPTIONS");
	}
	for (uint32_t i = 0; i < t->n; i++)
		for (unsigned p = 1; p <= t->nodes[i].nports; p++)
			if (smq_link_a_end(t, &t->nodes[i], p))
				smq_link_print(q, t, i, p);
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	return SMQ_OK;
}

static void smq_port_json(struct smq *q, const struct topo *t, const struct topo_port *p,
			  unsigned num)
{
	smq_json_open(q, NULL, '{');
	smq_json_int(q, "port", num);
	smq_json_guid(q, "guid", p->guid);
	smq_json_str(q, "state", mad_port_state_name(p->state));
	smq_json_str(q, "phys_state", mad_phys_state_name(p->phys_state));
	smq_json_str(q, "width", mad_rate_width_name(p->width, MAD_RATE_TEXT));
	smq_json_str(q, "speed", mad_rate_speed_name(p->speed, MAD_RATE_TEXT));
	smq_json_int(q, "lid", p->lid);
	smq_json_int(q, "lmc", p->lmc);
	if (p->peer == TOPO_NONE)
		smq_json_null(q, "peer");
	else
		smq_json_end(q, "peer", t, p->peer, p->peer_port);
	smq_json_close(q, '}');
}

static void smq_port_text(struct smq *q, const struct topo *t, const struct topo_port *p,
			  unsigned num)
{
	fprintf(q->out, "%4u  0x%016" PRIx64 "  %-10s  %-17s  %-3s  %-3s  %5u  %3u  ", num,
		p->guid, mad_port_state_name(p->state), mad_phys_state_name(p->phys_state),
		mad_rate_width_name(p->width, MAD_RATE_TEXT),
		mad_rate_speed_name(p->speed, MAD_RATE_TEXT), p->lid, p->lmc);
	if (p->peer == TOPO_NONE)
		fprintf(q->out, "-\n");
	else
		fprintf(q->out, "0x%016" PRIx64 "[%u] \"%s\"\n", t->nodes[p->peer].guid,
			p->peer_port, t->nodes[p->peer].desc);
}

int smq_cmd_ports(struct smq *q, int argc, char **argv)
{
	const struct topo *t = smq_topo(q);

	(void)argc;
	if (!t)
		return SMQ_FAIL;
	uint32_t idx = smq_node_find(t, argv[1]);
	if (idx == TOPO_NONE)
		return SMQ_FAIL;
	const struct topo_node *n = &t->nodes[idx];
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_node(q, "node", t, idx);
		smq_json_open(q, "ports", '[');
	} else {
		fprintf(q->out, "%s 0x%016" PRIx64 " \"%s\", %u ports\n",
			mad_node_type_name(n->type), n->guid, n->desc, n->nports);
		fprintf(q->out, "%4s  %-18s  %-10s  %-17s  %-3s  %-3s  %5s  %3s  %s\n", "PORT",
			"GUID", "STATE", "PHYS", "W", "SPD", "LID", "LMC", "PEER");
	}
	for (unsigned p = n->type == MAD_NODE_SWITCH ? 0 : 1; p <= n->nports; p++) {
		if (q->json)
			smq_port_json(q, t, &n->ports[p], p);
		else
			smq_port_text(q, t, &n->ports[p], p);
	}
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	return SMQ_OK;
}

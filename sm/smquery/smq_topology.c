// SPDX-License-Identifier: MIT
/*
 * smq_topology.c - `smquery topology`: the stored fabric in the format
 * ibnetdiscover(8) prints, byte for byte, so that ibsim and every tool that
 * reads ibnetdiscover files can load it.
 *
 * Layout (as infiniband-diags 4x prints it without -g): a header naming the
 * node discovery started from; then every switch, every CA, every router,
 * each as a block
 *
 *	<blank>
 *	vendid=0x2c9
 *	devid=0xc738
 *	sysimgguid=0x...        (the line stays, empty, when the GUID is 0)
 *	switchguid=0x<node guid>(<port 0 guid>)   | caguid=0x... | rtguid=0x...
 *	Switch\t36 "S-<guid>"\t\t# "<desc>" enhanced|base port 0 lid N lmc N
 *	[p]\t"H-<guid>"[pp](<peer port guid>) \t\t# "<peer desc>" lid N 4xQDR
 *	...
 * with CA port lines "[p](<port guid>) \t"S-<guid>"[pp]\t\t# lid N lmc N
 * "<peer desc>" lid N 4xQDR".  The "lid" after a peer's description is a
 * switch peer's port 0 LID, else the peer port's own.  Only linked ports are
 * listed.  The date in the header is the start of the last recorded sweep.
 * Descriptions are the store's, made terminal-safe ('?' for controls,
 * smq_topo()), with \" and \\ for a quote and a backslash.
 * `--format dot` writes Graphviz instead (smq_dot.c).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mad/model/topo_rate.h"
#include "mad/mad_attr.h"
#include "sm/smquery/smq.h"

static char smq_ibnd_letter(uint8_t type)
{
	return type == MAD_NODE_SWITCH ? 'S' : type == MAD_NODE_CA ? 'H'
	       : type == MAD_NODE_ROUTER ? 'R' : '?';
}

/* A node description as ibnetdiscover prints it, unprintable bytes as spaces,
 * but with a quote and a backslash escaped (\" and \\), so that the file's
 * readers (mad/model/topofile.c) take the description back whole, where
 * ibnetdiscover's own output would end it at the quote. */
static void smq_ibnd_desc(FILE *f, const char *desc)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)desc; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fputc(isprint(*p) ? *p : ' ', f);
	}
	fputc('"', f);
}

/* The LID ibnetdiscover shows for the port at the far end of @p. */
static uint16_t smq_ibnd_peer_lid(const struct topo *t, const struct topo_port *p)
{
	const struct topo_node *peer = &t->nodes[p->peer];

	return peer->type == MAD_NODE_SWITCH ? peer->ports[0].lid : peer->ports[p->peer_port].lid;
}

static void smq_ibnd_ids(FILE *f, const struct topo_node *n)
{
	fprintf(f, "\nvendid=0x%x\ndevid=0x%x\n", n->vendor_id, n->device_id);
	if (n->sys_guid)
		fprintf(f, "sysimgguid=0x%" PRIx64, n->sys_guid);
	fputc('\n', f);
}

static void smq_ibnd_peer(FILE *f, const struct topo *t, const struct topo_port *p)
{
	const struct topo_node *peer = &t->nodes[p->peer];

	fprintf(f, "\t\"%c-%016" PRIx64 "\"[%u]", smq_ibnd_letter(peer->type), peer->guid,
		p->peer_port);
}

static void smq_ibnd_rate(FILE *f, const struct topo *t, const struct topo_port *p)
{
	fprintf(f, " lid %u %s%s\n", smq_ibnd_peer_lid(t, p),
		mad_rate_width_name(p->width, MAD_RATE_IBND),
		mad_rate_speed_name(p->speed, MAD_RATE_IBND));
}

static void smq_ibnd_switch(FILE *f, const struct topo *t, const struct topo_node *n)
{
	smq_ibnd_ids(f, n);
	fprintf(f, "switchguid=0x%" PRIx64 "(%" PRIx64 ")\n", n->guid, n->ports[0].guid);
	fprintf(f, "Switch\t%u \"S-%016" PRIx64 "\"\t\t# ", n->nports, n->guid);
	smq_ibnd_desc(f, n->desc);
	fprintf(f, " %s port 0 lid %u lmc %u\n", n->enhanced_port0 ? "enhanced" : "base",
		n->ports[0].lid, n->ports[0].lmc);
	for (unsigned pn = 1; pn <= n->nports; pn++) {
		const struct topo_port *p = &n->ports[pn];

		if (p->peer == TOPO_NONE)
			continue;
		const struct topo_node *peer = &t->nodes[p->peer];
		fprintf(f, "[%u]", pn);
		smq_ibnd_peer(f, t, p);
		if (peer->type != MAD_NODE_SWITCH)
			fprintf(f, "(%" PRIx64 ") ", peer->ports[p->peer_port].guid);
		fputs("\t\t# ", f);
		smq_ibnd_desc(f, peer->desc);
		smq_ibnd_rate(f, t, p);
	}
}

static void smq_ibnd_ca(FILE *f, const struct topo *t, const struct topo_node *n)
{
	bool router = n->type == MAD_NODE_ROUTER;

	smq_ibnd_ids(f, n);
	fprintf(f, "%sguid=0x%" PRIx64 "\n", router ? "rt" : "ca", n->guid);
	fprintf(f, "%s\t%u \"%c-%016" PRIx64 "\"\t\t# ", router ? "Rt" : "Ca", n->nports,
		smq_ibnd_letter(n->type), n->guid);
	smq_ibnd_desc(f, n->desc);
	fputc('\n', f);
	for (unsigned pn = 1; pn <= n->nports; pn++) {
		const struct topo_port *p = &n->ports[pn];

		if (p->peer == TOPO_NONE)
			continue;
		const struct topo_node *peer = &t->nodes[p->peer];
		fprintf(f, "[%u](%" PRIx64 ") ", pn, p->guid);
		smq_ibnd_peer(f, t, p);
		if (peer->type != MAD_NODE_SWITCH)
			fprintf(f, " (%" PRIx64 ") ", peer->ports[p->peer_port].guid);
		fprintf(f, "\t\t# lid %u lmc %u ", p->lid, p->lmc);
		smq_ibnd_desc(f, peer->desc);
		smq_ibnd_rate(f, t, p);
	}
}

/* The port discovery started from: the SM's port if the daemon recorded it. */
static void smq_ibnd_origin(struct smq *q, const struct topo *t, uint64_t *node,
			    uint64_t *port)
{
	char buf[32];

	*node = *port = 0;
	if (!db_status_get(q->db, DB_ST_SM_GUID, buf, sizeof(buf))) {
		uint64_t guid = strtoull(buf, NULL, 16);
		for (uint32_t i = 0; i < t->n; i++)
			for (unsigned p = 0; p <= t->nodes[i].nports; p++)
				if (guid && t->nodes[i].ports[p].guid == guid) {
					*node = t->nodes[i].guid;
					*port = guid;
					return;
				}
	}
	if (!t->n)
		return;
	const struct topo_node *n = &t->nodes[0];
	*node = n->guid;
	*port = n->ports[0].guid;
	for (unsigned p = 1; n->type != MAD_NODE_SWITCH && p <= n->nports && !*port; p++)
		if (n->ports[p].peer != TOPO_NONE)
			*port = n->ports[p].guid;
}

static int smq_last_start(void *arg, const struct db_sweep *sw)
{
	*(int64_t *)arg = sw->started_ms;
	return 0;
}

static void smq_ibnd_header(struct smq *q, const struct topo *t)
{
	int64_t ms = 0;
	char date[64];
	uint64_t node, port;

	db_sweeps_each(q->db, smq_last_start, &ms);
	time_t sec = ms ? (time_t)(ms / 1000) : time(NULL);
	struct tm tm;
	if (!localtime_r(&sec, &tm) || !strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", &tm))
		date[0] = 0;
	smq_ibnd_origin(q, t, &node, &port);
	fprintf(q->out, "#\n# Topology file: generated on %s\n#\n"
		"# Initiated from node %016" PRIx64 " port %016" PRIx64 "\n", date, node, port);
}

static void smq_topology_json(struct smq *q, const struct topo *t)
{
	smq_json_open(q, NULL, '{');
	smq_json_open(q, "nodes", '[');
	for (uint32_t i = 0; i < t->n; i++) {
		const struct topo_node *n = &t->nodes[i];

		smq_json_open(q, NULL, '{');
		smq_json_node(q, "node", t, i);
		smq_json_open(q, "links", '[');
		for (unsigned p = 1; p <= n->nports; p++) {
			const struct topo_port *port = &n->ports[p];

			if (port->peer == TOPO_NONE)
				continue;
			smq_json_open(q, NULL, '{');
			smq_json_int(q, "port", p);
			smq_json_guid(q, "peer_guid", t->nodes[port->peer].guid);
			smq_json_int(q, "peer_port", port->peer_port);
			smq_json_close(q, '}');
		}
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	smq_json_close(q, ']');
	smq_json_close(q, '}');
}

int smq_cmd_topology(struct smq *q, int argc, char **argv)
{
	static const uint8_t order[] = { MAD_NODE_SWITCH, MAD_NODE_CA, MAD_NODE_ROUTER };
	bool dot = false;

	if (argc == 2 || (argc == 3 && strcmp(argv[1], "--format")))
		return smq_usage_error(argv[0], "unexpected '%s'", argv[1]);
	if (argc == 3) {
		dot = !strcmp(argv[2], "dot");
		if (!dot && strcmp(argv[2], "ibnetdiscover"))
			return smq_usage_error(argv[0], "bad --format '%s' (ibnetdiscover or dot)",
					       argv[2]);
		if (dot && q->json)
			return smq_usage_error(argv[0], "--format dot has no --json form");
	}
	const struct topo *t = smq_topo(q);
	if (!t)
		return SMQ_FAIL;
	if (dot)
		return smq_topology_dot(q, t);
	if (q->json) {
		smq_topology_json(q, t);
		return SMQ_OK;
	}
	smq_ibnd_header(q, t);
	for (size_t k = 0; k < sizeof(order); k++)
		for (uint32_t i = 0; i < t->n; i++) {
			const struct topo_node *n = &t->nodes[i];

			if (n->type != order[k])
				continue;
			if (n->type == MAD_NODE_SWITCH)
				smq_ibnd_switch(q->out, t, n);
			else
				smq_ibnd_ca(q->out, t, n);
		}
	return SMQ_OK;
}

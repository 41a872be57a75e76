// SPDX-License-Identifier: MIT
/*
 * smq_node.c - naming a node on the command line.
 *
 * In order: "0x" + hex is a GUID; all decimal digits is a LID (a port whose
 * LID range, base .. base + 2^LMC - 1, holds it), falling back to a bare-hex
 * GUID; other hex is a bare GUID; anything else, or what matched none of
 * those, must equal one node description exactly.  A GUID is a node GUID or,
 * failing that, a port GUID.  A port GUID or a LID also names the port.
 * Also a stored node's description by its GUID, for the listings.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "sm/smquery/smq.h"

#define SMQ_MAX_CANDIDATES 8

static bool smq_all(const char *s, int (*is)(int))
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!is((unsigned char)*s))
			return false;
	return true;
}

static uint32_t smq_by_guid(const struct topo *t, const char *hex, unsigned *port)
{
	char *end;

	errno = 0;
	uint64_t guid = strtoull(hex, &end, 16);
	if (errno || *end || end == hex || !guid)
		return TOPO_NONE;
	uint32_t idx = topo_find_guid(t, guid);
	for (uint32_t i = 0; idx == TOPO_NONE && i < t->n; i++)
		for (unsigned p = 0; p <= t->nodes[i].nports; p++)
			if (t->nodes[i].ports[p].guid == guid) {
				*port = t->nodes[i].type == MAD_NODE_SWITCH ? 0 : p;
				return i;
			}
	return idx;
}

static uint32_t smq_by_lid(const struct topo *t, const char *dec, unsigned *pnum)
{
	unsigned long lid = strtoul(dec, NULL, 10);

	if (!lid || lid >= 0xc000)
		return TOPO_NONE;
	for (uint32_t i = 0; i < t->n; i++) {
		const struct topo_node *n = &t->nodes[i];

		for (unsigned p = n->type == MAD_NODE_SWITCH ? 0 : 1; p <= n->nports; p++) {
			const struct topo_port *port = &n->ports[p];
			if (port->lid && lid >= port->lid &&
			    lid < (unsigned long)port->lid + (1ul << (port->lmc & 7))) {
				*pnum = p;
				return i;
			}
			if (n->type == MAD_NODE_SWITCH)
				break;	/* switch ports share port 0's LID */
		}
	}
	return TOPO_NONE;
}

static uint32_t smq_by_desc(const struct topo *t, const char *desc)
{
	uint32_t found = TOPO_NONE, count = 0;

	for (uint32_t i = 0; i < t->n; i++)
		if (!strcmp(t->nodes[i].desc, desc) && count++ == 0)
			found = i;
	if (count <= 1) {
		if (!count)
			smq_fail("no node named '%s' (not a GUID, LID or node description "
				 "in the database)", desc);
		return found;
	}
	fprintf(stderr, "smquery: node description '%s' is ambiguous, %u nodes have it:",
		desc, count);
	count = 0;
	for (uint32_t i = found; i < t->n && count < SMQ_MAX_CANDIDATES; i++)
		if (!strcmp(t->nodes[i].desc, desc))
			fprintf(stderr, "%s 0x%016" PRIx64, count++ ? "," : "", t->nodes[i].guid);
	fprintf(stderr, "%s; name one by GUID or LID\n", count == SMQ_MAX_CANDIDATES ? ", ..." : "");
	return TOPO_NONE;
}

uint32_t smq_port_find(const struct topo *t, const char *name, unsigned *port)
{
	uint32_t idx = TOPO_NONE;

	*port = 0;
	if ((name[0] == '0' && (name[1] == 'x' || name[1] == 'X'))) {
		idx = smq_by_guid(t, name + 2, port);
		if (idx == TOPO_NONE)
			smq_fail("no node or port with GUID %s in the database", name);
		return idx;
	}
	if (smq_all(name, isdigit))
		idx = smq_by_lid(t, name, port);
	if (idx == TOPO_NONE && smq_all(name, isxdigit))
		idx = smq_by_guid(t, name, port);
	return idx != TOPO_NONE ? idx : smq_by_desc(t, name);
}

uint32_t smq_node_find(const struct topo *t, const char *name)
{
	unsigned port;

	return smq_port_find(t, name, &port);
}

const char *smq_guid_desc(const struct topo *t, uint64_t guid)
{
	uint32_t n = t ? topo_find_guid(t, guid) : TOPO_NONE;

	return n == TOPO_NONE ? "?" : t->nodes[n].desc;
}

// SPDX-License-Identifier: MIT
/*
 * smq_lft.c - `smquery lft SWITCH`: a switch's unicast linear forwarding
 * table (IBA 14.2.5.10) as ibsmd last programmed it, in the format ibroute(8)
 * of infiniband-diags prints for `ibroute LID`; and the two lookups the
 * routing commands share: the LID index of the stored topology and a
 * switch's stored LFT.
 *
 * The store keeps every LFT block the daemon wrote (db_lft_load); the entries
 * that matter run from LID 0 to the highest LID of the stored topology, which
 * is the LinearFDBTop ibsmd sets.  Each entry whose port exists (0 .. the
 * switch's port count) is printed with the node that answers on that LID:
 *
 *	Unicast lids [0x0-0x2c] of switch Lid 33 guid 0x0200000200000000 (L0):
 *	  Lid  Out   Destination
 *	       Port     Info
 *	0x0001 001 : (Channel Adapter portguid 0x0200000100000001: 'H0')
 *	...
 *	44 valid lids dumped
 *
 * (the column header and the trailer end in a space, as ibroute's do).  The
 * LIDs after a base LID of a port with LMC > 0 read "(path #N out of M:
 * portguid ...)".  Where ibroute asks the fabric, we read the store: a LID no
 * stored port has reads "(unknown node and type)" as it does when its SMPs go
 * unanswered.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "sm/smquery/smq.h"

/* Does port @p of @n answer on LIDs?  Then they run to *@last from its LID. */
static bool smq_port_lids(const struct topo_node *n, unsigned p, uint32_t *last)
{
	const struct topo_port *port = &n->ports[p];

	if (!port->lid || (p == 0) != (n->type == MAD_NODE_SWITCH))
		return false;
	*last = port->lid + (1u << (port->lmc & 7)) - 1;
	return true;
}

void smq_lids_free(struct smq_lids *l)
{
	if (l) {
		free(l->node);
		free(l->port);
		free(l);
	}
}

const struct smq_lids *smq_lids(struct smq *q)
{
	const struct topo *t = smq_topo(q);
	uint32_t top = 0, last;

	if (q->lids || !t)
		return q->lids;
	for (uint32_t i = 0; i < t->n; i++)
		for (unsigned p = 0; p <= t->nodes[i].nports; p++)
			if (smq_port_lids(&t->nodes[i], p, &last) && last > top)
				top = last < MAD_MAX_UCAST_LID ? last : MAD_MAX_UCAST_LID;
	struct smq_lids *l = calloc(1, sizeof(*l));
	if (l) {
		l->node = malloc((top + 1) * sizeof(*l->node));
		l->port = calloc(top + 1, 1);
	}
	if (!l || !l->node || !l->port) {
		smq_lids_free(l);
		smq_fail("out of memory");
		return NULL;
	}
	l->top = (uint16_t)top;
	for (uint32_t lid = 0; lid <= top; lid++)
		l->node[lid] = TOPO_NONE;
	for (uint32_t i = 0; i < t->n; i++)
		for (unsigned p = 0; p <= t->nodes[i].nports; p++)
			if (smq_port_lids(&t->nodes[i], p, &last))
				for (uint32_t lid = t->nodes[i].ports[p].lid; lid <= last && lid <= top;
				     lid++) {
					l->node[lid] = i;
					l->port[lid] = (uint8_t)p;
				}
	q->lids = l;
	return l;
}

uint8_t *smq_lft_load(struct smq *q, uint32_t sw, int *found)
{
	const struct smq_lids *l = smq_lids(q);

	if (!l)
		return NULL;
	size_t nblocks = (size_t)l->top / MAD_LFT_BLOCK + 1;
	uint8_t *lft = malloc(nblocks * MAD_LFT_BLOCK);
	if (!lft) {
		smq_fail("out of memory");
		return NULL;
	}
	*found = db_lft_load(q->db, q->topo.nodes[sw].guid, lft, nblocks, NULL);
	if (*found >= 0)
		return lft;
	free(lft);
	smq_fail("%s", db_errmsg(q->db));
	return NULL;
}

/* NodeInfo NodeType as libibmad's mad_dump_val() spells it. */
static const char *smq_ibroute_type(uint8_t type)
{
	switch (type) {
	case MAD_NODE_CA:
		return "Channel Adapter";
	case MAD_NODE_SWITCH:
		return "Switch";
	case MAD_NODE_ROUTER:
		return "Router";
	default:
		return "?";
	}
}

/*
 * ibroute's "path" state: after a destination port with LMC > 0, the other
 * LIDs of its range name it by path number.  It starts at LID 0, path of one.
 */
struct smq_lmc_run {
	uint32_t base, last;
	uint64_t guid;		/* the range's port GUID */
};

/* One valid entry: lid, port, destination (text) or an entry object (JSON). */
static void smq_lft_entry(struct smq *q, const struct smq_lids *l, uint32_t lid,
			  uint8_t port, struct smq_lmc_run *run)
{
	const struct topo *t = &q->topo;
	uint32_t owner = l->node[lid];
	const struct topo_node *n = owner == TOPO_NONE ? NULL : &t->nodes[owner];
	uint32_t base = n ? n->ports[l->port[lid]].lid : 0;
	uint64_t pguid = n ? n->ports[l->port[lid]].guid : 0;

	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_int(q, "lid", lid);
		smq_json_int(q, "port", port);
		if (n) {
			smq_json_guid(q, "guid", n->guid);
			smq_json_guid(q, "port_guid", pguid);
			smq_json_str(q, "type", smq_type_key(n->type));
			smq_json_str(q, "description", n->desc);
			smq_json_int(q, "path", lid - base + 1);
		} else {
			smq_json_null(q, "guid");
		}
		smq_json_close(q, '}');
		return;
	}
	fprintf(q->out, "0x%04x %03u : ", lid, port);
	if (lid <= run->last) {
		fprintf(q->out, "(path #%u out of %u", lid - run->base + 1,
			run->last - run->base + 1);
		if (run->guid)
			fprintf(q->out, ": portguid 0x%016" PRIx64, run->guid);
		fputs(")\n", q->out);
		return;
	}
	if (!n) {
		run->guid = 0;
		fputs("(unknown node and type)\n", q->out);
		return;
	}
	uint8_t lmc = n->ports[l->port[lid]].lmc & 7;
	run->guid = pguid;
	if (lmc) {
		run->base = base;
		run->last = base + (1u << lmc) - 1;
	}
	fprintf(q->out, "(%s portguid 0x%016" PRIx64 ": '%s')\n", smq_ibroute_type(n->type),
		pguid, n->desc);
}

int smq_cmd_lft(struct smq *q, int argc, char **argv)
{
	const struct topo *t = smq_topo(q);
	const struct smq_lids *l = t ? smq_lids(q) : NULL;

	(void)argc;
	if (!l)
		return SMQ_FAIL;
	uint32_t sw = smq_node_find(t, argv[1]);
	if (sw == TOPO_NONE)
		return SMQ_FAIL;
	const struct topo_node *n = &t->nodes[sw];
	if (n->type != MAD_NODE_SWITCH)
		return smq_fail("%s 0x%016" PRIx64 " \"%s\" is not a switch",
				mad_node_type_name(n->type), n->guid, n->desc);
	int found;
	uint8_t *lft = smq_lft_load(q, sw, &found);
	if (!lft)
		return SMQ_FAIL;
	if (!found) {
		free(lft);
		return smq_fail("no LFT stored for switch 0x%016" PRIx64 " \"%s\" (ibsmd has "
				"not programmed it)", n->guid, n->desc);
	}
	/*
	 * ibroute reads blocks up to ALIGN(top, 64) / 64 exclusive, so when top
	 * is a multiple of 64 it stops one LID short; the text says what it
	 * says, JSON has every entry.
	 */
	uint32_t end = q->json || l->top % MAD_LFT_BLOCK ? l->top + 1u : l->top;
	struct smq_lmc_run run = { 0, 0, 0 };
	unsigned valid = 0;

	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_node(q, "switch", t, sw);
		smq_json_int(q, "top", l->top);
		smq_json_open(q, "entries", '[');
	} else {
		fprintf(q->out, "Unicast lids [0x0-0x%x] of switch Lid %u guid 0x%016" PRIx64
			" (%s):\n  Lid  Out   Destination\n       Port     Info \n", l->top,
			n->ports[0].lid, n->guid, n->desc);
	}
	for (uint32_t lid = 0; lid < end; lid++) {
		if (lft[lid] > n->nports)
			continue;
		smq_lft_entry(q, l, lid, lft[lid], &run);
		valid++;
	}
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_int(q, "valid", valid);
		smq_json_close(q, '}');
	} else {
		fprintf(q->out, "%u valid lids dumped \n", valid);
	}
	free(lft);
	return SMQ_OK;
}

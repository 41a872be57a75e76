// SPDX-License-Identifier: MIT
/*
 * sm_carry.c - what the last heavy sweep knew and this one missed to a lost MAD.
 *
 * On a flaky link one lost probe would drop a link, or a whole CA, from the
 * fabric, and rerouting around it would rewrite every switch's table, only to
 * put it all back on the next sweep.  So links the last sweep knew are carried
 * over when this sweep's probe was lost and nothing says they went down (see
 * sm_carry.h); the sweep is then marked incomplete, so it is repeated.  So is
 * a node's description when its NodeDescription answer was lost: a blank one
 * would be stored, and the description flip back on the next sweep.
 */
#include <string.h>

#include "sm/sweep/sm_carry.h"

/* Port @p of @n in @to takes the GUID it had in @from when it has none. */
static void keep_port_guid(struct topo *to, uint32_t n, uint8_t p, const struct topo_port *from)
{
	if (!to->nodes[n].ports[p].guid)
		to->nodes[n].ports[p].guid = from->guid;
}

/*
 * A CA the last sweep knew, seen by nobody this time because the one probe
 * that would have reached it was lost: back into the fabric as it was (a CA
 * hides nothing behind it), so its LID and routes stay.  Its index, or
 * TOPO_NONE.
 */
static uint32_t revive_ca(struct sm_fabric *f, const struct topo_node *was)
{
	uint32_t n = sm_fabric_add_node(f, was->type, was->nports, was->guid);

	if (n == TOPO_NONE)
		return n;
	struct topo_node *tn = &f->topo.nodes[n];
	tn->sys_guid = was->sys_guid;
	tn->vendor_id = was->vendor_id;
	tn->device_id = was->device_id;
	tn->revision = was->revision;
	tn->path = was->path;
	memcpy(tn->desc, was->desc, sizeof(tn->desc));
	memcpy(tn->name, was->name, sizeof(tn->name));
	return n;
}

/* The probe issue out of @guid's @port is settled (its link is known). */
static void settle_probe(struct sm_fabric *f, uint64_t guid, uint8_t port)
{
	for (size_t i = 0; i < f->nissues; i++)
		if (f->issues[i].probe && f->issues[i].guid == guid && f->issues[i].port == port)
			f->issues[i].probe = false;
}

/* This sweep asked port @p of @n and it has no link.  Either end of a link
 * may be the one asked: a CA is asked only about the port it was reached
 * by, so the other port of a dual-port CA (the SM's own, too) is known
 * down only from the switch it was cabled to. */
static bool end_down(const struct sm_fabric *f, uint32_t n, uint8_t p)
{
	return f->attrs[n].pi_valid[p] && f->topo.nodes[n].ports[p].phys_state != MAD_PHYS_LINKUP;
}

/* Links carried over from @last (see sm_carry.h). */
unsigned sm_carry_links(struct sm_fabric *f, const struct sm_fabric *last)
{
	unsigned kept = 0;

	for (uint32_t n = 0; n < f->topo.n; n++) {
		struct topo_node *tn = &f->topo.nodes[n];
		uint32_t ln = topo_find_guid(&last->topo, tn->guid);
		for (unsigned p = 1; ln != TOPO_NONE && p <= tn->nports; p++) {
			const struct topo_port *lp = &last->topo.nodes[ln].ports[p];
			if (tn->ports[p].peer != TOPO_NONE || lp->peer == TOPO_NONE ||
			    end_down(f, n, (uint8_t)p))
				continue;
			const struct topo_node *lpn = &last->topo.nodes[lp->peer];
			uint32_t peer = topo_find_guid(&f->topo, lpn->guid);
			if (peer == TOPO_NONE && lpn->type != MAD_NODE_SWITCH)
				peer = revive_ca(f, lpn);
			tn = &f->topo.nodes[n];	/* revive_ca may have moved the nodes */
			if (peer == TOPO_NONE || lp->peer_port > f->topo.nodes[peer].nports ||
			    end_down(f, peer, lp->peer_port) ||
			    topo_link(&f->topo, n, (uint8_t)p, peer, lp->peer_port))
				continue;
			keep_port_guid(&f->topo, n, (uint8_t)p, lp);
			keep_port_guid(&f->topo, peer, lp->peer_port,
				       &last->topo.nodes[lp->peer].ports[lp->peer_port]);
			settle_probe(f, tn->guid, (uint8_t)p);
			settle_probe(f, f->topo.nodes[peer].guid, lp->peer_port);
			/* a port we could not ask this time: its state is not known */
			if (!f->attrs[n].pi_valid[p] || !f->attrs[peer].pi_valid[lp->peer_port])
				f->incomplete++;
			kept++;
		}
	}
	return kept;
}

unsigned sm_carry_descs(struct sm_fabric *f, const struct sm_fabric *last)
{
	unsigned kept = 0;

	for (uint32_t n = 0; n < f->topo.n; n++) {
		if (f->attrs[n].nd_valid)
			continue;
		uint32_t ln = topo_find_guid(&last->topo, f->topo.nodes[n].guid);
		if (ln == TOPO_NONE || !last->topo.nodes[ln].desc[0])
			continue;
		memcpy(f->topo.nodes[n].desc, last->topo.nodes[ln].desc,
		       sizeof(f->topo.nodes[n].desc));
		kept++;
	}
	return kept;
}

// SPDX-License-Identifier: MIT
/*
 * sm_sa_link.c - LinkRecord (IBA 15.2.5.13): one record per direction of
 * every link the last sweep found up (both ends cabled, neither port Down),
 * each end named by its node's LID (a switch's port 0 LID, a CA port's own)
 * and its port number.  Components: FromLID, FromPort, ToPort, ToLID.
 */
#include "sm/sa/sm_sa_records.h"

/* The LID a record names port @p of node @n by: its own, or its switch's. */
static uint16_t end_lid(const struct sm_fabric *f, uint32_t n, uint8_t p)
{
	const struct topo_node *tn = &f->topo.nodes[n];

	return tn->ports[tn->type == MAD_NODE_SWITCH ? 0 : p].lid;
}

uint16_t sm_sa_link_records(const struct sm_sa_source *src, const struct mad_sa *req,
			    struct sa_out *o)
{
	const struct sm_fabric *f = src->f;
	struct mad_sa_link_record t;
	struct sa_port only;
	uint8_t rec[MAD_SA_LINK_RECORD_SIZE];
	uint64_t m = req->comp_mask;

	mad_sa_link_record_decode(req->data, &t);
	if (!sa_only_node(src, m, MAD_SA_COMP(0), t.from_lid, &only))
		return 0;
	for (uint32_t n = 0; n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		if (only.node != TOPO_NONE && only.node != n)
			continue;
		for (uint8_t p = 1; p <= tn->nports; p++) {
			const struct topo_port *tp = &tn->ports[p];
			if (tp->peer == TOPO_NONE || tp->state <= MAD_PORT_DOWN)
				continue;
			if (only.node != TOPO_NONE && tn->type != MAD_NODE_SWITCH && only.port != p)
				continue;
			struct mad_sa_link_record r = {
				.from_lid = end_lid(f, n, p), .from_port = p,
				.to_port = tp->peer_port,
				.to_lid = end_lid(f, tp->peer, tp->peer_port),
			};
			if (!r.from_lid || !r.to_lid || !SA_COMP(m, 1, t.from_port, r.from_port) ||
			    !SA_COMP(m, 2, t.to_port, r.to_port) ||
			    !SA_COMP(m, 3, t.to_lid, r.to_lid))
				continue;
			mad_sa_link_record_encode(&r, rec);
			sa_out_add(o, rec);
		}
	}
	return 0;
}

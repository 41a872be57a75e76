// SPDX-License-Identifier: MIT
/*
 * sm_sa_port.c - PortInfoRecord (IBA 15.2.5.3): the PortInfo each port
 * answered in the last sweep, by EndportLID (a switch's LID covers all its
 * ports) and PortNum.  A port's M_Key is shown only to a requester holding
 * the SM_Key.
 */
#include "sm/sa/sm_sa_records.h"

uint16_t sm_sa_port_info_records(const struct sm_sa_source *src,
				 const struct mad_sa *req, struct sa_out *o)
{
	const struct sm_fabric *f = src->f;
	struct mad_sa_port_info_record t;
	struct sa_port only = { TOPO_NONE, 0 };
	uint8_t rec[MAD_SA_PORT_INFO_RECORD_SIZE];

	bool trusted = src->sm_key && req->sm_key == src->sm_key;

	mad_sa_port_info_record_decode(req->data, &t);
	if ((req->comp_mask & MAD_SA_PIR_LID) && !sm_sa_index_lid(src->ix, t.lid, &only))
		return 0;
	for (uint32_t i = 0; i < f->topo.n; i++) {
		const struct topo_node *n = &f->topo.nodes[i];
		const struct sm_node_attrs *a = &f->attrs[i];
		bool sw = n->type == MAD_NODE_SWITCH;

		if (only.node != TOPO_NONE && only.node != i)
			continue;
		for (uint8_t p = sw ? 0 : 1; p <= n->nports; p++) {
			uint16_t lid = n->ports[sw ? 0 : p].lid;
			if (!lid || !a->pi || !a->pi_valid[p])
				continue;
			if (!sw && only.node != TOPO_NONE && only.port != p)
				continue;
			if ((req->comp_mask & MAD_SA_PIR_PORT_NUM) && t.port_num != p)
				continue;
			struct mad_sa_port_info_record r = {
				.lid = lid, .port_num = p, .info = a->pi[p],
			};
			if (!trusted)	/* IBA 15.2.5.3: M_Key only to a holder of SM_Key */
				r.info.mkey = 0;
			mad_sa_port_info_record_encode(&r, rec);
			sa_out_add(o, rec);
		}
	}
	return 0;
}

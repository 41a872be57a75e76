// SPDX-License-Identifier: MIT
/*
 * sm_sa_node.c - NodeRecord (IBA 15.2.5.2): a node's NodeInfo and
 * NodeDescription, one record per LID-owning port (a switch's port 0, each CA
 * and router port), every component of the ComponentMask honoured (LID,
 * versions, type, ports, GUIDs, PartitionCap, DeviceID, Revision,
 * LocalPortNum, VendorID, NodeDescription).
 */
#include <string.h>

#include "sm/sa/sm_sa_records.h"

static void node_record(const struct sm_fabric *f, struct sa_port sp,
			struct mad_sa_node_record *nr)
{
	const struct topo_node *n = &f->topo.nodes[sp.node];

	memset(nr, 0, sizeof(*nr));
	nr->lid = n->ports[sp.port].lid;
	nr->info = (struct mad_node_info){
		.base_version = 1, .class_version = 1, .node_type = n->type,
		.num_ports = n->nports, .system_guid = n->sys_guid, .node_guid = n->guid,
		.port_guid = n->ports[sp.port].guid,
		.partition_cap = f->attrs[sp.node].partition_cap, .device_id = n->device_id,
		.revision = n->revision, .local_port = sp.port, .vendor_id = n->vendor_id,
	};
	memcpy(nr->desc.desc, n->desc, sizeof(nr->desc.desc) - 1);
}

static bool node_record_matches(const struct mad_sa_node_record *t,
				const struct mad_sa_node_record *r, uint64_t m)
{
	const struct mad_node_info *ti = &t->info, *ri = &r->info;

	return SA_COMP(m, 0, t->lid, r->lid) && SA_COMP(m, 2, ti->base_version, ri->base_version) &&
	       SA_COMP(m, 3, ti->class_version, ri->class_version) &&
	       SA_COMP(m, 4, ti->node_type, ri->node_type) &&
	       SA_COMP(m, 5, ti->num_ports, ri->num_ports) &&
	       SA_COMP(m, 6, ti->system_guid, ri->system_guid) &&
	       SA_COMP(m, 7, ti->node_guid, ri->node_guid) &&
	       SA_COMP(m, 8, ti->port_guid, ri->port_guid) &&
	       SA_COMP(m, 9, ti->partition_cap, ri->partition_cap) &&
	       SA_COMP(m, 10, ti->device_id, ri->device_id) &&
	       SA_COMP(m, 11, ti->revision, ri->revision) &&
	       SA_COMP(m, 12, ti->local_port, ri->local_port) &&
	       SA_COMP(m, 13, ti->vendor_id, ri->vendor_id) &&
	       (!(m & MAD_SA_NR_NODE_DESC) ||
		strncmp(t->desc.desc, r->desc.desc, MAD_NODE_DESC_LEN) == 0);
}

uint16_t sm_sa_node_records(const struct sm_sa_source *src, const struct mad_sa *req,
			    struct sa_out *o)
{
	const struct sm_fabric *f = src->f;
	struct mad_sa_node_record t, r;
	uint8_t rec[MAD_SA_NODE_RECORD_SIZE];

	mad_sa_node_record_decode(req->data, &t);
	for (struct sa_port p = { TOPO_NONE, 0 }; sm_sa_next_port(f, &p);) {
		node_record(f, p, &r);
		if (!node_record_matches(&t, &r, req->comp_mask))
			continue;
		mad_sa_node_record_encode(&r, rec);
		sa_out_add(o, rec);
	}
	return 0;
}

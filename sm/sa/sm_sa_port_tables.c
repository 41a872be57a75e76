// SPDX-License-Identifier: MIT
/*
 * sm_sa_port_tables.c - the ports' tables: P_KeyTableRecord (IBA 15.2.5.11),
 * and SLtoVLMappingTableRecord (15.2.5.4), as the SM leaves them on the
 * devices (GUIDInfoRecord: sm_sa_guid_info.c).
 *
 * P_Keys: each port's table as sm_pkey_program.c programs it from the
 * partitions, one record per block that holds keys (block 0 always).  SL to VL: what
 * sm_sl2vl.c sets: the QoS policy's table for the port's type on a data port
 * (sm_qos_tables.c), else the engine rule when the routes use SLs, else every
 * SL on VL 0; a CA port's
 * table has input port 0, a switch has one per (input, output) pair of ports.
 * Components: LID, BlockNum and PortNum (P_Key); LID, InputPortNum and
 * OutputPortNum (SL to VL).  A switch's ports
 * are all named by its LID.
 */
#include "sm/sa/sm_pkey_program.h"
#include "sm/sa/sm_sa_records.h"
#include "sm/core/sm_sl2vl_table.h"

#define SA_DEFAULT_PKEY 0xffff

/* Step @p to the next port of a node @only allows (TOPO_NONE: any) that has
 * a LID: every port of a switch with one (port 0 included), a CA's ports with
 * their own.  @lid: the LID that names it. */
static bool next_lid_port(const struct sm_fabric *f, struct sa_port only, struct sa_port *p,
			  uint16_t *lid)
{
	uint32_t n = p->node == TOPO_NONE ? 0 : p->node;
	unsigned q = p->node == TOPO_NONE ? 0 : p->port + 1u;

	for (; n < f->topo.n; n++, q = 0) {
		const struct topo_node *tn = &f->topo.nodes[n];
		bool sw = tn->type == MAD_NODE_SWITCH;
		if (only.node != TOPO_NONE && only.node != n)
			continue;
		for (; q <= tn->nports; q++) {
			uint16_t l = tn->ports[sw ? 0 : q].lid;
			if (!l || (!sw && q == 0))
				continue;
			if (!sw && only.node != TOPO_NONE && only.port != q)
				continue;
			*p = (struct sa_port){ n, (uint8_t)q };
			*lid = l;
			return true;
		}
	}
	return false;
}

/* The P_Keys port @p holds as the SM programs it (sm_pkey_program.c): a CA
 * port or switch port 0 its own, within its PartitionCap; an enforcing switch
 * port its neighbour's, within the switch's PartitionEnforcementCap; any
 * other the power-on table, 0xffff alone.  Their count, *@keys them. */
static size_t pkey_table(const struct sm_sa_source *src, struct sa_port p, const uint16_t **keys)
{
	static const uint16_t power_on[] = { SA_DEFAULT_PKEY };
	const struct sm_fabric *f = src->f;
	const struct topo_node *tn = &f->topo.nodes[p.node];
	const struct sm_node_attrs *a = &f->attrs[p.node];
	bool sw = tn->type == MAD_NODE_SWITCH;
	size_t n = 0;
	uint16_t cap = a->partition_cap;

	if (src->pkeys && (!sw || p.port == 0)) {
		n = sm_pkey_ports_of(src->pkeys, p.node, p.port, keys, NULL);
	} else if (src->pkeys && sm_pkey_enforced(src->partitions, f, p.node, p.port)) {
		const struct topo_port *tp = &tn->ports[p.port];
		n = sm_pkey_ports_of(src->pkeys, tp->peer, tp->peer_port, keys, NULL);
		cap = a->si.partition_enf_cap;
	}
	if (!n) {
		*keys = power_on;
		return 1;
	}
	return n < cap || !cap ? n : cap;
}

uint16_t sm_sa_pkey_table_records(const struct sm_sa_source *src,
				  const struct mad_sa *req, struct sa_out *o)
{
	struct mad_sa_pkey_table_record t;
	struct sa_port only, p = { TOPO_NONE, 0 };
	uint8_t rec[MAD_SA_PKEY_TABLE_RECORD_SIZE];
	uint64_t m = req->comp_mask;
	uint16_t lid;

	mad_sa_pkey_table_record_decode(req->data, &t);
	if (!sa_only_node(src, m, MAD_SA_COMP(0), t.lid, &only))
		return 0;
	while (next_lid_port(src->f, only, &p, &lid)) {
		if (!SA_COMP(m, 2, t.port_num, p.port))
			continue;
		const uint16_t *keys;
		size_t n = pkey_table(src, p, &keys);
		for (size_t b = 0; b == 0 || b * MAD_PKEY_BLOCK < n; b++) {
			if (!SA_COMP(m, 1, t.block, b))
				continue;
			struct mad_sa_pkey_table_record r = { .lid = lid, .port_num = p.port,
							      .block = (uint16_t)b };
			for (size_t i = 0; i < MAD_PKEY_BLOCK && b * MAD_PKEY_BLOCK + i < n; i++)
				r.table.pkey[i] = keys[b * MAD_PKEY_BLOCK + i];
			mad_sa_pkey_table_record_encode(&r, rec);
			sa_out_add(o, rec);
		}
	}
	return 0;
}

uint16_t sm_sa_sl2vl_records(const struct sm_sa_source *src, const struct mad_sa *req,
			     struct sa_out *o)
{
	const struct sm_fabric *f = src->f;
	struct mad_sa_sl2vl_record t;
	struct sa_port only, p = { TOPO_NONE, 0 };
	uint8_t rec[MAD_SA_SL2VL_RECORD_SIZE];
	uint64_t m = req->comp_mask;
	unsigned nsl = src->routes ? src->routes->check.max_sl + 1u : 1;
	bool qos_on = src->qos && src->qos->on;
	uint16_t lid;

	mad_sa_sl2vl_record_decode(req->data, &t);
	if (!sa_only_node(src, m, MAD_SA_COMP(0), t.lid, &only))
		return 0;
	while (next_lid_port(f, only, &p, &lid)) {
		const struct topo_node *tn = &f->topo.nodes[p.node];
		bool sw = tn->type == MAD_NODE_SWITCH;
		if (p.port == 0 || !SA_COMP(m, 2, t.out_port, p.port))
			continue;	/* no table for output port 0 */
		for (unsigned in = 0; in <= (sw ? tn->nports : 0u); in++) {
			if ((sw && in == p.port) || !SA_COMP(m, 1, t.in_port, in))
				continue;
			struct mad_sa_sl2vl_record r = {
				.lid = lid, .in_port = (uint8_t)in, .out_port = p.port,
			};
			if (qos_on && sm_sl2vl_data_port(f, p.node, p.port) &&
			    sm_sl2vl_maps_sls(f, p.node, p.port))
				sm_qos_sl2vl(&src->qos->vl[sm_qos_port_type(tn->type, p.port)],
					     f->attrs[p.node].pi[p.port].oper_vls, &r.table);
			else
				sm_sl2vl_table(f, p.node, p.port, nsl, &r.table);
			mad_sa_sl2vl_record_encode(&r, rec);
			sa_out_add(o, rec);
		}
	}
	return 0;
}

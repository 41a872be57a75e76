// SPDX-License-Identifier: MIT
/*
 * mad_sim_data.c - the data path of the simulated fabric: a packet on an SL.
 *
 * SMPs ride VL 15 and go wherever they are routed; data does not.  A packet
 * leaves a CA port on the VL its SLtoVLMappingTable gives its SL, and each
 * switch it crosses maps the SL again for the pair (input port, output port)
 * (IBA 7.6.6, 14.2.5.8).  On every output port the VL must be one of the
 * port's OperationalVLs, and the port's VL arbitration must give it a turn: a
 * VL that no entry of the low or high table weighs (within the port's
 * VLArbitrationLow/HighCap) is never sent (IBA 7.6.9), so the packet waits
 * forever.  Tests use sim_data_trace() to see that what the SM programmed
 * carries every SL its routes use, and sim_data_pkey() that the P_KeyTables it
 * programmed let a packet through, or drop it (IBA 10.9.3).
 */
#include <errno.h>
#include <stdio.h>

#include "mad/sim/mad_sim_priv.h"

/* The VL @sl rides from @in out of @out at @node (a CA: its port @out). */
static uint8_t sim_sl_vl(const struct sim_fabric *f, uint32_t node, uint8_t in, uint8_t out,
			 uint8_t sl)
{
	struct mad_sl2vl t;

	if (sim_get_sl2vl(f, node, in, out, &t))
		return 15;
	return t.vl[sl & 0xf];
}

/* Whether the arbitration of @sp gives @vl a turn: some low or high entry
 * within the caps names it with a non-zero weight. */
static bool sim_vl_weighed(const struct sim_port *sp, uint8_t vl)
{
	uint8_t t[SIM_VLARB_BYTES];
	struct mad_vlarb_block b;
	static const uint8_t blocks[] = { MAD_VLARB_LOW_0_31, MAD_VLARB_HIGH_0_31 };

	sim_vlarb_table(sp, t);
	for (size_t k = 0; k < sizeof(blocks); k++) {
		mad_vlarb_decode(t + (size_t)(blocks[k] - 1) * SMP_DATA_SIZE, &b);
		for (unsigned i = 0; i < SIM_VLARB_CAP; i++)
			if (b.e[i].vl == vl && b.e[i].weight)
				return true;
	}
	return false;
}

/* Can @node send on @vl out of @port?  0 or -errno with the reason. */
static int sim_vl_out(const struct sim_fabric *f, uint32_t node, uint8_t port, uint8_t vl,
		      char *why, size_t len)
{
	const struct sim_port *sp = &f->nodes[node].ports[port];
	const char *name = f->topo.nodes[node].name;

	if (vl == 15) {
		snprintf(why, len, "%s port %u: mapped onto VL15 (dropped)", name, port);
		return -ENOLINK;
	}
	if (vl >= mad_data_vls(sp->oper_vls)) {
		snprintf(why, len, "%s port %u: VL%u beyond its OperationalVLs %u", name, port,
			 vl, sp->oper_vls);
		return -ENOLINK;
	}
	if (!(f->lenient & SIM_LENIENT_VLARB) && !sim_vl_weighed(sp, vl)) {
		snprintf(why, len, "%s port %u: no VLArbitrationTable entry weighs VL%u", name,
			 port, vl);
		return -EAGAIN;
	}
	return 0;
}

int sim_pkey_find(const struct sim_port *sp, uint16_t pkey, bool *full)
{
	if (!sp->pkeys) {	/* the power-on table: 0xffff alone */
		*full = true;
		return (pkey & 0x7fff) == 0x7fff ? 0 : -1;
	}
	for (unsigned i = 0; i < SIM_PKEY_CAP; i++) {
		if (sp->pkeys[i] & 0x7fff && (sp->pkeys[i] & 0x7fff) == (pkey & 0x7fff)) {
			*full = sp->pkeys[i] & 0x8000;
			return (int)i;
		}
	}
	return -1;
}

/* Whether @sp's P_KeyTable holds @pkey's 15 bits; *@full its membership. */
static bool sim_port_holds(const struct sim_port *sp, uint16_t pkey, bool *full)
{
	return sim_pkey_find(sp, pkey, full) >= 0;
}

/* P_Key checks of one hop (IBA 10.9.3): a switch port enforcing partitions
 * drops a packet whose key its table lacks, inbound at @in, outbound at @out. */
static int sim_pkey_hop(const struct sim_fabric *f, uint32_t node, uint8_t in, uint8_t out,
			uint16_t pkey, char *why, size_t len)
{
	const struct sim_node *sn = &f->nodes[node];
	bool full;

	if (in && (sn->ports[in].part_enf & 1) && !sim_port_holds(&sn->ports[in], pkey, &full)) {
		snprintf(why, len, "%s port %u: inbound P_Key 0x%04x not in its table",
			 f->topo.nodes[node].name, in, pkey);
		return -EACCES;
	}
	if ((sn->ports[out].part_enf & 2) && !sim_port_holds(&sn->ports[out], pkey, &full)) {
		snprintf(why, len, "%s port %u: outbound P_Key 0x%04x not in its table",
			 f->topo.nodes[node].name, out, pkey);
		return -EACCES;
	}
	return 0;
}

/* Follow a data packet on @sl (with P_Key @pkey when @check_pkey). */
static int sim_data_walk(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t dlid,
			 uint8_t sl, bool check_pkey, uint16_t pkey, char *why, size_t len)
{
	const struct topo *t = &f->topo;
	uint8_t in = 0, out = port;
	bool sender_full = true, full;

	snprintf(why, len, "delivered");
	if (node >= t->n || port == 0 || port > t->nodes[node].nports ||
	    t->nodes[node].type == MAD_NODE_SWITCH)
		return -EINVAL;
	if (check_pkey && !sim_port_holds(&f->nodes[node].ports[port], pkey, &sender_full)) {
		snprintf(why, len, "%s port %u: P_Key 0x%04x not in the sender's table",
			 t->nodes[node].name, port, pkey);
		return -EACCES;
	}
	for (unsigned hops = 0; hops < SIM_MAX_LID_HOPS; hops++) {
		const struct topo_node *tn = &t->nodes[node];
		if (hops && tn->type != MAD_NODE_SWITCH) {
			if (!sim_lid_matches(f, node, in, dlid)) {
				snprintf(why, len, "reached %s, which does not own LID %u", tn->name,
					 dlid);
				return -EHOSTUNREACH;
			}
			if (check_pkey && (!sim_port_holds(&f->nodes[node].ports[in], pkey, &full) ||
					   !(full || sender_full))) {
				snprintf(why, len, "%s port %u: P_Key 0x%04x refused by the receiver",
					 tn->name, in, pkey);
				return -EACCES;
			}
			return 0;
		}
		if (hops) {
			out = sim_get_lft(f, node, dlid);
			if (out == 0 && sim_lid_matches(f, node, 0, dlid))
				return 0;
			if (out == 0 || out > tn->nports) {
				snprintf(why, len, "%s routes LID %u nowhere", tn->name, dlid);
				return -EHOSTUNREACH;
			}
			int rc = check_pkey ? sim_pkey_hop(f, node, in, out, pkey, why, len) : 0;
			if (rc)
				return rc;
		}
		if (!sim_link_up(f, node, out)) {
			snprintf(why, len, "%s port %u: link down", tn->name, out);
			return -EHOSTUNREACH;
		}
		int rc = sim_vl_out(f, node, out, sim_sl_vl(f, node, in, out, sl), why, len);
		if (rc)
			return rc;
		in = tn->ports[out].peer_port;
		node = tn->ports[out].peer;
	}
	snprintf(why, len, "LID %u: a routing loop", dlid);
	return -EHOSTUNREACH;
}

int sim_data_trace(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t dlid,
		   uint8_t sl, char *why, size_t len)
{
	return sim_data_walk(f, node, port, dlid, sl, false, 0, why, len);
}

int sim_data_pkey(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t dlid,
		  uint16_t pkey, char *why, size_t len)
{
	return sim_data_walk(f, node, port, dlid, 0, true, pkey, why, len);
}

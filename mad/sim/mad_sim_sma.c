// SPDX-License-Identifier: MIT
/*
 * mad_sim_sma.c - the simulated subnet management agent (IBA 14.2.5).
 *
 * sim_sma_process() is what a node does with an SMP addressed to it: check the
 * M_Key (14.2.4, mad_sim_mkey.c), let ARMED ports whose delay ran out go ACTIVE (so the answer
 * to the Set that armed a port still shows it ARMED), dispatch on the
 * attribute, turn the SMP into its GetResp in place.  Gets read the state in
 * mad_sim_priv.h; Sets write it and answer with the attribute as it now is.
 * Attributes a node does not have (SMInfo: an SM answers that itself,
 * mad_sim_route.c; LFT on a CA, Set on a read-only attribute) answer with status
 * "unsupported method/attribute"; a bad attribute modifier with "invalid field".
 * The vendor AR attributes are mad_sim_ar.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_ar.h"
#include "mad/sim/mad_sim_priv.h"

static void sim_node_info(const struct sim_fabric *f, uint32_t node, uint8_t port,
			  uint8_t *data)
{
	const struct topo_node *tn = &f->topo.nodes[node];
	struct mad_node_info ni = {
		.base_version = 1,
		.class_version = 1,
		.node_type = tn->type,
		.num_ports = tn->nports,
		.system_guid = tn->sys_guid ? tn->sys_guid : tn->guid,
		.node_guid = tn->guid,
		.port_guid = tn->ports[port].guid,
		.partition_cap = SIM_PKEY_CAP,
		.device_id = tn->device_id,
		.revision = tn->revision,
		.local_port = port,
		/* an AR switch is Mellanox's unless the file says otherwise */
		.vendor_id = tn->vendor_id || !f->nodes[node].ar ? tn->vendor_id : MAD_AR_VENDOR_ID,
	};

	mad_node_info_encode(&ni, data);
}

static void sim_node_desc(const struct sim_fabric *f, uint32_t node, uint8_t *data)
{
	struct mad_node_desc nd;

	snprintf(nd.desc, sizeof(nd.desc), "%s", f->topo.nodes[node].desc);
	mad_node_desc_encode(&nd, data);
}

/* PortInfo VLCap of @node's ports. */
static uint8_t sim_vl_cap(const struct sim_fabric *f, uint32_t node)
{
	return f->nodes[node].quirks & SIM_QUIRK_FOUR_VLS ? SIM_VL_CAP - 1 : SIM_VL_CAP;
}

/*
 * PortInfo of @node's @port as a Get answers it; @ext_sm: the SMP carried
 * SMSupportExtendedSpeeds.  A port of a node with extended speeds says so in
 * CapabilityMask, and reports LinkSpeedExt* only to an SM that set the bit;
 * otherwise those read 0 and a link at FDR or faster shows LinkSpeedActive
 * QDR, its base speed (IBA 14.2.5.6).
 */
static void sim_fill_port_info(const struct sim_fabric *f, uint32_t node, uint8_t port,
			       uint8_t in_port, bool ext_sm, struct mad_port_info *pi)
{
	const struct topo_node *tn = &f->topo.nodes[node];
	const struct sim_node *sn = &f->nodes[node];
	const struct sim_port *sp = &sn->ports[port];
	const struct sim_port *ap = sim_addr_port(f, node, port);
	bool sw = tn->type == MAD_NODE_SWITCH;
	uint8_t width, speed;

	memset(pi, 0, sizeof(*pi));
	pi->mkey = ap->mkey;
	pi->gid_prefix = ap->gid_prefix;
	pi->lid = ap->lid;
	pi->sm_lid = ap->sm_lid;
	pi->lmc = ap->lmc;
	pi->mkey_prot = ap->mkey_prot;
	pi->mkey_lease = ap->mkey_lease;
	pi->mkey_violations = ap->mkey_violations;
	pi->cap_mask = MAD_CAP_IS_TRAP_SUPPORTED;
	if (!(sn->quirks & SIM_QUIRK_NO_SL_MAPPING))
		pi->cap_mask |= MAD_CAP_IS_SL_MAPPING_SUPPORTED;
	if (sn->ext_speeds)
		pi->cap_mask |= MAD_CAP_IS_EXT_SPEEDS_SUPPORTED;
	if (sw && !(sn->quirks & SIM_QUIRK_NO_MFT_TOP))
		pi->cap_mask |= MAD_CAP_IS_MCAST_FDB_TOP_SUPPORTED;
	if (!sw && !(sn->quirks & SIM_QUIRK_NO_CLIENT_REREG))
		pi->cap_mask |= MAD_CAP_IS_CLIENT_REREG_SUPPORTED;
	if (sim_sm_bound_at(f, node, port))
		pi->cap_mask |= MAD_CAP_IS_SM;
	pi->local_port = in_port;
	sim_link_rate(f, node, port, &width, &speed);
	if (port == 0)	/* a switch's management port has no link of its own */
		width = 2, speed = MAD_SPEED_SDR;
	pi->link_width_enabled = sp->width_enabled;
	pi->link_width_supported = sim_width_supported(f, node, port);
	pi->link_width_active = width;
	pi->link_speed_supported = sim_speed_supported(f, node, port);
	pi->link_speed_enabled = sp->speed_enabled;
	pi->link_speed_active = speed >= MAD_SPEED_FDR ? MAD_SPEED_QDR : speed;
	if (sn->ext_speeds && ext_sm) {
		pi->link_speed_ext_supported = sim_speed_ext_supported(f, node, port);
		pi->link_speed_ext_enabled = sp->speed_ext_enabled;
		pi->link_speed_ext_active = speed >= MAD_SPEED_FDR && speed <= MAD_SPEED_NDR
						    ? (uint8_t)(speed >> SIM_EXT_SPEED_SHIFT) : 0;
		pi->link_speed_ext_supported2 = sim_speed_ext2_supported(f, node, port);
		pi->link_speed_ext_enabled2 = sp->speed_ext2_enabled;
		pi->link_speed_ext_active2 = speed == MAD_SPEED_XDR;
	}
	pi->port_state = sp->state;
	pi->phys_state = sim_phys_state(f, node, port);
	pi->link_down_default = MAD_PHYS_POLLING;
	pi->neighbor_mtu = sp->neighbor_mtu;
	pi->mtu_cap = 4;		/* 2048 */
	pi->vl_cap = sim_vl_cap(f, node);
	pi->oper_vls = sp->oper_vls;
	pi->vl_arb_high_cap = SIM_VLARB_CAP;
	pi->vl_arb_low_cap = SIM_VLARB_CAP;
	pi->vl_high_limit = sp->vl_high_limit;
	pi->vl_stall_count = sp->vl_stall;
	pi->hoq_life = sp->hoq_life;
	pi->part_enf_inb = sp->part_enf & 1;
	pi->part_enf_outb = (sp->part_enf >> 1) & 1;
	pi->sm_sl = sp->sm_sl;
	pi->subnet_timeout = sp->subnet_timeout;
	pi->client_reregister = sp->client_rereg;
	pi->guid_cap = sw ? (port ? 0 : 1) : SIM_GUID_CAP;
	pi->resp_time_value = 8;
	pi->local_phys_errors = sp->local_phys_errors;
	pi->overrun_errors = sp->overrun_errors;
}

int sim_get_port_info(const struct sim_fabric *f, uint32_t node, uint8_t port,
		      struct mad_port_info *pi)
{
	if (node >= f->topo.n || port > f->topo.nodes[node].nports)
		return -EINVAL;
	sim_fill_port_info(f, node, port, port, true, pi);
	pi->port_state = sim_port_state(f, node, port);
	return 0;
}

/*
 * PortState transitions the SM may ask for (IBA 14.2.5.6, 7.2): ARMED from INIT,
 * ACTIVE from ARMED, and DOWN, which retrains a working link back to INIT.
 * Anything else (ACTIVE on a port that went ACTIVE by itself, say) makes
 * hardware refuse the whole Set with status 0x1C: sim_state_refused().  A
 * lenient fabric (as ibsim) ignores it and answers with the state unchanged.
 */
static bool sim_state_refused(const struct sim_fabric *f, uint32_t node, uint8_t port,
			      uint8_t want)
{
	uint8_t now = f->nodes[node].ports[port].state;

	if ((f->lenient & SIM_LENIENT_PORT_STATE) || want == MAD_PORT_NOP ||
	    want == MAD_PORT_DOWN)
		return false;
	return !((want == MAD_PORT_ARMED && now == MAD_PORT_INIT) ||
		 (want == MAD_PORT_ACTIVE && now == MAD_PORT_ARMED));
}

static void sim_set_port_state(struct sim_fabric *f, uint32_t node, uint8_t port,
			       uint8_t want)
{
	struct sim_port *sp = &f->nodes[node].ports[port];
	const struct topo_port *tp = &f->topo.nodes[node].ports[port];

	switch (want) {
	case MAD_PORT_DOWN:
		if (port && sim_link_up(f, node, port)) {
			sp->state = MAD_PORT_INIT;
			f->nodes[tp->peer].ports[tp->peer_port].state = MAD_PORT_INIT;
		}
		break;
	case MAD_PORT_ARMED:
		if (sp->state == MAD_PORT_INIT) {
			sp->state = MAD_PORT_ARMED;
			sp->armed_us = sim_now_us();
		}
		break;
	case MAD_PORT_ACTIVE:
		if (sp->state == MAD_PORT_ARMED) {
			sp->state = MAD_PORT_ACTIVE;
			sim_host_event(f, node, port, SIM_HOST_ACTIVE);
		}
		break;
	default:
		break;
	}
}

/* PortPhysicalState: 3 disables the port, 2 (Polling) enables it again. */
static void sim_set_phys_state(struct sim_fabric *f, uint32_t node, uint8_t port,
			       uint8_t want)
{
	struct sim_port *sp = &f->nodes[node].ports[port];

	if (port == 0 || (want != MAD_PHYS_DISABLED && want != MAD_PHYS_POLLING))
		return;
	bool was = sim_link_up(f, node, port);
	sim_port_set_off(f, sp, sp->cut, want == MAD_PHYS_DISABLED);
	sim_link_changed(f, node, port, was);
}

/* The writable PortInfo fields (IBA 14.2.5.6 table 146, "RW").  LID, LMC, SM
 * LID and M_Key of a switch live on port 0; writes to other ports skip them.
 * ClientReregister on a CA port that supports it is an event for its host
 * (mad_sim_host.c), and reads back as last written, as some HCAs echo it. */
static void sim_apply_port_info(struct sim_fabric *f, uint32_t node, uint8_t port,
				bool ext_sm, const struct mad_port_info *pi)
{
	struct sim_port *sp = &f->nodes[node].ports[port];
	const struct topo_node *tn = &f->topo.nodes[node];
	uint16_t sm_lid = sp->sm_lid;

	if ((tn->type != MAD_NODE_SWITCH || port == 0) &&
	    !(f->nodes[node].quirks & SIM_QUIRK_NO_MKEY)) {
		sp->mkey = pi->mkey;
		sp->mkey_lease = pi->mkey_lease;
		sp->mkey_prot = pi->mkey_prot;
	}
	if (tn->type != MAD_NODE_SWITCH || port == 0) {
		sp->gid_prefix = pi->gid_prefix;
		sp->lid = pi->lid;
		sp->sm_lid = pi->sm_lid;
		if (tn->type != MAD_NODE_SWITCH || tn->enhanced_port0)
			sp->lmc = pi->lmc & 7;
	}
	bool fixed = f->nodes[node].quirks & SIM_QUIRK_FIXED_LINK;
	if (pi->link_width_enabled && !fixed)	/* 0: no change, 255: all supported */
		sp->width_enabled = pi->link_width_enabled == MAD_WIDTH_ENABLE_ALL
					    ? sim_width_supported(f, node, port)
					    : pi->link_width_enabled;
	if (pi->link_speed_enabled && !fixed)	/* 0: no change, 15: all supported */
		sp->speed_enabled = pi->link_speed_enabled == MAD_SPEED_ENABLE_ALL
					    ? sim_speed_supported(f, node, port)
					    : pi->link_speed_enabled & 7;
	/* 0: no change, 30: none (base speeds only), 31: all supported; read
	 * only from an SM that set SMSupportExtendedSpeeds */
	if (ext_sm && f->nodes[node].ext_speeds && pi->link_speed_ext_enabled && !fixed)
		sp->speed_ext_enabled = pi->link_speed_ext_enabled == MAD_SPEED_EXT_ENABLE_ALL
						? sim_speed_ext_supported(f, node, port)
					: pi->link_speed_ext_enabled == 30
						? 0 : pi->link_speed_ext_enabled & 0xf;
	if (ext_sm && f->nodes[node].ext_speeds && pi->link_speed_ext_enabled2 && !fixed)
		sp->speed_ext2_enabled = pi->link_speed_ext_enabled2 & 1;
	if (pi->neighbor_mtu >= 1 && pi->neighbor_mtu <= 4)
		sp->neighbor_mtu = pi->neighbor_mtu;
	if (pi->oper_vls >= 1 && pi->oper_vls <= sim_vl_cap(f, node))
		sp->oper_vls = pi->oper_vls;
	sp->sm_sl = pi->sm_sl;
	sp->vl_high_limit = pi->vl_high_limit;
	sp->hoq_life = pi->hoq_life;
	sp->vl_stall = pi->vl_stall_count;
	if (tn->type == MAD_NODE_SWITCH && port)	/* external switch ports enforce */
		sp->part_enf = (uint8_t)((pi->part_enf_inb & 1) | (pi->part_enf_outb & 1) << 1);
	if (!fixed) {
		sp->subnet_timeout = pi->subnet_timeout;
		sp->local_phys_errors = pi->local_phys_errors;
		sp->overrun_errors = pi->overrun_errors;
	}
	bool rereg = tn->type != MAD_NODE_SWITCH &&
		     !(f->nodes[node].quirks & SIM_QUIRK_NO_CLIENT_REREG) && pi->client_reregister;
	sp->client_rereg = rereg;
	sim_set_port_state(f, node, port, pi->port_state);
	sim_set_phys_state(f, node, port, pi->phys_state);
	if (rereg) {
		f->stats.client_reregs++;
		sim_host_event(f, node, port, SIM_HOST_REREG);
	} else if (sp->sm_lid != sm_lid) {
		sim_host_event(f, node, port, SIM_HOST_SM_CHANGE);
	}
}

/* PortInfo: the modifier names the port; a CA answers 0 for the receiving one.
 * A CA takes a Set only for the port the SMP came in on, as ibsim does: an SM
 * must program each CA port through that port's own neighbour. */
static uint16_t sim_port_info(struct sim_fabric *f, struct mad_smp *smp, uint32_t node,
			      uint8_t in_port, bool hide_key)
{
	const struct topo_node *tn = &f->topo.nodes[node];
	bool ext_sm = (smp->attr_mod & MAD_PORT_INFO_EXT_SPEEDS) != 0;
	uint32_t port = smp->attr_mod & ~MAD_PORT_INFO_EXT_SPEEDS;
	struct mad_port_info pi;

	if (port == 0 && tn->type != MAD_NODE_SWITCH)
		port = in_port;
	if (port > tn->nports)
		return MAD_STATUS_INVALID_FIELD;
	if (smp->method == MAD_METHOD_SET) {
		if (mad_port_info_decode(smp->data, &pi) ||
		    (tn->type != MAD_NODE_SWITCH && port != in_port) ||
		    sim_state_refused(f, node, (uint8_t)port, pi.port_state))
			return MAD_STATUS_INVALID_FIELD;
		sim_apply_port_info(f, node, (uint8_t)port, ext_sm, &pi);
	}
	sim_fill_port_info(f, node, (uint8_t)port, in_port, ext_sm, &pi);
	if (hide_key)
		pi.mkey = 0;
	mad_port_info_encode(&pi, smp->data);
	return 0;
}

static void sim_fill_switch_info(const struct sim_fabric *f, uint32_t node,
				 struct mad_switch_info *si)
{
	const struct sim_node *sn = &f->nodes[node];

	memset(si, 0, sizeof(*si));
	si->lft_cap = SIM_LFT_CAP;
	si->lft_top = sn->lft_top;
	si->default_port = 0;
	si->default_mcast_primary = MAD_LFT_NO_PORT;
	si->default_mcast_not_primary = MAD_LFT_NO_PORT;
	si->life_time = sn->life_time;
	si->port_state_change = sn->port_state_change;
	si->enhanced_port0 = f->topo.nodes[node].enhanced_port0;
	si->mft_cap = SIM_MFT_CAP;
	si->mft_top = sn->quirks & SIM_QUIRK_NO_MFT_TOP ? 0 : sn->mft_top;
	si->partition_enf_cap = SIM_PKEY_CAP;	/* external ports hold a table each */
	si->part_enf_inb = si->part_enf_outb = 1;	/* the capability bits */
	if (!(sn->quirks & SIM_QUIRK_NO_OPT_SL2VL))
		si->opt_sl2vl = MAD_SI_OPT_SL2VL_SUPPORTED;
	/* no random forwarding table is modelled: its cap stays 0 */
}

int sim_get_switch_info(const struct sim_fabric *f, uint32_t node,
			struct mad_switch_info *si)
{
	if (node >= f->topo.n || f->topo.nodes[node].type != MAD_NODE_SWITCH)
		return -EINVAL;
	sim_fill_switch_info(f, node, si);
	return 0;
}

/* SwitchInfo Set: LinearFDBTop, LifeTimeValue, PortStateChange (write 1 to
 * clear) (IBA 14.2.5.4), and MulticastFDBTop where the switch has it: below
 * 0xC000 (none) up to the last MLID of its MFT; above it is an invalid
 * field.  Without it the field is ignored, as a reserved one. */
static uint16_t sim_switch_info(struct sim_fabric *f, struct mad_smp *smp, uint32_t node)
{
	struct sim_node *sn = &f->nodes[node];
	struct mad_switch_info si;

	if (smp->method == MAD_METHOD_SET) {
		mad_switch_info_decode(smp->data, &si);
		bool has_top = !(sn->quirks & SIM_QUIRK_NO_MFT_TOP);
		if (si.lft_top >= SIM_LFT_CAP ||
		    (has_top && si.mft_top >= MAD_MLID_FIRST + SIM_MFT_CAP))
			return MAD_STATUS_INVALID_FIELD;
		sn->lft_top = si.lft_top;
		if (has_top)
			sn->mft_top = si.mft_top;
		sn->life_time = si.life_time & 0x1f;
		if (si.port_state_change)
			sn->port_state_change = false;
	}
	sim_fill_switch_info(f, node, &si);
	mad_switch_info_encode(&si, smp->data);
	return 0;
}

/* Make room for LFT entries up to block @block, SIM_LFT_GROW entries at a
 * time (an SM writes the blocks in order); new entries route nowhere. */
int sim_lft_grow(struct sim_node *sn, uint32_t block)
{
	uint32_t need = (block + 1) * MAD_LFT_BLOCK;

	if (need <= sn->lft_len)
		return 0;
	need = (need + SIM_LFT_GROW - 1) / SIM_LFT_GROW * SIM_LFT_GROW;
	need = need < SIM_LFT_CAP ? need : SIM_LFT_CAP;
	uint8_t *lft = realloc(sn->lft, need);
	if (!lft)
		return -ENOMEM;
	memset(lft + sn->lft_len, MAD_LFT_NO_PORT, need - sn->lft_len);
	sn->lft = lft;
	sn->lft_len = need;
	return 0;
}

/* LinearForwardingTable: the modifier is the block number (IBA 14.2.5.10). */
static uint16_t sim_lft(struct sim_fabric *f, struct mad_smp *smp, uint32_t node)
{
	struct sim_node *sn = &f->nodes[node];
	uint32_t block = smp->attr_mod;
	struct mad_lft_block b;

	if (block >= SIM_LFT_CAP / MAD_LFT_BLOCK)
		return MAD_STATUS_INVALID_FIELD;
	if (smp->method == MAD_METHOD_SET) {
		uint16_t st = sim_ar_lft_set(f, node);	/* AR off, or refused */
		if (st)
			return st;
		if (sim_lft_grow(sn, block))
			return MAD_STATUS_BUSY;
		mad_lft_decode(smp->data, &b);
		memcpy(sn->lft + block * MAD_LFT_BLOCK, b.port, MAD_LFT_BLOCK);
		f->stats.lft_block_sets++;
	}
	if ((block + 1) * MAD_LFT_BLOCK <= sn->lft_len)
		memcpy(b.port, sn->lft + block * MAD_LFT_BLOCK, MAD_LFT_BLOCK);
	else
		memset(b.port, MAD_LFT_NO_PORT, MAD_LFT_BLOCK);
	mad_lft_encode(&b, smp->data);
	return 0;
}

/* MulticastForwardingTable (IBA 14.2.5.12): modifier bits 31-28 the PortMask
 * position (16 ports each), bits 8-0 the block of 32 MLIDs from 0xC000; a
 * block or position beyond what the switch has is an invalid field. */
static uint16_t sim_mft(struct sim_fabric *f, struct mad_smp *smp, uint32_t node)
{
	struct sim_node *sn = &f->nodes[node];
	unsigned npos = f->topo.nodes[node].nports / 16u + 1;
	uint32_t block = smp->attr_mod & 0x1ff, pos = smp->attr_mod >> 28;

	if ((smp->attr_mod & 0x0ffffe00) || block >= SIM_MFT_CAP / 32 || pos >= npos)
		return MAD_STATUS_INVALID_FIELD;
	if (smp->method == MAD_METHOD_SET) {
		if (!sn->mft && !(sn->mft = calloc((size_t)SIM_MFT_CAP * npos, sizeof(*sn->mft))))
			return MAD_STATUS_BUSY;
		for (unsigned i = 0; i < 32; i++)
			sn->mft[(block * 32 + i) * npos + pos] =
				(uint16_t)(smp->data[2 * i] << 8 | smp->data[2 * i + 1]);
		f->stats.mft_block_sets++;
	}
	memset(smp->data, 0, sizeof(smp->data));
	for (unsigned i = 0; sn->mft && i < 32; i++) {
		uint16_t m = sn->mft[(block * 32 + i) * npos + pos];
		smp->data[2 * i] = (uint8_t)(m >> 8);
		smp->data[2 * i + 1] = (uint8_t)m;
	}
	return 0;
}

/* Whether @mlid and @port address an entry of switch @node's MFT. */
static bool sim_mft_entry(const struct sim_fabric *f, uint32_t node, uint16_t mlid, uint8_t port)
{
	return node < f->topo.n && f->topo.nodes[node].type == MAD_NODE_SWITCH &&
	       mlid >= MAD_MLID_FIRST && mlid - MAD_MLID_FIRST < SIM_MFT_CAP &&
	       port <= f->topo.nodes[node].nports;
}

bool sim_get_mft(const struct sim_fabric *f, uint32_t node, uint16_t mlid, uint8_t port)
{
	if (!sim_mft_entry(f, node, mlid, port))
		return false;
	const struct sim_node *sn = &f->nodes[node];
	unsigned npos = f->topo.nodes[node].nports / 16u + 1;
	if (!sn->mft || (!(sn->quirks & SIM_QUIRK_NO_MFT_TOP) && mlid > sn->mft_top))
		return false;
	return sn->mft[(size_t)(mlid - MAD_MLID_FIRST) * npos + port / 16] & (1u << (port % 16));
}

int sim_set_mft(struct sim_fabric *f, uint32_t node, uint16_t mlid, uint8_t port, bool on)
{
	if (!sim_mft_entry(f, node, mlid, port))
		return -EINVAL;
	struct sim_node *sn = &f->nodes[node];
	unsigned npos = f->topo.nodes[node].nports / 16u + 1;
	if (!sn->mft && !(sn->mft = calloc((size_t)SIM_MFT_CAP * npos, sizeof(*sn->mft))))
		return -ENOMEM;
	uint16_t *m = &sn->mft[(size_t)(mlid - MAD_MLID_FIRST) * npos + port / 16];
	*m = (uint16_t)(on ? *m | 1u << (port % 16) : *m & ~(1u << (port % 16)));
	if (mlid > sn->mft_top)
		sn->mft_top = mlid;
	return 0;
}

/* P_KeyTable: modifier bits 0-15 the block, 16-31 the port on a switch (IBA
 * 14.2.5.7).  Until the SM writes it a table holds the default P_Key 0xffff. */
static uint16_t sim_pkeys(struct sim_fabric *f, struct mad_smp *smp, uint32_t node,
			  uint8_t in_port)
{
	const struct topo_node *tn = &f->topo.nodes[node];
	uint32_t block = smp->attr_mod & 0xffff;
	uint32_t port = tn->type == MAD_NODE_SWITCH ? smp->attr_mod >> 16 : in_port;
	struct mad_pkey_block pk;

	if (port > tn->nports || block >= SIM_PKEY_CAP / MAD_PKEY_BLOCK)
		return MAD_STATUS_INVALID_FIELD;
	struct sim_port *sp = &f->nodes[node].ports[port];
	if (smp->method == MAD_METHOD_SET) {
		if (!sp->pkeys) {
			sp->pkeys = calloc(SIM_PKEY_CAP, sizeof(*sp->pkeys));
			if (!sp->pkeys)
				return MAD_STATUS_BUSY;
			sp->pkeys[0] = 0xffff;
		}
		mad_pkey_decode(smp->data, &pk);
		memcpy(sp->pkeys + block * MAD_PKEY_BLOCK, pk.pkey, sizeof(pk.pkey));
	}
	memset(&pk, 0, sizeof(pk));
	if (sp->pkeys)
		memcpy(pk.pkey, sp->pkeys + block * MAD_PKEY_BLOCK, sizeof(pk.pkey));
	else if (block == 0)
		pk.pkey[0] = 0xffff;
	mad_pkey_encode(&pk, smp->data);
	return 0;
}

int sim_get_pkeys(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t block,
		  struct mad_pkey_block *pk)
{
	if (node >= f->topo.n || port > f->topo.nodes[node].nports ||
	    block >= SIM_PKEY_CAP / MAD_PKEY_BLOCK)
		return -EINVAL;
	const struct sim_port *sp = &f->nodes[node].ports[port];
	memset(pk, 0, sizeof(*pk));
	if (sp->pkeys)
		memcpy(pk->pkey, sp->pkeys + block * MAD_PKEY_BLOCK, sizeof(pk->pkey));
	else if (block == 0)
		pk->pkey[0] = 0xffff;
	return 0;
}

/* GUIDInfo (IBA 14.2.5.5): the modifier is the block.  A CA answers for the
 * port the SMP came in on, with PortInfo GUIDCap (SIM_GUID_CAP) entries; a
 * switch for port 0, with one.  A block past the cap is refused; entry 0 of
 * block 0, the port GUID, is read-only: a Set leaves it as it is. */
static uint16_t sim_guid_info(struct sim_fabric *f, struct mad_smp *smp, uint32_t node,
			      uint8_t in_port)
{
	bool sw = f->topo.nodes[node].type == MAD_NODE_SWITCH;
	uint8_t port = sw ? 0 : in_port;
	unsigned cap = sw ? 1 : SIM_GUID_CAP;
	uint32_t block = smp->attr_mod;
	struct sim_port *sp = &f->nodes[node].ports[port];
	uint64_t port_guid = f->topo.nodes[node].ports[port].guid;
	struct mad_guid_block g;

	if (block >= (cap + MAD_GUID_INFO_BLOCK - 1) / MAD_GUID_INFO_BLOCK)
		return MAD_STATUS_INVALID_FIELD;
	if (smp->method == MAD_METHOD_SET && !sw) {
		if (!sp->guids) {
			sp->guids = calloc(SIM_GUID_CAP, sizeof(*sp->guids));
			if (!sp->guids)
				return MAD_STATUS_BUSY;
		}
		mad_guid_info_decode(smp->data, &g);
		memcpy(sp->guids + block * MAD_GUID_INFO_BLOCK, g.guid, sizeof(g.guid));
	}
	memset(&g, 0, sizeof(g));
	if (sp->guids)
		memcpy(g.guid, sp->guids + block * MAD_GUID_INFO_BLOCK, sizeof(g.guid));
	if (block == 0)
		g.guid[0] = port_guid;
	mad_guid_info_encode(&g, smp->data);
	return 0;
}

int sim_get_guid_info(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t block,
		      struct mad_guid_block *g)
{
	if (node >= f->topo.n || port > f->topo.nodes[node].nports ||
	    block >= SIM_GUID_CAP / MAD_GUID_INFO_BLOCK)
		return -EINVAL;
	const struct sim_port *sp = &f->nodes[node].ports[port];
	memset(g, 0, sizeof(*g));
	if (sp->guids)
		memcpy(g->guid, sp->guids + block * MAD_GUID_INFO_BLOCK, sizeof(g->guid));
	if (block == 0)
		g->guid[0] = f->topo.nodes[node].ports[port].guid;
	return 0;
}

/*
 * Where the SLtoVLMappingTable for traffic in on @in and out of @out lives: a
 * switch keeps a row per input port, by output port; a CA or router one table
 * per port (@in, @out ignored).  Rows are allocated on their first Set.
 */
static uint8_t *sim_sl2vl_entry(const struct sim_fabric *f, uint32_t node, uint8_t in,
				uint8_t out)
{
	const struct sim_port *sp = &f->nodes[node].ports[in];

	if (!sp->sl2vl)
		return NULL;
	return sp->sl2vl[f->topo.nodes[node].type == MAD_NODE_SWITCH ? out : 0];
}

int sim_get_sl2vl(const struct sim_fabric *f, uint32_t node, uint8_t in_port,
		  uint8_t out_port, struct mad_sl2vl *t)
{
	uint8_t data[SMP_DATA_SIZE] = { 0 };

	if (node >= f->topo.n || in_port > f->topo.nodes[node].nports ||
	    out_port > f->topo.nodes[node].nports)
		return -EINVAL;
	if (f->topo.nodes[node].type != MAD_NODE_SWITCH)
		in_port = out_port;
	const uint8_t *e = sim_sl2vl_entry(f, node, in_port, out_port);
	if (e)
		memcpy(data, e, SIM_SL2VL_BYTES);
	return mad_sl2vl_decode(data, t);
}

/* Make room for switch @node's tables with input port @in: a row per output
 * port 0..nports.  0, or MAD_STATUS_BUSY without memory. */
static uint16_t sim_sl2vl_row(struct sim_fabric *f, uint32_t node, uint32_t in)
{
	struct sim_port *sp = &f->nodes[node].ports[in];

	if (!sp->sl2vl &&
	    !(sp->sl2vl = calloc((size_t)f->topo.nodes[node].nports + 1, sizeof(*sp->sl2vl))))
		return MAD_STATUS_BUSY;
	return 0;
}

/*
 * SLtoVLMappingTable (IBA 14.2.5.8) of a switch: the modifier names the input
 * port (bits 15:8) and the output port (bits 7:0).  A switch that offers
 * optimized programming (SwitchInfo, unless SIM_QUIRK_NO_OPT_SL2VL) takes a
 * Set with bit 17 for every input port, 0..nports, and bit 16 for every
 * output port, and writes each pair addressed; a Get must name one table, and
 * a switch that does not offer it refuses those bits, as it refuses the
 * reserved bits 31:18: an invalid field, nothing written.  The answer to a
 * Set is the table written.
 */
static uint16_t sim_sl2vl_switch(struct sim_fabric *f, struct mad_smp *smp, uint32_t node)
{
	uint32_t nports = f->topo.nodes[node].nports, mod = smp->attr_mod;
	bool all_in = mod & MAD_SL2VL_MOD_ALL_IN, all_out = mod & MAD_SL2VL_MOD_ALL_OUT;
	uint32_t in = mod >> 8 & 0xff, out = mod & 0xff;
	uint16_t st;

	if ((all_in || all_out) && smp->method == MAD_METHOD_SET &&
	    (f->nodes[node].quirks & SIM_QUIRK_NO_OPT_SL2VL)) {
		f->stats.sl2vl_opt_refused++;
		return MAD_STATUS_INVALID_FIELD;
	}
	if ((mod & MAD_SL2VL_MOD_RESERVED) || ((all_in || all_out) && smp->method != MAD_METHOD_SET))
		return MAD_STATUS_INVALID_FIELD;
	if ((!all_in && in > nports) || (!all_out && out > nports))
		return MAD_STATUS_INVALID_FIELD;
	if (smp->method == MAD_METHOD_SET) {
		for (uint32_t i = all_in ? 0 : in; i <= (all_in ? nports : in); i++) {
			if ((st = sim_sl2vl_row(f, node, i)))
				return st;
			for (uint32_t o = all_out ? 0 : out; o <= (all_out ? nports : out); o++)
				memcpy(f->nodes[node].ports[i].sl2vl[o], smp->data, SIM_SL2VL_BYTES);
		}
		f->stats.sl2vl_sets++;
		memset(smp->data + SIM_SL2VL_BYTES, 0, SMP_DATA_SIZE - SIM_SL2VL_BYTES);
		return 0;
	}
	f->stats.sl2vl_gets++;
	const uint8_t *e = sim_sl2vl_entry(f, node, (uint8_t)in, (uint8_t)out);
	memset(smp->data, 0, SMP_DATA_SIZE);
	if (e)
		memcpy(smp->data, e, SIM_SL2VL_BYTES);
	return 0;
}

/* SLtoVLMappingTable of a CA or router: the modifier is ignored, the table is
 * the one of the port the SMP came in on.  Until set, every SL maps to VL 0. */
static uint16_t sim_sl2vl(struct sim_fabric *f, struct mad_smp *smp, uint32_t node,
			  uint8_t in_port)
{
	if (f->topo.nodes[node].type == MAD_NODE_SWITCH)
		return sim_sl2vl_switch(f, smp, node);
	struct sim_port *sp = &f->nodes[node].ports[in_port];
	if (smp->method == MAD_METHOD_SET) {
		if (!sp->sl2vl && !(sp->sl2vl = calloc(1, sizeof(*sp->sl2vl))))
			return MAD_STATUS_BUSY;
		memcpy(sp->sl2vl[0], smp->data, SIM_SL2VL_BYTES);
		f->stats.sl2vl_sets++;
	} else {
		f->stats.sl2vl_gets++;
	}
	memset(smp->data, 0, SMP_DATA_SIZE);
	if (sp->sl2vl)
		memcpy(smp->data, sp->sl2vl[0], SIM_SL2VL_BYTES);
	return 0;
}

void sim_vlarb_table(const struct sim_port *sp, uint8_t out[SIM_VLARB_BYTES])
{
	if (sp->vlarb) {
		memcpy(out, sp->vlarb, SIM_VLARB_BYTES);
		return;
	}
	memset(out, 0, SIM_VLARB_BYTES);
	out[1] = 0xff;		/* power-on: low entry 0 is VL0, weight 255 */
}

int sim_get_vlarb(const struct sim_fabric *f, uint32_t node, uint8_t port, uint8_t block,
		  struct mad_vlarb_block *b)
{
	uint8_t t[SIM_VLARB_BYTES];

	if (node >= f->topo.n || port > f->topo.nodes[node].nports || block < 1 ||
	    block > SIM_VLARB_BLOCKS)
		return -EINVAL;
	sim_vlarb_table(&f->nodes[node].ports[port], t);
	return mad_vlarb_decode(t + (size_t)(block - 1) * SMP_DATA_SIZE, b);
}

/*
 * VLArbitrationTable (IBA 14.2.5.9): the modifier's bits 31:16 name the block
 * (1-4), bits 7:0 a switch's output port; a CA or router answers for the port
 * the SMP came in on.  A Set keeps the VL and weight of each entry.
 */
static uint16_t sim_vlarb(struct sim_fabric *f, struct mad_smp *smp, uint32_t node,
			  uint8_t in_port)
{
	const struct topo_node *tn = &f->topo.nodes[node];
	uint32_t block = smp->attr_mod >> 16;
	uint32_t port = tn->type == MAD_NODE_SWITCH ? smp->attr_mod & 0xffff : in_port;
	struct mad_vlarb_block b;

	if (block < 1 || block > SIM_VLARB_BLOCKS || port > tn->nports)
		return MAD_STATUS_INVALID_FIELD;
	struct sim_port *sp = &f->nodes[node].ports[port];
	uint8_t *blk;
	if (smp->method == MAD_METHOD_SET) {
		if (!sp->vlarb) {
			uint8_t t[SIM_VLARB_BYTES];
			sim_vlarb_table(sp, t);
			if (!(sp->vlarb = malloc(SIM_VLARB_BYTES)))
				return MAD_STATUS_BUSY;
			memcpy(sp->vlarb, t, SIM_VLARB_BYTES);
		}
		blk = sp->vlarb + (block - 1) * SMP_DATA_SIZE;
		mad_vlarb_decode(smp->data, &b);
		mad_vlarb_encode(&b, blk);
		f->stats.vlarb_sets++;
	} else {
		f->stats.vlarb_gets++;
	}
	uint8_t t[SIM_VLARB_BYTES];
	sim_vlarb_table(sp, t);
	memcpy(smp->data, t + (block - 1) * SMP_DATA_SIZE, SMP_DATA_SIZE);
	return 0;
}

static uint16_t sim_dispatch(struct sim_fabric *f, struct mad_smp *smp, uint32_t node,
			     uint8_t in_port, bool hide_key)
{
	bool sw = f->topo.nodes[node].type == MAD_NODE_SWITCH;
	bool get = smp->method == MAD_METHOD_GET;

	switch (smp->attr_id) {
	case MAD_ATTR_NODE_INFO:
		if (!get)
			break;
		sim_node_info(f, node, in_port, smp->data);
		return 0;
	case MAD_ATTR_NODE_DESC:
		if (!get)
			break;
		sim_node_desc(f, node, smp->data);
		return 0;
	case MAD_ATTR_PORT_INFO:
		return sim_port_info(f, smp, node, in_port, hide_key);
	case MAD_ATTR_SWITCH_INFO:
		if (!sw)
			break;
		return sim_switch_info(f, smp, node);
	case MAD_ATTR_LFT:
		if (!sw)
			break;
		return sim_lft(f, smp, node);
	case MAD_ATTR_MFT:
		if (!sw)
			break;
		return sim_mft(f, smp, node);
	case MAD_ATTR_PKEY_TABLE:
		return sim_pkeys(f, smp, node, in_port);
	case MAD_ATTR_GUID_INFO:
		return sim_guid_info(f, smp, node, in_port);
	case MAD_ATTR_SL2VL_TABLE:
		if (f->nodes[node].quirks & SIM_QUIRK_NO_SL_MAPPING)
			break;
		return sim_sl2vl(f, smp, node, in_port);
	case MAD_ATTR_VL_ARB_TABLE:
		return sim_vlarb(f, smp, node, in_port);
	case MAD_ATTR_AR_INFO:
	case MAD_ATTR_AR_GROUP_TABLE:
	case MAD_ATTR_AR_LFT:
		return sim_ar_process(f, smp, node);
	default:	/* SMInfo included: the port has no SM (an SM's port answers it) */
		break;
	}
	return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
}

bool sim_sma_process(struct sim_fabric *f, struct mad_smp *smp, uint32_t node,
		     uint8_t port)
{
	bool hide_key;

	if (smp->method != MAD_METHOD_GET && smp->method != MAD_METHOD_SET)
		return false;	/* TrapRepress and answers are consumed silently */
	if (!sim_mkey_check(f, node, port, smp, &hide_key))
		return false;
	if (smp->attr_id >= 0xff00 && (f->nodes[node].quirks & SIM_QUIRK_SILENT_VENDOR)) {
		f->stats.vendor_dropped++;
		return false;
	}
	sim_node_settle(f, node);
	if (smp->method == MAD_METHOD_GET)
		f->stats.gets++;
	else
		f->stats.sets++;
	uint16_t status = sim_dispatch(f, smp, node, port, hide_key);
	if (status)
		memset(smp->data, 0, sizeof(smp->data));
	mad_smp_make_response(smp, status);
	return true;
}

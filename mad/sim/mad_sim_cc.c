// SPDX-License-Identifier: MIT
/*
 * mad_sim_cc.c - the congestion control agent (class 0x21, IBA Annex A10) of
 * every simulated node.
 *
 * Data: a node's CC state lives in a struct sim_cc made on its first Set
 * (NULL: the power-on state, every setting 0, CC_Key 0): the CongestionKeyInfo
 * (one per node), a switch's SwitchCongestionSetting and its
 * SwitchPortCongestionSetting blocks (32 ports a block, ports 0..nports), a
 * CA's CACongestionSetting and CongestionControlTable per port
 * (SIM_CC_CCT_BLOCKS blocks of 64 entries, OpenSM's 128).
 *
 * ClassPortInfo answers a Get as an agent does (BaseVersion 1, ClassVersion
 * 2, RespTimeValue SIM_CC_RESP_TIME, no redirection).
 *
 * Flow: a CC request is carried LID-routed to the port owning its DLID (a
 * switch: port 0), answered there and the GetResp queued back, as the PMA's
 * (mad_sim_perf.c).  Strict as the SMA is:
 *  - a node whose CC_Key is not 0 discards a request carrying another key,
 *    counting it in CC_KeyViolations (saturating), save Get(ClassPortInfo)
 *    and Get(CongestionInfo), which a manager needs to find the agent before
 *    it knows the key; the protect bit and lease are kept and read back, no
 *    lease timer runs;
 *  - a Set writes the parts its Control_Map selects (a switch: the masks,
 *    threshold and packet size, credit starvation, marking rate; a CA: the
 *    SLs' entries; Port_Control always), and the map itself;
 *  - a value outside its range is refused with status 0x1C (invalid field)
 *    and changes nothing: a port mask bit above the switch's last port, a
 *    reserved Control_Map or Port_Control bit, a SwitchPortCongestionSetting
 *    block beyond the ports or a valid element for a port that does not
 *    exist, a CCT block at or beyond ControlTableCap, a CCTI_Limit or
 *    CCTI_Min past the table's end, a modifier where the attribute takes
 *    none;
 *  - switch attributes to a CA, CA ones to a switch, Set(CongestionInfo):
 *    method/attribute unsupported (0x0C); class version not 2: 0x04.
 * A node with SIM_QUIRK_NO_CC, or every node after sim_set_cc(false) (the
 * spec's cc=0), has no agent and answers nothing of class 0x21, as ibsim's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_cc.h"
#include "mad/sim/mad_sim_priv.h"
#include "mad/mad_transport.h"

struct sim_cc_ca_port {
	struct mad_cc_ca_setting ca;
	uint16_t ccti_limit;
	struct mad_cc_cct_entry cct[SIM_CC_CCT_ENTRIES];
};

struct sim_cc {
	struct mad_cc_key_info key;
	struct mad_cc_switch_setting sw;
	struct mad_cc_switch_port_setting *sw_ports;	/* a switch: its blocks */
	struct sim_cc_ca_port *ca;			/* a CA: nports + 1 */
};

static unsigned sw_blocks(const struct topo_node *tn)
{
	return tn->nports / MAD_CC_SWITCH_PORTS_PER_BLOCK + 1;
}

static struct sim_cc *sim_cc_of(struct sim_fabric *f, uint32_t node)
{
	struct sim_node *sn = &f->nodes[node];
	const struct topo_node *tn = &f->topo.nodes[node];

	if (sn->cc)
		return sn->cc;
	struct sim_cc *cc = calloc(1, sizeof(*cc));
	if (!cc)
		return NULL;
	if (tn->type == MAD_NODE_SWITCH)
		cc->sw_ports = calloc(sw_blocks(tn), sizeof(*cc->sw_ports));
	else
		cc->ca = calloc((size_t)tn->nports + 1, sizeof(*cc->ca));
	if (!cc->sw_ports && !cc->ca) {
		free(cc);
		return NULL;
	}
	sn->cc = cc;
	return cc;
}

void sim_cc_free(struct sim_node *sn)
{
	if (!sn->cc)
		return;
	free(sn->cc->sw_ports);
	free(sn->cc->ca);
	free(sn->cc);
	sn->cc = NULL;
}

/* Is bit @port of a port mask (port 255 first, port 0 last) set? */
static bool mask_has(const uint8_t *mask, unsigned port)
{
	return mask[MAD_CC_PORT_MASK_BYTES - 1 - port / 8] >> (port % 8) & 1;
}

static bool mask_within(const uint8_t *mask, unsigned nports)
{
	for (unsigned p = nports + 1; p < MAD_CC_PORT_MASK_BYTES * 8; p++)
		if (mask_has(mask, p))
			return false;
	return true;
}

static uint16_t cc_info(struct sim_fabric *f, uint32_t node, struct mad_cc *m)
{
	bool sw = f->topo.nodes[node].type == MAD_NODE_SWITCH;
	struct mad_cc_info v = {
		.info = sw ? MAD_CC_INFO_CREDIT_STARVATION : 0,
		.control_table_cap = sw ? 0 : SIM_CC_CCT_BLOCKS,
	};

	if (m->method != MAD_METHOD_GET)
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	mad_cc_info_encode(&v, m->data);
	return 0;
}

static uint16_t cc_key_info(struct sim_fabric *f, uint32_t node, struct mad_cc *m)
{
	if (m->method == MAD_METHOD_SET) {
		struct mad_cc_key_info v;
		struct sim_cc *cc = sim_cc_of(f, node);
		if (!cc)
			return MAD_STATUS_BUSY;
		mad_cc_key_info_decode(m->data, &v);
		cc->key.cc_key = v.cc_key;
		cc->key.protect = v.protect;
		cc->key.lease_period = v.lease_period;
		/* CC_KeyViolations is read only */
	}
	struct mad_cc_key_info now = { 0 };
	if (f->nodes[node].cc)
		now = f->nodes[node].cc->key;
	mad_cc_key_info_encode(&now, m->data);
	return 0;
}

static uint16_t cc_switch_setting(struct sim_fabric *f, uint32_t node, struct mad_cc *m)
{
	const struct topo_node *tn = &f->topo.nodes[node];

	if (tn->type != MAD_NODE_SWITCH)
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	if (m->method == MAD_METHOD_SET) {
		struct mad_cc_switch_setting v;
		mad_cc_switch_setting_decode(m->data, &v);
		if ((v.control_map & ~MAD_CC_SW_MAP_ALL) ||
		    ((v.control_map & MAD_CC_SW_MAP_VICTIM) &&
		     !mask_within(v.victim_mask, tn->nports)) ||
		    ((v.control_map & MAD_CC_SW_MAP_CREDIT) &&
		     !mask_within(v.credit_mask, tn->nports)))
			return MAD_STATUS_INVALID_FIELD;
		struct sim_cc *cc = sim_cc_of(f, node);
		if (!cc)
			return MAD_STATUS_BUSY;
		struct mad_cc_switch_setting *s = &cc->sw;
		s->control_map = v.control_map;
		if (v.control_map & MAD_CC_SW_MAP_VICTIM)
			memcpy(s->victim_mask, v.victim_mask, sizeof(s->victim_mask));
		if (v.control_map & MAD_CC_SW_MAP_CREDIT)
			memcpy(s->credit_mask, v.credit_mask, sizeof(s->credit_mask));
		if (v.control_map & MAD_CC_SW_MAP_THRESHOLD) {
			s->threshold = v.threshold;
			s->packet_size = v.packet_size;
		}
		if (v.control_map & MAD_CC_SW_MAP_CS) {
			s->cs_threshold = v.cs_threshold;
			s->cs_return_delay = v.cs_return_delay;
		}
		if (v.control_map & MAD_CC_SW_MAP_MARKING)
			s->marking_rate = v.marking_rate;
	}
	struct mad_cc_switch_setting now = { 0 };
	if (f->nodes[node].cc)
		now = f->nodes[node].cc->sw;
	mad_cc_switch_setting_encode(&now, m->data);
	return 0;
}

static uint16_t cc_switch_port_setting(struct sim_fabric *f, uint32_t node, struct mad_cc *m)
{
	const struct topo_node *tn = &f->topo.nodes[node];
	uint32_t block = m->attr_mod;

	if (tn->type != MAD_NODE_SWITCH)
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	if (block >= sw_blocks(tn))
		return MAD_STATUS_INVALID_FIELD;
	if (m->method == MAD_METHOD_SET) {
		struct mad_cc_switch_port_setting v;
		mad_cc_switch_port_setting_decode(m->data, &v);
		for (unsigned i = 0; i < MAD_CC_SWITCH_PORTS_PER_BLOCK; i++)
			if (v.port[i].valid && block * MAD_CC_SWITCH_PORTS_PER_BLOCK + i > tn->nports)
				return MAD_STATUS_INVALID_FIELD;
		struct sim_cc *cc = sim_cc_of(f, node);
		if (!cc)
			return MAD_STATUS_BUSY;
		for (unsigned i = 0; i < MAD_CC_SWITCH_PORTS_PER_BLOCK; i++)
			if (v.port[i].valid)
				cc->sw_ports[block].port[i] = v.port[i];
	}
	struct mad_cc_switch_port_setting now = { 0 };
	if (f->nodes[node].cc)
		now = f->nodes[node].cc->sw_ports[block];
	mad_cc_switch_port_setting_encode(&now, m->data);
	return 0;
}

static uint16_t cc_ca_setting(struct sim_fabric *f, uint32_t node, uint8_t port,
			      struct mad_cc *m)
{
	if (f->topo.nodes[node].type == MAD_NODE_SWITCH)
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	if (m->attr_mod)
		return MAD_STATUS_INVALID_FIELD;
	if (m->method == MAD_METHOD_SET) {
		struct mad_cc_ca_setting v;
		mad_cc_ca_setting_decode(m->data, &v);
		if (v.port_control & ~1u)
			return MAD_STATUS_INVALID_FIELD;
		for (unsigned sl = 0; sl < MAD_CC_CA_SLS; sl++)
			if ((v.control_map >> sl & 1) && v.sl[sl].ccti_min >= SIM_CC_CCT_ENTRIES)
				return MAD_STATUS_INVALID_FIELD;
		struct sim_cc *cc = sim_cc_of(f, node);
		if (!cc)
			return MAD_STATUS_BUSY;
		struct mad_cc_ca_setting *s = &cc->ca[port].ca;
		s->port_control = v.port_control;
		s->control_map = v.control_map;
		for (unsigned sl = 0; sl < MAD_CC_CA_SLS; sl++)
			if (v.control_map >> sl & 1)
				s->sl[sl] = v.sl[sl];
	}
	struct mad_cc_ca_setting now = { 0 };
	if (f->nodes[node].cc)
		now = f->nodes[node].cc->ca[port].ca;
	mad_cc_ca_setting_encode(&now, m->data);
	return 0;
}

static uint16_t cc_cct(struct sim_fabric *f, uint32_t node, uint8_t port, struct mad_cc *m)
{
	uint32_t block = m->attr_mod;

	if (f->topo.nodes[node].type == MAD_NODE_SWITCH)
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	if (block >= SIM_CC_CCT_BLOCKS)
		return MAD_STATUS_INVALID_FIELD;
	if (m->method == MAD_METHOD_SET) {
		struct mad_cc_cct v;
		mad_cc_cct_decode(m->data, &v);
		if (v.ccti_limit >= SIM_CC_CCT_ENTRIES)
			return MAD_STATUS_INVALID_FIELD;
		struct sim_cc *cc = sim_cc_of(f, node);
		if (!cc)
			return MAD_STATUS_BUSY;
		struct sim_cc_ca_port *cp = &cc->ca[port];
		cp->ccti_limit = v.ccti_limit;
		memcpy(&cp->cct[block * MAD_CC_CCT_PER_BLOCK], v.entry, sizeof(v.entry));
	}
	struct mad_cc_cct now = { 0 };
	if (f->nodes[node].cc) {
		const struct sim_cc_ca_port *cp = &f->nodes[node].cc->ca[port];
		now.ccti_limit = cp->ccti_limit;
		memcpy(now.entry, &cp->cct[block * MAD_CC_CCT_PER_BLOCK], sizeof(now.entry));
	}
	mad_cc_cct_encode(&now, m->data);
	return 0;
}

static uint16_t sim_cc_answer(struct sim_fabric *f, uint32_t node, uint8_t port,
			      struct mad_cc *m)
{
	if (m->class_version != MAD_CC_CLASS_VERSION)
		return MAD_STATUS_BAD_VERSION;
	if (m->method != MAD_METHOD_GET && m->method != MAD_METHOD_SET)
		return MAD_STATUS_METHOD_UNSUPPORTED;
	switch (m->attr_id) {
	case MAD_CC_ATTR_CLASS_PORT_INFO:
		if (m->method != MAD_METHOD_GET)
			return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
		mad_cc_class_port_info_encode(SIM_CC_RESP_TIME, m->data);
		return 0;
	case MAD_CC_ATTR_INFO:
		return cc_info(f, node, m);
	case MAD_CC_ATTR_KEY_INFO:
		return m->attr_mod ? MAD_STATUS_INVALID_FIELD : cc_key_info(f, node, m);
	case MAD_CC_ATTR_SWITCH_SETTING:
		return m->attr_mod ? MAD_STATUS_INVALID_FIELD : cc_switch_setting(f, node, m);
	case MAD_CC_ATTR_SWITCH_PORT_SETTING:
		return cc_switch_port_setting(f, node, m);
	case MAD_CC_ATTR_CA_SETTING:
		return cc_ca_setting(f, node, port, m);
	case MAD_CC_ATTR_CCT:
		return cc_cct(f, node, port, m);
	default:
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	}
}

/* Does @m pass @node's CC_Key check?  A failure is counted. */
static bool key_ok(struct sim_fabric *f, uint32_t node, const struct mad_cc *m)
{
	struct sim_cc *cc = f->nodes[node].cc;

	if (!cc || !cc->key.cc_key || m->cc_key == cc->key.cc_key)
		return true;
	if (m->method == MAD_METHOD_GET &&
	    (m->attr_id == MAD_CC_ATTR_INFO || m->attr_id == MAD_CC_ATTR_CLASS_PORT_INFO))
		return true;
	if (cc->key.violations < UINT16_MAX)
		cc->key.violations++;
	f->stats.cc_key_dropped++;
	return false;
}

void sim_cc_request(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
		    const struct mad_addr *to)
{
	struct mad_cc m;
	uint32_t node = f->sms[sm].node;
	uint8_t port = f->sms[sm].port;
	uint8_t buf[MAD_BLOCK_SIZE];

	if (mad_cc_decode(mad, MAD_BLOCK_SIZE, &m) || !mad_method_is_request(m.method) ||
	    !to || !sim_lid_walk(f, &node, &port, to->lid) || f->nodes[node].dead ||
	    f->cc_off || (f->nodes[node].quirks & SIM_QUIRK_NO_CC) || !key_ok(f, node, &m)) {
		f->stats.dropped++;
		return;
	}
	bool set = m.method == MAD_METHOD_SET;
	m.status = sim_cc_answer(f, node, port, &m);
	f->stats.cc_in++;
	f->stats.cc_sets += set && !m.status;
	f->stats.cc_refused += m.status != 0;
	m.method = MAD_METHOD_GET_RESP;
	if (m.status)
		memset(m.data, 0, sizeof(m.data));
	mad_cc_encode(&m, buf);
	struct mad_addr from = { .lid = sim_addr_port(f, node, port)->lid, .qpn = MAD_CC_QPN };
	sim_queue_push_raw(f, sm, buf, &from);
}

void sim_set_cc(struct sim_fabric *f, bool on)
{
	f->cc_off = !on;
}

int sim_cc_set_key(struct sim_fabric *f, uint32_t node, uint64_t key)
{
	if (node >= f->topo.n)
		return -EINVAL;
	struct sim_cc *cc = sim_cc_of(f, node);
	if (!cc)
		return -ENOMEM;
	cc->key.cc_key = key;
	return 0;
}

int sim_cc_get_key(const struct sim_fabric *f, uint32_t node, struct mad_cc_key_info *v)
{
	if (node >= f->topo.n)
		return -EINVAL;
	memset(v, 0, sizeof(*v));
	if (f->nodes[node].cc)
		*v = f->nodes[node].cc->key;
	return 0;
}

int sim_cc_get_switch(const struct sim_fabric *f, uint32_t node,
		      struct mad_cc_switch_setting *v)
{
	if (node >= f->topo.n || f->topo.nodes[node].type != MAD_NODE_SWITCH)
		return -EINVAL;
	memset(v, 0, sizeof(*v));
	if (f->nodes[node].cc)
		*v = f->nodes[node].cc->sw;
	return 0;
}

int sim_cc_get_ca(const struct sim_fabric *f, uint32_t node, uint8_t port,
		  struct mad_cc_ca_setting *ca, uint16_t *ccti_limit,
		  struct mad_cc_cct_entry cct[SIM_CC_CCT_ENTRIES])
{
	if (node >= f->topo.n || f->topo.nodes[node].type == MAD_NODE_SWITCH ||
	    port < 1 || port > f->topo.nodes[node].nports)
		return -EINVAL;
	memset(ca, 0, sizeof(*ca));
	*ccti_limit = 0;
	memset(cct, 0, SIM_CC_CCT_ENTRIES * sizeof(*cct));
	if (f->nodes[node].cc) {
		const struct sim_cc_ca_port *cp = &f->nodes[node].cc->ca[port];
		*ca = cp->ca;
		*ccti_limit = cp->ccti_limit;
		memcpy(cct, cp->cct, sizeof(cp->cct));
	}
	return 0;
}

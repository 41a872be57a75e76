// SPDX-License-Identifier: MIT
/*
 * mad_sim_perf.c - the performance management agent (PMA) of every simulated
 * node: PerfMgt GMPs (class 0x04, IBA 16.1) and the counters they read.
 *
 * Data: a port's counters live in a struct sim_perf made on first use (NULL:
 * all zero), as the two attributes hold them: PortCounters, each field
 * saturating at its IBA width as hardware does (a saturated counter stops),
 * and PortCountersExtended, 64-bit.  Whatever adds to a port
 * (sim_perf_add(): tests, the traffic model, a link going down) adds to both.
 *
 * Flow: a PerfMgt request from an SM is carried LID-routed to the port owning
 * its DLID (a switch: port 0), answered there, and the GetResp queued back to
 * the asking SM.  Get reads; Set writes the counters its CounterSelect (and,
 * for PortXmitWait, CounterSelect2) picks to the values it carries, so a Set
 * of zeros clears them (16.1.3.5).  PortSelect 0xFF (AllPortSelect) reads the
 * sum of every port, or clears them all.  A node whose CapabilityMask
 * (sim_perf_set_caps) lacks MAD_PERF_CAP_EXT_WIDTH has no
 * PortCountersExtended.  PortSamplesControl answers the node's Tick
 * (sim_perf_set_tick; a node may refuse it or drop it); a steady rate's
 * waiting time is counted in PortXmitWait ticks of that length at the rate
 * the port's link trained to, by the node's device rule
 * (mad_perf_node_tick_ps: a node with a Quantum's vendid/devid counts octets
 * of the whole port, as NVIDIA documents them).  Sampling is not modelled: a
 * Set answers what a Get does.  Port 0 of a switch has counters only with an enhanced port 0 (a
 * base port 0 is no port of its own: no link, no CA-like interface);
 * elsewhere PortSelect 0 is an invalid field.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_perf.h"
#include "mad/sim/mad_sim_priv.h"
#include "mad/mad_transport.h"

/* the rate's counters, in the order of struct sim_perf_rate */
#define SIM_PERF_RATED 5

struct sim_perf {
	struct mad_port_counters pc;
	struct mad_port_counters_ext pce;
	double per_ms[SIM_PERF_RATED];	/* a steady rate (sim_perf_set_rate) */
	double carry[SIM_PERF_RATED];	/* the fractions not counted yet */
	uint64_t rate_ms;		/* counted up to then */
};

/* v + add, stopping at @max. */
static uint64_t sat_add(uint64_t v, uint64_t add, uint64_t max)
{
	return add >= max - v ? max : v + add;
}

static struct sim_perf *sim_perf_of(struct sim_fabric *f, uint32_t node, uint8_t port)
{
	struct sim_port *sp = &f->nodes[node].ports[port];

	if (!sp->perf)
		sp->perf = calloc(1, sizeof(*sp->perf));
	return sp->perf;
}

/* Does @node's PMA have a port 0 (a switch with an enhanced port 0)? */
static bool sim_perf_has_port0(const struct sim_fabric *f, uint32_t node)
{
	const struct topo_node *tn = &f->topo.nodes[node];

	return tn->type == MAD_NODE_SWITCH && tn->enhanced_port0;
}

static bool sim_perf_port_ok(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	return port <= f->topo.nodes[node].nports && (port >= 1 || sim_perf_has_port0(f, node));
}

/* The PortXmitWait tick of @port of @node, in ps, at the rate its link
 * trained to (port 0, a link down: none, SDR's), by the rule of the node's
 * vendor and device IDs (the topology file's vendid/devid). */
static uint32_t sim_perf_tick_ps(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	uint8_t width = 0, speed = 0;

	if (port)
		sim_link_rate(f, node, port, &width, &speed);
	const struct topo_node *tn = &f->topo.nodes[node];

	return mad_perf_node_tick_ps(tn->vendor_id, tn->device_id, f->nodes[node].perf_tick,
				     width, speed);
}

static void sim_perf_add_locked(struct sim_perf *p, const struct sim_perf_delta *a)
{
	struct mad_port_counters *pc = &p->pc;
	struct mad_port_counters_ext *pce = &p->pce;

	pc->symbol_errors = (uint16_t)sat_add(pc->symbol_errors, a->symbol_errors, UINT16_MAX);
	pc->link_error_recovery = (uint8_t)sat_add(pc->link_error_recovery,
						   a->link_error_recovery, UINT8_MAX);
	pc->link_downed = (uint8_t)sat_add(pc->link_downed, a->link_downed, UINT8_MAX);
	pc->rcv_errors = (uint16_t)sat_add(pc->rcv_errors, a->rcv_errors, UINT16_MAX);
	pc->xmit_discards = (uint16_t)sat_add(pc->xmit_discards, a->xmit_discards, UINT16_MAX);
	pc->rcv_remote_phys_errors = (uint16_t)sat_add(pc->rcv_remote_phys_errors,
						       a->rcv_remote_phys_errors, UINT16_MAX);
	pc->rcv_switch_relay_errors = (uint16_t)sat_add(pc->rcv_switch_relay_errors,
							a->rcv_switch_relay_errors, UINT16_MAX);
	pc->xmit_constraint_errors = (uint8_t)sat_add(pc->xmit_constraint_errors,
						      a->xmit_constraint_errors, UINT8_MAX);
	pc->rcv_constraint_errors = (uint8_t)sat_add(pc->rcv_constraint_errors,
						     a->rcv_constraint_errors, UINT8_MAX);
	pc->local_link_integrity_errors = (uint8_t)sat_add(pc->local_link_integrity_errors,
							   a->local_link_integrity_errors, 0xf);
	pc->excessive_buffer_overrun_errors =
		(uint8_t)sat_add(pc->excessive_buffer_overrun_errors,
				 a->excessive_buffer_overrun_errors, 0xf);
	pc->vl15_dropped = (uint16_t)sat_add(pc->vl15_dropped, a->vl15_dropped, UINT16_MAX);
	/* packets: unicast ones, then multicast ones, both among all */
	uint64_t xmit_pkts = sat_add(a->xmit_pkts, a->multicast_xmit_pkts, UINT64_MAX);
	uint64_t rcv_pkts = sat_add(a->rcv_pkts, a->multicast_rcv_pkts, UINT64_MAX);
	pc->xmit_data = (uint32_t)sat_add(pc->xmit_data, a->xmit_data, UINT32_MAX);
	pc->rcv_data = (uint32_t)sat_add(pc->rcv_data, a->rcv_data, UINT32_MAX);
	pc->xmit_pkts = (uint32_t)sat_add(pc->xmit_pkts, xmit_pkts, UINT32_MAX);
	pc->rcv_pkts = (uint32_t)sat_add(pc->rcv_pkts, rcv_pkts, UINT32_MAX);
	pc->xmit_wait = (uint32_t)sat_add(pc->xmit_wait, a->xmit_wait, UINT32_MAX);
	pce->xmit_data = sat_add(pce->xmit_data, a->xmit_data, UINT64_MAX);
	pce->rcv_data = sat_add(pce->rcv_data, a->rcv_data, UINT64_MAX);
	pce->xmit_pkts = sat_add(pce->xmit_pkts, xmit_pkts, UINT64_MAX);
	pce->rcv_pkts = sat_add(pce->rcv_pkts, rcv_pkts, UINT64_MAX);
	pce->unicast_xmit_pkts = sat_add(pce->unicast_xmit_pkts, a->xmit_pkts, UINT64_MAX);
	pce->unicast_rcv_pkts = sat_add(pce->unicast_rcv_pkts, a->rcv_pkts, UINT64_MAX);
	pce->multicast_xmit_pkts = sat_add(pce->multicast_xmit_pkts, a->multicast_xmit_pkts,
					   UINT64_MAX);
	pce->multicast_rcv_pkts = sat_add(pce->multicast_rcv_pkts, a->multicast_rcv_pkts,
					  UINT64_MAX);
}

int sim_perf_add(struct sim_fabric *f, uint32_t node, uint8_t port,
		 const struct sim_perf_delta *a)
{
	if (node >= f->topo.n || !sim_perf_port_ok(f, node, port))
		return -EINVAL;
	pthread_mutex_lock(&f->mu);
	struct sim_perf *p = sim_perf_of(f, node, port);
	if (p)
		sim_perf_add_locked(p, a);
	pthread_mutex_unlock(&f->mu);
	return p ? 0 : -ENOMEM;
}

/* Count what @p's steady rate sent up to @now_ms, its waiting time in ticks
 * of @tick_ps (lock held). */
static void sim_perf_advance(struct sim_perf *p, uint64_t now_ms, uint32_t tick_ps)
{
	uint64_t dt = now_ms > p->rate_ms ? now_ms - p->rate_ms : 0;
	uint64_t add[SIM_PERF_RATED];

	p->rate_ms = now_ms;
	for (unsigned i = 0; i < SIM_PERF_RATED; i++) {
		double per_ms = i == SIM_PERF_RATED - 1 ? p->per_ms[i] * 1000 / tick_ps
							 : p->per_ms[i];
		double x = per_ms * (double)dt + p->carry[i];
		add[i] = x < 1 ? 0 : x >= 1.8e19 ? UINT64_MAX : (uint64_t)x;
		p->carry[i] = x < 1 ? x : x - (double)add[i];
	}
	const struct sim_perf_delta d = { .xmit_data = add[0], .rcv_data = add[1],
					  .xmit_pkts = add[2], .rcv_pkts = add[3],
					  .xmit_wait = add[4] };
	sim_perf_add_locked(p, &d);
}

int sim_perf_set_rate(struct sim_fabric *f, uint32_t node, uint8_t port,
		      const struct sim_perf_rate *r)
{
	const double v[SIM_PERF_RATED] = { r->xmit_data, r->rcv_data, r->xmit_pkts,
					   r->rcv_pkts, r->xmit_wait_ns };

	if (node >= f->topo.n || !sim_perf_port_ok(f, node, port))
		return -EINVAL;
	for (unsigned i = 0; i < SIM_PERF_RATED; i++)
		if (!(v[i] >= 0 && v[i] <= 1e15))	/* NaN too */
			return -EINVAL;
	pthread_mutex_lock(&f->mu);
	struct sim_perf *p = sim_perf_of(f, node, port);
	if (p) {
		sim_perf_advance(p, mad_now_ms(), sim_perf_tick_ps(f, node, port));
		memcpy(p->per_ms, v, sizeof(v));
	}
	pthread_mutex_unlock(&f->mu);
	return p ? 0 : -ENOMEM;
}

int sim_set_traffic(struct sim_fabric *f, const char *pattern)
{
	size_t n = strlen(pattern);

	if (n >= sizeof(f->traffic) || strspn(pattern, "abcdefghijklmnopqrstuvwxyz") != n)
		return -EINVAL;
	memcpy(f->traffic, pattern, n + 1);
	return 0;
}

const char *sim_traffic(const struct sim_fabric *f)
{
	return f->traffic;
}

int sim_perf_get(const struct sim_fabric *f, uint32_t node, uint8_t port,
		 struct mad_port_counters *pc, struct mad_port_counters_ext *pce)
{
	if (node >= f->topo.n || !sim_perf_port_ok(f, node, port))
		return -EINVAL;
	const struct sim_perf *p = f->nodes[node].ports[port].perf;
	memset(pc, 0, sizeof(*pc));
	memset(pce, 0, sizeof(*pce));
	if (p) {
		*pc = p->pc;
		*pce = p->pce;
	}
	pc->port_select = pce->port_select = port;
	return 0;
}

int sim_perf_set_caps(struct sim_fabric *f, uint32_t node, uint16_t cap_mask)
{
	if (node >= f->topo.n)
		return -EINVAL;
	f->nodes[node].perf_caps_set = true;
	f->nodes[node].perf_caps = cap_mask;
	return 0;
}

int sim_perf_set_tick(struct sim_fabric *f, uint32_t node, int tick)
{
	if (node >= f->topo.n || tick < SIM_PSC_SILENT || tick > UINT8_MAX)
		return -EINVAL;
	f->nodes[node].perf_psc = (int8_t)(tick < 0 ? tick : 0);
	f->nodes[node].perf_tick = tick < 0 ? 0 : (uint8_t)tick;
	return 0;
}

static uint16_t sim_perf_caps(const struct sim_fabric *f, uint32_t node)
{
	return f->nodes[node].perf_caps_set ? f->nodes[node].perf_caps : SIM_PERF_CAPS;
}

void sim_perf_link_downed(struct sim_fabric *f, uint32_t node, uint8_t port)
{
	static const struct sim_perf_delta one = { .link_downed = 1 };
	struct sim_perf *p = sim_perf_of(f, node, port);

	if (p)
		sim_perf_add_locked(p, &one);
}

static const struct {
	const char *name;
	size_t offset;
} sim_perf_names[] = {
#define SIM_PERF_COUNTER(m) { #m, offsetof(struct sim_perf_delta, m) }
	SIM_PERF_COUNTER(xmit_data), SIM_PERF_COUNTER(rcv_data), SIM_PERF_COUNTER(xmit_pkts),
	SIM_PERF_COUNTER(rcv_pkts), SIM_PERF_COUNTER(xmit_wait),
	SIM_PERF_COUNTER(symbol_errors), SIM_PERF_COUNTER(link_error_recovery),
	SIM_PERF_COUNTER(link_downed), SIM_PERF_COUNTER(rcv_errors),
	SIM_PERF_COUNTER(xmit_discards), SIM_PERF_COUNTER(rcv_remote_phys_errors),
	SIM_PERF_COUNTER(rcv_switch_relay_errors), SIM_PERF_COUNTER(xmit_constraint_errors),
	SIM_PERF_COUNTER(rcv_constraint_errors), SIM_PERF_COUNTER(local_link_integrity_errors),
	SIM_PERF_COUNTER(excessive_buffer_overrun_errors), SIM_PERF_COUNTER(vl15_dropped),
	SIM_PERF_COUNTER(multicast_xmit_pkts), SIM_PERF_COUNTER(multicast_rcv_pkts),
#undef SIM_PERF_COUNTER
};

int sim_perf_counter_index(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(sim_perf_names) / sizeof(sim_perf_names[0]); i++)
		if (strlen(sim_perf_names[i].name) == len &&
		    !strncmp(sim_perf_names[i].name, name, len))
			return (int)i;
	return -1;
}

void sim_perf_add_one(struct sim_fabric *f, uint32_t node, uint8_t port, int counter,
		      uint64_t count)
{
	struct sim_perf_delta d = { 0 };
	struct sim_perf *p = sim_perf_of(f, node, port);

	*(uint64_t *)((char *)&d + sim_perf_names[counter].offset) = count;
	if (p)
		sim_perf_add_locked(p, &d);
}

/* ---- the agent ---- */

/* Set: every counter @sel (and @sel2) picks takes its value from @in. */
static void pc_set(struct mad_port_counters *pc, const struct mad_port_counters *in,
		   unsigned sel, unsigned sel2)
{
#define PC_PICK(bit, field) do { if (sel & (bit)) pc->field = in->field; } while (0)
	PC_PICK(MAD_PC_SEL_SYMBOL_ERR, symbol_errors);
	PC_PICK(MAD_PC_SEL_LINK_RECOVER, link_error_recovery);
	PC_PICK(MAD_PC_SEL_LINK_DOWNED, link_downed);
	PC_PICK(MAD_PC_SEL_RCV_ERR, rcv_errors);
	PC_PICK(MAD_PC_SEL_RCV_REMOTE_PHYS, rcv_remote_phys_errors);
	PC_PICK(MAD_PC_SEL_RCV_SWITCH_RELAY, rcv_switch_relay_errors);
	PC_PICK(MAD_PC_SEL_XMIT_DISCARDS, xmit_discards);
	PC_PICK(MAD_PC_SEL_XMIT_CONSTRAINT, xmit_constraint_errors);
	PC_PICK(MAD_PC_SEL_RCV_CONSTRAINT, rcv_constraint_errors);
	PC_PICK(MAD_PC_SEL_LOCAL_LINK_INTEGRITY, local_link_integrity_errors);
	PC_PICK(MAD_PC_SEL_EXCESSIVE_OVERRUN, excessive_buffer_overrun_errors);
	PC_PICK(MAD_PC_SEL_VL15_DROPPED, vl15_dropped);
	PC_PICK(MAD_PC_SEL_XMIT_DATA, xmit_data);
	PC_PICK(MAD_PC_SEL_RCV_DATA, rcv_data);
	PC_PICK(MAD_PC_SEL_XMIT_PKTS, xmit_pkts);
	PC_PICK(MAD_PC_SEL_RCV_PKTS, rcv_pkts);
#undef PC_PICK
	if (sel2 & MAD_PC_SEL2_XMIT_WAIT)
		pc->xmit_wait = in->xmit_wait;
}

static void pce_set(struct mad_port_counters_ext *pce, const struct mad_port_counters_ext *in,
		    unsigned sel)
{
	uint64_t *dst[] = { &pce->xmit_data, &pce->rcv_data, &pce->xmit_pkts, &pce->rcv_pkts,
			    &pce->unicast_xmit_pkts, &pce->unicast_rcv_pkts,
			    &pce->multicast_xmit_pkts, &pce->multicast_rcv_pkts };
	const uint64_t *src[] = { &in->xmit_data, &in->rcv_data, &in->xmit_pkts, &in->rcv_pkts,
				  &in->unicast_xmit_pkts, &in->unicast_rcv_pkts,
				  &in->multicast_xmit_pkts, &in->multicast_rcv_pkts };

	for (unsigned i = 0; i < 8; i++)
		if (sel & 1u << i)
			*dst[i] = *src[i];
}

/* The sum of @b into @a, each field saturating at its width (AllPortSelect). */
static void perf_sum(struct sim_perf *a, const struct sim_perf *b)
{
#define SUM(x, max) (a->x = sat_add(a->x, b->x, max))
	SUM(pc.symbol_errors, UINT16_MAX);
	SUM(pc.link_error_recovery, UINT8_MAX);
	SUM(pc.link_downed, UINT8_MAX);
	SUM(pc.rcv_errors, UINT16_MAX);
	SUM(pc.rcv_remote_phys_errors, UINT16_MAX);
	SUM(pc.rcv_switch_relay_errors, UINT16_MAX);
	SUM(pc.xmit_discards, UINT16_MAX);
	SUM(pc.xmit_constraint_errors, UINT8_MAX);
	SUM(pc.rcv_constraint_errors, UINT8_MAX);
	SUM(pc.local_link_integrity_errors, 0xf);
	SUM(pc.excessive_buffer_overrun_errors, 0xf);
	SUM(pc.vl15_dropped, UINT16_MAX);
	SUM(pc.xmit_data, UINT32_MAX);
	SUM(pc.rcv_data, UINT32_MAX);
	SUM(pc.xmit_pkts, UINT32_MAX);
	SUM(pc.rcv_pkts, UINT32_MAX);
	SUM(pc.xmit_wait, UINT32_MAX);
	SUM(pce.xmit_data, UINT64_MAX);
	SUM(pce.rcv_data, UINT64_MAX);
	SUM(pce.xmit_pkts, UINT64_MAX);
	SUM(pce.rcv_pkts, UINT64_MAX);
	SUM(pce.unicast_xmit_pkts, UINT64_MAX);
	SUM(pce.unicast_rcv_pkts, UINT64_MAX);
	SUM(pce.multicast_xmit_pkts, UINT64_MAX);
	SUM(pce.multicast_rcv_pkts, UINT64_MAX);
#undef SUM
}

/* Answer a PortCounters or PortCountersExtended request at @node in place. */
static uint16_t sim_perf_counters(struct sim_fabric *f, uint32_t node, struct mad_perf *pm)
{
	bool ext = pm->attr_id == MAD_PERF_ATTR_PORT_COUNTERS_EXT;
	struct mad_port_counters pc;
	struct mad_port_counters_ext pce;
	uint8_t nports = f->topo.nodes[node].nports;

	if (ext && !(sim_perf_caps(f, node) & MAD_PERF_CAP_EXT_WIDTH))
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	if (ext)
		mad_port_counters_ext_decode(pm->data, &pce);
	else
		mad_port_counters_decode(pm->data, &pc);
	uint8_t sel = ext ? pce.port_select : pc.port_select;
	uint8_t first = sel, last = sel;
	if (sel == MAD_PERF_ALL_PORTS) {
		first = sim_perf_has_port0(f, node) ? 0 : 1;
		last = nports;
	} else if (!sim_perf_port_ok(f, node, sel)) {
		return MAD_STATUS_INVALID_FIELD;
	}
	struct sim_perf sum = { 0 };
	uint64_t now = mad_now_ms();
	for (unsigned p = first; p <= last; p++) {
		struct sim_perf *sp = sim_perf_of(f, node, (uint8_t)p);
		if (!sp)
			return MAD_STATUS_BUSY;
		sim_perf_advance(sp, now, sim_perf_tick_ps(f, node, (uint8_t)p));
		if (pm->method == MAD_METHOD_SET && ext)
			pce_set(&sp->pce, &pce, pce.counter_select);
		else if (pm->method == MAD_METHOD_SET)
			pc_set(&sp->pc, &pc, pc.counter_select, pc.counter_select2);
		perf_sum(&sum, sp);
	}
	if (ext) {
		sum.pce.port_select = sel;
		sum.pce.counter_select = pce.counter_select;
		mad_port_counters_ext_encode(&sum.pce, pm->data);
	} else {
		sum.pc.port_select = sel;
		sum.pc.counter_select = pc.counter_select;
		sum.pc.counter_select2 = pc.counter_select2;
		mad_port_counters_encode(&sum.pc, pm->data);
	}
	return 0;
}

static uint16_t sim_perf_class_port_info(struct sim_fabric *f, uint32_t node,
					 struct mad_perf *pm)
{
	struct mad_class_port_info cpi = {
		.base_version = 1, .class_version = MAD_PERF_CLASS_VERSION,
		.cap_mask = sim_perf_caps(f, node), .resp_time_value = 18,
	};

	if (pm->method != MAD_METHOD_GET)
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	memset(pm->data, 0, sizeof(pm->data));
	mad_class_port_info_encode(&cpi, pm->data);
	return 0;
}

/* PortSamplesControl: the node's Tick for a port it has (no sampling). */
static uint16_t sim_perf_samples_control(struct sim_fabric *f, uint32_t node,
					 struct mad_perf *pm)
{
	struct mad_port_samples_control psc;

	if (f->nodes[node].perf_psc == SIM_PSC_REFUSED)
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	mad_port_samples_control_decode(pm->data, &psc);
	if (psc.port_select != MAD_PERF_ALL_PORTS && !sim_perf_port_ok(f, node, psc.port_select))
		return MAD_STATUS_INVALID_FIELD;
	psc = (struct mad_port_samples_control){
		.port_select = psc.port_select, .tick = f->nodes[node].perf_tick,
	};
	memset(pm->data, 0, sizeof(pm->data));
	mad_port_samples_control_encode(&psc, pm->data);
	return 0;
}

static uint16_t sim_perf_answer(struct sim_fabric *f, uint32_t node, struct mad_perf *pm)
{
	if (pm->class_version != MAD_PERF_CLASS_VERSION)
		return MAD_STATUS_BAD_VERSION;
	if (pm->method != MAD_METHOD_GET && pm->method != MAD_METHOD_SET)
		return MAD_STATUS_METHOD_UNSUPPORTED;
	switch (pm->attr_id) {
	case MAD_PERF_ATTR_CLASS_PORT_INFO:
		return sim_perf_class_port_info(f, node, pm);
	case MAD_PERF_ATTR_PORT_SAMPLES_CONTROL:
		return sim_perf_samples_control(f, node, pm);
	case MAD_PERF_ATTR_PORT_COUNTERS:
	case MAD_PERF_ATTR_PORT_COUNTERS_EXT:
		return sim_perf_counters(f, node, pm);
	default:
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	}
}

void sim_perf_request(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
		      const struct mad_addr *to)
{
	struct mad_perf pm;
	uint32_t node = f->sms[sm].node;
	uint8_t port = f->sms[sm].port;
	uint8_t buf[MAD_BLOCK_SIZE];

	if (mad_perf_decode(mad, MAD_BLOCK_SIZE, &pm) || !mad_method_is_request(pm.method) ||
	    !to || !sim_lid_walk(f, &node, &port, to->lid) || f->nodes[node].dead ||
	    (pm.attr_id == MAD_PERF_ATTR_PORT_SAMPLES_CONTROL &&
	     f->nodes[node].perf_psc == SIM_PSC_SILENT)) {
		f->stats.dropped++;
		return;
	}
	f->stats.perf_in++;
	pm.status = sim_perf_answer(f, node, &pm);
	pm.method = MAD_METHOD_GET_RESP;
	mad_perf_encode(&pm, buf);
	struct mad_addr from = { .lid = sim_addr_port(f, node, port)->lid, .qpn = MAD_PERF_QPN };
	sim_queue_push_raw(f, sm, buf, &from);
}

void sim_perf_free(struct sim_port *sp)
{
	free(sp->perf);
	sp->perf = NULL;
}

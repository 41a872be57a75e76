// SPDX-License-Identifier: MIT
/*
 * sm_link.c - link timers, thresholds and enabled rates; degraded links.
 *
 * The sweep's PortInfo phase (sm_program.c) builds each port's Set from what
 * the port reported and asks sm_link_port_wanted() for the link parameters,
 * so a value already right costs no SMP.  A link is degraded when it trained
 * below the best its two ends have in common: that is a cable, a port or an
 * earlier setting, and an operator wants it in `smquery links`.
 */
#include "mad/mad_rate.h"
#include "sm/sm_link.h"
#include "sm/sm_log.h"

static bool set_if(uint8_t *field, uint8_t value)
{
	bool change = *field != value;

	*field = value;
	return change;
}

/* Enabled fields: "all supported" where less is enabled than supported. */
static bool enable_all(const struct sm_fabric *f, uint32_t n, unsigned p,
		       const struct mad_port_info *cur, struct mad_port_info *want)
{
	bool change = false;

	if (cur->link_width_enabled != cur->link_width_supported) {
		want->link_width_enabled = MAD_WIDTH_ENABLE_ALL;
		change = true;
	}
	if (cur->link_speed_enabled != cur->link_speed_supported) {
		want->link_speed_enabled = MAD_SPEED_ENABLE_ALL;
		change = true;
	}
	if (sm_fabric_ext_speeds(f, n, (uint8_t)p) &&
	    cur->link_speed_ext_enabled != cur->link_speed_ext_supported) {
		want->link_speed_ext_enabled = MAD_SPEED_EXT_ENABLE_ALL;
		change = true;
	}
	return change;
}

bool sm_link_port_wanted(const struct sm_config *cfg, const struct sm_fabric *f, uint32_t n,
			 unsigned p, struct mad_port_info *want)
{
	const struct topo_node *tn = &f->topo.nodes[n];
	const struct topo_port *tp = &tn->ports[p];
	const struct mad_port_info *cur = &f->attrs[n].pi[p];
	bool sw = tn->type == MAD_NODE_SWITCH;
	bool change = false;

	if (sw && p) {
		bool leaf = tp->peer != TOPO_NONE && f->topo.nodes[tp->peer].type != MAD_NODE_SWITCH;
		change |= set_if(&want->hoq_life, leaf ? cfg->hoq_life_leaf : cfg->hoq_life);
		change |= set_if(&want->vl_stall_count, cfg->vl_stall_count);
	}
	if (!sw || p == 0)
		change |= set_if(&want->subnet_timeout, cfg->subnet_timeout);
	if (p) {
		change |= set_if(&want->local_phys_errors, cfg->local_phy_errors);
		change |= set_if(&want->overrun_errors, cfg->overrun_errors);
		if (cfg->enable_all_supported)
			change |= enable_all(f, n, p, cur, want);
	}
	return change;
}

bool sm_link_switch_wanted(const struct sm_config *cfg, const struct mad_switch_info *cur,
			   struct mad_switch_info *want)
{
	*want = *cur;
	return set_if(&want->life_time, cfg->life_time);
}

/* What went wrong with the link at port @p of @n, TOPO_DEGRADED_* bits. */
static uint8_t degraded(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	const struct topo_port *tp = &f->topo.nodes[n].ports[p];
	uint32_t m = tp->peer;
	uint8_t q = tp->peer_port;

	if (!p || m == TOPO_NONE || tp->phys_state != MAD_PHYS_LINKUP ||
	    !f->attrs[n].pi_valid[p] || !f->attrs[m].pi_valid[q])
		return 0;
	const struct mad_port_info *a = &f->attrs[n].pi[p], *b = &f->attrs[m].pi[q];
	uint8_t width = mad_rate_best_width(a->link_width_supported & b->link_width_supported);
	uint8_t speed = mad_rate_best_speed(
		mad_port_speed_supported(a, sm_fabric_ext_speeds(f, n, (uint8_t)p)) &
		mad_port_speed_supported(b, sm_fabric_ext_speeds(f, m, q)));
	uint8_t d = 0;

	if (mad_rate_lanes(tp->width) < mad_rate_lanes(width))
		d |= TOPO_DEGRADED_WIDTH;
	if (mad_rate_lane_mbps(tp->speed) < mad_rate_lane_mbps(speed))
		d |= TOPO_DEGRADED_SPEED;
	return d;
}

unsigned sm_link_mark_degraded(struct sm_fabric *f)
{
	unsigned links = 0;

	for (uint32_t n = 0; n < f->topo.n; n++) {
		struct topo_node *tn = &f->topo.nodes[n];
		for (unsigned p = 0; p <= tn->nports; p++) {
			struct topo_port *tp = &tn->ports[p];
			tp->degraded = degraded(f, n, p);
			if (!tp->degraded)
				continue;
			const struct topo_node *peer = &f->topo.nodes[tp->peer];
			/* once per link: from the end with the lower (GUID, port) */
			if (tn->guid > peer->guid || (tn->guid == peer->guid && p > tp->peer_port))
				continue;
			links++;
			sm_warn("link 0x%016llx (%s) port %u <-> 0x%016llx (%s) port %u runs at "
				"%s%s, below what both ends support (%s%s)",
				(unsigned long long)tn->guid, tn->desc, p,
				(unsigned long long)peer->guid, peer->desc, tp->peer_port,
				mad_rate_width_name(tp->width, MAD_RATE_IBND),
				mad_rate_speed_name(tp->speed, MAD_RATE_IBND),
				tp->degraded & TOPO_DEGRADED_WIDTH ? "width" : "",
				tp->degraded == (TOPO_DEGRADED_WIDTH | TOPO_DEGRADED_SPEED)
					? " and speed" : tp->degraded & TOPO_DEGRADED_SPEED
					? "speed" : "");
		}
	}
	return links;
}

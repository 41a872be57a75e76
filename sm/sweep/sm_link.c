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
#include <errno.h>
#include <stdlib.h>

#include "mad/model/topo_rate.h"
#include "sm/sweep/sm_link.h"
#include "sm/util/sm_log.h"

static bool set_if(uint8_t *field, uint8_t value)
{
	bool change = *field != value;

	*field = value;
	return change;
}

static uint8_t refused_of(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	return f->attrs[n].refused ? f->attrs[n].refused[p] : 0;
}

static int refuse(struct sm_fabric *f, uint32_t n, unsigned p, uint8_t bits)
{
	struct sm_node_attrs *a = &f->attrs[n];

	if (!bits)
		return 0;
	if (!a->refused && !(a->refused = calloc((size_t)f->topo.nodes[n].nports + 1, 1)))
		return -ENOMEM;
	a->refused[p] |= bits;
	return 0;
}

/* What the last sweep learnt port @p of @n does not take, unless the port
 * came up since (INIT: possibly another device, or reset). */
static void carry_refused(struct sm_fabric *f, const struct sm_fabric *prev, uint32_t n,
			  unsigned p)
{
	const struct topo_node *tn = &f->topo.nodes[n];
	uint32_t o = prev ? topo_find_guid(&prev->topo, tn->guid) : TOPO_NONE;

	if (o == TOPO_NONE || prev->topo.nodes[o].nports != tn->nports ||
	    f->attrs[n].pi[p].port_state == MAD_PORT_INIT)
		return;
	refuse(f, n, p, refused_of(prev, o, p));	/* no memory: asked again, harmless */
}

/* Enabled fields: "all supported" where less is enabled than supported. */
static bool enable_all(const struct sm_fabric *f, uint32_t n, unsigned p, uint8_t refused,
		       const struct mad_port_info *cur, struct mad_port_info *want)
{
	bool change = false;

	if (!(refused & SM_LINK_WIDTH_ENABLED) &&
	    cur->link_width_enabled != cur->link_width_supported) {
		want->link_width_enabled = MAD_WIDTH_ENABLE_ALL;
		change = true;
	}
	if (!(refused & SM_LINK_SPEED_ENABLED) &&
	    cur->link_speed_enabled != cur->link_speed_supported) {
		want->link_speed_enabled = MAD_SPEED_ENABLE_ALL;
		change = true;
	}
	if (!(refused & SM_LINK_SPEED_EXT_ENABLED) && sm_fabric_ext_speeds(f, n, (uint8_t)p) &&
	    cur->link_speed_ext_enabled != cur->link_speed_ext_supported) {
		want->link_speed_ext_enabled = MAD_SPEED_EXT_ENABLE_ALL;
		change = true;
	}
	return change;
}

bool sm_link_port_wanted(const struct sm_config *cfg, struct sm_fabric *f,
			 const struct sm_fabric *prev, uint32_t n, unsigned p,
			 struct mad_port_info *want)
{
	const struct topo_node *tn = &f->topo.nodes[n];
	const struct topo_port *tp = &tn->ports[p];
	const struct mad_port_info *cur = &f->attrs[n].pi[p];
	bool sw = tn->type == MAD_NODE_SWITCH;
	bool change = false;

	carry_refused(f, prev, n, p);
	uint8_t refused = refused_of(f, n, p);
	if (sw && p) {
		bool leaf = tp->peer != TOPO_NONE && f->topo.nodes[tp->peer].type != MAD_NODE_SWITCH;
		if (!(refused & SM_LINK_HOQ_LIFE))
			change |= set_if(&want->hoq_life, leaf ? cfg->hoq_life_leaf : cfg->hoq_life);
		if (!(refused & SM_LINK_VL_STALL))
			change |= set_if(&want->vl_stall_count, cfg->vl_stall_count);
	}
	if ((!sw || p == 0) && !(refused & SM_LINK_SUBNET_TIMEOUT))
		change |= set_if(&want->subnet_timeout, cfg->subnet_timeout);
	if (p && !(refused & SM_LINK_ERROR_THRESHOLDS)) {
		change |= set_if(&want->local_phys_errors, cfg->local_phy_errors);
		change |= set_if(&want->overrun_errors, cfg->overrun_errors);
	}
	if (p && cfg->enable_all_supported)
		change |= enable_all(f, n, p, refused, cur, want);
	return change;
}

int sm_link_port_taken(struct sm_fabric *f, uint32_t n, unsigned p,
		       const struct mad_port_info *asked, const struct mad_port_info *got)
{
	uint8_t bits = 0;

	if (asked->link_width_enabled && got->link_width_enabled != got->link_width_supported)
		bits |= SM_LINK_WIDTH_ENABLED;
	if (asked->link_speed_enabled && got->link_speed_enabled != got->link_speed_supported)
		bits |= SM_LINK_SPEED_ENABLED;
	if (asked->link_speed_ext_enabled &&
	    got->link_speed_ext_enabled != got->link_speed_ext_supported)
		bits |= SM_LINK_SPEED_EXT_ENABLED;
	if (got->hoq_life != asked->hoq_life)
		bits |= SM_LINK_HOQ_LIFE;
	if (got->vl_stall_count != asked->vl_stall_count)
		bits |= SM_LINK_VL_STALL;
	if (got->subnet_timeout != asked->subnet_timeout)
		bits |= SM_LINK_SUBNET_TIMEOUT;
	if (got->local_phys_errors != asked->local_phys_errors ||
	    got->overrun_errors != asked->overrun_errors)
		bits |= SM_LINK_ERROR_THRESHOLDS;
	bits &= (uint8_t)~refused_of(f, n, p);
	if (!bits)
		return 0;
	static const char *const names[] = { "LinkWidthEnabled", "LinkSpeedEnabled",
					     "LinkSpeedExtEnabled", "HOQLife", "VLStallCount",
					     "SubnetTimeOut", "error thresholds" };
	const struct topo_node *tn = &f->topo.nodes[n];
	char list[160] = "";
	size_t used = 0;
	for (unsigned b = 0; b < sizeof(names) / sizeof(names[0]); b++)
		if (bits & (1u << b) && used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
						 used ? ", " : "", names[b]);
	sm_info("link parameters: 0x%016llx (%s) port %u did not take %s; not asked again",
		(unsigned long long)tn->guid, tn->desc, p, list);
	return refuse(f, n, p, bits);
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
			sm_info("link 0x%016llx (%s) port %u <-> 0x%016llx (%s) port %u runs at "
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
	if (links)
		sm_notice("%u links run narrower or slower than both their ends support "
			  "(smquery links, DEGRADED)", links);
	return links;
}

// SPDX-License-Identifier: MIT
/*
 * topo_view.c - the routing view of a topology (see topo_view.h).
 *
 * One pass over the nodes fills a node array and one flat port array (each
 * node's ports a slice of it), and marks every LID a port answers on (base ..
 * base + 2^LMC - 1) in the LID -> (node, port) index, and numbers the
 * switches (the view's switch index, routing ABI 2).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo_view.h"

void topo_view_free(struct topo_view *m)
{
	free(m->nodes);
	free(m->ports);
	free(m->lid_node);
	free(m->lid_port);
	free(m->switch_node);
	free(m->node_switch);
	memset(m, 0, sizeof(*m));
}

/* A phys state of 0 is unknown (that PortInfo was lost); a probe crossed
 * the link, so it counts as up unless an end says otherwise. */
static bool topo_view_end_up(const struct topo_port *tp)
{
	return tp->phys_state == MAD_PHYS_LINKUP || tp->phys_state == MAD_PHYS_NOP;
}

/* A link routing may use: both ends up, as far as anyone knows, and neither
 * end isolated. */
static bool topo_view_link_up(const struct topo *t, const struct topo_port *tp)
{
	if (tp->peer == TOPO_NONE)
		return false;
	const struct topo_port *pp = &t->nodes[tp->peer].ports[tp->peer_port];
	return topo_view_end_up(tp) && topo_view_end_up(pp) && !tp->isolated && !pp->isolated;
}

int topo_view_build(const struct topo *t, uint16_t max_lid, struct topo_view *m)
{
	size_t nports = 0;

	memset(m, 0, sizeof(*m));
	for (uint32_t n = 0; n < t->n; n++)
		nports += (size_t)t->nodes[n].nports + 1;
	m->nodes = calloc(t->n + 1, sizeof(*m->nodes));
	m->ports = calloc(nports + 1, sizeof(*m->ports));
	m->lid_node = malloc(((size_t)max_lid + 1) * sizeof(*m->lid_node));
	m->lid_port = calloc((size_t)max_lid + 1, sizeof(*m->lid_port));
	m->switch_node = malloc(((size_t)t->n + 1) * sizeof(*m->switch_node));
	m->node_switch = malloc(((size_t)t->n + 1) * sizeof(*m->node_switch));
	if (!m->nodes || !m->ports || !m->lid_node || !m->lid_port || !m->switch_node ||
	    !m->node_switch) {
		topo_view_free(m);
		return -ENOMEM;
	}
	for (uint32_t l = 0; l <= max_lid; l++)
		m->lid_node[l] = IBSMD_NO_NODE;
	struct ibsmd_rt_port *rp = m->ports;
	uint32_t nswitches = 0;
	for (uint32_t n = 0; n < t->n; n++) {
		const struct topo_node *tn = &t->nodes[n];
		m->node_switch[n] = IBSMD_NO_NODE;
		if (tn->type == MAD_NODE_SWITCH)
			m->switch_node[m->node_switch[n] = nswitches++] = n;
		m->nodes[n] = (struct ibsmd_rt_node){ .guid = tn->guid, .type = tn->type,
			.nports = tn->nports, .desc = tn->desc, .ports = rp };
		for (unsigned p = 0; p <= tn->nports; p++, rp++) {
			const struct topo_port *tp = &tn->ports[p];
			bool up = topo_view_link_up(t, tp);
			*rp = (struct ibsmd_rt_port){ .peer = up ? tp->peer : IBSMD_NO_NODE,
				.peer_port = up ? tp->peer_port : 0, .lid = tp->lid, .lmc = tp->lmc,
				.width = tp->width, .speed = tp->speed, .guid = tp->guid };
			for (unsigned l = 0; tp->lid && l < (1u << tp->lmc); l++)
				if (tp->lid + l <= max_lid) {
					m->lid_node[tp->lid + l] = n;
					m->lid_port[tp->lid + l] = (uint8_t)p;
				}
		}
	}
	m->v = (struct ibsmd_rt_view){ .nnodes = t->n, .nodes = m->nodes, .max_lid = max_lid,
		.lid_node = m->lid_node, .lid_port = m->lid_port, .nswitches = nswitches,
		.switch_node = m->switch_node, .node_switch = m->node_switch };
	return 0;
}

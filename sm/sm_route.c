// SPDX-License-Identifier: MIT
/*
 * sm_route.c - build struct ibsmd_rt_view from the sweep's fabric and run the
 * engine chain over it (routing/rt_chain.c).  The view borrows the topology's
 * strings; the arrays it owns live until sm_route() returns, the LFT rows until
 * sm_routes_free().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sm_log.h"
#include "sm/sm_route.h"

static void rt_log(int prio, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sm_log(prio, "%s", msg);
}

struct view_mem {
	struct ibsmd_rt_view v;
	struct ibsmd_rt_node *nodes;
	struct ibsmd_rt_port *ports;
	uint32_t *lid_node;
	uint8_t *lid_port;
};

static void view_free(struct view_mem *m)
{
	free(m->nodes);
	free(m->ports);
	free(m->lid_node);
	free(m->lid_port);
}

static bool link_up(const struct topo_port *tp)
{
	return tp->peer != TOPO_NONE && tp->phys_state == MAD_PHYS_LINKUP;
}

static int view_build(const struct sm_fabric *f, uint16_t max_lid, struct view_mem *m)
{
	const struct topo *t = &f->topo;
	size_t nports = 0;

	memset(m, 0, sizeof(*m));
	for (uint32_t n = 0; n < t->n; n++)
		nports += (size_t)t->nodes[n].nports + 1;
	m->nodes = calloc(t->n + 1, sizeof(*m->nodes));
	m->ports = calloc(nports + 1, sizeof(*m->ports));
	m->lid_node = malloc(((size_t)max_lid + 1) * sizeof(*m->lid_node));
	m->lid_port = calloc((size_t)max_lid + 1, sizeof(*m->lid_port));
	if (!m->nodes || !m->ports || !m->lid_node || !m->lid_port) {
		view_free(m);
		return -ENOMEM;
	}
	for (uint32_t l = 0; l <= max_lid; l++)
		m->lid_node[l] = IBSMD_NO_NODE;
	struct ibsmd_rt_port *rp = m->ports;
	for (uint32_t n = 0; n < t->n; n++) {
		const struct topo_node *tn = &t->nodes[n];
		m->nodes[n] = (struct ibsmd_rt_node){ .guid = tn->guid, .type = tn->type,
			.nports = tn->nports, .desc = tn->desc, .ports = rp };
		for (unsigned p = 0; p <= tn->nports; p++, rp++) {
			const struct topo_port *tp = &tn->ports[p];
			bool up = link_up(tp);
			*rp = (struct ibsmd_rt_port){ .peer = up ? tp->peer : IBSMD_NO_NODE,
				.peer_port = up ? tp->peer_port : 0, .lid = tp->lid, .lmc = tp->lmc,
				.width = tp->width, .speed = tp->speed };
			for (unsigned l = 0; tp->lid && l < (1u << tp->lmc); l++)
				if (tp->lid + l <= max_lid) {
					m->lid_node[tp->lid + l] = n;
					m->lid_port[tp->lid + l] = (uint8_t)p;
				}
		}
	}
	m->v = (struct ibsmd_rt_view){ .nnodes = t->n, .nodes = m->nodes, .max_lid = max_lid,
		.lid_node = m->lid_node, .lid_port = m->lid_port };
	return 0;
}

void sm_routes_free(struct sm_routes *r)
{
	for (uint32_t n = 0; r->lft && n < r->nnodes; n++)
		free(r->lft[n]);
	free(r->lft);
	memset(r, 0, sizeof(*r));
}

int sm_route(const struct sm_fabric *f, uint16_t max_lid, const struct sm_config *cfg,
	     struct sm_routes *out)
{
	struct view_mem m;
	const char *names[SM_MAX_ENGINES];
	int rc;

	memset(out, 0, sizeof(*out));
	rc = view_build(f, max_lid, &m);
	if (rc)
		return rc;
	out->nnodes = f->topo.n;
	out->max_lid = max_lid;
	out->lft = calloc(f->topo.n + 1, sizeof(*out->lft));
	rc = out->lft ? 0 : -ENOMEM;
	/* whole LFT blocks, so the last block can be sent as it is */
	size_t row = ((size_t)max_lid / MAD_LFT_BLOCK + 1) * MAD_LFT_BLOCK;
	for (uint32_t n = 0; rc == 0 && n < f->topo.n; n++) {
		if (f->topo.nodes[n].type != MAD_NODE_SWITCH)
			continue;
		if (!(out->lft[n] = malloc(row)))
			rc = -ENOMEM;
		else
			memset(out->lft[n], MAD_LFT_NO_PORT, row);
	}
	struct ibsmd_rt_ctx ctx = { .view = &m.v, .lft = out->lft, .log = rt_log };
	for (unsigned i = 0; i < cfg->nrouting; i++)
		names[i] = cfg->routing[i];
	if (rc == 0)
		rc = rt_chain_run(names, cfg->nrouting, PKGLIBDIR, &ctx, &out->check);
	view_free(&m);
	if (rc < 0) {
		sm_routes_free(out);
		return rc;
	}
	out->engine = cfg->routing[rc];
	return 0;
}

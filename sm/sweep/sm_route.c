// SPDX-License-Identifier: MIT
/*
 * sm_route.c - build struct ibsmd_rt_view from the sweep's fabric (mad/model/topo_view.c)
 * and run the engine chain over it (routing/rt_chain.c).  The view borrows the
 * topology's strings; the arrays it owns live until sm_route() returns, the
 * LFT rows until sm_routes_free().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_ar.h"
#include "sm/util/sm_log.h"
#include "sm/sweep/sm_route.h"
#include "mad/model/topo_view.h"

static void rt_log(int prio, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sm_log(prio, "%s", msg);
}

/* Rows for the AR groups of @f's AR-capable switches; 0 when it has none. */
static int ar_rows(const struct sm_fabric *f, struct sm_routes *out)
{
	uint32_t cap = RT_AR_MAX_GROUPS;
	bool any = false;

	for (uint32_t n = 0; n < f->topo.n; n++)
		if (f->attrs[n].ar_group_cap > 1) {
			any = true;
			cap = f->attrs[n].ar_group_cap - 1u < cap ? f->attrs[n].ar_group_cap - 1u : cap;
		}
	if (!any)
		return 0;
	out->ar.group_cap = (uint16_t)cap;
	out->ar.lid_group = calloc(f->topo.n + 1, sizeof(*out->ar.lid_group));
	out->ar.groups = calloc(f->topo.n + 1, sizeof(*out->ar.groups));
	if (!out->ar.lid_group || !out->ar.groups)
		return -ENOMEM;
	for (uint32_t n = 0; n < f->topo.n; n++) {
		if (f->attrs[n].ar_group_cap < 2 || f->topo.nodes[n].type != MAD_NODE_SWITCH)
			continue;
		out->ar.lid_group[n] = calloc(sm_routes_ar_row(out), sizeof(uint16_t));
		out->ar.groups[n] = calloc(cap, sizeof(*out->ar.groups[n]));
		if (!out->ar.lid_group[n] || !out->ar.groups[n])
			return -ENOMEM;
	}
	return 0;
}

int sm_route_prepare(const struct sm_fabric *f, uint16_t max_lid, struct topo_view *m,
		     struct sm_routes *out)
{
	memset(out, 0, sizeof(*out));
	int rc = topo_view_build(&f->topo, max_lid, m);
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
	if (rc == 0)
		rc = ar_rows(f, out);
	if (rc) {
		sm_routes_free(out);
		topo_view_free(m);
	}
	return rc;
}

int sm_route_view(const struct topo_view *m, const struct sm_config *cfg,
		  struct sm_routes *out)
{
	const char *names[SM_MAX_ENGINES];
	const char *options[SM_MAX_ROUTING_OPTIONS];
	int rc;

	for (unsigned i = 0; i < cfg->nrouting_options; i++)
		options[i] = cfg->routing_options[i];
	struct ibsmd_rt_ctx ctx = { .view = &m->v, .lft = out->lft, .log = rt_log,
				    .options = options, .noptions = cfg->nrouting_options,
				    .ar = out->ar.lid_group ? &out->ar : NULL };
	for (unsigned i = 0; i < cfg->nrouting; i++)
		names[i] = cfg->routing[i];
	const struct rt_plugin_limits limits = { .timeout_ms = cfg->plugin_timeout_s * 1000,
						 .memory_mb = cfg->plugin_memory_mb };
	rc = rt_chain_run_sls(names, cfg->nrouting, PKGLIBDIR, &limits, &ctx, &out->check,
			      &out->sls);
	if (rc < 0) {
		sm_routes_free(out);
		return rc;
	}
	out->engine = cfg->routing[rc];
	return 0;
}

int sm_route(const struct sm_fabric *f, uint16_t max_lid, const struct sm_config *cfg,
	     struct sm_routes *out)
{
	struct topo_view m;
	int rc = sm_route_prepare(f, max_lid, &m, out);

	if (rc)
		return rc;
	rc = sm_route_view(&m, cfg, out);
	topo_view_free(&m);
	return rc;
}

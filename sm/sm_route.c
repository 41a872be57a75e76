// SPDX-License-Identifier: MIT
/*
 * sm_route.c - build struct ibsmd_rt_view from the sweep's fabric (db/model/topo_view.c)
 * and run the engine chain over it (routing/rt_chain.c).  The view borrows the
 * topology's strings; the arrays it owns live until sm_route() returns, the
 * LFT rows until sm_routes_free().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sm_log.h"
#include "sm/sm_route.h"
#include "db/model/topo_view.h"

static void rt_log(int prio, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sm_log(prio, "%s", msg);
}

void sm_routes_free(struct sm_routes *r)
{
	for (uint32_t n = 0; r->lft && n < r->nnodes; n++)
		free(r->lft[n]);
	free(r->lft);
	rt_path_sls_free(&r->sls);
	memset(r, 0, sizeof(*r));
}

int sm_route_view(const struct topo_view *m, const struct sm_config *cfg,
		  struct sm_routes *out)
{
	const struct ibsmd_rt_view *v = &m->v;
	const char *names[SM_MAX_ENGINES];
	int rc;

	memset(out, 0, sizeof(*out));
	out->nnodes = v->nnodes;
	out->max_lid = v->max_lid;
	out->lft = calloc(v->nnodes + 1, sizeof(*out->lft));
	rc = out->lft ? 0 : -ENOMEM;
	/* whole LFT blocks, so the last block can be sent as it is */
	size_t row = ((size_t)v->max_lid / MAD_LFT_BLOCK + 1) * MAD_LFT_BLOCK;
	for (uint32_t n = 0; rc == 0 && n < v->nnodes; n++) {
		if (!ibsmd_is_switch(v, n))
			continue;
		if (!(out->lft[n] = malloc(row)))
			rc = -ENOMEM;
		else
			memset(out->lft[n], MAD_LFT_NO_PORT, row);
	}
	const char *options[SM_MAX_ROUTING_OPTIONS];
	for (unsigned i = 0; i < cfg->nrouting_options; i++)
		options[i] = cfg->routing_options[i];
	struct ibsmd_rt_ctx ctx = { .view = v, .lft = out->lft, .log = rt_log,
				    .options = options, .noptions = cfg->nrouting_options };
	for (unsigned i = 0; i < cfg->nrouting; i++)
		names[i] = cfg->routing[i];
	const struct rt_plugin_limits limits = { .timeout_ms = cfg->plugin_timeout_s * 1000,
						 .memory_mb = cfg->plugin_memory_mb };
	if (rc == 0)
		rc = rt_chain_run_sls(names, cfg->nrouting, PKGLIBDIR, &limits, &ctx,
				      &out->check, &out->sls);
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
	int rc = topo_view_build(&f->topo, max_lid, &m);

	if (rc) {
		memset(out, 0, sizeof(*out));
		return rc;
	}
	rc = sm_route_view(&m, cfg, out);
	topo_view_free(&m);
	return rc;
}

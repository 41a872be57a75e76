// SPDX-License-Identifier: MIT
/*
 * rt_path_sl.c - asking an engine's path_sl for every CA route, to find the
 * highest SL (SL2VL programming) and to keep the table for the SA
 * (rt_path_sl.h).  A source is a CA LID, or with path_sl_by_switch the first
 * CA of each switch standing for all of them; destinations are CA LIDs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_path_sl.h"

/* The base LID of the first CA (or router) port cabled to switch @s, or 0. */
static uint16_t first_ca_lid(const struct ibsmd_rt_view *v, uint32_t s)
{
	const struct ibsmd_rt_node *sw = &v->nodes[s];

	for (unsigned p = 1; p <= sw->nports; p++) {
		uint32_t peer = sw->ports[p].peer;
		if (peer == IBSMD_NO_NODE || ibsmd_is_switch(v, peer))
			continue;
		uint16_t lid = v->nodes[peer].ports[sw->ports[p].peer_port].lid;
		if (lid)
			return lid;
	}
	return 0;
}

/* Whether CA LID @slid is a source to ask; @sw its switch (IBSMD_NO_NODE for
 * a CA on no switch). */
static bool is_source(const struct ibsmd_rt_view *v, const struct ibsmd_routing_engine *e,
		      uint32_t slid, uint32_t *sw)
{
	uint32_t s = v->lid_node[slid];

	if (s == IBSMD_NO_NODE || ibsmd_is_switch(v, s))
		return false;
	*sw = v->nodes[s].ports[v->lid_port[slid]].peer;
	if (!e->path_sl_by_switch)
		return true;
	return *sw != IBSMD_NO_NODE && ibsmd_is_switch(v, *sw) && first_ca_lid(v, *sw) == slid;
}

static bool is_ca_lid(const struct ibsmd_rt_view *v, uint32_t lid)
{
	uint32_t d = v->lid_node[lid];

	return d != IBSMD_NO_NODE && !ibsmd_is_switch(v, d);
}

uint8_t rt_path_sls_max(const struct ibsmd_rt_ctx *ctx, const struct ibsmd_routing_engine *e,
			void *state)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint8_t max = 0;
	uint32_t sw;

	for (uint32_t slid = 1; e->path_sl && slid <= v->max_lid; slid++) {
		if (!is_source(v, e, slid, &sw))
			continue;
		for (uint32_t lid = 1; lid <= v->max_lid; lid++) {
			if (!is_ca_lid(v, lid))
				continue;
			uint8_t sl = e->path_sl(ctx, state, (uint16_t)slid, (uint16_t)lid) & 0xf;
			max = sl > max ? sl : max;
		}
	}
	return max;
}

void rt_path_sls_free(struct rt_path_sls *t)
{
	free(t->row_of);
	free(t->sl);
	memset(t, 0, sizeof(*t));
}

int rt_path_sls_keep(const struct ibsmd_rt_ctx *ctx, const struct ibsmd_routing_engine *e,
		     void *state, struct rt_path_sls *out)
{
	const struct ibsmd_rt_view *v = ctx->view;
	size_t row = (size_t)v->max_lid + 1;
	uint32_t rows = 0, sw;

	memset(out, 0, sizeof(*out));
	out->by_switch = e->path_sl_by_switch;
	out->max_lid = v->max_lid;
	out->nkeys = out->by_switch ? v->nnodes : (uint32_t)row;
	if (!e->path_sl)
		return 0;
	if (!(out->row_of = malloc(out->nkeys * sizeof(*out->row_of))))
		return -ENOMEM;
	memset(out->row_of, 0xff, out->nkeys * sizeof(*out->row_of));
	for (uint32_t slid = 1; slid <= v->max_lid; slid++)
		if (is_source(v, e, slid, &sw))
			out->row_of[out->by_switch ? sw : slid] = rows++;
	if ((size_t)rows * row > RT_PATH_SLS_MAX_BYTES) {
		rt_path_sls_free(out);
		return -EFBIG;
	}
	if (rows && !(out->sl = calloc(rows, row))) {
		rt_path_sls_free(out);
		return -ENOMEM;
	}
	for (uint32_t slid = 1; slid <= v->max_lid; slid++) {
		if (!is_source(v, e, slid, &sw))
			continue;
		uint8_t *r = out->sl + (size_t)out->row_of[out->by_switch ? sw : slid] * row;
		for (uint32_t lid = 1; lid <= v->max_lid; lid++)
			if (is_ca_lid(v, lid))
				r[lid] = e->path_sl(ctx, state, (uint16_t)slid, (uint16_t)lid) & 0xf;
	}
	return 0;
}

uint8_t rt_path_sls_get(const struct rt_path_sls *t, uint32_t node, uint16_t slid,
			uint16_t dlid)
{
	uint32_t key = t->by_switch ? node : slid;

	if (!t->sl || key >= t->nkeys || dlid > t->max_lid || t->row_of[key] == UINT32_MAX)
		return 0;
	return t->sl[(size_t)t->row_of[key] * ((size_t)t->max_lid + 1) + dlid];
}

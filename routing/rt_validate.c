// SPDX-License-Identifier: MIT
/*
 * rt_validate.c - does every CA reach every CA LID through the LFTs?
 *
 * For each destination LID owned by a CA or router port, the path from each
 * switch that has CAs is followed entry by entry.  Results are memoised per
 * destination (a switch on a path that reached shares the verdict), so the work
 * is O(LIDs * switches), with a stamp array instead of clearing per LID.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "routing/rt.h"

enum { WALK_NONE, WALK_BUSY, WALK_OK, WALK_FAIL_NOWHERE, WALK_FAIL_LOOP };

struct walker {
	const struct ibsmd_rt_ctx *ctx;
	uint32_t *stamp;	/* (lid << 3) | verdict */
	uint32_t *path;
};

static int verdict(const struct walker *w, uint32_t n, uint16_t lid)
{
	return (w->stamp[n] >> 3) == lid ? (int)(w->stamp[n] & 7) : WALK_NONE;
}

/* Follow @lid from switch @s; returns the verdict and marks the path. */
static int walk(struct walker *w, uint32_t s, uint16_t lid)
{
	const struct ibsmd_rt_view *v = w->ctx->view;
	uint32_t owner = v->lid_node[lid], len = 0, cur = s;
	uint8_t owner_port = v->lid_port[lid];
	int res;

	for (;;) {
		res = verdict(w, cur, lid);
		if (res == WALK_BUSY) {
			res = WALK_FAIL_LOOP;
			break;
		}
		if (res != WALK_NONE)
			break;
		w->stamp[cur] = (uint32_t)lid << 3 | WALK_BUSY;
		w->path[len++] = cur;
		uint8_t port = ibsmd_lft_get(w->ctx, cur, lid);
		const struct ibsmd_rt_port *p = port <= v->nodes[cur].nports
						? &v->nodes[cur].ports[port] : NULL;
		if (!p || port == 0 || p->peer == IBSMD_NO_NODE) {
			res = port == 0 && cur == owner ? WALK_OK : WALK_FAIL_NOWHERE;
			break;
		}
		if (p->peer == owner && p->peer_port == owner_port) {
			res = WALK_OK;
			break;
		}
		if (!ibsmd_is_switch(v, p->peer)) {
			res = WALK_FAIL_NOWHERE;
			break;
		}
		cur = p->peer;
	}
	for (uint32_t i = 0; i < len; i++)
		w->stamp[w->path[i]] = (uint32_t)lid << 3 | (uint32_t)res;
	return res;
}

int rt_validate(const struct ibsmd_rt_ctx *ctx, struct rt_validation *res)
{
	const struct ibsmd_rt_view *v = ctx->view;
	struct walker w = { .ctx = ctx };
	uint32_t *cas = calloc(v->nnodes + 1, sizeof(*cas));

	*res = (struct rt_validation){ 0 };
	w.stamp = calloc(v->nnodes + 1, sizeof(*w.stamp));
	w.path = malloc((v->nnodes + 1) * sizeof(*w.path));
	if (!cas || !w.stamp || !w.path) {
		free(cas);
		free(w.stamp);
		free(w.path);
		return -ENOMEM;
	}
	/* how many CA ports hang off each switch */
	for (uint32_t n = 0; n < v->nnodes; n++)
		for (unsigned p = 1; !ibsmd_is_switch(v, n) && p <= v->nodes[n].nports; p++)
			if (ibsmd_is_switch(v, v->nodes[n].ports[p].peer))
				cas[v->nodes[n].ports[p].peer]++;
	for (uint32_t lid = 1; lid <= v->max_lid; lid++) {
		uint32_t owner = v->lid_node[lid];
		if (owner == IBSMD_NO_NODE || ibsmd_is_switch(v, owner))
			continue;
		for (uint32_t s = 0; s < v->nnodes; s++) {
			if (!cas[s])
				continue;
			int r = walk(&w, s, (uint16_t)lid);
			res->pairs += cas[s];
			if (r == WALK_OK)
				continue;
			if (r == WALK_FAIL_LOOP)
				res->loops += cas[s];
			else
				res->unreachable += cas[s];
			if (!res->first_problem[0])
				snprintf(res->first_problem, sizeof(res->first_problem),
					 "from switch 0x%016llx (%s) to LID %u (%s): %s",
					 (unsigned long long)v->nodes[s].guid,
					 v->nodes[s].desc ? v->nodes[s].desc : "",
					 lid, v->nodes[owner].desc ? v->nodes[owner].desc : "",
					 r == WALK_FAIL_LOOP ? "the path loops" : "no route");
		}
	}
	free(cas);
	free(w.stamp);
	free(w.path);
	return res->unreachable || res->loops ? -EHOSTUNREACH : 0;
}

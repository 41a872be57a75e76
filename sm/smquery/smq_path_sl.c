// SPDX-License-Identifier: MIT
/*
 * smq_path_sl.c - the routing engine's path SLs as the daemon stored them
 * (db_path_sl.c, sm_path_sl_store.c), for route-check's credit loops per SL:
 * without them every route would be checked on SL 0, and a fabric whose
 * engine (dfsssp) broke its loops by moving paths to other SLs would show a
 * credit loop it does not have.
 *
 * Rows keyed by a switch's node GUID become rows of that switch's node in
 * the view (a GUID the stored topology no longer has is skipped); rows keyed
 * by CA LID stay so.  The engine's path_sl finds the row of a source LID's
 * switch (or of the LID) and reads the SL toward the DLID: 0 where nothing
 * was stored.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo.h"
#include "sm/smquery/smq_path_sl.h"

static uint8_t stored_path_sl(const struct ibsmd_rt_ctx *ctx, void *state, uint16_t slid,
			      uint16_t dlid)
{
	const struct rt_path_sls *t = state;
	const struct ibsmd_rt_view *v = ctx->view;
	uint32_t node = IBSMD_NO_NODE;

	if (slid > v->max_lid)
		return 0;
	if (t->by_switch) {	/* the switch of the CA owning slid */
		uint32_t ca = v->lid_node[slid];
		if (ca == IBSMD_NO_NODE)
			return 0;
		node = ibsmd_is_switch(v, ca) ? ca : v->nodes[ca].ports[v->lid_port[slid]].peer;
		if (node == IBSMD_NO_NODE)
			return 0;
	}
	return rt_path_sls_get(t, node, slid, dlid);
}

struct load {
	struct smq *q;
	const struct ibsmd_rt_view *v;
	struct rt_path_sls *t;
	uint32_t rows;
	bool mode_set;
};

static int add_row(void *arg, uint64_t source, bool by_switch, const uint8_t *sls, size_t n)
{
	struct load *l = arg;
	struct rt_path_sls *t = l->t;

	if (!l->mode_set) {	/* the first row says how sources are keyed */
		t->by_switch = by_switch;
		t->nkeys = by_switch ? l->v->nnodes : (uint32_t)l->v->max_lid + 1;
		if (!(t->row_of = malloc((t->nkeys ? t->nkeys : 1) * sizeof(*t->row_of))))
			return -ENOMEM;
		for (uint32_t k = 0; k < t->nkeys; k++)
			t->row_of[k] = UINT32_MAX;
		l->mode_set = true;
	}
	if (by_switch != t->by_switch)
		return 0;	/* rows of an engine before: not these routes' */
	uint64_t key = by_switch ? topo_find_guid(&l->q->topo, source) : source;
	if (key >= t->nkeys || t->row_of[key] != UINT32_MAX)
		return 0;
	uint8_t *sl = realloc(t->sl, ((size_t)l->rows + 1) * n);
	if (!sl)
		return -ENOMEM;
	t->sl = sl;
	memcpy(sl + (size_t)l->rows * n, sls, n);
	t->row_of[key] = l->rows++;
	return 0;
}

int smq_path_sls_load(struct smq *q, const struct ibsmd_rt_view *v, struct smq_path_sls *out)
{
	memset(out, 0, sizeof(*out));
	out->t.max_lid = v->max_lid;
	struct load l = { .q = q, .v = v, .t = &out->t };
	int rc = db_path_sls_each(q->db, (size_t)v->max_lid + 1, add_row, &l);

	if (rc || !l.rows) {
		smq_path_sls_free(out);
		return rc;
	}
	out->e = (struct ibsmd_routing_engine){
		.name = "stored", .abi_version = IBSMD_ROUTING_ABI_VERSION,
		.description = "the path SLs the daemon stored",
		.path_sl = stored_path_sl, .path_sl_by_switch = out->t.by_switch,
	};
	return 1;
}

void smq_path_sls_free(struct smq_path_sls *s)
{
	rt_path_sls_free(&s->t);
	memset(s, 0, sizeof(*s));
}

// SPDX-License-Identifier: MIT
/*
 * sm_rebalance.c - rebalancing applied to the daemon (see sm_rebalance.h).
 *
 * Data: the loads the poller reported, laid out over the last sweep's nodes
 * (thrown away when another sweep replaced the fabric); the moves kept, sorted
 * by (switch GUID, LID) for the hysteresis lookups; a ring of move times for
 * the hourly budget.  Flow of a pass: a copy of the programmed LFTs and the
 * view of the fabric they were computed on (isolated links left out) -> the
 * adaptive engine's AR groups on that view (scratch LFTs) -> rt_rebalance()
 * on the copy -> validation and the credit-loop check -> the changed blocks
 * Set (LFT, IBA 14.2.5.10) and waited for -> sm->routes, the store, the
 * events (both through sm->store, sm_store_queue.h).  Everything runs on the
 * loop thread, between heavy sweeps only.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo_rate.h"
#include "mad/model/topo_view.h"
#include "routing/rt_adaptive.h"
#include "routing/rt_rebalance.h"
#include "sm/core/sm.h"
#include "sm/core/sm_names.h"
#include "sm/util/sm_log.h"
#include "sm/telemetry/sm_rebalance.h"
#include "sm/util/sm_sorted.h"
#include "sm/core/sm_state.h"
#include "sm/ha/sm_ha.h"

#define HOUR_MS 3600000ULL

static void loads_free(struct sm_rebalance *rb)
{
	for (uint32_t n = 0; rb->load && n < rb->nnodes; n++)
		free(rb->load[n]);
	free(rb->load);
	rb->load = NULL;
	rb->nnodes = 0;
}

void sm_rebalance_free(struct sm_rebalance *rb)
{
	loads_free(rb);
	free(rb->moves);
	free(rb->recent);
	memset(rb, 0, sizeof(*rb));
}

/* The load cell of switch @node_guid's port @port in the last sweep's
 * fabric, laid out on first use; NULL when there is none. */
static double *load_cell(struct sm *sm, uint64_t node_guid, uint8_t port, uint32_t *node)
{
	struct sm_rebalance *rb = sm->rebalance;
	const struct topo *t = &sm->fabric.topo;
	uint32_t n = sm->have_fabric ? topo_find_guid(t, node_guid) : TOPO_NONE;

	if (n == TOPO_NONE || t->nodes[n].type != MAD_NODE_SWITCH || port == 0 ||
	    port > t->nodes[n].nports)
		return NULL;
	if (rb->load && rb->fabric_sweeps != sm->sweeps)
		loads_free(rb);	/* another sweep: other node indices */
	if (!rb->load) {
		if (!(rb->load = calloc((size_t)t->n + 1, sizeof(*rb->load))))
			return NULL;
		rb->nnodes = t->n;
		rb->fabric_sweeps = sm->sweeps;
	}
	if (!rb->load[n] && !(rb->load[n] = calloc(t->nodes[n].nports + 1u, sizeof(double))))
		return NULL;
	*node = n;
	return &rb->load[n][port];
}

int sm_rebalance_observe_load(struct sm *sm, uint64_t node_guid, uint8_t port, double load)
{
	uint32_t n;
	double *cell = load == load && load >= 0 ? load_cell(sm, node_guid, port, &n) : NULL;

	if (!cell)
		return -EINVAL;
	*cell = load;
	return 0;
}

int sm_rebalance_observe_port(struct sm *sm, uint64_t node_guid, uint8_t port,
			      uint64_t xmit_bytes, uint64_t xmit_wait, uint32_t wait_tick_ns,
			      uint32_t interval_ms)
{
	uint32_t n;
	double *cell = interval_ms ? load_cell(sm, node_guid, port, &n) : NULL;

	if (!cell)
		return -EINVAL;
	const struct topo_port *tp = &sm->fabric.topo.nodes[n].ports[port];
	uint32_t mbps = mad_rate_mbps(tp->width, tp->speed);
	double secs = interval_ms / 1000.0;
	double data = mbps ? (double)xmit_bytes * 8 / (mbps * 1e6 * secs) : 0;
	double wait = (double)xmit_wait * wait_tick_ns / (interval_ms * 1e6);
	*cell = data + wait;
	return 0;
}

/* ---- the moves kept ---- */

static int entry_cmp(const void *key, const void *elem)
{
	const struct sm_rb_entry *k = key, *e = elem;

	if (e->switch_guid != k->switch_guid)
		return k->switch_guid < e->switch_guid ? -1 : 1;
	return k->lid < e->lid ? -1 : k->lid > e->lid;
}

/* The index of (@guid, @lid) in the moves kept, or where it would go. */
static size_t entry_find(const struct sm_rebalance *rb, uint64_t guid, uint16_t lid, bool *found)
{
	const struct sm_rb_entry k = { .switch_guid = guid, .lid = lid };

	return sm_sorted_find(rb->moves, rb->nmoves, sizeof(*rb->moves), &k, entry_cmp, found);
}

static int entry_put(struct sm_rebalance *rb, const struct sm_rb_entry *e)
{
	bool found;
	size_t i = entry_find(rb, e->switch_guid, e->lid, &found);

	if (!found) {
		if (rb->nmoves == rb->cap) {
			size_t cap = rb->cap ? 2 * rb->cap : 256;
			struct sm_rb_entry *m = realloc(rb->moves, cap * sizeof(*m));
			if (!m)
				return -ENOMEM;
			rb->moves = m;
			rb->cap = cap;
		}
		memmove(&rb->moves[i + 1], &rb->moves[i], (rb->nmoves - i) * sizeof(*e));
		rb->nmoves++;
	}
	rb->moves[i] = *e;
	return 0;
}

/* ---- the hourly budget: a ring of the last move times ---- */

static uint32_t budget_left(struct sm_rebalance *rb, uint32_t per_hour, uint64_t now_ms)
{
	if (rb->recent_cap != per_hour) {	/* the limit changed: start over */
		free(rb->recent);
		rb->recent = per_hour ? calloc(per_hour, sizeof(*rb->recent)) : NULL;
		rb->recent_cap = rb->recent ? per_hour : 0;
		rb->nrecent = rb->recent_head = 0;
	}
	uint32_t used = 0;
	for (size_t i = 0; i < rb->nrecent; i++)
		used += now_ms - rb->recent[i] < HOUR_MS;
	return (uint32_t)rb->recent_cap - used;
}

static void budget_spend(struct sm_rebalance *rb, uint64_t now_ms)
{
	if (!rb->recent_cap)
		return;
	rb->recent[rb->recent_head] = now_ms;
	rb->recent_head = (rb->recent_head + 1) % rb->recent_cap;
	if (rb->nrecent < rb->recent_cap)
		rb->nrecent++;
}

/* ---- one pass ---- */

static void rb_log(int prio, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* the adaptive engine's chatter, when it only lends its groups */
	sm_log(prio < LOG_NOTICE ? prio : LOG_DEBUG, "rebalancing: %s", msg);
}

struct pass {
	struct sm *sm;
	uint64_t now_ms;
	struct topo_view m;
	uint8_t **lft;		/* the copy the moves go into */
	uint8_t **scratch;	/* the adaptive engine's own LFTs */
	void *ar;		/* its state: the groups */
	size_t row;		/* bytes of an LFT row */
	unsigned failed;	/* LFT Sets that failed */
};

/* Not a (switch, LID) moved already: once is the hysteresis. */
static bool may_move(void *arg, uint32_t sw, uint16_t lid)
{
	struct pass *ps = arg;
	bool found;

	entry_find(ps->sm->rebalance, ps->sm->fabric.topo.nodes[sw].guid, lid, &found);
	return !found;
}

/* Every pair still reaches, nothing loops, no credit loop (one SL). */
static bool routes_check(const struct ibsmd_rt_ctx *ctx, char *why, size_t len)
{
	static const struct ibsmd_routing_engine one_sl = { .name = "rebalanced" };
	struct rt_validation val;
	struct rt_cdg_result cdg;

	if (rt_validate(ctx, &val)) {
		snprintf(why, len, "%s", val.first_problem);
		return false;
	}
	if (rt_cdg_check(ctx, &one_sl, NULL, &cdg)) {
		snprintf(why, len, "credit loop: %s", cdg.first_cycle);
		return false;
	}
	return true;
}

static void pass_free(struct pass *ps)
{
	if (ps->ar)
		rt_adaptive_engine.destroy(ps->ar);
	for (uint32_t n = 0; n < ps->m.v.nnodes; n++) {
		free(ps->lft ? ps->lft[n] : NULL);
		free(ps->scratch ? ps->scratch[n] : NULL);
	}
	free(ps->lft);
	free(ps->scratch);
	topo_view_free(&ps->m);
}

/* The view of the fabric and a copy of its LFTs; the AR groups. */
static int pass_setup(struct pass *ps)
{
	const struct sm *sm = ps->sm;
	const struct sm_routes *r = &sm->routes;
	int rc = topo_view_build(&sm->fabric.topo, r->max_lid, &ps->m);

	if (rc)
		return rc;
	ps->row = ((size_t)r->max_lid / MAD_LFT_BLOCK + 1) * MAD_LFT_BLOCK;
	ps->lft = calloc((size_t)ps->m.v.nnodes + 1, sizeof(*ps->lft));
	ps->scratch = calloc((size_t)ps->m.v.nnodes + 1, sizeof(*ps->scratch));
	if (!ps->lft || !ps->scratch)
		return -ENOMEM;
	for (uint32_t n = 0; n < ps->m.v.nnodes && n < r->nnodes; n++) {
		if (!r->lft[n])
			continue;
		ps->lft[n] = malloc(ps->row);
		ps->scratch[n] = malloc(ps->row);
		if (!ps->lft[n] || !ps->scratch[n])
			return -ENOMEM;
		memcpy(ps->lft[n], r->lft[n], ps->row);
		memset(ps->scratch[n], MAD_LFT_NO_PORT, ps->row);
	}
	const struct ibsmd_rt_ctx g = { .view = &ps->m.v, .lft = ps->scratch, .log = rb_log };
	if ((rc = rt_adaptive_engine.setup(&g, &ps->ar)))
		return rc;
	return rt_adaptive_engine.compute_unicast(&g, ps->ar);
}

struct lft_req {
	struct pass *ps;
	uint32_t node;
};

static void on_lft_set(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct lft_req *q = ctx;

	if (!err && memcmp(resp->data, req->data, MAD_LFT_BLOCK))
		err = -EPROTO;
	if (err) {
		q->ps->failed++;
		sm_warn("rebalancing: LFT Set of block %u on 0x%016llx failed: %s", req->attr_mod,
			(unsigned long long)q->ps->sm->fabric.topo.nodes[q->node].guid,
			strerror(-err));
	}
}

/* LFT blocks for the store: the switch, the block, its entries. */
struct lft_blocks {
	size_t n;
	struct {
		uint64_t guid;
		uint16_t block;
		uint8_t lft[MAD_LFT_BLOCK];
	} b[];
};

static int write_blocks(struct db *db, void *data)
{
	const struct lft_blocks *lb = data;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < lb->n; i++)
		rc = db_lft_save(db, lb->b[i].guid, lb->b[i].block, lb->b[i].lft);
	return rc;
}

/* The blocks of @ps's LFTs (@nblocks a switch) set in the fabric: into
 * sm->routes, and into the store. */
static void store_blocks(struct sm *sm, const struct pass *ps, size_t nblocks)
{
	const struct topo *t = &sm->fabric.topo;
	size_t n = 0;

	for (uint32_t s = 0; s < ps->m.v.nnodes; s++)
		for (size_t b = 0; ps->lft[s] && b < nblocks; b++)
			n += memcmp(ps->lft[s] + b * MAD_LFT_BLOCK,
				    sm->routes.lft[s] + b * MAD_LFT_BLOCK, MAD_LFT_BLOCK) != 0;
	size_t size = sizeof(struct lft_blocks) + n * sizeof(((struct lft_blocks *)0)->b[0]);
	struct lft_blocks *lb = calloc(1, size);
	for (uint32_t s = 0; s < ps->m.v.nnodes; s++)
		for (size_t b = 0; ps->lft[s] && b < nblocks; b++) {
			uint8_t *have = sm->routes.lft[s] + b * MAD_LFT_BLOCK;
			const uint8_t *want = ps->lft[s] + b * MAD_LFT_BLOCK;
			if (memcmp(want, have, MAD_LFT_BLOCK) == 0)
				continue;
			memcpy(have, want, MAD_LFT_BLOCK);
			if (!lb)
				continue;
			lb->b[lb->n].guid = t->nodes[s].guid;
			lb->b[lb->n].block = (uint16_t)b;
			memcpy(lb->b[lb->n++].lft, want, MAD_LFT_BLOCK);
		}
	if (!lb || lb->n)
		sm_store_put(&sm->store, write_blocks, lb, size, "rebalancing: LFT blocks");
	else
		free(lb);
}

/* Send every block of ps->lft that differs from sm->routes, store it, and
 * take it into sm->routes.  How many blocks, or -errno. */
static int program(struct pass *ps, struct lft_req *reqs)
{
	struct sm *sm = ps->sm;
	const struct sm_fabric *f = &sm->fabric;
	size_t nblocks = ps->row / MAD_LFT_BLOCK;
	int sent = 0, rc = 0;

	for (uint32_t n = 0; rc == 0 && n < ps->m.v.nnodes; n++) {
		for (size_t b = 0; rc == 0 && ps->lft[n] && b < nblocks; b++) {
			const uint8_t *want = ps->lft[n] + b * MAD_LFT_BLOCK;
			if (!memcmp(want, sm->routes.lft[n] + b * MAD_LFT_BLOCK, MAD_LFT_BLOCK))
				continue;
			reqs[n] = (struct lft_req){ ps, n };
			if (!(rc = mad_rpc_wait_backlog(sm->rpc)))
				rc = mad_rpc_submit_dr(sm->rpc, MAD_METHOD_SET, MAD_ATTR_LFT,
						       (uint32_t)b, &f->topo.nodes[n].path,
						       sm_mkey_for(f, n, 0), want, on_lft_set,
						       &reqs[n]);
			sent += rc == 0;
		}
	}
	if (rc == 0)
		rc = mad_rpc_drain(sm->rpc);
	else
		mad_rpc_discard(sm->rpc);
	if (rc)
		return rc;
	store_blocks(sm, ps, nblocks);
	return sent;
}

/* Keep, count and record @n moves. */
static void record(struct pass *ps, const struct rt_rebalance_move *mv, uint32_t n)
{
	struct sm *sm = ps->sm;
	const struct topo *t = &sm->fabric.topo;

	for (uint32_t i = 0; i < n; i++) {
		const struct topo_node *tn = &t->nodes[mv[i].sw];
		const struct sm_rb_entry e = { .switch_guid = tn->guid, .lid = mv[i].lid,
					       .port = mv[i].to };
		if (entry_put(sm->rebalance, &e))
			sm_warn("rebalancing: out of memory: a move is not kept over later sweeps");
		budget_spend(sm->rebalance, ps->now_ms);
		char dest[SM_NAME_LEN];
		sm_store_event(&sm->store, DB_EV_ROUTE_MOVED, tn->guid, mv[i].from,
			       "switch \"%s\": %s moved from port %u (%.0f%% busy) to port %u "
			       "(%.0f%%), about %.0f%% of a link: hot above %u%%, cool at most %u%%",
			       tn->desc, sm_name_lid(sm, mv[i].lid, dest, sizeof(dest)), mv[i].from,
			       100 * mv[i].from_load, mv[i].to,
			       100 * mv[i].to_load, 100 * mv[i].weight, sm->cfg.rebalance_hot_pct,
			       sm->cfg.rebalance_cool_pct);
	}
}

static int rebalance(struct sm *sm, uint64_t now_ms)
{
	struct sm_rebalance *rb = sm->rebalance;
	struct pass ps = { .sm = sm, .now_ms = now_ms };
	struct rt_rebalance_move *mv = NULL;
	struct lft_req *reqs = NULL;
	uint32_t n = 0;
	char why[600];

	if (sm->routes.check.max_sl) {
		if (!rb->warned_sl)
			sm_notice("rebalancing: the routes use %u SLs; only routes on one SL are "
				  "rebalanced", sm->routes.check.max_sl + 1);
		rb->warned_sl = true;
		return 0;
	}
	uint32_t left = budget_left(rb, sm->cfg.rebalance_moves_per_hour, now_ms);
	if (!left)
		return 0;
	int rc = pass_setup(&ps);
	if (rc == 0 && !(mv = malloc(left * sizeof(*mv))))
		rc = -ENOMEM;
	const struct ibsmd_rt_ctx ctx = { .view = &ps.m.v, .lft = ps.lft, .log = rb_log };
	const struct rt_rebalance_opts o = { .hot = sm->cfg.rebalance_hot_pct / 100.0,
		.cool = sm->cfg.rebalance_cool_pct / 100.0, .max_moves = left,
		.groups = rt_adaptive_group, .groups_arg = ps.ar, .may_move = may_move,
		.may_move_arg = &ps };
	if (rc == 0)
		rc = rt_rebalance(&ctx, (const double *const *)rb->load, &o, mv, &n);
	if (rc == 0 && n && !routes_check(&ctx, why, sizeof(why))) {
		sm_warn("rebalancing: %u moves planned, not made: %s", n, why);
		n = 0;
	}
	if (rc == 0 && n && !(reqs = calloc(ps.m.v.nnodes + 1u, sizeof(*reqs))))
		rc = -ENOMEM;
	int blocks = rc == 0 && n ? program(&ps, reqs) : 0;
	if (blocks < 0)
		rc = blocks;
	if (rc == 0 && n) {
		record(&ps, mv, n);
		sm_notice("rebalancing: %u LFT entries moved from hot ports to cool ones, %d "
			  "blocks sent%s", n, blocks, ps.failed ? "; some failed: heavy sweep due" : "");
		if (ps.failed)
			sm_sweep_due(sm, "LFT Sets of the rebalancer failed");
	}
	if (rc && rc != -ECANCELED)
		sm_warn("rebalancing: %s", strerror(-rc));
	free(reqs);
	free(mv);
	pass_free(&ps);
	return rc ? rc : (int)n;
}

int sm_rebalance_pass(struct sm *sm, uint64_t now_ms)
{
	struct sm_rebalance *rb = sm->rebalance;
	int rc = 0;

	/* between heavy sweeps only, on the fabric the loads were laid out on */
	if (rb->load && sm->cfg.rebalance_enable && sm->have_fabric && !sm->stage && sm->rpc &&
	    sm->sm_state == MAD_SM_MASTER && !sm->ha->handover_sent && sm->routes.lft &&
	    rb->fabric_sweeps == sm->sweeps &&
	    sm->cfg.rebalance_cool_pct < sm->cfg.rebalance_hot_pct)
		rc = rebalance(sm, now_ms);
	loads_free(rb);
	return rc;
}

void sm_rebalance_forget(struct sm *sm)
{
	loads_free(sm->rebalance);
}

int sm_rebalance_reapply(struct sm *sm, const struct sm_fabric *f, struct sm_routes *r)
{
	struct sm_rebalance *rb = sm->rebalance;
	struct { uint32_t node; uint16_t lid; uint8_t port; } *undo;
	const struct topo *t = &f->topo;
	size_t n = 0;
	char why[600];

	if (!rb->nmoves || !r->lft)
		return 0;
	if (!(undo = malloc(rb->nmoves * sizeof(*undo))))
		return 0;
	for (size_t i = 0; i < rb->nmoves; i++) {
		const struct sm_rb_entry *e = &rb->moves[i];
		uint32_t sw = topo_find_guid(t, e->switch_guid);
		if (sw == TOPO_NONE || sw >= r->nnodes || !r->lft[sw] || e->lid > r->max_lid ||
		    e->port > t->nodes[sw].nports)
			continue;
		const struct topo_port *tp = &t->nodes[sw].ports[e->port];
		uint8_t *cur = &r->lft[sw][e->lid];
		if (tp->peer == TOPO_NONE || tp->isolated || *cur == e->port ||
		    *cur == MAD_LFT_NO_PORT || t->nodes[tp->peer].type != MAD_NODE_SWITCH)
			continue;
		undo[n].node = sw;
		undo[n].lid = e->lid;
		undo[n++].port = *cur;
		*cur = e->port;
	}
	struct topo_view m;
	bool ok = n == 0;
	if (n && topo_view_build(t, r->max_lid, &m) == 0) {
		const struct ibsmd_rt_ctx ctx = { .view = &m.v, .lft = r->lft, .log = rb_log };
		ok = routes_check(&ctx, why, sizeof(why));
		topo_view_free(&m);
	} else if (n) {
		snprintf(why, sizeof(why), "out of memory");
	}
	if (!ok) {
		while (n--)
			r->lft[undo[n].node][undo[n].lid] = undo[n].port;
		sm_warn("rebalancing: the %zu moves kept no longer fit the routes (%s): dropped",
			rb->nmoves, why);
		rb->nmoves = 0;
		n = 0;
	}
	free(undo);
	return (int)n;
}

// SPDX-License-Identifier: MIT
/*
 * sm_ar.c - adaptive routing on the switches: the probe and the programming
 * (see sm_ar.h).
 *
 * Probe: one AdaptiveRoutingInfo Get per switch this process has not asked
 * yet, and only to switches whose NodeInfo VendorID is MAD_AR_VENDOR_ID: the
 * attribute is in the vendor range, where another vendor's device may mean
 * something else (ibsim's switches, vendor 0 unless the file says so, are
 * never asked).  A switch without AR firmware answers "unsupported
 * method/attribute"; ibsim's, given vendid=0x2c9, do not answer at all (after
 * the rpc layer's retries).  Either way it is marked SM_AR_NONE and nothing of
 * AR is sent to it again until it is reset (found with LinearFDBTop 0); it
 * keeps its static LFT.  A GroupCap below 2 counts as no AR (our groups are
 * numbered from 1; group 0 stays unused).
 *
 * Programming: per AR switch, what the engine wants (routes->ar: a group per
 * LID, group masks) is compared with what the cache says the switch holds;
 * group blocks (two groups each) and AR LFT blocks (16 LIDs each) that differ
 * are sent, in the phase order of sm_ar.h, all switches interleaved within a
 * phase.  The sweep's switches are not reordered between probe and program
 * (sm_fabric_sort runs first in planning, the cache is found by GUID).
 *
 * AR that stays on: a plain LinearForwardingTable Set turns AR off on a
 * switch whose AdaptiveRoutingInfo has no_fallback 0, and is refused by one
 * with no_fallback 1 (ibis adaptive_routing_info).  ibsmd writes the static
 * routes as plain LFT blocks, so: no_fallback is cleared where the probe
 * finds it set (a previous SM's choice), the plain LFT blocks go first, and
 * AdaptiveRoutingInfo with AR enabled goes last, after every LFT-class Set,
 * in every heavy sweep and every patch (sm_ar_keep_on()).  The last step
 * reads AdaptiveRoutingInfo back from every switch that got any LFT-class
 * Set, never trusting the cache: AR found off is turned on again, and a
 * switch that will not take it is an error, logged as such.  Every Set of
 * AdaptiveRoutingInfo is the switch's last answer with only the fields ibsmd
 * owns changed (enable, fr_enable, group_top, sub_grps_active, no_fallback):
 * the ageing time and the rest go back as the switch holds them.
 *
 * Across restarts the cache starts from the store's record of each switch,
 * checked against the switch at first contact (sm_ar_store.c): a restarted
 * daemon sends only what differs.  The records of the switches about to get
 * blocks are dropped before the first goes out; the store step writes the
 * new ones.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt.h"
#include "sm/core/sm.h"
#include "sm/repair/sm_ar.h"
#include "sm/util/sm_log.h"
#include "sm/core/sm_mkey.h"
#include "sm/core/sm_routes.h"

static int by_guid(const void *a, const void *b)
{
	uint64_t x = ((const struct sm_ar_switch *)a)->guid;
	uint64_t y = ((const struct sm_ar_switch *)b)->guid;

	return x < y ? -1 : x > y;
}

struct sm_ar_switch *sm_ar_find(const struct sm_ar_cache *c, uint64_t guid)
{
	struct sm_ar_switch key = { .guid = guid };

	return c->n ? bsearch(&key, c->sw, c->n, sizeof(*c->sw), by_guid) : NULL;
}

void sm_ar_forget(struct sm_ar_switch *e)
{
	free(e->groups);
	free(e->lid_group);
	e->groups = NULL;
	e->lid_group = NULL;
	e->top = 0;
	e->nlid = 0;
	e->programmed = false;
	e->store_due = true;
}

void sm_ar_cache_free(struct sm_ar_cache *c)
{
	for (size_t i = 0; i < c->n; i++)
		sm_ar_forget(&c->sw[i]);
	free(c->sw);
	memset(c, 0, sizeof(*c));
}

bool sm_ar_wanted(const struct sm_config *cfg)
{
	for (unsigned i = 0; i < cfg->nrouting; i++) {
		const struct ibsmd_routing_engine *e = rt_builtin_find(cfg->routing[i]);
		if (!e || e->compute_ar)
			return true;
	}
	return false;
}

/* ---- the probe ---- */

struct ar_req {
	struct sm *sm;
	const struct sm_fabric *f;
	struct sm_ar_switch *e;
	uint32_t node;
	const struct topo_path *path;	/* to the switch; NULL: its discovered one */
	uint16_t index;		/* block, for the Sets */
	bool *failed;		/* per node, for the Sets */
	struct sm_ar_result *res;
};

static int submit(struct ar_req *r, uint8_t method, uint16_t attr, uint32_t mod,
		  const uint8_t *payload, mad_rpc_done_fn done)
{
	const struct topo_node *tn = &r->f->topo.nodes[r->node];

	return mad_rpc_submit_dr(r->sm->rpc, method, attr, mod, r->path ? r->path : &tn->path,
				 sm_mkey_for(r->f, r->node, 0), payload, done, r);
}

static void on_probe(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct ar_req *r = ctx;
	const struct topo_node *tn = &r->f->topo.nodes[r->node];
	struct mad_ar_info ai;

	(void)req;
	if (err || mad_ar_info_decode(resp->data, &ai) || ai.group_cap < 2) {
		r->e->probe = SM_AR_NONE;
		sm_info("adaptive routing: switch 0x%016llx (%s) has none (%s)",
			(unsigned long long)tn->guid, tn->desc,
			err == -EREMOTEIO ? "it refuses AdaptiveRoutingInfo"
			: err == -ETIMEDOUT ? "no answer to AdaptiveRoutingInfo"
			: err ? "its answer failed" : "its answer shows no group");
		return;
	}
	r->e->probe = SM_AR_CAPABLE;
	r->e->info = ai;
}

/* Add a cache entry for every switch of @f that has none. */
static int cache_add(struct sm_ar_cache *c, const struct sm_fabric *f)
{
	size_t n0 = c->n;

	for (uint32_t n = 0; n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		if (tn->type != MAD_NODE_SWITCH || !tn->responded || sm_ar_find(c, tn->guid))
			continue;
		bool dup = false;	/* a GUID two nodes claim: one entry */
		for (size_t i = n0; i < c->n && !dup; i++)
			dup = c->sw[i].guid == tn->guid;
		if (dup)
			continue;
		if (c->n == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 64;
			struct sm_ar_switch *sw = realloc(c->sw, cap * sizeof(*sw));
			if (!sw)
				return -ENOMEM;
			c->sw = sw;
			c->cap = cap;
		}
		c->sw[c->n++] = (struct sm_ar_switch){ .guid = tn->guid };
	}
	if (c->n != n0)
		qsort(c->sw, c->n, sizeof(*c->sw), by_guid);
	return 0;
}

static void on_fallback_set(void *ctx, int err, const struct mad_smp *req,
			    const struct mad_smp *resp)
{
	struct ar_req *r = ctx;
	const struct topo_node *tn = &r->f->topo.nodes[r->node];
	struct mad_ar_info got;
	char why[64];

	(void)req;
	if (!err && (mad_ar_info_decode(resp->data, &got) || got.no_fallback))
		err = -EPROTO;
	if (err) {
		sm_warn("adaptive routing: switch 0x%016llx (%s) keeps no_fallback set: it will "
			"refuse the static LFT blocks (%s)", (unsigned long long)tn->guid, tn->desc,
			sm_smp_error(err, resp, why, sizeof(why)));
		return;
	}
	r->e->info = got;
}

/* Switches left with no_fallback set (by another SM) refuse a plain LFT Set:
 * ibsmd writes the static routes that way, so it clears the bit, the rest of
 * AdaptiveRoutingInfo as the switch holds it. */
static int take_lft_sets(struct sm *sm, struct sm_fabric *f, struct sm_arena *arena)
{
	int rc = 0;

	for (uint32_t n = 0; rc == 0 && n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		struct sm_ar_switch *e = tn->type == MAD_NODE_SWITCH ? sm_ar_find(sm->ar, tn->guid) : NULL;
		if (!e || e->probe != SM_AR_CAPABLE || !e->info.no_fallback)
			continue;
		struct mad_ar_info ai = e->info;
		uint8_t data[SMP_DATA_SIZE];
		struct ar_req *r = sm_arena_alloc(arena, sizeof(*r));
		ai.no_fallback = false;
		if (!r || mad_ar_info_encode(&ai, data))
			return -ENOMEM;
		sm_info("adaptive routing: switch 0x%016llx (%s) has no_fallback set; clearing it "
			"(ibsmd writes static routes as LFT blocks, then turns AR on again)",
			(unsigned long long)tn->guid, tn->desc);
		*r = (struct ar_req){ .sm = sm, .f = f, .e = e, .node = n };
		rc = submit(r, MAD_METHOD_SET, MAD_ATTR_AR_INFO, 0, data, on_fallback_set);
	}
	return rc ? rc : mad_rpc_drain(sm->rpc);
}

int sm_ar_probe(struct sm *sm, struct sm_fabric *f, struct sm_arena *arena)
{
	size_t asked = 0, capable = 0;
	int rc = cache_add(sm->ar, f);

	for (uint32_t n = 0; rc == 0 && n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		struct sm_ar_switch *e = tn->type == MAD_NODE_SWITCH ? sm_ar_find(sm->ar, tn->guid) : NULL;
		if (!e)
			continue;
		if (!f->attrs[n].si_valid || f->attrs[n].si.lft_top == 0) {
			sm_ar_forget(e);	/* new or reset: it holds none of what we sent, */
			e->probe = SM_AR_UNKNOWN;	/* and may have new firmware */
		}
		if (e->probe != SM_AR_UNKNOWN || tn->vendor_id != MAD_AR_VENDOR_ID)
			continue;
		struct ar_req *r = sm_arena_alloc(arena, sizeof(*r));
		if (!r || (rc = mad_rpc_wait_backlog(sm->rpc)))
			rc = rc ? rc : -ENOMEM;
		else if (!(rc = (*r = (struct ar_req){ .sm = sm, .f = f, .e = e, .node = n },
				 submit(r, MAD_METHOD_GET, MAD_ATTR_AR_INFO, 0, NULL, on_probe))))
			asked++;
	}
	if (rc == 0)
		rc = mad_rpc_drain(sm->rpc);
	if (rc == 0)
		rc = sm_ar_learn(sm, f, arena);	/* the store's record, at first contact */
	if (rc == 0)
		rc = take_lft_sets(sm, f, arena);
	for (uint32_t n = 0; rc == 0 && n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		struct sm_ar_switch *e = tn->type == MAD_NODE_SWITCH ? sm_ar_find(sm->ar, tn->guid) : NULL;
		if (!e || e->probe != SM_AR_CAPABLE)
			continue;
		capable++;
		f->attrs[n].ar_group_cap = e->info.group_cap;
	}
	if (asked)
		sm_info("adaptive routing: %zu switches asked, %zu of the fabric's can do it",
			asked, capable);
	return rc;
}

/* ---- programming ---- */

void sm_ar_group_block(const struct ibsmd_rt_ar *ar, uint32_t n, uint16_t top, uint16_t b,
		       uint8_t *data)
{
	struct mad_ar_group_block gb = { 0 };

	for (unsigned k = 0; k < MAD_AR_GROUPS_PER_BLOCK; k++) {
		uint16_t g = (uint16_t)(MAD_AR_GROUPS_PER_BLOCK * b + k);
		if (g >= 1 && g <= top)
			memcpy(gb.group[k].ports, ar->groups[n][g - 1], sizeof(gb.group[k].ports));
	}
	mad_ar_group_encode(&gb, data);
}

int sm_ar_lft_block(const struct sm_routes *rt, uint32_t n, uint32_t b, uint8_t *data)
{
	uint32_t first = b * MAD_AR_LFT_PER_BLOCK;
	struct mad_ar_lft_block lb;

	for (unsigned k = 0; k < MAD_AR_LFT_PER_BLOCK; k++) {
		uint16_t g = rt->ar.lid_group[n][first + k];
		lb.e[k] = (struct mad_ar_lft_entry){
			.default_port = rt->lft[n][first + k], .group = g,
			.state = g ? MAD_AR_BOUNDED : MAD_AR_STATIC };
	}
	return mad_ar_lft_encode(&lb, data);
}

struct ar_plan {
	uint32_t node;
	struct sm_ar_switch *e;
	const struct topo_path *path;	/* to the switch; NULL: its discovered one */
	uint16_t top;		/* the highest group a LID uses */
	uint8_t sub_grps;	/* sub-groups of 64 ports the switch's ports need, - 1 */
	struct mad_ar_info want;	/* the final Info */
	bool sent;		/* a group table or AR LFT block went out */
	bool lft_sent;		/* a plain LFT block went out (AR is off now) */
};

static void set_failed(struct ar_req *r, int err, const struct mad_smp *resp, const char *what)
{
	const struct topo_node *tn = &r->f->topo.nodes[r->node];
	char why[64];

	r->failed[r->node] = true;
	r->res->failures++;
	sm_warn("adaptive routing: %s %u on 0x%016llx (%s) failed: %s", what, r->index,
		(unsigned long long)tn->guid, tn->desc, sm_smp_error(err, resp, why, sizeof(why)));
}

/* Blocks and Info: the answer to a Set must hold what was sent. */
static void on_set(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct ar_req *r = ctx;
	const char *what = req->attr_id == MAD_ATTR_AR_INFO ? "AdaptiveRoutingInfo Set"
			   : req->attr_id == MAD_ATTR_AR_GROUP_TABLE ? "AR group table block"
			   : "AR LFT block";

	if (!err && req->attr_id == MAD_ATTR_AR_INFO) {
		struct mad_ar_info want, got;
		mad_ar_info_decode(req->data, &want);
		if (mad_ar_info_decode(resp->data, &got) || got.enable != want.enable ||
		    got.fr_enable != want.fr_enable || got.group_top != want.group_top)
			err = -EPROTO;
		else
			r->e->info = got;
		if (want.enable && err) {	/* the one case that must never pass quietly */
			const struct topo_node *tn = &r->f->topo.nodes[r->node];
			sm_err("adaptive routing is OFF on switch 0x%016llx (%s): it did not take "
			       "AdaptiveRoutingInfo with AR enabled", (unsigned long long)tn->guid,
			       tn->desc);
		}
	} else if (!err && memcmp(req->data, resp->data, SMP_DATA_SIZE)) {
		err = -EPROTO;
	}
	if (err)
		set_failed(r, err, resp, what);
}

/* The read-back: what the switch holds now becomes the base of its Set. */
static void on_read(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct ar_req *r = ctx;
	struct mad_ar_info got;

	(void)req;
	if (!err && mad_ar_info_decode(resp->data, &got))
		err = -EPROTO;
	if (err) {
		set_failed(r, err, resp, "AdaptiveRoutingInfo read-back");
		return;
	}
	if (r->e->info.enable && !got.enable) {
		const struct topo_node *tn = &r->f->topo.nodes[r->node];
		sm_info("adaptive routing: switch 0x%016llx (%s) turned AR off (an LFT Set, "
			"no_fallback 0): on again", (unsigned long long)tn->guid, tn->desc);
	}
	r->e->info = got;
}

static int send_set(struct sm *sm, const struct sm_fabric *f, struct ar_plan *pl,
		    struct sm_arena *arena, bool *failed, struct sm_ar_result *res,
		    uint16_t attr, uint16_t index, const uint8_t *payload)
{
	int rc = mad_rpc_wait_backlog(sm->rpc);
	struct ar_req *r = rc ? NULL : sm_arena_alloc(arena, sizeof(*r));

	if (rc || !r)
		return rc ? rc : -ENOMEM;
	*r = (struct ar_req){ .sm = sm, .f = f, .e = pl->e, .node = pl->node, .path = pl->path,
			      .index = index, .failed = failed, .res = res };
	pl->sent |= attr != MAD_ATTR_AR_INFO;
	uint32_t mod = attr == MAD_ATTR_AR_GROUP_TABLE ? mad_ar_group_mod(index)
		       : attr == MAD_ATTR_AR_LFT ? mad_ar_lft_mod(index) : 0;
	return submit(r, payload ? MAD_METHOD_SET : MAD_METHOD_GET, attr, mod, payload,
		      payload ? on_set : on_read);
}

static int send_info(struct sm *sm, const struct sm_fabric *f, struct ar_plan *pl,
		     struct sm_arena *arena, bool *failed, struct sm_ar_result *res,
		     const struct mad_ar_info *ai)
{
	uint8_t data[SMP_DATA_SIZE];

	if (mad_ar_info_encode(ai, data))
		return -EINVAL;
	res->info_sets++;
	return send_set(sm, f, pl, arena, failed, res, MAD_ATTR_AR_INFO, 0, data);
}

static bool group_dirty(const struct sm_ar_switch *e, const struct ibsmd_rt_ar *ar, uint32_t n,
			uint16_t g)
{
	return !e->programmed || g > e->top || memcmp(e->groups[g - 1], ar->groups[n][g - 1],
						      sizeof(e->groups[0]));
}

static bool lft_dirty(const struct sm_ar_switch *e, const uint16_t *want, uint32_t first,
		      uint32_t count)
{
	return !e->programmed || first + count > e->nlid ||
	       memcmp(e->lid_group + first, want + first, count * sizeof(*want));
}

/* Will switch @p get a group table or AR LFT block? */
static bool will_send(const struct ar_plan *p, const struct sm_routes *rt)
{
	for (uint16_t g = 1; g <= p->top; g++)
		if (group_dirty(p->e, &rt->ar, p->node, g))
			return true;
	for (uint32_t first = 0; p->top && first <= rt->max_lid; first += MAD_AR_LFT_PER_BLOCK)
		if (lft_dirty(p->e, rt->ar.lid_group[p->node], first, MAD_AR_LFT_PER_BLOCK))
			return true;
	return false;
}

/* Drop the store's records of the switches about to change (sm_ar_store.c). */
static int unrecord(struct sm *sm, const struct sm_routes *rt, const struct ar_plan *pl,
		    size_t np, struct sm_arena *arena)
{
	struct sm_ar_switch **sw = sm_arena_alloc(arena, (np + 1) * sizeof(*sw));
	size_t n = 0;

	if (!sw)
		return -ENOMEM;
	for (size_t i = 0; i < np; i++)
		if (pl[i].e->stored && will_send(&pl[i], rt))
			sw[n++] = pl[i].e;
	return n ? sm_ar_unrecord(sm, sw, n, arena) : 0;
}

/* What switch @p is to hold in the end, given it holds @e->info now: AR on
 * with groups 1..@p->top (off with no group), the rest as it is. */
static void plan_want(struct ar_plan *p)
{
	const struct mad_ar_info *cur = &p->e->info;

	p->want = *cur;
	p->want.enable = p->top > 0;
	p->want.fr_enable = p->top > 0 && cur->fr_supported;
	if (p->top) {
		p->want.group_top = p->top;
		p->want.sub_grps_active = p->sub_grps;
		p->want.no_fallback = false;	/* ibsmd's LFT Sets must be taken */
	}
}

/* The plan of every AR switch the routes give a row; NULL entries end it. */
static struct ar_plan *plan(struct sm *sm, const struct sm_fabric *f, const struct sm_routes *rt,
			    const bool *lft_sent, struct sm_arena *arena, size_t *count)
{
	struct ar_plan *pl = sm_arena_alloc(arena, ((size_t)f->topo.n + 1) * sizeof(*pl));

	*count = 0;
	for (uint32_t n = 0; pl && n < f->topo.n; n++) {
		struct sm_ar_switch *e = sm_ar_find(sm->ar, f->topo.nodes[n].guid);
		if (!rt->ar.lid_group || !rt->ar.lid_group[n] || !e || e->probe != SM_AR_CAPABLE)
			continue;
		struct ar_plan *p = &pl[(*count)++];
		*p = (struct ar_plan){ .node = n, .e = e, .lft_sent = lft_sent && lft_sent[n] };
		for (uint32_t lid = 0; lid <= rt->max_lid; lid++)
			if (rt->ar.lid_group[n][lid] > p->top)
				p->top = rt->ar.lid_group[n][lid];
		p->sub_grps = (uint8_t)(f->topo.nodes[n].nports / 64);
		plan_want(p);
	}
	return pl;
}

/* Phase 1: the Info that lets the groups in (top high enough), AR as it is. */
static int phase_open(struct sm *sm, const struct sm_fabric *f, struct ar_plan *pl, size_t np,
		      struct sm_arena *arena, bool *failed, struct sm_ar_result *res)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < np; i++) {
		struct mad_ar_info ai = pl[i].e->info;
		ai.enable = ai.enable && !pl[i].lft_sent;	/* as our LFT Sets left it */
		if (pl[i].top == 0 || (ai.group_top >= pl[i].top && ai.fr_enable == pl[i].want.fr_enable &&
				       ai.sub_grps_active == pl[i].sub_grps))
			continue;
		ai.group_top = ai.group_top > pl[i].top ? ai.group_top : pl[i].top;
		ai.fr_enable = pl[i].want.fr_enable;
		ai.sub_grps_active = pl[i].sub_grps;
		rc = send_info(sm, f, &pl[i], arena, failed, res, &ai);
	}
	return rc ? rc : mad_rpc_drain(sm->rpc);
}

static int phase_groups(struct sm *sm, const struct sm_fabric *f, const struct sm_routes *rt,
			struct ar_plan *pl, size_t np, struct sm_arena *arena, bool *failed,
			struct sm_ar_result *res)
{
	uint16_t maxtop = 0;
	int rc = 0;

	for (size_t i = 0; i < np; i++)
		maxtop = pl[i].top > maxtop ? pl[i].top : maxtop;
	/* block by block across the switches; block b holds groups 2b, 2b + 1 */
	for (uint16_t b = 0; rc == 0 && 2u * b <= maxtop; b++) {
		for (size_t i = 0; rc == 0 && i < np; i++) {
			uint32_t n = pl[i].node;
			bool dirty = false;
			if (failed[n] || 2u * b > pl[i].top)
				continue;
			for (unsigned k = 0; k < MAD_AR_GROUPS_PER_BLOCK; k++) {
				uint16_t g = (uint16_t)(2 * b + k);
				dirty |= g >= 1 && g <= pl[i].top && group_dirty(pl[i].e, &rt->ar, n, g);
			}
			if (!dirty)
				continue;
			uint8_t data[SMP_DATA_SIZE];
			sm_ar_group_block(&rt->ar, n, pl[i].top, b, data);
			rc = send_set(sm, f, &pl[i], arena, failed, res, MAD_ATTR_AR_GROUP_TABLE, b, data);
			res->group_blocks++;
		}
	}
	return rc ? rc : mad_rpc_drain(sm->rpc);
}

static int phase_lft(struct sm *sm, const struct sm_fabric *f, const struct sm_routes *rt,
		     struct ar_plan *pl, size_t np, struct sm_arena *arena, bool *failed,
		     struct sm_ar_result *res)
{
	int rc = 0;

	for (uint32_t b = 0; rc == 0 && b * MAD_AR_LFT_PER_BLOCK <= rt->max_lid; b++) {
		uint32_t first = b * MAD_AR_LFT_PER_BLOCK;
		for (size_t i = 0; rc == 0 && i < np; i++) {
			uint32_t n = pl[i].node;
			const uint16_t *want = rt->ar.lid_group[n];
			/* the route rows are whole 64-entry LFT blocks: 16 entries fit */
			if (failed[n] || pl[i].top == 0 ||
			    !lft_dirty(pl[i].e, want, first, MAD_AR_LFT_PER_BLOCK))
				continue;
			uint8_t data[SMP_DATA_SIZE];
			if (sm_ar_lft_block(rt, n, b, data))
				return -EINVAL;
			rc = send_set(sm, f, &pl[i], arena, failed, res, MAD_ATTR_AR_LFT,
				      (uint16_t)b, data);
			res->lft_blocks++;
		}
	}
	return rc ? rc : mad_rpc_drain(sm->rpc);
}

/* Phase 4, last: AR on with the final top (or off, for a switch given no
 * group).  A switch that got any LFT-class Set is read first (the cache may
 * be stale: a plain LFT Set turned AR off); the Set goes where what the
 * switch holds differs, built on it, and its answer must show AR as wanted. */
static int phase_enable(struct sm *sm, const struct sm_fabric *f, struct ar_plan *pl, size_t np,
			struct sm_arena *arena, bool *failed, struct sm_ar_result *res)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < np; i++)
		if (!failed[pl[i].node] && (pl[i].sent || pl[i].lft_sent)) {
			rc = send_set(sm, f, &pl[i], arena, failed, res, MAD_ATTR_AR_INFO, 0, NULL);
			res->info_reads++;
		}
	if (rc == 0)
		rc = mad_rpc_drain(sm->rpc);
	for (size_t i = 0; rc == 0 && i < np; i++) {
		const struct mad_ar_info *cur = &pl[i].e->info;
		plan_want(&pl[i]);	/* on what it holds now */
		if (failed[pl[i].node] ||
		    (cur->enable == pl[i].want.enable && cur->group_top == pl[i].want.group_top &&
		     cur->fr_enable == pl[i].want.fr_enable && cur->no_fallback == pl[i].want.no_fallback &&
		     cur->sub_grps_active == pl[i].want.sub_grps_active))
			continue;
		rc = send_info(sm, f, &pl[i], arena, failed, res, &pl[i].want);
	}
	return rc ? rc : mad_rpc_drain(sm->rpc);
}

/* What switch @pl holds now, into the cache; false on memory shortage. */
static bool remember(struct ar_plan *pl, const struct sm_routes *rt)
{
	struct sm_ar_switch *e = pl->e;
	uint32_t n = pl->node, nlid = sm_routes_ar_row(rt);
	bool changed = e->store_due || pl->sent || !e->programmed || e->top != pl->top || e->nlid != nlid;
	uint64_t(*groups)[4] = malloc(((size_t)pl->top + 1) * sizeof(*groups));
	uint16_t *lid_group = malloc((size_t)nlid * sizeof(*lid_group));

	if (!groups || !lid_group) {
		free(groups);
		free(lid_group);
		sm_ar_forget(e);
		return false;
	}
	memcpy(groups, rt->ar.groups[n], (size_t)pl->top * sizeof(*groups));
	memcpy(lid_group, rt->ar.lid_group[n], (size_t)nlid * sizeof(*lid_group));
	sm_ar_forget(e);
	e->groups = groups;
	e->lid_group = lid_group;
	e->top = pl->top;
	e->nlid = nlid;
	e->programmed = true;
	e->store_due = changed;	/* the store's record follows at the store step */
	return true;
}

int sm_ar_program(struct sm *sm, const struct sm_fabric *f, const struct sm_routes *routes,
		  const bool *lft_sent, struct sm_arena *arena, struct sm_ar_result *res)
{
	size_t np;
	struct ar_plan *pl = plan(sm, f, routes, lft_sent, arena, &np);
	bool *failed = sm_arena_alloc(arena, (size_t)f->topo.n + 1);
	int rc;

	memset(res, 0, sizeof(*res));
	if (!pl || !failed)
		return -ENOMEM;
	memset(failed, 0, (size_t)f->topo.n + 1);
	res->switches = np;
	rc = unrecord(sm, routes, pl, np, arena);
	if (rc == 0)
		rc = phase_open(sm, f, pl, np, arena, failed, res);
	if (rc == 0)
		rc = phase_groups(sm, f, routes, pl, np, arena, failed, res);
	if (rc == 0)
		rc = phase_lft(sm, f, routes, pl, np, arena, failed, res);
	if (rc == 0)
		rc = phase_enable(sm, f, pl, np, arena, failed, res);
	for (size_t i = 0; i < np; i++) {
		if (rc || failed[pl[i].node])
			sm_ar_forget(pl[i].e);	/* unknown what it holds: all again next time */
		else if (!remember(&pl[i], routes))
			rc = -ENOMEM;
	}
	if (res->info_sets || res->group_blocks || res->lft_blocks)
		sm_notice("adaptive routing: %zu switches, %zu group blocks, %zu AR LFT blocks, "
			  "%zu AdaptiveRoutingInfo Sets, %zu failures", np, res->group_blocks,
			  res->lft_blocks, res->info_sets, res->failures);
	return rc;
}

int sm_ar_keep_on(struct sm *sm, const struct sm_fabric *f, const bool *touched,
		  const struct topo_path *const *paths, struct sm_arena *arena,
		  struct sm_ar_result *res)
{
	struct ar_plan *pl = sm_arena_alloc(arena, ((size_t)f->topo.n + 1) * sizeof(*pl));
	bool *failed = sm_arena_alloc(arena, (size_t)f->topo.n + 1);
	size_t np = 0;

	memset(res, 0, sizeof(*res));
	if (!pl || !failed)
		return -ENOMEM;
	memset(failed, 0, (size_t)f->topo.n + 1);
	for (uint32_t n = 0; n < f->topo.n; n++) {
		struct sm_ar_switch *e = touched[n] ? sm_ar_find(sm->ar, f->topo.nodes[n].guid) : NULL;
		if (!e || e->probe != SM_AR_CAPABLE || !e->programmed || !e->top)
			continue;
		struct ar_plan *p = &pl[np++];
		*p = (struct ar_plan){ .node = n, .e = e, .path = paths ? paths[n] : NULL,
				       .top = e->top, .lft_sent = true,
				       .sub_grps = (uint8_t)(f->topo.nodes[n].nports / 64) };
		plan_want(p);
	}
	res->switches = np;
	int rc = phase_enable(sm, f, pl, np, arena, failed, res);
	for (size_t i = 0; i < np; i++)
		if (rc || failed[pl[i].node])
			sm_ar_forget(pl[i].e);	/* unknown what it holds: all again next time */
	return rc;
}

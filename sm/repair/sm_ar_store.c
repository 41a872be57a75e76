// SPDX-License-Identifier: MIT
/*
 * sm_ar_store.c - the AR tables programmed into each switch, kept in the
 * store (db_ar.c) so that a restarted daemon sends only what differs (see
 * sm_ar.h for the cache they fill).
 *
 * First contact (the probe found a switch AR-capable for the first time in
 * this process): the store's record of the switch becomes the cache's entry
 * once the switch shows it still holds it, as the static LFTs' record does
 * (sm_program.c): its AdaptiveRoutingInfo, from the probe, has AR on with
 * group_top the record's top (off when the record has no group), and one
 * block of each table read back matches the record: the group table block
 * of the highest group, the AR LFT block of the highest LID bound to a group
 * (LID states and groups; the default ports are the static LFT's, programmed
 * apart).  Another SM may have run between two ibsmd: a mismatch or a Get
 * that fails leaves the switch unknown, and it is programmed whole, as is a
 * switch found reset (LinearFDBTop 0).
 *
 * Before AR blocks go to a switch the store may hold a record of, that record
 * is dropped (on a worker; the loop keeps running), so a daemon stopped
 * midway leaves no record the switch may not hold.  The heavy sweep's store
 * step, and a patch's, then write the entries that changed (sm_ar_store()),
 * or drop the record of a switch whose Set failed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm/core/sm.h"
#include "sm/repair/sm_ar.h"
#include "sm/util/sm_log.h"
#include "sm/core/sm_mkey.h"

/* ---- first contact ---- */

struct learn {
	struct sm_ar_switch *e;
	struct db_ar_table rec;
	bool stale;
};

struct learn_req {
	struct learn *l;
	uint16_t block;
};

/* The highest LID the record binds to a group, or -1. */
static int32_t last_bound(const struct db_ar_table *rec)
{
	for (uint32_t lid = rec->nlid; lid-- > 0;)
		if (rec->lid_group[lid])
			return (int32_t)lid;
	return -1;
}

/* Do the groups of block @b of the group table hold what @rec says? */
static bool groups_match(const struct db_ar_table *rec, uint16_t b, const uint8_t *data)
{
	struct mad_ar_group_block gb;

	if (mad_ar_group_decode(data, &gb))
		return false;
	for (unsigned k = 0; k < MAD_AR_GROUPS_PER_BLOCK; k++) {
		unsigned g = MAD_AR_GROUPS_PER_BLOCK * b + k;
		if (g >= 1 && g <= rec->top &&
		    memcmp(gb.group[k].ports, rec->groups[g - 1], sizeof(gb.group[k].ports)))
			return false;
	}
	return true;
}

/* Do the LIDs of AR LFT block @b have the states and groups @rec says? */
static bool lids_match(const struct db_ar_table *rec, uint16_t b, const uint8_t *data)
{
	struct mad_ar_lft_block lb;

	if (mad_ar_lft_decode(data, &lb))
		return false;
	for (unsigned k = 0; k < MAD_AR_LFT_PER_BLOCK; k++) {
		uint32_t lid = (uint32_t)b * MAD_AR_LFT_PER_BLOCK + k;
		uint16_t g = lid < rec->nlid ? rec->lid_group[lid] : 0;
		if (g ? lb.e[k].state != MAD_AR_BOUNDED || lb.e[k].group != g
		      : lb.e[k].state != MAD_AR_STATIC)
			return false;
	}
	return true;
}

/* The answer to a spot check's Get. */
static void on_spot(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct learn_req *r = ctx;

	if (err || !(req->attr_id == MAD_ATTR_AR_GROUP_TABLE
		     ? groups_match(&r->l->rec, r->block, resp->data)
		     : lids_match(&r->l->rec, r->block, resp->data)))
		r->l->stale = true;
}

static int ask(struct sm *sm, const struct sm_fabric *f, uint32_t n, struct learn *l,
	       struct sm_arena *arena, uint16_t attr, uint16_t block)
{
	struct learn_req *r = sm_arena_alloc(arena, sizeof(*r));
	int rc = r ? mad_rpc_wait_backlog(sm->rpc) : -ENOMEM;

	if (rc)
		return rc;
	*r = (struct learn_req){ .l = l, .block = block };
	uint32_t mod = attr == MAD_ATTR_AR_GROUP_TABLE ? mad_ar_group_mod(block)
		       : mad_ar_lft_mod(block);
	return mad_rpc_submit_dr(sm->rpc, MAD_METHOD_GET, attr, mod, &f->topo.nodes[n].path,
				 sm_mkey_for(f, n, 0), NULL, on_spot, r);
}

/* The record of switch @n into @l, and its spot checks sent; a record the
 * Info from the probe already contradicts is stale at once. */
static int check_record(struct sm *sm, const struct sm_fabric *f, uint32_t n, struct learn *l,
			struct sm_arena *arena)
{
	const struct db_ar_table *rec = &l->rec;
	const struct mad_ar_info *ai = &l->e->info;
	int rc = 0;

	if (rec->top ? !ai->enable || ai->group_top != rec->top : ai->enable) {
		l->stale = true;
		return 0;
	}
	if (rec->top)
		rc = ask(sm, f, n, l, arena, MAD_ATTR_AR_GROUP_TABLE,
			 rec->top / MAD_AR_GROUPS_PER_BLOCK);
	int32_t lid = last_bound(rec);
	if (rc == 0 && lid >= 0)
		rc = ask(sm, f, n, l, arena, MAD_ATTR_AR_LFT,
			 (uint16_t)(lid / MAD_AR_LFT_PER_BLOCK));
	return rc;
}

/* Switch @n's record from the store into @l: true when found.  A record
 * that cannot be read (damaged, or the store failing) is no record, and is
 * dropped at the store step. */
static bool load(struct sm *sm, const struct sm_fabric *f, uint32_t n, struct learn *l)
{
	pthread_mutex_lock(&sm->db_mu);
	int found = sm->db ? db_ar_load(sm->db, f->topo.nodes[n].guid, &l->rec) : -ECANCELED;
	if (found < 0 && sm->db)
		sm_warn("adaptive routing: %s; the switch is programmed whole", db_errmsg(sm->db));
	pthread_mutex_unlock(&sm->db_mu);
	l->e->stored = found != 0;
	l->e->store_due = found < 0;
	return found > 0;
}

int sm_ar_learn(struct sm *sm, const struct sm_fabric *f, struct sm_arena *arena)
{
	struct learn *ls = sm_arena_alloc(arena, ((size_t)f->topo.n + 1) * sizeof(*ls));
	size_t nl = 0, held = 0, stale = 0;
	int rc = ls ? 0 : -ENOMEM;

	for (uint32_t n = 0; rc == 0 && n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		struct sm_ar_switch *e = tn->type == MAD_NODE_SWITCH ? sm_ar_find(sm->ar, tn->guid)
				       : NULL;
		if (!e || e->probe != SM_AR_CAPABLE || e->looked_up)
			continue;
		e->looked_up = true;
		struct learn *l = &ls[nl];
		*l = (struct learn){ .e = e };
		if (!load(sm, f, n, l))
			continue;
		nl++;
		if (!f->attrs[n].si_valid || f->attrs[n].si.lft_top == 0)
			l->stale = true;	/* reset: it holds nothing of it */
		else
			rc = check_record(sm, f, n, l, arena);
	}
	if (rc == 0)
		rc = mad_rpc_drain(sm->rpc);
	for (size_t i = 0; i < nl; i++) {
		struct learn *l = &ls[i];
		struct sm_ar_switch *e = l->e;
		if (rc || l->stale) {
			stale += rc == 0;
			db_ar_table_free(&l->rec);
			e->store_due = true;	/* dropped at the store step */
			continue;
		}
		sm_ar_forget(e);
		e->groups = l->rec.groups;
		e->lid_group = l->rec.lid_group;
		e->top = l->rec.top;
		e->nlid = l->rec.nlid;
		e->programmed = true;
		e->store_due = false;
		held++;
	}
	if (nl)
		sm_info("adaptive routing: %zu switches hold the tables the store records, %zu do "
			"not (reset, or another SM?): those are programmed whole", held, stale);
	return rc;
}

/* ---- before blocks go out ---- */

struct unrecord {
	struct sm *sm;
	uint64_t *guids;
	size_t n;
};

static int unrecord_rows(struct db *db, void *arg)
{
	const struct unrecord *u = arg;
	int rc = 0;

	for (size_t i = 0; rc >= 0 && i < u->n; i++)
		rc = db_ar_forget(db, u->guids[i]);
	return rc;
}

static int unrecord_job(void *arg)
{
	struct unrecord *u = arg;
	struct sm *sm = u->sm;

	pthread_mutex_lock(&sm->db_mu);
	int rc = sm->db ? db_batch(sm->db, unrecord_rows, u) : -ECANCELED;
	if (rc && sm->db)
		sm_warn("adaptive routing: the records of the switches about to change were not "
			"dropped from the store: %s", db_errmsg(sm->db));
	pthread_mutex_unlock(&sm->db_mu);
	return rc;
}

int sm_ar_unrecord(struct sm *sm, struct sm_ar_switch *const *sw, size_t n,
		   struct sm_arena *arena)
{
	struct unrecord *u = sm_arena_alloc(arena, sizeof(*u));
	uint64_t *guids = sm_arena_alloc(arena, (n + 1) * sizeof(*guids));

	if (!u || !guids)
		return -ENOMEM;
	*u = (struct unrecord){ .sm = sm, .guids = guids };
	for (size_t i = 0; i < n; i++)
		if (sw[i]->stored)
			guids[u->n++] = sw[i]->guid;
	if (!u->n)
		return 0;
	struct sm_job *j = sm_job_start(sm, unrecord_job, u);
	if (!j)
		return -ENOMEM;
	int rc = sm_job_wait(sm, j);
	if (rc == -ECANCELED && sm->abandoned)
		return rc;	/* stopping; the worker still uses @u */
	for (size_t i = 0; rc == 0 && i < n; i++)
		sw[i]->stored = false;
	return 0;	/* not dropped: logged; programming goes on */
}

/* ---- the store step ---- */

int sm_ar_store(struct db *db, struct sm_ar_cache *c)
{
	int rc = 0;

	for (size_t i = 0; rc >= 0 && i < c->n; i++) {
		struct sm_ar_switch *e = &c->sw[i];
		if (!e->store_due)
			continue;
		if (e->programmed) {
			const struct db_ar_table t = { .top = e->top, .groups = e->groups,
						       .nlid = e->nlid, .lid_group = e->lid_group };
			rc = db_ar_save(db, e->guid, &t);
			e->stored = true;
		} else if (e->stored) {
			rc = db_ar_forget(db, e->guid);
		}
		e->store_due = rc < 0;
	}
	return rc < 0 ? rc : 0;
}

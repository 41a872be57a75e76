// SPDX-License-Identifier: MIT
/*
 * sm_part_store.c - what the store keeps of the partitions and the multicast
 * groups, for `smquery partitions` and `smquery mcast` (db_part.c).
 *
 * The partitions go with each heavy sweep (in its transaction): each one as
 * the file gives it, its member entries as written there, and how many ports
 * the sweep found to be members.  The groups go after each MFT programming
 * (sm_mcast_program.c): each group with every parameter, its tree size, its
 * members with their JoinState, through sm->store (the loop thread never
 * waits for a worker's store).
 *
 * The groups come back when the store opens (sm_mcast_load()): a restarted
 * SM serves them at once, MLIDs and members as they were, before any host
 * had to join again (OpenSM keeps none unless sa_db_dump is set, and leans
 * on ClientReregister alone).  A row the SA's rules refuse (no multicast
 * MGID, an MLID outside the range or taken twice, a JoinState of 0 or above
 * 0xf, a member GUID 0, a group no (send-only) full member keeps that is
 * not an IPoIB broadcast group) is skipped and logged; the rest load.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/util/sm_log.h"
#include "sm/sa/sm_part_store.h"
#include "sm/sa/sm_mcast.h"
#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_sa.h"

int sm_part_store(struct db *db, const struct sm_partitions *ps, const struct sm_pkey_ports *pp)
{
	size_t nm = 0;

	for (size_t i = 0; i < ps->n; i++)
		nm += ps->p[i].nmembers;
	struct db_partition *p = calloc(ps->n + 1, sizeof(*p));
	struct db_partition_member *m = calloc(nm + 1, sizeof(*m));
	char (*text)[24] = calloc(nm + 1, sizeof(*text));
	int rc = -ENOMEM;

	if (!p || !m || !text)
		goto out;
	nm = 0;
	for (size_t i = 0; i < ps->n; i++) {
		const struct sm_partition *sp = &ps->p[i];
		p[i] = (struct db_partition){ .pkey = sp->pkey, .name = sp->name, .ipoib = sp->ipoib,
					      .mtu = sm_pkey_mtu_word(sp->mtu),
					      .rate = sm_pkey_rate_word(sp->rate), .sl = sp->sl };
		for (size_t k = 0; k < sp->nmembers; k++) {
			static const char *const kinds[] = {
				[SM_PKEY_MEMBER_ALL] = "all", [SM_PKEY_MEMBER_ALL_CAS] = "ALL_CAS",
				[SM_PKEY_MEMBER_ALL_SWITCHES] = "ALL_SWITCHES",
				[SM_PKEY_MEMBER_ALL_ROUTERS] = "ALL_ROUTERS",
				[SM_PKEY_MEMBER_SELF] = "SELF",
			};
			const struct sm_pkey_member *mm = &sp->members[k];
			const char *who = mm->kind == SM_PKEY_MEMBER_NAME ? mm->name : kinds[mm->kind];
			if (mm->kind == SM_PKEY_MEMBER_GUID) {
				snprintf(text[nm], sizeof(text[nm]), "0x%016llx",
					 (unsigned long long)mm->guid);
				who = text[nm];
			}
			m[nm++] = (struct db_partition_member){ .pkey = sp->pkey, .member = who,
								.full = mm->full };
		}
	}
	/* ports per partition, from each port's keys */
	for (uint32_t s = 0; pp && pp->slot && s < pp->slot[pp->nnodes]; s++)
		for (uint32_t k = pp->off[s]; k < pp->off[s + 1]; k++)
			if (pp->parts[k] < ps->n)
				p[pp->parts[k]].ports++;
	rc = db_partitions_save(db, p, ps->n, m, nm);
out:
	free(p);
	free(m);
	free(text);
	return rc;
}

/* The groups and members for the store, in one allocation the queue owns:
 * the arrays and the MGID texts follow the header. */
struct mcast_rec {
	size_t n, nm;
	struct db_mcast_group *g;
	struct db_mcast_member *m;
};

static int write_mcast(struct db *db, void *data)
{
	const struct mcast_rec *r = data;

	return db_mcast_save(db, r->g, r->n, r->m, r->nm);
}

int sm_mcast_store(struct sm *sm)
{
	const struct sm_mcast *mc = &sm->sa->mcast;
	size_t nm = 0;

	if (!sm->db)
		return 0;
	for (size_t i = 0; i < mc->n; i++)
		nm += mc->groups[i]->n;
	size_t size = sizeof(struct mcast_rec) + mc->n * sizeof(struct db_mcast_group) +
		      nm * sizeof(struct db_mcast_member) + mc->n * INET6_ADDRSTRLEN;
	struct mcast_rec *r = calloc(1, size);
	if (r) {
		r->n = mc->n;
		r->g = (struct db_mcast_group *)(r + 1);
		r->m = (struct db_mcast_member *)(r->g + mc->n);
		char (*text)[INET6_ADDRSTRLEN] = (char (*)[INET6_ADDRSTRLEN])(r->m + nm);
		for (size_t i = 0; i < mc->n; i++) {
			const struct sm_mcast_group *sg = mc->groups[i];
			inet_ntop(AF_INET6, sg->mgid, text[i], sizeof(text[i]));
			r->g[i] = (struct db_mcast_group){
				.mgid = text[i], .mlid = sg->mlid, .pkey = sg->pkey, .qkey = sg->qkey,
				.mtu = sm_pkey_mtu_word(sg->mtu), .rate = sm_pkey_rate_word(sg->rate),
				.mtu_code = sg->mtu, .rate_code = sg->rate, .tclass = sg->tclass,
				.flow_label = sg->flow_label, .hop_limit = sg->hop_limit,
				.scope = sg->scope, .lifetime = sg->lifetime,
				.sl = sg->sl,
				.well_known = sg->well_known, .tree_switches = sg->tree_switches };
			for (size_t k = 0; k < sg->n; k++)
				r->m[r->nm++] = (struct db_mcast_member){ .mgid = text[i],
					.guid = sg->members[k].guid, .join_state = sg->members[k].join };
		}
	}
	/* queued while a worker stores a sweep (sm_store_queue.h); a failure is logged */
	return sm_store_put(&sm->store, write_mcast, r, size, "multicast groups");
}

/* Reading the groups back: how many loaded and skipped, the group being
 * filled, and why the last row was skipped. */
struct mcast_load {
	struct db *db;
	struct sm_mcast *mc;
	struct sm_mcast_group *g;
	size_t groups, members, skipped;
	char why[128];
};

static void skip(struct mcast_load *l, const char *mgid, const char *why)
{
	l->skipped++;
	sm_warn("multicast: group %s in the store not loaded: %s", mgid, why);
}

static int load_member(void *arg, const struct db_mcast_member *m)
{
	struct mcast_load *l = arg;

	if (!m->guid || !m->join_state || m->join_state > 0xf) {
		snprintf(l->why, sizeof(l->why), "member 0x%016llx with JoinState 0x%x",
			 (unsigned long long)m->guid, m->join_state);
		return -EINVAL;
	}
	return sm_mcast_join(l->mc, l->g, m->guid, m->join_state);
}

static int load_group(void *arg, const struct db_mcast_group *dg)
{
	struct mcast_load *l = arg;
	struct sm_mcast_group t = {
		.mlid = dg->mlid, .pkey = dg->pkey, .qkey = dg->qkey,
		.mtu = dg->mtu_code ? dg->mtu_code : dg->mtu ? sm_pkey_mtu_code(dg->mtu) : 0,
		.rate = dg->rate_code ? dg->rate_code : dg->rate ? sm_pkey_rate_code(dg->rate) : 0,
		.sl = dg->sl, .tclass = dg->tclass, .hop_limit = dg->hop_limit, .scope = dg->scope,
		.lifetime = dg->lifetime, .flow_label = dg->flow_label, .well_known = dg->well_known,
	};
	const char *id = dg->mgid ? dg->mgid : "(none)";

	if (!dg->mgid || inet_pton(AF_INET6, dg->mgid, t.mgid) != 1) {
		skip(l, id, "not a GID");
		return 0;
	}
	if (!sm_pkey_mtu_word(t.mtu) || !t.rate || t.rate > 0x3f || t.sl > 15 || t.scope > 15 ||
	    t.flow_label > 0xfffff) {
		skip(l, id, "an MTU, rate, SL, scope or flow label IBA does not define");
		return 0;
	}
	int rc = sm_mcast_restore(l->mc, &t, &l->g);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		skip(l, id, rc == -ERANGE ? "no multicast MGID, or an MLID outside 0xC000-0xFFFE"
					  : "its MGID or MLID is another group's");
		return 0;
	}
	l->why[0] = '\0';
	rc = db_mcast_members_each(l->db, dg->mgid, load_member, l);
	bool full = false;
	for (size_t i = 0; !rc && i < l->g->n; i++)
		full |= (l->g->members[i].join & SM_MCAST_FULL) != 0;
	if (!rc && !full && !l->g->well_known) {
		snprintf(l->why, sizeof(l->why), "no (send-only) full member keeps it");
		rc = -EINVAL;
	}
	if (rc) {
		sm_mcast_drop(l->mc, l->g);	/* out again, its MLID free */
		if (rc == -ENOMEM)
			return rc;
		skip(l, id, l->why[0] ? l->why : strerror(-rc));
		return 0;
	}
	l->groups++;
	l->members += l->g->n;
	return 0;
}

void sm_mcast_load(struct sm *sm)
{
	struct mcast_load l = { .db = sm->db, .mc = &sm->sa->mcast };

	if (!sm->db)
		return;
	pthread_mutex_lock(&sm->db_mu);
	int rc = db_mcast_each(sm->db, load_group, &l);
	pthread_mutex_unlock(&sm->db_mu);
	if (rc)
		sm_err("multicast: reading the groups from the store: %s; %zu loaded", strerror(-rc),
		       l.groups);
	else if (l.groups || l.skipped)
		sm_notice("multicast: %zu groups with %zu members loaded from the store%s",
			  l.groups, l.members, l.skipped ? ", some skipped" : "");
}

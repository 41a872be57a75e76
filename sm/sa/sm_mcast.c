// SPDX-License-Identifier: MIT
/*
 * sm_mcast.c - multicast groups, their members and MLIDs (see sm_mcast.h).
 *
 * Data: an array of groups (a few thousand at most: found by a linear scan of
 * MGIDs), each with an array of members kept in port GUID order, and a bitmap
 * of the MLIDs in use from 0xC000.  A new group takes the lowest free MLID not
 * above mlid_limit (the smallest MFT the fabric's switches hold).  Every
 * change marks the state dirty, so the MFTs are programmed again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_sa_mcmember.h"
#include "sm/sa/sm_mcast.h"
#include "sm/sa/sm_qos.h"
#include "sm/sa/sm_sa_records.h"


void sm_mcast_init(struct sm_mcast *mc)
{
	memset(mc, 0, sizeof(*mc));
	mc->mlid_limit = SM_MLID_LAST;
}

static void group_free(struct sm_mcast_group *g)
{
	free(g->members);
	free(g);
}

void sm_mcast_free(struct sm_mcast *mc)
{
	for (size_t i = 0; i < mc->n; i++)
		group_free(mc->groups[i]);
	free(mc->groups);
	for (uint32_t i = 0; i < mc->nsw; i++)
		free(mc->sw[i].held);
	free(mc->sw);
	memset(mc, 0, sizeof(*mc));
}

static int cmp_guid(const void *key, const void *elem)
{
	uint64_t g = *(const uint64_t *)key;
	const struct sm_mcast_sw *s = elem;

	return g < s->guid ? -1 : g > s->guid;
}

const struct sm_mcast_sw *sm_mcast_switch(const struct sm_mcast *mc, uint64_t guid)
{
	return mc->nsw ? bsearch(&guid, mc->sw, mc->nsw, sizeof(*mc->sw), cmp_guid) : NULL;
}

const uint16_t *sm_mcast_held(const struct sm_mcast_sw *s, uint32_t block, uint8_t pos)
{
	return s->held + ((size_t)block * s->npos + pos) * SM_MFT_BLOCK;
}

struct sm_mcast_group *sm_mcast_find(const struct sm_mcast *mc, const uint8_t *mgid)
{
	for (size_t i = 0; i < mc->n; i++)
		if (memcmp(mc->groups[i]->mgid, mgid, MAD_GID_LEN) == 0)
			return mc->groups[i];
	return NULL;
}

size_t sm_mcast_mlids_free(const struct sm_mcast *mc)
{
	size_t room = mc->mlid_limit >= SM_MLID_FIRST ? mc->mlid_limit - SM_MLID_FIRST + 1u : 0;
	size_t used = 0;

	for (size_t i = 0; i < mc->n; i++)	/* groups above a lowered limit hold none of it */
		used += mc->groups[i]->mlid <= mc->mlid_limit;
	return room > used ? room - used : 0;
}

static bool mlid_taken(const struct sm_mcast *mc, unsigned i)
{
	return mc->mlid_used[i / 64] & (1ull << (i % 64));
}

static void mlid_mark(struct sm_mcast *mc, uint16_t mlid, bool used)
{
	unsigned i = mlid - SM_MLID_FIRST;

	if (used)
		mc->mlid_used[i / 64] |= 1ull << (i % 64);
	else
		mc->mlid_used[i / 64] &= ~(1ull << (i % 64));
	mc->mlids += used ? 1 : (size_t)-1;
}

/* The lowest free MLID, 0 when none is left. */
static uint16_t mlid_alloc(const struct sm_mcast *mc)
{
	for (unsigned i = 0; i + SM_MLID_FIRST <= mc->mlid_limit; i++) {
		if (mc->mlid_used[i / 64] == UINT64_MAX) {
			i += 63;
			continue;
		}
		if (!mlid_taken(mc, i))
			return (uint16_t)(SM_MLID_FIRST + i);
	}
	return 0;
}

/* An MGID the SA assigns (IBA 15.4.2.2): ff12:601b::, then a counter. */
static void assign_mgid(struct sm_mcast *mc, uint8_t mgid[MAD_GID_LEN])
{
	do {
		memset(mgid, 0, MAD_GID_LEN);
		mgid[0] = 0xff;
		mgid[1] = 0x12;
		mgid[2] = 0x60;
		mgid[3] = 0x1b;
		uint32_t k = ++mc->next_mgid;
		for (int i = 0; i < 4; i++)
			mgid[12 + i] = (uint8_t)(k >> (24 - 8 * i));
	} while (sm_mcast_find(mc, mgid));
}

/* A group @id on @mlid (free) with @tmpl's parameters, no member yet. */
static int group_add(struct sm_mcast *mc, const uint8_t *id, uint16_t mlid,
		     const struct sm_mcast_group *tmpl, struct sm_mcast_group **out)
{
	if (mc->n == mc->cap) {
		size_t cap = mc->cap ? mc->cap * 2 : 16;
		struct sm_mcast_group **gs = realloc(mc->groups, cap * sizeof(*gs));
		if (!gs)
			return -ENOMEM;
		mc->groups = gs;
		mc->cap = cap;
	}
	struct sm_mcast_group *g = malloc(sizeof(*g));
	if (!g)
		return -ENOMEM;
	*g = *tmpl;
	g->members = NULL;
	g->n = g->cap = 0;
	g->tree_switches = 0;
	memcpy(g->mgid, id, MAD_GID_LEN);
	g->mlid = mlid;
	mlid_mark(mc, mlid, true);
	mc->groups[mc->n++] = g;
	mc->dirty = true;
	*out = g;
	return 0;
}

int sm_mcast_create(struct sm_mcast *mc, const uint8_t *mgid,
		    const struct sm_mcast_group *tmpl, struct sm_mcast_group **out)
{
	static const uint8_t zero[MAD_GID_LEN];
	uint8_t id[MAD_GID_LEN];

	if (memcmp(mgid, zero, MAD_GID_LEN) == 0)
		assign_mgid(mc, id);
	else if (sm_mcast_find(mc, mgid))
		return -EEXIST;
	else
		memcpy(id, mgid, MAD_GID_LEN);
	uint16_t mlid = mlid_alloc(mc);
	if (!mlid)
		return -ENOSPC;
	return group_add(mc, id, mlid, tmpl, out);
}

int sm_mcast_restore(struct sm_mcast *mc, const struct sm_mcast_group *tmpl,
		     struct sm_mcast_group **out)
{
	if (tmpl->mgid[0] != 0xff || tmpl->mlid < SM_MLID_FIRST || tmpl->mlid > SM_MLID_LAST)
		return -ERANGE;
	if (sm_mcast_find(mc, tmpl->mgid) || mlid_taken(mc, tmpl->mlid - SM_MLID_FIRST))
		return -EEXIST;
	return group_add(mc, tmpl->mgid, tmpl->mlid, tmpl, out);
}

/* The index of @guid in @g's members, or where it would go (*@found false). */
static size_t member_at(const struct sm_mcast_group *g, uint64_t guid, bool *found)
{
	size_t lo = 0, hi = g->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (g->members[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < g->n && g->members[lo].guid == guid;
	return lo;
}

bool sm_mcast_is_member(const struct sm_mcast_group *g, uint64_t guid)
{
	bool found;

	member_at(g, guid, &found);
	return found;
}

size_t sm_mcast_port_groups(const struct sm_mcast *mc, uint64_t guid)
{
	size_t n = 0;

	for (size_t i = 0; i < mc->n; i++)
		n += !mc->groups[i]->well_known && sm_mcast_is_member(mc->groups[i], guid);
	return n;
}

int sm_mcast_join(struct sm_mcast *mc, struct sm_mcast_group *g, uint64_t guid, uint8_t join)
{
	bool found;
	size_t i = member_at(g, guid, &found);

	if (found) {
		mc->dirty |= (g->members[i].join | join) != g->members[i].join;
		g->members[i].join |= join;
		return 0;
	}
	if (g->n >= SM_MCAST_MAX_MEMBERS)
		return -E2BIG;
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 4;
		struct sm_mcast_member *m = realloc(g->members, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		g->members = m;
		g->cap = cap;
	}
	memmove(g->members + i + 1, g->members + i, (g->n - i) * sizeof(*g->members));
	g->members[i] = (struct sm_mcast_member){ .guid = guid, .join = join };
	g->n++;
	mc->dirty = true;
	return 0;
}

void sm_mcast_drop(struct sm_mcast *mc, struct sm_mcast_group *g)
{
	for (size_t i = 0; i < mc->n; i++) {
		if (mc->groups[i] != g)
			continue;
		mc->groups[i] = mc->groups[--mc->n];
		break;
	}
	mlid_mark(mc, g->mlid, false);
	group_free(g);
	mc->dirty = true;
}

int sm_mcast_leave(struct sm_mcast *mc, struct sm_mcast_group *g, uint64_t guid, uint8_t join,
		   bool *deleted)
{
	bool found;
	size_t i = member_at(g, guid, &found);

	*deleted = false;
	if (!found || !(g->members[i].join & join))
		return -ENOENT;
	g->members[i].join &= (uint8_t)~join;
	if (!g->members[i].join) {
		memmove(g->members + i, g->members + i + 1, (g->n - i - 1) * sizeof(*g->members));
		g->n--;
	}
	mc->dirty = true;
	bool full = false;
	for (size_t k = 0; k < g->n && !full; k++)
		full = g->members[k].join & SM_MCAST_FULL;
	if (!full && !g->well_known) {	/* IBA 15.4.4: the last full member left */
		sm_mcast_drop(mc, g);
		*deleted = true;
	}
	return 0;
}

void sm_mcast_ipoib_mgid(uint16_t pkey, uint8_t mgid[MAD_GID_LEN])
{
	static const uint8_t base[MAD_GID_LEN] = {
		0xff, 0x12, 0x40, 0x1b, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
	};

	memcpy(mgid, base, MAD_GID_LEN);
	pkey |= 0x8000;	/* the full-member P_Key, as IPoIB forms it */
	mgid[4] = (uint8_t)(pkey >> 8);
	mgid[5] = (uint8_t)pkey;
}

/* Group @g of the partition @pkey, once per scope it names, made well known
 * where missing, within QoS level @lv (NULL: none).  0 or the first -errno of
 * sm_mcast_create(). */
static int well_known(struct sm_mcast *mc, uint16_t pkey, const struct sm_pkey_group *g,
		      const struct sm_qos_level *lv)
{
	int first = 0;

	for (uint8_t scope = 1; scope < 16; scope++) {
		uint8_t mgid[MAD_GID_LEN];
		struct sm_mcast_group *made;
		if (!(g->scopes & (1u << scope)))
			continue;
		memcpy(mgid, g->mgid, sizeof(mgid));
		mgid[1] = (uint8_t)((mgid[1] & 0xf0) | scope);
		if ((made = sm_mcast_find(mc, mgid))) {
			made->well_known = true;
			continue;
		}
		struct sm_mcast_group t = {
			.pkey = (uint16_t)(pkey | 0x8000), .qkey = g->qkey, .mtu = g->mtu,
			.rate = g->rate, .sl = g->sl, .tclass = g->tclass,
			.flow_label = g->flow_label, .scope = scope,
			.hop_limit = scope == SM_PKEY_SCOPE_LINK ? 0 : 0xff, .well_known = true,
		};
		sm_qos_limit(lv, sm_sa_rate_of, &t.mtu, &t.rate, &t.sl);
		int rc = sm_mcast_create(mc, mgid, &t, &made);
		if (rc && !first)
			first = rc;
	}
	return first;
}

int sm_mcast_partition(struct sm_mcast *mc, const struct sm_partition *p,
		       const struct sm_qos_level *lv)
{
	int first = 0;

	for (size_t i = 0; i < p->ngroups; i++) {
		int rc = well_known(mc, p->pkey, &p->groups[i], lv);
		if (rc && !first)
			first = rc;
	}
	if (!p->ipoib)
		return first;
	struct sm_pkey_group b = {
		.scopes = p->scopes ? p->scopes : 1u << SM_PKEY_SCOPE_LINK,
		.qkey = p->qkey ? p->qkey : SM_PKEY_IPOIB_QKEY, .mtu = p->mtu ? p->mtu : SM_MCAST_MTU_DEFAULT,
		.rate = p->rate ? p->rate : SM_MCAST_RATE_DEFAULT, .sl = p->sl, .tclass = p->tclass,
		.flow_label = p->flow_label,
	};
	sm_mcast_ipoib_mgid(p->pkey, b.mgid);
	int rc = well_known(mc, p->pkey, &b, lv);
	return first ? first : rc;
}

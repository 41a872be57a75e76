// SPDX-License-Identifier: MIT
/*
 * sm_sa_mcmember.c - MCMemberRecord (IBA 15.2.5.17): multicast joins, leaves
 * and the groups' member lists, over the groups of sm_mcast.c.
 *
 * Set is a join: PortGID and JoinState are required.  The group is named by
 * its MGID (or MLID); a missing group is created when the join is a full
 * member's or a send-only full member's (IPoIB sends to groups it does not
 * receive from so, OpenSM creates for both) and names Q_Key and P_Key (MGID
 * 0: the SA assigns one), with the
 * MTU, rate, SL, flow label, TClass, hop limit and scope the template gives
 * (else the partition's MTU and rate, or 2048 and 10G).  Joining an existing
 * group must agree with its Q_Key and P_Key, and with its MTU and rate under
 * the selectors given.  The port must be a member of the group's partition.
 * Delete is a leave of the JoinState bits named; the group goes when its last
 * (send-only) full member has left (sm_mcast.c), freeing its MLID.  Get and GetTable list
 * a record per (group, member) matching the components; a group with no
 * member (an IPoIB broadcast group nobody joined yet) is listed once, with
 * PortGID 0 and JoinState 0, unless PortGID or JoinState is asked for.
 *
 * Statuses: a malformed join or leave (a unicast MGID, JoinState 0 or above
 * 0xf, a group or member that does not exist, parameters that disagree) is
 * ERR_REQ_INVALID; missing components ERR_REQ_INSUFFICIENT_COMPONENTS; a
 * PortGID outside the subnet or unknown ERR_REQ_INVALID_GID; no MLID left
 * ERR_NO_RESOURCES, and so is a join past the port's share of groups or a
 * new group that would take an MLID kept for the IPoIB broadcast groups
 * (sm_mcast.h; both counted in the groups' refused).
 *
 * Proxy joins (IBA 15.2.5.17, o15-0.2.x): a requester joins and leaves for
 * its own port only, the port owning the LID it asked from (any LID of its
 * LMC range); for another port only when trusted, its request carrying the
 * SM_Key.  Others get ERR_REQ_DENIED and change nothing.  A request with no
 * requester LID comes from inside the SM (no MAD) and is taken as trusted.
 */
#include <errno.h>
#include <string.h>

#include "mad/mad_sa_mcmember.h"
#include "sm/sa/sm_sa_records.h"

#define M(bit) MAD_SA_MCMR_##bit

static uint64_t gid_guid(const uint8_t *gid, uint64_t *prefix)
{
	uint64_t g = 0;

	*prefix = 0;
	for (int i = 0; i < 8; i++) {
		*prefix = *prefix << 8 | gid[i];
		g = g << 8 | gid[8 + i];
	}
	return g;
}

static void guid_gid(uint64_t prefix, uint64_t guid, uint8_t *gid)
{
	for (int i = 0; i < 8; i++) {
		gid[i] = (uint8_t)(prefix >> (56 - 8 * i));
		gid[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
}

/* The record of member @m (NULL: none) of @g. */
static void record(const struct sm_sa_source *src, const struct sm_mcast_group *g,
		   const struct sm_mcast_member *m, struct mad_sa_mcmember_record *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->mgid, g->mgid, MAD_GID_LEN);
	if (m) {
		guid_gid(src->subnet_prefix, m->guid, r->port_gid);
		r->join_state = m->join;
	}
	r->qkey = g->qkey;
	r->mlid = g->mlid;
	r->mtu_selector = r->rate_selector = r->lifetime_selector = 2;
	r->mtu = g->mtu;
	r->rate = g->rate;
	r->packet_lifetime = g->lifetime;
	r->tclass = g->tclass;
	r->pkey = g->pkey;
	r->sl = g->sl;
	r->flow_label = g->flow_label;
	r->hop_limit = g->hop_limit;
	r->scope = g->scope;
}

static void add(const struct sm_sa_source *src, const struct sm_mcast_group *g,
		const struct sm_mcast_member *m, struct sa_out *o)
{
	struct mad_sa_mcmember_record r;
	uint8_t rec[MAD_SA_MCMEMBER_RECORD_SIZE];

	record(src, g, m, &r);
	mad_sa_mcmember_record_encode(&r, rec);
	sa_out_add(o, rec);
}

static bool group_matches(const struct sm_mcast_group *g, const struct mad_sa_mcmember_record *t,
			  uint64_t m)
{
	return (!(m & M(MGID)) || !memcmp(g->mgid, t->mgid, MAD_GID_LEN)) &&
	       SA_COMP(m, 2, g->qkey, t->qkey) && SA_COMP(m, 3, g->mlid, t->mlid) &&
	       SA_COMP(m, 5, g->mtu, t->mtu) && SA_COMP(m, 6, g->tclass, t->tclass) &&
	       (!(m & M(PKEY)) || (g->pkey & 0x7fff) == (t->pkey & 0x7fff)) &&
	       SA_COMP(m, 9, g->rate, t->rate) && SA_COMP(m, 12, g->sl, t->sl) &&
	       SA_COMP(m, 13, g->flow_label, t->flow_label) &&
	       SA_COMP(m, 14, g->hop_limit, t->hop_limit) && SA_COMP(m, 15, g->scope, t->scope);
}

static uint16_t list(const struct sm_sa_source *src, const struct mad_sa_mcmember_record *t,
		     uint64_t m, struct sa_out *o)
{
	const struct sm_mcast *mc = src->mcast;
	uint64_t prefix, guid = gid_guid(t->port_gid, &prefix);

	for (size_t i = 0; mc && i < mc->n; i++) {
		const struct sm_mcast_group *g = mc->groups[i];
		if (!group_matches(g, t, m))
			continue;
		if (!g->n && !(m & (M(PORT_GID) | M(JOIN_STATE))))
			add(src, g, NULL, o);
		for (size_t k = 0; k < g->n; k++) {
			const struct sm_mcast_member *mm = &g->members[k];
			if ((m & M(PORT_GID)) && (mm->guid != guid || prefix != src->subnet_prefix))
				continue;
			if ((m & M(JOIN_STATE)) && !(mm->join & t->join_state))
				continue;
			add(src, g, mm, o);
		}
	}
	return 0;
}

/* The group @t names by MGID or MLID, or NULL. */
static struct sm_mcast_group *named(const struct sm_mcast *mc,
				    const struct mad_sa_mcmember_record *t, uint64_t m)
{
	static const uint8_t zero[MAD_GID_LEN];

	if ((m & M(MGID)) && memcmp(t->mgid, zero, MAD_GID_LEN))
		return sm_mcast_find(mc, t->mgid);
	for (size_t i = 0; (m & M(MLID)) && i < mc->n; i++)
		if (mc->groups[i]->mlid == t->mlid)
			return mc->groups[i];
	return NULL;
}

/* An MTU or rate the selector accepts of a group holding @have (codes in
 * the order of their values for MTUs; rates compared as codes only when
 * exactly asked). */
static bool selected(uint8_t sel, uint8_t want, uint8_t have)
{
	switch (sel) {
	case 0: return have > want;
	case 1: return have < want;
	case 2: return have == want;
	default: return true;
	}
}

/* The port @t joins or leaves with (PortGID and JoinState given, JoinState
 * 1..0xf): in the subnet and the fabric, and the requester's own unless it
 * is @trusted.  0 or an SA status. */
static uint16_t joiner(const struct sm_sa_source *src, const struct mad_sa_mcmember_record *t,
		       uint64_t m, bool trusted, uint64_t *guid, struct sa_port *at)
{
	uint64_t prefix;

	if ((m & (M(PORT_GID) | M(JOIN_STATE))) != (M(PORT_GID) | M(JOIN_STATE)))
		return MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS;
	if (!t->join_state || t->join_state > 0xf)
		return MAD_SA_ERR_REQ_INVALID;
	*guid = gid_guid(t->port_gid, &prefix);
	if (prefix != src->subnet_prefix || !sa_guid_port(src, *guid, at))
		return MAD_SA_ERR_REQ_INVALID_GID;
	*guid = sa_port_of(src->f, *at)->guid;	/* an alias joins as its port */
	return sa_requester_is(src, trusted, *at) ? 0 : MAD_SA_ERR_REQ_DENIED;	/* a proxy */
}

/* The MLIDs a group the SA makes must leave free (sm_mcast.h): one for the
 * broadcast group of every IPoIB partition that has none yet, and spares. */
static size_t ipoib_reserve(const struct sm_sa_source *src)
{
	size_t n = SM_MCAST_SPARE_MLIDS;
	uint8_t mgid[MAD_GID_LEN];

	for (size_t i = 0; src->partitions && i < src->partitions->n; i++) {
		const struct sm_partition *p = &src->partitions->p[i];
		sm_mcast_ipoib_mgid(p->pkey, mgid);
		n += p->ipoib && !sm_mcast_find(src->mcast, mgid);
	}
	return n;
}

/* A new group's parameters from the template, the partition's or defaults,
 * under the QoS level of its P_Key (sm_qos_match_pkey()). */
static uint16_t new_group(const struct sm_sa_source *src, const struct mad_sa_mcmember_record *t,
			  uint64_t m, struct sm_mcast_group **out)
{
	const struct sm_partition *part = NULL;

	if (!(t->join_state & SM_MCAST_FULL) || ((m & M(MGID)) && t->mgid[0] != 0xff &&
						   memcmp(t->mgid, (uint8_t[MAD_GID_LEN]){ 0 },
							  MAD_GID_LEN)))
		return MAD_SA_ERR_REQ_INVALID;	/* a (send-only) full member creates; a multicast GID */
	for (size_t i = 0; src->partitions && i < src->partitions->n; i++)
		if (src->partitions->p[i].pkey == (t->pkey & 0x7fff))
			part = &src->partitions->p[i];
	struct sm_mcast_group g = {
		.pkey = t->pkey, .qkey = t->qkey,
		.mtu = (m & M(MTU)) && t->mtu >= 1 && t->mtu <= 5 ? t->mtu
		       : part && part->mtu ? part->mtu : SM_MCAST_MTU_DEFAULT,
		.rate = (m & M(RATE)) && t->rate ? t->rate : part && part->rate ? part->rate : SM_MCAST_RATE_DEFAULT,
		.sl = (m & M(SL)) ? t->sl : part ? part->sl : 0,
		.flow_label = (m & M(FLOW_LABEL)) ? t->flow_label : 0,
		.tclass = (m & M(TCLASS)) ? t->tclass : 0,
		.hop_limit = (m & M(HOP_LIMIT)) ? t->hop_limit : 0,
		.scope = (m & M(SCOPE)) ? t->scope : 2,
		.lifetime = (m & M(LIFE)) ? t->packet_lifetime : 0,
	};
	if (sm_mcast_mlids_free(src->mcast) <= ipoib_reserve(src)) {
		src->mcast->refused++;
		return MAD_SA_ERR_NO_RESOURCES;
	}
	/* the QoS policy's level for the P_Key: its SL, its MTU and rate limits */
	sm_qos_limit(src->qos ? sm_qos_match_pkey(src->qos, t->pkey) : NULL, sm_sa_rate_of,
		     &g.mtu, &g.rate, &g.sl);
	int rc = sm_mcast_create(src->mcast, (m & M(MGID)) ? t->mgid : (uint8_t[MAD_GID_LEN]){ 0 },
				 &g, out);
	return rc == -ENOSPC || rc == -ENOMEM ? MAD_SA_ERR_NO_RESOURCES
	       : rc ? MAD_SA_ERR_REQ_INVALID : 0;
}

/* Would port @guid joining @g (NULL: a new group) be one group more than its
 * share?  Counted as refused when so. */
static bool over_share(const struct sm_sa_source *src, const struct sm_mcast_group *g,
		       uint64_t guid)
{
	if (g && (g->well_known || sm_mcast_is_member(g, guid)))
		return false;	/* no group more */
	if (sm_mcast_port_groups(src->mcast, guid) < SM_MCAST_MAX_GROUPS_PER_PORT)
		return false;
	src->mcast->refused++;
	return true;
}

static uint16_t join(const struct sm_sa_source *src, const struct mad_sa_mcmember_record *t,
		     uint64_t m, bool trusted, struct sa_out *o)
{
	struct sm_mcast_group *g;
	struct sa_port at;
	uint64_t guid;
	bool full;

	uint16_t st = joiner(src, t, m, trusted, &guid, &at);
	if (st)
		return st;
	uint16_t pkey = (m & M(PKEY)) ? t->pkey : 0;
	if (!(g = named(src->mcast, t, m))) {
		if ((m & M(MLID)) && !(m & M(MGID)))
			return MAD_SA_ERR_REQ_INVALID;	/* an MLID we did not give */
		if ((m & (M(QKEY) | M(PKEY))) != (M(QKEY) | M(PKEY)))
			return MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS;
		if (!sm_pkey_member(src->pkeys, at.node, at.port, pkey, &full))
			return MAD_SA_ERR_REQ_INVALID;
		if (over_share(src, NULL, guid))
			return MAD_SA_ERR_NO_RESOURCES;
		if ((st = new_group(src, t, m, &g)))
			return st;
	} else if (((m & M(QKEY)) && t->qkey != g->qkey) ||
		   ((m & M(PKEY)) && (t->pkey & 0x7fff) != (g->pkey & 0x7fff)) ||
		   ((m & M(MTU_SELECTOR)) && (m & M(MTU)) &&
		    !selected(t->mtu_selector, t->mtu, g->mtu)) ||
		   ((m & M(RATE_SELECTOR)) && (m & M(RATE)) && t->rate_selector == 2 &&
		    t->rate != g->rate) ||
		   !sm_pkey_member(src->pkeys, at.node, at.port, g->pkey, &full)) {
		return MAD_SA_ERR_REQ_INVALID;
	} else if (over_share(src, g, guid)) {
		return MAD_SA_ERR_NO_RESOURCES;
	}
	int rc = sm_mcast_join(src->mcast, g, guid, t->join_state);
	if (rc)
		return rc == -ENOMEM || rc == -E2BIG ? MAD_SA_ERR_NO_RESOURCES
						     : MAD_SA_ERR_REQ_INVALID;
	struct sm_mcast_member mm = { .guid = guid, .join = t->join_state };
	add(src, g, &mm, o);
	return 0;
}

static uint16_t leave(const struct sm_sa_source *src, const struct mad_sa_mcmember_record *t,
		      uint64_t m, bool trusted, struct sa_out *o)
{
	struct sa_port at;
	uint64_t guid;
	bool deleted;

	if (!(m & (M(MGID) | M(MLID))))
		return MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS;
	uint16_t st = joiner(src, t, m, trusted, &guid, &at);
	if (st)
		return st;
	struct sm_mcast_group *g = named(src->mcast, t, m);
	if (!g)
		return MAD_SA_ERR_REQ_INVALID;
	struct mad_sa_mcmember_record r;
	struct sm_mcast_member mm = { .guid = guid, .join = t->join_state };
	record(src, g, &mm, &r);	/* before the group may go */
	if (sm_mcast_leave(src->mcast, g, guid, t->join_state, &deleted))
		return MAD_SA_ERR_REQ_INVALID;
	uint8_t rec[MAD_SA_MCMEMBER_RECORD_SIZE];
	mad_sa_mcmember_record_encode(&r, rec);
	sa_out_add(o, rec);
	return 0;
}

uint16_t sm_sa_mcmember_records(const struct sm_sa_source *src, const struct mad_sa *req,
				struct sa_out *o)
{
	struct mad_sa_mcmember_record t;
	bool trusted = src->sm_key && req->sm_key == src->sm_key;

	mad_sa_mcmember_record_decode(req->data, &t);
	switch (req->method) {
	case MAD_SA_METHOD_SET:
		return src->mcast ? join(src, &t, req->comp_mask, trusted, o)
				  : MAD_SA_ERR_NO_RESOURCES;
	case MAD_SA_METHOD_DELETE:
		return src->mcast ? leave(src, &t, req->comp_mask, trusted, o)
				  : MAD_SA_ERR_REQ_INVALID;
	default:
		return list(src, &t, req->comp_mask, o);
	}
}

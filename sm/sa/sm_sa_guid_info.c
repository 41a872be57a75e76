// SPDX-License-Identifier: MIT
/*
 * sm_sa_guid_info.c - GUIDInfoRecord (IBA 15.2.5.18): the ports' GUIDInfo
 * tables, and the alias GUIDs hosts register in them (sm_sa_alias.h).
 *
 * Get and GetTable: per LID-owning port, block 0 (the port GUID first), and
 * every block its PortInfo GUIDCap covers once it has an alias (OpenSM
 * answers the same way).  Components: LID (0), BlockNum (1).
 *
 * Set and Delete, as OpenSM takes them (osm_sa_guidinfo_record.c): LID and
 * BlockNum are required (ERR_REQ_INSUFFICIENT_COMPONENTS); GUID0..GUID7
 * (components 4..11) select the entries.  The block must lie within the
 * port's GUIDCap (ERR_NO_RECORDS), entry 0 of block 0 (the port GUID) is
 * read-only (ERR_REQ_INVALID).  Stricter than OpenSM, which only asks that
 * the two ports share a partition: the requester must be the port itself
 * (its LID in the port's range), and an alias that is a port GUID of the
 * fabric or another entry's alias is refused, the whole request with it
 * (ERR_REQ_DENIED; sm_sa.c logs it and records an event).  A Set of GUID 0
 * leaves the entry as it is (the SM assigns no GUIDs).  The answer is the
 * block as it now stands; the ports are programmed later from the loop
 * (sm_sa_alias_program.c).
 */
#include <errno.h>

#include "sm/sa/sm_sa_records.h"

#define GIR_LID MAD_SA_COMP(0)
#define GIR_BLOCK MAD_SA_COMP(1)
#define GIR_GUID(k) MAD_SA_COMP(4 + (k))

/* Entries a port's GUIDInfo table holds (PortInfo GUIDCap, at least 1). */
static unsigned guid_cap(const struct sm_fabric *f, struct sa_port p)
{
	const struct sm_node_attrs *a = &f->attrs[p.node];

	if (!a->pi || !a->pi_valid[p.port] || !a->pi[p.port].guid_cap)
		return 1;
	return a->pi[p.port].guid_cap;
}

static void add_block(const struct sm_sa_source *src, uint16_t lid, uint64_t port_guid,
		      unsigned block, struct sa_out *o)
{
	struct mad_sa_guid_info_record r = { .lid = lid, .block = (uint8_t)block };
	uint8_t rec[MAD_SA_GUID_INFO_RECORD_SIZE];

	if (src->aliases)
		sm_sa_alias_block(src->aliases, port_guid, block, r.guid);
	else
		r.guid[0] = block ? 0 : port_guid;
	mad_sa_guid_info_record_encode(&r, rec);
	sa_out_add(o, rec);
}

static uint16_t get_records(const struct sm_sa_source *src, const struct mad_sa *req,
			    struct sa_out *o)
{
	struct mad_sa_guid_info_record t;
	struct sa_port only, p = { TOPO_NONE, 0 };
	uint64_t m = req->comp_mask;

	mad_sa_guid_info_record_decode(req->data, &t);
	if (!sa_only_node(src, m, GIR_LID, t.lid, &only))
		return 0;
	while (sm_sa_next_port(src->f, &p) && !sa_out_full(o)) {
		if (only.node != TOPO_NONE && (p.node != only.node || p.port != only.port))
			continue;
		const struct topo_port *tp = sa_port_of(src->f, p);
		bool any = src->aliases && sm_sa_alias_any(src->aliases, tp->guid);
		unsigned blocks = any ? (guid_cap(src->f, p) + MAD_GUID_INFO_BLOCK - 1) /
					MAD_GUID_INFO_BLOCK : 1;
		for (unsigned b = 0; b < blocks; b++)
			if (SA_COMP(m, 1, t.block, b))
				add_block(src, tp->lid, tp->guid, b, o);
	}
	return 0;
}

/* The port a Set or Delete of @t names, checked: 0 or an SA status. */
static uint16_t target(const struct sm_sa_source *src, const struct mad_sa *req,
		       const struct mad_sa_guid_info_record *t, struct sa_port *at)
{
	struct sa_port asker;

	if ((req->comp_mask & (GIR_LID | GIR_BLOCK)) != (GIR_LID | GIR_BLOCK))
		return MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS;
	if (!src->aliases || !sm_sa_index_lid(src->ix, t->lid, at))
		return MAD_SA_ERR_NO_RECORDS;
	if (!sm_sa_index_lid(src->ix, src->requester_lid, &asker) || asker.node != at->node ||
	    asker.port != at->port)
		return MAD_SA_ERR_REQ_DENIED;	/* only a port's own table */
	if ((unsigned)t->block * MAD_GUID_INFO_BLOCK >= guid_cap(src->f, *at))
		return MAD_SA_ERR_NO_RECORDS;	/* past GUIDCap */
	if (t->block == 0 && (req->comp_mask & GIR_GUID(0)))
		return MAD_SA_ERR_REQ_INVALID;	/* the port GUID is read-only */
	return 0;
}

/* Whether entry @k of the request's block is one it changes. */
static bool selected(const struct sm_sa_source *src, struct sa_port at, uint64_t m,
		     const struct mad_sa_guid_info_record *t, unsigned k)
{
	return (m & GIR_GUID(k)) && (unsigned)t->block * MAD_GUID_INFO_BLOCK + k <
					    guid_cap(src->f, at);
}

static uint16_t set_or_delete(const struct sm_sa_source *src, const struct mad_sa *req,
			      struct sa_out *o, bool set)
{
	struct mad_sa_guid_info_record t;
	struct sa_port at, other;
	uint64_t m = req->comp_mask;

	mad_sa_guid_info_record_decode(req->data, &t);
	uint16_t status = target(src, req, &t, &at);
	if (status)
		return status;
	uint64_t port_guid = sa_port_of(src->f, at)->guid;
	for (unsigned k = 0; set && k < MAD_GUID_INFO_BLOCK; k++) {
		uint64_t g = t.guid[k], owner;
		unsigned idx = t.block * MAD_GUID_INFO_BLOCK + k;
		if (!selected(src, at, m, &t, k) || !g)
			continue;
		if (sm_sa_index_guid(src->ix, g, &other))
			return MAD_SA_ERR_REQ_DENIED;	/* a port's GUID */
		if (sm_sa_alias_find(src->aliases, g, &owner) &&
		    (owner != port_guid || sm_sa_alias_at(src->aliases, port_guid, idx) != g))
			return MAD_SA_ERR_REQ_DENIED;	/* another entry's alias */
		for (unsigned l = 0; l < k; l++)
			if (selected(src, at, m, &t, l) && t.guid[l] == g)
				return MAD_SA_ERR_REQ_DENIED;	/* twice in the request */
	}
	for (unsigned k = 0; k < MAD_GUID_INFO_BLOCK; k++) {
		if (!selected(src, at, m, &t, k) || (set && !t.guid[k]))
			continue;
		int rc = sm_sa_alias_put(src->aliases, port_guid, t.block * MAD_GUID_INFO_BLOCK + k,
					 set ? t.guid[k] : 0);
		if (rc)
			return rc == -ENOMEM ? MAD_SA_ERR_NO_RESOURCES : MAD_SA_ERR_REQ_INVALID;
	}
	add_block(src, t.lid, port_guid, t.block, o);
	return 0;
}

uint16_t sm_sa_guid_info_records(const struct sm_sa_source *src,
				 const struct mad_sa *req, struct sa_out *o)
{
	if (req->method == MAD_SA_METHOD_SET || req->method == MAD_SA_METHOD_DELETE)
		return set_or_delete(src, req, o, req->method == MAD_SA_METHOD_SET);
	return get_records(src, req, o);
}

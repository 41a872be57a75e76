/* SPDX-License-Identifier: MIT */
/*
 * sm_sa_records.h - what the SA agent (sm_sa.c) shares with the files that
 * answer one record family each (sm_sa_node.c, sm_sa_path.c, ...).
 *
 * A family is one row of the agent's dispatch table (sm_sa.c, sa_attrs[]):
 * its attribute ID, the methods it takes and its collector.  The agent checks
 * the header and the method, decodes nothing of the record; the collector
 * decodes its template from req->data, adds every record matching the
 * ComponentMask to the output with sa_out_add(), and returns 0 or an SA status
 * for the request itself.  The agent then packs the records (one for Get, Set
 * and Delete, a table for GetTable).  To add a record: its codec in
 * mad/mad_sa.c (with mad_sa_record_size()), a collector in a file of its own,
 * its prototype here and one row in sa_attrs[].
 */
#ifndef IBSMD_SM_SA_RECORDS_H
#define IBSMD_SM_SA_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm/util/sm_loop.h"
#include "sm/sa/sm_sa.h"

/* The records of one answer, packed at the AttributeOffset stride: the first
 * MAD's worth inline, more on the heap (freed by the agent). */
struct sa_out {
	uint8_t *data;		/* inline or heap */
	uint8_t inline_data[MAD_SA_DATA_SIZE];
	size_t size, stride;	/* record size, its AttributeOffset in bytes */
	unsigned cap;		/* records data holds */
	unsigned max;		/* records kept at most (1 for a Get) */
	unsigned n;		/* records matched (at most max + 1) */
	bool oom;		/* a record could not be kept */
};

/* Add the encoded record @rec (o->size bytes). */
void sa_out_add(struct sa_out *o, const uint8_t *rec);

/* More records matched than the answer may hold: a collector may stop. */
static inline bool sa_out_full(const struct sa_out *o)
{
	return o->n > o->max;
}

/* Methods a family takes, as a mask of these. */
#define SA_M_GET 0x1
#define SA_M_GET_TABLE 0x2
#define SA_M_SET 0x4
#define SA_M_DELETE 0x8
#define SA_M_GET_MULTI 0x10

typedef uint16_t (*sm_sa_collect_fn)(const struct sm_sa_source *src,
				     const struct mad_sa *req, struct sa_out *o);

struct sm_sa_attr {
	uint16_t attr_id;
	uint8_t methods;	/* SA_M_* */
	sm_sa_collect_fn collect;
};

/* The port @sp of @f. */
static inline const struct topo_port *sa_port_of(const struct sm_fabric *f,
						 struct sa_port sp)
{
	return &f->topo.nodes[sp.node].ports[sp.port];
}

/* The port owning @lid in @only when component @bit of @mask is set (else
 * node TOPO_NONE: every node); false when it is set and no port owns @lid
 * (then no record matches). */
bool sa_only_node(const struct sm_sa_source *src, uint64_t mask, uint64_t bit, uint16_t lid,
		  struct sa_port *only);

/* The GID of the port with @guid: @prefix, then the GUID. */
static inline void sa_port_gid(uint64_t prefix, uint64_t guid, uint8_t gid[MAD_GID_LEN])
{
	for (int i = 0; i < 8; i++) {
		gid[i] = (uint8_t)(prefix >> (56 - 8 * i));
		gid[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
}

/* The port with port GUID or alias GUID @guid. */
bool sa_guid_port(const struct sm_sa_source *src, uint64_t guid, struct sa_port *out);
/* The port whose GID is @gid (the subnet prefix, a port GUID of the fabric
 * or an alias one of its ports registered). */
bool sa_gid_port(const struct sm_sa_source *src, const uint8_t gid[MAD_GID_LEN],
		 struct sa_port *out);

/* May the requester act for port @at: it asked from one of @at's LIDs, the
 * request is @trusted (it carries the SM_Key), or it comes from inside the SM
 * (no requester LID)?  A proxy otherwise (MCMemberRecord joins, ServiceRecord
 * registrations): refused with ERR_REQ_DENIED. */
bool sa_requester_is(const struct sm_sa_source *src, bool trusted, struct sa_port at);

/* PathRecords (sm_sa_path.c) for MultiPathRecord (sm_sa_multipath.c).
 * The template's status: ERR_REQ_INVALID for an MTU or rate code IBA does
 * not define, ERR_NO_RESOURCES when the routes' SLs are not known; 0. */
uint16_t sm_sa_path_template_status(const struct sm_sa_source *src,
				    const struct mad_sa_path_record *t, uint64_t m);
/* Path @i from port @s to port @d, of one per LID of the larger LMC range,
 * matching PathRecord template @t under mask @m: 1 when added to @o, 0 when
 * it does not match (or cannot be carried), -ERANGE past the last. */
int sm_sa_port_path(const struct sm_sa_source *src, const struct mad_sa_path_record *t,
		    uint64_t m, struct sa_port s, struct sa_port d, unsigned i, struct sa_out *o);

/* The rate of PathRecord rate code @code in 100 Mb/s, 0 for a code IBA does
 * not define (sm_sa_path.c). */
unsigned sm_sa_rate_of(uint8_t code);

/* The QoS level of a path from @s to @d that template @t under PathRecord
 * mask @m asks for (sm_sa_qos.c): NULL when no policy is on. */
const struct sm_qos_level *sm_sa_path_level(const struct sm_sa_source *src,
					    const struct mad_sa_path_record *t, uint64_t m,
					    struct sa_port s, struct sa_port d);

/* Whether component @bit of @mask is unset or @a equals @b (IBA 15.2.1.1). */
#define SA_COMP(mask, bit, a, b) (!((mask) & (1ull << (bit))) || (a) == (b))

/* Arm @t (owned by @sm, firing @fn(@sm)) on the daemon's loop for @due_ms,
 * or cancel it for UINT64_MAX; nothing without a loop (tests, --once). */
struct sm;
void sm_sa_timer_at(struct sm *sm, struct sm_timer *t, sm_loop_timer_fn fn, uint64_t due_ms);

/* The collectors, one per family. */
uint16_t sm_sa_node_records(const struct sm_sa_source *src, const struct mad_sa *req,
			    struct sa_out *o);
uint16_t sm_sa_port_info_records(const struct sm_sa_source *src,
				 const struct mad_sa *req, struct sa_out *o);
uint16_t sm_sa_path_records(const struct sm_sa_source *src, const struct mad_sa *req,
			    struct sa_out *o);
uint16_t sm_sa_mcmember_records(const struct sm_sa_source *src, const struct mad_sa *req,
				struct sa_out *o);
uint16_t sm_sa_link_records(const struct sm_sa_source *src, const struct mad_sa *req,
			    struct sa_out *o);
uint16_t sm_sa_switch_info_records(const struct sm_sa_source *src,
				   const struct mad_sa *req, struct sa_out *o);
uint16_t sm_sa_lft_records(const struct sm_sa_source *src, const struct mad_sa *req,
			   struct sa_out *o);
uint16_t sm_sa_mft_records(const struct sm_sa_source *src, const struct mad_sa *req,
			   struct sa_out *o);
uint16_t sm_sa_sm_info_records(const struct sm_sa_source *src, const struct mad_sa *req,
			       struct sa_out *o);
uint16_t sm_sa_pkey_table_records(const struct sm_sa_source *src,
				  const struct mad_sa *req, struct sa_out *o);
uint16_t sm_sa_sl2vl_records(const struct sm_sa_source *src, const struct mad_sa *req,
			     struct sa_out *o);
uint16_t sm_sa_service_records(const struct sm_sa_source *src, const struct mad_sa *req,
			       struct sa_out *o);
uint16_t sm_sa_inform_set(const struct sm_sa_source *src, const struct mad_sa *req,
			  struct sa_out *o);
uint16_t sm_sa_inform_records(const struct sm_sa_source *src, const struct mad_sa *req,
			      struct sa_out *o);
uint16_t sm_sa_multipath_records(const struct sm_sa_source *src, const struct mad_sa *req,
				 struct sa_out *o);
uint16_t sm_sa_guid_info_records(const struct sm_sa_source *src,
				 const struct mad_sa *req, struct sa_out *o);

#endif

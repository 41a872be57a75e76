// SPDX-License-Identifier: MIT
/*
 * sm_sa.c - the SA agent: header checks, the dispatch table of record
 * families, and the packing of their records into the answer.
 *
 * Data: the published fabric (struct sm's fabric: nodes, ports, LIDs, the
 * PortInfo each port answered) and that sweep's LFTs (struct sm's routes).
 * Flow: the rpc layer hands every SA-class MAD to sm_sa_in() on the loop
 * thread; sm_sa_answer() checks the header (class version, method, attribute:
 * IBA 13.4.7 status codes), finds the attribute's row in sa_attrs[] (one per
 * record family, sm_sa_records.h), lets its collector gather the records that
 * match every component the ComponentMask names (IBA 15.2.1.1), and packs
 * them.  A Get wants exactly one record (ERR_NO_RECORDS, ERR_TOO_MANY_RECORDS
 * otherwise); a GetTable, or a GetMulti (MultiPathRecord), may have none.
 * A GetTableResp (GetMultiResp alike) is one RMPP message
 * (IBA 15.2.1.1, 13.6: the SA header with RMPP Active, then every record, as
 * long as they are) that the transport segments: the kernel under umad, the
 * sim itself; a client counts the records by the message's length.  Without
 * RMPP a table must fit one MAD; over that, or past MAD_RMPP_MAX_DATA, it
 * gets ERR_NO_RESOURCES.
 * A request longer than a MAD (a GetMulti of many GIDs) comes reassembled by
 * the transport, as the kernel hands an RMPP message to an agent registered
 * with RMPP: the first segment's header, then all the data, as long as its
 * PayloadLength says.  ERR_REQ_INVALID: a segment that is not the first, a
 * first one without the rest (a transport without RMPP), or what a collector
 * finds malformed.  ClassPortInfo is answered here, with the capabilities
 * the SA has.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_rmpp.h"
#include "mad/mad_rpc.h"
#include "mad/mad_sa_mcmember.h"
#include "sm/core/sm.h"
#include "sm/core/sm_names.h"
#include "sm/util/sm_log.h"
#include "sm/sa/sm_sa_records.h"
#include "sm/sa/sm_sa_store.h"

/* ClassPortInfo.RespTimeValue: 4.096 us x 2^16 = 268 ms (answers come from
 * memory; this is the bound a client waits). */
#define SA_RESP_TIME_VALUE 16

/* The record families: one row each (sm_sa_records.h). */
static const struct sm_sa_attr sa_attrs[] = {
	{ MAD_SA_ATTR_NODE_RECORD, SA_M_GET | SA_M_GET_TABLE, sm_sa_node_records },
	{ MAD_SA_ATTR_PORT_INFO_RECORD, SA_M_GET | SA_M_GET_TABLE, sm_sa_port_info_records },
	{ MAD_SA_ATTR_PATH_RECORD, SA_M_GET | SA_M_GET_TABLE, sm_sa_path_records },
	{ MAD_SA_ATTR_MULTIPATH_RECORD, SA_M_GET_MULTI, sm_sa_multipath_records },
	{ MAD_SA_ATTR_MCMEMBER_RECORD, SA_M_GET | SA_M_GET_TABLE | SA_M_SET | SA_M_DELETE,
	  sm_sa_mcmember_records },
	{ MAD_SA_ATTR_LINK_RECORD, SA_M_GET | SA_M_GET_TABLE, sm_sa_link_records },
	{ MAD_SA_ATTR_SWITCH_INFO_RECORD, SA_M_GET | SA_M_GET_TABLE, sm_sa_switch_info_records },
	{ MAD_SA_ATTR_LFT_RECORD, SA_M_GET | SA_M_GET_TABLE, sm_sa_lft_records },
	{ MAD_SA_ATTR_MFT_RECORD, SA_M_GET | SA_M_GET_TABLE, sm_sa_mft_records },
	{ MAD_SA_ATTR_SM_INFO_RECORD, SA_M_GET | SA_M_GET_TABLE, sm_sa_sm_info_records },
	{ MAD_SA_ATTR_PKEY_TABLE_RECORD, SA_M_GET | SA_M_GET_TABLE, sm_sa_pkey_table_records },
	{ MAD_SA_ATTR_SL2VL_RECORD, SA_M_GET | SA_M_GET_TABLE, sm_sa_sl2vl_records },
	{ MAD_SA_ATTR_GUID_INFO_RECORD, SA_M_GET | SA_M_GET_TABLE | SA_M_SET | SA_M_DELETE,
	  sm_sa_guid_info_records },
	{ MAD_SA_ATTR_SERVICE_RECORD, SA_M_GET | SA_M_GET_TABLE | SA_M_SET | SA_M_DELETE,
	  sm_sa_service_records },
	{ MAD_SA_ATTR_INFORM_INFO, SA_M_SET, sm_sa_inform_set },
	{ MAD_SA_ATTR_INFORM_INFO_RECORD, SA_M_GET | SA_M_GET_TABLE, sm_sa_inform_records },
};

bool sa_gid_port(const struct sm_sa_source *src, const uint8_t gid[MAD_GID_LEN],
		 struct sa_port *out)
{
	uint64_t prefix = 0, guid = 0;

	for (int i = 0; i < 8; i++) {
		prefix = prefix << 8 | gid[i];
		guid = guid << 8 | gid[8 + i];
	}
	return prefix == src->subnet_prefix && sa_guid_port(src, guid, out);
}

bool sa_guid_port(const struct sm_sa_source *src, uint64_t guid, struct sa_port *out)
{
	uint64_t port_guid;

	if (sm_sa_index_guid(src->ix, guid, out))
		return true;
	return src->aliases && sm_sa_alias_find(src->aliases, guid, &port_guid) &&
	       sm_sa_index_guid(src->ix, port_guid, out);
}

bool sa_requester_is(const struct sm_sa_source *src, bool trusted, struct sa_port at)
{
	struct sa_port asker;

	return trusted || !src->requester_lid ||
	       (sm_sa_index_lid(src->ix, src->requester_lid, &asker) && asker.node == at.node &&
		asker.port == at.port);
}

bool sa_only_node(const struct sm_sa_source *src, uint64_t mask, uint64_t bit, uint16_t lid,
		  struct sa_port *only)
{
	*only = (struct sa_port){ TOPO_NONE, 0 };
	return !(mask & bit) || sm_sa_index_lid(src->ix, lid, only);
}

static const struct sm_sa_attr *attr_row(uint16_t attr_id)
{
	for (size_t i = 0; i < sizeof(sa_attrs) / sizeof(sa_attrs[0]); i++)
		if (sa_attrs[i].attr_id == attr_id)
			return &sa_attrs[i];
	return NULL;
}

static uint8_t method_bit(uint8_t method)
{
	switch (method) {
	case MAD_SA_METHOD_GET: return SA_M_GET;
	case MAD_SA_METHOD_GET_TABLE: return SA_M_GET_TABLE;
	case MAD_SA_METHOD_SET: return SA_M_SET;
	case MAD_SA_METHOD_DELETE: return SA_M_DELETE;
	case MAD_SA_METHOD_GET_MULTI: return SA_M_GET_MULTI;
	default: return 0;
	}
}

/* A method answered with a table of records (GetTable, GetMulti), as an RMPP
 * message when the transport has RMPP. */
static bool method_is_table(uint8_t method)
{
	return method == MAD_SA_METHOD_GET_TABLE || method == MAD_SA_METHOD_GET_MULTI;
}

void sa_out_add(struct sa_out *o, const uint8_t *rec)
{
	if (o->n >= o->max || o->oom) {
		if (!sa_out_full(o))
			o->n++;
		return;
	}
	if (o->n == o->cap) {
		unsigned cap = o->cap ? o->cap * 2 : 1;
		uint8_t *d = o->data == o->inline_data ? NULL : o->data;
		d = realloc(d, (size_t)cap * o->stride);
		if (!d) {
			o->oom = true;
			o->n++;
			return;
		}
		if (o->data == o->inline_data)
			memcpy(d, o->inline_data, (size_t)o->n * o->stride);
		o->data = d;
		o->cap = cap;
	}
	memset(o->data + (size_t)o->n * o->stride, 0, o->stride);
	memcpy(o->data + (size_t)o->n * o->stride, rec, o->size);
	o->n++;
}

static void sa_out_free(struct sa_out *o)
{
	if (o->data != o->inline_data)
		free(o->data);
}

/*
 * What this SA does, as ClassPortInfo says it (the kernel reads
 * CapabilityMask2 before a SendOnlyFullMember join: cma.c refuses one with
 * EOPNOTSUPP without bit 12).  Only what is true: multicast joins; in
 * CapabilityMask2 MulticastFDBTop (sm_mcast_program.c sets it where a switch
 * has it), alias GUIDs (GUIDInfoRecord Set, sm_sa_guid_info.c), the
 * PortInfoRecords' extended speeds and the PathRecord rates up
 * to NDR over 2x links too (sm_sa_path.c), SendOnlyFullMember joins.
 * Not claimed: Get/Set(Notice) and traps (no Notice attribute), all the
 * optional records (no RandomForwardingTable, VLArbitration or
 * ServiceAssociation records), MultiPathRecord with TraceRecord, reinit,
 * CapabilityMask matching in PortInfoRecord queries.
 */
static void class_port_info(uint8_t *data)
{
	struct mad_class_port_info cpi = {
		.base_version = 1, .class_version = MAD_SA_CLASS_VERSION,
		.resp_time_value = SA_RESP_TIME_VALUE,
		.cap_mask = MAD_CPI_CAP_MASK2_VALID | MAD_SA_CAP_UD_MCAST,
		.cap_mask2 = MAD_SA_CAP2_MCAST_TOP | MAD_SA_CAP2_ALIAS_GUIDS |
			     MAD_SA_CAP2_EXT_SPEEDS | MAD_SA_CAP2_SEND_ONLY_FULL |
			     MAD_SA_CAP2_WIDTH_2X | MAD_SA_CAP2_SPEED_HDR | MAD_SA_CAP2_SPEED_NDR,
	};

	mad_class_port_info_encode(&cpi, data);
}

/* The status of the records @o gathered for @method, counted in @c; on 0
 * the records are in @sa's data and, for a GetTable with RMPP, in @out->msg
 * after the header (IBA 15.2.1.1: a GetTableResp is an RMPP message, of
 * one segment or more, its length the header and the records). */
static uint16_t pack(const struct sm_sa_source *src, const struct sa_out *o, uint8_t method,
		     struct mad_sa *sa, struct sm_sa_reply *out, struct sm_sa_counts *c)
{
	bool table = method_is_table(method);

	if (!table && o->n != 1) {
		if (o->n == 0) {
			c->no_records++;
			return MAD_SA_ERR_NO_RECORDS;
		}
		c->invalid++;
		return MAD_SA_ERR_TOO_MANY_RECORDS;
	}
	size_t bytes = (size_t)o->n * o->stride;
	if (o->oom || o->n > o->max) {
		c->too_big++;
		return MAD_SA_ERR_NO_RESOURCES;
	}
	sa->attr_offset = (uint16_t)(o->stride / MAD_SA_ATTR_OFFSET_UNIT);
	memcpy(sa->data, o->data, bytes < MAD_SA_DATA_SIZE ? bytes : MAD_SA_DATA_SIZE);
	if (table && src->rmpp) {
		if (!(out->msg = malloc(MAD_SA_DATA_OFFSET + bytes))) {
			c->too_big++;
			return MAD_SA_ERR_NO_RESOURCES;
		}
		/* as the first segment says it (the transport's RMPP rewrites
		 * it per segment; a backend without RMPP sends it as it is) */
		bool one = bytes <= MAD_SA_DATA_SIZE;
		sa->rmpp = (struct mad_rmpp){
			.version = MAD_RMPP_VERSION, .type = MAD_RMPP_TYPE_DATA,
			.flags = (uint8_t)(MAD_RMPP_FLAG_ACTIVE | MAD_RMPP_FLAG_FIRST |
					   (one ? MAD_RMPP_FLAG_LAST : 0)),
			.data1 = 1,
			.data2 = (uint32_t)(bytes + MAD_SA_DATA_OFFSET - MAD_RMPP_HDR_END),
		};
		out->len = MAD_SA_DATA_OFFSET + bytes;
		memcpy(out->msg + MAD_SA_DATA_OFFSET, o->data, bytes);
		c->rmpp += !one;
	} else if (bytes > MAD_SA_DATA_SIZE) {
		c->too_big++;
		return MAD_SA_ERR_NO_RESOURCES;
	}
	c->answered++;
	return 0;
}

/* The bytes of data the request @sa of @len bytes carries (its class header
 * counted out), or 0 when it is no whole request (see the file's head). */
static size_t request_data(const struct mad_sa *sa, size_t len)
{
	size_t have = len - MAD_SA_DATA_OFFSET;

	if (!(sa->rmpp.flags & MAD_RMPP_FLAG_ACTIVE))
		return MAD_SA_DATA_SIZE;
	if (!(sa->rmpp.flags & MAD_RMPP_FLAG_FIRST))
		return 0;
	if (sa->rmpp.flags & MAD_RMPP_FLAG_LAST)	/* the only segment */
		return MAD_SA_DATA_SIZE;
	/* PayloadLength: the class header after the RMPP header, and the data */
	size_t want = (size_t)sa->rmpp.data2 + MAD_RMPP_HDR_END;
	if (want <= MAD_BLOCK_SIZE || want > len)
		return 0;
	return want - MAD_SA_DATA_OFFSET < have ? want - MAD_SA_DATA_OFFSET : have;
}

static uint16_t answer(const struct sm_sa_source *src, struct mad_sa *sa,
		       struct sm_sa_reply *out, struct sm_sa_counts *c)
{
	uint8_t method = sa->method;

	if (sa->class_version != MAD_SA_CLASS_VERSION) {
		c->invalid++;
		return MAD_STATUS_BAD_VERSION;
	}
	if (!method_bit(method)) {
		c->unsupported++;
		return MAD_STATUS_METHOD_UNSUPPORTED;
	}
	bool cpi = sa->attr_id == MAD_SA_ATTR_CLASS_PORT_INFO;
	const struct sm_sa_attr *row = attr_row(sa->attr_id);
	/* a MultiPathRecord is answered with PathRecords (IBA 15.2.5.20) */
	size_t size = mad_sa_record_size(sa->attr_id == MAD_SA_ATTR_MULTIPATH_RECORD
					 ? MAD_SA_ATTR_PATH_RECORD : sa->attr_id);
	if (cpi ? method != MAD_SA_METHOD_GET
		: !row || !size || !(row->methods & method_bit(method))) {
		c->unsupported++;
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	}
	if (!src->req_data_len) {
		c->invalid++;
		return MAD_SA_ERR_REQ_INVALID;
	}
	struct mad_sa req = *sa;
	mad_sa_make_response(sa, 0);
	if (cpi) {
		class_port_info(sa->data);
		c->answered++;
		return 0;
	}
	if (!src->f) {
		c->busy++;
		return MAD_STATUS_BUSY;
	}
	struct sa_out o = {
		.size = size,
		.stride = (size_t)mad_sa_attr_offset(size) * MAD_SA_ATTR_OFFSET_UNIT,
	};
	o.data = o.inline_data;
	o.cap = (unsigned)(MAD_SA_DATA_SIZE / o.stride);
	/* a table takes what one MAD holds, or with RMPP what a message may */
	o.max = !method_is_table(method) ? 1
		: src->rmpp ? (unsigned)(MAD_RMPP_MAX_DATA / o.stride) : o.cap;
	uint16_t status = row->collect(src, &req, &o);
	if (status)
		c->invalid++;
	else
		status = pack(src, &o, method, sa, out, c);
	sa_out_free(&o);
	return status;
}

bool sm_sa_answer(const struct sm_sa_source *src, const uint8_t *req, size_t len,
		  struct sm_sa_reply *out, struct sm_sa_counts *counts)
{
	struct mad_sa sa;

	out->msg = NULL;
	out->len = MAD_BLOCK_SIZE;
	if (len < MAD_BLOCK_SIZE || mad_sa_decode(req, MAD_BLOCK_SIZE, &sa) || (sa.method & 0x80)) {
		counts->dropped++;
		return false;
	}
	struct sm_sa_source with = *src;
	with.req_data = req + MAD_SA_DATA_OFFSET;
	with.req_data_len = request_data(&sa, len);
	uint16_t status = answer(&with, &sa, out, counts);
	if (status)
		mad_sa_make_response(&sa, status);	/* idempotent on a response */
	mad_sa_encode(&sa, out->mad);
	if (out->msg)	/* the header as encoded, then every record */
		memcpy(out->msg, out->mad, MAD_SA_DATA_OFFSET);
	return true;
}

void sm_sa_reply_free(struct sm_sa_reply *r)
{
	free(r->msg);
	r->msg = NULL;
}

/* Drop the ServiceRecords whose lease ran out, and wake up for the next. */
void sm_sa_timer_at(struct sm *sm, struct sm_timer *t, sm_loop_timer_fn fn, uint64_t due_ms)
{
	if (!sm->loop)
		return;
	if (!t->fn)
		sm_timer_init(t, fn, sm);
	if (due_ms == UINT64_MAX)
		sm_timer_cancel(sm->loop, t);
	else
		sm_timer_at(sm->loop, t, due_ms);
}

static void on_lease_timer(void *ctx)
{
	sm_sa_leases_check(ctx);
}

void sm_sa_leases_check(struct sm *sm)
{
	size_t n = sm->sa->services.n;
	uint64_t next = sm_sa_services_expire(&sm->sa->services, mad_now_ms());

	if (sm->sa->services.n != n)
		sm_sa_store_due(sm);	/* leases ran out */
	sm_sa_timer_at(sm, &sm->sa->lease_timer, on_lease_timer, next);
}

/* Whether @mad, answered with @reply, may have changed what the store keeps
 * of the SA: a Set or Delete of a ServiceRecord, InformInfo or
 * GUIDInfoRecord that went through. */
static bool changes_registrations(const uint8_t mad[MAD_BLOCK_SIZE], const uint8_t *reply)
{
	uint16_t attr = (uint16_t)(mad[16] << 8 | mad[17]);

	return (mad[3] == MAD_SA_METHOD_SET || mad[3] == MAD_SA_METHOD_DELETE) &&
	       (attr == MAD_SA_ATTR_SERVICE_RECORD || attr == MAD_SA_ATTR_INFORM_INFO ||
		attr == MAD_SA_ATTR_GUID_INFO_RECORD) &&
	       !reply[4] && !reply[5];
}

void sm_sa_in(void *ctx, const uint8_t *mad, size_t len, const struct mad_addr *from)
{
	struct sm *sm = ctx;
	struct sm_sa_index *ix = &sm->sa->index;
	bool ready = sm->have_fabric;
	struct sm_sa_reply reply;

	if (mad[3] == MAD_SA_METHOD_REPORT_RESP) {	/* a subscriber got its Report */
		sm_sa_report_resp(sm, mad);
		return;
	}
	if (ready && (!ix->by_lid || ix->sweep != sm->sweeps)) {
		ready = sm_sa_index_build(ix, &sm->fabric) == 0;	/* else: busy */
		ix->sweep = sm->sweeps;
	}
	struct mad_sa_sm_info_record sms[SM_SA_MAX_SMS];
	struct sm_sa_source src = {
		.f = ready ? &sm->fabric : NULL,
		.ix = ix,
		.routes = &sm->routes,
		.subnet_prefix = sm->cfg.subnet_prefix,
		.sm_key = sm->cfg.sm_key,
		.pkeys = sm->sa->pkeys.slot ? &sm->sa->pkeys : NULL,
		.partitions = &sm->sa->partitions,
		.qos = &sm->sa->qos,
		.mcast = &sm->sa->mcast,
		.sms = sms,
		.nsms = ready ? sm_sa_known_sms(sm, sms) : 0,
		.rmpp = mad_rpc_has_gsi_long(sm->rpc),
		.services = &sm->sa->services,
		.aliases = &sm->sa->aliases,
		.now_ms = mad_now_ms(),
		.informs = &sm->sa->informs,
		.requester_lid = from->lid,
	};

	size_t nservices = sm->sa->services.n;	/* a query drops leases that ran out */

	if (!sm_sa_answer(&src, mad, len, &reply, &sm->sa->counts))
		return;
	if (nservices != sm->sa->services.n || changes_registrations(mad, reply.mad))
		sm_sa_store_due(sm);
	int rc = reply.msg ? mad_rpc_send_gsi_long(sm->rpc, reply.msg, reply.len, from)
			   : mad_rpc_send_gsi(sm->rpc, reply.mad, from);
	if (rc)
		sm_warn("could not answer an SA query from LID %u: %s", from->lid, strerror(-rc));
	else if (reply.mad[4] || reply.mad[5])
		sm_debug("SA query attribute 0x%02x%02x from LID %u: status 0x%02x%02x",
			 mad[16], mad[17], from->lid, reply.mad[4], reply.mad[5]);
	sm_sa_reply_free(&reply);
	if (mad[3] == MAD_SA_METHOD_SET && (mad[16] << 8 | mad[17]) == MAD_SA_ATTR_SERVICE_RECORD)
		sm_sa_leases_check(sm);	/* a new lease may end first */
	if ((mad[16] << 8 | mad[17]) == MAD_SA_ATTR_GUID_INFO_RECORD &&
	    (mad[3] == MAD_SA_METHOD_SET || mad[3] == MAD_SA_METHOD_DELETE) &&
	    (reply.mad[4] << 8 | reply.mad[5]) == MAD_SA_ERR_REQ_DENIED) {
		char name[SM_NAME_LEN];
		sm_name_lid(sm, from->lid, name, sizeof(name));
		sm_warn("alias GUIDs: a GUIDInfoRecord %s from %s refused: another port's "
			"table, a GUID in use or twice in the request",
			mad[3] == MAD_SA_METHOD_SET ? "Set" : "Delete", name);
		sm_store_event(&sm->store, DB_EV_ERROR, 0, -1,
			       "alias GUID refused: GUIDInfoRecord from %s", name);
	}
}

// SPDX-License-Identifier: MIT
/*
 * sm_sa.c - the SA agent: Get and GetTable of ClassPortInfo, NodeRecord,
 * PortInfoRecord and PathRecord, answered from the last committed sweep.
 *
 * Data: the published fabric (struct sm's fabric: nodes, ports, LIDs, the
 * PortInfo each port answered) and that sweep's LFTs (struct sm's routes).
 * Flow: the rpc layer hands every SA-class MAD to sm_sa_in() on the loop
 * thread; sm_sa_answer() checks the header (class version, method, attribute:
 * IBA 13.4.7 status codes), decodes the template, collects the records that
 * match every component the ComponentMask names (IBA 15.2.1.1), and packs them
 * into one MAD.  A Get wants exactly one record (ERR_NO_RECORDS,
 * ERR_TOO_MANY_RECORDS otherwise); a GetTable may have none.  A table larger
 * than one MAD would need RMPP, which this agent does not do yet: it answers
 * ERR_NO_RESOURCES.  ERR_REQ_INVALID: a request in several RMPP segments, a
 * PathRecord asking for an MTU or rate code IBA does not define.
 *
 * Components honoured: NodeRecord all fields (LID, versions, type, ports,
 * GUIDs, PartitionCap, DeviceID, Revision, LocalPortNum, VendorID,
 * NodeDescription); PortInfoRecord EndportLID and PortNum; PathRecord SGID,
 * DGID, SLID, DLID, Reversible, P_Key, SL, and the MTU and rate selectors.
 * Other components are not looked at.
 *
 * PathRecords (IBA 15.2.5.16) are walked hop by hop through the LFTs from the
 * source port to the destination LID: MTU and rate are the minimum over every
 * link crossed, the path is Reversible when the walk back works too, the
 * P_Key is the first partition both ends share with one of them a full member
 * (sm_pkey_shared(); none: no path), SL 0 (the routing engine's path SLs are
 * not kept yet: when the routes use SLs above 0 PathRecords are refused with
 * ERR_NO_RESOURCES), and the PacketLifeTime grows with the hops.
 */
#include <errno.h>
#include <string.h>

#include "db/model/topo_rate.h"
#include "mad/mad_rpc.h"
#include "sm/sm.h"
#include "sm/sm_log.h"
#include "sm/sm_sa.h"

/* ClassPortInfo.RespTimeValue: 4.096 us x 2^16 = 268 ms (answers come from
 * memory; this is the bound a client waits). */
#define SA_RESP_TIME_VALUE 16
/* PacketLifeTime of one hop, 4.096 us x 2^16 = 268 ms; each doubling of the
 * hop count adds one (IBA 15.2.5.16: the time a packet may live on the path). */
#define SA_HOP_LIFETIME 16
#define SA_MAX_LIFETIME 63
#define SA_MAX_HOPS 64	/* a walk longer than this is a loop */
#define SA_MTU_MAX 5	/* 4096 */

/* Records of one answer, packed at the AttributeOffset stride. */
struct sa_out {
	uint8_t *data;
	size_t size, stride;
	unsigned max;		/* records that fit */
	unsigned n;		/* records matched (may exceed max) */
};

static void out_add(struct sa_out *o, const uint8_t *rec)
{
	if (o->n < o->max)
		memcpy(o->data + (size_t)o->n * o->stride, rec, o->size);
	o->n++;
}

static const struct topo_port *port_of(const struct sm_fabric *f, struct sa_port sp)
{
	return &f->topo.nodes[sp.node].ports[sp.port];
}

/* --- NodeRecord (IBA 15.2.5.2) --- */

static void node_record(const struct sm_fabric *f, struct sa_port sp,
			struct mad_sa_node_record *nr)
{
	const struct topo_node *n = &f->topo.nodes[sp.node];

	memset(nr, 0, sizeof(*nr));
	nr->lid = n->ports[sp.port].lid;
	nr->info = (struct mad_node_info){
		.base_version = 1, .class_version = 1, .node_type = n->type,
		.num_ports = n->nports, .system_guid = n->sys_guid, .node_guid = n->guid,
		.port_guid = n->ports[sp.port].guid,
		.partition_cap = f->attrs[sp.node].partition_cap, .device_id = n->device_id,
		.revision = n->revision, .local_port = sp.port, .vendor_id = n->vendor_id,
	};
	memcpy(nr->desc.desc, n->desc, sizeof(nr->desc.desc) - 1);
}

#define COMP(mask, bit, a, b) (!((mask) & (1ull << (bit))) || (a) == (b))

static bool node_record_matches(const struct mad_sa_node_record *t,
				const struct mad_sa_node_record *r, uint64_t m)
{
	const struct mad_node_info *ti = &t->info, *ri = &r->info;

	return COMP(m, 0, t->lid, r->lid) && COMP(m, 2, ti->base_version, ri->base_version) &&
	       COMP(m, 3, ti->class_version, ri->class_version) &&
	       COMP(m, 4, ti->node_type, ri->node_type) &&
	       COMP(m, 5, ti->num_ports, ri->num_ports) &&
	       COMP(m, 6, ti->system_guid, ri->system_guid) &&
	       COMP(m, 7, ti->node_guid, ri->node_guid) &&
	       COMP(m, 8, ti->port_guid, ri->port_guid) &&
	       COMP(m, 9, ti->partition_cap, ri->partition_cap) &&
	       COMP(m, 10, ti->device_id, ri->device_id) &&
	       COMP(m, 11, ti->revision, ri->revision) &&
	       COMP(m, 12, ti->local_port, ri->local_port) &&
	       COMP(m, 13, ti->vendor_id, ri->vendor_id) &&
	       (!(m & MAD_SA_NR_NODE_DESC) ||
		strncmp(t->desc.desc, r->desc.desc, MAD_NODE_DESC_LEN) == 0);
}

static void node_records(const struct sm_fabric *f, const struct mad_sa *req,
			 struct sa_out *o)
{
	struct mad_sa_node_record t, r;
	uint8_t rec[MAD_SA_NODE_RECORD_SIZE];

	mad_sa_node_record_decode(req->data, &t);
	for (struct sa_port p = { TOPO_NONE, 0 }; sm_sa_next_port(f, &p);) {
		node_record(f, p, &r);
		if (!node_record_matches(&t, &r, req->comp_mask))
			continue;
		mad_sa_node_record_encode(&r, rec);
		out_add(o, rec);
	}
}

/* --- PortInfoRecord (IBA 15.2.5.3) --- */

static void port_info_records(const struct sm_sa_source *src, const struct mad_sa *req,
			      struct sa_out *o)
{
	const struct sm_fabric *f = src->f;
	struct mad_sa_port_info_record t;
	struct sa_port only = { TOPO_NONE, 0 };
	uint8_t rec[MAD_SA_PORT_INFO_RECORD_SIZE];

	bool trusted = src->sm_key && req->sm_key == src->sm_key;

	mad_sa_port_info_record_decode(req->data, &t);
	if ((req->comp_mask & MAD_SA_PIR_LID) && !sm_sa_index_lid(src->ix, t.lid, &only))
		return;
	for (uint32_t i = 0; i < f->topo.n; i++) {
		const struct topo_node *n = &f->topo.nodes[i];
		const struct sm_node_attrs *a = &f->attrs[i];
		bool sw = n->type == MAD_NODE_SWITCH;

		if (only.node != TOPO_NONE && only.node != i)
			continue;
		for (uint8_t p = sw ? 0 : 1; p <= n->nports; p++) {
			uint16_t lid = n->ports[sw ? 0 : p].lid;
			if (!lid || !a->pi || !a->pi_valid[p])
				continue;
			if (!sw && only.node != TOPO_NONE && only.port != p)
				continue;
			if ((req->comp_mask & MAD_SA_PIR_PORT_NUM) && t.port_num != p)
				continue;
			struct mad_sa_port_info_record r = {
				.lid = lid, .port_num = p, .info = a->pi[p],
			};
			if (!trusted)	/* IBA 15.2.5.3: M_Key only to a holder of SM_Key */
				r.info.mkey = 0;
			mad_sa_port_info_record_encode(&r, rec);
			out_add(o, rec);
		}
	}
}

/* --- PathRecord (IBA 15.2.5.16) --- */

/* PathRecord rate codes (IBA table 213) and their rate in 100 Mb/s. */
static const struct {
	uint8_t code;
	uint16_t rate;
} rates[] = {
	{ 2, 25 }, { 5, 50 }, { 3, 100 }, { 11, 140 }, { 6, 200 }, { 15, 250 },
	{ 19, 280 }, { 4, 300 }, { 7, 400 }, { 20, 500 }, { 12, 560 }, { 8, 600 },
	{ 9, 800 }, { 16, 1000 }, { 13, 1120 }, { 10, 1200 }, { 14, 1680 },
	{ 17, 2000 }, { 18, 3000 }, { 21, 4000 }, { 22, 6000 }, { 23, 8000 },
	{ 24, 12000 },
};
#define NRATES (sizeof(rates) / sizeof(rates[0]))

/* Signalling rate of one lane of a speed code, in 100 Mb/s. */
static unsigned lane_rate(uint8_t speed)
{
	switch (speed) {
	case MAD_SPEED_SDR: return 25;
	case MAD_SPEED_DDR: return 50;
	case MAD_SPEED_QDR: return 100;
	case MAD_SPEED_FDR: return 140;
	case MAD_SPEED_EDR: return 250;
	case MAD_SPEED_HDR: return 500;
	case MAD_SPEED_NDR: return 1000;
	case MAD_SPEED_XDR: return 2000;
	default: return 0;
	}
}

/* The rate of @code in 100 Mb/s, 0 for a code IBA does not define. */
static unsigned rate_of(uint8_t code)
{
	for (size_t i = 0; i < NRATES; i++)
		if (rates[i].code == code)
			return rates[i].rate;
	return 0;
}

/* The fastest code not above @rate (100 Mb/s), 0 when none. */
static uint8_t rate_code(unsigned rate)
{
	uint8_t best = 0;

	for (size_t i = 0; i < NRATES; i++)
		if (rates[i].rate <= rate)
			best = rates[i].code;
	return best;
}

struct path_walk {
	unsigned hops;
	uint8_t mtu;		/* NeighborMTU code, the smallest met */
	unsigned rate;		/* 100 Mb/s, the slowest link met */
};

static void walk_link(const struct sm_fabric *f, uint32_t node, uint8_t port,
		      struct path_walk *w)
{
	const struct sm_node_attrs *a = &f->attrs[node];
	const struct topo_port *tp = &f->topo.nodes[node].ports[port];
	unsigned r = mad_rate_lanes(tp->width) * lane_rate(tp->speed);

	if (a->pi && a->pi_valid[port] && a->pi[port].neighbor_mtu &&
	    a->pi[port].neighbor_mtu < w->mtu)
		w->mtu = a->pi[port].neighbor_mtu;
	if (r && r < w->rate)
		w->rate = r;
}

/*
 * Walk from @src to the port owning @dlid (@dst) through the LFTs.  0 with @w
 * filled, or -EHOSTUNREACH: a dead end, a link down, no LFT, a loop.
 */
static int walk(const struct sm_sa_source *src, struct sa_port s, struct sa_port d,
		uint16_t dlid, struct path_walk *w)
{
	const struct sm_fabric *f = src->f;
	const struct sm_routes *rt = src->routes;
	uint32_t n = s.node;
	uint8_t out;

	*w = (struct path_walk){ .mtu = SA_MTU_MAX, .rate = UINT32_MAX };
	if (s.node == d.node && s.port == d.port) {	/* loopback: the port's own link */
		if (s.port)
			walk_link(f, s.node, s.port, w);
		return 0;
	}
	bool sw = f->topo.nodes[n].type == MAD_NODE_SWITCH;
	for (;;) {
		if (sw) {
			if (!rt || !rt->lft || n >= rt->nnodes || !rt->lft[n] ||
			    dlid > rt->max_lid)
				return -EHOSTUNREACH;
			out = rt->lft[n][dlid];
		} else {
			out = n == s.node ? s.port : 0;
		}
		const struct topo_node *tn = &f->topo.nodes[n];
		if (out == 0 || out > tn->nports || w->hops >= SA_MAX_HOPS)
			return -EHOSTUNREACH;
		const struct topo_port *tp = &tn->ports[out];
		if (tp->peer == TOPO_NONE || tp->state != MAD_PORT_ACTIVE)
			return -EHOSTUNREACH;
		walk_link(f, n, out, w);
		walk_link(f, tp->peer, tp->peer_port, w);
		w->hops++;
		uint8_t in = tp->peer_port;
		n = tp->peer;
		sw = f->topo.nodes[n].type == MAD_NODE_SWITCH;
		if (n == d.node && (sw || in == d.port))
			return 0;
		if (!sw)
			return -EHOSTUNREACH;	/* a CA that is not the destination */
	}
}

static uint8_t lifetime(unsigned hops)
{
	unsigned l = SA_HOP_LIFETIME;

	if (!hops)
		return 0;	/* loopback (IBA 15.2.5.16) */
	for (unsigned h = 1; h < hops; h <<= 1)
		l++;
	return (uint8_t)(l > SA_MAX_LIFETIME ? SA_MAX_LIFETIME : l);
}

/* Apply a selector (0 greater than, 1 less than, 2 exactly, 3 best) to an
 * MTU code the path can carry, ordered as its codes.  False: no path. */
static bool select_mtu(uint8_t sel, uint8_t want, uint8_t *have)
{
	switch (sel) {
	case 0: return *have > want;
	case 1:
		if (want <= 1)
			return false;
		if (*have >= want)
			*have = want - 1;
		return true;
	case 2:
		if (*have < want || want < 1)
			return false;
		*have = want;
		return true;
	default: return true;
	}
}

/* The same for a rate code, compared by the rate it stands for. */
static bool select_rate(uint8_t sel, uint8_t want, uint8_t *have)
{
	unsigned w = rate_of(want), h = rate_of(*have);

	switch (sel) {
	case 0: return w && h > w;
	case 1:
		if (!w)
			return false;
		if (h >= w)
			*have = rate_code(w - 1);
		return *have != 0;
	case 2:
		if (!w || h < w)
			return false;
		*have = want;
		return true;
	default: return true;
	}
}

static void port_gid(const struct sm_sa_source *src, const struct topo_port *tp,
		     uint8_t gid[MAD_GID_LEN])
{
	for (int i = 0; i < 8; i++) {
		gid[i] = (uint8_t)(src->subnet_prefix >> (56 - 8 * i));
		gid[8 + i] = (uint8_t)(tp->guid >> (56 - 8 * i));
	}
}

/* The path record from @s (SLID @slid) to @d (DLID @dlid), if one matches @t. */
static bool path_record(const struct sm_sa_source *src, const struct mad_sa_path_record *t,
			uint64_t m, struct sa_port s, uint16_t slid, struct sa_port d,
			uint16_t dlid, struct mad_sa_path_record *r)
{
	struct path_walk w, back;

	if (walk(src, s, d, dlid, &w))
		return false;
	bool reversible = walk(src, d, s, slid, &back) == 0;
	if ((m & (1ull << 11)) && t->reversible && !reversible)
		return false;
	uint16_t pkey;	/* no partition both ends share: no path (IBA 15.2.5.16) */
	if (!sm_pkey_shared(src->pkeys, s.node, s.port, d.node, d.port,
			    (m & MAD_SA_PR_PKEY) ? t->pkey : 0, &pkey))
		return false;
	if ((m & MAD_SA_PR_SL) && t->sl != 0)
		return false;
	memset(r, 0, sizeof(*r));
	if (m & 3)	/* ServiceID, IBA 1.2+: echoed */
		r->service_id = t->service_id;
	port_gid(src, port_of(src->f, d), r->dgid);
	port_gid(src, port_of(src->f, s), r->sgid);
	r->dlid = dlid;
	r->slid = slid;
	r->reversible = reversible;
	r->pkey = pkey;
	r->mtu_selector = r->rate_selector = r->lifetime_selector = 2;
	r->mtu = w.mtu;
	r->rate = rate_code(w.rate);
	r->packet_lifetime = lifetime(w.hops);
	if ((m & MAD_SA_PR_MTU_SELECTOR) && (m & MAD_SA_PR_MTU) &&
	    !select_mtu(t->mtu_selector, t->mtu, &r->mtu))
		return false;
	if ((m & MAD_SA_PR_RATE_SELECTOR) && (m & MAD_SA_PR_RATE) &&
	    !select_rate(t->rate_selector, t->rate, &r->rate))
		return false;
	return r->rate != 0;
}

/*
 * One end of a path from the template: by LID (@lid_bit) or GID (@gid_bit).
 * Returns 1 with @out (and @lid the LID to use), 0 when the template names no
 * end (every port then), -ENOENT when it names one we do not know,
 * -EADDRNOTAVAIL for a GID outside our subnet or LID and GID disagreeing.
 */
static int path_end(const struct sm_sa_source *src, uint64_t m, uint64_t lid_bit,
		    uint64_t gid_bit, uint16_t tlid, const uint8_t *tgid,
		    struct sa_port *out, uint16_t *lid)
{
	struct sa_port by_gid;
	bool have = false;

	if (m & gid_bit) {
		uint64_t prefix = 0, guid = 0;
		for (int i = 0; i < 8; i++) {
			prefix = prefix << 8 | tgid[i];
			guid = guid << 8 | tgid[8 + i];
		}
		if (prefix != src->subnet_prefix)
			return -EADDRNOTAVAIL;
		if (!sm_sa_index_guid(src->ix, guid, &by_gid))
			return -EADDRNOTAVAIL;
		*out = by_gid;
		*lid = port_of(src->f, by_gid)->lid;
		have = true;
	}
	if (m & lid_bit) {
		struct sa_port by_lid;
		if (!sm_sa_index_lid(src->ix, tlid, &by_lid))
			return -ENOENT;
		if (have && (by_lid.node != by_gid.node || by_lid.port != by_gid.port))
			return -EADDRNOTAVAIL;
		*out = by_lid;
		*lid = tlid;
		have = true;
	}
	return have;
}


static uint16_t path_records(const struct sm_sa_source *src, const struct mad_sa *req,
			     struct sa_out *o)
{
	struct mad_sa_path_record t, r;
	struct sa_port s, d;
	uint16_t slid = 0, dlid = 0;
	uint8_t rec[MAD_SA_PATH_RECORD_SIZE];
	uint64_t m = req->comp_mask;

	mad_sa_path_record_decode(req->data, &t);
	/* an MTU or a rate IBA does not define, asked for: a malformed query */
	if (((m & MAD_SA_PR_MTU) && (t.mtu < 1 || t.mtu > SA_MTU_MAX)) ||
	    ((m & MAD_SA_PR_RATE) && !rate_of(t.rate)))
		return MAD_SA_ERR_REQ_INVALID;
	/* Routes on several SLs (dfsssp breaking credit loops): the SL of each
	 * path is the engine's, which is not kept after the sweep; SL 0 could
	 * close a credit loop, so no path rather than a made-up one. */
	if (src->routes && src->routes->check.max_sl > 0)
		return MAD_SA_ERR_NO_RESOURCES;
	int hs = path_end(src, m, MAD_SA_PR_SLID, MAD_SA_PR_SGID, t.slid, t.sgid, &s, &slid);
	int hd = path_end(src, m, MAD_SA_PR_DLID, MAD_SA_PR_DGID, t.dlid, t.dgid, &d, &dlid);
	if (hs == -EADDRNOTAVAIL || hd == -EADDRNOTAVAIL)
		return MAD_SA_ERR_REQ_INVALID_GID;
	if (hs < 0 || hd < 0)
		return 0;	/* no such LID: no records */
	if (req->method == MAD_SA_METHOD_GET && (!hs || !hd))
		return MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS;
	struct sa_port si = hs ? s : (struct sa_port){ TOPO_NONE, 0 };
	while (hs || sm_sa_next_port(src->f, &si)) {
		uint16_t sl = hs ? slid : port_of(src->f, si)->lid;
		struct sa_port di = hd ? d : (struct sa_port){ TOPO_NONE, 0 };
		while (hd || sm_sa_next_port(src->f, &di)) {
			uint16_t dl = hd ? dlid : port_of(src->f, di)->lid;
			if (path_record(src, &t, m, si, sl, di, dl, &r)) {
				mad_sa_path_record_encode(&r, rec);
				out_add(o, rec);
			}
			if (hd)
				break;
		}
		if (hs)
			break;
	}
	return 0;
}

/* --- the request --- */

static void class_port_info(uint8_t *data)
{
	struct mad_class_port_info cpi = {
		.base_version = 1, .class_version = MAD_SA_CLASS_VERSION,
		.resp_time_value = SA_RESP_TIME_VALUE,
	};

	mad_class_port_info_encode(&cpi, data);
}

/* Records for @req into @o; 0 or an SA status for the request itself. */
static uint16_t collect(const struct sm_sa_source *src, const struct mad_sa *req,
			struct sa_out *o)
{
	switch (req->attr_id) {
	case MAD_SA_ATTR_NODE_RECORD:
		node_records(src->f, req, o);
		return 0;
	case MAD_SA_ATTR_PORT_INFO_RECORD:
		port_info_records(src, req, o);
		return 0;
	default:
		return path_records(src, req, o);
	}
}

static uint16_t answer(const struct sm_sa_source *src, struct mad_sa *sa,
		       struct sm_sa_counts *c)
{
	uint8_t method = sa->method;
	size_t size = mad_sa_record_size(sa->attr_id);

	if (sa->class_version != MAD_SA_CLASS_VERSION) {
		c->invalid++;
		return MAD_STATUS_BAD_VERSION;
	}
	if (method != MAD_SA_METHOD_GET && method != MAD_SA_METHOD_GET_TABLE &&
	    method != MAD_SA_METHOD_SET && method != MAD_SA_METHOD_DELETE) {
		c->unsupported++;
		return MAD_STATUS_METHOD_UNSUPPORTED;
	}
	bool cpi = sa->attr_id == MAD_SA_ATTR_CLASS_PORT_INFO;
	if (!size || method == MAD_SA_METHOD_SET || method == MAD_SA_METHOD_DELETE ||
	    (cpi && method != MAD_SA_METHOD_GET)) {
		c->unsupported++;
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	}
	/* Get and GetTable requests fit one MAD: a request in several RMPP
	 * segments is not one we can take (IBA 15.4: GetMulti, not served); a
	 * single segment (first and last) is read as the MAD it is */
	if ((sa->rmpp.flags & MAD_RMPP_FLAG_ACTIVE) &&
	    (sa->rmpp.flags & MAD_RMPP_FLAGS_SINGLE) != MAD_RMPP_FLAGS_SINGLE) {
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
		.data = sa->data, .size = size,
		.stride = (size_t)mad_sa_attr_offset(size) * MAD_SA_ATTR_OFFSET_UNIT,
	};
	o.max = method == MAD_SA_METHOD_GET ? 1 : (unsigned)(MAD_SA_DATA_SIZE / o.stride);
	uint16_t status = collect(src, &req, &o);
	if (status) {
		c->invalid++;
		memset(sa->data, 0, sizeof(sa->data));
		return status;
	}
	if (method == MAD_SA_METHOD_GET && o.n != 1) {
		memset(sa->data, 0, sizeof(sa->data));
		if (o.n == 0) {
			c->no_records++;
			return MAD_SA_ERR_NO_RECORDS;
		}
		c->invalid++;
		return MAD_SA_ERR_TOO_MANY_RECORDS;
	}
	if (o.n > o.max) {
		memset(sa->data, 0, sizeof(sa->data));
		c->too_big++;
		return MAD_SA_ERR_NO_RESOURCES;
	}
	sa->attr_offset = mad_sa_attr_offset(size);
	c->answered++;
	return 0;
}

bool sm_sa_answer(const struct sm_sa_source *src, const uint8_t *req, size_t len,
		  uint8_t resp[MAD_BLOCK_SIZE], struct sm_sa_counts *counts)
{
	struct mad_sa sa;

	if (mad_sa_decode(req, len, &sa) || (sa.method & 0x80)) {
		counts->dropped++;
		return false;
	}
	uint16_t status = answer(src, &sa, counts);
	if (status)
		mad_sa_make_response(&sa, status);	/* idempotent on a response */
	mad_sa_encode(&sa, resp);
	return true;
}

void sm_sa_in(void *ctx, const uint8_t mad[MAD_BLOCK_SIZE], const struct mad_addr *from)
{
	struct sm *sm = ctx;
	struct sm_sa_index *ix = &sm->sa_index;
	bool ready = sm->have_fabric;
	uint8_t resp[MAD_BLOCK_SIZE];

	if (ready && (!ix->by_lid || ix->sweep != sm->sweeps)) {
		ready = sm_sa_index_build(ix, &sm->fabric) == 0;	/* else: busy */
		ix->sweep = sm->sweeps;
	}
	struct sm_sa_source src = {
		.f = ready ? &sm->fabric : NULL,
		.ix = ix,
		.routes = &sm->routes,
		.subnet_prefix = sm->cfg.subnet_prefix,
		.sm_key = sm->cfg.sm_key,
		.pkeys = sm->pkeys.slot ? &sm->pkeys : NULL,
	};

	if (!sm_sa_answer(&src, mad, MAD_BLOCK_SIZE, resp, &sm->sa_counts))
		return;
	if (mad_rpc_send_gsi(sm->rpc, resp, from))
		sm_warn("could not answer an SA query from LID %u", from->lid);
	else if (resp[4] || resp[5])
		sm_debug("SA query attribute 0x%02x%02x from LID %u: status 0x%02x%02x",
			 mad[16], mad[17], from->lid, resp[4], resp[5]);
}

// SPDX-License-Identifier: MIT
/*
 * sm_sa_path.c - PathRecord (IBA 15.2.5.16), walked hop by hop through the
 * last sweep's LFTs from the source port to the destination LID.
 *
 * MTU and rate are the minimum over every link crossed, the path is
 * Reversible when the walk back works too, the SL is the routing engine's
 * path_sl for the route (kept with the LFTs, rt_path_sl.h; when the table was
 * too big to keep, routes with SLs above 0 get ERR_NO_RESOURCES rather than a
 * made-up SL that could close a credit loop), added to the SL of the QoS
 * level the request matches (sm_qos.h: the engine's layers take the SLs from
 * the level's up; past SL 15, no path), whose MTU and rate limits and packet
 * lifetime apply too, the P_Key is the first partition
 * both ends share with one of them a full member (sm_pkey_shared(); none: no
 * path), and the PacketLifeTime grows with the hops.  Components
 * honoured: SGID, DGID, SLID, DLID, Reversible, NumbPath (paths per pair in a
 * GetTable), P_Key, SL, ServiceID and QoSClass (for the QoS level), and the MTU and rate selectors.  An end named by GID
 * (or not named, in a table) stands for every LID of its LMC range: a pair
 * has one path per LID of the larger range, each SLID and DLID used (a Get
 * by GIDs: the base LIDs' path).  An MTU or rate code IBA does not define is ERR_REQ_INVALID;
 * a GID outside the subnet ERR_REQ_INVALID_GID; a Get without both ends
 * ERR_REQ_INSUFFICIENT_COMPONENTS.
 */
#include <errno.h>
#include <string.h>

#include "mad/model/topo_rate.h"
#include "sm/sa/sm_sa_records.h"

/* PacketLifeTime of one hop, 4.096 us x 2^16 = 268 ms; each doubling of the
 * hop count adds one (IBA 15.2.5.16: the time a packet may live on the path). */
#define SA_HOP_LIFETIME 16
#define SA_MAX_LIFETIME 63
#define SA_MAX_HOPS 64	/* a walk longer than this is a loop */
#define SA_MTU_MAX 5	/* 4096 */
#define SA_MAX_LMC 7

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
unsigned sm_sa_rate_of(uint8_t code)
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
	unsigned w = sm_sa_rate_of(want), h = sm_sa_rate_of(*have);

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

/* The routing engine's SL for the route from @s (SLID @slid) to @dlid: kept
 * per source switch or source LID (rt_path_sl.h), 0 when routes use no SLs. */
static uint8_t path_sl(const struct sm_sa_source *src, struct sa_port s, uint16_t slid,
		       uint16_t dlid)
{
	const struct topo_port *tp = sa_port_of(src->f, s);
	uint32_t node = s.port && tp->peer != TOPO_NONE ? tp->peer : s.node;

	return src->routes ? rt_path_sls_get(&src->routes->sls, node, slid, dlid) : 0;
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
	/* the QoS level's SL, the engine's layers on the SLs from it up */
	const struct sm_qos_level *ql = sm_sa_path_level(src, t, m, s, d);
	unsigned sl = path_sl(src, s, slid, dlid);
	if (ql && ql->sl != SM_QOS_NO_SL)
		sl += ql->sl;
	if (sl >= MAD_NUM_SL || ((m & MAD_SA_PR_SL) && t->sl != sl))
		return false;
	if (ql && ql->rate && w.rate > sm_sa_rate_of(ql->rate))
		w.rate = sm_sa_rate_of(ql->rate);
	if (ql && ql->mtu && w.mtu > ql->mtu)
		w.mtu = ql->mtu;
	memset(r, 0, sizeof(*r));
	if (m & 3)	/* ServiceID, IBA 1.2+: echoed */
		r->service_id = t->service_id;
	sa_port_gid(src->subnet_prefix, sa_port_of(src->f, d)->guid, r->dgid);
	sa_port_gid(src->subnet_prefix, sa_port_of(src->f, s)->guid, r->sgid);
	r->dlid = dlid;
	r->slid = slid;
	r->reversible = reversible;
	r->pkey = pkey;
	r->sl = (uint8_t)sl;
	r->mtu_selector = r->rate_selector = r->lifetime_selector = 2;
	r->mtu = w.mtu;
	r->rate = rate_code(w.rate);
	r->packet_lifetime = ql && ql->pkt_life != 0xff ? ql->pkt_life : lifetime(w.hops);
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
		if (!sa_gid_port(src, tgid, &by_gid))
			return -EADDRNOTAVAIL;
		*out = by_gid;
		*lid = sa_port_of(src->f, by_gid)->lid;
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

/* The LIDs of an end: @lid alone when the template named it, else the
 * port's whole LMC range (its base LID and 2^LMC - 1 more). */
struct path_lids {
	uint16_t base;
	unsigned count;
};

static struct path_lids end_lids(const struct sm_sa_source *src, struct sa_port p,
				 uint16_t named)
{
	const struct topo_port *tp = sa_port_of(src->f, p);

	if (named)
		return (struct path_lids){ named, 1 };
	return (struct path_lids){ tp->lid, tp->lmc <= SA_MAX_LMC ? 1u << tp->lmc : 1 };
}

/*
 * Path @i from @s to @d, of as many as the larger LMC range has LIDs (IBA
 * 15.2.5.16: with LMC > 0 the DLIDs of a range are distinct paths): from
 * SLID s.base + i mod 2^LMC(s) to DLID d.base + i mod 2^LMC(d), so each SLID
 * and each DLID is used and the paths back pair the same LIDs.  1 when added
 * to @o, 0 when it does not match @t, -ERANGE past the last.
 */
static int pair_path_at(const struct sm_sa_source *src, const struct mad_sa_path_record *t,
			uint64_t m, struct sa_port s, struct path_lids sl, struct sa_port d,
			struct path_lids dl, unsigned i, struct sa_out *o)
{
	struct mad_sa_path_record r;
	uint8_t rec[MAD_SA_PATH_RECORD_SIZE];

	if (i >= sl.count && i >= dl.count)
		return -ERANGE;
	if (!path_record(src, t, m, s, (uint16_t)(sl.base + i % sl.count), d,
			 (uint16_t)(dl.base + i % dl.count), &r))
		return 0;
	mad_sa_path_record_encode(&r, rec);
	sa_out_add(o, rec);
	return 1;
}

int sm_sa_port_path(const struct sm_sa_source *src, const struct mad_sa_path_record *t,
		    uint64_t m, struct sa_port s, struct sa_port d, unsigned i, struct sa_out *o)
{
	return pair_path_at(src, t, m, s, end_lids(src, s, 0), d, end_lids(src, d, 0), i, o);
}

/* The paths from @s to @d, at most @numb of them (0: no limit). */
static void pair_paths(const struct sm_sa_source *src, const struct mad_sa_path_record *t,
		       uint64_t m, struct sa_port s, struct path_lids sl, struct sa_port d,
		       struct path_lids dl, unsigned numb, struct sa_out *o)
{
	unsigned got = 0;
	int rc = 0;

	for (unsigned i = 0; rc >= 0 && (!numb || got < numb) && !sa_out_full(o); i++)
		if ((rc = pair_path_at(src, t, m, s, sl, d, dl, i, o)) > 0)
			got++;
}

uint16_t sm_sa_path_template_status(const struct sm_sa_source *src,
				    const struct mad_sa_path_record *t, uint64_t m)
{
	/* an MTU or a rate IBA does not define, asked for: a malformed query */
	if (((m & MAD_SA_PR_MTU) && (t->mtu < 1 || t->mtu > SA_MTU_MAX)) ||
	    ((m & MAD_SA_PR_RATE) && !sm_sa_rate_of(t->rate)))
		return MAD_SA_ERR_REQ_INVALID;
	/* Routes on several SLs (dfsssp breaking credit loops) whose SL table
	 * was too big to keep: SL 0 could close a credit loop, so no path
	 * rather than a made-up one. */
	if (src->routes && src->routes->check.max_sl > 0 && !src->routes->sls.sl)
		return MAD_SA_ERR_NO_RESOURCES;
	return 0;
}

uint16_t sm_sa_path_records(const struct sm_sa_source *src, const struct mad_sa *req,
			    struct sa_out *o)
{
	struct mad_sa_path_record t;
	struct sa_port s, d;
	uint16_t slid = 0, dlid = 0;
	uint64_t m = req->comp_mask;

	mad_sa_path_record_decode(req->data, &t);
	uint16_t st = sm_sa_path_template_status(src, &t, m);
	if (st)
		return st;
	int hs = path_end(src, m, MAD_SA_PR_SLID, MAD_SA_PR_SGID, t.slid, t.sgid, &s, &slid);
	int hd = path_end(src, m, MAD_SA_PR_DLID, MAD_SA_PR_DGID, t.dlid, t.dgid, &d, &dlid);
	if (hs == -EADDRNOTAVAIL || hd == -EADDRNOTAVAIL)
		return MAD_SA_ERR_REQ_INVALID_GID;
	if (hs < 0 || hd < 0)
		return 0;	/* no such LID: no records */
	if (req->method == MAD_SA_METHOD_GET && (!hs || !hd))
		return MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS;
	/* a Get names one path: by GIDs, the base LIDs' */
	bool one = req->method == MAD_SA_METHOD_GET;
	unsigned numb = one ? 1 : (m & MAD_SA_PR_NUMB_PATH) ? t.numb_path : 0;
	uint16_t sname = (m & MAD_SA_PR_SLID) ? slid : 0, dname = (m & MAD_SA_PR_DLID) ? dlid : 0;
	struct sa_port si = hs ? s : (struct sa_port){ TOPO_NONE, 0 };
	while (hs || sm_sa_next_port(src->f, &si)) {
		struct path_lids sl = end_lids(src, si, hs ? sname : 0);
		struct sa_port di = hd ? d : (struct sa_port){ TOPO_NONE, 0 };
		while (hd || sm_sa_next_port(src->f, &di)) {
			pair_paths(src, &t, m, si, sl, di, end_lids(src, di, hd ? dname : 0),
				   numb, o);
			if (hd || sa_out_full(o))
				break;
		}
		if (hs || sa_out_full(o))
			break;
	}
	return 0;
}

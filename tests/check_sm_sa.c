// SPDX-License-Identifier: MIT
/*
 * check_sm_sa.c - the SA agent on the sim backend: SA requests injected into
 * sm_sa_answer() after a real heavy sweep of tests/topo/twoswitch.topo, the
 * answers decoded and held to the simulated devices (LIDs, PortInfo, the LFTs
 * the sweep programmed) and to the IBA status codes for what it refuses.
 */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_rmpp.h"
#include "mad/mad_rpc.h"
#include "mad/mad_sa.h"
#include "sm/sa/sm_sa.h"
#include "sm/sa/sm_sa_store.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

static struct sm sm;
static struct sm_sa_source src;

static void setup(void)
{
	fixture_setup();
	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sm_sa_index_build(&sm.sa->index, &sm.fabric), 0);
	src = (struct sm_sa_source){ .f = &sm.fabric, .ix = &sm.sa->index,
				     .routes = &sm.routes,
				     .subnet_prefix = sm.cfg.subnet_prefix,
				     .services = &sm.sa->services, .now_ms = 1000,
				     .informs = &sm.sa->informs };
}

static void teardown(void)
{
	sm_close(&sm);
	fixture_teardown();
}

static struct mad_sa request(uint8_t method, uint16_t attr, uint64_t mask)
{
	return (struct mad_sa){ .base_version = 1, .mgmt_class = MAD_CLASS_SA,
				.class_version = MAD_SA_CLASS_VERSION, .method = method,
				.tid = 0x1234, .attr_id = attr, .comp_mask = mask };
}

/* Send @req, expect an answer with @status; the decoded answer. */
static struct mad_sa ask(const struct mad_sa *req, uint16_t status)
{
	uint8_t wire[MAD_BLOCK_SIZE];
	struct sm_sa_reply out;
	struct mad_sa resp;

	mad_sa_encode(req, wire);
	ck_assert(sm_sa_answer(&src, wire, sizeof(wire), &out, &sm.sa->counts));
	ck_assert_ptr_null(out.msg);	/* src.rmpp is off: one MAD */
	ck_assert_int_eq(mad_sa_decode(out.mad, sizeof(out.mad), &resp), 0);
	ck_assert_uint_eq(resp.tid, req->tid);
	ck_assert_uint_eq(resp.attr_id, req->attr_id);
	ck_assert_msg(resp.status == status, "status 0x%04x, wanted 0x%04x", resp.status, status);
	return resp;
}

/* The sweep's view of the node named @name (index in sm.fabric). */
static uint32_t node(const char *name)
{
	const struct topo *t = sim_fabric_topo(fab(&sm));
	uint32_t i = topo_find_name(t, name);

	ck_assert_uint_ne(i, TOPO_NONE);
	uint32_t n = topo_find_guid(&sm.fabric.topo, t->nodes[i].guid);
	ck_assert_uint_ne(n, TOPO_NONE);
	return n;
}

static uint16_t lid_of(const char *name, uint8_t port)
{
	uint16_t lid = sm.fabric.topo.nodes[node(name)].ports[port].lid;

	ck_assert_uint_ne(lid, 0);
	return lid;
}

START_TEST(class_port_info)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_CLASS_PORT_INFO, 0);
	struct mad_sa resp = ask(&req, 0);
	struct mad_class_port_info cpi;

	ck_assert_uint_eq(resp.method, MAD_SA_METHOD_GET_RESP);
	mad_class_port_info_decode(resp.data, &cpi);
	ck_assert_uint_eq(cpi.base_version, 1);
	ck_assert_uint_eq(cpi.class_version, 2);
	ck_assert_uint_ne(cpi.resp_time_value, 0);
	/* what the SA does: UD multicast; SendOnlyFullMember joins (the kernel's
	 * cma.c refuses such a join without CapabilityMask2 bit 12), rates up to
	 * NDR; nothing it does not (Notice, traps, MultiPath with TraceRecord) */
	ck_assert_uint_eq(cpi.cap_mask, MAD_CPI_CAP_MASK2_VALID | MAD_SA_CAP_UD_MCAST);
	ck_assert_uint_eq(cpi.cap_mask, 0x0204);
	ck_assert(cpi.cap_mask2 & (1u << 12));
	ck_assert(cpi.cap_mask2 & (1u << 5));	/* alias GUIDs */
	ck_assert(cpi.cap_mask2 & MAD_SA_CAP2_SPEED_HDR);
	ck_assert_uint_eq(resp.data[7] & 0x1f, cpi.resp_time_value);	/* bits 4:0 of bytes 4-7 */
	ck_assert_uint_eq((uint32_t)resp.data[4] << 19 | (uint32_t)resp.data[5] << 11 |
			  (uint32_t)resp.data[6] << 3 | resp.data[7] >> 5, cpi.cap_mask2);
}
END_TEST

START_TEST(busy_before_first_sweep)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_NODE_RECORD, 0);

	src.f = NULL;
	ask(&req, MAD_STATUS_BUSY);
	ck_assert_uint_eq(sm.sa->counts.busy, 1);
}
END_TEST

START_TEST(node_record_by_guid)
{
	const struct topo_node *h2 = &sm.fabric.topo.nodes[node("H2")];
	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_NODE_RECORD,
				    MAD_SA_NR_PORT_GUID);
	struct mad_sa_node_record t = { .info.port_guid = h2->ports[1].guid }, r;

	mad_sa_node_record_encode(&t, req.data);
	struct mad_sa resp = ask(&req, 0);
	mad_sa_node_record_decode(resp.data, &r);
	ck_assert_uint_eq(r.lid, lid_of("H2", 1));
	ck_assert_uint_eq(r.info.node_guid, h2->guid);
	ck_assert_uint_eq(r.info.node_type, MAD_NODE_CA);
	ck_assert_uint_eq(r.info.local_port, 1);
	ck_assert_uint_ne(r.info.partition_cap, 0);	/* as NodeInfo said */
	ck_assert_str_eq(r.desc.desc, h2->desc);
	/* the device itself holds that LID */
	struct mad_port_info pi;
	const struct topo *st = sim_fabric_topo(fab(&sm));
	ck_assert_int_eq(sim_get_port_info(fab(&sm), topo_find_name(st, "H2"), 1, &pi), 0);
	ck_assert_uint_eq(pi.lid, r.lid);
}
END_TEST

START_TEST(node_record_table)
{
	const struct topo_node *sa = &sm.fabric.topo.nodes[node("SA")];
	struct mad_sa req = request(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_NODE_RECORD,
				    MAD_SA_NR_NODE_TYPE | MAD_SA_NR_NODE_GUID);
	struct mad_sa_node_record t = { .info.node_type = MAD_NODE_SWITCH,
					.info.node_guid = sa->guid }, r;

	mad_sa_node_record_encode(&t, req.data);
	struct mad_sa resp = ask(&req, 0);
	ck_assert_uint_eq(resp.method, MAD_SA_METHOD_GET_TABLE_RESP);
	ck_assert_uint_eq(resp.attr_offset, 14);
	mad_sa_node_record_decode(resp.data, &r);
	ck_assert_uint_eq(r.info.node_guid, sa->guid);
	ck_assert_uint_eq(r.info.local_port, 0);
	ck_assert_uint_eq(r.info.num_ports, 8);
	ck_assert_uint_eq(r.lid, lid_of("SA", 0));
	static const uint8_t zero[MAD_SA_DATA_SIZE];
	ck_assert_mem_eq(resp.data + 112, zero, MAD_SA_DATA_SIZE - 112);
	/* both switches: two records of 108 bytes do not fit a MAD's 200 */
	req.comp_mask = MAD_SA_NR_NODE_TYPE;
	ask(&req, MAD_SA_ERR_NO_RESOURCES);
	/* the dual-ported host by node GUID: one record per port, the same */
	const struct topo_node *hd = &sm.fabric.topo.nodes[node("HD")];
	t = (struct mad_sa_node_record){ .info.node_guid = hd->guid };
	req.comp_mask = MAD_SA_NR_NODE_GUID;
	mad_sa_node_record_encode(&t, req.data);
	ask(&req, MAD_SA_ERR_NO_RESOURCES);
	/* ... and by port GUID, one */
	t.info.port_guid = hd->ports[2].guid;
	req.comp_mask |= MAD_SA_NR_PORT_GUID;
	mad_sa_node_record_encode(&t, req.data);
	mad_sa_node_record_decode(ask(&req, 0).data, &r);
	ck_assert_uint_eq(r.info.local_port, 2);
	ck_assert_uint_eq(r.lid, lid_of("HD", 2));
}
END_TEST

START_TEST(get_wants_one_record)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_NODE_RECORD, 0);
	struct mad_sa_node_record t = { .info.node_guid = 0xdead };

	ask(&req, MAD_SA_ERR_TOO_MANY_RECORDS);		/* no component: every node */
	req.comp_mask = MAD_SA_NR_NODE_GUID;
	mad_sa_node_record_encode(&t, req.data);
	ask(&req, MAD_SA_ERR_NO_RECORDS);
	ck_assert_uint_eq(sm.sa->counts.no_records, 1);
	/* a table may be empty */
	req.method = MAD_SA_METHOD_GET_TABLE;
	struct mad_sa resp = ask(&req, 0);
	ck_assert_uint_eq(resp.attr_offset, 14);
	/* and one larger than a MAD needs RMPP, which we do not do */
	req.comp_mask = 0;
	ask(&req, MAD_SA_ERR_NO_RESOURCES);
	ck_assert_uint_eq(sm.sa->counts.too_big, 1);
}
END_TEST

START_TEST(port_info_record)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_PORT_INFO_RECORD,
				    MAD_SA_PIR_LID | MAD_SA_PIR_PORT_NUM);
	struct mad_sa_port_info_record t = { .lid = lid_of("SB", 0), .port_num = 3 }, r;

	mad_sa_port_info_record_encode(&t, req.data);
	struct mad_sa resp = ask(&req, 0);
	mad_sa_port_info_record_decode(resp.data, &r);
	ck_assert_uint_eq(r.lid, t.lid);
	ck_assert_uint_eq(r.port_num, 3);
	ck_assert_uint_eq(r.info.port_state, MAD_PORT_ACTIVE);
	ck_assert_uint_eq(r.info.local_port, 3);
	/* a CA port by LID alone, and its PortInfo as the device holds it */
	t = (struct mad_sa_port_info_record){ .lid = lid_of("HD", 2) };
	req.comp_mask = MAD_SA_PIR_LID;
	mad_sa_port_info_record_encode(&t, req.data);
	resp = ask(&req, 0);
	mad_sa_port_info_record_decode(resp.data, &r);
	ck_assert_uint_eq(r.port_num, 2);
	ck_assert_uint_eq(r.info.lid, t.lid);
	/* a switch by LID: one record per port, more than fit one MAD */
	t = (struct mad_sa_port_info_record){ .lid = lid_of("SA", 0) };
	req.method = MAD_SA_METHOD_GET_TABLE;
	mad_sa_port_info_record_encode(&t, req.data);
	ask(&req, MAD_SA_ERR_NO_RESOURCES);
	/* an unknown LID */
	t.lid = 0xbfff;
	mad_sa_port_info_record_encode(&t, req.data);
	resp = ask(&req, 0);
	static const uint8_t zero[MAD_SA_DATA_SIZE];
	ck_assert_mem_eq(resp.data, zero, sizeof(zero));
}
END_TEST

/* IBA 15.2.5.3: a PortInfoRecord shows the port's M_Key only to a requester
 * holding the SM_Key; any other host of the fabric reads 0. */
START_TEST(port_info_record_hides_the_m_key)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_PORT_INFO_RECORD,
				    MAD_SA_PIR_LID);
	struct mad_sa_port_info_record t = { .lid = lid_of("HD", 2) }, r;

	sm.fabric.attrs[node("HD")].pi[2].mkey = 0x1122334455667788ull;
	src.sm_key = 0xabcdull;
	mad_sa_port_info_record_encode(&t, req.data);
	mad_sa_port_info_record_decode(ask(&req, 0).data, &r);
	ck_assert_uint_eq(r.info.mkey, 0);
	req.sm_key = 0x1234ull;	/* a wrong key */
	mad_sa_port_info_record_decode(ask(&req, 0).data, &r);
	ck_assert_uint_eq(r.info.mkey, 0);
	req.sm_key = 0xabcdull;
	mad_sa_port_info_record_decode(ask(&req, 0).data, &r);
	ck_assert_uint_eq(r.info.mkey, 0x1122334455667788ull);
	src.sm_key = 0;	/* no SM_Key configured: nobody is trusted */
	req.sm_key = 0;
	mad_sa_port_info_record_decode(ask(&req, 0).data, &r);
	ck_assert_uint_eq(r.info.mkey, 0);
}
END_TEST

/* Links a packet crosses from CA port (@name, @port) to @dlid, by the LFTs
 * programmed into the simulated switches. */
static unsigned sim_hops(const char *name, uint8_t port, uint16_t dlid)
{
	struct sim_fabric *f = fab(&sm);
	const struct topo *t = sim_fabric_topo(f);
	uint32_t n = topo_find_name(t, name);
	const struct topo_port *tp = &t->nodes[n].ports[port];
	struct mad_port_info pi;
	unsigned hops = 1;
	char why[200];

	ck_assert_int_eq(sim_data_trace(f, n, port, dlid, 0, why, sizeof(why)), 0);
	for (n = tp->peer; t->nodes[n].type == MAD_NODE_SWITCH; hops++) {
		ck_assert_int_eq(sim_get_port_info(f, n, 0, &pi), 0);
		if (pi.lid == dlid)
			return hops;
		uint8_t out = sim_get_lft(f, n, dlid);
		n = t->nodes[n].ports[out].peer;
	}
	return hops;
}

/* The GID of the port with @guid. */
static void sa_gid(uint64_t guid, uint8_t gid[MAD_GID_LEN])
{
	for (int i = 0; i < 8; i++) {
		gid[i] = (uint8_t)(sm.cfg.subnet_prefix >> (56 - 8 * i));
		gid[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
}

/* @name's port 1 GID. */
static void gid_of(const char *name, uint8_t gid[MAD_GID_LEN])
{
	sa_gid(sm.fabric.topo.nodes[node(name)].ports[1].guid, gid);
}

/* The PacketLifeTime the SA gives a path of @hops links (IBA 15.2.5.16). */
static unsigned lifetime_of(unsigned hops)
{
	unsigned l = 16;

	for (unsigned h = 1; h < hops; h <<= 1)
		l++;
	return l;
}

static struct mad_sa_path_record path(uint16_t slid, uint16_t dlid, uint16_t status)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_PATH_RECORD,
				    MAD_SA_PR_SLID | MAD_SA_PR_DLID);
	struct mad_sa_path_record t = { .slid = slid, .dlid = dlid }, r;

	mad_sa_path_record_encode(&t, req.data);
	struct mad_sa resp = ask(&req, status);
	mad_sa_path_record_decode(resp.data, &r);
	return r;
}

START_TEST(path_records_every_ca_pair)
{
	static const struct { const char *name; uint8_t port; } ca[] = {
		{ "H0", 1 }, { "H1", 1 }, { "H2", 1 }, { "H3", 1 }, { "HD", 1 }, { "HD", 2 },
	};

	for (size_t i = 0; i < sizeof(ca) / sizeof(ca[0]); i++) {
		for (size_t j = 0; j < sizeof(ca) / sizeof(ca[0]); j++) {
			uint16_t s = lid_of(ca[i].name, ca[i].port);
			uint16_t d = lid_of(ca[j].name, ca[j].port);
			struct mad_sa_path_record r = path(s, d, 0);
			ck_assert_uint_eq(r.slid, s);
			ck_assert_uint_eq(r.dlid, d);
			ck_assert(r.reversible);
			ck_assert_uint_eq(r.pkey, 0xffff);
			ck_assert_uint_eq(r.sl, 0);
			ck_assert_uint_eq(r.mtu_selector, 2);
			ck_assert_uint_ge(r.mtu, 1);
			ck_assert_uint_le(r.mtu, 5);
			ck_assert_uint_ne(r.rate, 0);
			/* GIDs: the subnet prefix and the ports' GUIDs */
			ck_assert_uint_eq(r.sgid[0], 0xfe);
			ck_assert_uint_eq(r.dgid[15],
				(uint8_t)sm.fabric.topo.nodes[node(ca[j].name)].ports[ca[j].port].guid);
			if (i == j) {
				ck_assert_uint_eq(r.packet_lifetime, 0);	/* loopback */
				continue;
			}
			/* the lifetime says how many links the LFTs take it over */
			unsigned hops = sim_hops(ca[i].name, ca[i].port, d);
			unsigned l = lifetime_of(hops);
			ck_assert_msg(r.packet_lifetime == l, "%s -> %s: lifetime %u, %u hops",
				      ca[i].name, ca[j].name, r.packet_lifetime, hops);
		}
	}
}
END_TEST

/* Sweep again with LMC 2: every CA port owns four LIDs. */
static void sweep_lmc2(void)
{
	sm.cfg.lmc = 2;
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sm_sa_index_build(&sm.sa->index, &sm.fabric), 0);
}

START_TEST(path_records_lmc2)
{
	static const char *const ca[] = { "H0", "H1", "H2", "H3" };

	sweep_lmc2();
	for (size_t i = 0; i < 4; i++) {
		for (size_t j = 0; j < 4; j++) {
			if (i == j)
				continue;
			uint16_t s = lid_of(ca[i], 1), d = lid_of(ca[j], 1);
			ck_assert_uint_eq(sm.fabric.topo.nodes[node(ca[j])].ports[1].lmc, 2);
			for (uint16_t k = 0; k < 4; k++) {
				struct mad_sa_path_record r = path((uint16_t)(s + 3 - k),
								   (uint16_t)(d + k), 0);
				ck_assert_uint_eq(r.dlid, d + k);
				ck_assert_uint_eq(r.slid, s + 3 - k);
				ck_assert(r.reversible);
				ck_assert_uint_eq(r.packet_lifetime,
						  lifetime_of(sim_hops(ca[i], 1, (uint16_t)(d + k))));
			}
		}
	}
	/* one past a port's range is nobody's */
	struct sa_port p;
	uint16_t top = 0;
	for (uint32_t n = 0; n < sm.fabric.topo.n; n++)
		for (uint8_t q = 0; q <= sm.fabric.topo.nodes[n].nports; q++)
			if (sm.fabric.topo.nodes[n].ports[q].lid > top)
				top = sm.fabric.topo.nodes[n].ports[q].lid;
	ck_assert(sm_sa_index_lid(&sm.sa->index, top, &p));
	ck_assert(!sm_sa_index_lid(&sm.sa->index, (uint16_t)(top + 4), &p));
	ck_assert(!sm_sa_index_lid(&sm.sa->index, 0, &p));
	ck_assert(!sm_sa_index_guid(&sm.sa->index, 0, &p));
}
END_TEST

START_TEST(path_record_by_gid_and_selectors)
{
	const struct topo_node *h0 = &sm.fabric.topo.nodes[node("H0")];
	const struct topo_node *h3 = &sm.fabric.topo.nodes[node("H3")];
	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_PATH_RECORD,
				    MAD_SA_PR_SGID | MAD_SA_PR_DGID);
	struct mad_sa_path_record t = { 0 }, r;

	for (int i = 0; i < 8; i++) {
		t.sgid[i] = t.dgid[i] = (uint8_t)(sm.cfg.subnet_prefix >> (56 - 8 * i));
		t.sgid[8 + i] = (uint8_t)(h0->ports[1].guid >> (56 - 8 * i));
		t.dgid[8 + i] = (uint8_t)(h3->ports[1].guid >> (56 - 8 * i));
	}
	mad_sa_path_record_encode(&t, req.data);
	struct mad_sa resp = ask(&req, 0);
	mad_sa_path_record_decode(resp.data, &r);
	ck_assert_uint_eq(r.slid, lid_of("H0", 1));
	ck_assert_uint_eq(r.dlid, lid_of("H3", 1));
	uint8_t mtu = r.mtu, rate = r.rate;

	/* MTU: exactly the path's is given; above it, no path; a smaller one is */
	req.comp_mask |= MAD_SA_PR_MTU_SELECTOR | MAD_SA_PR_MTU;
	t.mtu_selector = 2;
	t.mtu = (uint8_t)(mtu + 1);
	mad_sa_path_record_encode(&t, req.data);
	ask(&req, MAD_SA_ERR_NO_RECORDS);
	t.mtu = 1;
	mad_sa_path_record_encode(&t, req.data);
	mad_sa_path_record_decode(ask(&req, 0).data, &r);
	ck_assert_uint_eq(r.mtu, 1);
	t.mtu_selector = 0;	/* greater than the path's own */
	t.mtu = mtu;
	mad_sa_path_record_encode(&t, req.data);
	ask(&req, MAD_SA_ERR_NO_RECORDS);
	/* rate: greater than the path's, no path; largest available, the path's */
	req.comp_mask = MAD_SA_PR_SGID | MAD_SA_PR_DGID | MAD_SA_PR_RATE_SELECTOR |
			MAD_SA_PR_RATE;
	t.rate_selector = 0;
	t.rate = rate;
	mad_sa_path_record_encode(&t, req.data);
	ask(&req, MAD_SA_ERR_NO_RECORDS);
	t.rate_selector = 3;
	mad_sa_path_record_encode(&t, req.data);
	mad_sa_path_record_decode(ask(&req, 0).data, &r);
	ck_assert_uint_eq(r.rate, rate);
	/* an MTU or rate code IBA does not define */
	req.comp_mask = MAD_SA_PR_SGID | MAD_SA_PR_DGID | MAD_SA_PR_MTU_SELECTOR | MAD_SA_PR_MTU;
	t.mtu_selector = 2;
	t.mtu = 6;
	mad_sa_path_record_encode(&t, req.data);
	ask(&req, MAD_SA_ERR_REQ_INVALID);
	req.comp_mask = MAD_SA_PR_SGID | MAD_SA_PR_DGID | MAD_SA_PR_RATE;
	t.rate = 1;
	mad_sa_path_record_encode(&t, req.data);
	ask(&req, MAD_SA_ERR_REQ_INVALID);
	/* a partition the ports do not share */
	req.comp_mask = MAD_SA_PR_SGID | MAD_SA_PR_DGID | MAD_SA_PR_PKEY;
	t.pkey = 0x8001;
	mad_sa_path_record_encode(&t, req.data);
	ask(&req, MAD_SA_ERR_NO_RECORDS);
	/* a GID outside our subnet */
	req.comp_mask = MAD_SA_PR_SGID | MAD_SA_PR_DGID;
	t.dgid[0] = 0x20;
	mad_sa_path_record_encode(&t, req.data);
	ask(&req, MAD_SA_ERR_REQ_INVALID_GID);
	/* a Get naming one end only */
	req.comp_mask = MAD_SA_PR_SGID;
	ask(&req, MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS);
	/* a table from one port to every other: too many for one MAD */
	req.method = MAD_SA_METHOD_GET_TABLE;
	ask(&req, MAD_SA_ERR_NO_RESOURCES);
}
END_TEST

START_TEST(no_made_up_paths)
{
	struct sm_routes none = { 0 }, on_sls = sm.routes;

	src.routes = &none;
	path(lid_of("H0", 1), lid_of("H3", 1), MAD_SA_ERR_NO_RECORDS);
	/* routes on SLs whose per-path SL the SA does not know */
	on_sls.check.max_sl = 1;
	src.routes = &on_sls;
	path(lid_of("H0", 1), lid_of("H3", 1), MAD_SA_ERR_NO_RESOURCES);
}
END_TEST

/* ftree on a cut fat tree puts some CA pairs on SL 1: PathRecords carry the
 * engine's SL (by source switch), and the SL component selects on it. */
START_TEST(path_records_carry_the_engine_sl)
{
	sm_close(&sm);
	sm_start_cut_tree(&sm);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_ge(sm.routes.check.max_sl, 1);
	ck_assert_int_eq(sm_sa_index_build(&sm.sa->index, &sm.fabric), 0);
	src = (struct sm_sa_source){ .f = &sm.fabric, .ix = &sm.sa->index,
				     .routes = &sm.routes,
				     .subnet_prefix = sm.cfg.subnet_prefix };
	const struct topo *t = &sm.fabric.topo;
	unsigned on_sl[16] = { 0 };
	for (uint32_t a = 0; a < t->n; a++) {
		if (t->nodes[a].type != MAD_NODE_CA || !t->nodes[a].ports[1].lid)
			continue;
		for (uint32_t b = 0; b < t->n; b++) {
			if (t->nodes[b].type != MAD_NODE_CA || !t->nodes[b].ports[1].lid)
				continue;
			uint16_t s = t->nodes[a].ports[1].lid, d = t->nodes[b].ports[1].lid;
			struct mad_sa_path_record r = path(s, d, 0);
			uint32_t sw = t->nodes[a].ports[1].peer;
			ck_assert_uint_eq(r.sl, rt_path_sls_get(&sm.routes.sls, sw, s, d));
			on_sl[r.sl & 0xf]++;
			if (r.sl == 0)
				continue;
			/* asking for that SL finds it, for SL 0 nothing */
			struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_PATH_RECORD,
						    MAD_SA_PR_SLID | MAD_SA_PR_DLID | MAD_SA_PR_SL);
			struct mad_sa_path_record q = { .slid = s, .dlid = d, .sl = r.sl };
			mad_sa_path_record_encode(&q, req.data);
			ask(&req, 0);
			q.sl = 0;
			mad_sa_path_record_encode(&q, req.data);
			ask(&req, MAD_SA_ERR_NO_RECORDS);
		}
	}
	ck_assert_uint_gt(on_sl[0], 0);
	ck_assert_uint_gt(on_sl[1], 0);
}
END_TEST

/* A GetTable of @attr with @mask and template @tmpl (its size): the answer,
 * with the number of records in *@n and the record stride checked. */
static struct mad_sa table(uint16_t attr, uint64_t mask, const uint8_t *tmpl, size_t len,
			   unsigned *n)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET_TABLE, attr, mask);

	memcpy(req.data, tmpl, len);
	uint64_t answered = sm.sa->counts.answered;
	struct mad_sa resp = ask(&req, 0);
	ck_assert_uint_eq(sm.sa->counts.answered, answered + 1);
	size_t stride = (size_t)resp.attr_offset * MAD_SA_ATTR_OFFSET_UNIT;
	ck_assert_uint_ge(stride, mad_sa_record_size(attr));
	ck_assert_uint_lt(stride, mad_sa_record_size(attr) + MAD_SA_ATTR_OFFSET_UNIT);
	*n = 0;
	for (size_t off = 0; off + stride <= MAD_SA_DATA_SIZE; off += stride) {
		static const uint8_t zero[MAD_SA_DATA_SIZE];
		if (memcmp(resp.data + off, zero, stride))
			*n = (unsigned)(off / stride + 1);
	}
	return resp;
}

/* LinkRecords: both directions of every cable of the sim, by FromLID and
 * FromPort; a LID nobody owns has none. */
START_TEST(link_records)
{
	const struct topo *st = sim_fabric_topo(fab(&sm));
	uint8_t tmpl[MAD_SA_LINK_RECORD_SIZE];
	unsigned n, total = 0;

	for (uint32_t i = 0; i < st->n; i++) {
		const struct topo_node *sn = &st->nodes[i];
		bool sw = sn->type == MAD_NODE_SWITCH;
		for (uint8_t p = 1; p <= sn->nports; p++) {
			if (sn->ports[p].peer == TOPO_NONE)
				continue;
			total++;
			const struct topo_node *pn = &st->nodes[sn->ports[p].peer];
			uint8_t pp = sn->ports[p].peer_port;
			struct mad_sa_link_record t = {
				.from_lid = lid_of(sn->desc, sw ? 0 : p), .from_port = p,
			}, r;
			mad_sa_link_record_encode(&t, tmpl);
			struct mad_sa resp = table(MAD_SA_ATTR_LINK_RECORD,
						   MAD_SA_COMP(0) | MAD_SA_COMP(1), tmpl,
						   sizeof(tmpl), &n);
			ck_assert_uint_eq(n, 1);
			mad_sa_link_record_decode(resp.data, &r);
			ck_assert_uint_eq(r.from_lid, t.from_lid);
			ck_assert_uint_eq(r.to_port, pp);
			ck_assert_uint_eq(r.to_lid, lid_of(pn->desc, pn->type == MAD_NODE_SWITCH
								  ? 0 : pp));
		}
	}
	ck_assert_uint_eq(total, 16);	/* eight cables */
	/* every link of switch SA: its five cables */
	struct mad_sa_link_record t = { .from_lid = lid_of("SA", 0) };
	mad_sa_link_record_encode(&t, tmpl);
	table(MAD_SA_ATTR_LINK_RECORD, MAD_SA_COMP(0), tmpl, sizeof(tmpl), &n);
	ck_assert_uint_eq(n, 5);
	t.from_lid = 0x7000;
	mad_sa_link_record_encode(&t, tmpl);
	table(MAD_SA_ATTR_LINK_RECORD, MAD_SA_COMP(0), tmpl, sizeof(tmpl), &n);
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* SwitchInfoRecord and LFTRecords: what the switch itself holds after the sweep. */
START_TEST(switch_records)
{
	const struct topo *st = sim_fabric_topo(fab(&sm));
	uint32_t sb = topo_find_name(st, "SB");
	uint8_t tmpl[MAD_SA_LFT_RECORD_SIZE];
	struct mad_switch_info si;
	unsigned n;

	struct mad_sa_switch_info_record ts = { .lid = lid_of("SB", 0) }, rs;
	mad_sa_switch_info_record_encode(&ts, tmpl);
	mad_sa_switch_info_record_decode(table(MAD_SA_ATTR_SWITCH_INFO_RECORD, MAD_SA_COMP(0),
					       tmpl, MAD_SA_SWITCH_INFO_RECORD_SIZE, &n).data, &rs);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(sim_get_switch_info(fab(&sm), sb, &si), 0);
	ck_assert_uint_eq(rs.lid, ts.lid);
	ck_assert_uint_eq(rs.info.lft_cap, si.lft_cap);
	ck_assert_uint_eq(rs.info.lft_top, si.lft_top);
	/* a CA's LID names no switch */
	ts.lid = lid_of("H2", 1);
	mad_sa_switch_info_record_encode(&ts, tmpl);
	table(MAD_SA_ATTR_SWITCH_INFO_RECORD, MAD_SA_COMP(0), tmpl,
	      MAD_SA_SWITCH_INFO_RECORD_SIZE, &n);
	ck_assert_uint_eq(n, 0);

	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_LFT_RECORD,
				    MAD_SA_COMP(0) | MAD_SA_COMP(1));
	struct mad_sa_lft_record tl = { .lid = lid_of("SB", 0), .block = 0 }, rl;
	mad_sa_lft_record_encode(&tl, req.data);
	mad_sa_lft_record_decode(ask(&req, 0).data, &rl);
	ck_assert_uint_eq(rl.lid, tl.lid);
	for (uint16_t lid = 1; lid < MAD_LFT_BLOCK; lid++)
		ck_assert_uint_eq(rl.lft.port[lid], sim_get_lft(fab(&sm), sb, lid));
	tl.block = 1;	/* past LinearFDBTop */
	mad_sa_lft_record_encode(&tl, req.data);
	ask(&req, MAD_SA_ERR_NO_RECORDS);
	/* no multicast forwarding yet: a table with nothing in it */
	struct mad_sa_mft_record tm = { 0 };
	mad_sa_mft_record_encode(&tm, tmpl);
	table(MAD_SA_ATTR_MFT_RECORD, 0, tmpl, MAD_SA_MFT_RECORD_SIZE, &n);
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* SMInfoRecord: this SM, its SM_Key only to a holder of it. */
START_TEST(sm_info_records)
{
	struct mad_sa_sm_info_record sms[SM_SA_MAX_SMS], r;
	uint8_t tmpl[MAD_SA_SM_INFO_RECORD_SIZE] = { 0 };
	unsigned n;

	sm.sm_state = MAD_SM_MASTER;
	sm.cfg.sm_key = 0x5ec7e7;
	sm.have_fabric = true;
	src.nsms = sm_sa_known_sms(&sm, sms);
	src.sms = sms;
	src.sm_key = sm.cfg.sm_key;
	ck_assert_uint_eq(src.nsms, 1);
	mad_sa_sm_info_record_decode(table(MAD_SA_ATTR_SM_INFO_RECORD, 0, tmpl, sizeof(tmpl),
					   &n).data, &r);
	ck_assert_uint_eq(n, 1);
	const struct topo_node *own = &sm.fabric.topo.nodes[sm.fabric.local_node];
	ck_assert_uint_eq(r.info.guid, own->ports[sm.fabric.local_port].guid);
	ck_assert_uint_eq(r.lid, own->ports[sm.fabric.local_port].lid);
	ck_assert_uint_eq(r.info.state, MAD_SM_MASTER);
	ck_assert_uint_eq(r.info.priority, sm.cfg.sm_priority);
	ck_assert_uint_eq(r.info.sm_key, 0);
	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_SM_INFO_RECORD, 0);
	req.sm_key = sm.cfg.sm_key;
	mad_sa_sm_info_record_decode(ask(&req, 0).data, &r);
	ck_assert_uint_eq(r.info.sm_key, 0x5ec7e7);
	/* by state: no STANDBY known */
	struct mad_sa_sm_info_record t = { .info.state = MAD_SM_STANDBY };
	mad_sa_sm_info_record_encode(&t, tmpl);
	table(MAD_SA_ATTR_SM_INFO_RECORD, MAD_SA_COMP(6), tmpl, sizeof(tmpl), &n);
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* P_KeyTable, SL2VL and GUIDInfo records of a CA port and of a switch. */
START_TEST(port_table_records)
{
	const struct topo_node *h2 = &sm.fabric.topo.nodes[node("H2")];
	uint8_t tmpl[MAD_SA_PKEY_TABLE_RECORD_SIZE] = { 0 };
	unsigned n;

	struct mad_sa_pkey_table_record tp = { .lid = lid_of("H2", 1) }, rp;
	mad_sa_pkey_table_record_encode(&tp, tmpl);
	mad_sa_pkey_table_record_decode(table(MAD_SA_ATTR_PKEY_TABLE_RECORD, MAD_SA_COMP(0),
					      tmpl, sizeof(tmpl), &n).data, &rp);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(rp.port_num, 1);
	ck_assert_uint_eq(rp.table.pkey[0], 0xffff);
	ck_assert_uint_eq(rp.table.pkey[1], 0);
	tp = (struct mad_sa_pkey_table_record){ .lid = lid_of("SA", 0), .port_num = 3 };
	struct mad_sa req = request(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_PKEY_TABLE_RECORD,
				    MAD_SA_COMP(0));
	mad_sa_pkey_table_record_encode(&tp, req.data);
	ask(&req, MAD_SA_ERR_NO_RESOURCES);	/* switch ports 0..8: over one MAD */
	mad_sa_pkey_table_record_encode(&tp, tmpl);
	table(MAD_SA_ATTR_PKEY_TABLE_RECORD, MAD_SA_COMP(0) | MAD_SA_COMP(2), tmpl,
	      sizeof(tmpl), &n);
	ck_assert_uint_eq(n, 1);

	struct mad_sa_sl2vl_record ts = { .lid = lid_of("H2", 1) }, rs;
	mad_sa_sl2vl_record_encode(&ts, tmpl);
	mad_sa_sl2vl_record_decode(table(MAD_SA_ATTR_SL2VL_RECORD, MAD_SA_COMP(0), tmpl,
					 MAD_SA_SL2VL_RECORD_SIZE, &n).data, &rs);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(rs.in_port, 0);
	ck_assert_uint_eq(rs.out_port, 1);
	for (int sl = 0; sl < MAD_NUM_SL; sl++)
		ck_assert_uint_eq(rs.table.vl[sl], 0);	/* routes on SL 0: as devices came up */
	ts = (struct mad_sa_sl2vl_record){ .lid = lid_of("SB", 0), .in_port = 1, .out_port = 3 };
	mad_sa_sl2vl_record_encode(&ts, tmpl);
	table(MAD_SA_ATTR_SL2VL_RECORD, MAD_SA_COMP(0) | MAD_SA_COMP(1) | MAD_SA_COMP(2), tmpl,
	      MAD_SA_SL2VL_RECORD_SIZE, &n);
	ck_assert_uint_eq(n, 1);

	struct mad_sa_guid_info_record tg = { .lid = lid_of("H2", 1) }, rg;
	mad_sa_guid_info_record_encode(&tg, tmpl);
	mad_sa_guid_info_record_decode(table(MAD_SA_ATTR_GUID_INFO_RECORD, MAD_SA_COMP(0), tmpl,
					     MAD_SA_GUID_INFO_RECORD_SIZE, &n).data, &rg);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(rg.guid[0], h2->ports[1].guid);
	ck_assert_uint_eq(rg.guid[1], 0);
	tg.block = 1;	/* one block only */
	mad_sa_guid_info_record_encode(&tg, tmpl);
	table(MAD_SA_ATTR_GUID_INFO_RECORD, MAD_SA_COMP(0) | MAD_SA_COMP(1), tmpl,
	      MAD_SA_GUID_INFO_RECORD_SIZE, &n);
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* A client at H3 sends the request @req (@req_len bytes: a MAD, or a longer
 * message it sends as RMPP segments, a window per ACK) to the SM over the
 * simulated fabric (LID routed, QP1); the SM's answer comes back as RMPP
 * segments the client reassembles and ACKs window by window.  Returns the
 * message (free()), its data length in *@len; @req's TID names the
 * transaction. */
static uint8_t *send_over_fabric(const uint8_t *req, size_t req_len, size_t *len,
				 unsigned *segments)
{
	const struct topo *st = sim_fabric_topo(fab(&sm));
	const struct topo_node *own = &sm.fabric.topo.nodes[sm.fabric.local_node];
	struct mad_addr to = { .lid = own->ports[sm.fabric.local_port].lid, .qpn = 1 }, from;
	struct mad_transport *client;
	struct mad_rmpp_receiver r;
	struct mad_rmpp_sender out;
	uint8_t wire[MAD_BLOCK_SIZE], ack[MAD_BLOCK_SIZE];
	int rc = 0;

	ck_assert_int_eq(sim_transport_new_at(fab(&sm), topo_find_name(st, "H3"), 1, &client), 0);
	mad_rmpp_receiver_init(&r, MAD_SA_DATA_OFFSET);
	ck_assert_int_eq(mad_rmpp_sender_init(&out, req, req_len, MAD_SA_DATA_OFFSET), 0);
	if (req_len == MAD_BLOCK_SIZE)
		ck_assert_int_eq(client->ops->send(client, req, &to), 0);
	while (req_len > MAD_BLOCK_SIZE && mad_rmpp_sender_next(&out, wire))
		ck_assert_int_eq(client->ops->send(client, wire, &to), 0);
	*segments = 0;
	for (int turns = 0; rc == 0 && turns < 1000; turns++) {
		ck_assert_int_ge(mad_rpc_poll(sm.rpc, 0), 0);	/* the SM answers, takes ACKs */
		while (rc == 0 && mad_transport_recv_mad(client, wire, &from, 0) == 0) {
			ck_assert_uint_eq(from.lid, to.lid);
			if (!(wire[3] & 0x80)) {	/* an ACK of our request: the next window */
				ck_assert_uint_eq(mad_rmpp_type(wire), MAD_RMPP_TYPE_ACK);
				ck_assert_int_ge(mad_rmpp_sender_ack(&out, wire), 0);
				while (mad_rmpp_sender_next(&out, wire))
					ck_assert_int_eq(client->ops->send(client, wire, &to), 0);
				continue;
			}
			ck_assert_uint_eq(wire[3], req[3] | 0x80);	/* GetTableResp, GetMultiResp */
			if (!mad_rmpp_active(wire) && (wire[4] || wire[5])) {	/* a refusal: one MAD */
				r.msg = malloc(MAD_BLOCK_SIZE);
				ck_assert_ptr_nonnull(r.msg);
				memcpy(r.msg, wire, MAD_BLOCK_SIZE);
				r.data_len = MAD_SA_DATA_SIZE;
				rc = 1;
				break;
			}
			ck_assert(mad_rmpp_active(wire));
			bool send_ack;
			rc = mad_rmpp_receiver_add(&r, wire, ack, &send_ack);
			ck_assert_int_ge(rc, 0);
			(*segments)++;
			if (send_ack)
				ck_assert_int_eq(client->ops->send(client, ack, &to), 0);
		}
	}
	ck_assert_int_eq(rc, 1);
	mad_transport_close(client);
	mad_rmpp_sender_free(&out);
	*len = r.data_len;
	uint8_t *msg = r.msg;
	r.msg = NULL;
	mad_rmpp_receiver_free(&r);
	return msg;
}

static uint8_t *ask_over_fabric(const struct mad_sa *req, size_t *len, unsigned *segments)
{
	uint8_t wire[MAD_BLOCK_SIZE];

	mad_sa_encode(req, wire);
	return send_over_fabric(wire, sizeof(wire), len, segments);
}

/* GetTable in full over RMPP: every NodeRecord and every PathRecord, each
 * table the same records the agent gathers, whole. */
START_TEST(get_table_over_rmpp)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_NODE_RECORD, 0);
	struct mad_sa resp;
	size_t len;
	unsigned segments;

	uint8_t *msg = ask_over_fabric(&req, &len, &segments);
	ck_assert_int_eq(mad_sa_decode(msg, MAD_BLOCK_SIZE, &resp), 0);
	ck_assert_uint_eq(resp.tid, req.tid);
	ck_assert_uint_eq(resp.status, 0);
	size_t stride = (size_t)resp.attr_offset * MAD_SA_ATTR_OFFSET_UNIT;
	ck_assert_uint_eq(stride, 112);
	ck_assert_uint_eq(len, 8 * stride);	/* two switches, five CAs, HD twice */
	ck_assert_uint_eq(segments, (len + MAD_SA_DATA_SIZE - 1) / MAD_SA_DATA_SIZE);
	unsigned cas = 0;
	for (size_t off = 0; off < len; off += stride) {
		struct mad_sa_node_record nr;
		mad_sa_node_record_decode(msg + MAD_SA_DATA_OFFSET + off, &nr);
		struct sa_port p;
		ck_assert(sm_sa_index_lid(&sm.sa->index, nr.lid, &p));
		ck_assert_uint_eq(nr.info.node_guid, sm.fabric.topo.nodes[p.node].guid);
		cas += nr.info.node_type == MAD_NODE_CA;
	}
	ck_assert_uint_eq(cas, 6);
	free(msg);

	/* every path between the eight LID-owning ports: 21 segments */
	req = request(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_PATH_RECORD, 0);
	req.tid = 0x5678;
	msg = ask_over_fabric(&req, &len, &segments);
	ck_assert_uint_eq(len, 64 * MAD_SA_PATH_RECORD_SIZE);
	ck_assert_uint_eq(segments, 21);
	for (size_t off = 0; off < len; off += MAD_SA_PATH_RECORD_SIZE) {
		struct mad_sa_path_record pr;
		mad_sa_path_record_decode(msg + MAD_SA_DATA_OFFSET + off, &pr);
		ck_assert_uint_ne(pr.slid, 0);
		ck_assert_uint_ne(pr.dlid, 0);
		ck_assert(pr.reversible);
	}
	free(msg);
	ck_assert_uint_eq(sm.sa->counts.rmpp, 2);

	/* one record, or none: one segment as long as the records, ACKed */
	req = request(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_NODE_RECORD, MAD_SA_NR_LID);
	struct mad_sa_node_record t = { .lid = lid_of("H2", 1) };
	for (int none = 0; none < 2; none++) {
		mad_sa_node_record_encode(&t, req.data);
		msg = ask_over_fabric(&req, &len, &segments);
		ck_assert_uint_eq(segments, 1);
		ck_assert_uint_eq(len, none ? 0 : 112);
		free(msg);
		t.lid = 0x7000;
	}
	struct sim_stats st;
	sim_get_stats(fab(&sm), &st);
	ck_assert_uint_eq(st.dropped, 0);	/* every ACK found its sender */
}
END_TEST


/* LMC 2 by GIDs: a GetTable for a CA pair gives its four paths, one per DLID
 * of the range (and per SLID), each as long as the programmed LFTs take it,
 * and the path back between the same LIDs as long as the LFTs take it back;
 * NumbPath bounds them. */
START_TEST(path_records_lmc2_by_gid)
{
	static const char *const ca[] = { "H0", "H1", "H2", "H3" };
	struct mad_sa resp;
	size_t len;
	unsigned segments;

	sweep_lmc2();
	for (size_t i = 0; i < 4; i++) {
		for (size_t j = 0; j < 4; j++) {
			if (i == j)
				continue;
			struct mad_sa req = request(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_PATH_RECORD,
						    MAD_SA_PR_SGID | MAD_SA_PR_DGID);
			struct mad_sa_path_record t = { 0 };
			gid_of(ca[i], t.sgid);
			gid_of(ca[j], t.dgid);
			mad_sa_path_record_encode(&t, req.data);
			req.tid = 0x100 + i * 4 + j;
			uint8_t *msg = ask_over_fabric(&req, &len, &segments);
			ck_assert_int_eq(mad_sa_decode(msg, MAD_BLOCK_SIZE, &resp), 0);
			ck_assert_uint_eq(resp.status, 0);
			ck_assert_uint_eq(len, 4 * MAD_SA_PATH_RECORD_SIZE);
			uint16_t s = lid_of(ca[i], 1), d = lid_of(ca[j], 1);
			unsigned dlids = 0, slids = 0;
			for (size_t off = 0; off < len; off += MAD_SA_PATH_RECORD_SIZE) {
				struct mad_sa_path_record r;
				mad_sa_path_record_decode(msg + MAD_SA_DATA_OFFSET + off, &r);
				ck_assert_uint_ge(r.dlid, d);
				ck_assert_uint_lt(r.dlid, d + 4);
				ck_assert_uint_ge(r.slid, s);
				ck_assert_uint_lt(r.slid, s + 4);
				dlids |= 1u << (r.dlid - d);
				slids |= 1u << (r.slid - s);
				ck_assert(r.reversible);
				ck_assert_uint_eq(r.packet_lifetime,
						  lifetime_of(sim_hops(ca[i], 1, r.dlid)));
				struct mad_sa_path_record b = path(r.dlid, r.slid, 0);
				ck_assert_uint_eq(b.packet_lifetime,
						  lifetime_of(sim_hops(ca[j], 1, r.slid)));
			}
			ck_assert_uint_eq(dlids, 0xf);
			ck_assert_uint_eq(slids, 0xf);
			free(msg);
		}
	}
	/* NumbPath 2: the first two; a Get by GIDs: the base LIDs' path */
	struct mad_sa req = request(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_PATH_RECORD,
				    MAD_SA_PR_SGID | MAD_SA_PR_DGID | MAD_SA_PR_NUMB_PATH);
	struct mad_sa_path_record t = { .numb_path = 2 }, r;
	gid_of("H0", t.sgid);
	gid_of("H3", t.dgid);
	mad_sa_path_record_encode(&t, req.data);
	free(ask_over_fabric(&req, &len, &segments));
	ck_assert_uint_eq(len, 2 * MAD_SA_PATH_RECORD_SIZE);
	req.method = MAD_SA_METHOD_GET;
	req.comp_mask = MAD_SA_PR_SGID | MAD_SA_PR_DGID;
	mad_sa_path_record_decode(ask(&req, 0).data, &r);
	ck_assert_uint_eq(r.slid, lid_of("H0", 1));
	ck_assert_uint_eq(r.dlid, lid_of("H3", 1));
}
END_TEST

/* A GetMulti of MultiPathRecord for @ns SGIDs and @nd DGIDs of @names
 * (sources first), over the fabric; its PathRecords in @out (at most
 * @max), how many. */
static unsigned multipath(const char *const *names, unsigned ns, unsigned nd, uint64_t mask,
			  uint8_t numb, struct mad_sa_path_record *out, unsigned max)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET_MULTI, MAD_SA_ATTR_MULTIPATH_RECORD,
				    mask | MAD_SA_MPR_SGID_COUNT | MAD_SA_MPR_DGID_COUNT);
	struct mad_sa_multipath_record t = { .sgid_count = (uint8_t)ns,
					     .dgid_count = (uint8_t)nd, .path.numb_path = numb };
	struct mad_sa resp;
	size_t len;
	unsigned segments;

	for (unsigned k = 0; k < ns + nd; k++)
		gid_of(names[k], t.gids[k]);
	mad_sa_multipath_record_encode(&t, req.data, sizeof(req.data));
	/* as a client sends it: one RMPP DATA segment, first and last */
	req.rmpp = (struct mad_rmpp){ .version = MAD_RMPP_VERSION, .type = MAD_RMPP_TYPE_DATA,
				      .flags = MAD_RMPP_FLAG_ACTIVE | MAD_RMPP_FLAGS_SINGLE,
				      .data1 = 1 };
	req.tid++;
	uint8_t *msg = ask_over_fabric(&req, &len, &segments);
	ck_assert_int_eq(mad_sa_decode(msg, MAD_BLOCK_SIZE, &resp), 0);
	ck_assert_uint_eq(resp.status, 0);
	ck_assert_uint_eq(resp.attr_id, MAD_SA_ATTR_MULTIPATH_RECORD);
	ck_assert_uint_eq(resp.attr_offset * MAD_SA_ATTR_OFFSET_UNIT, MAD_SA_PATH_RECORD_SIZE);
	unsigned n = (unsigned)(len / MAD_SA_PATH_RECORD_SIZE);
	ck_assert_uint_le(n, max);
	for (unsigned i = 0; i < n; i++)
		mad_sa_path_record_decode(msg + MAD_SA_DATA_OFFSET + i * MAD_SA_PATH_RECORD_SIZE,
					  &out[i]);
	free(msg);
	return n;
}

/* MultiPathRecord: every SGID x DGID combination, each the PathRecord a Get
 * gives for the pair; with LMC 2 a pair's four paths by their own LIDs, the
 * pairs' first paths before their second ones under NumbPath; what it
 * refuses. */
START_TEST(multipath_records)
{
	static const char *const four[] = { "H0", "H1", "H2", "H3" };
	struct mad_sa_path_record p[32];

	unsigned n = multipath(four, 2, 2, 0, 0, p, 32);
	ck_assert_uint_eq(n, 4);
	for (unsigned i = 0; i < n; i++) {
		struct mad_sa_path_record g = path(p[i].slid, p[i].dlid, 0);
		ck_assert_mem_eq(&g, &p[i], sizeof(g));
		ck_assert_uint_eq(p[i].slid, lid_of(four[i / 2], 1));
		ck_assert_uint_eq(p[i].dlid, lid_of(four[2 + i % 2], 1));
	}
	/* a P_Key no end shares: no paths; Reversible asked: still all */
	ck_assert_uint_eq(multipath(four, 2, 2, MAD_SA_MPR_REVERSIBLE, 0, p, 32), 4);

	sweep_lmc2();
	static const char *const pair[] = { "H0", "H3" };
	ck_assert_uint_eq(multipath(pair, 1, 1, 0, 0, p, 32), 4);
	unsigned dlids = 0;
	uint16_t d = lid_of("H3", 1);
	for (unsigned i = 0; i < 4; i++) {
		dlids |= 1u << (p[i].dlid - d);
		ck_assert_uint_eq(p[i].packet_lifetime, lifetime_of(sim_hops("H0", 1, p[i].dlid)));
		ck_assert(p[i].reversible);
	}
	ck_assert_uint_eq(dlids, 0xf);
	ck_assert_uint_eq(multipath(pair, 1, 1, MAD_SA_MPR_NUMB_PATH, 2, p, 32), 2);
	ck_assert_uint_eq(multipath(four, 2, 2, MAD_SA_MPR_NUMB_PATH, 4, p, 32), 4);
	for (unsigned i = 0; i < 4; i++) {	/* one per pair, the base LIDs' */
		ck_assert_uint_eq(p[i].slid, lid_of(four[i / 2], 1));
		ck_assert_uint_eq(p[i].dlid, lid_of(four[2 + i % 2], 1));
	}
	ck_assert_uint_eq(multipath(four, 2, 2, 0, 0, p, 32), 16);

	/* refusals: a count missing, too many GIDs, a GID not ours, the method
	 * on another attribute, another method on MultiPathRecord */
	struct mad_sa req = request(MAD_SA_METHOD_GET_MULTI, MAD_SA_ATTR_MULTIPATH_RECORD,
				    MAD_SA_MPR_SGID_COUNT);
	struct mad_sa_multipath_record t = { .sgid_count = 1, .dgid_count = 1 };
	gid_of("H0", t.gids[0]);
	gid_of("H1", t.gids[1]);
	mad_sa_multipath_record_encode(&t, req.data, sizeof(req.data));
	ask(&req, MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS);
	req.comp_mask |= MAD_SA_MPR_DGID_COUNT;
	t.dgid_count = 11;
	mad_sa_multipath_record_encode(&t, req.data, sizeof(req.data));
	ask(&req, MAD_SA_ERR_REQ_INVALID);
	t.dgid_count = 1;
	t.gids[1][15] ^= 0x55;
	mad_sa_multipath_record_encode(&t, req.data, sizeof(req.data));
	ask(&req, MAD_SA_ERR_REQ_INVALID_GID);
	req.method = MAD_SA_METHOD_GET;
	ask(&req, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	req.method = MAD_SA_METHOD_GET_MULTI;
	req.attr_id = MAD_SA_ATTR_PATH_RECORD;
	ask(&req, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
}
END_TEST

/* A GetMulti of MultiPathRecord naming @ns + @nd GIDs (@gids) in a request
 * of @gid_room GIDs' room, sent over the fabric as RMPP segments the sim
 * reassembles for the SM (as the kernel does): the answer's status, its
 * PathRecords' count in *@n. */
static uint16_t long_multipath(const uint8_t (*gids)[MAD_GID_LEN], unsigned ns, unsigned nd,
			       unsigned gid_room, uint8_t numb, unsigned *n)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET_MULTI, MAD_SA_ATTR_MULTIPATH_RECORD,
				    MAD_SA_MPR_SGID_COUNT | MAD_SA_MPR_DGID_COUNT |
				    MAD_SA_MPR_NUMB_PATH);
	size_t data = MAD_SA_MULTIPATH_RECORD_SIZE + (size_t)gid_room * MAD_GID_LEN;
	size_t msg_len = MAD_SA_DATA_OFFSET + data, len;
	uint8_t *msg = calloc(1, msg_len), *resp;
	unsigned segments;
	struct mad_sa r;

	ck_assert_ptr_nonnull(msg);
	req.tid += 7;
	req.rmpp = (struct mad_rmpp){ .version = MAD_RMPP_VERSION, .type = MAD_RMPP_TYPE_DATA,
				      .flags = MAD_RMPP_FLAG_ACTIVE | MAD_RMPP_FLAG_FIRST,
				      .data1 = 1,
				      .data2 = (uint32_t)(msg_len - MAD_RMPP_HDR_END) };
	mad_sa_encode(&req, msg);
	uint8_t *rec = msg + MAD_SA_DATA_OFFSET;
	rec[5] = numb;		/* NumbPath */
	rec[15] = (uint8_t)ns;	/* SGIDCount */
	rec[16] = (uint8_t)nd;	/* DGIDCount */
	memcpy(rec + MAD_SA_MULTIPATH_RECORD_SIZE, gids, (size_t)gid_room * MAD_GID_LEN);
	resp = send_over_fabric(msg, msg_len, &len, &segments);
	ck_assert_int_eq(mad_sa_decode(resp, MAD_BLOCK_SIZE, &r), 0);
	ck_assert_uint_eq(r.tid, req.tid);
	*n = (unsigned)(len / MAD_SA_PATH_RECORD_SIZE);
	free(resp);
	free(msg);
	return r.status;
}

/* Issue 20 item 1: a GetMulti longer than a MAD, of the most GIDs a
 * MultiPathRecord names (255 + 255: a 8,240-byte request in 42 segments), is
 * reassembled by the fabric and read whole by the SM (before, it read a
 * MAD's room and the transport, as the kernel does, kept the message first
 * in line for ever: no MAD was read again); every GID is looked at (the last
 * one not ours: ERR_REQ_INVALID_GID); counts beyond the GIDs sent are
 * refused; the SA answers as before afterwards. */
START_TEST(multipath_longer_than_a_mad)
{
	static uint8_t gids[MAD_SA_MULTIPATH_MAX_GIDS][MAD_GID_LEN];
	unsigned n;

	for (unsigned k = 0; k < MAD_SA_MULTIPATH_MAX_GIDS; k++)
		gid_of(k < 255 ? "H0" : k == 255 ? "H3" : "H1", gids[k]);
	ck_assert_uint_eq(long_multipath(gids, 255, 255, 510, 4, &n), 0);
	ck_assert_uint_eq(n, 4);	/* NumbPath */
	gids[509][15] ^= 0x55;
	ck_assert_uint_eq(long_multipath(gids, 255, 255, 510, 4, &n), MAD_SA_ERR_REQ_INVALID_GID);
	gids[509][15] ^= 0x55;
	ck_assert_uint_eq(long_multipath(gids, 255, 255, 300, 4, &n), MAD_SA_ERR_REQ_INVALID);
	ck_assert_uint_eq(long_multipath(gids, 6, 6, 12, 127, &n), 0);
	ck_assert_uint_eq(n, 36);	/* 6 x 6, all */
	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_NODE_RECORD, 0);
	ask(&req, MAD_SA_ERR_TOO_MANY_RECORDS);	/* still answering */
	ck_assert_uint_eq(mad_rpc_pending(sm.rpc), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);	/* and SMPs are read */
}
END_TEST

/* The simulated fabric hands a request it reassembled to the SM's port as
 * the kernel's user_mad read() does: with a MAD's room, -ENOSPC, the first
 * segment copied and the length needed, and the message left first in line
 * (again and again, nothing behind it read); with room, the message whole
 * (the first segment's header, then every segment's data), then what
 * followed. */
START_TEST(sim_reads_a_long_request_as_the_kernel_does)
{
	const struct topo *st = sim_fabric_topo(fab(&sm));
	const struct topo_node *own = &sm.fabric.topo.nodes[sm.fabric.local_node];
	struct mad_addr to = { .lid = own->ports[sm.fabric.local_port].lid, .qpn = 1 }, from;
	struct mad_transport *client;
	struct mad_rmpp_sender out;
	struct mad_sa req = request(MAD_SA_METHOD_GET_MULTI, MAD_SA_ATTR_MULTIPATH_RECORD, 0);
	size_t msg_len = MAD_SA_DATA_OFFSET + 500, len;
	uint8_t *msg = calloc(1, msg_len), wire[MAD_BLOCK_SIZE], big[1024];

	ck_assert_ptr_nonnull(msg);
	req.rmpp = (struct mad_rmpp){ .version = MAD_RMPP_VERSION, .type = MAD_RMPP_TYPE_DATA,
				      .flags = MAD_RMPP_FLAG_ACTIVE | MAD_RMPP_FLAG_FIRST, .data1 = 1,
				      .data2 = (uint32_t)(msg_len - MAD_RMPP_HDR_END) };
	mad_sa_encode(&req, msg);
	for (size_t i = MAD_SA_DATA_OFFSET; i < msg_len; i++)
		msg[i] = (uint8_t)i;
	ck_assert_int_eq(sim_transport_new_at(fab(&sm), topo_find_name(st, "H3"), 1, &client), 0);
	ck_assert_int_eq(mad_rmpp_sender_init(&out, msg, msg_len, MAD_SA_DATA_OFFSET), 0);
	int through = 0;
	for (int turns = 0; through == 0 && turns < 10; turns++) {
		while (mad_rmpp_sender_next(&out, wire))
			ck_assert_int_eq(client->ops->send(client, wire, &to), 0);
		while (through == 0 && mad_transport_recv_mad(client, wire, &from, 0) == 0)
			through = mad_rmpp_sender_ack(&out, wire);	/* the fabric's ACKs */
	}
	ck_assert_int_eq(through, 1);	/* three segments, all ACKed */
	req.rmpp = (struct mad_rmpp){ 0 };	/* and a plain MAD behind it */
	req.method = MAD_SA_METHOD_GET;
	mad_sa_encode(&req, wire);
	ck_assert_int_eq(client->ops->send(client, wire, &to), 0);
	for (int i = 0; i < 2; i++) {
		len = MAD_BLOCK_SIZE;
		memset(big, 0, sizeof(big));
		ck_assert_int_eq(sm.t->ops->recv(sm.t, big, &len, &from, 0), -ENOSPC);
		ck_assert_uint_eq(len, msg_len);
		ck_assert_mem_eq(big, msg, MAD_SA_DATA_OFFSET);	/* the first segment's header */
		ck_assert_mem_eq(big + MAD_SA_DATA_OFFSET, msg + MAD_SA_DATA_OFFSET,
				 MAD_SA_DATA_SIZE);
		ck_assert_uint_eq(big[MAD_BLOCK_SIZE], 0);	/* no more than a MAD */
	}
	len = 100;
	ck_assert_int_eq(sm.t->ops->recv(sm.t, big, &len, &from, 0), -EINVAL);
	len = sizeof(big);
	ck_assert_int_eq(sm.t->ops->recv(sm.t, big, &len, &from, 0), 0);
	ck_assert_uint_eq(len, msg_len);
	ck_assert_mem_eq(big + MAD_SA_DATA_OFFSET, msg + MAD_SA_DATA_OFFSET,
			 msg_len - MAD_SA_DATA_OFFSET);
	ck_assert_uint_eq(from.lid, lid_of("H3", 1));
	len = sizeof(big);
	ck_assert_int_eq(sm.t->ops->recv(sm.t, big, &len, &from, 0), 0);
	ck_assert_uint_eq(len, MAD_BLOCK_SIZE);
	ck_assert_uint_eq(big[3], MAD_SA_METHOD_GET);
	mad_rmpp_sender_free(&out);
	mad_transport_close(client);
	free(msg);
}
END_TEST

/* The CA @tn gets the P_KeyTable @keys (@n entries, the rest empty) on the
 * port its directed route ends at: a Set as the SM sends it. */
static void set_pkeys(const struct topo_node *tn, const uint16_t *keys, unsigned n)
{
	struct mad_pkey_block pk = { 0 };
	struct mad_smp req, resp;

	memcpy(pk.pkey, keys, n * sizeof(*keys));
	mad_smp_init_dr(&req, MAD_METHOD_SET, MAD_ATTR_PKEY_TABLE, 0, &tn->path);
	mad_pkey_encode(&pk, req.data);
	ck_assert_int_eq(mad_rpc_call(sm.rpc, &req,
				      &(struct mad_addr){ .lid = MAD_LID_PERMISSIVE }, &resp), 0);
}

/* Issue 20 item 7: an SA answer goes back on the request's P_Key index and,
 * when the request came with a GRH, with one back to its sender's GID, its
 * traffic class and flow label as they came.  The SM's port holds the
 * default P_Key at index 0 and 0x8001 at index 1; the host at H3 only
 * 0x8001: an answer on index 0 (the default P_Key) is lost at its QP1. */
START_TEST(answer_on_the_request_pkey_and_grh)
{
	const struct topo *st = sim_fabric_topo(fab(&sm));
	const struct topo_node *own = &sm.fabric.topo.nodes[sm.fabric.local_node];
	struct mad_addr to = { .lid = own->ports[sm.fabric.local_port].lid, .qpn = 1 }, from;
	struct mad_transport *client;
	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_NODE_RECORD, MAD_SA_COMP(0)), r;
	struct mad_sa_node_record nr = { .lid = lid_of("H1", 1) };
	static const uint16_t sm_keys[] = { 0xffff, 0x8001 }, host_keys[] = { 0x8001 };
	uint8_t wire[MAD_BLOCK_SIZE], sm_gid[MAD_GID_LEN];

	const struct topo_node *h3 = &sm.fabric.topo.nodes[node("H3")];
	set_pkeys(own, sm_keys, 2);
	set_pkeys(h3, host_keys, 1);
	sa_gid(own->ports[sm.fabric.local_port].guid, sm_gid);
	ck_assert_int_eq(sim_transport_new_at(fab(&sm), topo_find_name(st, "H3"), 1, &client), 0);
	mad_sa_node_record_encode(&nr, req.data);
	for (int grh = 0; grh < 2; grh++) {
		to.grh = (struct mad_grh){ .present = grh, .hop_limit = 2, .traffic_class = 0x28,
					   .flow_label = 0xabcde };
		memcpy(to.grh.gid, sm_gid, sizeof(sm_gid));
		req.tid += 100;
		mad_sa_encode(&req, wire);
		ck_assert_int_eq(client->ops->send(client, wire, &to), 0);
		ck_assert_int_ge(mad_rpc_poll(sm.rpc, 0), 0);
		ck_assert_int_eq(mad_transport_recv_mad(client, wire, &from, 0), 0);
		ck_assert_int_eq(mad_sa_decode(wire, sizeof(wire), &r), 0);
		ck_assert_uint_eq(r.tid, req.tid);
		ck_assert_uint_eq(r.status, 0);
		ck_assert_uint_eq(from.pkey_index, 0);	/* 0x8001, in H3's table */
		ck_assert_int_eq(from.grh.present, grh);
		if (!grh)
			continue;
		ck_assert_mem_eq(from.grh.gid, sm_gid, sizeof(sm_gid));
		ck_assert_uint_eq(from.grh.traffic_class, 0x28);
		ck_assert_uint_eq(from.grh.flow_label, 0xabcde);
	}
	/* a request on a P_Key the SM's port lacks never reaches it */
	static const uint16_t other[] = { 0x8002 };
	set_pkeys(h3, other, 1);
	to.grh.present = false;
	ck_assert_int_eq(client->ops->send(client, wire, &to), 0);
	ck_assert_int_ge(mad_rpc_poll(sm.rpc, 0), 0);
	ck_assert_int_eq(mad_transport_recv_mad(client, wire, &from, 0), -ETIMEDOUT);
	mad_transport_close(client);
}
END_TEST

static struct mad_sa_service_record service(uint8_t method, uint64_t mask,
					    const struct mad_sa_service_record *t, uint16_t status)
{
	struct mad_sa req = request(method, MAD_SA_ATTR_SERVICE_RECORD, mask);
	struct mad_sa_service_record r;

	mad_sa_service_record_encode(t, req.data);
	mad_sa_service_record_decode(ask(&req, status).data, &r);
	return r;
}

/* ServiceRecords: registered, replaced, found, leased out, deleted. */
START_TEST(service_records)
{
	const uint64_t key = MAD_SA_SR_ID | MAD_SA_SR_GID;
	struct mad_sa_service_record t = { .id = 0x1000000000000abcULL, .lease = 10,
					   .data32 = { 7 } }, r;
	uint8_t tmpl[MAD_SA_SERVICE_RECORD_SIZE];
	unsigned n;

	gid_of("H2", t.gid);
	strcpy(t.name, "storage target");
	r = service(MAD_SA_METHOD_SET, key | MAD_SA_SR_NAME | MAD_SA_SR_LEASE |
		    MAD_SA_SR_DATA32(0), &t, 0);
	ck_assert_uint_eq(r.id, t.id);
	ck_assert_uint_eq(r.pkey, 0xffff);	/* the default partition */
	ck_assert_uint_eq(r.lease, 10);
	ck_assert_str_eq(r.name, "storage target");
	/* the same ID, GID and P_Key: replaced; another GID: a second one */
	t.data32[0] = 8;
	service(MAD_SA_METHOD_SET, key | MAD_SA_SR_DATA32(0) | MAD_SA_SR_NAME, &t, 0);
	gid_of("H3", t.gid);
	t.lease = MAD_SA_SR_LEASE_INFINITE;
	t.data32[0] = 9;
	service(MAD_SA_METHOD_SET, key | MAD_SA_SR_LEASE, &t, 0);
	ck_assert_uint_eq(sm.sa->services.n, 2);
	r = service(MAD_SA_METHOD_GET, key, &t, 0);	/* H3's */
	ck_assert_uint_eq(r.lease, MAD_SA_SR_LEASE_INFINITE);
	t.data32[0] = 8;
	r = service(MAD_SA_METHOD_GET, MAD_SA_SR_ID | MAD_SA_SR_DATA32(0), &t, 0);
	ck_assert_str_eq(r.name, "storage target");	/* H2's, as replaced */
	/* what a Set must name, and what it may not */
	service(MAD_SA_METHOD_SET, MAD_SA_SR_ID, &t, MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS);
	t.pkey = 0x8001;
	service(MAD_SA_METHOD_SET, key | MAD_SA_SR_PKEY, &t, MAD_SA_ERR_REQ_INVALID);
	t.gid[0] = 0x20;
	service(MAD_SA_METHOD_SET, key, &t, MAD_SA_ERR_REQ_INVALID_GID);
	gid_of("H3", t.gid);
	/* H2's lease runs out after 10 s; H3's never */
	src.now_ms += 9000;
	r = service(MAD_SA_METHOD_GET, MAD_SA_SR_ID | MAD_SA_SR_DATA32(0), &t, 0);
	ck_assert_uint_eq(r.lease, 1);	/* what is left */
	src.now_ms += 1000;
	mad_sa_service_record_encode(&t, tmpl);
	table(MAD_SA_ATTR_SERVICE_RECORD, MAD_SA_SR_ID, tmpl, sizeof(tmpl), &n);
	ck_assert_uint_eq(n, 1);
	/* Delete: the record once, then none */
	r = service(MAD_SA_METHOD_DELETE, key, &t, 0);
	ck_assert_uint_eq(r.lease, MAD_SA_SR_LEASE_INFINITE);
	service(MAD_SA_METHOD_DELETE, key, &t, MAD_SA_ERR_NO_RECORDS);
	ck_assert_uint_eq(sm.sa->services.n, 0);
	/* full */
	for (unsigned i = 0; i < SM_SA_MAX_SERVICES; i++) {
		t.id = i;
		service(MAD_SA_METHOD_SET, key, &t, 0);
	}
	t.id = SM_SA_MAX_SERVICES;
	service(MAD_SA_METHOD_SET, key, &t, MAD_SA_ERR_NO_RESOURCES);
	src.services = NULL;
	service(MAD_SA_METHOD_SET, key, &t, MAD_SA_ERR_NO_RESOURCES);
}
END_TEST

/* A Set through the daemon's path arms the loop's timer for its lease. */
START_TEST(lease_timer_on_the_loop)
{
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_SERVICE_RECORD,
				    MAD_SA_SR_ID | MAD_SA_SR_GID);
	struct mad_sa_service_record t = { .id = 42, .lease = 5 };
	struct mad_addr from = { .lid = lid_of("H3", 1), .qpn = 1 };
	uint8_t wire[MAD_BLOCK_SIZE];

	gid_of("H3", t.gid);
	mad_sa_service_record_encode(&t, req.data);
	mad_sa_encode(&req, wire);
	sm.loop = sm_loop_new();
	ck_assert_ptr_nonnull(sm.loop);
	uint64_t t0 = mad_now_ms();
	sm_sa_in(&sm, wire, sizeof(wire), &from);
	ck_assert_uint_eq(sm.sa->services.n, 1);
	ck_assert(sm.sa->lease_timer.armed);
	ck_assert_uint_ge(sm.sa->lease_timer.due_ms, t0 + 5000);
	ck_assert_uint_le(sm.sa->lease_timer.due_ms, mad_now_ms() + 5000);
	/* it fires: the registration is gone, nothing left to wait for */
	sm.sa->lease_timer.fn(sm.sa->lease_timer.ctx);
	ck_assert_uint_eq(sm.sa->services.n, 1);	/* not yet due */
	sm_sa_services_expire(&sm.sa->services, t0 + 6000);
	ck_assert_uint_eq(sm.sa->services.n, 0);
	sm_timer_cancel(sm.loop, &sm.sa->lease_timer);
	sm_loop_free(sm.loop);
	sm.loop = NULL;
}
END_TEST

/* The subscriber's side: Reports come in (other MADs skipped), each trap
 * number counted in @traps, the notice of the last kept; ReportResps go back
 * when @answer.  Returns the Reports read. */
static unsigned read_reports(struct mad_transport *client, bool answer, unsigned traps[256],
			     struct mad_sa_notice *last)
{
	const struct topo_node *own = &sm.fabric.topo.nodes[sm.fabric.local_node];
	struct mad_addr to = { .lid = own->ports[sm.fabric.local_port].lid, .qpn = 1 }, from;
	uint8_t wire[MAD_BLOCK_SIZE];
	unsigned n = 0;
	struct mad_sa r;

	mad_rpc_poll(sm.rpc, 0);
	while (mad_transport_recv_mad(client, wire, &from, 0) == 0) {
		if (mad_sa_decode(wire, sizeof(wire), &r) || r.method != MAD_SA_METHOD_REPORT)
			continue;
		ck_assert_uint_eq(r.attr_id, MAD_SA_ATTR_NOTICE);
		mad_sa_notice_decode(r.data, last);
		ck_assert(last->n.is_generic);
		traps[last->n.trap_num & 0xff]++;
		n++;
		if (answer) {
			r.method = MAD_SA_METHOD_REPORT_RESP;
			mad_sa_encode(&r, wire);
			ck_assert_int_eq(client->ops->send(client, wire, &to), 0);
		}
	}
	mad_rpc_poll(sm.rpc, 0);	/* the SM takes the ReportResps */
	return n;
}

/* InformInfo: a host subscribes to every generic trap; H1's cable pulled
 * and put back gives traps 65 and 64 about H1's GID and 128 from its switch;
 * Reports not answered are sent again, then given up; unsubscribed, none. */
START_TEST(inform_info_and_reports)
{
	const struct topo *st = sim_fabric_topo(fab(&sm));
	const struct topo_node *own = &sm.fabric.topo.nodes[sm.fabric.local_node];
	struct mad_addr to = { .lid = own->ports[sm.fabric.local_port].lid, .qpn = 1 }, from;
	struct mad_transport *client;
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_INFORM_INFO, 0), resp;
	struct mad_sa_inform_info ii = {
		.lid_begin = MAD_SA_INFORM_ALL_LIDS, .is_generic = true, .subscribe = true,
		.type = MAD_SA_INFORM_ANY, .trap_num = MAD_SA_INFORM_ANY, .qpn = 1,
		.producer_type = MAD_SA_INFORM_ANY_PRODUCER,
	};
	uint8_t wire[MAD_BLOCK_SIZE], h1_gid[MAD_GID_LEN];
	unsigned traps[256] = { 0 };
	struct mad_sa_notice last;

	gid_of("H1", h1_gid);
	uint16_t sa_lid = lid_of("SA", 0);
	ck_assert_uint_eq(sm.sm_state, MAD_SM_MASTER);
	ck_assert_int_eq(sim_transport_new_at(fab(&sm), topo_find_name(st, "H3"), 1, &client), 0);
	mad_sa_inform_info_encode(&ii, req.data);
	mad_sa_encode(&req, wire);
	ck_assert_int_eq(client->ops->send(client, wire, &to), 0);
	mad_rpc_poll(sm.rpc, 0);
	while (mad_transport_recv_mad(client, wire, &from, 0) == 0 &&
	       (mad_sa_decode(wire, sizeof(wire), &resp) || resp.method != MAD_SA_METHOD_GET_RESP))
		;
	ck_assert_uint_eq(resp.method, MAD_SA_METHOD_GET_RESP);
	ck_assert_uint_eq(resp.status, 0);
	ck_assert_uint_eq(sm.sa->informs.n, 1);
	ck_assert_uint_eq(sm.sa->informs.v[0].lid, lid_of("H3", 1));

	/* out of service: 65 about H1, 128 from SA */
	uint32_t h1 = topo_find_name(st, "H1");
	ck_assert_int_eq(sim_link_set(fab(&sm), h1, 1, false), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(read_reports(client, true, traps, &last), 2);
	ck_assert_uint_eq(traps[65], 1);
	ck_assert_uint_eq(traps[128], 1);
	ck_assert_uint_eq(sm.sa->informs.npending, 0);	/* both answered */
	ck_assert_uint_eq(sm.sa->informs.acked, 2);
	/* back in service: 64, and 128 again; this time unanswered */
	ck_assert_int_eq(sim_link_set(fab(&sm), h1, 1, true), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	memset(traps, 0, sizeof(traps));
	unsigned got = read_reports(client, false, traps, &last);
	ck_assert_uint_eq(got, 2);
	ck_assert_uint_eq(traps[64], 1);
	ck_assert_uint_eq(sm.sa->informs.npending, 2);
	/* the 64's GID is H1's (the notices come in either order) */
	if (last.n.trap_num == 64) {
		ck_assert_mem_eq(last.n.details + 6, h1_gid, MAD_GID_LEN);
	} else {
		ck_assert_uint_eq(last.n.trap_num, 128);
		ck_assert_uint_eq(last.n.issuer_lid, sa_lid);
	}
	uint64_t now = mad_now_ms();
	for (unsigned i = 1; i < SM_SA_REPORT_TRIES; i++) {
		now += SM_SA_REPORT_RETRY_MS;
		sm_sa_reports_retry(&sm, now);
		ck_assert_uint_eq(read_reports(client, false, traps, &last), 2);
	}
	now += SM_SA_REPORT_RETRY_MS;
	ck_assert_uint_eq(sm_sa_reports_retry(&sm, now), UINT64_MAX);
	ck_assert_uint_eq(sm.sa->informs.given_up, 2);
	ck_assert_uint_eq(traps[64], SM_SA_REPORT_TRIES);

	/* unsubscribed: a change reports nothing; unsubscribing again is invalid */
	ii.subscribe = false;
	mad_sa_inform_info_encode(&ii, req.data);
	mad_sa_encode(&req, wire);
	ck_assert_int_eq(client->ops->send(client, wire, &to), 0);
	mad_rpc_poll(sm.rpc, 0);
	ck_assert_uint_eq(sm.sa->informs.n, 0);
	ck_assert_int_eq(sim_link_set(fab(&sm), h1, 1, false), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(read_reports(client, true, traps, &last), 0);
	src.requester_lid = lid_of("H3", 1);
	mad_sa_inform_info_encode(&ii, req.data);
	ask(&req, MAD_SA_ERR_REQ_INVALID);
	mad_transport_close(client);
}
END_TEST

/* InformInfoRecords: the subscriptions by subscriber port (the LID it
 * subscribed from) and Enum, the components honoured. */
START_TEST(inform_info_records)
{
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_INFORM_INFO, 0);
	struct mad_sa_inform_info ii = { .is_generic = true, .subscribe = true,
					 .lid_begin = MAD_SA_INFORM_ALL_LIDS,
					 .type = MAD_SA_INFORM_ANY, .trap_num = 64, .qpn = 1,
					 .producer_type = MAD_SA_INFORM_ANY_PRODUCER };
	struct mad_sa_inform_info_record t = { 0 }, r;
	uint8_t h2[MAD_GID_LEN], h3[MAD_GID_LEN];

	gid_of("H2", h2);
	gid_of("H3", h3);
	src.requester_lid = lid_of("H3", 1);
	for (uint16_t trap = 64; trap <= 65; trap++) {
		ii.trap_num = trap;
		mad_sa_inform_info_encode(&ii, req.data);
		ask(&req, 0);
	}
	src.requester_lid = lid_of("H2", 1);
	ii.trap_num = 128;
	mad_sa_inform_info_encode(&ii, req.data);
	ask(&req, 0);

	req = request(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_INFORM_INFO_RECORD, 0);
	struct mad_sa resp = ask(&req, 0);
	ck_assert_uint_eq(resp.attr_offset * MAD_SA_ATTR_OFFSET_UNIT, 64);
	unsigned h3s = 0;
	for (unsigned i = 0; i < 3; i++) {
		mad_sa_inform_info_record_decode(resp.data + 64 * i, &r);
		bool from_h3 = !memcmp(r.subscriber_gid, h3, MAD_GID_LEN);
		ck_assert(from_h3 || !memcmp(r.subscriber_gid, h2, MAD_GID_LEN));
		ck_assert_uint_eq(r.enumeration, from_h3 ? h3s++ : 0);
		ck_assert_uint_eq(r.ii.trap_num, from_h3 ? 63 + h3s : 128);
		ck_assert(r.ii.subscribe);
	}
	ck_assert_uint_eq(h3s, 2);
	/* by subscriber and Enum: H3's second */
	req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_INFORM_INFO_RECORD,
		      MAD_SA_IIR_SUBSCRIBER_GID | MAD_SA_IIR_ENUM);
	memcpy(t.subscriber_gid, h3, MAD_GID_LEN);
	t.enumeration = 1;
	mad_sa_inform_info_record_encode(&t, req.data);
	mad_sa_inform_info_record_decode(ask(&req, 0).data, &r);
	ck_assert_uint_eq(r.ii.trap_num, 65);
	req.comp_mask = MAD_SA_IIR_SUBSCRIBER_GID;	/* H3 has two */
	ask(&req, MAD_SA_ERR_TOO_MANY_RECORDS);
	memcpy(t.subscriber_gid, h2, MAD_GID_LEN);
	t.enumeration = 1;
	req.comp_mask |= MAD_SA_IIR_ENUM;	/* H2 has one */
	mad_sa_inform_info_record_encode(&t, req.data);
	ask(&req, MAD_SA_ERR_NO_RECORDS);
}
END_TEST

/* Subscriptions a Set may not make. */
/* Subscribe @ii to traps 0..@n-1 (each taken), then to trap @n: refused, full. */
static void subscribe_until_full(struct mad_sa *req, struct mad_sa_inform_info *ii, unsigned n)
{
	for (unsigned i = 0; i <= n; i++) {
		ii->trap_num = (uint16_t)i;
		mad_sa_inform_info_encode(ii, req->data);
		ask(req, i < n ? 0 : MAD_SA_ERR_NO_RESOURCES);
	}
}

START_TEST(inform_info_refusals)
{
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_INFORM_INFO, 0);
	struct mad_sa_inform_info ii = { .is_generic = true, .subscribe = true,
					 .lid_begin = 9, .lid_end = 3 };

	mad_sa_inform_info_encode(&ii, req.data);
	ask(&req, MAD_SA_ERR_REQ_INVALID);	/* a range ending before it starts */
	ii.gid[0] = 0x20;
	mad_sa_inform_info_encode(&ii, req.data);
	ask(&req, MAD_SA_ERR_REQ_INVALID_GID);
	gid_of("H2", ii.gid);
	subscribe_until_full(&req, &ii, SM_SA_MAX_INFORMS);
	req.method = MAD_SA_METHOD_GET;	/* InformInfo is Set only */
	ask(&req, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	src.informs = NULL;
	req.method = MAD_SA_METHOD_SET;
	ask(&req, MAD_SA_ERR_NO_RESOURCES);
}
END_TEST

/* One host flooding the SA fills its own share of the services and trap
 * subscriptions, not the tables: another host still registers. */
START_TEST(one_port_cannot_fill_the_tables)
{
	const uint64_t key = MAD_SA_SR_ID | MAD_SA_SR_GID;
	struct mad_sa_service_record t = { .lease = MAD_SA_SR_LEASE_INFINITE };
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_INFORM_INFO, 0);
	struct mad_sa_inform_info ii = { .is_generic = true, .subscribe = true };

	gid_of("H3", t.gid);
	src.requester_lid = lid_of("H3", 1);
	for (unsigned i = 0; i < SM_SA_MAX_SERVICES_PER_PORT; i++) {
		t.id = i;
		service(MAD_SA_METHOD_SET, key, &t, 0);
	}
	t.id = SM_SA_MAX_SERVICES_PER_PORT;
	service(MAD_SA_METHOD_SET, key, &t, MAD_SA_ERR_NO_RESOURCES);
	t.id = 0;
	service(MAD_SA_METHOD_SET, key, &t, 0);	/* replacing one is no new one */
	gid_of("H2", ii.gid);
	subscribe_until_full(&req, &ii, SM_SA_MAX_INFORMS_PER_PORT);
	/* another host is served */
	src.requester_lid = lid_of("H2", 1);
	gid_of("H2", t.gid);
	service(MAD_SA_METHOD_SET, key, &t, 0);
	ask(&req, 0);
	ck_assert_uint_eq(sm.sa->services.n, SM_SA_MAX_SERVICES_PER_PORT + 1);
	ck_assert_uint_eq(sm.sa->informs.n, SM_SA_MAX_INFORMS_PER_PORT + 1);
}
END_TEST

/* A Set or Delete from the port with @from_lid through the daemon's path
 * (sm_sa_in(): the answer goes to that port, the store follows). */
static void sa_in(struct mad_sa *req, uint16_t from_lid)
{
	struct mad_addr from = { .lid = from_lid, .qpn = 1 };
	uint8_t wire[MAD_BLOCK_SIZE];

	mad_sa_encode(req, wire);
	sm_sa_in(&sm, wire, sizeof(wire), &from);
}

/* The SA source of the running SM, on the loop's clock. */
static void source_again(void)
{
	ck_assert_int_eq(sm_sa_index_build(&sm.sa->index, &sm.fabric), 0);
	src = (struct sm_sa_source){ .f = &sm.fabric, .ix = &sm.sa->index,
				     .routes = &sm.routes,
				     .subnet_prefix = sm.cfg.subnet_prefix,
				     .services = &sm.sa->services, .now_ms = mad_now_ms(),
				     .informs = &sm.sa->informs };
}

/* The SM started on a twoswitch fabric of its own (sim_fabric_free() it
 * after sm_close()), as after a restart on the same devices or new ones. */
static struct sim_fabric *start_on_own(void)
{
	struct sim_fabric *f;
	char err[256];

	ck_assert_msg(sim_fabric_load(topo_path("twoswitch.topo"), &f, err, sizeof(err)) == 0,
		      "%s", err);
	sm_start_on(&sm, f);
	return f;
}

/* A ServiceRecord belongs to the port of its ServiceGID: another port's Set
 * carrying that GID and ServiceID (H2 posing as H3) is denied, the record
 * and its owner stay; so is its Delete, on the daemon's path as well.  With
 * the SM_Key a proxy may replace it, and the owner still stays. */
START_TEST(no_takeover_of_a_record)
{
	const uint64_t key = MAD_SA_SR_ID | MAD_SA_SR_GID | MAD_SA_SR_NAME;
	struct mad_sa_service_record t = { .id = 0x10000ce000000001ULL,
					   .lease = MAD_SA_SR_LEASE_INFINITE }, r;
	uint16_t h2 = lid_of("H2", 1), h3 = lid_of("H3", 1);

	gid_of("H3", t.gid);
	strcpy(t.name, "h3 storage");
	src.requester_lid = h3;
	service(MAD_SA_METHOD_SET, key, &t, 0);
	strcpy(t.name, "hijacked");
	src.requester_lid = h2;
	service(MAD_SA_METHOD_SET, key, &t, MAD_SA_ERR_REQ_DENIED);
	service(MAD_SA_METHOD_DELETE, MAD_SA_SR_ID | MAD_SA_SR_GID, &t, MAD_SA_ERR_REQ_DENIED);
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_SERVICE_RECORD, key);
	mad_sa_service_record_encode(&t, req.data);
	sa_in(&req, h2);
	req.method = MAD_SA_METHOD_DELETE;
	sa_in(&req, h2);
	ck_assert_uint_eq(sm.sa->services.n, 1);
	ck_assert_uint_eq(sm.sa->services.v[0].lid, h3);
	r = service(MAD_SA_METHOD_GET, MAD_SA_SR_ID | MAD_SA_SR_GID, &t, 0);
	ck_assert_str_eq(r.name, "h3 storage");
	/* H2 registers the same ServiceID for its own GID: a record of its own */
	gid_of("H2", t.gid);
	strcpy(t.name, "h2 storage");
	service(MAD_SA_METHOD_SET, key, &t, 0);
	ck_assert_uint_eq(sm.sa->services.n, 2);
	/* a trusted proxy (SM_Key) replaces H3's; H3 still owns it */
	src.sm_key = 0x5ec2e7;
	gid_of("H3", t.gid);
	strcpy(t.name, "by proxy");
	req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_SERVICE_RECORD, key);
	req.sm_key = 0x5ec2e7;
	mad_sa_service_record_encode(&t, req.data);
	ask(&req, 0);
	r = service(MAD_SA_METHOD_GET, MAD_SA_SR_ID | MAD_SA_SR_GID, &t, 0);
	ck_assert_str_eq(r.name, "by proxy");
	for (size_t i = 0; i < sm.sa->services.n; i++)
		if (!memcmp(sm.sa->services.v[i].r.gid, t.gid, MAD_GID_LEN))
			ck_assert_uint_eq(sm.sa->services.v[i].lid, h3);
	/* H3 itself deletes it */
	src.requester_lid = h3;
	service(MAD_SA_METHOD_DELETE, MAD_SA_SR_ID | MAD_SA_SR_GID, &t, 0);
	ck_assert_uint_eq(sm.sa->services.n, 1);
}
END_TEST

/* A restarted SM (a new one on the same store and devices, 10 s later on
 * the store's clock) still has what was registered: a long lease with what
 * is left of it, an infinite one, the subscription, whose subscriber gets
 * the Reports of the next change; a 5 s lease ran out while it was down,
 * a deleted registration stays deleted. */
START_TEST(registrations_survive_a_restart)
{
	const uint64_t key = MAD_SA_SR_ID | MAD_SA_SR_GID;
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_SERVICE_RECORD,
				    key | MAD_SA_SR_NAME | MAD_SA_SR_LEASE);
	struct mad_sa_service_record t = { .id = 1, .lease = 5 }, r;
	struct mad_sa_inform_info ii = {
		.lid_begin = MAD_SA_INFORM_ALL_LIDS, .is_generic = true, .subscribe = true,
		.type = MAD_SA_INFORM_ANY, .trap_num = MAD_SA_INFORM_ANY, .qpn = 1,
		.producer_type = MAD_SA_INFORM_ANY_PRODUCER,
	};
	struct sim_fabric *f;
	struct mad_transport *client;
	unsigned traps[256] = { 0 };
	struct mad_sa_notice last;

	sm_close(&sm);
	f = start_on_own();
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	uint16_t h2 = lid_of("H2", 1), h3 = lid_of("H3", 1);
	db_freeze_clock(sm.db, db_now_ms(sm.db) - 10000);	/* 10 s before the restart */
	gid_of("H2", t.gid);
	strcpy(t.name, "short");
	mad_sa_service_record_encode(&t, req.data);
	sa_in(&req, h2);
	t.id = 2;
	t.lease = 3600;
	t.data64[1] = 0x1122334455667788ULL;
	strcpy(t.name, "storage target");
	mad_sa_service_record_encode(&t, req.data);
	sa_in(&req, h2);
	t.id = 3;
	t.lease = MAD_SA_SR_LEASE_INFINITE;
	gid_of("H3", t.gid);
	mad_sa_service_record_encode(&t, req.data);
	sa_in(&req, h3);
	t.id = 4;	/* registered, then deleted */
	mad_sa_service_record_encode(&t, req.data);
	sa_in(&req, h3);
	req.method = MAD_SA_METHOD_DELETE;
	req.comp_mask = key;
	sa_in(&req, h3);
	ck_assert_uint_eq(sm.sa->services.n, 3);
	req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_INFORM_INFO, 0);
	mad_sa_inform_info_encode(&ii, req.data);
	sa_in(&req, h3);
	ck_assert_uint_eq(sm.sa->informs.n, 1);
	sm_close(&sm);

	sm_start_on(&sm, f);
	ck_assert_uint_eq(sm.sa->services.n, 2);
	ck_assert_uint_eq(sm.sa->informs.n, 1);
	ck_assert_uint_eq(sm.sa->informs.v[0].lid, h3);
	ck_assert_uint_eq(sm.sa->informs.v[0].ii.qpn, 1);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	source_again();
	t.id = 2;
	gid_of("H2", t.gid);
	r = service(MAD_SA_METHOD_GET, key, &t, 0);
	ck_assert_str_eq(r.name, "storage target");
	ck_assert_uint_eq(r.data64[1], 0x1122334455667788ULL);
	ck_assert_uint_le(r.lease, 3590);	/* what was left of it */
	ck_assert_uint_ge(r.lease, 3580);
	t.id = 1;
	service(MAD_SA_METHOD_GET, key, &t, MAD_SA_ERR_NO_RECORDS);
	t.id = 3;
	gid_of("H3", t.gid);
	ck_assert_uint_eq(service(MAD_SA_METHOD_GET, key, &t, 0).lease,
			  MAD_SA_SR_LEASE_INFINITE);
	t.id = 4;
	service(MAD_SA_METHOD_GET, key, &t, MAD_SA_ERR_NO_RECORDS);
	/* H1's cable pulled: the subscriber at H3 hears of it */
	const struct topo *st = sim_fabric_topo(f);
	ck_assert_int_eq(sim_transport_new_at(f, topo_find_name(st, "H3"), 1, &client), 0);
	ck_assert_int_eq(sim_link_set(f, topo_find_name(st, "H1"), 1, false), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(read_reports(client, true, traps, &last), 2);
	ck_assert_uint_eq(traps[65], 1);
	ck_assert_uint_eq(traps[128], 1);
	mad_transport_close(client);
	sm_close(&sm);
	sim_fabric_free(f);
	sm_start_file(&sm, "twoswitch.topo");	/* for the teardown */
}
END_TEST

/* A GUIDInfoRecord Set or Delete (GUID0..GUID7 of @block as @mask's bits
 * 4..11) on the port with @lid, asked by the port with @from. */
static struct mad_sa_guid_info_record alias_req(uint8_t method, uint64_t mask, uint16_t lid,
						 uint8_t block, const uint64_t guid[8],
						 uint16_t from, uint16_t status)
{
	struct mad_sa req = request(method, MAD_SA_ATTR_GUID_INFO_RECORD, mask);
	struct mad_sa_guid_info_record t = { .lid = lid, .block = block }, r;

	memcpy(t.guid, guid, sizeof(t.guid));
	mad_sa_guid_info_record_encode(&t, req.data);
	src.aliases = &sm.sa->aliases;
	src.requester_lid = from;
	mad_sa_guid_info_record_decode(ask(&req, status).data, &r);
	return r;
}

/* The LID a PathRecord from H3 to the GID prefix:@guid names. */
static uint16_t path_to_guid(uint64_t guid, uint16_t status)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_PATH_RECORD,
				    MAD_SA_PR_SGID | MAD_SA_PR_DGID);
	struct mad_sa_path_record t = { 0 }, r;

	src.aliases = &sm.sa->aliases;
	gid_of("H3", t.sgid);
	sa_gid(guid, t.dgid);
	mad_sa_path_record_encode(&t, req.data);
	mad_sa_path_record_decode(ask(&req, status).data, &r);
	return r.dlid;
}

static int last_error(void *arg, const struct db_event *ev)
{
	if (!strcmp(ev->kind, DB_EV_ERROR))
		snprintf(arg, 256, "%s", ev->detail);
	return 0;
}

/* A VF's alias GUID, registered through the SA by its own port: refused
 * for another port (the refusal an event naming the asking port), a GUID in
 * use, the read-only entry 0 and past GUIDCap;
 * programmed into the port's GUIDInfo; PathRecords to its GID reach the
 * port's LID; kept across a restart (programmed again into a fabric whose
 * devices lost it); deleted. */
START_TEST(alias_guids)
{
	const uint64_t vf = 0x0002c90300aa0001ull, vf2 = 0x0002c90300aa0002ull;
	const uint64_t g1 = MAD_SA_COMP(0) | MAD_SA_COMP(1) | MAD_SA_COMP(5);	/* GUID1 */
	struct sim_fabric *f;
	struct mad_guid_block gb;

	sm_close(&sm);
	f = start_on_own();
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	source_again();
	uint16_t h2 = lid_of("H2", 1), h3 = lid_of("H3", 1);
	uint64_t h2_guid = sm.fabric.topo.nodes[node("H2")].ports[1].guid;
	uint32_t sim_h2 = topo_find_name(sim_fabric_topo(f), "H2");
	uint64_t want[8] = { 0, vf };

	path_to_guid(vf, MAD_SA_ERR_REQ_INVALID_GID);	/* no such GID yet */
	alias_req(MAD_SA_METHOD_SET, g1, h2, 0, want, h3, MAD_SA_ERR_REQ_DENIED);
	alias_req(MAD_SA_METHOD_SET, MAD_SA_COMP(0) | MAD_SA_COMP(5), h2, 0, want, h2,
		  MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS);
	alias_req(MAD_SA_METHOD_SET, g1 | MAD_SA_COMP(4), h2, 0, want, h2,
		  MAD_SA_ERR_REQ_INVALID);	/* entry 0: the port GUID */
	alias_req(MAD_SA_METHOD_SET, g1, h2, 4, want, h2, MAD_SA_ERR_NO_RECORDS);
	uint64_t theirs[8] = { 0, sm.fabric.topo.nodes[node("H0")].ports[1].guid };
	alias_req(MAD_SA_METHOD_SET, g1, h2, 0, theirs, h2, MAD_SA_ERR_REQ_DENIED);
	uint64_t twice[8] = { 0, vf, vf };
	alias_req(MAD_SA_METHOD_SET, g1 | MAD_SA_COMP(6), h2, 0, twice, h2,
		  MAD_SA_ERR_REQ_DENIED);
	ck_assert_uint_eq(sm.sa->aliases.n, 0);

	/* through the agent, as a host's request comes: stored, then programmed */
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_GUID_INFO_RECORD, g1);
	struct mad_sa_guid_info_record t = { .lid = h2 };
	memcpy(t.guid, want, sizeof(want));
	mad_sa_guid_info_record_encode(&t, req.data);
	sa_in(&req, h2);
	ck_assert_uint_eq(sm.sa->aliases.n, 1);
	ck_assert_uint_eq(sm.sa->aliases.ndue, 1);
	ck_assert_int_eq(sim_get_guid_info(f, sim_h2, 1, 0, &gb), 0);
	ck_assert_uint_eq(gb.guid[1], 0);	/* not yet on the port */
	ck_assert_int_eq(sm_sa_alias_program(&sm, &sm.fabric, false), 0);
	ck_assert_int_eq(sim_get_guid_info(f, sim_h2, 1, 0, &gb), 0);
	ck_assert_uint_eq(gb.guid[0], h2_guid);
	ck_assert_uint_eq(gb.guid[1], vf);
	ck_assert_uint_eq(sm.sa->aliases.sets, 1);

	ck_assert_uint_eq(path_to_guid(vf, 0), h2);
	/* the same again is no change; H3 cannot take it, nor H2 twice */
	ck_assert_uint_eq(alias_req(MAD_SA_METHOD_SET, g1, h2, 0, want, h2, 0).guid[1], vf);
	alias_req(MAD_SA_METHOD_SET, g1, h3, 0, want, h3, MAD_SA_ERR_REQ_DENIED);
	char got[256] = "", named[256];
	sa_in(&req, h3);	/* H3 asks for H2's table, through the agent */
	ck_assert_int_eq(db_events_each(sm.db, 0, last_error, got), 0);
	snprintf(named, sizeof(named), "alias GUID refused: GUIDInfoRecord from LID %u (\"H3\" "
		 "0x%016" PRIx64 " port 1)", h3, sm.fabric.topo.nodes[node("H3")].guid);
	ck_assert_str_eq(got, named);
	uint64_t at2[8] = { 0, 0, vf };
	alias_req(MAD_SA_METHOD_SET, MAD_SA_COMP(0) | MAD_SA_COMP(1) | MAD_SA_COMP(6), h2, 0,
		  at2, h2, MAD_SA_ERR_REQ_DENIED);
	/* a Get shows every block GUIDCap covers (the sim's: 32, blocks 0..3) */
	uint8_t tmpl[MAD_SA_GUID_INFO_RECORD_SIZE] = { 0 };
	struct mad_sa_guid_info_record tg = { .lid = h2, .block = 3 };
	unsigned n;
	mad_sa_guid_info_record_encode(&tg, tmpl);
	table(MAD_SA_ATTR_GUID_INFO_RECORD, MAD_SA_COMP(0) | MAD_SA_COMP(1), tmpl, sizeof(tmpl),
	      &n);
	ck_assert_uint_eq(n, 1);
	tg.block = 4;
	mad_sa_guid_info_record_encode(&tg, tmpl);
	table(MAD_SA_ATTR_GUID_INFO_RECORD, MAD_SA_COMP(0) | MAD_SA_COMP(1), tmpl, sizeof(tmpl),
	      &n);
	ck_assert_uint_eq(n, 0);
	/* block 1 through the agent too, for the store */
	t = (struct mad_sa_guid_info_record){ .lid = h2, .block = 1, .guid = { vf2 } };
	req.comp_mask = MAD_SA_COMP(0) | MAD_SA_COMP(1) | MAD_SA_COMP(4);
	mad_sa_guid_info_record_encode(&t, req.data);
	sa_in(&req, h2);
	ck_assert_uint_eq(sm.sa->aliases.n, 2);
	sm_close(&sm);
	sim_fabric_free(f);

	/* restarted, on devices that came back without it */
	f = start_on_own();
	ck_assert_uint_eq(sm.sa->aliases.n, 2);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sim_get_guid_info(f, sim_h2, 1, 0, &gb), 0);
	ck_assert_uint_eq(gb.guid[1], vf);
	ck_assert_int_eq(sim_get_guid_info(f, sim_h2, 1, 1, &gb), 0);
	ck_assert_uint_eq(gb.guid[0], vf2);
	source_again();
	ck_assert_uint_eq(path_to_guid(vf, 0), h2);
	ck_assert_uint_eq(path_to_guid(vf2, 0), h2);

	/* deleted: the entry is 0 on the port, the GID unknown */
	ck_assert_uint_eq(alias_req(MAD_SA_METHOD_DELETE, g1, h2, 0, want, h2, 0).guid[1], 0);
	ck_assert_int_eq(sm_sa_alias_program(&sm, &sm.fabric, false), 0);
	ck_assert_int_eq(sim_get_guid_info(f, sim_h2, 1, 0, &gb), 0);
	ck_assert_uint_eq(gb.guid[1], 0);
	path_to_guid(vf, MAD_SA_ERR_REQ_INVALID_GID);
	sm_close(&sm);
	sim_fabric_free(f);
	sm_start_file(&sm, "twoswitch.topo");	/* for the teardown */
}
END_TEST

static int count_stored(void *arg, const struct db_sa_service *s)
{
	(void)s;
	++*(unsigned *)arg;
	return 0;
}

/* Services in the store now. */
static unsigned stored_services(void)
{
	unsigned n = 0, bad;

	ck_assert_int_eq(db_sa_services_each(sm.db, count_stored, &n, &bad), 0);
	ck_assert_uint_eq(bad, 0);
	return n;
}

/* On the loop, a Set is stored by the store's timer, never waiting for
 * db_mu: while a worker holds it the timer tries again shortly; then at
 * most once a second. */
START_TEST(store_writes_never_wait)
{
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_SERVICE_RECORD,
				    MAD_SA_SR_ID | MAD_SA_SR_GID);
	struct mad_sa_service_record t = { .id = 1, .lease = MAD_SA_SR_LEASE_INFINITE };

	sm.loop = sm_loop_new();
	ck_assert_ptr_nonnull(sm.loop);
	gid_of("H2", t.gid);
	mad_sa_service_record_encode(&t, req.data);
	sa_in(&req, lid_of("H2", 1));
	ck_assert(sm.sa->store_due);
	ck_assert(sm.sa->store_timer.armed);
	ck_assert_uint_eq(stored_services(), 0);
	pthread_mutex_lock(&sm.db_mu);	/* a worker storing a sweep */
	uint64_t t0 = mad_now_ms();
	sm.sa->store_timer.fn(sm.sa->store_timer.ctx);
	pthread_mutex_unlock(&sm.db_mu);
	ck_assert_uint_le(mad_now_ms() - t0, 50);	/* it did not wait */
	ck_assert(sm.sa->store_due);
	ck_assert(sm.sa->store_timer.armed);
	ck_assert_uint_ge(sm.sa->store_timer.due_ms, t0 + SM_SA_STORE_RETRY_MS);
	ck_assert_uint_eq(stored_services(), 0);
	sm.sa->store_timer.fn(sm.sa->store_timer.ctx);	/* the store is free */
	ck_assert(!sm.sa->store_due);
	ck_assert_uint_eq(stored_services(), 1);
	/* the next change waits for the second to pass */
	t.id = 2;
	mad_sa_service_record_encode(&t, req.data);
	sa_in(&req, lid_of("H2", 1));
	ck_assert(sm.sa->store_timer.armed);
	ck_assert_uint_ge(sm.sa->store_timer.due_ms, sm.sa->stored_ms + SM_SA_STORE_EVERY_MS);
	sm_timer_cancel(sm.loop, &sm.sa->store_timer);
	sm_timer_cancel(sm.loop, &sm.sa->lease_timer);
	sm_loop_free(sm.loop);
	sm.loop = NULL;
	sm_sa_store_flush(&sm);	/* as sm_close() does */
	ck_assert_uint_eq(stored_services(), 2);
}
END_TEST

/* A store with more than a Set could have made (one port past its share
 * of services and of subscriptions, P_Keys, ranges and LIDs no Set takes,
 * a duplicate, an infinite lease with an end): the SM takes what the SA's
 * rules allow, and that port still gets no more. */
START_TEST(restored_tables_keep_the_caps)
{
	enum { NS = SM_SA_MAX_SERVICES_PER_PORT + 6, NI = SM_SA_MAX_INFORMS_PER_PORT + 8 };
	struct db_sa_service ds[NS + 4] = { { 0 } };
	struct db_sa_inform di[NI + 4] = { { 0 } };
	char err[256];
	struct db *db;

	sm_close(&sm);
	for (unsigned i = 0; i < NS; i++)
		ds[i] = (struct db_sa_service){ .id = i, .pkey = 0xffff, .lease = 0xffffffff,
						.lid = 5, .expires_ms = DB_SA_NEVER };
	ds[NS] = ds[0];		/* the same ID, GID and P_Key again */
	ds[NS].lid = 6;
	ds[NS + 1] = (struct db_sa_service){ .id = 1000, .pkey = 0x8001, .lease = 0xffffffff,
					     .lid = 6, .expires_ms = DB_SA_NEVER };
	ds[NS + 2] = (struct db_sa_service){ .id = 1001, .pkey = 0xffff, .lease = 60, .lid = 6,
					     .expires_ms = DB_SA_NEVER };
	ds[NS + 3] = (struct db_sa_service){ .id = 1002, .pkey = 0x7fff, .lease = 60, .lid = 6,
					     .expires_ms = INT64_MAX - 1 };	/* cut to 60 s */
	for (unsigned i = 0; i < NI; i++)
		di[i] = (struct db_sa_inform){ .lid = 5, .trap_num = (uint16_t)i, .is_generic = true,
					       .lid_begin = MAD_SA_INFORM_ALL_LIDS };
	di[NI] = (struct db_sa_inform){ .lid = 0, .lid_begin = MAD_SA_INFORM_ALL_LIDS };
	di[NI + 1] = (struct db_sa_inform){ .lid = 0xc000, .lid_begin = MAD_SA_INFORM_ALL_LIDS };
	di[NI + 2] = (struct db_sa_inform){ .lid = 6, .lid_begin = 9, .lid_end = 3 };
	di[NI + 3] = (struct db_sa_inform){ .lid = 6, .lid_begin = 3, .lid_end = 9 };
	ck_assert_msg(db_open(dbpath, DB_WRITER, &db, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(db_sa_save(db, ds, NS + 4, di, NI + 4), 0);
	db_close(db);

	sm_start_file(&sm, "twoswitch.topo");
	uint64_t now = mad_now_ms();
	ck_assert_uint_eq(sm.sa->services.n, SM_SA_MAX_SERVICES_PER_PORT + 1);
	ck_assert_uint_eq(sm.sa->services.v[SM_SA_MAX_SERVICES_PER_PORT].r.id, 1002);
	ck_assert_uint_le(sm.sa->services.v[SM_SA_MAX_SERVICES_PER_PORT].expires_ms, now + 60000);
	ck_assert_uint_eq(sm.sa->informs.n, SM_SA_MAX_INFORMS_PER_PORT + 1);
	ck_assert_uint_eq(sm.sa->informs.v[SM_SA_MAX_INFORMS_PER_PORT].ii.lid_end, 9);
	/* the daemon's loop starts: a timer for the lease, the cleaned tables due */
	sm.loop = sm_loop_new();
	ck_assert_ptr_nonnull(sm.loop);
	sm_sa_store_start(&sm);
	ck_assert(sm.sa->lease_timer.armed);
	ck_assert_uint_le(sm.sa->lease_timer.due_ms, now + 60000);
	ck_assert_uint_ge(sm.sa->lease_timer.due_ms, now + 59000);
	ck_assert(sm.sa->store_due);
	ck_assert(sm.sa->store_timer.armed);
	sm_timer_cancel(sm.loop, &sm.sa->lease_timer);
	sm_timer_cancel(sm.loop, &sm.sa->store_timer);
	sm_loop_free(sm.loop);
	sm.loop = NULL;
	/* port 5's shares are full, as a Set finds them */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	source_again();
	src.requester_lid = 5;
	struct mad_sa_service_record t = { .id = 2000, .lease = MAD_SA_SR_LEASE_INFINITE };
	struct sa_port at5;
	ck_assert(sm_sa_index_lid(&sm.sa->index, 5, &at5));
	sa_gid(sm.fabric.topo.nodes[at5.node].ports[at5.port].guid, t.gid);	/* its own */
	service(MAD_SA_METHOD_SET, MAD_SA_SR_ID | MAD_SA_SR_GID, &t, MAD_SA_ERR_NO_RESOURCES);
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_INFORM_INFO, 0);
	struct mad_sa_inform_info ii = { .is_generic = true, .subscribe = true,
					 .lid_begin = MAD_SA_INFORM_ALL_LIDS, .trap_num = 999 };
	mad_sa_inform_info_encode(&ii, req.data);
	ask(&req, MAD_SA_ERR_NO_RESOURCES);
	/* closing, the store is left with what the SM took */
	sm_close(&sm);
	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_uint_eq(stored_services(), SM_SA_MAX_SERVICES_PER_PORT + 1);
}
END_TEST

START_TEST(refusals)
{
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_NODE_RECORD, 0);

	ck_assert_uint_eq(ask(&req, MAD_STATUS_METHOD_ATTR_UNSUPPORTED).method,
			  MAD_SA_METHOD_GET_RESP);
	req.method = MAD_SA_METHOD_DELETE;
	ck_assert_uint_eq(ask(&req, MAD_STATUS_METHOD_ATTR_UNSUPPORTED).method,
			  MAD_SA_METHOD_DELETE_RESP);
	req.method = MAD_SA_METHOD_GET_MULTI;	/* MultiPathRecord's only */
	ask(&req, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	req.method = 0x13;	/* no SA method */
	ask(&req, MAD_STATUS_METHOD_UNSUPPORTED);
	req = request(MAD_SA_METHOD_GET, 0x0099, 0);	/* an attribute IBA does not define */
	ask(&req, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	req = request(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_CLASS_PORT_INFO, 0);
	ask(&req, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	req = request(MAD_SA_METHOD_GET, MAD_SA_ATTR_NODE_RECORD, 0);
	req.class_version = 1;
	ask(&req, MAD_STATUS_BAD_VERSION);
	req.class_version = MAD_SA_CLASS_VERSION;
	req.rmpp = (struct mad_rmpp){ .version = 1, .type = 1, .flags = 3 };
	ask(&req, MAD_SA_ERR_REQ_INVALID);	/* the first of several segments */
	req.rmpp.flags = 7;			/* one segment: the MAD it is */
	ask(&req, MAD_SA_ERR_TOO_MANY_RECORDS);
	ck_assert_uint_eq(sm.sa->counts.unsupported, 6);
	ck_assert_uint_eq(sm.sa->counts.invalid, 3);	/* version, segments, too many */

	/* no answer to a response, another class, or a short MAD */
	uint8_t wire[MAD_BLOCK_SIZE];
	struct sm_sa_reply out;
	req = request(MAD_SA_METHOD_GET_RESP, MAD_SA_ATTR_NODE_RECORD, 0);
	mad_sa_encode(&req, wire);
	ck_assert(!sm_sa_answer(&src, wire, sizeof(wire), &out, &sm.sa->counts));
	ck_assert(!sm_sa_answer(&src, wire, 100, &out, &sm.sa->counts));
	wire[1] = 0x04;
	ck_assert(!sm_sa_answer(&src, wire, sizeof(wire), &out, &sm.sa->counts));
	ck_assert_uint_eq(sm.sa->counts.dropped, 3);
}
END_TEST

START_TEST(random_requests_never_crash)
{
	uint8_t wire[MAD_BLOCK_SIZE];
	struct sm_sa_reply out;
	static const uint16_t attrs[] = { 0x0001, 0x0011, 0x0012, 0x0035, 0x0038, 0xffff,
					  0x0013, 0x0014, 0x0015, 0x0017, 0x0018, 0x0020,
					  0x0030, 0x0033 };
	const int nattrs = (int)(sizeof(attrs) / sizeof(attrs[0]));
	static const uint8_t methods[] = { 0x01, 0x02, 0x12, 0x15, 0x14, 0x81, 0x7f };

	srandom(7);
	for (int i = 0; i < 20000; i++) {
		for (size_t b = 0; b < sizeof(wire); b++)
			wire[b] = (uint8_t)random();
		wire[0] = 1;
		wire[1] = MAD_CLASS_SA;
		wire[2] = i % 5 ? 2 : (uint8_t)random();
		wire[3] = methods[i % (int)sizeof(methods)];
		wire[16] = (uint8_t)(attrs[i % nattrs] >> 8);
		wire[17] = (uint8_t)attrs[i % nattrs];
		if (i % 3 == 0)	/* often a LID component with a LID we know */
			wire[56 + 1] = (uint8_t)(i % 12);
		src.rmpp = i % 2;
		if (!sm_sa_answer(&src, wire, sizeof(wire), &out, &sm.sa->counts))
			continue;
		ck_assert(out.mad[3] & 0x80);		/* always a response */
		ck_assert_mem_eq(out.mad + 8, wire + 8, 8);	/* to this TID */
		ck_assert(!out.msg || src.rmpp);
		sm_sa_reply_free(&out);
	}
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("sm_sa");
	TCase *tc = tcase_create("sa");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, class_port_info);
	tcase_add_test(tc, busy_before_first_sweep);
	tcase_add_test(tc, node_record_by_guid);
	tcase_add_test(tc, node_record_table);
	tcase_add_test(tc, get_wants_one_record);
	tcase_add_test(tc, port_info_record);
	tcase_add_test(tc, port_info_record_hides_the_m_key);
	tcase_add_test(tc, path_records_every_ca_pair);
	tcase_add_test(tc, path_records_lmc2);
	tcase_add_test(tc, path_record_by_gid_and_selectors);
	tcase_add_test(tc, no_made_up_paths);
	tcase_add_test(tc, path_records_carry_the_engine_sl);
	tcase_add_test(tc, link_records);
	tcase_add_test(tc, switch_records);
	tcase_add_test(tc, sm_info_records);
	tcase_add_test(tc, port_table_records);
	tcase_add_test(tc, get_table_over_rmpp);
	tcase_add_test(tc, path_records_lmc2_by_gid);
	tcase_add_test(tc, multipath_records);
	tcase_add_test(tc, multipath_longer_than_a_mad);
	tcase_add_test(tc, sim_reads_a_long_request_as_the_kernel_does);
	tcase_add_test(tc, answer_on_the_request_pkey_and_grh);
	tcase_add_test(tc, service_records);
	tcase_add_test(tc, lease_timer_on_the_loop);
	tcase_add_test(tc, inform_info_and_reports);
	tcase_add_test(tc, inform_info_refusals);
	tcase_add_test(tc, one_port_cannot_fill_the_tables);
	tcase_add_test(tc, inform_info_records);
	tcase_add_test(tc, registrations_survive_a_restart);
	tcase_add_test(tc, alias_guids);
	tcase_add_test(tc, restored_tables_keep_the_caps);
	tcase_add_test(tc, no_takeover_of_a_record);
	tcase_add_test(tc, store_writes_never_wait);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, random_requests_never_crash);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

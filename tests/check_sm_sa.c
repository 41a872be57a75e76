// SPDX-License-Identifier: MIT
/*
 * check_sm_sa.c - the SA agent on the sim backend: SA requests injected into
 * sm_sa_answer() after a real heavy sweep of tests/topo/twoswitch.topo, the
 * answers decoded and held to the simulated devices (LIDs, PortInfo, the LFTs
 * the sweep programmed) and to the IBA status codes for what it refuses.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_sa.h"
#include "sm/sm_sa.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"

static struct sm sm;
static struct sm_sa_source src;

static void setup(void)
{
	fixture_setup();
	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sm_sa_index_build(&sm.sa_index, &sm.fabric), 0);
	src = (struct sm_sa_source){ .f = &sm.fabric, .ix = &sm.sa_index,
				     .routes = &sm.routes,
				     .subnet_prefix = sm.cfg.subnet_prefix };
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
	uint8_t wire[MAD_BLOCK_SIZE], out[MAD_BLOCK_SIZE];
	struct mad_sa resp;

	mad_sa_encode(req, wire);
	ck_assert(sm_sa_answer(&src, wire, sizeof(wire), out, &sm.sa_counts));
	ck_assert_int_eq(mad_sa_decode(out, sizeof(out), &resp), 0);
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
}
END_TEST

START_TEST(busy_before_first_sweep)
{
	struct mad_sa req = request(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_NODE_RECORD, 0);

	src.f = NULL;
	ask(&req, MAD_STATUS_BUSY);
	ck_assert_uint_eq(sm.sa_counts.busy, 1);
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
	ck_assert_uint_eq(sm.sa_counts.no_records, 1);
	/* a table may be empty */
	req.method = MAD_SA_METHOD_GET_TABLE;
	struct mad_sa resp = ask(&req, 0);
	ck_assert_uint_eq(resp.attr_offset, 14);
	/* and one larger than a MAD needs RMPP, which we do not do */
	req.comp_mask = 0;
	ask(&req, MAD_SA_ERR_NO_RESOURCES);
	ck_assert_uint_eq(sm.sa_counts.too_big, 1);
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
			unsigned hops = sim_hops(ca[i].name, ca[i].port, d), l = 16;
			for (unsigned h = 1; h < hops; h <<= 1)
				l++;
			ck_assert_msg(r.packet_lifetime == l, "%s -> %s: lifetime %u, %u hops",
				      ca[i].name, ca[j].name, r.packet_lifetime, hops);
		}
	}
}
END_TEST

START_TEST(path_records_lmc2)
{
	static const char *const ca[] = { "H0", "H1", "H2", "H3" };

	/* sweep again with LMC 2: every CA port owns four LIDs */
	sm.cfg.lmc = 2;
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sm_sa_index_build(&sm.sa_index, &sm.fabric), 0);
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
				unsigned hops = sim_hops(ca[i], 1, (uint16_t)(d + k)), l = 16;
				for (unsigned h = 1; h < hops; h <<= 1)
					l++;
				ck_assert_uint_eq(r.packet_lifetime, l);
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
	ck_assert(sm_sa_index_lid(&sm.sa_index, top, &p));
	ck_assert(!sm_sa_index_lid(&sm.sa_index, (uint16_t)(top + 4), &p));
	ck_assert(!sm_sa_index_lid(&sm.sa_index, 0, &p));
	ck_assert(!sm_sa_index_guid(&sm.sa_index, 0, &p));
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
	ck_assert_int_eq(sm_sa_index_build(&sm.sa_index, &sm.fabric), 0);
	src = (struct sm_sa_source){ .f = &sm.fabric, .ix = &sm.sa_index,
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

START_TEST(refusals)
{
	struct mad_sa req = request(MAD_SA_METHOD_SET, MAD_SA_ATTR_NODE_RECORD, 0);

	ck_assert_uint_eq(ask(&req, MAD_STATUS_METHOD_ATTR_UNSUPPORTED).method,
			  MAD_SA_METHOD_GET_RESP);
	req.method = MAD_SA_METHOD_DELETE;
	ck_assert_uint_eq(ask(&req, MAD_STATUS_METHOD_ATTR_UNSUPPORTED).method,
			  MAD_SA_METHOD_DELETE_RESP);
	req.method = 0x14;	/* GetMulti */
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
	ck_assert_uint_eq(sm.sa_counts.unsupported, 5);
	ck_assert_uint_eq(sm.sa_counts.invalid, 3);	/* version, segments, too many */

	/* no answer to a response, another class, or a short MAD */
	uint8_t wire[MAD_BLOCK_SIZE], out[MAD_BLOCK_SIZE];
	req = request(MAD_SA_METHOD_GET_RESP, MAD_SA_ATTR_NODE_RECORD, 0);
	mad_sa_encode(&req, wire);
	ck_assert(!sm_sa_answer(&src, wire, sizeof(wire), out, &sm.sa_counts));
	ck_assert(!sm_sa_answer(&src, wire, 100, out, &sm.sa_counts));
	wire[1] = 0x04;
	ck_assert(!sm_sa_answer(&src, wire, sizeof(wire), out, &sm.sa_counts));
	ck_assert_uint_eq(sm.sa_counts.dropped, 3);
}
END_TEST

START_TEST(random_requests_never_crash)
{
	uint8_t wire[MAD_BLOCK_SIZE], out[MAD_BLOCK_SIZE];
	static const uint16_t attrs[] = { 0x0001, 0x0011, 0x0012, 0x0035, 0x0038, 0xffff };
	static const uint8_t methods[] = { 0x01, 0x02, 0x12, 0x15, 0x14, 0x81, 0x7f };

	srandom(7);
	for (int i = 0; i < 20000; i++) {
		for (size_t b = 0; b < sizeof(wire); b++)
			wire[b] = (uint8_t)random();
		wire[0] = 1;
		wire[1] = MAD_CLASS_SA;
		wire[2] = i % 5 ? 2 : (uint8_t)random();
		wire[3] = methods[i % (int)sizeof(methods)];
		wire[16] = (uint8_t)(attrs[i % 6] >> 8);
		wire[17] = (uint8_t)attrs[i % 6];
		if (i % 3 == 0)	/* often a LID component with a LID we know */
			wire[56 + 1] = (uint8_t)(i % 12);
		if (!sm_sa_answer(&src, wire, sizeof(wire), out, &sm.sa_counts))
			continue;
		ck_assert(out[3] & 0x80);		/* always a response */
		ck_assert_mem_eq(out + 8, wire + 8, 8);	/* to this TID */
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
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, random_requests_never_crash);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_mcast.c - multicast on the sim backend: MCMemberRecord joins and
 * leaves through sm_sa_answer() after a heavy sweep of twoswitch.topo, the
 * MFTs the SM then programs walked on the simulated switches (a packet from
 * any member floods the tree and must reach every receiving member exactly
 * once, and no other port), MLIDs from 0xC000 freed when the last full member
 * leaves (send-only leavers included), a SendOnlyFullMember making a group
 * and keeping it, 10,000 join/leave cycles leaving the
 * MLID count where it started, the IPoIB broadcast group made at start, only
 * changed MFT blocks sent, and the statuses of bad joins.  Also the
 * MCMemberRecord codec against libibmad's field table.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <infiniband/mad.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/mad_sa_mcmember.h"
#include "sm/sa/sm_mcast_program.h"
#include "sm/sm_metrics.h"
#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_sa.h"
#include "tests/check_sim_flood.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

START_TEST(codec_matches_libibmad)
{
	struct mad_sa_mcmember_record r = {
		.qkey = 0x0b1b, .mlid = 0xc012, .mtu_selector = 2, .mtu = 4, .tclass = 7,
		.pkey = 0x8002, .rate_selector = 2, .rate = 16, .sl = 5, .flow_label = 0xabcde,
		.hop_limit = 9, .scope = 2, .join_state = 4, .proxy_join = true,
	}, back;
	uint8_t d[MAD_SA_MCMEMBER_RECORD_SIZE + 8];

	for (int i = 0; i < MAD_GID_LEN; i++) {
		r.mgid[i] = (uint8_t)(0xf0 + i);
		r.port_gid[i] = (uint8_t)i;
	}
	mad_sa_mcmember_record_encode(&r, d);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_MCM_QKEY_F), 0x0b1b);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_MCM_MLID_F), 0xc012);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_MCM_MTU_F), 4);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_MCM_TCLASS_F), 7);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_MCM_PKEY_F), 0x8002);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_MCM_RATE_F), 16);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_MCM_SL_F), 5);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_MCM_FLOW_LABEL_F), 0xabcde);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_MCM_JOIN_STATE_F), 4);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_MCM_PROXY_JOIN_F), 1);
	uint8_t gid[MAD_GID_LEN];
	mad_get_array(d, 0, IB_SA_MCM_MGID_F, gid);
	ck_assert_mem_eq(gid, r.mgid, MAD_GID_LEN);
	mad_get_array(d, 0, IB_SA_MCM_PORTGID_F, gid);
	ck_assert_mem_eq(gid, r.port_gid, MAD_GID_LEN);
	mad_sa_mcmember_record_decode(d, &back);
	ck_assert_mem_eq(&back, &r, sizeof(r));
}
END_TEST

static struct sm sm;
/* Who asks: the requester's LID (0: from inside the SM) and the SM_Key its
 * requests carry. */
static uint16_t asker_lid;
static uint64_t asker_key;


static void setup(void)
{
	asker_lid = 0;
	asker_key = 0;
	fixture_setup();
	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sm_sa_index_build(&sm.sa->index, &sm.fabric), 0);
}

static void teardown(void)
{
	sm_close(&sm);
	fixture_teardown();
}

static uint32_t sim_node(const char *name)
{
	return sim_node_named(&sm, name);
}

static uint64_t port_guid(const char *name, uint8_t port)
{
	return sim_fabric_topo(fab(&sm))->nodes[sim_node(name)].ports[port].guid;
}

static void gid_of(uint64_t guid, uint8_t *gid)
{
	for (int i = 0; i < 8; i++) {
		gid[i] = (uint8_t)(sm.cfg.subnet_prefix >> (56 - 8 * i));
		gid[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
}

/* One MCMemberRecord request; the answer's status, the record in *@r. */
static uint16_t mcmr(uint8_t method, const struct mad_sa_mcmember_record *t, uint64_t mask,
		     struct mad_sa_mcmember_record *r, struct mad_sa *whole)
{
	struct sm_sa_source src = { .f = &sm.fabric, .ix = &sm.sa->index, .routes = &sm.routes,
				    .subnet_prefix = sm.cfg.subnet_prefix, .pkeys = &sm.sa->pkeys,
				    .partitions = &sm.sa->partitions, .mcast = &sm.sa->mcast,
				    .sm_key = sm.cfg.sm_key, .requester_lid = asker_lid };
	struct mad_sa req = { .base_version = 1, .mgmt_class = MAD_CLASS_SA,
			      .class_version = MAD_SA_CLASS_VERSION, .method = method,
			      .attr_id = MAD_SA_ATTR_MCMEMBER_RECORD, .comp_mask = mask,
			      .sm_key = asker_key };
	uint8_t wire[MAD_BLOCK_SIZE];
	struct sm_sa_reply out;
	struct mad_sa resp;

	mad_sa_mcmember_record_encode(t, req.data);
	mad_sa_encode(&req, wire);
	ck_assert(sm_sa_answer(&src, wire, sizeof(wire), &out, &sm.sa->counts));
	ck_assert_ptr_null(out.msg);	/* no RMPP asked: one MAD */
	ck_assert_int_eq(mad_sa_decode(out.mad, sizeof(out.mad), &resp), 0);
	if (r)
		mad_sa_mcmember_record_decode(resp.data, r);
	if (whole)
		*whole = resp;
	return resp.status;
}

/* Any SA request of @attr with the MFTRecord template @t (for MFTRecords). */
static uint16_t mcmr_attr(uint8_t method, uint16_t attr, const struct mad_sa_mft_record *t,
			  uint64_t mask, struct mad_sa *whole)
{
	struct sm_sa_source src = { .f = &sm.fabric, .ix = &sm.sa->index, .routes = &sm.routes,
				    .subnet_prefix = sm.cfg.subnet_prefix, .mcast = &sm.sa->mcast };
	struct mad_sa req = { .base_version = 1, .mgmt_class = MAD_CLASS_SA,
			      .class_version = MAD_SA_CLASS_VERSION, .method = method,
			      .attr_id = attr, .comp_mask = mask };
	uint8_t wire[MAD_BLOCK_SIZE];
	struct sm_sa_reply out;

	mad_sa_mft_record_encode(t, req.data);
	mad_sa_encode(&req, wire);
	ck_assert(sm_sa_answer(&src, wire, sizeof(wire), &out, &sm.sa->counts));
	ck_assert_ptr_null(out.msg);
	ck_assert_int_eq(mad_sa_decode(out.mad, sizeof(out.mad), whole), 0);
	return whole->status;
}

#define JOIN_MASK (MAD_SA_MCMR_MGID | MAD_SA_MCMR_PORT_GID | MAD_SA_MCMR_JOIN_STATE)
#define CREATE_MASK (JOIN_MASK | MAD_SA_MCMR_QKEY | MAD_SA_MCMR_PKEY)

/* @name's port @port joins @mgid (all zero: a new group) with @join. */
static uint16_t join(const uint8_t *mgid, const char *name, uint8_t port, uint8_t join,
		     struct mad_sa_mcmember_record *r)
{
	struct mad_sa_mcmember_record t = { .qkey = 0x1234, .pkey = 0xffff, .join_state = join };

	memcpy(t.mgid, mgid, MAD_GID_LEN);
	gid_of(port_guid(name, port), t.port_gid);
	return mcmr(MAD_SA_METHOD_SET, &t, CREATE_MASK, r, NULL);
}

static uint16_t leave(const uint8_t *mgid, const char *name, uint8_t port, uint8_t join)
{
	struct mad_sa_mcmember_record t = { .join_state = join };

	memcpy(t.mgid, mgid, MAD_GID_LEN);
	gid_of(port_guid(name, port), t.port_gid);
	return mcmr(MAD_SA_METHOD_DELETE, &t, JOIN_MASK, NULL, NULL);
}

/* A packet from @name's @port to @mlid reaches exactly @receivers (NULL
 * terminated "name:port"), each once. */
static void reaches_exactly(const char *name, uint8_t port, uint16_t mlid,
			    const char *const *receivers)
{
	struct sim_fabric *f = fab(&sm);
	const struct topo *t = sim_fabric_topo(f);
	unsigned *hits = mcast_flood(f, sim_node(name), port, mlid);

	for (const char *const *r = receivers; *r; r++) {
		char nm[16];
		unsigned rp;
		ck_assert_int_eq(sscanf(*r, "%15[^:]:%u", nm, &rp), 2);
		unsigned *h = &hits[sim_node(nm) * MCAST_FLOOD_PORTS + rp];
		ck_assert_msg(*h == 1, "%s:%u sending: %s reached %u times", name, port, *r, *h);
		*h = 0;
	}
	for (uint32_t i = 0; i < t->n * MCAST_FLOOD_PORTS; i++)
		ck_assert_msg(hits[i] == 0, "%s:%u sending: %s port %u reached, not a member",
			      name, port, t->nodes[i / MCAST_FLOOD_PORTS].name, i % MCAST_FLOOD_PORTS);
	free(hits);
}

static const uint8_t zero_mgid[MAD_GID_LEN];

/* @name's port 1 makes a group with @join: its MGID in @mgid, its MLID. */
static uint16_t new_group(const char *name, uint8_t join_state, uint8_t mgid[MAD_GID_LEN])
{
	struct mad_sa_mcmember_record r;

	ck_assert_uint_eq(join(zero_mgid, name, 1, join_state, &r), 0);
	ck_assert_uint_eq(r.join_state, join_state);
	memcpy(mgid, r.mgid, MAD_GID_LEN);
	return r.mlid;
}

START_TEST(ipoib_broadcast_group)
{
	struct mad_sa_mcmember_record t = { 0 }, r;
	struct mad_sa resp;
	static const uint8_t want[MAD_GID_LEN] = {
		0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };

	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_GET_TABLE, &t, 0, &r, &resp), 0);
	ck_assert_uint_eq(resp.attr_offset, 7);
	ck_assert_mem_eq(r.mgid, want, MAD_GID_LEN);
	ck_assert_uint_eq(r.mlid, 0xc000);
	ck_assert_uint_eq(r.pkey, 0xffff);
	ck_assert_uint_eq(r.qkey, 0x0b1b);
	ck_assert_uint_eq(r.join_state, 0);
	ck_assert_uint_eq(sm.sa->mcast.mlids, 1);
	/* the first member of an IPoIB group: still there when it leaves */
	struct mad_sa_mcmember_record j = { .join_state = MAD_MC_JOIN_FULL };
	memcpy(j.mgid, want, MAD_GID_LEN);
	gid_of(port_guid("H1", 1), j.port_gid);
	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_SET, &j, JOIN_MASK, &r, NULL), 0);
	ck_assert_uint_eq(r.mlid, 0xc000);
	ck_assert_uint_eq(r.join_state, MAD_MC_JOIN_FULL);
	ck_assert_uint_eq(leave(want, "H1", 1, MAD_MC_JOIN_FULL), 0);
	ck_assert_uint_eq(sm.sa->mcast.mlids, 1);
	ck_assert_ptr_nonnull(sm_mcast_find(&sm.sa->mcast, want));
}
END_TEST

START_TEST(tree_reaches_exactly_the_members)
{
	struct mad_sa_mcmember_record r;
	uint8_t mgid[MAD_GID_LEN];
	uint16_t mlid = new_group("H1", MAD_MC_JOIN_FULL, mgid);

	ck_assert_uint_eq(mlid, 0xc001);	/* the lowest free after the IPoIB group */
	ck_assert_uint_eq(mgid[0], 0xff);
	ck_assert_uint_eq(join(mgid, "H2", 1, MAD_MC_JOIN_FULL, &r), 0);
	ck_assert_uint_eq(join(mgid, "HD", 2, MAD_MC_JOIN_NON, &r), 0);
	ck_assert_uint_eq(join(mgid, "H3", 1, MAD_MC_JOIN_SEND_ONLY, &r), 0);
	ck_assert(sm.sa->mcast.dirty);
	ck_assert_int_eq(sm_mcast_program(&sm), 0);
	ck_assert(!sm.sa->mcast.dirty);
	ck_assert_uint_eq(sm_mcast_find(&sm.sa->mcast, mgid)->tree_switches, 2);
	reaches_exactly("H1", 1, mlid, (const char *const[]){ "H2:1", "HD:2", NULL });
	reaches_exactly("H2", 1, mlid, (const char *const[]){ "H1:1", "HD:2", NULL });
	reaches_exactly("HD", 2, mlid, (const char *const[]){ "H1:1", "H2:1", NULL });
	/* send-only: sends into the tree, never receives */
	reaches_exactly("H3", 1, mlid, (const char *const[]){ "H1:1", "H2:1", "HD:2", NULL });
	/* the SA's MFTRecords show what the switches hold */
	struct mad_sa_mft_record mt = { 0 }, mr;
	struct mad_sa resp;
	ck_assert_uint_eq(mcmr_attr(MAD_SA_METHOD_GET_TABLE, MAD_SA_ATTR_MFT_RECORD, &mt, 0, &resp),
			  0);
	ck_assert_uint_eq(resp.attr_offset * 8u, 72);	/* 68 bytes, 8-byte aligned */
	mad_sa_mft_record_decode(resp.data, &mr);
	uint32_t sa_sw = topo_find_guid(&sm.fabric.topo,
					sim_fabric_topo(fab(&sm))->nodes[sim_node("SA")].guid);
	bool found = false;
	for (unsigned k = 0; k < MAD_SA_DATA_SIZE / 72 && !found; k++) {
		mad_sa_mft_record_decode(resp.data + k * 72, &mr);
		found = mr.lid == sm.fabric.topo.nodes[sa_sw].ports[0].lid && mr.position == 0 &&
			mr.block == 0;
	}
	ck_assert(found);
	for (unsigned p = 0; p < 16; p++)
		ck_assert_uint_eq(!!(mr.mask[mlid % 32] & (1u << p)),
				  sim_get_mft(fab(&sm), sim_node("SA"), mlid, (uint8_t)p));
	/* H2 leaves: the tree shrinks to switch SA, the MFTs follow */
	uint64_t sets = sm.sa->mcast.blocks_set;
	ck_assert_uint_eq(leave(mgid, "H2", 1, MAD_MC_JOIN_FULL), 0);
	ck_assert_uint_eq(leave(mgid, "HD", 2, MAD_MC_JOIN_NON), 0);
	ck_assert_int_eq(sm_mcast_program(&sm), 0);
	ck_assert_uint_le(sm.sa->mcast.blocks_set - sets, 2);	/* one block per switch */
	reaches_exactly("H3", 1, mlid, (const char *const[]){ "H1:1", NULL });
	reaches_exactly("H1", 1, mlid, (const char *const[]){ NULL });
	/* nothing changed: nothing sent */
	sets = sm.sa->mcast.blocks_set;
	ck_assert_int_eq(sm_mcast_program(&sm), 0);
	ck_assert_uint_eq(sm.sa->mcast.blocks_set, sets);
	/* the last full member leaves: group and MLID go, send-only H3 with them */
	ck_assert_uint_eq(leave(mgid, "H1", 1, MAD_MC_JOIN_FULL), 0);
	ck_assert_ptr_null(sm_mcast_find(&sm.sa->mcast, mgid));
	ck_assert_uint_eq(sm.sa->mcast.mlids, 1);
	ck_assert_int_eq(sm_mcast_program(&sm), 0);
	reaches_exactly("H3", 1, mlid, (const char *const[]){ NULL });
}
END_TEST

/* A SendOnlyFullMember join (IPoIB's for a group it only sends to) makes
 * the group as a full member's does, keeps it while it stays, and receives
 * nothing; the group goes when it leaves last (OpenSM alike). */
START_TEST(send_only_full_member_creates)
{
	struct mad_sa_mcmember_record r;
	uint8_t mgid[MAD_GID_LEN];
	uint16_t mlid = new_group("H3", MAD_MC_JOIN_SEND_ONLY_FULL, mgid);

	ck_assert_uint_eq(mlid, 0xc001);
	ck_assert_uint_eq(sm.sa->mcast.mlids, 2);
	/* a send-only non-member cannot make one */
	ck_assert_uint_eq(join(zero_mgid, "H2", 1, MAD_MC_JOIN_SEND_ONLY, &r),
			  MAD_SA_ERR_REQ_INVALID);
	ck_assert_uint_eq(join(mgid, "H1", 1, MAD_MC_JOIN_FULL, &r), 0);
	ck_assert_int_eq(sm_mcast_program(&sm), 0);
	reaches_exactly("H3", 1, mlid, (const char *const[]){ "H1:1", NULL });
	reaches_exactly("H1", 1, mlid, (const char *const[]){ NULL });
	/* the full member leaves: the send-only full member keeps the group */
	ck_assert_uint_eq(leave(mgid, "H1", 1, MAD_MC_JOIN_FULL), 0);
	ck_assert_ptr_nonnull(sm_mcast_find(&sm.sa->mcast, mgid));
	ck_assert_uint_eq(leave(mgid, "H3", 1, MAD_MC_JOIN_SEND_ONLY_FULL), 0);
	ck_assert_ptr_null(sm_mcast_find(&sm.sa->mcast, mgid));
	ck_assert_uint_eq(sm.sa->mcast.mlids, 1);
}
END_TEST

START_TEST(join_leave_storm_no_mlid_leak)
{
	struct mad_sa_mcmember_record r;
	size_t before = sm.sa->mcast.mlids;
	static const char *const hosts[] = { "H1", "H2", "H3" };

	for (int i = 0; i < 10000; i++) {
		const char *a = hosts[i % 3], *b = hosts[(i + 1) % 3];
		ck_assert_uint_eq(join(zero_mgid, a, 1, MAD_MC_JOIN_FULL, &r), 0);
		uint8_t mgid[MAD_GID_LEN];
		memcpy(mgid, r.mgid, MAD_GID_LEN);
		ck_assert_uint_eq(join(mgid, b, 1, i % 2 ? MAD_MC_JOIN_SEND_ONLY : MAD_MC_JOIN_NON,
				       &r), 0);
		if (i % 3 == 0)	/* the other member leaves first, or never */
			ck_assert_uint_eq(leave(mgid, b, 1, r.join_state), 0);
		ck_assert_uint_eq(leave(mgid, a, 1, MAD_MC_JOIN_FULL), 0);
		ck_assert_ptr_null(sm_mcast_find(&sm.sa->mcast, mgid));
		if (i % 1000 == 0)
			ck_assert_int_eq(sm_mcast_program(&sm), 0);
	}
	ck_assert_uint_eq(sm.sa->mcast.mlids, before);
	ck_assert_uint_eq(sm.sa->mcast.n, 1);
}
END_TEST

START_TEST(bad_joins)
{
	struct mad_sa_mcmember_record t = { .qkey = 1, .pkey = 0xffff, .join_state = 1 }, r;

	gid_of(port_guid("H1", 1), t.port_gid);
	/* no JoinState */
	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_SET, &t, CREATE_MASK & ~MAD_SA_MCMR_JOIN_STATE, &r,
			       NULL), MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS);
	/* a new group without its Q_Key */
	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_SET, &t, CREATE_MASK & ~MAD_SA_MCMR_QKEY, &r, NULL),
			  MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS);
	/* JoinState 0, or beyond its 4 bits */
	t.join_state = 0;
	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_SET, &t, CREATE_MASK, &r, NULL),
			  MAD_SA_ERR_REQ_INVALID);
	/* a non-member cannot create */
	t.join_state = MAD_MC_JOIN_NON;
	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_SET, &t, CREATE_MASK, &r, NULL),
			  MAD_SA_ERR_REQ_INVALID);
	/* a unicast MGID */
	t.join_state = MAD_MC_JOIN_FULL;
	t.mgid[0] = 0xfe;
	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_SET, &t, CREATE_MASK, &r, NULL),
			  MAD_SA_ERR_REQ_INVALID);
	/* a port outside the subnet, and one it does not know */
	memset(t.mgid, 0, sizeof(t.mgid));
	t.port_gid[0] ^= 1;
	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_SET, &t, CREATE_MASK, &r, NULL),
			  MAD_SA_ERR_REQ_INVALID_GID);
	gid_of(0x1234, t.port_gid);
	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_SET, &t, CREATE_MASK, &r, NULL),
			  MAD_SA_ERR_REQ_INVALID_GID);
	/* a partition the port is not in */
	gid_of(port_guid("H1", 1), t.port_gid);
	t.pkey = 0x8005;
	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_SET, &t, CREATE_MASK, &r, NULL),
			  MAD_SA_ERR_REQ_INVALID);
	/* joining the IPoIB group with another Q_Key */
	t.pkey = 0xffff;
	sm_mcast_ipoib_mgid(0x7fff, t.mgid);
	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_SET, &t, CREATE_MASK, &r, NULL),
			  MAD_SA_ERR_REQ_INVALID);
	/* leaving what it never joined */
	ck_assert_uint_eq(leave(t.mgid, "H2", 1, MAD_MC_JOIN_FULL), MAD_SA_ERR_REQ_INVALID);
	ck_assert_uint_eq(leave(zero_mgid, "H2", 1, MAD_MC_JOIN_FULL), MAD_SA_ERR_REQ_INVALID);
	ck_assert_uint_eq(sm.sa->mcast.mlids, 1);
}
END_TEST

/* The LID the sweep gave @name's port 1. */
static uint16_t port1_lid(const char *name)
{
	uint32_t n = topo_find_guid(&sm.fabric.topo,
				    sim_fabric_topo(fab(&sm))->nodes[sim_node(name)].guid);

	ck_assert_uint_ne(n, TOPO_NONE);
	return sm.fabric.topo.nodes[n].ports[1].lid;
}

/* Proxy joins: a host joins and leaves for its own port only; for another
 * port it is refused (ERR_REQ_DENIED, nothing changed) unless its request
 * carries the SM_Key. */
START_TEST(proxy_joins_need_trust)
{
	struct mad_sa_mcmember_record r;
	uint8_t mgid[MAD_GID_LEN];

	asker_lid = port1_lid("H1");
	ck_assert_uint_ne(asker_lid, 0);
	ck_assert_uint_eq(join(zero_mgid, "H1", 1, MAD_MC_JOIN_FULL, &r), 0);
	memcpy(mgid, r.mgid, sizeof(mgid));
	const struct sm_mcast_group *g = sm_mcast_find(&sm.sa->mcast, mgid);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(join(mgid, "H2", 1, MAD_MC_JOIN_FULL, &r), MAD_SA_ERR_REQ_DENIED);
	ck_assert_uint_eq(g->n, 1);
	/* H2 joins for itself; H1 cannot make it leave */
	uint16_t h1 = asker_lid;
	asker_lid = port1_lid("H2");
	ck_assert_uint_eq(join(mgid, "H2", 1, MAD_MC_JOIN_FULL, &r), 0);
	ck_assert_uint_eq(g->n, 2);
	asker_lid = h1;
	ck_assert_uint_eq(leave(mgid, "H2", 1, MAD_MC_JOIN_FULL), MAD_SA_ERR_REQ_DENIED);
	ck_assert_uint_eq(g->n, 2);
	/* trusted: the SM_Key; a wrong key is not */
	sm.cfg.sm_key = 0x5a5a;
	asker_key = 0x5a5b;
	ck_assert_uint_eq(join(mgid, "H3", 1, MAD_MC_JOIN_FULL, &r), MAD_SA_ERR_REQ_DENIED);
	ck_assert_uint_eq(g->n, 2);
	asker_key = sm.cfg.sm_key;
	ck_assert_uint_eq(join(mgid, "H3", 1, MAD_MC_JOIN_FULL, &r), 0);
	ck_assert_uint_eq(leave(mgid, "H2", 1, MAD_MC_JOIN_FULL), 0);
	ck_assert_uint_eq(g->n, 2);
}
END_TEST

/* The MLIDs the fabric's MFTs hold run out: the SA makes groups until only
 * those kept for IPoIB are left (the spares, and one for an IPoIB partition
 * that has no group yet), which the SM's own broadcast groups still take. */
START_TEST(mlids_run_out)
{
	static const char *const hosts[] = { "H0", "H1", "H2", "H3" };
	struct sm_mcast *mc = &sm.sa->mcast;
	struct mad_sa_mcmember_record r;
	unsigned made = 0;

	ck_assert_uint_eq(mc->mlid_limit, 0xc3ff);	/* the sim's MFTs hold 1024 MLIDs */
	mc->mlid_limit = SM_MLID_FIRST + 99;		/* a switch holding 100 */
	struct sm_partitions *ps = &sm.sa->partitions;
	ck_assert(ps->p[0].ipoib);			/* the default's group: made at start */
	ck_assert_ptr_nonnull(ps->p = realloc(ps->p, (ps->n + 1) * sizeof(*ps->p)));
	ps->p[ps->n++] = (struct sm_partition){ .pkey = 0x0002, .ipoib = true };	/* none yet */
	for (size_t h = 0; h < 4; h++)
		while (join(zero_mgid, hosts[h], 1, MAD_MC_JOIN_FULL, &r) == 0)
			made++;
	ck_assert_uint_eq(made, 100 - 1 - 1 - SM_MCAST_SPARE_MLIDS);
	ck_assert_uint_eq(sm_mcast_mlids_free(mc), 1 + SM_MCAST_SPARE_MLIDS);
	ck_assert_uint_eq(join(zero_mgid, "HD", 1, MAD_MC_JOIN_FULL, &r), MAD_SA_ERR_NO_RESOURCES);
	ck_assert_int_eq(sm_mcast_partition(mc, &(struct sm_partition){ .pkey = 0x0002, .ipoib = true }, NULL), 0);	/* the kept MLID */
	for (uint16_t pkey = 3; pkey < 3 + SM_MCAST_SPARE_MLIDS; pkey++)
		ck_assert_int_eq(sm_mcast_partition(mc, &(struct sm_partition){ .pkey = pkey, .ipoib = true }, NULL), 0);	/* added by a reload */
	ck_assert_int_eq(sm_mcast_partition(mc, &(struct sm_partition){ .pkey = 0x0100, .ipoib = true }, NULL), -ENOSPC);
	ck_assert_uint_eq(mc->mlids, 100);
	ps->n--;
}
END_TEST

/* One host joining as a full member of one new group after another (1,023
 * MGIDs, as a probe did under ibsim) gets its share and no more: every
 * other host still makes groups, joins its own, and the refusals show in
 * the metrics. */
START_TEST(one_host_cannot_take_every_mlid)
{
	struct mad_sa_mcmember_record r;
	uint8_t mgid[MAD_GID_LEN] = { 0xff, 0x12, 0x60, 0x1b, 0xee };
	uint8_t h1_group[MAD_GID_LEN];
	unsigned refused = 0;

	for (unsigned i = 0; i < 1023; i++) {
		mgid[14] = (uint8_t)(i >> 8);
		mgid[15] = (uint8_t)i;
		uint16_t st = join(mgid, "H1", 1, MAD_MC_JOIN_FULL, &r);
		ck_assert(st == 0 || st == MAD_SA_ERR_NO_RESOURCES);
		refused += st != 0;
	}
	ck_assert_uint_eq(refused, 1023 - SM_MCAST_MAX_GROUPS_PER_PORT);
	ck_assert_uint_eq(sm_mcast_port_groups(&sm.sa->mcast, port_guid("H1", 1)),
			  SM_MCAST_MAX_GROUPS_PER_PORT);
	ck_assert_uint_eq(sm.sa->mcast.refused, refused);
	/* H1 joins no other host's group either, but the IPoIB broadcast group */
	ck_assert_uint_eq(join(zero_mgid, "H2", 1, MAD_MC_JOIN_FULL, &r), 0);
	memcpy(h1_group, r.mgid, MAD_GID_LEN);
	ck_assert_uint_eq(join(h1_group, "H1", 1, MAD_MC_JOIN_NON, &r), MAD_SA_ERR_NO_RESOURCES);
	uint8_t bcast[MAD_GID_LEN];
	sm_mcast_ipoib_mgid(0x7fff, bcast);
	struct mad_sa_mcmember_record j = { .join_state = MAD_MC_JOIN_FULL };
	memcpy(j.mgid, bcast, MAD_GID_LEN);
	gid_of(port_guid("H1", 1), j.port_gid);
	ck_assert_uint_eq(mcmr(MAD_SA_METHOD_SET, &j, JOIN_MASK, &r, NULL), 0);
	/* a group H1 is in takes more join bits; one it left frees its share */
	mgid[14] = 0;
	mgid[15] = 0;
	ck_assert_uint_eq(join(mgid, "H1", 1, MAD_MC_JOIN_SEND_ONLY, &r), 0);
	ck_assert_uint_eq(leave(mgid, "H1", 1, MAD_MC_JOIN_FULL | MAD_MC_JOIN_SEND_ONLY), 0);
	ck_assert_uint_eq(join(h1_group, "H1", 1, MAD_MC_JOIN_NON, &r), 0);
	/* every other host makes and joins groups of its own */
	for (unsigned i = 0; i < 8; i++) {
		ck_assert_uint_eq(join(zero_mgid, "H3", 1, MAD_MC_JOIN_FULL, &r), 0);
		ck_assert_uint_eq(join(r.mgid, "H0", 1, MAD_MC_JOIN_FULL, &r), 0);
	}
	/* the daemon's metrics file counts the refusals */
	char dir[] = "/tmp/check_sm_mcast.XXXXXX", want[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sm.cfg.metrics_file, sizeof(sm.cfg.metrics_file), "%s/ibsmd.prom", dir);
	sm_metrics_write(&sm, true);
	ck_assert_int_eq(sm_metrics_flush(&sm), 0);
	FILE *f = fopen(sm.cfg.metrics_file, "r");
	ck_assert_ptr_nonnull(f);
	char *text = NULL;
	size_t len = 0;
	ck_assert_int_ge(getdelim(&text, &len, '\0', f), 0);
	fclose(f);
	snprintf(want, sizeof(want), "\nibsmd_mcast_joins_refused_total %u\n", refused + 1);
	ck_assert_msg(strstr(text, want), "no '%s' in the metrics", want + 1);
	free(text);
	unlink(sm.cfg.metrics_file);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* ---- MFT entries another SM left ---- */

static struct sim_fabric *stale_fab;

/* twoswitch.topo brought up by an SM that then stops; another SM leaves
 * entries in both switches' MFTs (the switches without MulticastFDBTop when
 * @quirk says so); then a new SM process on the fabric sweeps once. */
static void stale_start(unsigned quirk)
{
	char err[256];

	asker_lid = 0;
	asker_key = 0;
	fixture_setup();
	ck_assert_int_eq(sim_fabric_load(topo_path("twoswitch.topo"), &stale_fab, err, sizeof(err)),
			 0);
	const struct topo *t = sim_fabric_topo(stale_fab);
	for (uint32_t n = 0; n < t->n; n++)
		if (t->nodes[n].type == MAD_NODE_SWITCH)
			ck_assert_int_eq(sim_node_set_quirks(stale_fab, n, quirk), 0);
	sm_start_on(&sm, stale_fab);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sm_close(&sm);
	for (uint32_t n = 0; n < t->n; n++) {
		if (t->nodes[n].type != MAD_NODE_SWITCH)
			continue;
		/* block 0 (the IPoIB group's), block 2, the last block */
		for (uint8_t p = 1; p <= 6; p++) {
			ck_assert_int_eq(sim_set_mft(stale_fab, n, 0xc005, p, true), 0);
			ck_assert_int_eq(sim_set_mft(stale_fab, n, 0xc040, p, true), 0);
			ck_assert_int_eq(sim_set_mft(stale_fab, n, 0xc3e0, p, true), 0);
		}
		ck_assert(sim_get_mft(stale_fab, n, 0xc3e0, 2));
	}
	sm_start_on(&sm, stale_fab);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sm_sa_index_build(&sm.sa->index, &sm.fabric), 0);
}

static void stale_teardown(void)
{
	sm_close(&sm);
	sim_fabric_free(stale_fab);
	fixture_teardown();
}

/* No stale MLID forwards anywhere; a group joined now reaches its members
 * only, the one at 0xC040 (a block the old SM used) too. */
static void assert_stale_gone(void)
{
	const struct topo *t = sim_fabric_topo(stale_fab);
	struct mad_sa_mcmember_record r;

	for (uint32_t n = 0; n < t->n; n++)
		for (uint8_t p = 0; t->nodes[n].type == MAD_NODE_SWITCH && p <= 8; p++) {
			ck_assert_msg(!sim_get_mft(stale_fab, n, 0xc005, p), "%s port %u", t->nodes[n].name, p);
			ck_assert_msg(!sim_get_mft(stale_fab, n, 0xc040, p), "%s port %u", t->nodes[n].name, p);
			ck_assert_msg(!sim_get_mft(stale_fab, n, 0xc3e0, p), "%s port %u", t->nodes[n].name, p);
		}
	/* groups up to 0xC040: the top rises over block 2 */
	for (int i = 0; i < 0x40; i++)
		ck_assert_uint_eq(join(zero_mgid, "H1", 1, MAD_MC_JOIN_FULL, &r), 0);
	ck_assert_uint_eq(r.mlid, 0xc040);
	ck_assert_uint_eq(join(r.mgid, "H2", 1, MAD_MC_JOIN_FULL, &r), 0);
	ck_assert_int_eq(sm_mcast_program(&sm), 0);
	reaches_exactly("H1", 1, 0xc040, (const char *const[]){ "H2:1", NULL });
	reaches_exactly("H3", 1, 0xc040, (const char *const[]){ "H1:1", "H2:1", NULL });
	reaches_exactly("H1", 1, 0xc005, (const char *const[]){ NULL });
	for (uint32_t n = 0; n < t->n; n++)
		for (uint8_t p = 0; t->nodes[n].type == MAD_NODE_SWITCH && p <= 8; p++)
			ck_assert(!sim_get_mft(stale_fab, n, 0xc3e0, p));
}

/* Switches with MulticastFDBTop (the sim's default): the blocks below the
 * top set whole, the top set to the last MLID in use. */
START_TEST(stale_mft_hidden_by_top)
{
	stale_start(0);
	struct mad_switch_info si;
	ck_assert_int_eq(sim_get_switch_info(stale_fab, sim_node("SA"), &si), 0);
	ck_assert_uint_eq(si.mft_top, 0xc01f);
	ck_assert_uint_gt(sm.sa->mcast.tops_set, 0);
	assert_stale_gone();
	ck_assert_int_eq(sim_get_switch_info(stale_fab, sim_node("SB"), &si), 0);
	ck_assert_uint_eq(si.mft_top, 0xc05f);
	stale_teardown();
}
END_TEST

/* Switches without it (ibsim's, older ones): every block of the MFT set at
 * first contact, the stale entries cleared. */
START_TEST(stale_mft_cleared_without_top)
{
	stale_start(SIM_QUIRK_NO_MFT_TOP);
	ck_assert_uint_eq(sm.sa->mcast.tops_set, 0);
	struct sim_stats st;
	sim_get_stats(stale_fab, &st);
	ck_assert_uint_ge(st.mft_block_sets, 2 * 1024 / 32);	/* the whole MFT of each */
	assert_stale_gone();
	stale_teardown();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_mcast");
	TCase *tc = tcase_create("codec");

	tcase_add_test(tc, codec_matches_libibmad);
	suite_add_tcase(s, tc);
	tc = tcase_create("sim");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, ipoib_broadcast_group);
	tcase_add_test(tc, tree_reaches_exactly_the_members);
	tcase_add_test(tc, send_only_full_member_creates);
	tcase_add_test(tc, join_leave_storm_no_mlid_leak);
	tcase_add_test(tc, bad_joins);
	tcase_add_test(tc, proxy_joins_need_trust);
	tcase_add_test(tc, mlids_run_out);
	tcase_add_test(tc, one_host_cannot_take_every_mlid);
	suite_add_tcase(s, tc);
	tc = tcase_create("stale");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, stale_mft_hidden_by_top);
	tcase_add_test(tc, stale_mft_cleared_without_top);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

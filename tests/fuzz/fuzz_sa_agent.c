// SPDX-License-Identifier: MIT
/*
 * fuzz_sa_agent.c - fuzz target: bytes from the fabric through the SA agent.
 *
 * A small fabric built in memory once (two switches, a loop between them to
 * make a bad LFT possible, three CAs, one with LMC 1 and one dual-ported) with
 * LFTs that route most LIDs and send one around the loop; every input is a MAD
 * given to sm_sa_answer(), with RMPP allowed, multicast groups to join and
 * leave and the default partition resolved.  Whatever the bytes: no crash,
 * any answer is a response to the same TID and attribute whose records stay
 * in the MAD, or in an RMPP message of whole records, and every multicast
 * group holds one MLID of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "sm/sa/sm_sa.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-sa";

static struct sm_fabric fabric;
static struct sm_routes routes;
static struct sm_sa_index index_;
static struct sm_sa_services services;	/* ServiceRecord Sets land here */
static struct sm_sa_informs informs;	/* and InformInfo subscriptions */
static struct sm_sa_source src;
static struct sm_mcast mcast;
static struct sm_partitions parts;
static struct sm_pkey_ports pkeys;

#define NLIDS 16

static void link_up(uint32_t a, uint8_t pa, uint32_t b, uint8_t pb)
{
	struct topo_port *x = &fabric.topo.nodes[a].ports[pa];
	struct topo_port *y = &fabric.topo.nodes[b].ports[pb];

	if (topo_link(&fabric.topo, a, pa, b, pb))
		abort();
	x->state = y->state = MAD_PORT_ACTIVE;
	x->width = y->width = 2;	/* 4x */
	x->speed = y->speed = 4;	/* QDR */
	fabric.attrs[a].pi_valid[pa] = fabric.attrs[b].pi_valid[pb] = true;
	fabric.attrs[a].pi[pa].neighbor_mtu = 5;
	fabric.attrs[b].pi[pb].neighbor_mtu = 4;
	fabric.attrs[a].pi[pa].port_state = MAD_PORT_ACTIVE;
}

static void build(void)
{
	sm_fabric_init(&fabric);
	uint32_t s0 = sm_fabric_add_node(&fabric, MAD_NODE_SWITCH, 4, 0x100);
	uint32_t s1 = sm_fabric_add_node(&fabric, MAD_NODE_SWITCH, 4, 0x200);
	uint32_t h0 = sm_fabric_add_node(&fabric, MAD_NODE_CA, 1, 0x300);
	uint32_t h1 = sm_fabric_add_node(&fabric, MAD_NODE_CA, 1, 0x400);
	uint32_t hd = sm_fabric_add_node(&fabric, MAD_NODE_CA, 2, 0x500);
	if (hd == TOPO_NONE)
		abort();
	link_up(s0, 1, h0, 1);
	link_up(s1, 1, h1, 1);
	link_up(s0, 2, s1, 2);
	link_up(s0, 3, s1, 3);
	link_up(s0, 4, hd, 1);
	link_up(s1, 4, hd, 2);
	static const struct { uint32_t n; uint8_t p; uint16_t lid; uint8_t lmc; } lids[] = {
		{ 0, 0, 1, 0 }, { 1, 0, 2, 0 }, { 2, 1, 4, 1 }, { 3, 1, 6, 0 },
		{ 4, 1, 7, 0 }, { 4, 2, 8, 0 },
	};
	for (size_t i = 0; i < sizeof(lids) / sizeof(lids[0]); i++) {
		struct topo_node *n = &fabric.topo.nodes[lids[i].n];
		n->ports[lids[i].p].lid = lids[i].lid;
		n->ports[lids[i].p].lmc = lids[i].lmc;
		n->ports[lids[i].p].guid = n->guid + lids[i].p;
		fabric.attrs[lids[i].n].pi_valid[lids[i].p] = true;
	}
	routes.max_lid = NLIDS - 1;
	routes.nnodes = fabric.topo.n;
	routes.lft = calloc(fabric.topo.n, sizeof(*routes.lft));
	if (!routes.lft)
		abort();
	/* s0: 1 home, 2 to s1, 4-5 h0, 6 to s1, 7 hd, 8 to s1; s1 sends 6 (h1)
	 * back to s0: a loop; 9 nobody owns */
	static const uint8_t lft0[NLIDS] = { 0xff, 0, 2, 0xff, 1, 1, 2, 4, 2, 3 };
	static const uint8_t lft1[NLIDS] = { 0xff, 2, 0, 0xff, 2, 2, 3, 2, 4, 3 };
	for (int s = 0; s < 2; s++) {
		routes.lft[s] = malloc(64);
		if (!routes.lft[s])
			abort();
		memset(routes.lft[s], 0xff, 64);
		memcpy(routes.lft[s], s ? lft1 : lft0, NLIDS);
	}
	if (sm_sa_index_build(&index_, &fabric))
		abort();
	sm_mcast_init(&mcast);
	if (sm_partitions_default(&parts) || sm_pkey_ports_build(&parts, &fabric, "fuzz", &pkeys))
		abort();
	src = (struct sm_sa_source){ .f = &fabric, .ix = &index_, .routes = &routes,
				     .subnet_prefix = 0xfe80000000000000ULL, .rmpp = true,
				     .pkeys = &pkeys, .partitions = &parts, .mcast = &mcast,
				     .services = &services, .informs = &informs,
				     .requester_lid = 6 };
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sm_sa_counts counts;
	struct sm_sa_reply out;

	if (!src.f)
		build();
	if (!sm_sa_answer(&src, data, size, &out, &counts))
		return 0;
	if (!(out.mad[3] & 0x80) || memcmp(out.mad + 8, data + 8, 10))	/* TID, attribute */
		abort();
	struct mad_sa resp;
	if (mad_sa_decode(out.mad, sizeof(out.mad), &resp))
		abort();
	size_t stride = (size_t)resp.attr_offset * MAD_SA_ATTR_OFFSET_UNIT;
	if (resp.attr_offset && stride < mad_sa_record_size(resp.attr_id))
		abort();
	if (out.msg && (resp.status || !stride || out.len < MAD_SA_DATA_OFFSET ||
			(out.len - MAD_SA_DATA_OFFSET) % stride ||
			memcmp(out.msg, out.mad, MAD_SA_DATA_OFFSET)))
		abort();
	sm_sa_reply_free(&out);
	if (mcast.mlids != mcast.n)	/* an MLID leaked, or two groups share one */
		abort();
	return 0;
}

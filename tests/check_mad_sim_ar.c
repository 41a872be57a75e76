// SPDX-License-Identifier: MIT
/*
 * check_mad_sim_ar.c - adaptive routing on the simulated switches
 * (mad_sim_ar.c), driven with encoded SMPs through the sim transport: the
 * topology file's `ar`, the answers of switches without AR, the three
 * attributes Get and Set, and the strictness of hardware (what is refused
 * leaves the switch as it was).
 *
 * Fabric: tests/topo/ar.topo, H0 - S1 (AR) = S2 (no AR) - H3.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_ar.h"
#include "mad/sim/mad_sim.h"
#include "mad/mad_smp.h"
#include "tests/check_util.h"

enum { H0, S1, S2, H3 };

static const uint8_t to_s1[] = { 1 };
static const uint8_t to_s2[] = { 1, 2 };

static struct sim_fabric *fab;
static struct mad_transport *tr;

static void setup(void)
{
	char path[4096], err[256] = "";
	const char *d = getenv("top_srcdir");

	snprintf(path, sizeof(path), "%s/tests/topo/ar.topo", d ? d : ".");
	ck_assert_msg(sim_fabric_load(path, &fab, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(sim_transport_new(fab, &tr), 0);
}

static void teardown(void)
{
	mad_transport_close(tr);
	sim_fabric_free(fab);
}

/* One SMP by directed route along @hops ports of @path; its status (or -1
 * when lost), the answer's payload in @out (may be NULL). */
static int smp(const uint8_t *path, size_t hops, uint8_t method, uint16_t attr, uint32_t mod,
	       const uint8_t *data, uint8_t *out)
{
	struct topo_path p = { 0 };
	struct mad_smp req, resp;
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr to = { .lid = MAD_LID_PERMISSIVE }, from;

	for (size_t i = 0; i < hops; i++)
		ck_assert_int_eq(mad_drpath_push(&p, path[i]), 0);
	mad_smp_init_dr(&req, method, attr, mod, &p);
	req.tid = 0x4200 + attr;
	if (data)
		memcpy(req.data, data, SMP_DATA_SIZE);
	mad_smp_encode(&req, buf);
	ck_assert_int_eq(tr->ops->send(tr, buf, &to), 0);
	if (mad_transport_recv_mad(tr, buf, &from, 0))
		return -1;
	ck_assert_int_eq(mad_smp_decode(buf, sizeof(buf), &resp), 0);
	ck_assert_int_eq(resp.tid, req.tid);
	if (out)
		memcpy(out, resp.data, SMP_DATA_SIZE);
	return resp.status;
}

static int s1(uint8_t method, uint16_t attr, uint32_t mod, const uint8_t *data, uint8_t *out)
{
	return smp(to_s1, 1, method, attr, mod, data, out);
}

static int info_set(const struct mad_ar_info *ai, struct mad_ar_info *got)
{
	uint8_t data[SMP_DATA_SIZE], out[SMP_DATA_SIZE];

	ck_assert_int_eq(mad_ar_info_encode(ai, data), 0);
	int st = s1(MAD_METHOD_SET, MAD_ATTR_AR_INFO, 0, data, out);
	if (st == 0 && got)
		ck_assert_int_eq(mad_ar_info_decode(out, got), 0);
	return st;
}

static int group_set(uint32_t mod, unsigned slot, const uint64_t *ports)
{
	struct mad_ar_group_block gb = { 0 };
	uint8_t data[SMP_DATA_SIZE];

	memcpy(gb.group[slot].ports, ports, sizeof(gb.group[slot].ports));
	mad_ar_group_encode(&gb, data);
	return s1(MAD_METHOD_SET, MAD_ATTR_AR_GROUP_TABLE, mod, data, NULL);
}

static int lft_set(uint32_t block, const struct mad_ar_lft_entry *e0)
{
	struct mad_ar_lft_block lb;
	uint8_t data[SMP_DATA_SIZE];

	for (unsigned i = 0; i < MAD_AR_LFT_PER_BLOCK; i++)
		lb.e[i] = (struct mad_ar_lft_entry){ .default_port = 1, .state = MAD_AR_STATIC };
	lb.e[3] = *e0;
	ck_assert_int_eq(mad_ar_lft_encode(&lb, data), 0);
	return s1(MAD_METHOD_SET, MAD_ATTR_AR_LFT, block, data, NULL);
}

START_TEST(only_marked_switches_answer)
{
	const struct topo *t = sim_fabric_topo(fab);
	struct mad_ar_info ai;
	uint8_t out[SMP_DATA_SIZE];

	ck_assert(t->nodes[S1].ar_capable);
	ck_assert(!t->nodes[S2].ar_capable && !t->nodes[H0].ar_capable);
	/* S2 and the CA: "unsupported method/attribute", as a switch without AR */
	for (uint16_t a = MAD_ATTR_AR_INFO; a <= MAD_ATTR_AR_LFT; a++) {
		ck_assert_int_eq(smp(to_s2, 2, MAD_METHOD_GET, a, 0, NULL, NULL),
				 MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
		ck_assert_int_eq(smp(NULL, 0, MAD_METHOD_GET, a, 0, NULL, NULL),
				 MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	}
	ck_assert_int_eq(sim_get_ar_info(fab, S2, &ai), -EOPNOTSUPP);
	/* S1: the capabilities */
	ck_assert_int_eq(s1(MAD_METHOD_GET, MAD_ATTR_AR_INFO, 0, NULL, out), 0);
	ck_assert_int_eq(mad_ar_info_decode(out, &ai), 0);
	ck_assert_uint_eq(ai.group_cap, 256);
	ck_assert_uint_eq(ai.group_table_cap, 1);
	ck_assert(ai.fr_supported && ai.by_sl_cap && !ai.enable && !ai.fr_enable);
	ck_assert_uint_eq(ai.sub_grps_supported, 3);
	/* sim_node_set_ar turns it off and on */
	ck_assert_int_eq(sim_node_set_ar(fab, S1, false), 0);
	ck_assert_int_eq(s1(MAD_METHOD_GET, MAD_ATTR_AR_INFO, 0, NULL, NULL),
			 MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	ck_assert_int_eq(sim_node_set_ar(fab, H0, true), -EINVAL);
	ck_assert_int_eq(sim_node_set_ar(fab, S2, true), 0);
	ck_assert_int_eq(smp(to_s2, 2, MAD_METHOD_GET, MAD_ATTR_AR_INFO, 0, NULL, NULL), 0);
}
END_TEST

START_TEST(info_set_strict)
{
	struct mad_ar_info ai, got;

	sim_get_ar_info(fab, S1, &ai);
	ai.enable = true;
	ai.fr_enable = true;
	ai.group_top = 7;
	ai.group_cap = 9;		/* read-only: the answer shows the real cap */
	ck_assert_int_eq(info_set(&ai, &got), 0);
	ck_assert(got.enable && got.fr_enable);
	ck_assert_uint_eq(got.group_top, 7);
	ck_assert_uint_eq(got.group_cap, 256);
	/* a top past the cap, a non-zero modifier: refused, nothing changes */
	ai.group_cap = 4095;
	ai.group_top = 256;
	ai.enable = false;
	ck_assert_int_eq(info_set(&ai, NULL), MAD_STATUS_INVALID_FIELD);
	sim_get_ar_info(fab, S1, &got);
	ck_assert(got.enable);
	ck_assert_uint_eq(got.group_top, 7);
	ck_assert_int_eq(s1(MAD_METHOD_GET, MAD_ATTR_AR_INFO, 1, NULL, NULL),
			 MAD_STATUS_INVALID_FIELD);
	/* more sub-groups active than supported */
	ai.group_top = 1;
	ai.sub_grps_active = 4;
	ck_assert_int_eq(info_set(&ai, NULL), MAD_STATUS_INVALID_FIELD);
}
END_TEST

START_TEST(group_table_strict)
{
	const uint64_t ports23[4] = { 1u << 2 | 1u << 3 };
	const uint64_t port5[4] = { 1u << 5 }, port0[4] = { 1 }, port64[4] = { 0, 1 };
	uint64_t got[4];
	uint8_t out[SMP_DATA_SIZE];
	struct mad_ar_group_block gb;

	ck_assert_int_eq(group_set(mad_ar_group_mod(0), 1, ports23), 0);	/* group 1 */
	ck_assert_int_eq(sim_get_ar_group(fab, S1, 1, got), 0);
	ck_assert(!memcmp(got, ports23, sizeof(got)));
	ck_assert_int_eq(s1(MAD_METHOD_GET, MAD_ATTR_AR_GROUP_TABLE, 0, NULL, out), 0);
	mad_ar_group_decode(out, &gb);
	ck_assert(!memcmp(gb.group[1].ports, ports23, sizeof(got)));
	ck_assert_uint_eq(gb.group[0].ports[0], 0);
	/* the last block, and one past the cap of 256 groups */
	ck_assert_int_eq(group_set(127, 1, ports23), 0);
	ck_assert_int_eq(sim_get_ar_group(fab, S1, 255, got), 0);
	ck_assert_uint_eq(got[0], ports23[0]);
	ck_assert_int_eq(group_set(128, 0, ports23), MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(group_set(MAD_AR_GROUP_MAX_BLOCK, 0, ports23), MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(sim_get_ar_group(fab, S1, 256, got), -EINVAL);
	/* another table, another private LFT */
	ck_assert_int_eq(group_set(1u << 16, 0, ports23), MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(group_set(1u << 24, 0, ports23), MAD_STATUS_INVALID_FIELD);
	/* ports the switch lacks, port 0, a sub-group not active: refused,
	 * the block (group 1 too) as it was */
	ck_assert_int_eq(group_set(0, 0, port5), MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(group_set(0, 0, port0), MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(group_set(0, 0, port64), MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(sim_get_ar_group(fab, S1, 0, got), 0);
	ck_assert_uint_eq(got[0], 0);
	ck_assert_int_eq(sim_get_ar_group(fab, S1, 1, got), 0);
	ck_assert_uint_eq(got[0], ports23[0]);
}
END_TEST

START_TEST(ar_lft_strict_and_static_ports)
{
	struct mad_ar_info ai;
	struct mad_ar_lft_entry e = { .group = 2, .default_port = 3, .state = MAD_AR_BOUNDED }, got;
	struct sim_stats st;

	/* group 2 past group_top 0: refused, nothing written */
	ck_assert_int_eq(lft_set(1, &e), MAD_STATUS_INVALID_FIELD);
	ck_assert_uint_eq(sim_get_lft(fab, S1, 16 + 3), MAD_LFT_NO_PORT);
	sim_get_ar_info(fab, S1, &ai);
	ai.group_top = 2;
	ck_assert_int_eq(info_set(&ai, NULL), 0);
	ck_assert_int_eq(lft_set(1, &e), 0);
	/* the default port is the LFT's entry, the others of the block too */
	ck_assert_uint_eq(sim_get_lft(fab, S1, 19), 3);
	ck_assert_uint_eq(sim_get_lft(fab, S1, 16), 1);
	ck_assert_int_eq(sim_get_ar_lft(fab, S1, 19, &got), 0);
	ck_assert_uint_eq(got.group, 2);
	ck_assert_uint_eq(got.state, MAD_AR_BOUNDED);
	ck_assert_int_eq(sim_get_ar_lft(fab, S1, 16, &got), 0);
	ck_assert_uint_eq(got.state, MAD_AR_STATIC);
	/* Get answers the same */
	uint8_t out[SMP_DATA_SIZE];
	struct mad_ar_lft_block lb;
	ck_assert_int_eq(s1(MAD_METHOD_GET, MAD_ATTR_AR_LFT, 1, NULL, out), 0);
	ck_assert_int_eq(mad_ar_lft_decode(out, &lb), 0);
	ck_assert_uint_eq(lb.e[3].group, 2);
	ck_assert_uint_eq(lb.e[3].default_port, 3);
	/* a port past the switch's, another table, a block past the LFT cap, a
	 * reserved state, another private LFT: refused */
	struct mad_ar_lft_entry bad = e;
	bad.default_port = 5;
	ck_assert_int_eq(lft_set(1, &bad), MAD_STATUS_INVALID_FIELD);
	bad = e;
	bad.table = 1;
	ck_assert_int_eq(lft_set(1, &bad), MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(lft_set(49152 / 16, &e), MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(lft_set(1u << 24 | 1, &e), MAD_STATUS_INVALID_FIELD);
	uint8_t raw[SMP_DATA_SIZE] = { 0xc0 };	/* entry 0 in state 3 */
	ck_assert_int_eq(s1(MAD_METHOD_SET, MAD_ATTR_AR_LFT, 1, raw, NULL),
			 MAD_STATUS_INVALID_FIELD);
	ck_assert_uint_eq(sim_get_lft(fab, S1, 19), 3);
	/* a static entry keeps no group; a plain LFT Set shows as default port */
	e.state = MAD_AR_STATIC;
	e.default_port = 2;
	ck_assert_int_eq(lft_set(1, &e), 0);
	sim_get_ar_lft(fab, S1, 19, &got);
	ck_assert_uint_eq(got.group, 0);
	ck_assert_uint_eq(got.default_port, 2);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.ar_lft_sets, 2);
	ck_assert_uint_eq(st.ar_info_sets, 1);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("mad_sim_ar");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, only_marked_switches_answer);
	tcase_add_test(tc, info_set_strict);
	tcase_add_test(tc, group_table_strict);
	tcase_add_test(tc, ar_lft_strict_and_static_ports);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

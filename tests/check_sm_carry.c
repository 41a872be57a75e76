// SPDX-License-Identifier: MIT
/*
 * check_sm_carry.c - what a lost MAD hid, carried over from the last sweep:
 * a lost NodeDescription answer keeps the description the node had, where a
 * blank one used to be stored; a link whose probe was lost is kept unless
 * an end of it was asked and has no link (sm_carry.c).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "sm/sweep/sm_carry.h"
#include "tests/check_util.h"

static uint32_t add(struct sm_fabric *f, uint64_t guid, const char *desc, bool answered)
{
	uint32_t n = sm_fabric_add_node(f, MAD_NODE_CA, 1, guid);

	ck_assert_uint_ne(n, TOPO_NONE);
	snprintf(f->topo.nodes[n].desc, sizeof(f->topo.nodes[n].desc), "%s", desc);
	f->attrs[n].nd_valid = answered;
	return n;
}

START_TEST(lost_node_description_keeps_the_old_one)
{
	struct sm_fabric last, now;

	sm_fabric_init(&last);
	add(&last, 0x10, "node01 mlx5_0", true);
	add(&last, 0x11, "node02 mlx5_0", true);
	add(&last, 0x12, "node03 mlx5_0", true);
	sm_fabric_init(&now);
	uint32_t lost = add(&now, 0x10, "", false);	/* its answer was lost */
	uint32_t renamed = add(&now, 0x11, "node02 renamed", true);
	uint32_t blank = add(&now, 0x12, "", true);	/* it answered: blank it is */
	uint32_t fresh = add(&now, 0x13, "", false);	/* new, nothing to carry */

	ck_assert_uint_eq(sm_carry_descs(&now, &last), 1);
	ck_assert_str_eq(now.topo.nodes[lost].desc, "node01 mlx5_0");
	ck_assert_str_eq(now.topo.nodes[renamed].desc, "node02 renamed");
	ck_assert_str_eq(now.topo.nodes[blank].desc, "");
	ck_assert_str_eq(now.topo.nodes[fresh].desc, "");
	sm_fabric_free(&now);
	sm_fabric_free(&last);
}
END_TEST

/* A dual-port CA (the SM's own node, after it moved to port 2): reached by
 * port 2, so never asked about port 1; the switch at the other end of port 1
 * says that link is down.  The link is gone, not hidden by a lost probe; a
 * link whose ends were both not asked is kept. */
START_TEST(link_down_at_the_switch_end_is_not_carried)
{
	struct sm_fabric last, now;

	sm_fabric_init(&last);
	sm_fabric_init(&now);
	for (int i = 0; i < 2; i++) {
		struct sm_fabric *f = i ? &now : &last;
		ck_assert_uint_eq(sm_fabric_add_node(f, MAD_NODE_CA, 2, 0x10), 0);
		ck_assert_uint_eq(sm_fabric_add_node(f, MAD_NODE_SWITCH, 4, 0x20), 1);
		ck_assert_uint_eq(sm_fabric_add_node(f, MAD_NODE_SWITCH, 4, 0x30), 2);
		ck_assert_uint_eq(sm_fabric_add_node(f, MAD_NODE_CA, 1, 0x40), 3);
		ck_assert_int_eq(topo_link(&f->topo, 0, 2, 2, 1), 0);
		ck_assert_int_eq(topo_link(&f->topo, 1, 2, 2, 2), 0);
	}
	ck_assert_int_eq(topo_link(&last.topo, 0, 1, 1, 1), 0);	/* the SM's port 1 */
	ck_assert_int_eq(topo_link(&last.topo, 3, 1, 1, 3), 0);	/* a host's */
	now.attrs[1].pi_valid[1] = true;			/* S1[1]: no link */
	now.topo.nodes[1].ports[1].phys_state = MAD_PHYS_POLLING;
	ck_assert_uint_eq(sm_carry_links(&now, &last), 1);	/* the host's, lost probe */
	ck_assert_uint_eq(now.topo.nodes[0].ports[1].peer, TOPO_NONE);
	ck_assert_uint_eq(now.topo.nodes[3].ports[1].peer, 1);
	sm_fabric_free(&now);
	sm_fabric_free(&last);
}
END_TEST

static Suite *carry_suite(void)
{
	Suite *s = suite_create("sm_carry");
	TCase *tc = tcase_create("carry");

	tcase_add_test(tc, lost_node_description_keeps_the_old_one);
	tcase_add_test(tc, link_down_at_the_switch_end_is_not_carried);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(carry_suite)

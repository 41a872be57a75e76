// SPDX-License-Identifier: MIT
/*
 * check_sm_carry.c - what a lost MAD hid, carried over from the last sweep:
 * a lost NodeDescription answer keeps the description the node had, where a
 * blank one used to be stored (sm_carry.c).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "sm/sm_carry.h"
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

static Suite *carry_suite(void)
{
	Suite *s = suite_create("sm_carry");
	TCase *tc = tcase_create("carry");

	tcase_add_test(tc, lost_node_description_keeps_the_old_one);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(carry_suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_lid.c - the LID manager on hand-made fabrics: deterministic fresh
 * ranges, LMC alignment, LIDs honoured from the fabric only when valid, unique
 * and aligned, the persistent map first, and LIDs of absent ports held back;
 * a corrupted map is an error that names the store.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sm/sweep/sm_lid.h"
#include "tests/check_db_fixture.h"
#include "tests/check_util.h"

/* One switch (GUID 0x100) and @ncas single-port CAs (GUIDs 0x200 + i) on it,
 * each CA port holding the LID @lids[i] (0: none). */
static void make_fabric(struct sm_fabric *f, unsigned ncas, const uint16_t *lids)
{
	sm_fabric_init(f);
	uint32_t sw = sm_fabric_add_node(f, MAD_NODE_SWITCH, 8, 0x100);
	f->topo.nodes[sw].ports[0].guid = 0x100;
	f->attrs[sw].pi_valid[0] = true;
	for (unsigned i = 0; i < ncas; i++) {
		uint32_t n = sm_fabric_add_node(f, MAD_NODE_CA, 1, 0x200 + i);
		f->topo.nodes[n].ports[1].guid = 0x1200 + i;
		f->attrs[n].pi_valid[1] = true;
		f->attrs[n].pi[1].lid = lids ? lids[i] : 0;
		ck_assert_int_eq(topo_link(&f->topo, sw, (uint8_t)(i + 1), n, 1), 0);
	}
}

static uint16_t lid_of(const struct sm_fabric *f, uint64_t node_guid, uint8_t port)
{
	return f->topo.nodes[topo_find_guid(&f->topo, node_guid)].ports[port].lid;
}

START_TEST(fresh_ranges_are_aligned_and_deterministic)
{
	struct sm_fabric f;
	struct sm_lid_plan plan;
	char err[128];

	make_fabric(&f, 3, NULL);
	ck_assert_int_eq(sm_lid_assign(&f, 2, NULL, &plan, err, sizeof(err)), 0);
	/* GUID order: switch port 0x100 first with one LID, then CA ports by GUID */
	ck_assert_uint_eq(lid_of(&f, 0x100, 0), 1);
	ck_assert_uint_eq(f.topo.nodes[0].ports[0].lmc, 0);
	ck_assert_uint_eq(lid_of(&f, 0x200, 1), 4);
	ck_assert_uint_eq(lid_of(&f, 0x201, 1), 8);
	ck_assert_uint_eq(lid_of(&f, 0x202, 1), 12);
	ck_assert_uint_eq(plan.max_lid, 15);
	ck_assert_uint_eq(plan.fresh, 4);
	sm_lid_plan_free(&plan);
	sm_fabric_free(&f);
}
END_TEST

START_TEST(fabric_lids_honoured_only_when_sound)
{
	/* CA0 7 (fine at LMC 0), CA1 7 again (duplicate), CA2 0xc000 (multicast),
	 * CA3 9 (fine) */
	const uint16_t lids[] = { 7, 7, 0xc000, 9 };
	struct sm_fabric f;
	struct sm_lid_plan plan;
	char err[128];

	make_fabric(&f, 4, lids);
	ck_assert_int_eq(sm_lid_assign(&f, 0, NULL, &plan, err, sizeof(err)), 0);
	ck_assert_uint_eq(lid_of(&f, 0x200, 1), 7);
	ck_assert_uint_eq(lid_of(&f, 0x203, 1), 9);
	uint16_t dup = lid_of(&f, 0x201, 1), mc = lid_of(&f, 0x202, 1);
	ck_assert(dup != 7 && dup != 9 && dup != 0);
	ck_assert(mc != 7 && mc != 9 && mc != dup && mc <= MAD_MAX_UCAST_LID);
	ck_assert_uint_eq(plan.kept_from_fabric, 2);
	sm_lid_plan_free(&plan);

	/* at LMC 1, 7 and 9 are not aligned: nothing is kept */
	sm_fabric_free(&f);
	make_fabric(&f, 4, lids);
	ck_assert_int_eq(sm_lid_assign(&f, 1, NULL, &plan, err, sizeof(err)), 0);
	ck_assert_uint_eq(plan.kept_from_fabric, 0);
	ck_assert_uint_eq(lid_of(&f, 0x200, 1) % 2, 0);
	sm_lid_plan_free(&plan);
	sm_fabric_free(&f);
}
END_TEST

START_TEST(map_first_and_absent_ports_held)
{
	char dir[] = "/tmp/ibsmd-lid-XXXXXX", path[64], err[256];
	struct sm_fabric f;
	struct sm_lid_plan plan;
	struct db *db;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/l.db", dir);
	ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), 0);
	ck_assert_int_eq(db_lids_save(db, 0x1200, 40, 0), 0);	/* CA0 had 40 */
	ck_assert_int_eq(db_lids_save(db, 0x9999, 1, 0), 0);	/* a port now away had 1 */

	const uint16_t lids[] = { 5, 0 };	/* the fabric says CA0 has 5 */
	make_fabric(&f, 2, lids);
	ck_assert_int_eq(sm_lid_assign(&f, 0, db, &plan, err, sizeof(err)), 0);
	ck_assert_uint_eq(lid_of(&f, 0x200, 1), 40);	/* the map wins */
	ck_assert_uint_ne(lid_of(&f, 0x100, 0), 1);	/* 1 is held for the absent port */
	ck_assert_uint_ne(lid_of(&f, 0x201, 1), 1);
	ck_assert_uint_eq(plan.kept_from_map, 1);
	size_t changed = 0;
	for (size_t i = 0; i < plan.n; i++)
		changed += plan.ep[i].map_changed;
	ck_assert_uint_eq(changed, 2);	/* the switch and CA1 are new to the map */
	sm_lid_plan_free(&plan);
	sm_fabric_free(&f);
	db_close(db);
	snprintf(err, sizeof(err), "rm -rf %s", dir);
	ck_assert_int_eq(system(err), 0);
}
END_TEST

/* A corrupted LID map: the error names the store and says what is wrong. */
START_TEST(corrupt_map_is_named)
{
	char *path = fix_tmp_path(), err[512];
	struct sm_fabric f;
	struct sm_lid_plan plan;
	struct db *db;

	ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), 0);
	for (uint64_t g = 1; g <= 200; g++)
		ck_assert_int_eq(db_lids_save(db, 0x5000 + g, (uint16_t)g, 0), 0);
	db_close(db);
	fix_corrupt_table(path, "lids");
	ck_assert_int_eq(db_open(path, DB_WRITER, &db, err, sizeof(err)), 0);
	make_fabric(&f, 2, NULL);
	ck_assert_int_eq(sm_lid_assign(&f, 0, db, &plan, err, sizeof(err)), -EBADMSG);
	ck_assert_msg(strstr(err, path) && strstr(err, "reading the LID map") &&
		      strstr(err, "malformed") && strstr(err, "the file is damaged"), "%s", err);
	sm_lid_plan_free(&plan);
	sm_fabric_free(&f);
	db_close(db);
	fix_tmp_free(path);
}
END_TEST

static Suite *lid_suite(void)
{
	Suite *s = suite_create("sm_lid");
	TCase *tc = tcase_create("lid");

	tcase_add_test(tc, fresh_ranges_are_aligned_and_deterministic);
	tcase_add_test(tc, fabric_lids_honoured_only_when_sound);
	tcase_add_test(tc, map_first_and_absent_ports_held);
	tcase_add_test(tc, corrupt_map_is_named);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(lid_suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_osm_guid2lid.c - OpenSM's guid2lid file (sm/osm/sm_osm_guid2lid.c):
 * read as OpenSM writes it, each bad file refused with its line, seeded into
 * a store's LID map only while the map is empty, and a cold sweep of the sim
 * fabric (every port without a LID) giving every port the LID the file names,
 * where without it the LID manager would have numbered them its own way.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/model/topofile.h"
#include "sm/osm/sm_osm_guid2lid.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"

static char path[300];

static void write_file(const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void setup(void)
{
	fixture_setup();
	snprintf(path, sizeof(path), "%s/guid2lid", dbdir);
}

START_TEST(read_as_opensm_writes_it)
{
	const char text[] = "0x02000002000000b0 0x0022 0x0022\n\n"
			    "0x0200000100000181 0x001b 0x001b\n\n"
			    "# not OpenSM's, but a comment is let through\n"
			    "  0x10 0x0004 0x0007\n\n12 40 40\r\n";
	struct sm_osm_lid *e;
	char err[512];
	size_t n;

	write_file(text, sizeof(text) - 1);
	ck_assert_msg(sm_osm_guid2lid_read(path, &e, &n, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(e[0].guid, 0x02000002000000b0ull);
	ck_assert_uint_eq(e[0].lid, 0x22);
	ck_assert_uint_eq(e[0].lmc, 0);
	ck_assert_uint_eq(e[2].guid, 0x10);
	ck_assert_uint_eq(e[2].lid, 4);
	ck_assert_uint_eq(e[2].lmc, 2);		/* 4..7: LMC 2 */
	ck_assert_uint_eq(e[3].guid, 12);
	ck_assert_uint_eq(e[3].lid, 40);
	free(e);
}
END_TEST

#define B(t, e) { t, sizeof(t) - 1, e }
static const struct {
	const char *text;
	size_t len;
	const char *err;
} bad[] = {
	B("0x10 0x0001\n", ":1: expected PORTGUID MINLID MAXLID"),
	B("0x10 0x0001 0x0001\n\n0x11 1 1 x\n", ":3: expected PORTGUID MINLID MAXLID"),
	B("0x10 0x0001 0x0001 # c\n", ":1: expected PORTGUID MINLID MAXLID"),
	B("guid 1 1\n", ":1: expected PORTGUID"),
	B("0x0 0x0001 0x0001\n", ":1: port GUID 0 names no port"),
	B("0x10 0x0000 0x0000\n", ":1: LIDs 0x0000..0x0000: not a unicast range"),
	B("0x10 0xc000 0xc000\n", ":1: LIDs 0xc000..0xc000: not a unicast range"),
	B("0x10 0x0005 0x0004\n", ":1: LIDs 0x0005..0x0004: not a unicast range"),
	B("0x10 0x0004 0x0006\n", ":1: LIDs 0x0004..0x0006: not 2^LMC LIDs"),
	B("0x10 0x0005 0x0006\n", ":1: LIDs 0x0005..0x0006: not 2^LMC LIDs"),
	B("0x10 0x0100 0x01ff\n", ":1: LIDs 0x0100..0x01ff: not 2^LMC LIDs (at most 128)"),
	B("0x10 010 010\n", ":1: expected PORTGUID"),
	B("0x10 0x10000 0x10000\n", ":1: expected PORTGUID"),
	B("0x10 1 1\n\n0x10 2 2\n", ": port GUID 0x0000000000000010 is given twice"),
	B("0x10 0x4 0x7\n\n0x11 6 6\n", ": LID 0x0006 is given to 0x0000000000000010 and 0x0000000000000011"),
	B("0x10 1 1\n\0x11 2 2\n", ":2: a NUL byte"),
};

START_TEST(bad_files_refused)
{
	struct sm_osm_lid *e = NULL;
	char err[512], want[400];
	size_t n = 0;

	write_file(bad[_i].text, bad[_i].len);
	ck_assert_int_eq(sm_osm_guid2lid_read(path, &e, &n, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s%s", path, bad[_i].err);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "got '%s', want '%s'", err, want);
	ck_assert_ptr_null(e);
}
END_TEST

START_TEST(worst_paths_refused)
{
	struct sm_osm_lid *e = NULL;
	char err[512], big[400];
	size_t n;

	ck_assert_int_eq(sm_osm_guid2lid_read("/nonexistent/guid2lid", &e, &n, err, sizeof(err)),
			 -ENOENT);
	ck_assert_int_eq(sm_osm_guid2lid_read(dbdir, &e, &n, err, sizeof(err)), -EINVAL);
	/* a line past OpenSM's own 1024 bytes */
	memset(big, ' ', sizeof(big));
	write_file("0x10 1 1\n", 9);
	FILE *f = fopen(path, "a");
	for (int i = 0; i < 4; i++)
		fwrite(big, 1, sizeof(big), f);
	fputs("0x11 2 2\n", f);
	fclose(f);
	ck_assert_int_eq(sm_osm_guid2lid_read(path, &e, &n, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, ":2: a line longer than 1024 bytes"), "%s", err);
}
END_TEST

static int count(void *arg, uint64_t guid, uint16_t lid, uint8_t lmc)
{
	(void)guid;
	(void)lmc;
	*(unsigned *)arg += lid;
	return 0;
}

START_TEST(seeded_once)
{
	char err[512];
	struct db *db;
	size_t n = 0;
	unsigned sum = 0;

	ck_assert_int_eq(db_open(dbpath, DB_WRITER, &db, err, sizeof(err)), 0);
	write_file("0x10 1 1\n\n0x11 4 7\n", 19);
	ck_assert_int_eq(sm_osm_guid2lid_seed(db, path, &n, err, sizeof(err)), 1);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(db_lids_load(db, count, &sum), 0);
	ck_assert_uint_eq(sum, 5);
	/* again, another file: the map has entries, nothing is read or written */
	write_file("0x12 9 9\n", 9);
	ck_assert_int_eq(sm_osm_guid2lid_seed(db, path, &n, err, sizeof(err)), 0);
	sum = 0;
	ck_assert_int_eq(db_lids_load(db, count, &sum), 0);
	ck_assert_uint_eq(sum, 5);
	db_close(db);
	/* a bad file leaves an empty map empty */
	unlink(dbpath);
	ck_assert_int_eq(db_open(dbpath, DB_WRITER, &db, err, sizeof(err)), 0);
	write_file("0x12 9 9\n\n0x13 9 9\n", 19);
	ck_assert_int_eq(sm_osm_guid2lid_seed(db, path, &n, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "LID 0x0009 is given to"), "%s", err);
	sum = 0;
	ck_assert_int_eq(db_lids_load(db, count, &sum), 0);
	ck_assert_uint_eq(sum, 0);
	db_close(db);
}
END_TEST

/* LIDs for every port of twoswitch.topo, from 0x40 down by 2: not the order
 * the LID manager would give. */
static void write_scrambled(const struct topo *t)
{
	FILE *f = fopen(path, "w");
	unsigned lid = 0x40;

	ck_assert_ptr_nonnull(f);
	for (uint32_t n = 0; n < t->n; n++) {
		const struct topo_node *tn = &t->nodes[n];
		bool sw = tn->type == MAD_NODE_SWITCH;
		for (unsigned p = sw ? 0 : 1; p <= (sw ? 0u : tn->nports); p++, lid -= 2)
			fprintf(f, "0x%016llx 0x%04x 0x%04x\n\n", (unsigned long long)tn->ports[p].guid,
				lid, lid);
	}
	fclose(f);
}

/* An SM on twoswitch.topo told to seed from the file. */
static void start(struct sm *sm)
{
	memset(sm, 0, sizeof(*sm));
	sm_config_defaults(&sm->cfg);
	snprintf(sm->cfg.backend, sizeof(sm->cfg.backend), "sim:%.400s",
		 topo_path("twoswitch.topo"));
	snprintf(sm->cfg.db_path, sizeof(sm->cfg.db_path), "%s", dbpath);
	snprintf(sm->cfg.guid2lid_file, sizeof(sm->cfg.guid2lid_file), "%s", path);
	sm->cfg.timeout_ms = 20;
	ck_assert_int_eq(sm_open(sm), 0);
}

START_TEST(cold_sweep_keeps_the_seeded_lids)
{
	struct topo t;
	char err[512];
	static struct sm sm, again;

	ck_assert_int_eq(topofile_load(topo_path("twoswitch.topo"), &t, err, sizeof(err)), 0);
	write_scrambled(&t);
	start(&sm);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	const struct topo *st = sim_fabric_topo(fab(&sm));
	unsigned lid = 0x40, checked = 0;
	for (uint32_t n = 0; n < t.n; n++) {
		bool sw = t.nodes[n].type == MAD_NODE_SWITCH;
		uint32_t s = topo_find_guid(st, t.nodes[n].guid);
		for (unsigned p = sw ? 0 : 1; p <= (sw ? 0u : t.nodes[n].nports); p++, lid -= 2) {
			struct mad_port_info pi;
			ck_assert_int_eq(sim_get_port_info(fab(&sm), s, (uint8_t)p, &pi), 0);
			ck_assert_msg(pi.lid == lid, "%s port %u: LID %u, the file says %u",
				      t.nodes[n].name, p, pi.lid, lid);
			checked++;
		}
	}
	ck_assert_uint_eq(checked, 8);	/* 2 switches, 5 CAs with 6 ports */
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
	/* a restart: the store has its map, the file is not read (even broken) */
	write_file("broken\n", 7);
	start(&again);
	sm_close(&again);
	/* a store with no map yet and a broken file: no start (its LIDs would be
	 * lost for good) */
	unlink(dbpath);
	memset(&again, 0, sizeof(again));
	sm_config_defaults(&again.cfg);
	snprintf(again.cfg.db_path, sizeof(again.cfg.db_path), "%s", dbpath);
	snprintf(again.cfg.guid2lid_file, sizeof(again.cfg.guid2lid_file), "%s", path);
	ck_assert_int_eq(sm_open_store(&again), -EINVAL);
	sm_close(&again);
	topo_free(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_osm_guid2lid");
	TCase *tc = tcase_create("guid2lid");

	tcase_add_checked_fixture(tc, setup, fixture_teardown);
	tcase_add_test(tc, read_as_opensm_writes_it);
	tcase_add_loop_test(tc, bad_files_refused, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, worst_paths_refused);
	tcase_add_test(tc, seeded_once);
	tcase_add_test(tc, cold_sweep_keeps_the_seeded_lids);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

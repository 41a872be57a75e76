// SPDX-License-Identifier: MIT
/*
 * check_sm_pkey.c - partitions: the file's reader (good files, and each bad
 * one refused with FILE:LINE:COLUMN), then on the sim backend a sweep of
 * tests/topo/twoswitch.topo with a partitions file: the P_KeyTables and the
 * switch ports' enforcement as the devices hold them, data packets let through
 * or dropped by them, PathRecords only between ports that share a partition,
 * only changed blocks set, and a broken file on reload keeping the running
 * partitions.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mad/mad_sa.h"
#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_pkey_program.h"
#include "sm/sm_reload.h"
#include "sm/sa/sm_sa.h"
#include "sm/util/sm_yaml.h"
#include "mad/mad_transport.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

static int parse(const char *text, struct sm_partitions *ps, char *err, size_t errlen)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");

	ck_assert_ptr_nonnull(in);
	int rc = sm_partitions_parse(in, "p.yaml", ps, err, errlen);
	fclose(in);
	return rc;
}

START_TEST(file_good)
{
	struct sm_partitions ps;
	char err[512] = "";
	const char *text =
		"partitions:\n"
		"  - name: blue\n"
		"    pkey: 0x0001\n"
		"    ipoib: yes\n"
		"    mtu: 2048\n"
		"    rate: 100G\n"
		"    sl: 3\n"
		"    members:\n"
		"      all: limited\n"
		"      0x0002c90300a1b2c4: full\n"
		"      \"node1 HCA-1\": full\n"
		"  - name: dflt\n"
		"    pkey: 0x7fff\n"
		"    ipoib: no\n";

	ck_assert_msg(parse(text, &ps, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(ps.n, 2);
	ck_assert_uint_eq(ps.p[0].pkey, 0x7fff);	/* the default first, as listed */
	ck_assert_str_eq(ps.p[0].name, "dflt");
	ck_assert(!ps.p[0].ipoib);
	ck_assert_uint_eq(ps.p[1].pkey, 1);
	ck_assert(ps.p[1].ipoib);
	ck_assert_uint_eq(ps.p[1].mtu, 4);
	ck_assert_uint_eq(ps.p[1].rate, 16);
	ck_assert_str_eq(sm_pkey_rate_word(ps.p[1].rate), "100G");
	ck_assert_uint_eq(ps.p[1].sl, 3);
	ck_assert_uint_eq(ps.p[1].nmembers, 3);
	ck_assert_uint_eq(ps.p[1].members[0].kind, SM_PKEY_MEMBER_ALL);
	ck_assert(!ps.p[1].members[0].full);
	ck_assert_uint_eq(ps.p[1].members[1].guid, 0x0002c90300a1b2c4ull);
	ck_assert_str_eq(ps.p[1].members[2].name, "node1 HCA-1");
	ck_assert_uint_eq(ps.p[1].members[2].line, 11);
	sm_partitions_free(&ps);

	/* empty: the built-in default partition alone, IPoIB on */
	ck_assert_int_eq(parse("", &ps, err, sizeof(err)), 0);
	ck_assert_uint_eq(ps.n, 1);
	ck_assert(ps.p[0].ipoib);
	sm_partitions_free(&ps);
}
END_TEST

static const struct {
	const char *text, *err;
} bad[] = {
	{ "partitions:\n  - name: a\n    pkey: 0\n", "p.yaml:3:11: pkey: 0x0000 is the invalid" },
	{ "partitions:\n  - name: a\n    pkey: 0x8000\n", "p.yaml:3:11: pkey: 0x8000 is the invalid" },
	{ "partitions:\n  - name: a\n    pkey: 0x8001\n", "p.yaml:3:11: pkey: 0x8001 has the membership bit" },
	{ "partitions:\n  - name: a\n    pkey: 0x10000\n", "p.yaml:3:11: pkey: 0x10000 is out of range" },
	{ "partitions:\n  - name: a\n    pkey: 2\n  - name: b\n    pkey: 0x0002\n",
	  "p.yaml:5:11: pkey 0x0002 given twice (first at line 2)" },
	{ "partitions:\n  - name: a\n    pkey: 2\n  - name: a\n    pkey: 3\n",
	  "p.yaml:4:5: partition name 'a' given twice" },
	{ "partitions:\n  - name: a\n    pkey: 2\n    mebers: {}\n", "p.yaml:4:5: unknown key 'mebers'" },
	{ "partitions:\n  - name: a\n", "p.yaml:2:5: a partition needs a name and a pkey" },
	{ "partitions:\n  - name: a\n    pkey: 2\n    members: {all: half}\n",
	  "p.yaml:4:20: member 'all': expected full or limited" },
	{ "partitions:\n  - name: a\n    pkey: 2\n    mtu: 9000\n", "p.yaml:4:10: mtu: expected" },
	{ "partitions:\n  - name: a\n    pkey: 2\n    rate: 99G\n", "p.yaml:4:11: rate: expected" },
	{ "partitions:\n  - name: a\n    pkey: 2\n    sl: 16\n", "p.yaml:4:9: sl: 16 is out of range" },
	{ "partitions:\n  - name: a\n    pkey: 2\n    ipoib: maybe\n", "p.yaml:4:12: ipoib: expected yes or no" },
	{ "partitions:\n  - name: a\n    pkey: 2\n    members: {0x0: full}\n",
	  "p.yaml:4:15: member GUID 0 names no port" },
	{ "partitions:\n  - name: a\n    pkey: 2\n    members: {x: full, x: limited}\n",
	  "p.yaml:4:24: members: 'x' given twice" },
	{ "partitions:\n  - name: d\n    pkey: 0x7fff\n    members: {h1: full}\n",
	  "p.yaml:4:15: the default partition 0x7fff holds every port" },
	{ "partition:\n", "p.yaml:1:1: unknown key 'partition'" },
	/* pointed at /etc/shadow, or at a file of escapes: a short token of it
	 * (a line of /etc/shadow reads as OpenSM's partitions.conf: "root:" and
	 * its members, the first of them no port) */
	{ "root:$y$j9T$Xs1MaFakeSalt$AbCdEfGhIjKl:19700:0:99999:7:::\nbin:*:19700::::::\n",
	  "p.yaml:1: '...' is no port GUID nor one of ALL" },
	{ "\"\\e]52;c;c2VjcmV0\\a\": 1\n", "p.yaml:1:1: unknown key '...' (the file" },
	{ "partitions:\n  - name: a\n    pkey: 2\n    members: {\"\\e[2J\\n\": half}\n",
	  "p.yaml:4:26: member '\\x1b[2J\\n': expected full or limited" },
	{ "partitions:\n  - [1, 2]\n", "p.yaml:2:5: a partition is a mapping" },
	{ "partitions: [\n", "p.yaml:2:1: " },
};

START_TEST(file_bad)
{
	struct sm_partitions ps = { 0 };
	char err[512] = "";

	ck_assert_msg(parse(bad[_i].text, &ps, err, sizeof(err)) == -EINVAL, "accepted: %s",
		      bad[_i].text);
	ck_assert_msg(strncmp(err, bad[_i].err, strlen(bad[_i].err)) == 0, "got '%s', wanted '%s'",
		      err, bad[_i].err);
	ck_assert_ptr_null(ps.p);	/* untouched */
}
END_TEST

/* Deep nesting is refused at once, where it goes too deep: libyaml's
 * scanner is quadratic in the depth (120 KB of '[' took 55 s to fail). */
START_TEST(file_deep_nesting_refused_fast)
{
	size_t n = 120 * 1024;
	char *text = malloc(n + 16), err[512];
	struct sm_partitions ps = { 0 };

	ck_assert_ptr_nonnull(text);
	memcpy(text, "partitions: ", 12);
	memset(text + 12, '[', n);
	strcpy(text + 12 + n, "\n");
	uint64_t t0 = mad_now_ms();
	ck_assert_int_eq(parse(text, &ps, err, sizeof(err)), -EINVAL);
	ck_assert_uint_lt(mad_now_ms() - t0, 500);
	ck_assert_str_eq(err, "p.yaml:1:44: collections nested deeper than 32 levels");
	ck_assert_ptr_null(ps.p);
	/* as deep as the bound (the file, the list, a partition, 29 lists): the
	 * walk says what is wrong */
	strcpy(text, "partitions:\n  - name: a\n    pkey: 2\n    members: ");
	size_t len = strlen(text);
	for (int i = 0; i < SM_YAML_MAX_DEPTH - 3; i++)
		text[len++] = '[';
	for (int i = 0; i < SM_YAML_MAX_DEPTH - 3; i++)
		text[len++] = ']';
	strcpy(text + len, "\n");
	ck_assert_int_eq(parse(text, &ps, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "p.yaml:4:14: members: expected a mapping"), "%s", err);
	free(text);
}
END_TEST

START_TEST(file_huge_member_list)
{
	size_t n = SM_PKEY_MAX_MEMBERS + 1, len = 0;
	char *text = NULL, err[512];
	FILE *out = open_memstream(&text, &len);
	struct sm_partitions ps;

	fprintf(out, "partitions:\n  - name: big\n    pkey: 2\n    members:\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "      0x%016zx: full\n", i + 1);
	fclose(out);
	ck_assert_int_eq(parse(text, &ps, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "p.yaml:5:7: members: 65537 entries, at most 65536"), "%s", err);
	free(text);
}
END_TEST

/* The path's worst values: a FIFO nobody writes (once blocked the daemon in
 * open() for good), an endless device, a directory, a file past the size limit;
 * each refused with why.  A symbolic link to a good file is read. */
START_TEST(file_path_not_a_regular_file)
{
	char dir[] = "/tmp/check_sm_pkey.XXXXXX", path[600], err[512];
	struct sm_partitions ps = { 0 };
	static const struct {
		const char *path, *why;
		int rc;
	} bad_paths[] = {
		{ "fifo", "not a regular file", -EINVAL },
		{ "/dev/zero", "more than the 67108864 bytes it may have", -EFBIG },
		{ ".", "not a regular file", -EINVAL },
		{ "huge.yaml", "more than the 67108864 it may have", -EFBIG },
		{ "missing.yaml", "No such file or directory", -ENOENT },
	};

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	snprintf(path, sizeof(path), "%s/huge.yaml", dir);	/* sparse: no disk used */
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ftruncate(fileno(f), SM_PKEY_MAX_FILE_BYTES + 1), 0);
	fclose(f);
	for (size_t i = 0; i < sizeof(bad_paths) / sizeof(bad_paths[0]); i++) {
		const char *p = bad_paths[i].path;
		if (p[0] != '/')
			snprintf(path, sizeof(path), "%s/%s", dir, p), p = path;
		ck_assert_int_eq(sm_partitions_load(p, &ps, err, sizeof(err)), bad_paths[i].rc);
		ck_assert_msg(strstr(err, bad_paths[i].why), "%s: %s", p, err);
		ck_assert_ptr_null(ps.p);
	}
	snprintf(path, sizeof(path), "%s/good.yaml", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("partitions:\n  - name: storage\n    pkey: 0x10\n    members:\n      all: full\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/link.yaml", dir);
	ck_assert_int_eq(symlink("good.yaml", path), 0);
	ck_assert_msg(sm_partitions_load(path, &ps, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_ge(ps.n, 1);
	ck_assert_uint_eq(ps.p[ps.n - 1].pkey, 0x10);
	sm_partitions_free(&ps);
	for (const char *const *n = (const char *const[]){ "fifo", "huge.yaml", "good.yaml",
							   "link.yaml", NULL }; *n; n++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *n);
		unlink(path);
	}
	rmdir(dir);
}
END_TEST

/* --- on the sim backend --- */

static struct sm sm;
static char pfile[300];

static const char partitions[] =
	"partitions:\n"
	"  - name: default\n"
	"    pkey: 0x7fff\n"
	"    members: {all: limited}\n"
	"  - name: blue\n"
	"    pkey: 0x0001\n"
	"    members: {H1: full, H2: full}\n"
	"  - name: red\n"
	"    pkey: 0x0002\n"
	"    members: {H3: full, HD: full, nosuchnode: full}\n";

static void write_file(const char *text)
{
	FILE *f = fopen(pfile, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void setup(void)
{
	char spec[480];

	fixture_setup();
	snprintf(pfile, sizeof(pfile), "%s/partitions.yaml", dbdir);
	write_file(partitions);
	memset(&sm, 0, sizeof(sm));
	sm_config_defaults(&sm.cfg);
	snprintf(spec, sizeof(spec), "sim:%.400s", topo_path("twoswitch.topo"));
	snprintf(sm.cfg.backend, sizeof(sm.cfg.backend), "%s", spec);
	snprintf(sm.cfg.db_path, sizeof(sm.cfg.db_path), "%s", dbpath);
	snprintf(sm.cfg.partitions_file, sizeof(sm.cfg.partitions_file), "%s", pfile);
	sm.cfg.timeout_ms = 20;
	sm.cfg.retries = 1;
	ck_assert_int_eq(sm_open(&sm), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
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

static uint16_t lid(const char *name)
{
	return sm_port1_lid(&sm, name);
}

START_TEST(tables_programmed)
{
	struct sim_fabric *f = fab(&sm);
	struct mad_pkey_block pk;
	struct mad_port_info pi;

	ck_assert_int_eq(sim_get_pkeys(f, sim_node("H1"), 1, 0, &pk), 0);
	ck_assert_uint_eq(pk.pkey[0], 0x7fff);		/* default, limited */
	ck_assert_uint_eq(pk.pkey[1], 0x8001);		/* blue, full */
	ck_assert_uint_eq(pk.pkey[2], 0);
	ck_assert_int_eq(sim_get_pkeys(f, sim_node("HD"), 2, 0, &pk), 0);
	ck_assert_uint_eq(pk.pkey[1], 0x8002);		/* both ports of a named node */
	ck_assert_int_eq(sim_get_pkeys(f, sim_node("H0"), 1, 0, &pk), 0);
	ck_assert_uint_eq(pk.pkey[0], 0xffff);		/* the SM's port stays full */
	ck_assert_uint_eq(pk.pkey[1], 0);
	/* switch SA port 2 (to H1) enforces with H1's keys; port 3 (to SB) does not */
	uint32_t sa = sim_node("SA");
	ck_assert_int_eq(sim_get_pkeys(f, sa, 2, 0, &pk), 0);
	ck_assert_uint_eq(pk.pkey[1], 0x8001);
	ck_assert_int_eq(sim_get_port_info(f, sa, 2, &pi), 0);
	ck_assert(pi.part_enf_inb && pi.part_enf_outb);
	ck_assert_int_eq(sim_get_port_info(f, sa, 3, &pi), 0);
	ck_assert(!pi.part_enf_inb && !pi.part_enf_outb);
	ck_assert_uint_eq(sm.sa->pkeys.unknown, 1);	/* nosuchnode, logged */
}
END_TEST

START_TEST(data_checked)
{
	struct sim_fabric *f = fab(&sm);
	char why[160];

	ck_assert_msg(sim_data_pkey(f, sim_node("H1"), 1, lid("H2"), 0x8001, why,
				    sizeof(why)) == 0, "%s", why);
	/* blue's key toward red's H3: the receiver refuses it */
	ck_assert_int_eq(sim_data_pkey(f, sim_node("H1"), 1, lid("H3"), 0x8001, why,
				       sizeof(why)), -EACCES);
	/* limited to limited in the default partition */
	ck_assert_int_eq(sim_data_pkey(f, sim_node("H1"), 1, lid("H3"), 0x7fff, why,
				       sizeof(why)), -EACCES);
	/* a key H3 was never given: its switch port drops it inbound */
	ck_assert_int_eq(sim_data_pkey(f, sim_node("H3"), 1, lid("H2"), 0x8001, why,
				       sizeof(why)), -EACCES);
	/* limited H1 to the full SM port H0 */
	ck_assert_msg(sim_data_pkey(f, sim_node("H1"), 1, lid("H0"), 0x7fff, why,
				    sizeof(why)) == 0, "%s", why);
}
END_TEST

/* One SA Get of @attr (template @data, @mask); the answer. */
static struct mad_sa ask(uint16_t attr, uint64_t mask, const uint8_t *data, size_t size)
{
	return sm_sa_ask(&sm, MAD_SA_METHOD_GET, attr, mask, data, size);
}

/* One PathRecord Get from @a to @b (@pkey 0: any); the status, the record in *@r. */
static uint16_t path(const char *a, const char *b, uint16_t pkey, struct mad_sa_path_record *r)
{
	struct mad_sa_path_record t = { .slid = lid(a), .dlid = lid(b), .pkey = pkey };
	uint8_t data[MAD_SA_PATH_RECORD_SIZE];

	mad_sa_path_record_encode(&t, data);
	struct mad_sa resp = ask(MAD_SA_ATTR_PATH_RECORD, MAD_SA_PR_SLID | MAD_SA_PR_DLID |
				 (pkey ? MAD_SA_PR_PKEY : 0), data, sizeof(data));
	mad_sa_path_record_decode(resp.data, r);
	return resp.status;
}

START_TEST(pkey_table_records)
{
	struct mad_sa_pkey_table_record t = { .lid = lid("H1") }, r;
	uint8_t data[MAD_SA_PKEY_TABLE_RECORD_SIZE];

	mad_sa_pkey_table_record_encode(&t, data);
	struct mad_sa resp = ask(MAD_SA_ATTR_PKEY_TABLE_RECORD, 1, data, sizeof(data));
	ck_assert_uint_eq(resp.status, 0);
	mad_sa_pkey_table_record_decode(resp.data, &r);
	ck_assert_uint_eq(r.table.pkey[0], 0x7fff);
	ck_assert_uint_eq(r.table.pkey[1], 0x8001);
	ck_assert_uint_eq(r.table.pkey[2], 0);
	/* what the device holds */
	struct mad_pkey_block pk;
	ck_assert_int_eq(sim_get_pkeys(fab(&sm), sim_node("H1"), 1, 0, &pk), 0);
	ck_assert_mem_eq(&pk, &r.table, sizeof(pk));
}
END_TEST

START_TEST(paths_by_partition)
{
	struct mad_sa_path_record r;

	ck_assert_uint_eq(path("H1", "H2", 0, &r), 0);
	ck_assert_uint_eq(r.pkey, 0x8001);
	ck_assert_uint_eq(path("H3", "HD", 0, &r), 0);
	ck_assert_uint_eq(r.pkey, 0x8002);
	/* disjoint partitions (limited both in the default): no path */
	ck_assert_uint_eq(path("H1", "H3", 0, &r), MAD_SA_ERR_NO_RECORDS);
	ck_assert_uint_eq(path("H2", "HD", 0, &r), MAD_SA_ERR_NO_RECORDS);
	/* a partition asked for that one end is not in */
	ck_assert_uint_eq(path("H1", "H2", 0x0002, &r), MAD_SA_ERR_NO_RECORDS);
	/* every host reaches the SM's port in the default partition, as it holds it */
	ck_assert_uint_eq(path("H1", "H0", 0, &r), 0);
	ck_assert_uint_eq(r.pkey, 0x7fff);
	ck_assert_uint_eq(path("H0", "H1", 0, &r), 0);
	ck_assert_uint_eq(r.pkey, 0xffff);
}
END_TEST

START_TEST(only_changed_blocks)
{
	struct sm_pkey_result res;
	struct sm_arena arena;

	/* everything in place: every block read, none set */
	sm_arena_init(&arena);
	ck_assert_int_eq(sm_pkey_program(&sm, &sm.fabric, &sm.sa->pkeys, &arena, &res), 0);
	ck_assert_uint_gt(res.reads, 0);
	ck_assert_uint_eq(res.sets, 0);
	ck_assert_uint_eq(res.failures, 0);
	/* one port's table changed behind the SM's back: that block alone is set */
	write_file("partitions:\n  - name: blue\n    pkey: 1\n    members: {H1: full}\n");
	ck_assert_int_eq(sm_reload_partitions(&sm), 0);
	ck_assert(sm.sweep_due);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	struct mad_pkey_block pk;
	ck_assert_int_eq(sim_get_pkeys(fab(&sm), sim_node("H2"), 1, 0, &pk), 0);
	ck_assert_uint_eq(pk.pkey[0], 0xffff);
	ck_assert_uint_eq(pk.pkey[1], 0);	/* no longer blue */
	ck_assert_int_eq(sm_pkey_program(&sm, &sm.fabric, &sm.sa->pkeys, &arena, &res), 0);
	ck_assert_uint_eq(res.sets, 0);
	sm_arena_free(&arena);
}
END_TEST

START_TEST(broken_file_keeps_partitions)
{
	write_file("partitions:\n  - name: x\n    pkey: 0x8000\n");
	ck_assert_int_eq(sm_reload_partitions(&sm), -EINVAL);
	ck_assert_uint_eq(sm.sa->partitions.n, 3);
	ck_assert_uint_eq(sm.sa->partitions.p[1].pkey, 1);
	ck_assert(!sm.sweep_due);
	/* the same file again: nothing changed, nothing due */
	write_file(partitions);
	ck_assert_int_eq(sm_reload_partitions(&sm), 0);
	ck_assert(!sm.sweep_due);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_pkey");
	TCase *tc = tcase_create("file");

	tcase_add_test(tc, file_good);
	tcase_add_loop_test(tc, file_bad, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, file_huge_member_list);
	tcase_add_test(tc, file_deep_nesting_refused_fast);
	tcase_add_test(tc, file_path_not_a_regular_file);
	suite_add_tcase(s, tc);
	tc = tcase_create("sim");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, tables_programmed);
	tcase_add_test(tc, data_checked);
	tcase_add_test(tc, paths_by_partition);
	tcase_add_test(tc, pkey_table_records);
	tcase_add_test(tc, only_changed_blocks);
	tcase_add_test(tc, broken_file_keeps_partitions);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

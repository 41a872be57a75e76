// SPDX-License-Identifier: MIT
/*
 * check_topofile.c - the topology reader: golden parse results for ibsim's
 * example nets, two real ibnetdiscover dumps and our own fixtures, and the exact
 * message for every malformed file tests/topo/bad-*.topo (golden: bad-*.err).
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/model/topofile.h"
#include "tests/check_util.h"

#define IBSIM_EXAMPLES "/usr/share/doc/ibsim-utils/net-examples"

static const char *srcdir(void)
{
	const char *d = getenv("top_srcdir");
	return d ? d : ".";
}

static void load_ok(const char *path, struct topo *t)
{
	char err[512] = "";
	int rc = topofile_load(path, t, err, sizeof(err));
	ck_assert_msg(rc == 0, "%s: %s", path, err);
}

static void load_fixture(const char *rel, struct topo *t)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/tests/topo/%s", srcdir(), rel);
	load_ok(path, t);
}

static uint32_t node(const struct topo *t, const char *name)
{
	uint32_t i = topo_find_name(t, name);
	ck_assert_msg(i != TOPO_NONE, "no node %s", name);
	return i;
}

static void assert_link(const struct topo *t, const char *a, unsigned pa, const char *b,
			unsigned pb)
{
	uint32_t x = node(t, a), y = node(t, b);

	ck_assert_uint_eq(t->nodes[x].ports[pa].peer, y);
	ck_assert_uint_eq(t->nodes[x].ports[pa].peer_port, pb);
	ck_assert_uint_eq(t->nodes[y].ports[pb].peer, x);
	ck_assert_uint_eq(t->nodes[y].ports[pb].peer_port, pa);
}

/* ibsim numbers nodes without a GUID in file order, as `ibsim` + `ibnetdiscover`
 * on this very file show: switches from 0x200000 one GUID each, CAs from
 * 0x100000 taking nports + 1 each. */
START_TEST(ibsim_2sw2path4hca)
{
	struct topo t;

	if (access(IBSIM_EXAMPLES, R_OK) != 0) {
		fprintf(stderr, "skipped: %s missing (Debian package ibsim-utils)\n",
			IBSIM_EXAMPLES);
		return;
	}
	load_ok(IBSIM_EXAMPLES "/net.2sw2path4hca", &t);
	ck_assert_uint_eq(t.n, 6);
	ck_assert_uint_eq(topo_count_type(&t, MAD_NODE_SWITCH), 2);
	ck_assert_uint_eq(topo_count_type(&t, MAD_NODE_CA), 4);
	ck_assert_uint_eq(topo_count_links(&t), 6);
	ck_assert_uint_eq(t.nodes[node(&t, "Switch1")].guid, 0x200000);
	ck_assert_uint_eq(t.nodes[node(&t, "Switch2")].guid, 0x200001);
	ck_assert_uint_eq(t.nodes[node(&t, "Hca1")].guid, 0x100000);
	ck_assert_uint_eq(t.nodes[node(&t, "Hca2")].guid, 0x100003);
	ck_assert_uint_eq(t.nodes[node(&t, "Hca4")].guid, 0x100009);
	ck_assert_uint_eq(t.nodes[node(&t, "Hca2")].ports[1].guid, 0x100004);
	ck_assert_uint_eq(t.nodes[node(&t, "Hca2")].ports[2].guid, 0x100005);
	ck_assert_uint_eq(t.nodes[node(&t, "Switch2")].ports[5].guid, 0x200001);
	ck_assert_str_eq(t.nodes[node(&t, "Hca3")].desc, "Hca3");
	ck_assert_uint_eq(t.nodes[0].nports, 8);
	assert_link(&t, "Switch1", 5, "Switch2", 5);
	assert_link(&t, "Hca4", 1, "Switch2", 2);
	ck_assert_uint_eq(t.nodes[node(&t, "Hca4")].ports[2].peer, TOPO_NONE);
	ck_assert_uint_eq(t.nodes[node(&t, "Hca4")].ports[1].width, 2);
	ck_assert_uint_eq(t.nodes[node(&t, "Hca4")].ports[1].speed, 1);
	topo_free(&t);
}
END_TEST

START_TEST(ibsim_all_examples_load)
{
	static const struct { const char *file; uint32_t n; size_t links; } nets[] = {
		{ "net", 4, 4 }, { "net.1", 3, 2 }, { "net.2sw2path", 4, 4 },
		{ "net.2sw2path4hca", 6, 6 }, { "net.2sw2path4hca2port", 4, 6 },
	};
	char path[512];

	if (access(IBSIM_EXAMPLES, R_OK) != 0)
		return;
	for (size_t i = 0; i < sizeof(nets) / sizeof(nets[0]); i++) {
		struct topo t;
		snprintf(path, sizeof(path), "%s/%s", IBSIM_EXAMPLES, nets[i].file);
		load_ok(path, &t);
		ck_assert_uint_eq(t.n, nets[i].n);
		ck_assert_uint_eq(topo_count_links(&t), nets[i].links);
		topo_free(&t);
	}
}
END_TEST

START_TEST(real_cluster144)
{
	struct topo t;

	load_fixture("real/cluster144-sx6036-2level.topo", &t);
	ck_assert_uint_eq(topo_count_type(&t, MAD_NODE_SWITCH), 8);
	ck_assert_uint_eq(topo_count_type(&t, MAD_NODE_CA), 144);
	ck_assert_uint_eq(topo_count_links(&t), 192);
	/* the first node is a switch, with its GUID, description and enhanced port 0 */
	ck_assert_uint_eq(t.nodes[0].type, MAD_NODE_SWITCH);
	ck_assert_uint_eq(t.nodes[0].guid, 0xf4521403001165a0ULL);
	ck_assert_uint_eq(t.nodes[0].ports[21].guid, 0xf4521403001165a0ULL);
	ck_assert_uint_eq(t.nodes[0].vendor_id, 0x2c9);
	ck_assert_uint_eq(t.nodes[0].device_id, 0xc738);
	ck_assert_str_eq(t.nodes[0].desc, "MF0;ib5:SX6036/U1");
	ck_assert(t.nodes[0].enhanced_port0);
	/* an HCA cabled on port 2 only, with the port GUID from the file */
	uint32_t h = topo_find_guid(&t, 0x24be05ffff98bb40ULL);
	ck_assert_uint_ne(h, TOPO_NONE);
	ck_assert_str_eq(t.nodes[h].desc, "booster2 mlx4_0");
	ck_assert_uint_eq(t.nodes[h].ports[1].peer, TOPO_NONE);
	ck_assert_uint_eq(t.nodes[h].ports[2].guid, 0x24be05ffff98bb42ULL);
	ck_assert_uint_eq(t.nodes[h].ports[2].peer, node(&t, "S-f4521403001167a0"));
	ck_assert_uint_eq(t.nodes[h].ports[2].peer_port, 1);
	/* rates: QDR to hosts, FDR10 (recorded as QDR base speed) between switches */
	ck_assert_uint_eq(t.nodes[0].ports[1].width, 2);
	ck_assert_uint_eq(t.nodes[0].ports[1].speed, 4);
	assert_link(&t, "S-f4521403001165a0", 21, "S-f4521403007ea570", 26);
	topo_free(&t);
}
END_TEST

START_TEST(real_cluster89)
{
	struct topo t;

	load_fixture("real/cluster89-mixed-irregular.topo", &t);
	ck_assert_uint_eq(topo_count_type(&t, MAD_NODE_SWITCH), 11);
	ck_assert_uint_eq(topo_count_type(&t, MAD_NODE_CA), 89);
	ck_assert_uint_eq(topo_count_links(&t), 159);
	uint32_t s = node(&t, "S-0008f10500108c5c");
	/* a '#' inside the quoted description is not a comment */
	ck_assert_str_eq(t.nodes[s].desc, "Voltaire 4036 # 4036-8C5C");
	ck_assert_uint_eq(t.nodes[s].guid, 0x8f10500108c5cULL);
	ck_assert_uint_eq(t.nodes[s].sys_guid, 0x8f10500108c5dULL);
	ck_assert(!t.nodes[node(&t, "S-0002c90200417670")].enhanced_port0);
	uint32_t h = node(&t, "H-003048c749cd0000");
	ck_assert_uint_eq(t.nodes[h].nports, 1);
	ck_assert_uint_eq(t.nodes[h].ports[1].guid, 0x3048c749cd0001ULL);
	ck_assert_str_eq(t.nodes[h].desc, "MT25408 ConnectX Mellanox Technologies");
	ck_assert_uint_eq(t.nodes[h].ports[1].speed, 2);	/* 4xDDR */
	assert_link(&t, "S-0008f10500200b50", 4, "H-003048c749cd0000", 1);
	topo_free(&t);
}
END_TEST

START_TEST(features)
{
	struct topo t;

	load_fixture("features.topo", &t);
	ck_assert_uint_eq(t.n, 4);
	uint32_t a = node(&t, "S-A"), b = node(&t, "H-B"), l = node(&t, "Lonely");
	uint32_t c = node(&t, "S-C");
	ck_assert_uint_eq(t.nodes[a].guid, 0x5000);
	ck_assert_uint_eq(t.nodes[a].ports[0].guid, 0x5001);
	ck_assert_uint_eq(t.nodes[a].ports[3].guid, 0x5001);
	ck_assert_uint_eq(t.nodes[a].sys_guid, 0xabc);
	ck_assert_str_eq(t.nodes[a].desc, "spine # one");
	ck_assert(t.nodes[a].enhanced_port0);
	ck_assert_uint_eq(t.nodes[b].guid, 0x7000);
	ck_assert_uint_eq(t.nodes[b].sys_guid, 0x7000);
	ck_assert_uint_eq(t.nodes[b].vendor_id, 0);	/* attributes do not carry over */
	ck_assert_uint_eq(t.nodes[b].ports[1].guid, 0x7001);
	ck_assert_uint_eq(t.nodes[b].ports[2].guid, 0x7002);
	ck_assert_str_eq(t.nodes[b].desc, "host b");
	/* listed on one side only, defined after its peer; made-up GUIDs */
	assert_link(&t, "S-A", 2, "Lonely", 1);
	ck_assert_uint_eq(t.nodes[l].guid, 0x100000);
	ck_assert_uint_eq(t.nodes[l].ports[1].guid, 0x100001);
	ck_assert_uint_eq(t.nodes[c].guid, 0x200000);
	ck_assert_str_eq(t.nodes[c].desc, "S-C");
	assert_link(&t, "S-A", 3, "S-C", 5);
	/* rates: 4xQDR, ibsim's w=12, 1xDDR, and the 4xSDR default */
	ck_assert_uint_eq(t.nodes[b].ports[2].width, 2);
	ck_assert_uint_eq(t.nodes[b].ports[2].speed, 4);
	ck_assert_uint_eq(t.nodes[l].ports[1].width, 8);
	ck_assert_uint_eq(t.nodes[l].ports[1].speed, 1);
	ck_assert_uint_eq(t.nodes[c].ports[5].width, 1);
	ck_assert_uint_eq(t.nodes[c].ports[5].speed, 2);
	ck_assert_uint_eq(t.nodes[c].ports[1].width, 2);
	ck_assert_uint_eq(t.nodes[c].ports[1].speed, 1);
	topo_free(&t);
}
END_TEST

static char *read_golden(const char *path)
{
	static char buf[512];
	FILE *f = fopen(path, "r");

	ck_assert_msg(f != NULL, "missing golden file %s", path);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* Every tests/topo/bad-X.topo fails with exactly the message in bad-X.err,
 * and leaves nothing loaded. */
START_TEST(bad_files_golden)
{
	char dir[4096], path[4600];
	unsigned checked = 0;

	snprintf(dir, sizeof(dir), "%s/tests/topo", srcdir());
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, "bad-", 4) != 0 || len < 6 ||
		    strcmp(e->d_name + len - 5, ".topo") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		FILE *in = fopen(path, "r");
		ck_assert_ptr_nonnull(in);
		struct topo t;
		char err[512] = "";
		int rc = topofile_parse(in, e->d_name, &t, err, sizeof(err));
		fclose(in);
		ck_assert_msg(rc == -EINVAL, "%s: rc %d", e->d_name, rc);
		ck_assert_uint_eq(t.n, 0);
		ck_assert_ptr_null(t.nodes);
		snprintf(path + strlen(path) - 5, 6, ".err");
		ck_assert_str_eq(err, read_golden(path));
		checked++;
	}
	closedir(d);
	ck_assert_uint_ge(checked, 15);
}
END_TEST

/* Two hosts with one port GUID, a switch whose GUID is a host's port GUID:
 * loaded as written (the sim serves it), with a warning naming both records. */
START_TEST(duplicate_port_guids_warn)
{
	char path[4600], err[512] = "x";
	struct topo t;

	snprintf(path, sizeof(path), "%s/tests/topo/duplicate-port-guid.topo", srcdir());
	ck_assert_int_eq(topofile_load(path, &t, err, sizeof(err)), 0);
	ck_assert_uint_eq(t.n, 7);
	ck_assert_msg(strstr(err, "duplicate-port-guid.topo:26: warning: port GUID "
			     "0x000000000000abc0 of \"H1\"[1] is also the GUID of \"H0\"[1] "
			     "(line 6); 2 port GUIDs repeat in all"), "%s", err);
	uint32_t h2 = topo_find_name(&t, "H2"), sb = topo_find_name(&t, "SB");
	ck_assert_uint_eq(t.nodes[h2].ports[1].guid, t.nodes[sb].ports[0].guid);
	topo_free(&t);
	/* a clean file leaves no message behind */
	snprintf(path, sizeof(path), "%s/tests/topo/twoswitch.topo", srcdir());
	ck_assert_int_eq(topofile_load(path, &t, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "");
	topo_free(&t);
}
END_TEST

START_TEST(missing_file)
{
	struct topo t;
	char err[512];

	ck_assert_int_eq(topofile_load("/nonexistent/net.topo", &t, err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "/nonexistent/net.topo:0: cannot open: No such file or directory");
	ck_assert_uint_eq(t.n, 0);
	/* a directory opens, but reads fail: say so, not "read error" */
	ck_assert_int_eq(topofile_load("/", &t, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "/:0: cannot read: Is a directory");
	ck_assert_uint_eq(t.n, 0);
}
END_TEST

/* The parser is linear: a fabric the size of a 3-level k=48 fat tree's host
 * count loads, names resolved through the hash, in file order. */
START_TEST(many_nodes_forward_refs)
{
	enum { HOSTS = 20000 };
	size_t cap = 64u * HOSTS + 64u * (HOSTS / 40 + 1) * 41;
	char *text = malloc(cap);
	size_t off = 0;

	ck_assert_ptr_nonnull(text);
	/* hosts first, each naming a switch defined later */
	for (unsigned h = 0; h < HOSTS; h++)
		off += (size_t)snprintf(text + off, cap - off, "Hca 1 \"H%u\"\n[1] \"S%u\"[%u]\n\n",
					h, h / 40, h % 40 + 1);
	for (unsigned s = 0; s < HOSTS / 40; s++)
		off += (size_t)snprintf(text + off, cap - off, "Switch 48 \"S%u\"\n\n", s);
	FILE *in = fmemopen(text, off, "r");
	struct topo t;
	char err[256] = "";
	ck_assert_int_eq(topofile_parse(in, "mem", &t, err, sizeof(err)), 0);
	fclose(in);
	ck_assert_uint_eq(t.n, HOSTS + HOSTS / 40);
	ck_assert_uint_eq(topo_count_links(&t), HOSTS);
	ck_assert_uint_eq(t.nodes[HOSTS].guid, 0x200000);
	ck_assert_uint_eq(t.nodes[HOSTS - 1].guid, 0x100000 + 2ULL * (HOSTS - 1));
	ck_assert_uint_eq(t.nodes[HOSTS + 3].ports[7].peer, 3 * 40 + 6);
	topo_free(&t);
	free(text);
}
END_TEST

static void parse_text(const char *text, struct topo *t)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	char err[256] = "";

	ck_assert_ptr_nonnull(in);
	ck_assert_msg(topofile_parse(in, "mem", t, err, sizeof(err)) == 0, "%s", err);
	fclose(in);
}

/* Quoted names and descriptions take \" \\ and \xHH (what `smquery topology`
 * writes), so a description holding quotes, backslashes or any byte loads
 * back whole; a rate after such a description is still found, and a
 * description from ibnetdiscover that ends in a lone backslash still reads. */
START_TEST(quoted_escapes)
{
	struct topo t;

	parse_text("Switch 2 \"s\\\"1\" # \"a \\\"q\\\" b\\\\c\\x1b[2J\\x0aFAKE\\x00\\q\" "
		   "enhanced port 0 lid 1\n"
		   "[1] \"h\\\\1\"[1] # \"x\\\"y\" lid 2 4xQDR\n"
		   "[2] \"h2\"[1] # \"C:\\\" lid 3 4xFDR\n\n"
		   "Hca 1 \"h\\\\1\" # \"C:\\\"\n[1] \"s\\\"1\"[1]\n\n"
		   "Hca 1 \"h2\"\n[1] \"s\\\"1\"[2]\n", &t);
	uint32_t s = node(&t, "s\"1"), h = node(&t, "h\\1");
	ck_assert_str_eq(t.nodes[s].desc, "a \"q\" b\\c\x1b[2J\nFAKE\\x00\\q");
	ck_assert(t.nodes[s].enhanced_port0);
	ck_assert_str_eq(t.nodes[h].desc, "C:\\");
	assert_link(&t, "s\"1", 1, "h\\1", 1);
	assert_link(&t, "s\"1", 2, "h2", 1);
	ck_assert_uint_eq(t.nodes[s].ports[1].speed, 4);	/* QDR, past "x\"y" */
	ck_assert_uint_eq(t.nodes[s].ports[2].speed, 8);	/* FDR, past "C:\" */
	topo_free(&t);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("topofile");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, ibsim_2sw2path4hca);
	tcase_add_test(tc, ibsim_all_examples_load);
	tcase_add_test(tc, real_cluster144);
	tcase_add_test(tc, real_cluster89);
	tcase_add_test(tc, features);
	tcase_add_test(tc, bad_files_golden);
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, duplicate_port_guids_warn);
	tcase_add_test(tc, many_nodes_forward_refs);
	tcase_add_test(tc, quoted_escapes);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

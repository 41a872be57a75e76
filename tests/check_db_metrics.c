// SPDX-License-Identifier: MIT
/*
 * check_db_metrics.c - the port series and link problems of the metrics
 * output (db_metrics_ports.c, db_metrics_links.c, the options and budget of
 * db_metrics.c): treydock/infiniband_exporter's names and labels by default,
 * ibsmd's on request, every counter under its name and unit, the port
 * selection and counter groups, the budget keeping whole families, links
 * down (read back from their event, hostile descriptions included),
 * isolated and degraded, and the series count against what treydock's
 * exporter would give for the same fabric.
 */
#include <check.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check_db_fixture.h"
#include "tests/check_util.h"

#define ALL_PORTS (DB_METRICS_SWITCH_SWITCH | DB_METRICS_SWITCH_CA | DB_METRICS_CA)
#define ALL_GROUPS (DB_METRICS_DATA | DB_METRICS_CASTS | DB_METRICS_WAIT | DB_METRICS_ERRORS | \
		    DB_METRICS_INFO)

static char *path;
static struct db *db;
static struct topo t;

static void setup(void)
{
	path = fix_tmp_path();
	fix_small(&t);
	db = fix_store(path, &t);
}

static void teardown(void)
{
	db_close(db);
	topo_free(&t);
	fix_tmp_free(path);
}

/* The output for @o, and its count in @count (may be NULL). */
static char *render(const struct db_metrics_opts *o, struct db_metrics_count *count)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(db_metrics_print(db, f, FIX_TIME_MS, o, count), 0);
	fclose(f);
	return buf;
}

/* Lines of @text that start with @prefix. */
static unsigned lines_with(const char *text, const char *prefix)
{
	unsigned n = 0;
	size_t len = strlen(prefix);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		n += !strncmp(l, prefix, len);
	return n;
}

/* Samples in @text: lines that are not comments. */
static unsigned samples(const char *text)
{
	unsigned n = 0;

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		n += *l != '#' && *l != '\n';
	return n;
}

/* (the output goes to stderr: too long for a Check message) */
#define HAS(text, s) do { if (!strstr(text, s)) { fputs(text, stderr); \
		ck_abort_msg("no '%s' in the output", s); } } while (0)
#define HASNT(text, s) do { if (strstr(text, s)) { fputs(text, stderr); \
		ck_abort_msg("'%s' in the output", s); } } while (0)

/* Every counter of leaf-1[7] (to leaf-2) and node01[1] set to its index + 1. */
static void store_counters(void)
{
	struct db_port_sample s[2] = { { .guid = FIX_SW1, .port = 7 },
				       { .guid = FIX_H1, .port = 1 } };

	for (unsigned i = 0; i < DB_NCOUNTERS; i++)
		s[0].delta.v[i] = s[1].delta.v[i] = i + 1;
	ck_assert_int_eq(db_counters_record(db, s, 2, 10, false, 0, 0), 0);
}

START_TEST(treydock_names_by_default)
{
	store_counters();
	char *text = render(NULL, NULL);

	/* the counters, {guid, port}, switch ports only */
	HAS(text, "# TYPE infiniband_switch_port_symbol_error_total counter\n");
	HAS(text, "infiniband_switch_port_transmit_data_bytes_total{guid=\"0x0002c9030000a000\","
		  "port=\"7\"} 4\n");	/* 1 word x 4 */
	HAS(text, "infiniband_switch_port_receive_data_bytes_total{guid=\"0x0002c9030000a000\","
		  "port=\"7\"} 8\n");
	HAS(text, "infiniband_switch_port_transmit_packets_total{guid=\"0x0002c9030000a000\","
		  "port=\"7\"} 3\n");
	HAS(text, "infiniband_switch_port_transmit_wait_total{guid=\"0x0002c9030000a000\","
		  "port=\"7\"} 5\n");
	HAS(text, "infiniband_switch_port_symbol_error_total{guid=\"0x0002c9030000a000\","
		  "port=\"7\"} 6\n");
	HAS(text, "infiniband_switch_port_vl15_dropped_total{guid=\"0x0002c9030000a000\","
		  "port=\"7\"} 17\n");
	/* unicast and multicast are not in the default groups */
	HASNT(text, "_unicast_");
	HASNT(text, "infiniband_hca_");
	/* what each port is */
	HAS(text, "infiniband_switch_info{guid=\"0x0002c9030000a000\",switch=\"leaf-1\","
		  "lid=\"1\"} 1\n");
	HAS(text, "infiniband_switch_uplink_info{guid=\"0x0002c9030000a000\",port=\"1\","
		  "switch=\"leaf-1\",uplink=\"node01 mlx5_0\",uplink_guid=\"0x0002c9030000c001\","
		  "uplink_type=\"CA\",uplink_port=\"1\",uplink_lid=\"3\"} 1\n");
	HAS(text, "infiniband_switch_uplink_info{guid=\"0xf452140300116000\",port=\"7\","
		  "switch=\"leaf-2\",uplink=\"leaf-1\",uplink_guid=\"0x0002c9030000a000\","
		  "uplink_type=\"SW\",uplink_port=\"7\",uplink_lid=\"1\"} 1\n");
	/* 4xQDR: 4 x 8 Gb/s of data, 4 x 10 Gb/s on the wire */
	HAS(text, "infiniband_switch_port_rate_bytes_per_second{guid=\"0x0002c9030000a000\","
		  "port=\"7\"} 4000000000\n");
	HAS(text, "infiniband_switch_port_raw_rate_bytes_per_second{guid=\"0x0002c9030000a000\","
		  "port=\"7\"} 5000000000\n");
	HAS(text, "ibsmd_port_info{guid=\"0x0002c9030000a000\",port=\"1\",width=\"4x\","
		  "speed=\"DDR\",state=\"Active\",phys_state=\"LinkUp\"} 1\n");
	/* leaf-1 has 4 linked ports: 4 uplinks, one switch_info */
	ck_assert_uint_eq(lines_with(text, "infiniband_switch_uplink_info{guid=\"0x0002c9030000a000\""),
			  4);
	ck_assert_uint_eq(lines_with(text, "infiniband_switch_info{"), 2);
	free(text);
}
END_TEST

START_TEST(hca_side_with_port_guids)
{
	store_counters();
	struct db_metrics_opts o = DB_METRICS_OPTS_DEFAULT;
	o.ports = DB_METRICS_CA;
	o.groups = ALL_GROUPS;
	char *text = render(&o, NULL);

	/* the port's GUID (node01's port 1: node GUID + 1) */
	HAS(text, "infiniband_hca_port_receive_packets_total{guid=\"0x0002c9030000c001\","
		  "port=\"1\"} 4\n");
	HAS(text, "infiniband_hca_port_multicast_receive_packets_total{guid=\"0x0002c9030000c001\","
		  "port=\"1\"} 21\n");
	HAS(text, "infiniband_hca_info{guid=\"0x0002c9030000c001\",hca=\"node01 mlx5_0\","
		  "lid=\"3\"} 1\n");
	HAS(text, "infiniband_hca_rate_bytes_per_second{guid=\"0x0002c9030000c001\"} 2000000000\n");
	HAS(text, "infiniband_hca_uplink_info{guid=\"0x0002c9030000c002\",port=\"2\","
		  "hca=\"node01 mlx5_0\",uplink=\"leaf-2\",uplink_guid=\"0xf452140300116000\","
		  "uplink_type=\"SW\",uplink_port=\"1\",uplink_lid=\"2\"} 1\n");
	HASNT(text, "infiniband_switch_");
	ck_assert_uint_eq(lines_with(text, "infiniband_hca_info{"), 4);	/* 4 CA ports */
	free(text);
}
END_TEST

START_TEST(ibsmd_names_carry_both_ends)
{
	store_counters();
	struct db_metrics_opts o = { .names = DB_METRICS_NAMES_IBSMD, .ports = ALL_PORTS,
				     .groups = DB_METRICS_ERRORS | DB_METRICS_INFO };
	char *text = render(&o, NULL);

	HAS(text, "infiniband_port_link_downed_total{guid=\"0x0002c9030000a000\",port=\"7\","
		  "name=\"leaf-1\",remote_guid=\"0xf452140300116000\",remote_port=\"7\","
		  "remote_name=\"leaf-2\"} 8\n");
	HAS(text, "infiniband_port_link_downed_total{guid=\"0x0002c9030000c000\",port=\"1\","
		  "name=\"node01 mlx5_0\",remote_guid=\"0x0002c9030000a000\",remote_port=\"1\","
		  "remote_name=\"leaf-1\"} 8\n");
	HAS(text, "infiniband_port_rate_bytes_per_second{guid=\"0x0002c9030000c000\",port=\"2\",");
	HASNT(text, "infiniband_switch_");
	HASNT(text, "_data_bytes_total");	/* not asked for */
	HASNT(text, "_transmit_wait_total");
	free(text);
}
END_TEST

/* Does the line at @l read as the text format's sample: name, then labels
 * k="v" (v with \\, \" and \n escapes only) in braces, a space and a value,
 * then the newline? */
static bool sample_line_ok(const char *l)
{
	l += strspn(l, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (*l == '{') {
		do {
			l++;
			l += strspn(l, "abcdefghijklmnopqrstuvwxyz_");
			if (l[0] != '=' || l[1] != '"')
				return false;
			for (l += 2; *l != '"'; l++) {
				if (*l == '\\' && (l[1] == '\\' || l[1] == '"' || l[1] == 'n'))
					l++;
				else if (*l == '\\' || *l == '\n' || *l < 0x20 || *l > 0x7e)
					return false;
			}
			l++;
		} while (*l == ',');
		if (*l++ != '}')
			return false;
	}
	return *l == ' ' && strspn(l + 1, "0123456789.e+-") == strcspn(l + 1, "\n") &&
	       l[1 + strcspn(l + 1, "\n")] == '\n';
}

/* Descriptions come from the fabric: quotes, backslashes, a newline and bytes
 * outside ASCII in a node's description stay inside their label, in both
 * namings, and the line count does not change. */
START_TEST(hostile_descriptions_stay_in_their_labels)
{
	struct topo_node *s1 = &t.nodes[topo_find_guid(&t, FIX_SW1)];
	int64_t id;

	snprintf(s1->desc, sizeof(s1->desc), "a\"b\\c\nd} 1\n\xff\x01");
	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), 0);
	ck_assert_int_ge(db_store_topology(db, id, &t), 0);
	ck_assert_int_eq(db_sweep_end(db, id, NULL), 0);
	store_counters();
	char *text = render(NULL, NULL);
	HAS(text, "infiniband_switch_info{guid=\"0x0002c9030000a000\",switch=\"a\\\"b\\\\c\\nd} 1\\n__\","
		  "lid=\"1\"} 1\n");
	HAS(text, ",uplink=\"a\\\"b\\\\c\\nd} 1\\n__\",uplink_guid=\"0x0002c9030000a000\",");
	free(text);
	struct db_metrics_opts o = { .names = DB_METRICS_NAMES_IBSMD, .ports = ALL_PORTS,
				     .groups = DB_METRICS_ERRORS };
	text = render(&o, NULL);
	HAS(text, "infiniband_port_symbol_error_total{guid=\"0x0002c9030000a000\",port=\"7\","
		  "name=\"a\\\"b\\\\c\\nd} 1\\n__\",remote_guid=");
	for (const char *l = text; *l; l = strchr(l, '\n') + 1)
		ck_assert_msg(*l == '#' || sample_line_ok(l), "a broken line: %.120s", l);
	free(text);
}
END_TEST

/* Families in the budget's order, each whole: a budget that ends inside the
 * info group keeps the errors and wait, leaves info and data out whole. */
START_TEST(budget_keeps_whole_families)
{
	struct db_metrics_count all, cut;

	store_counters();
	struct db_metrics_opts o = DB_METRICS_OPTS_DEFAULT;
	char *text = render(&o, &all);
	ck_assert_uint_eq(all.omitted, 0);
	ck_assert_uint_eq(all.series, samples(text));
	char want[64];
	snprintf(want, sizeof(want), "\nibsmd_metrics_series %llu\n",
		 (unsigned long long)all.series - 3);	/* itself and the two after */
	HAS(text, want);
	char *wait = strstr(text, "\ninfiniband_switch_port_transmit_wait_total{");
	ck_assert_ptr_nonnull(wait);
	/* room for the series up to the wait family's last and 2 more: the
	 * families of 6 series left out, switch_info's 2 taken (a family that
	 * fits is written even after one that did not), nothing after it */
	unsigned before = 0;
	for (const char *l = text; l < wait + 1; l = strchr(l, '\n') + 1)
		before += *l != '#';
	o.max_series = before + 1 + 2;	/* wait has 1 series (one counted port) */
	free(text);
	text = render(&o, &cut);
	HAS(text, "infiniband_switch_port_transmit_wait_total{");
	HAS(text, "infiniband_switch_port_symbol_error_total{");
	HASNT(text, "ibsmd_port_info{");
	HASNT(text, "infiniband_switch_uplink_info{");	/* 6 series: no room */
	HAS(text, "infiniband_switch_info{");		/* 2 series: room */
	HASNT(text, "infiniband_switch_port_transmit_data_bytes_total{");
	ck_assert_uint_le(cut.series, o.max_series + 3);
	ck_assert_uint_eq(cut.series + cut.omitted, all.series);
	snprintf(want, sizeof(want), "\nibsmd_metrics_series_omitted %llu\n",
		 (unsigned long long)cut.omitted);
	HAS(text, want);
	free(text);
	/* a budget the SM's own figures already fill: no port series at all */
	o.max_series = 1;
	text = render(&o, &cut);
	HASNT(text, "infiniband_switch");
	HASNT(text, "ibsmd_port_info");
	HAS(text, "ibsmd_sweeps_total{");
	free(text);
}
END_TEST

static void sweep(void)
{
	int64_t id;

	ck_assert_int_eq(db_sweep_begin(db, "heavy", &id), 0);
	ck_assert_int_ge(db_store_topology(db, id, &t), 0);
	ck_assert_int_eq(db_sweep_end(db, id, NULL), 0);
}

/* leaf-1 described as @desc1, then a sweep without leaf-1[8] - leaf-2[8]:
 * down, the far end named from the event */
static void unlink_trunk(const char *desc1)
{
	struct topo_node *s1 = &t.nodes[topo_find_guid(&t, FIX_SW1)];
	struct topo_node *s2 = &t.nodes[topo_find_guid(&t, FIX_SW2)];

	snprintf(s1->desc, sizeof(s1->desc), "%s", desc1);
	sweep();
	s1->ports[8].peer = s2->ports[8].peer = TOPO_NONE;
	s1->ports[8].peer_port = s2->ports[8].peer_port = 0;
	s1->ports[8].state = s2->ports[8].state = MAD_PORT_DOWN;
	sweep();
}

START_TEST(links_down_isolated_degraded)
{
	/* a description that holds the event text's separator, quotes, a newline */
	unlink_trunk("le\"af\" - 0x0000000000000001[3] \"x\"\n1");
	const struct db_isolated iso = { .guid = FIX_H2, .port = 1, .peer_guid = FIX_SW1,
					 .peer_port = 2, .since_ms = FIX_TIME_MS,
					 .cause = "errors", .reason = "symbol errors" };
	ck_assert_int_eq(db_isolated_save(db, &iso), 0);
	char *text = render(NULL, NULL);

	HAS(text, "\nibsmd_links_down 1\n");
	HAS(text, "\nibsmd_link_down{guid=\"0x0002c9030000a000\",port=\"8\","
		  "name=\"le\\\"af\\\" - 0x0000000000000001[3] \\\"x\\\"\\n1\","
		  "remote_guid=\"0xf452140300116000\",remote_port=\"8\",remote_name=\"leaf-2\"} 1\n");
	HAS(text, "\nibsmd_isolated_links 1\n");
	HAS(text, "\nibsmd_link_isolated{guid=\"0x0002c9030000a000\",port=\"2\",");
	HAS(text, "remote_guid=\"0x0002c9030000d000\",remote_port=\"1\",remote_name=\"node02 mlx5_0\"} 1\n");
	HAS(text, "\nibsmd_links_degraded 0\n");
	HASNT(text, "ibsmd_link_degraded{");
	free(text);

	/* back up: no longer down; leaf-2's port trained narrower: degraded */
	struct topo_node *s1 = &t.nodes[topo_find_guid(&t, FIX_SW1)];
	struct topo_node *s2 = &t.nodes[topo_find_guid(&t, FIX_SW2)];
	uint32_t i1 = topo_find_guid(&t, FIX_SW1), i2 = topo_find_guid(&t, FIX_SW2);
	ck_assert_int_eq(topo_link(&t, i1, 8, i2, 8), 0);
	s1->ports[8].state = s2->ports[8].state = MAD_PORT_ACTIVE;
	s2->ports[8].degraded = TOPO_DEGRADED_WIDTH;
	sweep();
	text = render(NULL, NULL);
	HAS(text, "\nibsmd_links_down 0\n");
	HASNT(text, "ibsmd_link_down{");
	HAS(text, "\nibsmd_links_degraded 1\n");
	HAS(text, "\nibsmd_link_degraded{guid=\"0x0002c9030000a000\",port=\"8\",");
	free(text);
}
END_TEST

/* A node renamed since the event: its far end is found all the same; an
 * event text that does not read as two ends leaves the far end empty. */
START_TEST(link_down_with_an_unreadable_event)
{
	unlink_trunk("leaf-1");
	snprintf(t.nodes[topo_find_guid(&t, FIX_SW1)].desc, TOPO_DESC_LEN + 1, "renamed");
	sweep();
	char *text = render(NULL, NULL);
	HAS(text, "\nibsmd_link_down{guid=\"0x0002c9030000a000\",port=\"8\",name=\"renamed\","
		  "remote_guid=\"0xf452140300116000\",remote_port=\"8\",remote_name=\"leaf-2\"} 1\n");
	free(text);
	sqlite3 *s;
	ck_assert_int_eq(sqlite3_open(path, &s), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(s, "UPDATE events SET detail = '0x1[2] \"a\" - 0xzz[1] \"b\"'"
				      " WHERE kind = 'link_removed'", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	text = render(NULL, NULL);
	HAS(text, "\nibsmd_link_down{guid=\"0x0002c9030000a000\",port=\"8\",name=\"renamed\","
		  "remote_guid=\"\",remote_port=\"\",remote_name=\"\"} 1\n");
	free(text);
}
END_TEST

/*
 * What treydock/infiniband_exporter gives for a fabric (collectors/switch.go,
 * hca.go; perfquery -x on devices with the extended error counters: 22
 * counters a port): per switch 4 (info, and its collect duration, timeout,
 * error), per linked switch port 22 + rate, raw rate and uplink_info; with
 * its HCA collector, per linked CA port 22 + rate, raw rate, info,
 * duration, timeout, error and uplink_info.  (Its exporter-wide series, a
 * few per collector and Go's own, are left out: ibsmd's own come on top of
 * ours the same way.)
 */
static uint64_t treydock_series(const struct topo *f, bool hca)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < f->n; i++) {
		const struct topo_node *nd = &f->nodes[i];
		bool sw = nd->type == MAD_NODE_SWITCH;
		if (sw)
			n += 4;
		for (unsigned p = 1; p <= nd->nports; p++)
			if (nd->ports[p].peer != TOPO_NONE && (sw || hca))
				n += sw ? 22 + 3 : 22 + 7;
	}
	return n;
}

/* The series of our port families (the output less the SM's own). */
static uint64_t port_series(const struct db_metrics_opts *o)
{
	struct db_metrics_opts none = *o;
	struct db_metrics_count with, without;

	none.groups = 0;
	free(render(o, &with));
	free(render(&none, &without));
	return with.series - without.series;
}

/* Every linked port counted */
static void count_every_port(const struct topo *f)
{
	struct db_port_sample *s = calloc(2 * topo_count_links(f), sizeof(*s));
	size_t n = 0;

	for (uint32_t i = 0; i < f->n; i++)
		for (unsigned p = 1; p <= f->nodes[i].nports; p++)
			if (f->nodes[i].ports[p].peer != TOPO_NONE)
				s[n++] = (struct db_port_sample){ .guid = f->nodes[i].guid,
								   .port = (uint8_t)p,
								   .delta.xmit_data = 1 };
	ck_assert_int_eq(db_counters_record(db, s, n, 10, false, 0, 0), 0);
	free(s);
}

START_TEST(no_more_series_than_treydock)
{
	struct topo big;

	db_close(db);
	fix_tmp_free(path);
	path = fix_tmp_path();
	fix_big(&big, 12, 20);	/* 12 switches in a ring, 240 hosts */
	db = fix_store(path, &big);
	count_every_port(&big);

	struct db_metrics_opts o = DB_METRICS_OPTS_DEFAULT;
	uint64_t ours = port_series(&o), theirs = treydock_series(&big, false);
	ck_assert_uint_le(ours, theirs);
	/* 264 linked switch ports x 21, 12 switch_info */
	ck_assert_uint_eq(ours, 264 * 21 + 12);
	ck_assert_uint_eq(theirs, 12 * 4 + 264 * 25);
	/* all of it, and the HCA side: still no more than treydock with its
	 * HCA collector */
	o.groups = ALL_GROUPS;
	o.ports = ALL_PORTS;
	ours = port_series(&o);
	theirs = treydock_series(&big, true);
	ck_assert_uint_le(ours, theirs);
	o.names = DB_METRICS_NAMES_IBSMD;
	ck_assert_uint_le(port_series(&o), theirs);
	topo_free(&big);
}
END_TEST

START_TEST(option_words)
{
	unsigned mask = 99;

	ck_assert_int_eq(db_metrics_mask(db_metrics_ports_words, "switch-ca,ca", &mask), 0);
	ck_assert_uint_eq(mask, DB_METRICS_SWITCH_CA | DB_METRICS_CA);
	ck_assert_int_eq(db_metrics_mask(db_metrics_groups_words, "errors", &mask), 0);
	ck_assert_uint_eq(mask, DB_METRICS_ERRORS);
	static const char *const bad[] = { "", ",", "errors,", ",errors", "errors,,wait",
					   "Errors", "errors wait", "errorserrorserrorserrors"
					   "errorserrorserrors" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		mask = 99;
		ck_assert_int_eq(db_metrics_mask(db_metrics_groups_words, bad[i], &mask), -EINVAL);
		ck_assert_uint_eq(mask, 99);
	}
	ck_assert_int_eq(db_metrics_word(db_metrics_names_words, "ibsmd"), DB_METRICS_NAMES_IBSMD);
	ck_assert_int_eq(db_metrics_word(db_metrics_names_words, "opensm"), -1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("db_metrics");
	TCase *tc = tcase_create("metrics");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, treydock_names_by_default);
	tcase_add_test(tc, hca_side_with_port_guids);
	tcase_add_test(tc, ibsmd_names_carry_both_ends);
	tcase_add_test(tc, hostile_descriptions_stay_in_their_labels);
	tcase_add_test(tc, budget_keeps_whole_families);
	tcase_add_test(tc, links_down_isolated_degraded);
	tcase_add_test(tc, link_down_with_an_unreadable_event);
	tcase_add_test(tc, no_more_series_than_treydock);
	tcase_add_test(tc, option_words);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

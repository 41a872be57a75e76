// SPDX-License-Identifier: MIT
/*
 * check_sm_osm_qos.c - OpenSM's QoS converted (sm/osm/sm_osm_qos.c):
 *  - the two policies of tests/interop/qos.sh, written as OpenSM's files
 *    (tests/qos/pN.qos-policy.conf and pN.opensm.conf), converted, give on
 *    the sim every port the same SL-to-VL and VL arbitration tables, and
 *    every PathRecord asked the same SL, MTU and rate, as the native YAML
 *    (tests/qos/pN.yaml);
 *  - broken files: exit 1, nothing written, the reason at FILE:LINE (a
 *    refusal of the YAML read back at the OpenSM line it came from);
 *  - what has no counterpart (qos-setup, a level's pkey and path-bits, the
 *    qos-ulps default beside a DEFAULT level, which OpenSM then ignores) is
 *    listed at the end of the output with its line, the rest converted.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_sa.h"
#include "sm/osm/sm_osm_import.h"
#include "sm/sm_life.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"

static const char *fixture(const char *name)
{
	static char path[2][400];
	static int k;

	k ^= 1;
	snprintf(path[k], sizeof(path[k]), "%s/tests/qos/%s", getenv("top_srcdir") ?
		 getenv("top_srcdir") : ".", name);
	return path[k];
}

/* Convert @policy (and @conf, NULL: none); the output and standard error in
 * *@out and *@diag (the caller frees them).  The exit status. */
static int convert_text(const char *policy, const char *conf, char **out, char **diag)
{
	size_t olen = 0, dlen = 0;
	FILE *o = open_memstream(out, &olen), *d = open_memstream(diag, &dlen);
	FILE *in = fmemopen((void *)policy, strlen(policy), "r");
	FILE *c = conf ? fmemopen((void *)conf, strlen(conf), "r") : NULL;

	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(in);
	int rc = sm_osm_qos_import(in, "q.conf", c, conf ? "o.conf" : NULL, o, d);
	fclose(in);
	if (c)
		fclose(c);
	fclose(o);
	fclose(d);
	return rc;
}

/* --- the two policies of qos.sh, on the sim --- */

/* Every port's tables as the sim's devices hold them, and the PathRecords
 * asked between the hosts, as bytes. */
struct dump {
	char *buf;
	size_t len;
	FILE *f;
};

static void dump_tables(struct sm *sm, FILE *f)
{
	struct sim_fabric *fb = fab(sm);
	const struct topo *t = sim_fabric_topo(fb);

	for (uint32_t n = 0; n < t->n; n++) {
		bool sw = t->nodes[n].type == MAD_NODE_SWITCH;
		for (uint8_t out = sw ? 0 : 1; out <= t->nodes[n].nports; out++) {
			struct mad_vlarb_block b;
			struct mad_sl2vl s;
			for (uint8_t in = 0; in <= (sw ? t->nodes[n].nports : 0); in++)
				if (sim_get_sl2vl(fb, n, in, out, &s) == 0) {
					fprintf(f, "%u %u %u sl2vl ", n, in, out);
					fwrite(&s, sizeof(s), 1, f);
				}
			for (uint8_t blk = MAD_VLARB_LOW_0_31; blk <= MAD_VLARB_HIGH_32_63; blk++)
				if (sim_get_vlarb(fb, n, out, blk, &b) == 0) {
					fprintf(f, "%u %u vlarb %u ", n, out, blk);
					fwrite(&b, sizeof(b), 1, f);
				}
		}
	}
}

static void dump_paths(struct sm *sm, FILE *f)
{
	static const char *const hosts[] = { "H1", "H2", "H3" };
	static const struct {
		uint64_t mask;
		struct mad_sa_path_record t;
	} asks[] = {
		{ MAD_SA_COMP(0) | MAD_SA_COMP(1), { .service_id = 0x11388 } },
		{ MAD_SA_COMP(0) | MAD_SA_COMP(1), { .service_id = 0x10001 } },
		{ MAD_SA_COMP(0) | MAD_SA_COMP(1), { .service_id = 0x10648ca } },
		{ MAD_SA_COMP(0) | MAD_SA_COMP(1), { .service_id = 0x500 } },
		{ MAD_SA_COMP(0) | MAD_SA_COMP(1), { .service_id = 0x1234 } },
		{ MAD_SA_PR_PKEY, { .pkey = 0xffff } },
		{ MAD_SA_COMP(14), { .qos_class = 5 } },
	};

	for (size_t a = 0; a < 3; a++)
		for (size_t b = 0; b < 3; b++)
			for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]); i++) {
				struct mad_sa_path_record t = asks[i].t, r;
				uint8_t data[MAD_SA_PATH_RECORD_SIZE];
				t.slid = sm_port1_lid(sm, hosts[a]);
				t.dlid = sm_port1_lid(sm, hosts[b]);
				mad_sa_path_record_encode(&t, data);
				struct mad_sa resp = sm_sa_ask(sm, MAD_SA_METHOD_GET,
							       MAD_SA_ATTR_PATH_RECORD,
							       asks[i].mask | MAD_SA_PR_SLID |
							       MAD_SA_PR_DLID, data, sizeof(data));
				mad_sa_path_record_decode(resp.data, &r);
				fprintf(f, "%s-%s %zu: status %u sl %u mtu %u rate %u\n", hosts[a],
					hosts[b], i, resp.status, r.sl, r.mtu, r.rate);
			}
}

static void run(const char *qos, struct dump *d)
{
	struct sm sm;

	d->f = open_memstream(&d->buf, &d->len);
	ck_assert_ptr_nonnull(d->f);
	sm_start_policies(&sm, "twoswitch.topo", NULL, qos);
	dump_tables(&sm, d->f);
	dump_paths(&sm, d->f);
	sm_close(&sm);
	fclose(d->f);
}

START_TEST(converted_as_native)
{
	const char *p = _i ? "p2" : "p1";
	char name[64], conv[300];

	snprintf(conv, sizeof(conv), "%s/converted.yaml", dbdir);
	FILE *out = fopen(conv, "w"), *diag = fopen("/dev/null", "w");
	ck_assert_ptr_nonnull(out);
	snprintf(name, sizeof(name), "%s.qos-policy.conf", p);
	const char *paths[2] = { fixture(name), NULL };
	snprintf(name, sizeof(name), "%s.opensm.conf", p);
	paths[1] = fixture(name);
	ck_assert_int_eq(sm_osm_import(paths, 2, out, diag), 0);
	fclose(out);
	fclose(diag);

	struct dump native, converted, none;
	snprintf(name, sizeof(name), "%s.yaml", p);
	run(fixture(name), &native);
	run(conv, &converted);
	ck_assert_uint_eq(native.len, converted.len);
	ck_assert_mem_eq(native.buf, converted.buf, native.len);
	/* not trivially equal: without a policy the tables and SLs differ */
	run(NULL, &none);
	ck_assert(none.len != native.len || memcmp(none.buf, native.buf, none.len));
	free(native.buf);
	free(converted.buf);
	free(none.buf);
}
END_TEST

/* --- what cannot be converted --- */

START_TEST(left_out_listed)
{
	char *out, *diag;
	const char *policy =
		"# a comment\n"
		"qos-setup\n"
		"    vlarb-tables\n"
		"        vlarb-scope\n"
		"            group: Storage\n"
		"            vlarb-high: 0:255\n"
		"        end-vlarb-scope\n"
		"    end-vlarb-tables\n"
		"end-qos-setup\n"
		"qos-levels\n"
		"    qos-level\n"
		"        name: DEFAULT\n"
		"        use: all else\n"
		"        sl: 0\n"
		"        pkey: 0x1234\n"
		"        path-bits: 1,2\n"
		"        rate-limit: 16\n"
		"    end-qos-level\n"
		"end-qos-levels\n"
		"qos-ulps\n"
		"    default: 3\n"
		"end-qos-ulps\n";

	ck_assert_int_eq(convert_text(policy, NULL, &out, &diag), 0);
	/* both defaults: OpenSM takes the DEFAULT level */
	ck_assert_ptr_null(strstr(out, "ulp: default"));
	ck_assert_ptr_nonnull(strstr(out, "#   q.conf:21: default : 3: the qos-level named DEFAULT"));
	ck_assert_ptr_nonnull(strstr(out, "rate_limit: 100G"));
	ck_assert_ptr_nonnull(strstr(out, "# use: all else"));
	ck_assert_ptr_nonnull(strstr(out, "#   q.conf:2: qos-setup"));
	ck_assert_ptr_nonnull(strstr(out, "#   q.conf:15: pkey 0x1234: ibsmd's QoS levels carry "
				     "no P_Key"));
	ck_assert_ptr_nonnull(strstr(out, "#   q.conf:16: path-bits 1,2"));
	ck_assert_ptr_null(strstr(out, "vlarb-high"));
	ck_assert_ptr_nonnull(strstr(diag, "q.conf:15: warning: pkey 0x1234: no counterpart"));
	free(out);
	free(diag);
}
END_TEST

/* --- broken files --- */

static const struct {
	const char *policy, *conf, *says;
} bad[] = {
	{ "qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n", NULL,
	  "q.conf:2: qos-level not closed" },
	{ "qos-levels\nqos-level\nname: DEFAULT\nsl: 16\nend-qos-level\nend-qos-levels\n", NULL,
	  "q.conf:4: sl: '16' is no SL" },
	{ "qos-levels\nqos-level\nname: A\nmtu-limit: 6\nend-qos-level\nend-qos-levels\n", NULL,
	  "q.conf:4: mtu-limit: '6' is no IBA MTU code" },
	{ "qos-levels\nqos-level\nname: A\nrate-limit: 1\nend-qos-level\nend-qos-levels\n", NULL,
	  "q.conf:4: rate-limit: '1' is no IBA rate code" },
	{ "qos-levels\nqos-level\nname: A\nname: B\nend-qos-level\nend-qos-levels\n", NULL,
	  "q.conf:4: name given twice in this qos-level (first at line 3)" },
	{ "qos-levels\nqos-level\ncolour: red\nend-qos-level\nend-qos-levels\n", NULL,
	  "q.conf:3: 'colour' is no key of a qos-level" },
	{ "qos-ulps\n  default: 0\nend-qos-ulps\nqos-level\n", NULL,
	  "q.conf:4: qos-level outside qos-levels" },
	{ "qos-ulps\n  default: 0\nend-qos-levels\n", NULL,
	  "q.conf:3: 'end-qos-levels' closes nothing open here" },
	{ "qos-ulps\n  default: 0\n  mpi: 3\nend-qos-ulps\n", NULL,
	  "q.conf:3: 'mpi' is no ULP of qos-ulps" },
	{ "qos-ulps\n  default: 0\n  sdp, port-num x10: 3\nend-qos-ulps\n", NULL,
	  "q.conf:3: port-num: 'x10' is no number nor LO-HI range" },
	{ "qos-ulps\n  default: 0\n  default: 1\nend-qos-ulps\n", NULL,
	  "q.conf:3: the default ULP rule given twice (first at line 2)" },
	{ "qos-ulps\n  default: 0\n  sdp, colour 1: 3\nend-qos-ulps\n", NULL,
	  "q.conf:3: 'colour': expected port-num" },
	{ "qos-ulps\n  default: 0\n  sdp 3\nend-qos-ulps\n", NULL,
	  "q.conf:3: 'sdp': a qos-ulps line is" },
	{ "port-groups\nport-group\nname: G\nnode-type: CA, HOST\nend-port-group\n"
	  "end-port-groups\n", NULL, "q.conf:4: node-type: 'HOST' is none of" },
	{ "port-groups\nport-group\nname: G\nport-guid: 0x10, ten\nend-port-group\n"
	  "end-port-groups\n", NULL, "q.conf:4: port-guid: 'ten' is no number" },
	{ "qos-ulps\n  default: 0\nend-qos-ulps\nhello\n", NULL,
	  "q.conf:4: 'hello' is no keyword of a qos-policy.conf here" },
	/* refused by the daemon's reading, at the OpenSM line */
	{ "qos-levels\nqos-level\nname: DEFAULT\nsl: 0\nend-qos-level\nend-qos-levels\n"
	  "qos-match-rules\nqos-match-rule\nqos-class: 1\nqos-level-name: Gold\n"
	  "end-qos-match-rule\nend-qos-match-rules\n", NULL, "q.conf:10: " },
	{ "qos-levels\nqos-level\nname: Gold\nsl: 1\nend-qos-level\nend-qos-levels\n", NULL,
	  "q.conf: " },
	{ "qos-levels\nqos-level\nname: DEFAULT\nsl: 0\nend-qos-level\nqos-level\n"
	  "name: default\nsl: 1\nend-qos-level\nend-qos-levels\n", NULL, "q.conf:7: " },
	{ "qos-levels\nqos-level\nname: DEFAULT\npacket-life: 64\nend-qos-level\n"
	  "end-qos-levels\n", NULL, "q.conf:4: " },
	{ "qos-ulps\n  default: 0\n  srp: 3\nend-qos-ulps\n", NULL, "q.conf:3: " },
	{ "qos-ulps\n default: 0\nend-qos-ulps\n", "qos TRUE\nqos_ca_sl2vl 0,1,2\n",
	  "o.conf:2: " },
	{ "qos-ulps\n default: 0\nend-qos-ulps\n", "qos TRUE\nqos_swe_vlarb_low 0:300\n",
	  "o.conf:2: " },
	{ "qos-ulps\n default: 0\nend-qos-ulps\n", "qos_max_vls many\n",
	  "o.conf:1: qos_max_vls: 'many' is no number" },
	{ "qos-ulps\n default: 0\x01\nend-qos-ulps\n", NULL,
	  "q.conf:2: a control character or NUL byte" },
};

START_TEST(bad_files_refused)
{
	char *out, *diag;

	ck_assert_int_eq(convert_text(bad[_i].policy, bad[_i].conf, &out, &diag), 1);
	ck_assert_str_eq(out, "");
	if (!strstr(diag, bad[_i].says))
		ck_abort_msg("case %d: '%s' does not say '%s'", _i, diag, bad[_i].says);
	ck_assert_ptr_nonnull(strstr(diag, "nothing written"));
	free(out);
	free(diag);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_osm_qos");
	TCase *tc = tcase_create("convert");

	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, converted_as_native, 0, 2);
	tcase_add_test(tc, left_out_listed);
	tcase_add_loop_test(tc, bad_files_refused, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_qos.c - the QoS policy: the file's reader (a full policy, a
 * simplified one, OpenSM's defaults for the VL tables, each bad file refused
 * with FILE:LINE:COLUMN) and the matcher (rules in order, every criterion,
 * criteria on fields a request does not carry, the ULPs after the rules, the
 * default level); then on the sim backend (tests/topo/twoswitch.topo, with a
 * partitions file) the SA's PathRecords and MultiPathRecords carrying the
 * matched level's SL, MTU and rate limits and packet lifetime, the IPoIB
 * group of a P_Key an ipoib rule names on its SL, and a broken policy on
 * reload keeping the running one.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_sa.h"
#include "sm/sa/sm_mcast.h"
#include "sm/sa/sm_qos.h"
#include "sm/sa/sm_sa.h"
#include "sm/sa/sm_sa_index.h"
#include "sm/sm_life.h"
#include "sm/sm_reload.h"
#include "sm/sweep/sm_sl2vl.h"
#include "sm/sweep/sm_sweep.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"

static int parse(const char *text, struct sm_qos_policy *q, char *err, size_t errlen)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");

	ck_assert_ptr_nonnull(in);
	int rc = sm_qos_policy_parse(in, "q.yaml", q, err, errlen);
	fclose(in);
	return rc;
}

static const char *const full =
	"port_groups:\n"
	"  - name: Storage\n"
	"    use: SRP targets\n"
	"    port_guids: 0x10, 0x20-0x2f\n"
	"  - name: Virtual\n"
	"    port_names: [\"vs1 HCA-1/P1\"]\n"
	"  - name: Blue\n"
	"    partitions: [blue]\n"
	"    pkeys: [0x0005]\n"
	"  - name: Switches\n"
	"    node_types: [switch, self]\n"
	"qos_levels:\n"
	"  - name: DEFAULT\n"
	"    sl: 0\n"
	"  - name: WholeSet\n"
	"    sl: 1\n"
	"    mtu_limit: 2048\n"
	"    rate_limit: 40G\n"
	"    packet_life: 8\n"
	"  - name: bulk\n"
	"    sl: 2\n"
	"match_rules:\n"
	"  - qos_class: 7-9,11\n"
	"    level: WholeSet\n"
	"  - destination: [Storage]\n"
	"    service_ids: [0x100-0x1ff]\n"
	"    level: bulk\n"
	"  - source: [Virtual]\n"
	"    destination: [Storage, Blue]\n"
	"    level: wholeset\n"
	"  - source: [switches]\n"
	"    pkeys: [0x0f00-0x0fff]\n"
	"    level: bulk\n"
	"ulps:\n"
	"  - { ulp: sdp, port_num: 10000-20000, sl: 5 }\n"
	"  - { ulp: sdp, sl: 6 }\n"
	"  - { ulp: rds, sl: 7 }\n"
	"  - { ulp: iser, sl: 8 }\n"
	"  - { ulp: ipoib, pkey: 0x0001, sl: 9 }\n"
	"  - { ulp: ipoib, sl: 10 }\n"
	"  - { ulp: any, source_target_port_guid: 0x77, sl: 11 }\n"
	"  - { ulp: srp, target_port_guid: 0x1234, sl: 12 }\n"
	"vl_tables:\n"
	"  all:\n"
	"    high_limit: 6\n"
	"    vlarb_low: \"0:0,1:64,2:128\"\n"
	"  ca:\n"
	"    max_vls: 4\n"
	"    sl2vl: [0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,15]\n"
	"  switch_port0:\n"
	"    high_limit: 0\n";

/* A port of a made-up fabric: port GUID 0x10 holds P_Key 0x0005, a port
 * whose NodeDescription starts with "blue" is in the partition blue. */
static bool holds(const void *ctx, const struct sm_qos_port *pt, uint16_t lo, uint16_t hi,
		  const char *name)
{
	(void)ctx;
	if (name)
		return strcmp(name, "blue") == 0 && strncmp(pt->desc, "blue", 4) == 0;
	return pt->guid == 0x10 && lo <= 5 && 5 <= hi;
}

static struct sm_qos_port port(uint64_t guid, const char *desc, unsigned p, unsigned type)
{
	return (struct sm_qos_port){ .guid = guid, .desc = desc, .port = p, .node_type = type,
				     .in_partition = holds };
}

/* The SL of the level a request from @s to @d matches. */
static unsigned sl_of(const struct sm_qos_policy *q, const struct sm_qos_port *s,
		      const struct sm_qos_port *d, int sid, int pkey, int cls)
{
	struct sm_qos_request r = { .src = s, .dst = d, .has_sid = sid >= 0,
				    .service_id = (uint64_t)(sid >= 0 ? sid : 0),
				    .has_pkey = pkey >= 0, .pkey = (uint16_t)(pkey >= 0 ? pkey : 0),
				    .has_class = cls >= 0, .qos_class = (uint16_t)(cls >= 0 ? cls : 0) };
	const struct sm_qos_level *l = sm_qos_match(q, &r);

	ck_assert_ptr_nonnull(l);
	return l->sl;
}

START_TEST(full_policy)
{
	struct sm_qos_policy q;
	char err[512] = "";

	ck_assert_msg(parse(full, &q, err, sizeof(err)) == 0, "%s", err);
	ck_assert(q.on);
	ck_assert_uint_eq(q.nrules, 4 + 8);
	ck_assert_str_eq(q.levels[q.default_level].name, "DEFAULT");
	const struct sm_qos_level *ws = &q.levels[1];
	ck_assert_uint_eq(ws->mtu, 4);
	ck_assert_uint_eq(ws->rate, 7);
	ck_assert_uint_eq(ws->pkt_life, 8);
	ck_assert_uint_eq(q.levels[2].mtu, 0);
	ck_assert_uint_eq(q.levels[2].pkt_life, 0xff);

	struct sm_qos_port ca = port(0x99, "host HCA-1", 1, SM_QOS_NT_CA),
			   st = port(0x25, "target HCA-1", 1, SM_QOS_NT_CA),
			   vs = port(0x50, "vs1 HCA-1", 1, SM_QOS_NT_CA),
			   vs2 = port(0x51, "vs1 HCA-1", 2, SM_QOS_NT_CA),
			   blue = port(0x60, "blue7 HCA-1", 1, SM_QOS_NT_CA),
			   p5 = port(0x10, "x", 1, SM_QOS_NT_CA),
			   sw = port(0x70, "sw", 0, SM_QOS_NT_SWITCH),
			   sm = port(0x71, "sm", 1, SM_QOS_NT_CA | SM_QOS_NT_SELF),
			   either = port(0x77, "e", 1, SM_QOS_NT_CA),
			   srp = port(0x1234, "srp", 1, SM_QOS_NT_CA);

	/* nothing carried, nothing matched: the default */
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, -1, -1, -1), 0);
	/* rule 1: a QoS class, only when the request carries one */
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, -1, -1, 8), 1);
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, -1, -1, 11), 1);
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, -1, -1, 10), 0);
	/* rule 2: destination Storage (a GUID range) and a ServiceID, both */
	ck_assert_uint_eq(sl_of(&q, &ca, &st, 0x150, -1, -1), 2);
	ck_assert_uint_eq(sl_of(&q, &ca, &st, -1, -1, -1), 0);
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, 0x150, -1, -1), 0);
	ck_assert_uint_eq(sl_of(&q, &ca, &st, 0x200, -1, -1), 0);
	/* the first rule that holds wins: class 8 to Storage with the SID */
	ck_assert_uint_eq(sl_of(&q, &ca, &st, 0x150, -1, 8), 1);
	/* rule 3: source by port name (its port number too), destination in
	 * either group: a partition by name, a group by P_Key */
	ck_assert_uint_eq(sl_of(&q, &vs, &st, -1, -1, -1), 1);
	ck_assert_uint_eq(sl_of(&q, &vs, &blue, -1, -1, -1), 1);
	ck_assert_uint_eq(sl_of(&q, &vs, &p5, -1, -1, -1), 1);
	ck_assert_uint_eq(sl_of(&q, &vs2, &st, -1, -1, -1), 0);
	ck_assert_uint_eq(sl_of(&q, &st, &vs, -1, -1, -1), 0);
	/* rule 4: node types (self too) and a P_Key range on 15 bits */
	ck_assert_uint_eq(sl_of(&q, &sw, &ca, -1, 0x8f10, -1), 2);
	ck_assert_uint_eq(sl_of(&q, &sm, &ca, -1, 0x0f00, -1), 2);
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, -1, 0x0f00, -1), 0);
	/* the ULPs, in order, after the rules */
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, 0x10000 + 10000, -1, -1), 5);
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, 0x10000 + 20000, -1, -1), 5);
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, 0x10000 + 20001, -1, -1), 6);
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, 0x1ffff, -1, -1), 6);
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, 0x10648ca, -1, -1), 7);
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, 0x1060cbc, -1, -1), 8);
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, -1, 0x8001, -1), 9);
	ck_assert_uint_eq(sl_of(&q, &ca, &ca, -1, 0xffff, -1), 10);
	ck_assert_uint_eq(sl_of(&q, &either, &ca, -1, -1, -1), 11);
	ck_assert_uint_eq(sl_of(&q, &ca, &either, -1, -1, -1), 11);
	ck_assert_uint_eq(sl_of(&q, &ca, &srp, -1, -1, -1), 12);
	ck_assert_uint_eq(sl_of(&q, &srp, &ca, -1, -1, -1), 0);

	/* the tables: type's field, else all's, else OpenSM's default */
	const struct sm_qos_vl_config *c = &q.vl[SM_QOS_PORT_CA],
				      *e = &q.vl[SM_QOS_PORT_SWITCH_EXTERNAL],
				      *z = &q.vl[SM_QOS_PORT_SWITCH_PORT0];
	ck_assert_uint_eq(c->max_vls, 4);
	ck_assert_uint_eq(e->max_vls, 15);
	ck_assert_uint_eq(c->high_limit, 6);
	ck_assert_uint_eq(z->high_limit, 0);
	ck_assert_uint_eq(c->sl2vl.vl[15], 15);
	ck_assert_uint_eq(c->sl2vl.vl[5], 1);
	ck_assert_uint_eq(e->sl2vl.vl[15], 7);
	ck_assert_uint_eq(e->sl2vl.vl[14], 14);
	ck_assert_uint_eq(e->vlarb_low[0].e[2].vl, 2);
	ck_assert_uint_eq(e->vlarb_low[0].e[2].weight, 128);
	ck_assert_uint_eq(e->vlarb_low[0].e[3].weight, 0);
	ck_assert_uint_eq(e->vlarb_high[0].e[0].weight, 4);	/* the default */
	ck_assert_uint_eq(e->vlarb_high[0].e[1].weight, 0);
	sm_qos_policy_free(&q);
}
END_TEST

START_TEST(simplified_and_none)
{
	struct sm_qos_policy q;
	char err[512] = "";

	ck_assert_msg(parse("ulps:\n  - { ulp: default, sl: 3 }\n"
			    "  - { ulp: any, pkey: 0x10, sl: 4 }\n", &q, err, sizeof(err)) == 0,
		      "%s", err);
	struct sm_qos_port a = port(1, "a", 1, SM_QOS_NT_CA);
	ck_assert_uint_eq(sl_of(&q, &a, &a, -1, -1, -1), 3);
	ck_assert_uint_eq(sl_of(&q, &a, &a, -1, 0x10, -1), 4);
	sm_qos_policy_free(&q);

	/* no policy: no level, OpenSM's default tables */
	sm_qos_policy_none(&q);
	struct sm_qos_request r = { .src = &a, .dst = &a };
	ck_assert_ptr_null(sm_qos_match(&q, &r));
	ck_assert_uint_eq(q.vl[SM_QOS_PORT_ROUTER].max_vls, 15);
	ck_assert_uint_eq(q.vl[SM_QOS_PORT_ROUTER].vlarb_low[0].e[14].vl, 14);
	ck_assert_uint_eq(q.vl[SM_QOS_PORT_ROUTER].vlarb_low[0].e[14].weight, 4);
	ck_assert_uint_eq(q.vl[SM_QOS_PORT_ROUTER].vlarb_low[0].e[15].weight, 0);
}
END_TEST

/* Each bad file is refused with where and why, and the caller's policy is
 * left as it was. */
START_TEST(bad_files)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "", "q.yaml:1:1: the policy is empty" },
		{ "[1, 2]\n", "q.yaml:1:1: the policy must be a mapping" },
		{ "qos_levels: [{name: x, sl: 1}]\n", "no default" },
		{ "qos_levels: [{name: DEFAULT, sl: 16}]\n", "q.yaml:1:34: sl: 16 is out of range" },
		{ "qos_levels: [{name: DEFAULT, sl: 0}, {name: default, sl: 1}]\n",
		  "q.yaml:1:38: QoS level 'default' given twice" },
		{ "qos_levels: [{name: DEFAULT, mtu_limit: 3000}]\n", "mtu_limit: expected 256" },
		{ "qos_levels: [{name: DEFAULT, rate_limit: 41G}]\n", "rate_limit: expected" },
		{ "qos_levels: [{name: DEFAULT, packet_life: 64}]\n", "packet_life: 64 is out" },
		{ "qos_levels: [{name: DEFAULT, colour: red}]\n", "unknown key 'colour'" },
		{ "qos_levels: [{name: DEFAULT}]\nmatch_rules: [{source: [nope], level: DEFAULT}]\n",
		  "q.yaml:2:25: source: no port group named 'nope'" },
		/* found by fuzz_qos: a key that is a list, before the keys were checked */
		{ "qos_levels: [{name: DEFAULT, sl: 0}]\nmatch_rules: [{[nope], level: DEFAULT}]\n",
		  "match rule: keys must be plain names" },
		{ "qos_levels: [{name: DEFAULT}]\nmatch_rules: [{pkeys: 1}]\n",
		  "q.yaml:2:15: a match rule needs a level" },
		{ "qos_levels: [{name: DEFAULT}]\nmatch_rules: [{pkeys: 1, level: other}]\n",
		  "level: no QoS level named 'other'" },
		{ "qos_levels: [{name: DEFAULT}]\nmatch_rules: [{pkeys: 0x8000, level: DEFAULT}]\n",
		  "pkeys: '0x8000' is not a number or a range" },
		{ "qos_levels: [{name: DEFAULT}]\nmatch_rules: [{pkeys: 9-2, level: DEFAULT}]\n",
		  "pkeys: range '9-2' ends below its start" },
		{ "qos_levels: [{name: DEFAULT}]\nmatch_rules: [{service_ids: -1, level: DEFAULT}]\n",
		  "service_ids: '-1' is not a number" },
		{ "port_groups: [{name: a}, {name: A}]\nulps: [{ulp: default, sl: 0}]\n",
		  "port group 'A' given twice" },
		{ "port_groups: [{name: a, node_types: [hub]}]\n", "'hub' is not ca, switch" },
		{ "ulps: [{ulp: default, sl: 0}, {ulp: default, sl: 1}]\n", "given twice" },
		{ "ulps: [{ulp: default, sl: 0, pkey: 1}]\n", "takes no criterion" },
		{ "ulps: [{ulp: default, sl: 0}, {ulp: sdp, pkey: 1, sl: 1}]\n",
		  "ulp sdp takes port_num, not pkey" },
		{ "ulps: [{ulp: default, sl: 0}, {ulp: srp, sl: 1}]\n",
		  "ulp srp needs target_port_guid" },
		{ "ulps: [{ulp: default, sl: 0}, {ulp: mpi, sl: 1}]\n", "'mpi' is not default" },
		{ "ulps: [{ulp: default, sl: 0}, {ulp: any, pkey: 1, service_id: 2, sl: 1}]\n",
		  "one criterion" },
		{ "ulps: [{ulp: default}]\n", "needs ulp and sl" },
		{ "qos_levels: [{name: DEFAULT}]\nulps: [{ulp: default, sl: 1}]\n",
		  "a default level is given twice" },
		{ "ulps: [{ulp: default, sl: 0}]\nvl_tables: {ca: {sl2vl: [0, 1]}}\n",
		  "sl2vl: 2 VLs, expected one per SL (16)" },
		{ "ulps: [{ulp: default, sl: 0}]\nvl_tables: {ca: {max_vls: 0}}\n", "max_vls: 1 to 15" },
		{ "ulps: [{ulp: default, sl: 0}]\nvl_tables: {ca: {vlarb_low: \"15:4\"}}\n",
		  "vlarb_low: an entry is VL:weight with a VL of 0 to 14" },
		{ "ulps: [{ulp: default, sl: 0}]\nvl_tables: {ca: {vlarb_low: \"1:256\"}}\n",
		  "a weight is 0 to 255" },
		{ "ulps: [{ulp: default, sl: 0}]\nvl_tables: {hub: {}}\n", "'hub' is not all" },
		{ "ulps: [{ulp: default, sl: 0}]\nqos_levels: 3\n", "qos_levels: expected a list" },
		{ "ulps: [{ulp: default, sl: 0}]\nulps: []\n", "'ulps' given twice" },
		{ "ulps: [{ulp: default, sl: 0}\n", "q.yaml:2:1:" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sm_qos_policy q = { .nrules = 4242 };
		char err[512] = "";
		ck_assert_msg(parse(bad[i].text, &q, err, sizeof(err)) < 0, "accepted: %s",
			      bad[i].text);
		ck_assert_msg(strstr(err, bad[i].want), "%s: got '%s', want '%s'", bad[i].text,
			      err, bad[i].want);
		ck_assert_uint_eq(q.nrules, 4242);
	}
	/* 64 VL arbitration entries are the most */
	char big[2048] = "ulps: [{ulp: default, sl: 0}]\nvl_tables: {all: {vlarb_low: \"";
	for (int i = 0; i < 65; i++)
		strcat(big, i ? ",1:1" : "1:1");
	strcat(big, "\"}}\n");
	struct sm_qos_policy q;
	char err[512] = "";
	ck_assert(parse(big, &q, err, sizeof(err)) < 0);
	ck_assert_msg(strstr(err, "at most 64 entries"), "%s", err);
}
END_TEST

/* --- the SA on the sim --- */

static struct sm sm;
static char qfile[300];

static void write_to(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static const char sim_policy[] =
	"port_groups:\n"
	"  - { name: storage, port_names: [\"H2/P1\"] }\n"
	"qos_levels:\n"
	"  - { name: DEFAULT, sl: 0 }\n"
	"  - { name: slow, sl: 3, mtu_limit: 1024, rate_limit: 10G, packet_life: 9 }\n"
	"match_rules:\n"
	"  - { destination: [storage], service_ids: 0x500, level: slow }\n"
	"ulps:\n"
	"  - { ulp: ipoib, pkey: 0x0001, sl: 4 }\n"
	"  - { ulp: sdp, sl: 5 }\n"
	"vl_tables:\n"
	"  all:\n"
	"    high_limit: 4\n"
	"    vlarb_low: \"0:0,1:64,2:128,3:192,4:0,5:64,6:64,7:64,8:9\"\n"
	"    vlarb_high: \"0:4\"\n"
	"    sl2vl: [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7]\n"
	"  ca:\n"
	"    sl2vl: [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,15]\n";

static void sim_setup(void)
{
	char pfile[300];

	fixture_setup();
	snprintf(pfile, sizeof(pfile), "%s/partitions.yaml", dbdir);
	write_to(pfile, "partitions:\n  - name: blue\n    pkey: 0x0001\n    ipoib: yes\n"
		 "    members: {H1: full, H2: full}\n");
	snprintf(qfile, sizeof(qfile), "%s/qos.yaml", dbdir);
	write_to(qfile, sim_policy);
	sm_start_policies(&sm, "twoswitch.topo", pfile, qfile);
}

static void sim_teardown(void)
{
	sm_close(&sm);
	fixture_teardown();
}

static uint16_t lid(const char *name)
{
	return sm_port1_lid(&sm, name);
}

/* A PathRecord Get from @a to @b with template @t's fields under @extra. */
static uint16_t path(const char *a, const char *b, struct mad_sa_path_record t, uint64_t extra,
		     struct mad_sa_path_record *r)
{
	uint8_t data[MAD_SA_PATH_RECORD_SIZE];

	t.slid = lid(a);
	t.dlid = lid(b);
	mad_sa_path_record_encode(&t, data);
	struct mad_sa resp = sm_sa_ask(&sm, MAD_SA_METHOD_GET, MAD_SA_ATTR_PATH_RECORD,
				 MAD_SA_PR_SLID | MAD_SA_PR_DLID | extra, data, sizeof(data));
	mad_sa_path_record_decode(resp.data, r);
	return resp.status;
}

#define SID (MAD_SA_COMP(0) | MAD_SA_COMP(1))

START_TEST(path_levels)
{
	struct mad_sa_path_record r, plain;

	/* nothing matched: the default level's SL 0, the links' MTU and rate */
	ck_assert_uint_eq(path("H1", "H2", (struct mad_sa_path_record){ 0 }, 0, &plain), 0);
	ck_assert_uint_eq(plain.sl, 0);
	ck_assert_uint_gt(plain.mtu, 3);
	ck_assert_uint_ne(plain.rate, 3);
	/* to the storage group with its ServiceID: the slow level, whole */
	ck_assert_uint_eq(path("H1", "H2", (struct mad_sa_path_record){ .service_id = 0x500 },
			       SID, &r), 0);
	ck_assert_uint_eq(r.sl, 3);
	ck_assert_uint_eq(r.mtu, 3);
	ck_assert_uint_eq(r.rate, 3);
	ck_assert_uint_eq(r.packet_lifetime, 9);
	ck_assert_uint_eq(r.service_id, 0x500);
	/* the same ServiceID elsewhere, or from storage's port: the default */
	ck_assert_uint_eq(path("H2", "H1", (struct mad_sa_path_record){ .service_id = 0x500 },
			       SID, &r), 0);
	ck_assert_uint_eq(r.sl, 0);
	ck_assert_uint_eq(r.mtu, plain.mtu);
	/* a different SL asked for than the level gives: no path */
	ck_assert_uint_eq(path("H1", "H2", (struct mad_sa_path_record){ .service_id = 0x500,
									.sl = 2 },
			       SID | MAD_SA_PR_SL, &r), MAD_SA_ERR_NO_RECORDS);
	ck_assert_uint_eq(path("H1", "H2", (struct mad_sa_path_record){ .service_id = 0x500,
									.sl = 3 },
			       SID | MAD_SA_PR_SL, &r), 0);
	/* the ULPs: IPoIB on blue's P_Key, SDP by its ServiceIDs */
	ck_assert_uint_eq(path("H1", "H2", (struct mad_sa_path_record){ .pkey = 0x8001 },
			       MAD_SA_PR_PKEY, &r), 0);
	ck_assert_uint_eq(r.sl, 4);
	ck_assert_uint_eq(path("H1", "H2", (struct mad_sa_path_record){ .service_id = 0x1abcd },
			       SID, &r), 0);
	ck_assert_uint_eq(r.sl, 5);
	/* a ServiceID not given in the mask is not matched on */
	ck_assert_uint_eq(path("H1", "H2", (struct mad_sa_path_record){ .service_id = 0x1abcd },
			       0, &r), 0);
	ck_assert_uint_eq(r.sl, 0);
}
END_TEST

START_TEST(multipath_levels)
{
	struct mad_sa_multipath_record t = { .sgid_count = 1, .dgid_count = 1 };
	struct mad_sa_path_record r;
	uint8_t data[MAD_SA_DATA_SIZE] = { 0 };

	t.path.service_id = 0x500;
	for (int i = 0; i < 8; i++) {
		t.gids[0][8 + i] = (uint8_t)(sm.fabric.topo.nodes[topo_find_guid(&sm.fabric.topo,
			sim_fabric_topo(fab(&sm))->nodes[sim_node_named(&sm, "H1")].guid)]
			.ports[1].guid >> (56 - 8 * i));
		t.gids[1][8 + i] = (uint8_t)(sm.fabric.topo.nodes[topo_find_guid(&sm.fabric.topo,
			sim_fabric_topo(fab(&sm))->nodes[sim_node_named(&sm, "H2")].guid)]
			.ports[1].guid >> (56 - 8 * i));
	}
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < 8; i++)
			t.gids[k][i] = (uint8_t)(sm.cfg.subnet_prefix >> (56 - 8 * i));
	mad_sa_multipath_record_encode(&t, data, sizeof(data));
	struct mad_sa resp = sm_sa_ask(&sm, MAD_SA_METHOD_GET_MULTI, MAD_SA_ATTR_MULTIPATH_RECORD,
				 MAD_SA_MPR_SGID_COUNT | MAD_SA_MPR_DGID_COUNT |
				 MAD_SA_MPR_SERVICE_ID_MSB | MAD_SA_MPR_SERVICE_ID_LSB,
				 data, sizeof(data));
	ck_assert_uint_eq(resp.status, 0);
	mad_sa_path_record_decode(resp.data, &r);
	ck_assert_uint_eq(r.sl, 3);
	ck_assert_uint_eq(r.mtu, 3);
	ck_assert_uint_eq(r.rate, 3);
}
END_TEST

START_TEST(ipoib_group_sl)
{
	uint8_t mgid[MAD_GID_LEN];

	sm_mcast_ipoib_mgid(0x0001, mgid);
	const struct sm_mcast_group *g = sm_mcast_find(&sm.sa->mcast, mgid);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->sl, 4);
	sm_mcast_ipoib_mgid(0x7fff, mgid);
	ck_assert_ptr_nonnull(g = sm_mcast_find(&sm.sa->mcast, mgid));
	ck_assert_uint_eq(g->sl, 0);
}
END_TEST

/* The policy's tables on the sim's devices: 8 data VLs (VL 8 and up folded
 * as OpenSM folds them), 8 arbitration entries a table. */
START_TEST(vl_tables_programmed)
{
	struct sim_fabric *f = fab(&sm);
	uint32_t h1 = sim_node_named(&sm, "H1"), sa = sim_node_named(&sm, "SA");
	struct mad_sl2vl t;
	struct mad_vlarb_block b;

	ck_assert_int_eq(sim_get_sl2vl(f, h1, 0, 1, &t), 0);
	for (unsigned sl = 0; sl < 15; sl++)
		ck_assert_uint_eq(t.vl[sl], 1);
	ck_assert_uint_eq(t.vl[15], 15);
	/* every pair of the switch, port 0 in too */
	for (uint8_t in = 0; in <= 6; in += 3) {
		ck_assert_int_eq(sim_get_sl2vl(f, sa, in, 2, &t), 0);
		for (unsigned sl = 0; sl < 15; sl++)
			ck_assert_uint_eq(t.vl[sl], sl & 7);
		ck_assert_uint_eq(t.vl[15], 7);
	}
	ck_assert_int_eq(sim_get_vlarb(f, sa, 3, MAD_VLARB_LOW_0_31, &b), 0);
	static const uint8_t w[8] = { 0, 64, 128, 192, 0, 64, 64, 64 };
	for (unsigned i = 0; i < 8; i++) {
		ck_assert_uint_eq(b.e[i].vl, i);
		ck_assert_uint_eq(b.e[i].weight, w[i]);
	}
	ck_assert_uint_eq(b.e[8].weight, 0);	/* past the port's 8 entries */
	ck_assert_int_eq(sim_get_vlarb(f, h1, 1, MAD_VLARB_HIGH_0_31, &b), 0);
	ck_assert_uint_eq(b.e[0].vl, 0);
	ck_assert_uint_eq(b.e[0].weight, 4);
	ck_assert_uint_eq(b.e[1].weight, 0);
	/* the SA's SL2VLTableRecords say what the devices hold */
	static const struct {
		const char *node;
		uint8_t in, out;
	} asks[] = { { "H1", 0, 1 }, { "SA", 2, 3 } };
	for (size_t i = 0; i < 2; i++) {
		uint16_t l = sm_port1_lid(&sm, asks[i].node);
		if (strcmp(asks[i].node, "SA") == 0)
			l = sm.fabric.topo.nodes[topo_find_guid(&sm.fabric.topo,
				sim_fabric_topo(f)->nodes[sa].guid)].ports[0].lid;
		struct mad_sa_sl2vl_record q = { .lid = l, .in_port = asks[i].in,
						 .out_port = asks[i].out }, r;
		uint8_t data[MAD_SA_SL2VL_RECORD_SIZE];
		mad_sa_sl2vl_record_encode(&q, data);
		struct mad_sa resp = sm_sa_ask(&sm, MAD_SA_METHOD_GET, MAD_SA_ATTR_SL2VL_RECORD,
					       MAD_SA_COMP(0) | MAD_SA_COMP(1) | MAD_SA_COMP(2),
					       data, sizeof(data));
		ck_assert_uint_eq(resp.status, 0);
		mad_sa_sl2vl_record_decode(resp.data, &r);
		ck_assert_int_eq(sim_get_sl2vl(f, sim_node_named(&sm, asks[i].node), asks[i].in,
					       asks[i].out, &t), 0);
		ck_assert_mem_eq(&r.table, &t, sizeof(t));
		ck_assert_uint_eq(r.table.vl[15], i ? 7 : 15);
	}
	/* VLHighLimit, on the CA port and the switch's */
	struct mad_port_info pi;
	ck_assert_int_eq(sim_get_port_info(f, h1, 1, &pi), 0);
	ck_assert_uint_eq(pi.vl_high_limit, 4);
	ck_assert_int_eq(sim_get_port_info(f, sa, 3, &pi), 0);
	ck_assert_uint_eq(pi.vl_high_limit, 4);
	/* a second sweep finds them in place: read, nothing set */
	struct sim_stats before, after;
	sim_get_stats(f, &before);
	sm.sl2vl_done_sl = 0;
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(f, &after);
	ck_assert_uint_gt(after.sl2vl_gets, before.sl2vl_gets);
	ck_assert_uint_eq(after.sl2vl_sets + after.vlarb_sets, before.sl2vl_sets + before.vlarb_sets);
}
END_TEST

/* With the engine's layers: each VL between switches carries one layer. */
START_TEST(layers_compose)
{
	static const struct {
		const char *text;
		unsigned nsl;	/* the engine's layers */
		int rc;
		const char *why;
	} cases[] = {
		{ "qos_levels: [{name: DEFAULT, sl: 0}, {name: b, sl: 2}]\n", 2, 0, "" },
		{ "qos_levels: [{name: DEFAULT, sl: 0}, {name: b, sl: 1}]\n", 2, -ERANGE,
		  "shares its VL with another layer" },
		{ "qos_levels: [{name: DEFAULT, sl: 0}, {name: b, sl: 14}]\n", 3, -ERANGE,
		  "QoS level b has SL 14, and the routing engine's 3 layers" },
		{ "qos_levels: [{name: DEFAULT, sl: 0}]\n"
		  "vl_tables: {switch_external: {sl2vl: [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}}\n",
		  2, -ERANGE, "shares its VL" },
		{ "qos_levels: [{name: DEFAULT, sl: 0}]\n"
		  "vl_tables: {switch_external: {sl2vl: [0,15,2,3,4,5,6,7,8,9,10,11,12,13,14,7]}}\n",
		  3, -ERANGE, "SL 1 (layer 1 of the routing engine's 3) maps to VL 15" },
		/* the CAs' tables do not matter: no credit loop runs through a CA */
		{ "qos_levels: [{name: DEFAULT, sl: 0}]\n"
		  "vl_tables: {ca: {sl2vl: [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}}\n", 2, 0, "" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sm_qos_policy q;
		char err[256] = "";
		ck_assert_msg(parse(cases[i].text, &q, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(sm_qos_vl_check(&q, &sm.fabric, cases[i].nsl, err, sizeof(err)),
				 cases[i].rc);
		ck_assert_msg(strstr(err, cases[i].why), "%s", err);
		/* one layer: any table will do */
		ck_assert_int_eq(sm_qos_vl_check(&q, &sm.fabric, 1, err, sizeof(err)), 0);
		sm_qos_policy_free(&q);
	}
}
END_TEST

START_TEST(broken_policy_kept)
{
	size_t rules = sm.sa->qos.nrules;

	sm.sweep_due = false;
	write_to(qfile, "qos_levels: [{name: DEFAULT, sl: 0}]\nmatch_rules: [{level: nope}]\n");
	ck_assert_int_eq(sm_reload_qos(&sm), -EINVAL);
	ck_assert(sm.sa->qos.on);
	ck_assert_uint_eq(sm.sa->qos.nrules, rules);
	ck_assert(!sm.sweep_due);
	write_to(qfile, "ulps: [{ulp: default, sl: 6}]\n");
	ck_assert_int_eq(sm_reload_qos(&sm), 0);
	ck_assert_uint_eq(sm.sa->qos.nrules, 0);
	ck_assert(sm.sweep_due);
	struct mad_sa_path_record r;
	ck_assert_uint_eq(path("H1", "H2", (struct mad_sa_path_record){ 0 }, 0, &r), 0);
	ck_assert_uint_eq(r.sl, 6);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_qos");
	TCase *tc = tcase_create("policy");

	tcase_add_test(tc, full_policy);
	tcase_add_test(tc, simplified_and_none);
	tcase_add_test(tc, bad_files);
	suite_add_tcase(s, tc);
	tc = tcase_create("sa");
	tcase_add_checked_fixture(tc, sim_setup, sim_teardown);
	tcase_add_test(tc, path_levels);
	tcase_add_test(tc, multipath_levels);
	tcase_add_test(tc, ipoib_group_sl);
	tcase_add_test(tc, vl_tables_programmed);
	tcase_add_test(tc, layers_compose);
	tcase_add_test(tc, broken_policy_kept);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

// SPDX-License-Identifier: MIT
/*
 * check_sm_pkey_osm.c - OpenSM's partitions.conf (sm_pkey_osm.c): the file
 * told apart from YAML, OpenSM's documented examples read as OpenSM reads
 * them (merged definitions, made-up P_Keys, defmember, prefixes, mgid=
 * groups), each bad file refused with FILE:LINE, and on the sim backend the
 * P_KeyTables a sweep programs from such a file (the default limited but the
 * SM's port, ALL_SWITCHES, ALL_CAS, SELF, a later entry overriding an
 * earlier one, indx0) and the groups it makes.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sa/sm_mcast.h"
#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_sa.h"
#include "sm/sm_life.h"
#include "sm/sm_reload.h"
#include "sm/sweep/sm_sweep.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"

static int parse(const char *text, struct sm_partitions *ps, char *err, size_t errlen)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");

	ck_assert_ptr_nonnull(in);
	int rc = sm_partitions_parse(in, "p.conf", ps, err, errlen);
	fclose(in);
	return rc;
}

static const struct sm_partition *by_pkey(const struct sm_partitions *ps, uint16_t pkey)
{
	for (size_t i = 0; i < ps->n; i++)
		if (ps->p[i].pkey == pkey)
			return &ps->p[i];
	ck_abort_msg("no partition 0x%04x", pkey);
	return NULL;
}

/* OpenSM's doc/partition-config.txt, its examples as they are. */
static const char doc_examples[] =
	"# examples from OpenSM's partition-config.txt\n"
	" Default=0x7fff : ALL, SELF=full ;\n"
	" Default=0x7fff : ALL, ALL_SWITCHES=full, SELF=full ;\n"
	"\n"
	" NewPartition , ipoib : 0x123456=full, 0x3456789034=limi, 0x2134af2306 ;\n"
	"\n"
	" YetAnotherOne = 0x300 : SELF=full ;\n"
	" YetAnotherOne = 0x300 : ALL=limited ;\n"
	"\n"
	" ShareIO = 0x80 , defmember=full : 0x123451, 0x123452;\n"
	" # 0x123453, 0x123454 will be limited\n"
	" ShareIO = 0x80 : 0x123453, 0x123454, 0x123455=full;\n"
	" # 0x123456, 0x123457 will be limited\n"
	" ShareIO = 0x80 , defmember=limited : 0x123456, 0x123457, 0x123458=full;\n"
	" ShareIO = 0x80 , defmember=full : 0x123459, 0x12345a;\n"
	" ShareIO = 0x80 , defmember=full : 0x12345b, 0x12345c=limited, 0x12345d;\n"
	"\n"
	" # multicast groups added to default\n"
	" Default=0x7fff,ipoib:\n"
	"        mgid=ff12:401b::0707,sl=1 # random IPv4 group\n"
	"        mgid=ff12:601b::16    # MLDv2-capable routers\n"
	"        mgid=ff12:401b::16    # IGMP\n"
	"        mgid=ff12:601b::2     # All routers\n"
	"        mgid=ff12::1,sl=1,Q_Key=0xDEADBEEF,rate=3,mtu=2 # random group\n"
	"        ALL=full;\n";

START_TEST(doc_examples_read)
{
	struct sm_partitions ps;
	char err[512] = "";

	ck_assert_msg(parse(doc_examples, &ps, err, sizeof(err)) == 0, "%s", err);
	ck_assert(ps.last_wins);
	ck_assert_uint_eq(ps.n, 4);
	/* the default first, as OpenSM makes it (ALL limited, SELF full), then
	 * the file's entries: ALL, ALL_SWITCHES, SELF, ALL once each, the last */
	const struct sm_partition *d = &ps.p[0];
	ck_assert_uint_eq(d->pkey, 0x7fff);
	ck_assert_str_eq(d->name, "Default");
	ck_assert(d->ipoib);
	ck_assert_uint_eq(d->nmembers, 3);
	ck_assert_uint_eq(d->members[0].kind, SM_PKEY_MEMBER_ALL_SWITCHES);
	ck_assert_uint_eq(d->members[1].kind, SM_PKEY_MEMBER_SELF);
	ck_assert(d->members[1].full);
	ck_assert_uint_eq(d->members[2].kind, SM_PKEY_MEMBER_ALL);
	ck_assert(d->members[2].full);		/* "ALL=full;" last */
	ck_assert_uint_eq(d->members[2].line, 25);
	/* no P_Key: the first one OpenSM makes up */
	const struct sm_partition *n = by_pkey(&ps, 0x0001);
	ck_assert_str_eq(n->name, "NewPartition");
	ck_assert(n->ipoib);
	ck_assert_uint_eq(n->mtu, 4);		/* OpenSM's 2048 and 10G */
	ck_assert_uint_eq(n->rate, 3);
	ck_assert_uint_eq(n->nmembers, 3);
	ck_assert_uint_eq(n->members[0].guid, 0x123456);
	ck_assert(n->members[0].full);
	ck_assert(!n->members[1].full);		/* "limi" */
	ck_assert(!n->members[2].full);		/* defmember: limited */
	const struct sm_partition *y = by_pkey(&ps, 0x300);
	ck_assert_uint_eq(y->nmembers, 2);
	ck_assert_uint_eq(y->members[0].kind, SM_PKEY_MEMBER_SELF);
	ck_assert_uint_eq(y->members[1].kind, SM_PKEY_MEMBER_ALL);
	const struct sm_partition *s = by_pkey(&ps, 0x80);
	ck_assert_str_eq(s->name, "ShareIO");
	ck_assert_uint_eq(s->nmembers, 13);
	const bool want[13] = { 1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1 };
	for (unsigned i = 0; i < 13; i++) {
		ck_assert_uint_eq(s->members[i].guid, 0x123451u + i);
		ck_assert_msg(s->members[i].full == want[i], "0x%x", 0x123451u + i);
	}
	/* the groups: IP groups take the full P_Key and Q_Key 0x0b1b */
	ck_assert_uint_eq(d->ngroups, 5);
	const uint8_t igmp[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x16 };
	ck_assert_mem_eq(d->groups[2].mgid, igmp, 16);
	ck_assert_uint_eq(d->groups[2].qkey, 0x0b1b);
	ck_assert_uint_eq(d->groups[2].scopes, 1u << 2);
	ck_assert_uint_eq(d->groups[0].sl, 1);
	ck_assert_uint_eq(d->groups[4].qkey, 0xdeadbeef);
	ck_assert_uint_eq(d->groups[4].mtu, 2);
	ck_assert_uint_eq(d->groups[4].sl, 1);
	ck_assert_uint_eq(d->groups[4].mgid[4], 0);	/* no IP group: left alone */
	sm_partitions_free(&ps);
}
END_TEST

START_TEST(details_read)
{
	struct sm_partitions ps;
	char err[512] = "";
	const char *text =
		"# flags, prefixes, several definitions on one line, one without ';'\n"
		"a=0x8002,ipoib,mtu=5,rate=16,sl=3,scope=2,scope=5,Q_Key=0x1b,TClass=7,"
		"FlowLabel=0x12345 : A=f, 0x10=b ; 0x0005 : N, 0x10 ;\n"
		"b, indx0, defmember=both :\n"
		"   0x20,\n"
		"   0x21=limited,\n"
		"   0x20=lim\n"
		"  ;c=12, m=4, r=7, sl=5, s=3: mgid=ff15::9, sc=8, FlowLabel=1;\n"
		"=0x30 : ALL_C, ALL_S=full, ALL_R=l\n";

	ck_assert_msg(parse(text, &ps, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(ps.n, 6);
	ck_assert(!ps.p[0].ipoib);	/* no definition of 0x7fff says ipoib */
	const struct sm_partition *a = by_pkey(&ps, 0x0002);	/* the bit dropped */
	ck_assert(a->ipoib);
	ck_assert_uint_eq(a->mtu, 5);
	ck_assert_uint_eq(a->rate, 16);
	ck_assert_uint_eq(a->sl, 3);
	ck_assert_uint_eq(a->scopes, 1u << 2 | 1u << 5);
	ck_assert_uint_eq(a->qkey, 0x1b);
	ck_assert_uint_eq(a->tclass, 7);
	ck_assert_uint_eq(a->flow_label, 0x12345);
	ck_assert_uint_eq(a->nmembers, 2);
	ck_assert_uint_eq(a->members[0].kind, SM_PKEY_MEMBER_ALL);
	ck_assert(a->members[0].full && a->members[1].full);
	ck_assert_str_eq(by_pkey(&ps, 5)->name, "0005");	/* a name of digits is the P_Key */
	ck_assert_uint_eq(by_pkey(&ps, 5)->nmembers, 1);	/* NONE names no port */
	ck_assert(!by_pkey(&ps, 5)->members[0].full);
	/* b: no P_Key, 1 is free; 0x20 named again takes the later membership */
	const struct sm_partition *b = by_pkey(&ps, 0x0001);
	ck_assert_str_eq(b->name, "b");
	ck_assert_uint_eq(b->nmembers, 2);
	ck_assert_uint_eq(b->members[0].guid, 0x21);
	ck_assert_uint_eq(b->members[1].guid, 0x20);
	ck_assert(!b->members[1].full);
	ck_assert(b->members[1].indx0);
	ck_assert_uint_eq(b->members[1].line, 6);
	const struct sm_partition *c = by_pkey(&ps, 12);
	ck_assert(!c->ipoib);
	ck_assert_uint_eq(c->ngroups, 1);
	ck_assert_uint_eq(c->groups[0].scopes, 1u << 8);	/* its own scope= */
	ck_assert_uint_eq(c->groups[0].mtu, 4);
	ck_assert_uint_eq(c->groups[0].rate, 7);
	ck_assert_uint_eq(c->groups[0].sl, 5);
	ck_assert_uint_eq(c->groups[0].flow_label, 1);
	const struct sm_partition *e = by_pkey(&ps, 0x30);
	ck_assert_str_eq(e->name, "0030");
	ck_assert_uint_eq(e->nmembers, 3);
	ck_assert_uint_eq(e->members[0].kind, SM_PKEY_MEMBER_ALL_CAS);
	ck_assert_uint_eq(e->members[1].kind, SM_PKEY_MEMBER_ALL_SWITCHES);
	ck_assert(e->members[1].full);
	ck_assert_uint_eq(e->members[2].kind, SM_PKEY_MEMBER_ALL_ROUTERS);
	sm_partitions_free(&ps);

	/* a named definition without a P_Key joins the earlier one of its name */
	ck_assert_msg(parse("x=0x40: 0x1; x: 0x2;", &ps, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(ps.n, 2);
	ck_assert_uint_eq(by_pkey(&ps, 0x40)->nmembers, 2);
	sm_partitions_free(&ps);
}
END_TEST

START_TEST(format_told_apart)
{
	struct sm_partitions ps;
	char err[512] = "";

	/* YAML: its key first, after comments */
	ck_assert_msg(parse("# c\n\npartitions :\n  - {name: a, pkey: 2}\n", &ps, err,
			    sizeof(err)) == 0, "%s", err);
	ck_assert(!ps.last_wins);
	ck_assert_uint_eq(ps.n, 2);
	sm_partitions_free(&ps);
	ck_assert_int_eq(parse("---\npartitions: []\n", &ps, err, sizeof(err)), 0);
	ck_assert(!ps.last_wins);
	sm_partitions_free(&ps);
	/* OpenSM's: anything else, even a partition called "partitions", or a
	 * name alone on its line with its members on the next */
	ck_assert_msg(parse("partitions=0x2: ALL;\n", &ps, err, sizeof(err)) == 0, "%s", err);
	ck_assert(ps.last_wins);
	ck_assert_str_eq(by_pkey(&ps, 2)->name, "partitions");
	sm_partitions_free(&ps);
	ck_assert_msg(parse("# c\nDefault:\n  ALL=full;\n", &ps, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert(ps.last_wins);
	ck_assert_uint_eq(ps.n, 1);	/* the name "Default" joins the default */
	ck_assert(ps.p[0].members[ps.p[0].nmembers - 1].full);
	sm_partitions_free(&ps);
	/* a YAML typo stays YAML, refused there */
	ck_assert_int_eq(parse("partition:\n", &ps, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "p.conf:1:1: unknown key 'partition'"), "%s", err);
	ck_assert_int_eq(parse("partition:\n  - name: a\n", &ps, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "p.conf:1:1: unknown key 'partition'"), "%s", err);
}
END_TEST

/* A text with the NULs it holds (sizeof, not strlen) and the error it gets. */
#define B(t, e) { t, sizeof(t) - 1, e }
static const struct {
	const char *text;
	size_t len;
	const char *err;
} bad[] = {
	B("x=0x2 ALL;\n", "p.conf:1: 'x...': a partition starts with"),
	B("\n\nx=0x2, ipob: ALL;\n", "p.conf:3: unknown partition flag 'ipob'"),
	B("x=0x2, mtu=6: ALL;\n", "p.conf:1: mtu=6: expected an IBA MTU code"),
	B("x=0x2, mtu: ALL;\n", "p.conf:1: flag 'mtu' needs a value"),
	B("x=0x2, rate=1: ALL;\n", "p.conf:1: rate=1: not an IBA rate code"),
	B("x=0x2, sl=16: ALL;\n", "p.conf:1: sl: 16 is out of range"),
	B("x=0x2, scope=0: ALL;\n", "p.conf:1: scope=0: expected a scope from 1 to 15"),
	B("x=0x2, defmember=most: ALL;\n", "p.conf:1: membership 'most': expected full"),
	B("x=0x2: ALL=fool;\n", "p.conf:1: membership 'fool': expected full"),
	B("x=0x2: ALL=;\n", "p.conf:1: membership '': expected full"),
	B("x=0: ALL;\n", "p.conf:1: P_Key 0 is the invalid P_Key"),
	B("x=0x8000: ALL;\n", "p.conf:1: P_Key 0x8000 is the invalid P_Key"),
	B("x=0x10000: ALL;\n", "p.conf:1: P_Key: 0x10000 is out of range"),
	B("x=010: ALL;\n", "p.conf:1: P_Key: '010' has a leading zero"),
	B("x=1z: ALL;\n", "p.conf:1: P_Key: '1z' is not a number"),
	B("x=2: 0x0;\n", "p.conf:1: port GUID 0 names no port"),
	B("x=2: 0x10000000000000000;\n", "p.conf:1: port GUID: 0x10000000000000000 is out of range"),
	B("x=2: node1;\n", "p.conf:1: 'node1' is no port GUID nor one of ALL"),
	B("x=2: -1;\n", "p.conf:1: '-1' is no port GUID"),
	B("x=2: ALL,\n =0x30: ALL;\n", "p.conf:2: '=0x30...': an entry without a name"),
	B("x=2:\n mgid=fe80::1;\n", "p.conf:2: mgid=fe80...: expected a multicast GID"),
	B("x=2: mgid=;\n", "p.conf:1: mgid=: expected a multicast GID"),
	B("x=2: mgid=ff12::1, ALL=full;\n", "p.conf:1: mgid=ff12::1: unknown group flag 'ALL'"),
	B("x=2: mgid=ff12:401b:8003::1;\n", "p.conf:1: mgid=ff12:401b:8003::1: an IP group "
	  "with P_Key 0x8003 in partition 0x0002"),
	B("x=2: mgid=ff12:401b::1,rate=7;\n", "p.conf:1: mgid=ff12:401b::1: an IP group must keep"),
	B("x=2: mgid=ff12::1;\ny=3:\n mgid=ff12::1,sl=1;\n", "p.conf:3: mgid=ff12::1 is given twice"),
	B("a\x01=2: ALL;\n", "p.conf:1: control character 0x01"),
	/* a file that is no partitions file: a short token of it, never more */
	B("root:$y$j9T$Xs1MaFakeSalt$AbCd:19700:0:99999:7:::\n",
	  "p.conf:1: '...' is no port GUID nor one of ALL"),
	B("x=0x2: 0x10=f$y$j9T$Salt$Hash;\n", "p.conf:1: membership 'f...': expected full"),
	B("x=2: ALL;\n\ny=3: A\0LL;\n", "p.conf:3: a NUL byte"),
	B("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx=2: ALL;",
	  "p.conf:1: partition name 'xxxxxxxx"),
};

START_TEST(file_bad)
{
	struct sm_partitions ps = { 0 };
	char err[512] = "";
	FILE *in = fmemopen((void *)bad[_i].text, bad[_i].len, "r");

	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(sm_partitions_parse(in, "p.conf", &ps, err, sizeof(err)), -EINVAL);
	fclose(in);
	ck_assert_msg(strncmp(err, bad[_i].err, strlen(bad[_i].err)) == 0, "got '%s', want '%s'",
		      err, bad[_i].err);
	ck_assert_ptr_null(ps.p);
}
END_TEST

START_TEST(file_bounds)
{
	struct sm_partitions ps = { 0 };
	char err[512] = "";
	size_t n = 1100 * 24 + (70 << 10) + 64;
	char *text = malloc(n), *w = text;

	ck_assert_ptr_nonnull(text);
	/* more partitions than YAML may have */
	for (unsigned i = 1; i <= 1100; i++)
		w += sprintf(w, "p%u=%u: ALL;\n", i, i);
	ck_assert_int_eq(parse(text, &ps, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "p.conf:1025: more than 1024 partitions"), "%s", err);
	/* a line past 64 KiB */
	w = text + sprintf(text, "x=2: ALL,");
	memset(w, ' ', 70 << 10);
	strcpy(w + (70 << 10), ";\n");
	ck_assert_int_eq(parse(text, &ps, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "p.conf:1: a line longer than 65536 bytes"), "%s", err);
	/* P_Keys made up until none is left */
	ck_assert_ptr_null(ps.p);
	free(text);
}
END_TEST

/* --- on the sim backend --- */

static struct sm sm;

static uint64_t port_guid(const char *name, unsigned port)
{
	const struct topo *t = sim_fabric_topo(fab(&sm));

	return t->nodes[sim_node_named(&sm, name)].ports[port].guid;
}

/* The P_Keys port @port of @name holds, "0x7fff 0x8001", up to the first 0. */
static const char *table(const char *name, unsigned port)
{
	static char buf[256];
	struct mad_pkey_block pk;
	size_t n = 0;

	ck_assert_int_eq(sim_get_pkeys(fab(&sm), sim_node_named(&sm, name), (uint8_t)port, 0,
				       &pk), 0);
	buf[0] = '\0';
	for (unsigned i = 0; i < MAD_PKEY_BLOCK && pk.pkey[i]; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s0x%04x", i ? " " : "",
				      pk.pkey[i]);
	return buf;
}

/* The SM on twoswitch.topo, swept with @text as its partitions.conf. */
static void sweep_with(const char *text)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/partitions.conf", dbdir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	snprintf(sm.cfg.partitions_file, sizeof(sm.cfg.partitions_file), "%s", path);
	ck_assert_int_eq(sm_reload_partitions(&sm), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
}

static void setup(void)
{
	char *text = NULL;
	size_t len = 0;

	fixture_setup();
	sm_start_file(&sm, "twoswitch.topo");
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	fprintf(f, "Default=0x7fff, ipoib, scope=2, scope=5 : ALL, SELF=full ;\n"
		"blue=0x1 : ALL_SWITCHES=full, 0x%llx=full, 0x%llx ;\n"
		"red=0x2, indx0 : 0x%llx=full, 0x%llx ;\n"
		"cas=0x3, defmember=both : ALL_CAS, 0x%llx=limited ;\n"
		"late=0x4 : 0x%llx=full, ALL_CAS=limited ;\n"
		"grp=0x5, rate=7 : mgid=ff12:601b::42, Q_Key=0x22\n"
		"          0x%llx=full ;\n",
		(unsigned long long)port_guid("H1", 1), (unsigned long long)port_guid("H2", 1),
		(unsigned long long)port_guid("H3", 1), (unsigned long long)port_guid("H1", 1),
		(unsigned long long)port_guid("H2", 1), (unsigned long long)port_guid("H1", 1),
		(unsigned long long)port_guid("H1", 1));
	fclose(f);
	sweep_with(text);
	free(text);
}

/* The default partition alone, limited: every table is set, though there is
 * only one partition (the power-on 0xffff would be wrong); the SM's port too,
 * as OpenSM does (its rule's ALL comes after OpenSM's own SELF=full: checked
 * under ibsim with opensm 3.3.23). */
static void setup_default_only(void)
{
	fixture_setup();
	sm_start_file(&sm, "twoswitch.topo");
	sweep_with("Default=0x7fff : ALL ;\n");
}

START_TEST(default_alone_limited)
{
	ck_assert_str_eq(table("H1", 1), "0x7fff");
	ck_assert_str_eq(table("HD", 2), "0x7fff");
	ck_assert_str_eq(table("SB", 0), "0x7fff");
	ck_assert_str_eq(table("H0", 1), "0x7fff");
}
END_TEST

static void teardown(void)
{
	sm_close(&sm);
	fixture_teardown();
}

START_TEST(tables_programmed)
{
	/* the SM's port full in the default; ALL_CAS=both is full, its later
	 * limited entry for H2 wins; "late": ALL_CAS=limited after H1=full */
	ck_assert_str_eq(table("H0", 1), "0xffff 0x8003 0x0004");
	/* red's indx0 puts its P_Key first in every table its definition names */
	ck_assert_str_eq(table("H1", 1), "0x0002 0x7fff 0x8001 0x8003 0x0004 0x8005");
	ck_assert_str_eq(table("H2", 1), "0x7fff 0x0001 0x0003 0x0004");
	ck_assert_str_eq(table("H3", 1), "0x8002 0x7fff 0x8003 0x0004");
	ck_assert_str_eq(table("HD", 2), "0x7fff 0x8003 0x0004");
	/* ALL_SWITCHES: the switches' port 0 */
	ck_assert_str_eq(table("SA", 0), "0x7fff 0x8001");
}
END_TEST

START_TEST(groups_made)
{
	const uint8_t bcast5[16] = { 0xff, 0x15, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0,
				     0xff, 0xff, 0xff, 0xff };
	uint8_t mgid[16];
	const struct sm_mcast_group *g;

	/* the default's broadcast group on both its scopes */
	sm_mcast_ipoib_mgid(0x7fff, mgid);
	ck_assert_ptr_nonnull(g = sm_mcast_find(&sm.sa->mcast, mgid));
	ck_assert(g->well_known);
	ck_assert_uint_eq(g->hop_limit, 0);
	ck_assert_ptr_nonnull(g = sm_mcast_find(&sm.sa->mcast, bcast5));
	ck_assert_uint_eq(g->scope, 5);
	ck_assert_uint_eq(g->hop_limit, 0xff);
	ck_assert_uint_eq(g->qkey, 0x0b1b);
	/* grp's IPv6 group, its P_Key filled in, its own Q_Key and rate */
	const uint8_t v6[16] = { 0xff, 0x12, 0x60, 0x1b, 0x80, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				 0x42 };
	ck_assert_ptr_nonnull(g = sm_mcast_find(&sm.sa->mcast, v6));
	ck_assert_uint_eq(g->qkey, 0x22);
	ck_assert_uint_eq(g->rate, 7);
	ck_assert_uint_eq(g->pkey, 0x8005);
	ck_assert(g->well_known);
	/* no broadcast group where no definition says ipoib */
	sm_mcast_ipoib_mgid(0x0001, mgid);
	ck_assert_ptr_null(sm_mcast_find(&sm.sa->mcast, mgid));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_pkey_osm");
	TCase *tc = tcase_create("file");

	tcase_add_test(tc, doc_examples_read);
	tcase_add_test(tc, details_read);
	tcase_add_test(tc, format_told_apart);
	tcase_add_loop_test(tc, file_bad, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, file_bounds);
	suite_add_tcase(s, tc);
	tc = tcase_create("sweep");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, tables_programmed);
	tcase_add_test(tc, groups_made);
	suite_add_tcase(s, tc);
	tc = tcase_create("default");
	tcase_add_checked_fixture(tc, setup_default_only, teardown);
	tcase_add_test(tc, default_alone_limited);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

// SPDX-License-Identifier: MIT
/*
 * check_db_lost.c - what the fabric lost (db_lost.c) on the small fabric: a
 * trunk that goes down is listed with its far end until it comes back; a
 * host that goes with its link is listed by its link; an end cabled
 * elsewhere is a link moved, not down; a description that holds the text's
 * separator still gives the right far end; an event text that names no far
 * end gives a link down with its far end unknown; the ports behind which
 * nothing answered are those of the last heavy sweep only.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "db/db.h"
#include "mad/mad_attr.h"
#include "tests/check_db_fixture.h"
#include "tests/check_util.h"

/* The links down as "0x<guid>[port] - 0x<guid>[port] "desc"" lines. */
struct down_log {
	char text[2048];
	char near[80];		/* the last near end's description */
	int n;
};

static int down_row(void *arg, const struct db_link_down *l)
{
	struct down_log *log = arg;
	size_t used = strlen(log->text);

	snprintf(log->text + used, sizeof(log->text) - used,
		 "0x%016" PRIx64 "[%u] - 0x%016" PRIx64 "[%u] \"%s\"\n", l->guid, l->port,
		 l->peer_guid, l->peer_port, l->peer_desc);
	snprintf(log->near, sizeof(log->near), "%s", l->desc);
	ck_assert_int_gt(l->since_ms, 0);
	log->n++;
	return 0;
}

static struct down_log down(struct db *db)
{
	struct down_log log = { .n = 0 };

	ck_assert_int_eq(db_links_down_each(db, down_row, &log), 0);
	return log;
}

static int64_t sweep_with(struct db *db, const char *kind, const struct topo *t)
{
	int64_t id;

	ck_assert_int_eq(db_sweep_begin(db, kind, &id), 0);
	ck_assert_int_ge(db_store_topology(db, id, t), 0);
	return id;
}

static void sweep(struct db *db, const struct topo *t)
{
	ck_assert_int_eq(db_sweep_end(db, sweep_with(db, "heavy", t), NULL), 0);
}

/* Cut the cable at port @p of node @a (both ends taken down). */
static void cut(struct topo *t, uint32_t a, unsigned p)
{
	struct topo_port *x = &t->nodes[a].ports[p];
	struct topo_port *y = &t->nodes[x->peer].ports[x->peer_port];

	x->peer = y->peer = TOPO_NONE;
	x->peer_port = y->peer_port = 0;
	x->state = y->state = MAD_PORT_DOWN;
	x->phys_state = y->phys_state = MAD_PHYS_POLLING;
}

START_TEST(links_down_until_back)
{
	char *path = fix_tmp_path();
	struct topo t, small;

	fix_small(&t);
	fix_small(&small);
	struct db *db = fix_store(path, &t);
	ck_assert_int_eq(down(db).n, 0);	/* a cold store lost nothing */
	uint32_t s1 = topo_find_guid(&t, FIX_SW1);
	cut(&t, s1, 8);
	sweep(db, &t);
	struct down_log log = down(db);
	ck_assert_str_eq(log.text, "0x0002c9030000a000[8] - 0xf452140300116000[8] \"leaf-2\"\n");
	sweep(db, &t);	/* still down a sweep later */
	ck_assert_int_eq(down(db).n, 1);
	sweep(db, &small);	/* back */
	ck_assert_int_eq(down(db).n, 0);

	/* a host's link: from its lower end, the host (GUID 0x...e000 < leaf-2's) */
	uint32_t h3 = topo_find_guid(&small, FIX_H3);
	const struct topo_port *hp = &small.nodes[h3].ports[1];
	char want[128];
	snprintf(want, sizeof(want), "0x%016llx[1] - 0x%016llx[%u] \"%s\"\n", FIX_H3,
		 (unsigned long long)small.nodes[hp->peer].guid, hp->peer_port,
		 small.nodes[hp->peer].desc);
	struct topo nohost;
	fix_small(&nohost);
	cut(&nohost, h3, 1);
	sweep(db, &nohost);
	ck_assert_str_eq(down(db).text, want);
	topo_free(&nohost);
	sweep(db, &small);
	ck_assert_int_eq(down(db).n, 0);

	/* moved: trunk 8's leaf-2 end now goes to a new host */
	cut(&t, s1, 7);	/* and trunk 7 down for good */
	sweep(db, &t);
	ck_assert_int_eq(down(db).n, 2);
	fix_add_host(&t, 0x0002c9030000f000ULL, "node05", 9, topo_find_guid(&t, FIX_SW2), 8);
	sweep(db, &t);
	ck_assert_str_eq(down(db).text, "0x0002c9030000a000[7] - 0xf452140300116000[7] \"leaf-2\"\n");
	db_close(db);
	topo_free(&t);
	topo_free(&small);
	fix_tmp_free(path);
}
END_TEST

/* A description holding the separator, and texts that name no far end. */
START_TEST(hostile_texts)
{
	char *path = fix_tmp_path();
	struct topo t;

	fix_small(&t);
	uint32_t s1 = topo_find_guid(&t, FIX_SW1);
	snprintf(t.nodes[s1].desc, sizeof(t.nodes[s1].desc),
		 "a\" - 0x0000000000000001[3] \"fake\"");
	struct db *db = fix_store(path, &t);
	cut(&t, s1, 8);
	sweep(db, &t);
	struct down_log log = down(db);
	ck_assert_str_eq(log.text, "0x0002c9030000a000[8] - 0xf452140300116000[8] \"leaf-2\"\n");
	ck_assert_str_eq(log.near, "a\" - 0x0000000000000001[3] \"fake\"");
	/* renamed since: the last separator after which an end reads whole */
	snprintf(t.nodes[s1].desc, sizeof(t.nodes[s1].desc), "renamed");
	sweep(db, &t);
	log = down(db);
	ck_assert_str_eq(log.text, "0x0002c9030000a000[8] - 0xf452140300116000[8] \"leaf-2\"\n");
	ck_assert_str_eq(log.near, "renamed");	/* the node's description now */
	/* an event at a free port (leaf-1[5]) that names no far end: a link down,
	 * its far end unknown; the same at a cabled port (leaf-1[7]): nothing */
	static const char *const bad[] = { "", "0x0002c9030000a000[5]", "garbage",
		"0x0002c9030000a000[5] \"x\" - 0xzz", "0x0002c9030000a000[5] \"x\" - "
		"0x0000000000000002[999] \"y\"", "0x0002c9030000a000[5] \"x\" - 0x0000000000000002[7] "
		"\"unterminated" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(db_event_add(db, 0, DB_EV_LINK_REMOVED, FIX_SW1, 5, "%s", bad[i]), 0);
		ck_assert_int_eq(db_event_add(db, 0, DB_EV_LINK_REMOVED, FIX_SW1, 7, "%s", bad[i]), 0);
		log = down(db);
		ck_assert_str_eq(log.text, "0x0002c9030000a000[5] - 0x0000000000000000[0] \"\"\n"
				 "0x0002c9030000a000[8] - 0xf452140300116000[8] \"leaf-2\"\n");
		ck_assert_str_eq(log.near, "renamed");	/* the node's description now */
	}
	db_close(db);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

struct silent_log {
	char text[512];
	int n;
};

static int silent_row(void *arg, const struct db_unanswered *u)
{
	struct silent_log *log = arg;
	size_t used = strlen(log->text);

	snprintf(log->text + used, sizeof(log->text) - used, "0x%016" PRIx64 "[%u] %s\n",
		 u->guid, u->port, u->detail);
	log->n++;
	return 0;
}

static struct silent_log silent(struct db *db)
{
	struct silent_log log = { .n = 0 };

	ck_assert_int_eq(db_unanswered_each(db, silent_row, &log), 0);
	return log;
}

START_TEST(unanswered_of_the_last_heavy_sweep)
{
	char *path = fix_tmp_path();
	struct topo t;

	fix_small(&t);
	struct db *db = fix_store(path, &t);
	ck_assert_int_eq(silent(db).n, 0);
	int64_t id = sweep_with(db, "heavy", &t);
	ck_assert_int_eq(db_event_add(db, id, DB_EV_UNRESPONSIVE, FIX_SW1, 5,
				      "NodeInfo at DR path 0,5: no answer"), 0);
	/* a node-level one (the diff's: no port) is not a port's */
	ck_assert_int_eq(db_event_add(db, id, DB_EV_UNRESPONSIVE, FIX_H1, -1, "Ca \"x\""), 0);
	ck_assert_int_eq(db_sweep_end(db, id, NULL), 0);
	ck_assert_str_eq(silent(db).text, "0x0002c9030000a000[5] NodeInfo at DR path 0,5: no answer\n");
	/* a light sweep after it changes nothing; the next heavy one does */
	ck_assert_int_eq(db_sweep_end(db, sweep_with(db, "light", &t), NULL), 0);
	ck_assert_int_eq(silent(db).n, 1);
	sweep(db, &t);
	ck_assert_int_eq(silent(db).n, 0);
	db_close(db);
	topo_free(&t);
	fix_tmp_free(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("db_lost");
	TCase *tc = tcase_create("store");

	tcase_add_test(tc, links_down_until_back);
	tcase_add_test(tc, hostile_texts);
	tcase_add_test(tc, unanswered_of_the_last_heavy_sweep);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

// SPDX-License-Identifier: MIT
/*
 * check_smquery_mkdb.c - test helper for check_smquery.sh.
 *
 *   check_smquery_mkdb small PATH          the fixture fabric, a short history, LFTs
 *   check_smquery_mkdb faults PATH         the same with broken LFTs: a loop, a
 *                                          missing entry, an uncabled port, a
 *                                          wrong destination, a switch LID sent
 *                                          to a port that does not exist
 *   check_smquery_mkdb lmc PATH            the fixture with LMC 2 on one CA port
 *   check_smquery_mkdb file PATH TOPOFILE  a topology file, stored in one sweep
 *   check_smquery_mkdb newer PATH          mark the store at PATH as a newer schema
 *   check_smquery_mkdb compare A B         do two topology files describe the same
 *                                          nodes, port counts, descriptions, links
 *                                          and LIDs?  (exit 0 yes, 1 no)
 *   check_smquery_mkdb isolate PATH NODE PORT REASON
 *                                          the link at NODE's PORT isolated for
 *                                          errors, as the daemon stores one
 */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "mad/model/topofile.h"
#include "tests/check_db_fixture.h"

static int die(const char *what, const char *why)
{
	fprintf(stderr, "check_smquery_mkdb: %s: %s\n", what, why);
	return 2;
}

/*
 * The LFTs of the small fabric once trunk 8 is down (LIDs 1..6, see
 * check_db_fixture.h): leaf-1 reaches leaf-2's side by port 7 and back.
 */
static const uint8_t lft_leaf1[] = { 0xff, 0, 7, 1, 7, 2, 7 };
static const uint8_t lft_leaf2[] = { 0xff, 7, 0, 7, 1, 7, 2 };

/* Store LFT block 0 of switch @guid: @n entries from @e, 0xff after them. */
static int save_block0(struct db *db, uint64_t guid, const uint8_t *e, size_t n)
{
	uint8_t block[64];

	memset(block, 0xff, sizeof(block));
	memcpy(block, e, n);
	return db_lft_save(db, guid, 0, block);
}

/* Two port counter passes a minute apart: first samples, then a busy trunk
 * (leaf-1 port 7), an erring host link (leaf-1 port 1) and a sender (H2). */
static int mk_counters(struct db *db)
{
	const struct db_port_sample first[] = {
		{ .guid = FIX_SW1, .port = 1, .delta = { .symbol_errors = 3 } },
		{ .guid = FIX_SW1, .port = 7, .delta = { .xmit_data = 1000 } },
		{ .guid = FIX_H2, .port = 1 },
	};
	const struct db_port_sample second[] = {
		{ .guid = FIX_SW1, .port = 1, .interval_ms = 60000,
		  .delta = { .symbol_errors = 12, .link_downed = 1, .xmit_data = 250000 } },
		{ .guid = FIX_SW1, .port = 7, .interval_ms = 60000,
		  .delta = { .xmit_data = 1500000000, .rcv_data = 20000, .xmit_pkts = 6000000,
			     .xmit_wait = 90000 } },
		{ .guid = FIX_H2, .port = 1, .interval_ms = 60000,
		  .delta = { .xmit_data = 750000000, .xmit_pkts = 3000000 } },
	};

	db_freeze_clock(db, FIX_TIME_MS + 130000);
	if (db_counters_record(db, first, 3, 4, false, 86400000, 0))
		return -1;
	db_freeze_clock(db, FIX_TIME_MS + 190000);
	return db_counters_record(db, second, 3, 5, false, 86400000, 0);
}

static int mk_small(const char *path)
{
	struct topo t;
	int64_t id;

	fix_small(&t);
	struct db *db = fix_store(path, &t);
	db_freeze_clock(db, FIX_TIME_MS + 60000);
	t.nodes[0].ports[8].state = MAD_PORT_DOWN;	/* trunk 8 goes down */
	t.nodes[0].ports[8].peer = t.nodes[1].ports[8].peer = TOPO_NONE;
	if (db_sweep_begin(db, "light", &id) || db_store_topology(db, id, &t) < 0 ||
	    db_event_add(db, id, DB_EV_TRAP, FIX_SW1, 8, "trap 128 from lid 1") ||
	    db_status_set(db, DB_ST_SM_STATE, "MASTER") ||
	    db_status_set(db, DB_ST_SM_GUID, "0x0002c9030000c001") ||
	    db_status_set(db, DB_ST_SM_LID, "3") ||
	    db_status_set(db, DB_ST_SUBNET_UP, "1767225660250") ||
	    save_block0(db, FIX_SW1, lft_leaf1, sizeof(lft_leaf1)) ||
	    save_block0(db, FIX_SW2, lft_leaf2, sizeof(lft_leaf2)))
		return die(path, db_errmsg(db));
	const struct db_sweep_stats st = { .result = "ok", .discovery_smps = 9,
					   .discovery_ms = 2 };
	db_freeze_clock(db, FIX_TIME_MS + 60250);
	if (db_sweep_end(db, id, &st) || db_event_add(db, 0, DB_EV_ERROR, 0, -1, "a \"quoted\"\tword"))
		return die(path, db_errmsg(db));
	/* light sweeps in two intervals: a quiet one, one finding 2 changes, a quiet one */
	static const struct { int64_t at; struct db_light_sweep ls; } light[] = {
		{ 61000, { .ms = 12, .smps = { .sent = 9 } } },
		{ 62000, { .ms = 30, .changes = 2, .smps = { .sent = 9, .lost = 1, .retried = 2 } } },
		{ 121000, { .ms = 11, .smps = { .sent = 9 } } },
	};
	for (size_t i = 0; i < sizeof(light) / sizeof(light[0]); i++) {
		db_freeze_clock(db, FIX_TIME_MS + light[i].at);
		if (db_light_sweep_record(db, &light[i].ls))
			return die(path, db_errmsg(db));
	}
	if (mk_counters(db))
		return die(path, db_errmsg(db));
	db_close(db);
	topo_free(&t);
	return 0;
}

/*
 * Break the small fabric's LFTs: LID 6 bounces between the leaves (loop),
 * leaf-2 has no port for LID 5, leaf-1 sends LID 4 to its uncabled port 8
 * and LID 3 to node02 on its port 2 (wrong destination), and leaf-2 sends
 * leaf-1's switch LID 1 to port 200, which it does not have.
 */
static int mk_faults(const char *path)
{
	static const uint8_t leaf1[] = { 0xff, 0, 7, 2, 8, 2, 7 };
	static const uint8_t leaf2[] = { 0xff, 200, 0, 7, 1, 0xff, 7 };
	char err[256];
	struct db *db;
	int rc = mk_small(path);

	if (rc)
		return rc;
	if (db_open(path, DB_WRITER, &db, err, sizeof(err)))
		return die(path, err);
	if (save_block0(db, FIX_SW1, leaf1, sizeof(leaf1)) ||
	    save_block0(db, FIX_SW2, leaf2, sizeof(leaf2)))
		return die(path, db_errmsg(db));
	db_close(db);
	return 0;
}

/*
 * node02 on leaf-2 ("node02 mlx5_0", 0x0002c9030000e000) gets LIDs 8..11
 * (LMC 2); leaf-1 routes them by port 7 but has no entry for LID 9, leaf-2
 * by port 2.
 */
static int mk_lmc(const char *path)
{
	static const uint8_t leaf1[] = { 0xff, 0, 7, 1, 7, 2, 0xff, 0xff, 7, 0xff, 7, 7 };
	static const uint8_t leaf2[] = { 0xff, 7, 0, 7, 1, 7, 0xff, 0xff, 2, 2, 2, 2 };
	struct topo t;

	fix_small(&t);
	uint32_t h3 = topo_find_guid(&t, FIX_H3);
	t.nodes[h3].ports[1].lid = 8;
	t.nodes[h3].ports[1].lmc = 2;
	struct db *db = fix_store(path, &t);
	if (save_block0(db, FIX_SW1, leaf1, sizeof(leaf1)) ||
	    save_block0(db, FIX_SW2, leaf2, sizeof(leaf2)))
		return die(path, db_errmsg(db));
	db_close(db);
	topo_free(&t);
	return 0;
}

/*
 * The small fabric with a description no device should send: an ANSI escape
 * sequence, a control byte, bytes that are not UTF-8 (0xff, 0xc3 then '('),
 * valid UTF-8 ("é") and a C1 control (U+009B, CSI), on node01; an event
 * quoting it.
 */
static int mk_nasty(const char *path)
{
	static const char nasty[] = "bad\x1b[31mred\x01 \xff\xc3( caf\xc3\xa9 \xc2\x9b" "2J";
	struct topo t;

	fix_small(&t);
	uint32_t h1 = topo_find_guid(&t, FIX_H1);
	snprintf(t.nodes[h1].desc, sizeof(t.nodes[h1].desc), "%s", nasty);
	struct db *db = fix_store(path, &t);
	if (db_event_add(db, 0, DB_EV_ERROR, FIX_H1, 1, nasty))
		return die(path, db_errmsg(db));
	db_close(db);
	topo_free(&t);
	return 0;
}

static int mk_file(const char *path, const char *file)
{
	struct topo t;
	char err[256];

	if (topofile_load(file, &t, err, sizeof(err)))
		return die(file, err);
	db_close(fix_store(path, &t));
	topo_free(&t);
	return 0;
}

/* Same nodes (type, ports, description), links and linked ports' GUIDs and LIDs? */
static int same_fabric(const struct topo *a, const struct topo *b, char *why, size_t len)
{
	if (a->n != b->n || topo_count_links(a) != topo_count_links(b)) {
		snprintf(why, len, "%u nodes / %zu links against %u / %zu", a->n,
			 topo_count_links(a), b->n, topo_count_links(b));
		return 0;
	}
	for (uint32_t i = 0; i < a->n; i++) {
		const struct topo_node *n = &a->nodes[i];
		uint32_t j = topo_find_guid(b, n->guid);

		if (j == TOPO_NONE || b->nodes[j].type != n->type ||
		    b->nodes[j].nports != n->nports || strcmp(b->nodes[j].desc, n->desc)) {
			snprintf(why, len, "node 0x%016" PRIx64 " differs", n->guid);
			return 0;
		}
		for (unsigned p = 1; p <= n->nports; p++) {
			const struct topo_port *x = &n->ports[p], *y = &b->nodes[j].ports[p];
			uint64_t px = x->peer == TOPO_NONE ? 0 : a->nodes[x->peer].guid;
			uint64_t py = y->peer == TOPO_NONE ? 0 : b->nodes[y->peer].guid;

			if (px != py || x->peer_port != y->peer_port ||
			    (px && (x->lid != y->lid || x->width != y->width ||
				    x->speed != y->speed ||
				    (n->type != MAD_NODE_SWITCH && x->guid != y->guid)))) {
				snprintf(why, len, "port 0x%016" PRIx64 "[%u] differs", n->guid, p);
				return 0;
			}
		}
	}
	return 1;
}

static int compare(const char *fa, const char *fb)
{
	struct topo a, b;
	char err[256];

	if (topofile_load(fa, &a, err, sizeof(err)))
		return die(fa, err);
	if (topofile_load(fb, &b, err, sizeof(err)))
		return die(fb, err);
	int same = same_fabric(&a, &b, err, sizeof(err));
	if (!same)
		fprintf(stderr, "check_smquery_mkdb: %s and %s: %s\n", fa, fb, err);
	topo_free(&a);
	topo_free(&b);
	return same ? 0 : 1;
}

static int mk_newer(const char *path)
{
	sqlite3 *s;
	char sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", DB_SCHEMA_VERSION + 1);
	if (sqlite3_open_v2(path, &s, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    sqlite3_exec(s, sql, NULL, NULL, NULL) != SQLITE_OK)
		return die(path, sqlite3_errmsg(s));
	sqlite3_close(s);
	return 0;
}

/* Isolate the link at NODE's PORT (descriptions, as the store has them) with
 * @reason, as the daemon's isolation policy stores one (db_isolated_save). */
static int mk_isolated(const char *path, const char *node, const char *port, const char *reason)
{
	struct db *db;
	struct topo t;
	char err[256];
	unsigned p = (unsigned)strtoul(port, NULL, 10);

	if (db_open(path, DB_WRITER, &db, err, sizeof(err)))
		return die(path, err);
	if (db_load_topology(db, &t))
		return die(path, db_errmsg(db));
	uint32_t n = TOPO_NONE;
	for (uint32_t i = 0; i < t.n && n == TOPO_NONE; i++)
		if (!strcmp(t.nodes[i].desc, node))
			n = i;
	if (n == TOPO_NONE || !p || p > t.nodes[n].nports || t.nodes[n].ports[p].peer == TOPO_NONE)
		return die(node, "no such node, or no link at that port");
	const struct topo_port *tp = &t.nodes[n].ports[p];
	const struct db_isolated l = { .guid = t.nodes[n].guid, .port = (uint8_t)p,
				       .peer_guid = t.nodes[tp->peer].guid, .peer_port = tp->peer_port,
				       .since_ms = db_now_ms(db), .cause = "errors", .reason = reason };
	if (db_isolated_save(db, &l))
		return die(path, db_errmsg(db));
	topo_free(&t);
	db_close(db);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "small"))
		return mk_small(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "faults"))
		return mk_faults(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "lmc"))
		return mk_lmc(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "nasty"))
		return mk_nasty(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "file"))
		return mk_file(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "newer"))
		return mk_newer(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "compare"))
		return compare(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "isolate"))
		return mk_isolated(argv[2], argv[3], argv[4], argv[5]);
	fprintf(stderr, "usage: check_smquery_mkdb small|faults|lmc|nasty PATH | file PATH TOPOFILE | "
		"newer PATH | compare A B | isolate PATH NODE PORT REASON\n");
	return 2;
}

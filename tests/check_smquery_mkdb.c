// SPDX-License-Identifier: MIT
/*
 * check_smquery_mkdb.c - test helper for check_smquery.sh.
 *
 *   check_smquery_mkdb small PATH          the fixture fabric and a short history
 *   check_smquery_mkdb file PATH TOPOFILE  a topology file, stored in one sweep
 *   check_smquery_mkdb newer PATH          mark the store at PATH as a newer schema
 *   check_smquery_mkdb compare A B         do two topology files describe the same
 *                                          nodes, port counts, descriptions, links
 *                                          and LIDs?  (exit 0 yes, 1 no)
 */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "mad/mad_topofile.h"
#include "tests/check_db_fixture.h"

static int die(const char *what, const char *why)
{
	fprintf(stderr, "check_smquery_mkdb: %s: %s\n", what, why);
	return 2;
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
	    db_status_set(db, DB_ST_SM_LID, "3"))
		return die(path, db_errmsg(db));
	const struct db_sweep_stats st = { .result = "ok", .discovery_smps = 9,
					   .discovery_ms = 2 };
	db_freeze_clock(db, FIX_TIME_MS + 60250);
	if (db_sweep_end(db, id, &st) || db_event_add(db, 0, DB_EV_ERROR, 0, -1, "a \"quoted\"\tword"))
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

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "small"))
		return mk_small(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "file"))
		return mk_file(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "newer"))
		return mk_newer(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "compare"))
		return compare(argv[2], argv[3]);
	fprintf(stderr, "usage: check_smquery_mkdb small PATH | file PATH TOPOFILE | "
		"newer PATH | compare A B\n");
	return 2;
}

// SPDX-License-Identifier: MIT
/*
 * db_cc.c - congestion control in the store: each node's state after the
 * last CC pass (cc_nodes, replaced whole by each pass) and the settings sent
 * and refused since the store began (cc_totals, one row, for the metrics).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "db/db_int.h"

static const char db_cc_put_sql[] =
	"INSERT INTO cc_nodes (guid, port, lid, type, state, configured, sent, refused,"
	" last_error, checked) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";

static const char db_cc_totals_sql[] =
	"INSERT INTO cc_totals (id, sent, refused) VALUES (1, ?1, ?2)"
	" ON CONFLICT (id) DO UPDATE SET sent = sent + ?1, refused = refused + ?2";

static int db_cc_put(struct db *db, const struct db_cc_node *r)
{
	sqlite3_stmt *st;
	int err = db_prepare_cached(db, db_cc_put_sql, &st);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, (int64_t)r->guid);
	sqlite3_bind_int(st, 2, r->port);
	sqlite3_bind_int(st, 3, r->lid);
	sqlite3_bind_int(st, 4, r->type);
	sqlite3_bind_text(st, 5, r->state, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, r->configured, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, r->sent);
	sqlite3_bind_int64(st, 8, r->refused);
	sqlite3_bind_text(st, 9, r->last_error, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 10, r->checked_ms);
	return db_step_done(db, st, "storing a node's congestion control");
}

static int db_cc_put_all(struct db *db, const struct db_cc_node *rows, size_t n, uint64_t sent,
			 uint64_t refused)
{
	sqlite3_stmt *st;
	int err = db_exec(db, "DELETE FROM cc_nodes");

	for (size_t i = 0; !err && i < n; i++)
		err = db_cc_put(db, &rows[i]);
	if (err || (err = db_prepare_cached(db, db_cc_totals_sql, &st)))
		return err;
	sqlite3_bind_int64(st, 1, (int64_t)sent);
	sqlite3_bind_int64(st, 2, (int64_t)refused);
	return db_step_done(db, st, "adding to the congestion control totals");
}

int db_cc_store(struct db *db, const struct db_cc_node *rows, size_t n, uint64_t sent,
		uint64_t refused)
{
	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_exec(db, "BEGIN IMMEDIATE");
	if (!err)
		err = db_cc_put_all(db, rows, n, sent, refused);
	if (!err)
		err = db_exec(db, "COMMIT");
	if (err)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

static void copy_text(char *dst, size_t size, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	snprintf(dst, size, "%s", t ? (const char *)t : "");
}

int db_cc_each(struct db *db, int (*fn)(void *arg, const struct db_cc_node *row), void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, "SELECT guid, port, lid, type, state, configured, sent, refused,"
			     " last_error, checked FROM cc_nodes ORDER BY guid, port", &st);

	if (err)
		return err;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_cc_node r = {
			.guid = (uint64_t)sqlite3_column_int64(st, 0),
			.port = (uint8_t)sqlite3_column_int(st, 1),
			.lid = (uint16_t)sqlite3_column_int(st, 2),
			.type = (uint8_t)sqlite3_column_int(st, 3),
			.sent = (uint32_t)sqlite3_column_int64(st, 6),
			.refused = (uint32_t)sqlite3_column_int64(st, 7),
			.checked_ms = sqlite3_column_int64(st, 9),
		};
		copy_text(r.state, sizeof(r.state), st, 4);
		copy_text(r.configured, sizeof(r.configured), st, 5);
		copy_text(r.last_error, sizeof(r.last_error), st, 8);
		ret = fn(arg, &r);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading congestion control");
	sqlite3_finalize(st);
	return ret;
}

int db_cc_totals(struct db *db, uint64_t *sent, uint64_t *refused)
{
	sqlite3_stmt *st;
	int err = db_prepare(db, "SELECT sent, refused FROM cc_totals WHERE id = 1", &st);

	if (err)
		return err;
	*sent = *refused = 0;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*sent = (uint64_t)sqlite3_column_int64(st, 0);
		*refused = (uint64_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_fail(db, rc, "reading CC totals");
}

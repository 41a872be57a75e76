// SPDX-License-Identifier: MIT
/*
 * db_sweep.c - a sweep is one transaction: begin, end (commit), abort
 * (rollback, then a record of the failure), and the sweeps history.
 *
 * db->sweep_id names the open sweep.  Any failure inside it goes through
 * db_fail() -> db_sweep_fail(), which rolls back and clears db->sweep_id, so
 * the store never holds half a sweep.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "db/db_int.h"

int db_sweep_check(struct db *db, int64_t sweep_id)
{
	if (sweep_id && sweep_id == db->sweep_id)
		return 0;
	return db_fail_msg(db, -ESRCH, "%s: sweep %lld is not open", db->path,
			   (long long)sweep_id);
}

void db_sweep_fail(struct db *db)
{
	if (!db->sweep_id)
		return;
	db->sweep_id = 0;
	if (!sqlite3_get_autocommit(db->sql))
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
}

static int db_sweep_row(struct db *db, int64_t id, const char *kind, int64_t started)
{
	sqlite3_stmt *st;
	int err = db_prepare(db, "INSERT INTO sweeps (id, kind, started) VALUES (?, ?, ?)", &st);

	if (err)
		return err;
	if (id)
		sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, started);
	err = db_step_done(db, st, "recording the sweep");
	sqlite3_finalize(st);
	return err;
}

int db_sweep_begin(struct db *db, const char *kind, int64_t *sweep_id)
{
	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	if (db->sweep_id)
		return db_fail_msg(db, -EBUSY, "%s: sweep %lld is still open", db->path,
				   (long long)db->sweep_id);
	if (!kind || (strcmp(kind, "heavy") && strcmp(kind, "light")))
		return db_fail_msg(db, -EINVAL, "%s: sweep kind must be heavy or light",
				   db->path);
	int err = db_exec(db, "BEGIN IMMEDIATE");
	if (err)
		return err;
	db->sweep_started = db_now_ms(db);
	snprintf(db->sweep_kind, sizeof(db->sweep_kind), "%s", kind);
	err = db_sweep_row(db, 0, kind, db->sweep_started);
	if (err) {
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
		return err;
	}
	db->sweep_id = *sweep_id = sqlite3_last_insert_rowid(db->sql);
	return 0;
}

static const char db_sweep_end_sql[] =
	"UPDATE sweeps SET ended = ?2, result = ?3,"
	" nodes = (SELECT count(*) FROM nodes), links = (SELECT count(*) FROM links),"
	" discovery_smps = ?4, lid_smps = ?5, lft_smps = ?6, activate_smps = ?7,"
	" discovery_ms = ?8, lid_ms = ?9, routing_ms = ?10, lft_ms = ?11, activate_ms = ?12"
	" WHERE id = ?1";

static int db_sweep_finish(struct db *db, int64_t id, const struct db_sweep_stats *st)
{
	static const struct db_sweep_stats none;
	sqlite3_stmt *s;
	int err = db_prepare(db, db_sweep_end_sql, &s);

	if (err)
		return err;
	if (!st)
		st = &none;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, db_now_ms(db));
	sqlite3_bind_text(s, 3, st->result ? st->result : "ok", -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 4, (int64_t)st->discovery_smps);
	sqlite3_bind_int64(s, 5, (int64_t)st->lid_smps);
	sqlite3_bind_int64(s, 6, (int64_t)st->lft_smps);
	sqlite3_bind_int64(s, 7, (int64_t)st->activate_smps);
	sqlite3_bind_int64(s, 8, st->discovery_ms);
	sqlite3_bind_int64(s, 9, st->lid_ms);
	sqlite3_bind_int64(s, 10, st->routing_ms);
	sqlite3_bind_int64(s, 11, st->lft_ms);
	sqlite3_bind_int64(s, 12, st->activate_ms);
	err = db_step_done(db, s, "recording the sweep");
	sqlite3_finalize(s);
	return err;
}

int db_sweep_end(struct db *db, int64_t sweep_id, const struct db_sweep_stats *st)
{
	char id[24];
	int err = db_sweep_check(db, sweep_id);

	if (err)
		return err;
	snprintf(id, sizeof(id), "%lld", (long long)sweep_id);
	err = db_sweep_finish(db, sweep_id, st);
	if (!err)
		err = db_status_set(db, DB_ST_LAST_SWEEP, id);
	if (!err)
		err = db_exec(db, "COMMIT");
	if (err)
		return err;
	db->sweep_id = 0;
	return 0;
}

int db_sweep_abort(struct db *db, int64_t sweep_id, const char *reason)
{
	char result[DB_MSG_LEN];

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	db_sweep_fail(db);
	snprintf(result, sizeof(result), "aborted: %s", reason ? reason : "no reason given");
	int err = db_exec(db, "BEGIN IMMEDIATE");
	if (err)
		return err;
	/* the sweep row went with the rollback: write it again, closed */
	err = db_sweep_row(db, sweep_id, db->sweep_kind[0] ? db->sweep_kind : "heavy",
			   db->sweep_started ? db->sweep_started : db_now_ms(db));
	if (!err) {
		const struct db_sweep_stats st = { .result = result };
		err = db_sweep_finish(db, sweep_id, &st);
	}
	if (!err)
		err = db_event_put(db, sweep_id, DB_EV_ERROR, 0, -1, result);
	if (!err)
		err = db_exec(db, "COMMIT");
	if (err)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

static const char db_sweeps_sql[] =
	"SELECT id, kind, started, ended, result, nodes, links, discovery_smps, lid_smps,"
	" lft_smps, activate_smps, discovery_ms, lid_ms, routing_ms, lft_ms, activate_ms"
	" FROM sweeps ORDER BY id";

static void db_sweep_from_row(sqlite3_stmt *st, struct db_sweep *sw)
{
	sw->id = sqlite3_column_int64(st, 0);
	sw->kind = (const char *)sqlite3_column_text(st, 1);
	sw->started_ms = sqlite3_column_int64(st, 2);
	sw->ended_ms = sqlite3_column_int64(st, 3);
	sw->st.result = (const char *)sqlite3_column_text(st, 4);
	sw->nodes = (uint32_t)sqlite3_column_int64(st, 5);
	sw->links = (uint32_t)sqlite3_column_int64(st, 6);
	sw->st.discovery_smps = (uint64_t)sqlite3_column_int64(st, 7);
	sw->st.lid_smps = (uint64_t)sqlite3_column_int64(st, 8);
	sw->st.lft_smps = (uint64_t)sqlite3_column_int64(st, 9);
	sw->st.activate_smps = (uint64_t)sqlite3_column_int64(st, 10);
	sw->st.discovery_ms = (uint32_t)sqlite3_column_int64(st, 11);
	sw->st.lid_ms = (uint32_t)sqlite3_column_int64(st, 12);
	sw->st.routing_ms = (uint32_t)sqlite3_column_int64(st, 13);
	sw->st.lft_ms = (uint32_t)sqlite3_column_int64(st, 14);
	sw->st.activate_ms = (uint32_t)sqlite3_column_int64(st, 15);
}

int db_sweeps_each(struct db *db, int (*fn)(void *arg, const struct db_sweep *sw), void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, db_sweeps_sql, &st);

	if (err)
		return err;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_sweep sw;

		db_sweep_from_row(st, &sw);
		ret = fn(arg, &sw);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading sweeps");
	sqlite3_finalize(st);
	return ret;
}

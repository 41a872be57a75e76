// SPDX-License-Identifier: MIT
/*
 * db_sweep.c - a sweep is one transaction: begin, end (commit), abort
 * (rollback, then a record of the failure), and the sweeps history.
 *
 * db->sweep_id names the open sweep.  Any failure inside it goes through
 * db_fail() -> db_sweep_fail(), which rolls back and clears db->sweep_id, so
 * the store never holds half a sweep.  Ending a sweep also adds it to the
 * lifetime totals (sweep_totals, by kind and result class) and prunes the
 * history the retention setting no longer keeps (db_prune.c).
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
	return db_sweep_begin_at(db, kind, 0, sweep_id);
}

int db_sweep_begin_at(struct db *db, const char *kind, int64_t started_ms, int64_t *sweep_id)
{
	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	if (db->sweep_id)
		return db_fail_msg(db, -EBUSY, "%s: sweep %lld is still open", db->path,
				   (long long)db->sweep_id);
	if (!kind || (strcmp(kind, "heavy") && strcmp(kind, "light") && strcmp(kind, "patch")))
		return db_fail_msg(db, -EINVAL, "%s: sweep kind must be heavy, light or patch",
				   db->path);
	if (started_ms < 0)
		return db_fail_msg(db, -EINVAL, "%s: sweep start time %lld is negative",
				   db->path, (long long)started_ms);
	int err = db_exec(db, "BEGIN IMMEDIATE");
	if (err)
		return err;
	db->sweep_started = started_ms ? started_ms : db_now_ms(db);
	snprintf(db->sweep_kind, sizeof(db->sweep_kind), "%s", kind);
	err = db_sweep_row(db, 0, kind, db->sweep_started);
	if (err) {
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
		return err;
	}
	db->sweep_id = *sweep_id = sqlite3_last_insert_rowid(db->sql);
	return 0;
}

const char *db_result_class(const char *result)
{
	if (!result || !strcmp(result, "ok") || !strcmp(result, "subnet up") ||
	    !strncmp(result, "discovered only", 15))
		return "ok";
	return strncmp(result, "aborted:", 8) ? "incomplete" : "failed";
}

static const char db_totals_sql[] =
	"INSERT INTO sweep_totals (kind, result, sweeps, ms, smps_sent, smps_lost, smps_retried)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (kind, result) DO UPDATE SET"
	" sweeps = sweeps + ?3, ms = ms + ?4, smps_sent = smps_sent + ?5,"
	" smps_lost = smps_lost + ?6, smps_retried = smps_retried + ?7";

int db_totals_add(struct db *db, const char *kind, const char *result, uint32_t sweeps,
		  int64_t ms, const struct db_smp_counts *smps)
{
	sqlite3_stmt *st;
	int err = db_prepare_cached(db, db_totals_sql, &st);

	if (err)
		return err;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, result, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, sweeps);
	sqlite3_bind_int64(st, 4, ms > 0 ? ms : 0);
	sqlite3_bind_int64(st, 5, (int64_t)smps->sent);
	sqlite3_bind_int64(st, 6, (int64_t)smps->lost);
	sqlite3_bind_int64(st, 7, (int64_t)smps->retried);
	return db_step_done(db, st, "adding to the sweep totals");
}

static const char db_sweep_end_sql[] =
	"UPDATE sweeps SET ended = ?2, result = ?3,"
	" nodes = (SELECT count(*) FROM nodes), links = (SELECT count(*) FROM links),"
	" discovery_smps = ?4, lid_smps = ?5, lft_smps = ?6, activate_smps = ?7,"
	" discovery_ms = ?8, lid_ms = ?9, routing_ms = ?10, lft_ms = ?11, activate_ms = ?12,"
	" store_ms = ?13, smps_sent = ?14, smps_lost = ?15, smps_retried = ?16,"
	" lft_entries = ?17, ar_smps = ?18 WHERE id = ?1";

/* Close the row of sweep @id with @st (NULL: no figures) and count it in the totals. */
static int db_sweep_finish(struct db *db, int64_t id, const struct db_sweep_stats *st)
{
	static const struct db_sweep_stats none;
	sqlite3_stmt *s;
	int64_t now = db_now_ms(db);
	int err = db_prepare(db, db_sweep_end_sql, &s);

	if (err)
		return err;
	if (!st)
		st = &none;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, now);
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
	sqlite3_bind_int64(s, 13, st->store_ms);
	sqlite3_bind_int64(s, 14, (int64_t)st->smps.sent);
	sqlite3_bind_int64(s, 15, (int64_t)st->smps.lost);
	sqlite3_bind_int64(s, 16, (int64_t)st->smps.retried);
	sqlite3_bind_int64(s, 17, (int64_t)st->lft_entries);
	sqlite3_bind_int64(s, 18, (int64_t)st->ar_smps);
	err = db_step_done(db, s, "recording the sweep");
	sqlite3_finalize(s);
	if (!err)
		err = db_totals_add(db, db->sweep_kind, db_result_class(st->result), 1,
				    now - db->sweep_started, &st->smps);
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
		err = db_prune(db);
	if (!err)
		err = db_exec(db, "COMMIT");
	if (err)
		return err;
	db->sweep_id = 0;
	return 0;
}

int db_sweep_abort(struct db *db, int64_t sweep_id, const char *reason)
{
	return db_sweep_abort_stats(db, sweep_id, reason, NULL);
}

int db_sweep_abort_stats(struct db *db, int64_t sweep_id, const char *reason,
			 const struct db_sweep_stats *stats)
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
	if (!db->sweep_kind[0])
		snprintf(db->sweep_kind, sizeof(db->sweep_kind), "heavy");
	if (!db->sweep_started)
		db->sweep_started = db_now_ms(db);
	err = db_sweep_row(db, sweep_id, db->sweep_kind, db->sweep_started);
	if (!err) {
		struct db_sweep_stats st = { .result = NULL };
		if (stats)
			st = *stats;
		st.result = result;
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
	" lft_smps, activate_smps, discovery_ms, lid_ms, routing_ms, lft_ms, activate_ms,"
	" store_ms, smps_sent, smps_lost, smps_retried, lft_entries, ar_smps FROM sweeps"
	" ORDER BY id";

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
	sw->st.store_ms = (uint32_t)sqlite3_column_int64(st, 16);
	sw->st.smps.sent = (uint64_t)sqlite3_column_int64(st, 17);
	sw->st.smps.lost = (uint64_t)sqlite3_column_int64(st, 18);
	sw->st.smps.retried = (uint64_t)sqlite3_column_int64(st, 19);
	sw->st.lft_entries = (uint64_t)sqlite3_column_int64(st, 20);
	sw->st.ar_smps = (uint64_t)sqlite3_column_int64(st, 21);
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

// SPDX-License-Identifier: MIT
/*
 * db_light.c - light sweeps, kept as aggregates: one row of light_sweeps per
 * DB_LIGHT_INTERVAL_MS of the store's clock, updated in place.
 *
 * A light sweep every second would otherwise write 86,400 rows a day; an
 * interval row holds what an operator asks of them (how many, how long, how
 * many SMPs, did they find anything).  Each record also counts in the lifetime
 * totals (sweep_totals: kind "light", result ok, changed or failed).  Opening a
 * new interval is when light sweeps prune the history (db_prune.c), so a
 * fabric that never needs a heavy sweep still keeps its store bounded.
 */
#include <errno.h>

#include "db/db_int.h"

static const char db_light_put_sql[] =
	"INSERT INTO light_sweeps (started, last, sweeps, changed, failed, changes, ms, max_ms,"
	" smps_sent, smps_lost, smps_retried) VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9)"
	" ON CONFLICT (started) DO UPDATE SET last = ?2, sweeps = sweeps + 1,"
	" changed = changed + ?3, failed = failed + ?4, changes = changes + ?5, ms = ms + ?6,"
	" max_ms = max(max_ms, ?6), smps_sent = smps_sent + ?7, smps_lost = smps_lost + ?8,"
	" smps_retried = smps_retried + ?9";

static const char db_light_seen_sql[] = "SELECT 1 FROM light_sweeps WHERE started = ?";

/* Does the interval starting at @started already have a row?  1, 0 or -errno. */
static int db_light_exists(struct db *db, int64_t started)
{
	sqlite3_stmt *st;
	int err = db_prepare_cached(db, db_light_seen_sql, &st);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, started);
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc == SQLITE_ROW;
	return db_fail(db, rc, "reading light sweeps");
}

static int db_light_put(struct db *db, const struct db_light_sweep *ls, int64_t now)
{
	int64_t started = now - now % DB_LIGHT_INTERVAL_MS;
	sqlite3_stmt *st;
	int seen = db_light_exists(db, started);
	int err = seen < 0 ? seen : db_prepare_cached(db, db_light_put_sql, &st);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, started);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_int(st, 3, ls->changes > 0);
	sqlite3_bind_int(st, 4, ls->failed);
	sqlite3_bind_int64(st, 5, ls->changes);
	sqlite3_bind_int64(st, 6, ls->ms);
	sqlite3_bind_int64(st, 7, (int64_t)ls->smps.sent);
	sqlite3_bind_int64(st, 8, (int64_t)ls->smps.lost);
	sqlite3_bind_int64(st, 9, (int64_t)ls->smps.retried);
	err = db_step_done(db, st, "recording a light sweep");
	if (!err)
		err = db_totals_add(db, "light", ls->failed ? "failed" : ls->changes ? "changed" : "ok",
				    1, ls->ms, &ls->smps);
	if (!err && !seen)
		err = db_prune(db);
	return err;
}

int db_light_sweep_record(struct db *db, const struct db_light_sweep *ls)
{
	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int64_t now = db_now_ms(db);
	if (now < 0)
		return db_fail_msg(db, -EINVAL, "%s: the clock is before 1970", db->path);
	if (db->sweep_id)
		return db_fail_msg(db, -EBUSY, "%s: sweep %lld is still open", db->path,
				   (long long)db->sweep_id);
	int err = db_exec(db, "BEGIN IMMEDIATE");
	if (!err)
		err = db_light_put(db, ls, now);
	if (!err)
		err = db_exec(db, "COMMIT");
	if (err)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

static const char db_light_sql[] =
	"SELECT started, last, sweeps, changed, failed, changes, ms, max_ms, smps_sent,"
	" smps_lost, smps_retried FROM light_sweeps ORDER BY started";

int db_light_each(struct db *db, int (*fn)(void *arg, const struct db_light_interval *li),
		  void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, db_light_sql, &st);

	if (err)
		return err;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct db_light_interval li = {
			.started_ms = sqlite3_column_int64(st, 0),
			.last_ms = sqlite3_column_int64(st, 1),
			.sweeps = (uint32_t)sqlite3_column_int64(st, 2),
			.changed = (uint32_t)sqlite3_column_int64(st, 3),
			.failed = (uint32_t)sqlite3_column_int64(st, 4),
			.changes = (uint64_t)sqlite3_column_int64(st, 5),
			.ms = (uint64_t)sqlite3_column_int64(st, 6),
			.max_ms = (uint32_t)sqlite3_column_int64(st, 7),
			.smps.sent = (uint64_t)sqlite3_column_int64(st, 8),
			.smps.lost = (uint64_t)sqlite3_column_int64(st, 9),
			.smps.retried = (uint64_t)sqlite3_column_int64(st, 10),
		};
		ret = fn(arg, &li);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading light sweeps");
	sqlite3_finalize(st);
	return ret;
}

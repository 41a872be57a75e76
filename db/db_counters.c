// SPDX-License-Identifier: MIT
/*
 * db_counters.c - port counters: each sampling pass's deltas, bounded, and
 * the running totals.
 *
 * Data: port_counters holds one row per port and pass whose deltas are not
 * all zero (an idle port costs nothing), in insertion order, so that pruning
 * is a range delete on the row id; counter_passes names each pass's first
 * row; port_counter_totals holds, per port, the sum of every delta ever
 * recorded since the port's first sample (what the metrics export as
 * counters, monotonic however much history is pruned).  Retention: the passes of the last keep_ms, and at
 * most max_rows rows, whichever is less (the daemon's perfmgr.retention_s and
 * perfmgr.history_mb).
 */
#include <errno.h>

#include "db/db_int.h"

#define DB_COUNTER_COL(name) ", " #name
#define DB_COUNTER_PARAM(name) ", ?"
#define DB_COUNTER_ADD(name) ", " #name " = " #name " + excluded." #name
#define DB_COUNTER_NAME(name) #name,

const char *const db_port_counter_names[DB_NCOUNTERS] = { DB_PORT_COUNTERS(DB_COUNTER_NAME) };

/* a row: ts, guid, port, interval, then the counters */
static const char db_counters_ins_sql[] =
	"INSERT INTO port_counters (ts, guid, port, interval_ms" DB_PORT_COUNTERS(DB_COUNTER_COL)
	") VALUES (?, ?, ?, ?" DB_PORT_COUNTERS(DB_COUNTER_PARAM) ")";

/* a total: guid, port, then the counters (the first ", " of the update's list
 * of assignments is the upsert's own, hence the dummy first one) */
static const char db_counters_total_sql[] =
	"INSERT INTO port_counter_totals (guid, port" DB_PORT_COUNTERS(DB_COUNTER_COL)
	") VALUES (?, ?" DB_PORT_COUNTERS(DB_COUNTER_PARAM) ")"
	" ON CONFLICT (guid, port) DO UPDATE SET guid = excluded.guid"
	DB_PORT_COUNTERS(DB_COUNTER_ADD);

static bool counts_zero(const struct db_port_counts *c)
{
	uint64_t any = 0;

	for (unsigned i = 0; i < DB_NCOUNTERS; i++)
		any |= c->v[i];
	return !any;
}

/* SQLite integers are signed: a value beyond INT64_MAX is stored as that. */
static int64_t clamp64(uint64_t v)
{
	return v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

/* Bind @c's counters to @st from parameter @first on. */
static void bind_counts(sqlite3_stmt *st, int first, const struct db_port_counts *c)
{
	for (unsigned i = 0; i < DB_NCOUNTERS; i++)
		sqlite3_bind_int64(st, first + (int)i, clamp64(c->v[i]));
}

static void bind_row(sqlite3_stmt *st, int64_t ts, const struct db_port_sample *s)
{
	sqlite3_bind_int64(st, 1, ts);
	sqlite3_bind_int64(st, 2, (int64_t)s->guid);
	sqlite3_bind_int(st, 3, s->port);
	sqlite3_bind_int64(st, 4, s->interval_ms);
	bind_counts(st, 5, &s->delta);
}

static void bind_total(sqlite3_stmt *st, const struct db_port_sample *s)
{
	sqlite3_bind_int64(st, 1, (int64_t)s->guid);
	sqlite3_bind_int(st, 2, s->port);
	bind_counts(st, 3, &s->delta);
}

static int db_counters_prune(struct db *db, int64_t now, int64_t keep_ms, uint64_t max_rows)
{
	sqlite3_stmt *st;
	int err = db_prepare_cached(db,
		"SELECT coalesce(min(first_id), (SELECT max(id) + 1 FROM port_counters))"
		" FROM counter_passes WHERE ts >= ?1"
		" AND (?2 = 0 OR first_id > (SELECT max(id) FROM port_counters) - ?2)", &st);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, keep_ms ? now - keep_ms : INT64_MIN);
	sqlite3_bind_int64(st, 2, clamp64(max_rows));
	int rc = sqlite3_step(st);
	int64_t cut = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, rc, "pruning port counters");
	if (cut <= 0)
		return 0;
	err = db_prepare_cached(db, "DELETE FROM port_counters WHERE id < ?1", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, cut);
	err = db_step_done(db, st, "pruning port counters");
	if (err)
		return err;
	err = db_prepare_cached(db, "DELETE FROM counter_passes WHERE first_id < ?1", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, cut);
	return db_step_done(db, st, "pruning counter passes");
}

/* The time of the pass to record at @now: the newest one's for @more (the
 * rest of it), else @now, or just after the newest when the clock has not
 * moved past it (a pass a millisecond: they stay apart). */
static int db_counters_pass_ts(struct db *db, int64_t now, bool more, int64_t *ts)
{
	sqlite3_stmt *st;
	int err = db_prepare_cached(db, "SELECT max(ts) FROM counter_passes", &st);

	if (err)
		return err;
	int rc = sqlite3_step(st);
	bool any = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL;
	int64_t last = any ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, rc, "reading counter passes");
	*ts = !any ? now : more ? last : now > last ? now : last + 1;
	return 0;
}

static int db_counters_put(struct db *db, const struct db_port_sample *s, size_t n,
			   uint32_t ms, bool more, int64_t now, int64_t keep_ms,
			   uint64_t max_rows)
{
	sqlite3_stmt *ins, *tot, *pass;
	int64_t ts = now;
	int err = db_counters_pass_ts(db, now, more, &ts);

	if (!err)
		err = db_prepare_cached(db, db_counters_ins_sql, &ins);
	if (!err)
		err = db_prepare_cached(db, db_counters_total_sql, &tot);
	/* a pass's first part names its first row; later parts add their ports */
	if (!err)
		err = db_prepare_cached(db,
			"INSERT INTO counter_passes (ts, first_id, ports, ms) VALUES"
			" (?1, coalesce((SELECT max(id) FROM port_counters), 0) + 1, ?2, ?3)"
			" ON CONFLICT (ts) DO UPDATE SET ports = ports + ?2, ms = ms + ?3", &pass);
	if (err)
		return err;
	sqlite3_bind_int64(pass, 1, ts);
	sqlite3_bind_int64(pass, 2, (int64_t)n);
	sqlite3_bind_int64(pass, 3, ms);
	err = db_step_done(db, pass, "recording a counter pass");
	for (size_t i = 0; !err && i < n; i++) {
		bool zero = counts_zero(&s[i].delta);
		if (!zero) {
			bind_row(ins, ts, &s[i]);
			err = db_step_done(db, ins, "recording port counters");
		}
		if (!err && (!zero || !s[i].interval_ms)) {	/* a first sample makes the row */
			bind_total(tot, &s[i]);
			err = db_step_done(db, tot, "adding to port counter totals");
		}
	}
	return err ? err : db_counters_prune(db, now, keep_ms, max_rows);
}

int db_counters_record(struct db *db, const struct db_port_sample *s, size_t n,
		       uint32_t ms, bool more, int64_t keep_ms, uint64_t max_rows)
{
	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	if (db->sweep_id)
		return db_fail_msg(db, -EBUSY, "%s: sweep %lld is still open", db->path,
				   (long long)db->sweep_id);
	int64_t now = db_now_ms(db);
	int err = db_exec(db, "BEGIN IMMEDIATE");
	if (!err)
		err = db_counters_put(db, s, n, ms, more, now, keep_ms, max_rows);
	if (!err)
		err = db_exec(db, "COMMIT");
	if (err)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

#define DB_COUNTER_COLS "guid, port, ts, interval_ms" DB_PORT_COUNTERS(DB_COUNTER_COL)

static int db_counters_each(struct db *db, sqlite3_stmt *st,
			    int (*fn)(void *arg, const struct db_port_row *r), void *arg)
{
	int rc = SQLITE_DONE, ret = 0;

	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_port_row r = {
			.guid = (uint64_t)sqlite3_column_int64(st, 0),
			.port = (uint8_t)sqlite3_column_int(st, 1),
			.ts_ms = sqlite3_column_int64(st, 2),
			.interval_ms = (uint32_t)sqlite3_column_int64(st, 3),
		};
		for (unsigned i = 0; i < DB_NCOUNTERS; i++) {
			int64_t x = sqlite3_column_int64(st, 4 + (int)i);
			r.c.v[i] = x < 0 ? 0 : (uint64_t)x;
		}
		ret = fn(arg, &r);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading port counters");
	sqlite3_finalize(st);
	return ret;
}

int db_counters_latest_each(struct db *db, int (*fn)(void *arg, const struct db_port_row *r),
			    void *arg)
{
	sqlite3_stmt *st;
	int err = db_prepare(db, "SELECT " DB_COUNTER_COLS " FROM port_counters WHERE id >="
			     " (SELECT first_id FROM counter_passes ORDER BY ts DESC LIMIT 1)"
			     " ORDER BY guid, port", &st);

	return err ? err : db_counters_each(db, st, fn, arg);
}

int db_counters_history_each(struct db *db, uint64_t guid, uint8_t port,
			     int (*fn)(void *arg, const struct db_port_row *r), void *arg)
{
	sqlite3_stmt *st;
	int err = db_prepare(db, "SELECT " DB_COUNTER_COLS " FROM port_counters"
			     " WHERE guid = ?1 AND port = ?2 ORDER BY ts", &st);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, (int64_t)guid);
	sqlite3_bind_int(st, 2, port);
	return db_counters_each(db, st, fn, arg);
}

int db_counters_totals_each(struct db *db, int (*fn)(void *arg, const struct db_port_row *r),
			    void *arg)
{
	sqlite3_stmt *st;
	int err = db_prepare(db, "SELECT guid, port, 0, 0" DB_PORT_COUNTERS(DB_COUNTER_COL)
			     " FROM port_counter_totals ORDER BY guid, port", &st);

	return err ? err : db_counters_each(db, st, fn, arg);
}

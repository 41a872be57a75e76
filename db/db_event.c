// SPDX-License-Identifier: MIT
/*
 * db_event.c - the events table: one row per thing that happened (topology
 * diff, trap, error), written inside a sweep or on its own, read oldest first.
 *
 * The insert statement is prepared once per connection (db->ev_ins): a first
 * sweep of a large fabric writes one event per node and per link.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "db/db_int.h"

#define DB_DETAIL_LEN 512

/* Insert one event row stamped @time_ms. */
static int event_insert(struct db *db, int64_t sweep_id, int64_t time_ms, const char *kind,
			uint64_t guid, int port, const char *detail)
{
	if (!db->ev_ins) {
		int err = db_prepare(db, "INSERT INTO events (sweep_id, time, kind, guid, port,"
				     " detail) VALUES (?, ?, ?, ?, ?, ?)", &db->ev_ins);
		if (err)
			return err;
	}
	sqlite3_stmt *st = db->ev_ins;
	if (sweep_id)
		sqlite3_bind_int64(st, 1, sweep_id);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_int64(st, 2, time_ms);
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
	if (guid)
		sqlite3_bind_int64(st, 4, db_guid_to_sql(guid));
	else
		sqlite3_bind_null(st, 4);
	if (port >= 0)
		sqlite3_bind_int(st, 5, port);
	else
		sqlite3_bind_null(st, 5);
	sqlite3_bind_text(st, 6, detail, -1, SQLITE_STATIC);
	return db_step_done(db, st, "recording an event");
}

int db_event_put(struct db *db, int64_t sweep_id, const char *kind, uint64_t guid, int port,
		 const char *detail)
{
	return event_insert(db, sweep_id, db_now_ms(db), kind, guid, port, detail);
}

int db_event_add_at(struct db *db, int64_t time_ms, const char *kind, uint64_t guid, int port,
		    const char *detail)
{
	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	if (!kind || !*kind)
		return db_fail_msg(db, -EINVAL, "%s: an event needs a kind", db->path);
	if (time_ms <= 0)
		return db_fail_msg(db, -EINVAL, "%s: an event at time %lld", db->path,
				   (long long)time_ms);
	return event_insert(db, 0, time_ms, kind, guid, port, detail ? detail : "");
}

int db_event_add(struct db *db, int64_t sweep_id, const char *kind, uint64_t guid, int port,
		 const char *fmt, ...)
{
	char detail[DB_DETAIL_LEN];
	va_list ap;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	if (!kind || !*kind)
		return db_fail_msg(db, -EINVAL, "%s: an event needs a kind", db->path);
	int err = sweep_id ? db_sweep_check(db, sweep_id) : 0;
	if (err)
		return err;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	return db_event_put(db, sweep_id, kind, guid, port, detail);
}

int db_events_each(struct db *db, int64_t since_id,
		   int (*fn)(void *arg, const struct db_event *ev), void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, "SELECT id, sweep_id, time, kind, guid, port, detail"
			     " FROM events WHERE id > ? ORDER BY id", &st);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, since_id);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_event ev = {
			.id = sqlite3_column_int64(st, 0),
			.sweep_id = sqlite3_column_int64(st, 1),
			.time_ms = sqlite3_column_int64(st, 2),
			.kind = (const char *)sqlite3_column_text(st, 3),
			.guid = db_guid_from_sql(sqlite3_column_int64(st, 4)),
			.port = sqlite3_column_type(st, 5) == SQLITE_NULL
				? -1 : sqlite3_column_int(st, 5),
			.detail = (const char *)sqlite3_column_text(st, 6),
		};
		ret = fn(arg, &ev);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading events");
	sqlite3_finalize(st);
	return ret;
}

// SPDX-License-Identifier: MIT
/*
 * db_isolate.c - the isolated_links table: the links the SM's isolation policy
 * (sm/telemetry/sm_isolate.c) keeps out of the routing view, with when and why, so that
 * an isolation survives a restart and smquery can list it.  A link is one row,
 * keyed by its end with the lower (GUID, port), as in links.
 */
#include <errno.h>

#include "db/db_int.h"

/* Is (@ga, @pa) the lower end of the link to (@gb, @pb)? */
static bool db_isolated_lower(uint64_t ga, uint8_t pa, uint64_t gb, uint8_t pb)
{
	return ga < gb || (ga == gb && pa <= pb);
}

int db_isolated_save(struct db *db, const struct db_isolated *l)
{
	sqlite3_stmt *st;
	bool lower = db_isolated_lower(l->guid, l->port, l->peer_guid, l->peer_port);

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_prepare_cached(db, "INSERT OR REPLACE INTO isolated_links (guid, port,"
				    " peer_guid, peer_port, since, cause, reason)"
				    " VALUES (?, ?, ?, ?, ?, ?, ?)", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(lower ? l->guid : l->peer_guid));
	sqlite3_bind_int(st, 2, lower ? l->port : l->peer_port);
	sqlite3_bind_int64(st, 3, db_guid_to_sql(lower ? l->peer_guid : l->guid));
	sqlite3_bind_int(st, 4, lower ? l->peer_port : l->port);
	sqlite3_bind_int64(st, 5, l->since_ms);
	sqlite3_bind_text(st, 6, l->cause ? l->cause : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, l->reason ? l->reason : "", -1, SQLITE_STATIC);
	return db_step_done(db, st, "saving an isolated link");
}

int db_isolated_delete(struct db *db, uint64_t guid, uint8_t port)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_prepare_cached(db, "DELETE FROM isolated_links WHERE (guid = ?1 AND"
				    " port = ?2) OR (peer_guid = ?1 AND peer_port = ?2)", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(guid));
	sqlite3_bind_int(st, 2, port);
	err = db_step_done(db, st, "forgetting an isolated link");
	return err ? err : sqlite3_changes(db->sql) > 0;
}

int db_isolated_each(struct db *db, int (*fn)(void *arg, const struct db_isolated *l),
		     void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, "SELECT guid, port, peer_guid, peer_port, since, cause, reason"
			     " FROM isolated_links ORDER BY since, guid, port", &st);

	if (err)
		return err;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_isolated l = {
			.guid = db_guid_from_sql(sqlite3_column_int64(st, 0)),
			.port = (uint8_t)sqlite3_column_int(st, 1),
			.peer_guid = db_guid_from_sql(sqlite3_column_int64(st, 2)),
			.peer_port = (uint8_t)sqlite3_column_int(st, 3),
			.since_ms = sqlite3_column_int64(st, 4),
			.cause = (const char *)sqlite3_column_text(st, 5),
			.reason = (const char *)sqlite3_column_text(st, 6),
		};
		ret = fn(arg, &l);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading the isolated links");
	sqlite3_finalize(st);
	return ret;
}

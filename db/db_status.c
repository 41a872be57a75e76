// SPDX-License-Identifier: MIT
/*
 * db_status.c - the status table: key/value strings describing the SM now
 * (state, GUID, LID, last sweep, subnet up time).  Writes join the open sweep's
 * transaction when there is one, else commit at once.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "db/db_int.h"

int db_status_set(struct db *db, const char *key, const char *value)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_prepare(db, "INSERT OR REPLACE INTO status (key, value) VALUES (?, ?)", &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	err = db_step_done(db, st, "setting status");
	sqlite3_finalize(st);
	return err;
}

int db_status_get(struct db *db, const char *key, char *buf, size_t len)
{
	sqlite3_stmt *st;
	int err = db_prepare(db, "SELECT value FROM status WHERE key = ?", &st);

	if (err)
		return err;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
	else if (rc == SQLITE_DONE)
		err = db_fail_msg(db, -ENOENT, "%s: no status %s", db->path, key);
	else
		err = db_fail(db, rc, "reading status");
	sqlite3_finalize(st);
	return err;
}

int db_status_each(struct db *db, int (*fn)(void *arg, const char *key, const char *value),
		   void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, "SELECT key, value FROM status ORDER BY key", &st);

	if (err)
		return err;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = fn(arg, (const char *)sqlite3_column_text(st, 0),
			 (const char *)sqlite3_column_text(st, 1));
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading status");
	sqlite3_finalize(st);
	return ret;
}

// SPDX-License-Identifier: MIT
/*
 * db_job.c - the jobs table: the running jobs the SM shapes routes for
 * (sm/jobs/), each with its pattern and its hosts in rank order, so that a
 * restarted or a standby-turned-master SM routes for them again, and smquery
 * can measure them (route-check --job).  seq keeps the start order.
 */
#include <errno.h>

#include "db/db_int.h"

int db_job_save(struct db *db, const struct db_job *j)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_prepare_cached(db, "INSERT INTO jobs (name, seq, pattern, started, hosts)"
				    " SELECT ?1, coalesce(max(seq), 0) + 1, ?2, ?3, ?4 FROM jobs"
				    " WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE name = ?1)", &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, j->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, j->pattern, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, j->started_ms);
	sqlite3_bind_text(st, 4, j->hosts, -1, SQLITE_STATIC);
	err = db_step_done(db, st, "saving a job");
	if (!err && sqlite3_changes(db->sql) == 0)
		return db_fail_msg(db, -EEXIST, "a job %s is stored already", j->name);
	return err;
}

int db_job_delete(struct db *db, const char *name)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_prepare_cached(db, "DELETE FROM jobs WHERE name = ?", &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	err = db_step_done(db, st, "forgetting a job");
	return err ? err : sqlite3_changes(db->sql) > 0;
}

int db_job_each(struct db *db, int (*fn)(void *arg, const struct db_job *j), void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, "SELECT name, pattern, started, hosts FROM jobs ORDER BY seq",
			     &st);

	if (err)
		return err;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_job j = {
			.name = (const char *)sqlite3_column_text(st, 0),
			.pattern = (const char *)sqlite3_column_text(st, 1),
			.started_ms = sqlite3_column_int64(st, 2),
			.hosts = (const char *)sqlite3_column_text(st, 3),
		};
		ret = fn(arg, &j);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading the jobs");
	sqlite3_finalize(st);
	return ret;
}

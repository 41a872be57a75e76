/* SPDX-License-Identifier: MIT */
/*
 * db_int.h - what the files of db/ share: the connection, error helpers,
 * schema entry points and the event writer.  Not for use outside db/.
 */
#ifndef IBSMD_DB_INT_H
#define IBSMD_DB_INT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "db/db.h"

#define DB_MSG_LEN 768
#define DB_STMT_CACHE 64

struct db {
	sqlite3 *sql;
	char *path;
	bool writer;
	int lock_fd;		/* writer lock (flock on the store file), or -1 */
	bool keys_private;	/* M_Keys in it: others' access taken away (db_mkey.c) */
	int64_t sweep_id;	/* the open sweep, 0 when none */
	int64_t sweep_started;	/* its start time, and its kind */
	char sweep_kind[8];
	int64_t frozen_ms;	/* db_freeze_clock(), 0: real time */
	uint64_t failures;	/* db_fail() calls (atomic: read from other threads) */
	uint32_t keep_events;	/* retention (db_set_retention), 0: all */
	uint32_t keep_sweeps;
	sqlite3_stmt *ev_ins;	/* cached event insert (writer) */
	/* statements prepared once and kept (db_prepare_cached), by SQL text address */
	const char *cached_sql[DB_STMT_CACHE];
	sqlite3_stmt *cached[DB_STMT_CACHE];
	char msg[DB_MSG_LEN];
};

/* -errno for an SQLite result code (SQLITE_FULL -> -ENOSPC, ...). */
int db_errno(int rc);

/*
 * Record "@what: <SQLite's message>" as the reason and return db_errno(@rc).
 * Inside a sweep the sweep is rolled back first (see db_sweep_fail()).
 */
int db_fail(struct db *db, int rc, const char *what);

/* A writer's store that holds M_Keys: others lose every access to it and to
 * its -wal and -shm files.  0 or -errno. */
int db_mkey_keep_private(struct db *db);

/* Record a reason of our own and return @neg_errno. */
int db_fail_msg(struct db *db, int neg_errno, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prepare @sql; on failure record why and return -errno. */
int db_prepare(struct db *db, const char *sql, sqlite3_stmt **st);

/*
 * The prepared statement for @sql, prepared on first use and kept until
 * db_close(): for statements a sweep runs thousands of times.  @sql must be a
 * string literal (the cache is keyed by its address).  The caller resets the
 * statement after use (db_step_done() does) and never finalizes it.
 */
int db_prepare_cached(struct db *db, const char *sql, sqlite3_stmt **st);

/* Run SQL without results; on failure record why and return -errno. */
int db_exec(struct db *db, const char *sql);

/* Step a statement that returns no rows and reset it; 0 or db_fail(). */
int db_step_done(struct db *db, sqlite3_stmt *st, const char *what);

/* 0 if @sweep_id is the open sweep, else -ESRCH with a reason. */
int db_sweep_check(struct db *db, int64_t sweep_id);

/* Roll back the open sweep, if any (after a failure inside it). */
void db_sweep_fail(struct db *db);

/* Begin / commit a read snapshot unless a sweep transaction is open. */
int db_read_begin(struct db *db, bool *began);
void db_read_end(struct db *db, bool began);

/*
 * Bring the schema of a freshly opened connection to DB_SCHEMA_VERSION
 * (writer) or check that it is exactly that (reader).  0 or -errno with the
 * reason in db->msg.
 */
int db_schema_migrate(struct db *db);
int db_schema_check(struct db *db);
/* 0 when the store is ibsmd's (of a version this build reads) or empty, else
 * -EPROTO with the reason in db->msg; reads only. */
int db_schema_ours(struct db *db);

/*
 * The class of a sweep's result for the totals and the metrics: "ok" (NULL,
 * "ok", "subnet up", "discovered only: ..." of a standby SM), "failed"
 * ("aborted: ..."), else "incomplete".
 */
const char *db_result_class(const char *result);

/* Add @sweeps sweeps of @kind with result class @result, taking @ms in all, to
 * the lifetime totals (inside the current transaction). */
int db_totals_add(struct db *db, const char *kind, const char *result, uint32_t sweeps,
		  int64_t ms, const struct db_smp_counts *smps);

/* Delete the history beyond the retention setting (inside the current
 * transaction), carrying the pruned events into their lifetime counts. */
int db_prune(struct db *db);

/* Insert one event inside the current transaction (no sweep checks). */
int db_event_put(struct db *db, int64_t sweep_id, const char *kind, uint64_t guid, int port,
		 const char *detail);

static inline int64_t db_guid_to_sql(uint64_t guid)
{
	return (int64_t)guid;
}

static inline uint64_t db_guid_from_sql(int64_t v)
{
	return (uint64_t)v;
}

#endif

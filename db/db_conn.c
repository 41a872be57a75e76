// SPDX-License-Identifier: MIT
/*
 * db_conn.c - opening and closing the store, the writer lock, error mapping,
 * the clock, and read snapshots.
 *
 * db_open(): a writer first takes flock(LOCK_EX) on the store file itself (a
 * lock SQLite never uses, so it only excludes other writers), then opens the
 * connection, checks that the file is ours or empty (reading only), switches
 * to WAL and migrates, and takes others' access away if the store holds
 * M_Keys (db_mkey.c).  A reader checks that the file
 * exists and opens it with SQLITE_OPEN_READONLY; WAL lets it read a committed
 * snapshot while the writer works.  Both then check the schema version.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db/db_int.h"

#define DB_BUSY_TIMEOUT_MS 5000

int db_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
		return 0;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_CANTOPEN:
		return -ENOENT;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return -EBADMSG;
	case SQLITE_CONSTRAINT:
		return -EEXIST;
	case SQLITE_TOOBIG:
		return -E2BIG;
	case SQLITE_MISUSE:
	case SQLITE_RANGE:
		return -EINVAL;
	default:
		return -EIO;
	}
}

int db_fail_msg(struct db *db, int neg_errno, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(db->msg, sizeof(db->msg), fmt, ap);
	va_end(ap);
	return neg_errno;
}

int db_fail(struct db *db, int rc, const char *what)
{
	int err = db_errno(rc);

	__atomic_add_fetch(&db->failures, 1, __ATOMIC_RELAXED);
	db_fail_msg(db, err, "%s: %s: %s%s", db->path, what, sqlite3_errmsg(db->sql),
		    err == -EBADMSG ? " (the file is damaged: restore a copy, or move it "
		    "aside for a new store)" : "");
	db_sweep_fail(db);
	return err ? err : -EIO;
}

uint64_t db_failures(const struct db *db)
{
	return __atomic_load_n(&db->failures, __ATOMIC_RELAXED);
}

int db_prepare(struct db *db, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(db->sql, sql, -1, st, NULL);

	return rc == SQLITE_OK ? 0 : db_fail(db, rc, "prepare");
}

int db_prepare_cached(struct db *db, const char *sql, sqlite3_stmt **st)
{
	unsigned i;

	for (i = 0; i < DB_STMT_CACHE && db->cached_sql[i]; i++)
		if (db->cached_sql[i] == sql) {
			*st = db->cached[i];
			return 0;
		}
	if (i == DB_STMT_CACHE)	/* a fixed set of call sites: never in practice */
		return db_fail_msg(db, -E2BIG, "statement cache full (%d)", DB_STMT_CACHE);
	int rc = db_prepare(db, sql, st);
	if (rc == 0) {
		db->cached_sql[i] = sql;
		db->cached[i] = *st;
	}
	return rc;
}

int db_exec(struct db *db, const char *sql)
{
	int rc = sqlite3_exec(db->sql, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : db_fail(db, rc, sql);
}

int db_step_done(struct db *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, rc, what);
}

int db_batch(struct db *db, int (*fill)(struct db *db, void *arg), void *arg)
{
	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	bool own = !db->sweep_id;
	int err = own ? db_exec(db, "BEGIN IMMEDIATE") : 0;
	if (!err)
		err = fill(db, arg);
	if (!err && own)
		err = db_exec(db, "COMMIT");
	if (err && own)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

int db_read_begin(struct db *db, bool *began)
{
	*began = sqlite3_get_autocommit(db->sql);
	return *began ? db_exec(db, "BEGIN") : 0;
}

void db_read_end(struct db *db, bool began)
{
	if (began)
		sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL);
}

const char *db_errmsg(const struct db *db)
{
	return db->msg;
}

int64_t db_now_ms(const struct db *db)
{
	struct timespec ts;

	if (db->frozen_ms)
		return db->frozen_ms;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void db_freeze_clock(struct db *db, int64_t now_ms)
{
	db->frozen_ms = now_ms;
}

/* The writer lock: an exclusive flock on the store file, kept until close. */
static int db_lock(struct db *db)
{
	db->lock_fd = open(db->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (db->lock_fd < 0)
		return db_fail_msg(db, -errno, "%s: cannot open for writing: %s", db->path,
				   strerror(errno));
	if (flock(db->lock_fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	int err = errno;
	if (err == EWOULDBLOCK)
		return db_fail_msg(db, -EBUSY,
				   "%s: already open for writing by another process "
				   "(one writer at a time: is ibsmd running?)", db->path);
	return db_fail_msg(db, -err, "%s: cannot lock: %s", db->path, strerror(err));
}

static int db_connect(struct db *db)
{
	int oflags = db->writer ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
				: SQLITE_OPEN_READONLY;
	struct stat sb;

	if (!db->writer && stat(db->path, &sb) < 0)
		return db_fail_msg(db, -errno, "%s: cannot open the database: %s", db->path,
				   strerror(errno));
	if (!db->writer && !S_ISREG(sb.st_mode))
		return db_fail_msg(db, S_ISDIR(sb.st_mode) ? -EISDIR : -EINVAL,
				   "%s: not a database file but a %s", db->path,
				   S_ISDIR(sb.st_mode) ? "directory" : "special file");
	int rc = sqlite3_open_v2(db->path, &db->sql, oflags | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "cannot open the database");
	sqlite3_extended_result_codes(db->sql, 1);
	sqlite3_busy_timeout(db->sql, DB_BUSY_TIMEOUT_MS);
	if (!db->writer)
		return db_schema_check(db);
	/*
	 * Keep the -wal and -shm files when we close: a reader that may not
	 * create files next to the store (smquery as a user, the daemon stopped)
	 * can then still open it read-only.
	 */
	int persist = 1;
	sqlite3_file_control(db->sql, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
	/* another program's file is refused before anything in it changes */
	int err = db_schema_ours(db);
	/*
	 * A new store gets 64 KiB pages (an existing one keeps its size): a
	 * switch's LFT row is up to 48 KiB, so a cold sweep writes ~100 MB, and
	 * larger pages write (and checkpoint) it in 16x fewer frames and
	 * overflow pages.  Only takes effect before the first table exists.
	 */
	if (!err) {
		rc = sqlite3_exec(db->sql, "PRAGMA page_size=65536; PRAGMA journal_mode=WAL;"
				  " PRAGMA synchronous=NORMAL;"
				  " PRAGMA cache_size=-32768", NULL, NULL, NULL);
		err = rc == SQLITE_OK ? 0 : db_fail(db, rc, "switching to WAL");
	}
	if (!err)
		err = db_schema_migrate(db);
	return err ? err : db_mkey_keep_private(db);
}

int db_open(const char *path, int flags, struct db **out, char *err, size_t errlen)
{
	struct db *db = calloc(1, sizeof(*db));

	*out = NULL;
	if (!db || !(db->path = strdup(path))) {
		free(db);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	db->writer = flags & DB_WRITER;
	db->lock_fd = -1;
	db_set_retention(db, DB_KEEP_EVENTS_DEFAULT, DB_KEEP_SWEEPS_DEFAULT);
	int rc = db->writer ? db_lock(db) : 0;
	if (!rc)
		rc = db_connect(db);
	if (rc) {
		snprintf(err, errlen, "%s", db->msg);
		db_close(db);
		return rc;
	}
	*out = db;
	return 0;
}

void db_close(struct db *db)
{
	if (!db)
		return;
	db_sweep_fail(db);
	sqlite3_finalize(db->ev_ins);
	for (unsigned i = 0; i < DB_STMT_CACHE; i++)
		sqlite3_finalize(db->cached[i]);
	sqlite3_close(db->sql);
	if (db->lock_fd >= 0)
		close(db->lock_fd);
	free(db->path);
	free(db);
}

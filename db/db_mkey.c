// SPDX-License-Identifier: MIT
/*
 * db_mkey.c - the M_Key the SM last set on each key-holding port (table mkey),
 * so that a changed configuration or a restart can still reach ports that hold
 * the old keys.  Keys are 64-bit values stored like GUIDs.
 *
 * Whoever reads the store holds the fabric: a store with keys in it is no
 * one else's.  Before the first key is written, and when a writer opens a
 * store that holds some, the store and its -wal and -shm files lose every
 * permission of others (0644 becomes 0640: the group may still run smquery);
 * files SQLite makes later take the store's mode.  A store without keys keeps
 * the mode it was made with.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "db/db_int.h"

static int make_private(struct db *db)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };
	char path[4096];
	struct stat st;

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		if (snprintf(path, sizeof(path), "%s%s", db->path, suffix[i]) >= (int)sizeof(path))
			return db_fail_msg(db, -ENAMETOOLONG, "%s: path too long", db->path);
		if (stat(path, &st)) {
			if (errno == ENOENT && i)	/* no WAL yet */
				continue;
			return db_fail_msg(db, -errno, "%s: %s", path, strerror(errno));
		}
		if ((st.st_mode & S_IRWXO) && chmod(path, st.st_mode & 07770))
			return db_fail_msg(db, -errno, "%s holds M_Keys and cannot be made "
					   "unreadable to others: %s", path, strerror(errno));
	}
	db->keys_private = true;
	return 0;
}

int db_mkey_keep_private(struct db *db)
{
	sqlite3_stmt *st;
	int err = db_prepare(db, "SELECT 1 FROM mkey LIMIT 1", &st);

	if (err)
		return err;
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return make_private(db);
	return rc == SQLITE_DONE ? 0 : db_fail(db, rc, "reading the M_Keys");
}

int db_mkeys_load(struct db *db, int (*fn)(void *arg, uint64_t guid, uint64_t mkey),
		  void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, "SELECT guid, mkey FROM mkey", &st);

	if (err)
		return err;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = fn(arg, db_guid_from_sql(sqlite3_column_int64(st, 0)),
			 db_guid_from_sql(sqlite3_column_int64(st, 1)));
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading the M_Keys");
	sqlite3_finalize(st);
	return ret;
}

int db_mkey_save(struct db *db, uint64_t guid, uint64_t mkey)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db->keys_private ? 0 : make_private(db);
	if (err)
		return err;
	err = db_prepare_cached(db, "INSERT OR REPLACE INTO mkey (guid, mkey) VALUES (?, ?)", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(guid));
	sqlite3_bind_int64(st, 2, db_guid_to_sql(mkey));
	return db_step_done(db, st, "saving an M_Key");
}

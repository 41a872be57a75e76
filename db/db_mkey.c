// SPDX-License-Identifier: MIT
/*
 * db_mkey.c - the M_Key the SM last set on each key-holding port (table mkey),
 * so that a changed configuration or a restart can still reach ports that hold
 * the old keys.  Keys are 64-bit values stored like GUIDs.
 */
#include <errno.h>

#include "db/db_int.h"

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
	int err = db_prepare_cached(db, "INSERT OR REPLACE INTO mkey (guid, mkey) VALUES (?, ?)",
				    &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(guid));
	sqlite3_bind_int64(st, 2, db_guid_to_sql(mkey));
	return db_step_done(db, st, "saving an M_Key");
}

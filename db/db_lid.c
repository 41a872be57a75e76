// SPDX-License-Identifier: MIT
/*
 * db_lid.c - what the SM has handed out and programmed, kept across restarts:
 * the GUID -> LID map (lids) and the LFT blocks last written to each switch
 * (lft, 64 one-byte entries per block, IBA 14.2.5.10).
 */
#include <errno.h>
#include <string.h>

#include "db/db_int.h"

#define DB_LFT_BLOCK 64

int db_lids_load(struct db *db,
		 int (*fn)(void *arg, uint64_t guid, uint16_t lid, uint8_t lmc), void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, "SELECT guid, lid, lmc FROM lids ORDER BY lid", &st);

	if (err)
		return err;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = fn(arg, db_guid_from_sql(sqlite3_column_int64(st, 0)),
			 (uint16_t)sqlite3_column_int(st, 1), (uint8_t)sqlite3_column_int(st, 2));
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading the LID map");
	sqlite3_finalize(st);
	return ret;
}

int db_lids_save(struct db *db, uint64_t guid, uint16_t lid, uint8_t lmc)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_prepare(db, "INSERT OR REPLACE INTO lids (guid, lid, lmc) VALUES (?, ?, ?)",
			     &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(guid));
	sqlite3_bind_int(st, 2, lid);
	sqlite3_bind_int(st, 3, lmc);
	err = db_step_done(db, st, "saving a LID");
	sqlite3_finalize(st);
	return err;
}

int db_lft_save(struct db *db, uint64_t switch_guid, uint16_t block, const uint8_t lft[64])
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_prepare(db, "INSERT OR REPLACE INTO lft (switch_guid, block, data)"
			     " VALUES (?, ?, ?)", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(switch_guid));
	sqlite3_bind_int(st, 2, block);
	sqlite3_bind_blob(st, 3, lft, DB_LFT_BLOCK, SQLITE_STATIC);
	err = db_step_done(db, st, "saving an LFT block");
	sqlite3_finalize(st);
	return err;
}

int db_lft_load(struct db *db, uint64_t switch_guid, uint8_t *lft, size_t nblocks)
{
	sqlite3_stmt *st;
	int rc, found = 0;
	int err = db_prepare(db, "SELECT block, data FROM lft WHERE switch_guid = ?"
			     " AND block < ?", &st);

	if (err)
		return err;
	memset(lft, 0xff, nblocks * DB_LFT_BLOCK);
	sqlite3_bind_int64(st, 1, db_guid_to_sql(switch_guid));
	sqlite3_bind_int64(st, 2, (int64_t)nblocks);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		size_t block = (size_t)sqlite3_column_int64(st, 0);
		const void *data = sqlite3_column_blob(st, 1);

		if (sqlite3_column_bytes(st, 1) != DB_LFT_BLOCK || !data)
			continue;	/* the schema's CHECK keeps these out */
		memcpy(lft + block * DB_LFT_BLOCK, data, DB_LFT_BLOCK);
		found++;
	}
	err = rc == SQLITE_DONE ? found : db_fail(db, rc, "reading LFT blocks");
	sqlite3_finalize(st);
	return err;
}

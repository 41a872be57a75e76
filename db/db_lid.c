// SPDX-License-Identifier: MIT
/*
 * db_lid.c - what the SM has handed out and programmed, kept across restarts:
 * the GUID -> LID map (lids) and the LFT blocks last written to each switch
 * (lft, 64 one-byte entries per block, IBA 14.2.5.10), pending while a
 * sweep sends them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/db_int.h"

#define DB_LFT_BLOCK 64
#define DB_LFT_MAX_BLOCKS (0xc000 / DB_LFT_BLOCK)	/* the unicast LID space */

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
	int err = db_prepare_cached(db, "INSERT OR REPLACE INTO lids (guid, lid, lmc)"
				    " VALUES (?, ?, ?)", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(guid));
	sqlite3_bind_int(st, 2, lid);
	sqlite3_bind_int(st, 3, lmc);
	return db_step_done(db, st, "saving a LID");
}

/* Run @sql, which takes @switch_guid as its one parameter. */
static int lft_row_op(struct db *db, const char *sql, uint64_t switch_guid, const char *what)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_prepare_cached(db, sql, &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(switch_guid));
	return db_step_done(db, st, what);
}

int db_lft_save_table(struct db *db, uint64_t switch_guid, const uint8_t *lft, size_t nblocks,
		      bool pending)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_prepare_cached(db, "INSERT OR REPLACE INTO lft (switch_guid, data)"
				    " VALUES (?, ?)", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(switch_guid));
	sqlite3_bind_blob64(st, 2, lft, (sqlite3_uint64)nblocks * DB_LFT_BLOCK, SQLITE_STATIC);
	err = db_step_done(db, st, "saving an LFT");
	if (!err && pending)
		err = db_lft_mark_pending(db, switch_guid);
	else if (!err)
		err = db_lft_confirm(db, switch_guid);
	return err;
}

int db_lft_mark_pending(struct db *db, uint64_t switch_guid)
{
	return lft_row_op(db, "INSERT OR IGNORE INTO lft_pending (switch_guid) VALUES (?)",
			  switch_guid, "marking an LFT pending");
}

int db_lft_confirm(struct db *db, uint64_t switch_guid)
{
	return lft_row_op(db, "DELETE FROM lft_pending WHERE switch_guid = ?", switch_guid,
			  "confirming an LFT");
}

/* The stored table of @switch_guid into @lft (@nblocks blocks, the rest 0xff),
 * whether it is pending into *@pending.  Returns how many blocks the stored
 * table has (0: none), or -errno. */
static int lft_read(struct db *db, uint64_t switch_guid, uint8_t *lft, size_t nblocks,
		    bool *pending)
{
	sqlite3_stmt *st;
	int rc, found = 0;
	int err = db_prepare_cached(db, "SELECT data, EXISTS (SELECT 1 FROM lft_pending AS p"
				    " WHERE p.switch_guid = lft.switch_guid) FROM lft"
				    " WHERE switch_guid = ?", &st);

	if (err)
		return err;
	memset(lft, 0xff, nblocks * DB_LFT_BLOCK);
	*pending = false;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(switch_guid));
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		size_t len = (size_t)sqlite3_column_bytes(st, 0);
		const void *data = sqlite3_column_blob(st, 0);
		found = (int)(len / DB_LFT_BLOCK);
		if (data)
			memcpy(lft, data, len < nblocks * DB_LFT_BLOCK ? len : nblocks * DB_LFT_BLOCK);
		*pending = sqlite3_column_int(st, 1) != 0;
	}
	err = rc == SQLITE_ROW || rc == SQLITE_DONE ? found : db_fail(db, rc, "reading an LFT");
	sqlite3_reset(st);
	return err;
}

int db_lft_save(struct db *db, uint64_t switch_guid, uint16_t block, const uint8_t lft[64])
{
	size_t nblocks = (size_t)block + 1;
	uint8_t *table = malloc(DB_LFT_MAX_BLOCKS * DB_LFT_BLOCK);

	if (!table)
		return db_fail_msg(db, -ENOMEM, "out of memory");
	bool pending = false;
	int found = lft_read(db, switch_guid, table, DB_LFT_MAX_BLOCKS, &pending);
	if (found >= 0) {
		if ((size_t)found > nblocks)
			nblocks = (size_t)found;
		memcpy(table + (size_t)block * DB_LFT_BLOCK, lft, DB_LFT_BLOCK);
		found = db_lft_save_table(db, switch_guid, table, nblocks, pending);
	}
	free(table);
	return found < 0 ? found : 0;
}

int db_lft_forget(struct db *db, uint64_t switch_guid)
{
	int err = lft_row_op(db, "DELETE FROM lft WHERE switch_guid = ?", switch_guid,
			     "forgetting an LFT");

	return err ? err : db_lft_confirm(db, switch_guid);
}

int db_lft_load(struct db *db, uint64_t switch_guid, uint8_t *lft, size_t nblocks,
		bool *pending)
{
	bool dummy;
	int found = lft_read(db, switch_guid, lft, nblocks, pending ? pending : &dummy);

	return found > (int)nblocks ? (int)nblocks : found;
}

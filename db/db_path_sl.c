// SPDX-License-Identifier: MIT
/*
 * db_path_sl.c - the routing engine's path SLs in the store (path_sls), so
 * that `smquery route-check` checks credit loops on the SLs the routes use.
 *
 * One row per source: a switch's node GUID (engines that give every CA behind
 * a switch the same SL) or a CA LID; its SLs toward DLIDs 0, 1, ... run-length
 * coded: pairs of an SL byte and a LEB128 run length, the DLIDs past the last
 * run SL 0.  A source whose SLs are all 0 has no row.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/db_int.h"

/* Run-length code @n SLs into @out (at least 6 bytes per run: n * 6 is
 * always enough); its length, 0 when every SL is 0. */
static size_t encode(const uint8_t *sls, size_t n, uint8_t *out)
{
	size_t len = 0, last = 0;	/* the end of the last run of a non-0 SL */

	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && sls[j] == sls[i])
			j++;
		out[len++] = sls[i];
		for (size_t run = j - i; ; run >>= 7) {
			out[len++] = (uint8_t)((run & 0x7f) | (run > 0x7f ? 0x80 : 0));
			if (run <= 0x7f)
				break;
		}
		if (sls[i])
			last = len;
		i = j;
	}
	return last;
}

/* Decode @len bytes into @sls (@n of them, zeroed first; SLs past @n left
 * out).  0, or -EINVAL for a row cut short. */
static int decode(const uint8_t *in, size_t len, uint8_t *sls, size_t n)
{
	size_t at = 0;

	memset(sls, 0, n);
	for (size_t i = 0; i < len;) {
		uint8_t sl = in[i++];
		uint64_t run = 0;
		for (unsigned shift = 0;; shift += 7) {
			if (i >= len || shift > 35)
				return -EINVAL;
			run |= (uint64_t)(in[i] & 0x7f) << shift;
			if (!(in[i++] & 0x80))
				break;
		}
		if (run > n - at)
			run = n - at;	/* DLIDs past @n: the fabric has fewer now */
		memset(sls + at, sl, run);
		at += run;
	}
	return 0;
}

int db_path_sls_save(struct db *db, uint64_t source, bool by_switch, const uint8_t *sls,
		     size_t n)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	uint8_t *blob = malloc(n * 6 + 1);
	if (!blob)
		return -ENOMEM;
	size_t len = encode(sls, n, blob);
	int err = len ? db_prepare_cached(db, "INSERT OR REPLACE INTO path_sls"
					  " (source, by_switch, sls) VALUES (?, ?, ?)", &st)
		      : db_prepare_cached(db, "DELETE FROM path_sls WHERE source = ?", &st);
	if (!err) {
		sqlite3_bind_int64(st, 1, db_guid_to_sql(source));
		if (len) {
			sqlite3_bind_int(st, 2, by_switch);
			sqlite3_bind_blob64(st, 3, blob, len, SQLITE_STATIC);
		}
		err = db_step_done(db, st, "saving path SLs");
	}
	free(blob);
	return err;
}

int db_path_sls_clear(struct db *db)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_prepare_cached(db, "DELETE FROM path_sls", &st);
	return err ? err : db_step_done(db, st, "clearing path SLs");
}

int db_path_sls_each(struct db *db, size_t n, db_path_sls_fn fn, void *arg)
{
	sqlite3_stmt *st;
	int rc, err = db_prepare(db, "SELECT source, by_switch, sls FROM path_sls", &st);

	if (err)
		return err;
	uint8_t *sls = malloc(n ? n : 1);
	if (!sls) {
		sqlite3_finalize(st);
		return -ENOMEM;
	}
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const uint8_t *blob = sqlite3_column_blob(st, 2);
		size_t len = (size_t)sqlite3_column_bytes(st, 2);
		if (decode(blob, len, sls, n))
			err = db_fail_msg(db, -EINVAL, "%s: a path_sls row is malformed", db->path);
		else
			err = fn(arg, db_guid_from_sql(sqlite3_column_int64(st, 0)),
				 sqlite3_column_int(st, 1) != 0, sls, n);
	}
	if (!err && rc != SQLITE_DONE)
		err = db_fail_msg(db, -EIO, "%s: reading path SLs: %s", db->path,
				  sqlite3_errmsg(db->sql));
	free(sls);
	sqlite3_finalize(st);
	return err;
}

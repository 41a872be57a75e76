// SPDX-License-Identifier: MIT
/*
 * db_ar.c - the adaptive routing (AR) tables last programmed into each switch
 * (table ar, one row per switch), so a restarted daemon sends only what
 * differs (sm/repair/sm_ar_store.c).
 *
 * A row holds the group table as programmed, groups 1..top, 32 bytes each
 * (four 64-port masks, big-endian, ports 0-63 first), and the AR LFT's group
 * per LID, 0 for a static LID, coded as runs: a LEB128 run length then a
 * LEB128 group, runs to the row's length (a fat tree's rows are long runs:
 * ~20 bytes a switch instead of 2 per LID).  A row read back is checked
 * whole: a length that does not match, a group past top, a LID past the LFT
 * make it -EBADMSG, no record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/db_int.h"

#define DB_AR_GROUP_BYTES 32

/* Append @v as LEB128 to @out at *@len. */
static void put_leb(uint8_t *out, size_t *len, uint32_t v)
{
	do {
		out[(*len)++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

/* A LEB128 value of at most 32 bits from @in at *@at (@len bytes); -1 when
 * cut short or too long. */
static int64_t get_leb(const uint8_t *in, size_t len, size_t *at)
{
	uint64_t v = 0;

	for (unsigned shift = 0; *at < len && shift < 35; shift += 7) {
		uint8_t b = in[(*at)++];
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v > UINT32_MAX ? -1 : (int64_t)v;
	}
	return -1;
}

int db_ar_save(struct db *db, uint64_t switch_guid, const struct db_ar_table *t)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	if (t->top > DB_AR_MAX_GROUP || t->nlid > DB_AR_MAX_LIDS)
		return db_fail_msg(db, -EINVAL, "AR table of 0x%016llx out of range",
				   (unsigned long long)switch_guid);
	size_t glen = (size_t)t->top * DB_AR_GROUP_BYTES;
	uint8_t *groups = malloc(glen + 1);
	uint8_t *runs = malloc((size_t)t->nlid * 6 + 1);	/* 3 + 3 bytes a run at most */
	size_t rlen = 0;
	if (!groups || !runs) {
		free(groups);
		free(runs);
		return db_fail_msg(db, -ENOMEM, "out of memory");
	}
	for (size_t g = 0; g < t->top; g++)
		for (unsigned w = 0; w < 4; w++)
			for (unsigned b = 0; b < 8; b++)
				groups[g * DB_AR_GROUP_BYTES + w * 8 + b] =
					(uint8_t)(t->groups[g][w] >> (56 - 8 * b));
	for (uint32_t i = 0; i < t->nlid;) {
		uint32_t j = i;
		while (j < t->nlid && t->lid_group[j] == t->lid_group[i])
			j++;
		put_leb(runs, &rlen, j - i);
		put_leb(runs, &rlen, t->lid_group[i]);
		i = j;
	}
	int err = db_prepare_cached(db, "INSERT OR REPLACE INTO ar (switch_guid, top, groups,"
				    " lid_groups) VALUES (?, ?, ?, ?)", &st);
	if (!err) {
		sqlite3_bind_int64(st, 1, db_guid_to_sql(switch_guid));
		sqlite3_bind_int(st, 2, t->top);
		sqlite3_bind_blob64(st, 3, groups, glen, SQLITE_STATIC);
		sqlite3_bind_blob64(st, 4, runs, rlen, SQLITE_STATIC);
		err = db_step_done(db, st, "saving an AR table");
	}
	free(groups);
	free(runs);
	return err;
}

int db_ar_forget(struct db *db, uint64_t switch_guid)
{
	sqlite3_stmt *st;

	if (!db->writer)
		return db_fail_msg(db, -EROFS, "%s: opened read-only", db->path);
	int err = db_prepare_cached(db, "DELETE FROM ar WHERE switch_guid = ?", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(switch_guid));
	return db_step_done(db, st, "forgetting an AR table");
}

void db_ar_table_free(struct db_ar_table *t)
{
	free(t->groups);
	free(t->lid_group);
	memset(t, 0, sizeof(*t));
}

/* Decode a row's columns into @t (allocated); 0 or -EBADMSG, -ENOMEM. */
static int decode(int top, const uint8_t *groups, size_t glen, const uint8_t *runs, size_t rlen,
		  struct db_ar_table *t)
{
	if (top < 0 || top > DB_AR_MAX_GROUP || glen != (size_t)top * DB_AR_GROUP_BYTES)
		return -EBADMSG;
	t->top = (uint16_t)top;
	t->groups = calloc((size_t)top + 1, sizeof(*t->groups));
	t->lid_group = malloc(DB_AR_MAX_LIDS * sizeof(*t->lid_group));
	if (!t->groups || !t->lid_group)
		return -ENOMEM;
	for (size_t g = 0; g < t->top; g++)
		for (unsigned w = 0; w < 4; w++)
			for (unsigned b = 0; b < 8; b++)
				t->groups[g][w] = t->groups[g][w] << 8 |
						  groups[g * DB_AR_GROUP_BYTES + w * 8 + b];
	for (size_t at = 0; at < rlen;) {
		int64_t run = get_leb(runs, rlen, &at), group = get_leb(runs, rlen, &at);
		if (run <= 0 || group < 0 || group > top || run > DB_AR_MAX_LIDS - t->nlid)
			return -EBADMSG;
		for (int64_t i = 0; i < run; i++)
			t->lid_group[t->nlid++] = (uint16_t)group;
	}
	uint16_t *fit = realloc(t->lid_group, ((size_t)t->nlid + 1) * sizeof(*fit));
	if (fit)
		t->lid_group = fit;
	return 0;
}

int db_ar_load(struct db *db, uint64_t switch_guid, struct db_ar_table *t)
{
	sqlite3_stmt *st;
	int err = db_prepare_cached(db, "SELECT top, groups, lid_groups FROM ar"
				    " WHERE switch_guid = ?", &st);

	memset(t, 0, sizeof(*t));
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(switch_guid));
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		err = decode(sqlite3_column_int(st, 0), sqlite3_column_blob(st, 1),
			     (size_t)sqlite3_column_bytes(st, 1), sqlite3_column_blob(st, 2),
			     (size_t)sqlite3_column_bytes(st, 2), t);
		if (err == -ENOMEM)
			err = db_fail_msg(db, err, "out of memory");
		else if (err)
			err = db_fail_msg(db, err, "the AR table of 0x%016llx is damaged",
					  (unsigned long long)switch_guid);
		else
			err = 1;
	} else if (rc != SQLITE_DONE) {
		err = db_fail(db, rc, "reading an AR table");
	}
	sqlite3_reset(st);
	if (err <= 0)
		db_ar_table_free(t);
	return err;
}

// SPDX-License-Identifier: MIT
/*
 * db_prune.c - retention: the store keeps the newest N events, heavy sweeps
 * and light-sweep intervals and deletes the older ones.
 *
 * Rows get ids (and light intervals start times) in increasing order, so
 * "older than the newest N" is one range delete on the primary key: cheap
 * enough to run at the end of every sweep, and a no-op while the tables are
 * below their bounds.  Events are counted by kind into event_totals before they
 * go, so that the lifetime event counts of `smquery metrics` never go down;
 * sweeps are already in sweep_totals (db_sweep.c).
 */
#include "db/db_int.h"

void db_set_retention(struct db *db, uint32_t events, uint32_t sweeps)
{
	db->keep_events = events;
	db->keep_sweeps = sweeps;
}

static const char db_events_carry_sql[] =
	"INSERT INTO event_totals (kind, pruned)"
	" SELECT kind, count(*) FROM events WHERE id <= (SELECT max(id) FROM events) - ?1"
	" GROUP BY kind"
	" ON CONFLICT (kind) DO UPDATE SET pruned = pruned + excluded.pruned";

static const char db_events_prune_sql[] =
	"DELETE FROM events WHERE id <= (SELECT max(id) FROM events) - ?1";

static const char db_sweeps_prune_sql[] =
	"DELETE FROM sweeps WHERE id <= (SELECT max(id) FROM sweeps) - ?1";

/* light intervals: the ?1 newest rows stay, whatever the gaps between them */
static const char db_light_prune_sql[] =
	"DELETE FROM light_sweeps WHERE started <"
	" (SELECT started FROM light_sweeps ORDER BY started DESC LIMIT 1 OFFSET ?1 - 1)";

static int db_prune_one(struct db *db, const char *sql, uint32_t keep, const char *what)
{
	sqlite3_stmt *st;

	if (!keep)
		return 0;
	int err = db_prepare_cached(db, sql, &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, keep);
	return db_step_done(db, st, what);
}

int db_prune(struct db *db)
{
	int err = db_prune_one(db, db_events_carry_sql, db->keep_events, "counting pruned events");

	if (!err)
		err = db_prune_one(db, db_events_prune_sql, db->keep_events, "pruning events");
	if (!err)
		err = db_prune_one(db, db_sweeps_prune_sql, db->keep_sweeps, "pruning sweeps");
	if (!err)
		err = db_prune_one(db, db_light_prune_sql, db->keep_sweeps,
				   "pruning light sweeps");
	return err;
}

// SPDX-License-Identifier: MIT
/*
 * db_part.c - partitions and multicast groups as the daemon last had them
 * (tables partitions, partition_members, mcast_groups, mcast_members), for
 * smquery partitions and smquery mcast, and the groups for the daemon's
 * next start (sm_part_store.c reads them back).  Each save replaces the tables'
 * rows whole: in the open sweep's transaction, or in one of its own.  MGIDs
 * are stored as their text ("ff12:401b:ffff::ffff:ffff"); the store does not
 * read them.
 */
#include <errno.h>

#include "db/db_int.h"

struct part_rows {
	const struct db_partition *p;
	size_t n;
	const struct db_partition_member *m;
	size_t nm;
};

static int part_fill(struct db *db, void *arg)
{
	const struct part_rows *r = arg;
	sqlite3_stmt *st;
	int err = db_exec(db, "DELETE FROM partitions; DELETE FROM partition_members");

	for (size_t i = 0; !err && i < r->n; i++) {
		const struct db_partition *p = &r->p[i];
		if ((err = db_prepare_cached(db, "INSERT INTO partitions (pkey, name, ipoib, mtu, "
					     "rate, sl, ports) VALUES (?, ?, ?, ?, ?, ?, ?)", &st)))
			break;
		sqlite3_bind_int(st, 1, p->pkey);
		sqlite3_bind_text(st, 2, p->name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 3, p->ipoib);
		sqlite3_bind_text(st, 4, p->mtu, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 5, p->rate, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 6, p->sl);
		sqlite3_bind_int64(st, 7, p->ports);
		err = db_step_done(db, st, "saving a partition");
	}
	for (size_t i = 0; !err && i < r->nm; i++) {
		const struct db_partition_member *m = &r->m[i];
		if ((err = db_prepare_cached(db, "INSERT OR REPLACE INTO partition_members (pkey, "
					     "member, full) VALUES (?, ?, ?)", &st)))
			break;
		sqlite3_bind_int(st, 1, m->pkey);
		sqlite3_bind_text(st, 2, m->member, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 3, m->full);
		err = db_step_done(db, st, "saving a partition member");
	}
	return err;
}

int db_partitions_save(struct db *db, const struct db_partition *p, size_t n,
		       const struct db_partition_member *m, size_t nm)
{
	struct part_rows r = { p, n, m, nm };

	return db_batch(db, part_fill, &r);
}

struct mcast_rows {
	const struct db_mcast_group *g;
	size_t n;
	const struct db_mcast_member *m;
	size_t nm;
};

static int mcast_fill(struct db *db, void *arg)
{
	const struct mcast_rows *r = arg;
	sqlite3_stmt *st;
	int err = db_exec(db, "DELETE FROM mcast_groups; DELETE FROM mcast_members");

	for (size_t i = 0; !err && i < r->n; i++) {
		const struct db_mcast_group *g = &r->g[i];
		if ((err = db_prepare_cached(db, "INSERT OR REPLACE INTO mcast_groups (mgid, mlid, "
					     "pkey, qkey, mtu, rate, sl, well_known, tree_switches, "
					     "mtu_code, rate_code, tclass, flow_label, hop_limit, "
					     "scope, lifetime) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
					     "?, ?, ?, ?, ?)", &st)))
			break;
		sqlite3_bind_text(st, 1, g->mgid, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 2, g->mlid);
		sqlite3_bind_int(st, 3, g->pkey);
		sqlite3_bind_int64(st, 4, g->qkey);
		sqlite3_bind_text(st, 5, g->mtu, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 6, g->rate, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 7, g->sl);
		sqlite3_bind_int(st, 8, g->well_known);
		sqlite3_bind_int64(st, 9, g->tree_switches);
		sqlite3_bind_int(st, 10, g->mtu_code);
		sqlite3_bind_int(st, 11, g->rate_code);
		sqlite3_bind_int(st, 12, g->tclass);
		sqlite3_bind_int64(st, 13, g->flow_label);
		sqlite3_bind_int(st, 14, g->hop_limit);
		sqlite3_bind_int(st, 15, g->scope);
		sqlite3_bind_int(st, 16, g->lifetime);
		err = db_step_done(db, st, "saving a multicast group");
	}
	for (size_t i = 0; !err && i < r->nm; i++) {
		const struct db_mcast_member *m = &r->m[i];
		if ((err = db_prepare_cached(db, "INSERT OR REPLACE INTO mcast_members (mgid, guid, "
					     "join_state) VALUES (?, ?, ?)", &st)))
			break;
		sqlite3_bind_text(st, 1, m->mgid, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, db_guid_to_sql(m->guid));
		sqlite3_bind_int(st, 3, m->join_state);
		err = db_step_done(db, st, "saving a multicast member");
	}
	return err;
}

int db_mcast_save(struct db *db, const struct db_mcast_group *g, size_t n,
		  const struct db_mcast_member *m, size_t nm)
{
	struct mcast_rows r = { g, n, m, nm };

	return db_batch(db, mcast_fill, &r);
}

int db_partitions_each(struct db *db, int (*fn)(void *arg, const struct db_partition *p),
		       void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, "SELECT pkey, name, ipoib, mtu, rate, sl, ports FROM partitions "
			     "ORDER BY pkey = 32767 DESC, pkey", &st);

	if (err)
		return err;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct db_partition p = {
			.pkey = (uint16_t)sqlite3_column_int(st, 0),
			.name = (const char *)sqlite3_column_text(st, 1),
			.ipoib = sqlite3_column_int(st, 2),
			.mtu = (const char *)sqlite3_column_text(st, 3),
			.rate = (const char *)sqlite3_column_text(st, 4),
			.sl = (uint8_t)sqlite3_column_int(st, 5),
			.ports = (uint32_t)sqlite3_column_int64(st, 6),
		};
		ret = fn(arg, &p);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading partitions");
	sqlite3_finalize(st);
	return ret;
}

int db_partition_members_each(struct db *db, uint16_t pkey,
			      int (*fn)(void *arg, const struct db_partition_member *m), void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, "SELECT member, full FROM partition_members WHERE pkey = ? "
			     "ORDER BY rowid", &st);

	if (err)
		return err;
	sqlite3_bind_int(st, 1, pkey);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct db_partition_member m = {
			.pkey = pkey, .member = (const char *)sqlite3_column_text(st, 0),
			.full = sqlite3_column_int(st, 1),
		};
		ret = fn(arg, &m);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading partition members");
	sqlite3_finalize(st);
	return ret;
}

int db_mcast_each(struct db *db, int (*fn)(void *arg, const struct db_mcast_group *g),
		  void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, "SELECT g.mgid, mlid, pkey, qkey, mtu, rate, sl, well_known, "
			     "tree_switches, (SELECT count(*) FROM mcast_members m WHERE "
			     "m.mgid = g.mgid), mtu_code, rate_code, tclass, flow_label, hop_limit, "
			     "scope, lifetime FROM mcast_groups g ORDER BY mlid", &st);

	if (err)
		return err;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct db_mcast_group g = {
			.mgid = (const char *)sqlite3_column_text(st, 0),
			.mlid = (uint16_t)sqlite3_column_int(st, 1),
			.pkey = (uint16_t)sqlite3_column_int(st, 2),
			.qkey = (uint32_t)sqlite3_column_int64(st, 3),
			.mtu = (const char *)sqlite3_column_text(st, 4),
			.rate = (const char *)sqlite3_column_text(st, 5),
			.sl = (uint8_t)sqlite3_column_int(st, 6),
			.well_known = sqlite3_column_int(st, 7),
			.tree_switches = (uint32_t)sqlite3_column_int64(st, 8),
			.members = (uint32_t)sqlite3_column_int64(st, 9),
			.mtu_code = (uint8_t)sqlite3_column_int(st, 10),
			.rate_code = (uint8_t)sqlite3_column_int(st, 11),
			.tclass = (uint8_t)sqlite3_column_int(st, 12),
			.flow_label = (uint32_t)sqlite3_column_int64(st, 13),
			.hop_limit = (uint8_t)sqlite3_column_int(st, 14),
			.scope = (uint8_t)sqlite3_column_int(st, 15),
			.lifetime = (uint8_t)sqlite3_column_int(st, 16),
		};
		ret = fn(arg, &g);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading multicast groups");
	sqlite3_finalize(st);
	return ret;
}

int db_mcast_members_each(struct db *db, const char *mgid,
			  int (*fn)(void *arg, const struct db_mcast_member *m), void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, "SELECT guid, join_state FROM mcast_members WHERE mgid = ? "
			     "ORDER BY guid", &st);

	if (err)
		return err;
	sqlite3_bind_text(st, 1, mgid, -1, SQLITE_TRANSIENT);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct db_mcast_member m = {
			.mgid = mgid, .guid = db_guid_from_sql(sqlite3_column_int64(st, 0)),
			.join_state = (uint8_t)sqlite3_column_int(st, 1),
		};
		ret = fn(arg, &m);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading multicast members");
	sqlite3_finalize(st);
	return ret;
}

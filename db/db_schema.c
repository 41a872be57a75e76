// SPDX-License-Identifier: MIT
/*
 * db_schema.c - the schema and its migrations.
 *
 * db_migrations[i] takes a store from version i to i + 1; PRAGMA user_version
 * holds the version reached and PRAGMA application_id marks the file as ours.
 * A writer applies the missing steps, each in its own transaction together with
 * the new user_version, so a crash mid-migration leaves the previous version.
 * A reader never migrates: it accepts exactly DB_SCHEMA_VERSION.  To change the
 * schema, append a step and bump DB_SCHEMA_VERSION; never edit a step shipped.
 *
 * Times are ms since the epoch; GUIDs are int64 bit patterns of the uint64.
 */
#include <errno.h>
#include <stdio.h>

#include "db/db_int.h"

#define DB_APPLICATION_ID 0x4942534d	/* "IBSM" */

static const char *const db_migrations[] = {
	/* 0 -> 1: topology, history, LID map, LFTs, status */
	"CREATE TABLE nodes ("
	" guid INTEGER PRIMARY KEY,"
	" seq INTEGER NOT NULL,"		/* position in the stored snapshot */
	" type INTEGER NOT NULL,"		/* 1 CA, 2 switch, 3 router */
	" nports INTEGER NOT NULL,"
	" sys_guid INTEGER NOT NULL,"
	" vendor_id INTEGER NOT NULL,"
	" device_id INTEGER NOT NULL,"
	" revision INTEGER NOT NULL,"
	" enhanced_port0 INTEGER NOT NULL,"
	" desc TEXT NOT NULL,"
	" name TEXT NOT NULL,"
	" path BLOB,"				/* directed route: output ports */
	" first_seen INTEGER NOT NULL,"
	" last_seen INTEGER NOT NULL,"
	" responded INTEGER NOT NULL);"
	"CREATE TABLE ports ("
	" node_guid INTEGER NOT NULL,"
	" port_num INTEGER NOT NULL,"
	" port_guid INTEGER NOT NULL,"
	" state INTEGER NOT NULL,"
	" phys_state INTEGER NOT NULL,"
	" width INTEGER NOT NULL,"
	" speed INTEGER NOT NULL,"
	" lid INTEGER NOT NULL,"
	" lmc INTEGER NOT NULL,"
	" peer_guid INTEGER,"			/* NULL: not linked */
	" peer_port INTEGER,"
	" PRIMARY KEY (node_guid, port_num)) WITHOUT ROWID;"
	"CREATE TABLE links ("			/* (guid_a, port_a) < (guid_b, port_b) */
	" guid_a INTEGER NOT NULL,"
	" port_a INTEGER NOT NULL,"
	" guid_b INTEGER NOT NULL,"
	" port_b INTEGER NOT NULL,"
	" PRIMARY KEY (guid_a, port_a)) WITHOUT ROWID;"
	"CREATE TABLE sweeps ("
	" id INTEGER PRIMARY KEY,"
	" kind TEXT NOT NULL CHECK (kind IN ('heavy', 'light')),"
	" started INTEGER NOT NULL,"
	" ended INTEGER,"
	" result TEXT,"
	" nodes INTEGER NOT NULL DEFAULT 0,"
	" links INTEGER NOT NULL DEFAULT 0,"
	" discovery_smps INTEGER NOT NULL DEFAULT 0,"
	" lid_smps INTEGER NOT NULL DEFAULT 0,"
	" lft_smps INTEGER NOT NULL DEFAULT 0,"
	" activate_smps INTEGER NOT NULL DEFAULT 0,"
	" discovery_ms INTEGER NOT NULL DEFAULT 0,"
	" lid_ms INTEGER NOT NULL DEFAULT 0,"
	" routing_ms INTEGER NOT NULL DEFAULT 0,"
	" lft_ms INTEGER NOT NULL DEFAULT 0,"
	" activate_ms INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE events ("
	" id INTEGER PRIMARY KEY,"
	" sweep_id INTEGER,"			/* NULL: outside any sweep */
	" time INTEGER NOT NULL,"
	" kind TEXT NOT NULL,"
	" guid INTEGER,"			/* NULL: no subject */
	" port INTEGER,"			/* NULL: no port */
	" detail TEXT NOT NULL);"
	"CREATE TABLE lids ("			/* persistent port GUID -> LID */
	" guid INTEGER PRIMARY KEY,"
	" lid INTEGER NOT NULL,"
	" lmc INTEGER NOT NULL);"
	"CREATE TABLE lft ("			/* last programmed LFT of each switch */
	" switch_guid INTEGER PRIMARY KEY,"
	" data BLOB NOT NULL CHECK (length(data) % 64 = 0));"	/* whole 64-entry blocks */
	"CREATE TABLE status ("
	" key TEXT PRIMARY KEY,"
	" value TEXT NOT NULL);",
	/* 1 -> 2: the store time and SMP counts of a sweep, light sweeps per
	 * interval, lifetime totals that outlive the pruning of old rows */
	"ALTER TABLE sweeps ADD COLUMN store_ms INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE sweeps ADD COLUMN smps_sent INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE sweeps ADD COLUMN smps_lost INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE sweeps ADD COLUMN smps_retried INTEGER NOT NULL DEFAULT 0;"
	"UPDATE sweeps SET smps_sent = discovery_smps + lid_smps + lft_smps + activate_smps;"
	"CREATE TABLE light_sweeps ("
	" started INTEGER PRIMARY KEY,"		/* interval start */
	" last INTEGER NOT NULL,"		/* end of its last sweep */
	" sweeps INTEGER NOT NULL,"
	" changed INTEGER NOT NULL,"		/* sweeps that found a change */
	" failed INTEGER NOT NULL,"
	" changes INTEGER NOT NULL,"
	" ms INTEGER NOT NULL,"
	" max_ms INTEGER NOT NULL,"
	" smps_sent INTEGER NOT NULL,"
	" smps_lost INTEGER NOT NULL,"
	" smps_retried INTEGER NOT NULL);"
	"CREATE TABLE sweep_totals ("		/* every sweep ever, by kind and result */
	" kind TEXT NOT NULL,"
	" result TEXT NOT NULL,"		/* ok, changed, incomplete, failed */
	" sweeps INTEGER NOT NULL,"
	" ms INTEGER NOT NULL,"
	" smps_sent INTEGER NOT NULL,"
	" smps_lost INTEGER NOT NULL,"
	" smps_retried INTEGER NOT NULL,"
	" PRIMARY KEY (kind, result)) WITHOUT ROWID;"
	"INSERT INTO sweep_totals SELECT kind,"
	" CASE WHEN result IN ('ok', 'subnet up') THEN 'ok'"
	"  WHEN result LIKE 'aborted:%' THEN 'failed' ELSE 'incomplete' END,"
	" count(*), sum(max(ended - started, 0)), sum(smps_sent), 0, 0"
	" FROM sweeps WHERE ended IS NOT NULL GROUP BY 1, 2;"
	"CREATE TABLE event_totals ("		/* events pruned, by kind */
	" kind TEXT PRIMARY KEY,"
	" pruned INTEGER NOT NULL) WITHOUT ROWID;",
	/* 2 -> 3: links that trained below both ends' best (TOPO_DEGRADED_* bits) */
	"ALTER TABLE ports ADD COLUMN degraded INTEGER NOT NULL DEFAULT 0;",
	/* 3 -> 4: the M_Key the SM last set on each key-holding port */
	"CREATE TABLE mkey ("
	" guid INTEGER PRIMARY KEY,"
	" mkey INTEGER NOT NULL) WITHOUT ROWID;",
	/* 4 -> 5: patches (sm_patch.h) are sweeps of their own kind, with the LFT
	 * entries they changed; SQLite cannot change a CHECK: the table is copied */
	"CREATE TABLE sweeps_v5 ("
	" id INTEGER PRIMARY KEY,"
	" kind TEXT NOT NULL CHECK (kind IN ('heavy', 'light', 'patch')),"
	" started INTEGER NOT NULL,"
	" ended INTEGER,"
	" result TEXT,"
	" nodes INTEGER NOT NULL DEFAULT 0,"
	" links INTEGER NOT NULL DEFAULT 0,"
	" discovery_smps INTEGER NOT NULL DEFAULT 0,"
	" lid_smps INTEGER NOT NULL DEFAULT 0,"
	" lft_smps INTEGER NOT NULL DEFAULT 0,"
	" activate_smps INTEGER NOT NULL DEFAULT 0,"
	" discovery_ms INTEGER NOT NULL DEFAULT 0,"
	" lid_ms INTEGER NOT NULL DEFAULT 0,"
	" routing_ms INTEGER NOT NULL DEFAULT 0,"
	" lft_ms INTEGER NOT NULL DEFAULT 0,"
	" activate_ms INTEGER NOT NULL DEFAULT 0,"
	" store_ms INTEGER NOT NULL DEFAULT 0,"
	" smps_sent INTEGER NOT NULL DEFAULT 0,"
	" smps_lost INTEGER NOT NULL DEFAULT 0,"
	" smps_retried INTEGER NOT NULL DEFAULT 0,"
	" lft_entries INTEGER NOT NULL DEFAULT 0);"
	"INSERT INTO sweeps_v5 (id, kind, started, ended, result, nodes, links, discovery_smps,"
	" lid_smps, lft_smps, activate_smps, discovery_ms, lid_ms, routing_ms, lft_ms,"
	" activate_ms, store_ms, smps_sent, smps_lost, smps_retried)"
	" SELECT id, kind, started, ended, result, nodes, links, discovery_smps, lid_smps,"
	" lft_smps, activate_smps, discovery_ms, lid_ms, routing_ms, lft_ms, activate_ms,"
	" store_ms, smps_sent, smps_lost, smps_retried FROM sweeps;"
	"DROP TABLE sweeps;"
	"ALTER TABLE sweeps_v5 RENAME TO sweeps;",
	/* 5 -> 6: links the isolation policy keeps out of routing (sm_isolate.c) */
	"CREATE TABLE isolated_links ("		/* (guid, port) < (peer_guid, peer_port) */
	" guid INTEGER NOT NULL,"
	" port INTEGER NOT NULL,"
	" peer_guid INTEGER NOT NULL,"
	" peer_port INTEGER NOT NULL,"
	" since INTEGER NOT NULL,"		/* ms time it was isolated */
	" cause TEXT NOT NULL,"			/* errors, flaps, operator */
	" reason TEXT NOT NULL,"
	" PRIMARY KEY (guid, port)) WITHOUT ROWID;",
	/* 6 -> 7: partitions and multicast groups, as the daemon last had them */
	"CREATE TABLE partitions ("
	" pkey INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL,"
	" ipoib INTEGER NOT NULL,"
	" mtu TEXT,"				/* "4096", NULL: not given */
	" rate TEXT,"				/* "100G" */
	" sl INTEGER NOT NULL,"
	" ports INTEGER NOT NULL) WITHOUT ROWID;"
	"CREATE TABLE partition_members ("
	" pkey INTEGER NOT NULL,"
	" member TEXT NOT NULL,"
	" full INTEGER NOT NULL,"
	" UNIQUE (pkey, member));"
	"CREATE TABLE mcast_groups ("
	" mgid TEXT PRIMARY KEY,"
	" mlid INTEGER NOT NULL,"
	" pkey INTEGER NOT NULL,"
	" qkey INTEGER NOT NULL,"
	" mtu TEXT,"
	" rate TEXT,"
	" sl INTEGER NOT NULL,"
	" well_known INTEGER NOT NULL,"
	" tree_switches INTEGER NOT NULL) WITHOUT ROWID;"
	"CREATE TABLE mcast_members ("
	" mgid TEXT NOT NULL,"
	" guid INTEGER NOT NULL,"
	" join_state INTEGER NOT NULL,"
	" PRIMARY KEY (mgid, guid)) WITHOUT ROWID;",
	/* 7 -> 8: port counters (db_counters.c): each pass's deltas, bounded; the
	 * passes; the running totals since the store began */
	"CREATE TABLE port_counters ("
	" id INTEGER PRIMARY KEY,"		/* insertion order: pruned by range */
	" ts INTEGER NOT NULL,"
	" guid INTEGER NOT NULL,"
	" port INTEGER NOT NULL,"
	" interval_ms INTEGER NOT NULL,"
	" xmit_data INTEGER NOT NULL,"		/* 4-octet words, as the PMA counts */
	" rcv_data INTEGER NOT NULL,"
	" xmit_pkts INTEGER NOT NULL,"
	" rcv_pkts INTEGER NOT NULL,"
	" xmit_wait INTEGER NOT NULL,"
	" symbol_errors INTEGER NOT NULL,"
	" link_error_recovery INTEGER NOT NULL,"
	" link_downed INTEGER NOT NULL,"
	" rcv_errors INTEGER NOT NULL,"
	" xmit_discards INTEGER NOT NULL);"
	"CREATE INDEX port_counters_port ON port_counters (guid, port, ts);"
	"CREATE TABLE counter_passes ("
	" ts INTEGER PRIMARY KEY,"
	" first_id INTEGER NOT NULL,"		/* its first port_counters row */
	" ports INTEGER NOT NULL,"		/* ports sampled */
	" ms INTEGER NOT NULL);"		/* how long the pass took */
	"CREATE TABLE port_counter_totals ("
	" guid INTEGER NOT NULL,"
	" port INTEGER NOT NULL,"
	" xmit_data INTEGER NOT NULL,"
	" rcv_data INTEGER NOT NULL,"
	" xmit_pkts INTEGER NOT NULL,"
	" rcv_pkts INTEGER NOT NULL,"
	" xmit_wait INTEGER NOT NULL,"
	" symbol_errors INTEGER NOT NULL,"
	" link_error_recovery INTEGER NOT NULL,"
	" link_downed INTEGER NOT NULL,"
	" rcv_errors INTEGER NOT NULL,"
	" xmit_discards INTEGER NOT NULL,"
	" PRIMARY KEY (guid, port)) WITHOUT ROWID;",
	/* 8 -> 9: the AR table blocks (group table, AR LFT) a sweep or patch set */
	"ALTER TABLE sweeps ADD COLUMN ar_smps INTEGER NOT NULL DEFAULT 0;",
	/* 9 -> 10: the routing engine's path SLs (db_path_sl.c), per source: a
	 * switch's node GUID (by_switch) or a CA LID; run-length coded */
	"CREATE TABLE path_sls ("
	" source INTEGER PRIMARY KEY,"
	" by_switch INTEGER NOT NULL,"
	" sls BLOB NOT NULL);",
	/* 10 -> 11: the LFTs stored while they are being sent, not yet confirmed
	 * (a table of their own: an UPDATE of a flag beside the blob would
	 * rewrite all ~100 MB of them) */
	"CREATE TABLE lft_pending (switch_guid INTEGER PRIMARY KEY);",
	/* 11 -> 12: the AR tables last programmed into each switch (db_ar.c):
	 * groups 1..top, 32 bytes each; the group of each LID, run-length coded */
	"CREATE TABLE ar ("
	" switch_guid INTEGER PRIMARY KEY,"
	" top INTEGER NOT NULL,"
	" groups BLOB NOT NULL,"
	" lid_groups BLOB NOT NULL);",
	/* 12 -> 13: the SA's ServiceRecords and InformInfo subscriptions
	 * (db_sa.c), so that a restarted SM keeps them; expires_ms NULL: an
	 * infinite lease */
	"CREATE TABLE sa_services ("
	" service_id INTEGER NOT NULL,"
	" gid BLOB NOT NULL,"
	" pkey INTEGER NOT NULL,"
	" lease INTEGER NOT NULL,"
	" service_key BLOB NOT NULL,"
	" name BLOB NOT NULL,"
	" data BLOB NOT NULL,"
	" lid INTEGER NOT NULL,"
	" expires_ms INTEGER);"
	"CREATE TABLE sa_informs ("
	" lid INTEGER NOT NULL,"
	" qpn INTEGER NOT NULL,"
	" gid BLOB NOT NULL,"
	" lid_begin INTEGER NOT NULL,"
	" lid_end INTEGER NOT NULL,"
	" is_generic INTEGER NOT NULL,"
	" type INTEGER NOT NULL,"
	" trap_num INTEGER NOT NULL,"
	" producer_type INTEGER NOT NULL,"
	" resp_time INTEGER NOT NULL);",
	/* 13 -> 14: the rest of PortCounters' error counters and
	 * PortCountersExtended's unicast and multicast packets, in the history
	 * and the totals (0 for what was counted before) */
	"ALTER TABLE port_counters ADD COLUMN rcv_remote_phys_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counters ADD COLUMN rcv_switch_relay_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counters ADD COLUMN xmit_constraint_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counters ADD COLUMN rcv_constraint_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counters ADD COLUMN local_link_integrity_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counters ADD COLUMN excessive_buffer_overrun_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counters ADD COLUMN vl15_dropped INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counters ADD COLUMN unicast_xmit_pkts INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counters ADD COLUMN unicast_rcv_pkts INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counters ADD COLUMN multicast_xmit_pkts INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counters ADD COLUMN multicast_rcv_pkts INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counter_totals ADD COLUMN rcv_remote_phys_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counter_totals ADD COLUMN rcv_switch_relay_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counter_totals ADD COLUMN xmit_constraint_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counter_totals ADD COLUMN rcv_constraint_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counter_totals ADD COLUMN local_link_integrity_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counter_totals ADD COLUMN excessive_buffer_overrun_errors INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counter_totals ADD COLUMN vl15_dropped INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counter_totals ADD COLUMN unicast_xmit_pkts INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counter_totals ADD COLUMN unicast_rcv_pkts INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counter_totals ADD COLUMN multicast_xmit_pkts INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE port_counter_totals ADD COLUMN multicast_rcv_pkts INTEGER NOT NULL DEFAULT 0;",
	/* 14 -> 15: alias GUIDs hosts registered through the SA (GUIDInfoRecord
	 * Set, db_sa.c): entry idx of the port's GUIDInfo table */
	"CREATE TABLE sa_aliases ("
	" port_guid INTEGER NOT NULL,"
	" idx INTEGER NOT NULL,"
	" alias_guid INTEGER NOT NULL,"
	" PRIMARY KEY (port_guid, idx));",
	/* 15 -> 16: the running jobs the routes are shaped for (db_job.c): the
	 * hosts in rank order, one per line; seq is the start order */
	"CREATE TABLE jobs ("
	" name TEXT PRIMARY KEY,"
	" seq INTEGER NOT NULL,"
	" pattern TEXT NOT NULL,"
	" started INTEGER NOT NULL,"
	" hosts TEXT NOT NULL);",
	/* 16 -> 17: every parameter of a multicast group, so that a restarted
	 * SM serves the groups it had (db_part.c); codes NULL in rows stored
	 * before: their mtu and rate words stand */
	"ALTER TABLE mcast_groups ADD COLUMN mtu_code INTEGER;"
	"ALTER TABLE mcast_groups ADD COLUMN rate_code INTEGER;"
	"ALTER TABLE mcast_groups ADD COLUMN tclass INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE mcast_groups ADD COLUMN flow_label INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE mcast_groups ADD COLUMN hop_limit INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE mcast_groups ADD COLUMN scope INTEGER NOT NULL DEFAULT 2;"
	"ALTER TABLE mcast_groups ADD COLUMN lifetime INTEGER NOT NULL DEFAULT 0;",
	/* 17 -> 18: congestion control (db_cc.c): each node's (a CA's: each
	 * port's) state after the last CC pass, and the settings sent and
	 * refused since the store began */
	"CREATE TABLE cc_nodes ("
	" guid INTEGER NOT NULL,"
	" port INTEGER NOT NULL,"
	" lid INTEGER NOT NULL,"
	" type INTEGER NOT NULL,"
	" state TEXT NOT NULL,"
	" configured TEXT NOT NULL,"
	" sent INTEGER NOT NULL,"
	" refused INTEGER NOT NULL,"
	" last_error TEXT NOT NULL,"
	" checked INTEGER NOT NULL,"
	" PRIMARY KEY (guid, port));"
	"CREATE TABLE cc_totals ("
	" id INTEGER PRIMARY KEY CHECK (id = 1),"
	" sent INTEGER NOT NULL,"
	" refused INTEGER NOT NULL);",
};

_Static_assert(sizeof(db_migrations) / sizeof(db_migrations[0]) == DB_SCHEMA_VERSION,
	       "one migration step per schema version");

static int db_pragma_int(struct db *db, const char *pragma, int *val)
{
	char sql[64];
	sqlite3_stmt *st;

	snprintf(sql, sizeof(sql), "PRAGMA %s", pragma);
	int err = db_prepare(db, sql, &st);
	if (err)
		return err;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*val = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(db, rc, pragma);
}

static int db_count_tables(struct db *db, int *n)
{
	sqlite3_stmt *st;
	int err = db_prepare(db, "SELECT count(*) FROM sqlite_master", &st);

	if (err)
		return err;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(db, rc, "reading the schema");
}

/*
 * Read the version and refuse what we cannot use: another application's file,
 * or a schema newer than this build.
 */
static int db_schema_version(struct db *db, int *version)
{
	int app = 0, ntables = 0;
	int err = db_pragma_int(db, "user_version", version);

	if (!err)
		err = db_pragma_int(db, "application_id", &app);
	if (!err && *version == 0)
		err = db_count_tables(db, &ntables);
	if (err)
		return err;
	if ((*version && app != DB_APPLICATION_ID) || (!*version && ntables))
		return db_fail_msg(db, -EPROTO, "%s: not an ibsmd database", db->path);
	if (*version > DB_SCHEMA_VERSION)
		return db_fail_msg(db, -EPROTO,
				   "%s: database schema version %d is newer than this build "
				   "supports (%d): upgrade ibsmd", db->path, *version,
				   DB_SCHEMA_VERSION);
	return 0;
}

int db_schema_ours(struct db *db)
{
	int version;

	return db_schema_version(db, &version);
}

int db_schema_check(struct db *db)
{
	int version;
	int err = db_schema_version(db, &version);

	if (err)
		return err;
	if (version == 0)
		return db_fail_msg(db, -EPROTO, "%s: empty database: ibsmd has not written it yet",
				   db->path);
	if (version < DB_SCHEMA_VERSION)
		return db_fail_msg(db, -EPROTO,
				   "%s: database schema version %d is older than this build's (%d): "
				   "start ibsmd once to migrate it", db->path, version,
				   DB_SCHEMA_VERSION);
	return 0;
}

static int db_migrate_step(struct db *db, int to)
{
	char sql[96];
	int err = db_exec(db, "BEGIN IMMEDIATE");

	if (err)
		return err;
	int rc = sqlite3_exec(db->sql, db_migrations[to - 1], NULL, NULL, NULL);
	snprintf(sql, sizeof(sql), "migrating the schema to version %d", to);
	err = rc == SQLITE_OK ? 0 : db_fail(db, rc, sql);
	snprintf(sql, sizeof(sql), "PRAGMA application_id=%d; PRAGMA user_version=%d",
		 DB_APPLICATION_ID, to);
	if (!err)
		err = db_exec(db, sql);
	if (!err)
		err = db_exec(db, "COMMIT");
	if (err)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

int db_schema_migrate(struct db *db)
{
	int version;
	int err = db_schema_version(db, &version);

	while (!err && version < DB_SCHEMA_VERSION)
		err = db_migrate_step(db, ++version);
	return err;
}

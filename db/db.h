/* SPDX-License-Identifier: MIT */
/*
 * db.h - the SQLite store of ibsmd: topology, sweeps, events, LIDs, LFTs, status.
 *
 * One writer (the daemon, DB_WRITER) and any number of readers (smquery,
 * DB_READONLY) share one file in WAL mode.  The writer holds an exclusive lock
 * for as long as it keeps the store open; a second writer is refused.
 *
 * A sweep is one transaction:
 *
 *	db_sweep_begin(db, "heavy", &id);	BEGIN, a row in sweeps
 *	(or db_sweep_begin_at(db, "heavy", t0, &id): the sweep began at t0)
 *	db_store_topology(db, id, &topo);	replace the topology, diff -> events
 *	db_event_add(db, id, DB_EV_TRAP, ...);	more events, any number
 *	db_sweep_end(db, id, &stats);		counts, timings, result; COMMIT
 *
 * or db_sweep_abort(db, id, "why") to roll all of it back.  A crash at any
 * instant leaves the state of the last committed sweep.  When any call inside a
 * sweep fails (disk full, I/O error), the library rolls the sweep back itself
 * and the sweep is over: later calls with its id return -ESRCH.
 *
 * Times are milliseconds since the Unix epoch (UTC) throughout.  GUIDs are
 * uint64_t here and stored as their two's-complement int64 bit pattern.
 * Every function returns 0 (or a count where it says so) or -errno, and leaves
 * a one-line reason in db_errmsg().  All SQL of the project lives in db/.
 */
#ifndef IBSMD_DB_DB_H
#define IBSMD_DB_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mad/model/topo.h"

/* The schema version this build creates and reads (PRAGMA user_version). */
#define DB_SCHEMA_VERSION 18

/* db_open() flags */
#define DB_READONLY 0x0	/* readers: never creates or migrates */
#define DB_WRITER 0x1	/* the daemon: creates, migrates, WAL, exclusive */

/* Event kinds (events.kind).  The first six are written by db_store_topology. */
#define DB_EV_NODE_ADDED "node_added"
#define DB_EV_NODE_REMOVED "node_removed"
#define DB_EV_NODE_CHANGED "node_changed"
#define DB_EV_LINK_ADDED "link_added"
#define DB_EV_LINK_REMOVED "link_removed"
#define DB_EV_PORT_CHANGED "port_changed"
#define DB_EV_UNRESPONSIVE "unresponsive"
#define DB_EV_TRAP "trap"
#define DB_EV_ERROR "error"
#define DB_EV_DUPLICATE_GUID "duplicate_guid"
#define DB_EV_LINK_DEGRADED "link_degraded"	/* by db_store_topology too */
#define DB_EV_SM_STATE "sm_state"	/* the SM changed state (sm_state.c) */
/* The election (sm_ha.c) found another SM in MASTER state beside this one. */
#define DB_EV_OTHER_MASTER "other_master"
/* A cold first sweep (nothing stored yet): one event with the fabric's counts
 * instead of a node_added and a link_added per node and link. */
#define DB_EV_DISCOVERED "discovered"
/* The isolation policy (sm_isolate.c) took a link out of routing, or gave it
 * back; the rebalancer (sm_rebalance.c) moved a destination's LFT entry. */
#define DB_EV_LINK_ISOLATED "link_isolated"
#define DB_EV_LINK_RESTORED "link_restored"
#define DB_EV_ROUTE_MOVED "route_moved"

/* Well-known status keys (the daemon sets them; any other key is allowed). */
#define DB_ST_SM_STATE "sm_state"	/* "MASTER", "STANDBY", ... */
#define DB_ST_SM_GUID "sm_guid"		/* the SM's port GUID, "0x..." */
#define DB_ST_SM_LID "sm_lid"
#define DB_ST_LAST_SWEEP "last_sweep"	/* set by db_sweep_end(): sweep id */
#define DB_ST_SUBNET_UP "subnet_up"	/* ms time the subnet came up */
/* SMs in MASTER state the last election saw, this one included: "1" when
 * all is well, more when two masters met (sm_ha.c) */
#define DB_ST_MASTERS_SEEN "masters_seen"
/* The last other MASTER the election met, and what this SM did ("none" once
 * an election finds this SM the only master) */
#define DB_ST_OTHER_MASTER "other_master"

struct db;

/*
 * Open the store at @path.  DB_WRITER creates the file if needed, takes the
 * writer lock (-EBUSY: "already open for writing by another process"), turns
 * on WAL and migrates the schema to DB_SCHEMA_VERSION.  DB_READONLY opens an
 * existing store and never writes (-ENOENT when the file is missing).  Both
 * refuse a schema newer than this build (-EPROTO, the message names both
 * versions) and a file that is not an ibsmd store.  On success *out owns the
 * connection (db_close()); on error *out is NULL and @err holds the reason.
 */
int db_open(const char *path, int flags, struct db **out, char *err, size_t errlen);

/* Close @db (NULL is fine).  An open sweep is rolled back. */
void db_close(struct db *db);

/*
 * Run @fill(@db, @arg), writing with the calls below, in the open sweep, or
 * else in one transaction of its own (committed when @fill returns 0, rolled
 * back otherwise).  @fill's result.
 */
int db_batch(struct db *db, int (*fill)(struct db *db, void *arg), void *arg);

/* The reason for the last failure on @db ("" when none). */
const char *db_errmsg(const struct db *db);

/* Operations on this connection that SQLite failed (a full disk, I/O errors,
 * a damaged file...) since it was opened.  Any thread may read it. */
uint64_t db_failures(const struct db *db);

/* The clock the store stamps rows with: now, or the time set by db_freeze_clock. */
int64_t db_now_ms(const struct db *db);

/* Stamp every later row with @now_ms instead of the real time (tests, replays). */
void db_freeze_clock(struct db *db, int64_t now_ms);

/*
 * How much history the store keeps (the daemon's `retention:`).  The oldest
 * events, heavy sweeps and light-sweep intervals beyond these counts are
 * deleted when a sweep ends (and when a new light-sweep interval begins); the
 * lifetime totals the metrics show survive the pruning.  0 keeps everything.
 */
#define DB_KEEP_EVENTS_DEFAULT 100000
#define DB_KEEP_SWEEPS_DEFAULT 10000
void db_set_retention(struct db *db, uint32_t events, uint32_t sweeps);

/* ---- sweeps (writer) ---- */

/* SMPs of a sweep, from the rpc layer's counters (struct mad_rpc_stats deltas). */
struct db_smp_counts {
	uint64_t sent;		/* put on the wire, retries included */
	uint64_t lost;		/* given up after the last retry */
	uint64_t retried;	/* re-sends after a timeout */
};

/* Per-sweep figures for db_sweep_end(); what a phase did not do stays 0. */
struct db_sweep_stats {
	const char *result;	/* "ok", "subnet up", or why not; NULL: "ok" */
	uint64_t discovery_smps;
	uint64_t lid_smps;
	uint64_t lft_smps;
	uint64_t activate_smps;
	uint32_t discovery_ms;
	uint32_t lid_ms;
	uint32_t routing_ms;
	uint32_t lft_ms;
	uint32_t activate_ms;
	uint32_t store_ms;	/* until db_sweep_end; the commit itself is not in it */
	struct db_smp_counts smps;	/* the whole sweep */
	uint64_t lft_entries;	/* a patch: the LFT entries it changed */
	uint64_t ar_smps;	/* AR group table and AR LFT block Sets (in lft_smps too) */
};

/*
 * Begin a sweep of @kind ("heavy", "light", or "patch": a dead link's LFT
 * entries rewritten, sm_patch.h): open the transaction and give
 * the new sweep's id in *@sweep_id.  -EBUSY if a sweep is already open,
 * -EINVAL for another kind, -EROFS on a read-only store.  The sweep's start
 * time is now; db_sweep_begin_at() records @started_ms instead (the sweep
 * began before its results were ready to store; 0 means now).
 */
int db_sweep_begin(struct db *db, const char *kind, int64_t *sweep_id);
int db_sweep_begin_at(struct db *db, const char *kind, int64_t started_ms, int64_t *sweep_id);

/*
 * Replace the stored topology with the snapshot @t, inside sweep @sweep_id,
 * and write the difference to what was stored before as events:
 * node_added / node_removed, node_changed (type, port count, description),
 * link_added / link_removed, port_changed (state, physical state, width,
 * speed, LID, LMC), link_degraded when a port's link trains below what both
 * ends support (topo_port.degraded, newly or differently: each end's port
 * says so; a cold store counts them in its discovered event instead), and
 * unresponsive when a node that did not answer
 * (responded == false) is new or answered last time.  Nodes with GUID 0 are not
 * stored (they cannot be named); each gets an unresponsive event with its
 * directed route.  Links are stored once, end a being the lower (GUID, port).
 * Returns the number of events written, or -errno (sweep rolled back).
 */
int db_store_topology(struct db *db, int64_t sweep_id, const struct topo *t);

/*
 * Record an event of @kind about node @guid (0: none) port @port (-1: none),
 * with a printf-style detail.  @sweep_id is the open sweep, or 0 outside any
 * sweep (the event commits at once).  Returns 0 or -errno.
 */
int db_event_add(struct db *db, int64_t sweep_id, const char *kind, uint64_t guid,
		 int port, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/*
 * Record an event that happened at @time_ms (> 0; ms since the epoch), outside
 * any sweep, with the detail @detail (NULL: none): for one written later than
 * it happened (sm_store_queue.h).  0 or -errno.
 */
int db_event_add_at(struct db *db, int64_t time_ms, const char *kind, uint64_t guid, int port,
		    const char *detail);

/*
 * Finish sweep @sweep_id: record @st (may be NULL), the end time and the node
 * and link counts, add it to the lifetime totals, set status last_sweep, prune
 * what the retention setting no longer keeps, and commit.  Returns 0 or -errno
 * (-ENOSPC when the disk is full); on error the sweep is rolled back whole.
 */
int db_sweep_end(struct db *db, int64_t sweep_id, const struct db_sweep_stats *st);

/*
 * Roll sweep @sweep_id back, then record, in a transaction of its own, a
 * sweep row with result "aborted: @reason" (its start time, and the figures of
 * @st when not NULL) and an error event, so that the history shows the
 * failure.  Returns 0, or -errno if that record could not be written (the
 * rollback itself always happens).
 */
int db_sweep_abort(struct db *db, int64_t sweep_id, const char *reason);
int db_sweep_abort_stats(struct db *db, int64_t sweep_id, const char *reason,
			 const struct db_sweep_stats *st);

/*
 * Light sweeps are kept as aggregates: one row per DB_LIGHT_INTERVAL_MS of
 * wall-clock time (the interval holding the store's clock now), updated in
 * place after each light sweep: how many, how many found a change or failed,
 * the changes, the SMPs and the time they took.  Commits at once; -EBUSY
 * while a sweep is open, -EROFS on a read-only store.  0 or -errno.
 */
#define DB_LIGHT_INTERVAL_MS 60000
struct db_light_sweep {
	uint32_t ms;		/* how long it took */
	uint32_t changes;	/* changes found (0: a quiet fabric) */
	bool failed;		/* the transport failed */
	struct db_smp_counts smps;
};
int db_light_sweep_record(struct db *db, const struct db_light_sweep *ls);

/* ---- topology (readers and writer) ---- */

/*
 * Rebuild the stored topology into @out (initialised here; the caller frees it
 * with topo_free): nodes in the order of the snapshot that stored them, every
 * field of struct topo_node / topo_port, links both ways.  Reads one
 * consistent snapshot even while the writer commits.
 */
int db_load_topology(struct db *db, struct topo *out);

/* When node @guid was first and last seen by a stored sweep (-ENOENT: unknown). */
int db_node_seen(struct db *db, uint64_t guid, int64_t *first_ms, int64_t *last_ms);

/* ---- status key/value ---- */

/* Set @key to @value (inside the open sweep if any, else at once). */
int db_status_set(struct db *db, const char *key, const char *value);

/* Copy @key's value into @buf (truncated to @len); -ENOENT when not set. */
int db_status_get(struct db *db, const char *key, char *buf, size_t len);

/* Call @fn for every status key in key order; a non-zero return stops and is returned. */
int db_status_each(struct db *db, int (*fn)(void *arg, const char *key, const char *value),
		   void *arg);

/* ---- the persistent GUID -> LID map and the programmed LFTs (issue 4) ---- */

/*
 * Call @fn for every stored (port GUID, base LID, LMC), in LID order; a
 * non-zero return stops the walk and is returned.
 */
int db_lids_load(struct db *db,
		 int (*fn)(void *arg, uint64_t guid, uint16_t lid, uint8_t lmc), void *arg);

/* Store (or replace) the LID of port @guid. */
int db_lids_save(struct db *db, uint64_t guid, uint16_t lid, uint8_t lmc);

/* ---- M_Keys set on the ports (issue 13) ---- */

/* Call @fn for every stored (port GUID, M_Key); a non-zero return stops the
 * walk and is returned. */
int db_mkeys_load(struct db *db, int (*fn)(void *arg, uint64_t guid, uint64_t mkey),
		  void *arg);
/* Store (or replace) the M_Key of port @guid; the store is first made
 * unreadable to others (db_mkey.c), and a writer opening a store with keys
 * does the same. */
int db_mkey_save(struct db *db, uint64_t guid, uint64_t mkey);

/* ---- partitions and multicast groups (issue 10) ---- */

struct db_partition {
	uint16_t pkey;		/* 15 bits */
	const char *name;
	bool ipoib;
	const char *mtu, *rate;	/* words ("4096", "100G"); NULL: not given */
	uint8_t sl;
	uint32_t ports;		/* ports that are members, in the last sweep */
};

struct db_partition_member {
	uint16_t pkey;
	const char *member;	/* as the file names it: "all", "0x...", a node name */
	bool full;
};

struct db_mcast_group {
	const char *mgid;	/* text */
	uint16_t mlid, pkey;
	uint32_t qkey;
	const char *mtu, *rate;	/* words; NULL: not an IBA value */
	uint8_t mtu_code, rate_code;	/* IBA codes; 0 read back: stored before
					 * they were (the words stand) */
	uint8_t tclass, hop_limit, scope, lifetime;
	uint32_t flow_label;
	uint8_t sl;
	bool well_known;	/* an IPoIB broadcast group */
	uint32_t tree_switches;	/* switches forwarding its MLID */
	uint32_t members;	/* read only: counted by db_mcast_each() */
};

struct db_mcast_member {
	const char *mgid;
	uint64_t guid;		/* port GUID */
	uint8_t join_state;	/* IBA JoinState bits */
};

/* Replace the stored partitions (and their member entries), or groups (and
 * their members), whole: in the open sweep, else in a transaction of their
 * own.  0 or -errno. */
int db_partitions_save(struct db *db, const struct db_partition *p, size_t n,
		       const struct db_partition_member *m, size_t nm);
int db_mcast_save(struct db *db, const struct db_mcast_group *g, size_t n,
		  const struct db_mcast_member *m, size_t nm);
/* Call @fn for each, the default partition first, then by P_Key; groups by
 * MLID; members in the file's order, or by GUID.  A non-zero return stops
 * the walk and is returned. */
int db_partitions_each(struct db *db, int (*fn)(void *arg, const struct db_partition *p),
		       void *arg);
int db_partition_members_each(struct db *db, uint16_t pkey,
			      int (*fn)(void *arg, const struct db_partition_member *m), void *arg);
int db_mcast_each(struct db *db, int (*fn)(void *arg, const struct db_mcast_group *g),
		  void *arg);
int db_mcast_members_each(struct db *db, const char *mgid,
			  int (*fn)(void *arg, const struct db_mcast_member *m), void *arg);

/*
 * The LFT last programmed into each switch is kept whole, one row per switch.
 * db_lft_save_table() stores @nblocks blocks of 64 entries (the sweep writes the
 * table of every switch it changed); db_lft_save() patches one block (the rest
 * of the table stays, gaps are 0xff).  A table saved @pending is one being
 * sent (the heavy sweep stores the tables while it programs them): not known
 * to be in the switch until db_lft_confirm(); if the sweep never gets there,
 * the next one reads that switch's table back.
 */
int db_lft_save_table(struct db *db, uint64_t switch_guid, const uint8_t *lft, size_t nblocks,
		      bool pending);
int db_lft_save(struct db *db, uint64_t switch_guid, uint16_t block, const uint8_t lft[64]);
int db_lft_confirm(struct db *db, uint64_t switch_guid);
/* Mark the stored table of @switch_guid pending (blocks of it about to go out). */
int db_lft_mark_pending(struct db *db, uint64_t switch_guid);
/* Drop the record of @switch_guid's LFT (what it holds is no longer known). */
int db_lft_forget(struct db *db, uint64_t switch_guid);

/*
 * The adaptive routing tables last programmed into each switch (db_ar.c):
 * groups 1..@top (@groups[g - 1]: the ports of group g, bit p % 64 of word
 * p / 64) and the group of each LID 0..@nlid - 1 (0: static).  db_ar_save()
 * replaces the switch's row (-EINVAL past DB_AR_MAX_GROUP or DB_AR_MAX_LIDS);
 * db_ar_load() fills @t (arrays allocated, freed with db_ar_table_free(); on
 * no record they are NULL): 1 found, 0 none, -EBADMSG for a damaged row,
 * -errno; db_ar_forget() drops the row (what the switch holds is unknown).
 */
#define DB_AR_MAX_GROUP 0xfff	/* 12-bit group numbers */
#define DB_AR_MAX_LIDS 0xc000	/* the unicast LID space */
struct db_ar_table {
	uint16_t top;
	uint64_t (*groups)[4];
	uint32_t nlid;
	uint16_t *lid_group;
};
int db_ar_save(struct db *db, uint64_t switch_guid, const struct db_ar_table *t);
int db_ar_load(struct db *db, uint64_t switch_guid, struct db_ar_table *t);
int db_ar_forget(struct db *db, uint64_t switch_guid);
void db_ar_table_free(struct db_ar_table *t);

/*
 * The routing engine's path SLs (db_path_sl.c): per source, a switch's node
 * GUID (@by_switch: the SL of every CA behind it) or a CA LID, the SL toward
 * each DLID 0..@n-1.  Saving a source whose SLs are all 0 drops its row.
 * db_path_sls_each() calls @fn for every stored source, its SLs decoded into
 * @n bytes (DLIDs past what was stored: SL 0; stored past @n: left out); a
 * non-zero return stops it and is returned.
 */
int db_path_sls_save(struct db *db, uint64_t source, bool by_switch, const uint8_t *sls,
		     size_t n);
int db_path_sls_clear(struct db *db);	/* every row */
typedef int (*db_path_sls_fn)(void *arg, uint64_t source, bool by_switch, const uint8_t *sls,
			      size_t n);
int db_path_sls_each(struct db *db, size_t n, db_path_sls_fn fn, void *arg);

/*
 * Fill @lft (@nblocks * 64 bytes) from the table stored for @switch_guid;
 * entries beyond it are 0xff (no port).  Returns how many of the @nblocks the
 * stored table covers (0 for an unknown switch) or -errno.  *@pending (when
 * not NULL) says whether the table is still pending (see db_lft_save_table).
 */
int db_lft_load(struct db *db, uint64_t switch_guid, uint8_t *lft, size_t nblocks,
		bool *pending);

/* ---- links kept out of routing (issue 12; db_isolate.c) ---- */

/* One isolated link, stored by its end with the lower (GUID, port). */
struct db_isolated {
	uint64_t guid;
	uint8_t port;
	uint64_t peer_guid;
	uint8_t peer_port;
	int64_t since_ms;	/* when it was isolated */
	const char *cause;	/* "errors", "flaps" */
	const char *reason;	/* what crossed which threshold */
};

/* Store (or replace) @l; the ends are put in order here.  0 or -errno. */
int db_isolated_save(struct db *db, const struct db_isolated *l);
/* Forget the isolated link one end of which is (@guid, @port): 1 when there
 * was one, 0 when not, or -errno. */
int db_isolated_delete(struct db *db, uint64_t guid, uint8_t port);
/* Call @fn for every isolated link, oldest first (strings valid during the
 * call); a non-zero return stops the walk and is returned. */
int db_isolated_each(struct db *db, int (*fn)(void *arg, const struct db_isolated *l),
		     void *arg);

/* ---- the running jobs routes are shaped for (issue 25; db_job.c) ---- */

struct db_job {
	const char *name;
	const char *pattern;	/* "ring", "halving-doubling", "alltoall" */
	int64_t started_ms;
	const char *hosts;	/* host names in rank order, one per line */
};

/* Store @j after the jobs already stored: 0, -EEXIST (a job of that name is
 * stored), -errno. */
int db_job_save(struct db *db, const struct db_job *j);
/* Forget job @name: 1 when there was one, 0 when not, or -errno. */
int db_job_delete(struct db *db, const char *name);
/* Call @fn for every stored job in start order (strings valid during the
 * call); a non-zero return stops the walk and is returned. */
int db_job_each(struct db *db, int (*fn)(void *arg, const struct db_job *j), void *arg);

/* ---- history (readers) ---- */

struct db_event {
	int64_t id;
	int64_t sweep_id;	/* 0: outside any sweep */
	int64_t time_ms;
	const char *kind;
	uint64_t guid;		/* 0: none */
	int port;		/* -1: none */
	const char *detail;
};

/* Call @fn for each event with id > @since_id, oldest first (strings valid during the call). */
int db_events_each(struct db *db, int64_t since_id,
		   int (*fn)(void *arg, const struct db_event *ev), void *arg);

struct db_sweep {
	int64_t id;
	const char *kind;
	int64_t started_ms;
	int64_t ended_ms;
	uint32_t nodes;
	uint32_t links;
	struct db_sweep_stats st;	/* st.result: the recorded result */
};

/* Call @fn for each recorded sweep, oldest first (strings valid during the call). */
int db_sweeps_each(struct db *db, int (*fn)(void *arg, const struct db_sweep *sw), void *arg);

/* One interval of light sweeps (see db_light_sweep_record). */
struct db_light_interval {
	int64_t started_ms;	/* the interval's start (a multiple of its length) */
	int64_t last_ms;	/* when its last light sweep ended */
	uint32_t sweeps;
	uint32_t changed;	/* sweeps that found a change */
	uint32_t failed;
	uint64_t changes;
	uint64_t ms;		/* their total time */
	uint32_t max_ms;
	struct db_smp_counts smps;
};

/* Call @fn for each stored light-sweep interval, oldest first. */
int db_light_each(struct db *db, int (*fn)(void *arg, const struct db_light_interval *li),
		  void *arg);

/* ---- what the fabric lost (db_lost.c): the history the snapshot leaves out ---- */

/* A link that went down and is not back: its lower (GUID, port) end, as its
 * link_removed event names it, and the far end read back from that event
 * (peer_guid 0, peer_desc "" when the text names none). */
struct db_link_down {
	uint64_t guid;
	unsigned port;
	uint64_t peer_guid;
	unsigned peer_port;
	const char *desc;	/* the near node's description now (as the event
				 * wrote it when the node is gone) */
	const char *peer_desc;	/* the far node's, as the event wrote it */
	int64_t since_ms;	/* when a sweep found it gone */
};

/* Call @fn for every link whose newest link event kept is its removal and
 * neither end of which is cabled now, by (GUID, port); a non-zero return
 * stops the walk and is returned.  0 or -errno. */
int db_links_down_each(struct db *db, int (*fn)(void *arg, const struct db_link_down *l),
		       void *arg);

/* A port behind which no node answered NodeInfo in the last heavy sweep
 * (that sweep's unresponsive events). */
struct db_unanswered {
	uint64_t guid;
	unsigned port;
	int64_t time_ms;
	const char *detail;	/* what was asked on which directed route */
};

/* Call @fn for each, in the order found; as db_links_down_each(). */
int db_unanswered_each(struct db *db, int (*fn)(void *arg, const struct db_unanswered *u),
		       void *arg);

/* ---- port counters (db_counters.c) ---- */

/*
 * The port counters the store keeps, one column each, in this order: every
 * counter of PortCounters (IBA 16.1.3.5) and PortCountersExtended
 * (16.1.4.11).  Data and packets are PortCountersExtended's where the PMA
 * has it, else PortCounters' 32-bit ones; unicast and multicast packets
 * exist only there (0 without it).  Data counts 4-octet words, as the PMA
 * does; xmit_wait is time in SM_PERF_WAIT_UNIT_PS units (sm_perf.c).
 */
#define DB_PORT_COUNTERS(X) \
	X(xmit_data) X(rcv_data) X(xmit_pkts) X(rcv_pkts) X(xmit_wait) \
	X(symbol_errors) X(link_error_recovery) X(link_downed) X(rcv_errors) \
	X(xmit_discards) X(rcv_remote_phys_errors) X(rcv_switch_relay_errors) \
	X(xmit_constraint_errors) X(rcv_constraint_errors) \
	X(local_link_integrity_errors) X(excessive_buffer_overrun_errors) \
	X(vl15_dropped) X(unicast_xmit_pkts) X(unicast_rcv_pkts) \
	X(multicast_xmit_pkts) X(multicast_rcv_pkts)
#define DB_COUNTER_INDEX(name) DB_COUNTER_##name,
enum db_counter { DB_PORT_COUNTERS(DB_COUNTER_INDEX) DB_NCOUNTERS };
#undef DB_COUNTER_INDEX

/* What a port counted (a delta over one interval, or a total), by name or
 * as v[] by enum db_counter. */
struct db_port_counts {
	union {
		struct {
#define DB_COUNTER_MEMBER(name) uint64_t name;
			DB_PORT_COUNTERS(DB_COUNTER_MEMBER)
#undef DB_COUNTER_MEMBER
		};
		uint64_t v[DB_NCOUNTERS];
	};
};

/* The column (and member) names, by enum db_counter. */
extern const char *const db_port_counter_names[DB_NCOUNTERS];

struct db_port_sample {
	uint64_t guid;		/* the node's */
	uint8_t port;
	uint32_t interval_ms;	/* since the port's previous sample */
	struct db_port_counts delta;
};

/* What one stored history row takes on disk, table and index: 92.7 bytes as
 * measured on the 27,648-host fabric (contrib/bench/perf.sh), rounded up;
 * perfmgr.history_mb counts rows at this size. */
#define DB_COUNTERS_ROW_BYTES 93

/*
 * Record one sampling pass of @n ports that took @ms, at the store's clock
 * (with @more: the rest of the newest pass, cut short before: its rows join
 * that pass, stamped with its time):
 * a history row for each port whose deltas are not all zero, every delta
 * added to the port's running total (made at its first sample, interval 0),
 * then the history pruned to the passes
 * of the last @keep_ms and at most @max_rows rows (0: no bound).  One
 * transaction.  0 or -errno.
 */
int db_counters_record(struct db *db, const struct db_port_sample *s, size_t n,
		       uint32_t ms, bool more, int64_t keep_ms, uint64_t max_rows);

struct db_port_row {
	uint64_t guid;
	uint8_t port;
	int64_t ts_ms;		/* when its pass was stored */
	uint32_t interval_ms;	/* 0 for a total */
	struct db_port_counts c;
};

/* Each port's deltas in the newest pass (ports that counted nothing have no
 * row), then stop at @fn's non-zero return (returned). */
int db_counters_latest_each(struct db *db, int (*fn)(void *arg, const struct db_port_row *r),
			    void *arg);
/* One port's history, oldest first. */
int db_counters_history_each(struct db *db, uint64_t guid, uint8_t port,
			     int (*fn)(void *arg, const struct db_port_row *r), void *arg);
/* Every port's running totals, by GUID and port. */
int db_counters_totals_each(struct db *db, int (*fn)(void *arg, const struct db_port_row *r),
			    void *arg);

/* ---- the SA's registrations, kept across a restart (db_sa.c) ---- */

#define DB_SA_NEVER INT64_MAX	/* expires_ms of a lease that never ends */

/* A ServiceRecord as registered (IBA 15.2.5.14), its lease's end on
 * db_now_ms()'s clock (DB_SA_NEVER for an infinite lease), and the LID of
 * the port that registered it (0: the SM itself). */
struct db_sa_service {
	uint64_t id;
	uint8_t gid[16];
	uint16_t pkey;
	uint32_t lease;		/* seconds, as registered; 0xffffffff: infinite */
	uint8_t key[16];
	uint8_t name[64];
	uint8_t data8[16];
	uint16_t data16[8];
	uint32_t data32[4];
	uint64_t data64[2];
	uint16_t lid;
	int64_t expires_ms;
};

/* An InformInfo subscription (IBA 13.4.8.3): Reports go to @lid, @qpn. */
struct db_sa_inform {
	uint16_t lid;
	uint32_t qpn;		/* 24 bits */
	uint8_t gid[16];
	uint16_t lid_begin, lid_end;
	bool is_generic;
	uint16_t type, trap_num;
	uint32_t producer_type;	/* 24 bits */
	uint8_t resp_time;	/* 5 bits */
};

/* Replace both tables whole with @s and @i, in one transaction (in the open
 * sweep, if any).  0 or -errno. */
int db_sa_save(struct db *db, const struct db_sa_service *s, size_t ns,
	       const struct db_sa_inform *i, size_t ni);
/* Call @fn for each stored row, in the order saved; @fn returns 0 to go on,
 * or -errno (stops, returned).  A row with a value its field cannot hold is
 * skipped and counted in *@damaged.  0 or -errno. */
int db_sa_services_each(struct db *db, int (*fn)(void *arg, const struct db_sa_service *s),
			void *arg, unsigned *damaged);
int db_sa_informs_each(struct db *db, int (*fn)(void *arg, const struct db_sa_inform *ii),
		       void *arg, unsigned *damaged);

/* An alias GUID a host registered (GUIDInfoRecord Set, IBA 15.2.5.18): entry
 * @index (1 .. GUIDCap - 1) of the GUIDInfo table of the port @port_guid. */
struct db_sa_alias {
	uint64_t port_guid;
	uint16_t index;
	uint64_t alias;
};
/* Replace the table of alias GUIDs whole with @a, in one transaction.
 * 0 or -errno. */
int db_sa_aliases_save(struct db *db, const struct db_sa_alias *a, size_t n);
/* As db_sa_services_each(): a row with a GUID of 0 or an index outside
 * 1..32767 is damaged. */
int db_sa_aliases_each(struct db *db, int (*fn)(void *arg, const struct db_sa_alias *a),
		       void *arg, unsigned *damaged);

/* ---- metrics (readers and writer; db_metrics*.c) ---- */

/* The names port series take (metrics.names). */
enum db_metrics_names {
	/* treydock/infiniband_exporter's: infiniband_switch_port_* and
	 * infiniband_hca_port_*{guid, port}, the port's GUID as ibnetdiscover
	 * --ports prints it; infiniband_{switch,hca}_uplink_info for the
	 * remote end */
	DB_METRICS_NAMES_TREYDOCK,
	/* ibsmd's first: infiniband_port_*{guid, port, name, remote_guid,
	 * remote_port, remote_name}, the node's GUID, both ends on every series */
	DB_METRICS_NAMES_IBSMD,
};

/* Which ports have series (metrics.ports, bits in db_metrics_ports_words'
 * order).  A switch port with no link now (its counters from before) is
 * shown when either switch bit is set. */
#define DB_METRICS_SWITCH_SWITCH 1u	/* switch ports linked to a switch */
#define DB_METRICS_SWITCH_CA 2u		/* switch ports linked to a CA or router */
#define DB_METRICS_CA 4u		/* CA and router ports: the HCA side */

/* Which groups of series a port has (metrics.counters, bits in
 * db_metrics_groups_words' order). */
#define DB_METRICS_DATA 1u	/* data and packets, each way */
#define DB_METRICS_CASTS 2u	/* unicast and multicast packets, each way */
#define DB_METRICS_WAIT 4u	/* PortXmitWait, as time */
#define DB_METRICS_ERRORS 8u	/* the twelve error counters */
#define DB_METRICS_INFO 16u	/* rate, width, speed, state, the remote end */

/* The words of the options above, NULL-terminated: names by enum value,
 * ports and groups by bit (word i is bit 1 << i). */
extern const char *const db_metrics_names_words[];
extern const char *const db_metrics_ports_words[];
extern const char *const db_metrics_groups_words[];

/* The index of @word in @words, or -1. */
int db_metrics_word(const char *const *words, const char *word);
/* The bits of a comma-separated list of @words ("switch-switch,ca") into
 * @mask.  0, or -EINVAL for an empty list, an empty entry or a word not in
 * @words (@mask unchanged). */
int db_metrics_mask(const char *const *words, const char *list, unsigned *mask);

/* A figure the store does not hold (the daemon's own), printed as given:
 * samples of one family follow each other; @label NULL: none. */
struct db_metrics_extra {
	const char *name;
	const char *type;	/* "counter" or "gauge" */
	const char *help;
	const char *label, *label_value;
	double value;
};

struct db_metrics_opts {
	enum db_metrics_names names;
	unsigned ports;		/* DB_METRICS_SWITCH_SWITCH... */
	unsigned groups;	/* DB_METRICS_DATA... */
	/* series per output at most (0: no bound): the SM's own come first,
	 * then the link problems, then the port families by group (errors,
	 * wait, info, data, casts), each whole or left out */
	uint64_t max_series;
	const struct db_metrics_extra *extra;
	size_t nextra;
	/* when it becomes true, the output stops (-ECANCELED); NULL: never */
	const volatile bool *cancel;
};

/* What the defaults are: the treydock names on the switch ports (its
 * exporter's default), every group but casts. */
#define DB_METRICS_OPTS_DEFAULT { .names = DB_METRICS_NAMES_TREYDOCK, \
	.ports = DB_METRICS_SWITCH_SWITCH | DB_METRICS_SWITCH_CA, \
	.groups = DB_METRICS_DATA | DB_METRICS_WAIT | DB_METRICS_ERRORS | DB_METRICS_INFO }

/* What an output held: its series, and those the budget left out. */
struct db_metrics_count {
	uint64_t series;
	uint64_t omitted;
};

/*
 * Print the store's figures to @out in the Prometheus text exposition format
 * (version 0.0.4), shaped by @o (NULL: DB_METRICS_OPTS_DEFAULT): sweeps by
 * kind and result with their durations, SMPs sent, lost and retried, nodes,
 * links and LIDs in use, events by kind, the stages and age of the last
 * sweeps (as of @now_ms), the SM state, the store's size, links down,
 * isolated or degraded, @o's extra figures, then the port series.  @count
 * (may be NULL) gets what was written.  0 or -errno.
 */
int db_metrics_print(struct db *db, FILE *out, int64_t now_ms, const struct db_metrics_opts *o,
		     struct db_metrics_count *count);

/*
 * The same, written atomically to @path for node_exporter's textfile
 * collector: into a temporary file in @path's directory, then renamed over
 * @path.  0 or -errno (the reason in db_errmsg); @path is never half written.
 * -EINVAL, and nothing written, when @path exists but is not a regular file,
 * or is the store itself (or its -wal or -shm file).
 */
int db_metrics_write_file(struct db *db, const char *path, int64_t now_ms,
			  const struct db_metrics_opts *o, struct db_metrics_count *count);

/*
 * Congestion control (db_cc.c): each node's state after the last CC pass
 * (a CA port's, a switch's at port 0).  @state is "configured" (every
 * setting read back as wanted), "no-agent" (CongestionInfo unanswered),
 * "key-refused" (its CC_Key is not ours: nothing answered after
 * CongestionInfo) or "error" (a status, a Set not taken); @configured names
 * the attributes that hold what is wanted ("key,switch", "key,ca,cct"),
 * @sent and @refused the Sets of the pass that stored the row.
 */
struct db_cc_node {
	uint64_t guid;
	uint8_t port;
	uint16_t lid;
	uint8_t type;		/* enum mad_node_type */
	char state[16];
	char configured[32];
	uint32_t sent, refused;
	char last_error[96];
	int64_t checked_ms;
};
/* Replace every node's row with @rows (a pass covers the fabric) and add
 * @sent and @refused to the totals, in one transaction.  0 or -errno. */
int db_cc_store(struct db *db, const struct db_cc_node *rows, size_t n, uint64_t sent,
		uint64_t refused);
/* Each row, by GUID and port; @fn's non-zero return stops and is returned. */
int db_cc_each(struct db *db, int (*fn)(void *arg, const struct db_cc_node *row), void *arg);
/* The Sets sent and refused since the store began. */
int db_cc_totals(struct db *db, uint64_t *sent, uint64_t *refused);

#endif

// SPDX-License-Identifier: MIT
/*
 * db_metrics.c - the store's figures in the Prometheus text exposition format
 * (0.0.4), for `smquery metrics` and for the daemon's textfile (node_exporter's
 * textfile collector reads *.prom files from a directory).
 *
 * Everything comes from the store, read in one snapshot: lifetime counters
 * from sweep_totals and event_totals (they survive the pruning of old rows),
 * gauges from the stored topology, the last sweeps and the status table, and
 * the port counters (port_counter_totals) under the names the InfiniBand
 * exporters use, labelled with the port and the remote end of its link.
 * Label values are escaped (\\, \", \n; other bytes outside printable ASCII
 * become '_'), so a hostile string in the store cannot break the format.  The
 * file is written beside its final name and renamed over it, so the collector
 * never reads half of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db_int.h"

#define DB_METRICS_MAX_TOTALS 32	/* (kind, result) rows shown; the daemon makes 7 */
#define DB_NKINDS 3			/* sweep kinds: db_kinds */

static const char *const db_kinds[DB_NKINDS] = { "heavy", "light", "patch" };

struct db_total {
	char kind[16];
	char result[16];
	uint64_t sweeps, ms;
	struct db_smp_counts smps;
};

struct db_port_family;

struct db_metrics {
	struct db *db;
	FILE *out;
	int64_t now_ms;
	struct db_total totals[DB_METRICS_MAX_TOTALS];
	size_t ntotals;
	int64_t last_ended[DB_NKINDS];	/* by db_kinds */
	uint64_t nodes[3];	/* by nodes.type - 1 */
	uint64_t unresponsive;
	uint64_t one;		/* a single-value query's answer */
	const struct db_port_family *family;	/* the port counter being printed */
	char state[32];
};

/* ---- the format ---- */

static void db_family(struct db_metrics *m, const char *name, const char *type,
		      const char *help)
{
	fprintf(m->out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A label value: \\, \" and \n escaped, any byte outside printable ASCII '_'
 * (the format wants UTF-8; the store's strings are not checked for it). */
static void db_label_value(FILE *out, const char *v)
{
	for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
		if (*c == '\\' || *c == '"')
			fprintf(out, "\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", out);
		else
			fputc(*c >= 0x20 && *c < 0x7f ? *c : '_', out);
	}
}

/* name{k1="v1",k2="v2"} (a NULL key ends the labels early) */
static void db_sample_name(struct db_metrics *m, const char *name, const char *k1,
			   const char *v1, const char *k2, const char *v2)
{
	fputs(name, m->out);
	if (!k1)
		return;
	fprintf(m->out, "{%s=\"", k1);
	db_label_value(m->out, v1);
	if (k2) {
		fprintf(m->out, "\",%s=\"", k2);
		db_label_value(m->out, v2);
	}
	fputs("\"}", m->out);
}

static void db_sample(struct db_metrics *m, const char *name, const char *k1, const char *v1,
		      const char *k2, const char *v2, uint64_t value)
{
	db_sample_name(m, name, k1, v1, k2, v2);
	fprintf(m->out, " %" PRIu64 "\n", value);
}

static void db_sample_s(struct db_metrics *m, const char *name, const char *k1,
			const char *v1, int64_t ms)
{
	db_sample_name(m, name, k1, v1, NULL, NULL);
	fprintf(m->out, " %.3f\n", (double)ms / 1000);
}

/* ---- queries ---- */

/* Run @sql and hand each row to @row. */
static int db_rows(struct db_metrics *m, const char *sql,
		   void (*row)(struct db_metrics *m, sqlite3_stmt *st))
{
	sqlite3_stmt *st;
	int rc, err = db_prepare(m->db, sql, &st);

	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		row(m, st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(m->db, rc, "reading metrics");
}

static const char *db_text(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	return s ? s : "";
}

static uint64_t db_count(sqlite3_stmt *st, int col)
{
	int64_t v = sqlite3_column_int64(st, col);

	return v > 0 ? (uint64_t)v : 0;
}

/* ---- sweeps ---- */

static void db_total_row(struct db_metrics *m, sqlite3_stmt *st)
{
	if (m->ntotals == DB_METRICS_MAX_TOTALS)
		return;
	struct db_total *t = &m->totals[m->ntotals++];
	snprintf(t->kind, sizeof(t->kind), "%s", db_text(st, 0));
	snprintf(t->result, sizeof(t->result), "%s", db_text(st, 1));
	t->sweeps = db_count(st, 2);
	t->ms = db_count(st, 3);
	t->smps.sent = db_count(st, 4);
	t->smps.lost = db_count(st, 5);
	t->smps.retried = db_count(st, 6);
}

/* The totals of @kind summed over its results. */
static struct db_total db_kind_total(const struct db_metrics *m, const char *kind)
{
	struct db_total sum = { .sweeps = 0 };

	for (size_t i = 0; i < m->ntotals; i++) {
		const struct db_total *t = &m->totals[i];
		if (strcmp(t->kind, kind))
			continue;
		sum.sweeps += t->sweeps;
		sum.ms += t->ms;
		sum.smps.sent += t->smps.sent;
		sum.smps.lost += t->smps.lost;
		sum.smps.retried += t->smps.retried;
	}
	return sum;
}

static int db_metrics_sweeps(struct db_metrics *m)
{
	int err = db_rows(m, "SELECT kind, result, sweeps, ms, smps_sent, smps_lost, smps_retried"
			  " FROM sweep_totals ORDER BY kind, result", db_total_row);
	if (err)
		return err;
	db_family(m, "ibsmd_sweeps_total", "counter",
		  "Sweeps since the store was created, by kind and result "
		  "(ok, changed: a light sweep found a change, incomplete, failed).");
	for (size_t i = 0; i < m->ntotals; i++)
		db_sample(m, "ibsmd_sweeps_total", "kind", m->totals[i].kind, "result",
			  m->totals[i].result, m->totals[i].sweeps);
	struct db_total kind[DB_NKINDS];	/* by db_kinds */
	for (size_t k = 0; k < DB_NKINDS; k++)
		kind[k] = db_kind_total(m, db_kinds[k]);
	db_family(m, "ibsmd_sweep_duration_seconds", "summary", "Time the sweeps took.");
	for (size_t k = 0; k < DB_NKINDS; k++) {
		db_sample_s(m, "ibsmd_sweep_duration_seconds_sum", "kind", db_kinds[k],
			    (int64_t)kind[k].ms);
		db_sample(m, "ibsmd_sweep_duration_seconds_count", "kind", db_kinds[k], NULL,
			  NULL, kind[k].sweeps);
	}
	static const char *const smps[][2] = {	/* name, help: sent, lost, retried */
		{ "ibsmd_smps_sent_total", "SMPs put on the wire by sweeps, retries included." },
		{ "ibsmd_smps_lost_total", "SMPs of sweeps given up after the last retry." },
		{ "ibsmd_smps_retried_total", "SMPs of sweeps sent again after a timeout." },
	};
	for (size_t i = 0; i < 3; i++) {
		db_family(m, smps[i][0], "counter", smps[i][1]);
		for (size_t k = 0; k < DB_NKINDS; k++) {
			const uint64_t n[3] = { kind[k].smps.sent, kind[k].smps.lost,
						kind[k].smps.retried };
			db_sample(m, smps[i][0], "kind", db_kinds[k], NULL, NULL, n[i]);
		}
	}
	return 0;
}

/* When the last sweep of each kind in db_kinds ended; -1: none */
static void db_last_row(struct db_metrics *m, sqlite3_stmt *st)
{
	const char *kind = db_text(st, 0);

	for (size_t k = 0; k < DB_NKINDS; k++)
		if (!strcmp(kind, db_kinds[k]) && sqlite3_column_type(st, 1) != SQLITE_NULL)
			m->last_ended[k] = sqlite3_column_int64(st, 1);
}

static void db_stage_row(struct db_metrics *m, sqlite3_stmt *st)
{
	static const char *const stages[] = {
		"total", "discovery", "lids", "routing", "lfts", "activation", "store",
	};

	for (int i = 0; i < (int)(sizeof(stages) / sizeof(stages[0])); i++)
		db_sample_s(m, "ibsmd_last_heavy_sweep_seconds", "stage", stages[i],
			    sqlite3_column_int64(st, i) > 0 ? sqlite3_column_int64(st, i) : 0);
}

/* The last patch: LFT entries changed, LFT blocks sent, AR blocks sent */
static void db_patch_row(struct db_metrics *m, sqlite3_stmt *st)
{
	db_sample(m, "ibsmd_last_patch_lft", "what", "entries", NULL, NULL,
		  (uint64_t)sqlite3_column_int64(st, 0));
	db_sample(m, "ibsmd_last_patch_lft", "what", "blocks", NULL, NULL,
		  (uint64_t)sqlite3_column_int64(st, 1));
	db_sample(m, "ibsmd_last_patch_lft", "what", "ar_blocks", NULL, NULL,
		  (uint64_t)sqlite3_column_int64(st, 2));
}

static int db_metrics_last(struct db_metrics *m)
{
	/* newest first on the primary keys; light sweeps are intervals (or, in
	 * stores that recorded them as sweeps, rows of sweeps) */
	int err = db_rows(m, "SELECT 'heavy', (SELECT ended FROM sweeps WHERE kind = 'heavy'"
			  " AND ended IS NOT NULL ORDER BY id DESC LIMIT 1)"
			  " UNION ALL SELECT 'light', max(coalesce((SELECT max(last) FROM light_sweeps), 0),"
			  " coalesce((SELECT max(ended) FROM sweeps WHERE kind = 'light'), 0))"
			  " UNION ALL SELECT 'patch', (SELECT ended FROM sweeps WHERE kind = 'patch'"
			  " AND ended IS NOT NULL ORDER BY id DESC LIMIT 1)",
			  db_last_row);
	if (err)
		return err;
	db_family(m, "ibsmd_last_sweep_timestamp_seconds", "gauge",
		  "When the last sweep of each kind ended (Unix time).");
	for (size_t k = 0; k < DB_NKINDS; k++)
		if (m->last_ended[k] > 0)
			db_sample_s(m, "ibsmd_last_sweep_timestamp_seconds", "kind", db_kinds[k],
				    m->last_ended[k]);
	db_family(m, "ibsmd_last_sweep_age_seconds", "gauge",
		  "Seconds since the last sweep of each kind ended, as of this output.");
	for (size_t k = 0; k < DB_NKINDS; k++)
		if (m->last_ended[k] > 0)
			db_sample_s(m, "ibsmd_last_sweep_age_seconds", "kind", db_kinds[k],
				    m->now_ms > m->last_ended[k] ? m->now_ms - m->last_ended[k] : 0);
	db_family(m, "ibsmd_last_heavy_sweep_seconds", "gauge",
		  "Time the last heavy sweep took, in all and per stage.");
	err = db_rows(m, "SELECT ended - started, discovery_ms, lid_ms, routing_ms, lft_ms,"
		      " activate_ms, store_ms FROM sweeps WHERE kind = 'heavy' AND ended IS NOT NULL"
		      " ORDER BY id DESC LIMIT 1", db_stage_row);
	if (err)
		return err;
	db_family(m, "ibsmd_last_patch_lft", "gauge",
		  "LFT entries the last patch of a dead link changed, the blocks it sent (LFT "
		  "and AR), and the AR group table and AR LFT blocks among them.");
	return db_rows(m, "SELECT lft_entries, lft_smps, ar_smps FROM sweeps WHERE kind = 'patch'"
		       " AND ended IS NOT NULL ORDER BY id DESC LIMIT 1", db_patch_row);
}

/* ---- the fabric ---- */

static void db_node_row(struct db_metrics *m, sqlite3_stmt *st)
{
	int type = sqlite3_column_int(st, 0);

	if (type >= 1 && type <= 3)
		m->nodes[type - 1] = db_count(st, 1);
	m->unresponsive += db_count(st, 2);
}

static void db_one_row(struct db_metrics *m, sqlite3_stmt *st)
{
	m->one = db_count(st, 0);
}

/* What the isolation policy and the rebalancer did (sm_isolate.c, sm_rebalance.c). */
static int db_metrics_policy(struct db_metrics *m)
{
	int err = db_rows(m, "SELECT count(*) FROM isolated_links", db_one_row);

	if (err)
		return err;
	db_family(m, "ibsmd_isolated_links", "gauge",
		  "Links the isolation policy keeps out of routing.");
	db_sample(m, "ibsmd_isolated_links", NULL, NULL, NULL, NULL, m->one);
	if ((err = db_rows(m, "SELECT (SELECT count(*) FROM events WHERE kind = '"
			   DB_EV_ROUTE_MOVED "') + coalesce((SELECT pruned FROM event_totals"
			   " WHERE kind = '" DB_EV_ROUTE_MOVED "'), 0)", db_one_row)))
		return err;
	db_family(m, "ibsmd_rebalance_moves_total", "counter",
		  "LFT entries the rebalancer moved from a hot port to a cool one.");
	db_sample(m, "ibsmd_rebalance_moves_total", NULL, NULL, NULL, NULL, m->one);
	return 0;
}

static int db_metrics_fabric(struct db_metrics *m)
{
	static const char *const types[] = { "ca", "switch", "router" };	/* nodes.type 1..3 */
	int err = db_rows(m, "SELECT type, count(*), sum(responded = 0) FROM nodes GROUP BY type",
			  db_node_row);

	if (err)
		return err;
	db_family(m, "ibsmd_nodes", "gauge", "Nodes of the stored topology, by type.");
	for (int i = 0; i < 3; i++)
		db_sample(m, "ibsmd_nodes", "type", types[i], NULL, NULL, m->nodes[i]);
	db_family(m, "ibsmd_nodes_unresponsive", "gauge",
		  "Nodes the last heavy sweep found but that did not answer.");
	db_sample(m, "ibsmd_nodes_unresponsive", NULL, NULL, NULL, NULL, m->unresponsive);
	if ((err = db_rows(m, "SELECT count(*) FROM links", db_one_row)))
		return err;
	db_family(m, "ibsmd_links", "gauge", "Links of the stored topology.");
	db_sample(m, "ibsmd_links", NULL, NULL, NULL, NULL, m->one);
	/* a switch's LID is its port 0's; a CA port has 2^LMC LIDs */
	if ((err = db_rows(m, "SELECT coalesce(sum(1 << min(max(p.lmc, 0), 7)), 0) FROM ports p"
			   " JOIN nodes n ON n.guid = p.node_guid"
			   " WHERE p.lid > 0 AND (n.type != 2 OR p.port_num = 0)", db_one_row)))
		return err;
	db_family(m, "ibsmd_lids", "gauge", "Unicast LIDs in use by the stored topology.");
	db_sample(m, "ibsmd_lids", NULL, NULL, NULL, NULL, m->one);
	return db_metrics_policy(m);
}

/* ---- port counters ---- */

/* One family of port counters: column @col of the query below, times @scale. */
struct db_port_family {
	const char *name;
	const char *help;
	int col;
	unsigned scale;
};

static void db_guid_label(char *buf, size_t len, sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "0x%016" PRIx64, (uint64_t)sqlite3_column_int64(st, col));
}

static void db_port_row(struct db_metrics *m, sqlite3_stmt *st)
{
	const struct db_port_family *f = m->family;
	char guid[24], rguid[24], port[8], rport[8];
	const char *keys[] = { "guid", "port", "name", "remote_guid", "remote_port",
			       "remote_name" };
	const char *vals[] = { guid, port, db_text(st, 2), rguid, rport, db_text(st, 5) };

	db_guid_label(guid, sizeof(guid), st, 0);
	db_guid_label(rguid, sizeof(rguid), st, 3);
	snprintf(port, sizeof(port), "%d", sqlite3_column_int(st, 1));
	if (sqlite3_column_type(st, 4) == SQLITE_NULL)
		rport[0] = '\0';
	else
		snprintf(rport, sizeof(rport), "%d", sqlite3_column_int(st, 4));
	fputs(f->name, m->out);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		fprintf(m->out, "%c%s=\"", i ? ',' : '{', keys[i]);
		db_label_value(m->out, vals[i]);
		fputc('"', m->out);
	}
	uint64_t v = db_count(st, f->col);
	fprintf(m->out, "} %" PRIu64 "\n", v > UINT64_MAX / f->scale ? UINT64_MAX : v * f->scale);
}

static int db_metrics_ports(struct db_metrics *m)
{
	static const struct db_port_family fams[] = {
		{ "infiniband_port_transmit_data_bytes_total",
		  "Octets sent out of the port (PortXmitData x 4).", 6, 4 },
		{ "infiniband_port_receive_data_bytes_total",
		  "Octets received on the port (PortRcvData x 4).", 7, 4 },
		{ "infiniband_port_transmit_wait_total",
		  "Time the port had data to send but could not, in 4 ns units "
		  "(PortXmitWait times its PortSamplesControl tick).", 8, 1 },
		{ "infiniband_port_symbol_error_total",
		  "Minor link errors on the port (SymbolErrorCounter).", 9, 1 },
		{ "infiniband_port_link_downed_total",
		  "Times the port's link went down (LinkDownedCounter).", 10, 1 },
	};
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(fams) / sizeof(fams[0]); i++) {
		db_family(m, fams[i].name, "counter", fams[i].help);
		m->family = &fams[i];
		err = db_rows(m, "SELECT t.guid, t.port, n.desc, p.peer_guid, p.peer_port, r.desc,"
			      " t.xmit_data, t.rcv_data, t.xmit_wait, t.symbol_errors, t.link_downed"
			      " FROM port_counter_totals t"
			      " LEFT JOIN nodes n ON n.guid = t.guid"
			      " LEFT JOIN ports p ON p.node_guid = t.guid AND p.port_num = t.port"
			      " LEFT JOIN nodes r ON r.guid = p.peer_guid"
			      " ORDER BY t.guid, t.port", db_port_row);
	}
	return err;
}

/* ---- events and state ---- */

static void db_event_row(struct db_metrics *m, sqlite3_stmt *st)
{
	db_sample(m, "ibsmd_events_total", "kind", db_text(st, 0), NULL, NULL, db_count(st, 1));
}

static void db_state_row(struct db_metrics *m, sqlite3_stmt *st)
{
	snprintf(m->state, sizeof(m->state), "%s", db_text(st, 0));
}

static int db_metrics_events_state(struct db_metrics *m)
{
	static const char *const states[] = { "NOT_ACTIVE", "DISCOVERING", "STANDBY", "MASTER" };
	bool known = false;

	db_family(m, "ibsmd_events_total", "counter", "Events recorded, by kind.");
	int err = db_rows(m, "SELECT kind, sum(n) FROM (SELECT kind, count(*) n FROM events"
			  " GROUP BY kind UNION ALL SELECT kind, pruned FROM event_totals)"
			  " GROUP BY kind ORDER BY kind", db_event_row);
	if (!err)
		err = db_rows(m, "SELECT value FROM status WHERE key = '" DB_ST_SM_STATE "'",
			      db_state_row);
	if (err)
		return err;
	db_family(m, "ibsmd_sm_state", "gauge", "The SM's state (IBA 14.4.1): 1 for the current one.");
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		known |= !strcmp(m->state, states[i]);
		db_sample(m, "ibsmd_sm_state", "state", states[i], NULL, NULL,
			  !strcmp(m->state, states[i]));
	}
	if (!known && m->state[0])
		db_sample(m, "ibsmd_sm_state", "state", m->state, NULL, NULL, 1);
	return 0;
}

/* ---- entry points ---- */

int db_metrics_print(struct db *db, FILE *out, int64_t now_ms)
{
	struct db_metrics *m = calloc(1, sizeof(*m));
	bool began;

	if (!m)
		return db_fail_msg(db, -ENOMEM, "%s: out of memory", db->path);
	*m = (struct db_metrics){ .db = db, .out = out, .now_ms = now_ms };
	int err = db_read_begin(db, &began);
	if (!err)
		err = db_metrics_sweeps(m);
	if (!err)
		err = db_metrics_last(m);
	if (!err)
		err = db_metrics_fabric(m);
	if (!err)
		err = db_metrics_events_state(m);
	if (!err)
		err = db_metrics_ports(m);
	db_read_end(db, began);
	free(m);
	if (!err && (fflush(out) || ferror(out)))
		err = db_fail_msg(db, -EIO, "writing the metrics: %s", strerror(errno));
	return err;
}

/*
 * May @path be replaced?  Not when it is something else than a regular file (a
 * socket, a directory), nor when it is the store itself or its -wal or -shm
 * file: a metrics_file naming the store would otherwise replace the database
 * with text after the first sweep.
 */
static int db_metrics_target_ok(struct db *db, const char *path)
{
	static const char *const side[] = { "", "-wal", "-shm" };
	struct stat t, s;
	char name[4096];

	if (stat(path, &t))
		return errno == ENOENT ? 0 : db_fail_msg(db, -errno, "%s: %s", path, strerror(errno));
	if (!S_ISREG(t.st_mode))
		return db_fail_msg(db, -EINVAL, "%s: not a regular file: not replaced", path);
	for (size_t i = 0; i < sizeof(side) / sizeof(side[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", db->path, side[i]);
		if (!stat(name, &s) && s.st_dev == t.st_dev && s.st_ino == t.st_ino)
			return db_fail_msg(db, -EINVAL, "%s: is the store's file %s: not replaced",
					   path, name);
	}
	return 0;
}

int db_metrics_write_file(struct db *db, const char *path, int64_t now_ms)
{
	char tmp[4096];
	int n = snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);

	if (n < 0 || (size_t)n >= sizeof(tmp))
		return db_fail_msg(db, -ENAMETOOLONG, "%s: path too long", path);
	int err = db_metrics_target_ok(db, path);
	if (err)
		return err;
	int fd = mkstemp(tmp);
	if (fd < 0)
		return db_fail_msg(db, -errno, "%s: cannot create a temporary file beside it: %s",
				   path, strerror(errno));
	FILE *out = fdopen(fd, "w");
	if (!out) {
		int e = errno;
		close(fd);
		unlink(tmp);
		return db_fail_msg(db, -e, "%s: %s", tmp, strerror(e));
	}
	err = fchmod(fd, 0644) ? db_fail_msg(db, -errno, "%s: %s", tmp, strerror(errno)) : 0;
	if (!err)
		err = db_metrics_print(db, out, now_ms);
	if (fclose(out) && !err)
		err = db_fail_msg(db, -errno, "%s: %s", tmp, strerror(errno));
	if (!err && rename(tmp, path))
		err = db_fail_msg(db, -errno, "%s: cannot rename %s over it: %s", path, tmp,
				  strerror(errno));
	if (err)
		unlink(tmp);
	return err;
}

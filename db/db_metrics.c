// SPDX-License-Identifier: MIT
/*
 * db_metrics.c - the store's figures in the Prometheus text exposition format
 * (0.0.4), for `smquery metrics` and for the daemon's textfile (node_exporter's
 * textfile collector reads *.prom files from a directory), which its HTTP
 * endpoint serves too.
 *
 * Everything comes from the store, read in one snapshot: lifetime counters
 * from sweep_totals and event_totals (they survive the pruning of old rows),
 * gauges from the stored topology, the last sweeps, the status table and the
 * store's files; then the caller's extra figures (the daemon's own), the link
 * problems (db_metrics_links.c) and the port series (db_metrics_ports.c),
 * within the budget of series; last, what this output held.  The file is
 * written beside its final name and renamed over it, so the collector never
 * reads half of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "db/db_metrics_int.h"

#define DB_METRICS_MAX_TOTALS 32	/* (kind, result) rows shown; the daemon makes 7 */
#define DB_NKINDS 3			/* sweep kinds: db_kinds */

static const char *const db_kinds[DB_NKINDS] = { "heavy", "light", "patch" };

const char *const db_metrics_names_words[] = { "treydock", "ibsmd", NULL };
const char *const db_metrics_ports_words[] = { "switch-switch", "switch-ca", "ca", NULL };
const char *const db_metrics_groups_words[] = { "data", "casts", "wait", "errors", "info",
						NULL };

int db_metrics_word(const char *const *words, const char *word)
{
	for (int i = 0; words[i]; i++)
		if (!strcmp(words[i], word))
			return i;
	return -1;
}

int db_metrics_mask(const char *const *words, const char *list, unsigned *mask)
{
	unsigned bits = 0;
	char word[32];

	for (const char *p = list;; p++) {
		size_t n = strcspn(p, ",");
		if (!n || n >= sizeof(word))
			return -EINVAL;
		snprintf(word, sizeof(word), "%.*s", (int)n, p);
		int i = db_metrics_word(words, word);
		if (i < 0)
			return -EINVAL;
		bits |= 1u << i;
		p += n;
		if (!*p)
			break;
	}
	*mask = bits;
	return 0;
}

struct db_total {
	char kind[16];
	char result[16];
	uint64_t sweeps, ms;
	struct db_smp_counts smps;
};

/* What the SM's own families gather before they print. */
struct db_sm_figures {
	struct db_metrics *m;
	struct db_total totals[DB_METRICS_MAX_TOTALS];
	size_t ntotals;
	int64_t last_ended[DB_NKINDS];	/* by db_kinds */
	uint64_t nodes[3];	/* by nodes.type - 1 */
	uint64_t unresponsive;
	uint64_t one;		/* a single-value query's answer */
	char state[32];
};

/* ---- queries and the SM's samples ---- */

int db_metrics_rows(struct db_metrics *m, const char *sql,
		    void (*row)(void *ctx, sqlite3_stmt *st), void *ctx)
{
	sqlite3_stmt *st;
	int rc, err = db_prepare(m->db, sql, &st);

	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !db_metrics_cancelled(m))
		row(ctx, st);
	sqlite3_finalize(st);
	if (db_metrics_cancelled(m))
		return db_fail_msg(m->db, -ECANCELED, "metrics: cancelled");
	return rc == SQLITE_DONE ? 0 : db_fail(m->db, rc, "reading metrics");
}

const char *db_col_text(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	return s ? s : "";
}

uint64_t db_col_count(sqlite3_stmt *st, int col)
{
	int64_t v = sqlite3_column_int64(st, col);

	return v > 0 ? (uint64_t)v : 0;
}

/* db_metrics_rows(), db_metrics_family() and db_metrics_sample*() for the figures */
static int db_rows(struct db_sm_figures *f, const char *sql,
		   void (*row)(void *f, sqlite3_stmt *st))
{
	return db_metrics_rows(f->m, sql, row, f);
}

static void db_family(struct db_sm_figures *f, const char *name, const char *type,
		      const char *help)
{
	db_metrics_family(f->m, name, type, help);
}

static void db_sample(struct db_sm_figures *f, const char *name, const char *k1,
		      const char *v1, const char *k2, const char *v2, uint64_t value)
{
	db_metrics_sample(f->m, name, k1, v1, k2, v2, value);
}

static void db_sample_s(struct db_sm_figures *f, const char *name, const char *k1,
			const char *v1, int64_t ms)
{
	db_metrics_sample_s(f->m, name, k1, v1, ms);
}

/* ---- sweeps ---- */

static void db_total_row(void *ctx, sqlite3_stmt *st)
{
	struct db_sm_figures *f = ctx;
	if (f->ntotals == DB_METRICS_MAX_TOTALS)
		return;
	struct db_total *t = &f->totals[f->ntotals++];
	snprintf(t->kind, sizeof(t->kind), "%s", db_col_text(st, 0));
	snprintf(t->result, sizeof(t->result), "%s", db_col_text(st, 1));
	t->sweeps = db_col_count(st, 2);
	t->ms = db_col_count(st, 3);
	t->smps.sent = db_col_count(st, 4);
	t->smps.lost = db_col_count(st, 5);
	t->smps.retried = db_col_count(st, 6);
}

/* The totals of @kind summed over its results. */
static struct db_total db_kind_total(const struct db_sm_figures *f, const char *kind)
{
	struct db_total sum = { .sweeps = 0 };

	for (size_t i = 0; i < f->ntotals; i++) {
		const struct db_total *t = &f->totals[i];
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

static int db_metrics_sweeps(struct db_sm_figures *f)
{
	int err = db_rows(f, "SELECT kind, result, sweeps, ms, smps_sent, smps_lost, smps_retried"
			  " FROM sweep_totals ORDER BY kind, result", db_total_row);
	if (err)
		return err;
	db_family(f, "ibsmd_sweeps_total", "counter",
		  "Sweeps since the store was created, by kind and result "
		  "(ok, changed: a light sweep found a change, incomplete, failed).");
	for (size_t i = 0; i < f->ntotals; i++)
		db_sample(f, "ibsmd_sweeps_total", "kind", f->totals[i].kind, "result",
			  f->totals[i].result, f->totals[i].sweeps);
	struct db_total kind[DB_NKINDS];	/* by db_kinds */
	for (size_t k = 0; k < DB_NKINDS; k++)
		kind[k] = db_kind_total(f, db_kinds[k]);
	db_family(f, "ibsmd_sweep_duration_seconds", "summary", "Time the sweeps took.");
	for (size_t k = 0; k < DB_NKINDS; k++) {
		db_sample_s(f, "ibsmd_sweep_duration_seconds_sum", "kind", db_kinds[k],
			    (int64_t)kind[k].ms);
		db_sample(f, "ibsmd_sweep_duration_seconds_count", "kind", db_kinds[k], NULL,
			  NULL, kind[k].sweeps);
	}
	static const char *const smps[][2] = {	/* name, help: sent, lost, retried */
		{ "ibsmd_smps_sent_total", "SMPs put on the wire by sweeps, retries included." },
		{ "ibsmd_smps_lost_total", "SMPs of sweeps given up after the last retry." },
		{ "ibsmd_smps_retried_total", "SMPs of sweeps sent again after a timeout." },
	};
	for (size_t i = 0; i < 3; i++) {
		db_family(f, smps[i][0], "counter", smps[i][1]);
		for (size_t k = 0; k < DB_NKINDS; k++) {
			const uint64_t n[3] = { kind[k].smps.sent, kind[k].smps.lost,
						kind[k].smps.retried };
			db_sample(f, smps[i][0], "kind", db_kinds[k], NULL, NULL, n[i]);
		}
	}
	return 0;
}

/* When the last sweep of each kind in db_kinds ended; -1: none */
static void db_last_row(void *ctx, sqlite3_stmt *st)
{
	struct db_sm_figures *f = ctx;
	const char *kind = db_col_text(st, 0);

	for (size_t k = 0; k < DB_NKINDS; k++)
		if (!strcmp(kind, db_kinds[k]) && sqlite3_column_type(st, 1) != SQLITE_NULL)
			f->last_ended[k] = sqlite3_column_int64(st, 1);
}

static void db_stage_row(void *ctx, sqlite3_stmt *st)
{
	struct db_sm_figures *f = ctx;
	static const char *const stages[] = {
		"total", "discovery", "lids", "routing", "lfts", "activation", "store",
	};

	for (int i = 0; i < (int)(sizeof(stages) / sizeof(stages[0])); i++)
		db_sample_s(f, "ibsmd_last_heavy_sweep_seconds", "stage", stages[i],
			    sqlite3_column_int64(st, i) > 0 ? sqlite3_column_int64(st, i) : 0);
}

/* The last patch: LFT entries changed, LFT blocks sent, AR blocks sent */
static void db_patch_row(void *ctx, sqlite3_stmt *st)
{
	struct db_sm_figures *f = ctx;
	db_sample(f, "ibsmd_last_patch_lft", "what", "entries", NULL, NULL,
		  (uint64_t)sqlite3_column_int64(st, 0));
	db_sample(f, "ibsmd_last_patch_lft", "what", "blocks", NULL, NULL,
		  (uint64_t)sqlite3_column_int64(st, 1));
	db_sample(f, "ibsmd_last_patch_lft", "what", "ar_blocks", NULL, NULL,
		  (uint64_t)sqlite3_column_int64(st, 2));
}

static int db_metrics_last(struct db_sm_figures *f)
{
	/* newest first on the primary keys; light sweeps are intervals (or, in
	 * stores that recorded them as sweeps, rows of sweeps) */
	int err = db_rows(f, "SELECT 'heavy', (SELECT ended FROM sweeps WHERE kind = 'heavy'"
			  " AND ended IS NOT NULL ORDER BY id DESC LIMIT 1)"
			  " UNION ALL SELECT 'light', max(coalesce((SELECT max(last) FROM light_sweeps), 0),"
			  " coalesce((SELECT max(ended) FROM sweeps WHERE kind = 'light'), 0))"
			  " UNION ALL SELECT 'patch', (SELECT ended FROM sweeps WHERE kind = 'patch'"
			  " AND ended IS NOT NULL ORDER BY id DESC LIMIT 1)",
			  db_last_row);
	if (err)
		return err;
	db_family(f, "ibsmd_last_sweep_timestamp_seconds", "gauge",
		  "When the last sweep of each kind ended (Unix time).");
	for (size_t k = 0; k < DB_NKINDS; k++)
		if (f->last_ended[k] > 0)
			db_sample_s(f, "ibsmd_last_sweep_timestamp_seconds", "kind", db_kinds[k],
				    f->last_ended[k]);
	db_family(f, "ibsmd_last_sweep_age_seconds", "gauge",
		  "Seconds since the last sweep of each kind ended, as of this output.");
	int64_t now = f->m->now_ms;
	for (size_t k = 0; k < DB_NKINDS; k++)
		if (f->last_ended[k] > 0)
			db_sample_s(f, "ibsmd_last_sweep_age_seconds", "kind", db_kinds[k],
				    now > f->last_ended[k] ? now - f->last_ended[k] : 0);
	db_family(f, "ibsmd_last_heavy_sweep_seconds", "gauge",
		  "Time the last heavy sweep took, in all and per stage.");
	err = db_rows(f, "SELECT ended - started, discovery_ms, lid_ms, routing_ms, lft_ms,"
		      " activate_ms, store_ms FROM sweeps WHERE kind = 'heavy' AND ended IS NOT NULL"
		      " ORDER BY id DESC LIMIT 1", db_stage_row);
	if (err)
		return err;
	db_family(f, "ibsmd_last_patch_lft", "gauge",
		  "LFT entries the last patch of a dead link changed, the blocks it sent (LFT "
		  "and AR), and the AR group table and AR LFT blocks among them.");
	return db_rows(f, "SELECT lft_entries, lft_smps, ar_smps FROM sweeps WHERE kind = 'patch'"
		       " AND ended IS NOT NULL ORDER BY id DESC LIMIT 1", db_patch_row);
}

/* ---- the fabric ---- */

static void db_node_row(void *ctx, sqlite3_stmt *st)
{
	struct db_sm_figures *f = ctx;
	int type = sqlite3_column_int(st, 0);

	if (type >= 1 && type <= 3)
		f->nodes[type - 1] = db_col_count(st, 1);
	f->unresponsive += db_col_count(st, 2);
}

static void db_one_row(void *ctx, sqlite3_stmt *st)
{
	struct db_sm_figures *f = ctx;
	f->one = db_col_count(st, 0);
}

/* What the isolation policy and the rebalancer did (sm_isolate.c, sm_rebalance.c). */
static int db_metrics_policy(struct db_sm_figures *f)
{
	int err = db_rows(f, "SELECT count(*) FROM isolated_links", db_one_row);

	if (err)
		return err;
	db_family(f, "ibsmd_isolated_links", "gauge",
		  "Links the isolation policy keeps out of routing.");
	db_sample(f, "ibsmd_isolated_links", NULL, NULL, NULL, NULL, f->one);
	if ((err = db_rows(f, "SELECT (SELECT count(*) FROM events WHERE kind = '"
			   DB_EV_ROUTE_MOVED "') + coalesce((SELECT pruned FROM event_totals"
			   " WHERE kind = '" DB_EV_ROUTE_MOVED "'), 0)", db_one_row)))
		return err;
	db_family(f, "ibsmd_rebalance_moves_total", "counter",
		  "LFT entries the rebalancer moved from a hot port to a cool one.");
	db_sample(f, "ibsmd_rebalance_moves_total", NULL, NULL, NULL, NULL, f->one);
	return 0;
}

/* Congestion control settings the CC passes sent and nodes refused (db_cc.c). */
static int db_metrics_cc(struct db_sm_figures *f)
{
	static const struct { const char *name, *col, *help; } fam[] = {
		{ "ibsmd_cc_settings_sent_total", "sent",
		  "Congestion control settings (class 0x21 Sets) nodes took." },
		{ "ibsmd_cc_settings_refused_total", "refused",
		  "Congestion control settings refused: a status, a Set not taken, a CC_Key not ours." },
	};
	char sql[96];

	for (size_t i = 0; i < sizeof(fam) / sizeof(fam[0]); i++) {
		snprintf(sql, sizeof(sql), "SELECT coalesce((SELECT %s FROM cc_totals), 0)",
			 fam[i].col);
		int err = db_rows(f, sql, db_one_row);
		if (err)
			return err;
		db_family(f, fam[i].name, "counter", fam[i].help);
		db_sample(f, fam[i].name, NULL, NULL, NULL, NULL, f->one);
	}
	return 0;
}

static int db_metrics_fabric(struct db_sm_figures *f)
{
	static const char *const types[] = { "ca", "switch", "router" };	/* nodes.type 1..3 */
	int err = db_rows(f, "SELECT type, count(*), sum(responded = 0) FROM nodes GROUP BY type",
			  db_node_row);

	if (err)
		return err;
	db_family(f, "ibsmd_nodes", "gauge", "Nodes of the stored topology, by type.");
	for (int i = 0; i < 3; i++)
		db_sample(f, "ibsmd_nodes", "type", types[i], NULL, NULL, f->nodes[i]);
	db_family(f, "ibsmd_nodes_unresponsive", "gauge",
		  "Nodes the last heavy sweep found but that did not answer.");
	db_sample(f, "ibsmd_nodes_unresponsive", NULL, NULL, NULL, NULL, f->unresponsive);
	if ((err = db_rows(f, "SELECT count(*) FROM links", db_one_row)))
		return err;
	db_family(f, "ibsmd_links", "gauge", "Links of the stored topology.");
	db_sample(f, "ibsmd_links", NULL, NULL, NULL, NULL, f->one);
	/* a switch's LID is its port 0's; a CA port has 2^LMC LIDs */
	if ((err = db_rows(f, "SELECT coalesce(sum(1 << min(max(p.lmc, 0), 7)), 0) FROM ports p"
			   " JOIN nodes n ON n.guid = p.node_guid"
			   " WHERE p.lid > 0 AND (n.type != 2 OR p.port_num = 0)", db_one_row)))
		return err;
	db_family(f, "ibsmd_lids", "gauge", "Unicast LIDs in use by the stored topology.");
	db_sample(f, "ibsmd_lids", NULL, NULL, NULL, NULL, f->one);
	if ((err = db_metrics_policy(f)))
		return err;
	return db_metrics_cc(f);
}

/* ---- events and state ---- */

static void db_event_row(void *ctx, sqlite3_stmt *st)
{
	struct db_sm_figures *f = ctx;
	db_sample(f, "ibsmd_events_total", "kind", db_col_text(st, 0), NULL, NULL,
		  db_col_count(st, 1));
}

static void db_state_row(void *ctx, sqlite3_stmt *st)
{
	struct db_sm_figures *f = ctx;
	snprintf(f->state, sizeof(f->state), "%s", db_col_text(st, 0));
}

static int db_metrics_events_state(struct db_sm_figures *f)
{
	static const char *const states[] = { "NOT_ACTIVE", "DISCOVERING", "STANDBY", "MASTER" };
	bool known = false;

	db_family(f, "ibsmd_events_total", "counter", "Events recorded, by kind.");
	int err = db_rows(f, "SELECT kind, sum(n) FROM (SELECT kind, count(*) n FROM events"
			  " GROUP BY kind UNION ALL SELECT kind, pruned FROM event_totals)"
			  " GROUP BY kind ORDER BY kind", db_event_row);
	if (!err)
		err = db_rows(f, "SELECT value FROM status WHERE key = '" DB_ST_SM_STATE "'",
			      db_state_row);
	if (err)
		return err;
	db_family(f, "ibsmd_sm_state", "gauge",
		  "The SM's state (IBA 14.4.1): 1 for the current one.");
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		known |= !strcmp(f->state, states[i]);
		db_sample(f, "ibsmd_sm_state", "state", states[i], NULL, NULL,
			  !strcmp(f->state, states[i]));
	}
	if (!known && f->state[0])
		db_sample(f, "ibsmd_sm_state", "state", f->state, NULL, NULL, 1);
	return 0;
}

/* ---- the store ---- */

/* The store's files (the database, its WAL) and the space left beside them. */
static void db_metrics_store(struct db_metrics *m)
{
	static const char *const side[] = { "", "-wal" };
	uint64_t bytes = 0;
	char name[4096];
	struct stat st;
	struct statvfs vfs;

	for (size_t i = 0; i < sizeof(side) / sizeof(side[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", m->db->path, side[i]);
		if (!stat(name, &st))
			bytes += (uint64_t)st.st_size;
	}
	db_metrics_family(m, "ibsmd_store_size_bytes", "gauge",
			  "Bytes the store's database and write-ahead log take.");
	db_metrics_sample(m, "ibsmd_store_size_bytes", NULL, NULL, NULL, NULL, bytes);
	if (statvfs(m->db->path, &vfs))
		return;
	db_metrics_family(m, "ibsmd_store_free_bytes", "gauge",
			  "Bytes left to unprivileged writers on the store's file system.");
	db_metrics_sample(m, "ibsmd_store_free_bytes", NULL, NULL, NULL, NULL,
			  (uint64_t)vfs.f_bavail * vfs.f_frsize);
}

/* The caller's figures, one family header before each new name. */
static void db_metrics_extra(struct db_metrics *m)
{
	const struct db_metrics_extra *e = m->o->extra;

	for (size_t i = 0; i < m->o->nextra; i++) {
		if (!i || strcmp(e[i].name, e[i - 1].name))
			db_metrics_family(m, e[i].name, e[i].type, e[i].help);
		db_metrics_sample_f(m, e[i].name, e[i].label, e[i].label_value, e[i].value);
	}
}

/* What this output held: the series before these three, and those left out. */
static void db_metrics_self(struct db_metrics *m)
{
	uint64_t series = m->text.series;

	db_metrics_family(m, "ibsmd_metrics_series", "gauge",
			  "Series in this output before this family and the next two.");
	db_metrics_sample(m, "ibsmd_metrics_series", NULL, NULL, NULL, NULL, series);
	db_metrics_family(m, "ibsmd_metrics_series_omitted", "gauge",
			  "Port series the budget (metrics.max_series) left out of this output.");
	db_metrics_sample(m, "ibsmd_metrics_series_omitted", NULL, NULL, NULL, NULL, m->omitted);
	db_metrics_family(m, "ibsmd_metrics_timestamp_seconds", "gauge",
			  "When this output was made (Unix time).");
	db_metrics_sample_s(m, "ibsmd_metrics_timestamp_seconds", NULL, NULL, m->now_ms);
}

/* ---- entry points ---- */

static int db_metrics_sm(struct db_metrics *m)
{
	struct db_sm_figures *f = calloc(1, sizeof(*f));

	if (!f)
		return db_fail_msg(m->db, -ENOMEM, "%s: out of memory", m->db->path);
	f->m = m;
	int err = db_metrics_sweeps(f);
	if (!err)
		err = db_metrics_last(f);
	if (!err)
		err = db_metrics_fabric(f);
	if (!err)
		err = db_metrics_events_state(f);
	free(f);
	return err;
}

int db_metrics_print(struct db *db, FILE *out, int64_t now_ms, const struct db_metrics_opts *o,
		     struct db_metrics_count *count)
{
	static const struct db_metrics_opts defaults = DB_METRICS_OPTS_DEFAULT;
	struct db_metrics *m = calloc(1, sizeof(*m));
	bool began;

	if (!m)
		return db_fail_msg(db, -ENOMEM, "%s: out of memory", db->path);
	m->db = db;
	m->o = o ? o : &defaults;
	m->now_ms = now_ms;
	m->text.out = out;
	int err = db_read_begin(db, &began);
	if (!err)
		err = db_metrics_sm(m);
	if (!err) {
		db_metrics_store(m);
		db_metrics_extra(m);
		err = db_metrics_links(m);
	}
	if (!err)
		err = db_metrics_ports(m);
	if (!err && db_metrics_cancelled(m))
		err = db_fail_msg(db, -ECANCELED, "metrics: cancelled");
	if (!err)
		db_metrics_self(m);
	db_read_end(db, began);
	if (!err && (db_mtext_flush(&m->text) || fflush(out) || ferror(out)))
		err = db_fail_msg(db, -EIO, "writing the metrics: %s", strerror(errno));
	if (!err && count)
		*count = (struct db_metrics_count){ .series = m->text.series,
						    .omitted = m->omitted };
	free(m);
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

int db_metrics_write_file(struct db *db, const char *path, int64_t now_ms,
			  const struct db_metrics_opts *o, struct db_metrics_count *count)
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
		err = db_metrics_print(db, out, now_ms, o, count);
	if (fclose(out) && !err)
		err = db_fail_msg(db, -errno, "%s: %s", tmp, strerror(errno));
	if (!err && rename(tmp, path))
		err = db_fail_msg(db, -errno, "%s: cannot rename %s over it: %s", path, tmp,
				  strerror(errno));
	if (err)
		unlink(tmp);
	return err;
}

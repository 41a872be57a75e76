// SPDX-License-Identifier: MIT
/*
 * sm_metrics.c - the metrics file's writer (see sm_metrics.h).
 *
 * Data: one ask, filled on the loop thread: the file, the store, the
 * options, the store's clock now, and the daemon's own figures with their
 * label values; the writer thread copies it under the writer's mutex and
 * writes with its copy.  An ask made while one waits replaces it (the
 * newest figures win); one made while the writer writes waits for it.
 *
 * Flow: sm_metrics_write() (loop) -> ask filled, cond signalled -> the
 * writer opens the store read-only (once; again after an error), and
 * db_metrics_write_file() renders into a file beside metrics_file and renames
 * it over.  SQLite's WAL lets it read while the daemon writes: it never takes
 * db_mu, so neither the loop nor a sweep's worker waits for it.  At close the
 * writer may finish what was asked for SM_METRICS_CLOSE_MS, then it is told
 * to stop: a file still under way is cut short (its cancel flag).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sm/core/sm.h"
#include "sm/ha/sm_ha.h"
#include "sm/sa/sm_sa.h"
#include "sm/sm_metrics.h"
#include "sm/util/sm_log.h"

#define SM_METRICS_EXTRA 16
#define SM_METRICS_CLOSE_MS 500	/* at close, what was asked may finish this long */

/* What the writer is asked to write. */
struct ask {
	char path[SM_PATH_LEN];		/* metrics_file */
	char db_path[SM_PATH_LEN];
	int64_t now_ms;			/* the store's clock */
	struct db_metrics_opts opts;	/* its extra points into extra[] */
	struct db_metrics_extra extra[SM_METRICS_EXTRA];
};

struct sm_metrics {
	pthread_t thread;
	pthread_mutex_t mu;		/* all below */
	pthread_cond_t cond;
	bool asked;			/* next holds an ask not taken yet */
	bool stop;
	volatile bool cancel;		/* the file under way stops (at stop) */
	uint64_t asks, done;		/* asks made, and written (or failed) */
	int last_err;
	double render_s;		/* what the last write took */
	struct ask next;
	uint64_t written_ms;		/* mad_now_ms() of the last ask (loop thread) */
	struct db *db;			/* the writer's read-only connection */
};

void sm_metrics_opts(const struct sm_config *c, struct db_metrics_opts *o)
{
	int names = db_metrics_word(db_metrics_names_words, c->metrics_names);

	*o = (struct db_metrics_opts){ .names = names < 0 ? DB_METRICS_NAMES_TREYDOCK
							  : (enum db_metrics_names)names,
				       .max_series = c->metrics_max_series };
	for (unsigned i = 0; i < c->nmetrics_ports; i++) {
		int bit = db_metrics_word(db_metrics_ports_words, c->metrics_ports[i]);
		o->ports |= bit < 0 ? 0 : 1u << bit;
	}
	for (unsigned i = 0; i < c->nmetrics_counters; i++) {
		int bit = db_metrics_word(db_metrics_groups_words, c->metrics_counters[i]);
		o->groups |= bit < 0 ? 0 : 1u << bit;
	}
}

/* ---- the writer ---- */

static int write_file(struct sm_metrics *m, const struct ask *a)
{
	char err[512];
	struct timespec t0, t1;

	if (!m->db && db_open(a->db_path, DB_READONLY, &m->db, err, sizeof(err))) {
		sm_warn("metrics file not written: %s", err);
		return -EIO;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = db_metrics_write_file(m->db, a->path, a->now_ms, &a->opts, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc && rc != -ECANCELED)
		sm_warn("metrics file not written: %s", db_errmsg(m->db));
	if (rc && rc != -ENOENT && rc != -EINVAL && rc != -ECANCELED) {
		db_close(m->db);	/* a store error: open it again next time */
		m->db = NULL;
	}
	pthread_mutex_lock(&m->mu);
	m->render_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	pthread_mutex_unlock(&m->mu);
	return rc;
}

static void *writer(void *arg)
{
	struct sm_metrics *m = arg;
	struct ask *a = malloc(sizeof(*a));

	pthread_mutex_lock(&m->mu);
	while (!m->stop) {
		if (!m->asked) {
			pthread_cond_wait(&m->cond, &m->mu);
			continue;
		}
		uint64_t upto = m->asks;
		int rc = -ENOMEM;
		m->asked = false;
		if (a) {
			*a = m->next;
			a->opts.extra = a->extra;
			a->opts.cancel = &m->cancel;
		}
		pthread_mutex_unlock(&m->mu);
		if (a)
			rc = write_file(m, a);
		pthread_mutex_lock(&m->mu);
		m->done = upto;
		m->last_err = rc;
		pthread_cond_broadcast(&m->cond);
	}
	pthread_mutex_unlock(&m->mu);
	free(a);
	if (m->db)
		db_close(m->db);
	return NULL;
}

/* ---- the loop thread's side ---- */

static struct sm_metrics *metrics_of(struct sm *sm)
{
	struct sm_metrics *m = sm->metrics;

	if (m)
		return m;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	pthread_mutex_init(&m->mu, NULL);
	pthread_cond_init(&m->cond, NULL);
	if (pthread_create(&m->thread, NULL, writer, m)) {
		sm_warn("metrics file: no thread to write it");
		pthread_cond_destroy(&m->cond);
		pthread_mutex_destroy(&m->mu);
		free(m);
		return NULL;
	}
	sm->metrics = m;
	return m;
}

/* The SA's counts by result, as ibsmd_sa_requests_total's samples. */
static size_t sa_figures(const struct sm *sm, struct db_metrics_extra *e)
{
	static const struct sm_sa_counts none;
	const struct sm_sa_counts *c = sm->sa ? &sm->sa->counts : &none;
	const struct {
		const char *result;
		uint64_t n;
	} r[] = {
		{ "answered", c->answered }, { "no_records", c->no_records },
		{ "invalid", c->invalid }, { "unsupported", c->unsupported },
		{ "too_big", c->too_big }, { "busy", c->busy }, { "dropped", c->dropped },
	};

	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		e[i] = (struct db_metrics_extra){
			"ibsmd_sa_requests_total", "counter",
			"SA requests by what became of them: answered, no_records (a Get "
			"matched nothing), invalid, unsupported, too_big, busy (before the "
			"first sweep), dropped (not an SA request).",
			"result", r[i].result, (double)r[i].n };
	return sizeof(r) / sizeof(r[0]);
}

/* The daemon's own figures into @a's extra. */
static void figures(struct sm *sm, struct sm_metrics *m, struct ask *a)
{
	struct db_metrics_extra *e = a->extra;
	size_t queued, n = 0;
	uint64_t dropped;

	sm_store_queue_counts(&sm->store, &queued, &dropped);
	e[n++] = (struct db_metrics_extra){
		"ibsmd_sm_masters_seen", "gauge",
		"Master SMs this SM knows on its subnet, itself included (0: none; 2: two).",
		NULL, NULL, sm_ha_masters_seen(sm) };
	e[n++] = (struct db_metrics_extra){
		"ibsmd_store_errors_total", "counter",
		"Store operations of the daemon that failed (a full disk, I/O errors...).",
		NULL, NULL, sm->db ? (double)db_failures(sm->db) : 0 };
	e[n++] = (struct db_metrics_extra){
		"ibsmd_store_queue_dropped_total", "counter",
		"Records for the store dropped while it was busy and the queue full.",
		NULL, NULL, (double)dropped };
	n += sa_figures(sm, e + n);
	e[n++] = (struct db_metrics_extra){
		"ibsmd_mcast_joins_refused_total", "counter",
		"Multicast joins refused: the port had its share of groups, or the MLIDs "
		"left are kept for IPoIB broadcast groups.",
		NULL, NULL, sm->sa ? (double)sm->sa->mcast.refused : 0 };
	pthread_mutex_lock(&m->mu);
	double render_s = m->render_s;
	pthread_mutex_unlock(&m->mu);
	e[n++] = (struct db_metrics_extra){
		"ibsmd_metrics_render_seconds", "gauge",
		"Time the previous metrics file took to write.", NULL, NULL, render_s };
	a->opts.nextra = n;
}

void sm_metrics_write(struct sm *sm, bool force)
{
	uint64_t now = mad_now_ms();
	struct sm_metrics *m = sm->metrics;

	if (!sm->cfg.metrics_file[0] || !sm->db ||
	    (!force && m && m->written_ms && now - m->written_ms < SM_METRICS_EVERY_MS))
		return;
	m = metrics_of(sm);
	if (!m)
		return;
	m->written_ms = now;
	struct ask a = { .now_ms = db_now_ms(sm->db) };
	snprintf(a.path, sizeof(a.path), "%s", sm->cfg.metrics_file);
	snprintf(a.db_path, sizeof(a.db_path), "%s", sm->cfg.db_path);
	sm_metrics_opts(&sm->cfg, &a.opts);
	figures(sm, m, &a);
	_Static_assert(3 + 7 + 1 <= SM_METRICS_EXTRA, "room for the figures");
	pthread_mutex_lock(&m->mu);
	m->next = a;
	m->asked = true;
	m->asks++;
	pthread_cond_signal(&m->cond);
	pthread_mutex_unlock(&m->mu);
}

int sm_metrics_flush(struct sm *sm)
{
	struct sm_metrics *m = sm->metrics;

	if (!m)
		return 0;
	pthread_mutex_lock(&m->mu);
	uint64_t upto = m->asks;
	while (m->done < upto && !m->stop)
		pthread_cond_wait(&m->cond, &m->mu);
	int rc = m->last_err;
	pthread_mutex_unlock(&m->mu);
	return rc;
}

void sm_metrics_close(struct sm *sm)
{
	struct sm_metrics *m = sm->metrics;

	if (!m)
		return;
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += (long)SM_METRICS_CLOSE_MS * 1000000;
	until.tv_sec += until.tv_nsec / 1000000000;
	until.tv_nsec %= 1000000000;
	pthread_mutex_lock(&m->mu);
	while (m->done < m->asks && pthread_cond_timedwait(&m->cond, &m->mu, &until) == 0)
		;
	m->stop = true;
	m->cancel = true;
	pthread_cond_broadcast(&m->cond);
	pthread_mutex_unlock(&m->mu);
	pthread_join(m->thread, NULL);
	pthread_cond_destroy(&m->cond);
	pthread_mutex_destroy(&m->mu);
	free(m);
	sm->metrics = NULL;
}

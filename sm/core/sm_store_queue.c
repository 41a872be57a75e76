// SPDX-License-Identifier: MIT
/*
 * sm_store_queue.c - the loop thread's store writes, queued while a worker
 * holds the store (see sm_store_queue.h).
 *
 * Data: a singly linked list of records (writer, owned data, size, what),
 * oldest first, under q->mu; its length and bytes against the bound.  Order:
 * records leave the list only with db_mu held, one at a time from the head,
 * and a record written at once is written only after the list is empty, all
 * under that same hold of db_mu; so the store sees them in the order they
 * were put.  The list's lock is never held across a write, so the loop
 * thread, queuing, waits at most for another thread's pointer moves.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_transport.h"
#include "sm/util/sm_log.h"
#include "sm/core/sm_store_queue.h"

struct sm_store_rec {
	sm_store_fn fn;
	void *data;
	size_t size;
	const char *what;
	struct sm_store_rec *next;
};

static void on_timer(void *ctx);

/* The store behind @q: NULL when closed, or when @q was never initialised (a
 * struct sm put together by hand, zeroed). */
static struct db *store_of(const struct sm_store_queue *q)
{
	return q->db ? *q->db : NULL;
}

void sm_store_queue_init(struct sm_store_queue *q, pthread_mutex_t *db_mu, struct db *const *db,
			 struct sm_loop *const *loop, size_t max_recs, size_t max_bytes)
{
	*q = (struct sm_store_queue){ .db_mu = db_mu, .db = db, .loop = loop,
				      .max_recs = max_recs ? max_recs : 1, .max_bytes = max_bytes };
	pthread_mutex_init(&q->mu, NULL);
	sm_timer_init(&q->timer, on_timer, q);
}

static void rec_free(struct sm_store_rec *r)
{
	free(r->data);
	free(r);
}

/* Write @r (db_mu held); a failure is logged, never retried.  0 or -errno. */
static int rec_write(struct sm_store_queue *q, struct sm_store_rec *r)
{
	struct db *db = *q->db;
	int rc = db ? r->fn(db, r->data) : 0;

	if (rc < 0)
		sm_warn("%s: not stored: %s", r->what, db_errmsg(db));
	return rc < 0 ? rc : 0;
}

/* Take the oldest record off the list (q->mu held); NULL when empty. */
static struct sm_store_rec *unlink_head(struct sm_store_queue *q)
{
	struct sm_store_rec *r = q->head;

	if (r) {
		q->head = r->next;
		if (!q->head)
			q->tail = NULL;
		q->n--;
		q->bytes -= r->size;
	}
	return r;
}

static struct sm_store_rec *pop(struct sm_store_queue *q)
{
	pthread_mutex_lock(&q->mu);
	struct sm_store_rec *r = unlink_head(q);
	pthread_mutex_unlock(&q->mu);
	return r;
}

/* The drops not yet recorded, as an error event (db_mu held). */
static void record_drops(struct sm_store_queue *q)
{
	pthread_mutex_lock(&q->mu);
	uint64_t n = q->drops_unrecorded;
	q->drops_unrecorded = 0;
	pthread_mutex_unlock(&q->mu);
	if (n && *q->db &&
	    db_event_add(*q->db, 0, DB_EV_ERROR, 0, -1, "%llu records for the store were "
			 "dropped while it was busy (the queue was full)", (unsigned long long)n))
		sm_warn("the dropped records' event not stored: %s", db_errmsg(*q->db));
}

void sm_store_queue_drain_locked(struct sm_store_queue *q)
{
	struct sm_store_rec *r;

	while ((r = pop(q))) {
		rec_write(q, r);
		rec_free(r);
	}
	record_drops(q);
}

/* Drop the oldest records until @q is within its bound (q->mu held). */
static void trim(struct sm_store_queue *q, uint64_t now_ms)
{
	while (q->head && (q->n > q->max_recs || (q->max_bytes && q->bytes > q->max_bytes))) {
		rec_free(unlink_head(q));
		q->dropped++;
		q->drops_unrecorded++;
	}
	if (q->dropped != q->drops_logged &&
	    (!q->drop_logged_ms || now_ms - q->drop_logged_ms >= SM_STORE_DROP_LOG_MS)) {
		sm_warn("the store is busy and %zu records wait: %llu older ones dropped "
			"(%llu since start)", q->n, (unsigned long long)(q->dropped - q->drops_logged),
			(unsigned long long)q->dropped);
		q->drop_logged_ms = now_ms;
		q->drops_logged = q->dropped;
	}
}

static void arm(struct sm_store_queue *q)
{
	struct sm_loop *l = q->loop ? *q->loop : NULL;

	if (!l || q->timer.armed)
		return;
	q->timer_loop = l;
	sm_timer_in(l, &q->timer, SM_STORE_RETRY_MS);
}

int sm_store_put(struct sm_store_queue *q, sm_store_fn fn, void *data, size_t size,
		 const char *what)
{
	if (!data) {
		sm_warn("%s: not stored: out of memory", what);
		return -ENOMEM;
	}
	if (!store_of(q)) {
		free(data);
		return 0;
	}
	if (pthread_mutex_trylock(q->db_mu) == 0) {
		sm_store_queue_drain_locked(q);
		struct sm_store_rec now = { .fn = fn, .data = data, .what = what };
		int rc = rec_write(q, &now);
		pthread_mutex_unlock(q->db_mu);
		free(data);
		return rc;
	}
	struct sm_store_rec *r = malloc(sizeof(*r));
	if (!r) {
		sm_warn("%s: not stored: out of memory", what);
		free(data);
		return -ENOMEM;
	}
	*r = (struct sm_store_rec){ .fn = fn, .data = data, .size = size + sizeof(*r),
				    .what = what };
	pthread_mutex_lock(&q->mu);
	if (q->tail)
		q->tail->next = r;
	else
		q->head = r;
	q->tail = r;
	q->n++;
	q->bytes += r->size;
	trim(q, mad_now_ms());
	pthread_mutex_unlock(&q->mu);
	arm(q);
	return 0;
}

bool sm_store_queue_flush(struct sm_store_queue *q)
{
	size_t queued;
	uint64_t dropped;

	if (pthread_mutex_trylock(q->db_mu) == 0) {
		sm_store_queue_drain_locked(q);
		pthread_mutex_unlock(q->db_mu);
	}
	sm_store_queue_counts(q, &queued, &dropped);
	return queued == 0;
}

static void on_timer(void *ctx)
{
	struct sm_store_queue *q = ctx;

	if (!sm_store_queue_flush(q))
		arm(q);
}

void sm_store_queue_counts(struct sm_store_queue *q, size_t *queued, uint64_t *dropped)
{
	pthread_mutex_lock(&q->mu);
	*queued = q->n;
	*dropped = q->dropped;
	pthread_mutex_unlock(&q->mu);
}

void sm_store_queue_detach(struct sm_store_queue *q)
{
	if (q->timer_loop)
		sm_timer_cancel(q->timer_loop, &q->timer);
	q->timer_loop = NULL;
}

void sm_store_queue_close(struct sm_store_queue *q)
{
	if (!q->db_mu)	/* never initialised */
		return;
	sm_store_queue_detach(q);
	pthread_mutex_lock(q->db_mu);
	sm_store_queue_drain_locked(q);
	pthread_mutex_unlock(q->db_mu);
	pthread_mutex_destroy(&q->mu);
	q->db_mu = NULL;
}

/* ---- the common records ---- */

struct event_rec {
	int64_t time_ms;
	const char *kind;	/* a string constant */
	uint64_t guid;
	int port;
	char detail[];
};

static int write_text_event(struct db *db, void *data)
{
	const struct event_rec *e = data;

	return db_event_add_at(db, e->time_ms, e->kind, e->guid, e->port, e->detail);
}

int sm_store_event(struct sm_store_queue *q, const char *kind, uint64_t guid, int port,
		   const char *fmt, ...)
{
	char detail[512];
	va_list ap;

	if (!store_of(q))
		return 0;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	size_t len = strlen(detail) + 1;
	struct event_rec *e = malloc(sizeof(*e) + len);
	if (e) {
		*e = (struct event_rec){ .time_ms = db_now_ms(*q->db), .kind = kind, .guid = guid,
					 .port = port };
		memcpy(e->detail, detail, len);
	}
	return sm_store_put(q, write_text_event, e, sizeof(*e) + len, kind);
}

struct status_rec {
	const char *key;	/* a string constant */
	char value[];
};

static int write_status(struct db *db, void *data)
{
	const struct status_rec *s = data;

	return db_status_set(db, s->key, s->value);
}

int sm_store_status(struct sm_store_queue *q, const char *key, const char *value)
{
	size_t len = strlen(value) + 1;
	struct status_rec *s = malloc(sizeof(*s) + len);

	if (s) {
		s->key = key;
		memcpy(s->value, value, len);
	}
	return sm_store_put(q, write_status, s, sizeof(*s) + len, "a status key");
}

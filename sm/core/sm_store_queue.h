/* SPDX-License-Identifier: MIT */
/*
 * sm_store_queue.h - the loop thread's writes into the store, never waiting
 * for a worker that holds it.
 *
 * The store (one SQLite connection) is guarded by sm->db_mu; a worker holds
 * it for as long as it stores a heavy sweep.  What the loop thread records
 * there on its own (trap events, SM state, isolation, rebalancing moves, port
 * counters, light sweeps, multicast groups) is fire-and-forget: nothing the
 * loop does next reads it back.  Each such write is a record handed to this
 * queue: when db_mu is free (pthread_mutex_trylock) the queued records are
 * written first, then this one, at once; when it is held, the record waits
 * in memory, in order, and a loop timer (every SM_STORE_RETRY_MS), the next
 * record that finds the store free, a worker about to release db_mu
 * (sm_store_queue_drain_locked) or sm_store_queue_close() writes it.
 *
 * Bounded: at most @max_recs records and @max_bytes bytes wait; past either,
 * the oldest is dropped and counted (a warning at most every
 * SM_STORE_DROP_LOG_MS, and an error event with the count once the store is
 * free again).  An event keeps the time it happened, not the time it was
 * written (db_event_add_at()); a counter pass or a light sweep waiting is
 * stamped when written (at most a store's hold later).
 *
 * What stays a direct, blocking use of db_mu on the loop thread needs its
 * result now or runs when no worker can hold the store: reads before a
 * sweep's workers start (isolated links at open, M_Keys at discovery, the
 * LFTs recorded, before the early store starts), a failed sweep's record
 * (after its workers ended), the patch's record and the metrics file (top
 * level, between sweeps), sm_close().  Records written by a worker's drain or
 * the timer go outside any sweep transaction: a sweep's transaction must
 * begin and end within one hold of db_mu.
 */
#ifndef IBSMD_SM_STORE_QUEUE_H
#define IBSMD_SM_STORE_QUEUE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "sm/util/sm_loop.h"

#define SM_STORE_QUEUE_RECS 4096	/* records waiting at most */
#define SM_STORE_QUEUE_BYTES (64u << 20)	/* and bytes (a counter pass at 27k hosts: ~4 MB) */
#define SM_STORE_RETRY_MS 20		/* the loop tries the store again this often */
#define SM_STORE_DROP_LOG_MS 10000	/* drops logged at most this often */

/* Write @data into @db (db_mu held, @db not NULL).  0 or -errno; on failure
 * the queue logs "@what: not stored: db_errmsg()". */
typedef int (*sm_store_fn)(struct db *db, void *data);

struct sm_store_rec;

struct sm_store_queue {
	pthread_mutex_t *db_mu;		/* the store's lock */
	struct db *const *db;		/* the store (NULL: closed, records are dropped) */
	struct sm_loop *const *loop;	/* the loop to retry from (NULL: none) */
	size_t max_recs, max_bytes;
	pthread_mutex_t mu;		/* the list below (a worker may drain it) */
	struct sm_store_rec *head, *tail;
	size_t n, bytes;
	uint64_t dropped;		/* records dropped since start */
	uint64_t drops_unrecorded;	/* not yet in an error event */
	uint64_t drop_logged_ms, drops_logged;	/* the last warning, and the count then */
	struct sm_timer timer;		/* loop thread only */
	struct sm_loop *timer_loop;	/* the loop the timer is armed in */
};

/* An empty queue in front of *@db, guarded by @db_mu, retried from *@loop. */
void sm_store_queue_init(struct sm_store_queue *q, pthread_mutex_t *db_mu, struct db *const *db,
			 struct sm_loop *const *loop, size_t max_recs, size_t max_bytes);

/*
 * Write @data (malloc()ed, @size bytes counted against the bound; the queue
 * owns and frees it) with @fn: now, after what is queued, when db_mu is free,
 * else later in order.  Loop thread.  0 when written or queued (or there is
 * no store, or @q was never initialised: dropped silently), the write's
 * -errno when it failed now.
 */
int sm_store_put(struct sm_store_queue *q, sm_store_fn fn, void *data, size_t size,
		 const char *what);

/* An event of @kind about @guid (0: none) port @port (-1: none), outside any
 * sweep, stamped with the store's clock now (sm_store_put()). */
int sm_store_event(struct sm_store_queue *q, const char *kind, uint64_t guid, int port,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Set status @key (a string constant) to @value (sm_store_put()). */
int sm_store_status(struct sm_store_queue *q, const char *key, const char *value);

/* Write what is queued if db_mu is free; true when nothing is left.  Loop
 * thread (the timer calls it). */
bool sm_store_queue_flush(struct sm_store_queue *q);

/* Write what is queued; the caller holds db_mu (a worker at the end of its
 * store: the loop's records then follow the sweep without a timer's delay). */
void sm_store_queue_drain_locked(struct sm_store_queue *q);

/* Records waiting, and dropped since start. */
void sm_store_queue_counts(struct sm_store_queue *q, size_t *queued, uint64_t *dropped);

/* Stop retrying from the loop (before it is freed); what waits stays queued. */
void sm_store_queue_detach(struct sm_store_queue *q);

/* At shutdown: wait for db_mu, write what is queued, free it all. */
void sm_store_queue_close(struct sm_store_queue *q);

#endif

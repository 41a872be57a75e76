/* SPDX-License-Identifier: MIT */
/*
 * sm_loop.h - the daemon's one event loop: file descriptors, timers, workers.
 *
 * Everything the daemon waits for goes through one loop: the transport, the
 * control socket and its clients, signals (a signalfd), timers on the
 * monotonic clock, and CPU-heavy work handed to a worker thread.  The loop
 * sleeps in epoll_wait() until the next timer is due or an fd is ready: there
 * is no fixed-period polling.
 *
 * Nesting: the heavy sweep is a plain sequence of stages.  When a stage waits
 * (for MADs, through the rpc layer's waiter, or for a worker), it runs the
 * loop from inside the stage, so clients, signals and timers are served
 * throughout.  Handlers must therefore only record what they saw (set a flag,
 * answer a client, arm a timer) and never start a sweep themselves: sweeps
 * start from the top level of the loop (sm_daemon.c).
 *
 * A file descriptor epoll cannot watch (libumad2sim's fake umad fd under
 * ibsim) is watched by a small thread that poll()s it and wakes the loop
 * through an eventfd; the loop's handler then runs on the loop thread as for
 * any other fd.
 */
#ifndef IBSMD_SM_LOOP_H
#define IBSMD_SM_LOOP_H

#include <stdbool.h>
#include <stdint.h>

struct sm_loop;

typedef void (*sm_loop_fd_fn)(void *ctx, uint32_t events);
typedef void (*sm_loop_timer_fn)(void *ctx);

/* A timer the caller owns (embed it); armed at most once at a time. */
struct sm_timer {
	uint64_t due_ms;	/* mad_now_ms() clock */
	sm_loop_timer_fn fn;
	void *ctx;
	bool armed;
	struct sm_timer *next;
};

/* A new loop.  NULL with errno on failure. */
struct sm_loop *sm_loop_new(void);
void sm_loop_free(struct sm_loop *l);
/* Whether the worker of the last loop freed while a job still ran on it
 * (sm_loop_free() keeps that loop) is still at work: a program that goes on
 * after stopping an SM (a test) waits for it before freeing what it reads. */
bool sm_loop_left_working(void);

/* Call @fn(@ctx, events) on the loop thread whenever @fd is ready for
 * @events (EPOLLIN, EPOLLOUT...).  0 or -errno. */
int sm_loop_add_fd(struct sm_loop *l, int fd, uint32_t events, sm_loop_fd_fn fn, void *ctx);
/* Stop watching @fd (before closing it). */
void sm_loop_del_fd(struct sm_loop *l, int fd);

void sm_timer_init(struct sm_timer *t, sm_loop_timer_fn fn, void *ctx);
/* (Re)arm @t to fire once at @due_ms, or @in_ms from now. */
void sm_timer_at(struct sm_loop *l, struct sm_timer *t, uint64_t due_ms);
void sm_timer_in(struct sm_loop *l, struct sm_timer *t, uint64_t in_ms);
void sm_timer_cancel(struct sm_loop *l, struct sm_timer *t);

/*
 * Wait up to @max_wait_ms (-1: until something happens) for the next ready fd
 * or due timer, and run every handler that is ready.  The number of handlers
 * run, or -errno.
 */
int sm_loop_run_once(struct sm_loop *l, int max_wait_ms);

/* How deep the loop is running inside its own handlers (0 at the top). */
unsigned sm_loop_depth(const struct sm_loop *l);

/*
 * Run @fn(@arg) on a worker thread while this thread keeps running the loop,
 * and return @fn's result.  When @cancel becomes true before @fn is done,
 * returns -ECANCELED at once and the worker is left to finish on its own:
 * @arg must then stay valid until the process exits.
 */
int sm_loop_offload(struct sm_loop *l, int (*fn)(void *arg), void *arg,
		    const volatile bool *cancel);

/* The same in two steps, so this thread can do something else meanwhile:
 * start @fn(@arg) on a worker (NULL when no thread could be had: nothing ran),
 * then wait for it, running the loop, as sm_loop_offload() does. */
struct sm_loop_job;
struct sm_loop_job *sm_loop_job_start(struct sm_loop *l, int (*fn)(void *arg), void *arg);
int sm_loop_job_wait(struct sm_loop *l, struct sm_loop_job *j, const volatile bool *cancel);

#endif

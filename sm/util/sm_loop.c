// SPDX-License-Identifier: MIT
/*
 * sm_loop.c - the event loop (see sm_loop.h).
 *
 * Data: an epoll set whose entries point at registrations (fd, handler); a
 * list of armed timers sorted by due time; an eventfd that worker threads and
 * fd watchers write to wake the loop.  A registration removed while handlers
 * run is only marked dead and freed once the outermost run_once() returns, so
 * an event already fetched for it (by this or an enclosing iteration) is
 * skipped, never dispatched to freed memory.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "mad/mad_transport.h"
#include "sm/util/sm_loop.h"

#define MAX_EVENTS 32
#define WATCH_POLL_MS 100	/* how soon a watcher thread notices it must stop */

struct watcher;

struct reg {
	int fd;
	sm_loop_fd_fn fn;
	void *ctx;
	bool dead;
	struct watcher *w;	/* fds epoll cannot watch */
	struct reg *next;	/* all registrations, live and dead */
};

/* A thread that poll()s one fd and wakes the loop through @efd; it waits for
 * the loop's handler to have run (@go) before it polls again, because the fd
 * stays readable until the handler reads it. */
struct watcher {
	int fd, efd;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool go, stop;
};

struct sm_loop {
	int epfd;
	int wakefd;		/* eventfd: a worker finished */
	struct reg *regs;
	struct sm_timer *timers;	/* armed, by due time */
	unsigned depth;
	bool abandoned;		/* a worker was left running: the loop is never freed */
	atomic_int workers;	/* worker threads not yet past their last touch of it */
};

static void on_wake(void *ctx, uint32_t events)
{
	struct sm_loop *l = ctx;
	uint64_t n;

	(void)events;
	if (read(l->wakefd, &n, sizeof(n)) < 0) {
		/* EAGAIN: another iteration consumed it already */
	}
}

/* The loop a worker was left running with (sm_loop_free()); volatile, so
 * the store the compiler sees no reader of stays. */
static struct sm_loop *volatile left_running;

struct sm_loop *sm_loop_new(void)
{
	struct sm_loop *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->epfd = epoll_create1(EPOLL_CLOEXEC);
	l->wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (l->epfd < 0 || l->wakefd < 0 ||
	    sm_loop_add_fd(l, l->wakefd, EPOLLIN, on_wake, l)) {
		int err = errno;
		sm_loop_free(l);
		errno = err;
		return NULL;
	}
	return l;
}

static void *watch_thread(void *arg)
{
	struct watcher *w = arg;

	pthread_mutex_lock(&w->mu);
	while (!w->stop) {
		while (!w->go && !w->stop)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->stop)
			break;
		pthread_mutex_unlock(&w->mu);
		struct pollfd p = { .fd = w->fd, .events = POLLIN };
		int rc = poll(&p, 1, WATCH_POLL_MS);
		pthread_mutex_lock(&w->mu);
		if (rc > 0 && !w->stop) {
			uint64_t one = 1;
			w->go = false;
			if (write(w->efd, &one, sizeof(one)) < 0)
				w->go = true;	/* counter full: it is readable anyway */
		}
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

static void watcher_stop(struct watcher *w)
{
	pthread_mutex_lock(&w->mu);
	w->stop = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	close(w->efd);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}

static void watcher_rearm(struct watcher *w)
{
	uint64_t n;

	if (read(w->efd, &n, sizeof(n)) < 0) {
		/* nothing pending: a spurious wake-up */
	}
	pthread_mutex_lock(&w->mu);
	w->go = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

static struct watcher *watcher_start(int fd)
{
	struct watcher *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->fd = fd;
	w->go = true;
	w->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	if (w->efd < 0 || pthread_create(&w->thread, NULL, watch_thread, w)) {
		if (w->efd >= 0)
			close(w->efd);
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		errno = EAGAIN;
		return NULL;
	}
	return w;
}

int sm_loop_add_fd(struct sm_loop *l, int fd, uint32_t events, sm_loop_fd_fn fn, void *ctx)
{
	struct reg *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	*r = (struct reg){ .fd = fd, .fn = fn, .ctx = ctx };
	struct epoll_event ev = { .events = events, .data.ptr = r };
	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		if ((errno != EPERM && errno != EBADF) || events != EPOLLIN ||
		    !(r->w = watcher_start(fd))) {
			int err = errno;
			free(r);
			return -err;
		}
		ev.events = EPOLLIN;
		if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, r->w->efd, &ev)) {
			int err = errno;
			watcher_stop(r->w);
			free(r);
			return -err;
		}
	}
	r->next = l->regs;
	l->regs = r;
	return 0;
}

static void reg_release(struct sm_loop *l, struct reg *r)
{
	epoll_ctl(l->epfd, EPOLL_CTL_DEL, r->w ? r->w->efd : r->fd, NULL);
	if (r->w)
		watcher_stop(r->w);
	r->w = NULL;
	r->dead = true;
}

/* Free dead registrations: only when no handler of this loop is running. */
static void reap(struct sm_loop *l)
{
	for (struct reg **p = &l->regs; *p;) {
		struct reg *r = *p;
		if (r->dead) {
			*p = r->next;
			free(r);
		} else {
			p = &r->next;
		}
	}
}

void sm_loop_del_fd(struct sm_loop *l, int fd)
{
	for (struct reg *r = l->regs; r; r = r->next)
		if (!r->dead && r->fd == fd) {
			reg_release(l, r);
			break;
		}
	if (!l->depth)
		reap(l);
}

void sm_loop_free(struct sm_loop *l)
{
	if (!l)
		return;
	for (struct reg *r = l->regs; r; r = r->next)	/* watcher threads stop here */
		if (!r->dead)
			reg_release(l, r);
	reap(l);
	if (l->abandoned) {	/* a worker may still write wakefd: exit frees the rest */
		left_running = l;	/* kept reachable meanwhile (leak checkers) */
		return;
	}
	while (atomic_load(&l->workers))	/* one between its result and its wake-up */
		sched_yield();
	if (l->epfd >= 0)
		close(l->epfd);
	if (l->wakefd >= 0)
		close(l->wakefd);
	free(l);
}

bool sm_loop_left_working(void)
{
	struct sm_loop *l = left_running;

	return l && atomic_load(&l->workers) > 0;
}

void sm_timer_init(struct sm_timer *t, sm_loop_timer_fn fn, void *ctx)
{
	*t = (struct sm_timer){ .fn = fn, .ctx = ctx };
}

void sm_timer_cancel(struct sm_loop *l, struct sm_timer *t)
{
	if (!t->armed)
		return;
	for (struct sm_timer **p = &l->timers; *p; p = &(*p)->next)
		if (*p == t) {
			*p = t->next;
			break;
		}
	t->armed = false;
	t->next = NULL;
}

void sm_timer_at(struct sm_loop *l, struct sm_timer *t, uint64_t due_ms)
{
	struct sm_timer **p = &l->timers;

	sm_timer_cancel(l, t);
	while (*p && (*p)->due_ms <= due_ms)
		p = &(*p)->next;
	t->due_ms = due_ms;
	t->next = *p;
	t->armed = true;
	*p = t;
}

void sm_timer_in(struct sm_loop *l, struct sm_timer *t, uint64_t in_ms)
{
	sm_timer_at(l, t, mad_now_ms() + in_ms);
}

/* Run every timer due by now; each is disarmed before its handler runs, so
 * the handler may arm it again. */
static int run_timers(struct sm_loop *l)
{
	uint64_t now = mad_now_ms();
	int ran = 0;

	while (l->timers && l->timers->due_ms <= now) {
		struct sm_timer *t = l->timers;
		sm_timer_cancel(l, t);
		t->fn(t->ctx);
		ran++;
	}
	return ran;
}

int sm_loop_run_once(struct sm_loop *l, int max_wait_ms)
{
	struct epoll_event ev[MAX_EVENTS];
	int wait = max_wait_ms;

	if (l->timers) {
		uint64_t now = mad_now_ms(), due = l->timers->due_ms;
		int until = due > now ? (int)(due - now) : 0;
		if (wait < 0 || until < wait)
			wait = until;
	}
	int n = epoll_wait(l->epfd, ev, MAX_EVENTS, wait);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	l->depth++;
	int ran = 0;
	for (int i = 0; i < n; i++) {
		struct reg *r = ev[i].data.ptr;
		if (r->dead)
			continue;
		r->fn(r->ctx, r->w ? EPOLLIN : ev[i].events);
		if (r->w && !r->dead)	/* the handler has read what was there */
			watcher_rearm(r->w);
		ran++;
	}
	ran += run_timers(l);
	if (!--l->depth)
		reap(l);
	return ran;
}

unsigned sm_loop_depth(const struct sm_loop *l)
{
	return l->depth;
}

enum { JOB_RUNNING, JOB_DONE, JOB_ABANDONED };

struct sm_loop_job {
	int (*fn)(void *arg);
	void *arg;
	int rc;
	atomic_int state;
	struct sm_loop *loop;
};

static void *job_thread(void *arg)
{
	struct sm_loop_job *j = arg;
	struct sm_loop *l = j->loop;
	uint64_t one = 1;

	j->rc = j->fn(j->arg);
	if (atomic_exchange(&j->state, JOB_DONE) == JOB_ABANDONED)
		free(j);	/* nobody waits; the loop is never freed then */
	else if (write(l->wakefd, &one, sizeof(one)) < 0) {
		/* the counter is full: the loop is awake anyway */
	}
	atomic_fetch_sub(&l->workers, 1);	/* the last touch of the loop */
	return NULL;
}

struct sm_loop_job *sm_loop_job_start(struct sm_loop *l, int (*fn)(void *arg), void *arg)
{
	struct sm_loop_job *j = calloc(1, sizeof(*j));
	pthread_attr_t attr;
	pthread_t th;

	if (!j)
		return NULL;
	*j = (struct sm_loop_job){ .fn = fn, .arg = arg, .loop = l };
	atomic_init(&j->state, JOB_RUNNING);
	atomic_fetch_add(&l->workers, 1);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	int rc = pthread_create(&th, &attr, job_thread, j);
	pthread_attr_destroy(&attr);
	if (rc) {
		atomic_fetch_sub(&l->workers, 1);
		free(j);
		return NULL;
	}
	return j;
}

int sm_loop_job_wait(struct sm_loop *l, struct sm_loop_job *j, const volatile bool *cancel)
{
	while (atomic_load(&j->state) != JOB_DONE) {
		if (cancel && *cancel) {
			int expected = JOB_RUNNING;
			if (atomic_compare_exchange_strong(&j->state, &expected, JOB_ABANDONED)) {
				l->abandoned = true;
				return -ECANCELED;
			}
			break;	/* it finished meanwhile */
		}
		if (sm_loop_run_once(l, -1) < 0) {
			/* the loop broke: wait for the worker without it */
			while (atomic_load(&j->state) != JOB_DONE)
				usleep(1000);
		}
	}
	int rc = j->rc;
	free(j);
	return rc;
}

int sm_loop_offload(struct sm_loop *l, int (*fn)(void *arg), void *arg,
		    const volatile bool *cancel)
{
	struct sm_loop_job *j = sm_loop_job_start(l, fn, arg);

	return j ? sm_loop_job_wait(l, j, cancel) : fn(arg);	/* no thread: do it here */
}

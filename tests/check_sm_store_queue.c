// SPDX-License-Identifier: MIT
/*
 * check_sm_store_queue.c - the loop thread's store writes (sm_store_queue.h):
 * written at once when the store is free, else queued in order, bounded with
 * the oldest dropped and counted, written by the loop's timer, a worker's
 * drain or the close; events keep the time they happened.  Then the daemon's
 * case: a worker holds the store for 300 ms while traps come in and a control
 * client asks for the status: the answer comes at once and every trap's event
 * is stored afterwards, in order, with the time it was taken.
 */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sm/sm_ctl.h"
#include "sm/util/sm_log.h"
#include "sm/sa/sm_part_store.h"
#include "sm/telemetry/sm_perf.h"
#include "sm/core/sm_store_queue.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sa/sm_sa.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

/* ---- the queue alone, with a writer that notes what it writes ---- */

static int written[64];
static size_t nwritten;
static pthread_mutex_t mu;
static struct db *db;
static struct sm_loop *no_loop;
static struct sm_store_queue q;

static int note(struct db *d, void *data)
{
	(void)d;
	ck_assert_uint_lt(nwritten, 64);
	written[nwritten++] = *(int *)data;
	return 0;
}

static int put(struct sm_store_queue *sq, int v, size_t size)
{
	int *p = malloc(sizeof(*p));

	ck_assert_ptr_nonnull(p);
	*p = v;
	return sm_store_put(sq, note, p, size, "a test record");
}

static void assert_written(const int *want, size_t n)
{
	ck_assert_uint_eq(nwritten, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(written[i], want[i]);
}

static size_t queued(struct sm_store_queue *sq, uint64_t *dropped)
{
	size_t n;
	uint64_t d;

	sm_store_queue_counts(sq, &n, &d);
	if (dropped)
		*dropped = d;
	return n;
}

static void unit_setup(void)
{
	char err[256];

	fixture_setup();
	ck_assert_int_eq(db_open(dbpath, DB_WRITER, &db, err, sizeof(err)), 0);
	pthread_mutex_init(&mu, NULL);
	nwritten = 0;
	no_loop = NULL;
	sm_store_queue_init(&q, &mu, &db, &no_loop, 4, 0);
}

static void unit_teardown(void)
{
	sm_store_queue_close(&q);
	db_close(db);
	db = NULL;
	pthread_mutex_destroy(&mu);
	fixture_teardown();
}

struct kinds {
	const char *kind;
	int64_t time_ms[16];
	char detail[16][160];
	size_t n;
};

static int note_event(void *arg, const struct db_event *ev)
{
	struct kinds *k = arg;

	if (strcmp(ev->kind, k->kind) || k->n >= 16)
		return 0;
	k->time_ms[k->n] = ev->time_ms;
	snprintf(k->detail[k->n++], sizeof(k->detail[0]), "%s", ev->detail);
	return 0;
}

static struct kinds events(struct db *d, const char *kind)
{
	struct kinds k = { .kind = kind };

	ck_assert_int_eq(db_events_each(d, 0, note_event, &k), 0);
	return k;
}

START_TEST(test_free_store_written_at_once)
{
	ck_assert_int_eq(put(&q, 1, 4), 0);
	assert_written((int[]){ 1 }, 1);
	ck_assert_uint_eq(queued(&q, NULL), 0);
}
END_TEST

/* While the store is held (here by this thread: trylock fails as it would
 * for a worker), records wait; the first one put after it is free is
 * written after them. */
START_TEST(test_held_store_queues_in_order)
{
	pthread_mutex_lock(&mu);
	for (int i = 1; i <= 3; i++)
		ck_assert_int_eq(put(&q, i, 4), 0);
	ck_assert_uint_eq(nwritten, 0);
	ck_assert(!sm_store_queue_flush(&q));	/* still held: nothing written */
	ck_assert_uint_eq(queued(&q, NULL), 3);
	pthread_mutex_unlock(&mu);
	ck_assert_int_eq(put(&q, 4, 4), 0);
	assert_written((int[]){ 1, 2, 3, 4 }, 4);
	ck_assert_uint_eq(queued(&q, NULL), 0);
}
END_TEST

/* Past the bound the oldest go, counted; the count becomes an error event
 * once the store is free. */
START_TEST(test_bound_drops_oldest)
{
	uint64_t dropped;

	pthread_mutex_lock(&mu);
	for (int i = 1; i <= 6; i++)
		put(&q, i, 4);
	ck_assert_uint_eq(queued(&q, &dropped), 4);
	ck_assert_uint_eq(dropped, 2);
	pthread_mutex_unlock(&mu);
	ck_assert(sm_store_queue_flush(&q));
	assert_written((int[]){ 3, 4, 5, 6 }, 4);
	ck_assert_uint_eq(queued(&q, &dropped), 0);
	ck_assert_uint_eq(dropped, 2);	/* since start */
	struct kinds k = events(db, DB_EV_ERROR);
	ck_assert_uint_eq(k.n, 1);
	ck_assert_ptr_nonnull(strstr(k.detail[0], "2 records"));
	/* reported once */
	ck_assert(sm_store_queue_flush(&q));
	ck_assert_uint_eq(events(db, DB_EV_ERROR).n, 1);
}
END_TEST

START_TEST(test_byte_bound)
{
	uint64_t dropped;

	sm_store_queue_close(&q);
	sm_store_queue_init(&q, &mu, &db, &no_loop, 100, 2500);
	pthread_mutex_lock(&mu);
	for (int i = 1; i <= 3; i++)
		put(&q, i, 1000);	/* with the queue's own bytes: 2 fit */
	ck_assert_uint_eq(queued(&q, &dropped), 2);
	ck_assert_uint_eq(dropped, 1);
	/* one record bigger than the bound alone is not kept either */
	put(&q, 4, 3000);
	ck_assert_uint_eq(queued(&q, &dropped), 0);
	ck_assert_uint_eq(dropped, 4);
	pthread_mutex_unlock(&mu);
	put(&q, 5, 4);
	assert_written((int[]){ 5 }, 1);
}
END_TEST

/* An event written late keeps the store's time of when it was put. */
START_TEST(test_event_keeps_its_time)
{
	db_freeze_clock(db, 1000000);
	pthread_mutex_lock(&mu);
	ck_assert_int_eq(sm_store_event(&q, DB_EV_TRAP, 0x42, 3, "first %d", 1), 0);
	db_freeze_clock(db, 2000000);
	ck_assert_int_eq(sm_store_status(&q, DB_ST_SM_STATE, "MASTER"), 0);
	ck_assert_int_eq(sm_store_event(&q, DB_EV_TRAP, 0, -1, "second"), 0);
	db_freeze_clock(db, 3000000);
	pthread_mutex_unlock(&mu);
	ck_assert(sm_store_queue_flush(&q));
	struct kinds k = events(db, DB_EV_TRAP);
	ck_assert_uint_eq(k.n, 2);
	ck_assert_int_eq(k.time_ms[0], 1000000);
	ck_assert_str_eq(k.detail[0], "first 1");
	ck_assert_int_eq(k.time_ms[1], 2000000);
	ck_assert_str_eq(k.detail[1], "second");
	char v[32];
	ck_assert_int_eq(db_status_get(db, DB_ST_SM_STATE, v, sizeof(v)), 0);
	ck_assert_str_eq(v, "MASTER");
}
END_TEST

/* db_event_add_at: the time and kind are checked, a missing detail is "". */
START_TEST(test_event_add_at_checks)
{
	ck_assert_int_eq(db_event_add_at(db, 0, DB_EV_TRAP, 0, -1, "x"), -EINVAL);
	ck_assert_int_eq(db_event_add_at(db, -5, DB_EV_TRAP, 0, -1, "x"), -EINVAL);
	ck_assert_int_eq(db_event_add_at(db, 1000, "", 0, -1, "x"), -EINVAL);
	ck_assert_int_eq(db_event_add_at(db, 1000, NULL, 0, -1, "x"), -EINVAL);
	ck_assert_int_eq(db_event_add_at(db, 1000, DB_EV_TRAP, 0x7, 2, NULL), 0);
	struct kinds k = events(db, DB_EV_TRAP);
	ck_assert_uint_eq(k.n, 1);
	ck_assert_int_eq(k.time_ms[0], 1000);
	ck_assert_str_eq(k.detail[0], "");
}
END_TEST

START_TEST(test_close_writes_what_waits)
{
	pthread_mutex_lock(&mu);
	put(&q, 7, 4);
	put(&q, 8, 4);
	pthread_mutex_unlock(&mu);
	ck_assert_uint_eq(nwritten, 0);
	sm_store_queue_close(&q);
	assert_written((int[]){ 7, 8 }, 2);
	sm_store_queue_init(&q, &mu, &db, &no_loop, 4, 0);	/* for the teardown */
}
END_TEST

/* Without a store (closed) records are dropped, never written to NULL. */
START_TEST(test_no_store_drops_silently)
{
	struct db *none = NULL;
	struct sm_store_queue nq;

	sm_store_queue_init(&nq, &mu, &none, &no_loop, 4, 0);
	ck_assert_int_eq(put(&nq, 1, 4), 0);
	ck_assert_int_eq(sm_store_event(&nq, DB_EV_TRAP, 0, -1, "x"), 0);
	ck_assert_uint_eq(queued(&nq, NULL), 0);
	ck_assert_uint_eq(nwritten, 0);
	sm_store_queue_close(&nq);
	/* nor through a queue never initialised (a struct sm zeroed by hand) */
	struct sm_store_queue zq = { 0 };
	ck_assert_int_eq(sm_store_event(&zq, DB_EV_TRAP, 0, -1, "x"), 0);
	ck_assert_int_eq(put(&zq, 2, 4), 0);
	ck_assert_uint_eq(nwritten, 0);
	sm_store_queue_close(&zq);
}
END_TEST

/* A worker that holds the store: it drains the queue before letting go, or
 * the loop's timer writes it once it did. */
struct holder {
	pthread_mutex_t *mu;
	struct sm_store_queue *q;	/* drain before the unlock (NULL: don't) */
	unsigned hold_ms;
	atomic_bool held;
	int64_t released_ms;		/* CLOCK_REALTIME */
	struct db *const *db;
};

static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *hold(void *arg)
{
	struct holder *h = arg;

	pthread_mutex_lock(h->mu);
	atomic_store(&h->held, true);
	usleep(h->hold_ms * 1000);
	if (h->q)
		sm_store_queue_drain_locked(h->q);
	h->released_ms = wall_ms();
	pthread_mutex_unlock(h->mu);
	return NULL;
}

static void hold_start(struct holder *h, pthread_t *th)
{
	ck_assert_int_eq(pthread_create(th, NULL, hold, h), 0);
	while (!atomic_load(&h->held))
		usleep(1000);
}

START_TEST(test_worker_drains_before_release)
{
	struct holder h = { .mu = &mu, .q = &q, .hold_ms = 50 };
	pthread_t th;

	hold_start(&h, &th);
	put(&q, 1, 4);
	put(&q, 2, 4);
	ck_assert_uint_eq(nwritten, 0);
	pthread_join(th, NULL);
	assert_written((int[]){ 1, 2 }, 2);
	ck_assert_uint_eq(queued(&q, NULL), 0);
}
END_TEST

START_TEST(test_loop_timer_flushes)
{
	struct holder h = { .mu = &mu, .hold_ms = 100 };
	pthread_t th;

	no_loop = sm_loop_new();
	ck_assert_ptr_nonnull(no_loop);
	hold_start(&h, &th);
	put(&q, 1, 4);
	ck_assert(q.timer.armed);
	uint64_t t0 = mad_now_ms();
	while (queued(&q, NULL) && mad_now_ms() - t0 < 2000)
		sm_loop_run_once(no_loop, 50);
	pthread_join(th, NULL);
	assert_written((int[]){ 1 }, 1);
	ck_assert(!q.timer.armed);	/* nothing left: not re-armed */
	sm_store_queue_detach(&q);
	sm_loop_free(no_loop);
	no_loop = NULL;
}
END_TEST

/* ---- the daemon's loop while a worker stores ---- */

static int ctl_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%.100s", path);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

#define TRAPS 8
#define HOLD_MS 300

START_TEST(test_loop_serves_while_worker_stores)
{
	struct sm sm;
	struct sm_ctl *ctl = NULL;
	char sock[300], reply[1100];
	pthread_t th;
	int64_t taken[TRAPS][2];

	sm_start_file(&sm, "twoswitch.topo");
	sm.cfg.trap_max_per_s = 100;
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	uint32_t sw[2] = { sim_node_named(&sm, "SA"), sim_node_named(&sm, "SB") };
	sm.loop = sm_loop_new();
	ck_assert_ptr_nonnull(sm.loop);
	snprintf(sock, sizeof(sock), "%s/ctl.sock", dbdir);
	ck_assert_int_eq(sm_ctl_open(&sm, sock, &ctl), 0);
	long traps_before = events_of_kind(&sm, DB_EV_TRAP);

	struct holder h = { .mu = &sm.db_mu, .hold_ms = HOLD_MS };
	hold_start(&h, &th);
	int64_t held_ms = wall_ms();
	int fd = ctl_connect(sock);
	uint64_t t0 = mad_now_ms(), answered = 0;
	ck_assert_int_eq(write(fd, "status json\n", 12), 12);
	size_t got = 0;
	for (int i = 0; i < TRAPS; i++) {
		ck_assert_int_eq(sim_node_trap(fab(&sm), sw[i % 2]), 0);
		taken[i][0] = wall_ms();
		ck_assert_int_ge(mad_rpc_poll(sm.rpc, 0), 0);
		taken[i][1] = wall_ms();
	}
	while (!answered && mad_now_ms() - t0 < 2000) {
		sm_loop_run_once(sm.loop, 5);
		ssize_t n = recv(fd, reply + got, sizeof(reply) - 1 - got, MSG_DONTWAIT);
		if (n > 0)
			got += (size_t)n;
		if (got && reply[got - 1] == '\n')
			answered = mad_now_ms();
	}
	reply[got] = '\0';
	ck_assert_msg(answered, "no status answer");
	/* well before the hold ends (a loaded machine's scheduling aside): the
	 * answer did not wait for the store */
	ck_assert_msg(answered - t0 < HOLD_MS / 2,
		      "the status took %llu ms while the store was held",
		      (unsigned long long)(answered - t0));
	ck_assert_ptr_nonnull(strstr(reply, "\"store_queued\": " "8"));
	ck_assert(atomic_load(&h.held) && taken[TRAPS - 1][1] - held_ms < HOLD_MS);
	close(fd);
	pthread_join(th, NULL);
	/* the loop's timer writes them once the store is free */
	while (queued(&sm.store, NULL) && mad_now_ms() - t0 < 3000)
		sm_loop_run_once(sm.loop, 50);
	ck_assert_uint_eq(queued(&sm.store, NULL), 0);

	struct kinds k = events(sm.db, DB_EV_TRAP);
	ck_assert_uint_eq(k.n, (size_t)traps_before + TRAPS);
	for (int i = 0; i < TRAPS; i++) {
		size_t e = (size_t)traps_before + (size_t)i;
		char want[160];
		struct mad_port_info pi;
		ck_assert_int_eq(sim_get_port_info(fab(&sm), sw[i % 2], 0, &pi), 0);
		uint16_t lid = pi.lid;
		snprintf(want, sizeof(want), "trap 128 from LID %u (\"%s\" 0x%016" PRIx64
			 " port 0), about itself", lid, sim_fabric_topo(fab(&sm))->nodes[sw[i % 2]].desc,
			 sim_fabric_topo(fab(&sm))->nodes[sw[i % 2]].guid);
		ck_assert_str_eq(k.detail[e], want);
		/* the time it was taken, not when it was written */
		ck_assert_int_ge(k.time_ms[e], taken[i][0]);
		ck_assert_int_le(k.time_ms[e], taken[i][1]);
		ck_assert_int_lt(k.time_ms[e], h.released_ms);
	}
	sm_ctl_close(ctl);
	sm_store_queue_detach(&sm.store);
	sm_loop_free(sm.loop);
	sm.loop = NULL;
	sm_close(&sm);
}
END_TEST

struct groups {
	size_t n;
	char first[64];
	uint16_t first_mlid;
};

static int count_group(void *arg, const struct db_mcast_group *g)
{
	struct groups *gs = arg;

	if (!gs->n++) {
		snprintf(gs->first, sizeof(gs->first), "%s", g->mgid);
		gs->first_mlid = g->mlid;
	}
	return 0;
}

static int count_total(void *arg, const struct db_port_row *r)
{
	(void)r;
	++*(size_t *)arg;
	return 0;
}

/* The records that own more than a fixed struct (a counter pass's samples,
 * the multicast groups with their MGID texts) survive the wait whole. */
START_TEST(test_queued_batches_reach_the_store)
{
	struct sm sm;
	struct sm_perf_stats st;
	pthread_t th;
	struct groups groups = { 0 };
	size_t totals = 0;

	sm_start_file(&sm, "twoswitch.topo");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_ge(sm.sa->mcast.n, 1);
	ck_assert_int_eq(db_mcast_save(sm.db, NULL, 0, NULL, 0), 0);

	struct holder h = { .mu = &sm.db_mu, .hold_ms = 200 };
	hold_start(&h, &th);
	ck_assert_int_eq(sm_perf_pass(&sm, NULL, NULL, &st), 0);
	ck_assert_uint_gt(st.ports, 0);
	ck_assert_int_eq(sm_mcast_store(&sm), 0);
	ck_assert_uint_eq(queued(&sm.store, NULL), 2);
	pthread_join(th, NULL);
	ck_assert(sm_store_queue_flush(&sm.store));

	ck_assert_int_eq(db_mcast_each(sm.db, count_group, &groups), 0);
	ck_assert_uint_eq(groups.n, sm.sa->mcast.n);
	char want[INET6_ADDRSTRLEN];	/* groups by MLID: the first is groups[0] when one */
	inet_ntop(AF_INET6, sm.sa->mcast.groups[0]->mgid, want, sizeof(want));
	if (sm.sa->mcast.n == 1)
		ck_assert_str_eq(groups.first, want);
	ck_assert_uint_ne(groups.first_mlid, 0);
	ck_assert_int_eq(db_counters_totals_each(sm.db, count_total, &totals), 0);
	ck_assert_uint_eq(totals, st.ports);
	sm_close(&sm);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_store_queue");
	TCase *tc = tcase_create("queue");

	tcase_add_checked_fixture(tc, unit_setup, unit_teardown);
	tcase_add_test(tc, test_free_store_written_at_once);
	tcase_add_test(tc, test_held_store_queues_in_order);
	tcase_add_test(tc, test_bound_drops_oldest);
	tcase_add_test(tc, test_byte_bound);
	tcase_add_test(tc, test_event_keeps_its_time);
	tcase_add_test(tc, test_event_add_at_checks);
	tcase_add_test(tc, test_close_writes_what_waits);
	tcase_add_test(tc, test_no_store_drops_silently);
	tcase_add_test(tc, test_worker_drains_before_release);
	tcase_add_test(tc, test_loop_timer_flushes);
	suite_add_tcase(s, tc);
	tc = tcase_create("daemon");
	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_loop_serves_while_worker_stores);
	tcase_add_test(tc, test_queued_batches_reach_the_store);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

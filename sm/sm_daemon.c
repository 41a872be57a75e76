// SPDX-License-Identifier: MIT
/*
 * sm_daemon.c - the SM as a service (see sm_daemon.h).
 *
 * Flow: the top level alternates between running the work that is due and
 * sleeping in the loop.  Handlers (signals, timers, the transport, control
 * clients) only record what happened: a flag here, sm_sweep_due() there.
 * Work runs at the top level, one piece at a time, in this order: reopen the
 * log, reload the configuration, let go of a dead port (or move to another
 * port of the port list), check the bound port, poll the master (in
 * STANDBY), open the port, a heavy sweep (discovery only in STANDBY), a light
 * sweep (MASTER; STANDBY too with ha.standby_sweeps, else a STANDBY only polls
 * its master, as OpenSM's does), a port counter pass (MASTER, sm_perf.h).  While a sweep waits for MADs the rpc layer
 * calls rpc_wait(), which runs the loop until the transport is readable, so
 * the control socket, signals and timers are served during every stage.
 *
 * The transport's fd: outside a sweep its handler lets the rpc layer take
 * what came (traps, SMInfo queries); inside a sweep's wait it only says
 * "readable" and the waiting stage reads.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "mad/mad_attr.h"
#include "sm/sm_ctl.h"
#include "sm/sm_daemon.h"
#include "sm/cc/sm_cc.h"
#include "sm/telemetry/sm_sim_traffic.h"
#include "sm/ha/sm_ha.h"
#include "sm/sm_metrics.h"
#include "sm/sm_metrics_http.h"
#include "sm/util/sm_log.h"
#include "sm/util/sm_loop.h"
#include "sm/util/sm_notify.h"
#include "sm/sa/sm_mcast_program.h"
#include "sm/telemetry/sm_perf.h"
#include "sm/sm_reload.h"
#include "sm/sa/sm_sa_store.h"
#include "sm/core/sm_state.h"
#include "sm/jobs/sm_jobs.h"
#include "sm/repair/sm_patch.h"
#include "sm/sa/sm_sa.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"
#include "sm/telemetry/sm_isolate.h"
#include "sm/telemetry/sm_perf_feed.h"

#define PORT_RETRY_MAX_MS 30000
#define PORT_CHECK_MS 1000	/* the bound port's state, with a port list to move in */
#define HEAVY_RETRY_MAX_MS 30000	/* when light sweeps are off */

struct daemon {
	struct sm *sm;
	struct sm_loop *loop;
	sm_reload_fn reload;
	void *reload_ctx;
	int sigfd;
	int tfd;			/* the transport's fd in the loop, or -1 */
	struct sm_ctl *ctl;
	struct sm_metrics_http *metrics_http;	/* metrics.listen's endpoint, or NULL */
	struct sm_timer light_timer, heavy_timer, port_timer, watchdog_timer, poll_timer;
	struct sm_timer perf_timer, port_check_timer;
	bool port_check_due, port_down_logged;
	uint64_t port_moved_ms;		/* when the SM took the port it is on */
	bool light_due, heavy_held, port_due, port_lost, reload_due, reopen_due, poll_due;
	bool perf_due;
	uint32_t perf_interval_s;	/* what perf_timer was armed with */
	bool in_wait, transport_ready;
	uint64_t heavy_backoff_ms, port_backoff_ms;
	bool ready_sent;
	bool port_opened;		/* the port was opened once in this run */
	int exit_rc;			/* why the daemon stopped by itself, or 0 */
	char port_error[sizeof(((struct sm *)0)->port_error)];	/* the last one logged */
	char move_error[sizeof(((struct sm *)0)->port_error)];	/* the same for moves */
};

static const int taken_signals[] = { SIGTERM, SIGINT, SIGHUP, SIGUSR1 };

void sm_daemon_block_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(taken_signals) / sizeof(taken_signals[0]); i++)
		sigaddset(&set, taken_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void on_signal(void *ctx, uint32_t events)
{
	struct daemon *d = ctx;
	struct signalfd_siginfo si;

	(void)events;
	while (read(d->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGHUP:
			d->reload_due = true;
			break;
		case SIGUSR1:
			d->reopen_due = true;
			break;
		default:
			if (!d->sm->stopping)
				sm_notice("signal %u: stopping", si.ssi_signo);
			d->sm->stopping = true;
		}
	}
}

static void on_transport(void *ctx, uint32_t events)
{
	struct daemon *d = ctx;

	(void)events;
	if (d->in_wait) {	/* a stage is waiting: it reads */
		d->transport_ready = true;
		return;
	}
	int rc = mad_rpc_poll(d->sm->rpc, 0);
	if (rc < 0 && rc != -EINTR && !d->port_lost) {
		sm_err("the transport failed: %s", strerror(-rc));
		d->port_lost = true;
	}
}

/* The rpc layer's waiter (mad_rpc.h): run the loop until the transport may be
 * readable or @wait_ms have passed. */
static int rpc_wait(void *ctx, int wait_ms)
{
	struct daemon *d = ctx;

	if (d->sm->stopping)
		return -ECANCELED;
	if (sm_loop_depth(d->loop) || d->tfd < 0)	/* inside a handler: no nesting */
		return wait_ms ? 1 : 0;
	uint64_t end = wait_ms < 0 ? UINT64_MAX : mad_now_ms() + (uint64_t)wait_ms;
	d->in_wait = true;
	d->transport_ready = false;
	for (;;) {
		uint64_t now = mad_now_ms();
		int left = end == UINT64_MAX ? -1 : end > now ? (int)(end - now) : 0;
		int rc = sm_loop_run_once(d->loop, left);
		if (rc < 0 || d->transport_ready || d->sm->stopping || !left)
			break;
	}
	d->in_wait = false;
	return d->sm->stopping ? -ECANCELED : 0;
}

static void on_light_timer(void *ctx)
{
	struct daemon *d = ctx;

	d->light_due = true;
	sm_timer_in(d->loop, &d->light_timer, (uint64_t)d->sm->cfg.sweep_interval_s * 1000);
}

static void arm_light_timer(struct daemon *d)
{
	sm_timer_cancel(d->loop, &d->light_timer);
	if (d->sm->cfg.sweep_interval_s)
		sm_timer_in(d->loop, &d->light_timer, (uint64_t)d->sm->cfg.sweep_interval_s * 1000);
}

static void arm_perf_timer(struct daemon *d)
{
	sm_timer_cancel(d->loop, &d->perf_timer);
	if (d->sm->cfg.perf_interval_s)
		sm_timer_in(d->loop, &d->perf_timer, (uint64_t)d->sm->cfg.perf_interval_s * 1000);
}

static void on_perf_timer(void *ctx)
{
	struct daemon *d = ctx;

	d->perf_due = true;
	arm_perf_timer(d);
}

/* STANDBY polls its master every ha.poll_interval_ms (sm_ha.c); the timer
 * ticks in every state, the poll only runs in STANDBY. */
static void on_poll_timer(void *ctx)
{
	struct daemon *d = ctx;

	d->poll_due = true;
	sm_timer_in(d->loop, &d->poll_timer, d->sm->cfg.ha_poll_interval_ms);
}

static void on_heavy_timer(void *ctx)
{
	struct daemon *d = ctx;

	d->heavy_held = false;
}

static void on_port_timer(void *ctx)
{
	struct daemon *d = ctx;

	d->port_due = true;
}

static void on_port_check_timer(void *ctx)
{
	struct daemon *d = ctx;

	d->port_check_due = true;
	sm_timer_in(d->loop, &d->port_check_timer, PORT_CHECK_MS);
}

/* Half the watchdog interval systemd asked for, at least 1 ms (a timer due
 * at once would re-arm itself forever). */
static uint64_t watchdog_period_ms(void)
{
	uint64_t half = sm_notify_watchdog_interval_ms() / 2;

	return half ? half : 1;
}

static void on_watchdog(void *ctx)
{
	struct daemon *d = ctx;

	sm_notify_watchdog();
	sm_timer_in(d->loop, &d->watchdog_timer, watchdog_period_ms());
}

static void detach_transport(struct daemon *d)
{
	if (d->tfd >= 0)
		sm_loop_del_fd(d->loop, d->tfd);
	d->tfd = -1;
}

static void attach_transport(struct daemon *d)
{
	struct sm *sm = d->sm;
	int fd = sm->t->ops->fd ? sm->t->ops->fd(sm->t) : -1;

	if (fd >= 0 && sm_loop_add_fd(d->loop, fd, EPOLLIN, on_transport, d) == 0)
		d->tfd = fd;
	else
		sm_warn("the transport's fd cannot be watched: MADs are read only during sweeps");
	mad_rpc_set_waiter(sm->rpc, rpc_wait, d);
}

/* Open the port, or wait for it: log each distinct failure once.  A device
 * or port the configuration names that is not there at start-up (or is no
 * InfiniBand port) stops the daemon: nothing would ever come of waiting.
 * One that is there without its link is waited for, and so is everything
 * else that may pass (a missing driver, another SM on the port); systemd
 * hears READY=1 and why in STATUS=, so `systemctl start` returns. */
static void try_port(struct daemon *d)
{
	struct sm *sm = d->sm;

	d->port_due = false;
	int rc = sm_open_port(sm, LOG_DEBUG, true);
	if (rc == -ENODEV && !d->port_opened) {
		sm_err("%s: stopping", sm->port_error);
		sm_notify_status("NOTACTIVE: %s", sm->port_error);
		d->exit_rc = rc;
		sm->stopping = true;
		return;
	}
	if (rc) {
		if (strcmp(sm->port_error, d->port_error) != 0) {
			sm_warn("waiting for the SM's port: %s (trying again, at most every %d s)",
				sm->port_error, PORT_RETRY_MAX_MS / 1000);
			sm_notify_status("NOTACTIVE: waiting for %s", sm->port_error);
		}
		if (!d->ready_sent) {	/* up and waiting: start-up is over */
			sm_notify_ready();
			d->ready_sent = true;
		}
		snprintf(d->port_error, sizeof(d->port_error), "%s", sm->port_error);
		sm_timer_in(d->loop, &d->port_timer, d->port_backoff_ms);
		if (d->port_backoff_ms < PORT_RETRY_MAX_MS)
			d->port_backoff_ms *= 2;
		return;
	}
	if (d->port_error[0])
		sm_notice("the SM's port is ready");
	d->port_opened = true;
	d->port_error[0] = '\0';
	d->port_backoff_ms = 1000;
	d->port_moved_ms = mad_now_ms();
	attach_transport(d);
}

/* Move to cfg.ports[@to]: the SM starts over there (NOT_ACTIVE, then
 * DISCOVERING: a heavy sweep from the new port), the move in the events. */
static int move_port(struct daemon *d, unsigned to, const char *why)
{
	struct sm *sm = d->sm;
	char from[sizeof(sm->port_name)], msg[2 * sizeof(sm->port_name) + 64];

	snprintf(from, sizeof(from), "%s", sm->port_name);
	detach_transport(d);
	int rc = sm_move_port(sm, to);
	attach_transport(d);
	if (rc) {	/* tried again at every check: said once */
		if (strcmp(sm->port_error, d->move_error) != 0)
			sm_err("SM port %s %s; cannot move to %s: %s", from, why,
			       sm->cfg.ports[to], sm->port_error);
		snprintf(d->move_error, sizeof(d->move_error), "%s", sm->port_error);
		return rc;
	}
	d->move_error[0] = '\0';
	snprintf(msg, sizeof(msg), "SM port %s %s; moving to %s", from, why, sm->port_name);
	sm_notice("%s", msg);
	sm_state_event(sm, SM_EV_PORT_LOST, msg);
	sm_state_event(sm, SM_EV_PORT_READY, sm->port_name);
	d->port_moved_ms = mad_now_ms();
	d->port_down_logged = false;
	return 0;
}

/* The bound port failed: to the first other port of the list with its link
 * up.  0 when the SM moved. */
static int move_off(struct daemon *d, const char *why)
{
	struct sm *sm = d->sm;
	int to = sm->port_idx >= 0 ? sm_port_pick(sm, sm->cfg.nports, sm->port_idx, false) : -1;

	if (to < 0) {
		if (sm->port_idx >= 0 && sm->cfg.nports > 1 && !d->port_down_logged)
			sm_warn("SM port %s %s; no other port of port: has its link up (%s)",
				sm->port_name, why, sm->port_error);
		d->port_down_logged = sm->port_idx >= 0;
		return -ENETDOWN;
	}
	return move_port(d, (unsigned)to, why);
}

/* With a port list: off the bound port when it is down, and back to a
 * preferred one when failback is on, that port is ACTIVE and the SM has
 * been on this one port_dwell seconds (so a flapping port moves it at
 * most twice a dwell). */
static void port_check(struct daemon *d)
{
	struct sm *sm = d->sm;
	struct mad_local_port lp;
	char why[256];

	d->port_check_due = false;
	if (!sm->rpc || sm->port_idx < 0)
		return;
	if (sm->t->ops->port_state(sm->t, sm->port_name, &lp, why, sizeof(why)) ||
	    lp.state == MAD_PORT_DOWN) {
		(void)move_off(d, "lost");
		return;
	}
	d->port_down_logged = false;
	if (!sm->cfg.port_failback || sm->port_idx == 0 ||
	    mad_now_ms() - d->port_moved_ms < (uint64_t)sm->cfg.port_dwell_s * 1000)
		return;
	int to = sm_port_pick(sm, (unsigned)sm->port_idx, -1, true);
	if (to >= 0)
		(void)move_port(d, (unsigned)to, "is not the preferred one (failback)");
}

static void drop_port(struct daemon *d)
{
	d->port_lost = false;
	if (move_off(d, "failed (the transport)") == 0)
		return;
	detach_transport(d);
	sm_close_port(d->sm);
	sm_state_event(d->sm, SM_EV_PORT_LOST, "the transport failed");
	d->port_due = true;
}

static void heavy(struct daemon *d)
{
	struct sm *sm = d->sm;

	if (sm->cfg.nports > 1)	/* never a sweep from a dead port when another is up */
		port_check(d);
	int rc = sm_sweep_heavy(sm);

	sm_metrics_write(sm, true);
	if (sm->stopping)
		return;
	if (rc == 0) {
		d->heavy_backoff_ms = 1000;
		if (sm->sm_state == MAD_SM_MASTER)
			sm_cc_sweep_done(sm);	/* CC follows the subnet's bring-up */
		if (!d->ready_sent &&
		    (sm->sm_state == MAD_SM_MASTER || sm->sm_state == MAD_SM_STANDBY)) {
			sm_notify_ready();
			d->ready_sent = true;
		}
	} else {
		/* retry, less and less often, up to once per sweep interval */
		uint64_t cap = sm->cfg.sweep_interval_s ? (uint64_t)sm->cfg.sweep_interval_s * 1000
							: HEAVY_RETRY_MAX_MS;
		d->heavy_held = true;
		sm_timer_in(d->loop, &d->heavy_timer, d->heavy_backoff_ms);
		if (d->heavy_backoff_ms < cap)
			d->heavy_backoff_ms *= 2;
	}
	sm_notify_status("%s; last heavy sweep: %s", mad_sm_state_name(sm->sm_state),
			 sm->last_result);
}

static void light(struct daemon *d)
{
	struct sm *sm = d->sm;

	d->light_due = false;
	int rc = sm_sweep_light(sm);
	sm_metrics_write(sm, false);	/* now and then */
	sm_isolate_tick(sm, mad_now_ms());
	if (rc < 0 && !sm->stopping)
		sm_err("light sweep failed: %s", strerror(-rc));
	if (rc > 0)
		sm_sweep_due(sm, "a light sweep found a change");
	else if (rc < 0 && !sm->stopping)
		sm_sweep_due(sm, "a light sweep failed");
}

/* A SIGHUP's reading, on the worker: the files, nothing of the SM. */
struct reload_job {
	sm_reload_fn fn;
	void *ctx;
	struct sm_reload r;
};

static int reload_read(void *arg)
{
	struct reload_job *j = arg;

	sm_reload_read(&j->r, j->fn, j->ctx);
	return 0;
}

/* SIGHUP: the files are read on the worker while the loop serves (a big
 * file never holds the control socket or the SA), then applied here. */
static void reload(struct daemon *d)
{
	struct sm *sm = d->sm;
	struct reload_job *j = calloc(1, sizeof(*j));

	d->reload_due = false;
	sm_notify_reloading();
	if (!j) {
		sm_err("SIGHUP: out of memory: the running configuration is kept");
	} else {
		j->fn = d->reload;
		j->ctx = d->reload_ctx;
		if (sm_offload(sm, reload_read, j) == -ECANCELED)
			return;	/* stopping: the worker, still reading, keeps j */
		if (j->r.rc) {
			sm_err("SIGHUP: the configuration was not reloaded, the running one is "
			       "kept: %s", j->r.err);
		} else {
			unsigned what = sm_reload_apply(sm, &j->r);
			if (what & SM_RELOAD_SWEEP_INTERVAL)
				arm_light_timer(d);
			if (j->r.cfg.perf_interval_s != d->perf_interval_s) {
				d->perf_interval_s = j->r.cfg.perf_interval_s;
				arm_perf_timer(d);
			}
			if ((what & SM_RELOAD_RPC) && sm->rpc)
				mad_rpc_set_waiter(sm->rpc, rpc_wait, d);
		}
		sm_reload_free(&j->r);
		free(j);
	}
	sm_notify_ready();	/* READY=1 ends RELOADING=1 */
}

/* A port counter pass stops for the work that comes before it in run_due()
 * (a heavy sweep it sees itself). */
static bool perf_yield(void *ctx)
{
	struct daemon *d = ctx;

	return d->light_due || d->reload_due || d->reopen_due || d->port_lost;
}

/* Run one piece of due work.  false when there was none. */
static bool run_due(struct daemon *d)
{
	struct sm *sm = d->sm;

	if (d->reopen_due) {
		d->reopen_due = false;
		if (sm_log_reopen())
			sm_err("SIGUSR1: cannot reopen the log %s: %s", sm->cfg.log_file,
			       strerror(errno));
		else
			sm_notice("SIGUSR1: log reopened");
	} else if (d->reload_due) {
		reload(d);
	} else if (d->port_lost) {
		drop_port(d);
	} else if (d->port_check_due) {
		port_check(d);
	} else if (d->poll_due) {
		d->poll_due = false;
		if (sm->rpc)
			sm_ha_poll(sm);
	} else if (!sm->rpc) {
		if (!d->port_due)
			return false;
		try_port(d);
	} else if ((sm->patch->npending || sm->patch->overflow) && sm->sm_state == MAD_SM_MASTER) {
		sm_jobs_invalidate(sm);	/* its router knows no patch: the heavy sweep's */
		if (sm_patch(sm))
			sm_sweep_due(sm, "a patch left links unrepaired");
	} else if (sm_jobs_due(sm) && sm->rpc) {
		sm_jobs_run(sm);	/* jobs started and ended on the control socket */
	} else if (sm->sweep_due && !d->heavy_held && sm->sm_state != MAD_SM_NOT_ACTIVE &&
		   (sm->sm_state != MAD_SM_STANDBY || sm->cfg.ha_standby_sweeps)) {
		heavy(d);	/* a STANDBY's only discovers: a warm store */
	} else if (sm->sa->aliases.ndue && sm->have_fabric && sm->sm_state == MAD_SM_MASTER) {
		sm_sa_alias_program(sm, &sm->fabric, false);	/* a GUIDInfoRecord Set or Delete */
	} else if (sm->sa->mcast.dirty && sm->sm_state == MAD_SM_MASTER) {
		sm_mcast_program(sm);	/* groups joined or left: their MFTs */
	} else if (sm->sa->mcast.store_due &&
		   mad_now_ms() - sm->sa->mcast.stored_ms >= SM_MCAST_STORE_EVERY_MS) {
		sm_mcast_store_due(sm, true);
	} else if (sm_cc_due(sm) && !sm->sweep_due && sm->sm_state == MAD_SM_MASTER) {
		if (sm_cc_pass(sm, NULL) == 0)
			sm_metrics_write(sm, true);
	} else if (d->light_due && !sm->sweep_due &&
		   (sm->sm_state == MAD_SM_MASTER ||
		    (sm->sm_state == MAD_SM_STANDBY && sm->cfg.ha_standby_sweeps))) {
		light(d);
	} else if (d->perf_due && !sm->sweep_due && sm->sm_state == MAD_SM_MASTER) {
		struct sm_perf_stats st;
		d->perf_due = false;
		sm_sim_traffic_follow(sm);	/* a sim spec's traffic=, else nothing */
		if (sm_perf_feed_pass(sm, perf_yield, d, &st) == 0) {
			if (st.partial)		/* the rest after the work that came up */
				d->perf_due = true;
			else			/* new counters: the file shows them */
				sm_metrics_write(sm, true);
		}
	} else {
		d->light_due = false;
		return false;
	}
	return true;
}

static int setup(struct daemon *d)
{
	struct sm *sm = d->sm;
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(taken_signals) / sizeof(taken_signals[0]); i++)
		sigaddset(&set, taken_signals[i]);
	d->loop = sm_loop_new();
	if (!d->loop)
		return -errno;
	d->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (d->sigfd < 0 || sm_loop_add_fd(d->loop, d->sigfd, EPOLLIN, on_signal, d))
		return -errno;
	sm->loop = d->loop;
	sm_sa_store_start(sm);	/* the leases and registrations the store gave back */
	sm_timer_init(&d->light_timer, on_light_timer, d);
	sm_timer_init(&d->heavy_timer, on_heavy_timer, d);
	sm_timer_init(&d->port_timer, on_port_timer, d);
	sm_timer_init(&d->watchdog_timer, on_watchdog, d);
	sm_timer_init(&d->poll_timer, on_poll_timer, d);
	sm_timer_init(&d->perf_timer, on_perf_timer, d);
	sm_timer_init(&d->port_check_timer, on_port_check_timer, d);
	if (sm->cfg.nports > 1)
		sm_timer_in(d->loop, &d->port_check_timer, PORT_CHECK_MS);
	d->perf_interval_s = sm->cfg.perf_interval_s;
	arm_perf_timer(d);
	sm_timer_in(d->loop, &d->poll_timer, sm->cfg.ha_poll_interval_ms);
	if (sm_notify_watchdog_interval_ms())
		sm_timer_in(d->loop, &d->watchdog_timer, watchdog_period_ms());
	if (sm->cfg.socket_path[0]) {
		int rc = sm_ctl_open(sm, sm->cfg.socket_path, &d->ctl);
		if (rc == -EEXIST || rc == -EADDRINUSE)
			return rc;	/* never run beside a live SM, nor over a file */
	}
	if (sm->cfg.metrics_listen[0] &&
	    sm_metrics_http_open(sm, sm->cfg.metrics_listen, &d->metrics_http))
		sm_warn("running without the metrics endpoint");
	arm_light_timer(d);
	return 0;
}

int sm_daemon_run(struct sm *sm, sm_reload_fn reload_fn, void *reload_ctx)
{
	struct daemon d = { .sm = sm, .reload = reload_fn, .reload_ctx = reload_ctx,
			    .sigfd = -1, .tfd = -1, .port_due = true, .heavy_backoff_ms = 1000,
			    .port_backoff_ms = 1000, .port_moved_ms = mad_now_ms() };
	int rc = setup(&d);

	if (rc == 0 && sm->rpc)	/* opened by the caller */
		attach_transport(&d);
	while (rc == 0 && !sm->stopping) {
		while (!sm->stopping && run_due(&d))
			;
		if (sm->stopping)
			break;
		rc = sm_loop_run_once(d.loop, -1);
		if (rc > 0)
			rc = 0;
	}
	if (rc)
		sm_err("the event loop failed: %s", strerror(-rc));
	sm_notify_stopping();
	sm_state_event(sm, SM_EV_DISABLE, "stopping");
	sm_ctl_close(d.ctl);
	sm_metrics_http_close(d.metrics_http);
	detach_transport(&d);
	if (sm->rpc)
		mad_rpc_set_waiter(sm->rpc, NULL, NULL);
	sm_store_queue_detach(&sm->store);	/* the rest is written at sm_close() */
	sm->loop = NULL;
	if (d.sigfd >= 0) {
		sm_loop_del_fd(d.loop, d.sigfd);
		close(d.sigfd);
	}
	sm_loop_free(d.loop);
	sm_notice("stopping");
	return rc ? rc : d.exit_rc;
}

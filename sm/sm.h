/* SPDX-License-Identifier: MIT */
/*
 * sm.h - the daemon's state: configuration, transport, store, last sweep, and
 * the loop it runs in.
 *
 * Threads: everything here belongs to the loop thread.  The heavy sweep hands
 * its CPU-heavy stages (planning: LIDs and the routing view; routing; storing)
 * to a worker with sm_offload() or sm_offload_during(); while one runs, the
 * loop thread touches neither the data that worker uses nor the store: what
 * it records meanwhile (a trap's event) goes through sm->store, which never
 * waits for db_mu.  Routing uses only the routing view and its own result, so
 * the loop programs LIDs into the fabric meanwhile.
 */
#ifndef IBSMD_SM_H
#define IBSMD_SM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "mad/mad_rpc.h"
#include "mad/mad_transport.h"
#include "sm/sm_ar.h"
#include "sm/sm_config.h"
#include "sm/sm_fabric.h"
#include "sm/sm_ha.h"
#include "sm/sm_isolate.h"
#include "sm/sm_mcast.h"
#include "sm/sm_pkey.h"
#include "sm/sm_patch.h"
#include "sm/sm_path_sl_store.h"
#include "sm/sm_rebalance.h"
#include "sm/sm_perf.h"
#include "sm/sm_perf_feed.h"
#include "sm/sm_route.h"
#include "sm/sm_loop.h"
#include "sm/sm_sa.h"
#include "sm/sm_sa_service.h"
#include "sm/sm_store_queue.h"
#include "sm/sm_trap_limit.h"

struct sm {
	struct sm_config cfg;
	struct mad_transport *t;
	struct mad_rpc *rpc;
	struct mad_rpc_stats rpc_base;	/* counts of rpc layers a reload replaced */
	struct db *db;
	pthread_mutex_t db_mu;		/* the store, while a worker may use it */
	struct sm_store_queue store;	/* the loop thread's writes (sm_store_queue.h) */
	struct sm_fabric fabric;	/* what the last heavy sweep found */
	bool have_fabric;
	struct sm_routes routes;	/* that sweep's LFTs (SA PathRecords) */
	struct sm_path_sl_rows path_sls_stored;	/* the store's path_sls, hashed */
	struct sm_sa_counts sa_counts;	/* SA queries answered, refused, dropped */
	struct sm_sa_index sa_index;	/* the SA's lookups into fabric */
	struct sm_partitions partitions;	/* the partitions file as last read well */
	struct sm_pkey_ports pkeys;	/* partitions resolved against fabric */
	/* P_KeyTables: the partitions were programmed everywhere with no port
	 * armed since (cleared by a changed file); tables other than the
	 * power-on default were ever set by this process */
	bool pkeys_current, pkeys_custom;
	struct sm_mcast mcast;		/* multicast groups and MFTs (sm_mcast.h) */
	struct sm_sa_services sa_services;	/* ServiceRecords registered */
	struct sm_timer sa_lease_timer;	/* for the next lease to run out */
	struct sm_sa_informs sa_informs;	/* trap subscriptions, Reports out */
	struct sm_timer sa_report_timer;	/* for the next Report to send again */
	bool sa_store_due;		/* the store's copy of the two is behind */
	uint64_t sa_stored_ms;		/* mad_now_ms() of its last rewrite */
	struct sm_timer sa_store_timer;	/* for the next rewrite (sm_sa_store.c) */
	bool sweep_due;			/* written by sm_sweep_due() and sm_state.c only */
	struct sm_patch_state patch;	/* dead links to patch first (sm_patch.h) */
	uint8_t sm_state;		/* enum mad_sm_state, changed by sm_state.c only */
	struct sm_ha ha;		/* other SMs: the master polled, a handover (sm_ha.c) */
	/* the event loop the SM runs in; NULL when a sweep runs on its own
	 * (--once, tests): then nothing is offloaded and nothing else is served */
	struct sm_loop *loop;
	volatile bool stopping;		/* asked to stop: sweeps end at their next wait */
	bool abandoned;			/* a worker was left running at a stop: what
					 * it may read (the fabric, the log) is not
					 * freed before the process exits */
	const char *stage;		/* the heavy sweep's current stage, NULL when idle */
	uint64_t stage_started_ms;
	char last_result[256];		/* the last heavy sweep's result */
	char port_error[1024];		/* why sm_open_port() last failed */
	int port_idx;			/* the cfg.ports entry bound; -1: the backend's */
	char port_name[SM_PORT_NAME_LEN];	/* the port bound, "DEVICE:PORT"; "" none */
	uint64_t last_sweep_end_ms;
	uint64_t sweeps;		/* heavy sweeps that got as far as the store */
	/* the SL count whose SL-to-VL tables this process has set everywhere
	 * (0: none); reset whenever a sweep arms a port or finds a reset switch */
	uint8_t sl2vl_done_sl;
	uint64_t light_sweeps;
	uint64_t metrics_written_ms;	/* mad_now_ms() of the last metrics_file write */
	struct sm_trap_limit traps;	/* traps counted per source port (sm_mad_in.c) */
	struct sm_ar_cache ar;		/* switches' adaptive routing (sm_ar.c) */
	struct sm_isolate iso;		/* links kept out of routing (sm_isolate.c) */
	struct sm_rebalance rebalance;	/* loads reported, moves kept (sm_rebalance.c) */
	struct sm_perf *perf;		/* the performance manager's state (sm_perf.c) */
	struct sm_perf_feed perf_feed;	/* its samples to isolation, rebalancing */
};

/* Why an SMP failed, for a log line: "no answer", "MAD status 0x001c" (when
 * the device answered with a status, @resp may be NULL) or the errno text.
 * Returns @buf. */
const char *sm_smp_error(int err, const struct mad_smp *resp, char *buf, size_t len);

/* SMPs the SM has put on the wire so far (the rpc layer's counter). */
uint64_t sm_smps_sent(const struct sm *sm);
/* Add @st to @sum, counter by counter. */
void sm_rpc_stats_add(struct mad_rpc_stats *sum, const struct mad_rpc_stats *st);
/* The rpc layer's counters since the SM started. */
void sm_rpc_stats(const struct sm *sm, struct mad_rpc_stats *st);

/* The SMPs sent, lost and retried since the rpc counters read @since (sm_sweep.c). */
struct db_smp_counts sm_smps_since(const struct sm *sm, const struct mad_rpc_stats *since);

/* Rewrite the metrics file (metrics_file:, if set) from the store: always when
 * @force (after a heavy sweep), else at most every SM_METRICS_EVERY_MS (after
 * light sweeps: ~50 ms of queries at 27k hosts).  A failure is a warning. */
#define SM_METRICS_EVERY_MS 10000
void sm_metrics_write(struct sm *sm, bool force);

/* Open the store, the transport and the rpc layer sm->cfg names (logged on
 * failure).  0 or -errno; sm_close() releases whatever was opened. */
int sm_open(struct sm *sm);
void sm_close(struct sm *sm);
/* The two halves of sm_open(): the store, then the port (transport and rpc
 * layer; logged at @prio on failure, so a daemon waiting for its port does not
 * shout every time).  sm_close_port() lets a daemon let go of a dead port. */
int sm_open_store(struct sm *sm);
int sm_open_port(struct sm *sm, int prio);
void sm_close_port(struct sm *sm);
/* cfg.ports: the first of the first @end entries, other than @skip, whose
 * port has its link up (INIT or better; ACTIVE only when @active), or -1
 * with each refusal in sm->port_error.  Needs an open transport. */
int sm_port_pick(struct sm *sm, unsigned end, int skip, bool active);
/* Move the open transport to cfg.ports[@idx] and give it a new rpc layer
 * (idle: between sweeps).  0, or -errno with the reason in sm->port_error
 * (the transport stays where it was). */
int sm_move_port(struct sm *sm, unsigned idx);

/* A new rpc layer on the open transport, with sm->cfg's window, timeout and
 * retries, replacing the old one (idle: between sweeps).  0 or -errno. */
int sm_rpc_renew(struct sm *sm);

/* Run @fn(@arg) off the loop thread when the SM has a loop (the loop keeps
 * serving meanwhile), else right here.  @fn's result, or -ECANCELED when the
 * SM is stopping (the worker then finishes alone: @arg must stay valid). */
int sm_offload(struct sm *sm, int (*fn)(void *arg), void *arg);

/* Run @fn(@arg) on a worker (a thread of its own even without a loop) while
 * this thread runs @here(@here_arg), whose result goes to *@here_rc; then
 * wait for @fn as sm_offload() does, and return its result.  The two must
 * share nothing they write. */
int sm_offload_during(struct sm *sm, int (*fn)(void *arg), void *arg,
		      int (*here)(void *arg), void *here_arg, int *here_rc);

/* The same in two steps: start @fn(@arg) on a worker (right here when no
 * thread can be had; NULL only when out of memory, nothing ran), go on, then
 * wait for it as sm_offload() does.  Every job started must be waited for. */
struct sm_job;
struct sm_job *sm_job_start(struct sm *sm, int (*fn)(void *arg), void *arg);
int sm_job_wait(struct sm *sm, struct sm_job *j);

/* One heavy sweep: discover, assign LIDs, route, program, store.  0 when the
 * subnet is up, -errno otherwise (logged; a sweep is due again when worth
 * retrying). */
int sm_sweep_heavy(struct sm *sm);

/* One light sweep over the last heavy sweep's fabric: 1 when something changed
 * and a heavy sweep is due, 0 when nothing did, -errno on transport failure. */
int sm_sweep_light(struct sm *sm);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm.h - the hub: the daemon's state (configuration, transport, store, last
 * sweep, the loop it runs in, and a pointer to each subsystem's own state),
 * and the few services every subsystem uses: workers (sm_job.c) and the
 * counters a stage is measured by (sm_counts.c).  It includes no subsystem.
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
#include "sm/core/sm_config.h"
#include "sm/core/sm_fabric.h"
#include "sm/core/sm_routes.h"
#include "sm/core/sm_store_queue.h"
#include "sm/util/sm_loop.h"

/* Each subsystem's own state, owned by the life cycle (sm/sm_life.c), which
 * allocates them all when the store opens: the hub names them, the folder
 * that owns each type defines it. */
struct sm_sa;			/* sm/sa/sm_sa.h: the SA, partitions, multicast */
struct sm_ha;			/* sm/ha/sm_ha.h */
struct sm_trap_limit;		/* sm/ha/sm_trap_limit.h */
struct sm_patch_state;		/* sm/repair/sm_patch.h */
struct sm_ar_cache;		/* sm/repair/sm_ar.h */
struct sm_isolate;		/* sm/telemetry/sm_isolate.h */
struct sm_rebalance;		/* sm/telemetry/sm_rebalance.h */
struct sm_perf;			/* sm/telemetry/sm_perf.h */
struct sm_cc;			/* sm/cc/sm_cc.h */
struct sm_perf_feed;		/* sm/telemetry/sm_perf_feed.h */
struct sm_path_sl_rows;		/* sm/sweep/sm_path_sl_store.h */
struct sm_jobs;			/* sm/jobs/sm_jobs.h */

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
	struct sm_path_sl_rows *path_sls_stored;	/* the store's path_sls, hashed */
	struct sm_sa *sa;		/* the SA, partitions and multicast (sm/sa/) */
	bool sweep_due;			/* written by sm_sweep_due() and sm_state.c only */
	struct sm_patch_state *patch;	/* dead links to patch first (sm_patch.h) */
	uint8_t sm_state;		/* enum mad_sm_state, changed by sm_state.c only */
	/* set on entering MASTER (sm_state.c): the next PortInfo programming
	 * asks every port's clients to reregister (sm_program.c) */
	bool first_master_sweep;
	uint32_t master_terms;		/* times MASTER was entered (sm_state.c) */
	struct sm_ha *ha;		/* other SMs: the master polled, a handover (sm_ha.c) */
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
	struct sm_metrics *metrics;	/* the metrics file's writer (sm_metrics.c), or NULL */
	struct sm_trap_limit *traps;	/* traps counted per source port (sm_mad_in.c) */
	struct sm_ar_cache *ar;		/* switches' adaptive routing (sm_ar.c) */
	struct sm_isolate *iso;		/* links kept out of routing (sm_isolate.c) */
	struct sm_rebalance *rebalance;	/* loads reported, moves kept (sm_rebalance.c) */
	struct sm_perf *perf;		/* the performance manager's state (sm_perf.c) */
	struct sm_perf_feed *perf_feed;	/* its samples to isolation, rebalancing */
	struct sm_jobs *jobs;		/* the scheduler's jobs, their routes (sm_jobs.c) */
	struct sm_cc *cc;		/* congestion control's passes (sm_cc.c) */
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

#endif

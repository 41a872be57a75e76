/* SPDX-License-Identifier: MIT */
/*
 * sm_jobs.h - the jobs the batch scheduler runs, and the routes shaped for
 * them (routing/rt_job.h): kept in the store, applied after every heavy
 * sweep's routing, and started and ended between sweeps.
 *
 * Requests come from the control socket (sm/sm_ctl.c), which only queues
 * them (sm_jobs_request()): routing, sending LFT blocks and storing run from
 * the daemon's top level (sm_jobs_run(), when sm_jobs_due()), never inside a
 * handler, and the answer goes back through the request's reply callback.
 *
 * Start: the name, pattern and host names are checked; the hosts are found
 * by NodeDescription in the last sweep's fabric (unknown ones refuse the
 * job: nothing is stored or changed); on a MASTER whose tables the router
 * knows, the job's routes are computed on a worker (rt_jobs_start(), over
 * the last sweep's LFTs: the base engine's plus the running jobs'), the
 * blocks that changed are sent (sm_lft_send.h) and stored with the job in
 * one transaction.  Elsewhere (a STANDBY, no sweep yet, tables patched since
 * the last heavy sweep) the job is stored and a heavy sweep applies it.
 * End: its entries go back to the base routes, the blocks are sent, the job
 * leaves the store.
 *
 * Heavy sweep: the jobs in the list are copied when routing starts
 * (sm_jobs_sweep_begin(), loop thread), routed on the worker over the new
 * tables in start order (sm_jobs_sweep_route(), which takes the routing
 * view: the router keeps using it), and the router replaces the last one
 * when the sweep publishes its routes (sm_jobs_sweep_publish()).  A job
 * whose hosts are no longer all in the fabric is routed over those that are.
 * With no job, the sweep builds no router (about 0.1 s at 27,648 hosts): the
 * first start builds one over the published tables.
 *
 * A restarted SM, or a STANDBY that becomes MASTER, loads the jobs from its
 * store (sm_jobs_load()); its first heavy sweep routes them.  The scheduler's
 * hooks talk to every SM (contrib/slurm/), so a standby's store holds them.
 */
#ifndef IBSMD_SM_JOBS_H
#define IBSMD_SM_JOBS_H

#include <stdbool.h>
#include <stdint.h>

#include "mad/model/topo_view.h"
#include "routing/rt_job.h"
#include "routing/rt_job_hosts.h"
#include "sm/core/sm.h"

#define SM_JOBS_MAX 1024		/* jobs at once */
#define SM_JOBS_QUEUE 64		/* requests waiting */

/* A running job as the SM keeps it. */
struct sm_job_rec {
	char name[RT_JOB_NAME_MAX];
	enum rt_job_pattern pattern;
	int64_t started_ms;
	uint32_t nhosts;
	char *hosts;		/* names, NUL-separated, one allocation */
	char **host;		/* [nhosts] into hosts */
	bool routed;		/* has routes in the router's tables */
	struct rt_job_report rep;	/* of the last routing */
};

/* A request from the control socket. */
enum sm_jobs_op { SM_JOBS_START, SM_JOBS_END };

/* The answer to a request: one line, text or JSON as asked, newline ended. */
typedef void (*sm_jobs_reply_fn)(void *cookie, const char *line);

struct sm_jobs_req {
	enum sm_jobs_op op;
	struct sm_job_rec job;	/* START: all of it; END: the name */
	bool json;
	sm_jobs_reply_fn reply;
	void *cookie;		/* NULL once cancelled */
};

/* The router over a set of tables, with the view it stands on. */
struct sm_jobs_router {
	struct topo_view view;
	struct ibsmd_rt_ctx ctx;
	struct rt_jobs *jobs;	/* NULL: no fat tree (jobs keep base routes) */
	struct rt_hosts *hosts;
};

struct sm_jobs {
	struct sm_job_rec *jobs;
	unsigned njobs, cap;
	struct sm_jobs_req queue[SM_JOBS_QUEUE];
	unsigned nqueued;
	struct sm_jobs_router *router;	/* over sm->routes; NULL: none yet, or
					 * the tables changed since (a patch) */
	bool lazy;		/* no router, but sm->routes are a sweep's own: the
				 * first start builds one over them */
	uint64_t started, ended, blocks;	/* since the SM started */
};

void sm_jobs_free(struct sm_jobs *js);

/* The jobs of the store into the list (at open).  0 or -errno (logged). */
int sm_jobs_load(struct sm *sm);

/*
 * Parse and queue a control-socket request: "start NAME PATTERN HOST,HOST..."
 * or "end NAME" (the words after "job ").  0 when queued (@reply is called
 * later, exactly once, unless sm_jobs_cancel() first); -EINVAL or -EBUSY
 * with the reason in @msg, nothing queued.
 */
int sm_jobs_request(struct sm *sm, const char *args, bool json, sm_jobs_reply_fn reply,
		    void *cookie, char *msg, size_t len);
/* Forget the replies owed to @cookie (its client went away): the request
 * still runs. */
void sm_jobs_cancel(struct sm *sm, void *cookie);

/* Requests wait: sm_jobs_run() has work. */
bool sm_jobs_due(const struct sm *sm);
/* Serve the queued requests, from the daemon's top level (runs the loop
 * while SMPs are in flight and the worker computes). */
void sm_jobs_run(struct sm *sm);

/* The running jobs as one line of text or JSON, into @out. */
void sm_jobs_list(const struct sm *sm, bool json, char *out, size_t len);

/* The tables changed outside the router (a patch): starts and ends wait for
 * the next heavy sweep. */
void sm_jobs_invalidate(struct sm *sm);

/* ---- the heavy sweep ---- */

struct sm_jobs_sweep;

/* A copy of the jobs to route (loop thread); NULL when there is no memory
 * (then the sweep routes no job and leaves no router). */
struct sm_jobs_sweep *sm_jobs_sweep_begin(struct sm *sm);
/* On the worker, after the engine: route the jobs over @routes, taking
 * @view (zeroed here).  Failures are logged; the base routes stay. */
void sm_jobs_sweep_route(struct sm_jobs_sweep *s, struct topo_view *view,
			 struct sm_routes *routes);
/* The sweep published @s's routes as sm->routes: @s becomes the router (and
 * is freed).  @s may be NULL: no job routes in the new tables. */
void sm_jobs_sweep_publish(struct sm *sm, struct sm_jobs_sweep *s);
void sm_jobs_sweep_free(struct sm_jobs_sweep *s);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_jobs_int.h - what the files of sm/jobs/ share: job records and the
 * router over a set of tables (sm_jobs.c, sm_jobs_sweep.c).
 */
#ifndef IBSMD_SM_JOBS_INT_H
#define IBSMD_SM_JOBS_INT_H

#include "sm/jobs/sm_jobs.h"

/* Release @r's host names. */
void sm_job_rec_free(struct sm_job_rec *r);

/* @dst := a copy of @src (hosts included).  0 or -ENOMEM. */
int sm_job_rec_copy(struct sm_job_rec *dst, const struct sm_job_rec *src);

/* @r's hosts from @text: names separated by any of @seps.  0, -EINVAL (a
 * name that is no host name, or none, or too many: *@bad its position),
 * -ENOMEM. */
int sm_job_rec_hosts(struct sm_job_rec *r, const char *text, const char *seps, uint32_t *bad);

/* A router over @view (taken: zeroed here) and @lft: the hosts by
 * NodeDescription and no job yet (r->jobs NULL when the fabric is no fat
 * tree: logged).  NULL when out of memory (@view freed). */
struct sm_jobs_router *sm_jobs_router_open(struct topo_view *view, uint8_t **lft);
void sm_jobs_router_free(struct sm_jobs_router *r);

/*
 * Route job @r on @router (hosts found in @hosts): 0 with r->rep and
 * r->routed set; -ENOENT (a host not in the fabric: @msg names the first,
 * and how many), -EINVAL (a host named twice), -EBUSY (an endpoint of
 * another job), -errno; @msg says why.  With @partial, the hosts not in the
 * fabric are left out instead (logged).
 */
int sm_jobs_route(struct sm_jobs_router *router, struct sm_job_rec *r, bool partial, char *msg,
		  size_t len);

/* The router's log: the daemon's. */
void sm_jobs_log_rt(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

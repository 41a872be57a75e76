// SPDX-License-Identifier: MIT
/*
 * sm_jobs_sweep.c - the jobs' routes in every heavy sweep, and the router
 * they leave behind (see sm_jobs.h); with what sm_jobs.c shares: job
 * records, the router over a set of tables, one job routed.
 *
 * Flow of a sweep: begin (loop thread) copies the jobs; route (worker)
 * takes the sweep's routing view, opens a router over it and the sweep's new
 * LFT rows, and starts the jobs in their order, each over the hosts of it
 * that are in the fabric; publish (loop thread) hands the router to
 * sm->jobs, whose old router and view go, when the sweep's routes become
 * sm->routes.  The records' reports (blocks, hosts routed) go with it.  A
 * sweep routes even with no job, so that a job started before the next one
 * finds a router over the tables in place.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "sm/jobs/sm_jobs_int.h"
#include "sm/util/sm_log.h"

struct sm_jobs_sweep {
	struct sm_job_rec *jobs;
	unsigned njobs;
	struct sm_jobs_router *router;	/* over the sweep's tables, once routed */
	bool routed;		/* the sweep's engine routed: its tables hold no job */
};

void sm_jobs_log_rt(int prio, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sm_log(prio, "%s", msg);
}

/* ---- job records ---- */

void sm_job_rec_free(struct sm_job_rec *r)
{
	free(r->hosts);
	free(r->host);
	r->hosts = NULL;
	r->host = NULL;
	r->nhosts = 0;
}

int sm_job_rec_hosts(struct sm_job_rec *r, const char *text, const char *seps, uint32_t *bad)
{
	size_t len = strlen(text);
	uint32_t n = 0;

	*bad = 0;
	r->hosts = malloc(len + 1);
	r->host = NULL;
	r->nhosts = 0;
	if (!r->hosts)
		return -ENOMEM;
	memcpy(r->hosts, text, len + 1);
	for (size_t i = 0; i < len; i++)
		if (strchr(seps, r->hosts[i]))
			r->hosts[i] = '\0';
	for (size_t i = 0; i < len; i += strlen(r->hosts + i) + 1)
		n += r->hosts[i] != '\0';
	if (n == 0 || n > RT_JOB_MAX_RANKS) {
		*bad = n;
		sm_job_rec_free(r);
		return -EINVAL;
	}
	if (!(r->host = malloc(n * sizeof(*r->host)))) {
		sm_job_rec_free(r);
		return -ENOMEM;
	}
	for (size_t i = 0; i < len; i += strlen(r->hosts + i) + 1) {
		if (r->hosts[i] == '\0')
			continue;
		if (!rt_host_name_ok(r->hosts + i)) {
			*bad = r->nhosts;
			sm_job_rec_free(r);
			return -EINVAL;
		}
		r->host[r->nhosts++] = r->hosts + i;
	}
	return 0;
}

int sm_job_rec_copy(struct sm_job_rec *dst, const struct sm_job_rec *src)
{
	size_t len = 0;

	*dst = *src;
	dst->hosts = NULL;
	dst->host = NULL;
	for (uint32_t i = 0; i < src->nhosts; i++)
		len += strlen(src->host[i]) + 1;
	dst->hosts = malloc(len + 1);
	dst->host = malloc((src->nhosts + 1) * sizeof(*dst->host));
	if (!dst->hosts || !dst->host) {
		sm_job_rec_free(dst);
		return -ENOMEM;
	}
	len = 0;
	for (uint32_t i = 0; i < src->nhosts; i++) {
		size_t n = strlen(src->host[i]) + 1;
		memcpy(dst->hosts + len, src->host[i], n);
		dst->host[i] = dst->hosts + len;
		len += n;
	}
	return 0;
}

/* ---- the router ---- */

void sm_jobs_router_free(struct sm_jobs_router *r)
{
	if (!r)
		return;
	rt_jobs_close(r->jobs);
	rt_hosts_free(r->hosts);
	topo_view_free(&r->view);
	free(r);
}

struct sm_jobs_router *sm_jobs_router_open(struct topo_view *view, uint8_t **lft)
{
	struct sm_jobs_router *r = calloc(1, sizeof(*r));

	if (!r) {
		topo_view_free(view);
		return NULL;
	}
	r->view = *view;
	memset(view, 0, sizeof(*view));
	r->ctx = (struct ibsmd_rt_ctx){ .view = &r->view.v, .lft = lft, .log = sm_jobs_log_rt };
	int rc = rt_hosts_build(&r->view.v, &r->hosts);
	if (rc == 0)
		rc = rt_jobs_open(&r->ctx, &r->jobs);
	if (rc == -EINVAL) {	/* no fat tree (logged): jobs keep base routes */
		rt_jobs_close(r->jobs);
		r->jobs = NULL;
		rc = 0;
	}
	if (rc) {
		sm_jobs_router_free(r);
		return NULL;
	}
	return r;
}

int sm_jobs_route(struct sm_jobs_router *router, struct sm_job_rec *r, bool partial, char *msg,
		  size_t len)
{
	const struct rt_hosts *hosts = router->hosts;
	const char **names = calloc(r->nhosts + 1, sizeof(*names));
	struct rt_job_ranks ranks;
	uint32_t bad = 0, unknown = 0, n = 0;
	int rc;

	if (!names)
		return -ENOMEM;
	for (uint32_t i = 0; i < r->nhosts; i++)
		names[n++] = r->host[i];
	rc = rt_hosts_job(hosts, names, n, &ranks, &bad, &unknown);
	const char *first = rc ? r->host[bad] : NULL;
	if (rc == -ENOENT && partial) {
		/* the hosts that are still there, in their order */
		uint32_t kept = 0;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t b, u;
			struct rt_job_ranks one;
			if (rt_hosts_job(hosts, &names[i], 1, &one, &b, &u) == 0) {
				names[kept++] = names[i];
				rt_job_ranks_free(&one);
			}
		}
		sm_warn("job %s: %u of its %u hosts are not in the fabric (%s first); routed "
			"over the %u others", r->name, unknown, n, first, kept);
		n = kept;
		rc = n ? rt_hosts_job(hosts, names, n, &ranks, &bad, &unknown) : -ENOENT;
	}
	if (rc == -ENOENT)
		snprintf(msg, len, "job %s: %u host%s not in the fabric (%s first); nothing done",
			 r->name, unknown, unknown == 1 ? "" : "s", first);
	else if (rc == -EINVAL)
		snprintf(msg, len, "job %s: host %s is named twice", r->name, first);
	if (rc) {
		free(names);
		return rc;
	}
	struct rt_job_spec spec = { .name = r->name, .pattern = r->pattern, .nranks = ranks.nranks,
				    .first = ranks.first, .lids = ranks.lids, .rails = ranks.rails };
	memset(&r->rep, 0, sizeof(r->rep));
	rc = router->jobs ? rt_jobs_start(router->jobs, &spec, NULL, &r->rep) : 0;
	for (uint32_t k = 0; rc == -EBUSY && k < spec.nranks; k++) {
		const char *other = rt_jobs_owner(router->jobs, ranks.lids[ranks.first[k]]);
		if (other) {
			snprintf(msg, len, "job %s: host %s is in job %s, which runs", r->name,
				 names[k], other);
			break;
		}
	}
	rt_job_ranks_free(&ranks);
	if (rc && rc != -EBUSY)
		snprintf(msg, len, "job %s: routing failed: %s", r->name, strerror(-rc));
	free(names);
	r->routed = rc == 0 && router->jobs;
	return rc;
}

/* ---- the heavy sweep ---- */

void sm_jobs_sweep_free(struct sm_jobs_sweep *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->njobs; i++)
		sm_job_rec_free(&s->jobs[i]);
	free(s->jobs);
	sm_jobs_router_free(s->router);
	free(s);
}

struct sm_jobs_sweep *sm_jobs_sweep_begin(struct sm *sm)
{
	const struct sm_jobs *js = sm->jobs;
	struct sm_jobs_sweep *s = calloc(1, sizeof(*s));

	if (!s || !js)
		return s;
	s->jobs = calloc(js->njobs + 1, sizeof(*s->jobs));
	for (unsigned i = 0; s->jobs && i < js->njobs; i++) {
		if (sm_job_rec_copy(&s->jobs[i], &js->jobs[i]))
			break;
		s->njobs++;
	}
	if (!s->jobs || s->njobs < js->njobs) {
		sm_warn("jobs: out of memory: this sweep routes no job");
		sm_jobs_sweep_free(s);
		return NULL;
	}
	return s;
}

void sm_jobs_sweep_route(struct sm_jobs_sweep *s, struct topo_view *view,
			 struct sm_routes *routes)
{
	uint64_t blocks = 0;
	unsigned routed = 0;
	char msg[256];

	if (!s)
		return;
	s->routed = true;
	if (!s->njobs)
		return;	/* the first start builds a router */
	if (!(s->router = sm_jobs_router_open(view, routes->lft))) {
		sm_err("jobs: no router (out of memory); the jobs keep the base routes");
		return;
	}
	for (unsigned i = 0; i < s->njobs; i++) {
		struct sm_job_rec *r = &s->jobs[i];
		if (sm_jobs_route(s->router, r, true, msg, sizeof(msg)))
			sm_warn("%s", msg);
		else if (r->routed) {
			routed++;
			blocks += r->rep.blocks;
		}
	}
	if (s->njobs)
		sm_notice("jobs: %u of %u routed for their patterns, %llu LFT blocks of their own",
			  routed, s->njobs, (unsigned long long)blocks);
}

void sm_jobs_sweep_publish(struct sm *sm, struct sm_jobs_sweep *s)
{
	struct sm_jobs *js = sm->jobs;

	sm_jobs_router_free(js->router);
	js->router = s ? s->router : NULL;
	js->lazy = s && s->routed && !s->router;
	for (unsigned k = 0; k < js->njobs; k++) {
		struct sm_job_rec *r = &js->jobs[k];
		r->routed = false;
		for (unsigned i = 0; s && s->router && i < s->njobs; i++)
			if (!strcmp(r->name, s->jobs[i].name)) {
				r->routed = s->jobs[i].routed;
				r->rep = s->jobs[i].rep;
			}
	}
	if (s)
		s->router = NULL;
	sm_jobs_sweep_free(s);
}

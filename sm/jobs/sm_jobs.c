// SPDX-License-Identifier: MIT
/*
 * sm_jobs.c - jobs started and ended between heavy sweeps (see sm_jobs.h):
 * the list and its store, the control socket's requests queued, then served
 * from the daemon's top level.
 *
 * Data: the running jobs in start order (the store's jobs table mirrors
 * them), the queue of requests, and the router over sm->routes.
 *
 * A start, on a MASTER with a router: the hosts found by NodeDescription,
 * the job routed (rt_jobs_start(), on this thread: about a tenth of a second
 * for a 1,024-host job on the 27,648-host tree; the SA would otherwise read
 * the rows while a worker writes them), the blocks it changed sent
 * (sm_lft_send.h), then the job and the changed tables stored in one
 * transaction, then the answer, with the blocks and the time taken.  Every
 * refusal (a name in use, unknown hosts, a host of another job) changes
 * nothing.  An end puts the job's entries back the same way.  Without a
 * router (a STANDBY, no sweep yet, the tables patched since) a start or an
 * end only changes the list and the store; a MASTER then sweeps.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mad/mad_attr.h"
#include "sm/core/sm_lft_send.h"
#include "sm/core/sm_state.h"
#include "sm/jobs/sm_jobs_int.h"
#include "sm/util/sm_log.h"

void sm_jobs_free(struct sm_jobs *js)
{
	for (unsigned i = 0; i < js->njobs; i++)
		sm_job_rec_free(&js->jobs[i]);
	for (unsigned i = 0; i < js->nqueued; i++)
		sm_job_rec_free(&js->queue[i].job);
	free(js->jobs);
	sm_jobs_router_free(js->router);
	memset(js, 0, sizeof(*js));
}

static bool job_name_ok(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!isalnum((unsigned char)s[n]) && !strchr("._-", s[n]))
			return false;
	return n > 0 && n < RT_JOB_NAME_MAX;
}

static struct sm_job_rec *find(struct sm_jobs *js, const char *name)
{
	for (unsigned i = 0; i < js->njobs; i++)
		if (!strcmp(js->jobs[i].name, name))
			return &js->jobs[i];
	return NULL;
}

/* Append @r (taken) to the list.  0 or -ENOMEM. */
static int list_add(struct sm_jobs *js, struct sm_job_rec *r)
{
	if (js->njobs == js->cap) {
		unsigned cap = js->cap ? 2 * js->cap : 8;
		struct sm_job_rec *j = realloc(js->jobs, cap * sizeof(*j));
		if (!j)
			return -ENOMEM;
		js->jobs = j;
		js->cap = cap;
	}
	js->jobs[js->njobs++] = *r;
	memset(r, 0, sizeof(*r));
	return 0;
}

static void list_remove(struct sm_jobs *js, struct sm_job_rec *r)
{
	unsigned at = (unsigned)(r - js->jobs);

	sm_job_rec_free(r);
	memmove(&js->jobs[at], &js->jobs[at + 1], (js->njobs - at - 1) * sizeof(*r));
	js->njobs--;
}

/* ---- the store ---- */

static int load_one(void *arg, const struct db_job *j)
{
	struct sm_jobs *js = arg;
	struct sm_job_rec r = { .started_ms = j->started_ms };
	uint32_t bad;

	if (!job_name_ok(j->name) || rt_job_pattern_parse(j->pattern, &r.pattern) ||
	    find(js, j->name) || js->njobs == SM_JOBS_MAX ||
	    sm_job_rec_hosts(&r, j->hosts, "\n", &bad)) {
		sm_warn("jobs: the stored job %.64s is not one this SM takes; left out",
			j->name);
		return 0;
	}
	snprintf(r.name, sizeof(r.name), "%s", j->name);
	int rc = list_add(js, &r);
	sm_job_rec_free(&r);
	return rc;
}

int sm_jobs_load(struct sm *sm)
{
	int rc = db_job_each(sm->db, load_one, sm->jobs);

	if (rc)
		sm_err("jobs: cannot read them from the store: %s", db_errmsg(sm->db));
	else if (sm->jobs->njobs)
		sm_notice("jobs: %u from the store; the next heavy sweep routes them",
			  sm->jobs->njobs);
	return rc;
}

/* The job's hosts as the store keeps them: one per line. */
static char *hosts_text(const struct sm_job_rec *r)
{
	size_t len = 1;

	for (uint32_t i = 0; i < r->nhosts; i++)
		len += strlen(r->host[i]) + 1;
	char *s = malloc(len), *p = s;
	for (uint32_t i = 0; s && i < r->nhosts; i++)
		p += sprintf(p, "%s%s", i ? "\n" : "", r->host[i]);
	if (s)
		*p = '\0';
	return s;
}

struct store_job {
	struct sm_lft_send *send;	/* NULL: no table changed */
	const struct sm_job_rec *save;	/* the job to store, or */
	const char *delete;		/* the job to forget */
};

static int store_job(struct db *db, void *arg)
{
	const struct store_job *s = arg;
	int rc = 0;

	if (s->save) {
		char *hosts = hosts_text(s->save);
		if (!hosts)
			return -ENOMEM;
		const struct db_job j = { s->save->name, rt_job_pattern_name(s->save->pattern),
					  s->save->started_ms, hosts };
		rc = db_job_save(db, &j);
		free(hosts);
	} else if (s->delete) {
		rc = db_job_delete(db, s->delete);
		rc = rc < 0 ? rc : 0;
	}
	if (rc == 0 && s->send)
		rc = sm_lft_send_store(s->send);
	return rc;
}

static int store(struct sm *sm, const struct store_job *s)
{
	pthread_mutex_lock(&sm->db_mu);
	int rc = sm->db ? db_batch(sm->db, store_job, (void *)s) : -ENODEV;
	if (rc)
		sm_err("jobs: not stored: %s", sm->db ? db_errmsg(sm->db) : "no store");
	pthread_mutex_unlock(&sm->db_mu);
	return rc;
}

/* ---- requests ---- */

int sm_jobs_request(struct sm *sm, const char *args, bool json, sm_jobs_reply_fn reply,
		    void *cookie, char *msg, size_t len)
{
	struct sm_jobs *js = sm->jobs;
	struct sm_jobs_req q = { .json = json, .reply = reply, .cookie = cookie };
	char name[RT_JOB_NAME_MAX + 1], pattern[32];
	const char *p = args;
	int n = 0;

	if (js->nqueued == SM_JOBS_QUEUE) {
		snprintf(msg, len, "%d job requests wait already: try again", SM_JOBS_QUEUE);
		return -EBUSY;
	}
	if (sscanf(p, "end %64s%n", name, &n) == 1 && !p[n]) {
		q.op = SM_JOBS_END;
	} else if (sscanf(p, "start %64s %31s %n", name, pattern, &n) == 2 && p[n]) {
		q.op = SM_JOBS_START;
		if (rt_job_pattern_parse(pattern, &q.job.pattern)) {
			snprintf(msg, len, "unknown pattern '%.31s' (ring, halving-doubling, "
				 "alltoall)", pattern);
			return -EINVAL;
		}
		if (strchr(p + n, ' ')) {
			snprintf(msg, len, "want: job start NAME PATTERN HOST,HOST,... (no spaces "
				 "in the host list)");
			return -EINVAL;
		}
		uint32_t bad;
		int rc = sm_job_rec_hosts(&q.job, p + n, ",", &bad);
		if (rc == -ENOMEM) {
			snprintf(msg, len, "out of memory");
			return rc;
		}
		if (rc) {
			snprintf(msg, len, bad > RT_JOB_MAX_RANKS ? "more than %d hosts" :
				 "host %u of the list is no host name (letters, digits, '.', '-', "
				 "'_', at most 63)", bad > RT_JOB_MAX_RANKS ? RT_JOB_MAX_RANKS : bad + 1);
			return -EINVAL;
		}
	} else {
		snprintf(msg, len, "want: job start NAME PATTERN HOST,HOST,... | job end NAME | "
			 "job list");
		return -EINVAL;
	}
	if (!job_name_ok(name)) {
		sm_job_rec_free(&q.job);
		snprintf(msg, len, "bad job name (letters, digits, '.', '-', '_', at most %d)",
			 RT_JOB_NAME_MAX - 1);
		return -EINVAL;
	}
	memcpy(q.job.name, name, strlen(name) + 1);	/* job_name_ok(): it fits */
	js->queue[js->nqueued++] = q;
	return 0;
}

void sm_jobs_cancel(struct sm *sm, void *cookie)
{
	for (unsigned i = 0; sm->jobs && i < sm->jobs->nqueued; i++)
		if (sm->jobs->queue[i].cookie == cookie)
			sm->jobs->queue[i].cookie = NULL;
}

bool sm_jobs_due(const struct sm *sm)
{
	return sm->jobs && sm->jobs->nqueued;
}

static void answer(const struct sm_jobs_req *q, bool ok, const char *text)
{
	char line[1024];

	if (!q->cookie)
		return;
	if (q->json)
		snprintf(line, sizeof(line), "{\"ok\": %s, \"%s\": \"%.900s\"}\n",
			 ok ? "true" : "false", ok ? "result" : "error", text);
	else
		snprintf(line, sizeof(line), "%s: %.900s\n", ok ? "ok" : "error", text);
	q->reply(q->cookie, line);
}

/* Each block of a job's entries into the dirty maps of @arg. */
struct dirty {
	uint64_t **maps;
	size_t nblocks;
	int rc;
};

static void mark_block(void *arg, uint32_t node, uint16_t block)
{
	struct dirty *d = arg;

	if (d->rc == 0 && sm_lft_mark(d->maps, node, block, d->nblocks) < 0)
		d->rc = -ENOMEM;
}

static bool programs(const struct sm *sm)
{
	return sm->sm_state == MAD_SM_MASTER && sm->rpc;
}

/*
 * Send the blocks @name holds (its entries, as they are now: call before an
 * end and after a start), then store them with @st.  *@sent: the blocks
 * sent.  0 or -errno (logged; a heavy sweep is made due).
 */
static int send_and_store(struct sm *sm, const char *name, struct store_job *st,
			  void (*change)(struct sm *sm, void *arg), void *arg, uint64_t *sent)
{
	struct sm_jobs_router *r = sm->jobs->router;
	struct dirty d = { .nblocks = (size_t)sm->routes.max_lid / MAD_LFT_BLOCK + 1 };
	bool *failed = calloc(sm->fabric.topo.n + 1, sizeof(*failed));
	int rc;

	d.maps = calloc(sm->fabric.topo.n + 1, sizeof(*d.maps));
	rc = d.maps && failed ? rt_jobs_each_block(r->jobs, name, mark_block, &d) : -ENOMEM;
	rc = rc ? rc : d.rc;
	if (rc == 0 && change)
		change(sm, arg);
	struct sm_lft_send s = { .sm = sm, .f = &sm->fabric, .rt = &sm->routes, .dirty = d.maps,
				 .nblocks = d.nblocks, .who = "jobs", .failed = failed };
	if (rc == 0)
		rc = sm_lft_send(&s);
	*sent = s.sent;
	if (rc == 0) {
		st->send = &s;
		rc = store(sm, st);
	}
	if (rc || s.failures)
		sm_sweep_due(sm, "a job's LFT blocks did not all reach their switches");
	for (uint32_t n = 0; d.maps && n < sm->fabric.topo.n; n++)
		free(d.maps[n]);
	free(d.maps);
	free(failed);
	return rc;
}

static void do_end(struct sm *sm, void *arg)
{
	struct rt_job_report rep;

	rt_jobs_end(sm->jobs->router->jobs, arg, &rep);
}

/* This thread's CPU time in ms: a start's routing, told apart from the
 * machine's load. */
static uint64_t cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void job_start(struct sm *sm, struct sm_jobs_req *q)
{
	struct sm_jobs *js = sm->jobs;
	struct sm_job_rec *r = &q->job;
	uint64_t t0 = mad_now_ms(), c0 = cpu_ms(), sent = 0;
	char msg[512];
	int rc;

	if (find(js, r->name)) {
		snprintf(msg, sizeof(msg), "job %s runs already", r->name);
		answer(q, false, msg);
		return;
	}
	if (js->njobs == SM_JOBS_MAX) {
		snprintf(msg, sizeof(msg), "%d jobs run already", SM_JOBS_MAX);
		answer(q, false, msg);
		return;
	}
	r->started_ms = sm->db ? db_now_ms(sm->db) : 0;
	struct store_job st = { .save = r };
	if (!js->router && js->lazy && programs(sm) && sm->have_fabric && sm->routes.lft) {
		struct topo_view view;
		if (topo_view_build(&sm->fabric.topo, sm->routes.max_lid, &view) == 0)
			js->router = sm_jobs_router_open(&view, sm->routes.lft);
		js->lazy = false;
	}
	if (js->router && programs(sm) &&
	    (rc = sm_jobs_route(js->router, r, false, msg, sizeof(msg)))) {
		answer(q, false, msg);
		return;
	}
	uint64_t routed_ms = mad_now_ms() - t0, routed_cpu = cpu_ms() - c0;
	if (r->routed && programs(sm))
		rc = send_and_store(sm, r->name, &st, NULL, NULL, &sent);
	else
		rc = store(sm, &st);
	if (rc) {
		if (r->routed) {	/* back out: the list and the store stay as they were */
			struct rt_job_report rep;
			rt_jobs_end(js->router->jobs, r->name, &rep);
		}
		snprintf(msg, sizeof(msg), "job %s: not stored (%s); nothing kept", r->name,
			 strerror(-rc));
		answer(q, false, msg);
		return;
	}
	const struct rt_job_report *rep = &r->rep;
	uint64_t ms = mad_now_ms() - t0;
	if (r->routed && programs(sm))
		snprintf(msg, sizeof(msg), "job %s started: %u hosts, %u endpoints, %u rerouted "
			 "(%s), %llu LFT entries, %llu blocks sent, in %llu ms (routing %llu ms, "
			 "%llu ms of CPU)", r->name, r->nhosts, rep->dests, rep->rerouted,
			 rt_job_pattern_name(r->pattern), (unsigned long long)rep->entries,
			 (unsigned long long)sent, (unsigned long long)ms,
			 (unsigned long long)routed_ms, (unsigned long long)routed_cpu);
	else
		snprintf(msg, sizeof(msg), "job %s stored: %u hosts (%s); %s", r->name, r->nhosts,
			 rt_job_pattern_name(r->pattern),
			 !programs(sm) ? "this SM does not program the fabric (not MASTER)" :
			 js->router && !js->router->jobs ? "the fabric is no fat tree: base routes" :
			 "its routes come with the next heavy sweep");
	if (!js->router && programs(sm))
		sm_sweep_due(sm, "a job was started");
	sm_notice("control socket: %s", msg);
	js->started++;
	js->blocks += sent;
	list_add(js, r);
	answer(q, true, msg);
}

static void job_end(struct sm *sm, struct sm_jobs_req *q)
{
	struct sm_jobs *js = sm->jobs;
	struct sm_job_rec *r = find(js, q->job.name);
	uint64_t t0 = mad_now_ms(), sent = 0;
	char msg[512];
	int rc;

	if (!r) {
		snprintf(msg, sizeof(msg), "no job %s runs", q->job.name);
		answer(q, false, msg);
		return;
	}
	struct store_job st = { .delete = r->name };
	bool undo = r->routed && js->router && js->router->jobs;
	uint64_t entries = r->rep.entries;
	if (undo && programs(sm))
		rc = send_and_store(sm, r->name, &st, do_end, r->name, &sent);
	else {
		if (undo)
			do_end(sm, r->name);
		rc = store(sm, &st);
	}
	if (rc && !undo) {
		snprintf(msg, sizeof(msg), "job %s: not forgotten (%s)", r->name, strerror(-rc));
		answer(q, false, msg);
		return;
	}
	if (rc)	/* the entries are back; the store may still hold the job */
		sm_warn("jobs: job %s ended, but the store was not updated: it may come back "
			"at a restart", r->name);
	if (r->routed && !js->router && programs(sm))
		sm_sweep_due(sm, "a job ended");
	if (undo)
		snprintf(msg, sizeof(msg), "job %s ended: %llu LFT entries back to the base routes, "
			 "%llu blocks sent, in %llu ms", r->name, (unsigned long long)entries,
			 (unsigned long long)sent, (unsigned long long)(mad_now_ms() - t0));
	else
		snprintf(msg, sizeof(msg), "job %s ended", r->name);
	sm_notice("control socket: %s", msg);
	js->ended++;
	js->blocks += sent;
	list_remove(js, r);
	answer(q, true, msg);
}

void sm_jobs_run(struct sm *sm)
{
	struct sm_jobs *js = sm->jobs;

	while (js->nqueued && !sm->stopping) {
		struct sm_jobs_req q = js->queue[0];
		memmove(&js->queue[0], &js->queue[1], --js->nqueued * sizeof(q));
		if (q.op == SM_JOBS_START)
			job_start(sm, &q);
		else
			job_end(sm, &q);
		sm_job_rec_free(&q.job);
	}
}

void sm_jobs_invalidate(struct sm *sm)
{
	if (!sm->jobs)
		return;
	sm_jobs_router_free(sm->jobs->router);
	sm->jobs->router = NULL;
	sm->jobs->lazy = false;
}

void sm_jobs_list(const struct sm *sm, bool json, char *out, size_t len)
{
	const struct sm_jobs *js = sm->jobs;
	size_t o;

	if (json)
		o = (size_t)snprintf(out, len, "{\"ok\": true, \"jobs\": [");
	else
		o = (size_t)snprintf(out, len, "ok: %u job%s%s", js->njobs, js->njobs == 1 ? "" : "s",
				     js->njobs ? ":" : "");
	for (unsigned i = 0; i < js->njobs && o < len; i++) {
		const struct sm_job_rec *r = &js->jobs[i];
		if (json)
			o += (size_t)snprintf(out + o, len - o, "%s{\"name\": \"%s\", \"pattern\": "
					      "\"%s\", \"hosts\": %u, \"started_ms\": %lld, "
					      "\"routed\": %s, \"endpoints\": %u, \"blocks\": %llu}",
					      i ? ", " : "", r->name, rt_job_pattern_name(r->pattern),
					      r->nhosts, (long long)r->started_ms,
					      r->routed ? "true" : "false", r->rep.dests,
					      (unsigned long long)r->rep.blocks);
		else
			o += (size_t)snprintf(out + o, len - o, " %s (%s, %u hosts, %s)", r->name,
					      rt_job_pattern_name(r->pattern), r->nhosts,
					      r->routed ? "routed" : "stored");
	}
	if (o < len)
		snprintf(out + o, len - o, json ? "]}\n" : "\n");
	if (o >= len && len > 5)
		snprintf(out + len - 5, 5, json ? "]}\n" : "...\n");
}

// SPDX-License-Identifier: MIT
/*
 * smq_job_check.c - the jobs as the store keeps them: `smquery jobs` (the
 * list), `smquery route-check --job NAME [--engine E]` (the job's EBB for
 * each round of its pattern, under the base engine and under the routes
 * ibsmd programmed, in one run), and `smquery rails` (rail validation).
 *
 * route-check --job: the stored topology becomes a routing view (as
 * route-check does: LIDs as stored, isolated links left out); the stored
 * LFTs are the job-aware routes; the base engine (ftree unless --engine) is
 * run on the same view into rows of its own.  Every stored job's hosts are
 * found by NodeDescription (routing/rt_job_hosts.h; hosts gone from the
 * fabric are left out and counted), and the job is measured with the meter
 * of routing/rt_job.h: alone, and beside the other stored jobs (their
 * heaviest round on each link), on both sets of tables.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo_view.h"
#include "routing/rt_job.h"
#include "routing/rt_job_hosts.h"
#include "sm/smquery/smq.h"
#include "sm/smquery/smq_job_check.h"

#define SMQ_JOBS_MAX 1024

/* The stored jobs, copied out of the store. */
struct stored_job {
	char *name, *pattern_name, *hosts;
	enum rt_job_pattern pattern;
	int64_t started_ms;
	uint32_t nhosts;
	const char **host;
};

struct stored_jobs {
	struct stored_job *j;
	unsigned n;
};

static void stored_jobs_free(struct stored_jobs *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		free(s->j[i].name);
		free(s->j[i].pattern_name);
		free(s->j[i].hosts);
		free(s->j[i].host);
	}
	free(s->j);
}

static int stored_one(void *arg, const struct db_job *j)
{
	struct stored_jobs *s = arg;

	if (s->n == SMQ_JOBS_MAX)
		return 0;
	struct stored_job *x = &s->j[s->n];
	memset(x, 0, sizeof(*x));
	x->name = strdup(j->name);
	x->pattern_name = strdup(j->pattern);
	x->hosts = strdup(j->hosts);
	x->started_ms = j->started_ms;
	if (!x->name || !x->pattern_name || !x->hosts)
		return -ENOMEM;
	size_t len = strlen(x->hosts);
	for (size_t i = 0; i < len; i++)
		x->nhosts += x->hosts[i] == '\n';
	x->host = calloc(x->nhosts + 2, sizeof(*x->host));
	if (!x->host)
		return -ENOMEM;
	x->nhosts = 0;
	for (char *p = x->hosts, *save = NULL, *w; (w = strtok_r(p, "\n", &save)); p = NULL)
		x->host[x->nhosts++] = w;
	x->pattern = RT_JOB_RING;
	rt_job_pattern_parse(x->pattern_name, &x->pattern);
	s->n++;
	return 0;
}

static int stored_jobs_load(struct smq *q, struct stored_jobs *s)
{
	s->n = 0;
	s->j = calloc(SMQ_JOBS_MAX, sizeof(*s->j));
	if (!s->j)
		return smq_fail("out of memory");
	int rc = db_job_each(q->db, stored_one, s);
	if (rc) {
		stored_jobs_free(s);
		return smq_fail("reading the jobs: %s", rc == -ENOMEM ? "out of memory"
								 : db_errmsg(q->db));
	}
	return SMQ_OK;
}

int smq_cmd_jobs(struct smq *q, int argc, char **argv)
{
	struct stored_jobs s;

	(void)argc;
	(void)argv;
	if (stored_jobs_load(q, &s))
		return SMQ_FAIL;
	if (q->json) {
		smq_json_open(q, NULL, '[');
		for (unsigned i = 0; i < s.n; i++) {
			smq_json_open(q, NULL, '{');
			smq_json_str(q, "name", s.j[i].name);
			smq_json_str(q, "pattern", s.j[i].pattern_name);
			smq_json_int(q, "started_ms", s.j[i].started_ms);
			smq_json_int(q, "hosts", s.j[i].nhosts);
			smq_json_close(q, '}');
		}
		smq_json_close(q, ']');
		fputc('\n', q->out);
	} else {
		for (unsigned i = 0; i < s.n; i++)
			fprintf(q->out, "%s %s %u hosts (%s ...)\n", s.j[i].name, s.j[i].pattern_name,
				s.j[i].nhosts, s.j[i].nhosts ? s.j[i].host[0] : "");
	}
	stored_jobs_free(&s);
	return SMQ_OK;
}

/* ---- route-check --job ---- */

/* A job's spec over the view: its hosts that are in the fabric. */
struct spec {
	struct rt_job_ranks ranks;
	struct rt_job_spec s;
	uint32_t missing;
};

static int make_spec(const struct rt_hosts *h, const struct stored_job *j, struct spec *sp)
{
	const char **names = calloc(j->nhosts + 1, sizeof(*names));
	uint32_t n = 0, bad, unknown;

	memset(sp, 0, sizeof(*sp));
	if (!names)
		return -ENOMEM;
	for (uint32_t i = 0; i < j->nhosts; i++) {
		struct rt_job_ranks one;
		if (rt_hosts_job(h, &j->host[i], 1, &one, &bad, &unknown) == 0) {
			names[n++] = j->host[i];
			rt_job_ranks_free(&one);
		} else {
			sp->missing++;
		}
	}
	int rc = n ? rt_hosts_job(h, names, n, &sp->ranks, &bad, &unknown) : -ENOENT;
	free(names);
	sp->s = (struct rt_job_spec){ .name = j->name, .pattern = j->pattern,
				      .nranks = sp->ranks.nranks, .first = sp->ranks.first,
				      .lids = sp->ranks.lids, .rails = sp->ranks.rails };
	return rc;
}

/* Job @k of @sp measured on @ctx: alone into @alone, beside the others
 * into @beside. */
static int measure(const struct ibsmd_rt_ctx *ctx, const struct spec *sp, unsigned n,
		   unsigned k, struct rt_job_ebb *alone, struct rt_job_ebb *beside)
{
	struct rt_job_meter *m;
	int rc = rt_job_meter_open(ctx, &m);

	if (rc)
		return rc;
	float *bg = calloc(rt_job_meter_links(m) + 1, sizeof(*bg));
	rc = bg ? rt_job_meter_ebb(m, &sp[k].s, NULL, alone) : -ENOMEM;
	for (unsigned i = 0; rc == 0 && i < n; i++)
		if (i != k && sp[i].s.nranks)
			rc = rt_job_meter_peaks(m, &sp[i].s, bg);
	if (rc == 0)
		rc = rt_job_meter_ebb(m, &sp[k].s, bg, beside);
	free(bg);
	rt_job_meter_close(m);
	return rc;
}

static void quiet(int prio, const char *fmt, ...)
{
	(void)prio;
	(void)fmt;
}

/* The base engine's rows over @v (NULL elements for non-switches). */
static uint8_t **base_rows(const struct ibsmd_rt_view *v, const struct ibsmd_routing_engine *e,
			   const char *const *options, unsigned noptions, int *rc)
{
	uint8_t **rows = calloc((size_t)v->nnodes + 1, sizeof(*rows));
	struct ibsmd_rt_ctx ctx = { .view = v, .lft = rows, .options = options,
				    .noptions = noptions, .log = quiet };
	void *st = NULL;

	*rc = rows ? 0 : -ENOMEM;
	for (uint32_t n = 0; *rc == 0 && n < v->nnodes; n++)
		if (ibsmd_is_switch(v, n) && !(rows[n] = malloc((size_t)v->max_lid + 1)))
			*rc = -ENOMEM;
		else if (rows[n])
			memset(rows[n], IBSMD_NO_PORT, (size_t)v->max_lid + 1);
	if (*rc == 0 && e->setup)
		*rc = e->setup(&ctx, &st);
	if (*rc == 0)
		*rc = e->compute_unicast(&ctx, st);
	if (e->destroy && st)
		e->destroy(st);
	return rows;
}

static void rows_free(uint8_t **rows, uint32_t n)
{
	for (uint32_t i = 0; rows && i < n; i++)
		free(rows[i]);
	free(rows);
}

/* One round's line, or its JSON object (member @key, NULL in an array). */
static void print_round(struct smq *q, const char *key, const struct rt_job_round_ebb *b,
			const struct rt_job_round_ebb *j, const struct rt_job_round_ebb *bb,
			const struct rt_job_round_ebb *jb)
{
	if (q->json) {
		smq_json_open(q, key, '{');
		smq_json_str(q, "round", b->name);
		smq_json_int(q, "flows", (int64_t)b->flows);
		smq_json_member(q, "base");
		fprintf(q->out, "%.6f", b->ebb);
		smq_json_member(q, "job_aware");
		fprintf(q->out, "%.6f", j->ebb);
		smq_json_member(q, "base_beside");
		fprintf(q->out, "%.6f", bb->ebb);
		smq_json_member(q, "job_aware_beside");
		fprintf(q->out, "%.6f", jb->ebb);
		smq_json_close(q, '}');
		return;
	}
	fprintf(q->out, "  %-10s %9" PRIu64 " %8.4f %10.4f %13.4f %16.4f\n", b->name, b->flows,
		b->ebb, j->ebb, bb->ebb, jb->ebb);
}

int smq_route_check_job(struct smq *q, const char *name, const struct ibsmd_routing_engine *e,
			const char *const *options, unsigned noptions)
{
	struct stored_jobs s;
	struct topo_view m;
	struct rt_hosts *h = NULL;
	struct spec *sp = NULL;
	uint8_t **stored = NULL, **base = NULL;
	unsigned k = UINT32_MAX;
	int rc;

	if (stored_jobs_load(q, &s))
		return SMQ_FAIL;
	for (unsigned i = 0; i < s.n; i++)
		if (!strcmp(s.j[i].name, name))
			k = i;
	if (k == UINT32_MAX) {
		stored_jobs_free(&s);
		return smq_fail("route-check: no job %s in the store (smquery jobs lists them)",
				name);
	}
	const struct smq_lids *l = smq_lids(q);
	if (!l || !smq_topo(q)) {
		stored_jobs_free(&s);
		return SMQ_FAIL;
	}
	stored = calloc(q->topo.n + 1, sizeof(*stored));
	rc = stored ? smq_isolated_mark(q) : -ENOMEM;
	for (uint32_t n = 0; rc == 0 && n < q->topo.n; n++) {
		int found;
		if (q->topo.nodes[n].type == MAD_NODE_SWITCH && !(stored[n] = smq_lft_load(q, n, &found)))
			rc = SMQ_FAIL;
	}
	if (rc == 0)
		rc = topo_view_build(&q->topo, l->top, &m);
	if (rc) {
		rows_free(stored, q->topo.n);
		stored_jobs_free(&s);
		return rc == SMQ_FAIL ? rc : smq_fail("route-check: %s", strerror(-rc));
	}
	rc = rt_hosts_build(&m.v, &h);
	if (rc == 0)
		base = base_rows(&m.v, e, options, noptions, &rc);
	if (rc == 0 && !(sp = calloc(s.n, sizeof(*sp))))
		rc = -ENOMEM;
	for (unsigned i = 0; rc == 0 && i < s.n; i++) {
		int r = make_spec(h, &s.j[i], &sp[i]);
		if (r == -ENOMEM)
			rc = r;
	}
	struct rt_job_ebb eb, ej, ebb, ejb;
	if (rc == 0 && !sp[k].s.nranks)
		rc = smq_fail("route-check: no host of job %s is in the stored fabric", name);
	const struct ibsmd_rt_ctx cb = { .view = &m.v, .lft = base };
	const struct ibsmd_rt_ctx cj = { .view = &m.v, .lft = stored };
	if (rc == 0)
		rc = measure(&cb, sp, s.n, k, &eb, &ebb);
	if (rc == 0)
		rc = measure(&cj, sp, s.n, k, &ej, &ejb);
	uint64_t moved = 0;
	for (uint32_t e2 = 0; rc == 0 && e2 < sp[k].ranks.first[sp[k].ranks.nranks]; e2++)
		for (uint32_t n = 0; n < m.v.nnodes; n++)
			moved += stored[n] && base[n][sp[k].ranks.lids[e2]] != stored[n][sp[k].ranks.lids[e2]];
	if (rc == 0 && q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_str(q, "job", name);
		smq_json_str(q, "pattern", rt_job_pattern_name(s.j[k].pattern));
		smq_json_int(q, "hosts", s.j[k].nhosts);
		smq_json_int(q, "hosts_missing", sp[k].missing);
		smq_json_int(q, "endpoints", sp[k].ranks.first[sp[k].ranks.nranks]);
		smq_json_str(q, "base_engine", e->name);
		smq_json_int(q, "entries_moved", (int64_t)moved);
		smq_json_int(q, "undelivered", (int64_t)ej.undelivered);
		smq_json_open(q, "rounds", '[');
		for (unsigned r = 0; r < eb.nrounds; r++)
			print_round(q, NULL, &eb.round[r], &ej.round[r], &ebb.round[r], &ejb.round[r]);
		smq_json_close(q, ']');
		print_round(q, "whole", &eb.whole, &ej.whole, &ebb.whole, &ejb.whole);
		smq_json_close(q, '}');
		fputc('\n', q->out);
	} else if (rc == 0) {
		fprintf(q->out, "job %s: %s, %u hosts (%u not in the fabric), %u endpoints; "
			"%" PRIu64 " LFT entries differ from %s's\n", name,
			rt_job_pattern_name(s.j[k].pattern), s.j[k].nhosts, sp[k].missing,
			sp[k].ranks.first[sp[k].ranks.nranks], moved, e->name);
		fprintf(q->out, "EBB per round: %s's routes, the stored (job-aware) routes; then "
			"both beside the %u other stored jobs\n", e->name, s.n - 1);
		fprintf(q->out, "  %-10s %9s %8s %10s %13s %16s\n", "round", "flows", e->name,
			"job-aware", "base beside", "job-aware beside");
		for (unsigned r = 0; r < eb.nrounds; r++)
			print_round(q, NULL, &eb.round[r], &ej.round[r], &ebb.round[r], &ejb.round[r]);
		if (eb.nrounds > 1)
			print_round(q, NULL, &eb.whole, &ej.whole, &ebb.whole, &ejb.whole);
		if (ej.undelivered)
			fprintf(q->out, "%" PRIu64 " flows are not delivered by the stored routes\n",
				ej.undelivered);
	}
	for (unsigned i = 0; sp && i < s.n; i++)
		rt_job_ranks_free(&sp[i].ranks);
	free(sp);
	rt_hosts_free(h);
	rows_free(base, m.v.nnodes);
	rows_free(stored, q->topo.n);
	topo_view_free(&m);
	stored_jobs_free(&s);
	if (rc == SMQ_FAIL || rc == SMQ_OK)
		return rc;
	return smq_fail("route-check: %s", strerror(-rc));
}

/* ---- rails ---- */

int smq_cmd_rails(struct smq *q, int argc, char **argv)
{
	struct topo_view m;
	struct rt_hosts *h;
	struct rt_rail_check rc;
	char rail[64], leaf[64];

	(void)argc;
	(void)argv;
	const struct smq_lids *l = smq_lids(q);
	if (!l || !smq_topo(q))
		return SMQ_FAIL;
	if (topo_view_build(&q->topo, l->top, &m))
		return smq_fail("out of memory");
	if (rt_hosts_build(&m.v, &h) || rt_hosts_rail_check(h, &rc)) {
		topo_view_free(&m);
		return smq_fail("out of memory");
	}
	unsigned shown = rc.misplaced < 16 ? rc.misplaced : 16;
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_int(q, "nodes", rc.hosts);
		smq_json_int(q, "rails", rc.rails);
		smq_json_int(q, "hcas", rc.endpoints);
		smq_json_int(q, "leaves", rc.leaves);
		smq_json_int(q, "misplaced", rc.misplaced);
		smq_json_open(q, "first", '[');
		for (unsigned i = 0; i < shown; i++) {
			const struct rt_rail_misplaced *x = &rc.first[i];
			smq_json_open(q, NULL, '{');
			smq_json_node(q, "hca", &q->topo, x->node);
			smq_json_int(q, "port", x->port);
			smq_json_int(q, "rail", x->rail);
			smq_json_node(q, "leaf", &q->topo, x->leaf);
			smq_json_int(q, "leaf_rail", x->leaf_rail);
			smq_json_close(q, '}');
		}
		smq_json_close(q, ']');
		smq_json_close(q, '}');
		fputc('\n', q->out);
	} else {
		fprintf(q->out, "rails: %u nodes of several HCAs, %u rails, %u HCA ports on %u "
			"leaves: %s\n", rc.hosts, rc.rails, rc.endpoints, rc.leaves,
			rc.misplaced ? "FAILED" : rc.hosts ? "every HCA on its rail's leaf"
						  : "no node has rails");
		for (unsigned i = 0; i < shown; i++) {
			const struct rt_rail_misplaced *x = &rc.first[i];
			rt_hosts_rail_name(h, x->rail, rail, sizeof(rail));
			rt_hosts_rail_name(h, x->leaf_rail, leaf, sizeof(leaf));
			fprintf(q->out, "  misplaced: \"%s\" port %u (rail %u, %s) is on leaf \"%s\" "
				"0x%016" PRIx64 ", a leaf of rail %u (%s)\n", q->topo.nodes[x->node].desc,
				x->port, x->rail, rail, q->topo.nodes[x->leaf].desc,
				q->topo.nodes[x->leaf].guid, x->leaf_rail, leaf);
		}
		if (rc.misplaced > shown)
			fprintf(q->out, "  ... and %u more\n", rc.misplaced - shown);
	}
	rt_hosts_free(h);
	topo_view_free(&m);
	return rc.misplaced ? SMQ_FAIL : SMQ_OK;
}

// SPDX-License-Identifier: MIT
/*
 * rt_job_ebb.c - the effective bandwidth of a job's pattern over the tables
 * as they are (see rt_job.h: struct rt_job_ebb).
 *
 * Flow: the job's endpoints and rounds (rt_job_pattern.c); every item's path
 * walked once through the LFTs and kept (rt_job_paths.c; struct
 * rt_job_paths: a caller that measures one job beside changing backgrounds
 * walks it once); per round, the loads of its items on every link, then each
 * item's share (1 / the highest load plus background on its path, at most 1),
 * weighted by its flows; "whole" from the rounds' EBBs.  Peaks: per link the
 * highest load of any round.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_job_int.h"

struct rt_job_meter {
	struct jnet net;
	float *load;		/* per link, the round at hand (0 between calls) */
	float *sum;		/* per link, the highest load of any round (peaks; 0
				 * between calls) */
};

/* A job's endpoints, rounds and walked routes. */
struct rt_job_paths {
	enum rt_job_pattern pattern;
	struct jep *eps;
	struct jrounds rounds;
	struct jpaths w;
};

int rt_job_meter_open(const struct ibsmd_rt_ctx *ctx, struct rt_job_meter **out)
{
	struct rt_job_meter *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	int rc = jnet_init(&m->net, ctx);
	if (rc == 0) {
		m->load = calloc((size_t)m->net.nlinks + 1, sizeof(*m->load));
		m->sum = calloc((size_t)m->net.nlinks + 1, sizeof(*m->sum));
		rc = m->load && m->sum ? 0 : -ENOMEM;
	}
	if (rc) {
		rt_job_meter_close(m);
		return rc;
	}
	*out = m;
	return 0;
}

void rt_job_meter_close(struct rt_job_meter *m)
{
	if (!m)
		return;
	jnet_free(&m->net);
	free(m->load);
	free(m->sum);
	free(m);
}

uint32_t rt_job_meter_links(const struct rt_job_meter *m)
{
	return m->net.nlinks;
}

void rt_job_paths_free(struct rt_job_paths *P)
{
	if (!P)
		return;
	free(P->eps);
	jrounds_free(&P->rounds);
	jpaths_free(&P->w);
	free(P);
}

int rt_job_meter_walk(struct rt_job_meter *m, const struct rt_job_spec *job,
		      struct rt_job_paths **out)
{
	uint32_t neps = job->nranks && job->nranks <= RT_JOB_MAX_RANKS ? job->first[job->nranks] : 0;
	struct rt_job_paths *P = calloc(1, sizeof(*P));
	int rc = P ? 0 : -ENOMEM;

	if (rc == 0 && !neps)
		rc = -EINVAL;
	if (rc == 0)
		rc = (P->eps = malloc((size_t)neps * sizeof(*P->eps))) ? 0 : -ENOMEM;
	if (rc == 0)
		rc = jrounds_endpoints(&m->net, job, P->eps);
	if (rc == 0)
		rc = jrounds_make(job, P->eps, &P->rounds);
	if (rc == 0)
		rc = jpaths_walk(&m->net, &P->rounds, P->eps, &P->w);
	if (rc) {
		rt_job_paths_free(P);
		return rc;
	}
	P->pattern = job->pattern;
	*out = P;
	return 0;
}

bool rt_job_paths_same(const struct rt_job_paths *a, const struct rt_job_paths *b)
{
	size_t n = a->rounds.first[a->rounds.n];
	const struct jpaths *x = &a->w, *y = &b->w;

	if (a->rounds.n != b->rounds.n || n != b->rounds.first[b->rounds.n] ||
	    x->first[n] != y->first[n])
		return false;
	return memcmp(x->first, y->first, (n + 1) * sizeof(*x->first)) == 0 &&
	       memcmp(x->ok, y->ok, n) == 0 &&
	       (x->first[n] == 0 || memcmp(x->links, y->links, x->first[n] * sizeof(*x->links)) == 0);
}

void rt_job_paths_peaks(struct rt_job_meter *m, const struct rt_job_paths *P, float *bg)
{
	jpaths_peaks(&P->w, m->load, m->sum, bg);
}

void rt_job_paths_ebb(struct rt_job_meter *m, const struct rt_job_paths *P, const float *bg,
		      struct rt_job_ebb *out)
{
	unsigned n = P->rounds.n, timed = 0;
	double time = 0;

	memset(out, 0, sizeof(*out));
	out->pattern = P->pattern;
	out->nrounds = n;
	out->whole = (struct rt_job_round_ebb){ .name = "whole", .worst = 1, .ebb = 1 };
	for (unsigned r = 0; r < n; r++) {
		struct rt_job_round_ebb *e = &out->round[r];
		jpaths_add_round(&P->w, r, m->load);
		memcpy(e->name, P->rounds.name[r], sizeof(e->name));
		jpaths_round_shares(&P->w, r, m->load, bg, e, &out->undelivered);
		jpaths_clear_round(&P->w, r, m->load);
		out->whole.flows += e->flows;
		out->whole.worst = e->worst < out->whole.worst ? e->worst : out->whole.worst;
		out->whole.load = e->load > out->whole.load ? e->load : out->whole.load;
		if (P->pattern == RT_JOB_ALLTOALL && r == 0 && n > 1)
			continue;	/* "at once": not one of the shifts */
		time = e->ebb > 0 && time >= 0 ? time + 1 / e->ebb : -1;
		timed++;
	}
	if (timed)
		out->whole.ebb = time > 0 ? timed / time : 0;
}

int rt_job_meter_peaks(struct rt_job_meter *m, const struct rt_job_spec *job, float *bg)
{
	struct rt_job_paths *P = NULL;
	int rc = rt_job_meter_walk(m, job, &P);

	if (rc == 0)
		rt_job_paths_peaks(m, P, bg);
	rt_job_paths_free(P);
	return rc;
}

int rt_job_meter_ebb(struct rt_job_meter *m, const struct rt_job_spec *job, const float *bg,
		     struct rt_job_ebb *out)
{
	struct rt_job_paths *P = NULL;
	int rc = rt_job_meter_walk(m, job, &P);

	if (rc == 0)
		rt_job_paths_ebb(m, P, bg, out);
	else {
		memset(out, 0, sizeof(*out));
		out->pattern = job->pattern;
	}
	rt_job_paths_free(P);
	return rc;
}

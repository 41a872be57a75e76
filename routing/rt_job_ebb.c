// SPDX-License-Identifier: MIT
/*
 * rt_job_ebb.c - the effective bandwidth of a job's pattern over the tables
 * as they are (see rt_job.h: struct rt_job_ebb).
 *
 * Flow: the job's endpoints and rounds (rt_job_pattern.c); every item's path
 * walked once through the LFTs and kept (struct rt_job_paths: a caller that
 * measures one job beside changing backgrounds walks it once); per round,
 * the loads of its items on every link, then each item's share (1 / the
 * highest load plus background on its path, at most 1), weighted by its
 * flows; "whole" from the rounds' EBBs.  Peaks: per link the highest load of
 * any round.
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

/* The walked paths of a job's items. */
struct rt_job_paths {
	enum rt_job_pattern pattern;
	struct jep *eps;
	struct jrounds rounds;
	size_t *first;		/* [nitems + 1] into links; first[i] == first[i+1] and
				 * !ok[i]: not delivered */
	uint8_t *ok;
	uint32_t *links;
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
	free(P->first);
	free(P->ok);
	free(P->links);
	free(P);
}

static int paths_walk(struct rt_job_meter *m, const struct rt_job_spec *job, struct rt_job_paths *P)
{
	uint32_t neps = job->nranks && job->nranks <= RT_JOB_MAX_RANKS ? job->first[job->nranks] : 0;
	uint32_t hop[JN_MAX_HOPS];
	size_t n = 0, cap = 0;
	int rc;

	P->pattern = job->pattern;
	if (!neps)
		return -EINVAL;
	if (!(P->eps = malloc((size_t)neps * sizeof(*P->eps))))
		return -ENOMEM;
	rc = jrounds_endpoints(&m->net, job, P->eps);
	if (rc == 0)
		rc = jrounds_make(job, P->eps, &P->rounds);
	if (rc)
		return rc;
	size_t nitems = P->rounds.first[P->rounds.n];
	P->first = malloc((nitems + 1) * sizeof(*P->first));
	P->ok = malloc(nitems + 1);
	if (!P->first || !P->ok)
		return -ENOMEM;
	for (size_t i = 0; i < nitems; i++) {
		const struct jitem *it = &P->rounds.items[i];
		int hops = jnet_walk(&m->net, &P->eps[it->dst], it->src_sw, false, hop);
		P->first[i] = n;
		P->ok[i] = hops >= 0;
		if (hops <= 0)
			continue;
		if (n + (size_t)hops > cap) {
			size_t c = cap ? 2 * cap : 4096;
			while (c < n + (size_t)hops)
				c *= 2;
			uint32_t *l = realloc(P->links, c * sizeof(*l));
			if (!l)
				return -ENOMEM;
			P->links = l;
			cap = c;
		}
		memcpy(P->links + n, hop, (size_t)hops * sizeof(*hop));
		n += (size_t)hops;
	}
	P->first[nitems] = n;
	return 0;
}

/* Round @r's loads (@scale times its traffic) added to @load. */
static void add_round(const struct rt_job_paths *P, unsigned r, float scale, float *load)
{
	for (size_t i = P->rounds.first[r]; i < P->rounds.first[r + 1]; i++) {
		const struct jitem *it = &P->rounds.items[i];
		float x = scale * (float)it->count * it->demand;
		for (size_t k = P->first[i]; k < P->first[i + 1]; k++)
			load[P->links[k]] += x;
	}
}

/* The EBB of the items of rounds @r0 .. @r1 - 1 over @load (+ @bg). */
static void shares(const struct rt_job_paths *P, unsigned r0, unsigned r1, const float *load,
		   const float *bg, struct rt_job_round_ebb *out, uint64_t *undelivered)
{
	double sum = 0;

	out->flows = 0;
	out->worst = 1;
	out->load = 0;
	for (size_t i = P->rounds.first[r0]; i < P->rounds.first[r1]; i++) {
		const struct jitem *it = &P->rounds.items[i];
		double most = 0, share;
		for (size_t k = P->first[i]; k < P->first[i + 1]; k++) {
			double x = load[P->links[k]] + (bg ? bg[P->links[k]] : 0);
			most = x > most ? x : most;
		}
		share = !P->ok[i] ? 0 : most > 1 ? 1 / most : 1;
		out->load = most > out->load ? most : out->load;
		if (!P->ok[i] && undelivered)
			*undelivered += it->count;
		sum += share * it->count;
		out->flows += it->count;
		out->worst = share < out->worst ? share : out->worst;
	}
	out->ebb = out->flows ? sum / (double)out->flows : 1;
}

int rt_job_meter_walk(struct rt_job_meter *m, const struct rt_job_spec *job,
		      struct rt_job_paths **out)
{
	struct rt_job_paths *P = calloc(1, sizeof(*P));
	int rc = P ? paths_walk(m, job, P) : -ENOMEM;

	if (rc) {
		rt_job_paths_free(P);
		return rc;
	}
	*out = P;
	return 0;
}

bool rt_job_paths_same(const struct rt_job_paths *a, const struct rt_job_paths *b)
{
	size_t n = a->rounds.first[a->rounds.n];

	if (a->rounds.n != b->rounds.n || n != b->rounds.first[b->rounds.n] ||
	    a->first[n] != b->first[n])
		return false;
	return memcmp(a->first, b->first, (n + 1) * sizeof(*a->first)) == 0 &&
	       memcmp(a->ok, b->ok, n) == 0 &&
	       (a->first[n] == 0 || memcmp(a->links, b->links, a->first[n] * sizeof(*a->links)) == 0);
}

/* Round @r's loads (added to m->load) taken back off, link by link: cheaper
 * than clearing every link when the round crosses few. */
static void clear_round(struct rt_job_meter *m, const struct rt_job_paths *P, unsigned r)
{
	for (size_t k = P->first[P->rounds.first[r]]; k < P->first[P->rounds.first[r + 1]]; k++)
		m->load[P->links[k]] = 0;
}

void rt_job_paths_peaks(struct rt_job_meter *m, const struct rt_job_paths *P, float *bg)
{
	size_t all = P->first[P->rounds.first[P->rounds.n]];

	for (unsigned r = 0; r < P->rounds.n; r++) {
		add_round(P, r, 1, m->load);
		for (size_t k = P->first[P->rounds.first[r]]; k < P->first[P->rounds.first[r + 1]]; k++) {
			uint32_t l = P->links[k];
			m->sum[l] = m->load[l] > m->sum[l] ? m->load[l] : m->sum[l];
		}
		clear_round(m, P, r);
	}
	for (size_t k = 0; k < all; k++) {	/* every link once: its sum then cleared */
		uint32_t l = P->links[k];
		bg[l] += m->sum[l];
		m->sum[l] = 0;
	}
}

void rt_job_paths_ebb(struct rt_job_meter *m, const struct rt_job_paths *P, const float *bg,
		     struct rt_job_ebb *out)
{
	unsigned n = P->rounds.n;
	double time = 0;

	memset(out, 0, sizeof(*out));
	out->pattern = P->pattern;
	out->nrounds = n;
	out->whole = (struct rt_job_round_ebb){ .name = "whole", .worst = 1, .ebb = 1 };
	for (unsigned r = 0; r < n; r++) {
		struct rt_job_round_ebb *e = &out->round[r];
		add_round(P, r, 1, m->load);
		memcpy(e->name, P->rounds.name[r], sizeof(e->name));
		shares(P, r, r + 1, m->load, bg, e, &out->undelivered);
		clear_round(m, P, r);
		out->whole.flows += e->flows;
		out->whole.worst = e->worst < out->whole.worst ? e->worst : out->whole.worst;
		out->whole.load = e->load > out->whole.load ? e->load : out->whole.load;
		time = e->ebb > 0 && time >= 0 ? time + 1 / e->ebb : -1;
	}
	if (n)
		out->whole.ebb = time > 0 ? n / time : 0;
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

// SPDX-License-Identifier: MIT
/*
 * rt_job_pattern.c - the traffic of a job's pattern, round by round
 * (rt_job.h): its endpoints found in the fabric, then, rail by rail, the
 * flows among the rail's endpoints in rank order.
 *
 * Ring, halving-doubling and shift flows are single flows (count 1, a whole
 * link's demand).  All-to-all "at once" flows are gathered by the leaf they
 * leave from: one item per (source leaf, destination) with the number of the
 * rail's endpoints on that leaf, each at 1/(n - 1) of a link; a
 * destination-based table sends all of them the same way, so the router and
 * the meter need nothing finer.  All-to-all's shift rounds are a sample of
 * the n - 1 rounds of pairwise exchange (rt_job.h): shift 1, then shifts
 * spread over 1 .. n - 1 by the golden ratio, the same for every job of n
 * ranks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "routing/rt_job_int.h"

static const char *const pattern_names[] = {
	[RT_JOB_RING] = "ring",
	[RT_JOB_HALVING_DOUBLING] = "halving-doubling",
	[RT_JOB_ALLTOALL] = "alltoall",
};

const char *rt_job_pattern_name(enum rt_job_pattern p)
{
	return (unsigned)p < sizeof(pattern_names) / sizeof(pattern_names[0]) ? pattern_names[p]
									       : "?";
}

int rt_job_pattern_parse(const char *name, enum rt_job_pattern *p)
{
	for (unsigned i = 0; i < sizeof(pattern_names) / sizeof(pattern_names[0]); i++)
		if (name && strcmp(name, pattern_names[i]) == 0) {
			*p = (enum rt_job_pattern)i;
			return 0;
		}
	return -EINVAL;
}

int jrounds_endpoints(const struct jnet *n, const struct rt_job_spec *job, struct jep *eps)
{
	uint32_t neps = job->first[job->nranks];

	for (uint32_t e = 0; e < neps; e++) {
		int rc = jnet_endpoint(n, job->lids[e], job->rails[e], &eps[e]);
		if (rc) {
			if (n->ctx->log)
				n->ctx->log(LOG_ERR, "routing: jobs: job %s: LID %u is no CA port cabled "
					    "to a switch", job->name, job->lids[e]);
			return rc;
		}
	}
	return 0;
}

/* Items of one round being built. */
struct builder {
	struct jrounds *r;
	size_t n, cap;
};

static int add(struct builder *b, uint32_t src_sw, uint32_t dst, uint32_t count, float demand)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 1024;
		struct jitem *it = realloc(b->r->items, cap * sizeof(*it));
		if (!it)
			return -ENOMEM;
		b->r->items = it;
		b->cap = cap;
	}
	b->r->items[b->n++] = (struct jitem){ src_sw, dst, count, demand };
	return 0;
}

uint32_t jrounds_rail_members(const struct rt_job_spec *job, unsigned rail, uint32_t *m)
{
	uint32_t k = 0;

	for (uint32_t r = 0; r < job->nranks; r++)
		for (uint32_t e = job->first[r]; e < job->first[r + 1]; e++)
			if (job->rails[e] == rail) {
				m[k++] = e;
				break;
			}
	return k;
}

/* Halving-doubling among @k members: the fold (@fold: the members past the
 * largest power of two <= k exchange with the first ones), or step @step. */
static int hd_round(struct builder *b, const struct jep *eps, const uint32_t *m, uint32_t k,
		    unsigned step, bool fold)
{
	uint32_t pow = 1;
	int rc = 0;

	while (pow * 2 <= k)
		pow *= 2;
	if (fold) {
		for (uint32_t j = 0; rc == 0 && j < k - pow; j++) {
			rc = add(b, eps[m[pow + j]].leaf, m[j], 1, 1.0f);
			if (rc == 0)
				rc = add(b, eps[m[j]].leaf, m[pow + j], 1, 1.0f);
		}
		return rc;
	}
	if ((1u << step) >= pow)
		return 0;
	for (uint32_t i = 0; rc == 0 && i < pow; i++)
		rc = add(b, eps[m[i]].leaf, m[i ^ (1u << step)], 1, 1.0f);
	return rc;
}

/* All-to-all among @k members: per destination, one item per source leaf.
 * @slot: per switch number, UINT32_MAX on entry and on return. */
static int alltoall_round(struct builder *b, const struct jep *eps, const uint32_t *m,
			  uint32_t k, uint32_t *slot, uint32_t *leaf_of, uint32_t *leaf_count)
{
	uint32_t nleaves = 0;
	int rc = 0;

	/* the members' leaves and how many members each holds */
	for (uint32_t i = 0; i < k; i++) {
		uint32_t *j = &slot[eps[m[i]].leaf];
		if (*j == UINT32_MAX) {
			*j = nleaves;
			leaf_of[nleaves] = eps[m[i]].leaf;
			leaf_count[nleaves++] = 0;
		}
		leaf_count[*j]++;
	}
	for (uint32_t j = 0; j < nleaves; j++)
		slot[leaf_of[j]] = UINT32_MAX;
	if (k < 2)
		return 0;
	float demand = 1.0f / (float)(k - 1);
	for (uint32_t i = 0; rc == 0 && i < k; i++)
		for (uint32_t j = 0; rc == 0 && j < nleaves; j++) {
			uint32_t c = leaf_count[j] - (leaf_of[j] == eps[m[i]].leaf);
			if (c)
				rc = add(b, leaf_of[j], m[i], c, demand);
		}
	return rc;
}

/* Shift @j (0 .. RT_JOB_SHIFTS - 1) of pairwise exchange among @k members
 * (k > 1): 1, then j times the golden ratio's fraction of the way round. */
static uint32_t sampled_shift(unsigned j, uint32_t k)
{
	return 1u + (uint32_t)(((uint64_t)(uint32_t)(j * 2654435769u) * (k - 1)) >> 32);
}

/* Shift round @s among @k members: rank i sends to rank i + s (mod k). */
static int shift_round(struct builder *b, const struct jep *eps, const uint32_t *m, uint32_t k,
		       uint32_t s)
{
	int rc = 0;

	for (uint32_t i = 0; rc == 0 && k > 1 && i < k; i++)
		rc = add(b, eps[m[i]].leaf, m[(i + s % k) % k], 1, 1.0f);
	return rc;
}

/* The largest rail number of @job plus one. */
static unsigned job_rails(const struct rt_job_spec *job)
{
	unsigned n = 0;

	for (uint32_t e = 0; e < job->first[job->nranks]; e++)
		n = job->rails[e] + 1u > n ? job->rails[e] + 1u : n;
	return n;
}

int jrounds_make(const struct rt_job_spec *job, const struct jep *eps, struct jrounds *r)
{
	uint32_t neps = job->first[job->nranks];
	unsigned rails = job_rails(job);
	struct builder b = { .r = r };
	uint32_t *m, *leaf_of = NULL, *leaf_count = NULL, *slot = NULL, maxleaf = 0;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (job->nranks == 0 || job->nranks > RT_JOB_MAX_RANKS)
		return -EINVAL;
	m = malloc(((size_t)job->nranks + 1) * sizeof(*m));
	if (job->pattern == RT_JOB_ALLTOALL) {
		leaf_of = malloc(((size_t)neps + 1) * sizeof(*leaf_of));
		leaf_count = malloc(((size_t)neps + 1) * sizeof(*leaf_count));
		for (uint32_t e = 0; e < neps; e++)
			maxleaf = eps[e].leaf > maxleaf ? eps[e].leaf : maxleaf;
		if ((slot = malloc(((size_t)maxleaf + 1) * sizeof(*slot))))
			memset(slot, 0xff, ((size_t)maxleaf + 1) * sizeof(*slot));
	}
	if (!m || (job->pattern == RT_JOB_ALLTOALL && (!leaf_of || !leaf_count || !slot))) {
		rc = -ENOMEM;
		goto out;
	}
	uint32_t most = 0;
	for (unsigned rail = 0; rail < rails; rail++) {
		uint32_t k = jrounds_rail_members(job, rail, m);
		most = k > most ? k : most;
	}
	if (job->pattern == RT_JOB_RING || job->pattern == RT_JOB_ALLTOALL) {
		r->n = 1;
		snprintf(r->name[0], sizeof(r->name[0]), "%s",
			 job->pattern == RT_JOB_RING ? "ring" : "at once");
		for (unsigned rail = 0; rc == 0 && rail < rails; rail++) {
			uint32_t k = jrounds_rail_members(job, rail, m);
			if (job->pattern == RT_JOB_ALLTOALL)
				rc = alltoall_round(&b, eps, m, k, slot, leaf_of, leaf_count);
			else
				rc = shift_round(&b, eps, m, k, 1);
		}
		r->first[1] = b.n;
		/* pairwise exchange: distinct shifts of the largest rail */
		for (unsigned j = 0; rc == 0 && job->pattern == RT_JOB_ALLTOALL && most > 1 &&
				     j < RT_JOB_SHIFTS && j < most - 1; j++) {
			uint32_t s = sampled_shift(j, most);
			bool seen = false;
			for (unsigned i = 0; i < j; i++)
				seen = seen || sampled_shift(i, most) == s;
			if (seen)
				continue;
			snprintf(r->name[r->n], sizeof(r->name[0]), "shift %u", (unsigned)(uint16_t)s);	/* s < k <= 65,536 */
			for (unsigned rail = 0; rc == 0 && rail < rails; rail++) {
				uint32_t k = jrounds_rail_members(job, rail, m);
				rc = k > 1 ? shift_round(&b, eps, m, k, k == most ? s : sampled_shift(j, k))
					   : 0;
			}
			r->first[++r->n] = b.n;
		}
		goto out;
	}
	/* halving-doubling: the fold (when a rail has one), then the steps */
	bool fold = false;
	for (unsigned rail = 0; rail < rails; rail++) {
		uint32_t k = jrounds_rail_members(job, rail, m);
		fold = fold || (k & (k - 1)) != 0;
	}
	unsigned steps = 0;
	while ((2u << steps) <= most)
		steps++;
	for (unsigned i = 0; rc == 0 && i < (fold ? 1u : 0u) + steps; i++) {
		bool is_fold = fold && i == 0;
		unsigned step = i - (fold ? 1u : 0u);
		if (is_fold)
			snprintf(r->name[r->n], sizeof(r->name[0]), "fold");
		else
			snprintf(r->name[r->n], sizeof(r->name[0]), "step %u", step);
		for (unsigned rail = 0; rc == 0 && rail < rails; rail++) {
			uint32_t k = jrounds_rail_members(job, rail, m);
			rc = hd_round(&b, eps, m, k, step, is_fold);
		}
		r->first[++r->n] = b.n;
	}
out:
	free(m);
	free(leaf_of);
	free(leaf_count);
	free(slot);
	if (rc)
		jrounds_free(r);
	return rc;
}

void jrounds_free(struct jrounds *r)
{
	free(r->items);
	memset(r, 0, sizeof(*r));
}

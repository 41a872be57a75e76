// SPDX-License-Identifier: MIT
/*
 * rt_job_paths.c - a job's items walked through the tables once and kept
 * (struct jpaths, rt_job_int.h), the loads they put on each link round by
 * round, and each round's shares: what the meter (rt_job_ebb.c) measures and
 * the router (rt_job.c) tests and records, without walking a route twice.
 *
 * Load arrays are per link and zero outside a call: a round's loads are
 * added over the links its items cross and taken off the same way, so a
 * round costs its hops, not the fabric's links.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_job_int.h"

int jpaths_walk(const struct jnet *n, const struct jrounds *rounds, const struct jep *eps,
		struct jpaths *P)
{
	size_t nitems = rounds->first[rounds->n], used = 0, cap = 0;
	uint32_t hop[JN_MAX_HOPS];

	memset(P, 0, sizeof(*P));
	P->rounds = rounds;
	P->first = malloc((nitems + 1) * sizeof(*P->first));
	P->ok = malloc(nitems + 1);
	if (!P->first || !P->ok)
		return -ENOMEM;
	for (size_t i = 0; i < nitems; i++) {
		const struct jitem *it = &rounds->items[i];
		int hops = jnet_walk(n, &eps[it->dst], it->src_sw, false, hop);
		P->first[i] = used;
		P->ok[i] = hops >= 0;
		if (hops <= 0)
			continue;
		if (used + (size_t)hops > cap) {
			size_t c = cap ? 2 * cap : 4096;
			while (c < used + (size_t)hops)
				c *= 2;
			uint32_t *l = realloc(P->links, c * sizeof(*l));
			if (!l)
				return -ENOMEM;
			P->links = l;
			cap = c;
		}
		memcpy(P->links + used, hop, (size_t)hops * sizeof(*hop));
		used += (size_t)hops;
	}
	P->first[nitems] = used;
	return 0;
}

void jpaths_free(struct jpaths *P)
{
	free(P->first);
	free(P->ok);
	free(P->links);
	memset(P, 0, sizeof(*P));
}

void jpaths_add_round(const struct jpaths *P, unsigned r, float *load)
{
	const struct jrounds *R = P->rounds;

	for (size_t i = R->first[r]; i < R->first[r + 1]; i++) {
		float x = (float)R->items[i].count * R->items[i].demand;
		for (size_t k = P->first[i]; k < P->first[i + 1]; k++)
			load[P->links[k]] += x;
	}
}

void jpaths_clear_round(const struct jpaths *P, unsigned r, float *load)
{
	const struct jrounds *R = P->rounds;

	for (size_t k = P->first[R->first[r]]; k < P->first[R->first[r + 1]]; k++)
		load[P->links[k]] = 0;
}

void jpaths_peaks(const struct jpaths *P, float *load, float *sum, float *out)
{
	const struct jrounds *R = P->rounds;

	for (unsigned r = 0; r < R->n; r++) {
		jpaths_add_round(P, r, load);
		for (size_t k = P->first[R->first[r]]; k < P->first[R->first[r + 1]]; k++) {
			uint32_t l = P->links[k];
			sum[l] = load[l] > sum[l] ? load[l] : sum[l];
		}
		jpaths_clear_round(P, r, load);
	}
	for (size_t k = 0; k < P->first[R->first[R->n]]; k++) {	/* each link's sum once */
		uint32_t l = P->links[k];
		out[l] += sum[l];
		sum[l] = 0;
	}
}

void jpaths_round_shares(const struct jpaths *P, unsigned r, const float *load, const float *bg,
			 struct rt_job_round_ebb *out, uint64_t *undelivered)
{
	const struct jrounds *rounds = P->rounds;
	double sum = 0;

	out->flows = 0;
	out->worst = 1;
	out->load = 0;
	for (size_t i = rounds->first[r]; i < rounds->first[r + 1]; i++) {
		const struct jitem *it = &rounds->items[i];
		double most = 0, share;
		for (size_t k = P->first[i]; k < P->first[i + 1]; k++) {
			double x = load[P->links[k]] + (bg ? bg[P->links[k]] : 0);
			most = x > most ? x : most;
		}
		share = !P->ok[i] ? 0 : most > 1 ? 1 / most : 1;
		out->load = most > out->load ? most : out->load;
		if (!P->ok[i])
			*undelivered += it->count;
		sum += share * it->count;
		out->flows += it->count;
		out->worst = share < out->worst ? share : out->worst;
	}
	out->ebb = out->flows ? sum / (double)out->flows : 1;
}

// SPDX-License-Identifier: MIT
/*
 * bench_jobs.c - job-aware routing at scale, in-process (routing/rt_job.h):
 * a fat tree routed by ftree, then placement after placement of jobs on
 * random fragments of the hosts, started one by one and measured.
 *
 *	bench_jobs [--placements N] [--seed S] [--sizes A,B,C] [--jobs MIN:MAX]
 *	           [--check N] TOPOFILE
 *
 * A placement: between MIN and MAX jobs (default 4:16), each of a size drawn
 * from the sizes (default 64,256,1024) while free hosts last, its pattern in
 * turn ring, halving-doubling, alltoall; its hosts taken in fragments (a run
 * of 1 to a leaf's hosts of consecutive free hosts at a random place), its
 * ranks in random order.  Each job is measured alone on ftree's tables, then
 * started (timed, its blocks counted) and measured alone and beside the jobs
 * already running; every running job is measured beside the others before
 * and after each start.  An all-to-all job is also measured as pairwise
 * exchange (shift rounds), on ftree's tables and on its own.  Once the last
 * job started, every job's routes must be those it had after its own start;
 * the first N placements (--check, default 2) also run rt_validate() and the
 * credit-loop check on the tables with every job in place.  Then every job
 * ends and the tables must equal ftree's again (digest).
 *
 * Prints per pattern and size the median and lowest EBB, ftree's and
 * job-aware, the gain and the most any routing could give (1 / ftree's EBB),
 * the halving-doubling steps, all-to-all's highest link load and its
 * pairwise exchange, the CPU time of each start and its LFT blocks; whether
 * a running job's own routes ever changed when another started, how often
 * its EBB beside the others (their heaviest rounds) dropped; the time per
 * placement.  Exit 1 when a check fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "routing/rt_job.h"
#include "tests/rt_testview.h"

#define MAX_JOBS 64
#define MAX_SIZES 8

/* @clock in ms: CLOCK_MONOTONIC for wall time; CLOCK_THREAD_CPUTIME_ID for
 * what a job start costs, on a shared machine; CLOCK_PROCESS_CPUTIME_ID for
 * the whole bench (the checks' thread pool included) */
static double clock_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rng_next(s) % n);
}

/* The hosts in leaf order: CA ports with a LID on a switch. */
struct hosts {
	uint32_t n;
	uint16_t *lid;
	uint32_t *leaf_first;	/* hosts of one leaf are consecutive */
	uint32_t per_leaf;
};

static int hosts_find(const struct rtv *r, struct hosts *h)
{
	const struct ibsmd_rt_view *v = &r->v;

	h->lid = malloc((size_t)(v->max_lid + 1) * sizeof(*h->lid));
	if (!h->lid)
		return -ENOMEM;
	h->n = 0;
	h->per_leaf = 0;
	for (uint32_t s = 0; s < v->nswitches; s++) {
		const struct ibsmd_rt_node *nd = &v->nodes[v->switch_node[s]];
		uint32_t here = 0;
		for (unsigned p = 1; p <= nd->nports; p++) {
			uint32_t peer = nd->ports[p].peer;
			if (peer >= v->nnodes || ibsmd_is_switch(v, peer))
				continue;
			const struct ibsmd_rt_port *cp = &v->nodes[peer].ports[nd->ports[p].peer_port];
			if (cp->lid) {
				h->lid[h->n++] = cp->lid;
				here++;
			}
		}
		h->per_leaf = here > h->per_leaf ? here : h->per_leaf;
	}
	return 0;
}

/* A running job of the bench. */
struct bjob {
	char name[16];
	struct rt_job_spec spec;
	uint32_t *first;
	uint16_t *lids;
	uint8_t *rails;
	uint32_t size;
	struct rt_job_ebb base, alone, beside;	/* beside: after the last start */
	double pairwise[2];	/* alltoall as shift rounds: ftree, job-aware */
	struct rt_job_paths *paths;	/* walked right after its start */
	float *peak;		/* its heaviest round's load per link (routed tables) */
	float *bg;		/* the peaks of the jobs started before and after it,
				 * summed in start order */
};

/* Samples of one figure. */
struct samples {
	double *v;
	size_t n, cap;
};

static void sample(struct samples *s, double x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			exit(3);
	}
	s->v[s->n++] = x;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(struct samples *s)
{
	if (!s->n)
		return 0;
	qsort(s->v, s->n, sizeof(*s->v), dcmp);
	return s->n % 2 ? s->v[s->n / 2] : (s->v[s->n / 2 - 1] + s->v[s->n / 2]) / 2;
}

static double highest(struct samples *s)
{
	double m = -1e300;

	for (size_t i = 0; i < s->n; i++)
		m = s->v[i] > m ? s->v[i] : m;
	return s->n ? m : 0;
}

static double lowest(struct samples *s)
{
	double m = 1e300;

	for (size_t i = 0; i < s->n; i++)
		m = s->v[i] < m ? s->v[i] : m;
	return s->n ? m : 0;
}

enum { F_BASE, F_JOB, F_BESIDE, F_NFIG };
#define NPAT 3
#define STEP_SLOTS RT_JOB_MAX_ROUNDS

struct figures {
	struct samples main[NPAT][MAX_SIZES][F_NFIG];	/* ring, hd whole, alltoall at
							 * once */
	struct samples routed[MAX_SIZES][2];		/* alltoall: the shifts routed for */
	struct samples steps[MAX_SIZES][F_NFIG];	/* each hd round, every job */
	struct samples step_min[MAX_SIZES][F_NFIG];	/* a job's worst round */
	struct samples gain[NPAT][MAX_SIZES];		/* job-aware / ftree */
	struct samples ceiling[NPAT][MAX_SIZES];	/* 1 / ftree: the most a job can gain */
	struct samples load[MAX_SIZES][2];		/* alltoall: highest link load, ftree
							 * and job-aware */
	struct samples pairwise[MAX_SIZES][2];		/* alltoall: other shifts, ditto */
	struct samples start_ms[NPAT][MAX_SIZES], blocks[NPAT][MAX_SIZES];
	uint64_t drops, drop_checks, routes_moved, route_checks;
	double worst_drop;
};

static uint64_t digest(const struct rtv *r)
{
	uint64_t h = 1469598103934665603ull;

	for (uint32_t n = 0; n < r->v.nnodes; n++)
		for (uint32_t l = 0; r->lft[n] && l <= r->v.max_lid; l++)
			h = (h ^ r->lft[n][l]) * 1099511628211ull;
	return h;
}

static bool random_order = true;

/* Take @size free hosts in fragments, in random rank order or in host-list
 * order (the hosts sorted as the fabric numbers them, leaf by leaf: as a
 * scheduler's sorted node list gives them). */
static int place(const struct hosts *h, uint8_t *taken, uint32_t size, uint64_t *rng,
		 struct bjob *j)
{
	uint32_t got = 0, tries = 0;

	j->first = malloc(((size_t)size + 1) * sizeof(*j->first));
	j->lids = malloc((size_t)size * sizeof(*j->lids));
	j->rails = calloc(size, 1);
	if (!j->first || !j->lids || !j->rails)
		return -ENOMEM;
	while (got < size && tries++ < 100000) {
		uint32_t at = rnd(rng, h->n), len = 1 + rnd(rng, h->per_leaf);
		while (at < h->n && len-- && got < size && !taken[at]) {
			taken[at] = 1;
			j->lids[got++] = h->lid[at++];
		}
	}
	if (got < size)
		return -ENOSPC;
	if (!random_order)
		for (uint32_t at = 0, k = 0; at < h->n; at++)
			if (taken[at] == 1) {
				taken[at] = 2;
				j->lids[k++] = h->lid[at];
			}
	for (uint32_t i = size - 1; random_order && i > 0; i--) {
		uint32_t k = rnd(rng, i + 1);
		uint16_t t = j->lids[i];
		j->lids[i] = j->lids[k];
		j->lids[k] = t;
	}
	for (uint32_t i = 0; i <= size; i++)
		j->first[i] = i;
	j->size = size;
	return 0;
}

static void job_release(struct bjob *j)
{
	free(j->first);
	free(j->lids);
	free(j->rails);
	free(j->peak);
	free(j->bg);
	rt_job_paths_free(j->paths);
	memset(j, 0, sizeof(*j));
}

static int measure_alone(struct rt_job_meter *m, const struct rt_job_spec *spec,
			 struct rt_job_ebb *e)
{
	struct rt_job_paths *P = NULL;
	int rc = rt_job_meter_walk(m, spec, &P);

	if (rc == 0)
		rt_job_paths_ebb(m, P, NULL, e);
	rt_job_paths_free(P);
	return rc;
}

/*
 * Job @j (jobs[n]) just started: its routes walked once (measured alone,
 * its peaks), its background the peaks of the n jobs before it; then every
 * running job gets the new job's peaks added to its background and is
 * measured beside the others into @after, over the routes walked at its own
 * start (its figure before this start is the one the last start left in
 * ->beside).  A start moves no other job's entry: routes_kept() checks it
 * once the placement's last job started.
 */
static int measure_start(struct rt_job_meter *m, struct bjob *jobs, unsigned n,
			 double *before, double *after)
{
	struct bjob *j = &jobs[n];
	uint32_t nl = rt_job_meter_links(m);
	int rc = rt_job_meter_walk(m, &j->spec, &j->paths);

	if (rc)
		return rc;
	j->peak = calloc(nl, sizeof(*j->peak));
	j->bg = calloc(nl, sizeof(*j->bg));
	if (!j->peak || !j->bg)
		return -ENOMEM;
	rt_job_paths_ebb(m, j->paths, NULL, &j->alone);
	rt_job_paths_peaks(m, j->paths, j->peak);
	for (unsigned k = 0; k < n; k++)
		for (uint32_t l = 0; l < nl; l++)
			j->bg[l] += jobs[k].peak[l];
	for (unsigned k = 0; k < n; k++) {
		for (uint32_t l = 0; l < nl; l++)
			jobs[k].bg[l] += j->peak[l];
		before[k] = jobs[k].beside.whole.ebb;
	}
	for (unsigned k = 0; k <= n; k++) {
		rt_job_paths_ebb(m, jobs[k].paths, jobs[k].bg, &jobs[k].beside);
		after[k] = jobs[k].beside.whole.ebb;
	}
	return 0;
}

/* Every job of the placement walked again: its routes must be those walked
 * right after its own start (the entries of a running job never move, so a
 * change at any later start would still show).  Counted into @F. */
static int routes_kept(struct rt_job_meter *m, struct bjob *jobs, unsigned n, struct figures *F)
{
	for (unsigned k = 0; k < n; k++) {
		struct rt_job_paths *now;
		int rc = rt_job_meter_walk(m, &jobs[k].spec, &now);
		if (rc)
			return rc;
		F->route_checks++;
		F->routes_moved += !rt_job_paths_same(now, jobs[k].paths);
		rt_job_paths_free(now);
	}
	return 0;
}

static unsigned size_slot(const uint32_t *sizes, unsigned nsizes, uint32_t size)
{
	for (unsigned i = 0; i < nsizes; i++)
		if (sizes[i] == size)
			return i;
	return 0;
}

static void record(struct figures *F, const struct bjob *j, unsigned zs)
{
	const struct rt_job_ebb *e[F_NFIG] = { &j->base, &j->alone, &j->beside };
	unsigned p = j->spec.pattern;

	for (int f = 0; f < F_NFIG; f++) {
		/* all-to-all: "at once" here; its shifts below */
		sample(&F->main[p][zs][f], p == RT_JOB_ALLTOALL ? e[f]->round[0].ebb : e[f]->whole.ebb);
		if (p != RT_JOB_HALVING_DOUBLING)
			continue;
		double lo = 1;
		for (unsigned s = 0; s < e[f]->nrounds; s++) {
			sample(&F->steps[zs][f], e[f]->round[s].ebb);
			lo = e[f]->round[s].ebb < lo ? e[f]->round[s].ebb : lo;
		}
		sample(&F->step_min[zs][f], lo);
	}
	/* the gain: all-to-all's over the shifts the router did not see */
	double base = p == RT_JOB_ALLTOALL ? j->pairwise[0] : j->base.whole.ebb;
	double job = p == RT_JOB_ALLTOALL ? j->pairwise[1] : j->alone.whole.ebb;
	if (base > 0) {
		sample(&F->gain[p][zs], job / base);
		sample(&F->ceiling[p][zs], 1 / base);
	}
	if (p == RT_JOB_ALLTOALL)
		for (int f = 0; f < 2; f++) {
			sample(&F->load[zs][f], e[f]->round[0].load);
			sample(&F->routed[zs][f], e[f]->whole.ebb);
			sample(&F->pairwise[zs][f], j->pairwise[f]);
		}
}

static bool sound(struct rtv *r)
{
	static const struct ibsmd_routing_engine one_sl = { .name = "jobs" };
	struct rt_validation val;
	struct rt_cdg_result cdg;
	int v = rt_validate(&r->ctx, &val), c = rt_cdg_check(&r->ctx, &one_sl, NULL, &cdg);

	if (v || c)
		fprintf(stderr, "bench_jobs: validation %d (%s), credit loops %d (%s)\n", v,
			val.first_problem, c, cdg.first_cycle);
	return v == 0 && c == 0;
}

#define SHIFTS 8	/* shift rounds sampled per all-to-all job */

/*
 * All-to-all as pairwise exchange (rank i sends to rank i + k in round k,
 * k = 1 .. n-1), over other shifts than the RT_JOB_SHIFTS the router routes
 * for (rt_job_pattern.c): SHIFTS odd shifts drawn from @seed (rank counts are
 * powers of two, so an odd shift is one cycle: a ring over the ranks taken k
 * apart),
 * each measured alone as a ring on the tables as they are; their harmonic
 * mean (the rounds wait for each other) into @out.
 */
static int pairwise_ebb(struct rt_job_meter *m, const struct bjob *j, uint64_t seed, double *out)
{
	uint16_t *lids = malloc((size_t)j->size * sizeof(*lids));
	double time = 0;
	int rc = lids ? 0 : -ENOMEM;

	for (unsigned t = 0; rc == 0 && t < SHIFTS; t++) {
		uint64_t k = 1 + 2 * (rng_next(&seed) % (j->size / 2));
		for (uint32_t i = 0; i < j->size; i++)
			lids[i] = j->lids[(uint64_t)i * k % j->size];
		struct rt_job_spec ring = j->spec;
		ring.pattern = RT_JOB_RING;
		ring.lids = lids;
		struct rt_job_ebb e;
		rc = measure_alone(m, &ring, &e);
		time += e.whole.ebb > 0 ? 1 / e.whole.ebb : 1e9;
	}
	*out = SHIFTS / time;
	free(lids);
	return rc;
}

static int run_placement(struct rtv *r, struct rt_job_meter *m, const struct hosts *h,
			 struct rt_jobs *J,
			 const uint32_t *sizes, unsigned nsizes, unsigned jmin, unsigned jmax,
			 uint64_t *rng, unsigned index, bool check, struct figures *F,
			 uint64_t base_digest, unsigned *pattern_turn)
{
	struct bjob jobs[MAX_JOBS];
	uint8_t *taken = calloc(h->n, 1);
	unsigned want = jmin + rnd(rng, jmax - jmin + 1), n = 0;
	double before[MAX_JOBS], after[MAX_JOBS];
	int rc = taken ? 0 : -ENOMEM, bad = 0;

	memset(jobs, 0, sizeof(jobs));
	while (rc == 0 && n < want && n < MAX_JOBS) {
		struct bjob *j = &jobs[n];
		uint32_t size = sizes[rnd(rng, nsizes)];
		if (place(h, taken, size, rng, j)) {
			job_release(j);
			break;
		}
		snprintf(j->name, sizeof(j->name), "p%u.j%u", index, n);
		j->spec = (struct rt_job_spec){ .name = j->name,
						.pattern = (enum rt_job_pattern)((*pattern_turn)++ % NPAT),
						.nranks = size, .first = j->first, .lids = j->lids,
						.rails = j->rails };
		rc = measure_alone(m, &j->spec, &j->base);
		uint64_t shift_seed = (uint64_t)index << 32 | n;
		bool a2a = j->spec.pattern == RT_JOB_ALLTOALL;
		if (rc == 0 && a2a)
			rc = pairwise_ebb(m, j, shift_seed, &j->pairwise[0]);
		struct rt_job_report rep;
		double t0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
		if (rc == 0)
			rc = rt_jobs_start(J, &j->spec, NULL, &rep);
		double ms = clock_ms(CLOCK_THREAD_CPUTIME_ID) - t0;
		if (rc == 0)
			rc = measure_start(m, jobs, n, before, after);
		if (rc == 0 && a2a)
			rc = pairwise_ebb(m, j, shift_seed, &j->pairwise[1]);
		n++;
		if (rc)
			break;
		unsigned zs = size_slot(sizes, nsizes, size);
		sample(&F->start_ms[j->spec.pattern][zs], ms);
		sample(&F->blocks[j->spec.pattern][zs], (double)rep.blocks);
		for (unsigned k = 0; k + 1 < n; k++) {
			F->drop_checks++;
			if (after[k] < before[k] - 1e-9) {
				F->drops++;
				F->worst_drop = before[k] - after[k] > F->worst_drop ? before[k] - after[k]
										 : F->worst_drop;
			}
		}
	}
	uint64_t moved = F->routes_moved;
	if (rc == 0)
		rc = routes_kept(m, jobs, n, F);
	if (rc == 0 && F->routes_moved != moved) {
		fprintf(stderr, "bench_jobs: placement %u: a start moved a running job's routes\n",
			index);
		bad = 1;
	}
	if (rc == 0 && check && n && !sound(r))
		bad = 1;
	for (unsigned k = 0; rc == 0 && k < n; k++)
		record(F, &jobs[k], size_slot(sizes, nsizes, jobs[k].size));
	for (unsigned k = 0; k < n; k++) {
		struct rt_job_report rep;
		if (rc == 0)
			rc = rt_jobs_end(J, jobs[k].name, &rep);
		job_release(&jobs[k]);
	}
	if (rc == 0 && digest(r) != base_digest) {
		fprintf(stderr, "bench_jobs: placement %u: the tables differ from ftree's after "
			"every job ended\n", index);
		bad = 1;
	}
	free(taken);
	if (rc) {
		fprintf(stderr, "bench_jobs: placement %u: %s\n", index, strerror(-rc));
		return -1;
	}
	return bad ? -1 : 0;
}

static void print_fig(const char *what, struct samples *base, struct samples *job,
		      struct samples *beside)
{
	printf("  %-26s ftree median %.3f lowest %.3f | job-aware median %.3f lowest %.3f | "
	       "beside the others median %.3f lowest %.3f (%zu)\n", what, median(base),
	       lowest(base), median(job), lowest(job), median(beside), lowest(beside), job->n);
}

static void report(struct figures *F, const uint32_t *sizes, unsigned nsizes)
{
	static const char *const pname[NPAT] = { "ring", "halving-doubling (steps in turn)",
						 "alltoall at once" };

	for (unsigned z = 0; z < nsizes; z++) {
		printf("jobs of %u hosts:\n", sizes[z]);
		for (unsigned p = 0; p < NPAT; p++) {
			print_fig(pname[p], &F->main[p][z][F_BASE], &F->main[p][z][F_JOB],
				  &F->main[p][z][F_BESIDE]);
			if (p == RT_JOB_ALLTOALL && F->load[z][0].n) {
				printf("  %-26s highest link load, median job: ftree %.3f, job-aware %.3f (the "
				       "mean share falls only past 1; the slowest flow gets 1 / that)\n",
				       "", median(&F->load[z][0]), median(&F->load[z][1]));
				printf("  %-26s %d shifts it did not route for, in turn: ftree median %.3f "
				       "lowest %.3f | job-aware median %.3f lowest %.3f\n",
				       "alltoall pairwise exch.", SHIFTS, median(&F->pairwise[z][0]),
				       lowest(&F->pairwise[z][0]), median(&F->pairwise[z][1]),
				       lowest(&F->pairwise[z][1]));
				printf("  %-26s the %d shifts it routes for, in turn: ftree median %.3f | "
				       "job-aware median %.3f\n", "", RT_JOB_SHIFTS, median(&F->routed[z][0]),
				       median(&F->routed[z][1]));
			}
			if (F->gain[p][z].n)
				printf("  %-26s median gain %+.1f%% (the most routing could give the median "
				       "job: %+.1f%%, 1 / ftree's EBB)\n", "", (median(&F->gain[p][z]) - 1) * 100,
				       (median(&F->ceiling[p][z]) - 1) * 100);
		}
		print_fig("hd: every step", &F->steps[z][F_BASE], &F->steps[z][F_JOB],
			  &F->steps[z][F_BESIDE]);
		print_fig("hd: a job's worst step", &F->step_min[z][F_BASE], &F->step_min[z][F_JOB],
			  &F->step_min[z][F_BESIDE]);
		for (unsigned p = 0; p < NPAT; p++) {
			double ms = median(&F->start_ms[p][z]), blocks = median(&F->blocks[p][z]);
			printf("  start (%s): routing CPU median %.1f ms, longest %.1f ms; LFT blocks "
			       "median %.0f, most %.0f\n", pname[p], ms, highest(&F->start_ms[p][z]), blocks,
			       highest(&F->blocks[p][z]));
		}
	}
	printf("jobs whose own routes (so EBB alone) changed while others started: %llu of %llu\n",
	       (unsigned long long)F->routes_moved, (unsigned long long)F->route_checks);
	printf("running jobs whose EBB beside the others dropped when another started: "
	       "%llu of %llu (worst drop %.3f)\n", (unsigned long long)F->drops,
	       (unsigned long long)F->drop_checks, F->worst_drop);
}

int main(int argc, char **argv)
{
	unsigned placements = 100, jmin = 4, jmax = 16, check = 2, nsizes = 0;
	uint32_t sizes[MAX_SIZES];
	uint64_t seed = 1;
	int i;

	for (i = 1; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		const char *a = argv[i + 1];
		if (!strcmp(argv[i], "--placements"))
			placements = (unsigned)atoi(a);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(a, NULL, 0);
		else if (!strcmp(argv[i], "--order"))
			random_order = strcmp(a, "hostlist") != 0;
		else if (!strcmp(argv[i], "--check"))
			check = (unsigned)atoi(a);
		else if (!strcmp(argv[i], "--jobs") && sscanf(a, "%u:%u", &jmin, &jmax) == 2 &&
			 jmin && jmin <= jmax && jmax <= MAX_JOBS)
			continue;
		else if (!strcmp(argv[i], "--sizes")) {
			for (char *p = (char *)a; *p && nsizes < MAX_SIZES; p += *p == ',') {
				char *end;
				sizes[nsizes++] = (uint32_t)strtoul(p, &end, 10);
				p = end;
			}
		} else {
			fprintf(stderr, "bench_jobs: bad option %s\n", argv[i]);
			return 2;
		}
	}
	if (i + 1 != argc) {
		fprintf(stderr, "usage: bench_jobs [--placements N] [--seed S] [--sizes A,B,C] "
			"[--jobs MIN:MAX] [--check N] TOPOFILE\n");
		return 2;
	}
	if (!nsizes) {
		sizes[nsizes++] = 64;
		sizes[nsizes++] = 256;
		sizes[nsizes++] = 1024;
	}
	static const char *const opts[] = { NULL };
	struct rtv r;
	if (rtv_load(&r, argv[i], NULL, opts))
		return 2;
	const struct ibsmd_routing_engine *ftree = rt_builtin_find("ftree");
	void *st = NULL;
	double t0 = clock_ms(CLOCK_MONOTONIC);
	if ((ftree->setup && ftree->setup(&r.ctx, &st)) || ftree->compute_unicast(&r.ctx, st)) {
		fprintf(stderr, "bench_jobs: ftree failed: %s\n", rtv_last_log);
		return 2;
	}
	struct hosts h;
	if (hosts_find(&r, &h))
		return 3;
	printf("%s: %u hosts, %u switches, ftree %.0f ms\n", argv[i], h.n, r.v.nswitches,
	       clock_ms(CLOCK_MONOTONIC) - t0);
	struct rt_jobs *J;
	int rc = rt_jobs_open(&r.ctx, &J);
	if (rc) {
		fprintf(stderr, "bench_jobs: %s (%s)\n", strerror(-rc), rtv_last_log);
		return 2;
	}
	struct rt_job_meter *m;
	if ((rc = rt_job_meter_open(&r.ctx, &m))) {
		fprintf(stderr, "bench_jobs: %s\n", strerror(-rc));
		return 2;
	}
	uint64_t base = digest(&r), rng = seed;
	struct figures *F = calloc(1, sizeof(*F));
	unsigned turn = 0;
	int bad = 0;
	double wall0 = clock_ms(CLOCK_MONOTONIC), cpu0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
	for (unsigned p = 0; F && p < placements; p++)
		if (run_placement(&r, m, &h, J, sizes, nsizes, jmin, jmax, &rng, p, p < check, F, base,
				  &turn))
			bad = 1;
	double wall = clock_ms(CLOCK_MONOTONIC) - wall0, cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	if (F)
		report(F, sizes, nsizes);
	printf("%u placements in %.1f s (%.1f s of CPU): %.0f ms of CPU per placement, starts, "
	       "measures and checks\n", placements, wall / 1e3, cpu / 1e3,
	       placements ? cpu / placements : 0);
	rt_jobs_close(J);
	rt_job_meter_close(m);
	if (ftree->destroy)
		ftree->destroy(st);
	rtv_free(&r);
	return bad;
}

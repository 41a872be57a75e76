// SPDX-License-Identifier: MIT
/*
 * check_rt_job.c - job-aware routing (routing/rt_job.h) on generated fat
 * trees routed by ftree, where the answers are known:
 *
 * - a ring in random rank order over a full-bisection tree is one
 *   permutation: job-aware routing makes it contention-free (EBB 1.0, every
 *   flow alone on every link) where ftree's tables give it less, on the
 *   2-level and the 3-level tree;
 * - each halving-doubling step, and all-to-all at once, alone: no worse than
 *   ftree's, at least 0.95 for a job with room around it, at least 0.8 for a
 *   job on every host; all-to-all's shift rounds, ranks in the tree's order:
 *   every one contention-free (ftree's are not);
 * - only the job's LIDs' entries move; the tables pass rt_validate() and
 *   the credit-loop check; a second job leaves the first one's entries and
 *   EBB as they were; ending a job puts the base tables back byte for byte;
 * - the block limit is kept, and the destinations past it keep ftree's
 *   routes; a job ftree's tables already serve moves nothing; a degraded tree's turning destinations keep theirs; a torus is
 *   no fat tree: nothing moves;
 * - a job's spec is refused when it cannot be routed (duplicate name, a
 *   LID of a running job or of a switch, no ranks, a name too long);
 * - the rounds of each pattern (halving-doubling with a fold for 12 ranks),
 *   rails (two endpoints per rank), and the meter on broken tables.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_job.h"
#include "tests/check_util.h"
#include "tests/rt_testview.h"

#define TREE2 "fattree --levels 2 --radix 8"	/* 32 hosts, 8 leaves, 4 spines */
#define TREE3 "fattree --levels 3 --radix 8"	/* 128 hosts, 32 leaves, 48 switches */

struct bed {
	struct rtv r;
	void *ftree;
	uint16_t *host;		/* host LIDs in leaf order */
	uint32_t nhosts;
	uint8_t *base;		/* every LFT row, as ftree left them */
	size_t row;
};

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) % n);
}

static void bed_open(struct bed *b, const char *args)
{
	const struct ibsmd_routing_engine *e = rt_builtin_find("ftree");

	memset(b, 0, sizeof(*b));
	ck_assert_int_eq(rtv_load_generated(&b->r, args, NULL), 0);
	ck_assert_int_eq(e->setup(&b->r.ctx, &b->ftree), 0);
	ck_assert_int_eq(e->compute_unicast(&b->r.ctx, b->ftree), 0);
	const struct ibsmd_rt_view *v = &b->r.v;
	b->host = calloc(v->max_lid + 1u, sizeof(*b->host));
	ck_assert_ptr_nonnull(b->host);
	for (uint32_t s = 0; s < v->nswitches; s++) {
		const struct ibsmd_rt_node *nd = &v->nodes[v->switch_node[s]];
		for (unsigned p = 1; p <= nd->nports; p++) {
			uint32_t peer = nd->ports[p].peer;
			if (peer < v->nnodes && !ibsmd_is_switch(v, peer))
				b->host[b->nhosts++] = v->nodes[peer].ports[nd->ports[p].peer_port].lid;
		}
	}
	b->row = v->max_lid + 1u;
	b->base = malloc(v->nnodes * b->row);
	ck_assert_ptr_nonnull(b->base);
	for (uint32_t n = 0; n < v->nnodes; n++)
		if (b->r.lft[n])
			memcpy(b->base + n * b->row, b->r.lft[n], b->row);
}

static void bed_close(struct bed *b)
{
	rt_builtin_find("ftree")->destroy(b->ftree);
	free(b->host);
	free(b->base);
	rtv_free(&b->r);
}

/* A job of @n hosts b->host[@from + i * @stride] in a random order (seed
 * @seed; 0: that order), one endpoint each (rail 0). */
struct job {
	char name[32];
	uint32_t first[1025];
	uint16_t lids[1024];
	uint8_t rails[1024];
	struct rt_job_spec spec;
};

static void job_strided(struct job *j, const char *name, const struct bed *b, uint32_t from,
			uint32_t stride, uint32_t n, uint64_t seed, enum rt_job_pattern p)
{
	ck_assert_uint_le(from + (n - 1) * stride, b->nhosts - 1);
	snprintf(j->name, sizeof(j->name), "%s", name);
	for (uint32_t i = 0; i < n; i++) {
		j->lids[i] = b->host[from + i * stride];
		j->rails[i] = 0;
		j->first[i] = i;
	}
	j->first[n] = n;
	rng_state = seed;
	for (uint32_t i = n - 1; seed && i > 0; i--) {
		uint32_t k = rnd(i + 1);
		uint16_t t = j->lids[i];
		j->lids[i] = j->lids[k];
		j->lids[k] = t;
	}
	j->spec = (struct rt_job_spec){ .name = j->name, .pattern = p, .nranks = n,
					.first = j->first, .lids = j->lids, .rails = j->rails };
}

/* Hosts @from .. @from + @n - 1. */
static void job_make(struct job *j, const char *name, const struct bed *b, uint32_t from,
		     uint32_t n, uint64_t seed, enum rt_job_pattern p)
{
	job_strided(j, name, b, from, 1, n, seed, p);
}

static struct rt_job_ebb measure(struct bed *b, const struct rt_job_spec *s)
{
	struct rt_job_meter *m;
	struct rt_job_ebb e;

	ck_assert_int_eq(rt_job_meter_open(&b->r.ctx, &m), 0);
	ck_assert_int_eq(rt_job_meter_ebb(m, s, NULL, &e), 0);
	rt_job_meter_close(m);
	return e;
}

static bool is_job_lid(const struct job *j, uint16_t lid)
{
	for (uint32_t i = 0; i < j->spec.first[j->spec.nranks]; i++)
		if (j->lids[i] == lid)
			return true;
	return false;
}

/* Entries that differ from ftree's: only LIDs of @j (NULL: none at all). */
static void only_moved(const struct bed *b, const struct job *j)
{
	for (uint32_t n = 0; n < b->r.v.nnodes; n++)
		for (uint32_t l = 0; b->r.lft[n] && l < b->row; l++)
			if (b->r.lft[n][l] != b->base[n * b->row + l])
				ck_assert_msg(j && is_job_lid(j, (uint16_t)l),
					      "node %u LID %u moved by no job", n, l);
}

static void sound(struct bed *b)
{
	struct rt_validation val;
	struct rt_cdg_result cdg;

	ck_assert_int_eq(rt_validate(&b->r.ctx, &val), 0);
	ck_assert_int_eq(rt_cdg_check(&b->r.ctx, rt_builtin_find("ftree"), b->ftree, &cdg), 0);
}

static void ring_is_contention_free(const char *tree, uint32_t n)
{
	struct bed b;
	struct job j;
	struct rt_jobs *J;
	struct rt_job_report rep;

	bed_open(&b, tree);
	job_make(&j, "ring", &b, 0, n, 7, RT_JOB_RING);
	struct rt_job_ebb before = measure(&b, &j.spec);
	ck_assert_double_lt(before.round[0].ebb, 1.0);	/* ftree's: contention */
	ck_assert_int_eq(rt_jobs_open(&b.r.ctx, &J), 0);
	ck_assert_int_eq(rt_jobs_start(J, &j.spec, NULL, &rep), 0);
	ck_assert(rep.coloured);
	ck_assert_uint_eq(rep.dests, n);
	ck_assert_uint_gt(rep.rerouted, n / 2);	/* the others: ftree's port was right */
	ck_assert_uint_le(rep.rerouted, n);
	ck_assert_uint_gt(rep.blocks, 0);
	struct rt_job_ebb after = measure(&b, &j.spec);
	ck_assert_uint_eq(after.nrounds, 1);
	ck_assert_double_eq(after.round[0].ebb, 1.0);
	ck_assert_double_eq(after.round[0].worst, 1.0);
	ck_assert_uint_eq(after.undelivered, 0);
	only_moved(&b, &j);
	sound(&b);
	ck_assert_int_eq(rt_jobs_end(J, "ring", &rep), 0);
	ck_assert_uint_gt(rep.entries, 0);
	only_moved(&b, NULL);
	rt_jobs_close(J);
	bed_close(&b);
}

START_TEST(ring_2_levels)
{
	ring_is_contention_free(TREE2, 32);
}
END_TEST

START_TEST(ring_3_levels)
{
	ring_is_contention_free(TREE3, 128);
}
END_TEST

/*
 * Halving-doubling's steps and all-to-all share one table.  A job on every
 * other host (half of each leaf free): every step and all-to-all at once at
 * least 0.95 (here, 1.0).  A job on every host in random order leaves no
 * spare link: each step no worse than ftree's, and the steps in turn at least
 * a third faster.  All-to-all's shift rounds, ranks in random order: no worse
 * than ftree's in turn (one table cannot serve every shift of a random order:
 * rt_job.h; the tree order's are below).
 */
static void shared(const char *what, uint32_t stride, uint32_t n, double floor, double gain)
{
	static const enum rt_job_pattern pats[] = { RT_JOB_HALVING_DOUBLING, RT_JOB_ALLTOALL };
	struct bed b;

	bed_open(&b, TREE3);
	for (unsigned k = 0; k < 2; k++) {
		struct job j;
		struct rt_jobs *J;
		struct rt_job_report rep;
		job_strided(&j, what, &b, 0, stride, n, 11, pats[k]);
		struct rt_job_ebb before = measure(&b, &j.spec);
		ck_assert_int_eq(rt_jobs_open(&b.r.ctx, &J), 0);
		ck_assert_int_eq(rt_jobs_start(J, &j.spec, NULL, &rep), 0);
		struct rt_job_ebb after = measure(&b, &j.spec);
		ck_assert_uint_eq(after.nrounds, before.nrounds);
		unsigned rounds = pats[k] == RT_JOB_ALLTOALL ? 1 : after.nrounds;
		for (unsigned s = 0; s < rounds; s++) {
			ck_assert_double_ge(after.round[s].ebb + 1e-9, before.round[s].ebb);
			ck_assert_double_ge(after.round[s].ebb, floor);
		}
		if (pats[k] == RT_JOB_HALVING_DOUBLING)
			ck_assert_double_ge(after.whole.ebb, before.whole.ebb * gain);
		else
			ck_assert_double_ge(after.whole.ebb + 1e-9, before.whole.ebb);
		sound(&b);
		ck_assert_int_eq(rt_jobs_end(J, what, &rep), 0);
		only_moved(&b, NULL);
		rt_jobs_close(J);
	}
	bed_close(&b);
}

START_TEST(shared_tables_spread)
{
	shared("spread", 2, 64, 0.95, 1.1);
}
END_TEST

START_TEST(shared_tables_dense)
{
	shared("dense", 1, 128, 0.8, 1.33);
}
END_TEST

/*
 * All-to-all as pairwise exchange, ranks in the tree's order (a scheduler's
 * sorted host list) on fragments that do not start where a leaf does: ftree
 * routes by the host's place, so some shift rounds share links; routed by
 * rank, every shift is contention-free: the RT_JOB_SHIFTS the router sees,
 * and every odd one of the 63 (each measured as a ring over the ranks taken
 * k apart), and at once.
 */
static double odd_shifts(struct bed *b, struct job *j, uint32_t n, double *worst)
{
	struct job ring = *j;
	double time = 0;

	*worst = 1;
	ring.spec.pattern = RT_JOB_RING;
	ring.spec.lids = ring.lids;
	for (uint32_t k = 1; k < n; k += 2) {
		for (uint32_t i = 0; i < n; i++)
			ring.lids[i] = j->lids[i * k % n];
		double e = measure(b, &ring.spec).round[0].ebb;
		*worst = e < *worst ? e : *worst;
		time += 1 / e;
	}
	return (n / 2) / time;
}

/* Job @j moved only its own entries and left sound tables; ended, the
 * base tables are back; then the router and the bed go. */
static void end_sound(struct bed *b, struct job *j, struct rt_jobs *J)
{
	struct rt_job_report rep;

	only_moved(b, j);
	sound(b);
	ck_assert_int_eq(rt_jobs_end(J, j->name, &rep), 0);
	only_moved(b, NULL);
	rt_jobs_close(J);
	bed_close(b);
}

START_TEST(alltoall_in_tree_order)
{
	struct bed b;
	struct job j;
	struct rt_jobs *J;
	struct rt_job_report rep;
	double worst;
	uint32_t n = 0;

	bed_open(&b, TREE3);
	/* runs of 3 hosts every 4, from the second: 96 of 128; the first 64 */
	snprintf(j.name, sizeof(j.name), "a2a");
	for (uint32_t h = 1; h < b.nhosts && n < 64; h++)
		if (h % 4 != 0) {
			j.lids[n] = b.host[h];
			j.rails[n] = 0;
			j.first[n] = n;
			n++;
		}
	j.first[n] = n;
	j.spec = (struct rt_job_spec){ .name = j.name, .pattern = RT_JOB_ALLTOALL, .nranks = n,
				       .first = j.first, .lids = j.lids, .rails = j.rails };
	struct rt_job_ebb before = measure(&b, &j.spec);
	ck_assert_uint_eq(before.nrounds, 1 + RT_JOB_SHIFTS);
	ck_assert_str_eq(before.round[0].name, "at once");
	ck_assert_str_eq(before.round[1].name, "shift 1");
	ck_assert_double_lt(before.whole.ebb, 1.0);
	ck_assert_double_lt(odd_shifts(&b, &j, n, &worst), 1.0);
	ck_assert_int_eq(rt_jobs_open(&b.r.ctx, &J), 0);
	ck_assert_int_eq(rt_jobs_start(J, &j.spec, NULL, &rep), 0);
	ck_assert(rep.coloured);
	struct rt_job_ebb after = measure(&b, &j.spec);
	for (unsigned r = 0; r < after.nrounds; r++)
		ck_assert_msg(after.round[r].ebb == 1.0, "%s: %f", after.round[r].name,
			      after.round[r].ebb);
	ck_assert_double_eq(odd_shifts(&b, &j, n, &worst), 1.0);
	ck_assert_double_eq(worst, 1.0);
	end_sound(&b, &j, J);
}
END_TEST

/*
 * The same in random rank order, every other host: no one table serves every
 * shift, but the pass over all of them (rt_job_shifts.c) lowers the sharing:
 * the odd shifts, which the router never sees as rounds, from 0.64 under
 * ftree to 0.94 (0.77 by the colouring alone); at once no worse.
 */
START_TEST(alltoall_in_random_order)
{
	struct bed b;
	struct job j;
	struct rt_jobs *J;
	struct rt_job_report rep;
	double worst_before, worst_after;

	bed_open(&b, TREE3);
	job_strided(&j, "a2a", &b, 0, 2, 64, 5, RT_JOB_ALLTOALL);
	struct rt_job_ebb before = measure(&b, &j.spec);
	double odd_before = odd_shifts(&b, &j, 64, &worst_before);
	ck_assert_double_lt(odd_before, 0.95);
	ck_assert_int_eq(rt_jobs_open(&b.r.ctx, &J), 0);
	ck_assert_int_eq(rt_jobs_start(J, &j.spec, NULL, &rep), 0);
	ck_assert(rep.coloured);
	struct rt_job_ebb after = measure(&b, &j.spec);
	double odd_after = odd_shifts(&b, &j, 64, &worst_after);
	ck_assert_msg(odd_after >= 0.9, "odd shifts %f -> %f", odd_before, odd_after);
	ck_assert_double_ge(after.whole.ebb, before.whole.ebb);
	ck_assert_double_ge(after.round[0].ebb + 1e-9, before.round[0].ebb);
	end_sound(&b, &j, J);
}
END_TEST

/*
 * All-to-all at its smallest: 2 ranks (one shift: the pass over every shift
 * has nothing to share), 3 ranks on one leaf (no link at all), 3 ranks on
 * three leaves (two shifts): each starts, keeps sound tables, and ends with
 * the base tables back; its rounds are at once and one per distinct shift.
 */
START_TEST(alltoall_smallest)
{
	static const struct {
		uint32_t stride, n;
		unsigned rounds;
	} cases[] = { { 8, 2, 2 }, { 1, 3, 3 }, { 8, 3, 3 } };

	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct bed b;
		struct job j;
		struct rt_jobs *J;
		struct rt_job_report rep;
		bed_open(&b, TREE3);
		job_strided(&j, "tiny", &b, 1, cases[c].stride, cases[c].n, 3, RT_JOB_ALLTOALL);
		ck_assert_int_eq(rt_jobs_open(&b.r.ctx, &J), 0);
		ck_assert_int_eq(rt_jobs_start(J, &j.spec, NULL, &rep), 0);
		struct rt_job_ebb e = measure(&b, &j.spec);
		ck_assert_uint_eq(e.nrounds, cases[c].rounds);
		ck_assert_str_eq(e.round[1].name, "shift 1");
		ck_assert_uint_eq(e.undelivered, 0);
		end_sound(&b, &j, J);
	}
}
END_TEST

/* A second job leaves the first one's entries and figures alone. */
START_TEST(isolated)
{
	struct bed b;
	struct job a, c;
	struct rt_jobs *J;
	struct rt_job_report rep;

	bed_open(&b, TREE3);
	job_make(&a, "a", &b, 0, 64, 3, RT_JOB_HALVING_DOUBLING);
	job_make(&c, "c", &b, 64, 64, 5, RT_JOB_RING);
	ck_assert_int_eq(rt_jobs_open(&b.r.ctx, &J), 0);
	ck_assert_int_eq(rt_jobs_start(J, &a.spec, NULL, &rep), 0);
	struct rt_job_ebb ea = measure(&b, &a.spec);
	uint8_t *snap = malloc(b.r.v.nnodes * b.row);
	for (uint32_t n = 0; n < b.r.v.nnodes; n++)
		if (b.r.lft[n])
			memcpy(snap + n * b.row, b.r.lft[n], b.row);
	ck_assert_int_eq(rt_jobs_start(J, &c.spec, NULL, &rep), 0);
	ck_assert_uint_eq(rt_jobs_count(J), 2);
	for (uint32_t n = 0; n < b.r.v.nnodes; n++)
		for (uint32_t l = 0; b.r.lft[n] && l < b.row; l++)
			if (is_job_lid(&a, (uint16_t)l))
				ck_assert_uint_eq(b.r.lft[n][l], snap[n * b.row + l]);
	struct rt_job_ebb ea2 = measure(&b, &a.spec);
	for (unsigned s = 0; s < ea.nrounds; s++)
		ck_assert_double_eq(ea.round[s].ebb, ea2.round[s].ebb);
	ck_assert_double_eq(measure(&b, &c.spec).round[0].ebb, 1.0);
	sound(&b);
	/* ending the first leaves the second in place */
	ck_assert_int_eq(rt_jobs_end(J, "a", &rep), 0);
	ck_assert_double_eq(measure(&b, &c.spec).round[0].ebb, 1.0);
	ck_assert_str_eq(rt_jobs_spec(J, 0)->name, "c");
	ck_assert_int_eq(rt_jobs_end(J, "c", &rep), 0);
	only_moved(&b, NULL);
	ck_assert_int_eq(rt_jobs_end(J, "c", &rep), -ENOENT);
	free(snap);
	rt_jobs_close(J);
	bed_close(&b);
}
END_TEST

START_TEST(block_limit)
{
	struct bed b;
	struct job j;
	struct rt_jobs *J;
	struct rt_job_report rep;
	const struct rt_job_limits lim = { .max_blocks = 3 };

	bed_open(&b, TREE3);
	job_make(&j, "few", &b, 0, 128, 9, RT_JOB_RING);
	ck_assert_int_eq(rt_jobs_open(&b.r.ctx, &J), 0);
	ck_assert_int_eq(rt_jobs_start(J, &j.spec, &lim, &rep), 0);
	ck_assert_uint_le(rep.blocks, 3);
	ck_assert_uint_gt(rep.kept_budget, 0);
	ck_assert_uint_eq(rep.turning, 0);
	ck_assert_uint_gt(rep.rerouted, 0);
	ck_assert_uint_le(rep.rerouted + rep.kept_budget, rep.dests);
	/* the blocks changed, counted from the tables themselves */
	uint32_t blocks = 0;
	for (uint32_t n = 0; n < b.r.v.nnodes; n++)
		for (uint32_t k = 0; b.r.lft[n] && k * 64 < b.row; k++) {
			size_t len = b.row - k * 64 < 64 ? b.row - k * 64 : 64;
			blocks += memcmp(b.r.lft[n] + k * 64, b.base + n * b.row + k * 64, len) != 0;
		}
	ck_assert_uint_eq(blocks, rep.blocks);
	sound(&b);
	ck_assert_int_eq(rt_jobs_end(J, "few", &rep), 0);
	ck_assert_uint_eq(rep.blocks, blocks);
	only_moved(&b, NULL);
	rt_jobs_close(J);
	bed_close(&b);
}
END_TEST

/* A degraded tree: ftree turns some routes down-then-up (on SLs); the
 * switches those routes cross keep their entries, the rest may move, and the
 * whole stays free of credit loops with ftree's SLs. */
START_TEST(degraded_tree)
{
	struct bed b;
	struct job j;
	struct rt_jobs *J;
	struct rt_job_report rep;

	bed_open(&b, "fattree --levels 3 --radix 8 --remove-links 30 --seed 2");
	job_make(&j, "worn", &b, 0, 128, 4, RT_JOB_HALVING_DOUBLING);
	ck_assert_int_eq(rt_jobs_open(&b.r.ctx, &J), 0);
	ck_assert_int_eq(rt_jobs_start(J, &j.spec, NULL, &rep), 0);
	ck_assert(!rep.coloured);	/* not regular any more: local search only */
	ck_assert_uint_gt(rep.turning, 0);
	ck_assert_uint_gt(rep.rerouted, 0);
	only_moved(&b, &j);
	sound(&b);
	ck_assert_int_eq(rt_jobs_end(J, "worn", &rep), 0);
	only_moved(&b, NULL);
	rt_jobs_close(J);
	bed_close(&b);
}
END_TEST

START_TEST(not_a_tree)
{
	struct rtv r;
	struct rt_jobs *J;
	struct rt_job_report rep;
	uint32_t first[3] = { 0, 1, 2 };
	uint16_t lids[2] = { 0, 0 };
	uint8_t rails[2] = { 0, 0 };

	ck_assert_int_eq(rtv_load_generated(&r, "torus --dims 3x3 --hosts-per-switch 1", NULL), 0);
	const struct ibsmd_routing_engine *e = rt_builtin_find("minhop");
	void *st = NULL;
	ck_assert_int_eq(e->setup ? e->setup(&r.ctx, &st) : 0, 0);
	ck_assert_int_eq(e->compute_unicast(&r.ctx, st), 0);
	for (uint32_t n = 0, k = 0; n < r.v.nnodes && k < 2; n++)
		if (!ibsmd_is_switch(&r.v, n))
			lids[k++] = r.v.nodes[n].ports[1].lid;
	ck_assert_int_eq(rt_jobs_open(&r.ctx, &J), -EINVAL);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "not a fat tree"));
	struct rt_job_spec s = { .name = "t", .pattern = RT_JOB_RING, .nranks = 2,
				 .first = first, .lids = lids, .rails = rails };
	ck_assert_int_eq(rt_jobs_start(J, &s, NULL, &rep), 0);
	ck_assert_uint_eq(rep.rerouted, 0);
	ck_assert_uint_eq(rep.entries, 0);
	ck_assert_int_eq(rt_jobs_end(J, "t", &rep), 0);
	rt_jobs_close(J);
	if (e->destroy)
		e->destroy(st);
	rtv_free(&r);
}
END_TEST

START_TEST(refused_specs)
{
	struct bed b;
	struct job a, c;
	struct rt_jobs *J;
	struct rt_job_report rep;
	char longname[RT_JOB_NAME_MAX + 8];

	bed_open(&b, TREE2);
	ck_assert_int_eq(rt_jobs_open(&b.r.ctx, &J), 0);
	job_make(&a, "a", &b, 0, 8, 1, RT_JOB_RING);
	ck_assert_int_eq(rt_jobs_start(J, &a.spec, NULL, &rep), 0);
	job_make(&c, "a", &b, 8, 8, 1, RT_JOB_RING);
	ck_assert_int_eq(rt_jobs_start(J, &c.spec, NULL, &rep), -EEXIST);
	job_make(&c, "c", &b, 4, 8, 1, RT_JOB_RING);	/* shares hosts 4..7 with a */
	ck_assert_int_eq(rt_jobs_start(J, &c.spec, NULL, &rep), -EBUSY);
	job_make(&c, "c", &b, 8, 8, 1, RT_JOB_RING);
	c.lids[3] = b.r.v.nodes[b.r.v.switch_node[0]].ports[0].lid;	/* a switch */
	ck_assert_int_eq(rt_jobs_start(J, &c.spec, NULL, &rep), -EINVAL);
	c.lids[3] = (uint16_t)(b.r.v.max_lid + 1);
	ck_assert_int_eq(rt_jobs_start(J, &c.spec, NULL, &rep), -EINVAL);
	job_make(&c, "c", &b, 8, 8, 1, RT_JOB_RING);
	c.spec.nranks = 0;
	ck_assert_int_eq(rt_jobs_start(J, &c.spec, NULL, &rep), -EINVAL);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	job_make(&c, "c", &b, 8, 8, 1, RT_JOB_RING);
	c.spec.name = longname;
	ck_assert_int_eq(rt_jobs_start(J, &c.spec, NULL, &rep), -EINVAL);
	c.spec.name = "";
	ck_assert_int_eq(rt_jobs_start(J, &c.spec, NULL, &rep), -EINVAL);
	/* nothing of the refused ones stayed; a's routes did */
	ck_assert_uint_eq(rt_jobs_count(J), 1);
	only_moved(&b, &a);
	ck_assert_int_eq(rt_jobs_end(J, "a", &rep), 0);
	only_moved(&b, NULL);
	rt_jobs_close(J);
	bed_close(&b);
}
END_TEST

START_TEST(rounds_and_rails)
{
	struct bed b;
	struct job j;
	enum rt_job_pattern p;

	ck_assert_int_eq(rt_job_pattern_parse("halving-doubling", &p), 0);
	ck_assert_int_eq(p, RT_JOB_HALVING_DOUBLING);
	ck_assert_str_eq(rt_job_pattern_name(RT_JOB_ALLTOALL), "alltoall");
	ck_assert_int_eq(rt_job_pattern_parse("butterfly", &p), -EINVAL);
	bed_open(&b, TREE2);
	job_make(&j, "twelve", &b, 0, 12, 2, RT_JOB_HALVING_DOUBLING);
	struct rt_job_ebb e = measure(&b, &j.spec);
	ck_assert_uint_eq(e.nrounds, 4);	/* fold (ranks 8..11 with 0..3), steps 0..2 */
	ck_assert_str_eq(e.round[0].name, "fold");
	ck_assert_uint_eq(e.round[0].flows, 8);
	ck_assert_str_eq(e.round[3].name, "step 2");
	ck_assert_uint_eq(e.round[3].flows, 8);
	/* two rails: ranks of two endpoints, each rail its own ring */
	for (uint32_t i = 0; i < 12; i++) {
		j.lids[i] = b.host[i];
		j.rails[i] = (uint8_t)(i % 2);
	}
	for (uint32_t r = 0; r <= 6; r++)
		j.first[r] = 2 * r;
	j.spec.nranks = 6;
	j.spec.pattern = RT_JOB_RING;
	e = measure(&b, &j.spec);
	ck_assert_uint_eq(e.round[0].flows, 12);	/* 6 per rail */
	j.spec.pattern = RT_JOB_ALLTOALL;
	e = measure(&b, &j.spec);
	ck_assert_uint_eq(e.round[0].flows, 60);	/* 6 x 5 per rail */
	/* 6 ranks: shifts 1..5, each once, however the golden ratio falls */
	ck_assert_uint_le(e.nrounds, 6);
	for (unsigned r = 1; r < e.nrounds; r++) {
		ck_assert_uint_eq(e.round[r].flows, 12);
		for (unsigned q = 1; q < r; q++)
			ck_assert_str_ne(e.round[q].name, e.round[r].name);
	}
	ck_assert_str_eq(e.round[1].name, "shift 1");
	bed_close(&b);
}
END_TEST

/* A route cut on purpose: its flows count as undelivered, their share 0. */
START_TEST(meter_on_broken_tables)
{
	struct bed b;
	struct job j;
	struct rt_job_meter *m;
	struct rt_job_ebb e;

	bed_open(&b, TREE2);
	job_make(&j, "cut", &b, 0, 32, 0, RT_JOB_RING);	/* in leaf order */
	e = measure(&b, &j.spec);
	ck_assert_double_eq(e.round[0].ebb, 1.0);	/* neighbours: ftree's own order */
	/* host 4 (leaf 1) receives from host 3 (leaf 0): cut it at leaf 0 */
	uint32_t leaf0 = b.r.v.switch_node[0];
	b.r.lft[leaf0][b.host[4]] = IBSMD_NO_PORT;
	e = measure(&b, &j.spec);
	ck_assert_uint_eq(e.undelivered, 1);
	ck_assert_double_eq_tol(e.round[0].ebb, 31.0 / 32, 1e-9);
	ck_assert_double_eq(e.round[0].worst, 0);
	ck_assert_int_eq(rt_job_meter_open(&b.r.ctx, &m), 0);
	j.lids[0] = b.r.v.nodes[leaf0].ports[0].lid;
	ck_assert_int_eq(rt_job_meter_ebb(m, &j.spec, NULL, &e), -EINVAL);
	rt_job_meter_close(m);
	bed_close(&b);
}
END_TEST

/*
 * A job's routes walked once measure as the meter does, beside any
 * background, without reading the tables again; they differ from the routes
 * walked after the job's start moved its entries, and equal them again after
 * its end.  A round's load is its most loaded link, whose flows get 1 / it.
 */
START_TEST(walked_once)
{
	struct bed b;
	struct job j;
	struct rt_job_meter *m;
	struct rt_job_paths *P, *Q;
	struct rt_job_ebb e, f;
	struct rt_jobs *J;
	struct rt_job_report rep;

	bed_open(&b, TREE2);
	job_make(&j, "walked", &b, 0, 32, 7, RT_JOB_RING);
	ck_assert_int_eq(rt_job_meter_open(&b.r.ctx, &m), 0);
	uint32_t nl = rt_job_meter_links(m);
	float *bg = calloc(nl, sizeof(*bg)), *peaks = calloc(nl, sizeof(*peaks));
	float *peaks2 = calloc(nl, sizeof(*peaks2));
	ck_assert(bg && peaks && peaks2);
	ck_assert_int_eq(rt_job_meter_walk(m, &j.spec, &P), 0);
	rt_job_paths_ebb(m, P, NULL, &e);
	ck_assert_int_eq(rt_job_meter_ebb(m, &j.spec, NULL, &f), 0);
	ck_assert_double_eq(e.whole.ebb, f.whole.ebb);
	ck_assert_double_lt(e.round[0].ebb, 1.0);	/* ftree's: contention */
	ck_assert_double_gt(e.round[0].load, 1.0);
	ck_assert_double_eq_tol(e.round[0].worst, 1 / e.round[0].load, 1e-9);
	for (uint32_t l = 0; l < nl; l++)
		bg[l] = 1;
	rt_job_paths_ebb(m, P, bg, &e);
	ck_assert_int_eq(rt_job_meter_ebb(m, &j.spec, bg, &f), 0);
	ck_assert_double_eq(e.whole.ebb, f.whole.ebb);
	ck_assert_double_le(e.round[0].worst, 0.5);	/* every switch link it crosses: 2 or more */
	rt_job_paths_peaks(m, P, peaks);
	ck_assert_int_eq(rt_job_meter_peaks(m, &j.spec, peaks2), 0);
	ck_assert_mem_eq(peaks, peaks2, nl * sizeof(*peaks));
	rt_job_paths_ebb(m, P, NULL, &f);	/* the meter's scratch left clean */
	ck_assert_double_eq(f.whole.ebb, measure(&b, &j.spec).whole.ebb);

	ck_assert_int_eq(rt_jobs_open(&b.r.ctx, &J), 0);
	ck_assert_int_eq(rt_jobs_start(J, &j.spec, NULL, &rep), 0);
	ck_assert_int_eq(rt_job_meter_walk(m, &j.spec, &Q), 0);
	ck_assert(!rt_job_paths_same(P, Q));
	rt_job_paths_ebb(m, Q, NULL, &e);
	ck_assert_double_eq(e.whole.ebb, 1.0);
	ck_assert_double_eq(e.whole.load, 1.0);
	rt_job_paths_free(Q);
	ck_assert_int_eq(rt_jobs_end(J, "walked", &rep), 0);
	ck_assert_int_eq(rt_job_meter_walk(m, &j.spec, &Q), 0);
	ck_assert(rt_job_paths_same(P, Q));
	rt_job_paths_free(Q);
	rt_jobs_close(J);
	rt_job_paths_free(P);
	free(bg);
	free(peaks);
	free(peaks2);
	rt_job_meter_close(m);
	bed_close(&b);
}
END_TEST

/* A job ftree's tables already serve without contention (a ring in leaf
 * order: neighbours) keeps them: no entry moves, no block to send. */
START_TEST(served_already)
{
	struct bed b;
	struct job j;
	struct rt_jobs *J;
	struct rt_job_report rep;

	bed_open(&b, TREE3);
	job_make(&j, "served", &b, 0, 128, 0, RT_JOB_RING);
	ck_assert_double_eq(measure(&b, &j.spec).round[0].ebb, 1.0);
	ck_assert_int_eq(rt_jobs_open(&b.r.ctx, &J), 0);
	ck_assert_int_eq(rt_jobs_start(J, &j.spec, NULL, &rep), 0);
	ck_assert(!rep.coloured);
	ck_assert_uint_eq(rep.entries, 0);
	ck_assert_uint_eq(rep.blocks, 0);
	only_moved(&b, NULL);
	rt_jobs_close(J);
	bed_close(&b);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("rt_job");
	TCase *tc = tcase_create("jobs");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, ring_2_levels);
	tcase_add_test(tc, ring_3_levels);
	tcase_add_test(tc, shared_tables_spread);
	tcase_add_test(tc, shared_tables_dense);
	tcase_add_test(tc, alltoall_in_tree_order);
	tcase_add_test(tc, alltoall_in_random_order);
	tcase_add_test(tc, alltoall_smallest);
	tcase_add_test(tc, isolated);
	tcase_add_test(tc, block_limit);
	tcase_add_test(tc, degraded_tree);
	tcase_add_test(tc, not_a_tree);
	tcase_add_test(tc, refused_specs);
	tcase_add_test(tc, rounds_and_rails);
	tcase_add_test(tc, meter_on_broken_tables);
	tcase_add_test(tc, walked_once);
	tcase_add_test(tc, served_already);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

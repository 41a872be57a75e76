/* SPDX-License-Identifier: MIT */
/*
 * rt_job.h - job-aware routing: the LFT entries toward the hosts of the jobs
 * that run, shaped by the collective pattern each job repeats.
 *
 * A job is its ranks in order, each rank a node with its endpoints: the CA
 * ports (rails) of the node, each with a LID and a rail number (rt_job_hosts.h
 * finds them by NodeDescription).  Its pattern runs on every rail at once,
 * among the endpoints of that rail in rank order:
 *   ring              one round: rank i sends to rank i + 1 (mod n)
 *   halving-doubling  rounds "fold" (when n is no power of two, 2^k < n: rank
 *                     2^k + j exchanges with rank j) and "step t" for
 *                     t = 0 .. k-1: rank i exchanges with rank i XOR 2^t
 *   alltoall          round "at once": every rank sends to every other one
 *                     (as NCCL posts it); and pairwise exchange (as MPI runs
 *                     it for large messages): rounds "shift s", rank i sends
 *                     to rank i + s (mod n), for RT_JOB_SHIFTS shifts of the
 *                     n - 1 (rt_job_pattern.c says which)
 * Each host sends, and receives, one unit of traffic per round: a ring or
 * halving-doubling flow is a whole link's worth, an all-to-all flow 1/(n-1).
 *
 * The router (struct rt_jobs) works over one set of base tables, an engine's
 * result (ctx->lft).  Starting a job moves only the entries of the job's
 * endpoint LIDs, and only onto routes of the same length that go up then
 * down by the fat tree's levels (rt_levels.h), like the base engine's own:
 *  - a single permutation (the ring, each halving-doubling step) is routed
 *    without contention where the tree allows it: on a regular tree (every
 *    switch has one link into each of the planes above it, as k-ary trees
 *    do) the flows are edge-coloured level by level, a colour per plane
 *    (the Clos network's rearrangeability);
 *  - halving-doubling's steps share one table: they are coloured one after
 *    the other, each keeping the entries the steps before it set;
 *  - all-to-all gives each destination its planes by its rank (d-mod-k by
 *    rank, rt_job_init.c): where the ranks follow the tree, as a scheduler's
 *    sorted host list does, every one of the n - 1 shift rounds is
 *    contention-free at once, and "at once" spreads evenly; the
 *    destinations behind one switch always come down on different planes.
 *    Where a shift still shares a link (ranks in another order), a pass
 *    over all n - 1 shifts moves the leaves' up entries (rt_job_shifts.c);
 *  - (the colourings run only when a round of the job loads a link past its
 *    capacity on the base tables: a job those already serve keeps them);
 *  - then a local search moves single entries where that lowers the sum of
 *    the squared link loads over every round, the other running jobs'
 *    heaviest loads counted in: a job keeps off the links of the others
 *    where it can.  Not for all-to-all: the search sees RT_JOB_SHIFTS of
 *    the n - 1 shift rounds, and fitting those (0.997 on them in the bench)
 *    cost the others more than it gave (0.80 on shifts it did not see,
 *    against 0.85 without it, 256 hosts in random order).  All-to-all keeps
 *    its routes only where they serve it better than the base tables, at
 *    once and in the shifts it sees, else it keeps the base routes.
 *    A running job's entries are never touched.
 * Where a base route turns down-then-up (a degraded tree: the engine put
 * such routes on other SLs), the switches it crosses keep their entries, so
 * no turning route changes; a fabric that is no fat tree keeps its routes.
 * After routing, every route toward the job's LIDs is walked from every
 * switch: it must reach the LID and go up then down, unless it turned
 * before (so the job's routes add no credit loop to up/down SL-0 routes).
 * The entries changed are counted in LFT blocks (a block is 64 LIDs of one
 * switch: one SMP); past the limit, the job's last destinations keep their
 * base routes.  Ending a job puts its entries back.
 */
#ifndef IBSMD_RT_JOB_H
#define IBSMD_RT_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "routing/rt.h"

#define RT_JOB_NAME_MAX 64	/* bytes of a job's name, the NUL included */
#define RT_JOB_MAX_ROUNDS 18	/* fold + 16 steps: 65,536 ranks */
#define RT_JOB_SHIFTS 8		/* all-to-all's shift rounds routed and measured */
#define RT_JOB_MAX_RANKS 65536
#define RT_JOB_DEFAULT_MAX_BLOCKS 262144	/* about 0.2 s of LFT SMPs */

enum rt_job_pattern {
	RT_JOB_RING,
	RT_JOB_HALVING_DOUBLING,
	RT_JOB_ALLTOALL,
};

/* "ring", "halving-doubling", "alltoall"; and back: 0 or -EINVAL. */
const char *rt_job_pattern_name(enum rt_job_pattern p);
int rt_job_pattern_parse(const char *name, enum rt_job_pattern *p);

/* A job: rank r's endpoints are lids[first[r] .. first[r + 1] - 1], each on
 * its rail.  The arrays are the caller's; the router copies what it keeps. */
struct rt_job_spec {
	const char *name;
	enum rt_job_pattern pattern;
	uint32_t nranks;
	const uint32_t *first;	/* [nranks + 1] */
	const uint16_t *lids;	/* [first[nranks]]: base LIDs of CA ports */
	const uint8_t *rails;	/* [first[nranks]] */
};

#define RT_JOB_DEFAULT_PASSES 4
#define RT_JOB_DEFAULT_WALKS 400000	/* about 0.1 s of local search */

struct rt_job_limits {
	uint64_t max_blocks;	/* LFT blocks a start may change (0: the default) */
	unsigned passes;	/* local search passes (0: the default) */
	uint64_t walks;		/* candidate routes the local search may walk (0:
				 * the default) */
};

struct rt_job_report {
	uint32_t dests;		/* endpoint LIDs of the job */
	uint32_t rerouted;	/* of those, with entries of the job's own */
	uint32_t turning;	/* with base routes that turn down-then-up: those
				 * routes, and the switches they cross, keep theirs */
	uint32_t kept_budget;	/* kept on base routes: past the block limit */
	uint64_t entries;	/* LFT entries changed */
	uint64_t blocks;	/* LFT blocks changed: the SMPs to send */
	bool coloured;		/* the colouring's routes were kept (a regular tree,
				 * the base tables shared a link within a round, and
				 * for all-to-all, it served the job better) */
	double ms;		/* wall time */
};

struct rt_jobs;

/*
 * A router over the base tables in @ctx (view and LFT rows), which it then
 * changes: only the entries of the LIDs of the jobs it starts.  @ctx must
 * live until rt_jobs_close().  0, -EINVAL (no fat tree: logged through
 * ctx->log; jobs can still be started and ended, and keep base routes),
 * -ENOMEM.
 */
int rt_jobs_open(const struct ibsmd_rt_ctx *ctx, struct rt_jobs **out);
void rt_jobs_close(struct rt_jobs *J);	/* the tables stay as they are */

/*
 * Route job @job over the base tables beside the jobs already started.
 * 0 with @rep filled, -EEXIST (a job of that name runs), -EBUSY (a LID of
 * another running job), -EINVAL (no ranks, a LID that is no CA port, too
 * many ranks), -ENOMEM (nothing changed).
 */
int rt_jobs_start(struct rt_jobs *J, const struct rt_job_spec *job,
		  const struct rt_job_limits *lim, struct rt_job_report *rep);

/* Put the entries of job @name back to the base routes.  0 with @rep's
 * entries and blocks set, -ENOENT. */
int rt_jobs_end(struct rt_jobs *J, const char *name, struct rt_job_report *rep);

/* Call @fn for every LFT block (switch node, block = LID / 64) holding an
 * entry job @name moved, each once.  0, -ENOENT, -ENOMEM. */
int rt_jobs_each_block(const struct rt_jobs *J, const char *name,
		       void (*fn)(void *arg, uint32_t node, uint16_t block), void *arg);

/* The name of the running job @lid is an endpoint of, or NULL. */
const char *rt_jobs_owner(const struct rt_jobs *J, uint16_t lid);

/* How many jobs run, and the spec of the i-th in start order (valid until
 * the next start or end). */
unsigned rt_jobs_count(const struct rt_jobs *J);
const struct rt_job_spec *rt_jobs_spec(const struct rt_jobs *J, unsigned i);

/* ---- measuring: the effective bandwidth of a job's pattern ---- */

/*
 * A flow's share: 1 / the highest load on a switch-to-switch link of its path
 * (a load: the units of traffic crossing the link in that round, over the
 * link's one unit), at most 1; 0 when the flow is not delivered.  A round's
 * EBB is the mean over its flows.  "Alone" counts the job's own traffic;
 * "beside" adds, on every link, each other job's heaviest round there (the
 * worst moment of a neighbour).  "whole" is the pattern's rounds one after
 * the other, each taking 1 / its EBB (the harmonic mean of the rounds'
 * EBBs: halving-doubling's steps wait for each other); for a single round it
 * is that round; for all-to-all it is the shift rounds (pairwise exchange),
 * "at once" being the other way to run it.
 */
struct rt_job_round_ebb {
	char name[16];		/* "ring", "fold", "step 3", "at once", "shift 9" */
	uint64_t flows;
	double ebb;
	double worst;		/* the smallest share of a flow */
	double load;		/* the highest load on a link its flows cross
				 * (background included; "whole": of any round) */
};

struct rt_job_ebb {
	enum rt_job_pattern pattern;
	unsigned nrounds;
	struct rt_job_round_ebb round[RT_JOB_MAX_ROUNDS];
	struct rt_job_round_ebb whole;	/* worst: of any round */
	uint64_t undelivered;	/* flows of all rounds that do not arrive */
};

struct rt_job_meter;

/* A meter over @ctx's view and LFT rows as they are when measured.  0 or
 * -ENOMEM. */
int rt_job_meter_open(const struct ibsmd_rt_ctx *ctx, struct rt_job_meter **out);
void rt_job_meter_close(struct rt_job_meter *m);

/* Links of the meter's fabric (the size of a background array). */
uint32_t rt_job_meter_links(const struct rt_job_meter *m);

/* Add @job's heaviest round load on each link to @bg (rt_job_meter_links()
 * entries).  0, -EINVAL, -ENOMEM. */
int rt_job_meter_peaks(struct rt_job_meter *m, const struct rt_job_spec *job, float *bg);

/* Measure @job with background @bg (NULL: alone) into @out.  0, -EINVAL
 * (a LID that is no CA port), -ENOMEM. */
int rt_job_meter_ebb(struct rt_job_meter *m, const struct rt_job_spec *job, const float *bg,
		     struct rt_job_ebb *out);

/* The same in two steps, for a job measured again and again beside changing
 * backgrounds: its routes walked once through the tables as they are now
 * (0, -EINVAL, -ENOMEM; rt_job_paths_free()), then measured or their peaks
 * added to @bg as above, with no table read.  rt_job_paths_same(): the same
 * rounds over the same links (a job whose entries nobody changed). */
struct rt_job_paths;
int rt_job_meter_walk(struct rt_job_meter *m, const struct rt_job_spec *job,
		      struct rt_job_paths **out);
void rt_job_paths_free(struct rt_job_paths *p);
void rt_job_paths_ebb(struct rt_job_meter *m, const struct rt_job_paths *p, const float *bg,
		     struct rt_job_ebb *out);
void rt_job_paths_peaks(struct rt_job_meter *m, const struct rt_job_paths *p, float *bg);
bool rt_job_paths_same(const struct rt_job_paths *a, const struct rt_job_paths *b);

#endif

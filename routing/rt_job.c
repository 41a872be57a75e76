// SPDX-License-Identifier: MIT
/*
 * rt_job.c - the job router's running jobs (see rt_job.h).
 *
 * Data: the fabric (struct jnet: links, levels, planes), the running jobs in
 * start order, each with a copy of its spec, the entries it moved (with the
 * base engine's port, to put back at its end) and its heaviest load per link
 * over its rounds; the sum of those loads (the background a new job keeps
 * off); which job owns each LID.
 *
 * A start: check the spec (name, LIDs owned by nobody, endpoints on
 * switches) -> the rounds of its pattern -> which destinations may move (every
 * base route toward them goes up then down) -> initial routes (rt_job_init.c)
 * -> local search (rt_job_search.c) -> every switch's route toward each moved
 * destination walked (it must arrive, going up then down) -> the block limit
 * (destinations past it get their base entries back, last first) -> the
 * job's loads measured on the final tables.  On any failure every entry goes
 * back and nothing is kept.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "routing/rt_job_int.h"

struct job {
	char name[RT_JOB_NAME_MAX];
	struct rt_job_spec spec;	/* over the arrays below */
	uint32_t *first;
	uint16_t *lids;
	uint8_t *rails;
	struct jchange *changes;
	size_t nchanges;
	float *peak;		/* per link */
};

struct rt_jobs {
	const struct ibsmd_rt_ctx *ctx;
	struct jnet net;
	bool tree;		/* levels found: jobs can be routed */
	struct job **jobs;
	unsigned njobs, cap;
	struct job **lid_owner;	/* [max_lid + 1] */
	float *bg;		/* per link: the sum of the jobs' peaks */
	struct jcol *col;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int rt_jobs_open(const struct ibsmd_rt_ctx *ctx, struct rt_jobs **out)
{
	struct rt_jobs *J = calloc(1, sizeof(*J));
	int rc;

	if (!J)
		return -ENOMEM;
	J->ctx = ctx;
	rc = jnet_init(&J->net, ctx);
	if (rc == 0) {
		J->lid_owner = calloc((size_t)ctx->view->max_lid + 1, sizeof(*J->lid_owner));
		J->bg = calloc((size_t)J->net.nlinks + 1, sizeof(*J->bg));
		rc = J->lid_owner && J->bg ? 0 : -ENOMEM;
	}
	if (rc == 0) {
		rc = jnet_planes(&J->net);
		J->tree = rc == 0;
		if (rc == 0 && J->net.maxcol)
			rc = jcol_new(J->net.nsw, J->net.maxcol, &J->col);
	}
	if (rc == -EINVAL) {
		*out = J;
		return rc;
	}
	if (rc) {
		rt_jobs_close(J);
		return rc;
	}
	*out = J;
	return 0;
}

static void job_free(struct job *j)
{
	if (!j)
		return;
	free(j->first);
	free(j->lids);
	free(j->rails);
	free(j->changes);
	free(j->peak);
	free(j);
}

void rt_jobs_close(struct rt_jobs *J)
{
	if (!J)
		return;
	for (unsigned i = 0; i < J->njobs; i++)
		job_free(J->jobs[i]);
	free(J->jobs);
	free(J->lid_owner);
	free(J->bg);
	jcol_free(J->col);
	jnet_free(&J->net);
	free(J);
}

const char *rt_jobs_owner(const struct rt_jobs *J, uint16_t lid)
{
	return lid <= J->ctx->view->max_lid && J->lid_owner[lid] ? J->lid_owner[lid]->name : NULL;
}

unsigned rt_jobs_count(const struct rt_jobs *J)
{
	return J->njobs;
}

const struct rt_job_spec *rt_jobs_spec(const struct rt_jobs *J, unsigned i)
{
	return i < J->njobs ? &J->jobs[i]->spec : NULL;
}

static struct job *find_job(const struct rt_jobs *J, const char *name, unsigned *at)
{
	for (unsigned i = 0; i < J->njobs; i++)
		if (strcmp(J->jobs[i]->name, name) == 0) {
			if (at)
				*at = i;
			return J->jobs[i];
		}
	return NULL;
}

/* ---- entries ---- */

int jr_set(struct jr *R, uint32_t dest, uint32_t s, uint8_t port)
{
	uint32_t node = R->net->sw_node[s];
	uint16_t lid = R->eps[dest].lid;
	size_t bit = (size_t)dest * R->net->nsw + s;

	if (!(R->touched[bit / 64] >> (bit % 64) & 1)) {
		if (R->nchanges == R->cap) {
			size_t cap = R->cap ? 2 * R->cap : 1024;
			struct jchange *c = realloc(R->changes, cap * sizeof(*c));
			if (!c)
				return -ENOMEM;
			R->changes = c;
			R->cap = cap;
		}
		R->changes[R->nchanges++] = (struct jchange){ .node = node, .lid = lid,
							      .base = R->net->ctx->lft[node][lid],
							      .dest = dest };
		R->touched[bit / 64] |= 1ull << (bit % 64);
	}
	R->net->ctx->lft[node][lid] = port;
	R->walked_ok = false;
	return 0;
}

int jr_walked(struct jr *R)
{
	if (R->walked_ok)
		return 0;
	jpaths_free(&R->walked);
	int rc = jpaths_walk(R->net, &R->rounds, R->eps, &R->walked);
	R->walked_ok = rc == 0;
	return rc;
}

static void put_back(const struct ibsmd_rt_ctx *ctx, const struct jchange *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ctx->lft[c[i].node][c[i].lid] = c[i].base;
}

static int change_cmp(const void *a, const void *b)
{
	const struct jchange *x = a, *y = b;

	if (x->dest != y->dest)
		return x->dest < y->dest ? -1 : 1;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->lid < y->lid ? -1 : x->lid > y->lid;
}

/* An open-addressing set of LFT blocks (node << 16 | lid / 64). */
struct block_set {
	uint64_t *slot;		/* 0: empty; else key + 1 */
	size_t mask, n;
};

static int block_set_init(struct block_set *s, size_t want)
{
	size_t cap = 64;

	while (cap < 2 * want + 2)
		cap *= 2;
	s->slot = calloc(cap, sizeof(*s->slot));
	s->mask = cap - 1;
	s->n = 0;
	return s->slot ? 0 : -ENOMEM;
}

/* Add @key; true when it was new. */
static bool block_set_add(struct block_set *s, uint64_t key)
{
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & s->mask;

	while (s->slot[i]) {
		if (s->slot[i] == key + 1)
			return false;
		i = (i + 1) & s->mask;
	}
	s->slot[i] = key + 1;
	s->n++;
	return true;
}

static uint64_t block_key(const struct jchange *c)
{
	return (uint64_t)c->node << 16 | (uint64_t)(c->lid / 64);
}

/*
 * Keep only the changes that differ from the base; then, destination by
 * destination in rank order, count the blocks they touch, and put back the
 * destinations from the first one that would pass @max_blocks on.
 */
static int bound_blocks(struct jr *R, uint64_t max_blocks, struct rt_job_report *rep)
{
	const struct ibsmd_rt_ctx *ctx = R->net->ctx;
	struct block_set set;
	size_t kept = 0;

	for (size_t i = 0; i < R->nchanges; i++) {
		const struct jchange *c = &R->changes[i];
		if (ctx->lft[c->node][c->lid] != c->base)
			R->changes[kept++] = *c;
	}
	R->nchanges = kept;
	if (R->nchanges)	/* changes may be NULL when there are none */
		qsort(R->changes, R->nchanges, sizeof(*R->changes), change_cmp);
	if (block_set_init(&set, R->nchanges))
		return -ENOMEM;
	size_t i = 0, cut = R->nchanges;
	while (i < R->nchanges) {
		size_t j = i;
		uint64_t before = set.n;
		while (j < R->nchanges && R->changes[j].dest == R->changes[i].dest)
			block_set_add(&set, block_key(&R->changes[j++]));
		if (set.n > max_blocks) {
			set.n = before;
			cut = i;
			break;
		}
		i = j;
	}
	for (size_t k = cut; k < R->nchanges; k++) {
		const struct jchange *c = &R->changes[k];
		if (k == cut || c->dest != R->changes[k - 1].dest)
			rep->kept_budget++;
	}
	put_back(ctx, R->changes + cut, R->nchanges - cut);
	R->walked_ok = R->walked_ok && cut == R->nchanges;
	R->nchanges = cut;
	rep->entries = cut;
	rep->blocks = set.n;
	free(set.slot);
	return 0;
}

/* ---- checks ---- */

enum { V_UNKNOWN, V_DOWN, V_UPDOWN, V_BAD, V_WALK };

/*
 * Settle every switch's route toward endpoint @d: V_DOWN (only down to d),
 * V_UPDOWN (up, then down), V_BAD (lost, looping, or down then up).
 * @verdict holds nsw entries, @stack nsw (switch, next switch) pairs.  True
 * when no ranked switch is bad.
 */
static bool all_updown(const struct jnet *n, const struct jep *d, uint8_t *verdict,
		       uint32_t *stack)
{
	const uint16_t *rank = n->lv.rank;
	bool ok = true;

	memset(verdict, V_UNKNOWN, n->nsw);
	for (uint32_t s0 = 0; s0 < n->nsw; s0++) {
		if (verdict[s0] != V_UNKNOWN || rank[s0] == RT_NORANK)
			continue;
		uint32_t top = 0, s = s0;
		uint8_t v = V_BAD;
		for (;;) {
			uint32_t link = jnet_out(n, s, d->lid);
			if (s == d->leaf && link == n->link_off[s] + d->port) {
				v = V_DOWN;
				verdict[s] = v;
				break;
			}
			uint32_t t = link == JN_NONE ? JN_NONE : n->link_to[link];
			stack[2 * top] = s;
			stack[2 * top++ + 1] = t;
			verdict[s] = V_WALK;
			if (t >= n->nsw || rank[t] == RT_NORANK || verdict[t] == V_WALK) {
				v = V_BAD;
				break;
			}
			if (verdict[t] != V_UNKNOWN) {
				v = verdict[t];
				break;
			}
			s = t;
		}
		/* unwind: each switch's verdict from the one after it */
		while (top) {
			top--;
			s = stack[2 * top];
			uint32_t t = stack[2 * top + 1];
			if (v != V_BAD) {
				bool up = rank[t] > rank[s];
				v = up ? V_UPDOWN : (v == V_DOWN ? V_DOWN : V_BAD);
			}
			verdict[s] = v;
		}
		ok = ok && v != V_BAD;
	}
	return ok;
}

/* The switches a turning route toward @d crosses, in R->frozen. */
static void freeze_turns(struct jr *R, uint32_t d, const uint8_t *verdict)
{
	const struct jnet *n = R->net;
	const struct jep *ep = &R->eps[d];

	for (uint32_t s0 = 0; s0 < n->nsw; s0++) {
		if (verdict[s0] != V_BAD)
			continue;
		uint32_t s = s0;
		for (unsigned hops = 0; s < n->nsw && hops <= JN_MAX_HOPS; hops++) {
			size_t bit = (size_t)d * n->nsw + s;
			if (R->frozen[bit / 64] >> (bit % 64) & 1 && s != s0)
				break;
			R->frozen[bit / 64] |= 1ull << (bit % 64);
			uint32_t link = jnet_out(n, s, ep->lid);
			if ((s == ep->leaf && link == n->link_off[s] + ep->port) || link == JN_NONE)
				break;
			s = n->link_to[link];
		}
	}
}

/* Mark the endpoints whose every base route goes up then down, and freeze
 * the switches of the routes that do not. */
static int find_routable(struct jr *R, struct rt_job_report *rep)
{
	uint8_t *verdict = malloc((size_t)R->net->nsw + 1);
	uint32_t *stack = malloc(((size_t)R->net->nsw + 1) * 2 * sizeof(*stack));

	if (!verdict || !stack) {
		free(verdict);
		free(stack);
		return -ENOMEM;
	}
	for (uint32_t d = 0; d < R->neps; d++) {
		R->routable[d] = all_updown(R->net, &R->eps[d], verdict, stack);
		if (!R->routable[d]) {
			rep->turning++;
			freeze_turns(R, d, verdict);
		}
	}
	free(verdict);
	free(stack);
	return 0;
}

/*
 * Every route toward the job's endpoints still arrives going up then down:
 * the routes of the switches whose entries the job set are walked (a route
 * that does not pass one of them is the base route, checked before; one that
 * does is its own way to that switch, unchanged, then that switch's route,
 * which keeps its direction: a switch reached going down still only goes
 * down).  0, or -EHOSTUNREACH (logged).
 */
static int check_routes(struct jr *R)
{
	const struct jnet *n = R->net;

	for (size_t i = 0; i < R->nchanges; i++) {
		const struct jchange *c = &R->changes[i];
		const struct jep *d = &R->eps[c->dest];
		uint32_t s = n->node_sw[c->node];
		uint8_t port = n->ctx->lft[c->node][c->lid];
		uint32_t t = jnet_peer(n, s, port);
		int hops = jnet_walk(n, d, s, true, NULL);
		bool down = t < n->nsw && n->lv.rank[t] < n->lv.rank[s];
		if (hops < 0 || (down && hops != n->lv.rank[s])) {
			n->ctx->log(LOG_ERR, "routing: jobs: job %s: the route toward LID %u from "
				    "switch 0x%016llx does not arrive up then down; the job keeps "
				    "the base routes", R->spec->name, d->lid,
				    (unsigned long long)n->v->nodes[c->node].guid);
			return -EHOSTUNREACH;
		}
	}
	return 0;
}

/* ---- loads ---- */

/* Does a round of @R load a link past its capacity over the tables as they
 * are (the base's), or not arrive?  If none does, the colourings would only
 * move entries for nothing: the local search alone then keeps the job off the
 * others. */
static int contended(struct jr *R, bool *yes)
{
	const struct jpaths *P = &R->walked;
	float *load = calloc((size_t)R->net->nlinks + 1, sizeof(*load));
	int rc = load ? jr_walked(R) : -ENOMEM;

	*yes = false;
	for (unsigned r = 0; rc == 0 && r < R->rounds.n && !*yes; r++) {
		jpaths_add_round(P, r, load);
		for (size_t i = R->rounds.first[r]; i < R->rounds.first[r + 1] && !*yes; i++) {
			*yes = !P->ok[i];	/* not delivered: route it */
			for (size_t k = P->first[i]; k < P->first[i + 1]; k++)
				*yes = *yes || load[P->links[k]] > 1.0001f;
		}
		jpaths_clear_round(P, r, load);
	}
	free(load);
	return rc;
}

/* Each link's heaviest load over @R's rounds, on the tables as they are, into
 * @peak (nlinks, zeroed). */
static int job_peaks(struct jr *R, float *peak)
{
	const struct jnet *n = R->net;
	float *load = calloc((size_t)n->nlinks + 1, sizeof(*load));
	float *sum = calloc((size_t)n->nlinks + 1, sizeof(*sum));
	int rc = load && sum ? jr_walked(R) : -ENOMEM;

	if (rc == 0)
		jpaths_peaks(&R->walked, load, sum, peak);
	free(load);
	free(sum);
	return rc;
}

/* All-to-all's EBB on the tables as they are: @at_once, and the shift
 * rounds in turn into @shifts (rt_job.h: "whole"). */
static int alltoall_ebb(struct jr *R, double *at_once, double *shifts)
{
	float *load = calloc((size_t)R->net->nlinks + 1, sizeof(*load));
	int rc = load ? jr_walked(R) : -ENOMEM;
	double time = 0;

	*at_once = *shifts = 1;
	for (unsigned r = 0; rc == 0 && r < R->rounds.n; r++) {
		struct rt_job_round_ebb round;
		uint64_t lost = 0;
		jpaths_add_round(&R->walked, r, load);
		jpaths_round_shares(&R->walked, r, load, NULL, &round, &lost);
		jpaths_clear_round(&R->walked, r, load);
		double e = round.ebb;
		if (r == 0)
			*at_once = e;
		else
			time += e > 0 ? 1 / e : 1e9;
	}
	if (R->rounds.n > 1)
		*shifts = time > 0 ? (R->rounds.n - 1) / time : 1;
	free(load);
	return rc;
}

/* All-to-all's colouring kept only where it serves the job better than the
 * base tables (ranks in random order: rarely), else its entries put back. */
static int keep_if_better(struct jr *R, double at_once, double shifts, bool *kept)
{
	double once_now, shifts_now;
	int rc = alltoall_ebb(R, &once_now, &shifts_now);

	*kept = rc == 0 && once_now >= at_once - 1e-9 && shifts_now >= shifts - 1e-9 &&
		(once_now > at_once + 1e-9 || shifts_now > shifts + 1e-9);
	if (rc || *kept)
		return rc;
	put_back(R->net->ctx, R->changes, R->nchanges);
	memset(R->touched, 0, ((size_t)R->neps * R->net->nsw / 64 + 1) * sizeof(uint64_t));
	R->nchanges = 0;
	R->walked_ok = false;
	return 0;
}

static void sum_background(struct rt_jobs *J)
{
	memset(J->bg, 0, (size_t)J->net.nlinks * sizeof(*J->bg));
	for (unsigned i = 0; i < J->njobs; i++)
		for (uint32_t l = 0; l < J->net.nlinks; l++)
			J->bg[l] += J->jobs[i]->peak[l];
}

/* ---- start and end ---- */

static int check_spec(struct rt_jobs *J, const struct rt_job_spec *job)
{
	const struct ibsmd_rt_view *v = J->ctx->view;

	if (!job->name || !job->name[0] || strlen(job->name) >= RT_JOB_NAME_MAX ||
	    job->nranks == 0 || job->nranks > RT_JOB_MAX_RANKS || !job->first ||
	    job->first[0] != 0)
		return -EINVAL;
	if (find_job(J, job->name, NULL))
		return -EEXIST;
	for (uint32_t r = 0; r < job->nranks; r++)
		if (job->first[r + 1] < job->first[r])
			return -EINVAL;
	for (uint32_t e = 0; e < job->first[job->nranks]; e++)
		if (job->lids[e] == 0 || job->lids[e] > v->max_lid)
			return -EINVAL;
	for (uint32_t e = 0; e < job->first[job->nranks]; e++)
		if (J->lid_owner[job->lids[e]])
			return -EBUSY;
	return 0;
}

static struct job *job_copy(const struct rt_job_spec *job)
{
	struct job *j = calloc(1, sizeof(*j));
	uint32_t neps = job->first[job->nranks];

	if (!j)
		return NULL;
	snprintf(j->name, sizeof(j->name), "%s", job->name);
	j->first = malloc(((size_t)job->nranks + 1) * sizeof(*j->first));
	j->lids = malloc(((size_t)neps + 1) * sizeof(*j->lids));
	j->rails = malloc((size_t)neps + 1);
	if (!j->first || !j->lids || !j->rails) {
		job_free(j);
		return NULL;
	}
	memcpy(j->first, job->first, ((size_t)job->nranks + 1) * sizeof(*j->first));
	memcpy(j->lids, job->lids, (size_t)neps * sizeof(*j->lids));
	memcpy(j->rails, job->rails, neps);
	j->spec = (struct rt_job_spec){ .name = j->name, .pattern = job->pattern,
					.nranks = job->nranks, .first = j->first,
					.lids = j->lids, .rails = j->rails };
	return j;
}

static void jr_free(struct jr *R)
{
	free(R->eps);
	jrounds_free(&R->rounds);
	free(R->routable);
	free(R->touched);
	free(R->frozen);
	free(R->changes);
	free(R->dst_first);
	free(R->dst_items);
	jpaths_free(&R->walked);
}

/* Items by destination (counting sort). */
static int index_items(struct jr *R)
{
	size_t nitems = R->rounds.first[R->rounds.n];

	R->dst_first = calloc((size_t)R->neps + 2, sizeof(*R->dst_first));
	R->dst_items = malloc((nitems + 1) * sizeof(*R->dst_items));
	if (!R->dst_first || !R->dst_items)
		return -ENOMEM;
	for (size_t i = 0; i < nitems; i++)
		R->dst_first[R->rounds.items[i].dst + 2]++;
	for (uint32_t d = 0; d <= R->neps; d++)
		R->dst_first[d + 1] += R->dst_first[d];
	for (size_t i = 0; i < nitems; i++)
		R->dst_items[R->dst_first[R->rounds.items[i].dst + 1]++] = i;
	return 0;
}

static int route_job(struct rt_jobs *J, struct jr *R, const struct rt_job_limits *lim,
		     struct rt_job_report *rep)
{
	size_t bits = (size_t)R->neps * J->net.nsw;
	int rc;

	R->routable = calloc((size_t)R->neps + 1, 1);
	R->touched = calloc(bits / 64 + 1, sizeof(uint64_t));
	R->frozen = calloc(bits / 64 + 1, sizeof(uint64_t));
	if (!R->routable || !R->touched || !R->frozen)
		return -ENOMEM;
	if (!J->tree)
		return 0;
	bool busy = false;
	rc = index_items(R);
	if (rc == 0)
		rc = find_routable(R, rep);
	if (rc == 0 && J->net.regular)
		rc = contended(R, &busy);
	bool alltoall = R->spec->pattern == RT_JOB_ALLTOALL;
	double at_once = 0, shifts = 0;
	if (rc == 0 && busy && alltoall)
		rc = alltoall_ebb(R, &at_once, &shifts);
	if (rc == 0 && busy) {
		rep->coloured = true;
		rc = jr_init_routes(R);
	}
	double once_now = 1, shifts_now = 1;
	if (rc == 0 && busy && alltoall)
		rc = alltoall_ebb(R, &once_now, &shifts_now);
	if (rc == 0 && busy && alltoall && shifts_now < 1 - 1e-9)
		rc = jr_shifts(R);	/* the shifts it sees share a link: all of them */
	if (rc == 0 && busy && alltoall)
		rc = keep_if_better(R, at_once, shifts, &rep->coloured);
	if (rc == 0 && !alltoall)
		rc = jr_search(R);
	if (rc == 0)
		rc = check_routes(R);
	if (rc == 0)
		rc = bound_blocks(R, lim && lim->max_blocks ? lim->max_blocks
					   : RT_JOB_DEFAULT_MAX_BLOCKS, rep);
	for (size_t i = 0; rc == 0 && i < R->nchanges; i++)
		rep->rerouted += i == 0 || R->changes[i].dest != R->changes[i - 1].dest;
	return rc;
}

int rt_jobs_start(struct rt_jobs *J, const struct rt_job_spec *job,
		  const struct rt_job_limits *lim, struct rt_job_report *rep)
{
	double t0 = now_ms();
	struct jr R = { .net = &J->net, .spec = job, .bg = J->bg, .col = J->col,
			.passes = lim && lim->passes ? lim->passes : RT_JOB_DEFAULT_PASSES,
			.budget = lim && lim->walks ? lim->walks : RT_JOB_DEFAULT_WALKS };
	struct job *j = NULL;
	int rc;

	memset(rep, 0, sizeof(*rep));
	rc = check_spec(J, job);
	if (rc)
		return rc;
	R.neps = job->first[job->nranks];
	rep->dests = R.neps;
	R.eps = malloc(((size_t)R.neps + 1) * sizeof(*R.eps));
	if (!R.eps)
		return -ENOMEM;
	rc = jrounds_endpoints(&J->net, job, R.eps);
	if (rc == 0)
		rc = jrounds_make(job, R.eps, &R.rounds);
	if (rc == 0 && J->njobs == J->cap) {
		unsigned cap = J->cap ? 2 * J->cap : 8;
		struct job **jobs = realloc(J->jobs, cap * sizeof(*jobs));
		rc = jobs ? 0 : -ENOMEM;
		if (jobs) {
			J->jobs = jobs;
			J->cap = cap;
		}
	}
	if (rc == 0)
		rc = (j = job_copy(job)) ? 0 : -ENOMEM;
	if (rc == 0)
		rc = route_job(J, &R, lim, rep);
	if (rc == 0)
		rc = (j->peak = calloc((size_t)J->net.nlinks + 1, sizeof(*j->peak))) ? 0 : -ENOMEM;
	if (rc == 0)
		rc = job_peaks(&R, j->peak);
	if (rc) {
		put_back(J->ctx, R.changes, R.nchanges);
		job_free(j);
		jr_free(&R);
		return rc;
	}
	j->changes = R.changes;
	j->nchanges = R.nchanges;
	R.changes = NULL;
	for (uint32_t e = 0; e < R.neps; e++)
		J->lid_owner[job->lids[e]] = j;
	J->jobs[J->njobs++] = j;
	for (uint32_t l = 0; l < J->net.nlinks; l++)
		J->bg[l] += j->peak[l];
	jr_free(&R);
	rep->ms = now_ms() - t0;
	return 0;
}

int rt_jobs_each_block(const struct rt_jobs *J, const char *name,
		       void (*fn)(void *arg, uint32_t node, uint16_t block), void *arg)
{
	const struct job *j = name ? find_job(J, name, NULL) : NULL;
	struct block_set set;

	if (!j)
		return -ENOENT;
	if (block_set_init(&set, j->nchanges))
		return -ENOMEM;
	for (size_t i = 0; i < j->nchanges; i++)
		if (block_set_add(&set, block_key(&j->changes[i])))
			fn(arg, j->changes[i].node, (uint16_t)(j->changes[i].lid / 64));
	free(set.slot);
	return 0;
}

int rt_jobs_end(struct rt_jobs *J, const char *name, struct rt_job_report *rep)
{
	unsigned at;
	struct job *j = name ? find_job(J, name, &at) : NULL;
	struct block_set set;
	double t0 = now_ms();

	memset(rep, 0, sizeof(*rep));
	if (!j)
		return -ENOENT;
	if (block_set_init(&set, j->nchanges))
		return -ENOMEM;
	for (size_t i = 0; i < j->nchanges; i++)
		block_set_add(&set, block_key(&j->changes[i]));
	put_back(J->ctx, j->changes, j->nchanges);
	rep->dests = j->spec.first[j->spec.nranks];
	rep->entries = j->nchanges;
	rep->blocks = set.n;
	free(set.slot);
	for (uint32_t e = 0; e < rep->dests; e++)
		J->lid_owner[j->lids[e]] = NULL;
	memmove(&J->jobs[at], &J->jobs[at + 1], (J->njobs - at - 1) * sizeof(*J->jobs));
	J->njobs--;
	job_free(j);
	sum_background(J);
	rep->ms = now_ms() - t0;
	return 0;
}

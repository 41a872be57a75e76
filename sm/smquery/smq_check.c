// SPDX-License-Identifier: MIT
/*
 * smq_check.c - `smquery route-check [--pairings N] [--seed S] [--engine NAME
 * [--option K=V]...] [--traffic shift|random|alltoall|bitrev] [--job NAME]`: how
 * good are the routes ibsmd last programmed?  (--job: smq_job_check.c.)
 *
 * The stored topology becomes a routing view (mad/model/topo_view.c: LIDs as
 * stored, only links whose physical state is LinkUp), each switch's stored
 * LFT a row of it (a switch never programmed routes nothing), and
 * rt_quality() measures them: reachability and loops over every pair of
 * hosts, credit loops (per SL with the path SLs the daemon stored,
 * smq_path_sl.c, SL 0 where it stored none; with --engine, a built-in engine
 * is run again on the stored view and, when its CA routes are the stored
 * ones, the check is per SL with its path SLs: dfsssp's layers),
 * route lengths, routes per link, shift permutations, the effective bisection
 * bandwidth and, with LMC > 0, the path diversity across each destination's
 * LIDs; with --traffic, the flow-level traffic model's EBB of that pattern
 * (routing/rt_traffic.h; random: the same pairings), and with --engine
 * adaptive also with the AR groups that engine computes for the stored view.  The report is text or
 * one JSON object (smquery.1).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo_rate.h"
#include "mad/model/topo_view.h"
#include "mad/mad_attr.h"
#include "routing/rt_adaptive.h"
#include "routing/rt_quality.h"
#include "routing/rt_traffic.h"
#include "sm/smquery/smq_check.h"
#include "sm/smquery/smq_job_check.h"
#include "sm/smquery/smq_path_sl.h"

/* "--pairings N" / "--seed S" from argv[1..]; 0 or SMQ_USAGE (reported). */
#define SMQ_CHECK_MAX_OPTIONS 16

/* What --engine, --option and --traffic ask for. */
struct smq_check_engine {
	const struct ibsmd_routing_engine *e;	/* NULL: path SLs unknown, all SL 0 */
	const char *options[SMQ_CHECK_MAX_OPTIONS];
	unsigned noptions;
	bool traffic;				/* --traffic given */
	enum rt_traffic_pattern pattern;
	const char *job;			/* --job NAME */
};

/* "--pairings N", "--seed S", "--engine NAME", "--option KEY=VALUE",
 * "--traffic PATTERN" from argv[1..]; 0 or SMQ_USAGE (reported). */
static int smq_check_args(int argc, char **argv, struct rt_quality_opts *o,
			  struct smq_check_engine *eng)
{
	for (int i = 1; i < argc; i += 2) {
		if (i + 1 < argc && !strcmp(argv[i], "--engine")) {
			if (!(eng->e = rt_builtin_find(argv[i + 1])))
				return smq_usage_error(argv[0], "no built-in engine '%s'", argv[i + 1]);
			continue;
		}
		if (i + 1 < argc && !strcmp(argv[i], "--option")) {
			if (eng->noptions == SMQ_CHECK_MAX_OPTIONS || !strchr(argv[i + 1], '='))
				return smq_usage_error(argv[0], "bad --option '%s' (KEY=VALUE, at "
						       "most %d)", argv[i + 1], SMQ_CHECK_MAX_OPTIONS);
			eng->options[eng->noptions++] = argv[i + 1];
			continue;
		}
		if (i + 1 < argc && !strcmp(argv[i], "--job")) {
			eng->job = argv[i + 1];
			continue;
		}
		if (i + 1 < argc && !strcmp(argv[i], "--traffic")) {
			if (rt_traffic_pattern_parse(argv[i + 1], &eng->pattern))
				return smq_usage_error(argv[0], "bad --traffic '%s' (shift, random, "
						       "alltoall or bitrev)", argv[i + 1]);
			eng->traffic = true;
			continue;
		}
		bool pairings = !strcmp(argv[i], "--pairings");
		if ((!pairings && strcmp(argv[i], "--seed")) || i + 1 >= argc)
			return smq_usage_error(argv[0], "unexpected '%s'", argv[i]);
		char *end;
		errno = 0;
		unsigned long long v = strtoull(argv[i + 1], &end, 0);
		if (errno || *end || end == argv[i + 1] || argv[i + 1][0] == '-' ||
		    (pairings && (v == 0 || v > 1000000)))	/* 0 would print an EBB of 0 */
			return smq_usage_error(argv[0], "bad %s '%s'%s", argv[i], argv[i + 1],
					       pairings ? " (1 to 1000000)" : "");
		if (pairings)
			o->pairings = (unsigned)v;
		else
			o->seed = v;
	}
	return 0;
}

/* Every switch's stored LFT as a row of max_lid + 1 entries (NULL elsewhere). */
static uint8_t **smq_check_lfts(struct smq *q)
{
	uint8_t **lft = calloc(q->topo.n + 1, sizeof(*lft));
	int found;

	if (!lft) {
		smq_fail("out of memory");
		return NULL;
	}
	for (uint32_t n = 0; n < q->topo.n; n++)
		if (q->topo.nodes[n].type == MAD_NODE_SWITCH && !(lft[n] = smq_lft_load(q, n, &found))) {
			for (uint32_t i = 0; i < n; i++)
				free(lft[i]);
			free(lft);
			return NULL;
		}
	return lft;
}

/* Links of one rate in the view. */
struct smq_rate {
	uint8_t width, speed;
	uint32_t links;
};

#define SMQ_MAX_RATES 64	/* distinct (width, speed) pairs: 5 x 8 known, rest "?" */

/* The view's links (each once) by rate, fastest first; returns how many rates. */
static unsigned smq_check_rates(const struct ibsmd_rt_view *v, struct smq_rate *r)
{
	unsigned n = 0;

	for (uint32_t a = 0; a < v->nnodes; a++) {
		const struct ibsmd_rt_node *nd = &v->nodes[a];
		for (unsigned p = 1; p <= nd->nports; p++) {
			const struct ibsmd_rt_port *pt = &nd->ports[p];
			if (pt->peer == IBSMD_NO_NODE || pt->peer < a ||
			    (pt->peer == a && pt->peer_port < p))
				continue;
			unsigned i = 0;
			while (i < n && (r[i].width != pt->width || r[i].speed != pt->speed))
				i++;
			if (i == n && n == SMQ_MAX_RATES)
				continue;
			if (i == n)
				r[n++] = (struct smq_rate){ .width = pt->width, .speed = pt->speed };
			r[i].links++;
		}
	}
	for (unsigned i = 1; i < n; i++)	/* insertion sort, by data rate down */
		for (unsigned j = i; j > 0 && mad_rate_mbps(r[j].width, r[j].speed) >
					      mad_rate_mbps(r[j - 1].width, r[j - 1].speed); j--) {
			struct smq_rate t = r[j];
			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	return n;
}

/* A JSON number with 6 decimals (non-negative).  smq_out.c has no writer for
 * reals: the integer part goes through it, the fraction follows. */
static void smq_check_json_real(struct smq *q, const char *key, double val)
{
	int64_t micro = (int64_t)(val * 1e6 + 0.5);

	smq_json_int(q, key, micro / 1000000);
	fprintf(q->out, ".%06" PRId64, micro % 1000000);
}

static void smq_check_json_rates(struct smq *q, const struct smq_rate *rt, unsigned n)
{
	char name[16];

	smq_json_open(q, "rates", '[');
	for (unsigned i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s%s", mad_rate_width_name(rt[i].width, MAD_RATE_IBND),
			 mad_rate_speed_name(rt[i].speed, MAD_RATE_IBND));
		smq_json_open(q, NULL, '{');
		smq_json_str(q, "rate", name);
		smq_json_int(q, "mbps", mad_rate_mbps(rt[i].width, rt[i].speed));
		smq_json_int(q, "links", rt[i].links);
		smq_json_close(q, '}');
	}
	smq_json_close(q, ']');
}

static void smq_check_json(struct smq *q, const struct rt_quality *r,
			   const struct rt_traffic *t, const struct ibsmd_routing_engine *e,
			   const struct smq_rate *rt, unsigned nrates)
{
	smq_json_open(q, NULL, '{');
	smq_json_int(q, "hosts", r->hosts);
	smq_json_int(q, "switches", r->switches);
	smq_json_int(q, "pairs", (int64_t)r->pairs);
	smq_json_int(q, "unreachable", (int64_t)r->unreachable);
	smq_json_int(q, "loops", (int64_t)r->loops);
	smq_json_int(q, "switch_lid_pairs", (int64_t)r->validation.sw_pairs);
	smq_json_int(q, "switch_lid_unreachable", (int64_t)r->validation.sw_unreachable);
	smq_json_int(q, "switch_lid_loops", (int64_t)r->validation.sw_loops);
	smq_json_str(q, "first_problem",
		     r->validation.first_problem[0] ? r->validation.first_problem : NULL);
	smq_json_bool(q, "credit_loop", r->cdg_rc == -ELOOP);
	smq_json_str(q, "first_cycle", r->cdg_rc == -ELOOP ? r->cdg.first_cycle : NULL);
	smq_json_int(q, "sls", r->cdg.sls);
	smq_json_str(q, "sl_engine", e ? e->name : NULL);
	smq_json_open(q, "hops", '[');
	for (unsigned h = 0; h <= RT_QUALITY_MAX_HOPS; h++)
		if (r->hops[h]) {
			smq_json_open(q, NULL, '{');
			smq_json_int(q, "hops", h);
			smq_json_int(q, "pairs", (int64_t)r->hops[h]);
			smq_json_close(q, '}');
		}
	smq_json_close(q, ']');
	smq_json_open(q, "links", '{');
	smq_json_int(q, "count", r->load.links);
	smq_json_int(q, "min", (int64_t)r->load.min);
	smq_json_int(q, "max", (int64_t)r->load.max);
	smq_check_json_real(q, "mean", r->load.mean);
	smq_check_json_real(q, "stddev", r->load.stddev);
	smq_json_close(q, '}');
	smq_json_open(q, "shifts", '{');
	smq_json_int(q, "count", r->shifts);
	smq_json_int(q, "contention_free", r->shifts_free);
	smq_json_int(q, "worst", r->shift_worst);
	smq_json_close(q, '}');
	smq_json_open(q, "ebb", '{');
	smq_check_json_real(q, "value", r->ebb);
	smq_json_int(q, "pairings", r->pairings);
	smq_json_int(q, "seed", (int64_t)r->seed);
	if (t) {
		smq_json_str(q, "traffic", rt_traffic_pattern_name(t->pattern));
		smq_json_int(q, "rounds", t->rounds);
		smq_json_int(q, "flows", (int64_t)t->flows);
		smq_json_bool(q, "rated", t->rated);
		smq_check_json_real(q, "static", t->stat.ebb);
		if (t->adaptive)
			smq_check_json_real(q, "adaptive", t->adapt.ebb);
	}
	smq_json_close(q, '}');
	smq_json_open(q, "lmc", '{');
	smq_json_int(q, "pairs", (int64_t)r->lmc.pairs);
	smq_json_int(q, "spread", (int64_t)r->lmc.spread);
	smq_check_json_real(q, "links_per_lid", r->lmc.links);
	smq_check_json_real(q, "distinct_links", r->lmc.distinct);
	smq_json_close(q, '}');
	smq_check_json_rates(q, rt, nrates);
	smq_json_close(q, '}');
}

static void smq_check_text(FILE *f, const struct rt_quality *r,
			   const struct rt_traffic *t, const struct ibsmd_routing_engine *e,
			   const struct smq_rate *rt, unsigned nrates)
{
	fprintf(f, "hosts %u, switches %u\n", r->hosts, r->switches);
	fprintf(f, "pairs %" PRIu64 ": %" PRIu64 " unreachable, %" PRIu64 " in loops\n",
		r->pairs, r->unreachable, r->loops);
	fprintf(f, "switch LID pairs %" PRIu64 ": %" PRIu64 " unreachable, %" PRIu64 " in loops\n",
		r->validation.sw_pairs, r->validation.sw_unreachable, r->validation.sw_loops);
	if (r->validation.first_problem[0])
		fprintf(f, "first problem: %s\n", r->validation.first_problem);
	if (r->cdg_rc == -ELOOP)
		fprintf(f, "credit loop: %s\n", r->cdg.first_cycle);
	else
		fprintf(f, "credit loops: none\n");
	if (e && !e->compute_unicast)
		fprintf(f, "SLs: %u, the path SLs the daemon stored\n", r->cdg.sls);
	else if (e)
		fprintf(f, "SLs: %u, the path SLs of engine %s\n", r->cdg.sls, e->name);
	fprintf(f, "hops:");
	for (unsigned h = 0; h <= RT_QUALITY_MAX_HOPS; h++)
		if (r->hops[h])
			fprintf(f, " %u:%" PRIu64, h, r->hops[h]);
	fprintf(f, "\nroutes per link (%u links): min %" PRIu64 ", max %" PRIu64
		", mean %.2f, stddev %.2f\n", r->load.links, r->load.min, r->load.max,
		r->load.mean, r->load.stddev);
	fprintf(f, "shift permutations: %u of %u contention-free, worst %u flows on a link\n",
		r->shifts_free, r->shifts, r->shift_worst);
	fprintf(f, "effective bisection bandwidth: %.4f (%u pairings, seed %" PRIu64 ")\n",
		r->ebb, r->pairings, r->seed);
	if (t)
		fprintf(f, "traffic model (%s, %u rounds, %" PRIu64 " flows, %s): EBB static %.4f",
			rt_traffic_pattern_name(t->pattern), t->rounds, t->flows,
			t->rated ? "link rates" : "equal links", t->stat.ebb);
	if (t && t->adaptive)
		fprintf(f, ", adaptive %.4f (the AR groups of engine %s)", t->adapt.ebb, e->name);
	if (t)
		fputc('\n', f);
	if (r->lmc.pairs)
		fprintf(f, "LMC path diversity: %" PRIu64 " of %" PRIu64 " remote pairs leave on a "
			"different link per LID; a LID's route crosses %.2f links, the pair's "
			"LIDs together %.2f distinct\n", r->lmc.spread, r->lmc.pairs,
			r->lmc.links, r->lmc.distinct);
	else
		fprintf(f, "LMC path diversity: no port with LMC > 0\n");
	fprintf(f, "link rates:");
	for (unsigned i = 0; i < nrates; i++)
		fprintf(f, "%s %u %s%s (%.1f Gb/s)", i ? "," : "", rt[i].links,
			mad_rate_width_name(rt[i].width, MAD_RATE_IBND),
			mad_rate_speed_name(rt[i].speed, MAD_RATE_IBND),
			mad_rate_mbps(rt[i].width, rt[i].speed) / 1000.0);
	fprintf(f, "%s\n", nrates ? "" : " no links");
}

static void smq_check_quiet(int prio, const char *fmt, ...)
{
	(void)prio;
	(void)fmt;
}

/*
 * --engine: run the engine on the stored view into rows of its own; when its
 * CA routes are the stored ones, its path SLs are those of the stored routes,
 * and @o gets the engine and its state for the credit-loop check per SL
 * (released with eng->e->destroy by the caller).  0, or a failure reported.
 */
static int smq_check_engine_sls(const struct ibsmd_rt_view *v, uint8_t **stored,
				struct smq_check_engine *eng, struct rt_quality_opts *o)
{
	uint8_t **rows = calloc((size_t)v->nnodes + 1, sizeof(*rows));
	struct ibsmd_rt_ctx ctx = { .view = v, .lft = rows, .options = eng->options,
				    .noptions = eng->noptions, .log = smq_check_quiet };
	uint64_t differ = 0;
	int rc = rows ? 0 : -ENOMEM;

	for (uint32_t n = 0; rc == 0 && n < v->nnodes; n++)
		if (stored[n] && !(rows[n] = malloc((size_t)v->max_lid + 1)))
			rc = -ENOMEM;
		else if (rows[n])
			memset(rows[n], IBSMD_NO_PORT, (size_t)v->max_lid + 1);
	if (rc == 0 && eng->e->setup)
		rc = eng->e->setup(&ctx, &o->engine_state);
	if (rc == 0)
		rc = eng->e->compute_unicast(&ctx, o->engine_state);
	for (uint32_t n = 0; rc == 0 && n < v->nnodes; n++)
		for (uint32_t lid = 1; rows[n] && lid <= v->max_lid; lid++)
			differ += v->lid_node[lid] != IBSMD_NO_NODE &&
				  !ibsmd_is_switch(v, v->lid_node[lid]) && rows[n][lid] != stored[n][lid];
	for (uint32_t n = 0; rows && n < v->nnodes; n++)
		free(rows[n]);
	free(rows);
	if (rc == 0 && !differ) {
		o->engine = eng->e;
		return 0;
	}
	if (eng->e->destroy)
		eng->e->destroy(o->engine_state);
	o->engine_state = NULL;
	if (rc)
		return smq_fail("route-check: engine %s: %s", eng->e->name, strerror(-rc));
	return smq_fail("route-check: the stored routes are not engine %s's (%" PRIu64 " CA "
			"LID entries differ): its path SLs do not apply", eng->e->name, differ);
}

int smq_cmd_route_check(struct smq *q, int argc, char **argv)
{
	struct rt_quality_opts o = { .pairings = RT_QUALITY_PAIRINGS, .seed = RT_QUALITY_SEED };
	struct smq_check_engine eng = { 0 };
	struct rt_quality r;
	struct rt_traffic t;
	struct smq_rate rates[SMQ_MAX_RATES];
	unsigned nrates = 0;
	struct topo_view m;
	struct smq_path_sls stored = { 0 };
	int rc = smq_check_args(argc, argv, &o, &eng);

	if (rc)
		return rc;
	if (eng.job)
		return smq_route_check_job(q, eng.job, eng.e ? eng.e : rt_builtin_find("ftree"),
					   eng.options, eng.noptions);
	const struct smq_lids *l = smq_lids(q);
	if (!l)
		return SMQ_FAIL;
	uint8_t **lft = smq_check_lfts(q);
	if (!lft)
		return SMQ_FAIL;
	rc = smq_isolated_mark(q);	/* the daemon's engines did not see them either */
	if (rc == 0)
		rc = topo_view_build(&q->topo, l->top, &m);
	if (rc == 0) {
		const struct ibsmd_rt_ctx ctx = { .view = &m.v, .lft = lft };
		int have = eng.e ? 0 : smq_path_sls_load(q, &m.v, &stored);
		if (have > 0) {	/* the daemon's path SLs */
			o.engine = &stored.e;
			o.engine_state = &stored.t;
		}
		if (eng.e && smq_check_engine_sls(&m.v, lft, &eng, &o))
			rc = SMQ_FAIL;
		else
			rc = have < 0 ? have : rt_quality(&ctx, &o, &r);
		if (rc == 0 && eng.traffic) {
			struct rt_traffic_opts to = { .pattern = eng.pattern,
						      .pairings = o.pairings, .seed = o.seed };
			if (o.engine == &rt_adaptive_engine) {	/* its groups, on this view */
				to.ar = rt_adaptive_group;
				to.ar_arg = o.engine_state;
			}
			rc = rt_traffic(&ctx, &to, &t);
		}
		if (o.engine && o.engine->destroy)
			o.engine->destroy(o.engine_state);
		smq_path_sls_free(&stored);
		nrates = smq_check_rates(&m.v, rates);
		topo_view_free(&m);
	}
	for (uint32_t n = 0; n < q->topo.n; n++)
		free(lft[n]);
	free(lft);
	if (rc == SMQ_FAIL)
		return rc;
	if (rc)
		return smq_fail("route-check: %s", strerror(-rc));
	if (q->json)
		smq_check_json(q, &r, eng.traffic ? &t : NULL, o.engine, rates, nrates);
	else
		smq_check_text(q->out, &r, eng.traffic ? &t : NULL, o.engine, rates, nrates);
	return SMQ_OK;
}

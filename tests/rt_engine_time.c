// SPDX-License-Identifier: MIT
/*
 * rt_engine_time.c - time a routing engine on a topology file (not a test).
 *
 *   tests/rt_engine_time TOPOFILE [ENGINE [OPTION...]]
 *
 * Loads the fabric (LIDs numbered as rt_testview.c does), runs ENGINE (default
 * updn: setup, compute) with the given "key=value" options, then the validator
 * and the channel dependency graph check (with the engine's path SLs), and prints the CPU time of each step; then the mean
 * switch-to-switch hops of the CA -> CA LID routes and the most routes any one
 * switch-to-switch link direction carries, and rt_quality()'s effective
 * bisection bandwidth and contention-free shift permutations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "routing/rt_quality.h"
#include "tests/rt_testview.h"

/* CPU seconds of this process (the figures stay meaningful on a busy host) */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Mean hops and the busiest link direction over CA -> CA LID routes. */
static void route_stats(const struct rtv *r)
{
	const struct ibsmd_rt_view *v = &r->v;
	size_t nport = 0;
	uint32_t *cas = calloc(v->nnodes + 1, sizeof(*cas));
	size_t *base = calloc(v->nnodes + 1, sizeof(*base));
	uint64_t hops = 0, routes = 0, max = 0;

	for (uint32_t n = 0; n < v->nnodes; n++) {
		base[n] = nport;
		nport += (size_t)v->nodes[n].nports + 1;
		for (unsigned p = 1; !ibsmd_is_switch(v, n) && p <= v->nodes[n].nports; p++)
			if (ibsmd_is_switch(v, v->nodes[n].ports[p].peer))
				cas[v->nodes[n].ports[p].peer]++;
	}
	uint64_t *load = calloc(nport + 1, sizeof(*load));
	for (uint32_t lid = 1; lid <= v->max_lid; lid++) {
		if (v->lid_node[lid] == IBSMD_NO_NODE || ibsmd_is_switch(v, v->lid_node[lid]))
			continue;
		for (uint32_t s = 0; s < v->nnodes; s++) {
			uint32_t cur = s;
			for (unsigned h = 0; cas[s] && h < 64; h++) {
				uint8_t p = ibsmd_lft_get(&r->ctx, cur, (uint16_t)lid);
				if (p == 0 || p > v->nodes[cur].nports ||
				    !ibsmd_is_switch(v, v->nodes[cur].ports[p].peer))
					break;
				load[base[cur] + p] += cas[s];
				hops += cas[s];
				cur = v->nodes[cur].ports[p].peer;
			}
			routes += cas[s];
		}
	}
	for (size_t i = 0; i < nport; i++)
		max = load[i] > max ? load[i] : max;
	printf("routes: %llu CA pairs, %.3f switch hops on average, busiest link "
	       "direction carries %llu\n", (unsigned long long)routes,
	       routes ? (double)hops / (double)routes : 0.0, (unsigned long long)max);
	free(cas);
	free(base);
	free(load);
}

int main(int argc, char **argv)
{
	const struct ibsmd_routing_engine *e = rt_builtin_find(argc > 2 ? argv[2] : "updn");
	struct rt_validation val;
	struct rt_cdg_result cdg;
	struct rtv r;
	double t0 = now();

	if (argc < 2 || !e) {
		fprintf(stderr, "usage: %s TOPOFILE [ENGINE [OPTION...]]\n", argv[0]);
		return 2;
	}
	if (rtv_load(&r, argv[1], NULL, argc > 3 ? (const char *const *)argv + 3 : NULL))
		return 1;
	double t1 = now();
	void *state = NULL;
	int rc = e->setup ? e->setup(&r.ctx, &state) : 0;
	if (rc == 0)
		rc = e->compute_unicast(&r.ctx, state);
	double t2 = now();
	int vrc = rt_validate(&r.ctx, &val);
	double t3 = now();
	int crc = rt_cdg_check(&r.ctx, e, state, &cdg);
	double t4 = now();
	printf("%s: %u nodes, max LID %u; load %.2f s\n", argv[1], r.v.nnodes, r.v.max_lid,
	       t1 - t0);
	printf("%s: %s, %.3f s (last log: %s)\n", e->name, rc ? strerror(-rc) : "ok", t2 - t1,
	       rtv_last_log);
	printf("validate: %llu pairs, %llu unreachable, %llu looping, %.3f s\n",
	       (unsigned long long)val.pairs, (unsigned long long)val.unreachable,
	       (unsigned long long)val.loops, t3 - t2);
	printf("cdg: %llu dependencies, %s%s, %.3f s\n", (unsigned long long)cdg.dependencies,
	       crc == 0 ? "no cycle" : "CYCLE ", crc ? cdg.first_cycle : "", t4 - t3);
	route_stats(&r);
	struct rt_quality_opts qo = { .pairings = RT_QUALITY_PAIRINGS, .seed = RT_QUALITY_SEED,
				      .engine = e, .engine_state = state };
	struct rt_quality q;
	if (rc == 0 && rt_quality(&r.ctx, &qo, &q) == 0)
		printf("quality: effective bisection bandwidth %.4f (%u pairings, seed %llu), "
		       "%u of %u shift permutations contention-free\n", q.ebb, q.pairings,
		       (unsigned long long)q.seed, q.shifts_free, q.shifts);
	if (e->destroy)
		e->destroy(state);
	rtv_free(&r);
	return rc || vrc || crc;
}

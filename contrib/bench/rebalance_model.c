// SPDX-License-Identifier: MIT
/*
 * rebalance_model.c - the bigger figure of congestion-aware rebalancing
 * (routing/rt_rebalance.c), in-process: a generated fat tree routed by the
 * adaptive engine (ftree's static routes, and the AR groups the moves stay
 * within), a steady traffic pattern through the flow model
 * (routing/rt_traffic.c), whose port loads feed the rebalancer as counters
 * would, interval after interval, until it settles (or MAX intervals).
 *
 *	rebalance_model [--pattern bitrev|random|shift] [--max N] [--budget M]
 *	                TOPOGEN-ARGS...
 *
 * Each (switch, LID) moves at most once (the daemon's hourly hysteresis),
 * at most M moves an interval (default unbounded).  Prints one line per
 * interval and a summary: EBB before and after, moves, intervals, time.  Exit
 * 1 when a moved route fails validation or the credit-loop check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "routing/rt_adaptive.h"
#include "routing/rt_rebalance.h"
#include "routing/rt_traffic.h"
#include "tests/rt_testview.h"

struct model {
	struct rtv r;
	void *ar;
	double **load;
	bool *moved;
	struct rt_traffic_opts traffic;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool not_moved(void *arg, uint32_t sw, uint16_t lid)
{
	const struct model *m = arg;

	return !m->moved[(size_t)sw * (m->r.v.max_lid + 1u) + lid];
}

/* Every pair reaches, no credit loop on one SL. */
static bool sound(struct model *m)
{
	static const struct ibsmd_routing_engine one_sl = { .name = "rebalanced" };
	struct rt_validation val;
	struct rt_cdg_result cdg;

	return rt_validate(&m->r.ctx, &val) == 0 && rt_cdg_check(&m->r.ctx, &one_sl, NULL, &cdg) == 0;
}

int main(int argc, char **argv)
{
	enum rt_traffic_pattern pattern = RT_TRAFFIC_BITREV;
	unsigned max = 100;
	uint32_t budget = UINT32_MAX;
	char args[512] = "";
	struct model m;
	int i;

	for (i = 1; i + 1 < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
		if (!strcmp(argv[i], "--pattern") && !rt_traffic_pattern_parse(argv[i + 1], &pattern))
			continue;
		if (!strcmp(argv[i], "--max") && (max = (unsigned)atoi(argv[i + 1])) > 0)
			continue;
		if (!strcmp(argv[i], "--budget") && (budget = (uint32_t)atoi(argv[i + 1])) > 0)
			continue;
		fprintf(stderr, "rebalance_model: bad option %s %s\n", argv[i], argv[i + 1]);
		return 2;
	}
	for (size_t used = 0; i < argc; i++)
		used += (size_t)snprintf(args + used, used < sizeof(args) ? sizeof(args) - used : 0,
					 "%s%s", used ? " " : "", argv[i]);
	if (!args[0]) {
		fprintf(stderr, "usage: rebalance_model [--pattern P] [--max N] [--budget M] "
			"TOPOGEN-ARGS...\n");
		return 2;
	}
	memset(&m, 0, sizeof(m));
	double t0 = now_s();
	if (rtv_load_generated(&m.r, args, NULL) ||
	    rt_adaptive_engine.setup(&m.r.ctx, &m.ar) ||
	    rt_adaptive_engine.compute_unicast(&m.r.ctx, m.ar)) {
		fprintf(stderr, "rebalance_model: %s: no fabric or no routes\n", args);
		return 1;
	}
	uint32_t nn = m.r.v.nnodes;
	m.load = calloc(nn, sizeof(*m.load));
	m.moved = calloc((size_t)nn * (m.r.v.max_lid + 1u), sizeof(*m.moved));
	for (uint32_t n = 0; m.load && n < nn; n++)
		if (ibsmd_is_switch(&m.r.v, n))
			m.load[n] = calloc(m.r.v.nodes[n].nports + 1u, sizeof(double));
	uint32_t cap = budget != UINT32_MAX ? budget : (uint32_t)nn * (m.r.v.max_lid + 1u);
	struct rt_rebalance_move *moves = malloc((size_t)cap * sizeof(*moves));
	if (!m.load || !m.moved || !moves)
		return 1;
	m.traffic = (struct rt_traffic_opts){ .pattern = pattern, .pairings = 1, .seed = 1,
					      .port_load = m.load };
	const struct rt_rebalance_opts o = { .hot = 0.8, .cool = 0.5, .max_moves = cap,
		.groups = rt_adaptive_group, .groups_arg = m.ar, .may_move = not_moved,
		.may_move_arg = &m };
	struct rt_traffic t;
	if (rt_traffic(&m.r.ctx, &m.traffic, &t))
		return 1;
	double first = t.stat.ebb, plan_s = 0, t1 = now_s();
	uint64_t total = 0;
	unsigned round;
	uint32_t n = 0;
	printf("%s, %s: %u hosts, set-up %.2f s, static EBB %.4f\n", args,
	       rt_traffic_pattern_name(pattern), t.hosts, t1 - t0, first);
	for (round = 1; round <= max; round++) {
		double p0 = now_s();
		if (rt_rebalance(&m.r.ctx, (const double *const *)m.load, &o, moves, &n))
			return 1;
		plan_s += now_s() - p0;
		if (!n)
			break;
		for (uint32_t k = 0; k < n; k++)
			m.moved[(size_t)moves[k].sw * (m.r.v.max_lid + 1u) + moves[k].lid] = true;
		total += n;
		if (!sound(&m)) {
			fprintf(stderr, "rebalance_model: interval %u: the moved routes do not "
				"validate\n", round);
			return 1;
		}
		if (rt_traffic(&m.r.ctx, &m.traffic, &t))
			return 1;
		printf("  interval %u: %u moves, EBB %.4f\n", round, n, t.stat.ebb);
	}
	printf("%s, %s: EBB %.4f -> %.4f (%+.0f%%), %llu moves, %s after %u intervals; "
	       "planning %.2f s in all, %.2f s with the model and checks\n", args,
	       rt_traffic_pattern_name(pattern), first, t.stat.ebb, 100 * (t.stat.ebb / first - 1),
	       (unsigned long long)total, n ? "still moving" : "settled", round - (n == 0),
	       plan_s, now_s() - t1);
	return 0;
}

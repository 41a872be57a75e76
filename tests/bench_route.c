// SPDX-License-Identifier: MIT
/*
 * bench_route.c - time the routing stage on a topology file, no MADs involved.
 *
 *   bench_route FILE [ENGINE[,ENGINE...]] [LMC]
 *
 * Loads FILE, marks every cabled link up, assigns LIDs as the daemon does, runs
 * the engine chain (compute + validation, sm_route()) and prints wall and CPU
 * time, the engine used, the peak RSS and a digest of every LFT (FNV-1a over
 * the switches' tables in node order: a speed-up must leave it as it was).
 * Used by `make bench`; not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "mad/model/topofile.h"
#include "sm/sweep/sm_lid.h"
#include "sm/util/sm_log.h"
#include "sm/sweep/sm_route.h"

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The sweep's view of a fabric read from a file: every cabled port LinkUp. */
static int fabric_from_file(const char *path, struct sm_fabric *f)
{
	struct topo t;
	char err[512];

	if (topofile_load(path, &t, err, sizeof(err))) {
		fprintf(stderr, "bench_route: %s\n", err);
		return -1;
	}
	sm_fabric_init(f);
	for (uint32_t i = 0; i < t.n; i++) {
		const struct topo_node *tn = &t.nodes[i];
		uint32_t n = sm_fabric_add_node(f, tn->type, tn->nports, tn->guid);
		if (n == TOPO_NONE)
			return -1;
		memcpy(f->topo.nodes[n].desc, tn->name, sizeof(tn->name));
		for (unsigned p = 0; p <= tn->nports; p++) {
			f->topo.nodes[n].ports[p] = tn->ports[p];
			f->topo.nodes[n].ports[p].phys_state =
				tn->ports[p].peer != TOPO_NONE ? MAD_PHYS_LINKUP : MAD_PHYS_POLLING;
			f->attrs[n].pi_valid[p] = p == 0 ? tn->type == MAD_NODE_SWITCH
							 : tn->ports[p].peer != TOPO_NONE;
		}
	}
	topo_free(&t);
	return 0;
}

/* FNV-1a, 64 bits, over every switch's LFT in node order. */
static unsigned long long lft_digest(const struct sm_routes *r)
{
	unsigned long long h = 0xcbf29ce484222325ull;
	size_t len = ((size_t)r->max_lid / 64 + 1) * 64;

	for (uint32_t n = 0; n < r->nnodes; n++)
		for (size_t i = 0; r->lft[n] && i < len; i++)
			h = (h ^ r->lft[n][i]) * 0x100000001b3ull;
	return h;
}

int main(int argc, char **argv)
{
	struct sm_config cfg;
	struct sm_fabric f;
	struct sm_lid_plan plan;
	struct sm_routes routes;
	struct rusage ru;
	char err[256];

	if (argc < 2) {
		fprintf(stderr, "usage: bench_route FILE [ENGINE[,ENGINE...]] [LMC]\n");
		return 2;
	}
	sm_log_open(NULL, LOG_INFO, 1);
	sm_config_defaults(&cfg);
	if (argc > 2 && sm_config_set_routing(&cfg, argv[2], err, sizeof(err))) {
		fprintf(stderr, "bench_route: %s\n", err);
		return 2;
	}
	if (fabric_from_file(argv[1], &f))
		return 1;
	uint8_t lmc = argc > 3 ? (uint8_t)atoi(argv[3]) : 0;
	if (sm_lid_assign(&f, lmc, NULL, &plan, err, sizeof(err))) {
		fprintf(stderr, "bench_route: %s\n", err);
		return 1;
	}
	double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	int rc = sm_route(&f, plan.max_lid, &cfg, &routes);
	double w1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
	getrusage(RUSAGE_SELF, &ru);
	printf("%s: %u nodes, top LID %u, engine %s: %s, %.3f s wall, %.3f s CPU, "
	       "peak RSS %ld MB, LFT digest %016llx\n", argv[1], f.topo.n, plan.max_lid,
	       rc ? "(none)" : routes.engine, rc ? "FAILED" : "routed", w1 - w0, c1 - c0,
	       ru.ru_maxrss / 1024, rc ? 0ull : lft_digest(&routes));
	if (!rc)
		sm_routes_free(&routes);
	sm_lid_plan_free(&plan);
	sm_fabric_free(&f);
	return rc ? 1 : 0;
}

// SPDX-License-Identifier: MIT
/*
 * bench_sa.c - PathRecord queries answered per second by the SA agent.
 *
 * Usage: bench_sa TOPOFILE [QUERIES]
 * Brings "sim:TOPOFILE" up with one heavy sweep (store in a scratch
 * directory), then asks QUERIES (default 1,000,000) PathRecord Gets by SLID and
 * DLID between pseudo-random CA ports, each one encoded, answered by
 * sm_sa_answer() and decoded, on this thread.  Prints the sweep time, queries
 * per second and the p50/p99/max latency of one query.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sm/sm.h"
#include "sm/sm_log.h"
#include "sm/sm_sa.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/bench-sa-XXXXXX", cmd[64];
	static struct sm sm;
	long queries = argc > 2 ? atol(argv[2]) : 1000000;

	if (argc < 2 || queries <= 0 || !mkdtemp(dir)) {
		fprintf(stderr, "usage: bench_sa TOPOFILE [QUERIES]\n");
		return 2;
	}
	sm_log_set_level(LOG_WARNING);
	sm_config_defaults(&sm.cfg);
	snprintf(sm.cfg.backend, sizeof(sm.cfg.backend), "sim:%s", argv[1]);
	snprintf(sm.cfg.db_path, sizeof(sm.cfg.db_path), "%s/sm.db", dir);
	uint64_t t0 = now_ns();
	if (sm_open(&sm) || sm_sweep_heavy(&sm) || sm_sa_index_build(&sm.sa_index, &sm.fabric)) {
		fprintf(stderr, "bench_sa: the fabric did not come up\n");
		return 1;
	}
	double sweep_s = (double)(now_ns() - t0) / 1e9;

	uint16_t *lids = malloc(sm.fabric.topo.n * 2 * sizeof(*lids));
	uint64_t *lat = malloc((size_t)queries * sizeof(*lat));
	size_t nlids = 0;
	for (uint32_t n = 0; n < sm.fabric.topo.n; n++) {
		const struct topo_node *tn = &sm.fabric.topo.nodes[n];
		for (uint8_t p = 1; tn->type != MAD_NODE_SWITCH && p <= tn->nports && nlids < sm.fabric.topo.n * 2; p++)
			if (tn->ports[p].lid)
				lids[nlids++] = tn->ports[p].lid;
	}
	struct sm_sa_source src = { .f = &sm.fabric, .ix = &sm.sa_index, .routes = &sm.routes,
				    .subnet_prefix = sm.cfg.subnet_prefix };
	struct mad_sa req = { .base_version = 1, .mgmt_class = MAD_CLASS_SA,
			      .class_version = MAD_SA_CLASS_VERSION, .method = MAD_SA_METHOD_GET,
			      .attr_id = MAD_SA_ATTR_PATH_RECORD,
			      .comp_mask = MAD_SA_PR_SLID | MAD_SA_PR_DLID };
	uint8_t wire[MAD_BLOCK_SIZE];
	struct sm_sa_reply out;
	unsigned long failed = 0, seed = 1;

	t0 = now_ns();
	for (long i = 0; i < queries; i++) {
		uint64_t q0 = now_ns();
		struct mad_sa_path_record t = { 0 }, r;
		struct mad_sa resp;
		seed = seed * 6364136223846793005ul + 1442695040888963407ul;
		t.slid = lids[(seed >> 33) % nlids];
		t.dlid = lids[(seed >> 13) % nlids];
		req.tid = (uint64_t)i;
		mad_sa_path_record_encode(&t, req.data);
		mad_sa_encode(&req, wire);
		if (!sm_sa_answer(&src, wire, sizeof(wire), &out, &sm.sa_counts) ||
		    mad_sa_decode(out.mad, sizeof(out.mad), &resp) || resp.status)
			failed++;
		mad_sa_path_record_decode(resp.data, &r);
		lat[i] = now_ns() - q0;
	}
	double secs = (double)(now_ns() - t0) / 1e9;
	qsort(lat, (size_t)queries, sizeof(*lat), cmp_u64);
	printf("bench_sa: %u nodes, %zu CA ports, sweep %.2f s; %ld PathRecord Gets in %.2f s: "
	       "%.0f/s, p50 %.1f us, p99 %.1f us, max %.1f us, %lu failed\n",
	       sm.fabric.topo.n, nlids, sweep_s, queries, secs, (double)queries / secs,
	       (double)lat[queries / 2] / 1e3, (double)lat[queries * 99 / 100] / 1e3,
	       (double)lat[queries - 1] / 1e3, failed);
	free(lids);
	free(lat);
	sm_close(&sm);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) != 0 || failed != 0;
}

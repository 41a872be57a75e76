// SPDX-License-Identifier: MIT
/*
 * bench_sa.c - PathRecord queries answered per second by the SA agent, idle
 * and while heavy sweeps run.
 *
 * Usage: bench_sa TOPOFILE [QUERIES]
 * Brings "sim:TOPOFILE" up with one heavy sweep (store in a scratch
 * directory), then asks QUERIES (default 1,000,000) PathRecord Gets by SLID and
 * DLID between pseudo-random CA ports, each one encoded, answered by
 * sm_sa_answer() and decoded, on this thread.  Then the same again while a
 * second SM on its own copy of the fabric runs heavy sweeps back to back on
 * another thread (the daemon's loop answers queries while a sweep's stages
 * run: what they compete for is the CPU and the memory bandwidth).  Prints
 * the sweep time, and for each run the queries per second (by the clock, and
 * by this thread's CPU time: what one core does on a machine others share)
 * and the p50/p99/max latency of one query.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sm/core/sm.h"
#include "sm/util/sm_log.h"
#include "sm/sa/sm_sa.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* This thread's CPU time: the rate "on one core" on a machine others share. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int sm_up(struct sm *sm, const char *topo, const char *db)
{
	sm_config_defaults(&sm->cfg);
	snprintf(sm->cfg.backend, sizeof(sm->cfg.backend), "sim:%s", topo);
	snprintf(sm->cfg.db_path, sizeof(sm->cfg.db_path), "%s", db);
	return sm_open(sm) || sm_sweep_heavy(sm);
}

/* Heavy sweeps back to back on a second SM until told to stop. */
struct sweeper {
	struct sm sm;
	volatile int stop;
	unsigned sweeps;
	int failed;
};

static void *sweep_loop(void *arg)
{
	struct sweeper *s = arg;

	while (!s->stop && !s->failed) {
		s->failed = sm_sweep_heavy(&s->sm) != 0;
		s->sweeps += !s->failed;
	}
	return NULL;
}

/* @queries PathRecord Gets between @lids; prints one line named @what.
 * Returns the queries that failed. */
static unsigned long run(const struct sm_sa_source *src, struct sm_sa_counts *counts,
			 const uint16_t *lids, size_t nlids, long queries, uint64_t *lat,
			 const char *what)
{
	struct mad_sa req = { .base_version = 1, .mgmt_class = MAD_CLASS_SA,
			      .class_version = MAD_SA_CLASS_VERSION, .method = MAD_SA_METHOD_GET,
			      .attr_id = MAD_SA_ATTR_PATH_RECORD,
			      .comp_mask = MAD_SA_PR_SLID | MAD_SA_PR_DLID };
	uint8_t wire[MAD_BLOCK_SIZE];
	struct sm_sa_reply out;
	unsigned long failed = 0, seed = 1;
	uint64_t t0 = now_ns(), c0 = cpu_ns();

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
		if (!sm_sa_answer(src, wire, sizeof(wire), &out, counts) ||
		    mad_sa_decode(out.mad, sizeof(out.mad), &resp) || resp.status)
			failed++;
		mad_sa_path_record_decode(resp.data, &r);
		lat[i] = now_ns() - q0;
	}
	double secs = (double)(now_ns() - t0) / 1e9, cpu = (double)(cpu_ns() - c0) / 1e9;
	qsort(lat, (size_t)queries, sizeof(*lat), cmp_u64);
	printf("bench_sa: %s: %ld PathRecord Gets in %.2f s (%.2f s CPU): %.0f/s, %.0f/s of "
	       "one core, p50 %.1f us, p99 %.1f us, max %.1f us, %lu failed\n", what, queries,
	       secs, cpu, (double)queries / secs, (double)queries / cpu,
	       (double)lat[queries / 2] / 1e3,
	       (double)lat[queries * 99 / 100] / 1e3, (double)lat[queries - 1] / 1e3, failed);
	return failed;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/bench-sa-XXXXXX", cmd[64], db[64];
	static struct sm sm;
	static struct sweeper sw;
	long queries = argc > 2 ? atol(argv[2]) : 1000000;

	if (argc < 2 || queries <= 0 || !mkdtemp(dir)) {
		fprintf(stderr, "usage: bench_sa TOPOFILE [QUERIES]\n");
		return 2;
	}
	sm_log_set_level(LOG_WARNING);
	uint64_t t0 = now_ns();
	snprintf(db, sizeof(db), "%s/sm.db", dir);
	if (sm_up(&sm, argv[1], db) || sm_sa_index_build(&sm.sa->index, &sm.fabric)) {
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
	struct sm_sa_source src = { .f = &sm.fabric, .ix = &sm.sa->index, .routes = &sm.routes,
				    .subnet_prefix = sm.cfg.subnet_prefix };
	printf("bench_sa: %u nodes, %zu CA ports, sweep %.2f s\n", sm.fabric.topo.n, nlids,
	       sweep_s);
	unsigned long failed = run(&src, &sm.sa->counts, lids, nlids, queries, lat, "idle");

	snprintf(db, sizeof(db), "%s/sweeper.db", dir);
	pthread_t th;
	if (sm_up(&sw.sm, argv[1], db) || pthread_create(&th, NULL, sweep_loop, &sw)) {
		fprintf(stderr, "bench_sa: the second SM did not come up\n");
		return 1;
	}
	while (!sw.sweeps && !sw.failed)	/* a sweep's stages are under way */
		usleep(1000);
	failed += run(&src, &sm.sa->counts, lids, nlids, queries, lat, "during heavy sweeps");
	sw.stop = 1;
	pthread_join(th, NULL);
	printf("bench_sa: %u heavy sweeps ran alongside%s\n", sw.sweeps,
	       sw.failed ? " (one failed)" : "");
	free(lids);
	free(lat);
	sm_close(&sw.sm);
	sm_close(&sm);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) != 0 || failed != 0 || sw.failed;
}

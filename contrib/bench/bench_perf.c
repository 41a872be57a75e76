// SPDX-License-Identifier: MIT
/*
 * bench_perf.c - the performance manager's sampling pass at scale.
 *
 * Usage: bench_perf TOPOFILE [PASSES [DB]]
 * Brings "sim:TOPOFILE" up with one heavy sweep (the store DB, else in a
 * scratch directory removed at the end), then runs PASSES (default 4)
 * sampling passes (sm_perf_feed_pass: isolation is fed, as in the daemon)
 * with no cap on the history.  Before each pass every linked
 * port counts some traffic and an error (sim_perf_add), so every port stores
 * a history row: the store's worst case.  Prints per pass its wall time,
 * ports, PerfMgt MADs and the store's growth (file and WAL);
 * contrib/bench/perf.sh measures the rows' size in the store kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "mad/sim/mad_sim.h"
#include "sm/core/sm.h"
#include "sm/util/sm_log.h"
#include "sm/telemetry/sm_perf.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"
#include "sm/telemetry/sm_perf_feed.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The store's size on disk: the file and its WAL. */
static long long store_bytes(const char *db)
{
	char p[sizeof(((struct sm_config *)0)->db_path) + 8];
	struct stat st;
	long long n = 0;

	if (!stat(db, &st))
		n += st.st_size;
	snprintf(p, sizeof(p), "%s-wal", db);
	if (!stat(p, &st))
		n += st.st_size;
	return n;
}

/* Every linked port of the sim fabric counts a little. */
static void traffic(struct sim_fabric *f, unsigned pass)
{
	const struct topo *t = sim_fabric_topo(f);
	struct sim_perf_delta d = { .xmit_data = 1000000 + pass, .rcv_data = 999999,
				    .xmit_pkts = 4000, .rcv_pkts = 3999, .xmit_wait = 17,
				    .symbol_errors = 1 };

	for (uint32_t n = 0; n < t->n; n++)
		for (uint8_t p = 1; p <= t->nodes[n].nports; p++)
			if (t->nodes[n].ports[p].peer != TOPO_NONE)
				sim_perf_add(f, n, p, &d);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/bench-perf-XXXXXX", cmd[64];
	static struct sm sm;
	long passes = argc > 2 ? atol(argv[2]) : 4;

	if (argc < 2 || passes <= 0 || (argc < 4 && !mkdtemp(dir))) {
		fprintf(stderr, "usage: bench_perf TOPOFILE [PASSES [DB]]\n");
		return 2;
	}
	sm_log_set_level(LOG_WARNING);
	sm_config_defaults(&sm.cfg);
	sm.cfg.perf_history_mb = 0;	/* measure, do not cap */
	snprintf(sm.cfg.backend, sizeof(sm.cfg.backend), "sim:%s", argv[1]);
	if (argc > 3)
		snprintf(sm.cfg.db_path, sizeof(sm.cfg.db_path), "%s", argv[3]);
	else
		snprintf(sm.cfg.db_path, sizeof(sm.cfg.db_path), "%s/sm.db", dir);
	if (sm_open(&sm) || sm_sweep_heavy(&sm)) {
		fprintf(stderr, "bench_perf: the fabric did not come up\n");
		return 1;
	}
	struct sim_fabric *f = sim_transport_fabric(sm.t);
	uint32_t hosts = topo_count_type(sim_fabric_topo(f), MAD_NODE_CA);
	int rc = 0;

	printf("%u hosts; window %u\n", hosts, sm.cfg.window);
	for (long i = 0; i < passes && !rc; i++) {
		struct sim_stats a, b;
		struct sm_perf_stats st;
		traffic(f, (unsigned)i);
		long long before = store_bytes(sm.cfg.db_path);
		sim_get_stats(f, &a);
		uint64_t t0 = now_ns();
		rc = sm_perf_feed_pass(&sm, NULL, NULL, &st);	/* as the daemon runs it */
		double s = (double)(now_ns() - t0) / 1e9;
		sim_get_stats(f, &b);
		long long after = store_bytes(sm.cfg.db_path);
		printf("pass %ld: %.3f s wall (%u ms to the store), %u ports, %u failed, "
		       "%llu PerfMgt MADs, store +%lld bytes\n", i + 1, s, st.ms, st.ports,
		       st.failed, (unsigned long long)(b.perf_in - a.perf_in), after - before);
	}
	sm_close(&sm);
	if (argc > 3)
		return rc ? 1 : 0;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) || rc ? 1 : 0;
}

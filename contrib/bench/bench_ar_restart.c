// SPDX-License-Identifier: MIT
/*
 * bench_ar_restart.c - what a restarted daemon sends of adaptive routing
 * (sm/repair/sm_ar_store.c).
 *
 * Usage: bench_ar_restart TOPOFILE [ENGINE]
 * Brings the sim fabric up with one SM (engine adaptive by default), closes
 * it, and brings the same fabric, its devices as the first SM left them, up
 * again with a new SM on the same store: a restarted daemon.  Prints for each
 * bring-up the heavy sweep's wall time, the SMPs it sent, and its AR SMPs
 * (vendor attributes 0xFF20-0xFF22: Gets, and Sets of AdaptiveRoutingInfo,
 * group table and AR LFT blocks).  The store is a temporary directory's,
 * removed at the end.  Exit 0, 1 when a bring-up failed, 2 on a setup error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mad/mad_ar.h"
#include "mad/sim/mad_sim.h"
#include "sm/core/sm.h"
#include "sm/util/sm_log.h"
#include "sm/core/sm_state.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

/* The AR SMPs sent: Gets, then Sets of Info, group table, AR LFT. */
static uint64_t ar_smps[4];
static const struct mad_transport_ops *real_ops;
static struct mad_transport_ops counting_ops;

static int count_send(struct mad_transport *t, const uint8_t mad[MAD_BLOCK_SIZE],
		      const struct mad_addr *to)
{
	struct mad_smp smp;

	if (mad_smp_decode(mad, MAD_BLOCK_SIZE, &smp) == 0 && smp.attr_id >= MAD_ATTR_AR_INFO &&
	    smp.attr_id <= MAD_ATTR_AR_LFT) {
		if (smp.method == MAD_METHOD_GET)
			ar_smps[0]++;
		else if (smp.method == MAD_METHOD_SET)
			ar_smps[1 + smp.attr_id - MAD_ATTR_AR_INFO]++;
	}
	return real_ops->send(t, mad, to);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One bring-up of @f by a new SM on the store @db; 0 when the subnet is up. */
static int bring_up(const char *what, struct sim_fabric *f, const char *db, const char *engine)
{
	struct sm sm;

	memset(&sm, 0, sizeof(sm));
	memset(ar_smps, 0, sizeof(ar_smps));
	sm_config_defaults(&sm.cfg);
	snprintf(sm.cfg.db_path, sizeof(sm.cfg.db_path), "%s", db);
	snprintf(sm.cfg.routing[0], sizeof(sm.cfg.routing[0]), "%s", engine);
	sm.cfg.nrouting = 1;
	if (sm_open_store(&sm) || sim_transport_new(f, &sm.t)) {
		fprintf(stderr, "bench_ar_restart: cannot open the SM\n");
		exit(2);
	}
	real_ops = sm.t->ops;
	counting_ops = *real_ops;
	counting_ops.send = count_send;
	sm.t->ops = &counting_ops;
	if (sm_rpc_renew(&sm)) {
		fprintf(stderr, "bench_ar_restart: cannot set up the MAD layer\n");
		exit(2);
	}
	sm_state_event(&sm, SM_EV_PORT_READY, "sim");
	double t0 = now_s();
	int rc = sm_sweep_heavy(&sm);
	double s = now_s() - t0;
	printf("%s: %s in %.2f s, %llu SMPs; AR SMPs %llu: %llu Gets, Sets %llu Info, "
	       "%llu group table, %llu AR LFT\n", what, rc ? "FAILED" : "subnet up", s,
	       (unsigned long long)sm_smps_sent(&sm),
	       (unsigned long long)(ar_smps[0] + ar_smps[1] + ar_smps[2] + ar_smps[3]),
	       (unsigned long long)ar_smps[0], (unsigned long long)ar_smps[1],
	       (unsigned long long)ar_smps[2], (unsigned long long)ar_smps[3]);
	sm.t->ops = real_ops;
	sm_close(&sm);
	return rc;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/bench-ar-restart-XXXXXX", db[64], err[256], cmd[96];
	struct sim_fabric *f;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: bench_ar_restart TOPOFILE [ENGINE]\n");
		return 2;
	}
	sm_log_set_level(LOG_WARNING);
	if (!mkdtemp(dir)) {
		perror("bench_ar_restart: a temporary directory");
		return 2;
	}
	if (sim_fabric_load(argv[1], &f, err, sizeof(err))) {
		fprintf(stderr, "bench_ar_restart: %s\n", err);
		rmdir(dir);
		return 2;
	}
	snprintf(db, sizeof(db), "%s/sm.db", dir);
	const char *engine = argc > 2 ? argv[2] : "adaptive";
	int rc = bring_up("cold bring-up", f, db, engine);
	rc |= bring_up("restart", f, db, engine);
	sim_fabric_free(f);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "bench_ar_restart: %s not removed\n", dir);
	return rc ? 1 : 0;
}

// SPDX-License-Identifier: MIT
/*
 * rt_ftree_time.c - time the ftree engine on a topology file (not a test).
 *
 *   tests/rt_ftree_time TOPOFILE
 *
 * Loads the fabric (LIDs numbered as rt_testview.c does), runs the engine's
 * setup, compute_unicast and destroy, and prints the wall and CPU time of the
 * routing, the wall time of the validator, and the engine's last log line.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tests/rt_testview.h"

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const struct ibsmd_routing_engine *e = &rt_ftree_engine;
	struct rt_validation val;
	struct rtv r;
	void *state = NULL;

	if (argc != 2) {
		fprintf(stderr, "usage: %s TOPOFILE\n", argv[0]);
		return 2;
	}
	if (rtv_load(&r, argv[1], NULL, NULL))
		return 1;
	double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	int rc = e->setup(&r.ctx, &state);
	if (rc == 0)
		rc = e->compute_unicast(&r.ctx, state);
	double t1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
	e->destroy(state);
	int vrc = rt_validate(&r.ctx, &val);
	double t2 = now(CLOCK_MONOTONIC);
	printf("%s: %u nodes, max LID %u\n", argv[1], r.v.nnodes, r.v.max_lid);
	printf("ftree: %s in %.3f s (%.3f s of CPU) (%s)\n", rc ? strerror(-rc) : "routed",
	       t1 - t0, c1 - c0, rtv_last_log);
	printf("validate: %llu pairs, %llu unreachable, %llu looping, %.3f s\n",
	       (unsigned long long)val.pairs, (unsigned long long)val.unreachable,
	       (unsigned long long)val.loops, t2 - t1);
	rtv_free(&r);
	return rc || vrc;
}

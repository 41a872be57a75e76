/* SPDX-License-Identifier: MIT */
/*
 * sm_sweep.h - the two sweeps the daemon runs: heavy (sm_sweep.c) and light
 * (sm_light.c).
 */
#ifndef IBSMD_SM_SWEEP_H
#define IBSMD_SM_SWEEP_H

#include "sm/core/sm.h"

/* One heavy sweep: discover, assign LIDs, route, program, store.  0 when the
 * subnet is up, -errno otherwise (logged; a sweep is due again when worth
 * retrying). */
int sm_sweep_heavy(struct sm *sm);

/* One light sweep over the last heavy sweep's fabric: 1 when something changed
 * and a heavy sweep is due, 0 when nothing did, -errno on transport failure. */
int sm_sweep_light(struct sm *sm);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_reload.h - apply a configuration re-read on SIGHUP to the running SM.
 *
 * Keys that can change live take effect at once: the routing chain and its
 * options (a changed chain makes a heavy sweep due, so the fabric is
 * rerouted), the sweep interval, the log level, the SMP window, timeout and
 * retries (the rpc layer is renewed between sweeps), the SM priority.  Keys
 * that need a restart (backend, store, socket, log file, LMC, subnet prefix)
 * keep their running value and are logged as such.
 */
#ifndef IBSMD_SM_RELOAD_H
#define IBSMD_SM_RELOAD_H

#include "sm/core/sm.h"

enum {
	SM_RELOAD_SWEEP_INTERVAL = 1u << 0,	/* re-arm the light sweep timer */
	SM_RELOAD_RPC = 1u << 1,		/* the rpc layer was renewed */
	SM_RELOAD_ROUTING = 1u << 2,		/* routing changed: sweep due */
};

/*
 * (Re-)read the partitions file sm->cfg names into sm->sa->partitions (none: the
 * default partition only).  A file that does not read is logged with
 * FILE:LINE:COLUMN and the running partitions are kept (at start, when there
 * are none, the caller gives up: sm_open_store() fails).  When the partitions
 * changed and a fabric is up, a heavy sweep is made due (it programs the
 * P_KeyTables and the IPoIB groups).  0, or the load's -errno.
 */
int sm_reload_partitions(struct sm *sm);

/* Apply @nc to @sm (at the loop's top level: no sweep running).  What
 * changed, as SM_RELOAD_* bits. */
unsigned sm_reload_apply(struct sm *sm, const struct sm_config *nc);

#endif

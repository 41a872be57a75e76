/* SPDX-License-Identifier: MIT */
/*
 * sm_reload.h - re-read the configuration on SIGHUP and apply it to the
 * running SM.
 *
 * The files are read off the loop thread (sm_reload_read() on a worker: a
 * 64 MB partitions file takes seconds to parse, the loop keeps serving
 * meanwhile), then applied on it (sm_reload_apply()).  Keys that can change
 * live take effect at once: the routing chain and its options (a changed
 * chain makes a heavy sweep due, so the fabric is rerouted), the sweep
 * interval, the log level, the SMP window, timeout and retries (the rpc layer
 * is renewed between sweeps), the SM priority, the partitions file.  Keys
 * that need a restart (backend, store, socket, log file, LMC, subnet prefix)
 * keep their running value and are logged as such.
 */
#ifndef IBSMD_SM_RELOAD_H
#define IBSMD_SM_RELOAD_H

#include "sm/core/sm.h"
#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_qos.h"

enum {
	SM_RELOAD_SWEEP_INTERVAL = 1u << 0,	/* re-arm the light sweep timer */
	SM_RELOAD_RPC = 1u << 1,		/* the rpc layer was renewed */
	SM_RELOAD_ROUTING = 1u << 2,		/* routing changed: sweep due */
};

/* Build a fresh configuration (defaults < file < command line) into @out, for
 * SIGHUP.  0, or -errno with the reason in @err (the running one is kept).
 * Runs on a worker: it may read files, not the running SM. */
typedef int (*sm_reload_fn)(void *ctx, struct sm_config *out, char *err, size_t errlen);

/* What a SIGHUP read: the configuration, and the partitions file and QoS
 * policy it names. */
struct sm_reload {
	struct sm_config cfg;
	int rc;				/* 0, or why cfg was not read (err) */
	struct sm_partitions parts;	/* when cfg was read */
	int parts_rc;			/* 0, or why parts were not read (parts_err) */
	struct sm_qos_policy qos;	/* when cfg was read */
	int qos_rc;			/* 0, or why qos was not read (qos_err) */
	char err[1024], parts_err[SM_PATH_LEN + 512], qos_err[SM_PATH_LEN + 512];
};

/* Read into @r (all zero) the configuration through @fn(@ctx), then the
 * partitions file and the QoS policy it names.  Touches nothing of the running SM, so that a
 * worker runs it while the loop serves. */
void sm_reload_read(struct sm_reload *r, sm_reload_fn fn, void *ctx);

/* Free what @r holds (its partitions and policy). */
void sm_reload_free(struct sm_reload *r);

/*
 * (Re-)read the partitions file sm->cfg names into sm->sa->partitions (none: the
 * default partition only), at start: sm_reload_read() then the apply below.
 * A file that does not read is logged with FILE:LINE:COLUMN and the running
 * partitions are kept (at start, when there are none, the caller gives up:
 * sm_open_store() fails).  When the partitions changed and a fabric is up, a
 * heavy sweep is made due (it programs the P_KeyTables and the IPoIB groups).
 * 0, or the load's -errno.
 */
int sm_reload_partitions(struct sm *sm);

/* The same for the QoS policy sm->cfg names into sm->sa->qos (none: no QoS):
 * a file that does not read keeps the running policy; one that reads makes a
 * heavy sweep due when a fabric is up (it programs the VL tables). */
int sm_reload_qos(struct sm *sm);

/* Apply @r, read well (r->rc 0), to @sm, at the loop's top level (no sweep
 * running), on the loop thread; its partitions move into @sm when they read
 * well, and its policy likewise.  What changed, as SM_RELOAD_* bits. */
unsigned sm_reload_apply(struct sm *sm, struct sm_reload *r);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm.h - the daemon's state: configuration, transport, store, last sweep.
 */
#ifndef IBSMD_SM_H
#define IBSMD_SM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "mad/mad_rpc.h"
#include "mad/mad_transport.h"
#include "sm/sm_config.h"
#include "sm/sm_fabric.h"

struct sm {
	struct sm_config cfg;
	struct mad_transport *t;
	struct mad_rpc *rpc;
	struct db *db;
	struct sm_fabric fabric;	/* what the last heavy sweep found */
	bool have_fabric;
	bool resweep;			/* a heavy sweep is due */
	uint8_t sm_state;		/* enum mad_sm_state */
	uint64_t sweeps;		/* heavy sweeps that got as far as the store */
	/* the SL count whose SL-to-VL tables this process has set everywhere
	 * (0: none); reset whenever a sweep arms a port or finds a reset switch */
	uint8_t sl2vl_done_sl;
	uint64_t light_sweeps;
	uint64_t metrics_written_ms;	/* mad_now_ms() of the last metrics_file write */
};

/* Why an SMP failed, for a log line: "no answer", "MAD status 0x001c" (when
 * the device answered with a status, @resp may be NULL) or the errno text.
 * Returns @buf. */
const char *sm_smp_error(int err, const struct mad_smp *resp, char *buf, size_t len);

/* SMPs the SM has put on the wire so far (the rpc layer's counter). */
uint64_t sm_smps_sent(const struct sm *sm);

/* The SMPs sent, lost and retried since the rpc counters read @since (sm_sweep.c). */
struct db_smp_counts sm_smps_since(const struct sm *sm, const struct mad_rpc_stats *since);

/* Rewrite the metrics file (metrics_file:, if set) from the store: always when
 * @force (after a heavy sweep), else at most every SM_METRICS_EVERY_MS (after
 * light sweeps: ~50 ms of queries at 27k hosts).  A failure is a warning. */
#define SM_METRICS_EVERY_MS 10000
void sm_metrics_write(struct sm *sm, bool force);

/* Open the store, the transport and the rpc layer sm->cfg names (logged on
 * failure).  0 or -errno; sm_close() releases whatever was opened. */
int sm_open(struct sm *sm);
void sm_close(struct sm *sm);

/* One heavy sweep: discover, assign LIDs, route, program, store.  0 when the
 * subnet is up, -errno otherwise (logged; sm->resweep set when worth retrying). */
int sm_sweep_heavy(struct sm *sm);

/* One light sweep over the last heavy sweep's fabric: 1 when something changed
 * and a heavy sweep is due, 0 when nothing did, -errno on transport failure. */
int sm_sweep_light(struct sm *sm);

#endif

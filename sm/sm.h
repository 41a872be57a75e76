/* SPDX-License-Identifier: MIT */
/*
 * sm.h - the daemon's state: configuration, transport, store, last sweep.
 */
#ifndef IBSMD_SM_H
#define IBSMD_SM_H

#include <stdbool.h>
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
	uint32_t act_count;		/* SMInfo ActCount */
	uint64_t sweeps;
};

/* One heavy sweep: discover, store, (later stages).  0 or -errno, logged. */
int sm_sweep_heavy(struct sm *sm);

#endif

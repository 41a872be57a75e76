/* SPDX-License-Identifier: MIT */
/*
 * sm_cc.h - congestion control (class 0x21, IBA Annex A10): after a heavy
 * sweep, every node's CC settings read and only what differs from
 * ibsmd.yaml's congestion_control.* written (sm_cc.c).
 */
#ifndef IBSMD_SM_CC_H
#define IBSMD_SM_CC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "sm/core/sm_cc_want.h"

struct sm;

/* What a pass did. */
struct sm_cc_stats {
	uint32_t agents;	/* node ports (a switch: port 0; a CA: each port with a LID) */
	uint32_t known;		/* of which known configured: nothing read (below) */
	uint32_t answered;	/* of which CongestionInfo answered */
	uint32_t configured;	/* every setting read back as wanted */
	uint32_t key_refused;	/* a CC_Key not ours */
	uint32_t errors;	/* a status, a Set not taken, a later MAD unanswered */
	uint64_t gmps;		/* CC MADs sent (retries not counted) */
	uint64_t sent;		/* Sets taken */
	uint64_t refused;	/* Sets refused (and key-refused agents) */
	uint64_t ms;
};

/*
 * The subsystem's state: in the life cycle's block, struct sm points at it.
 * @known: the agents this process's last pass left configured (every
 * setting read back as wanted, no error), by GUID and port, with what they
 * were configured to (@known_want) in which term as MASTER: the next pass
 * reads none of them again unless its node was armed by the sweep (new,
 * reset, replaced), and sends them only what the configuration changed
 * since.  A restart starts with none (an agent is trusted once read back).
 */
struct sm_cc {
	bool due;			/* a heavy sweep ended: a pass is due */
	struct sm_cc_stats last;	/* the last pass */
	uint64_t passes;
	struct db_cc_node *known;	/* sorted by GUID, port */
	size_t nknown;
	struct sm_cc_want known_want;
	uint32_t known_term;		/* sm->master_terms then */
};

/* Forget what is known (NULL is fine). */
void sm_cc_free(struct sm_cc *cc);

/* A heavy sweep ended well: a pass is due when congestion_control.enable. */
void sm_cc_sweep_done(struct sm *sm);
bool sm_cc_due(const struct sm *sm);

/*
 * One pass over the last sweep's fabric (loop thread, between sweeps): per
 * node port, CongestionInfo, then (answered) CongestionKeyInfo and the
 * settings of its kind, each Set only where it differs (a known agent: only
 * the settings whose wanted value changed, Set without a read); at most
 * congestion_control.max_outstanding_mads in flight.  The nodes' states go
 * to the store.  0 or the rpc layer's -errno; @st (may be NULL) the figures.
 */
int sm_cc_pass(struct sm *sm, struct sm_cc_stats *st);

#endif

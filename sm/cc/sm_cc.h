/* SPDX-License-Identifier: MIT */
/*
 * sm_cc.h - congestion control (class 0x21, IBA Annex A10): after a heavy
 * sweep, every node's CC settings read and only what differs from
 * ibsmd.yaml's congestion_control.* written (sm_cc.c).
 */
#ifndef IBSMD_SM_CC_H
#define IBSMD_SM_CC_H

#include <stdbool.h>
#include <stdint.h>

struct sm;

/* What a pass did. */
struct sm_cc_stats {
	uint32_t agents;	/* node ports asked (a switch: port 0; a CA: each port) */
	uint32_t answered;	/* of which CongestionInfo answered */
	uint32_t configured;	/* every setting read back as wanted */
	uint32_t key_refused;	/* a CC_Key not ours */
	uint32_t errors;	/* a status, a Set not taken, a later MAD unanswered */
	uint64_t gmps;		/* CC MADs sent (retries not counted) */
	uint64_t sent;		/* Sets taken */
	uint64_t refused;	/* Sets refused (and key-refused agents) */
	uint64_t ms;
};

/* The subsystem's state: in the life cycle's block, struct sm points at it. */
struct sm_cc {
	bool due;			/* a heavy sweep ended: a pass is due */
	struct sm_cc_stats last;	/* the last pass */
	uint64_t passes;
};

/* A heavy sweep ended well: a pass is due when congestion_control.enable. */
void sm_cc_sweep_done(struct sm *sm);
bool sm_cc_due(const struct sm *sm);

/*
 * One pass over the last sweep's fabric (loop thread, between sweeps): per
 * node port, CongestionInfo, then (answered) CongestionKeyInfo and the
 * settings of its kind, each Set only where it differs; at most
 * congestion_control.max_outstanding_mads in flight.  The nodes' states go
 * to the store.  0 or the rpc layer's -errno; @st (may be NULL) the figures.
 */
int sm_cc_pass(struct sm *sm, struct sm_cc_stats *st);

#endif

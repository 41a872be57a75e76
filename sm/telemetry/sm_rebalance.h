/* SPDX-License-Identifier: MIT */
/*
 * sm_rebalance.h - congestion-aware rebalancing in the daemon: port counters
 * in, some destinations' LFT entries moved from hot ports to cool equal-cost
 * ones (the planning is routing/rt_rebalance.h), programmed, recorded.
 *
 * The PerfMgt poller reports each switch port's transmit counters with
 * sm_rebalance_observe_port() as it samples them, then calls
 * sm_rebalance_pass() once per pass over the fabric.  A pass with
 * rebalance.enable set, on a MASTER with routes on one SL, plans with the
 * loads seen, at most as many moves as rebalance.moves_per_hour leaves in the
 * last hour, never moving a (switch, LID) it moved already (the hysteresis,
 * with hot_pct / cool_pct: port counters cannot tell which destinations make
 * a port hot, so the planner tries some; what it moved stays, and a steady
 * pattern settles for good); checks the result (every CA reaches
 * every CA LID and every switch LID, no loop, no credit loop); sends only the
 * changed LFT blocks; stores them (lft) and one route_moved event per move.
 * The moves are kept, and put back over the engines' routes after each later
 * heavy sweep (sm_rebalance_reapply(), checked the same way; dropped, all of
 * them, when the result does not check out), so a sweep does not undo them.
 * They do not outlive the process.
 */
#ifndef IBSMD_SM_REBALANCE_H
#define IBSMD_SM_REBALANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sm;
struct sm_fabric;
struct sm_routes;

/* A move kept over the engines' routes. */
struct sm_rb_entry {
	uint64_t switch_guid;
	uint16_t lid;
	uint8_t port;
};

struct sm_rebalance {
	double **load;		/* per node of sm->fabric (switches), nports + 1 */
	uint32_t nnodes;
	uint64_t fabric_sweeps;	/* sm->sweeps when load was laid out */
	struct sm_rb_entry *moves;	/* sorted by (switch_guid, lid) */
	size_t nmoves, cap;
	uint64_t *recent;	/* ring of move times for the hourly budget */
	size_t nrecent, recent_head, recent_cap;
	bool warned_sl;		/* "routes use several SLs" said once */
};

/*
 * The PerfMgt poller's input: port @port of switch @node_guid sent
 * @xmit_bytes (PortXmitData x 4) and waited @xmit_wait ticks of
 * @wait_tick_ns (PortXmitWait) within @interval_ms.  Its load is the share of
 * the link's data rate it used plus the share of the interval it waited.
 * 0, or -EINVAL (not a switch port of the last sweep, no interval).
 */
int sm_rebalance_observe_port(struct sm *sm, uint64_t node_guid, uint8_t port,
			      uint64_t xmit_bytes, uint64_t xmit_wait, uint32_t wait_tick_ns,
			      uint32_t interval_ms);

/* The same with the load already worked out (0 idle, 1 full, more: waiting). */
int sm_rebalance_observe_load(struct sm *sm, uint64_t node_guid, uint8_t port, double load);

/* The poller's pass is over: rebalance with what it reported (then forgotten).
 * How many LFT entries moved, or -errno (logged). */
int sm_rebalance_pass(struct sm *sm, uint64_t now_ms);

/* Forget the loads reported so far (a pass that is not judged). */
void sm_rebalance_forget(struct sm *sm);

/* After a heavy sweep routed @f into @r: put the kept moves back over it.
 * How many entries changed (0 also when they were dropped). */
int sm_rebalance_reapply(struct sm *sm, const struct sm_fabric *f, struct sm_routes *r);

void sm_rebalance_free(struct sm_rebalance *rb);

#endif

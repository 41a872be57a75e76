/* SPDX-License-Identifier: MIT */
/*
 * sm_perf_feed.h - the performance manager's samples put to use: each port's
 * counter deltas go to bad-link isolation (sm_isolate.h) and each switch
 * port's transmit counters to rebalancing (sm_rebalance.h), which judges
 * them once a pass over the fabric is complete.
 *
 * sm_perf_feed_pass() runs one sm_perf_pass() (or the rest of one cut short)
 * with the sample hook installed:
 *   - isolation gets SymbolErrorCounter, LinkErrorRecoveryCounter and
 *     LinkDownedCounter deltas of every linked port with an interval (a
 *     port's first sample counts everything since its counters were last
 *     cleared, at an unknown rate: it is not judged; a switch's port 0 has
 *     no link and goes to neither policy);
 *   - rebalancing gets each switch port's PortXmitData x 4 octets and its
 *     PortXmitWait as the performance manager stores it, time in units of
 *     SM_PERF_WAIT_UNIT_PS (the node's PortSamplesControl.Tick applied,
 *     sm_perf.c); 0 (XmitWait not counted) when the PMA's CapabilityMask
 *     lacks PortCountersXmitWaitSupported.
 * Rebalancing judges only complete data: sm_rebalance_pass() runs when a
 * pass ends, and only if every linked switch port of the fabric reported a
 * load with an interval in it (all its pieces, when sweeps cut it short, on
 * the same fabric), and no heavy sweep is due (its routes would replace
 * those the loads were measured on); else the loads are forgotten and the
 * next pass tries again.  A heavy sweep between two pieces starts the pass over, as the
 * poller does.
 */
#ifndef IBSMD_SM_PERF_FEED_H
#define IBSMD_SM_PERF_FEED_H

#include <stdbool.h>
#include <stdint.h>

#include "sm/telemetry/sm_perf.h"

struct sm_perf_feed {
	bool hooked;		/* the sample hook is installed */
	bool open;		/* a pass was cut short: its loads are kept */
	uint64_t sweeps;	/* sm->sweeps when the pass began */
	uint32_t observed;	/* switch ports whose load the pass reported */
	uint32_t isolated;	/* links its samples isolated */
};

/*
 * One sm_perf_pass() (see sm_perf.h for @yield and @st) whose samples feed
 * isolation and rebalancing, then a rebalancing pass when the pass is
 * complete.  0 or the -errno of sm_perf_pass() (logged there).
 */
int sm_perf_feed_pass(struct sm *sm, sm_perf_yield_fn yield, void *yield_ctx,
		      struct sm_perf_stats *st);

#endif

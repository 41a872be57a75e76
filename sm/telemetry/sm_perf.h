/* SPDX-License-Identifier: MIT */
/*
 * sm_perf.h - the performance manager: port counters polled over PerfMgt.
 *
 * sm_perf_pass() samples every linked port of the last heavy sweep's fabric
 * once, and port 0 of each switch with an enhanced port 0 (the management
 * port's own traffic and errors; it is no link): ClassPortInfo once per node
 * (does its PMA have PortCountersExtended?) and PortSamplesControl (its Tick:
 * how long a PortXmitWait tick is), then PortCounters (errors, PortXmitWait,
 * and the data and packet counters of a PMA without the extended ones) and
 * PortCountersExtended (64-bit data and packets) of each port.  Deltas
 * against the port's previous sample go to the store (db_counters_record)
 * and to the sample hook, PortXmitWait as time in SM_PERF_WAIT_UNIT_PS
 * units.  A PortCounters field we
 * use past half its range is cleared with a Set before it can saturate, and
 * the next delta counts from zero.  The daemon runs a pass every
 * perfmgr.interval seconds while MASTER, below every sweep in priority: a
 * pass stops where it is when a sweep falls due, and resumes there after it.
 */
#ifndef IBSMD_SM_PERF_H
#define IBSMD_SM_PERF_H

#include <stdint.h>

#include "db/db.h"

struct sm;
struct sm_perf;

/* The unit of stored PortXmitWait: 4 ns, the tick of IBA's Tick 0 at SDR
 * (and the length taken for a node that does not say). */
#define SM_PERF_WAIT_UNIT_PS 4000u

/* What a pass did. */
struct sm_perf_stats {
	uint32_t ports;		/* ports sampled (both answers in) */
	uint32_t failed;	/* ports with an answer missing */
	uint32_t cleared;	/* ports whose PortCounters were cleared */
	uint32_t cpi;		/* ClassPortInfo Gets sent */
	uint32_t psc;		/* PortSamplesControl Gets sent */
	uint32_t ms;		/* how long it took */
	bool partial;		/* stopped before the last port for other work:
				 * the next call resumes the same pass */
};

/* Asked between requests: true when other work is due (a light sweep) and
 * the pass should stop where it is. */
typedef bool (*sm_perf_yield_fn)(void *ctx);

/*
 * One sampling pass, or the rest of one cut short before.  It stops early
 * when a heavy sweep is due, the SM is stopping, or @yield (may be NULL)
 * says so.  0 (also when there is no fabric yet), or -errno when the
 * transport or the store failed.  @st (may be NULL) receives what it did.
 */
int sm_perf_pass(struct sm *sm, sm_perf_yield_fn yield, void *yield_ctx,
		 struct sm_perf_stats *st);

/*
 * The hook for the isolation policy: called on the loop thread once per port
 * of every pass, after the deltas are stored, with the port's delta over
 * @s->interval_ms (0 on a port's first sample: counts since its counters were
 * last cleared).  NULL @fn removes it.  0 or -ENOMEM.
 */
typedef void (*sm_perf_sample_fn)(void *ctx, const struct db_port_sample *s);
int sm_perf_set_hook(struct sm *sm, sm_perf_sample_fn fn, void *ctx);

/* The CapabilityMask node @node_guid's PMA gave in its ClassPortInfo.  0, or
 * -ENOENT when it has not answered one yet. */
int sm_perf_node_caps(struct sm *sm, uint64_t node_guid, uint16_t *cap_mask);

/* Free what the performance manager keeps between passes (sm_close()). */
void sm_perf_free(struct sm_perf *p);

#endif

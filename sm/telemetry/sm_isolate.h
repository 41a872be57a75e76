/* SPDX-License-Identifier: MIT */
/*
 * sm_isolate.h - bad-link and flapping-link isolation: the links the SM keeps
 * out of the routing view while they stay up (so their counters keep coming).
 *
 * Inputs:
 *   - sm_isolate_observe_errors(): error counter deltas of one port, from the
 *     PerfMgt poller (SymbolErrorCounter, LinkErrorRecoveryCounter,
 *     LinkDownedCounter, IBA 16.1.3.5), on the loop thread;
 *   - sm_isolate_flaps(): each heavy sweep compares the links it found with
 *     the last sweep's; a link up then and down now counts as one flap.
 * When a port's counts within isolation.window_s cross a threshold
 * (sm_isolate_policy.h), its link is isolated: recorded in the store (table
 * isolated_links, event link_isolated) and a heavy sweep made due, whose
 * routing view leaves the link out (topo_port.isolated, set by
 * sm_isolate_mark()), so every engine routes around it.  No PortInfo Set
 * touches it.  Only links between two switches are isolated, never the last
 * path between their two switches, and at most isolation.max_links at once;
 * a host's link over a threshold is reported, not isolated.
 *
 * Out again: sm_isolate_restore() (the control socket: `smquery link
 * restore`), or sm_isolate_tick() once both ends had a clean window when
 * isolation.auto_restore is 1.  Either makes a heavy sweep due.
 */
#ifndef IBSMD_SM_ISOLATE_H
#define IBSMD_SM_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/model/topo.h"
#include "sm/telemetry/sm_isolate_policy.h"

struct sm;
struct sm_fabric;

/* One isolated link, its end with the lower (GUID, port) first. */
struct sm_iso_link {
	uint64_t guid;
	uint8_t port;
	uint64_t peer_guid;
	uint8_t peer_port;
	int64_t since_ms;	/* the store's clock (db_now_ms) when isolated */
	uint64_t mono_ms;	/* mad_now_ms() then (or when loaded) */
	char cause[8];		/* "errors", "flaps" */
	char reason[160];
};

/* The isolated links; a copy of it for a sweep (sm_isolate_snapshot). */
struct sm_iso_set {
	struct sm_iso_link *links;
	size_t n, cap;
};

struct sm_isolate {
	struct sm_iso_tracker track;
	struct sm_iso_set set;
	uint64_t pruned_ms;	/* the tracker was last pruned then */
};

/* Read the isolated links from the store (at start).  0 or -errno (logged). */
int sm_isolate_load(struct sm *sm);
void sm_isolate_free(struct sm_isolate *iso);

/*
 * The PerfMgt poller's input: port @port of node @node_guid counted
 * @symbol_delta SymbolErrorCounter, @lerr_delta LinkErrorRecoveryCounter and
 * @downed_delta LinkDownedCounter increments since its last sample, taken at
 * @now_ms (mad_now_ms()).  1 when this isolated the port's link, 0 when not,
 * -errno (-ENOSPC: too many ports followed; the sample is dropped).
 */
int sm_isolate_observe_errors(struct sm *sm, uint64_t node_guid, uint8_t port,
			      uint32_t symbol_delta, uint32_t lerr_delta, uint32_t downed_delta,
			      uint64_t now_ms);

/* Count as a flap every link up in @old and down (or gone) in @new, whose
 * two nodes are in both; isolate those over the threshold.  How many links
 * were isolated. */
unsigned sm_isolate_flaps(struct sm *sm, const struct sm_fabric *old, const struct sm_fabric *new,
			  uint64_t now_ms);

/*
 * Give back the isolated link one end of which is port @port of the node
 * @node (a GUID "0x..." or a node description, in the last sweep's fabric).
 * @by says who asked (for the event).  0 with a line for the operator in
 * @msg, -ENOENT (no such isolated link), -EINVAL (no such node).
 */
int sm_isolate_restore(struct sm *sm, const char *node, unsigned port, const char *by,
		       char *msg, size_t len);

/* Auto-restore (isolation.auto_restore) and the tracker's pruning; the loop
 * calls it after each light sweep, sm_isolate_observe_errors() before it
 * counts. */
void sm_isolate_tick(struct sm *sm, uint64_t now_ms);

/* A copy of the isolated links for a sweep's worker.  0 or -ENOMEM. */
int sm_isolate_snapshot(const struct sm *sm, struct sm_iso_set *out);
void sm_iso_set_free(struct sm_iso_set *s);

/* Set topo_port.isolated on both ends of every link of @s found in @t (and
 * clear it everywhere else).  How many links were marked. */
unsigned sm_isolate_mark(const struct sm_iso_set *s, struct topo *t);

/* Is a link with an end (@guid, @port) in @s? */
bool sm_iso_set_has(const struct sm_iso_set *s, uint64_t guid, uint8_t port);

#endif

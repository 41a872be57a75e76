/* SPDX-License-Identifier: MIT */
/*
 * sm_isolate_policy.h - the bad-link isolation policy, wire- and store-free:
 * per port, error counts and flaps over a sliding window, and the judgement
 * whether they cross the configured thresholds (sm_isolate.h applies it).
 *
 * A window of W seconds is kept as SM_ISO_BUCKETS buckets of W / SM_ISO_BUCKETS
 * each: a count lands in the bucket of its time, and the window's sum is the
 * buckets of the last W seconds (to a bucket's width).  Only ports that ever
 * reported something have an entry; at most SM_ISO_MAX_PORTS are followed.
 */
#ifndef IBSMD_SM_ISOLATE_POLICY_H
#define IBSMD_SM_ISOLATE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SM_ISO_BUCKETS 16
#define SM_ISO_MAX_PORTS 65536

/* What one port reported, or sums of it. */
struct sm_iso_counts {
	uint64_t symbol_errors;		/* SymbolErrorCounter increments */
	uint64_t link_error_recovery;	/* LinkErrorRecoveryCounter */
	uint64_t link_downed;		/* LinkDownedCounter */
	uint64_t flaps;			/* downs the SM saw itself */
};

/* The thresholds, within window_s; a threshold of 0 is not judged. */
struct sm_iso_policy {
	uint32_t window_s;
	uint32_t symbol_errors, link_error_recovery, link_downed, flaps;
};

struct sm_iso_track;	/* one port's buckets */

struct sm_iso_tracker {
	struct sm_iso_track *ports;	/* sorted by (guid, port) */
	size_t n, cap;
};

/* Add @d to port (@guid, @port)'s bucket for @now_ms.  A report of nothing
 * for a port not followed costs nothing.  0, -ENOSPC (SM_ISO_MAX_PORTS
 * followed already), -ENOMEM. */
int sm_iso_track_add(struct sm_iso_tracker *t, uint64_t guid, uint8_t port,
		     const struct sm_iso_counts *d, uint64_t now_ms, uint32_t window_s);

/* The port's sums over the window ending at @now_ms (zeros when not followed). */
void sm_iso_track_sum(const struct sm_iso_tracker *t, uint64_t guid, uint8_t port,
		      uint64_t now_ms, uint32_t window_s, struct sm_iso_counts *out);

/* Stop following ports whose window holds nothing any more. */
void sm_iso_track_prune(struct sm_iso_tracker *t, uint64_t now_ms, uint32_t window_s);

void sm_iso_track_free(struct sm_iso_tracker *t);

/*
 * Do the sums @c cross @p?  Returns the cause ("errors" or "flaps") with the
 * first threshold crossed described in @why ("SymbolErrorCounter +1200 in
 * 600 s (threshold 1000)"), or NULL when none is.
 */
const char *sm_iso_judge(const struct sm_iso_policy *p, const struct sm_iso_counts *c,
			 char *why, size_t len);

/* Nothing at all in @c (a clean window). */
bool sm_iso_clean(const struct sm_iso_counts *c);

#endif

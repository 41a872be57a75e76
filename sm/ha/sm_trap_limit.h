/* SPDX-License-Identifier: MIT */
/*
 * sm_trap_limit.h - traps counted per source port, so that a babbling port
 * costs the SM next to nothing.
 *
 * Each source LID has a one-second window.  The first trap of a window may make
 * a heavy sweep due; the next ones up to @max_per_s are taken (logged, stored)
 * but make none; the one after that is reported once and the port is then
 * ignored for @holddown_ms, with a count of what was ignored.  A port's
 * traps therefore make at most one heavy sweep due per second, and at most
 * max_per_s + 1 events per second reach the store.  Whatever source LIDs the
 * traps claim, all ports together have at most SM_TRAP_ALL_FACTOR * max_per_s
 * traps a second taken; the excess is dropped and reported once per hold-down.
 * Ports are tracked in a fixed table (SM_TRAP_PORTS); when every entry is busy
 * (held, or in a window that has not ended), a new port's traps are dropped as
 * over that limit.  No allocation, no clock of its own: the caller passes
 * the time.
 */
#ifndef IBSMD_SM_TRAP_LIMIT_H
#define IBSMD_SM_TRAP_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

#define SM_TRAP_PORTS 256
#define SM_TRAP_ALL_FACTOR 10
#define SM_TRAP_WINDOW_MS 1000

struct sm_trap_port {
	uint16_t lid;
	bool used, held;
	uint32_t count;			/* traps in the current window */
	uint64_t window_ms;		/* when the current window started */
	uint64_t held_until_ms;
	uint64_t ignored;		/* traps dropped during the hold-down */
};

struct sm_trap_limit {
	struct sm_trap_port ports[SM_TRAP_PORTS];
	uint32_t all_count;		/* every port's traps in the current window */
	uint64_t all_window_ms;
	uint64_t all_reported_ms;	/* when the last excess was reported */
	bool all_reported;
};

enum sm_trap_verdict {
	SM_TRAP_FIRST,		/* the port's first in its window: take it, it may sweep */
	SM_TRAP_TAKE,		/* take it (log, store), but make no sweep due */
	SM_TRAP_BABBLING,	/* one too many: report the port once, it is held now */
	SM_TRAP_HELD,		/* the port is held: drop it, say nothing */
	SM_TRAP_FLOOD,		/* over the limit of all ports: report once, drop */
	SM_TRAP_FLOODED,	/* the same, already reported: drop it, say nothing */
};

struct sm_trap_report {
	uint32_t count;		/* SM_TRAP_BABBLING: traps in the window */
	uint64_t ignored;	/* SM_TRAP_FIRST after a hold-down: traps it ignored */
};

/*
 * Count a trap from source LID @lid at @now_ms (a monotonic clock) and say
 * what to do with it.  @max_per_s (>= 1) traps a second are taken from one
 * port; @holddown_ms is how long a babbling port is then ignored.  @rep says
 * more where the verdict asks for a report (NULL: not wanted).
 */
enum sm_trap_verdict sm_trap_limit_take(struct sm_trap_limit *l, uint16_t lid, uint64_t now_ms,
					uint32_t max_per_s, uint64_t holddown_ms,
					struct sm_trap_report *rep);

#endif

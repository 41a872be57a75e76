// SPDX-License-Identifier: MIT
/*
 * sm_trap_limit.c - traps counted per source port (see sm_trap_limit.h).
 *
 * A linear scan of a small fixed table per trap: a few hundred compares, far
 * less than the log line or store event a taken trap costs, and nothing a
 * flood of traps can grow.
 */
#include <stddef.h>

#include "sm/ha/sm_trap_limit.h"

/* Can @p's entry go to another port?  Its window is over and it is not held. */
static bool port_idle(const struct sm_trap_port *p, uint64_t now_ms)
{
	if (!p->used)
		return true;
	if (p->held)
		return now_ms >= p->held_until_ms;
	return now_ms - p->window_ms >= SM_TRAP_WINDOW_MS;
}

/* @lid's entry, or a fresh one in an idle slot; NULL when every slot is busy. */
static struct sm_trap_port *port_find(struct sm_trap_limit *l, uint16_t lid, uint64_t now_ms)
{
	struct sm_trap_port *spare = NULL;

	for (size_t i = 0; i < SM_TRAP_PORTS; i++) {
		struct sm_trap_port *p = &l->ports[i];
		if (p->used && p->lid == lid)
			return p;
		if (!spare && port_idle(p, now_ms))
			spare = p;
	}
	if (spare)
		*spare = (struct sm_trap_port){ .lid = lid, .used = true, .window_ms = now_ms };
	return spare;
}

/* Over the limit of all ports: reported once per hold-down. */
static enum sm_trap_verdict flood(struct sm_trap_limit *l, uint64_t now_ms, uint64_t holddown_ms)
{
	if (l->all_reported && now_ms - l->all_reported_ms < holddown_ms)
		return SM_TRAP_FLOODED;
	l->all_reported = true;
	l->all_reported_ms = now_ms;
	return SM_TRAP_FLOOD;
}

enum sm_trap_verdict sm_trap_limit_take(struct sm_trap_limit *l, uint16_t lid, uint64_t now_ms,
					uint32_t max_per_s, uint64_t holddown_ms,
					struct sm_trap_report *rep)
{
	struct sm_trap_report dummy;
	struct sm_trap_port *p = port_find(l, lid, now_ms);

	if (!rep)
		rep = &dummy;
	*rep = (struct sm_trap_report){ 0 };
	if (max_per_s == 0)
		max_per_s = 1;
	if (!p)
		return flood(l, now_ms, holddown_ms);
	if (p->held) {
		if (now_ms < p->held_until_ms) {
			p->ignored++;
			return SM_TRAP_HELD;
		}
		rep->ignored = p->ignored;
		p->held = false;
		p->ignored = 0;
		p->count = 0;
		p->window_ms = now_ms;
	}
	if (now_ms - p->window_ms >= SM_TRAP_WINDOW_MS) {
		p->window_ms = now_ms;
		p->count = 0;
	}
	if (++p->count > max_per_s) {
		p->held = true;
		p->held_until_ms = now_ms + holddown_ms;
		rep->count = p->count;
		return SM_TRAP_BABBLING;
	}
	if (now_ms - l->all_window_ms >= SM_TRAP_WINDOW_MS) {
		l->all_window_ms = now_ms;
		l->all_count = 0;
	}
	if (++l->all_count > (uint64_t)max_per_s * SM_TRAP_ALL_FACTOR)
		return flood(l, now_ms, holddown_ms);
	return p->count == 1 ? SM_TRAP_FIRST : SM_TRAP_TAKE;
}

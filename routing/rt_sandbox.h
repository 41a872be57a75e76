/* SPDX-License-Identifier: MIT */
/*
 * rt_sandbox.h - run a plugin engine in a child process with a time budget.
 *
 * rt_chain.c runs every engine loaded with dlopen() through this: the child is
 * forked from the daemon after the plugin is loaded, so it sees the view as the
 * daemon does, and writes its LFT rows into memory shared with the daemon
 * (mmap MAP_SHARED, made before the fork, with guard pages before the first
 * row and after the last).  When the engine has path_sl, the child also fills
 * a table of its answers in shared memory: one row per source switch with
 * path_sl_by_switch, else one per CA LID; the daemon's checks then read the
 * table (rt_sandbox_engine()).
 *
 * A crash, a write past the rows, a run over the time budget (the child is
 * killed), or an exit before compute_unicast returns is logged with the
 * plugin's name and the signal or exit status, and counts as a failed engine.
 *
 * Nothing here blocks: rt_sandbox_start(), then poll rt_sandbox_fd()
 * (readable once the child has ended) with a timeout of at most
 * rt_sandbox_remaining_ms(), and call rt_sandbox_collect() until it stops
 * returning -EAGAIN (past the budget it kills the child itself).  The chain
 * (rt.h: rt_chain_step(), or rt_chain_run() which waits) drives it.
 */
#ifndef IBSMD_RT_SANDBOX_H
#define IBSMD_RT_SANDBOX_H

#include <stdint.h>

#include "ibsmd/routing.h"

#define RT_PLUGIN_TIMEOUT_S 60		/* default time budget of one plugin run */
#define RT_PLUGIN_MEMORY_MB 8192	/* default: address space it may add */
/* the largest path_sl table the daemon shares with a child */
#define RT_SANDBOX_MAX_SL_TABLE ((uint64_t)1 << 30)

struct rt_plugin_limits {
	unsigned timeout_ms;	/* 0: RT_PLUGIN_TIMEOUT_S */
	uint64_t memory_mb;	/* address space the child may map beyond what it
				 * inherits (RLIMIT_AS); 0: no bound */
};

struct rt_sandbox;

/*
 * Fork a child that runs @e on @ctx: setup, compute_unicast, the path_sl
 * table, destroy.  @ctx->lft says which nodes have rows.  0 with *@out set, or
 * -errno (-EFBIG: the path_sl table would pass RT_SANDBOX_MAX_SL_TABLE; logged).
 */
int rt_sandbox_start(const struct ibsmd_routing_engine *e, const struct ibsmd_rt_ctx *ctx,
		     const struct rt_plugin_limits *lim, struct rt_sandbox **out);

/* A descriptor that polls readable once the child has ended. */
int rt_sandbox_fd(const struct rt_sandbox *sb);

/* Milliseconds left of the budget, 0 when it is spent. */
int rt_sandbox_remaining_ms(const struct rt_sandbox *sb);

/*
 * Never blocks.  -EAGAIN while the child runs within its budget.  Once it has
 * ended, or its budget is spent (it is killed), it is reaped and: the engine's
 * own result when compute_unicast returned (0, with its rows copied into
 * @ctx->lft, or its -errno); -ECHILD when it crashed, was killed or exited
 * first (logged, naming the engine).  Further calls return the same.
 */
int rt_sandbox_collect(struct rt_sandbox *sb, const struct ibsmd_rt_ctx *ctx);

/* Kill the child now (the next collect reports it as stopped). */
void rt_sandbox_cancel(struct rt_sandbox *sb);

/*
 * After a collect that returned 0: an engine that stands in for the plugin in
 * the daemon's checks, with its name, deadlock_free and path_sl_by_switch, and
 * a path_sl that reads the shared table, called with *@state.
 */
const struct ibsmd_routing_engine *rt_sandbox_engine(const struct rt_sandbox *sb, void **state);

/* Kill the child if it still runs, reap it, unmap; NULL is fine. */
void rt_sandbox_free(struct rt_sandbox *sb);

#endif

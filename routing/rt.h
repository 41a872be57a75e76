/* SPDX-License-Identifier: MIT */
/*
 * rt.h - routing/ inside the daemon: engine lookup, plugins, the chain, validation.
 *
 * The daemon hands a filled struct ibsmd_rt_ctx to rt_chain_run(), which tries
 * each configured engine in turn (built in, or a plugin .so) and keeps the first
 * result that validates: every CA reaches every CA LID, and no LFT loops.
 */
#ifndef IBSMD_RT_H
#define IBSMD_RT_H

#include <stddef.h>
#include <stdint.h>

#include "ibsmd/routing.h"

/* The built-in engines, one file each. */
extern const struct ibsmd_routing_engine rt_minhop_engine;
extern const struct ibsmd_routing_engine rt_updn_engine;
extern const struct ibsmd_routing_engine rt_ftree_engine;
extern const struct ibsmd_routing_engine rt_file_engine;

/* The built-in engine called @name, or NULL. */
const struct ibsmd_routing_engine *rt_builtin_find(const char *name);

struct rt_validation {
	uint64_t pairs;		/* CA -> CA LID pairs checked */
	uint64_t unreachable;	/* of those, pairs whose path ends nowhere */
	uint64_t loops;		/* of those, pairs whose path loops */
	char first_problem[256];	/* the first offending pair, for the log */
};

/* Walk every switch-with-CAs -> CA LID path through ctx's LFTs.  0 when all
 * reach, -EHOSTUNREACH otherwise (details in @res). */
int rt_validate(const struct ibsmd_rt_ctx *ctx, struct rt_validation *res);

/*
 * Run the chain @names[0..n-1] on @ctx: for each engine, clear the LFTs, run it,
 * validate; stop at the first that passes.  A name that is not built in is
 * loaded as a plugin: NAME.so from @plugin_dir, or a path when it holds a '/'.
 * Returns the index of the engine that succeeded, or -errno when none did
 * (every failure is logged through ctx->log).
 */
int rt_chain_run(const char *const *names, unsigned n, const char *plugin_dir,
		 struct ibsmd_rt_ctx *ctx, struct rt_validation *res);

#endif

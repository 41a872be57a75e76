/* SPDX-License-Identifier: MIT */
/*
 * rt.h - routing/ inside the daemon: engine lookup, plugins, the chain, validation.
 *
 * The daemon hands a filled struct ibsmd_rt_ctx to rt_chain_run(), which tries
 * each configured engine in turn (built in, or a plugin .so) and keeps the first
 * result that validates: every CA reaches every CA LID, every switch and CA
 * every switch LID, and no LFT loops;
 * and for engines that claim deadlock freedom, no credit loop (rt_cdg.c);
 * and the AR groups an engine gave (routing ABI 3, ctx->ar): legal ports and
 * no credit loop in the union of all the hops they allow (rt_ar.c).
 */
#ifndef IBSMD_RT_H
#define IBSMD_RT_H

#include <stddef.h>
#include <stdint.h>

#include "ibsmd/routing.h"
#include "routing/rt_path_sl.h"
#include "routing/rt_sandbox.h"

/* The built-in engines, one file each. */
extern const struct ibsmd_routing_engine rt_minhop_engine;
extern const struct ibsmd_routing_engine rt_updn_engine;
extern const struct ibsmd_routing_engine rt_ftree_engine;
extern const struct ibsmd_routing_engine rt_file_engine;
extern const struct ibsmd_routing_engine rt_dfsssp_engine;

/* The built-in engine called @name, or NULL. */
const struct ibsmd_routing_engine *rt_builtin_find(const char *name);

/*
 * Whether the options @options[0..nopt-1] ("key=value") suit the chain
 * @names[0..n-1]: each key is read by an engine of the chain (a plugin in the
 * chain may read any), a GUID option holds a GUID, a GUID file option names
 * a GUID file that reads (rt_guids.h).  0, or -EINVAL with the first problem
 * in @err.  What --check-config runs; the engines check again when they run.
 */
int rt_options_check(const char *const *names, unsigned n, const char *const *options,
		     unsigned nopt, char *err, size_t errlen);

/* Where the plugin engine @name is loaded from: @name itself when it holds a
 * '/', else @dir/NAME.so.  0, or -ENAMETOOLONG when it does not fit @len. */
int rt_plugin_path(const char *name, const char *dir, char *path, size_t len);

struct rt_validation {
	uint64_t pairs;		/* CA -> CA LID pairs checked */
	uint64_t unreachable;	/* of those, pairs whose path ends nowhere */
	uint64_t loops;		/* of those, pairs whose path loops */
	uint64_t sw_pairs;	/* switch or CA -> switch LID pairs checked */
	uint64_t sw_unreachable;	/* of those, pairs whose path ends nowhere */
	uint64_t sw_loops;	/* of those, pairs whose path loops */
	uint8_t max_sl;		/* the highest path SL of a CA -> CA route: set by
				 * rt_chain_run() (rt_validate() leaves 0) */
	char first_problem[256];	/* the first offending pair, for the log */
};

/* Walk every switch-with-CAs -> CA LID path and every switch -> switch LID
 * path through ctx's LFTs, on every core (rt_par.h).  0 when all reach,
 * -EHOSTUNREACH otherwise (details in @res), -ENOMEM. */
int rt_validate(const struct ibsmd_rt_ctx *ctx, struct rt_validation *res);

struct rt_cdg_result {
	unsigned sls;		/* service levels the routes use */
	uint64_t dependencies;	/* distinct channel dependencies, all SLs */
	unsigned cycle_len;	/* channels on the first cycle found, 0 if none */
	uint8_t cycle_sl;	/* and its SL */
	uint8_t max_sl;		/* the highest SL path_sl gives a CA -> CA route */
	char first_cycle[512];	/* "SL n: 0xGUID (desc) port P -> ..." for the log */
};

/*
 * Build the channel dependency graph of ctx's LFTs (a channel: a switch's
 * output port to another switch, per SL; SLs from @e->path_sl called with
 * @state, SL 0 without it) over every CA -> LID route, and look for a cycle
 * (a credit loop).  0 when there is none, -ELOOP with the first cycle
 * described in @res, -ENOMEM.
 */
int rt_cdg_check(const struct ibsmd_rt_ctx *ctx, const struct ibsmd_routing_engine *e,
		 void *state, struct rt_cdg_result *res);

/*
 * Run the chain @names[0..n-1] on @ctx: for each engine, clear the LFTs, run it,
 * validate; stop at the first that passes.  A name that is not built in is
 * loaded as a plugin: NAME.so from @plugin_dir, or a path when it holds a '/',
 * and run in a child process within @lim (NULL: the defaults; rt_sandbox.h):
 * its crash, exit or overrun is a failed engine, and so is a signal handled
 * while this thread waits for it.  (The daemon routes on a worker thread with
 * signals blocked; on SIGTERM its loop leaves the worker, and the child dies
 * with the process: PR_SET_PDEATHSIG.)
 * Returns the index of the engine that succeeded, or -errno when none did
 * (every failure is logged through ctx->log).
 */
int rt_chain_run(const char *const *names, unsigned n, const char *plugin_dir,
		 const struct rt_plugin_limits *lim, struct ibsmd_rt_ctx *ctx,
		 struct rt_validation *res);

/* rt_chain_run(), also keeping the winning engine's path SLs in @sls
 * (rt_path_sls_free()) when its routes use SLs above 0; @sls stays empty
 * otherwise, or when the table is too big (logged). */
int rt_chain_run_sls(const char *const *names, unsigned n, const char *plugin_dir,
		     const struct rt_plugin_limits *lim, struct ibsmd_rt_ctx *ctx,
		     struct rt_validation *res, struct rt_path_sls *sls);

/*
 * The same chain, driven by an event loop, so that the daemon keeps serving
 * (and answers SIGTERM) while a plugin computes in its child:
 *
 *	rt_chain_start(names, n, dir, lim, ctx, res, &c);
 *	while ((rc = rt_chain_step(c)) == -EAGAIN)
 *		wait until rt_chain_fd(c) polls readable, or rt_chain_remaining_ms(c)
 *		passed, or the loop decides to rt_chain_cancel(c);
 *	rt_chain_free(c);
 *
 * rt_chain_step() runs built-in engines in place and starts plugins; it
 * returns -EAGAIN while a plugin runs, then what rt_chain_run() returns, or
 * -ECANCELED after rt_chain_cancel() (the plugin is killed, no further engine
 * runs).  The strings of @names, @ctx and @res must live until
 * rt_chain_free().  rt_chain_start() returns 0 or -ENOMEM.
 */
struct rt_chain;
int rt_chain_start(const char *const *names, unsigned n, const char *plugin_dir,
		   const struct rt_plugin_limits *lim, struct ibsmd_rt_ctx *ctx,
		   struct rt_validation *res, struct rt_chain **out);
int rt_chain_step(struct rt_chain *c);
int rt_chain_fd(const struct rt_chain *c);	/* -1 when no plugin runs */
int rt_chain_remaining_ms(const struct rt_chain *c);
void rt_chain_cancel(struct rt_chain *c);
void rt_chain_free(struct rt_chain *c);

#endif

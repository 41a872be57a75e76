/* SPDX-License-Identifier: MIT */
/*
 * rt_ar.h - the daemon's checks of adaptive routing (AR) groups (routing ABI
 * 3, ibsmd/routing.h): the ranges of what an engine wrote into ctx->ar, and
 * deadlock freedom of the union of every hop the groups and the LFTs allow.
 */
#ifndef IBSMD_RT_AR_H
#define IBSMD_RT_AR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibsmd/routing.h"

#define RT_AR_MAX_GROUPS 4095	/* 12-bit group numbers (the AR LFT's) */

/*
 * Fill @allow[S] (per switch number S, IBSMD_AR_WORDS words each, zeroed by
 * the caller) with the ports switch S may forward out of toward destination
 * switch number @d, whose CA LIDs are @lids[0..@nlids-1]: the AR group and the
 * static ports.  @arg is the caller's.
 */
typedef void (*rt_ar_allow_fn)(const struct ibsmd_rt_ctx *ctx, const void *arg, uint32_t d,
			       const uint16_t *lids, uint32_t nlids,
			       uint64_t (*allow)[IBSMD_AR_WORDS]);

/*
 * The channel dependency graph of every hop @fill allows, over all
 * destination switches (one SL: a channel is a switch port to another
 * switch; a hop into channel c then out of its far switch's allowed ports
 * makes a dependency).  0 when it has no cycle, -ELOOP, -ENOMEM.
 * Cost: O(destination switches x switch ports x IBSMD_AR_WORDS) plus @fill's
 * (for the fills here: O(CA LIDs x switches)).
 */
int rt_ar_union_check(const struct ibsmd_rt_ctx *ctx, rt_ar_allow_fn fill, const void *arg);

/* Or into @allow[S] the LFT ports of every switch S for @lids (a helper for
 * rt_ar_allow_fn). */
void rt_ar_allow_static(const struct ibsmd_rt_ctx *ctx, const uint16_t *lids, uint32_t nlids,
			uint64_t (*allow)[IBSMD_AR_WORDS]);

/*
 * What an engine wrote into ctx->ar, as routing.h promises the daemon checks
 * it: group numbers in range, groups only for CA LIDs, none empty, every
 * port existing and linked to a switch or to the LID's own CA.  0, or
 * -EINVAL with the first offence in @why.
 */
int rt_ar_validate(const struct ibsmd_rt_ctx *ctx, char *why, size_t len);

/* rt_ar_union_check() over ctx->ar's groups and ctx's LFTs. */
int rt_ar_cdg_check(const struct ibsmd_rt_ctx *ctx);

/* Any group written in ctx->ar (false when ctx->ar is NULL). */
bool rt_ar_any(const struct ibsmd_rt_ctx *ctx);

/* Zero every row of ctx->ar (before an engine runs). */
void rt_ar_clear(const struct ibsmd_rt_ctx *ctx);

#endif

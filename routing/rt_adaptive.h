/* SPDX-License-Identifier: MIT */
/*
 * rt_adaptive.h - the AR groups of the built-in engine `adaptive`
 * (rt_adaptive.c), for the daemon's own use: the traffic model
 * (rt_traffic.h) reads them through rt_adaptive_group().
 *
 * The engine's static LFTs are ftree's.  Its AR group for switch S and a CA
 * LID on switch D is the set of S's ports that start an up/down-legal path to
 * D as short as any: on a fat tree, every up port toward a common ancestor of
 * S and D, or, from an ancestor of D, the down ports one hop nearer D.  Ranks
 * are hops from the nearest switch with CAs; a link between equal ranks is in
 * no group.  Identical port sets on one switch share a group, at most
 * group_cap of them (option group_cap=1..4095, default 4095, the 12-bit group
 * numbers of the AR LFT); destinations past the cap keep the static port
 * only; when the daemon hands a ctx->ar (routing ABI 3) its group_cap, what
 * the fabric's AR switches hold, lowers the cap.  A switch's groups are
 * numbered in destination switch order, so the same fabric gets the same
 * numbers every run, and compute_ar gives them to ctx->ar as they are (group
 * n of switch S is AR group n on the wire): a resweep of an unchanged fabric
 * sends no group again.  The union of all allowed hops is checked for credit
 * loops (rt_adaptive_check, on rt_ar.c's check).
 */
#ifndef IBSMD_RT_ADAPTIVE_H
#define IBSMD_RT_ADAPTIVE_H

#include <stdint.h>

#include "routing/rt.h"

#define RT_ADAPTIVE_MAX_GROUPS 4095

extern const struct ibsmd_routing_engine rt_adaptive_engine;

/* What compute_unicast made of the groups (@state: from the engine's setup). */
struct rt_adaptive_stats {
	uint64_t groups;	/* distinct port sets, summed over the switches */
	uint32_t max_groups;	/* the most on one switch */
	uint64_t entries;	/* (switch, CA destination switch) pairs with a group */
	uint64_t over_cap;	/* pairs left static: their switch's groups were full */
};
void rt_adaptive_stats(const void *state, struct rt_adaptive_stats *st);

/*
 * The AR group of switch node @node for @lid, as a 256-bit port mask (bit
 * p % 64 of word p / 64), or NULL (a switch LID, no group, no such node).
 * @state is the engine's, after compute_unicast on a view that must still
 * be alive; the signature is rt_traffic_ar_fn's.
 */
const uint64_t *rt_adaptive_group(const void *state, uint32_t node, uint16_t lid);

/*
 * Deadlock freedom of every hop the AR groups and ctx's LFTs allow together:
 * per destination switch, a switch may forward out of its group or the static
 * port of any of that switch's CA LIDs; the channel dependency graph of those
 * hops (one SL) must have no cycle.  0, -ELOOP, -ENOMEM.  compute_unicast
 * runs it and drops the groups on -ELOOP (the static routes stay; the chain
 * checks them per SL).
 */
int rt_adaptive_check(const struct ibsmd_rt_ctx *ctx, const void *state);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * rt_quality.h - how good is a routing result?  The figures of
 * `smquery route-check` and of the OpenSM comparison (contrib/bench/quality.sh).
 *
 * Hosts are the CA (and router) ports with a LID cabled to a switch, in leaf
 * order: switches in view order, and on each switch its ports in order.  A
 * route from host A to host B is the LFT walk toward B's base LID from A's
 * switch.  Its length is the links it crosses, CA to CA: 2 on one switch.
 */
#ifndef IBSMD_RT_QUALITY_H
#define IBSMD_RT_QUALITY_H

#include <stdint.h>

#include "routing/rt.h"

#define RT_QUALITY_MAX_HOPS 31	/* the last histogram bucket holds longer routes too */
#define RT_QUALITY_PAIRINGS 100
#define RT_QUALITY_SEED 1

struct rt_quality_opts {
	unsigned pairings;	/* random bisection pairings for the EBB (0: none) */
	uint64_t seed;		/* of the pairings' generator (same seed, same pairings) */
	/* the engine and its state for path_sl (credit loops per SL); NULL: SL 0 */
	const struct ibsmd_routing_engine *engine;
	void *engine_state;
	/* measure the routes toward each host's base LID + lid_offset (LMC > 0;
	 * hosts whose LMC does not reach it: the base LID) */
	unsigned lid_offset;
};

struct rt_link_load {
	uint32_t links;		/* directed switch->switch and switch->CA links */
	uint64_t min, max;	/* CA->CA routes crossing one link */
	double mean, stddev;	/* over those links (population stddev) */
};

struct rt_quality {
	uint32_t hosts;		/* CA ports with a LID on a switch */
	uint32_t switches;
	/* every route between two distinct hosts */
	uint64_t pairs;		/* hosts * (hosts - 1) */
	uint64_t unreachable;	/* end nowhere or at the wrong port */
	uint64_t loops;		/* go round forever */
	struct rt_validation validation;	/* rt_validate() on the same tables */
	int validation_rc;	/* its return: 0 or -EHOSTUNREACH */
	struct rt_cdg_result cdg;	/* rt_cdg_check() */
	int cdg_rc;		/* its return: 0, -ELOOP (a credit loop) */
	uint64_t hops[RT_QUALITY_MAX_HOPS + 1];	/* delivered pairs by links crossed */
	struct rt_link_load load;
	/* shift permutations: host i sends to host (i + s) mod hosts, s = 1 .. hosts-1 */
	uint32_t shifts;
	uint32_t shifts_free;	/* with every flow delivered and no link shared */
	uint32_t shift_worst;	/* the most flows on one link in any of them */
	/* effective bisection bandwidth, DESIGN.md: the mean over flows of
	 * 1 / (the most flows sharing one link of the flow's path), over random
	 * perfect matchings of the hosts, both directions a flow; an undelivered
	 * flow counts 0 */
	unsigned pairings;
	uint64_t seed;
	double ebb;
	/* LMC path diversity, over the pairs on different switches whose
	 * destination port has LMC > 0: the 2^LMC LID routes of a pair, from the
	 * source's switch */
	struct {
		uint64_t pairs;
		uint64_t spread;	/* pairs whose LIDs all leave the source switch
					 * on different ports */
		double links;		/* mean switch ports crossed by one LID's route */
		double distinct;	/* mean distinct switch ports crossed by the
					 * pair's LID routes together */
	} lmc;
};

/*
 * Measure the routes of @ctx (view and LFT rows; nothing is changed) into @q.
 * @opts may be NULL (RT_QUALITY_PAIRINGS pairings, RT_QUALITY_SEED, SL 0).
 * Returns 0 (the figures say how good the routes are, broken ones included)
 * or -ENOMEM.  Work: O(hosts * switches) for the routes, O(hosts^2 * path
 * length) for the shifts: about a second for 8,192 hosts; with LMC > 0 also
 * O(switches with hosts * LIDs * path length) for the path diversity.
 */
int rt_quality(const struct ibsmd_rt_ctx *ctx, const struct rt_quality_opts *opts,
	       struct rt_quality *q);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * rt_traffic.h - a flow-level traffic model of a routing result: how much
 * bandwidth each flow of a traffic pattern gets, with the static LFTs and
 * with adaptive routing (AR) groups.  The figure of `smquery route-check
 * --traffic` (smquery.1).
 *
 * Hosts are those of rt_quality.h (CA and router ports with a LID cabled to a
 * switch, in leaf order).  A flow goes from a host toward another host's base
 * LID.  Static: its path is the host's link to its switch, then at each
 * switch the LFT entry.
 *
 * AR stands for per-packet adaptive routing under credit-based flow control.
 * A switch sends each packet out of the port of its group (for the LID; no
 * group: the static port) whose queue drains fastest, and a port drains only
 * as fast as the links behind it: a full buffer downstream withholds credits
 * and back-pressures into the port feeding it.  So a flow's traffic is split
 * over the ways the groups allow, and a switch sees a port's congestion as
 * the most loaded link (traffic per unit of capacity) on the way it leads to,
 * the switches behind choosing the same way.  The split is found by
 * successive averages: each flow first goes wholly the way its switches
 * choose seeing the flows placed before it (in the pattern's order); then in
 * each of RT_TRAFFIC_AR_PASSES - 1 passes every flow moves 1/(pass + 1) of
 * its traffic onto the way its switches choose now (ties: the port already
 * carrying most of the flow, then the static port, then the lowest).  That
 * converges toward a split where no allowed way is less congested than the
 * ways a flow uses; after the last pass the most loaded link carries about
 * 1 + 1/RT_TRAFFIC_AR_PASSES of its capacity where a perfect split would
 * carry 1.  The model is optimistic: no head-of-line blocking, no cost of
 * reordering, exact knowledge of downstream congestion.
 *
 * Rates are max-min fair over the links' capacities (progressive filling): a
 * flow's rate can only grow by taking from a flow with a rate at least as
 * high; a split flow's rate r puts r times its share on each link it uses.  Capacities are the links' data rates when the view knows every
 * linked port's width and speed, else all equal.  A flow that is not
 * delivered (no route, a loop, the wrong port) gets 0.
 *
 * Patterns (each host sends, and receives, k flows in each round):
 *   shift     rounds s = 1 .. hosts-1: host i sends to host (i + s) mod hosts; k = 1
 *   random    @pairings random perfect matchings of the hosts (rt_traffic_matching:
 *             the pairings of rt_quality's EBB for the same seed), both
 *             directions of each pair; k = 1
 *   alltoall  one round, every host to every other host; k = hosts - 1
 *   bitrev    one round: host i < 2^b (the largest 2^b <= hosts) sends to the host
 *             whose index is i's b bits reversed (a steady hot spot for
 *             destination-mod-k routing: a leaf's hosts share their low bits,
 *             so their destinations share a column); k = 1
 * The effective bisection bandwidth is the mean over the flows of the rate
 * over the ideal rate, min(source port rate, destination port rate) / k (what
 * a non-blocking crossbar gives each flow), at most 1: all-to-all flows that
 * a bottleneck spares may get more than the ideal, which does not make up for
 * those it slows.  1 means no flow is slowed by the fabric.
 *
 * How it relates to rt_quality's EBB (the mean over the flows of random
 * pairings of 1 / the most flows sharing a link of the flow's path): with
 * equal capacities every flow's max-min fair rate is at least that figure (its
 * bottleneck link is full and no flow on it has a higher rate), so the
 * model's static EBB is never below rt_quality's; and where no link carries
 * more than two flows the two are equal flow by flow (two flows on a full link
 * get 1/2 each).  tests/check_rt_quality.c holds both to this.
 */
#ifndef IBSMD_RT_TRAFFIC_H
#define IBSMD_RT_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

#include "routing/rt.h"

enum rt_traffic_pattern {
	RT_TRAFFIC_SHIFT,
	RT_TRAFFIC_RANDOM,
	RT_TRAFFIC_ALLTOALL,
	RT_TRAFFIC_BITREV,
};

/* AR: passes over a round's flows, the first placement included (a cost,
 * not a target: each pass places every flow again) */
#define RT_TRAFFIC_AR_PASSES 16

/* all-to-all is refused (-E2BIG) above this many hosts: hosts^2 flows at once */
#define RT_TRAFFIC_MAX_ALLTOALL_HOSTS 4096

/*
 * The AR groups the model lets a switch choose from: the ports switch node
 * @node may send traffic for @lid out of, as a mask of 256 bits (bit p % 64 of
 * word p / 64 for port p), or NULL when it has none (the static entry only).
 */
typedef const uint64_t *(*rt_traffic_ar_fn)(const void *arg, uint32_t node, uint16_t lid);

struct rt_traffic_opts {
	enum rt_traffic_pattern pattern;
	unsigned pairings;	/* random: matchings (rt_quality's RT_QUALITY_PAIRINGS) */
	uint64_t seed;		/* random: of the matchings' generator */
	rt_traffic_ar_fn ar;	/* NULL: static routing only */
	const void *ar_arg;
	/* optional: per node (a NULL row skips the node), nports + 1 entries,
	 * set to each port's transmit load with the LFTs: the rate of the flows
	 * leaving by it over its capacity, averaged over the rounds (0..1), what
	 * a port's data counters would show (sm_rebalance.c's input in tests) */
	double *const *port_load;
	/* optional, laid out as port_load: each port's demand with the LFTs, the
	 * ideal rates (a crossbar's) of the flows leaving by it over its capacity,
	 * averaged over the rounds; above its load where flows are held back
	 * (sm_sim_traffic.c's PortXmitWait) */
	double *const *port_demand;
};

struct rt_traffic_result {
	double ebb;		/* effective bisection bandwidth, 0..1 */
	uint64_t undelivered;	/* flows that did not arrive (rate 0) */
};

struct rt_traffic {
	enum rt_traffic_pattern pattern;
	uint32_t hosts;
	unsigned rounds;	/* permutations, matchings or 1 */
	uint64_t flows;		/* over every round */
	bool rated;		/* capacities are link rates (else all equal) */
	struct rt_traffic_result stat;	/* with the LFTs */
	bool adaptive;		/* opts->ar was given */
	struct rt_traffic_result adapt;	/* with the AR groups */
};

/*
 * Run the pattern @o over ctx's view and LFTs (nothing is changed) into @t.
 * 0, -EINVAL (an unknown pattern), -E2BIG (all-to-all over
 * RT_TRAFFIC_MAX_ALLTOALL_HOSTS hosts) or -ENOMEM.  Work per round:
 * O(F * L * log) for F flows of L links (a heap of links by fair share);
 * shift: hosts - 1 rounds, about a second for 1,024 hosts.
 */
int rt_traffic(const struct ibsmd_rt_ctx *ctx, const struct rt_traffic_opts *o,
	       struct rt_traffic *t);

/* "shift", "random", "alltoall"; and back: 0 or -EINVAL. */
const char *rt_traffic_pattern_name(enum rt_traffic_pattern p);
int rt_traffic_pattern_parse(const char *name, enum rt_traffic_pattern *p);

/*
 * A random perfect matching of @n hosts: @perm[0..n-1] a shuffle of 0..n-1
 * (Fisher-Yates with splitmix64 from *@rng, so a seed gives the same pairings
 * on every platform); the pairs are (perm[2i], perm[2i+1]).  rt_quality's EBB
 * draws its pairings here too.
 */
void rt_traffic_matching(uint32_t n, uint64_t *rng, uint32_t *perm);

#endif

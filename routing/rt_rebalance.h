/* SPDX-License-Identifier: MIT */
/*
 * rt_rebalance.h - congestion-aware rebalancing, the pure part: given each
 * switch port's transmit load (from its counters, or from the traffic model
 * in tests) and, per switch and destination, the equal-cost up/down-legal
 * ports (the AR groups of rt_adaptive.h), move some destinations' LFT entries
 * from hot ports to cool ones of the same group.
 *
 * A port is hot above opts.hot (a fraction of its capacity), an alternative
 * cool at most opts.cool.  A destination's weight, what moving it would shift,
 * is estimated by the load of the last link toward it (its leaf switch's port
 * to the host: everything it receives), shared out over its 2^LMC LIDs.
 * Hot ports are taken hottest first; from each, the heaviest destinations go
 * to the coolest port of their group as long as the port stays hot, the
 * alternative is cool, and the move leaves the alternative less loaded than
 * the hot port was (est(to) + w < est(from)): so a steady load settles and
 * does not move back and forth.  The estimates are updated after each move;
 * at most opts.max_moves moves.  Nothing else is changed.
 */
#ifndef IBSMD_RT_REBALANCE_H
#define IBSMD_RT_REBALANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "routing/rt.h"
#include "routing/rt_traffic.h"

struct rt_rebalance_opts {
	double hot, cool;	/* fractions of a port's capacity; cool < hot */
	uint32_t max_moves;
	rt_traffic_ar_fn groups;	/* the equal-cost ports (rt_adaptive_group) */
	const void *groups_arg;
	/* optional: false keeps (switch node @sw, @lid) where it is (moved lately) */
	bool (*may_move)(void *arg, uint32_t sw, uint16_t lid);
	void *may_move_arg;
};

struct rt_rebalance_move {
	uint32_t sw;		/* switch node */
	uint16_t lid;
	uint8_t from, to;	/* ports */
	double from_load, to_load;	/* their estimated loads before the move */
	double weight;		/* the destination's estimated load */
};

/*
 * Plan with @load (per node: NULL for non-switches, else nports + 1 loads,
 * 0..1 and more for a port that also waits) and apply the moves to ctx's
 * LFTs; the moves into @moves (room for opts.max_moves), their count into
 * *@nmoves.  0, -EINVAL (cool >= hot, no groups), -ENOMEM.
 */
int rt_rebalance(const struct ibsmd_rt_ctx *ctx, const double *const *load,
		 const struct rt_rebalance_opts *o, struct rt_rebalance_move *moves,
		 uint32_t *nmoves);

#endif

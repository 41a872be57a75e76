/* SPDX-License-Identifier: MIT */
/*
 * sm_patch_int.h - what the two halves of a link patch share: the static LFT
 * side (sm_patch.c) and the AR side (sm_patch_ar.c).  Not for other callers.
 */
#ifndef IBSMD_SM_PATCH_INT_H
#define IBSMD_SM_PATCH_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "sm/core/sm.h"
#include "sm/core/sm_lft_send.h"
#include "sm/repair/sm_patch.h"
#include "sm/util/sm_arena.h"

#define P_MAX_DEAD (2 * SM_PATCH_MAX_PENDING)
#define P_MAX_HOPS 64

struct patch {
	struct sm *sm;
	const struct sm_fabric *f;
	struct sm_routes *rt;
	struct sm_arena arena;
	struct { uint32_t node; uint8_t port; } dead[P_MAX_DEAD];
	unsigned ndead;
	bool too_many;		/* more dead ends than dead[] holds */
	size_t nblocks;
	uint64_t **dirty;	/* per node: bitmap of the blocks changed */
	bool *lft_failed;	/* per node: an LFT Set failed (what it holds is unknown) */
	struct sm_lft_send send;	/* the LFT blocks of dirty, sent */
	uint64_t entries, blocks, failed;
	uint64_t unfixed, unfixed_switch;	/* CA LIDs, switch LIDs without another port */
	struct topo_path *paths;	/* per node, found again around dead links */
	/* the AR side: per node, bitmaps of the group table and AR LFT blocks
	 * changed, and whether an AR Set failed */
	uint64_t **ar_group_dirty, **ar_lft_dirty;
	bool *ar_failed;
	uint64_t ar_groups, ar_lids;	/* groups that lost a port, LIDs made static */
	uint64_t ar_group_blocks, ar_lft_blocks;	/* sent */
	uint64_t ar_info_smps;	/* AdaptiveRoutingInfo read back and set at the end */
};

struct patch_req {
	struct patch *p;
	uint32_t node;
	uint8_t port;
};

/* Is port @port of @node a dead link end? */
bool patch_is_dead(const struct patch *p, uint32_t node, uint8_t port);

/* Hops from switch @n to @lid by the LFTs, or -1: not delivered, or (with
 * @live) a dead link crossed.  *@to_switch (may be NULL): @lid is a switch's. */
int patch_walk(const struct patch *p, uint32_t n, uint16_t lid, bool live, bool *to_switch);

/* The directed route to switch @n, around the dead links. */
const struct topo_path *patch_path_to(struct patch *p, uint32_t n);

/* The AR side (sm_patch_ar.c), after the static entries were patched:
 * compute, then send (after the LFT blocks), then bring sm->ar in line, and
 * last make sure AR is on where any block went (sm_ar_keep_on()). */
int patch_ar_compute(struct patch *p);
int patch_ar_send(struct patch *p);
void patch_ar_remember(struct patch *p);
int patch_ar_keep_on(struct patch *p);

#endif

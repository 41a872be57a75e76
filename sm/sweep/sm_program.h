/* SPDX-License-Identifier: MIT */
/*
 * sm_program.h - bring the fabric to what the sweep decided: LIDs, LFTs, Active.
 */
#ifndef IBSMD_SM_PROGRAM_H
#define IBSMD_SM_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm/core/sm.h"
#include "sm/util/sm_arena.h"
#include "sm/sweep/sm_route.h"

struct sm_program_result {
	uint64_t lid_smps, lft_smps, activate_smps;
	uint32_t lid_ms, lft_ms, activate_ms;
	size_t portinfo_sets, lft_blocks, lft_reads, activations, failures;
	size_t ar_blocks;	/* AR group table and AR LFT blocks sent (sm_ar.c) */
	unsigned degraded_links;	/* trained below both ends' best (sm_link.c) */
	/* per node: its LFT took a new block, so the store's record is stale */
	bool *lft_changed;
	/* per node: a block Set failed, so nobody knows what its LFT holds */
	bool *lft_failed;
	/* per node: the store had no (true) record of its LFT, now known */
	bool *lft_unrecorded;
	/* per node: its LFT gets new blocks or is recorded anew (known before
	 * the first block goes out: see struct sm_program_hook) */
	bool *lft_planned;
};

/* Called by sm_program_routes() once it knows which LFTs it will send
 * (@res->lft_planned), before the first block: the sweep then stores them
 * while they go out.  It must not touch what programming writes. */
struct sm_program_hook {
	void (*lfts_planned)(void *arg);
	void *arg;
};

/*
 * Program @f as the sweep decided (the LIDs the LID manager wrote into its
 * topology, @routes), in phases, each one pipelined through the rpc window
 * and counted:
 *  1. PortInfo Set where a port's LID, LMC, SM LID, subnet prefix, neighbour MTU,
 *     operational VLs, link parameters (sm_link.h: timers, thresholds,
 *     enabled rates) or partition enforcement (sm_pkey_enforced()) differ,
 *     moving linked INIT ports to ARMED in the same SMP;
 *  2. SwitchInfo LinearFDBTop (and LifeTimeValue) and the LFT blocks that differ from what the switch
 *     holds (the store's record of what we programmed; read back from a switch
 *     we have no record of), interleaved across switches;
 *  3. AR groups and AR LFTs on the switches that do adaptive routing, when
 *     the engine gave groups (sm_ar.c; counted with the LFTs);
 *     SLtoVLMappingTables, only when the routes use SLs above 0 (sm_sl2vl.c;
 *     counted with the LFTs);
 *  4. PortInfo Set ACTIVE on every ARMED port (IBA 7.2, port state machine);
 *     status 0x1C from a port that went ACTIVE by itself is no failure.
 * Only ports with a discovered peer are armed and activated.  Every Set's
 * answer must show what was asked.
 * sm_program_ports() runs phase 1 (M_Keys first, sm_mkey.h): it needs no
 * routes, so the sweep runs it while the routes are computed; it clears @res.
 * sm_program_routes() runs phases 2 to 4, after it.
 * Answers update f->attrs and the topology's port states.  sm_program_routes()
 * returns 0 when every SMP of both succeeded, -EIO when some failed (counted
 * in @res, logged); either returns -errno for a transport failure.
 * @res->lft_changed/lft_failed/lft_unrecorded/lft_planned are freed with
 * sm_program_result_free().  @hook may be NULL.
 */
int sm_program_ports(struct sm *sm, struct sm_fabric *f, struct sm_arena *arena,
		     struct sm_program_result *res);
int sm_program_routes(struct sm *sm, struct sm_fabric *f,
		      const struct sm_routes *routes, struct sm_arena *arena,
		      struct sm_program_result *res, const struct sm_program_hook *hook);
void sm_program_result_free(struct sm_program_result *res);

#endif

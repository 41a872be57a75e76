/* SPDX-License-Identifier: MIT */
/*
 * sm_ar.h - adaptive routing (AR) on the switches that have it: which do
 * (probed once per switch), and programming the AR groups an engine computed
 * (routing ABI 3) into their AdaptiveRoutingGroupTable and AR LFT (mad_ar.h),
 * with AR turned on last and read back after every LFT-class Set.
 *
 * What this process knows per switch, by node GUID, lives in struct
 * sm_ar_cache (in struct sm): the probe's verdict and AdaptiveRoutingInfo, and
 * the groups and LID groups it last programmed there, so that a resweep sends
 * only the blocks that changed.  A switch found reset (LinearFDBTop 0) or one
 * whose AR SMP failed is programmed whole again.  The store keeps the same
 * per switch (db_ar.c), so a restarted daemon starts from it once the switch
 * shows it still holds it (sm_ar_learn()).
 */
#ifndef IBSMD_SM_AR_H
#define IBSMD_SM_AR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_ar.h"
#include "sm/util/sm_arena.h"

struct sm;
struct sm_fabric;
struct sm_routes;
struct sm_config;
struct ibsmd_rt_ar;

enum sm_ar_probe {
	SM_AR_UNKNOWN = 0,	/* not asked yet, or the probe went unanswered */
	SM_AR_NONE,		/* answered with an error: no AR; never asked again */
	SM_AR_CAPABLE,
};

struct sm_ar_switch {
	uint64_t guid;
	uint8_t probe;		/* enum sm_ar_probe */
	struct mad_ar_info info;	/* as the switch last answered */
	bool programmed;	/* groups and lid_group are what the switch holds */
	uint16_t top;		/* groups 1..top programmed */
	uint64_t (*groups)[4];	/* [g - 1], top entries */
	uint16_t *lid_group;	/* per LID, nlid entries */
	uint32_t nlid;
	/* the store's record of the tables (sm_ar_store.c) */
	bool looked_up;		/* consulted: at first contact in this process */
	bool stored;		/* the store may hold a record of the switch */
	bool store_due;		/* the record is to be written (programmed) or dropped */
};

struct sm_ar_cache {
	struct sm_ar_switch *sw;	/* sorted by GUID */
	size_t n, cap;
};

void sm_ar_cache_free(struct sm_ar_cache *c);

/* The entry of switch @guid, or NULL. */
struct sm_ar_switch *sm_ar_find(const struct sm_ar_cache *c, uint64_t guid);

/* Forget what entry @e says the switch holds (its next programming sends
 * everything, and the store's record goes at the next store step); the
 * probe's verdict stays. */
void sm_ar_forget(struct sm_ar_switch *e);

/* Does the configured chain hold an engine that may give AR groups (a built-in
 * one with compute_ar, or a plugin)?  Only then are switches probed. */
bool sm_ar_wanted(const struct sm_config *cfg);

/*
 * Ask every switch of @f not yet probed, of NodeInfo VendorID
 * MAD_AR_VENDOR_ID, for its AdaptiveRoutingInfo (one Get each, pipelined); a
 * switch answering with an error status, or not at all, has no AR and is not
 * asked again until it is found reset.  Sets
 * f->attrs[n].ar_group_cap for the AR-capable ones, and forgets what was
 * programmed on a switch that was reset.  0, or -errno of the transport.
 */
int sm_ar_probe(struct sm *sm, struct sm_fabric *f, struct sm_arena *arena);

struct sm_ar_result {
	size_t switches;	/* AR switches given groups */
	size_t info_sets, group_blocks, lft_blocks;
	size_t info_reads;	/* AdaptiveRoutingInfo read back after LFT-class Sets */
	size_t failures;
};

/*
 * Program the AR groups of @routes (routes->ar, filled by the engine) into
 * every AR-capable switch of @f, after its static LFT was programmed
 * (@lft_sent, per node, may be NULL: a plain LFT block went to the switch,
 * which turned its AR off):
 *  1. AdaptiveRoutingInfo: group_top raised to cover the groups, fallback
 *     routing enabled where supported (AR left as it is);
 *  2. the AdaptiveRoutingGroupTable blocks that changed;
 *  3. the AR LFT blocks that changed: a LID with a group is bounded to it,
 *     the others static, each with its LFT port as the default port;
 *  4. AdaptiveRoutingInfo read back from every switch that got any of the
 *     above or a plain LFT block, then set where it differs from AR
 *     enabled, group_top the highest group, no_fallback 0.
 * So no LID points at a group before the group is in place, every entry
 * keeps its static port, and AR is on when the sweep ends.  A switch given
 * no group has AR disabled.  Each phase drains before the next; every Set's
 * answer must show what was sent (AR left off is logged as an error).
 * 0 (failures counted in @res and logged), or -errno of the transport.
 */
/* The wire data of node @n's AdaptiveRoutingGroupTable block @b (groups
 * 2b, 2b + 1; group 0 and those above @top empty) from @ar. */
void sm_ar_group_block(const struct ibsmd_rt_ar *ar, uint32_t n, uint16_t top, uint16_t b,
		       uint8_t *data);

/* The wire data of node @n's AR LFT block @b (LIDs 16b..16b + 15) from @rt: a
 * LID with a group bounded to it, the others static, the LFT's port as the
 * default.  0 or -EINVAL (a value the codec cannot hold). */
int sm_ar_lft_block(const struct sm_routes *rt, uint32_t n, uint32_t b, uint8_t *data);

int sm_ar_program(struct sm *sm, const struct sm_fabric *f, const struct sm_routes *routes,
		  const bool *lft_sent, struct sm_arena *arena, struct sm_ar_result *res);

/*
 * After LFT-class Sets outside a heavy sweep (a patch): every switch of @f
 * with @touched[n] that this process programmed with groups gets phase 4
 * above, along @paths[n] (NULL, or an entry NULL: its discovered route).  A
 * switch whose read or Set failed is forgotten (all again next sweep).  0
 * (failures in @res), or -errno of the transport.
 */
struct topo_path;
int sm_ar_keep_on(struct sm *sm, const struct sm_fabric *f, const bool *touched,
		  const struct topo_path *const *paths, struct sm_arena *arena,
		  struct sm_ar_result *res);

/*
 * The store's record of what each switch holds (sm_ar_store.c).
 * sm_ar_learn(): at first contact (sm_ar_probe() calls it once the probe's
 * answers are in), the record of every switch newly found AR-capable becomes
 * its cache entry if the switch still holds it (AdaptiveRoutingInfo as the
 * record implies, one group table block and one AR LFT block read back
 * match); 0 or -errno of the transport.
 * sm_ar_unrecord(): drop from the store the records of the @n switches @sw
 * about to be sent blocks (a job; the loop keeps running); a store failure is
 * logged, not returned: 0, -ENOMEM, or -ECANCELED when stopping.
 * sm_ar_store(): in the store's transaction (db_mu held), write the entries
 * whose state changed since (store_due), or drop their records; 0 or -errno.
 */
struct db;
int sm_ar_learn(struct sm *sm, const struct sm_fabric *f, struct sm_arena *arena);
int sm_ar_unrecord(struct sm *sm, struct sm_ar_switch *const *sw, size_t n,
		   struct sm_arena *arena);
int sm_ar_store(struct db *db, struct sm_ar_cache *c);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_patch.h - fast repair of a dead link: before the heavy sweep a trap 128
 * or a light sweep makes due, rewrite only the LFT entries that used the
 * link and send only the blocks that changed (sm_patch.c).
 *
 * The switches that reported a port change are noted (sm_patch_note); the
 * daemon runs sm_patch() before the heavy sweep, which follows as usual and
 * confirms (or replaces) the patch.  A heavy sweep that starts forgets what
 * was noted: its discovery sees those links.
 */
#ifndef IBSMD_SM_PATCH_H
#define IBSMD_SM_PATCH_H

#include <stdint.h>

/* switches noted between two patches, at most; more make the patch give up
 * (the heavy sweep is due anyway) */
#define SM_PATCH_MAX_PENDING 64

struct sm_patch_state {
	uint64_t pending[SM_PATCH_MAX_PENDING];	/* switches' GUIDs (a heavy sweep may
						 * renumber sm->fabric meanwhile) */
	unsigned npending;
	bool overflow;
	uint64_t t0_ms;		/* when the first pending change was reported */
	/* totals of this process, and the last patch's figures */
	uint64_t patches, entries, blocks, smps;
	uint32_t last_ms, last_entries, last_blocks, last_smps;
	/* AR (sm_patch_ar.c): group table and AR LFT blocks sent; their SMPs are
	 * in smps and last_smps too, and with the LFT Sets in the stored sweep */
	uint64_t ar_blocks;
	uint32_t last_ar_group_blocks, last_ar_lft_blocks;
	uint32_t last_ar_info_smps;	/* AdaptiveRoutingInfo read back and set (AR on again) */
};

struct sm;

/* Switch node @node of sm->fabric reported a port change (trap 128 from its
 * LID, or PortStateChange in a light sweep). */
void sm_patch_note(struct sm *sm, uint32_t node);

/* The switch node of sm->fabric whose port 0 has @lid, or UINT32_MAX. */
uint32_t sm_patch_switch_by_lid(const struct sm *sm, uint16_t lid);

/*
 * Patch the LFTs around the links the noted switches lost: ask each noted
 * switch's linked ports for PortInfo; for each port no longer Active (a dead
 * link, both ends), every LFT entry of sm->routes that sends out of it moves
 * to another port of the same switch whose way on to the LID is as short and
 * avoids every dead link (on a fat tree: another up port, the AR group's
 * other members); where the switch has none (a top switch's only down port
 * toward a pod), its neighbours that send the LID to it move instead.  The
 * changed blocks are sent (LFT Set), the tables stored (db_lft_save_table),
 * and counted.  On AR-capable switches (sm_patch_ar.c) the groups that hold
 * a dead port lose it; a LID whose group is left empty, or would lead to a
 * switch that can no longer deliver it, is made static; those AR LFT blocks
 * go out after the LFT blocks, then the group table blocks, and sm->ar is
 * kept equal to what the switches hold.
 * 0 (patched, or nothing to patch), 1 when an entry toward a CA found no
 * other port or a Set failed (what could be patched is; the heavy sweep
 * repairs the rest, as it does switch LIDs: management traffic), or -errno.
 * Either way the noted switches are cleared.
 */
int sm_patch(struct sm *sm);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_mcast_program.h - programming the switches' MFTs from the groups' trees.
 */
#ifndef IBSMD_SM_MCAST_PROGRAM_H
#define IBSMD_SM_MCAST_PROGRAM_H

#include "sm/core/sm.h"

/*
 * Bring every switch's MFT of the SM's last fabric (sm->fabric) to the trees
 * of sm->sa->mcast's groups (sm_mcast_program.c), through sm->rpc, only the
 * blocks that differ from what a switch holds; records each group's tree
 * size and clears sm->sa->mcast.dirty before the Sets go (a join the SA
 * answers while they drain sets it again).  A failed Set is logged, counted in
 * sm->sa->mcast.failures and makes a heavy sweep due (which programs again):
 * -EIO.  0 or -errno (memory, transport).  Nothing without a fabric or a port.
 */
int sm_mcast_program(struct sm *sm);

/*
 * The groups every partition makes (its IPoIB broadcast group, OpenSM's
 * mgid= groups: sm_mcast_partition) made where missing: when the partitions
 * are read, so that an SM serves them before its first sweep as MASTER (a standby taking over, whose hosts
 * join as soon as it asks them to), and after each heavy sweep.  Logged.
 */
void sm_mcast_ipoib_groups(struct sm *sm);

/*
 * After a heavy sweep: the partitions' groups made (above), the MFTs
 * programmed.  Logged; 0 or -errno.
 */
int sm_mcast_sweep(struct sm *sm);

/*
 * Store the groups (sm_part_store.c) when @force or SM_MCAST_STORE_EVERY_MS
 * have passed since the last time, else leave sm->sa->mcast.store_due set (the
 * daemon stores them later): a storm of joins does not rewrite the tables
 * for each one.
 */
#define SM_MCAST_STORE_EVERY_MS 1000
void sm_mcast_store_due(struct sm *sm, bool force);

/* Before a heavy sweep programs @f: a switch found with LinearFDBTop 0 is
 * new or was reset, so its MFT is empty whatever was set before (and its
 * MulticastFDBTop back at its power-on value); any other switch not
 * programmed by this process may hold another SM's entries. */
void sm_mcast_note_resets(struct sm *sm, const struct sm_fabric *f);

#endif

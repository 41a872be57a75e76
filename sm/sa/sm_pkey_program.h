/* SPDX-License-Identifier: MIT */
/*
 * sm_pkey_program.h - programming P_KeyTables from the resolved partitions.
 */
#ifndef IBSMD_SM_PKEY_PROGRAM_H
#define IBSMD_SM_PKEY_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm/core/sm.h"
#include "sm/util/sm_arena.h"
#include "sm/sa/sm_pkey.h"

struct sm_pkey_result {
	size_t ports;		/* tables checked */
	size_t reads;		/* blocks read */
	size_t sets;		/* blocks set (only those that differed) */
	size_t truncated;	/* ports in more partitions than their table holds */
	size_t failures;	/* SMPs that failed or Sets not taken (logged) */
};

/*
 * Whether switch port @p of @n enforces partitions: a switch with
 * PartitionEnforcementCap and an inbound or outbound enforcement capability,
 * a port to a CA or router, and partitions @ps beyond the default one
 * (sm_program.c sets the PortInfo bits the switch is capable of).
 */
bool sm_pkey_enforced(const struct sm_partitions *ps, const struct sm_fabric *f, uint32_t n,
		      unsigned p);

/*
 * Bring every P_KeyTable of @f to what @pp says (sm_pkey_program.c), through
 * sm->rpc, pipelined; jobs come from @arena.  0 (failures counted in @res and
 * logged) or -errno for a memory or transport failure.
 */
int sm_pkey_program(struct sm *sm, struct sm_fabric *f, const struct sm_pkey_ports *pp,
		    struct sm_arena *arena, struct sm_pkey_result *res);

/*
 * A heavy sweep's partitions: resolve sm->sa->partitions against @f into @out
 * (the caller frees it) and program the tables (logged).  Nothing is sent
 * with the default partition only unless this process set other tables
 * before, nor when the tables were all set and no port was armed (@armed:
 * the sweep set some PortInfo) since.  0, -EIO when some SMP failed, -errno.
 */
int sm_pkey_sweep(struct sm *sm, struct sm_fabric *f, struct sm_arena *arena, bool armed,
		  struct sm_pkey_ports *out);

#endif

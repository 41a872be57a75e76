/* SPDX-License-Identifier: MIT */
/*
 * sm_part_store.h - partitions and multicast groups into the store.
 */
#ifndef IBSMD_SM_PART_STORE_H
#define IBSMD_SM_PART_STORE_H

#include "db/db.h"
#include "sm/core/sm.h"
#include "sm/sa/sm_pkey.h"

/* Store @ps, with the port counts of @pp (may be NULL: 0), replacing what
 * was stored (in the open sweep, if any).  0 or -errno. */
int sm_part_store(struct db *db, const struct sm_partitions *ps, const struct sm_pkey_ports *pp);

/* Store sm->sa->mcast's groups and members, replacing what was stored: through
 * sm->store (loop thread; queued while a worker holds db_mu).  0 or -errno
 * (logged). */
int sm_mcast_store(struct sm *sm);

/* Load the groups the store kept into sm->sa->mcast (empty), as the last
 * process had them (sm_part_store.c: bad rows skipped and logged); a store
 * that cannot be read is logged and leaves the groups loaded so far. */
void sm_mcast_load(struct sm *sm);

#endif

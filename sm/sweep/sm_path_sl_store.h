/* SPDX-License-Identifier: MIT */
/*
 * sm_path_sl_store.h - the routing engine's path SLs written to the store
 * after a heavy sweep, only the sources whose SLs changed (sm_path_sl_store.c).
 */
#ifndef IBSMD_SM_PATH_SL_STORE_H
#define IBSMD_SM_PATH_SL_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "routing/rt_path_sl.h"
#include "sm/core/sm_fabric.h"

/* What the store holds: per source, a hash of its SLs; sorted by source. */
struct sm_path_sl_rows {
	bool primed;		/* the store's table was cleared once by this process */
	size_t n;
	struct sm_path_sl_row {
		uint64_t source;	/* switch node GUID (by_switch) or CA LID */
		uint64_t hash;
	} *v;
};

/* Write the rows of @t (node indices of @f) that differ from @stored, drop
 * those gone, and remember what the store now holds.  0 or -errno (then
 * @stored is as before). */
int sm_path_sls_store(struct db *db, const struct sm_fabric *f, const struct rt_path_sls *t,
		      struct sm_path_sl_rows *stored);
void sm_path_sl_rows_free(struct sm_path_sl_rows *r);

#endif

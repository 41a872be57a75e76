/* SPDX-License-Identifier: MIT */
/*
 * sm_osm_guid2lid.h - OpenSM's guid2lid file (its LID cache), read whole and
 * seeded into the store's LID map once, so that the first sweep on a cold
 * fabric gives every port the LID OpenSM gave it (sm_osm_guid2lid.c).
 */
#ifndef IBSMD_SM_OSM_GUID2LID_H
#define IBSMD_SM_OSM_GUID2LID_H

#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

#define SM_OSM_GUID2LID_MAX_BYTES (8 << 20)	/* a larger file is refused */

struct sm_osm_lid {
	uint64_t guid;		/* port GUID */
	uint16_t lid;		/* base LID */
	uint8_t lmc;		/* its range: 2^lmc LIDs */
};

/*
 * Read the guid2lid file @path: 0 with the entries in *@out (malloc'd, the
 * caller frees it; in the file's order) and their count in *@n, or -errno
 * with "PATH[:LINE]: reason" in @err.
 */
int sm_osm_guid2lid_read(const char *path, struct sm_osm_lid **out, size_t *n, char *err,
			 size_t errlen);

/*
 * Seed @db's LID map from @path when it holds no entry, in one transaction:
 * 1 with the count in *@n, 0 when the map has entries already (the file is
 * not read), or -errno with the reason in @err (the map left as it was).
 */
int sm_osm_guid2lid_seed(struct db *db, const char *path, size_t *n, char *err, size_t errlen);

#endif

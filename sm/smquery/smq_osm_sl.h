/* SPDX-License-Identifier: MIT */
/*
 * smq_osm_sl.h - `smquery dump-opensm`'s files for routes on several SLs:
 * the path SLs (ibdmchk's -c file) and the SL-to-VL tables (its -d file),
 * from the path SLs the daemon stored (smq_osm_sl.c).
 */
#ifndef IBSMD_SMQ_OSM_SL_H
#define IBSMD_SMQ_OSM_SL_H

#include <stdio.h>

#include "mad/model/topo_view.h"
#include "sm/smquery/smq.h"
#include "sm/smquery/smq_path_sl.h"

struct smq_osm_sl {
	struct topo_view m;	/* the stored topology as routing saw it */
	struct smq_path_sls sls;	/* the stored path SLs */
	unsigned nsl;		/* SLs the CA -> CA routes use: the highest + 1 */
};

/* Load the stored path SLs for @q's topology (its LIDs up to @top): 1 when
 * the routes use SLs above 0 (@s ready), 0 when they all ride SL 0 (nothing
 * to write), -errno on a store error.  smq_osm_sl_free() either way. */
int smq_osm_sl_load(struct smq *q, uint16_t top, struct smq_osm_sl *s);
void smq_osm_sl_free(struct smq_osm_sl *s);

/* "0xNODEGUID DLID SL" for every CA port's base LID and every CA LID; the
 * lines written. */
long smq_osm_sl_paths(FILE *f, const struct smq_osm_sl *s);

/* OpenSM's opensm-sl2vl.dump for the nodes in @order (@n of them); the
 * tables written. */
long smq_osm_sl2vl(FILE *f, const struct smq_osm_sl *s, const uint32_t *order, uint32_t n);

#endif

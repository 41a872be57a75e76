/* SPDX-License-Identifier: MIT */
/*
 * rt_path_sl.h - the path SLs of a routing result, asked of the engine while
 * its state lives and kept with the LFTs: the SA answers PathRecords with them
 * (IBA 15.2.5.16 SL), and rt_chain.c takes the highest for the SL2VL tables.
 *
 * With path_sl_by_switch a row per switch that has CAs (the SL of every
 * destination LID from that switch's CAs, and from the switch itself); else
 * a row per CA LID.  Rows cover LIDs 0..max_lid, one byte each.
 */
#ifndef IBSMD_RT_PATH_SL_H
#define IBSMD_RT_PATH_SL_H

#include <stdbool.h>
#include <stdint.h>

#include "ibsmd/routing.h"

/* A table bigger than this is not kept (the SA then refuses PathRecords on
 * routes with SLs, rather than guess). */
#define RT_PATH_SLS_MAX_BYTES (256u << 20)

struct rt_path_sls {
	bool by_switch;		/* rows keyed by switch node, else by CA LID */
	uint16_t max_lid;
	uint32_t nkeys;		/* nodes (by_switch) or max_lid + 1 */
	uint32_t *row_of;	/* [0..nkeys-1]: row index, or UINT32_MAX: none */
	uint8_t *sl;		/* rows x (max_lid + 1) */
};

/* The highest SL @e's path_sl (with @state) gives a CA -> CA route of @ctx's
 * view, asking one CA per switch with path_sl_by_switch; 0 without the hook. */
uint8_t rt_path_sls_max(const struct ibsmd_rt_ctx *ctx, const struct ibsmd_routing_engine *e,
			void *state);

/* Ask @e the SL of every route from a CA (or its switch, by_switch) to every
 * CA LID into @out (rt_path_sls_free()).  0, -ENOMEM, or -EFBIG over
 * RT_PATH_SLS_MAX_BYTES; on error @out is empty. */
int rt_path_sls_keep(const struct ibsmd_rt_ctx *ctx, const struct ibsmd_routing_engine *e,
		     void *state, struct rt_path_sls *out);
void rt_path_sls_free(struct rt_path_sls *t);

/* The SL from source LID @slid, whose node is @node (a CA's switch for a CA
 * port, or the switch itself), to @dlid; 0 for what the table does not hold. */
uint8_t rt_path_sls_get(const struct rt_path_sls *t, uint32_t node, uint16_t slid,
			uint16_t dlid);

#endif

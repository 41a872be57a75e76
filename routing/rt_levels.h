/* SPDX-License-Identifier: MIT */
/*
 * rt_levels.h - the levels of a fat tree: which switches are leaves, the rank
 * of every switch above them, and the order of the leaves.  ftree routes by
 * them; the job router (rt_job.h) tells up from down by them.
 */
#ifndef IBSMD_RT_LEVELS_H
#define IBSMD_RT_LEVELS_H

#include <stdint.h>

#include "ibsmd/routing.h"

#define RT_NORANK UINT16_MAX

/* The switches of a view, numbered 0..nsw-1, and their levels. */
struct rt_levels {
	uint32_t nsw;
	const uint32_t *sw_node;	/* the view's switch_node: switch -> node */
	const uint32_t *node_sw;	/* the view's node_switch (IBSMD_NO_NODE: CAs, routers) */
	uint16_t *rank;		/* 0 = leaf, RT_NORANK = not connected to a leaf */
	uint16_t *ncas;		/* CA and router ports cabled to the switch */
	uint16_t *ncn;		/* of which compute nodes: what makes a leaf */
	uint16_t height;	/* the highest rank */
	uint32_t *leaves;	/* leaves in tree order: by pod, then GUID */
	uint32_t nleaves;
};

/*
 * Find the levels of @ctx's fabric into @lv, with @ctx's options root=GUID,
 * root_guid_file=, cn_guid_file=, io_guid_file= (OpenSM's files) where
 * auto-detection would pick wrongly; @who names the caller in the log
 * ("routing: WHO: not a fat tree...").  0, or -EINVAL with the reason logged
 * when the fabric is no fat tree (switches of one level linked, no CA at all,
 * too many CAs on switches cabled like spines, compute nodes on different
 * levels below the roots) or an option is bad, -ENOMEM; on error @lv is left
 * freed.
 */
int rt_levels_find(const struct ibsmd_rt_ctx *ctx, const char *who, struct rt_levels *lv);
void rt_levels_free(struct rt_levels *lv);

#endif

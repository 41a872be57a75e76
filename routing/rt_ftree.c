// SPDX-License-Identifier: MIT
/*
 * rt_ftree.c - placeholder for the ftree routing engine (being written).
 */
#include <errno.h>

#include "routing/rt.h"

static int ftree_compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	(void)state;
	ctx->log(3, "routing: the ftree engine is not written yet");
	return -ENOSYS;
}

const struct ibsmd_routing_engine rt_ftree_engine = {
	.name = "ftree",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.compute_unicast = ftree_compute,
};

// SPDX-License-Identifier: MIT
/*
 * rt_updn.c - placeholder for the updn routing engine (being written).
 */
#include <errno.h>

#include "routing/rt.h"

static int updn_compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	(void)state;
	ctx->log(3, "routing: the updn engine is not written yet");
	return -ENOSYS;
}

const struct ibsmd_routing_engine rt_updn_engine = {
	.name = "updn",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.compute_unicast = updn_compute,
};

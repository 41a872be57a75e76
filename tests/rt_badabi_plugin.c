// SPDX-License-Identifier: MIT
/*
 * rt_badabi_plugin.c - a plugin built for another routing ABI, which ibsmd
 * must refuse with a clear message (tests/check_rt.c).
 */
#include <ibsmd/routing.h>

static int never(const struct ibsmd_rt_ctx *ctx, void *state)
{
	(void)ctx;
	(void)state;
	return 0;
}

const struct ibsmd_routing_engine ibsmd_routing_engine = {
	.name = "badabi",
	.abi_version = IBSMD_ROUTING_ABI_VERSION + 1,
	.compute_unicast = never,
};

// SPDX-License-Identifier: MIT
/*
 * rt_badabi_plugin.c - a plugin built for routing ABI 2, from before the
 * engine and its context carried AR groups and ports their GUIDs: ibsmd must
 * refuse it with a clear message rather than read an engine structure laid
 * out differently (tests/check_rt.c).
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
	.abi_version = 2,
	.compute_unicast = never,
};

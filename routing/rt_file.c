// SPDX-License-Identifier: MIT
/*
 * rt_file.c - placeholder for the file routing engine (being written).
 */
#include <errno.h>

#include "routing/rt.h"

static int file_compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	(void)state;
	ctx->log(3, "routing: the file engine is not written yet");
	return -ENOSYS;
}

const struct ibsmd_routing_engine rt_file_engine = {
	.name = "file",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.compute_unicast = file_compute,
};

// SPDX-License-Identifier: MIT
/*
 * rt_misbehave_plugin.c - plugins that misbehave the ways a third-party engine
 * can, built once per way (tests/tests.mk, -DMISBEHAVE=...): a segfault, an
 * endless loop, exit(0) before returning, and writes past its LFT rows.  ibsmd
 * runs plugins in a child process (routing/rt_sandbox.c): each must leave the
 * daemon running, be named in the log, and let the next engine route
 * (tests/check_rt.c).
 */
#include <signal.h>
#include <stdlib.h>
#include <syslog.h>

#include <ibsmd/routing.h>

#define CRASH 1
#define HANG 2
#define EXIT 3
#define OVERRUN 4

static int misbehave(const struct ibsmd_rt_ctx *ctx, void *state)
{
	static const char *const what[] = { "", "crash", "hang", "exit", "overrun" };

	(void)state;
	/* reaches the daemon's log through the sandbox's pipe */
	ctx->log(LOG_NOTICE, "misbehave: about to %s", what[MISBEHAVE]);
	switch (MISBEHAVE) {
	case CRASH:
		raise(SIGSEGV);
		break;
	case HANG:
		for (;;)
			;
	case EXIT:
		exit(0);
	case OVERRUN:
		/* 64 KiB past the end of every row, as a bad index would */
		for (uint32_t n = 0; n < ctx->view->nnodes; n++)
			for (size_t i = 0; ctx->lft[n] && i < 65536; i++)
				((volatile uint8_t *)ctx->lft[n])[ctx->view->max_lid + 1 + i] = 1;
		break;
	}
	return 0;
}

const struct ibsmd_routing_engine ibsmd_routing_engine = {
	.name = "misbehave",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.compute_unicast = misbehave,
};

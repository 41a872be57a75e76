// SPDX-License-Identifier: MIT
/*
 * fuzz_rtfile.c - fuzz target: bytes as the file engine's ibroute dumps.
 *
 * The fabric is the 2-level radix-4 fat tree of tests/rt/ft2r4.net with its
 * LIDs (tests/rt/ft2r4.lids), loaded once.  Whatever the dump holds, the
 * engine must not crash, and every entry it writes must name a port the switch
 * has (or no port), whether it then accepts the file or refuses it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "tests/rt_testview.h"

const char fuzz_corpus[] = "corpus-rtfile";

static struct rtv view;
static char path[64], option[80];

static void load_once(void)
{
	static const char *options[2] = { option, NULL };

	if (path[0])
		return;
	snprintf(path, sizeof(path), "/tmp/fuzz_rtfile.%d", (int)getpid());
	snprintf(option, sizeof(option), "file=%s", path);
	char net[1024];	/* rtv_srcpath() answers in one static buffer */
	snprintf(net, sizeof(net), "%s", rtv_srcpath("tests/rt/ft2r4.net"));
	if (rtv_load(&view, net, rtv_srcpath("tests/rt/ft2r4.lids"), options))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	load_once();
	FILE *f = fopen(path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	rtv_clear(&view);
	rt_file_engine.compute_unicast(&view.ctx, NULL);
	for (uint32_t n = 0; n < view.v.nnodes; n++)
		for (uint32_t l = 0; view.lft[n] && l <= view.v.max_lid; l++)
			if (view.lft[n][l] != IBSMD_NO_PORT && view.lft[n][l] > view.v.nodes[n].nports)
				abort();
	unlink(path);
	return 0;
}

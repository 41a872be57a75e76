// SPDX-License-Identifier: MIT
/*
 * quality_from_ibroute.c - the routing quality figures (routing/rt_quality.c)
 * of LFTs read back from a fabric with ibroute, whichever SM programmed them:
 * contrib/bench/quality.sh compares OpenSM's and ibsmd's this way.
 *
 *	quality_from_ibroute [--pairings N] [--seed S] TOPOFILE LIDFILE DUMP
 *
 * TOPOFILE is the fabric (ibsim net or ibnetdiscover format: the node order
 * is the hosts' leaf order), LIDFILE has one "LID PORTGUID" line per LID the
 * SM gave (quality.sh takes them from the dumps' destination column), DUMP
 * the concatenated `ibroute LID` output of every switch.  The view is built
 * as the routing tests build theirs (tests/rt_testview.c), the file engine
 * (routing/rt_file.c) reads DUMP into its LFTs, and one line of shell
 * assignments comes out:
 *
 *	hosts=128 pairs=16256 unreachable=0 loops=0 credit_loop=0 shifts=127
 *	shifts_free=127 shift_worst=1 ebb=0.5937 links=640 load_min=112 ...
 *
 * (one line).  Exit 0, or 1 with a message when a file cannot be read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_quality.h"
#include "tests/rt_testview.h"

static int usage(void)
{
	fprintf(stderr, "usage: quality_from_ibroute [--pairings N] [--seed S] "
		"TOPOFILE LIDFILE DUMP\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct rt_quality_opts o = { .pairings = RT_QUALITY_PAIRINGS, .seed = RT_QUALITY_SEED };
	struct rt_quality q;
	struct rtv r;
	int i = 1;

	for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (!strcmp(argv[i], "--pairings"))
			o.pairings = (unsigned)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--seed"))
			o.seed = strtoull(argv[i + 1], NULL, 0);
		else
			return usage();
	}
	if (argc - i != 3)
		return usage();
	char option[4096];
	snprintf(option, sizeof(option), "file=%s", argv[i + 2]);
	const char *const options[] = { option, NULL };
	if (rtv_load(&r, argv[i], argv[i + 1], options))
		return 1;
	int rc = rt_file_engine.compute_unicast(&r.ctx, NULL);
	if (rc) {
		fprintf(stderr, "quality_from_ibroute: %s\n", rtv_last_log);
		rtv_free(&r);
		return 1;
	}
	rc = rt_quality(&r.ctx, &o, &q);
	unsigned longest = 0;
	for (unsigned h = 0; h <= RT_QUALITY_MAX_HOPS; h++)
		longest = q.hops[h] ? h : longest;
	rtv_free(&r);
	if (rc) {
		fprintf(stderr, "quality_from_ibroute: %s\n", strerror(-rc));
		return 1;
	}
	printf("hosts=%u pairs=%" PRIu64 " unreachable=%" PRIu64 " loops=%" PRIu64
	       " credit_loop=%d shifts=%u shifts_free=%u shift_worst=%u ebb=%.4f links=%u"
	       " load_min=%" PRIu64 " load_max=%" PRIu64 " load_mean=%.2f load_stddev=%.2f"
	       " longest=%u\n", q.hosts, q.pairs, q.unreachable, q.loops, q.cdg_rc == -ELOOP,
	       q.shifts, q.shifts_free, q.shift_worst, q.ebb, q.load.links, q.load.min,
	       q.load.max, q.load.mean, q.load.stddev, longest);
	return 0;
}

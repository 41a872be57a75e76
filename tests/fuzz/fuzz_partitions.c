// SPDX-License-Identifier: MIT
/*
 * fuzz_partitions.c - fuzz target: bytes as a partitions file.
 *
 * Whatever the bytes, sm_partitions_parse() must not crash, must leave the
 * caller's partitions untouched when it fails (with a message naming the
 * input), and what it accepts must hold the invariants the rest of the SM
 * relies on: the default partition 0x7fff first, every P_Key 15 bits and not
 * 0, no P_Key twice, members within bounds, MTU, rate and SL codes IBA
 * defines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sa/sm_pkey.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-partitions";

static void check(const struct sm_partitions *ps)
{
	if (ps->n < 1 || ps->n > SM_PKEY_MAX_PARTITIONS + 1 || ps->p[0].pkey != SM_PKEY_DEFAULT)
		abort();
	for (size_t i = 0; i < ps->n; i++) {
		const struct sm_partition *p = &ps->p[i];
		if (!p->pkey || p->pkey > 0x7fff || p->sl > 15 || p->nmembers > SM_PKEY_MAX_MEMBERS ||
		    (p->mtu && !sm_pkey_mtu_word(p->mtu)) || (p->rate && !sm_pkey_rate_word(p->rate)) ||
		    !memchr(p->name, '\0', sizeof(p->name)))
			abort();
		for (size_t j = 0; j < i; j++)
			if (ps->p[j].pkey == p->pkey)
				abort();
		for (size_t j = 0; j < p->nmembers; j++)
			if (p->members[j].kind == SM_PKEY_MEMBER_NAME && !p->members[j].name)
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sm_partitions ps = { 0 };
	char err[512] = "";

	if (size == 0)
		return 0;
	FILE *in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	int rc = sm_partitions_parse(in, "fuzz", &ps, err, sizeof(err));
	fclose(in);
	if (rc) {
		if (strncmp(err, "fuzz:", 5) != 0 || ps.p || ps.n)
			abort();
		return 0;
	}
	check(&ps);
	sm_partitions_free(&ps);
	return 0;
}

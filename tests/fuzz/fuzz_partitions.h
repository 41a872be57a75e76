/* SPDX-License-Identifier: MIT */
/*
 * fuzz_partitions.h - the partitions fuzz targets (fuzz_partitions.c: either
 * format, fuzz_partitions_osm.c: OpenSM's) run one reader over the bytes and
 * judge the result here.
 *
 * Whatever the bytes, the reader must not crash, must leave the caller's
 * partitions untouched when it fails (with a message naming the input), and
 * what it accepts must hold the invariants the rest of the SM relies on: the
 * default partition 0x7fff first, every P_Key 15 bits and not 0, no P_Key
 * twice, members and groups within bounds, MTU, rate, SL and scope values
 * IBA defines, and in OpenSM's reading no member entry twice in a partition
 * (the store keeps one row per entry).
 */
#ifndef IBSMD_TESTS_FUZZ_PARTITIONS_H
#define IBSMD_TESTS_FUZZ_PARTITIONS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sa/sm_pkey.h"

static inline void fuzz_partitions_member_check(const struct sm_partition *p, size_t j,
						bool last_wins)
{
	const struct sm_pkey_member *m = &p->members[j];

	if (m->kind > SM_PKEY_MEMBER_SELF || (m->kind == SM_PKEY_MEMBER_NAME && !m->name) ||
	    (m->kind == SM_PKEY_MEMBER_GUID && !m->guid))
		abort();
	for (size_t k = 0; last_wins && k < j; k++)
		if (p->members[k].kind == m->kind && p->members[k].guid == m->guid)
			abort();
}

static inline void fuzz_partitions_check(const struct sm_partitions *ps)
{
	size_t groups = 0;

	if (ps->n < 1 || ps->n > SM_PKEY_MAX_PARTITIONS + 1 || ps->p[0].pkey != SM_PKEY_DEFAULT)
		abort();
	for (size_t i = 0; i < ps->n; i++) {
		const struct sm_partition *p = &ps->p[i];
		if (!p->pkey || p->pkey > 0x7fff || p->sl > 15 || p->nmembers > SM_PKEY_MAX_MEMBERS ||
		    (p->mtu && !sm_pkey_mtu_word(p->mtu)) || (p->rate && !sm_pkey_rate_word(p->rate)) ||
		    (p->scopes & 1) || p->flow_label > 0xfffff ||
		    !memchr(p->name, '\0', sizeof(p->name)) || !p->name[0])
			abort();
		for (size_t j = 0; j < i; j++)
			if (ps->p[j].pkey == p->pkey)
				abort();
		for (size_t j = 0; j < p->nmembers; j++)
			fuzz_partitions_member_check(p, j, ps->last_wins);
		for (size_t j = 0; j < p->ngroups; j++) {
			const struct sm_pkey_group *g = &p->groups[j];
			if (g->mgid[0] != 0xff || !g->scopes || (g->scopes & 1) || g->sl > 15 ||
			    !sm_pkey_mtu_word(g->mtu) || !sm_pkey_rate_word(g->rate) ||
			    g->flow_label > 0xfffff)
				abort();
		}
		groups += p->ngroups;
	}
	if (groups > SM_PKEY_MAX_GROUPS)
		abort();
}

/* Run @parse over @data and judge what it gives. */
static inline int fuzz_partitions_run(int (*parse)(FILE *, const char *, struct sm_partitions *,
						   char *, size_t),
				      const uint8_t *data, size_t size)
{
	struct sm_partitions ps = { 0 };
	char err[512] = "";

	if (size == 0)
		return 0;
	FILE *in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	int rc = parse(in, "fuzz", &ps, err, sizeof(err));
	fclose(in);
	if (rc) {
		if (strncmp(err, "fuzz:", 5) != 0 || ps.p || ps.n)
			abort();
		return 0;
	}
	fuzz_partitions_check(&ps);
	sm_partitions_free(&ps);
	return 0;
}

#endif

// SPDX-License-Identifier: MIT
/*
 * fuzz_qos.c - fuzz target: bytes as a QoS policy file.
 *
 * Whatever the bytes, sm_qos_policy_parse() must not crash, must leave the
 * caller's policy untouched when it fails (with a message naming the input),
 * and what it accepts must hold what the SA and the sweep rely on: a default
 * level, every rule's level and groups within the arrays, SLs, MTU and rate
 * codes IBA defines, ranges in order, VL tables of VLs 0..15 with max_vls
 * 1..15; and matching a request against it must not crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_qos.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-qos";

static void check_ranges(const struct sm_qos_ranges *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		if (rs->r[i].lo > rs->r[i].hi)
			abort();
}

static void check(const struct sm_qos_policy *q)
{
	if (!q->on || q->default_level >= q->nlevels)
		abort();
	for (size_t i = 0; i < q->nlevels; i++) {
		const struct sm_qos_level *l = &q->levels[i];
		if ((l->sl > 15 && l->sl != SM_QOS_NO_SL) || (l->mtu && !sm_pkey_mtu_word(l->mtu)) ||
		    (l->rate && !sm_pkey_rate_word(l->rate)) ||
		    (l->pkt_life > 63 && l->pkt_life != 0xff))
			abort();
	}
	for (size_t i = 0; i < q->nrules; i++) {
		const struct sm_qos_rule *r = &q->rules[i];
		if (r->level >= q->nlevels)
			abort();
		for (size_t j = 0; j < r->nsrc; j++)
			if (r->src[j] >= q->ngroups)
				abort();
		for (size_t j = 0; j < r->ndst; j++)
			if (r->dst[j] >= q->ngroups)
				abort();
		check_ranges(&r->qos_class);
		check_ranges(&r->service_ids);
		check_ranges(&r->pkeys);
	}
	for (size_t i = 0; i < q->ngroups; i++) {
		check_ranges(&q->groups[i].guids);
		check_ranges(&q->groups[i].pkeys);
	}
	for (unsigned t = 0; t < SM_QOS_PORT_TYPES; t++) {
		const struct sm_qos_vl_config *c = &q->vl[t];
		if (!c->max_vls || c->max_vls > 15)
			abort();
		for (unsigned sl = 0; sl < MAD_NUM_SL; sl++)
			if (c->sl2vl.vl[sl] > 15)
				abort();
	}
}

static bool none(const void *ctx, const struct sm_qos_port *pt, uint16_t lo, uint16_t hi,
		 const char *name)
{
	(void)ctx, (void)pt, (void)name;
	return lo <= 0x7fff && 0x7fff <= hi;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sm_qos_policy q = { .nrules = 77 };
	char err[512] = "";

	if (size == 0)
		return 0;
	FILE *in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	int rc = sm_qos_policy_parse(in, "fuzz", &q, err, sizeof(err));
	fclose(in);
	if (rc) {
		if (strncmp(err, "fuzz:", 5) != 0 || q.nrules != 77 || q.rules)
			abort();
		return 0;
	}
	check(&q);
	struct sm_qos_port a = { .guid = 0x10, .desc = "H1", .port = 1,
				 .node_type = SM_QOS_NT_CA, .in_partition = none };
	struct sm_qos_request r = { .src = &a, .dst = &a, .has_sid = true, .service_id = 0x10000,
				    .has_pkey = true, .pkey = 0xffff, .has_class = true };
	if (!sm_qos_match(&q, &r))
		abort();
	sm_qos_match_pkey(&q, 0x7fff);
	sm_qos_policy_free(&q);
	return 0;
}

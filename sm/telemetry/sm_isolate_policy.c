// SPDX-License-Identifier: MIT
/*
 * sm_isolate_policy.c - windowed error and flap counts per port, and the
 * thresholds' judgement (see sm_isolate_policy.h).
 *
 * Data: a sorted array of followed ports (binary search; an insertion moves
 * the tail, and happens only when a port first reports something).  Each
 * bucket carries its epoch (time / bucket width), so a bucket from an earlier
 * turn of the ring is recognised as old and cleared on reuse; a changed
 * window length makes every epoch differ, so old counts simply age out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/telemetry/sm_isolate_policy.h"
#include "sm/util/sm_sorted.h"

struct sm_iso_track {
	uint64_t guid;
	uint8_t port;
	uint64_t epoch[SM_ISO_BUCKETS];
	struct sm_iso_counts b[SM_ISO_BUCKETS];
};

static uint64_t bucket_ms(uint32_t window_s)
{
	uint64_t w = (uint64_t)(window_s ? window_s : 1) * 1000 / SM_ISO_BUCKETS;

	return w ? w : 1;
}

struct iso_key {
	uint64_t guid;
	uint8_t port;
};

static int key_cmp(const void *key, const void *elem)
{
	const struct iso_key *k = key;
	const struct sm_iso_track *e = elem;

	if (e->guid != k->guid)
		return k->guid < e->guid ? -1 : 1;
	return k->port < e->port ? -1 : k->port > e->port;
}

/* The index of (@guid, @port), or where it would go with *@found false. */
static size_t find(const struct sm_iso_tracker *t, uint64_t guid, uint8_t port, bool *found)
{
	const struct iso_key k = { guid, port };

	return sm_sorted_find(t->ports, t->n, sizeof(*t->ports), &k, key_cmp, found);
}

static bool counts_zero(const struct sm_iso_counts *c)
{
	return !c->symbol_errors && !c->link_error_recovery && !c->link_downed && !c->flaps;
}

bool sm_iso_clean(const struct sm_iso_counts *c)
{
	return counts_zero(c);
}

static void counts_add(struct sm_iso_counts *a, const struct sm_iso_counts *d)
{
	a->symbol_errors += d->symbol_errors;
	a->link_error_recovery += d->link_error_recovery;
	a->link_downed += d->link_downed;
	a->flaps += d->flaps;
}

int sm_iso_track_add(struct sm_iso_tracker *t, uint64_t guid, uint8_t port,
		     const struct sm_iso_counts *d, uint64_t now_ms, uint32_t window_s)
{
	bool found;
	size_t i = find(t, guid, port, &found);

	if (counts_zero(d))
		return 0;
	if (!found) {
		if (t->n >= SM_ISO_MAX_PORTS)
			return -ENOSPC;
		if (t->n == t->cap) {
			size_t cap = t->cap ? 2 * t->cap : 64;
			struct sm_iso_track *p = realloc(t->ports, cap * sizeof(*p));
			if (!p)
				return -ENOMEM;
			t->ports = p;
			t->cap = cap;
		}
		memmove(&t->ports[i + 1], &t->ports[i], (t->n - i) * sizeof(*t->ports));
		memset(&t->ports[i], 0, sizeof(t->ports[i]));
		t->ports[i].guid = guid;
		t->ports[i].port = port;
		for (unsigned k = 0; k < SM_ISO_BUCKETS; k++)
			t->ports[i].epoch[k] = UINT64_MAX;
		t->n++;
	}
	struct sm_iso_track *e = &t->ports[i];
	uint64_t epoch = now_ms / bucket_ms(window_s);
	unsigned k = (unsigned)(epoch % SM_ISO_BUCKETS);
	if (e->epoch[k] != epoch) {
		e->epoch[k] = epoch;
		memset(&e->b[k], 0, sizeof(e->b[k]));
	}
	counts_add(&e->b[k], d);
	return 0;
}

/* Sum @e's buckets of the window ending at @now_ms; false when none is in it. */
static bool track_sum(const struct sm_iso_track *e, uint64_t now_ms, uint32_t window_s,
		      struct sm_iso_counts *out)
{
	uint64_t epoch = now_ms / bucket_ms(window_s);
	bool any = false;

	memset(out, 0, sizeof(*out));
	for (unsigned k = 0; k < SM_ISO_BUCKETS; k++)
		if (e->epoch[k] <= epoch && epoch - e->epoch[k] < SM_ISO_BUCKETS) {
			counts_add(out, &e->b[k]);
			any = true;
		}
	return any;
}

void sm_iso_track_sum(const struct sm_iso_tracker *t, uint64_t guid, uint8_t port,
		      uint64_t now_ms, uint32_t window_s, struct sm_iso_counts *out)
{
	bool found;
	size_t i = find(t, guid, port, &found);

	memset(out, 0, sizeof(*out));
	if (found)
		track_sum(&t->ports[i], now_ms, window_s, out);
}

void sm_iso_track_prune(struct sm_iso_tracker *t, uint64_t now_ms, uint32_t window_s)
{
	struct sm_iso_counts c;
	size_t o = 0;

	for (size_t i = 0; i < t->n; i++)
		if (track_sum(&t->ports[i], now_ms, window_s, &c) && !counts_zero(&c))
			t->ports[o++] = t->ports[i];
	t->n = o;
}

void sm_iso_track_free(struct sm_iso_tracker *t)
{
	free(t->ports);
	memset(t, 0, sizeof(*t));
}

const char *sm_iso_judge(const struct sm_iso_policy *p, const struct sm_iso_counts *c,
			 char *why, size_t len)
{
	const struct {
		const char *name, *cause;
		uint64_t got;
		uint32_t max;
	} rule[] = {
		{ "SymbolErrorCounter", "errors", c->symbol_errors, p->symbol_errors },
		{ "LinkErrorRecoveryCounter", "errors", c->link_error_recovery,
		  p->link_error_recovery },
		{ "LinkDownedCounter", "errors", c->link_downed, p->link_downed },
		{ "link down (seen by the SM)", "flaps", c->flaps, p->flaps },
	};

	for (size_t i = 0; i < sizeof(rule) / sizeof(rule[0]); i++)
		if (rule[i].max && rule[i].got >= rule[i].max) {
			snprintf(why, len, "%s +%llu in %u s (threshold %u)", rule[i].name,
				 (unsigned long long)rule[i].got, p->window_s, rule[i].max);
			return rule[i].cause;
		}
	return NULL;
}

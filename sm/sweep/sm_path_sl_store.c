// SPDX-License-Identifier: MIT
/*
 * sm_path_sl_store.c - the routing engine's path SLs (routing/rt_path_sl.h,
 * kept with the LFTs for the SA) written to the store's path_sls table
 * (db_path_sl.c) so that `smquery route-check` finds the SLs the routes use.
 *
 * A source is a switch (by node GUID) with engines that give every CA behind
 * it the same SL, else a CA LID.  Each source's row of SLs is hashed; only
 * rows whose hash changed since the last store are written, rows gone (or all
 * SL 0) are dropped, so a sweep that keeps the routes writes nothing.  The
 * first store of a process clears the table (rows of an earlier run).
 * Measured (27,648 hosts, --once on the sim): dfsssp on a 12x12x12 torus, 16
 * hosts a switch: 1,728 rows, 2.9 MB (one byte per SL: 50.8 MB); ftree on
 * the radix-48 fat tree with one leaf's uplinks cut: 1,129 rows, 5.6 KB; an
 * intact tree routes on SL 0 only: no rows, and no table to hash.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sweep/sm_path_sl_store.h"

static int row_cmp(const void *a, const void *b)
{
	const struct sm_path_sl_row *x = a, *y = b;

	return x->source < y->source ? -1 : x->source > y->source;
}

/* FNV-1a of @n SLs, 0 when they are all 0 (no row); @salt keeps the two
 * kinds of source apart. */
static uint64_t row_hash(const uint8_t *sl, size_t n, uint64_t salt)
{
	uint64_t h = 0xcbf29ce484222325ull ^ salt;
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		h = (h ^ sl[i]) * 0x100000001b3ull;
		any |= sl[i] != 0;
	}
	return any ? (h ? h : 1) : 0;
}

/* The rows of @t, sorted by source, in @out (free()); their count or -ENOMEM. */
static ssize_t rows_of(const struct sm_fabric *f, const struct rt_path_sls *t,
		       struct sm_path_sl_row **out, uint32_t **key_of)
{
	size_t n = 0, width = (size_t)t->max_lid + 1;

	*out = NULL;
	*key_of = NULL;
	if (!t->sl)
		return 0;
	*out = malloc((t->nkeys ? t->nkeys : 1) * sizeof(**out));
	*key_of = malloc((t->nkeys ? t->nkeys : 1) * sizeof(**key_of));
	if (!*out || !*key_of)
		return -ENOMEM;
	for (uint32_t k = 0; k < t->nkeys; k++) {
		if (t->row_of[k] == UINT32_MAX || (t->by_switch && k >= f->topo.n))
			continue;
		uint64_t h = row_hash(t->sl + (size_t)t->row_of[k] * width, width, t->by_switch);
		if (!h)
			continue;
		(*out)[n] = (struct sm_path_sl_row){
			.source = t->by_switch ? f->topo.nodes[k].guid : k, .hash = h,
		};
		(*key_of)[n++] = k;
	}
	return (ssize_t)n;
}

static const struct sm_path_sl_row *find(const struct sm_path_sl_rows *r, uint64_t source)
{
	struct sm_path_sl_row key = { .source = source };

	return r->n ? bsearch(&key, r->v, r->n, sizeof(*r->v), row_cmp) : NULL;
}

int sm_path_sls_store(struct db *db, const struct sm_fabric *f, const struct rt_path_sls *t,
		      struct sm_path_sl_rows *stored)
{
	struct sm_path_sl_row *rows;
	uint32_t *key_of;
	size_t width = (size_t)t->max_lid + 1;
	int rc = 0;

	ssize_t n = rows_of(f, t, &rows, &key_of);
	if (n < 0) {
		free(rows);
		free(key_of);
		return (int)n;
	}
	if (!stored->primed)
		rc = db_path_sls_clear(db);
	/* sort by source, the keys along (ports' GUIDs and LIDs come unsorted) */
	for (ssize_t i = 1; i < n; i++)
		for (ssize_t j = i; j > 0 && rows[j - 1].source > rows[j].source; j--) {
			struct sm_path_sl_row r = rows[j];
			uint32_t k = key_of[j];
			rows[j] = rows[j - 1];
			key_of[j] = key_of[j - 1];
			rows[j - 1] = r;
			key_of[j - 1] = k;
		}
	for (ssize_t i = 0; rc >= 0 && i < n; i++) {
		const struct sm_path_sl_row *was = stored->primed ? find(stored, rows[i].source) : NULL;
		if (!was || was->hash != rows[i].hash)
			rc = db_path_sls_save(db, rows[i].source, t->by_switch,
					      t->sl + (size_t)t->row_of[key_of[i]] * width, width);
	}
	struct sm_path_sl_rows now = { .primed = true, .n = (size_t)n, .v = rows };
	for (size_t i = 0; rc >= 0 && stored->primed && i < stored->n; i++)
		if (!find(&now, stored->v[i].source))	/* gone, or all SL 0 now */
			rc = db_path_sls_save(db, stored->v[i].source, false, NULL, 0);
	free(key_of);
	if (rc < 0) {
		free(rows);
		return rc;
	}
	free(stored->v);
	*stored = now;
	return 0;
}

void sm_path_sl_rows_free(struct sm_path_sl_rows *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

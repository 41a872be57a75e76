// SPDX-License-Identifier: MIT
/*
 * sm_sa_alias.c - the table of alias GUIDs (sm_sa_alias.h).
 *
 * One array sorted by alias, searched by bisection (sm_sorted.h): a PathRecord to an alias
 * GID costs a search.  A port's own entries are found by a scan (a Set or a
 * Delete touches at most eight; thousands of VFs make thousands of rows).
 * Every change marks its (port, block) due, so the programming step sends
 * only the blocks that changed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sa/sm_sa_alias.h"
#include "mad/mad_attr.h"
#include "sm/util/sm_sorted.h"

static int alias_cmp(const void *key, const void *elem)
{
	uint64_t k = *(const uint64_t *)key, e = ((const struct sm_sa_alias *)elem)->alias;

	return k < e ? -1 : k > e;
}

/* The entry with @alias, or where it would go (sm_sorted.h). */
static size_t lower(const struct sm_sa_aliases *t, uint64_t alias)
{
	bool found;

	return sm_sorted_find(t->a, t->n, sizeof(*t->a), &alias, alias_cmp, &found);
}

bool sm_sa_alias_find(const struct sm_sa_aliases *t, uint64_t alias, uint64_t *port_guid)
{
	size_t i = lower(t, alias);

	if (!alias || i == t->n || t->a[i].alias != alias)
		return false;
	*port_guid = t->a[i].port_guid;
	return true;
}

/* The row at @port_guid's entry @index, or t->n. */
static size_t row_at(const struct sm_sa_aliases *t, uint64_t port_guid, unsigned index)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->a[i].port_guid == port_guid && t->a[i].index == index)
			return i;
	return t->n;
}

uint64_t sm_sa_alias_at(const struct sm_sa_aliases *t, uint64_t port_guid, unsigned index)
{
	size_t i = row_at(t, port_guid, index);

	return i < t->n ? t->a[i].alias : 0;
}

bool sm_sa_alias_any(const struct sm_sa_aliases *t, uint64_t port_guid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->a[i].port_guid == port_guid)
			return true;
	return false;
}

void sm_sa_alias_block(const struct sm_sa_aliases *t, uint64_t port_guid, unsigned block,
		       uint64_t out[8])
{
	memset(out, 0, MAD_GUID_INFO_BLOCK * sizeof(*out));
	for (size_t i = 0; i < t->n; i++)
		if (t->a[i].port_guid == port_guid && t->a[i].index / MAD_GUID_INFO_BLOCK == block)
			out[t->a[i].index % MAD_GUID_INFO_BLOCK] = t->a[i].alias;
	if (block == 0)
		out[0] = port_guid;
}

static int mark_due(struct sm_sa_aliases *t, uint64_t port_guid, uint16_t block)
{
	for (size_t i = 0; i < t->ndue; i++)
		if (t->due[i].port_guid == port_guid && t->due[i].block == block)
			return 0;
	if (t->ndue == t->duecap) {
		size_t cap = t->duecap ? 2 * t->duecap : 16;
		struct sm_sa_alias_due *d = realloc(t->due, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		t->due = d;
		t->duecap = cap;
	}
	t->due[t->ndue++] = (struct sm_sa_alias_due){ port_guid, block };
	return 0;
}

int sm_sa_alias_mark_all(struct sm_sa_aliases *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (mark_due(t, t->a[i].port_guid, t->a[i].index / MAD_GUID_INFO_BLOCK))
			return -ENOMEM;
	return 0;
}

int sm_sa_alias_put(struct sm_sa_aliases *t, uint64_t port_guid, unsigned index,
		    uint64_t alias)
{
	if (!port_guid || !index || index > UINT16_MAX)
		return -EINVAL;
	size_t at = lower(t, alias);
	if (alias && at < t->n && t->a[at].alias == alias)	/* in use */
		return t->a[at].port_guid == port_guid && t->a[at].index == index ? 0 : -EEXIST;
	if (t->n == t->cap && alias) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct sm_sa_alias *a = realloc(t->a, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		t->a = a;
		t->cap = cap;
	}
	if (mark_due(t, port_guid, (uint16_t)(index / MAD_GUID_INFO_BLOCK)))
		return -ENOMEM;
	size_t old = row_at(t, port_guid, index);
	if (old < t->n) {
		memmove(t->a + old, t->a + old + 1, (t->n - old - 1) * sizeof(*t->a));
		t->n--;
	}
	if (!alias)
		return 0;
	at = lower(t, alias);
	memmove(t->a + at + 1, t->a + at, (t->n - at) * sizeof(*t->a));
	t->a[at] = (struct sm_sa_alias){ alias, port_guid, (uint16_t)index };
	t->n++;
	return 0;
}

void sm_sa_aliases_free(struct sm_sa_aliases *t)
{
	free(t->a);
	free(t->due);
	memset(t, 0, sizeof(*t));
}

/* SPDX-License-Identifier: MIT */
/*
 * sm_sorted.h - binary search in a sorted array that also gives the insertion
 * point, for the daemon's small sorted tables (sm_isolate_policy.c's ports,
 * sm_rebalance.c's moves).
 */
#ifndef IBSMD_SM_SORTED_H
#define IBSMD_SM_SORTED_H

#include <stdbool.h>
#include <stddef.h>

/* The index of the element of @base[0..n-1] (each @size bytes, sorted by
 * @cmp) that @cmp(@key, element) finds equal, with *@found true; else where
 * @key would go, with *@found false. */
static inline size_t sm_sorted_find(const void *base, size_t n, size_t size, const void *key,
				    int (*cmp)(const void *key, const void *elem), bool *found)
{
	size_t lo = 0, hi = n;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp(key, (const char *)base + mid * size);
		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_arena.h - per-sweep memory: many small allocations, one free.
 *
 * Chunks of at least 64 KiB are chained; sm_arena_alloc() bumps a pointer.
 * Everything a sweep allocates for itself (request contexts, scratch lists) comes
 * from its arena, which sm_arena_free() releases in one place at the sweep's end.
 */
#ifndef IBSMD_SM_ARENA_H
#define IBSMD_SM_ARENA_H

#include <stddef.h>

struct sm_arena_chunk;

struct sm_arena {
	struct sm_arena_chunk *head;
	size_t used_bytes;	/* handed out so far, for the sweep's report */
};

void sm_arena_init(struct sm_arena *a);
/* @size bytes aligned for any type, zeroed; NULL when out of memory. */
void *sm_arena_alloc(struct sm_arena *a, size_t size);
void sm_arena_free(struct sm_arena *a);

#endif

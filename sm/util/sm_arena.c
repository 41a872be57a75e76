// SPDX-License-Identifier: MIT
/*
 * sm_arena.c - bump allocator over chained chunks (see sm_arena.h).
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "sm/util/sm_arena.h"

#define CHUNK_MIN (64 * 1024)

struct sm_arena_chunk {
	struct sm_arena_chunk *next;
	size_t size, used;
	alignas(max_align_t) unsigned char mem[];
};

void sm_arena_init(struct sm_arena *a)
{
	a->head = NULL;
	a->used_bytes = 0;
}

void *sm_arena_alloc(struct sm_arena *a, size_t size)
{
	size_t align = alignof(max_align_t);

	size = (size + align - 1) & ~(align - 1);
	if (!a->head || a->head->size - a->head->used < size) {
		size_t csize = size > CHUNK_MIN ? size : CHUNK_MIN;
		struct sm_arena_chunk *c = malloc(sizeof(*c) + csize);
		if (!c)
			return NULL;
		c->next = a->head;
		c->size = csize;
		c->used = 0;
		a->head = c;
	}
	void *p = a->head->mem + a->head->used;
	a->head->used += size;
	a->used_bytes += size;
	memset(p, 0, size);
	return p;
}

void sm_arena_free(struct sm_arena *a)
{
	while (a->head) {
		struct sm_arena_chunk *next = a->head->next;
		free(a->head);
		a->head = next;
	}
	a->used_bytes = 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * sm_lft_send.h - LFT blocks sent between heavy sweeps: the fast repair of a
 * dead link (sm/repair/) and a job's routes (sm/jobs/) change a few entries
 * of the last sweep's tables and send only the blocks that hold them.
 *
 * Order, so that a crash or a failed Set never leaves the store trusting a
 * table a switch may not hold: the switches about to get blocks are marked
 * pending in the store first; the blocks go out by directed route, their
 * answers checked against what was sent; then the caller stores the tables
 * of those switches (sm_lft_send_store(), within its own transaction), and a
 * switch whose Set failed is forgotten: the next sweep reads it back.
 */
#ifndef IBSMD_SM_LFT_SEND_H
#define IBSMD_SM_LFT_SEND_H

#include <stdbool.h>
#include <stdint.h>

#include "sm/core/sm.h"

struct sm_lft_send {
	struct sm *sm;
	const struct sm_fabric *f;
	const struct sm_routes *rt;	/* the rows the blocks come from */
	uint64_t **dirty;		/* per node: bitmap of the blocks to send */
	size_t nblocks;			/* blocks of a row */
	/* the directed route to switch @node; NULL: the one discovery found */
	const struct topo_path *(*path)(void *arg, uint32_t node);
	void *path_arg;
	const char *who;		/* "patch", "jobs": for the log */
	/* out */
	bool *failed;			/* per node, the caller's (zeroed) */
	uint64_t sent, failures;
};

/* Mark the dirty switches pending (a warning when the store refuses), send
 * every dirty block and drain the answers.  0 or -errno (rpc, -ENOMEM). */
int sm_lft_send(struct sm_lft_send *s);

/* The tables of the dirty switches into the store (db_mu held, inside the
 * caller's transaction or alone): saved, or forgotten where a Set failed.
 * 0 or the first -errno (the others are tried still). */
int sm_lft_send_store(struct sm_lft_send *s);

/* Set bit @bit of node @n's bitmap in @maps (allocated at the first need,
 * @bits long).  1 when newly set, 0 when it was, -ENOMEM. */
int sm_lft_mark(uint64_t **maps, uint32_t n, size_t bit, size_t bits);

static inline bool sm_lft_bit(const uint64_t *map, size_t bit)
{
	return map && (map[bit / 64] >> (bit % 64) & 1);
}

#endif

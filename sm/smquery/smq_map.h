/* SPDX-License-Identifier: MIT */
/*
 * smq_map.h - what the files of `smquery map` share: the fabric's data as
 * the page reads it (smq_map_data.c), the packing of LFTs (smq_map_lz.c),
 * and the page around them (smq_map.c, the template smq_map_page.html).
 */
#ifndef IBSMD_SM_SMQ_MAP_H
#define IBSMD_SM_SMQ_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sm/smquery/smq.h"

/* Link flags in the page's data */
#define SMQ_MAP_DOWN 1		/* a port of the link is not Active */
#define SMQ_MAP_DEGRADED 2	/* trained below what both ends support */
#define SMQ_MAP_ISOLATED 4	/* kept out of routing (smquery isolated) */

/* Packed LFTs beyond this many bytes are left out of the page (route mode off). */
#define SMQ_MAP_LFT_BUDGET (48u << 20)

/*
 * Write the stored fabric as the page's JSON document to q->out (strings
 * safe inside an HTML <script> element); what it holds is described in
 * smq_map_data.c.  SMQ_OK, or SMQ_FAIL after printing why.
 */
/* What a link's value is, and what the page scales its colours to at first
 * (absolute: the link's rate, or a fixed error rate; relative: the largest
 * value); the page can switch (smq_map_data.c). */
enum smq_map_by { SMQ_MAP_BY_DATA, SMQ_MAP_BY_ERRORS };
enum smq_map_scale { SMQ_MAP_SCALE_ABSOLUTE, SMQ_MAP_SCALE_RELATIVE };
int smq_map_data(struct smq *q, enum smq_map_by by, enum smq_map_scale scale);

/*
 * Write the "pb" member: the problems the snapshot's links do not carry,
 * from the store's history (smq_map_problems.c).  @ref[node] is how the page
 * names each node of @t: a switch's place in "sw", -1 - a CA's index in "ca".
 * 0 or -errno (the store's message in db_errmsg()).
 */
int smq_map_problems(struct smq *q, const struct topo *t, const int64_t *ref);

/* The most bytes smq_lz_pack() makes of @n. */
#define SMQ_LZ_BOUND(n) ((n) + (n) / 128 + 2)

/* Pack @n bytes of @in (format: smq_map_lz.c) into *@out (malloc'ed, the
 * caller frees), *@outlen <= SMQ_LZ_BOUND(@n) bytes.  0 or -ENOMEM. */
int smq_lz_pack(const uint8_t *in, size_t n, uint8_t **out, size_t *outlen);

/* Write @n bytes of @p to @f in base64 (RFC 4648, padded). */
void smq_base64(FILE *f, const uint8_t *p, size_t n);

#endif

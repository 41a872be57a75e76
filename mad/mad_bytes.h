/* SPDX-License-Identifier: MIT */
/*
 * mad_bytes.h - big-endian (network order) integers in MAD bytes.
 *
 * The header codecs (mad_smp.c, mad_sa.c) write whole-byte fields directly:
 * mad_put_be()/mad_get_be() store and load an unsigned value of 1 to 8 bytes.
 */
#ifndef IBSMD_MAD_BYTES_H
#define IBSMD_MAD_BYTES_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

/* One 64-bit byte swap and a copy of the wanted bytes (both fold to a
 * store for a constant @bytes); @bytes is 1..8. */
static inline void mad_put_be(uint8_t *p, uint64_t v, unsigned bytes)
{
	uint64_t be = htobe64(v << (64 - 8 * bytes));

	memcpy(p, &be, bytes);
}

static inline uint64_t mad_get_be(const uint8_t *p, unsigned bytes)
{
	uint64_t be = 0;

	memcpy(&be, p, bytes);
	return be64toh(be) >> (64 - 8 * bytes);
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * mad_bytes.h - big-endian (network order) integers in MAD bytes.
 *
 * The header codecs (mad_smp.c, mad_sa.c) write whole-byte fields directly:
 * mad_put_be()/mad_get_be() store and load an unsigned value of 1 to 8 bytes.
 */
#ifndef IBSMD_MAD_BYTES_H
#define IBSMD_MAD_BYTES_H

#include <stdint.h>

static inline void mad_put_be(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = bytes; i-- > 0; v >>= 8)
		p[i] = (uint8_t)v;
}

static inline uint64_t mad_get_be(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

#endif

// SPDX-License-Identifier: MIT
/*
 * smq_map_lz.c - the LFTs the fabric map carries, packed small: a byte-wise
 * LZ77 whose decoder is twenty lines of the page's script, then base64.
 *
 * An LFT is a column of port numbers that repeats itself (the up ports of a
 * fat tree in turn, the down port of each leaf's hosts in a run), so back
 * references a period back cover most of it: 9.5 KB of a leaf's table on
 * the 8,192-host fat tree pack to about 200 bytes.  Format, token by token:
 *
 *	0x00-0x7f  t      the next t + 1 bytes are literals
 *	0x80-0xff  t      a match of (t & 0x7f) + 3 bytes; when t & 0x7f is
 *	                  0x7f a varint follows to add to the length; then the
 *	                  distance back (>= 1) as a varint; the match may
 *	                  overlap what it produces (copied byte by byte)
 *
 * varint: 7 bits a byte, least significant first, high bit = more.  The
 * compressor is greedy over a hash chain of 3-byte prefixes, SMQ_LZ_CHAIN
 * candidates deep, and takes a match only when it is at least one byte
 * shorter than what it replaces (that byte pays for the token of the
 * literals after it), so no input packs to more than n + n / 128 + 1 bytes
 * (a table of random ports: one token byte per 128 literals).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm/smquery/smq_map.h"

#define SMQ_LZ_MIN 3
#define SMQ_LZ_CHAIN 16
#define SMQ_LZ_HASH_BITS 15
#define SMQ_LZ_NONE UINT32_MAX

struct smq_lz_out {
	uint8_t *buf;
	size_t len;
};

static void smq_lz_byte(struct smq_lz_out *o, uint8_t b)
{
	o->buf[o->len++] = b;
}

static void smq_lz_varint(struct smq_lz_out *o, size_t v)
{
	while (v >= 0x80) {
		smq_lz_byte(o, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	smq_lz_byte(o, (uint8_t)v);
}

static void smq_lz_literals(struct smq_lz_out *o, const uint8_t *p, size_t n)
{
	while (n) {
		size_t k = n > 128 ? 128 : n;

		smq_lz_byte(o, (uint8_t)(k - 1));
		memcpy(o->buf + o->len, p, k);
		o->len += k;
		p += k;
		n -= k;
	}
}

static void smq_lz_match(struct smq_lz_out *o, size_t len, size_t dist)
{
	size_t extra = len - SMQ_LZ_MIN;

	if (extra >= 0x7f) {
		smq_lz_byte(o, 0xff);
		smq_lz_varint(o, extra - 0x7f);
	} else {
		smq_lz_byte(o, (uint8_t)(0x80 | extra));
	}
	smq_lz_varint(o, dist);
}

static size_t smq_lz_varint_len(size_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* The bytes a match of @len at @dist takes. */
static size_t smq_lz_match_cost(size_t len, size_t dist)
{
	size_t extra = len - SMQ_LZ_MIN;

	return 1 + (extra >= 0x7f ? smq_lz_varint_len(extra - 0x7f) : 0) + smq_lz_varint_len(dist);
}

static uint32_t smq_lz_hash(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;

	return (v * 2654435761u) >> (32 - SMQ_LZ_HASH_BITS);
}

int smq_lz_pack(const uint8_t *in, size_t n, uint8_t **out, size_t *outlen)
{
	struct smq_lz_out o = { malloc(SMQ_LZ_BOUND(n)), 0 };
	uint32_t *head = malloc(((size_t)1 << SMQ_LZ_HASH_BITS) * sizeof(*head));
	uint32_t *prev = malloc((n + 1) * sizeof(*prev));
	size_t lit = 0, i = 0;

	if (!o.buf || !head || !prev || n >= SMQ_LZ_NONE) {
		free(o.buf);
		free(head);
		free(prev);
		return -ENOMEM;
	}
	memset(head, 0xff, ((size_t)1 << SMQ_LZ_HASH_BITS) * sizeof(*head));
	while (i < n) {
		size_t best = 0, dist = 0;

		if (i + SMQ_LZ_MIN <= n) {
			uint32_t h = smq_lz_hash(in + i);
			unsigned depth = 0;

			for (uint32_t c = head[h]; c != SMQ_LZ_NONE && depth < SMQ_LZ_CHAIN;
			     c = prev[c], depth++) {
				size_t len = 0;

				while (i + len < n && in[c + len] == in[i + len])
					len++;
				if (len > best) {
					best = len;
					dist = i - c;
				}
			}
			prev[i] = head[h];
			head[h] = (uint32_t)i;
		}
		/* a match must save a byte: it pays for the literal token after it */
		if (best < SMQ_LZ_MIN || smq_lz_match_cost(best, dist) >= best) {
			i++;
			continue;
		}
		smq_lz_literals(&o, in + lit, i - lit);
		smq_lz_match(&o, best, dist);
		/* the positions the match covers join the chains too */
		for (size_t end = i + best; ++i < end;)
			if (i + SMQ_LZ_MIN <= n) {
				uint32_t h = smq_lz_hash(in + i);

				prev[i] = head[h];
				head[h] = (uint32_t)i;
			}
		lit = i;
	}
	smq_lz_literals(&o, in + lit, n - lit);
	free(head);
	free(prev);
	*out = o.buf;
	*outlen = o.len;
	return 0;
}

void smq_base64(FILE *f, const uint8_t *p, size_t n)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		fputc(b64[v >> 18], f);
		fputc(b64[(v >> 12) & 63], f);
		fputc(i + 1 < n ? b64[(v >> 6) & 63] : '=', f);
		fputc(i + 2 < n ? b64[v & 63] : '=', f);
	}
}

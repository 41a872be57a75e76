/* SPDX-License-Identifier: MIT */
/*
 * mad_gmp.h - the common MAD header every GMP starts with (IBA 13.4.2):
 * versions, class, method, status, TID, attribute and modifier, the first 24
 * bytes of the SA's (mad_sa.h) and the PerfMgt class's (mad_perf.h) MADs.
 *
 * A class's MAD struct opens with MAD_GMP_HEADER, so its header fields read
 * as its own members (sa->method) and, as a whole, as ->hdr, which the shared
 * codec below takes.
 */
#ifndef IBSMD_MAD_GMP_H
#define IBSMD_MAD_GMP_H

#include <stddef.h>
#include <stdint.h>

#define MAD_GMP_HEADER_SIZE 24

#define MAD_GMP_HEADER_FIELDS                                                  \
	uint8_t base_version;	/* 1 */                                        \
	uint8_t mgmt_class;                                                    \
	uint8_t class_version;                                                 \
	uint8_t method;                                                        \
	uint16_t status;                                                       \
	uint16_t class_specific;                                               \
	uint64_t tid;                                                          \
	uint16_t attr_id;                                                      \
	uint32_t attr_mod;

struct mad_gmp_header {
	MAD_GMP_HEADER_FIELDS
};

/* The opening member of a class's MAD struct: the fields, and ->hdr. */
#define MAD_GMP_HEADER                                                         \
	union {                                                                \
		struct mad_gmp_header hdr;                                     \
		struct {                                                       \
			MAD_GMP_HEADER_FIELDS                                  \
		};                                                             \
	}

/* The header into the first MAD_GMP_HEADER_SIZE bytes of @buf, and back. */
void mad_gmp_header_encode(const struct mad_gmp_header *h, uint8_t *buf);
void mad_gmp_header_decode(const uint8_t *buf, struct mad_gmp_header *h);

/* A request's header: base version 1, @mgmt_class, @class_version, @method,
 * @attr_id, every other field 0. */
void mad_gmp_header_init(struct mad_gmp_header *h, uint8_t mgmt_class, uint8_t class_version,
			 uint8_t method, uint16_t attr_id);

/* A whole MAD into @buf (MAD_BLOCK_SIZE bytes): @h, then @size bytes of
 * @data at @offset, every other byte 0. */
void mad_gmp_encode(const struct mad_gmp_header *h, const uint8_t *data, size_t offset,
		    size_t size, uint8_t *buf);

#endif

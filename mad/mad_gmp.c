// SPDX-License-Identifier: MIT
/*
 * mad_gmp.c - the common MAD header of GMPs (IBA 13.4.2, table 155): byte
 * offsets and big-endian fields, shared by the SA, PerfMgt and CC codecs;
 * a request's header and a whole MAD around a class's data.
 */
#include <string.h>

#include "mad/mad_bytes.h"
#include "mad/mad_gmp.h"
#include "mad/mad_smp.h"

enum {
	GMP_OFF_BASE_VERSION = 0, GMP_OFF_CLASS = 1, GMP_OFF_CLASS_VERSION = 2,
	GMP_OFF_METHOD = 3, GMP_OFF_STATUS = 4, GMP_OFF_CLASS_SPECIFIC = 6, GMP_OFF_TID = 8,
	GMP_OFF_ATTR_ID = 16, GMP_OFF_ATTR_MOD = 20,
};

_Static_assert(GMP_OFF_ATTR_MOD + 4 == MAD_GMP_HEADER_SIZE, "GMP header");

void mad_gmp_header_encode(const struct mad_gmp_header *h, uint8_t *buf)
{
	buf[GMP_OFF_BASE_VERSION] = h->base_version;
	buf[GMP_OFF_CLASS] = h->mgmt_class;
	buf[GMP_OFF_CLASS_VERSION] = h->class_version;
	buf[GMP_OFF_METHOD] = h->method;
	mad_put_be(buf + GMP_OFF_STATUS, h->status, 2);
	mad_put_be(buf + GMP_OFF_CLASS_SPECIFIC, h->class_specific, 2);
	mad_put_be(buf + GMP_OFF_TID, h->tid, 8);
	mad_put_be(buf + GMP_OFF_ATTR_ID, h->attr_id, 2);
	mad_put_be(buf + GMP_OFF_ATTR_MOD, h->attr_mod, 4);
}

void mad_gmp_header_decode(const uint8_t *buf, struct mad_gmp_header *h)
{
	h->base_version = buf[GMP_OFF_BASE_VERSION];
	h->mgmt_class = buf[GMP_OFF_CLASS];
	h->class_version = buf[GMP_OFF_CLASS_VERSION];
	h->method = buf[GMP_OFF_METHOD];
	h->status = (uint16_t)mad_get_be(buf + GMP_OFF_STATUS, 2);
	h->class_specific = (uint16_t)mad_get_be(buf + GMP_OFF_CLASS_SPECIFIC, 2);
	h->tid = mad_get_be(buf + GMP_OFF_TID, 8);
	h->attr_id = (uint16_t)mad_get_be(buf + GMP_OFF_ATTR_ID, 2);
	h->attr_mod = (uint32_t)mad_get_be(buf + GMP_OFF_ATTR_MOD, 4);
}

void mad_gmp_header_init(struct mad_gmp_header *h, uint8_t mgmt_class, uint8_t class_version,
			 uint8_t method, uint16_t attr_id)
{
	*h = (struct mad_gmp_header){ .base_version = 1, .mgmt_class = mgmt_class,
				      .class_version = class_version, .method = method,
				      .attr_id = attr_id };
}

void mad_gmp_encode(const struct mad_gmp_header *h, const uint8_t *data, size_t offset,
		    size_t size, uint8_t *buf)
{
	memset(buf, 0, MAD_BLOCK_SIZE);
	mad_gmp_header_encode(h, buf);
	memcpy(buf + offset, data, size);
}

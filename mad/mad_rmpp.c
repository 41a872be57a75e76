// SPDX-License-Identifier: MIT
/*
 * mad_rmpp.c - RMPP segmentation, windows and reassembly (mad_rmpp.h).
 *
 * The RMPP header (IBA 13.6.2.1) sits at bytes 24-35 of every MAD: version,
 * type, RRespTime (5 bits) above the flags (3 bits), status, then two 32-bit
 * words: for DATA the SegmentNumber and PayloadLength, for ACK the
 * SegmentNumber and NewWindowLast.  Every length read from a MAD is checked
 * against the segments it covers and MAD_RMPP_MAX_DATA.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_bytes.h"
#include "mad/mad_rmpp.h"

static void put_rmpp(uint8_t *mad, uint8_t type, uint8_t flags, uint8_t status,
		     uint32_t d1, uint32_t d2)
{
	mad[MAD_RMPP_OFF] = MAD_RMPP_VERSION;
	mad[MAD_RMPP_OFF + 1] = type;
	mad[MAD_RMPP_OFF + 2] = (uint8_t)(flags | 1);	/* Active; RRespTime 0 */
	mad[MAD_RMPP_OFF + 3] = status;
	mad_put_be(mad + MAD_RMPP_OFF + 4, d1, 4);
	mad_put_be(mad + MAD_RMPP_OFF + 8, d2, 4);
}

static uint32_t rmpp_word(const uint8_t *mad, int i)
{
	return (uint32_t)mad_get_be(mad + MAD_RMPP_OFF + 4 + 4 * i, 4);
}

int mad_rmpp_sender_init(struct mad_rmpp_sender *s, const uint8_t *msg, size_t len,
			 size_t hdr_len)
{
	memset(s, 0, sizeof(*s));
	if (hdr_len < MAD_RMPP_HDR_END || hdr_len >= MAD_BLOCK_SIZE || len < hdr_len ||
	    len - hdr_len > MAD_RMPP_MAX_DATA)
		return -EINVAL;
	if (!(s->msg = malloc(len)))
		return -ENOMEM;
	memcpy(s->msg, msg, len);
	s->hdr_len = hdr_len;
	s->data_len = len - hdr_len;
	size_t seg = MAD_BLOCK_SIZE - hdr_len;
	s->nseg = s->data_len ? (uint32_t)((s->data_len + seg - 1) / seg) : 1;
	s->window_last = 1;
	s->next = 1;
	return 0;
}

void mad_rmpp_sender_free(struct mad_rmpp_sender *s)
{
	free(s->msg);
	memset(s, 0, sizeof(*s));
}

bool mad_rmpp_sender_next(struct mad_rmpp_sender *s, uint8_t out[MAD_BLOCK_SIZE])
{
	if (s->next > s->window_last || s->next > s->nseg)
		return false;
	uint32_t i = s->next++;
	size_t seg = MAD_BLOCK_SIZE - s->hdr_len, off = (size_t)(i - 1) * seg;
	size_t part = s->data_len - off < seg ? s->data_len - off : seg;
	size_t cls = s->hdr_len - MAD_RMPP_HDR_END;
	uint8_t flags = 0;
	uint32_t paylen = 0;

	memset(out, 0, MAD_BLOCK_SIZE);
	memcpy(out, s->msg, s->hdr_len);
	memcpy(out + s->hdr_len, s->msg + s->hdr_len + off, part);
	if (i == s->nseg) {
		flags |= MAD_RMPP_FLAG_LAST;
		paylen = (uint32_t)(part + cls);
	}
	if (i == 1) {
		flags |= MAD_RMPP_FLAG_FIRST;
		paylen = (uint32_t)(s->data_len + cls);
	}
	put_rmpp(out, MAD_RMPP_TYPE_DATA, flags, 0, i, paylen);
	return true;
}

int mad_rmpp_sender_ack(struct mad_rmpp_sender *s, const uint8_t mad[MAD_BLOCK_SIZE])
{
	uint8_t type = mad_rmpp_type(mad);

	if (type == MAD_RMPP_TYPE_STOP || type == MAD_RMPP_TYPE_ABORT)
		return -ECONNABORTED;
	if (type != MAD_RMPP_TYPE_ACK)
		return 0;	/* not for the sender */
	uint32_t seg = rmpp_word(mad, 0), nwl = rmpp_word(mad, 1);
	if (seg >= s->next || nwl < seg)
		return -EPROTO;
	if (seg > s->acked)
		s->acked = seg;
	if (nwl > s->window_last)
		s->window_last = nwl < s->nseg ? nwl : s->nseg;
	return s->acked >= s->nseg ? 1 : 0;
}

void mad_rmpp_sender_rewind(struct mad_rmpp_sender *s)
{
	s->next = s->acked + 1;
}

void mad_rmpp_abort(const uint8_t mad[MAD_BLOCK_SIZE], uint8_t status,
		    uint8_t out[MAD_BLOCK_SIZE])
{
	memset(out, 0, MAD_BLOCK_SIZE);
	memcpy(out, mad, MAD_RMPP_OFF);
	put_rmpp(out, MAD_RMPP_TYPE_ABORT, 0, status, 0, 0);
}

void mad_rmpp_receiver_init(struct mad_rmpp_receiver *r, size_t hdr_len)
{
	memset(r, 0, sizeof(*r));
	r->hdr_len = hdr_len;
	r->expected = 1;
}

void mad_rmpp_receiver_free(struct mad_rmpp_receiver *r)
{
	free(r->msg);
	mad_rmpp_receiver_init(r, r->hdr_len);
}

/* The ACK of what @r holds, for the transaction of @seg. */
static void make_ack(struct mad_rmpp_receiver *r, const uint8_t seg[MAD_BLOCK_SIZE],
		     uint8_t ack[MAD_BLOCK_SIZE])
{
	memset(ack, 0, MAD_BLOCK_SIZE);
	memcpy(ack, seg, MAD_RMPP_OFF);	/* the segment's method, TID, attribute */
	r->window_last = r->expected - 1 + MAD_RMPP_WINDOW;
	put_rmpp(ack, MAD_RMPP_TYPE_ACK, 0, 0, r->expected - 1, r->window_last);
}

int mad_rmpp_receiver_add(struct mad_rmpp_receiver *r, const uint8_t seg[MAD_BLOCK_SIZE],
			  uint8_t ack[MAD_BLOCK_SIZE], bool *send_ack)
{
	size_t part = MAD_BLOCK_SIZE - r->hdr_len, cls = r->hdr_len - MAD_RMPP_HDR_END;
	uint8_t flags = seg[MAD_RMPP_OFF + 2] & 7;
	uint32_t i = rmpp_word(seg, 0), paylen = rmpp_word(seg, 1);

	*send_ack = false;
	if (!mad_rmpp_active(seg) || mad_rmpp_type(seg) != MAD_RMPP_TYPE_DATA || r->done)
		return -EPROTO;
	if (i != r->expected) {	/* a repeat or a gap: say what we hold */
		make_ack(r, seg, ack);
		*send_ack = true;
		return 0;
	}
	if (i == 1) {
		if (!(flags & MAD_RMPP_FLAG_FIRST) || paylen < cls ||
		    paylen - cls > MAD_RMPP_MAX_DATA)
			return -EMSGSIZE;
		size_t cap = r->hdr_len + (paylen - cls);
		uint8_t *m = malloc(cap + part);	/* the last segment's padding too */
		if (!m)
			return -ENOMEM;
		free(r->msg);
		r->msg = m;
		r->cap = cap + part;
		memcpy(r->msg, seg, r->hdr_len);
	}
	if (!r->msg || r->hdr_len + r->data_len + part > r->cap)
		return -EMSGSIZE;	/* more segments than the first one announced */
	memcpy(r->msg + r->hdr_len + r->data_len, seg + r->hdr_len, part);
	r->data_len += part;
	r->expected++;
	if (flags & MAD_RMPP_FLAG_LAST) {
		if (paylen < cls || paylen - cls > part || r->data_len < part)
			return -EMSGSIZE;
		r->data_len -= part - (paylen - cls);
		r->done = true;
	}
	if (r->done || i >= r->window_last) {
		make_ack(r, seg, ack);
		*send_ack = true;
	}
	return r->done ? 1 : 0;
}

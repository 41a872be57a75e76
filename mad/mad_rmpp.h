/* SPDX-License-Identifier: MIT */
/*
 * mad_rmpp.h - reliable multi-packet transactions (IBA 13.6): one message
 * longer than a MAD sent as segments, acknowledged in windows.
 *
 * A message is a class header of @hdr_len bytes (the common MAD header, the
 * RMPP header and the class's own header: 56 for SA) followed by its data.
 * Segment i (from 1) is a whole MAD: the header again, with the RMPP header
 * saying DATA, Active, First/Last, SegmentNumber i and PayloadLength, then
 * the i-th MAD_BLOCK_SIZE - hdr_len bytes of data.  PayloadLength counts the
 * class header (after the RMPP header) once and the data: the whole message
 * in the first segment, that segment's part in the last, 0 between (IBA
 * 13.6.2.3, as the Linux MAD layer reads it).
 *
 * The sender starts with a window of one segment; each ACK names the last
 * segment the receiver holds in order and the last it may send
 * (NewWindowLast); the message is through when the last segment is ACKed.
 * A STOP or ABORT ends it.  The receiver takes segments in order, drops the
 * others, and ACKs at the end of each window and of the message.  Both are
 * pure state machines: who carries the MADs and when is the caller's.
 */
#ifndef IBSMD_MAD_RMPP_H
#define IBSMD_MAD_RMPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_smp.h"

#define MAD_RMPP_VERSION 1
enum mad_rmpp_type {
	MAD_RMPP_TYPE_DATA = 1,
	MAD_RMPP_TYPE_ACK = 2,
	MAD_RMPP_TYPE_STOP = 3,
	MAD_RMPP_TYPE_ABORT = 4,
};
#define MAD_RMPP_FLAG_FIRST 0x2
#define MAD_RMPP_FLAG_LAST 0x4
/* ABORT status: a segment or window out of range (IBA 13.6.2.1 table 133) */
#define MAD_RMPP_STATUS_BAD_SEG 119
/* the receiver's window, in segments */
#define MAD_RMPP_WINDOW 32
/* the largest message either side handles: data bytes */
#define MAD_RMPP_MAX_DATA (16u << 20)

/* Where the RMPP header starts and ends in a MAD: PayloadLength counts the
 * bytes after its end. */
#define MAD_RMPP_OFF 24
#define MAD_RMPP_HDR_END 36

/* Whether @mad carries an RMPP header with the Active flag. */
static inline bool mad_rmpp_active(const uint8_t mad[MAD_BLOCK_SIZE])
{
	return mad[MAD_RMPP_OFF] == MAD_RMPP_VERSION && (mad[MAD_RMPP_OFF + 2] & 1);
}

static inline uint8_t mad_rmpp_type(const uint8_t mad[MAD_BLOCK_SIZE])
{
	return mad[MAD_RMPP_OFF + 1];
}

struct mad_rmpp_sender {
	uint8_t *msg;		/* header and data, owned */
	size_t hdr_len, data_len;
	uint32_t nseg;
	uint32_t acked;		/* segments the receiver holds in order */
	uint32_t window_last;	/* the last segment it may be sent */
	uint32_t next;		/* the next segment to send */
};

/* A sender of the message @msg (@len bytes: @hdr_len of header, then data),
 * copied.  0, -EINVAL (a header longer than a MAD, or more data than
 * MAD_RMPP_MAX_DATA), -ENOMEM. */
int mad_rmpp_sender_init(struct mad_rmpp_sender *s, const uint8_t *msg, size_t len,
			 size_t hdr_len);
void mad_rmpp_sender_free(struct mad_rmpp_sender *s);

/* The next segment the window allows into @out: true, or false when it must
 * wait for an ACK (or is through). */
bool mad_rmpp_sender_next(struct mad_rmpp_sender *s, uint8_t out[MAD_BLOCK_SIZE]);

/* An RMPP MAD from the receiver: 1 when the message is through, 0 to go on
 * (send what mad_rmpp_sender_next() gives), -ECONNABORTED on STOP or ABORT,
 * -EPROTO for an ACK beyond what was sent (the receiver is confused: abort). */
int mad_rmpp_sender_ack(struct mad_rmpp_sender *s, const uint8_t mad[MAD_BLOCK_SIZE]);

/* A timeout: send again from the first segment not ACKed. */
void mad_rmpp_sender_rewind(struct mad_rmpp_sender *s);

/* The ABORT a sender or receiver sends for the transaction of @mad. */
void mad_rmpp_abort(const uint8_t mad[MAD_BLOCK_SIZE], uint8_t status,
		    uint8_t out[MAD_BLOCK_SIZE]);

struct mad_rmpp_receiver {
	uint8_t *msg;		/* header and data so far */
	size_t hdr_len, data_len, cap;
	uint32_t expected;	/* the next segment in order */
	uint32_t window_last;
	bool done;
};

/* A receiver of messages with @hdr_len bytes of header. */
void mad_rmpp_receiver_init(struct mad_rmpp_receiver *r, size_t hdr_len);
void mad_rmpp_receiver_free(struct mad_rmpp_receiver *r);

/*
 * Take the DATA segment @seg.  Returns 1 when the message is whole (in
 * r->msg, r->hdr_len + r->data_len bytes), 0 for more to come, or -EPROTO
 * (not a DATA segment), -EMSGSIZE (PayloadLength beyond MAD_RMPP_MAX_DATA or
 * short of the segments), -ENOMEM.  *@send_ack tells whether @ack holds an
 * ACK to send back (the end of a window or of the message, or a segment out
 * of order).
 */
int mad_rmpp_receiver_add(struct mad_rmpp_receiver *r, const uint8_t seg[MAD_BLOCK_SIZE],
			  uint8_t ack[MAD_BLOCK_SIZE], bool *send_ack);

#endif

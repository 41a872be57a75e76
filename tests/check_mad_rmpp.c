// SPDX-License-Identifier: MIT
/*
 * check_mad_rmpp.c - RMPP (mad_rmpp.c): a sender and a receiver passing
 * messages of every size through windows, segments lost and repeated, STOP
 * and ABORT, and the lengths a hostile segment may claim.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_bytes.h"
#include "mad/mad_rmpp.h"
#include "tests/check_util.h"

#define HDR 56	/* SA */
#define SEG (MAD_BLOCK_SIZE - HDR)

static uint8_t *message(size_t data)
{
	uint8_t *m = malloc(HDR + data);

	ck_assert_ptr_nonnull(m);
	memset(m, 0, HDR);
	m[0] = 1;
	m[1] = 3;
	m[3] = 0x92;
	m[16] = 0x12;	/* attribute, echoed in every segment */
	for (size_t i = 0; i < data; i++)
		m[HDR + i] = (uint8_t)(i * 7 + i / 251);
	return m;
}

/* Send @data bytes through; @drop: lose every segment whose number is a
 * multiple of it the first time (0: none).  Returns the MADs sent. */
static unsigned transfer(size_t data, unsigned drop)
{
	struct mad_rmpp_sender s;
	struct mad_rmpp_receiver r;
	uint8_t seg[MAD_BLOCK_SIZE], ack[MAD_BLOCK_SIZE];
	uint8_t *m = message(data);
	unsigned sent = 0, dropped = 0;
	int done = 0;

	ck_assert_int_eq(mad_rmpp_sender_init(&s, m, HDR + data, HDR), 0);
	mad_rmpp_receiver_init(&r, HDR);
	while (!done) {
		bool any = false;
		while (!done && mad_rmpp_sender_next(&s, seg)) {
			any = true;
			sent++;
			uint32_t i = (uint32_t)mad_get_be(seg + 28, 4);
			ck_assert_uint_le(i, s.window_last);
			ck_assert_uint_eq(seg[16], 0x12);
			if (drop && i % drop == 0 && dropped < i / drop) {
				dropped++;
				continue;
			}
			bool send_ack;
			int rc = mad_rmpp_receiver_add(&r, seg, ack, &send_ack);
			ck_assert_int_ge(rc, 0);
			if (send_ack) {
				ck_assert_uint_eq(mad_rmpp_type(ack), MAD_RMPP_TYPE_ACK);
				done = mad_rmpp_sender_ack(&s, ack);
				ck_assert_int_ge(done, 0);
			}
			ck_assert(rc == 0 || done == 1);
		}
		if (!any && !done)
			mad_rmpp_sender_rewind(&s);	/* the time-out */
	}
	ck_assert(r.done);
	ck_assert_uint_eq(r.data_len, data);
	ck_assert_mem_eq(r.msg + HDR, m + HDR, data);
	ck_assert_uint_eq(r.msg[16], 0x12);
	mad_rmpp_sender_free(&s);
	mad_rmpp_receiver_free(&r);
	free(m);
	return sent;
}

START_TEST(messages_of_every_size)
{
	static const size_t sizes[] = { 0, 1, SEG - 1, SEG, SEG + 1, 10 * SEG,
					MAD_RMPP_WINDOW * SEG + 3, 100000 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t nseg = sizes[i] ? (sizes[i] + SEG - 1) / SEG : 1;
		ck_assert_uint_eq(transfer(sizes[i], 0), nseg);
	}
}
END_TEST

START_TEST(lost_segments_are_sent_again)
{
	ck_assert_uint_gt(transfer(100 * SEG, 7), 100);
	ck_assert_uint_gt(transfer(5 * SEG, 1), 5);
}
END_TEST

START_TEST(first_window_is_one_segment)
{
	struct mad_rmpp_sender s;
	uint8_t seg[MAD_BLOCK_SIZE];
	uint8_t *m = message(3 * SEG);

	ck_assert_int_eq(mad_rmpp_sender_init(&s, m, HDR + 3 * SEG, HDR), 0);
	ck_assert(mad_rmpp_sender_next(&s, seg));
	ck_assert_uint_eq(seg[26] & 7, 1 | MAD_RMPP_FLAG_FIRST);
	ck_assert_uint_eq(mad_get_be(seg + 32, 4), 3 * SEG + 20);	/* with the SA header */
	ck_assert(!mad_rmpp_sender_next(&s, seg));
	/* an ACK of a segment never sent: the receiver is confused */
	uint8_t ack[MAD_BLOCK_SIZE] = { 0 };
	ack[24] = 1; ack[25] = MAD_RMPP_TYPE_ACK; ack[26] = 1;
	mad_put_be(ack + 28, 2, 4);
	mad_put_be(ack + 32, 3, 4);
	ck_assert_int_eq(mad_rmpp_sender_ack(&s, ack), -EPROTO);
	mad_put_be(ack + 28, 1, 4);
	ck_assert_int_eq(mad_rmpp_sender_ack(&s, ack), 0);
	ck_assert(mad_rmpp_sender_next(&s, seg));
	ck_assert(mad_rmpp_sender_next(&s, seg));
	ck_assert_uint_eq(seg[26] & 7, 1 | MAD_RMPP_FLAG_LAST);
	ck_assert_uint_eq(mad_get_be(seg + 32, 4), SEG + 20);
	ack[25] = MAD_RMPP_TYPE_STOP;
	ck_assert_int_eq(mad_rmpp_sender_ack(&s, ack), -ECONNABORTED);
	mad_rmpp_abort(seg, MAD_RMPP_STATUS_BAD_SEG, ack);
	ck_assert_uint_eq(mad_rmpp_type(ack), MAD_RMPP_TYPE_ABORT);
	ck_assert_uint_eq(ack[27], MAD_RMPP_STATUS_BAD_SEG);
	ck_assert_int_eq(mad_rmpp_sender_ack(&s, ack), -ECONNABORTED);
	mad_rmpp_sender_free(&s);
	ck_assert_int_eq(mad_rmpp_sender_init(&s, m, 10, HDR), -EINVAL);
	ck_assert_int_eq(mad_rmpp_sender_init(&s, m, HDR + MAD_RMPP_MAX_DATA + 1, HDR), -EINVAL);
	free(m);
}
END_TEST

/* Whatever lengths a segment claims, the receiver writes inside its buffer. */
START_TEST(receiver_distrusts_lengths)
{
	struct mad_rmpp_receiver r;
	uint8_t seg[MAD_BLOCK_SIZE] = { 1, 3, 2, 0x92 }, ack[MAD_BLOCK_SIZE];
	bool send_ack;

	mad_rmpp_receiver_init(&r, HDR);
	ck_assert_int_eq(mad_rmpp_receiver_add(&r, seg, ack, &send_ack), -EPROTO);	/* not RMPP */
	seg[24] = 1; seg[25] = MAD_RMPP_TYPE_DATA; seg[26] = 1 | MAD_RMPP_FLAG_FIRST;
	mad_put_be(seg + 28, 1, 4);
	mad_put_be(seg + 32, 0xffffffff, 4);
	ck_assert_int_eq(mad_rmpp_receiver_add(&r, seg, ack, &send_ack), -EMSGSIZE);
	mad_put_be(seg + 32, 3, 4);	/* less than the SA header */
	ck_assert_int_eq(mad_rmpp_receiver_add(&r, seg, ack, &send_ack), -EMSGSIZE);
	/* announces one segment, sends three */
	mad_put_be(seg + 32, 20 + 10, 4);
	ck_assert_int_eq(mad_rmpp_receiver_add(&r, seg, ack, &send_ack), 0);
	ck_assert(send_ack);	/* the end of the first window */
	ck_assert_uint_eq(mad_get_be(ack + 28, 4), 1);
	seg[26] = 1;
	mad_put_be(seg + 28, 2, 4);
	mad_put_be(seg + 32, 0, 4);
	ck_assert_int_eq(mad_rmpp_receiver_add(&r, seg, ack, &send_ack), -EMSGSIZE);
	/* a segment out of order is ACKed with what is held */
	mad_put_be(seg + 28, 9, 4);
	ck_assert_int_eq(mad_rmpp_receiver_add(&r, seg, ack, &send_ack), 0);
	ck_assert(send_ack);
	ck_assert_uint_eq(mad_get_be(ack + 28, 4), 1);
	/* a last segment claiming more than it holds */
	mad_rmpp_receiver_free(&r);
	seg[26] = 1 | MAD_RMPP_FLAG_FIRST | MAD_RMPP_FLAG_LAST;
	mad_put_be(seg + 28, 1, 4);
	mad_put_be(seg + 32, 20 + SEG + 1, 4);
	ck_assert_int_eq(mad_rmpp_receiver_add(&r, seg, ack, &send_ack), -EMSGSIZE);
	mad_rmpp_receiver_free(&r);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("mad_rmpp");
	TCase *tc = tcase_create("rmpp");

	tcase_add_test(tc, messages_of_every_size);
	tcase_add_test(tc, lost_segments_are_sent_again);
	tcase_add_test(tc, first_window_is_one_segment);
	tcase_add_test(tc, receiver_distrusts_lengths);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

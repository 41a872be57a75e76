// SPDX-License-Identifier: MIT
/*
 * check_mad_ar.c - the AR vendor attribute codecs (mad/mad_ar.c) against
 * golden payload bytes written by hand from the public layouts (ibis'
 * adaptive_routing_info, ib_ar_grp_table, ib_ar_linear_forwarding_table_sx;
 * bit n of a field is bit n of the big-endian word), round trips, and the
 * values that must be refused either way.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "mad/mad_ar.h"
#include "tests/check_util.h"

START_TEST(ar_info_golden)
{
	static const uint8_t golden[12] = {
		0x18, 0x00, 0x01, 0x19,	/* by_sl_en, by_sl_cap; 1 sub-group; fr_en, fr_sup, e */
		0x02, 0x00, 0x50, 0x40,	/* 2 tables; top 5; cap 64 */
		0x00, 0xff, 0x04, 0x12,	/* SL mask 0x00ff; 4 sub-groups; RN 1, AR 2 */
	};
	uint8_t b[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_ar_info ai;

	memcpy(b, golden, sizeof(golden));
	ck_assert_int_eq(mad_ar_info_decode(b, &ai), 0);
	ck_assert(ai.enable && ai.fr_supported && ai.fr_enable && ai.by_sl_cap && ai.by_sl_enable);
	ck_assert(!ai.arn_supported && !ai.frn_supported && !ai.rn_xmit_enable && !ai.no_fallback);
	ck_assert_uint_eq(ai.sub_grps_active, 1);
	ck_assert_uint_eq(ai.group_cap, 64);
	ck_assert_uint_eq(ai.group_top, 5);
	ck_assert_uint_eq(ai.group_table_cap, 2);
	ck_assert_uint_eq(ai.ar_version_cap, 2);
	ck_assert_uint_eq(ai.rn_version_cap, 1);
	ck_assert_uint_eq(ai.sub_grps_supported, 4);
	ck_assert_uint_eq(ai.enable_by_sl_mask, 0x00ff);
	memset(out, 0x55, sizeof(out));
	ck_assert_int_eq(mad_ar_info_encode(&ai, out), 0);
	ck_assert_mem_eq(out, golden, sizeof(golden));
	for (unsigned i = sizeof(golden); i < SMP_DATA_SIZE; i++)
		ck_assert_uint_eq(out[i], 0);
}
END_TEST

/* Issue 20 item 5: the fields the SM sets nothing in come back as they were
 * read (a Set writes the whole attribute): group_table_copy_sup, is4_mode,
 * by_transp_cap, dyn_cap_calc_sup, string_width_cap, by_transport_disable
 * and the ageing time; reserved bits (w0 7:6 and 31, w3 31:8) are zero. */
START_TEST(ar_info_every_field)
{
	static const uint8_t golden[MAD_AR_INFO_LEN] = {
		0x62, 0x00, 0xa0, 0x00,	/* dyn_cap_calc, by_transp_cap, is4; copy_sup 10 */
		0x70, 0x00, 0x00, 0x10,	/* string_width_cap 7; cap 16 */
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x05,	/* by_transport_disable UD, UC */
		0x00, 0x01, 0xe2, 0x40,	/* ageing time 123456 us */
	};
	uint8_t b[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_ar_info ai;

	memcpy(b, golden, sizeof(golden));
	ck_assert_int_eq(mad_ar_info_decode(b, &ai), 0);
	ck_assert(ai.dyn_cap_calc_sup && ai.by_transp_cap && ai.is4_mode && !ai.no_fallback);
	ck_assert_uint_eq(ai.group_table_copy_sup, 10);
	ck_assert_uint_eq(ai.string_width_cap, 7);
	ck_assert_uint_eq(ai.group_cap, 16);
	ck_assert_uint_eq(ai.by_transport_disable, 5);
	ck_assert_uint_eq(ai.ageing_time, 123456);
	ai.enable = true;	/* what the SM changes: the rest stays */
	ck_assert_int_eq(mad_ar_info_encode(&ai, out), 0);
	ck_assert_uint_eq(out[3], 0x01);
	out[3] = 0;
	ck_assert_mem_eq(out, golden, sizeof(golden));
	b[0] |= 0x80;		/* reserved: dropped */
	b[3] |= 0xc0;
	b[12] = 0xff;
	ck_assert_int_eq(mad_ar_info_decode(b, &ai), 0);
	ck_assert_int_eq(mad_ar_info_encode(&ai, out), 0);
	ck_assert_mem_eq(out, golden, sizeof(golden));
}
END_TEST

START_TEST(ar_info_refused)
{
	uint8_t b[SMP_DATA_SIZE] = { 0 };
	struct mad_ar_info ai;

	/* no AR at all: cap 0, top 0 */
	ck_assert_int_eq(mad_ar_info_decode(b, &ai), 0);
	ck_assert_uint_eq(ai.group_cap, 0);
	/* top 64 of a 64-group table: no such group */
	b[4] = 0x00; b[5] = 0x04; b[6] = 0x00; b[7] = 0x40;
	ck_assert_int_eq(mad_ar_info_decode(b, &ai), -EBADMSG);
	b[5] = 0x03; b[6] = 0xf0;	/* top 63: the last one */
	ck_assert_int_eq(mad_ar_info_decode(b, &ai), 0);
	ck_assert_uint_eq(ai.group_top, 63);
	/* fields too wide for the wire: nothing written */
	uint8_t out[SMP_DATA_SIZE];
	memset(out, 0x55, sizeof(out));
	ai.group_cap = MAD_AR_MAX_GROUP + 1;
	ck_assert_int_eq(mad_ar_info_encode(&ai, out), -EINVAL);
	ai.group_cap = 64;
	ai.sub_grps_active = 16;
	ck_assert_int_eq(mad_ar_info_encode(&ai, out), -EINVAL);
	ck_assert_uint_eq(out[0], 0x55);
}
END_TEST

START_TEST(ar_group_golden)
{
	uint8_t golden[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_ar_group_block gb;

	/* group 0: ports 1, 2, 63 (sub-group 0, bytes 24..31), 64 (sub-group 1,
	 * bytes 16..23), 255 (sub-group 3, bytes 0..7); group 1: port 36 */
	golden[0] = 0x80;
	golden[23] = 0x01;
	golden[24] = 0x80;
	golden[31] = 0x06;
	golden[32 + 24 + 3] = 0x10;
	ck_assert_int_eq(mad_ar_group_decode(golden, &gb), 0);
	ck_assert_uint_eq(gb.group[0].ports[0], 1ULL << 63 | 1ULL << 2 | 1ULL << 1);
	ck_assert_uint_eq(gb.group[0].ports[1], 1);
	ck_assert_uint_eq(gb.group[0].ports[2], 0);
	ck_assert_uint_eq(gb.group[0].ports[3], 1ULL << 63);
	ck_assert_uint_eq(gb.group[1].ports[0], 1ULL << 36);
	ck_assert_uint_eq(gb.group[1].ports[1] | gb.group[1].ports[2] | gb.group[1].ports[3], 0);
	ck_assert_int_eq(mad_ar_group_encode(&gb, out), 0);
	ck_assert_mem_eq(out, golden, sizeof(golden));
}
END_TEST

START_TEST(ar_lft_golden)
{
	uint8_t golden[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_ar_lft_block lb;
	static const uint8_t e0[4] = { 0x00, 0x03, 0x00, 0x07 };	/* bounded, port 3, group 7 */
	static const uint8_t e1[4] = { 0x80, 0x05, 0x00, 0x05 };	/* static, port 5 */
	static const uint8_t e15[4] = { 0x4f, 0xff, 0x0f, 0xff };	/* free, table 15, port 255, group 4095 */

	memcpy(golden, e0, 4);
	memcpy(golden + 4, e1, 4);
	memcpy(golden + 60, e15, 4);
	ck_assert_int_eq(mad_ar_lft_decode(golden, &lb), 0);
	ck_assert_uint_eq(lb.e[0].state, MAD_AR_BOUNDED);
	ck_assert_uint_eq(lb.e[0].group, 7);
	ck_assert_uint_eq(lb.e[0].default_port, 3);
	ck_assert_uint_eq(lb.e[1].state, MAD_AR_STATIC);
	ck_assert_uint_eq(lb.e[1].group, 5);
	ck_assert_uint_eq(lb.e[1].default_port, 5);
	ck_assert_uint_eq(lb.e[15].state, MAD_AR_FREE);
	ck_assert_uint_eq(lb.e[15].table, 15);
	ck_assert_uint_eq(lb.e[15].default_port, 255);
	ck_assert_uint_eq(lb.e[15].group, MAD_AR_MAX_GROUP);
	ck_assert_int_eq(mad_ar_lft_encode(&lb, out), 0);
	ck_assert_mem_eq(out, golden, sizeof(golden));
}
END_TEST

START_TEST(ar_lft_refused)
{
	uint8_t b[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_ar_lft_block lb;

	b[40] = 0xc0;		/* entry 10: LID state 3, reserved */
	ck_assert_int_eq(mad_ar_lft_decode(b, &lb), -EBADMSG);
	memset(&lb, 0, sizeof(lb));
	memset(out, 0x55, sizeof(out));
	lb.e[3].group = MAD_AR_MAX_GROUP + 1;
	ck_assert_int_eq(mad_ar_lft_encode(&lb, out), -EINVAL);
	lb.e[3].group = 0;
	lb.e[3].table = MAD_AR_MAX_TABLE + 1;
	ck_assert_int_eq(mad_ar_lft_encode(&lb, out), -EINVAL);
	lb.e[3].table = 0;
	lb.e[3].state = 3;
	ck_assert_int_eq(mad_ar_lft_encode(&lb, out), -EINVAL);
	ck_assert_uint_eq(out[0], 0x55);	/* nothing written */
	lb.e[3].state = MAD_AR_STATIC;
	ck_assert_int_eq(mad_ar_lft_encode(&lb, out), 0);
	ck_assert_uint_eq(out[12], 0x80);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("mad_ar");
	TCase *tc = tcase_create("codecs");

	tcase_add_test(tc, ar_info_golden);
	tcase_add_test(tc, ar_info_every_field);
	tcase_add_test(tc, ar_info_refused);
	tcase_add_test(tc, ar_group_golden);
	tcase_add_test(tc, ar_lft_golden);
	tcase_add_test(tc, ar_lft_refused);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

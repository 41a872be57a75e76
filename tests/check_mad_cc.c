// SPDX-License-Identifier: MIT
/*
 * check_mad_cc.c - congestion control MAD codecs against golden wire bytes
 * written from IBA Annex A10's layouts (the header with its CC_Key,
 * CongestionInfo, CongestionKeyInfo, SwitchCongestionSetting,
 * SwitchPortCongestionSetting, CACongestionSetting, CongestionControlTable),
 * fields masked to their widths, and the decoder's rejection of what is not
 * a CC MAD.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "mad/mad_cc.h"
#include "tests/check_util.h"

/* The header of a Set of @attr with TID 0x0102030405060708 and CC_Key
 * 0x1122334455667788, modifier @mod. */
static void golden_header(uint8_t *b, uint16_t attr, uint32_t mod)
{
	memset(b, 0, MAD_BLOCK_SIZE);
	b[0] = 1; b[1] = 0x21; b[2] = 2; b[3] = 0x02;
	for (int i = 0; i < 8; i++)
		b[8 + i] = (uint8_t)(i + 1);
	b[16] = (uint8_t)(attr >> 8); b[17] = (uint8_t)attr;
	b[20] = (uint8_t)(mod >> 24); b[21] = (uint8_t)(mod >> 16);
	b[22] = (uint8_t)(mod >> 8); b[23] = (uint8_t)mod;
	for (int i = 0; i < 8; i++)
		b[24 + i] = (uint8_t)(0x11 * (i + 1));
}

static void header_of(struct mad_cc *cc, uint16_t attr, uint32_t mod)
{
	mad_cc_init(cc, 0x02, attr, 0x1122334455667788ull);
	cc->tid = 0x0102030405060708ull;
	cc->attr_mod = mod;
}

/* @cc encoded equals @want, and @want decodes to @cc's header. */
static void check_wire(const struct mad_cc *cc, const uint8_t *want)
{
	uint8_t got[MAD_BLOCK_SIZE];
	struct mad_cc back;

	mad_cc_encode(cc, got);
	for (int i = 0; i < MAD_BLOCK_SIZE; i++)
		ck_assert_msg(got[i] == want[i], "byte %d: %02x, want %02x", i, got[i], want[i]);
	ck_assert_int_eq(mad_cc_decode(want, MAD_BLOCK_SIZE, &back), 0);
	ck_assert_uint_eq(back.cc_key, 0x1122334455667788ull);
	ck_assert_uint_eq(back.tid, 0x0102030405060708ull);
	ck_assert_uint_eq(back.attr_id, cc->attr_id);
	ck_assert_uint_eq(back.attr_mod, cc->attr_mod);
	ck_assert_uint_eq(back.class_version, 2);
	ck_assert_mem_eq(back.data, want + MAD_CC_DATA_OFFSET, MAD_CC_DATA_SIZE);
}

START_TEST(info_golden)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_cc cc;
	struct mad_cc_info v, back;

	memset(&v, 0, sizeof(v));	/* padding too: whole structs are compared */
	v.info = 0x8001;
	v.control_table_cap = 2;

	golden_header(b, 0x0011, 0);
	b[64] = 0x80; b[65] = 0x01; b[66] = 2;
	header_of(&cc, MAD_CC_ATTR_INFO, 0);
	mad_cc_info_encode(&v, cc.data);
	check_wire(&cc, b);
	mad_cc_info_decode(b + 64, &back);
	ck_assert_mem_eq(&back, &v, sizeof(v));
}
END_TEST

/* ClassPortInfo as an agent answers it, golden; ibsim's answer (the request
 * as sent: no data), an SMA's (ClassVersion 1) or another version's are not
 * a CC agent's. */
START_TEST(class_port_info)
{
	static const uint8_t golden[8] = { 0x01, 0x02, 0, 0, 0, 0, 0, 0x12 };
	uint8_t d[MAD_CC_DATA_SIZE];

	memset(d, 0xa5, sizeof(d));
	mad_cc_class_port_info_encode(18 | 0xe0, d);	/* 5 bits: the rest dropped */
	ck_assert_mem_eq(d, golden, sizeof(golden));
	for (size_t i = sizeof(golden); i < sizeof(d); i++)
		ck_assert_uint_eq(d[i], 0);
	ck_assert(mad_cc_class_port_info_ours(d));
	memset(d, 0, sizeof(d));
	ck_assert(!mad_cc_class_port_info_ours(d));	/* ibsim's echo */
	d[0] = 1;
	d[1] = 1;
	ck_assert(!mad_cc_class_port_info_ours(d));	/* an SMA's class version */
	d[1] = 3;
	ck_assert(!mad_cc_class_port_info_ours(d));
	d[0] = 2;
	d[1] = 2;
	ck_assert(!mad_cc_class_port_info_ours(d));
}
END_TEST

START_TEST(key_info_golden)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_cc cc;
	struct mad_cc_key_info v, back;

	memset(&v, 0, sizeof(v));
	v.cc_key = 0xfedcba9876543210ull;
	v.protect = 1;
	v.lease_period = 0x0102;
	v.violations = 0xfffe;

	golden_header(b, 0x0012, 0);
	uint8_t *d = b + 64;
	for (int i = 0; i < 8; i++)
		d[i] = (uint8_t)(0xfe - 0x22 * i);
	d[8] = 0x80;			/* CC_KeyProtectBit, 7 reserved bits */
	d[10] = 0x01; d[11] = 0x02;	/* CC_KeyLeasePeriod */
	d[12] = 0xff; d[13] = 0xfe;	/* CC_KeyViolations */
	header_of(&cc, MAD_CC_ATTR_KEY_INFO, 0);
	mad_cc_key_info_encode(&v, cc.data);
	check_wire(&cc, b);
	mad_cc_key_info_decode(d, &back);
	ck_assert_mem_eq(&back, &v, sizeof(v));
	/* the protect bit is one bit: a 3 is written as 1 */
	v.protect = 3;
	mad_cc_key_info_encode(&v, cc.data);
	ck_assert_uint_eq(cc.data[8], 0x80);
}
END_TEST

START_TEST(switch_setting_golden)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_cc cc;
	struct mad_cc_switch_setting v = {
		.control_map = 0x1f, .threshold = 0xf, .packet_size = 0x20,
		.cs_threshold = 0x9, .cs_return_delay = 0xc003, .marking_rate = 0x0a0b,
	}, back;

	v.victim_mask[0] = 0x80;	/* port 255 */
	v.victim_mask[31] = 0x01;	/* port 0 */
	v.credit_mask[30] = 0x02;	/* port 9 */
	golden_header(b, 0x0014, 0);
	uint8_t *d = b + 64;
	d[3] = 0x1f;			/* Control_Map */
	d[4] = 0x80; d[35] = 0x01;	/* Victim_Mask */
	d[66] = 0x02;			/* Credit_Mask */
	d[68] = 0xf0;			/* Threshold, 4 reserved bits */
	d[69] = 0x20;			/* Packet_Size */
	d[70] = 0x90;			/* CS_Threshold, 12 reserved bits */
	d[72] = 0xc0; d[73] = 0x03;	/* CS_ReturnDelay: shift 3, multiplier 3 */
	d[74] = 0x0a; d[75] = 0x0b;	/* Marking_Rate */
	header_of(&cc, MAD_CC_ATTR_SWITCH_SETTING, 0);
	mad_cc_switch_setting_encode(&v, cc.data);
	check_wire(&cc, b);
	mad_cc_switch_setting_decode(d, &back);
	ck_assert_mem_eq(&back, &v, sizeof(v));
	/* a threshold wider than 4 bits leaves the reserved bits alone */
	v.threshold = 0x1f;
	mad_cc_switch_setting_encode(&v, cc.data);
	ck_assert_uint_eq(cc.data[68], 0xf0);
	ck_assert_uint_eq(cc.data[67], 0);
}
END_TEST

START_TEST(switch_port_setting_golden)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_cc cc;
	struct mad_cc_switch_port_setting v = { 0 }, back;

	v.port[0] = (struct mad_cc_switch_port){ .valid = 1, .control_type = 1,
						 .threshold = 0xa, .packet_size = 0x33,
						 .marking_rate = 0x4455 };
	v.port[31] = (struct mad_cc_switch_port){ .valid = 1, .threshold = 0x1,
						  .marking_rate = 0xffff };
	golden_header(b, 0x0015, 1);
	uint8_t *d = b + 64;
	d[0] = 0xca; d[1] = 0x33; d[2] = 0x44; d[3] = 0x55;
	d[124] = 0x81; d[126] = 0xff; d[127] = 0xff;
	header_of(&cc, MAD_CC_ATTR_SWITCH_PORT_SETTING, 1);
	mad_cc_switch_port_setting_encode(&v, cc.data);
	check_wire(&cc, b);
	mad_cc_switch_port_setting_decode(d, &back);
	ck_assert_mem_eq(&back, &v, sizeof(v));
}
END_TEST

START_TEST(ca_setting_golden)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_cc cc;
	struct mad_cc_ca_setting v = { .port_control = 1, .control_map = 0x8001 }, back;

	v.sl[0] = (struct mad_cc_ca_entry){ 0x1234, 5, 6, 7 };
	v.sl[15] = (struct mad_cc_ca_entry){ 0xffff, 1, 2, 3 };
	golden_header(b, 0x0016, 0);
	uint8_t *d = b + 64;
	d[1] = 0x01; d[2] = 0x80; d[3] = 0x01;
	d[4] = 0x12; d[5] = 0x34; d[6] = 5; d[7] = 6; d[8] = 7;
	d[124] = 0xff; d[125] = 0xff; d[126] = 1; d[127] = 2; d[128] = 3;
	header_of(&cc, MAD_CC_ATTR_CA_SETTING, 0);
	mad_cc_ca_setting_encode(&v, cc.data);
	check_wire(&cc, b);
	mad_cc_ca_setting_decode(d, &back);
	ck_assert_mem_eq(&back, &v, sizeof(v));
}
END_TEST

START_TEST(cct_golden)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_cc cc;
	struct mad_cc_cct v = { .ccti_limit = 127 }, back;

	v.entry[0] = (struct mad_cc_cct_entry){ .shift = 2, .multiplier = 0x1234 };
	v.entry[63] = (struct mad_cc_cct_entry){ .shift = 3, .multiplier = 0x3fff };
	golden_header(b, 0x0017, 1);
	uint8_t *d = b + 64;
	d[1] = 127;
	d[4] = 0x92; d[5] = 0x34;
	d[130] = 0xff; d[131] = 0xff;
	header_of(&cc, MAD_CC_ATTR_CCT, 1);
	mad_cc_cct_encode(&v, cc.data);
	check_wire(&cc, b);
	mad_cc_cct_decode(d, &back);
	ck_assert_mem_eq(&back, &v, sizeof(v));
	ck_assert_uint_eq(mad_cc_cct_entry_bits(v.entry[0]), 0x9234);
	/* a multiplier wider than 14 bits does not reach the shift */
	v.entry[0] = (struct mad_cc_cct_entry){ .shift = 0, .multiplier = 0xffff };
	mad_cc_cct_encode(&v, cc.data);
	ck_assert_uint_eq(cc.data[4], 0x3f);
	ck_assert_uint_eq(mad_cc_cct_entry_bits(v.entry[0]), 0x3fff);
}
END_TEST

START_TEST(decode_refuses)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_cc cc;

	golden_header(b, 0x0011, 0);
	ck_assert_int_eq(mad_cc_decode(b, MAD_BLOCK_SIZE - 1, &cc), -EMSGSIZE);
	ck_assert_int_eq(mad_cc_decode(b, 0, &cc), -EMSGSIZE);
	b[1] = 0x04;
	ck_assert_int_eq(mad_cc_decode(b, MAD_BLOCK_SIZE, &cc), -EPROTONOSUPPORT);
	b[1] = 0x21; b[0] = 2;
	ck_assert_int_eq(mad_cc_decode(b, MAD_BLOCK_SIZE, &cc), -EPROTONOSUPPORT);
	b[0] = 1; b[2] = 1;	/* the class version is the caller's to judge */
	ck_assert_int_eq(mad_cc_decode(b, MAD_BLOCK_SIZE, &cc), 0);
	ck_assert_uint_eq(cc.class_version, 1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mad_cc");
	TCase *tc = tcase_create("codec");

	tcase_add_test(tc, info_golden);
	tcase_add_test(tc, class_port_info);
	tcase_add_test(tc, key_info_golden);
	tcase_add_test(tc, switch_setting_golden);
	tcase_add_test(tc, switch_port_setting_golden);
	tcase_add_test(tc, ca_setting_golden);
	tcase_add_test(tc, cct_golden);
	tcase_add_test(tc, decode_refuses);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

// SPDX-License-Identifier: MIT
/*
 * check_mad_smp.c - SMP header codec against golden wire bytes (IBA 14.2.1.2)
 * and against libibmad's field tables on pseudo-random headers, and the
 * decoder's rejection of MADs no conforming peer sends.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include <infiniband/mad.h>

#include "mad/mad_smp.h"
#include "tests/check_util.h"

/* A directed-route Get(NodeInfo) along 0,1,3 with TID 0x0102030405060708. */
static void golden_dr_get(uint8_t *b)
{
	memset(b, 0, MAD_BLOCK_SIZE);
	b[0] = 1; b[1] = 0x81; b[2] = 1; b[3] = 0x01;
	b[6] = 0; b[7] = 2;			/* hop pointer, hop count */
	for (int i = 0; i < 8; i++)
		b[8 + i] = (uint8_t)(i + 1);	/* TID */
	b[16] = 0x00; b[17] = 0x11;		/* NodeInfo */
	b[20] = 0; b[21] = 0; b[22] = 0; b[23] = 5;	/* attr mod 5 */
	b[32] = 0xff; b[33] = 0xff; b[34] = 0xff; b[35] = 0xff;
	b[129] = 1; b[130] = 3;			/* initial path */
}

START_TEST(encode_dr_matches_golden)
{
	uint8_t want[MAD_BLOCK_SIZE], got[MAD_BLOCK_SIZE];
	struct topo_path path = { 0 };
	struct mad_smp smp;

	golden_dr_get(want);
	mad_drpath_push(&path, 1);
	mad_drpath_push(&path, 3);
	mad_smp_init_dr(&smp, MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 5, &path);
	smp.tid = 0x0102030405060708ULL;
	mad_smp_encode(&smp, got);
	ck_assert_mem_eq(got, want, MAD_BLOCK_SIZE);
}
END_TEST

START_TEST(decode_dr_response)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_smp smp;

	golden_dr_get(b);
	b[3] = 0x81;			/* GetResp */
	b[4] = 0x80; b[5] = 0x1c;	/* D bit, status 0x1c */
	b[6] = 2;			/* hop pointer */
	b[193] = 7; b[194] = 9;		/* return path */
	b[64] = 0xab; b[127] = 0xcd;
	ck_assert_int_eq(mad_smp_decode(b, sizeof(b), &smp), 0);
	ck_assert_uint_eq(smp.mgmt_class, MAD_CLASS_SMI_DR);
	ck_assert_uint_eq(smp.method, MAD_METHOD_GET_RESP);
	ck_assert(smp.direction);
	ck_assert_uint_eq(smp.status, 0x1c);
	ck_assert_uint_eq(smp.hop_ptr, 2);
	ck_assert_uint_eq(smp.hop_cnt, 2);
	ck_assert_uint_eq(smp.tid, 0x0102030405060708ULL);
	ck_assert_uint_eq(smp.attr_id, MAD_ATTR_NODE_INFO);
	ck_assert_uint_eq(smp.attr_mod, 5);
	ck_assert_uint_eq(smp.dr_slid, 0xffff);
	ck_assert_uint_eq(smp.initial_path[2], 3);
	ck_assert_uint_eq(smp.return_path[1], 7);
	ck_assert_uint_eq(smp.data[0], 0xab);
	ck_assert_uint_eq(smp.data[63], 0xcd);

	uint8_t again[MAD_BLOCK_SIZE];
	mad_smp_encode(&smp, again);
	ck_assert_mem_eq(again, b, MAD_BLOCK_SIZE);
}
END_TEST

START_TEST(lid_routed_status_is_16_bits)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_smp smp, back;

	mad_smp_init_lid(&smp, MAD_METHOD_SET, MAD_ATTR_LFT, 3);
	smp.status = 0x8001;
	smp.mkey = 0x1122334455667788ULL;
	mad_smp_encode(&smp, b);
	ck_assert_uint_eq(b[1], 0x01);
	ck_assert_uint_eq(b[4], 0x80);
	ck_assert_uint_eq(b[5], 0x01);
	ck_assert_uint_eq(b[24], 0x11);
	ck_assert_uint_eq(b[31], 0x88);
	ck_assert_int_eq(mad_smp_decode(b, sizeof(b), &back), 0);
	ck_assert_uint_eq(back.status, 0x8001);
	ck_assert(!back.direction);
	ck_assert_uint_eq(back.mkey, smp.mkey);
}
END_TEST

/* Our codec reads and writes every header field where libibmad's tables put
 * it, for both classes, on headers filled from a fixed generator. */
START_TEST(codec_agrees_with_libibmad)
{
	uint64_t x = 0x243f6a8885a308d3ull;

	for (int i = 0; i < 2000; i++) {
		uint8_t b[MAD_BLOCK_SIZE], again[MAD_BLOCK_SIZE], lib[MAD_BLOCK_SIZE];
		struct mad_smp smp;
		for (size_t k = 0; k < sizeof(b); k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			b[k] = (uint8_t)x;
		}
		b[0] = 1;
		b[1] = i % 2 ? MAD_CLASS_SMI_DR : MAD_CLASS_SMI;
		b[2] = 1;
		b[3] = i % 4 < 2 ? MAD_METHOD_GET : MAD_METHOD_GET_RESP;
		b[6] = b[6] % 8;
		b[7] = (uint8_t)(b[6] + b[7] % 8);
		ck_assert_int_eq(mad_smp_decode(b, sizeof(b), &smp), 0);
		ck_assert_uint_eq(smp.method, mad_get_field(b, 0, IB_MAD_METHOD_F) |
			mad_get_field(b, 0, IB_MAD_RESPONSE_F) << 7);
		ck_assert_uint_eq(smp.tid, mad_get_field64(b, 0, IB_MAD_TRID_F));
		ck_assert_uint_eq(smp.attr_id, mad_get_field(b, 0, IB_MAD_ATTRID_F));
		ck_assert_uint_eq(smp.attr_mod, mad_get_field(b, 0, IB_MAD_ATTRMOD_F));
		ck_assert_uint_eq(smp.mkey, mad_get_field64(b, 0, IB_MAD_MKEY_F));
		memset(lib, 0, sizeof(lib));
		mad_set_field(lib, 0, IB_MAD_BASEVER_F, 1);
		mad_set_field(lib, 0, IB_MAD_MGMTCLASS_F, b[1]);
		mad_set_field(lib, 0, IB_MAD_CLASSVER_F, 1);
		mad_set_field(lib, 0, IB_MAD_METHOD_F, smp.method & 0x7f);
		mad_set_field(lib, 0, IB_MAD_RESPONSE_F, smp.method >> 7);
		if (i % 2) {
			ck_assert_uint_eq(smp.direction, mad_get_field(b, 0, IB_DRSMP_DIRECTION_F));
			ck_assert_uint_eq(smp.status, mad_get_field(b, 0, IB_DRSMP_STATUS_F));
			ck_assert_uint_eq(smp.hop_ptr, mad_get_field(b, 0, IB_DRSMP_HOPPTR_F));
			ck_assert_uint_eq(smp.hop_cnt, mad_get_field(b, 0, IB_DRSMP_HOPCNT_F));
			ck_assert_uint_eq(smp.dr_slid, mad_get_field(b, 0, IB_DRSMP_DRSLID_F));
			ck_assert_uint_eq(smp.dr_dlid, mad_get_field(b, 0, IB_DRSMP_DRDLID_F));
			mad_set_field(lib, 0, IB_DRSMP_DIRECTION_F, smp.direction);
			mad_set_field(lib, 0, IB_DRSMP_STATUS_F, smp.status);
			mad_set_field(lib, 0, IB_DRSMP_HOPPTR_F, smp.hop_ptr);
			mad_set_field(lib, 0, IB_DRSMP_HOPCNT_F, smp.hop_cnt);
			mad_set_field(lib, 0, IB_DRSMP_DRSLID_F, smp.dr_slid);
			mad_set_field(lib, 0, IB_DRSMP_DRDLID_F, smp.dr_dlid);
			memcpy(lib + 128, b + 128, 128);	/* the paths */
		} else {
			ck_assert_uint_eq(smp.status, mad_get_field(b, 0, IB_MAD_STATUS_F));
			mad_set_field(lib, 0, IB_MAD_STATUS_F, smp.status);
		}
		mad_set_field64(lib, 0, IB_MAD_TRID_F, smp.tid);
		mad_set_field(lib, 0, IB_MAD_ATTRID_F, smp.attr_id);
		mad_set_field(lib, 0, IB_MAD_ATTRMOD_F, smp.attr_mod);
		mad_set_field64(lib, 0, IB_MAD_MKEY_F, smp.mkey);
		memcpy(lib + SMP_DATA_OFFSET, b + SMP_DATA_OFFSET, SMP_DATA_SIZE);
		mad_smp_encode(&smp, again);
		ck_assert_mem_eq(again, lib, MAD_BLOCK_SIZE);
	}
}
END_TEST

START_TEST(decode_rejects_bad_input)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_smp smp;

	golden_dr_get(b);
	ck_assert_int_eq(mad_smp_decode(b, 255, &smp), -EMSGSIZE);
	b[0] = 2;
	ck_assert_int_eq(mad_smp_decode(b, sizeof(b), &smp), -EPROTONOSUPPORT);
	golden_dr_get(b);
	b[2] = 2;
	ck_assert_int_eq(mad_smp_decode(b, sizeof(b), &smp), -EPROTONOSUPPORT);
	golden_dr_get(b);
	b[1] = 0x04;	/* performance management: not ours */
	ck_assert_int_eq(mad_smp_decode(b, sizeof(b), &smp), -EPROTONOSUPPORT);
	golden_dr_get(b);
	b[3] = 0x13;	/* unknown method */
	ck_assert_int_eq(mad_smp_decode(b, sizeof(b), &smp), -EBADMSG);
	golden_dr_get(b);
	b[7] = 64;	/* hop count over 63 */
	ck_assert_int_eq(mad_smp_decode(b, sizeof(b), &smp), -EBADMSG);
	golden_dr_get(b);
	b[6] = 4;	/* hop pointer beyond hop count + 1 */
	ck_assert_int_eq(mad_smp_decode(b, sizeof(b), &smp), -EBADMSG);
}
END_TEST

START_TEST(response_check)
{
	struct topo_path path = { 0 };
	struct mad_smp req, resp;

	mad_smp_init_dr(&req, MAD_METHOD_GET, MAD_ATTR_PORT_INFO, 1, &path);
	req.tid = 42;
	resp = req;
	mad_smp_make_response(&resp, 0);
	ck_assert(resp.direction);
	ck_assert_int_eq(mad_smp_check_response(&req, &resp), 0);
	resp.status = MAD_STATUS_INVALID_FIELD;
	ck_assert_int_eq(mad_smp_check_response(&req, &resp), -EREMOTEIO);
	resp.status = 0;
	resp.attr_id = MAD_ATTR_NODE_INFO;
	ck_assert_int_eq(mad_smp_check_response(&req, &resp), -EBADMSG);
	resp.attr_id = MAD_ATTR_PORT_INFO;
	resp.tid = 43;
	ck_assert_int_eq(mad_smp_check_response(&req, &resp), -EBADMSG);
}
END_TEST

/* A TrapRepress is built as a response: status cleared, D bit for DR. */
START_TEST(trap_repress_is_built_as_a_response)
{
	struct topo_path path = { .hops = 2, .port = { 0, 3, 5 } };
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_smp trap, back;

	mad_smp_init_dr(&trap, MAD_METHOD_TRAP, MAD_ATTR_NOTICE, 0, &path);
	trap.tid = 77;
	trap.status = 0x0104;
	trap.hop_ptr = 3;
	trap.data[5] = 0xab;
	mad_smp_make_trap_repress(&trap);
	mad_smp_encode(&trap, buf);
	ck_assert_int_eq(mad_smp_decode(buf, sizeof(buf), &back), 0);
	ck_assert_uint_eq(back.method, MAD_METHOD_TRAP_REPRESS);
	ck_assert_uint_eq(back.status, 0);
	ck_assert(back.direction);
	ck_assert_uint_eq(back.tid, 77);
	ck_assert_uint_eq(back.hop_ptr, 3);
	ck_assert_uint_eq(back.attr_id, MAD_ATTR_NOTICE);
	ck_assert_uint_eq(back.data[5], 0xab);

	mad_smp_init_lid(&trap, MAD_METHOD_TRAP, MAD_ATTR_NOTICE, 0);
	trap.status = 0x0004;
	mad_smp_make_trap_repress(&trap);
	ck_assert_uint_eq(trap.method, MAD_METHOD_TRAP_REPRESS);
	ck_assert_uint_eq(trap.status, 0);
	ck_assert(!trap.direction);
}
END_TEST

START_TEST(drpath_limits_and_format)
{
	struct topo_path path = { 0 };
	char buf[256];

	for (int i = 0; i < SMP_MAX_HOPS; i++)
		ck_assert_int_eq(mad_drpath_push(&path, (uint8_t)(i % 36 + 1)), 0);
	ck_assert_int_eq(mad_drpath_push(&path, 1), -E2BIG);
	path.hops = 3;
	ck_assert_str_eq(mad_drpath_str(&path, buf, sizeof(buf)), "0,1,2,3");
	ck_assert_str_eq(mad_attr_name(0x0019, buf, sizeof(buf)), "LinearForwardingTable");
	ck_assert_str_eq(mad_attr_name(0x0ff0, buf, sizeof(buf)), "attr 0x0ff0");
}
END_TEST

static Suite *smp_suite(void)
{
	Suite *s = suite_create("mad_smp");
	TCase *tc = tcase_create("codec");

	tcase_add_test(tc, encode_dr_matches_golden);
	tcase_add_test(tc, codec_agrees_with_libibmad);
	tcase_add_test(tc, decode_dr_response);
	tcase_add_test(tc, lid_routed_status_is_16_bits);
	tcase_add_test(tc, decode_rejects_bad_input);
	tcase_add_test(tc, response_check);
	tcase_add_test(tc, trap_repress_is_built_as_a_response);
	tcase_add_test(tc, drpath_limits_and_format);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(smp_suite)

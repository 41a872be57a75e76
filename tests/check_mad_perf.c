// SPDX-License-Identifier: MIT
/*
 * check_mad_perf.c - PerfMgt MAD header and attribute codecs against golden
 * wire bytes (IBA 16.1.3.2, 16.1.3.5, 16.1.4.11) and libibmad's IB_PSC_*,
 * IB_PC_*, IB_PC_EXT_* field tables, the sample tick's length (IBA's, and
 * NVIDIA Quantum switches' by their device IDs), and the
 * decoder's rejection of what is not a PerfMgt MAD.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include <infiniband/mad.h>

#include "mad/model/topo_rate.h"
#include "mad/mad_perf.h"
#include "mad/mad_smp.h"
#include "tests/check_util.h"

/* A GetResp(PortCounters) for port 3, TID 0x0102030405060708. */
static void golden_port_counters(uint8_t *b)
{
	memset(b, 0, MAD_BLOCK_SIZE);
	b[0] = 1; b[1] = 0x04; b[2] = 1; b[3] = 0x81;
	for (int i = 0; i < 8; i++)
		b[8 + i] = (uint8_t)(i + 1);
	b[17] = 0x12;
	uint8_t *d = b + 64;
	d[1] = 3;			/* PortSelect */
	d[2] = 0xff; d[3] = 0xff;	/* CounterSelect */
	d[4] = 0x12; d[5] = 0x34;	/* SymbolErrorCounter */
	d[6] = 0x56;			/* LinkErrorRecoveryCounter */
	d[7] = 0x78;			/* LinkDownedCounter */
	d[8] = 0x00; d[9] = 0x09;	/* PortRcvErrors */
	d[10] = 0x00; d[11] = 0x0a;	/* PortRcvRemotePhysicalErrors */
	d[12] = 0x00; d[13] = 0x0b;	/* PortRcvSwitchRelayErrors */
	d[14] = 0x01; d[15] = 0x00;	/* PortXmitDiscards */
	d[16] = 0x0c; d[17] = 0x0d;	/* Xmit/Rcv ConstraintErrors */
	d[18] = 0x01;			/* CounterSelect2 */
	d[19] = 0xa5;			/* LocalLinkIntegrity 0xa, ExcessiveBufferOverrun 5 */
	d[22] = 0x00; d[23] = 0x0e;	/* VL15Dropped */
	d[24] = 0xde; d[25] = 0xad; d[26] = 0xbe; d[27] = 0xef;	/* PortXmitData */
	d[28] = 0x00; d[29] = 0x00; d[30] = 0x10; d[31] = 0x00;	/* PortRcvData */
	d[35] = 0x11;			/* PortXmitPkts */
	d[39] = 0x22;			/* PortRcvPkts */
	d[40] = 0xff; d[41] = 0xff; d[42] = 0xff; d[43] = 0xff;	/* PortXmitWait */
}

static const struct mad_port_counters golden_pc = {
	.port_select = 3, .counter_select = 0xffff, .symbol_errors = 0x1234,
	.link_error_recovery = 0x56, .link_downed = 0x78, .rcv_errors = 9,
	.rcv_remote_phys_errors = 10, .rcv_switch_relay_errors = 11, .xmit_discards = 0x100,
	.xmit_constraint_errors = 12, .rcv_constraint_errors = 13, .counter_select2 = 1,
	.local_link_integrity_errors = 0xa, .excessive_buffer_overrun_errors = 5,
	.vl15_dropped = 14, .xmit_data = 0xdeadbeef, .rcv_data = 0x1000, .xmit_pkts = 0x11,
	.rcv_pkts = 0x22, .xmit_wait = 0xffffffff,
};

START_TEST(port_counters_golden)
{
	uint8_t want[MAD_BLOCK_SIZE], got[MAD_BLOCK_SIZE];
	struct mad_perf pm;
	struct mad_port_counters pc;

	golden_port_counters(want);
	mad_perf_init(&pm, MAD_METHOD_GET_RESP, MAD_PERF_ATTR_PORT_COUNTERS);
	pm.tid = 0x0102030405060708ULL;
	mad_port_counters_encode(&golden_pc, pm.data);
	mad_perf_encode(&pm, got);
	ck_assert_mem_eq(got, want, MAD_BLOCK_SIZE);

	ck_assert_int_eq(mad_perf_decode(want, sizeof(want), &pm), 0);
	ck_assert_uint_eq(pm.attr_id, MAD_PERF_ATTR_PORT_COUNTERS);
	ck_assert_uint_eq(pm.tid, 0x0102030405060708ULL);
	mad_port_counters_decode(pm.data, &pc);
	ck_assert_mem_eq(&pc, &golden_pc, sizeof(pc));
}
END_TEST

/* Every field where libibmad's table (what perfquery prints) says it is. */
START_TEST(port_counters_match_libibmad)
{
	uint8_t b[MAD_BLOCK_SIZE];
	uint8_t *d = b + IB_PC_DATA_OFFS;

	golden_port_counters(b);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_PORT_SELECT_F), golden_pc.port_select);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_COUNTER_SELECT_F), golden_pc.counter_select);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_ERR_SYM_F), golden_pc.symbol_errors);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_LINK_RECOVERS_F),
			  golden_pc.link_error_recovery);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_LINK_DOWNED_F), golden_pc.link_downed);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_ERR_RCV_F), golden_pc.rcv_errors);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_ERR_PHYSRCV_F),
			  golden_pc.rcv_remote_phys_errors);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_ERR_SWITCH_REL_F),
			  golden_pc.rcv_switch_relay_errors);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_XMT_DISCARDS_F), golden_pc.xmit_discards);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_ERR_XMTCONSTR_F),
			  golden_pc.xmit_constraint_errors);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_ERR_RCVCONSTR_F),
			  golden_pc.rcv_constraint_errors);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_COUNTER_SELECT2_F), golden_pc.counter_select2);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_ERR_LOCALINTEG_F),
			  golden_pc.local_link_integrity_errors);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_ERR_EXCESS_OVR_F),
			  golden_pc.excessive_buffer_overrun_errors);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_VL15_DROPPED_F), golden_pc.vl15_dropped);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_XMT_BYTES_F), golden_pc.xmit_data);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_RCV_BYTES_F), golden_pc.rcv_data);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_XMT_PKTS_F), golden_pc.xmit_pkts);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_RCV_PKTS_F), golden_pc.rcv_pkts);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_PC_XMT_WAIT_F), golden_pc.xmit_wait);
}
END_TEST

START_TEST(port_counters_ext_golden_and_libibmad)
{
	uint8_t want[MAD_PERF_DATA_SIZE] = { 0 }, got[MAD_PERF_DATA_SIZE] = { 0 };
	struct mad_port_counters_ext in = { 0 }, out;

	want[1] = 7;
	want[2] = 0x00; want[3] = 0xff;
	for (int k = 0; k < 8; k++)	/* counter k at 8 + 8k holds 0x0k01020304050607 */
		for (int i = 0; i < 8; i++)
			want[8 + 8 * k + i] = (uint8_t)(i == 0 ? k : i);
	in.port_select = 7;
	in.counter_select = 0xff;
	uint64_t *c[] = { &in.xmit_data, &in.rcv_data, &in.xmit_pkts, &in.rcv_pkts,
			  &in.unicast_xmit_pkts, &in.unicast_rcv_pkts,
			  &in.multicast_xmit_pkts, &in.multicast_rcv_pkts };
	for (int k = 0; k < 8; k++)
		*c[k] = (uint64_t)k << 56 | 0x01020304050607ULL;
	mad_port_counters_ext_encode(&in, got);
	ck_assert_mem_eq(got, want, MAD_PORT_COUNTERS_EXT_SIZE);
	memset(&out, 0, sizeof(out));
	mad_port_counters_ext_decode(want, &out);
	ck_assert_mem_eq(&out, &in, sizeof(in));
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PC_EXT_PORT_SELECT_F), 7);
	ck_assert_uint_eq(mad_get_field64(want, 0, IB_PC_EXT_XMT_BYTES_F), in.xmit_data);
	ck_assert_uint_eq(mad_get_field64(want, 0, IB_PC_EXT_RCV_BYTES_F), in.rcv_data);
	ck_assert_uint_eq(mad_get_field64(want, 0, IB_PC_EXT_XMT_PKTS_F), in.xmit_pkts);
	ck_assert_uint_eq(mad_get_field64(want, 0, IB_PC_EXT_RCV_PKTS_F), in.rcv_pkts);
	ck_assert_uint_eq(mad_get_field64(want, 0, IB_PC_EXT_RCV_MPKTS_F),
			  in.multicast_rcv_pkts);
}
END_TEST

/* PortSamplesControl: every field at its offset, reserved bits dropped. */
START_TEST(port_samples_control_golden_and_libibmad)
{
	uint8_t want[MAD_PERF_DATA_SIZE] = { 0 }, got[MAD_PERF_DATA_SIZE] = { 0 };
	struct mad_port_samples_control in = {
		.op_code = 0x5a, .port_select = 7, .tick = 0xff, .counter_width = 0xf,
		.counter_masks0_9 = 0xffffffff, .counter_masks10_14 = 0xffff,
		.sample_mechanisms = 0x81, .sample_status = 0xff,
		.option_mask = 0x0102030405060708ull, .vendor_mask = 0x1112131415161718ull,
		.sample_start = 0x21222324, .sample_interval = 0x31323334, .tag = 0x4142,
		.samples_only_option_mask = 0x5152535455565758ull,
	}, out;
	static const uint8_t head[] = {
		0x5a, 7, 0xff, 0x07,		/* OpCode, PortSelect, Tick, CounterWidth */
		0x3f, 0xff, 0xff, 0xff,		/* CounterMasks0-9 (2 reserved bits) */
		0x7f, 0xff, 0x81, 0x03,		/* CounterMasks10-14, SampleMechanisms, Status */
		1, 2, 3, 4, 5, 6, 7, 8,		/* OptionMask */
		0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,	/* VendorMask */
		0x21, 0x22, 0x23, 0x24, 0x31, 0x32, 0x33, 0x34,	/* SampleStart, Interval */
		0x41, 0x42,			/* Tag */
	};

	for (unsigned i = 0; i < MAD_PSC_COUNTERS; i++)
		in.counter_select[i] = (uint16_t)(0x6000 + i);
	memcpy(want, head, sizeof(head));
	for (unsigned i = 0; i < MAD_PSC_COUNTERS; i++) {
		want[38 + 2 * i] = 0x60;
		want[39 + 2 * i] = (uint8_t)i;
	}
	for (int i = 0; i < 8; i++)
		want[72 + i] = (uint8_t)(0x51 + i);
	mad_port_samples_control_encode(&in, got);
	ck_assert_mem_eq(got, want, MAD_PERF_DATA_SIZE);	/* nothing past byte 80 */
	mad_port_samples_control_decode(want, &out);
	ck_assert_uint_eq(out.tick, 0xff);
	ck_assert_uint_eq(out.counter_width, 7);
	ck_assert_uint_eq(out.counter_masks0_9, 0x3fffffff);
	ck_assert_uint_eq(out.counter_masks10_14, 0x7fff);
	ck_assert_uint_eq(out.sample_status, 3);
	ck_assert_uint_eq(out.counter_select[14], 0x600e);
	ck_assert_uint_eq(out.samples_only_option_mask, in.samples_only_option_mask);
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PSC_OPCODE_F), 0x5a);
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PSC_PORT_SELECT_F), 7);
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PSC_TICK_F), 0xff);
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PSC_COUNTER_WIDTH_F), 7);
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PSC_SAMPLE_MECHS_F), 0x81);
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PSC_SAMPLE_STATUS_F), 3);
	ck_assert_uint_eq(mad_get_field64(want, 0, IB_PSC_OPTION_MASK_F), in.option_mask);
	ck_assert_uint_eq(mad_get_field64(want, 0, IB_PSC_VENDOR_MASK_F), in.vendor_mask);
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PSC_SAMPLE_START_F), in.sample_start);
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PSC_SAMPLE_INTVL_F), in.sample_interval);
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PSC_TAG_F), in.tag);
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PSC_COUNTER_SEL0_F), 0x6000);
	ck_assert_uint_eq(mad_get_field(want, 0, IB_PSC_COUNTER_SEL14_F), 0x600e);
	ck_assert_uint_eq(mad_get_field64(want, 0, IB_PSC_SAMPLES_ONLY_OPT_MASK_F),
			  in.samples_only_option_mask);
}
END_TEST

/* A tick is Tick + 1 symbol times of the port's link: its worst values. */
START_TEST(tick_length)
{
	ck_assert_uint_eq(mad_perf_tick_ps(0, MAD_SPEED_SDR), 4000);
	ck_assert_uint_eq(mad_perf_tick_ps(0, 0), MAD_PERF_DEFAULT_TICK_PS);	/* unknown */
	ck_assert_uint_eq(mad_perf_tick_ps(1, MAD_SPEED_DDR), 4000);
	ck_assert_uint_eq(mad_perf_tick_ps(3, MAD_SPEED_QDR), 4000);
	ck_assert_uint_eq(mad_perf_tick_ps(0, MAD_SPEED_FDR), 586);	/* 13.636 Gb/s of data */
	ck_assert_uint_eq(mad_perf_tick_ps(7, MAD_SPEED_NDR), 8 * 80);
	ck_assert_uint_eq(mad_perf_tick_ps(255, MAD_SPEED_SDR), 1024000);	/* 1.024 us */
	ck_assert_uint_eq(mad_perf_tick_ps(255, MAD_SPEED_XDR), 256 * 40);
	ck_assert_uint_eq(mad_perf_tick_ps(0, 0xff), 4000);	/* not one speed */
}
END_TEST

/* NVIDIA's Quantum switches (VendorID 0x2c9, DeviceID 0xd2f0 ... 0xd2f6)
 * count Tick + 1 octets of the whole port: Tick 7 on a 4x link is a quarter of
 * IBA's 8 symbol times; any other node, a ConnectX adapter or another
 * vendor's device with a Quantum's DeviceID, keeps IBA's rule. */
START_TEST(tick_length_by_device)
{
	const uint8_t w4 = 2, w1 = 1, w12 = 8, w2 = 16;	/* LinkWidthActive codes */

	ck_assert_uint_eq(mad_perf_node_tick_ps(0x2c9, 0xd2f0, 7, w4, MAD_SPEED_HDR), 8 * 40);
	ck_assert_uint_eq(mad_perf_node_tick_ps(0x2c9, 0xd2f2, 7, w4, MAD_SPEED_NDR), 8 * 20);
	ck_assert_uint_eq(mad_perf_node_tick_ps(0x2c9, 0xd2f4, 7, w4, MAD_SPEED_XDR), 8 * 10);
	ck_assert_uint_eq(mad_perf_node_tick_ps(0x2c9, 0xd2f6, 7, w2, MAD_SPEED_XDR), 8 * 20);
	ck_assert_uint_eq(mad_perf_node_tick_ps(0x2c9, 0xd2f2, 7, w1, MAD_SPEED_NDR), 8 * 80);
	ck_assert_uint_eq(mad_perf_node_tick_ps(0x2c9, 0xd2f0, 255, w12, MAD_SPEED_SDR),
			  256 * 4000 / 12);
	ck_assert_uint_eq(mad_perf_node_tick_ps(0x2c9, 0xd2f0, 7, 0, MAD_SPEED_HDR), 8 * 160);
	ck_assert_uint_eq(mad_perf_node_tick_ps(0x2c9, 0xd2f0, 7, w4, 0), 8 * 1000);
	/* IBA's rule, the width ignored */
	ck_assert_uint_eq(mad_perf_node_tick_ps(0x2c9, 0x101b, 7, w4, MAD_SPEED_HDR), 8 * 160);
	ck_assert_uint_eq(mad_perf_node_tick_ps(0x2c9, 0xcf08, 31, w4, MAD_SPEED_EDR), 32 * 320);
	ck_assert_uint_eq(mad_perf_node_tick_ps(0x8f1, 0xd2f0, 7, w4, MAD_SPEED_HDR), 8 * 160);
	ck_assert_uint_eq(mad_perf_node_tick_ps(0, 0, 7, w4, MAD_SPEED_HDR), 8 * 160);
}
END_TEST

/* ClassPortInfo in PerfMgt data: the CapabilityMask libibmad reads. */
START_TEST(class_port_info_caps)
{
	uint8_t d[MAD_PERF_DATA_SIZE] = { 0 };
	struct mad_class_port_info cpi = { .base_version = 1, .class_version = 1,
		.cap_mask = MAD_PERF_CAP_EXT_WIDTH | MAD_PERF_CAP_XMIT_WAIT };

	mad_class_port_info_encode(&cpi, d);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_CAPMASK_F), 0x1200);
	ck_assert(mad_perf_has_ext(cpi.cap_mask));
	ck_assert(mad_perf_has_ext(MAD_PERF_CAP_EXT_WIDTH_NOIETF));
	ck_assert(!mad_perf_has_ext(MAD_PERF_CAP_ALL_PORT_SELECT | MAD_PERF_CAP_XMIT_WAIT));
}
END_TEST

START_TEST(decode_rejects)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_perf pm;

	golden_port_counters(b);
	ck_assert_int_eq(mad_perf_decode(b, MAD_BLOCK_SIZE - 1, &pm), -EMSGSIZE);
	b[1] = 0x03;
	ck_assert_int_eq(mad_perf_decode(b, MAD_BLOCK_SIZE, &pm), -EPROTONOSUPPORT);
	b[1] = 0x04;
	b[0] = 2;
	ck_assert_int_eq(mad_perf_decode(b, MAD_BLOCK_SIZE, &pm), -EPROTONOSUPPORT);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mad_perf");
	TCase *tc = tcase_create("codec");

	tcase_add_test(tc, port_counters_golden);
	tcase_add_test(tc, port_counters_match_libibmad);
	tcase_add_test(tc, port_counters_ext_golden_and_libibmad);
	tcase_add_test(tc, port_samples_control_golden_and_libibmad);
	tcase_add_test(tc, tick_length);
	tcase_add_test(tc, tick_length_by_device);
	tcase_add_test(tc, class_port_info_caps);
	tcase_add_test(tc, decode_rejects);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

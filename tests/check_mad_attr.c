// SPDX-License-Identifier: MIT
/*
 * check_mad_attr.c - attribute codecs against golden payload bytes written from
 * the IBA 1.x layouts (14.2.5), round trips, and validation of bad payloads.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "mad/model/topo_rate.h"
#include "mad/mad_attr.h"
#include "tests/check_util.h"

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = v & 0xff;
}

START_TEST(node_info_golden)
{
	uint8_t b[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_node_info ni;

	b[0] = 1; b[1] = 1; b[2] = 2; b[3] = 36;
	put64(b + 4, 0xf4521403001165a0ULL);
	put64(b + 12, 0xf4521403001165a1ULL);
	put64(b + 20, 0xf4521403001165a2ULL);
	b[28] = 0x00; b[29] = 0x08;		/* partition cap */
	b[30] = 0xc7; b[31] = 0x38;		/* device id */
	b[32] = 0; b[33] = 0; b[34] = 0x0a; b[35] = 0x0b;
	b[36] = 17;				/* local port */
	b[37] = 0x00; b[38] = 0x02; b[39] = 0xc9;	/* vendor */
	ck_assert_int_eq(mad_node_info_decode(b, &ni), 0);
	ck_assert_uint_eq(ni.node_type, MAD_NODE_SWITCH);
	ck_assert_uint_eq(ni.num_ports, 36);
	ck_assert_uint_eq(ni.system_guid, 0xf4521403001165a0ULL);
	ck_assert_uint_eq(ni.node_guid, 0xf4521403001165a1ULL);
	ck_assert_uint_eq(ni.port_guid, 0xf4521403001165a2ULL);
	ck_assert_uint_eq(ni.partition_cap, 8);
	ck_assert_uint_eq(ni.device_id, 0xc738);
	ck_assert_uint_eq(ni.revision, 0x0a0b);
	ck_assert_uint_eq(ni.local_port, 17);
	ck_assert_uint_eq(ni.vendor_id, 0x2c9);
	mad_node_info_encode(&ni, out);
	ck_assert_mem_eq(out, b, sizeof(b));
}
END_TEST

START_TEST(node_info_rejects_nonsense)
{
	uint8_t b[SMP_DATA_SIZE] = { 0 };
	struct mad_node_info ni;

	b[0] = 1; b[1] = 1; b[2] = 1; b[3] = 2;
	put64(b + 12, 0x10);
	b[36] = 1;
	ck_assert_int_eq(mad_node_info_decode(b, &ni), 0);
	b[2] = 9;				/* node type */
	ck_assert_int_eq(mad_node_info_decode(b, &ni), -EBADMSG);
	b[2] = 1; b[36] = 3;			/* local port beyond port count */
	ck_assert_int_eq(mad_node_info_decode(b, &ni), -EBADMSG);
	b[36] = 0;				/* port 0 on a CA */
	ck_assert_int_eq(mad_node_info_decode(b, &ni), -EBADMSG);
	b[36] = 1; b[3] = 0;			/* no ports */
	ck_assert_int_eq(mad_node_info_decode(b, &ni), -EBADMSG);
	b[3] = 2; put64(b + 12, 0);		/* zero GUID */
	ck_assert_int_eq(mad_node_info_decode(b, &ni), -EBADMSG);
}
END_TEST

START_TEST(port_info_golden)
{
	uint8_t b[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_port_info pi;

	put64(b, 0x1111222233334444ULL);	/* M_Key */
	put64(b + 8, 0xfe80000000000000ULL);	/* GID prefix */
	b[16] = 0x00; b[17] = 0x2a;		/* LID 42 */
	b[18] = 0x00; b[19] = 0x01;		/* SM LID 1 */
	b[20] = 0x02; b[21] = 0x51; b[22] = 0x08; b[23] = 0x4a;	/* cap mask */
	b[28] = 3;				/* local port */
	b[29] = 3; b[30] = 3; b[31] = 2;	/* width enabled/supported/active */
	b[32] = 0x74;				/* speed supported 7, state Active */
	b[33] = 0x52;				/* phys LinkUp, link down default 2 */
	b[34] = 0x42;				/* M_Key protect 1, LMC 2 */
	b[35] = 0x47;				/* speed active QDR, enabled 7 */
	b[36] = 0x50;				/* neighbour MTU 5 */
	b[37] = 0x40;				/* VLCap 4 */
	b[41] = 0x04;				/* MTUCap 4 */
	b[43] = 0x30;				/* OperVLs 3 */
	ck_assert_int_eq(mad_port_info_decode(b, &pi), 0);
	ck_assert_uint_eq(pi.mkey, 0x1111222233334444ULL);
	ck_assert_uint_eq(pi.gid_prefix, 0xfe80000000000000ULL);
	ck_assert_uint_eq(pi.lid, 42);
	ck_assert_uint_eq(pi.sm_lid, 1);
	ck_assert_uint_eq(pi.cap_mask, 0x0251084a);
	ck_assert_uint_eq(pi.local_port, 3);
	ck_assert_uint_eq(pi.link_width_active, 2);
	ck_assert_uint_eq(pi.link_speed_supported, 7);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ACTIVE);
	ck_assert_uint_eq(pi.phys_state, MAD_PHYS_LINKUP);
	ck_assert_uint_eq(pi.link_down_default, 2);
	ck_assert_uint_eq(pi.mkey_prot, 1);
	ck_assert_uint_eq(pi.lmc, 2);
	ck_assert_uint_eq(pi.link_speed_active, 4);
	ck_assert_uint_eq(pi.link_speed_enabled, 7);
	ck_assert_uint_eq(pi.neighbor_mtu, 5);
	ck_assert_uint_eq(pi.vl_cap, 4);
	ck_assert_uint_eq(pi.mtu_cap, 4);
	ck_assert_uint_eq(pi.oper_vls, 3);
	mad_port_info_encode(&pi, out);
	ck_assert_mem_eq(out, b, sizeof(b));
	/* every state the IBA defines decodes: ActiveDefer, PhyTest */
	b[32] = 0x75;
	b[33] = 0x72;
	ck_assert_int_eq(mad_port_info_decode(b, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ACTIVE_DEFER);
	ck_assert_uint_eq(pi.phys_state, MAD_PHYS_PHY_TEST);
	ck_assert_str_eq(mad_port_state_name(pi.port_state), "ActiveDefer");
	ck_assert_str_eq(mad_phys_state_name(pi.phys_state), "PhyTest");
	b[32] = 0x76;				/* port state 6 is reserved */
	ck_assert_int_eq(mad_port_info_decode(b, &pi), -EBADMSG);
	b[32] = 0x74;
	b[33] = 0x82;				/* physical state 8 is reserved */
	ck_assert_int_eq(mad_port_info_decode(b, &pi), -EBADMSG);
}
END_TEST

/* IBA 1.5 extended speeds: CapabilityMask2 in bytes 60-61, then
 * LinkSpeedExtActive:4 LinkSpeedExtSupported:4, 3 reserved bits and
 * LinkSpeedExtEnabled:5 (an NDR port enabled for all it supports). */
START_TEST(port_info_ext_speeds_golden)
{
	uint8_t b[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_port_info pi;

	b[20] = 0x00; b[21] = 0x00; b[22] = 0xc0; b[23] = 0x48;	/* ext speeds, CapMask2 */
	b[32] = 0x74;				/* speed supported 7, state Active */
	b[33] = 0x50;				/* phys LinkUp */
	b[35] = 0x47;				/* LinkSpeedActive QDR, enabled 7 */
	b[60] = 0x00; b[61] = 0x12;		/* CapabilityMask2 */
	b[62] = 0x8f;				/* ext active NDR, supported FDR..NDR */
	b[63] = 0x1f;				/* ext enabled: all supported */
	ck_assert_int_eq(mad_port_info_decode(b, &pi), 0);
	ck_assert_uint_eq(pi.cap_mask & MAD_CAP_IS_EXT_SPEEDS_SUPPORTED,
			  MAD_CAP_IS_EXT_SPEEDS_SUPPORTED);
	ck_assert_uint_eq(pi.cap_mask & MAD_CAP_IS_SL_MAPPING_SUPPORTED,
			  MAD_CAP_IS_SL_MAPPING_SUPPORTED);
	ck_assert_uint_eq(pi.cap_mask & MAD_CAP_IS_TRAP_SUPPORTED, MAD_CAP_IS_TRAP_SUPPORTED);
	ck_assert_uint_eq(pi.cap_mask2, 0x12);
	ck_assert_uint_eq(pi.link_speed_ext_active, 8);
	ck_assert_uint_eq(pi.link_speed_ext_supported, 0xf);
	ck_assert_uint_eq(pi.link_speed_ext_enabled, MAD_SPEED_EXT_ENABLE_ALL);
	mad_port_info_encode(&pi, out);
	ck_assert_mem_eq(out, b, sizeof(b));

	/* speed codes: the extended speed wins only where the SM asked for it */
	ck_assert_uint_eq(mad_port_speed_active(&pi, true), MAD_SPEED_NDR);
	ck_assert_uint_eq(mad_port_speed_active(&pi, false), MAD_SPEED_QDR);
	ck_assert_uint_eq(mad_port_speed_supported(&pi, true), 0x7f);
	ck_assert_uint_eq(mad_port_speed_supported(&pi, false), 7);
	pi.link_speed_ext_active = 0;		/* an extended port running QDR */
	ck_assert_uint_eq(mad_port_speed_active(&pi, true), MAD_SPEED_QDR);
	pi.link_speed_ext_active = 4;
	ck_assert_uint_eq(mad_port_speed_active(&pi, true), MAD_SPEED_HDR);
	ck_assert_uint_eq(MAD_PORT_INFO_EXT_SPEEDS | 7, 0x80000007u);

	/* IBA 1.7 XDR, byte 56: reserved:1 ExtActive2:2 ExtSupported2:2
	 * ExtEnabled2:3 (rdma-core's fields at bit offsets 449, 451, 453) */
	b[56] = 0x29;				/* active 1 (XDR), supported 1, enabled 1 */
	ck_assert_int_eq(mad_port_info_decode(b, &pi), 0);
	ck_assert_uint_eq(pi.link_speed_ext_active2, 1);
	ck_assert_uint_eq(pi.link_speed_ext_supported2, 1);
	ck_assert_uint_eq(pi.link_speed_ext_enabled2, 1);
	ck_assert_uint_eq(mad_port_speed_active(&pi, true), MAD_SPEED_XDR);
	ck_assert_uint_eq(mad_port_speed_active(&pi, false), MAD_SPEED_QDR);
	ck_assert_uint_eq(mad_port_speed_supported(&pi, true), 0xff);
	mad_port_info_encode(&pi, out);
	ck_assert_mem_eq(out, b, sizeof(b));
	b[56] = 0xd2;				/* reserved bit set; 2, 2, 2 */
	ck_assert_int_eq(mad_port_info_decode(b, &pi), 0);
	ck_assert_uint_eq(pi.link_speed_ext_active2, 2);
	ck_assert_uint_eq(pi.link_speed_ext_supported2, 2);
	ck_assert_uint_eq(pi.link_speed_ext_enabled2, 2);
	mad_port_info_encode(&pi, out);
	ck_assert_uint_eq(out[56], 0x52);	/* the reserved bit goes out as 0 */
}
END_TEST

START_TEST(switch_info_golden)
{
	uint8_t b[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_switch_info si;

	b[0] = 0xc0; b[1] = 0x00;		/* LinearFDBCap 49152 */
	b[4] = 0x10; b[5] = 0x00;		/* MulticastFDBCap */
	b[6] = 0x01; b[7] = 0x2c;		/* LinearFDBTop 300 */
	b[11] = 0x9c;				/* LifeTime 19, PortStateChange */
	b[12] = 0x00; b[13] = 0x01;		/* LIDsPerPort */
	b[14] = 0x00; b[15] = 0x20;		/* PartitionEnforcementCap */
	b[16] = 0x08;				/* EnhancedPort0 */
	ck_assert_int_eq(mad_switch_info_decode(b, &si), 0);
	ck_assert_uint_eq(si.lft_cap, 49152);
	ck_assert_uint_eq(si.mft_cap, 4096);
	ck_assert_uint_eq(si.lft_top, 300);
	ck_assert_uint_eq(si.life_time, 19);
	ck_assert(si.port_state_change);
	ck_assert_uint_eq(si.lids_per_port, 1);
	ck_assert_uint_eq(si.partition_enf_cap, 32);
	ck_assert(si.enhanced_port0);
	mad_switch_info_encode(&si, out);
	ck_assert_mem_eq(out, b, sizeof(b));
}
END_TEST

START_TEST(sm_info_golden)
{
	uint8_t b[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_sm_info sm;

	put64(b, 0x0002c90300001234ULL);
	put64(b + 8, 0);
	b[16] = 0; b[17] = 0; b[18] = 0x01; b[19] = 0x00;	/* ActCount 256 */
	b[20] = 0xf3;				/* priority 15, MASTER */
	ck_assert_int_eq(mad_sm_info_decode(b, &sm), 0);
	ck_assert_uint_eq(sm.guid, 0x0002c90300001234ULL);
	ck_assert_uint_eq(sm.act_count, 256);
	ck_assert_uint_eq(sm.priority, 15);
	ck_assert_uint_eq(sm.state, MAD_SM_MASTER);
	mad_sm_info_encode(&sm, out);
	ck_assert_mem_eq(out, b, sizeof(b));
	b[20] = 0xf7;				/* state 7 */
	ck_assert_int_eq(mad_sm_info_decode(b, &sm), -EBADMSG);
}
END_TEST

START_TEST(notice_trap128_golden)
{
	uint8_t b[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_notice n;

	b[0] = 0x81;				/* generic, type 1 (urgent) */
	b[1] = 0; b[2] = 0; b[3] = 2;		/* producer: switch */
	b[4] = 0x00; b[5] = 0x80;		/* trap 128 */
	b[6] = 0x00; b[7] = 0x07;		/* issuer LID 7 */
	b[8] = 0x80; b[9] = 0x03;		/* toggle, count 3 */
	b[10] = 0x00; b[11] = 0x07;		/* details: LID 7 */
	ck_assert_int_eq(mad_notice_decode(b, &n), 0);
	ck_assert(n.is_generic);
	ck_assert_uint_eq(n.type, 1);
	ck_assert_uint_eq(n.producer_type, 2);
	ck_assert_uint_eq(n.trap_num, 128);
	ck_assert_uint_eq(n.issuer_lid, 7);
	ck_assert(n.toggle);
	ck_assert_uint_eq(n.count, 3);
	ck_assert_uint_eq(mad_notice_lid(&n), 7);
	mad_notice_encode(&n, out);
	ck_assert_mem_eq(out, b, sizeof(b));

	/* Trap 144 carries its LID after two reserved bytes. */
	n.trap_num = MAD_TRAP_CAPMASK_CHANGE;
	memset(n.details, 0, sizeof(n.details));
	mad_notice_set_lid(&n, 0x1234);
	ck_assert_uint_eq(n.details[2], 0x12);
	ck_assert_uint_eq(n.details[3], 0x34);
}
END_TEST

START_TEST(tables_and_desc)
{
	uint8_t b[SMP_DATA_SIZE], out[SMP_DATA_SIZE];
	struct mad_pkey_block pk;
	struct mad_lft_block lft;
	struct mad_node_desc nd;

	memset(b, 0, sizeof(b));
	b[0] = 0xff; b[1] = 0xff; b[62] = 0x80; b[63] = 0x01;
	mad_pkey_decode(b, &pk);
	ck_assert_uint_eq(pk.pkey[0], 0xffff);
	ck_assert_uint_eq(pk.pkey[31], 0x8001);
	mad_pkey_encode(&pk, out);
	ck_assert_mem_eq(out, b, sizeof(b));

	/* GUIDInfo: eight big-endian GUIDs, entry 0 first */
	struct mad_guid_block gb;
	memset(b, 0, sizeof(b));
	b[0] = 0x00; b[1] = 0x02; b[2] = 0xc9; b[7] = 0x01;
	b[56] = 0x02; b[63] = 0x77;
	mad_guid_info_decode(b, &gb);
	ck_assert_uint_eq(gb.guid[0], 0x0002c90000000001ull);
	ck_assert_uint_eq(gb.guid[1], 0);
	ck_assert_uint_eq(gb.guid[7], 0x0200000000000077ull);
	mad_guid_info_encode(&gb, out);
	ck_assert_mem_eq(out, b, sizeof(b));

	for (int i = 0; i < 64; i++)
		b[i] = (uint8_t)i;
	mad_lft_decode(b, &lft);
	ck_assert_uint_eq(lft.port[63], 63);
	mad_lft_encode(&lft, out);
	ck_assert_mem_eq(out, b, sizeof(b));

	memset(b, 'x', sizeof(b));	/* 64 bytes, no NUL: still terminated */
	mad_node_desc_decode(b, &nd);
	ck_assert_uint_eq(strlen(nd.desc), 64);
	strcpy(nd.desc, "node01 HCA-1");
	mad_node_desc_encode(&nd, out);
	ck_assert_str_eq((char *)out, "node01 HCA-1");
	ck_assert_uint_eq(out[63], 0);
}
END_TEST

/* IBA 14.2.5.8: SL 0 in the high nibble of byte 0, SL 15 in the low nibble of
 * byte 7, bytes 8-63 reserved. */
START_TEST(sl2vl_golden)
{
	uint8_t b[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_sl2vl t;

	b[0] = 0x01; b[1] = 0x23; b[2] = 0x45; b[3] = 0x67;
	b[4] = 0x01; b[5] = 0x23; b[6] = 0x45; b[7] = 0x6f;
	b[8] = 0xaa;				/* reserved: ignored */
	ck_assert_int_eq(mad_sl2vl_decode(b, &t), 0);
	for (unsigned sl = 0; sl < 15; sl++)
		ck_assert_uint_eq(t.vl[sl], sl % 8);
	ck_assert_uint_eq(t.vl[15], 15);
	mad_sl2vl_encode(&t, out);
	b[8] = 0;				/* written as zero */
	ck_assert_mem_eq(out, b, sizeof(b));

	memset(&t, 0, sizeof(t));
	t.vl[1] = 0x13;				/* only 4 bits go out */
	mad_sl2vl_encode(&t, out);
	ck_assert_uint_eq(out[0], 0x03);
	ck_assert_uint_eq(out[1], 0x00);
	ck_assert_uint_eq(MAD_SL2VL_MOD(3, 7), 0x0307);
}
END_TEST

/* Optimized SL to VL programming: SwitchInfo byte 11 bit 0 says a switch takes
 * it (bit 1 is reserved, LifeTimeValue and PortStateChange sit above), and the
 * SLtoVLMappingTable modifier addresses all inputs with bit 17, all outputs
 * with bit 16. */
START_TEST(sl2vl_optimized_bits)
{
	static const struct { uint8_t byte11; uint8_t field; bool opt; } cases[] = {
		{ 0x01, 1, true }, { 0x9f, 3, true }, { 0x02, 2, false },
		{ 0x9e, 2, false }, { 0xfc, 0, false }, { 0x00, 0, false },
	};
	uint8_t b[SMP_DATA_SIZE], out[SMP_DATA_SIZE];
	struct mad_switch_info si;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(b, 0, sizeof(b));
		b[11] = cases[i].byte11;
		ck_assert_int_eq(mad_switch_info_decode(b, &si), 0);
		ck_assert_uint_eq(si.opt_sl2vl, cases[i].field);
		ck_assert_int_eq(mad_switch_opt_sl2vl(&si), cases[i].opt);
		ck_assert_uint_eq(si.life_time, cases[i].byte11 >> 3);
		ck_assert_int_eq(si.port_state_change, (cases[i].byte11 >> 2) & 1);
		mad_switch_info_encode(&si, out);
		ck_assert_mem_eq(out, b, sizeof(b));
	}
	memset(&si, 0, sizeof(si));
	si.opt_sl2vl = MAD_SI_OPT_SL2VL_SUPPORTED;
	mad_switch_info_encode(&si, out);
	ck_assert_uint_eq(out[11], 0x01);

	ck_assert_uint_eq(MAD_SL2VL_MOD_ALL_OUT, 0x10000);
	ck_assert_uint_eq(MAD_SL2VL_MOD_ALL_IN, 0x20000);
	ck_assert_uint_eq(MAD_SL2VL_MOD_ALL_PAIRS, 0x30000);
	ck_assert_uint_eq(MAD_SL2VL_MOD_ALL_IN_TO(36), 0x20024);
	ck_assert_uint_eq(MAD_SL2VL_MOD_RESERVED & (MAD_SL2VL_MOD_ALL_PAIRS | 0xffff), 0);
	ck_assert_uint_eq(MAD_SL2VL_MOD_RESERVED | MAD_SL2VL_MOD_ALL_PAIRS | 0xffff, 0xffffffff);
}
END_TEST

/* VLArbitrationTable: VL in the low nibble of each entry's first byte, the
 * weight in its second; the reserved nibble is dropped and written as 0. */
START_TEST(vlarb_golden)
{
	uint8_t b[SMP_DATA_SIZE] = { 0 }, out[SMP_DATA_SIZE];
	struct mad_vlarb_block t;

	b[0] = 0x00; b[1] = 0x40;		/* VL0 weight 64 */
	b[2] = 0x01; b[3] = 0x40;		/* VL1 weight 64 */
	b[4] = 0x0e; b[5] = 0xff;		/* VL14 weight 255 */
	b[62] = 0xf7; b[63] = 0x01;		/* entry 31: reserved bits set, VL7 */
	ck_assert_int_eq(mad_vlarb_decode(b, &t), 0);
	ck_assert_uint_eq(t.e[0].vl, 0);
	ck_assert_uint_eq(t.e[0].weight, 64);
	ck_assert_uint_eq(t.e[1].vl, 1);
	ck_assert_uint_eq(t.e[2].vl, 14);
	ck_assert_uint_eq(t.e[2].weight, 255);
	ck_assert_uint_eq(t.e[3].weight, 0);
	ck_assert_uint_eq(t.e[31].vl, 7);
	ck_assert_uint_eq(t.e[31].weight, 1);
	mad_vlarb_encode(&t, out);
	b[62] = 0x07;				/* written as zero */
	ck_assert_mem_eq(out, b, sizeof(b));
	t.e[5].vl = 0x1c;			/* only 4 bits go out */
	mad_vlarb_encode(&t, out);
	ck_assert_uint_eq(out[10], 0x0c);
	ck_assert_uint_eq(MAD_VLARB_MOD(MAD_VLARB_LOW_0_31, 5), 0x00010005u);
	ck_assert_uint_eq(MAD_VLARB_MOD(MAD_VLARB_HIGH_32_63, 36), 0x00040024u);
}
END_TEST

START_TEST(names)
{
	char buf[16];
	ck_assert_str_eq(mad_attr_name(MAD_ATTR_SL2VL_TABLE, buf, sizeof(buf)),
			 "SLtoVLMappingTable");
}
END_TEST

static Suite *attr_suite(void)
{
	Suite *s = suite_create("mad_attr");
	TCase *tc = tcase_create("codecs");

	tcase_add_test(tc, node_info_golden);
	tcase_add_test(tc, node_info_rejects_nonsense);
	tcase_add_test(tc, port_info_golden);
	tcase_add_test(tc, port_info_ext_speeds_golden);
	tcase_add_test(tc, switch_info_golden);
	tcase_add_test(tc, sm_info_golden);
	tcase_add_test(tc, notice_trap128_golden);
	tcase_add_test(tc, tables_and_desc);
	tcase_add_test(tc, sl2vl_golden);
	tcase_add_test(tc, sl2vl_optimized_bits);
	tcase_add_test(tc, vlarb_golden);
	tcase_add_test(tc, names);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(attr_suite)

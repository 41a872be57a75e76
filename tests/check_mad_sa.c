// SPDX-License-Identifier: MIT
/*
 * check_mad_sa.c - SA MAD header and record codecs against golden wire bytes
 * (IBA 15.2.1.1, 15.2.5) and libibmad's IB_SA_*, IB_CPI_* field tables, and
 * the decoder's rejection of what is not an SA MAD.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include <infiniband/mad.h>

#include "mad/mad_sa.h"
#include "tests/check_util.h"

/* A GetTable(NodeRecord), TID 0x0102030405060708, SM_Key 0x1122334455667788,
 * ComponentMask NodeGUID, template NodeGUID 0x0002c90300000001. */
static void golden_get_table(uint8_t *b)
{
	memset(b, 0, MAD_BLOCK_SIZE);
	b[0] = 1; b[1] = 0x03; b[2] = 2; b[3] = 0x12;
	for (int i = 0; i < 8; i++)
		b[8 + i] = (uint8_t)(i + 1);	/* TID */
	b[16] = 0x00; b[17] = 0x11;		/* NodeRecord */
	for (int i = 0; i < 8; i++)
		b[36 + i] = (uint8_t)(0x11 * (i + 1));	/* SM_Key */
	b[55] = 0x80;				/* ComponentMask bit 7 */
	static const uint8_t guid[8] = { 0x00, 0x02, 0xc9, 0x03, 0, 0, 0, 0x01 };
	memcpy(b + 56 + 16, guid, 8);		/* record byte 16: NodeInfo.NodeGUID */
}

START_TEST(encode_matches_golden)
{
	uint8_t want[MAD_BLOCK_SIZE], got[MAD_BLOCK_SIZE];
	struct mad_sa sa = {
		.base_version = 1, .mgmt_class = MAD_CLASS_SA,
		.class_version = MAD_SA_CLASS_VERSION, .method = MAD_SA_METHOD_GET_TABLE,
		.tid = 0x0102030405060708ULL, .attr_id = MAD_SA_ATTR_NODE_RECORD,
		.sm_key = 0x1122334455667788ULL, .comp_mask = MAD_SA_NR_NODE_GUID,
	};
	struct mad_sa_node_record nr = { .info.node_guid = 0x0002c90300000001ULL };

	golden_get_table(want);
	mad_sa_node_record_encode(&nr, sa.data);
	mad_sa_encode(&sa, got);
	ck_assert_mem_eq(got, want, MAD_BLOCK_SIZE);
	/* libibmad's SA header fields read the same values */
	ck_assert_uint_eq(mad_get_field64(got, 0, IB_SA_MKEY_F), sa.sm_key);
	ck_assert_uint_eq(mad_get_field64(got, 0, IB_SA_COMPMASK_F), MAD_SA_NR_NODE_GUID);
}
END_TEST

START_TEST(decode_golden)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_sa sa;
	struct mad_sa_node_record nr;

	golden_get_table(b);
	b[24] = 1; b[25] = 1; b[26] = 0x07; b[28 + 3] = 1;	/* RMPP DATA, A|F|L, seg 1 */
	b[44] = 0; b[45] = 14;				/* AttributeOffset */
	ck_assert_int_eq(mad_sa_decode(b, sizeof(b), &sa), 0);
	ck_assert_uint_eq(sa.method, MAD_SA_METHOD_GET_TABLE);
	ck_assert_uint_eq(sa.class_version, 2);
	ck_assert_uint_eq(sa.tid, 0x0102030405060708ULL);
	ck_assert_uint_eq(sa.attr_id, MAD_SA_ATTR_NODE_RECORD);
	ck_assert_uint_eq(sa.sm_key, 0x1122334455667788ULL);
	ck_assert_uint_eq(sa.comp_mask, MAD_SA_NR_NODE_GUID);
	ck_assert_uint_eq(sa.attr_offset, 14);
	ck_assert_uint_eq(sa.rmpp.version, 1);
	ck_assert_uint_eq(sa.rmpp.flags, 7);
	ck_assert_uint_eq(sa.rmpp.data1, 1);
	ck_assert_uint_eq(mad_get_field(b, 0, IB_SA_RMPP_FLAGS_F), sa.rmpp.flags);
	mad_sa_node_record_decode(sa.data, &nr);
	ck_assert_uint_eq(nr.info.node_guid, 0x0002c90300000001ULL);
	ck_assert_uint_eq(nr.lid, 0);
}
END_TEST

START_TEST(decode_rejects)
{
	uint8_t b[MAD_BLOCK_SIZE];
	struct mad_sa sa;

	golden_get_table(b);
	ck_assert_int_eq(mad_sa_decode(b, MAD_BLOCK_SIZE - 1, &sa), -EMSGSIZE);
	b[1] = 0x81;
	ck_assert_int_eq(mad_sa_decode(b, sizeof(b), &sa), -EPROTONOSUPPORT);
	b[1] = 0x03; b[0] = 2;
	ck_assert_int_eq(mad_sa_decode(b, sizeof(b), &sa), -EPROTONOSUPPORT);
	/* a class version or method we do not serve still decodes: the agent
	 * answers it with a status */
	b[0] = 1; b[2] = 7; b[3] = 0x7f;
	ck_assert_int_eq(mad_sa_decode(b, sizeof(b), &sa), 0);
	ck_assert_uint_eq(sa.class_version, 7);
	ck_assert_uint_eq(sa.method, 0x7f);
}
END_TEST

START_TEST(make_response)
{
	struct mad_sa sa = { .method = MAD_SA_METHOD_GET_TABLE, .tid = 9,
			     .rmpp = { .version = 1, .flags = 7 }, .attr_offset = 3 };

	sa.data[0] = 0xaa;
	mad_sa_make_response(&sa, MAD_SA_ERR_NO_RECORDS);
	ck_assert_uint_eq(sa.method, MAD_SA_METHOD_GET_TABLE_RESP);
	ck_assert_uint_eq(sa.status, 0x0300);
	ck_assert_uint_eq(sa.tid, 9);
	ck_assert_uint_eq(sa.rmpp.version, 0);
	ck_assert_uint_eq(sa.attr_offset, 0);
	ck_assert_uint_eq(sa.data[0], 0);
	sa.method = MAD_SA_METHOD_DELETE;
	mad_sa_make_response(&sa, 0);
	ck_assert_uint_eq(sa.method, MAD_SA_METHOD_DELETE_RESP);
	sa.method = MAD_SA_METHOD_SET;
	mad_sa_make_response(&sa, 0);
	ck_assert_uint_eq(sa.method, MAD_SA_METHOD_GET_RESP);
}
END_TEST

START_TEST(class_port_info_fields)
{
	struct mad_class_port_info cpi = {
		.base_version = 1, .class_version = 2, .cap_mask = 0x2602,
		.cap_mask2 = 0x5a5a5a5, .resp_time_value = 18,
		.redirect_tc = 0xab, .redirect_sl = 0xc, .redirect_fl = 0xfedcb,
		.redirect_lid = 0x1234, .redirect_pkey = 0xffff, .redirect_qp = 0xabcdef,
		.redirect_qkey = 0x80010000, .trap_tc = 0x12, .trap_sl = 3,
		.trap_fl = 0x54321, .trap_lid = 0x4321, .trap_pkey = 0x7fff, .trap_hl = 0xfe,
		.trap_qp = 0x123456, .trap_qkey = 0x11223344,
	}, back;
	uint8_t d[MAD_SA_DATA_SIZE];

	for (int i = 0; i < MAD_GID_LEN; i++) {
		cpi.redirect_gid[i] = (uint8_t)(0xf0 + i);
		cpi.trap_gid[i] = (uint8_t)(0x10 + i);
	}
	memset(d, 0xee, sizeof(d));
	mad_class_port_info_encode(&cpi, d);
	ck_assert_uint_eq(d[MAD_CLASS_PORT_INFO_SIZE], 0xee);	/* stays in its 72 bytes */
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_BASEVER_F), 1);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_CLASSVER_F), 2);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_CAPMASK_F), 0x2602);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_CAPMASK2_F), 0x5a5a5a5);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_RESP_TIME_VALUE_F), 18);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_REDIRECT_TC_F), 0xab);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_REDIRECT_SL_F), 0xc);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_REDIRECT_FL_F), 0xfedcb);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_REDIRECT_LID_F), 0x1234);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_REDIRECT_PKEY_F), 0xffff);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_REDIRECT_QP_F), 0xabcdef);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_REDIRECT_QKEY_F), 0x80010000);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_TRAP_TC_F), 0x12);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_TRAP_SL_F), 3);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_TRAP_FL_F), 0x54321);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_TRAP_LID_F), 0x4321);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_TRAP_PKEY_F), 0x7fff);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_TRAP_HL_F), 0xfe);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_TRAP_QP_F), 0x123456);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_CPI_TRAP_QKEY_F), 0x11223344);
	uint8_t gid[MAD_GID_LEN];
	mad_decode_field(d, IB_CPI_REDIRECT_GID_F, gid);
	ck_assert_mem_eq(gid, cpi.redirect_gid, MAD_GID_LEN);
	mad_decode_field(d, IB_CPI_TRAP_GID_F, gid);
	ck_assert_mem_eq(gid, cpi.trap_gid, MAD_GID_LEN);
	mad_class_port_info_decode(d, &back);
	ck_assert_mem_eq(&back, &cpi, sizeof(cpi));
}
END_TEST

/* A PathRecord with every field set, as IBA 15.2.5.16 lays it out. */
static const uint8_t golden_path[MAD_SA_PATH_RECORD_SIZE] = {
	[0] = 0x10, [7] = 0x01,				/* ServiceID */
	[8] = 0xfe, [9] = 0x80, [23] = 0x02,		/* DGID fe80::2 */
	[24] = 0xfe, [25] = 0x80, [39] = 0x01,		/* SGID fe80::1 */
	[40] = 0x00, [41] = 0x07,			/* DLID 7 */
	[42] = 0x00, [43] = 0x03,			/* SLID 3 */
	[44] = 0x80 | 0x01, [45] = 0x23, [46] = 0x45, [47] = 0x40,	/* raw, FL 0x12345, HL 64 */
	[48] = 0x0c,					/* TClass */
	[49] = 0x80 | 0x7f,				/* reversible, NumbPath 127 */
	[50] = 0xff, [51] = 0xff,			/* P_Key */
	[52] = 0x12, [53] = 0x35,			/* QosClass 0x123, SL 5 */
	[54] = 0x80 | 5,				/* MTU selector 2, 4096 */
	[55] = 0x80 | 16,				/* rate selector 2, 100 Gb/s */
	[56] = 0x40 | 18,				/* lifetime selector 1, 18 */
	[57] = 0x09,					/* Preference */
};

START_TEST(path_record_golden)
{
	struct mad_sa_path_record pr = {
		.service_id = 0x1000000000000001ULL, .dlid = 7, .slid = 3,
		.raw_traffic = true, .flow_label = 0x12345, .hop_limit = 64, .tclass = 0x0c,
		.reversible = true, .numb_path = 127, .pkey = 0xffff, .qos_class = 0x123,
		.sl = 5, .mtu_selector = 2, .mtu = 5, .rate_selector = 2, .rate = 16,
		.lifetime_selector = 1, .packet_lifetime = 18, .preference = 9,
	}, back;
	uint8_t d[MAD_SA_PATH_RECORD_SIZE];

	pr.dgid[0] = 0xfe; pr.dgid[1] = 0x80; pr.dgid[15] = 2;
	pr.sgid[0] = 0xfe; pr.sgid[1] = 0x80; pr.sgid[15] = 1;
	mad_sa_path_record_encode(&pr, d);
	ck_assert_mem_eq(d, golden_path, sizeof(d));
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_PR_DLID_F), 7);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_PR_SLID_F), 3);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_PR_NPATH_F), 127);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_PR_SL_F), 5);
	uint8_t gid[MAD_GID_LEN];
	mad_decode_field(d, IB_SA_PR_DGID_F, gid);
	ck_assert_mem_eq(gid, pr.dgid, MAD_GID_LEN);
	mad_decode_field(d, IB_SA_PR_SGID_F, gid);
	ck_assert_mem_eq(gid, pr.sgid, MAD_GID_LEN);
	mad_sa_path_record_decode(golden_path, &back);
	ck_assert_mem_eq(&back, &pr, sizeof(pr));
}
END_TEST

/* MultiPathRecord (IBA 15.2.5.20): the fixed part at its offsets (as
 * OpenSM's ib_multipath_rec_t lays it out), then SGIDs and DGIDs. */
static const uint8_t golden_multipath[MAD_SA_DATA_SIZE] = {
	[0] = 0x81, 0x23, 0x45, 0x40,			/* RawTraffic, FlowLabel, HopLimit 64 */
	[4] = 0x0c,					/* TClass */
	[5] = 0x80 | 4,					/* Reversible, NumbPath 4 */
	[6] = 0x80, 0x01,				/* P_Key */
	[8] = 0x12, 0x35,				/* QoSClass 0x123, SL 5 */
	[10] = 0x80 | 4,				/* MTU selector 2, 2048 */
	[11] = 0xc0 | 7,				/* rate selector 3, 40 Gb/s */
	[12] = 0x40 | 18,				/* lifetime selector 1, 18 */
	[13] = 0x10,					/* ServiceID 8 MSBs */
	[14] = 0x40,					/* IndependenceSelector 1 */
	[15] = 2, 1,					/* SGIDCount, DGIDCount */
	[17] = 0, 0, 0, 0, 0, 0, 0x2a,			/* ServiceID 56 LSBs */
	[24] = 0xfe, 0x80, [39] = 1,			/* SGID 1 */
	[40] = 0xfe, 0x80, [55] = 2,			/* SGID 2 */
	[56] = 0xfe, 0x80, [71] = 3,			/* DGID */
};

START_TEST(multipath_record_golden)
{
	struct mad_sa_multipath_record r = {
		.path = { .raw_traffic = true, .flow_label = 0x12345, .hop_limit = 64,
			  .tclass = 0x0c, .reversible = true, .numb_path = 4, .pkey = 0x8001,
			  .qos_class = 0x123, .sl = 5, .mtu_selector = 2, .mtu = 4,
			  .rate_selector = 3, .rate = 7, .lifetime_selector = 1,
			  .packet_lifetime = 18, .service_id = 0x100000000000002aULL },
		.independence = 1, .sgid_count = 2, .dgid_count = 1,
	}, back;
	uint8_t d[MAD_SA_DATA_SIZE];

	for (int g = 0; g < 3; g++) {
		r.gids[g][0] = 0xfe;
		r.gids[g][1] = 0x80;
		r.gids[g][15] = (uint8_t)(g + 1);
	}
	mad_sa_multipath_record_encode(&r, d, sizeof(d));
	ck_assert_mem_eq(d, golden_multipath, sizeof(d));
	mad_sa_multipath_record_decode(golden_multipath, sizeof(golden_multipath), &back);
	ck_assert_mem_eq(&back, &r, sizeof(r));
	ck_assert_uint_eq(mad_sa_record_size(MAD_SA_ATTR_MULTIPATH_RECORD), 24);
	/* counts past what the bytes hold: the GIDs there, the counts as sent */
	memset(d, 0xff, sizeof(d));
	mad_sa_multipath_record_decode(d, 24 + 2 * MAD_GID_LEN, &back);
	ck_assert_uint_eq(back.sgid_count, 255);
	ck_assert_uint_eq(back.gids[1][15], 0xff);
	ck_assert_uint_eq(back.gids[2][0], 0);
	mad_sa_multipath_record_decode(d, 10, &back);	/* too short: nothing */
	ck_assert_uint_eq(back.sgid_count, 0);
}
END_TEST

/* InformInfoRecord (IBA 15.2.5.12): SubscriberGID, Enum, 6 reserved bytes,
 * the InformInfo at 24 (OpenSM's ib_inform_info_record_t). */
START_TEST(inform_info_record_layout)
{
	struct mad_sa_inform_info_record r = { .enumeration = 0x0102,
					       .ii = { .trap_num = 64, .qpn = 1 } }, back;
	uint8_t d[MAD_SA_INFORM_INFO_RECORD_SIZE], ii[MAD_SA_INFORM_INFO_SIZE];

	r.subscriber_gid[0] = 0xfe;
	r.subscriber_gid[15] = 7;
	mad_sa_inform_info_record_encode(&r, d);
	ck_assert_uint_eq(d[0], 0xfe);
	ck_assert_uint_eq(d[15], 7);
	ck_assert_uint_eq(d[16], 1);
	ck_assert_uint_eq(d[17], 2);
	for (int i = 18; i < 24; i++)
		ck_assert_uint_eq(d[i], 0);
	mad_sa_inform_info_encode(&r.ii, ii);
	ck_assert_mem_eq(d + 24, ii, sizeof(ii));
	mad_sa_inform_info_record_decode(d, &back);
	ck_assert_mem_eq(&back, &r, sizeof(r));
	ck_assert_uint_eq(mad_sa_record_size(MAD_SA_ATTR_INFORM_INFO_RECORD), 60);
}
END_TEST

START_TEST(node_record_layout)
{
	struct mad_sa_node_record nr = {
		.lid = 0x0102,
		.info = { .base_version = 1, .class_version = 1, .node_type = MAD_NODE_SWITCH,
			  .num_ports = 36, .system_guid = 0x1111, .node_guid = 0x2222,
			  .port_guid = 0x3333, .partition_cap = 8, .device_id = 0xcf08,
			  .revision = 0xa0, .local_port = 5, .vendor_id = 0x0002c9 },
	}, back;
	uint8_t d[MAD_SA_DATA_SIZE];

	strcpy(nr.desc.desc, "leaf01 switch");
	memset(d, 0xee, sizeof(d));
	mad_sa_node_record_encode(&nr, d);
	ck_assert_uint_eq(d[MAD_SA_NODE_RECORD_SIZE], 0xee);
	ck_assert_uint_eq(d[0], 0x01); ck_assert_uint_eq(d[1], 0x02);	/* LID */
	ck_assert_uint_eq(d[2], 0); ck_assert_uint_eq(d[3], 0);		/* reserved */
	ck_assert_uint_eq(d[4 + 2], MAD_NODE_SWITCH);			/* NodeType */
	ck_assert_uint_eq(d[4 + 3], 36);				/* NumPorts */
	ck_assert_uint_eq(d[4 + 19], 0x22);				/* NodeGUID low byte */
	ck_assert_uint_eq(d[4 + 36], 5);				/* LocalPortNum */
	ck_assert_uint_eq(d[4 + 39], 0xc9);				/* VendorID low byte */
	ck_assert_str_eq((const char *)d + 44, "leaf01 switch");	/* NodeDescription */
	ck_assert_uint_eq(d[44 + 63], 0);
	mad_sa_node_record_decode(d, &back);
	ck_assert_mem_eq(&back, &nr, sizeof(nr));
	ck_assert_uint_eq(mad_sa_attr_offset(MAD_SA_NODE_RECORD_SIZE), 14);
	ck_assert_uint_eq(mad_sa_record_size(MAD_SA_ATTR_NODE_RECORD), 108);
}
END_TEST

START_TEST(node_record_template_not_judged)
{
	/* a query template: only NodeGUID set, node type 0 (no device sends that) */
	uint8_t d[MAD_SA_NODE_RECORD_SIZE] = { 0 };
	struct mad_sa_node_record nr;

	d[4 + 19] = 0x42;
	mad_sa_node_record_decode(d, &nr);
	ck_assert_uint_eq(nr.info.node_guid, 0x42);
	ck_assert_uint_eq(nr.info.node_type, 0);
}
END_TEST

START_TEST(port_info_record_layout)
{
	struct mad_sa_port_info_record pir = {
		.lid = 0x0203, .port_num = 17, .options = 0,
		.info = { .lid = 0x0203, .sm_lid = 1, .lmc = 2, .port_state = MAD_PORT_ACTIVE,
			  .phys_state = MAD_PHYS_LINKUP, .mtu_cap = 5, .cap_mask = 0x02510868,
			  .local_port = 17 },
	}, back;
	uint8_t d[MAD_SA_DATA_SIZE];

	memset(d, 0xee, sizeof(d));
	mad_sa_port_info_record_encode(&pir, d);
	ck_assert_uint_eq(d[MAD_SA_PORT_INFO_RECORD_SIZE], 0xee);
	ck_assert_uint_eq(d[0], 0x02); ck_assert_uint_eq(d[1], 0x03);	/* EndportLID */
	ck_assert_uint_eq(d[2], 17);					/* PortNum */
	ck_assert_uint_eq(mad_get_field(d + 4, 0, IB_PORT_LID_F), 0x0203);
	ck_assert_uint_eq(mad_get_field(d + 4, 0, IB_PORT_CAPMASK_F), 0x02510868);
	ck_assert_uint_eq(mad_get_field(d + 4, 0, IB_PORT_STATE_F), MAD_PORT_ACTIVE);
	mad_sa_port_info_record_decode(d, &back);
	ck_assert_mem_eq(&back, &pir, sizeof(pir));
	ck_assert_uint_eq(mad_sa_attr_offset(MAD_SA_PORT_INFO_RECORD_SIZE), 9);
}
END_TEST

/* The records of IBA 15.2.5 added with the switch and port tables: fields at
 * their byte offsets, and each decodes back to what was encoded. */
START_TEST(table_record_layouts)
{
	uint8_t d[MAD_SA_DATA_SIZE];

	static struct mad_sa_link_record lr = { .from_lid = 0x0102, .from_port = 3, .to_port = 4,
					 .to_lid = 0x0506 }, lb;
	memset(d, 0xee, sizeof(d));
	mad_sa_link_record_encode(&lr, d);
	static const uint8_t link[] = { 1, 2, 3, 4, 5, 6, 0, 0, 0xee };
	ck_assert_mem_eq(d, link, sizeof(link));
	mad_sa_link_record_decode(d, &lb);
	ck_assert_mem_eq(&lb, &lr, sizeof(lr));

	static struct mad_sa_lft_record ft = { .lid = 0x0a0b, .block = 0x0102 }, fb;
	for (int i = 0; i < MAD_LFT_BLOCK; i++)
		ft.lft.port[i] = (uint8_t)i;
	mad_sa_lft_record_encode(&ft, d);
	ck_assert_uint_eq(d[0], 0x0a); ck_assert_uint_eq(d[3], 0x02);
	ck_assert_uint_eq(d[8], 0); ck_assert_uint_eq(d[8 + 63], 63);
	mad_sa_lft_record_decode(d, &fb);
	ck_assert_mem_eq(&fb, &ft, sizeof(ft));

	static struct mad_sa_mft_record mt = { .lid = 1, .position = 0xa, .block = 0x1ff }, mb;
	mt.mask[31] = 0xbeef;
	mad_sa_mft_record_encode(&mt, d);
	ck_assert_uint_eq(d[2], 0xa1); ck_assert_uint_eq(d[3], 0xff);
	ck_assert_uint_eq(d[70], 0xbe); ck_assert_uint_eq(d[71], 0xef);
	mad_sa_mft_record_decode(d, &mb);
	ck_assert_mem_eq(&mb, &mt, sizeof(mt));

	static struct mad_sa_guid_info_record gt = { .lid = 0x0304, .block = 2 }, gb;
	gt.guid[0] = 0x0002c90300001234ULL;
	gt.guid[7] = 0x77;
	mad_sa_guid_info_record_encode(&gt, d);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_GIR_LID_F), 0x0304);
	ck_assert_uint_eq(mad_get_field(d, 0, IB_SA_GIR_BLOCKNUM_F), 2);
	ck_assert_uint_eq(mad_get_field64(d, 0, IB_SA_GIR_GUID0_F), gt.guid[0]);
	ck_assert_uint_eq(mad_get_field64(d, 0, IB_SA_GIR_GUID7_F), 0x77);
	mad_sa_guid_info_record_decode(d, &gb);
	ck_assert_mem_eq(&gb, &gt, sizeof(gt));

	static struct mad_sa_pkey_table_record pt = { .lid = 9, .block = 0x0201, .port_num = 7 }, pb;
	pt.table.pkey[0] = 0xffff;
	pt.table.pkey[31] = 0x8001;
	mad_sa_pkey_table_record_encode(&pt, d);
	ck_assert_uint_eq(d[2], 2); ck_assert_uint_eq(d[3], 1); ck_assert_uint_eq(d[4], 7);
	ck_assert_uint_eq(d[8], 0xff); ck_assert_uint_eq(d[70], 0x80);
	mad_sa_pkey_table_record_decode(d, &pb);
	ck_assert_mem_eq(&pb, &pt, sizeof(pt));

	static struct mad_sa_sl2vl_record st = { .lid = 3, .in_port = 1, .out_port = 2 }, sb;
	for (int i = 0; i < MAD_NUM_SL; i++)
		st.table.vl[i] = (uint8_t)(i % 8);
	mad_sa_sl2vl_record_encode(&st, d);
	ck_assert_uint_eq(d[2], 1); ck_assert_uint_eq(d[3], 2);
	ck_assert_uint_eq(d[8], 0x01); ck_assert_uint_eq(d[15], 0x67);
	mad_sa_sl2vl_record_decode(d, &sb);
	ck_assert_mem_eq(&sb, &st, sizeof(st));

	struct mad_sa_sm_info_record mi = { .lid = 0x0102, .info = {
		.guid = 0x1122334455667788ULL, .sm_key = 0x99, .act_count = 0xabcdef01,
		.priority = 14, .state = 3 } }, mib;
	memset(d, 0xee, sizeof(d));
	mad_sa_sm_info_record_encode(&mi, d);
	ck_assert_uint_eq(d[4], 0x11); ck_assert_uint_eq(d[12 + 7], 0x99);
	ck_assert_uint_eq(d[20], 0xab); ck_assert_uint_eq(d[24], 14 << 4 | 3);
	ck_assert_uint_eq(d[25], 0xee);
	mad_sa_sm_info_record_decode(d, &mib);
	ck_assert_uint_eq(mib.lid, mi.lid);
	ck_assert_uint_eq(mib.info.guid, mi.info.guid);
	ck_assert_uint_eq(mib.info.sm_key, mi.info.sm_key);
	ck_assert_uint_eq(mib.info.act_count, mi.info.act_count);
	ck_assert_uint_eq(mib.info.priority, 14);
	ck_assert_uint_eq(mib.info.state, 3);

	struct mad_sa_switch_info_record si = { .lid = 4, .info = { .lft_cap = 0xc000,
		.lft_top = 0x0123, .mft_cap = 0x200, .default_port = 0, .life_time = 18,
		.lids_per_port = 1, .partition_enf_cap = 32, .mft_top = 0xc100 } }, sib;
	memset(d, 0xee, sizeof(d));
	mad_sa_switch_info_record_encode(&si, d);
	ck_assert_uint_eq(d[4], 0xc0); ck_assert_uint_eq(d[4 + 6], 0x01);
	ck_assert_uint_eq(mad_get_field(d + 4, 0, IB_SW_LINEAR_FDB_TOP_F), 0x0123);
	ck_assert_uint_eq(mad_get_field(d + 4, 0, IB_SW_MCAST_FDB_TOP_F), 0xc100);
	ck_assert_uint_eq(d[24], 0xee);
	mad_sa_switch_info_record_decode(d, &sib);
	ck_assert_uint_eq(sib.info.lft_top, 0x0123);
	ck_assert_uint_eq(sib.info.mft_top, 0xc100);
	ck_assert_uint_eq(sib.info.partition_enf_cap, 32);
	ck_assert_uint_eq(mad_sa_record_size(MAD_SA_ATTR_SM_INFO_RECORD), 25);

	static struct mad_sa_service_record sr = { .id = 0x0102030405060708ULL, .pkey = 0xffff,
		.lease = 0x11223344, .data8 = { [15] = 0x88 }, .data16 = { [7] = 0x1616 },
		.data32 = { [3] = 0x32323232 }, .data64 = { [1] = 0x6464646464646464ULL } }, srb;
	sr.gid[0] = 0xfe;
	sr.key[15] = 0x99;
	strcpy(sr.name, "svc");
	mad_sa_service_record_encode(&sr, d);
	ck_assert_uint_eq(d[7], 0x08); ck_assert_uint_eq(d[8], 0xfe);
	ck_assert_uint_eq(d[24], 0xff); ck_assert_uint_eq(d[28], 0x11);
	ck_assert_uint_eq(d[47], 0x99); ck_assert_uint_eq(d[48], 's');
	ck_assert_uint_eq(d[127], 0x88); ck_assert_uint_eq(d[142], 0x16);
	ck_assert_uint_eq(d[156], 0x32); ck_assert_uint_eq(d[175], 0x64);
	mad_sa_service_record_decode(d, &srb);
	ck_assert_mem_eq(&srb, &sr, sizeof(sr));

	static struct mad_sa_inform_info ii = { .lid_begin = 0xffff, .lid_end = 0x1234,
		.is_generic = true, .subscribe = true, .type = 4, .trap_num = 64,
		.qpn = 0xabcdef, .resp_time = 18, .producer_type = 0x654321 }, iib;
	ii.gid[15] = 7;
	mad_sa_inform_info_encode(&ii, d);
	ck_assert_uint_eq(d[15], 7); ck_assert_uint_eq(d[16], 0xff); ck_assert_uint_eq(d[19], 0x34);
	ck_assert_uint_eq(d[22], 1); ck_assert_uint_eq(d[23], 1); ck_assert_uint_eq(d[27], 64);
	ck_assert_uint_eq(d[28], 0xab); ck_assert_uint_eq(d[31], 18);
	ck_assert_uint_eq(d[33], 0x65); ck_assert_uint_eq(d[35], 0x21);
	mad_sa_inform_info_decode(d, &iib);
	ck_assert_mem_eq(&iib, &ii, sizeof(ii));
	struct mad_sa_notice no = { .n = { .is_generic = true, .type = 4, .producer_type = 4,
					   .trap_num = 65, .issuer_lid = 0x0102 } }, nob;
	no.n.details[6] = 0xfe;
	no.issuer_gid[15] = 9;
	mad_sa_notice_encode(&no, d);
	ck_assert_uint_eq(d[0], 0x84); ck_assert_uint_eq(d[5], 65);
	ck_assert_uint_eq(d[6], 1); ck_assert_uint_eq(d[16], 0xfe); ck_assert_uint_eq(d[79], 9);
	mad_sa_notice_decode(d, &nob);
	ck_assert_uint_eq(nob.n.trap_num, 65);
	ck_assert_uint_eq(nob.n.issuer_lid, 0x0102);
	ck_assert_uint_eq(nob.n.details[6], 0xfe);
	ck_assert_uint_eq(nob.issuer_gid[15], 9);
	ck_assert_uint_eq(mad_sa_attr_offset(MAD_SA_SM_INFO_RECORD_SIZE), 4);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("mad_sa");
	TCase *tc = tcase_create("codec");

	tcase_add_test(tc, encode_matches_golden);
	tcase_add_test(tc, decode_golden);
	tcase_add_test(tc, decode_rejects);
	tcase_add_test(tc, make_response);
	tcase_add_test(tc, class_port_info_fields);
	tcase_add_test(tc, path_record_golden);
	tcase_add_test(tc, multipath_record_golden);
	tcase_add_test(tc, inform_info_record_layout);
	tcase_add_test(tc, node_record_layout);
	tcase_add_test(tc, node_record_template_not_judged);
	tcase_add_test(tc, port_info_record_layout);
	tcase_add_test(tc, table_record_layouts);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

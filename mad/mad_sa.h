/* SPDX-License-Identifier: MIT */
/*
 * mad_sa.h - subnet administration (SA) MADs as host structures.
 *
 * IBA 1.x chapter 15: an SA MAD is a 256-byte GMP of management class 0x03,
 * class version 2, sent to QP1.  After the common header (13.4.3, bytes 0-23)
 * come the RMPP header (13.6.2, bytes 24-35), the SA header (15.2.1.1: SM_Key,
 * AttributeOffset, ComponentMask, bytes 36-55) and 200 bytes of SA data.  The
 * records this file knows (15.2.5): ClassPortInfo (13.4.8.1), NodeRecord,
 * PortInfoRecord, SL2VLTableRecord, SwitchInfoRecord, LinearForwardingTableRecord,
 * MulticastForwardingTableRecord, SMInfoRecord, LinkRecord, GUIDInfoRecord,
 * P_KeyTableRecord, PathRecord.  Only mad_sa_encode()/mad_sa_decode() and the
 * record codecs see wire bytes; the record codecs never judge the values (a
 * query's template may hold anything in the fields its ComponentMask leaves
 * out), they only place them.
 */
#ifndef IBSMD_MAD_SA_H
#define IBSMD_MAD_SA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_attr.h"
#include "mad/mad_gmp.h"

#define MAD_CLASS_SA 0x03
#define MAD_SA_CLASS_VERSION 2
#define MAD_SA_DATA_OFFSET 56
#define MAD_SA_DATA_SIZE 200
#define MAD_GID_LEN 16
/* AttributeOffset counts 8-byte words (IBA 15.2.1.1). */
#define MAD_SA_ATTR_OFFSET_UNIT 8

enum mad_sa_method {
	MAD_SA_METHOD_GET = 0x01,
	MAD_SA_METHOD_SET = 0x02,
	MAD_SA_METHOD_GET_RESP = 0x81,
	MAD_SA_METHOD_GET_TABLE = 0x12,
	MAD_SA_METHOD_GET_TABLE_RESP = 0x92,
	MAD_SA_METHOD_GET_MULTI = 0x14,
	MAD_SA_METHOD_GET_MULTI_RESP = 0x94,
	MAD_SA_METHOD_DELETE = 0x15,
	MAD_SA_METHOD_DELETE_RESP = 0x95,
	MAD_SA_METHOD_REPORT = 0x06,
	MAD_SA_METHOD_REPORT_RESP = 0x86,
};

enum mad_sa_attr_id {
	MAD_SA_ATTR_CLASS_PORT_INFO = 0x0001,
	MAD_SA_ATTR_NOTICE = 0x0002,
	MAD_SA_ATTR_INFORM_INFO = 0x0003,
	MAD_SA_ATTR_NODE_RECORD = 0x0011,
	MAD_SA_ATTR_PORT_INFO_RECORD = 0x0012,
	MAD_SA_ATTR_SL2VL_RECORD = 0x0013,
	MAD_SA_ATTR_SWITCH_INFO_RECORD = 0x0014,
	MAD_SA_ATTR_LFT_RECORD = 0x0015,
	MAD_SA_ATTR_MFT_RECORD = 0x0017,
	MAD_SA_ATTR_SM_INFO_RECORD = 0x0018,
	MAD_SA_ATTR_LINK_RECORD = 0x0020,
	MAD_SA_ATTR_GUID_INFO_RECORD = 0x0030,
	MAD_SA_ATTR_SERVICE_RECORD = 0x0031,
	MAD_SA_ATTR_PKEY_TABLE_RECORD = 0x0033,
	MAD_SA_ATTR_PATH_RECORD = 0x0035,
	MAD_SA_ATTR_MULTIPATH_RECORD = 0x003a,
	MAD_SA_ATTR_INFORM_INFO_RECORD = 0x00f3,
};

/* SA status codes, MAD status bits 15:8 (IBA 15.2.1.1, table 187). */
#define MAD_SA_STATUS(c) ((uint16_t)((c) << 8))
#define MAD_SA_ERR_NO_RESOURCES MAD_SA_STATUS(1)
#define MAD_SA_ERR_REQ_INVALID MAD_SA_STATUS(2)
#define MAD_SA_ERR_NO_RECORDS MAD_SA_STATUS(3)
#define MAD_SA_ERR_TOO_MANY_RECORDS MAD_SA_STATUS(4)
#define MAD_SA_ERR_REQ_INVALID_GID MAD_SA_STATUS(5)
#define MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS MAD_SA_STATUS(6)
#define MAD_SA_ERR_REQ_DENIED MAD_SA_STATUS(7)	/* not the requester's to ask */

/* Record sizes on the wire and their AttributeOffset (IBA 15.2.5). */
#define MAD_SA_NODE_RECORD_SIZE 108
#define MAD_SA_PORT_INFO_RECORD_SIZE 68
#define MAD_SA_PATH_RECORD_SIZE 64
/* MultiPathRecord: the fixed part, then SGIDCount + DGIDCount GIDs (as many
 * as the 200 bytes of one MAD's data hold: 11). */
#define MAD_SA_MULTIPATH_RECORD_SIZE 24
#define MAD_SA_MULTIPATH_MAX_GIDS (255 + 255)	/* SGIDCount and DGIDCount are 8 bits */
#define MAD_CLASS_PORT_INFO_SIZE 72
#define MAD_SA_SL2VL_RECORD_SIZE 16
#define MAD_SA_SWITCH_INFO_RECORD_SIZE 24
#define MAD_SA_LFT_RECORD_SIZE 72
#define MAD_SA_MFT_RECORD_SIZE 72
#define MAD_SA_SM_INFO_RECORD_SIZE 25
#define MAD_SA_LINK_RECORD_SIZE 8
#define MAD_SA_GUID_INFO_RECORD_SIZE 72
#define MAD_SA_PKEY_TABLE_RECORD_SIZE 72
#define MAD_SA_SERVICE_RECORD_SIZE 176
#define MAD_SA_INFORM_INFO_SIZE 36
#define MAD_SA_INFORM_INFO_RECORD_SIZE 60
#define MAD_SA_NOTICE_SIZE 80
#define MAD_MFT_BLOCK 32	/* MLIDs per MFT block */

/* ComponentMask bits: one per record field in wire order, reserved fields
 * included (IBA 15.2.1.1, 15.2.5). */
#define MAD_SA_NR_LID (1ull << 0)
#define MAD_SA_NR_NODE_TYPE (1ull << 4)
#define MAD_SA_NR_SYSTEM_GUID (1ull << 6)
#define MAD_SA_NR_NODE_GUID (1ull << 7)
#define MAD_SA_NR_PORT_GUID (1ull << 8)
#define MAD_SA_NR_NODE_DESC (1ull << 14)
#define MAD_SA_PIR_LID (1ull << 0)
#define MAD_SA_PIR_PORT_NUM (1ull << 1)
/* the records' ComponentMask bits 0.. name these fields, reserved ones
 * counted: SL2VLTableRecord LID, InputPortNum, OutputPortNum;
 * SwitchInfoRecord LID; LFTRecord LID, BlockNum; MFTRecord LID, Position,
 * reserved, BlockNum; SMInfoRecord LID, reserved, GUID, SM_Key, ActCount,
 * Priority, SMState; LinkRecord FromLID, FromPort, ToPort, ToLID;
 * GUIDInfoRecord LID, BlockNum; P_KeyTableRecord LID, BlockNum, PortNum */
#define MAD_SA_COMP(bit) (1ull << (bit))
#define MAD_SA_PR_DGID (1ull << 2)
#define MAD_SA_PR_SGID (1ull << 3)
#define MAD_SA_PR_DLID (1ull << 4)
#define MAD_SA_PR_SLID (1ull << 5)
#define MAD_SA_PR_NUMB_PATH (1ull << 12)
#define MAD_SA_PR_PKEY (1ull << 13)
#define MAD_SA_PR_SL (1ull << 15)
#define MAD_SA_PR_MTU_SELECTOR (1ull << 16)
#define MAD_SA_PR_MTU (1ull << 17)
#define MAD_SA_PR_RATE_SELECTOR (1ull << 18)
#define MAD_SA_PR_RATE (1ull << 19)

/* MultiPathRecord ComponentMask bits (IBA 15.2.5.20). */
#define MAD_SA_MPR_REVERSIBLE (1ull << 5)
#define MAD_SA_MPR_NUMB_PATH (1ull << 6)
#define MAD_SA_MPR_PKEY (1ull << 7)
#define MAD_SA_MPR_SL (1ull << 9)
#define MAD_SA_MPR_MTU_SELECTOR (1ull << 10)
#define MAD_SA_MPR_MTU (1ull << 11)
#define MAD_SA_MPR_RATE_SELECTOR (1ull << 12)
#define MAD_SA_MPR_RATE (1ull << 13)
#define MAD_SA_MPR_SERVICE_ID_MSB (1ull << 16)
#define MAD_SA_MPR_INDEPENDENCE (1ull << 17)
#define MAD_SA_MPR_SGID_COUNT (1ull << 19)
#define MAD_SA_MPR_DGID_COUNT (1ull << 20)
#define MAD_SA_MPR_SERVICE_ID_LSB (1ull << 21)

/* RMPP header (IBA 13.6.2.1); zero when RMPP is not in use. */
#define MAD_RMPP_FLAG_ACTIVE 0x1
#define MAD_RMPP_FLAGS_SINGLE 0x6	/* first and last segment */
struct mad_rmpp {
	uint8_t version;
	uint8_t type;
	uint8_t resp_time;	/* 5 bits */
	uint8_t flags;		/* 3 bits: active, first, last */
	uint8_t status;
	uint32_t data1;
	uint32_t data2;
};

struct mad_sa {
	MAD_GMP_HEADER;	/* class MAD_CLASS_SA, version 2; enum mad_sa_method */
	struct mad_rmpp rmpp;
	uint64_t sm_key;
	uint16_t attr_offset;	/* in MAD_SA_ATTR_OFFSET_UNIT words */
	uint64_t comp_mask;
	uint8_t data[MAD_SA_DATA_SIZE];
};

/* ClassPortInfo's CapabilityMask bits: bit 2 is
 * every class's (CapabilityMask2 is meaningful); bit 9 the SA's (IBA 15.2.1.1,
 * as OpenSM's osm_base.h lists them from IBA 1.2.1 tables 117 and 188).
 * CapabilityMask2 bits of the SA: what its records and joins can carry. */
#define MAD_CPI_CAP_MASK2_VALID (1u << 2)	/* IsCapabilityMask2Supported */
#define MAD_SA_CAP_UD_MCAST (1u << 9)		/* IsUDMulticastSupported */
#define MAD_SA_CAP2_MCAST_TOP (1u << 3)		/* SwitchInfo.MulticastFDBTop set */
#define MAD_SA_CAP2_ALIAS_GUIDS (1u << 5)	/* IsAdditionalGUIDsSupported */
#define MAD_SA_CAP2_EXT_SPEEDS (1u << 7)	/* LinkSpeedExt*, FDR and EDR rates */
#define MAD_SA_CAP2_SEND_ONLY_FULL (1u << 12)	/* SendOnlyFullMember joins */
#define MAD_SA_CAP2_WIDTH_2X (1u << 13)		/* 2x link widths in rates */
#define MAD_SA_CAP2_SPEED_HDR (1u << 15)	/* HDR rates */
#define MAD_SA_CAP2_SPEED_NDR (1u << 17)	/* NDR rates */
/* ClassPortInfo (IBA 13.4.8.1, table 126). */
struct mad_class_port_info {
	uint8_t base_version;
	uint8_t class_version;
	uint16_t cap_mask;
	uint32_t cap_mask2;	/* 27 bits */
	uint8_t resp_time_value;	/* 5 bits */
	uint8_t redirect_gid[MAD_GID_LEN];
	uint8_t redirect_tc;
	uint8_t redirect_sl;	/* 4 bits */
	uint32_t redirect_fl;	/* 20 bits */
	uint16_t redirect_lid;
	uint16_t redirect_pkey;
	uint32_t redirect_qp;	/* 24 bits */
	uint32_t redirect_qkey;
	uint8_t trap_gid[MAD_GID_LEN];
	uint8_t trap_tc;
	uint8_t trap_sl;	/* 4 bits */
	uint32_t trap_fl;	/* 20 bits */
	uint16_t trap_lid;
	uint16_t trap_pkey;
	uint8_t trap_hl;
	uint32_t trap_qp;	/* 24 bits */
	uint32_t trap_qkey;
};

/* NodeRecord (IBA 15.2.5.2): a node's NodeInfo and NodeDescription as seen on
 * the port with LID @lid. */
struct mad_sa_node_record {
	uint16_t lid;
	struct mad_node_info info;
	struct mad_node_desc desc;
};

/* PortInfoRecord (IBA 15.2.5.3): port @port_num of the node at @lid. */
struct mad_sa_port_info_record {
	uint16_t lid;
	uint8_t port_num;
	uint8_t options;
	struct mad_port_info info;
};

/* PathRecord (IBA 15.2.5.16, table 210). */
struct mad_sa_path_record {
	uint64_t service_id;
	uint8_t dgid[MAD_GID_LEN];
	uint8_t sgid[MAD_GID_LEN];
	uint16_t dlid;
	uint16_t slid;
	bool raw_traffic;
	uint32_t flow_label;	/* 20 bits */
	uint8_t hop_limit;
	uint8_t tclass;
	bool reversible;
	uint8_t numb_path;	/* 7 bits */
	uint16_t pkey;
	uint16_t qos_class;	/* 12 bits */
	uint8_t sl;		/* 4 bits */
	uint8_t mtu_selector;	/* 2 bits each selector */
	uint8_t mtu;		/* 6 bits each value */
	uint8_t rate_selector;
	uint8_t rate;
	uint8_t lifetime_selector;
	uint8_t packet_lifetime;
	uint8_t preference;
};

/* MultiPathRecord (IBA 15.2.5.20): what the paths must be, and between
 * which ports: gids[] holds SGIDCount source GIDs, then DGIDCount
 * destination GIDs. */
struct mad_sa_multipath_record {
	/* the PathRecord fields it has too: ServiceID, RawTraffic to
	 * PacketLifeTime (GIDs, LIDs and Preference stay 0) */
	struct mad_sa_path_record path;
	uint8_t independence;	/* IndependenceSelector, 2 bits */
	uint8_t sgid_count;
	uint8_t dgid_count;
	uint8_t gids[MAD_SA_MULTIPATH_MAX_GIDS][MAD_GID_LEN];
};

/* SLtoVLMappingTableRecord (IBA 15.2.5.4). */
struct mad_sa_sl2vl_record {
	uint16_t lid;
	uint8_t in_port;
	uint8_t out_port;
	struct mad_sl2vl table;
};

/* SwitchInfoRecord (IBA 15.2.5.5). */
struct mad_sa_switch_info_record {
	uint16_t lid;
	struct mad_switch_info info;
};

/* LinearForwardingTableRecord (IBA 15.2.5.6): block @block of the LFT of the
 * switch at @lid. */
struct mad_sa_lft_record {
	uint16_t lid;
	uint16_t block;
	struct mad_lft_block lft;
};

/* MulticastForwardingTableRecord (IBA 15.2.5.8): port mask @position (16
 * ports each) of MLID block @block. */
struct mad_sa_mft_record {
	uint16_t lid;
	uint8_t position;	/* 4 bits */
	uint16_t block;		/* 9 bits */
	uint16_t mask[MAD_MFT_BLOCK];
};

/* SMInfoRecord (IBA 15.2.5.9). */
struct mad_sa_sm_info_record {
	uint16_t lid;
	struct mad_sm_info info;
};

/* LinkRecord (IBA 15.2.5.13): the link from port @from_port of the node at
 * @from_lid to port @to_port of the node at @to_lid. */
struct mad_sa_link_record {
	uint16_t from_lid;
	uint8_t from_port;
	uint8_t to_port;
	uint16_t to_lid;
};

/* GUIDInfoRecord (IBA 15.2.5.18). */
struct mad_sa_guid_info_record {
	uint16_t lid;
	uint8_t block;
	uint64_t guid[MAD_GUID_INFO_BLOCK];
};

/* P_KeyTableRecord (IBA 15.2.5.11): block @block of port @port_num's P_Keys. */
struct mad_sa_pkey_table_record {
	uint16_t lid;
	uint16_t block;
	uint8_t port_num;
	struct mad_pkey_block table;
};

/* ServiceRecord (IBA 15.2.5.14).  ComponentMask bits: 0 ServiceID, 1
 * ServiceGID, 2 ServiceP_Key, 4 ServiceLease, 5 ServiceKey, 6 ServiceName,
 * 7-22 ServiceData8, 23-30 ServiceData16, 31-34 ServiceData32, 35-36
 * ServiceData64. */
#define MAD_SA_SR_ID (1ull << 0)
#define MAD_SA_SR_GID (1ull << 1)
#define MAD_SA_SR_PKEY (1ull << 2)
#define MAD_SA_SR_LEASE (1ull << 4)
#define MAD_SA_SR_KEY (1ull << 5)
#define MAD_SA_SR_NAME (1ull << 6)
#define MAD_SA_SR_DATA8(i) (1ull << (7 + (i)))
#define MAD_SA_SR_DATA16(i) (1ull << (23 + (i)))
#define MAD_SA_SR_DATA32(i) (1ull << (31 + (i)))
#define MAD_SA_SR_DATA64(i) (1ull << (35 + (i)))
#define MAD_SA_SR_LEASE_INFINITE 0xffffffffu
#define MAD_SA_SR_NAME_LEN 64
struct mad_sa_service_record {
	uint64_t id;
	uint8_t gid[MAD_GID_LEN];
	uint16_t pkey;
	uint32_t lease;		/* seconds, MAD_SA_SR_LEASE_INFINITE */
	uint8_t key[16];
	char name[MAD_SA_SR_NAME_LEN];	/* not NUL-terminated when full */
	uint8_t data8[16];
	uint16_t data16[8];
	uint32_t data32[4];
	uint64_t data64[2];
};

/* InformInfo (IBA 13.4.8.3): a subscription to traps, as an SA Set. */
#define MAD_SA_INFORM_ALL_LIDS 0xffff	/* LIDRangeBegin: every LID */
#define MAD_SA_INFORM_ANY 0xffff	/* Type, TrapNumber: any */
#define MAD_SA_INFORM_ANY_PRODUCER 0xffffff
struct mad_sa_inform_info {
	uint8_t gid[MAD_GID_LEN];	/* all zero: by LID range */
	uint16_t lid_begin, lid_end;
	bool is_generic;
	bool subscribe;			/* 0: unsubscribe */
	uint16_t type;
	uint16_t trap_num;		/* DeviceID when not generic */
	uint32_t qpn;			/* 24 bits: where Reports go */
	uint8_t resp_time;		/* 5 bits */
	uint32_t producer_type;		/* 24 bits; VendorID when not generic */
};

/* InformInfoRecord (IBA 15.2.5.12): a subscription, by subscriber. */
#define MAD_SA_IIR_SUBSCRIBER_GID (1ull << 0)
#define MAD_SA_IIR_ENUM (1ull << 1)
struct mad_sa_inform_info_record {
	uint8_t subscriber_gid[MAD_GID_LEN];
	uint16_t enumeration;		/* the subscriber's subscriptions, 0, 1, ... */
	struct mad_sa_inform_info ii;
};

/* Notice as the SA's Report carries it: the SMP attribute's 64 bytes, then
 * the IssuerGID (IBA 13.4.8.2). */
struct mad_sa_notice {
	struct mad_notice n;
	uint8_t issuer_gid[MAD_GID_LEN];
};

/* Write @sa as MAD_BLOCK_SIZE wire bytes into @buf. */
void mad_sa_encode(const struct mad_sa *sa, uint8_t buf[MAD_BLOCK_SIZE]);

/*
 * Parse @len bytes at @buf into @sa.  Returns 0, -EMSGSIZE (shorter than a
 * MAD), or -EPROTONOSUPPORT (base version not 1 or class not SA).  The class
 * version and the method are the agent's to judge: they answer with a status.
 */
int mad_sa_decode(const uint8_t *buf, size_t len, struct mad_sa *sa);

/* Turn a request into its response in place: Get and Set -> GetResp, else
 * method | 0x80 (GetTable -> GetTableResp, Delete -> DeleteResp), @status, the RMPP header cleared
 * and the data zeroed; TID, attribute and modifier kept. */
void mad_sa_make_response(struct mad_sa *sa, uint16_t status);

/* Record codecs: @data holds at least the record's size. */
void mad_class_port_info_encode(const struct mad_class_port_info *cpi, uint8_t *data);
void mad_class_port_info_decode(const uint8_t *data, struct mad_class_port_info *cpi);
void mad_sa_node_record_encode(const struct mad_sa_node_record *nr, uint8_t *data);
void mad_sa_node_record_decode(const uint8_t *data, struct mad_sa_node_record *nr);
void mad_sa_port_info_record_encode(const struct mad_sa_port_info_record *pir,
				    uint8_t *data);
void mad_sa_port_info_record_decode(const uint8_t *data,
				    struct mad_sa_port_info_record *pir);
void mad_sa_path_record_encode(const struct mad_sa_path_record *pr, uint8_t *data);
void mad_sa_path_record_decode(const uint8_t *data, struct mad_sa_path_record *pr);
/* A MultiPathRecord in the @len bytes of @data (a MAD's data, or a longer
 * request's): its GIDs as many as the counts say, those past @len left out
 * (the counts kept as sent). */
void mad_sa_multipath_record_encode(const struct mad_sa_multipath_record *r, uint8_t *data,
				    size_t len);
void mad_sa_multipath_record_decode(const uint8_t *data, size_t len,
				    struct mad_sa_multipath_record *r);
/* How many GIDs a MultiPathRecord of @len bytes has room for. */
unsigned mad_sa_multipath_gids(size_t len);

void mad_sa_sl2vl_record_encode(const struct mad_sa_sl2vl_record *r, uint8_t *data);
void mad_sa_sl2vl_record_decode(const uint8_t *data, struct mad_sa_sl2vl_record *r);
void mad_sa_switch_info_record_encode(const struct mad_sa_switch_info_record *r,
				      uint8_t *data);
void mad_sa_switch_info_record_decode(const uint8_t *data,
				      struct mad_sa_switch_info_record *r);
void mad_sa_lft_record_encode(const struct mad_sa_lft_record *r, uint8_t *data);
void mad_sa_lft_record_decode(const uint8_t *data, struct mad_sa_lft_record *r);
void mad_sa_mft_record_encode(const struct mad_sa_mft_record *r, uint8_t *data);
void mad_sa_mft_record_decode(const uint8_t *data, struct mad_sa_mft_record *r);
void mad_sa_sm_info_record_encode(const struct mad_sa_sm_info_record *r, uint8_t *data);
void mad_sa_sm_info_record_decode(const uint8_t *data, struct mad_sa_sm_info_record *r);
void mad_sa_link_record_encode(const struct mad_sa_link_record *r, uint8_t *data);
void mad_sa_link_record_decode(const uint8_t *data, struct mad_sa_link_record *r);
void mad_sa_guid_info_record_encode(const struct mad_sa_guid_info_record *r,
				    uint8_t *data);
void mad_sa_guid_info_record_decode(const uint8_t *data,
				    struct mad_sa_guid_info_record *r);
void mad_sa_pkey_table_record_encode(const struct mad_sa_pkey_table_record *r,
				     uint8_t *data);
void mad_sa_pkey_table_record_decode(const uint8_t *data,
				     struct mad_sa_pkey_table_record *r);

void mad_sa_service_record_encode(const struct mad_sa_service_record *r, uint8_t *data);
void mad_sa_service_record_decode(const uint8_t *data, struct mad_sa_service_record *r);

void mad_sa_inform_info_encode(const struct mad_sa_inform_info *ii, uint8_t *data);
void mad_sa_inform_info_decode(const uint8_t *data, struct mad_sa_inform_info *ii);
void mad_sa_inform_info_record_encode(const struct mad_sa_inform_info_record *r,
				      uint8_t *data);
void mad_sa_inform_info_record_decode(const uint8_t *data,
				      struct mad_sa_inform_info_record *r);
void mad_sa_notice_encode(const struct mad_sa_notice *n, uint8_t *data);
void mad_sa_notice_decode(const uint8_t *data, struct mad_sa_notice *n);

/* The record size of @attr_id on the wire, or 0 for an attribute not known here. */
size_t mad_sa_record_size(uint16_t attr_id);

/* The AttributeOffset, in 8-byte words, of a record of @size bytes. */
static inline uint16_t mad_sa_attr_offset(size_t size)
{
	return (uint16_t)((size + MAD_SA_ATTR_OFFSET_UNIT - 1) / MAD_SA_ATTR_OFFSET_UNIT);
}

#endif

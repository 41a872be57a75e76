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
	MAD_SA_METHOD_DELETE = 0x15,
	MAD_SA_METHOD_DELETE_RESP = 0x95,
};

enum mad_sa_attr_id {
	MAD_SA_ATTR_CLASS_PORT_INFO = 0x0001,
	MAD_SA_ATTR_NODE_RECORD = 0x0011,
	MAD_SA_ATTR_PORT_INFO_RECORD = 0x0012,
	MAD_SA_ATTR_SL2VL_RECORD = 0x0013,
	MAD_SA_ATTR_SWITCH_INFO_RECORD = 0x0014,
	MAD_SA_ATTR_LFT_RECORD = 0x0015,
	MAD_SA_ATTR_MFT_RECORD = 0x0017,
	MAD_SA_ATTR_SM_INFO_RECORD = 0x0018,
	MAD_SA_ATTR_LINK_RECORD = 0x0020,
	MAD_SA_ATTR_GUID_INFO_RECORD = 0x0030,
	MAD_SA_ATTR_PKEY_TABLE_RECORD = 0x0033,
	MAD_SA_ATTR_PATH_RECORD = 0x0035,
};

/* SA status codes, MAD status bits 15:8 (IBA 15.2.1.1, table 187). */
#define MAD_SA_STATUS(c) ((uint16_t)((c) << 8))
#define MAD_SA_ERR_NO_RESOURCES MAD_SA_STATUS(1)
#define MAD_SA_ERR_REQ_INVALID MAD_SA_STATUS(2)
#define MAD_SA_ERR_NO_RECORDS MAD_SA_STATUS(3)
#define MAD_SA_ERR_TOO_MANY_RECORDS MAD_SA_STATUS(4)
#define MAD_SA_ERR_REQ_INVALID_GID MAD_SA_STATUS(5)
#define MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS MAD_SA_STATUS(6)

/* Record sizes on the wire and their AttributeOffset (IBA 15.2.5). */
#define MAD_SA_NODE_RECORD_SIZE 108
#define MAD_SA_PORT_INFO_RECORD_SIZE 68
#define MAD_SA_PATH_RECORD_SIZE 64
#define MAD_CLASS_PORT_INFO_SIZE 72
#define MAD_SA_SL2VL_RECORD_SIZE 16
#define MAD_SA_SWITCH_INFO_RECORD_SIZE 24
#define MAD_SA_LFT_RECORD_SIZE 72
#define MAD_SA_MFT_RECORD_SIZE 72
#define MAD_SA_SM_INFO_RECORD_SIZE 25
#define MAD_SA_LINK_RECORD_SIZE 8
#define MAD_SA_GUID_INFO_RECORD_SIZE 72
#define MAD_SA_PKEY_TABLE_RECORD_SIZE 72
#define MAD_GUID_INFO_BLOCK 8	/* GUIDs per GUIDInfo block */
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
	uint8_t base_version;	/* 1 */
	uint8_t mgmt_class;	/* MAD_CLASS_SA */
	uint8_t class_version;	/* 2 */
	uint8_t method;		/* enum mad_sa_method */
	uint16_t status;
	uint16_t class_specific;
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
	struct mad_rmpp rmpp;
	uint64_t sm_key;
	uint16_t attr_offset;	/* in MAD_SA_ATTR_OFFSET_UNIT words */
	uint64_t comp_mask;
	uint8_t data[MAD_SA_DATA_SIZE];
};

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

/* The record size of @attr_id on the wire, or 0 for an attribute not known here. */
size_t mad_sa_record_size(uint16_t attr_id);

/* The AttributeOffset, in 8-byte words, of a record of @size bytes. */
static inline uint16_t mad_sa_attr_offset(size_t size)
{
	return (uint16_t)((size + MAD_SA_ATTR_OFFSET_UNIT - 1) / MAD_SA_ATTR_OFFSET_UNIT);
}

#endif

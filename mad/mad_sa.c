// SPDX-License-Identifier: MIT
/*
 * mad_sa.c - SA MAD header and record codecs.
 *
 * Byte offsets from IBA 13.4.3 (common header), 13.6.2.1 (RMPP header),
 * 15.2.1.1 (SA header) and 15.2.5 (records), written and read directly in
 * network order; check_mad_sa.c holds them to golden bytes and to libibmad's
 * IB_SA_*, IB_CPI_* field tables.  NodeRecord and PortInfoRecord embed the SMP
 * attributes, placed with mad_attr.c's codecs (whose verdict on the values is
 * not asked: a query's template is not a device's answer).
 */
#include <errno.h>
#include <string.h>

#include "mad/mad_bytes.h"
#include "mad/mad_sa.h"
#include "mad/mad_sa_mcmember.h"

/* Header byte offsets. */
enum {
	SA_OFF_BASE_VERSION = 0, SA_OFF_CLASS = 1, SA_OFF_CLASS_VERSION = 2,
	SA_OFF_METHOD = 3, SA_OFF_STATUS = 4, SA_OFF_CLASS_SPECIFIC = 6, SA_OFF_TID = 8,
	SA_OFF_ATTR_ID = 16, SA_OFF_ATTR_MOD = 20,
	SA_OFF_RMPP_VERSION = 24, SA_OFF_RMPP_TYPE = 25, SA_OFF_RMPP_TIME_FLAGS = 26,
	SA_OFF_RMPP_STATUS = 27, SA_OFF_RMPP_DATA1 = 28, SA_OFF_RMPP_DATA2 = 32,
	SA_OFF_SM_KEY = 36, SA_OFF_ATTR_OFFSET = 44, SA_OFF_COMP_MASK = 48,
};

_Static_assert(MAD_SA_DATA_OFFSET + MAD_SA_DATA_SIZE == MAD_BLOCK_SIZE, "SA data");

void mad_sa_encode(const struct mad_sa *sa, uint8_t buf[MAD_BLOCK_SIZE])
{
	memset(buf, 0, MAD_BLOCK_SIZE);
	buf[SA_OFF_BASE_VERSION] = sa->base_version;
	buf[SA_OFF_CLASS] = sa->mgmt_class;
	buf[SA_OFF_CLASS_VERSION] = sa->class_version;
	buf[SA_OFF_METHOD] = sa->method;
	mad_put_be(buf + SA_OFF_STATUS, sa->status, 2);
	mad_put_be(buf + SA_OFF_CLASS_SPECIFIC, sa->class_specific, 2);
	mad_put_be(buf + SA_OFF_TID, sa->tid, 8);
	mad_put_be(buf + SA_OFF_ATTR_ID, sa->attr_id, 2);
	mad_put_be(buf + SA_OFF_ATTR_MOD, sa->attr_mod, 4);
	buf[SA_OFF_RMPP_VERSION] = sa->rmpp.version;
	buf[SA_OFF_RMPP_TYPE] = sa->rmpp.type;
	buf[SA_OFF_RMPP_TIME_FLAGS] = (uint8_t)((sa->rmpp.resp_time & 0x1f) << 3 |
						(sa->rmpp.flags & 7));
	buf[SA_OFF_RMPP_STATUS] = sa->rmpp.status;
	mad_put_be(buf + SA_OFF_RMPP_DATA1, sa->rmpp.data1, 4);
	mad_put_be(buf + SA_OFF_RMPP_DATA2, sa->rmpp.data2, 4);
	mad_put_be(buf + SA_OFF_SM_KEY, sa->sm_key, 8);
	mad_put_be(buf + SA_OFF_ATTR_OFFSET, sa->attr_offset, 2);
	mad_put_be(buf + SA_OFF_COMP_MASK, sa->comp_mask, 8);
	memcpy(buf + MAD_SA_DATA_OFFSET, sa->data, MAD_SA_DATA_SIZE);
}

int mad_sa_decode(const uint8_t *buf, size_t len, struct mad_sa *sa)
{
	if (len < MAD_BLOCK_SIZE)
		return -EMSGSIZE;
	memset(sa, 0, sizeof(*sa));
	sa->base_version = buf[SA_OFF_BASE_VERSION];
	sa->mgmt_class = buf[SA_OFF_CLASS];
	if (sa->base_version != 1 || sa->mgmt_class != MAD_CLASS_SA)
		return -EPROTONOSUPPORT;
	sa->class_version = buf[SA_OFF_CLASS_VERSION];
	sa->method = buf[SA_OFF_METHOD];
	sa->status = (uint16_t)mad_get_be(buf + SA_OFF_STATUS, 2);
	sa->class_specific = (uint16_t)mad_get_be(buf + SA_OFF_CLASS_SPECIFIC, 2);
	sa->tid = mad_get_be(buf + SA_OFF_TID, 8);
	sa->attr_id = (uint16_t)mad_get_be(buf + SA_OFF_ATTR_ID, 2);
	sa->attr_mod = (uint32_t)mad_get_be(buf + SA_OFF_ATTR_MOD, 4);
	sa->rmpp.version = buf[SA_OFF_RMPP_VERSION];
	sa->rmpp.type = buf[SA_OFF_RMPP_TYPE];
	sa->rmpp.resp_time = buf[SA_OFF_RMPP_TIME_FLAGS] >> 3;
	sa->rmpp.flags = buf[SA_OFF_RMPP_TIME_FLAGS] & 7;
	sa->rmpp.status = buf[SA_OFF_RMPP_STATUS];
	sa->rmpp.data1 = (uint32_t)mad_get_be(buf + SA_OFF_RMPP_DATA1, 4);
	sa->rmpp.data2 = (uint32_t)mad_get_be(buf + SA_OFF_RMPP_DATA2, 4);
	sa->sm_key = mad_get_be(buf + SA_OFF_SM_KEY, 8);
	sa->attr_offset = (uint16_t)mad_get_be(buf + SA_OFF_ATTR_OFFSET, 2);
	sa->comp_mask = mad_get_be(buf + SA_OFF_COMP_MASK, 8);
	memcpy(sa->data, buf + MAD_SA_DATA_OFFSET, MAD_SA_DATA_SIZE);
	return 0;
}

void mad_sa_make_response(struct mad_sa *sa, uint16_t status)
{
	/* Get and Set are answered by GetResp (IBA 13.4.5, 15.4) */
	sa->method = sa->method == MAD_SA_METHOD_SET ? MAD_SA_METHOD_GET_RESP
						     : (uint8_t)(sa->method | 0x80);
	sa->status = status;
	memset(&sa->rmpp, 0, sizeof(sa->rmpp));
	sa->attr_offset = 0;
	memset(sa->data, 0, sizeof(sa->data));
}

/* ClassPortInfo byte offsets (IBA 13.4.8.1). */
enum {
	CPI_BASE_VERSION = 0, CPI_CLASS_VERSION = 1, CPI_CAP_MASK = 2, CPI_CAP2_RESP = 4,
	CPI_REDIRECT_GID = 8, CPI_REDIRECT_TC_SL_FL = 24, CPI_REDIRECT_LID = 28,
	CPI_REDIRECT_PKEY = 30, CPI_REDIRECT_QP = 32, CPI_REDIRECT_QKEY = 36,
	CPI_TRAP_GID = 40, CPI_TRAP_TC_SL_FL = 56, CPI_TRAP_LID = 60, CPI_TRAP_PKEY = 62,
	CPI_TRAP_HL_QP = 64, CPI_TRAP_QKEY = 68,
};

/* TClass:8, SL:4, FlowLabel:20 in one 32-bit word. */
static void put_tc_sl_fl(uint8_t *p, uint8_t tc, uint8_t sl, uint32_t fl)
{
	mad_put_be(p, (uint32_t)tc << 24 | (uint32_t)(sl & 0xf) << 20 | (fl & 0xfffff), 4);
}

static void get_tc_sl_fl(const uint8_t *p, uint8_t *tc, uint8_t *sl, uint32_t *fl)
{
	uint32_t v = (uint32_t)mad_get_be(p, 4);

	*tc = (uint8_t)(v >> 24);
	*sl = v >> 20 & 0xf;
	*fl = v & 0xfffff;
}

void mad_class_port_info_encode(const struct mad_class_port_info *cpi, uint8_t *data)
{
	memset(data, 0, MAD_CLASS_PORT_INFO_SIZE);
	data[CPI_BASE_VERSION] = cpi->base_version;
	data[CPI_CLASS_VERSION] = cpi->class_version;
	mad_put_be(data + CPI_CAP_MASK, cpi->cap_mask, 2);
	mad_put_be(data + CPI_CAP2_RESP, (uint32_t)(cpi->cap_mask2 & 0x7ffffff) << 5 |
		   (cpi->resp_time_value & 0x1f), 4);
	memcpy(data + CPI_REDIRECT_GID, cpi->redirect_gid, MAD_GID_LEN);
	put_tc_sl_fl(data + CPI_REDIRECT_TC_SL_FL, cpi->redirect_tc, cpi->redirect_sl,
		     cpi->redirect_fl);
	mad_put_be(data + CPI_REDIRECT_LID, cpi->redirect_lid, 2);
	mad_put_be(data + CPI_REDIRECT_PKEY, cpi->redirect_pkey, 2);
	mad_put_be(data + CPI_REDIRECT_QP, cpi->redirect_qp & 0xffffff, 4);
	mad_put_be(data + CPI_REDIRECT_QKEY, cpi->redirect_qkey, 4);
	memcpy(data + CPI_TRAP_GID, cpi->trap_gid, MAD_GID_LEN);
	put_tc_sl_fl(data + CPI_TRAP_TC_SL_FL, cpi->trap_tc, cpi->trap_sl, cpi->trap_fl);
	mad_put_be(data + CPI_TRAP_LID, cpi->trap_lid, 2);
	mad_put_be(data + CPI_TRAP_PKEY, cpi->trap_pkey, 2);
	mad_put_be(data + CPI_TRAP_HL_QP, (uint32_t)cpi->trap_hl << 24 |
		   (cpi->trap_qp & 0xffffff), 4);
	mad_put_be(data + CPI_TRAP_QKEY, cpi->trap_qkey, 4);
}

void mad_class_port_info_decode(const uint8_t *data, struct mad_class_port_info *cpi)
{
	memset(cpi, 0, sizeof(*cpi));
	cpi->base_version = data[CPI_BASE_VERSION];
	cpi->class_version = data[CPI_CLASS_VERSION];
	cpi->cap_mask = (uint16_t)mad_get_be(data + CPI_CAP_MASK, 2);
	uint32_t v = (uint32_t)mad_get_be(data + CPI_CAP2_RESP, 4);
	cpi->cap_mask2 = v >> 5;
	cpi->resp_time_value = v & 0x1f;
	memcpy(cpi->redirect_gid, data + CPI_REDIRECT_GID, MAD_GID_LEN);
	get_tc_sl_fl(data + CPI_REDIRECT_TC_SL_FL, &cpi->redirect_tc, &cpi->redirect_sl,
		     &cpi->redirect_fl);
	cpi->redirect_lid = (uint16_t)mad_get_be(data + CPI_REDIRECT_LID, 2);
	cpi->redirect_pkey = (uint16_t)mad_get_be(data + CPI_REDIRECT_PKEY, 2);
	cpi->redirect_qp = (uint32_t)mad_get_be(data + CPI_REDIRECT_QP, 4) & 0xffffff;
	cpi->redirect_qkey = (uint32_t)mad_get_be(data + CPI_REDIRECT_QKEY, 4);
	memcpy(cpi->trap_gid, data + CPI_TRAP_GID, MAD_GID_LEN);
	get_tc_sl_fl(data + CPI_TRAP_TC_SL_FL, &cpi->trap_tc, &cpi->trap_sl, &cpi->trap_fl);
	cpi->trap_lid = (uint16_t)mad_get_be(data + CPI_TRAP_LID, 2);
	cpi->trap_pkey = (uint16_t)mad_get_be(data + CPI_TRAP_PKEY, 2);
	v = (uint32_t)mad_get_be(data + CPI_TRAP_HL_QP, 4);
	cpi->trap_hl = (uint8_t)(v >> 24);
	cpi->trap_qp = v & 0xffffff;
	cpi->trap_qkey = (uint32_t)mad_get_be(data + CPI_TRAP_QKEY, 4);
}

/* NodeRecord: LID, 2 reserved bytes, NodeInfo (40 bytes), NodeDescription. */
enum { NR_LID = 0, NR_NODE_INFO = 4, NR_NODE_INFO_SIZE = 40, NR_NODE_DESC = 44 };
_Static_assert(NR_NODE_DESC + MAD_NODE_DESC_LEN == MAD_SA_NODE_RECORD_SIZE, "NodeRecord");

void mad_sa_node_record_encode(const struct mad_sa_node_record *nr, uint8_t *data)
{
	uint8_t attr[SMP_DATA_SIZE];

	memset(data, 0, MAD_SA_NODE_RECORD_SIZE);
	mad_put_be(data + NR_LID, nr->lid, 2);
	mad_node_info_encode(&nr->info, attr);
	memcpy(data + NR_NODE_INFO, attr, NR_NODE_INFO_SIZE);
	mad_node_desc_encode(&nr->desc, attr);
	memcpy(data + NR_NODE_DESC, attr, MAD_NODE_DESC_LEN);
}

void mad_sa_node_record_decode(const uint8_t *data, struct mad_sa_node_record *nr)
{
	uint8_t attr[SMP_DATA_SIZE] = { 0 };

	memset(nr, 0, sizeof(*nr));
	nr->lid = (uint16_t)mad_get_be(data + NR_LID, 2);
	memcpy(attr, data + NR_NODE_INFO, NR_NODE_INFO_SIZE);
	(void)mad_node_info_decode(attr, &nr->info);	/* placed, not judged */
	memcpy(attr, data + NR_NODE_DESC, MAD_NODE_DESC_LEN);
	(void)mad_node_desc_decode(attr, &nr->desc);
}

/* PortInfoRecord: EndportLID, PortNum, Options, PortInfo (64 bytes). */
enum { PIR_LID = 0, PIR_PORT_NUM = 2, PIR_OPTIONS = 3, PIR_PORT_INFO = 4 };
_Static_assert(PIR_PORT_INFO + SMP_DATA_SIZE == MAD_SA_PORT_INFO_RECORD_SIZE, "PIR");

void mad_sa_port_info_record_encode(const struct mad_sa_port_info_record *pir,
				    uint8_t *data)
{
	memset(data, 0, MAD_SA_PORT_INFO_RECORD_SIZE);
	mad_put_be(data + PIR_LID, pir->lid, 2);
	data[PIR_PORT_NUM] = pir->port_num;
	data[PIR_OPTIONS] = pir->options;
	mad_port_info_encode(&pir->info, data + PIR_PORT_INFO);
}

void mad_sa_port_info_record_decode(const uint8_t *data,
				    struct mad_sa_port_info_record *pir)
{
	memset(pir, 0, sizeof(*pir));
	pir->lid = (uint16_t)mad_get_be(data + PIR_LID, 2);
	pir->port_num = data[PIR_PORT_NUM];
	pir->options = data[PIR_OPTIONS];
	(void)mad_port_info_decode(data + PIR_PORT_INFO, &pir->info);	/* not judged */
}

/* PathRecord byte offsets (IBA 15.2.5.16). */
enum {
	PR_SERVICE_ID = 0, PR_DGID = 8, PR_SGID = 24, PR_DLID = 40, PR_SLID = 42,
	PR_RAW_FL_HL = 44, PR_TCLASS = 48, PR_REV_NUMB = 49, PR_PKEY = 50,
	PR_QOS_SL = 52, PR_MTU = 54, PR_RATE = 55, PR_LIFETIME = 56, PR_PREFERENCE = 57,
};

/* A 2-bit selector above a 6-bit value. */
static uint8_t selector_byte(uint8_t selector, uint8_t value)
{
	return (uint8_t)((selector & 3) << 6 | (value & 0x3f));
}

void mad_sa_path_record_encode(const struct mad_sa_path_record *pr, uint8_t *data)
{
	memset(data, 0, MAD_SA_PATH_RECORD_SIZE);
	mad_put_be(data + PR_SERVICE_ID, pr->service_id, 8);
	memcpy(data + PR_DGID, pr->dgid, MAD_GID_LEN);
	memcpy(data + PR_SGID, pr->sgid, MAD_GID_LEN);
	mad_put_be(data + PR_DLID, pr->dlid, 2);
	mad_put_be(data + PR_SLID, pr->slid, 2);
	mad_put_be(data + PR_RAW_FL_HL, (uint32_t)pr->raw_traffic << 31 |
		   (pr->flow_label & 0xfffff) << 8 | pr->hop_limit, 4);
	data[PR_TCLASS] = pr->tclass;
	data[PR_REV_NUMB] = (uint8_t)(pr->reversible << 7 | (pr->numb_path & 0x7f));
	mad_put_be(data + PR_PKEY, pr->pkey, 2);
	mad_put_be(data + PR_QOS_SL, (uint16_t)((pr->qos_class & 0xfff) << 4 | (pr->sl & 0xf)), 2);
	data[PR_MTU] = selector_byte(pr->mtu_selector, pr->mtu);
	data[PR_RATE] = selector_byte(pr->rate_selector, pr->rate);
	data[PR_LIFETIME] = selector_byte(pr->lifetime_selector, pr->packet_lifetime);
	data[PR_PREFERENCE] = pr->preference;
}

void mad_sa_path_record_decode(const uint8_t *data, struct mad_sa_path_record *pr)
{
	memset(pr, 0, sizeof(*pr));
	pr->service_id = mad_get_be(data + PR_SERVICE_ID, 8);
	memcpy(pr->dgid, data + PR_DGID, MAD_GID_LEN);
	memcpy(pr->sgid, data + PR_SGID, MAD_GID_LEN);
	pr->dlid = (uint16_t)mad_get_be(data + PR_DLID, 2);
	pr->slid = (uint16_t)mad_get_be(data + PR_SLID, 2);
	uint32_t v = (uint32_t)mad_get_be(data + PR_RAW_FL_HL, 4);
	pr->raw_traffic = v >> 31;
	pr->flow_label = v >> 8 & 0xfffff;
	pr->hop_limit = (uint8_t)v;
	pr->tclass = data[PR_TCLASS];
	pr->reversible = data[PR_REV_NUMB] >> 7;
	pr->numb_path = data[PR_REV_NUMB] & 0x7f;
	pr->pkey = (uint16_t)mad_get_be(data + PR_PKEY, 2);
	uint16_t qs = (uint16_t)mad_get_be(data + PR_QOS_SL, 2);
	pr->qos_class = qs >> 4;
	pr->sl = qs & 0xf;
	pr->mtu_selector = data[PR_MTU] >> 6;
	pr->mtu = data[PR_MTU] & 0x3f;
	pr->rate_selector = data[PR_RATE] >> 6;
	pr->rate = data[PR_RATE] & 0x3f;
	pr->lifetime_selector = data[PR_LIFETIME] >> 6;
	pr->packet_lifetime = data[PR_LIFETIME] & 0x3f;
	pr->preference = data[PR_PREFERENCE];
}

/* SL2VLTableRecord: LID, InputPortNum, OutputPortNum, 4 reserved, the table. */
enum { SLR_LID = 0, SLR_IN = 2, SLR_OUT = 3, SLR_TABLE = 8 };

void mad_sa_sl2vl_record_encode(const struct mad_sa_sl2vl_record *r, uint8_t *data)
{
	uint8_t attr[SMP_DATA_SIZE];

	memset(data, 0, MAD_SA_SL2VL_RECORD_SIZE);
	mad_put_be(data + SLR_LID, r->lid, 2);
	data[SLR_IN] = r->in_port;
	data[SLR_OUT] = r->out_port;
	mad_sl2vl_encode(&r->table, attr);
	memcpy(data + SLR_TABLE, attr, MAD_NUM_SL / 2);
}

void mad_sa_sl2vl_record_decode(const uint8_t *data, struct mad_sa_sl2vl_record *r)
{
	uint8_t attr[SMP_DATA_SIZE] = { 0 };

	memset(r, 0, sizeof(*r));
	r->lid = (uint16_t)mad_get_be(data + SLR_LID, 2);
	r->in_port = data[SLR_IN];
	r->out_port = data[SLR_OUT];
	memcpy(attr, data + SLR_TABLE, MAD_NUM_SL / 2);
	(void)mad_sl2vl_decode(attr, &r->table);
}

/* SwitchInfoRecord: LID, 2 reserved, SwitchInfo (20 bytes). */
enum { SIR_LID = 0, SIR_INFO = 4, SIR_INFO_SIZE = 20 };
_Static_assert(SIR_INFO + SIR_INFO_SIZE == MAD_SA_SWITCH_INFO_RECORD_SIZE, "SIR");

void mad_sa_switch_info_record_encode(const struct mad_sa_switch_info_record *r,
				      uint8_t *data)
{
	uint8_t attr[SMP_DATA_SIZE];

	memset(data, 0, MAD_SA_SWITCH_INFO_RECORD_SIZE);
	mad_put_be(data + SIR_LID, r->lid, 2);
	mad_switch_info_encode(&r->info, attr);
	memcpy(data + SIR_INFO, attr, SIR_INFO_SIZE);
}

void mad_sa_switch_info_record_decode(const uint8_t *data,
				      struct mad_sa_switch_info_record *r)
{
	uint8_t attr[SMP_DATA_SIZE] = { 0 };

	memset(r, 0, sizeof(*r));
	r->lid = (uint16_t)mad_get_be(data + SIR_LID, 2);
	memcpy(attr, data + SIR_INFO, SIR_INFO_SIZE);
	(void)mad_switch_info_decode(attr, &r->info);
}

/* LFTRecord: LID, BlockNum, 4 reserved, 64 ports. */
enum { LFTR_LID = 0, LFTR_BLOCK = 2, LFTR_TABLE = 8 };
_Static_assert(LFTR_TABLE + MAD_LFT_BLOCK == MAD_SA_LFT_RECORD_SIZE, "LFTRecord");

void mad_sa_lft_record_encode(const struct mad_sa_lft_record *r, uint8_t *data)
{
	memset(data, 0, MAD_SA_LFT_RECORD_SIZE);
	mad_put_be(data + LFTR_LID, r->lid, 2);
	mad_put_be(data + LFTR_BLOCK, r->block, 2);
	memcpy(data + LFTR_TABLE, r->lft.port, MAD_LFT_BLOCK);
}

void mad_sa_lft_record_decode(const uint8_t *data, struct mad_sa_lft_record *r)
{
	memset(r, 0, sizeof(*r));
	r->lid = (uint16_t)mad_get_be(data + LFTR_LID, 2);
	r->block = (uint16_t)mad_get_be(data + LFTR_BLOCK, 2);
	memcpy(r->lft.port, data + LFTR_TABLE, MAD_LFT_BLOCK);
}

/* MFTRecord: LID, Position (4 bits) and BlockNum (9 bits, below 3 reserved),
 * 4 reserved, 32 port masks. */
enum { MFTR_LID = 0, MFTR_POS_BLOCK = 2, MFTR_TABLE = 8 };
_Static_assert(MFTR_TABLE + 2 * MAD_MFT_BLOCK == MAD_SA_MFT_RECORD_SIZE, "MFTRecord");

void mad_sa_mft_record_encode(const struct mad_sa_mft_record *r, uint8_t *data)
{
	memset(data, 0, MAD_SA_MFT_RECORD_SIZE);
	mad_put_be(data + MFTR_LID, r->lid, 2);
	mad_put_be(data + MFTR_POS_BLOCK, (uint16_t)((r->position & 0xf) << 12 |
						     (r->block & 0x1ff)), 2);
	for (int i = 0; i < MAD_MFT_BLOCK; i++)
		mad_put_be(data + MFTR_TABLE + 2 * i, r->mask[i], 2);
}

void mad_sa_mft_record_decode(const uint8_t *data, struct mad_sa_mft_record *r)
{
	memset(r, 0, sizeof(*r));
	r->lid = (uint16_t)mad_get_be(data + MFTR_LID, 2);
	uint16_t v = (uint16_t)mad_get_be(data + MFTR_POS_BLOCK, 2);
	r->position = v >> 12;
	r->block = v & 0x1ff;
	for (int i = 0; i < MAD_MFT_BLOCK; i++)
		r->mask[i] = (uint16_t)mad_get_be(data + MFTR_TABLE + 2 * i, 2);
}

/* SMInfoRecord: LID, 2 reserved, SMInfo (21 bytes). */
enum { SMR_LID = 0, SMR_INFO = 4, SMR_INFO_SIZE = 21 };
_Static_assert(SMR_INFO + SMR_INFO_SIZE == MAD_SA_SM_INFO_RECORD_SIZE, "SMInfoRecord");

void mad_sa_sm_info_record_encode(const struct mad_sa_sm_info_record *r, uint8_t *data)
{
	uint8_t attr[SMP_DATA_SIZE];

	memset(data, 0, MAD_SA_SM_INFO_RECORD_SIZE);
	mad_put_be(data + SMR_LID, r->lid, 2);
	mad_sm_info_encode(&r->info, attr);
	memcpy(data + SMR_INFO, attr, SMR_INFO_SIZE);
}

void mad_sa_sm_info_record_decode(const uint8_t *data, struct mad_sa_sm_info_record *r)
{
	uint8_t attr[SMP_DATA_SIZE] = { 0 };

	memset(r, 0, sizeof(*r));
	r->lid = (uint16_t)mad_get_be(data + SMR_LID, 2);
	memcpy(attr, data + SMR_INFO, SMR_INFO_SIZE);
	(void)mad_sm_info_decode(attr, &r->info);
}

/* LinkRecord: FromLID, FromPort, ToPort, ToLID, 2 reserved. */
enum { LR_FROM_LID = 0, LR_FROM_PORT = 2, LR_TO_PORT = 3, LR_TO_LID = 4 };

void mad_sa_link_record_encode(const struct mad_sa_link_record *r, uint8_t *data)
{
	memset(data, 0, MAD_SA_LINK_RECORD_SIZE);
	mad_put_be(data + LR_FROM_LID, r->from_lid, 2);
	data[LR_FROM_PORT] = r->from_port;
	data[LR_TO_PORT] = r->to_port;
	mad_put_be(data + LR_TO_LID, r->to_lid, 2);
}

void mad_sa_link_record_decode(const uint8_t *data, struct mad_sa_link_record *r)
{
	memset(r, 0, sizeof(*r));
	r->from_lid = (uint16_t)mad_get_be(data + LR_FROM_LID, 2);
	r->from_port = data[LR_FROM_PORT];
	r->to_port = data[LR_TO_PORT];
	r->to_lid = (uint16_t)mad_get_be(data + LR_TO_LID, 2);
}

/* GUIDInfoRecord: LID, BlockNum, 5 reserved, 8 GUIDs. */
enum { GIR_LID = 0, GIR_BLOCK = 2, GIR_GUIDS = 8 };
_Static_assert(GIR_GUIDS + 8 * MAD_GUID_INFO_BLOCK == MAD_SA_GUID_INFO_RECORD_SIZE, "GIR");

void mad_sa_guid_info_record_encode(const struct mad_sa_guid_info_record *r,
				    uint8_t *data)
{
	memset(data, 0, MAD_SA_GUID_INFO_RECORD_SIZE);
	mad_put_be(data + GIR_LID, r->lid, 2);
	data[GIR_BLOCK] = r->block;
	for (int i = 0; i < MAD_GUID_INFO_BLOCK; i++)
		mad_put_be(data + GIR_GUIDS + 8 * i, r->guid[i], 8);
}

void mad_sa_guid_info_record_decode(const uint8_t *data,
				    struct mad_sa_guid_info_record *r)
{
	memset(r, 0, sizeof(*r));
	r->lid = (uint16_t)mad_get_be(data + GIR_LID, 2);
	r->block = data[GIR_BLOCK];
	for (int i = 0; i < MAD_GUID_INFO_BLOCK; i++)
		r->guid[i] = mad_get_be(data + GIR_GUIDS + 8 * i, 8);
}

/* P_KeyTableRecord: LID, BlockNum, PortNum, 3 reserved, 32 P_Keys. */
enum { PKR_LID = 0, PKR_BLOCK = 2, PKR_PORT = 4, PKR_TABLE = 8 };
_Static_assert(PKR_TABLE + 2 * MAD_PKEY_BLOCK == MAD_SA_PKEY_TABLE_RECORD_SIZE, "PKR");

void mad_sa_pkey_table_record_encode(const struct mad_sa_pkey_table_record *r,
				     uint8_t *data)
{
	memset(data, 0, MAD_SA_PKEY_TABLE_RECORD_SIZE);
	mad_put_be(data + PKR_LID, r->lid, 2);
	mad_put_be(data + PKR_BLOCK, r->block, 2);
	data[PKR_PORT] = r->port_num;
	for (int i = 0; i < MAD_PKEY_BLOCK; i++)
		mad_put_be(data + PKR_TABLE + 2 * i, r->table.pkey[i], 2);
}

void mad_sa_pkey_table_record_decode(const uint8_t *data,
				     struct mad_sa_pkey_table_record *r)
{
	memset(r, 0, sizeof(*r));
	r->lid = (uint16_t)mad_get_be(data + PKR_LID, 2);
	r->block = (uint16_t)mad_get_be(data + PKR_BLOCK, 2);
	r->port_num = data[PKR_PORT];
	for (int i = 0; i < MAD_PKEY_BLOCK; i++)
		r->table.pkey[i] = (uint16_t)mad_get_be(data + PKR_TABLE + 2 * i, 2);
}

size_t mad_sa_record_size(uint16_t attr_id)
{
	switch (attr_id) {
	case MAD_SA_ATTR_CLASS_PORT_INFO: return MAD_CLASS_PORT_INFO_SIZE;
	case MAD_SA_ATTR_NODE_RECORD: return MAD_SA_NODE_RECORD_SIZE;
	case MAD_SA_ATTR_PORT_INFO_RECORD: return MAD_SA_PORT_INFO_RECORD_SIZE;
	case MAD_SA_ATTR_PATH_RECORD: return MAD_SA_PATH_RECORD_SIZE;
	case MAD_SA_ATTR_MCMEMBER_RECORD: return MAD_SA_MCMEMBER_RECORD_SIZE;
	case MAD_SA_ATTR_SL2VL_RECORD: return MAD_SA_SL2VL_RECORD_SIZE;
	case MAD_SA_ATTR_SWITCH_INFO_RECORD: return MAD_SA_SWITCH_INFO_RECORD_SIZE;
	case MAD_SA_ATTR_LFT_RECORD: return MAD_SA_LFT_RECORD_SIZE;
	case MAD_SA_ATTR_MFT_RECORD: return MAD_SA_MFT_RECORD_SIZE;
	case MAD_SA_ATTR_SM_INFO_RECORD: return MAD_SA_SM_INFO_RECORD_SIZE;
	case MAD_SA_ATTR_LINK_RECORD: return MAD_SA_LINK_RECORD_SIZE;
	case MAD_SA_ATTR_GUID_INFO_RECORD: return MAD_SA_GUID_INFO_RECORD_SIZE;
	case MAD_SA_ATTR_PKEY_TABLE_RECORD: return MAD_SA_PKEY_TABLE_RECORD_SIZE;
	default: return 0;
	}
}

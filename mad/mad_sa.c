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
	SA_OFF_RMPP_VERSION = MAD_GMP_HEADER_SIZE, SA_OFF_RMPP_TYPE = 25, SA_OFF_RMPP_TIME_FLAGS = 26,
	SA_OFF_RMPP_STATUS = 27, SA_OFF_RMPP_DATA1 = 28, SA_OFF_RMPP_DATA2 = 32,
	SA_OFF_SM_KEY = 36, SA_OFF_ATTR_OFFSET = 44, SA_OFF_COMP_MASK = 48,
};

_Static_assert(MAD_SA_DATA_OFFSET + MAD_SA_DATA_SIZE == MAD_BLOCK_SIZE, "SA data");

void mad_sa_encode(const struct mad_sa *sa, uint8_t buf[MAD_BLOCK_SIZE])
{
	memset(buf, 0, MAD_BLOCK_SIZE);
	mad_gmp_header_encode(&sa->hdr, buf);
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
	mad_gmp_header_decode(buf, &sa->hdr);
	if (sa->base_version != 1 || sa->mgmt_class != MAD_CLASS_SA)
		return -EPROTONOSUPPORT;
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
	PR_PARAMS = 44, PR_PREFERENCE = 57,
};

/* A 2-bit selector above a 6-bit value. */
static uint8_t selector_byte(uint8_t selector, uint8_t value)
{
	return (uint8_t)((selector & 3) << 6 | (value & 0x3f));
}

/* The path's parameters, RawTraffic to PacketLifeTime, as PathRecord and
 * MultiPathRecord both lay them out from @p (IBA 15.2.5.16, 15.2.5.20). */
enum {
	PP_RAW_FL_HL = 0, PP_TCLASS = 4, PP_REV_NUMB = 5, PP_PKEY = 6, PP_QOS_SL = 8,
	PP_MTU = 10, PP_RATE = 11, PP_LIFETIME = 12,
};

static void path_params_encode(const struct mad_sa_path_record *pr, uint8_t *p)
{
	mad_put_be(p + PP_RAW_FL_HL, (uint32_t)pr->raw_traffic << 31 |
		   (pr->flow_label & 0xfffff) << 8 | pr->hop_limit, 4);
	p[PP_TCLASS] = pr->tclass;
	p[PP_REV_NUMB] = (uint8_t)(pr->reversible << 7 | (pr->numb_path & 0x7f));
	mad_put_be(p + PP_PKEY, pr->pkey, 2);
	mad_put_be(p + PP_QOS_SL, (uint16_t)((pr->qos_class & 0xfff) << 4 | (pr->sl & 0xf)), 2);
	p[PP_MTU] = selector_byte(pr->mtu_selector, pr->mtu);
	p[PP_RATE] = selector_byte(pr->rate_selector, pr->rate);
	p[PP_LIFETIME] = selector_byte(pr->lifetime_selector, pr->packet_lifetime);
}

static void path_params_decode(const uint8_t *p, struct mad_sa_path_record *pr)
{
	uint32_t v = (uint32_t)mad_get_be(p + PP_RAW_FL_HL, 4);
	pr->raw_traffic = v >> 31;
	pr->flow_label = v >> 8 & 0xfffff;
	pr->hop_limit = (uint8_t)v;
	pr->tclass = p[PP_TCLASS];
	pr->reversible = p[PP_REV_NUMB] >> 7;
	pr->numb_path = p[PP_REV_NUMB] & 0x7f;
	pr->pkey = (uint16_t)mad_get_be(p + PP_PKEY, 2);
	uint16_t qs = (uint16_t)mad_get_be(p + PP_QOS_SL, 2);
	pr->qos_class = qs >> 4;
	pr->sl = qs & 0xf;
	pr->mtu_selector = p[PP_MTU] >> 6;
	pr->mtu = p[PP_MTU] & 0x3f;
	pr->rate_selector = p[PP_RATE] >> 6;
	pr->rate = p[PP_RATE] & 0x3f;
	pr->lifetime_selector = p[PP_LIFETIME] >> 6;
	pr->packet_lifetime = p[PP_LIFETIME] & 0x3f;
}

void mad_sa_path_record_encode(const struct mad_sa_path_record *pr, uint8_t *data)
{
	memset(data, 0, MAD_SA_PATH_RECORD_SIZE);
	mad_put_be(data + PR_SERVICE_ID, pr->service_id, 8);
	memcpy(data + PR_DGID, pr->dgid, MAD_GID_LEN);
	memcpy(data + PR_SGID, pr->sgid, MAD_GID_LEN);
	mad_put_be(data + PR_DLID, pr->dlid, 2);
	mad_put_be(data + PR_SLID, pr->slid, 2);
	path_params_encode(pr, data + PR_PARAMS);
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
	path_params_decode(data + PR_PARAMS, pr);
	pr->preference = data[PR_PREFERENCE];
}

/* MultiPathRecord byte offsets (IBA 15.2.5.20): the path's parameters first. */
enum {
	MPR_PARAMS = 0, MPR_SID_MSB = 13, MPR_INDEP = 14, MPR_SGID_COUNT = 15,
	MPR_DGID_COUNT = 16, MPR_SID_LSB = 17, MPR_GIDS = MAD_SA_MULTIPATH_RECORD_SIZE,
};

unsigned mad_sa_multipath_gids(size_t len)
{
	size_t room = len > MPR_GIDS ? (len - MPR_GIDS) / MAD_GID_LEN : 0;

	return room < MAD_SA_MULTIPATH_MAX_GIDS ? (unsigned)room : MAD_SA_MULTIPATH_MAX_GIDS;
}

/* GIDs a MultiPathRecord of @len bytes carries of the @want it names. */
static unsigned mpr_gids(size_t len, unsigned want)
{
	unsigned room = mad_sa_multipath_gids(len);

	return want < room ? want : room;
}

void mad_sa_multipath_record_encode(const struct mad_sa_multipath_record *r, uint8_t *data,
				    size_t len)
{
	memset(data, 0, len);
	if (len < MPR_GIDS)
		return;
	path_params_encode(&r->path, data + MPR_PARAMS);
	data[MPR_SID_MSB] = (uint8_t)(r->path.service_id >> 56);
	data[MPR_INDEP] = (uint8_t)((r->independence & 3) << 6);
	data[MPR_SGID_COUNT] = r->sgid_count;
	data[MPR_DGID_COUNT] = r->dgid_count;
	mad_put_be(data + MPR_SID_LSB, r->path.service_id & 0xffffffffffffffull, 7);
	unsigned n = mpr_gids(len, (unsigned)r->sgid_count + r->dgid_count);
	memcpy(data + MPR_GIDS, r->gids, (size_t)n * MAD_GID_LEN);
}

void mad_sa_multipath_record_decode(const uint8_t *data, size_t len,
				    struct mad_sa_multipath_record *r)
{
	memset(r, 0, sizeof(*r));
	if (len < MPR_GIDS)
		return;
	path_params_decode(data + MPR_PARAMS, &r->path);
	r->path.service_id = (uint64_t)data[MPR_SID_MSB] << 56 |
			     mad_get_be(data + MPR_SID_LSB, 7);
	r->independence = data[MPR_INDEP] >> 6;
	r->sgid_count = data[MPR_SGID_COUNT];
	r->dgid_count = data[MPR_DGID_COUNT];
	unsigned n = mpr_gids(len, (unsigned)r->sgid_count + r->dgid_count);
	memcpy(r->gids, data + MPR_GIDS, (size_t)n * MAD_GID_LEN);
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

/* ServiceRecord byte offsets (IBA 15.2.5.14). */
enum {
	SR_ID = 0, SR_GID = 8, SR_PKEY = 24, SR_LEASE = 28, SR_KEY = 32, SR_NAME = 48,
	SR_DATA8 = 112, SR_DATA16 = 128, SR_DATA32 = 144, SR_DATA64 = 160,
};
_Static_assert(SR_DATA64 + 16 == MAD_SA_SERVICE_RECORD_SIZE, "ServiceRecord");

void mad_sa_service_record_encode(const struct mad_sa_service_record *r, uint8_t *data)
{
	memset(data, 0, MAD_SA_SERVICE_RECORD_SIZE);
	mad_put_be(data + SR_ID, r->id, 8);
	memcpy(data + SR_GID, r->gid, MAD_GID_LEN);
	mad_put_be(data + SR_PKEY, r->pkey, 2);
	mad_put_be(data + SR_LEASE, r->lease, 4);
	memcpy(data + SR_KEY, r->key, sizeof(r->key));
	memcpy(data + SR_NAME, r->name, MAD_SA_SR_NAME_LEN);
	memcpy(data + SR_DATA8, r->data8, sizeof(r->data8));
	for (int i = 0; i < 8; i++)
		mad_put_be(data + SR_DATA16 + 2 * i, r->data16[i], 2);
	for (int i = 0; i < 4; i++)
		mad_put_be(data + SR_DATA32 + 4 * i, r->data32[i], 4);
	for (int i = 0; i < 2; i++)
		mad_put_be(data + SR_DATA64 + 8 * i, r->data64[i], 8);
}

void mad_sa_service_record_decode(const uint8_t *data, struct mad_sa_service_record *r)
{
	memset(r, 0, sizeof(*r));
	r->id = mad_get_be(data + SR_ID, 8);
	memcpy(r->gid, data + SR_GID, MAD_GID_LEN);
	r->pkey = (uint16_t)mad_get_be(data + SR_PKEY, 2);
	r->lease = (uint32_t)mad_get_be(data + SR_LEASE, 4);
	memcpy(r->key, data + SR_KEY, sizeof(r->key));
	memcpy(r->name, data + SR_NAME, MAD_SA_SR_NAME_LEN);
	memcpy(r->data8, data + SR_DATA8, sizeof(r->data8));
	for (int i = 0; i < 8; i++)
		r->data16[i] = (uint16_t)mad_get_be(data + SR_DATA16 + 2 * i, 2);
	for (int i = 0; i < 4; i++)
		r->data32[i] = (uint32_t)mad_get_be(data + SR_DATA32 + 4 * i, 4);
	for (int i = 0; i < 2; i++)
		r->data64[i] = mad_get_be(data + SR_DATA64 + 8 * i, 8);
}

/* InformInfo byte offsets (IBA 13.4.8.3). */
enum {
	II_GID = 0, II_LID_BEGIN = 16, II_LID_END = 18, II_IS_GENERIC = 22, II_SUBSCRIBE = 23,
	II_TYPE = 24, II_TRAP_NUM = 26, II_QPN_RESP = 28, II_PRODUCER = 32,
};

void mad_sa_inform_info_encode(const struct mad_sa_inform_info *ii, uint8_t *data)
{
	memset(data, 0, MAD_SA_INFORM_INFO_SIZE);
	memcpy(data + II_GID, ii->gid, MAD_GID_LEN);
	mad_put_be(data + II_LID_BEGIN, ii->lid_begin, 2);
	mad_put_be(data + II_LID_END, ii->lid_end, 2);
	data[II_IS_GENERIC] = ii->is_generic;
	data[II_SUBSCRIBE] = ii->subscribe;
	mad_put_be(data + II_TYPE, ii->type, 2);
	mad_put_be(data + II_TRAP_NUM, ii->trap_num, 2);
	mad_put_be(data + II_QPN_RESP, (uint32_t)(ii->qpn & 0xffffff) << 8 |
		   (ii->resp_time & 0x1f), 4);
	mad_put_be(data + II_PRODUCER, ii->producer_type & 0xffffff, 4);
}

void mad_sa_inform_info_decode(const uint8_t *data, struct mad_sa_inform_info *ii)
{
	memset(ii, 0, sizeof(*ii));
	memcpy(ii->gid, data + II_GID, MAD_GID_LEN);
	ii->lid_begin = (uint16_t)mad_get_be(data + II_LID_BEGIN, 2);
	ii->lid_end = (uint16_t)mad_get_be(data + II_LID_END, 2);
	ii->is_generic = data[II_IS_GENERIC] & 1;
	ii->subscribe = data[II_SUBSCRIBE] & 1;
	ii->type = (uint16_t)mad_get_be(data + II_TYPE, 2);
	ii->trap_num = (uint16_t)mad_get_be(data + II_TRAP_NUM, 2);
	uint32_t v = (uint32_t)mad_get_be(data + II_QPN_RESP, 4);
	ii->qpn = v >> 8;
	ii->resp_time = v & 0x1f;
	ii->producer_type = (uint32_t)mad_get_be(data + II_PRODUCER, 4) & 0xffffff;
}

/* InformInfoRecord: SubscriberGID, Enum, 6 reserved, the InformInfo. */
enum { IIR_GID = 0, IIR_ENUM = 16, IIR_INFORM = 24 };

void mad_sa_inform_info_record_encode(const struct mad_sa_inform_info_record *r,
				      uint8_t *data)
{
	memset(data, 0, MAD_SA_INFORM_INFO_RECORD_SIZE);
	memcpy(data + IIR_GID, r->subscriber_gid, MAD_GID_LEN);
	mad_put_be(data + IIR_ENUM, r->enumeration, 2);
	mad_sa_inform_info_encode(&r->ii, data + IIR_INFORM);
}

void mad_sa_inform_info_record_decode(const uint8_t *data,
				      struct mad_sa_inform_info_record *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->subscriber_gid, data + IIR_GID, MAD_GID_LEN);
	r->enumeration = (uint16_t)mad_get_be(data + IIR_ENUM, 2);
	mad_sa_inform_info_decode(data + IIR_INFORM, &r->ii);
}

/* Notice: the SMP attribute's layout (mad_attr.c), then the IssuerGID. */
enum { SN_ISSUER_GID = 64 };

void mad_sa_notice_encode(const struct mad_sa_notice *n, uint8_t *data)
{
	uint8_t attr[SMP_DATA_SIZE];

	mad_notice_encode(&n->n, attr);
	memcpy(data, attr, SN_ISSUER_GID);
	memcpy(data + SN_ISSUER_GID, n->issuer_gid, MAD_GID_LEN);
}

void mad_sa_notice_decode(const uint8_t *data, struct mad_sa_notice *n)
{
	uint8_t attr[SMP_DATA_SIZE];

	memcpy(attr, data, SN_ISSUER_GID);
	(void)mad_notice_decode(attr, &n->n);	/* placed, not judged */
	memcpy(n->issuer_gid, data + SN_ISSUER_GID, MAD_GID_LEN);
}

size_t mad_sa_record_size(uint16_t attr_id)
{
	switch (attr_id) {
	case MAD_SA_ATTR_CLASS_PORT_INFO: return MAD_CLASS_PORT_INFO_SIZE;
	case MAD_SA_ATTR_NODE_RECORD: return MAD_SA_NODE_RECORD_SIZE;
	case MAD_SA_ATTR_PORT_INFO_RECORD: return MAD_SA_PORT_INFO_RECORD_SIZE;
	case MAD_SA_ATTR_PATH_RECORD: return MAD_SA_PATH_RECORD_SIZE;
	case MAD_SA_ATTR_MULTIPATH_RECORD: return MAD_SA_MULTIPATH_RECORD_SIZE;
	case MAD_SA_ATTR_MCMEMBER_RECORD: return MAD_SA_MCMEMBER_RECORD_SIZE;
	case MAD_SA_ATTR_SL2VL_RECORD: return MAD_SA_SL2VL_RECORD_SIZE;
	case MAD_SA_ATTR_SWITCH_INFO_RECORD: return MAD_SA_SWITCH_INFO_RECORD_SIZE;
	case MAD_SA_ATTR_LFT_RECORD: return MAD_SA_LFT_RECORD_SIZE;
	case MAD_SA_ATTR_MFT_RECORD: return MAD_SA_MFT_RECORD_SIZE;
	case MAD_SA_ATTR_SM_INFO_RECORD: return MAD_SA_SM_INFO_RECORD_SIZE;
	case MAD_SA_ATTR_LINK_RECORD: return MAD_SA_LINK_RECORD_SIZE;
	case MAD_SA_ATTR_GUID_INFO_RECORD: return MAD_SA_GUID_INFO_RECORD_SIZE;
	case MAD_SA_ATTR_PKEY_TABLE_RECORD: return MAD_SA_PKEY_TABLE_RECORD_SIZE;
	case MAD_SA_ATTR_SERVICE_RECORD: return MAD_SA_SERVICE_RECORD_SIZE;
	case MAD_SA_ATTR_INFORM_INFO: return MAD_SA_INFORM_INFO_SIZE;
	case MAD_SA_ATTR_INFORM_INFO_RECORD: return MAD_SA_INFORM_INFO_RECORD_SIZE;
	default: return 0;
	}
}

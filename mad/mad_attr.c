// SPDX-License-Identifier: MIT
/*
 * mad_attr.c - SMP attribute codecs.
 *
 * Each attribute is described once as a table that maps a libibmad field to a
 * member of its host structure; one generic routine walks a table to decode and
 * one to encode.  Where a field lies is libibmad's: libibmad reads each field
 * once from payloads with one bit set, and a field whose bits form one
 * big-endian run of at most 8 bytes (every field the tables use) is then read
 * and written by shifts and masks, without libibmad's per-call work (a
 * PortInfo Set is encoded once and decoded three times).  Attributes that are plain arrays (LFT, P_Key, GUIDInfo, NodeDescription)
 * are copied directly.  Validation after decode rejects payloads outside the
 * ranges IBA defines (14.2.5).
 */
#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include <infiniband/mad.h>

#include "mad/model/topo_rate.h"
#include "mad/mad_attr.h"
#include "mad/mad_bytes.h"

struct field_map {
	enum MAD_FIELDS field;
	size_t offset;
	size_t size;
};

#define FIELD(type, f, member) { f, offsetof(type, member), sizeof(((type *)0)->member) }

/* Where a field lies in a payload: the 8 bytes from @byte read as one
 * big-endian number, shifted right by @shift and masked (payloads are read
 * from a copy with 8 bytes of room after them); written, the field is the
 * value shifted left by @wshift in the 128-bit big-endian number of the
 * payload's 64-bit words @word and @word + 1. */
struct field_bits {
	uint64_t mask;
	uint8_t byte, shift;
	uint8_t word, wshift;
	bool run;		/* false: go through libibmad */
};

#define PAD_SIZE (SMP_DATA_SIZE + 8)

static struct field_bits field_bits[IB_FIELD_LAST_];
static pthread_once_t field_bits_once = PTHREAD_ONCE_INIT;

static uint64_t lib_get(uint8_t *buf, const struct field_map *m)
{
	return m->size == 8 ? mad_get_field64(buf, 0, m->field) : mad_get_field(buf, 0, m->field);
}

/* Where libibmad reads the field of @m: one payload bit set at a time, the
 * field must read 2^k for each of its bits, k falling by one from bit to bit
 * down to 0, and nothing for the bits around. */
static void field_locate(const struct field_map *m)
{
	uint8_t buf[IB_MAD_SIZE] = { 0 };	/* room for any field's offset */
	int first = -1, last = -1;
	uint64_t want = 0;

	for (int bit = 0; bit < SMP_DATA_SIZE * 8; bit++) {
		buf[bit / 8] = (uint8_t)(0x80 >> bit % 8);
		uint64_t v = lib_get(buf, m);
		buf[bit / 8] = 0;
		if (!v)
			continue;
		if (first < 0)
			first = bit;
		else if (bit != last + 1 || v != want)
			return;
		last = bit;
		want = v >> 1;
		if (v & (v - 1))
			return;
	}
	if (first < 0 || want || last / 8 - first / 8 >= 8 || last - first >= (int)m->size * 8)
		return;
	memset(buf + SMP_DATA_SIZE, 0xff, IB_MAD_SIZE - SMP_DATA_SIZE);
	if (lib_get(buf, m))
		return;		/* it reaches beyond the payload */
	int n = last - first + 1;
	field_bits[m->field] = (struct field_bits){
		.mask = n == 64 ? UINT64_MAX : (1ULL << n) - 1,
		.byte = (uint8_t)(first / 8),
		.shift = (uint8_t)(63 - (last - first / 8 * 8)),
		.word = (uint8_t)(first / 64),
		.wshift = (uint8_t)(127 - (last - first / 64 * 64)),
		.run = true,
	};
}

static void locate_all(void);

static uint64_t load_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

static void store_be64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, sizeof(v));
}

/* The field of @m in @pad (PAD_SIZE bytes: the payload @data, then zeros). */
static uint64_t field_get(const uint8_t *pad, const uint8_t *data, const struct field_map *m)
{
	const struct field_bits *b = &field_bits[m->field];

	if (!b->run)
		return lib_get((uint8_t *)data, m);
	return load_be64(pad + b->byte) >> b->shift & b->mask;
}

static void map_decode(const uint8_t *data, void *obj, const struct field_map *map,
		       size_t n)
{
	uint8_t pad[PAD_SIZE] = { 0 };

	pthread_once(&field_bits_once, locate_all);
	memcpy(pad, data, SMP_DATA_SIZE);
	for (size_t i = 0; i < n; i++) {
		uint8_t *p = (uint8_t *)obj + map[i].offset;
		uint64_t v = field_get(pad, data, &map[i]);
		switch (map[i].size) {
		case 1: *p = (uint8_t)v; break;
		case 2: *(uint16_t *)(void *)p = (uint16_t)v; break;
		case 4: *(uint32_t *)(void *)p = (uint32_t)v; break;
		default: *(uint64_t *)(void *)p = v; break;
		}
	}
}

/* The member of @obj that @m names. */
static uint64_t map_value(const void *obj, const struct field_map *m)
{
	const uint8_t *p = (const uint8_t *)obj + m->offset;

	switch (m->size) {
	case 1: return *p;
	case 2: return *(const uint16_t *)(const void *)p;
	case 4: return *(const uint32_t *)(const void *)p;
	default: return *(const uint64_t *)(const void *)p;
	}
}

/* The tables' fields do not overlap: each is or-ed into its words. */
static void map_encode(const void *obj, uint8_t *data, const struct field_map *map,
		       size_t n)
{
	uint64_t word[SMP_DATA_SIZE / 8 + 1] = { 0 };
	bool all = true;

	pthread_once(&field_bits_once, locate_all);
	for (size_t i = 0; i < n; i++) {
		const struct field_bits *b = &field_bits[map[i].field];
		if (!b->run) {
			all = false;
			continue;
		}
		unsigned __int128 x = (unsigned __int128)(map_value(obj, &map[i]) & b->mask)
				      << b->wshift;
		word[b->word] |= (uint64_t)(x >> 64);
		word[b->word + 1] |= (uint64_t)x;
	}
	for (unsigned w = 0; w < SMP_DATA_SIZE / 8; w++)
		store_be64(data + 8 * w, word[w]);
	for (size_t i = 0; !all && i < n; i++) {
		if (field_bits[map[i].field].run)
			continue;
		if (map[i].size == 8)
			mad_set_field64(data, 0, map[i].field, map_value(obj, &map[i]));
		else
			mad_set_field(data, 0, map[i].field, (uint32_t)map_value(obj, &map[i]));
	}
}

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const struct field_map node_info_map[] = {
	FIELD(struct mad_node_info, IB_NODE_BASE_VERS_F, base_version),
	FIELD(struct mad_node_info, IB_NODE_CLASS_VERS_F, class_version),
	FIELD(struct mad_node_info, IB_NODE_TYPE_F, node_type),
	FIELD(struct mad_node_info, IB_NODE_NPORTS_F, num_ports),
	FIELD(struct mad_node_info, IB_NODE_SYSTEM_GUID_F, system_guid),
	FIELD(struct mad_node_info, IB_NODE_GUID_F, node_guid),
	FIELD(struct mad_node_info, IB_NODE_PORT_GUID_F, port_guid),
	FIELD(struct mad_node_info, IB_NODE_PARTITION_CAP_F, partition_cap),
	FIELD(struct mad_node_info, IB_NODE_DEVID_F, device_id),
	FIELD(struct mad_node_info, IB_NODE_REVISION_F, revision),
	FIELD(struct mad_node_info, IB_NODE_LOCAL_PORT_F, local_port),
	FIELD(struct mad_node_info, IB_NODE_VENDORID_F, vendor_id),
};

int mad_node_info_decode(const uint8_t *data, struct mad_node_info *ni)
{
	memset(ni, 0, sizeof(*ni));
	map_decode(data, ni, node_info_map, NELEM(node_info_map));
	if (ni->node_type < MAD_NODE_CA || ni->node_type > MAD_NODE_ROUTER)
		return -EBADMSG;
	if (ni->num_ports == 0 || ni->node_guid == 0)
		return -EBADMSG;
	/* A CA or router answers on ports 1..N; a switch also on port 0. */
	if (ni->local_port > ni->num_ports ||
	    (ni->local_port == 0 && ni->node_type != MAD_NODE_SWITCH))
		return -EBADMSG;
	return 0;
}

void mad_node_info_encode(const struct mad_node_info *ni, uint8_t *data)
{
	map_encode(ni, data, node_info_map, NELEM(node_info_map));
}

int mad_node_desc_decode(const uint8_t *data, struct mad_node_desc *nd)
{
	/* a string: whatever follows its first NUL is padding, and dropped */
	size_t len = strnlen((const char *)data, MAD_NODE_DESC_LEN);

	memset(nd->desc, 0, sizeof(nd->desc));
	memcpy(nd->desc, data, len);
	return 0;
}

void mad_node_desc_encode(const struct mad_node_desc *nd, uint8_t *data)
{
	size_t len = strnlen(nd->desc, MAD_NODE_DESC_LEN);

	memset(data, 0, SMP_DATA_SIZE);
	memcpy(data, nd->desc, len);
}

static const struct field_map port_info_map[] = {
	FIELD(struct mad_port_info, IB_PORT_MKEY_F, mkey),
	FIELD(struct mad_port_info, IB_PORT_GID_PREFIX_F, gid_prefix),
	FIELD(struct mad_port_info, IB_PORT_LID_F, lid),
	FIELD(struct mad_port_info, IB_PORT_SMLID_F, sm_lid),
	FIELD(struct mad_port_info, IB_PORT_CAPMASK_F, cap_mask),
	FIELD(struct mad_port_info, IB_PORT_DIAG_F, diag_code),
	FIELD(struct mad_port_info, IB_PORT_MKEY_LEASE_F, mkey_lease),
	FIELD(struct mad_port_info, IB_PORT_LOCAL_PORT_F, local_port),
	FIELD(struct mad_port_info, IB_PORT_LINK_WIDTH_ENABLED_F, link_width_enabled),
	FIELD(struct mad_port_info, IB_PORT_LINK_WIDTH_SUPPORTED_F, link_width_supported),
	FIELD(struct mad_port_info, IB_PORT_LINK_WIDTH_ACTIVE_F, link_width_active),
	FIELD(struct mad_port_info, IB_PORT_LINK_SPEED_SUPPORTED_F, link_speed_supported),
	FIELD(struct mad_port_info, IB_PORT_STATE_F, port_state),
	FIELD(struct mad_port_info, IB_PORT_PHYS_STATE_F, phys_state),
	FIELD(struct mad_port_info, IB_PORT_LINK_DOWN_DEF_F, link_down_default),
	FIELD(struct mad_port_info, IB_PORT_MKEY_PROT_BITS_F, mkey_prot),
	FIELD(struct mad_port_info, IB_PORT_LMC_F, lmc),
	FIELD(struct mad_port_info, IB_PORT_LINK_SPEED_ACTIVE_F, link_speed_active),
	FIELD(struct mad_port_info, IB_PORT_LINK_SPEED_ENABLED_F, link_speed_enabled),
	FIELD(struct mad_port_info, IB_PORT_NEIGHBOR_MTU_F, neighbor_mtu),
	FIELD(struct mad_port_info, IB_PORT_SMSL_F, sm_sl),
	FIELD(struct mad_port_info, IB_PORT_VL_CAP_F, vl_cap),
	FIELD(struct mad_port_info, IB_PORT_INIT_TYPE_F, init_type),
	FIELD(struct mad_port_info, IB_PORT_VL_HIGH_LIMIT_F, vl_high_limit),
	FIELD(struct mad_port_info, IB_PORT_VL_ARBITRATION_HIGH_CAP_F, vl_arb_high_cap),
	FIELD(struct mad_port_info, IB_PORT_VL_ARBITRATION_LOW_CAP_F, vl_arb_low_cap),
	FIELD(struct mad_port_info, IB_PORT_INIT_TYPE_REPLY_F, init_type_reply),
	FIELD(struct mad_port_info, IB_PORT_MTU_CAP_F, mtu_cap),
	FIELD(struct mad_port_info, IB_PORT_VL_STALL_COUNT_F, vl_stall_count),
	FIELD(struct mad_port_info, IB_PORT_HOQ_LIFE_F, hoq_life),
	FIELD(struct mad_port_info, IB_PORT_OPER_VLS_F, oper_vls),
	FIELD(struct mad_port_info, IB_PORT_PART_EN_INB_F, part_enf_inb),
	FIELD(struct mad_port_info, IB_PORT_PART_EN_OUTB_F, part_enf_outb),
	FIELD(struct mad_port_info, IB_PORT_FILTER_RAW_INB_F, filter_raw_inb),
	FIELD(struct mad_port_info, IB_PORT_FILTER_RAW_OUTB_F, filter_raw_outb),
	FIELD(struct mad_port_info, IB_PORT_MKEY_VIOL_F, mkey_violations),
	FIELD(struct mad_port_info, IB_PORT_PKEY_VIOL_F, pkey_violations),
	FIELD(struct mad_port_info, IB_PORT_QKEY_VIOL_F, qkey_violations),
	FIELD(struct mad_port_info, IB_PORT_GUID_CAP_F, guid_cap),
	FIELD(struct mad_port_info, IB_PORT_CLIENT_REREG_F, client_reregister),
	FIELD(struct mad_port_info, IB_PORT_SUBN_TIMEOUT_F, subnet_timeout),
	FIELD(struct mad_port_info, IB_PORT_RESP_TIME_VAL_F, resp_time_value),
	FIELD(struct mad_port_info, IB_PORT_LOCAL_PHYS_ERR_F, local_phys_errors),
	FIELD(struct mad_port_info, IB_PORT_OVERRUN_ERR_F, overrun_errors),
	FIELD(struct mad_port_info, IB_PORT_MAX_CREDIT_HINT_F, max_credit_hint),
	FIELD(struct mad_port_info, IB_PORT_LINK_ROUND_TRIP_F, link_round_trip),
	FIELD(struct mad_port_info, IB_PORT_CAPMASK2_F, cap_mask2),
	FIELD(struct mad_port_info, IB_PORT_LINK_SPEED_EXT_ACTIVE_F, link_speed_ext_active),
	FIELD(struct mad_port_info, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F, link_speed_ext_supported),
	FIELD(struct mad_port_info, IB_PORT_LINK_SPEED_EXT_ENABLED_F, link_speed_ext_enabled),
};

/* PortInfo byte 56 (bit offset 448): 1 reserved bit, LinkSpeedExtActive2:2,
 * LinkSpeedExtSupported2:2, LinkSpeedExtEnabled2:3 (IBA 1.7, 14.2.5.6). */
#define PI_EXT2_BYTE 56

int mad_port_info_decode(const uint8_t *data, struct mad_port_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	map_decode(data, pi, port_info_map, NELEM(port_info_map));
	pi->link_speed_ext_active2 = data[PI_EXT2_BYTE] >> 5 & 3;
	pi->link_speed_ext_supported2 = data[PI_EXT2_BYTE] >> 3 & 3;
	pi->link_speed_ext_enabled2 = data[PI_EXT2_BYTE] & 7;
	/* every value the IBA defines; the rest are reserved */
	if (pi->port_state > MAD_PORT_ACTIVE_DEFER)
		return -EBADMSG;
	if (pi->phys_state > MAD_PHYS_PHY_TEST)
		return -EBADMSG;
	return 0;
}

void mad_port_info_encode(const struct mad_port_info *pi, uint8_t *data)
{
	map_encode(pi, data, port_info_map, NELEM(port_info_map));
	data[PI_EXT2_BYTE] = (uint8_t)((pi->link_speed_ext_active2 & 3) << 5 |
				       (pi->link_speed_ext_supported2 & 3) << 3 |
				       (pi->link_speed_ext_enabled2 & 7));
}

static const struct field_map switch_info_map[] = {
	FIELD(struct mad_switch_info, IB_SW_LINEAR_FDB_CAP_F, lft_cap),
	FIELD(struct mad_switch_info, IB_SW_RANDOM_FDB_CAP_F, rft_cap),
	FIELD(struct mad_switch_info, IB_SW_MCAST_FDB_CAP_F, mft_cap),
	FIELD(struct mad_switch_info, IB_SW_LINEAR_FDB_TOP_F, lft_top),
	FIELD(struct mad_switch_info, IB_SW_DEF_PORT_F, default_port),
	FIELD(struct mad_switch_info, IB_SW_DEF_MCAST_PRIM_F, default_mcast_primary),
	FIELD(struct mad_switch_info, IB_SW_DEF_MCAST_NOT_PRIM_F, default_mcast_not_primary),
	FIELD(struct mad_switch_info, IB_SW_LIFE_TIME_F, life_time),
	FIELD(struct mad_switch_info, IB_SW_STATE_CHANGE_F, port_state_change),
	FIELD(struct mad_switch_info, IB_SW_OPT_SLTOVL_MAPPING_F, opt_sl2vl),
	FIELD(struct mad_switch_info, IB_SW_LIDS_PER_PORT_F, lids_per_port),
	FIELD(struct mad_switch_info, IB_SW_PARTITION_ENFORCE_CAP_F, partition_enf_cap),
	FIELD(struct mad_switch_info, IB_SW_PARTITION_ENF_INB_F, part_enf_inb),
	FIELD(struct mad_switch_info, IB_SW_PARTITION_ENF_OUTB_F, part_enf_outb),
	FIELD(struct mad_switch_info, IB_SW_FILTER_RAW_INB_F, filter_raw_inb),
	FIELD(struct mad_switch_info, IB_SW_FILTER_RAW_OUTB_F, filter_raw_outb),
	FIELD(struct mad_switch_info, IB_SW_ENHANCED_PORT0_F, enhanced_port0),
	FIELD(struct mad_switch_info, IB_SW_MCAST_FDB_TOP_F, mft_top),
};

int mad_switch_info_decode(const uint8_t *data, struct mad_switch_info *si)
{
	memset(si, 0, sizeof(*si));
	map_decode(data, si, switch_info_map, NELEM(switch_info_map));
	return 0;
}

void mad_switch_info_encode(const struct mad_switch_info *si, uint8_t *data)
{
	map_encode(si, data, switch_info_map, NELEM(switch_info_map));
}

static const struct field_map sm_info_map[] = {
	FIELD(struct mad_sm_info, IB_SMINFO_GUID_F, guid),
	FIELD(struct mad_sm_info, IB_SMINFO_KEY_F, sm_key),
	FIELD(struct mad_sm_info, IB_SMINFO_ACT_F, act_count),
	FIELD(struct mad_sm_info, IB_SMINFO_PRIO_F, priority),
	FIELD(struct mad_sm_info, IB_SMINFO_STATE_F, state),
};

int mad_sm_info_decode(const uint8_t *data, struct mad_sm_info *sm)
{
	memset(sm, 0, sizeof(*sm));
	map_decode(data, sm, sm_info_map, NELEM(sm_info_map));
	if (sm->state > MAD_SM_MASTER)
		return -EBADMSG;
	return 0;
}

void mad_sm_info_encode(const struct mad_sm_info *sm, uint8_t *data)
{
	map_encode(sm, data, sm_info_map, NELEM(sm_info_map));
}

int mad_lft_decode(const uint8_t *data, struct mad_lft_block *lft)
{
	memcpy(lft->port, data, MAD_LFT_BLOCK);
	return 0;
}

void mad_lft_encode(const struct mad_lft_block *lft, uint8_t *data)
{
	memcpy(data, lft->port, MAD_LFT_BLOCK);
}

int mad_pkey_decode(const uint8_t *data, struct mad_pkey_block *pk)
{
	for (unsigned i = 0; i < MAD_PKEY_BLOCK; i++)
		pk->pkey[i] = (uint16_t)(data[2 * i] << 8 | data[2 * i + 1]);
	return 0;
}

void mad_pkey_encode(const struct mad_pkey_block *pk, uint8_t *data)
{
	for (unsigned i = 0; i < MAD_PKEY_BLOCK; i++) {
		data[2 * i] = pk->pkey[i] >> 8;
		data[2 * i + 1] = pk->pkey[i] & 0xff;
	}
}

int mad_guid_info_decode(const uint8_t *data, struct mad_guid_block *g)
{
	for (unsigned i = 0; i < MAD_GUID_INFO_BLOCK; i++)
		g->guid[i] = mad_get_be(data + 8 * i, 8);
	return 0;
}

void mad_guid_info_encode(const struct mad_guid_block *g, uint8_t *data)
{
	for (unsigned i = 0; i < MAD_GUID_INFO_BLOCK; i++)
		mad_put_be(data + 8 * i, g->guid[i], 8);
}

/* One 64-bit field, SL 0 in its top nibble. */
int mad_sl2vl_decode(const uint8_t *data, struct mad_sl2vl *t)
{
	uint64_t v = mad_get_field64((void *)data, 0, IB_SLTOVL_MAPPING_TABLE_F);

	for (unsigned sl = 0; sl < MAD_NUM_SL; sl++)
		t->vl[sl] = (uint8_t)(v >> (60 - 4 * sl) & 0xf);
	return 0;
}

void mad_sl2vl_encode(const struct mad_sl2vl *t, uint8_t *data)
{
	uint64_t v = 0;

	for (unsigned sl = 0; sl < MAD_NUM_SL; sl++)
		v |= (uint64_t)(t->vl[sl] & 0xf) << (60 - 4 * sl);
	memset(data, 0, SMP_DATA_SIZE);
	mad_set_field64(data, 0, IB_SLTOVL_MAPPING_TABLE_F, v);
}

int mad_vlarb_decode(const uint8_t *data, struct mad_vlarb_block *b)
{
	for (unsigned i = 0; i < MAD_VLARB_ENTRIES; i++) {
		b->e[i].vl = data[2 * i] & 0xf;
		b->e[i].weight = data[2 * i + 1];
	}
	return 0;
}

void mad_vlarb_encode(const struct mad_vlarb_block *b, uint8_t *data)
{
	for (unsigned i = 0; i < MAD_VLARB_ENTRIES; i++) {
		data[2 * i] = b->e[i].vl & 0xf;
		data[2 * i + 1] = b->e[i].weight;
	}
}

static const struct field_map notice_map[] = {
	FIELD(struct mad_notice, IB_NOTICE_IS_GENERIC_F, is_generic),
	FIELD(struct mad_notice, IB_NOTICE_TYPE_F, type),
	FIELD(struct mad_notice, IB_NOTICE_PRODUCER_F, producer_type),
	FIELD(struct mad_notice, IB_NOTICE_TRAP_NUMBER_F, trap_num),
	FIELD(struct mad_notice, IB_NOTICE_ISSUER_LID_F, issuer_lid),
	FIELD(struct mad_notice, IB_NOTICE_TOGGLE_F, toggle),
	FIELD(struct mad_notice, IB_NOTICE_COUNT_F, count),
};

/* Notice: 8 bytes of header, then 54 bytes of DataDetails (IBA 13.4.8.2). */
#define NOTICE_DETAILS_OFFSET 10

int mad_notice_decode(const uint8_t *data, struct mad_notice *n)
{
	memset(n, 0, sizeof(*n));
	map_decode(data, n, notice_map, NELEM(notice_map));
	memcpy(n->details, data + NOTICE_DETAILS_OFFSET, sizeof(n->details));
	return 0;
}

void mad_notice_encode(const struct mad_notice *n, uint8_t *data)
{
	map_encode(n, data, notice_map, NELEM(notice_map));
	memcpy(data + NOTICE_DETAILS_OFFSET, n->details, sizeof(n->details));
}

unsigned mad_data_vls(uint8_t oper_vls)
{
	if (oper_vls < 1 || oper_vls > 5)
		return 1;
	return oper_vls == 5 ? 15 : 1u << (oper_vls - 1);
}

/* LinkSpeedExt bits 1, 2, 4, 8 are topo_rate.h's FDR..NDR shifted down by 3. */
#define EXT_SPEED_SHIFT 3

uint8_t mad_port_speed_active(const struct mad_port_info *pi, bool ext)
{
	uint8_t e = pi->link_speed_ext_active & 0xf;

	if (ext && (pi->link_speed_ext_active2 & 1))
		return MAD_SPEED_XDR;
	if (ext && e)
		return (uint8_t)(e << EXT_SPEED_SHIFT);
	return pi->link_speed_active & 7;
}

uint8_t mad_port_speed_supported(const struct mad_port_info *pi, bool ext)
{
	uint8_t s = pi->link_speed_supported & 7;

	if (ext)
		s |= (uint8_t)((pi->link_speed_ext_supported & 0xf) << EXT_SPEED_SHIFT);
	if (ext && (pi->link_speed_ext_supported2 & 1))
		s |= MAD_SPEED_XDR;
	return s;
}

/* Where a trap's details carry the LID it is about: Trap 128 starts with it,
 * Trap 144 has 2 reserved bytes first (IBA 14.2.5.1, table 143). */
static unsigned notice_lid_offset(const struct mad_notice *n)
{
	return n->trap_num == MAD_TRAP_CAPMASK_CHANGE ? 2 : 0;
}

uint16_t mad_notice_lid(const struct mad_notice *n)
{
	unsigned o = notice_lid_offset(n);

	return (uint16_t)(n->details[o] << 8 | n->details[o + 1]);
}

void mad_notice_set_lid(struct mad_notice *n, uint16_t lid)
{
	unsigned o = notice_lid_offset(n);

	n->details[o] = lid >> 8;
	n->details[o + 1] = lid & 0xff;
}

/* Every table, for locate_all() */
static const struct {
	const struct field_map *map;
	size_t n;
} attr_tables[] = {
	{ node_info_map, NELEM(node_info_map) },
	{ port_info_map, NELEM(port_info_map) },
	{ switch_info_map, NELEM(switch_info_map) },
	{ sm_info_map, NELEM(sm_info_map) },
	{ notice_map, NELEM(notice_map) },
};

static void locate_all(void)
{
	for (size_t i = 0; i < NELEM(attr_tables); i++)
		for (size_t k = 0; k < attr_tables[i].n; k++)
			field_locate(&attr_tables[i].map[k]);
}

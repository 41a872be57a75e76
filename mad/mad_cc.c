// SPDX-License-Identifier: MIT
/*
 * mad_cc.c - congestion control MAD header and attribute codecs.
 *
 * Each attribute, and each element of those that repeat one (the ports of
 * SwitchPortCongestionSetting, the SLs of CACongestionSetting, the entries
 * of a CongestionControlTable block), is a table mapping a libibmad IB_CC_*
 * field to a member of its host structure; one routine walks a table to
 * decode and one to encode, at the element's byte offset.  libibmad places
 * and masks each field (mad_get_field()/mad_set_field() at a base offset);
 * the port masks of SwitchCongestionSetting are its byte arrays.  A few
 * thousand CC MADs a sweep make libibmad's per-call cost nothing to save
 * (mad_attr.c locates the SMP fields once instead: millions of SMPs).
 * check_mad_cc.c holds the result to golden bytes of Annex A10's layouts.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <infiniband/mad.h>

#include "mad/mad_cc.h"

struct cc_field {
	enum MAD_FIELDS field;
	uint16_t offset;	/* of the member */
	uint8_t size;		/* of the member: 1, 2, 4 or 8 */
};

#define CC_FIELD(type, f, member) \
	{ f, offsetof(type, member), sizeof(((type *)0)->member) }
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Element sizes on the wire and where the repeated ones start. */
enum {
	SW_PORT_BYTES = 4,
	CA_HEAD_BYTES = 4, CA_ENTRY_BYTES = 8,
	CCT_HEAD_BYTES = 4, CCT_ENTRY_BYTES = 2,
};
#define ELEM_MAX 8	/* the longest repeated element */
_Static_assert(SW_PORT_BYTES <= ELEM_MAX && CA_ENTRY_BYTES <= ELEM_MAX, "elements");
_Static_assert(MAD_CC_DATA_OFFSET + MAD_CC_DATA_SIZE == MAD_BLOCK_SIZE, "CC data");
_Static_assert(SW_PORT_BYTES * MAD_CC_SWITCH_PORTS_PER_BLOCK <= MAD_CC_DATA_SIZE &&
	       CA_HEAD_BYTES + CA_ENTRY_BYTES * MAD_CC_CA_SLS <= MAD_CC_DATA_SIZE &&
	       CCT_HEAD_BYTES + CCT_ENTRY_BYTES * MAD_CC_CCT_PER_BLOCK <= MAD_CC_DATA_SIZE,
	       "CC attributes fit a MAD");

static void fields_decode(const uint8_t *data, void *obj, const struct cc_field *map,
			  size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t *p = (uint8_t *)obj + map[i].offset;
		uint8_t *d = (uint8_t *)data;
		uint64_t v = map[i].size == 8 ? mad_get_field64(d, 0, map[i].field)
					      : mad_get_field(d, 0, map[i].field);
		switch (map[i].size) {
		case 1: *p = (uint8_t)v; break;
		case 2: *(uint16_t *)(void *)p = (uint16_t)v; break;
		case 4: *(uint32_t *)(void *)p = (uint32_t)v; break;
		default: *(uint64_t *)(void *)p = v; break;
		}
	}
}

/* The bits of a field of at most 32 bits: libibmad writes a value wider than
 * its field into the bits beside it, so values are masked first.  What it
 * reads back of all ones written into a scratch MAD is the mask. */
static uint32_t field_mask(enum MAD_FIELDS field)
{
	uint8_t scratch[IB_MAD_SIZE + 8] = { 0 };

	mad_set_field(scratch, 0, field, UINT32_MAX);
	return mad_get_field(scratch, 0, field);
}

static void fields_encode(const void *obj, uint8_t *data, const struct cc_field *map,
			  size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = (const uint8_t *)obj + map[i].offset;
		uint32_t v;
		switch (map[i].size) {
		case 1: v = *p; break;
		case 2: v = *(const uint16_t *)(const void *)p; break;
		case 4: v = *(const uint32_t *)(const void *)p; break;
		default:	/* the CC_Keys: whole 64-bit fields */
			mad_set_field64(data, 0, map[i].field, *(const uint64_t *)(const void *)p);
			continue;
		}
		mad_set_field(data, 0, map[i].field, v & field_mask(map[i].field));
	}
}

/*
 * The element of @bytes at byte @at: libibmad addresses a field inside a
 * 32-bit word (it swaps byte indices within the word), so a field is read
 * and written at an offset that is a multiple of 4 only.  A CCT entry is 2
 * bytes: each element goes through a scratch copy of its own at offset 0.
 */
static void elem_decode(const uint8_t *data, unsigned at, unsigned bytes, void *obj,
			const struct cc_field *map, size_t n)
{
	uint8_t tmp[ELEM_MAX] = { 0 };

	memcpy(tmp, data + at, bytes);
	fields_decode(tmp, obj, map, n);
}

static void elem_encode(const void *obj, uint8_t *data, unsigned at, unsigned bytes,
			const struct cc_field *map, size_t n)
{
	uint8_t tmp[ELEM_MAX] = { 0 };

	fields_encode(obj, tmp, map, n);
	memcpy(data + at, tmp, bytes);
}

/*
 * An attribute's layout: its head fields, then @count elements of
 * @wire_bytes each from byte @wire_at, each the member at @elems_at +
 * i * @elem_size of the host structure.  One path encodes and decodes them
 * all.
 */
struct cc_layout {
	const struct cc_field *head;
	size_t nhead;
	const struct cc_field *elem;
	size_t nelem;
	size_t obj_size;
	uint16_t elems_at, elem_size;
	uint8_t wire_at, wire_bytes, count;
};

#define CC_LAYOUT(type, head_map) \
	.head = head_map, .nhead = NELEM(head_map), .obj_size = sizeof(type)
#define CC_ELEMS(type, member, elem_map, at, bytes, n) \
	.elem = elem_map, .nelem = NELEM(elem_map), .elems_at = offsetof(type, member), \
	.elem_size = sizeof(((type *)0)->member[0]), .wire_at = at, .wire_bytes = bytes, .count = n

static void layout_encode(const struct cc_layout *l, const void *obj, uint8_t *data)
{
	memset(data, 0, MAD_CC_DATA_SIZE);
	fields_encode(obj, data, l->head, l->nhead);
	for (unsigned i = 0; i < l->count; i++)
		elem_encode((const uint8_t *)obj + l->elems_at + i * l->elem_size, data,
			    l->wire_at + i * l->wire_bytes, l->wire_bytes, l->elem, l->nelem);
}

static void layout_decode(const struct cc_layout *l, const uint8_t *data, void *obj)
{
	memset(obj, 0, l->obj_size);
	fields_decode(data, obj, l->head, l->nhead);
	for (unsigned i = 0; i < l->count; i++)
		elem_decode(data, l->wire_at + i * l->wire_bytes, l->wire_bytes,
			    (uint8_t *)obj + l->elems_at + i * l->elem_size, l->elem, l->nelem);
}

void mad_cc_init(struct mad_cc *cc, uint8_t method, uint16_t attr_id, uint64_t cc_key)
{
	memset(cc, 0, sizeof(*cc));
	mad_gmp_header_init(&cc->hdr, MAD_CLASS_CC, MAD_CC_CLASS_VERSION, method, attr_id);
	cc->cc_key = cc_key;
}

void mad_cc_encode(const struct mad_cc *cc, uint8_t buf[MAD_BLOCK_SIZE])
{
	mad_gmp_encode(&cc->hdr, cc->data, MAD_CC_DATA_OFFSET, MAD_CC_DATA_SIZE, buf);
	mad_set_field64(buf, 0, IB_CC_CCKEY_F, cc->cc_key);
}

int mad_cc_decode(const uint8_t *buf, size_t len, struct mad_cc *cc)
{
	if (len < MAD_BLOCK_SIZE)
		return -EMSGSIZE;
	memset(cc, 0, sizeof(*cc));
	mad_gmp_header_decode(buf, &cc->hdr);
	if (cc->base_version != 1 || cc->mgmt_class != MAD_CLASS_CC)
		return -EPROTONOSUPPORT;
	cc->cc_key = mad_get_field64((uint8_t *)buf, 0, IB_CC_CCKEY_F);
	memcpy(cc->data, buf + MAD_CC_DATA_OFFSET, MAD_CC_DATA_SIZE);
	return 0;
}

static const struct cc_field info_map[] = {
	CC_FIELD(struct mad_cc_info, IB_CC_CONGESTION_INFO_F, info),
	CC_FIELD(struct mad_cc_info, IB_CC_CONGESTION_INFO_CONTROL_TABLE_CAP_F,
		 control_table_cap),
};

static const struct cc_layout info_layout = { CC_LAYOUT(struct mad_cc_info, info_map) };

void mad_cc_info_encode(const struct mad_cc_info *v, uint8_t *data)
{
	layout_encode(&info_layout, v, data);
}

void mad_cc_info_decode(const uint8_t *data, struct mad_cc_info *v)
{
	layout_decode(&info_layout, data, v);
}

/* ClassPortInfo's BaseVersion, ClassVersion and RespTimeValue (the low 5
 * bits of its eighth byte). */
enum { CPI_BASE_VERSION = 0, CPI_CLASS_VERSION = 1, CPI_RESP_TIME = 7 };

void mad_cc_class_port_info_encode(uint8_t resp_time, uint8_t *data)
{
	memset(data, 0, MAD_CC_DATA_SIZE);
	data[CPI_BASE_VERSION] = 1;
	data[CPI_CLASS_VERSION] = MAD_CC_CLASS_VERSION;
	data[CPI_RESP_TIME] = resp_time & 0x1f;
}

bool mad_cc_class_port_info_ours(const uint8_t *data)
{
	return data[CPI_BASE_VERSION] == 1 && data[CPI_CLASS_VERSION] == MAD_CC_CLASS_VERSION;
}

static const struct cc_field key_info_map[] = {
	CC_FIELD(struct mad_cc_key_info, IB_CC_CONGESTION_KEY_INFO_CC_KEY_F, cc_key),
	CC_FIELD(struct mad_cc_key_info, IB_CC_CONGESTION_KEY_INFO_CC_KEY_PROTECT_BIT_F,
		 protect),
	CC_FIELD(struct mad_cc_key_info, IB_CC_CONGESTION_KEY_INFO_CC_KEY_LEASE_PERIOD_F,
		 lease_period),
	CC_FIELD(struct mad_cc_key_info, IB_CC_CONGESTION_KEY_INFO_CC_KEY_VIOLATIONS_F,
		 violations),
};

static const struct cc_layout key_info_layout = {
	CC_LAYOUT(struct mad_cc_key_info, key_info_map)
};

void mad_cc_key_info_encode(const struct mad_cc_key_info *v, uint8_t *data)
{
	layout_encode(&key_info_layout, v, data);
}

void mad_cc_key_info_decode(const uint8_t *data, struct mad_cc_key_info *v)
{
	layout_decode(&key_info_layout, data, v);
}

static const struct cc_field switch_setting_map[] = {
	CC_FIELD(struct mad_cc_switch_setting, IB_CC_SWITCH_CONGESTION_SETTING_CONTROL_MAP_F,
		 control_map),
	CC_FIELD(struct mad_cc_switch_setting, IB_CC_SWITCH_CONGESTION_SETTING_THRESHOLD_F,
		 threshold),
	CC_FIELD(struct mad_cc_switch_setting, IB_CC_SWITCH_CONGESTION_SETTING_PACKET_SIZE_F,
		 packet_size),
	CC_FIELD(struct mad_cc_switch_setting, IB_CC_SWITCH_CONGESTION_SETTING_CS_THRESHOLD_F,
		 cs_threshold),
	CC_FIELD(struct mad_cc_switch_setting,
		 IB_CC_SWITCH_CONGESTION_SETTING_CS_RETURN_DELAY_F, cs_return_delay),
	CC_FIELD(struct mad_cc_switch_setting, IB_CC_SWITCH_CONGESTION_SETTING_MARKING_RATE_F,
		 marking_rate),
};

static const struct cc_layout switch_setting_layout = {
	CC_LAYOUT(struct mad_cc_switch_setting, switch_setting_map)
};

/* The port masks are byte arrays beside the fields. */
void mad_cc_switch_setting_encode(const struct mad_cc_switch_setting *v, uint8_t *data)
{
	layout_encode(&switch_setting_layout, v, data);
	mad_set_array(data, 0, IB_CC_SWITCH_CONGESTION_SETTING_VICTIM_MASK_F,
		      (void *)v->victim_mask);
	mad_set_array(data, 0, IB_CC_SWITCH_CONGESTION_SETTING_CREDIT_MASK_F,
		      (void *)v->credit_mask);
}

void mad_cc_switch_setting_decode(const uint8_t *data, struct mad_cc_switch_setting *v)
{
	layout_decode(&switch_setting_layout, data, v);
	mad_get_array((uint8_t *)data, 0, IB_CC_SWITCH_CONGESTION_SETTING_VICTIM_MASK_F,
		      v->victim_mask);
	mad_get_array((uint8_t *)data, 0, IB_CC_SWITCH_CONGESTION_SETTING_CREDIT_MASK_F,
		      v->credit_mask);
}

static const struct cc_field switch_port_map[] = {
	CC_FIELD(struct mad_cc_switch_port,
		 IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_VALID_F, valid),
	CC_FIELD(struct mad_cc_switch_port,
		 IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_CONTROL_TYPE_F, control_type),
	CC_FIELD(struct mad_cc_switch_port,
		 IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_THRESHOLD_F, threshold),
	CC_FIELD(struct mad_cc_switch_port,
		 IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_PACKET_SIZE_F, packet_size),
	CC_FIELD(struct mad_cc_switch_port,
		 IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_CONG_PARM_MARKING_RATE_F,
		 marking_rate),
};

static const struct cc_layout switch_port_layout = {
	.obj_size = sizeof(struct mad_cc_switch_port_setting),
	CC_ELEMS(struct mad_cc_switch_port_setting, port, switch_port_map, 0, SW_PORT_BYTES,
		 MAD_CC_SWITCH_PORTS_PER_BLOCK)
};

void mad_cc_switch_port_setting_encode(const struct mad_cc_switch_port_setting *v,
				       uint8_t *data)
{
	layout_encode(&switch_port_layout, v, data);
}

void mad_cc_switch_port_setting_decode(const uint8_t *data,
				       struct mad_cc_switch_port_setting *v)
{
	layout_decode(&switch_port_layout, data, v);
}

static const struct cc_field ca_setting_map[] = {
	CC_FIELD(struct mad_cc_ca_setting, IB_CC_CA_CONGESTION_SETTING_PORT_CONTROL_F,
		 port_control),
	CC_FIELD(struct mad_cc_ca_setting, IB_CC_CA_CONGESTION_SETTING_CONTROL_MAP_F,
		 control_map),
};

static const struct cc_field ca_entry_map[] = {
	CC_FIELD(struct mad_cc_ca_entry, IB_CC_CA_CONGESTION_ENTRY_CCTI_TIMER_F, ccti_timer),
	CC_FIELD(struct mad_cc_ca_entry, IB_CC_CA_CONGESTION_ENTRY_CCTI_INCREASE_F,
		 ccti_increase),
	CC_FIELD(struct mad_cc_ca_entry, IB_CC_CA_CONGESTION_ENTRY_TRIGGER_THRESHOLD_F,
		 trigger_threshold),
	CC_FIELD(struct mad_cc_ca_entry, IB_CC_CA_CONGESTION_ENTRY_CCTI_MIN_F, ccti_min),
};

static const struct cc_layout ca_setting_layout = {
	CC_LAYOUT(struct mad_cc_ca_setting, ca_setting_map),
	CC_ELEMS(struct mad_cc_ca_setting, sl, ca_entry_map, CA_HEAD_BYTES, CA_ENTRY_BYTES,
		 MAD_CC_CA_SLS)
};

void mad_cc_ca_setting_encode(const struct mad_cc_ca_setting *v, uint8_t *data)
{
	layout_encode(&ca_setting_layout, v, data);
}

void mad_cc_ca_setting_decode(const uint8_t *data, struct mad_cc_ca_setting *v)
{
	layout_decode(&ca_setting_layout, data, v);
}

static const struct cc_field cct_map[] = {
	CC_FIELD(struct mad_cc_cct, IB_CC_CONGESTION_CONTROL_TABLE_CCTI_LIMIT_F, ccti_limit),
};

static const struct cc_field cct_entry_map[] = {
	CC_FIELD(struct mad_cc_cct_entry, IB_CC_CONGESTION_CONTROL_TABLE_ENTRY_CCT_SHIFT_F,
		 shift),
	CC_FIELD(struct mad_cc_cct_entry,
		 IB_CC_CONGESTION_CONTROL_TABLE_ENTRY_CCT_MULTIPLIER_F, multiplier),
};

static const struct cc_layout cct_layout = {
	CC_LAYOUT(struct mad_cc_cct, cct_map),
	CC_ELEMS(struct mad_cc_cct, entry, cct_entry_map, CCT_HEAD_BYTES, CCT_ENTRY_BYTES,
		 MAD_CC_CCT_PER_BLOCK)
};

void mad_cc_cct_encode(const struct mad_cc_cct *v, uint8_t *data)
{
	layout_encode(&cct_layout, v, data);
}

void mad_cc_cct_decode(const uint8_t *data, struct mad_cc_cct *v)
{
	layout_decode(&cct_layout, data, v);
}

/* SPDX-License-Identifier: MIT */
/*
 * mad_ar.h - codecs for the vendor (Mellanox/NVIDIA) SMP attributes of
 * adaptive routing (AR): AdaptiveRoutingInfo, AdaptiveRoutingGroupTable and
 * the AR LinearForwardingTable.
 *
 * Like mad_attr.h: a host structure per attribute, a decode from and an
 * encode into the 64-byte SMP payload; encode(decode(x)) == x for every
 * field the layouts name (reserved bits are zero on encode).  A Set of
 * AdaptiveRoutingInfo writes the whole attribute: what a switch holds and
 * we do not set (ageing time, by-transport disable, is4_mode...) must go back
 * as it was read, so the SM modifies a decoded answer and encodes it whole.  The layouts are the public ones
 * of the ibutils2/ibis generated headers (adaptive_routing_info,
 * ib_ar_grp_table of ib_portgroup_block_element, ib_ar_linear_forwarding_
 * table_sx of ib_ar_lft_block_element_sx): each field is given there as bits
 * of a big-endian 32-bit word counted from its least significant bit, which
 * is how the comments below give them too ("w0 3:0" is the low nibble of
 * payload byte 3).  Only the payload is here: attribute modifiers (which
 * block, which table, which private LFT) belong to the code that sends them.
 */
#ifndef IBSMD_MAD_AR_H
#define IBSMD_MAD_AR_H

#include <stdbool.h>
#include <stdint.h>

#include "mad/mad_smp.h"

/* The attributes are in the vendor range of the SM class: they mean AR on
 * devices of this NodeInfo VendorID (Mellanox's OUI, which NVIDIA switches
 * keep), and nothing, or something else, on others. */
#define MAD_AR_VENDOR_ID 0x0002c9

#define MAD_ATTR_AR_INFO 0xff20		/* AdaptiveRoutingInfo */
#define MAD_ATTR_AR_GROUP_TABLE 0xff21	/* AdaptiveRoutingGroupTable */
#define MAD_ATTR_AR_LFT 0xff22		/* AdaptiveRoutingLinearForwardingTable (SX) */

#define MAD_AR_INFO_LEN 20		/* the words AdaptiveRoutingInfo always has */
#define MAD_AR_GROUPS_PER_BLOCK 2	/* groups in one AdaptiveRoutingGroupTable block */
#define MAD_AR_GROUP_LEN 32		/* one group: 4 sub-group masks of 64 ports */
#define MAD_AR_GROUP_PORTS 256		/* ports a group's mask can name */
#define MAD_AR_LFT_PER_BLOCK 16		/* LIDs in one AR LFT block */
#define MAD_AR_LFT_ENTRY_LEN 4
#define MAD_AR_MAX_GROUP 0xfff		/* 12-bit group numbers */
#define MAD_AR_MAX_TABLE 0xf		/* 4-bit group table numbers */

_Static_assert(MAD_AR_INFO_LEN <= SMP_DATA_SIZE, "AdaptiveRoutingInfo fits an SMP");
_Static_assert(MAD_AR_GROUPS_PER_BLOCK * MAD_AR_GROUP_LEN == SMP_DATA_SIZE,
	       "a group table block fills an SMP");
_Static_assert(MAD_AR_LFT_PER_BLOCK * MAD_AR_LFT_ENTRY_LEN == SMP_DATA_SIZE,
	       "an AR LFT block fills an SMP");
_Static_assert(MAD_AR_GROUP_PORTS == MAD_AR_GROUP_LEN * 8, "a group mask holds every port");

/* AdaptiveRoutingInfo */
struct mad_ar_info {
	bool enable;			/* w0 0: AR enabled */
	bool arn_supported;		/* w0 1 */
	bool frn_supported;		/* w0 2 */
	bool fr_supported;		/* w0 3: fallback routing supported */
	bool fr_enable;			/* w0 4: fallback routing enabled */
	bool rn_xmit_enable;		/* w0 5 */
	uint8_t sub_grps_active;	/* w0 11:8: sub-groups used in each group */
	uint8_t group_table_copy_sup;	/* w0 15:12: groups a table copy can copy */
	uint8_t direction_num_sup;	/* w0 23:16 */
	/* w0 24: what a plain LinearForwardingTable Set does to the switch: 0
	 * turns AR off (enable := 0), 1 refuses the Set ("return error") */
	bool no_fallback;
	bool is4_mode;			/* w0 25: 0 one transmit queue, 1 three */
	bool glb_groups;		/* w0 26: groups are global, not per private LFT */
	bool by_sl_cap;			/* w0 27: enable_by_sl_mask supported */
	bool by_sl_enable;		/* w0 28: AR only on the SLs of enable_by_sl_mask */
	bool by_transp_cap;		/* w0 29: by_transport_disable supported */
	bool dyn_cap_calc_sup;		/* w0 30: capabilities follow the selection */
	uint16_t group_cap;		/* w1 11:0: groups a table holds; 0: no AR */
	uint16_t group_top;		/* w1 23:12: the highest enabled group */
	uint8_t group_table_cap;	/* w1 27:24: group tables */
	uint8_t string_width_cap;	/* w1 31:28 */
	uint8_t ar_version_cap;		/* w2 3:0 */
	uint8_t rn_version_cap;		/* w2 7:4 */
	uint8_t sub_grps_supported;	/* w2 15:8 */
	uint16_t enable_by_sl_mask;	/* w2 31:16 */
	uint8_t by_transport_disable;	/* w3 7:0: no AR for UD, RC, UC, DCT (bits 0-3) */
	uint32_t ageing_time;		/* w4: ageing_time_value, in microseconds */
};

/* One AR group: the ports it may send out of, bit p % 64 of ports[p / 64]
 * for port p (on the wire: sub-group 3, the ports 192..255, first). */
struct mad_ar_group {
	uint64_t ports[MAD_AR_GROUP_PORTS / 64];
};

struct mad_ar_group_block {
	struct mad_ar_group group[MAD_AR_GROUPS_PER_BLOCK];
};

/* The LID states of an AR LFT entry */
enum mad_ar_lid_state {
	MAD_AR_BOUNDED = 0,	/* AR within the group */
	MAD_AR_FREE = 1,	/* free AR within the group */
	MAD_AR_STATIC = 2,	/* the static port only (3 is reserved) */
};

struct mad_ar_lft_entry {
	uint16_t group;		/* 11:0: the LID's group (static state: the port) */
	uint8_t default_port;	/* 23:16: the static port */
	uint8_t table;		/* 27:24: the group table (not for static) */
	uint8_t state;		/* 31:30: enum mad_ar_lid_state */
};

struct mad_ar_lft_block {
	struct mad_ar_lft_entry e[MAD_AR_LFT_PER_BLOCK];	/* entry i: LID block*16 + i */
};

/*
 * Attribute modifiers, as ibis sends them:
 *  AdaptiveRoutingInfo: 0 (bit 31 set asks for the capabilities only; unused);
 *  AdaptiveRoutingGroupTable: bits 11:0 the block (groups 2*block and
 *    2*block + 1), bits 19:16 the group table, bits 26:24 the private LFT;
 *  AdaptiveRoutingLinearForwardingTable: bits 15:0 the block (LIDs 16*block
 *    .. 16*block + 15), bits 26:24 the private LFT.
 * We use group table 0 and private LFT 0 only.
 */
#define MAD_AR_GROUP_MAX_BLOCK 0xfff
#define MAD_AR_LFT_MAX_BLOCK 0xffff

static inline uint32_t mad_ar_group_mod(uint16_t block)
{
	return block & MAD_AR_GROUP_MAX_BLOCK;
}

static inline uint32_t mad_ar_lft_mod(uint16_t block)
{
	return block;
}

/* Decoders: 0, or -EBADMSG for what no device sends (a group top beyond the
 * cap, a reserved LID state).  Encoders: 0, or -EINVAL for a value that does
 * not fit its field (nothing is written then). */
int mad_ar_info_decode(const uint8_t *data, struct mad_ar_info *ai);
int mad_ar_info_encode(const struct mad_ar_info *ai, uint8_t *data);
int mad_ar_group_decode(const uint8_t *data, struct mad_ar_group_block *gb);
int mad_ar_group_encode(const struct mad_ar_group_block *gb, uint8_t *data);
int mad_ar_lft_decode(const uint8_t *data, struct mad_ar_lft_block *lb);
int mad_ar_lft_encode(const struct mad_ar_lft_block *lb, uint8_t *data);

#endif

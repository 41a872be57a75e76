/* SPDX-License-Identifier: MIT */
/*
 * mad_attr.h - codecs for the SMP attributes an SM needs.
 *
 * Each attribute is a host structure with a decode from, and an encode into, the
 * 64-byte SMP payload (struct mad_smp.data).  Field positions come from libibmad's
 * field tables (IBA 1.x chapter 14.2.5); encode(decode(x)) == x for the fields we
 * model, and the fields we do not model are zero on encode.  Decoders validate
 * what they can (node type, port counts, port states) and return -EBADMSG for a
 * payload no conforming device would send.
 */
#ifndef IBSMD_MAD_ATTR_H
#define IBSMD_MAD_ATTR_H

#include <stdbool.h>
#include <stdint.h>

#include "mad/model/topo_names.h"
#include "mad/mad_smp.h"

/* PortInfo CapabilityMask bits we use (IBA 14.2.5.6, table 147) */
#define MAD_CAP_IS_SM (1u << 1)
#define MAD_CAP_IS_TRAP_SUPPORTED (1u << 3)
#define MAD_CAP_IS_SL_MAPPING_SUPPORTED (1u << 6)
#define MAD_CAP_IS_SM_DISABLED (1u << 10)
#define MAD_CAP_IS_EXT_SPEEDS_SUPPORTED (1u << 14)
#define MAD_CAP_IS_CAP_MASK2_SUPPORTED (1u << 15)
#define MAD_CAP_IS_CLIENT_REREG_SUPPORTED (1u << 25)
#define MAD_CAP_IS_MCAST_FDB_TOP_SUPPORTED (1u << 30)

/*
 * PortInfo attribute modifier bit 31, SMSupportExtendedSpeeds (IBA 1.3+,
 * 14.2.5.6): set on Get and Set, a port that supports extended speeds reports
 * and takes LinkSpeedExtActive/Supported/Enabled; without it those fields read
 * 0 and are ignored on Set.  Bits 7:0 are the port number.
 */
#define MAD_PORT_INFO_EXT_SPEEDS (1u << 31)

/* "Set to all supported" values of the Enabled fields; 0 means no change. */
#define MAD_WIDTH_ENABLE_ALL 255
#define MAD_SPEED_ENABLE_ALL 15
#define MAD_SPEED_EXT_ENABLE_ALL 31

#define MAD_LFT_BLOCK 64	/* LFT entries per block */
#define MAD_LFT_NO_PORT 0xff	/* an LFT entry that routes nowhere */
#define MAD_PKEY_BLOCK 32	/* P_Key entries per block */
#define MAD_GUID_INFO_BLOCK 8	/* GUIDs per GUIDInfo block */
#define MAD_NODE_DESC_LEN 64
#define MAD_MAX_UCAST_LID 0xbfff	/* 49,151 */
#define MAD_MLID_FIRST 0xc000		/* the first multicast LID */

struct mad_node_info {
	uint8_t base_version;
	uint8_t class_version;
	uint8_t node_type;	/* enum mad_node_type */
	uint8_t num_ports;
	uint64_t system_guid;
	uint64_t node_guid;
	uint64_t port_guid;
	uint16_t partition_cap;
	uint16_t device_id;
	uint32_t revision;
	uint8_t local_port;	/* the port the SMP came in on */
	uint32_t vendor_id;	/* 24 bits */
};

struct mad_node_desc {
	char desc[MAD_NODE_DESC_LEN + 1];	/* NUL terminated */
};

struct mad_port_info {
	uint64_t mkey;
	uint64_t gid_prefix;
	uint16_t lid;
	uint16_t sm_lid;
	uint32_t cap_mask;
	uint16_t diag_code;
	uint16_t mkey_lease;
	uint8_t local_port;
	uint8_t link_width_enabled;
	uint8_t link_width_supported;
	uint8_t link_width_active;
	uint8_t link_speed_supported;
	uint8_t port_state;	/* enum mad_port_state */
	uint8_t phys_state;	/* enum mad_phys_state */
	uint8_t link_down_default;
	uint8_t mkey_prot;
	uint8_t lmc;
	uint8_t link_speed_active;
	uint8_t link_speed_enabled;
	uint8_t neighbor_mtu;
	uint8_t sm_sl;
	uint8_t vl_cap;
	uint8_t init_type;
	uint8_t vl_high_limit;
	uint8_t vl_arb_high_cap;
	uint8_t vl_arb_low_cap;
	uint8_t init_type_reply;
	uint8_t mtu_cap;
	uint8_t vl_stall_count;
	uint8_t hoq_life;
	uint8_t oper_vls;
	uint8_t part_enf_inb;
	uint8_t part_enf_outb;
	uint8_t filter_raw_inb;
	uint8_t filter_raw_outb;
	uint16_t mkey_violations;
	uint16_t pkey_violations;
	uint16_t qkey_violations;
	uint8_t guid_cap;
	uint8_t client_reregister;
	uint8_t subnet_timeout;
	uint8_t resp_time_value;
	uint8_t local_phys_errors;
	uint8_t overrun_errors;
	uint16_t max_credit_hint;
	uint32_t link_round_trip;
	uint16_t cap_mask2;	/* when CapabilityMask.IsCapabilityMask2Supported */
	/* IBA 1.5: 1 FDR (14.0625 Gb/s), 2 EDR (25.78125), 4 HDR (53.125), 8 NDR
	 * (106.25); reported only on a Get with MAD_PORT_INFO_EXT_SPEEDS */
	uint8_t link_speed_ext_active;
	uint8_t link_speed_ext_supported;
	uint8_t link_speed_ext_enabled;	/* 5 bits: 30 disables, 31 all supported */
	/* IBA 1.7 (byte 56, below LinkRoundTripLatency's byte; libibmad 44 has no
	 * fields for them): 1 XDR (212.5 Gb/s); reported with the others above */
	uint8_t link_speed_ext_active2;		/* 2 bits */
	uint8_t link_speed_ext_supported2;	/* 2 bits */
	uint8_t link_speed_ext_enabled2;	/* 3 bits, written back as read */
};

struct mad_switch_info {
	uint16_t lft_cap;
	uint16_t rft_cap;
	uint16_t mft_cap;
	uint16_t lft_top;
	uint8_t default_port;
	uint8_t default_mcast_primary;
	uint8_t default_mcast_not_primary;
	uint8_t life_time;
	bool port_state_change;	/* write 1 to clear (IBA 14.2.5.4) */
	uint8_t opt_sl2vl;	/* OptimizedSLtoVLMappingProgramming, 2 bits: see
				 * mad_switch_opt_sl2vl() */
	uint16_t lids_per_port;
	uint16_t partition_enf_cap;
	uint8_t part_enf_inb;
	uint8_t part_enf_outb;
	uint8_t filter_raw_inb;
	uint8_t filter_raw_outb;
	bool enhanced_port0;
	uint16_t mft_top;
};

struct mad_sm_info {
	uint64_t guid;
	uint64_t sm_key;
	uint32_t act_count;
	uint8_t priority;
	uint8_t state;	/* enum mad_sm_state */
};

struct mad_lft_block {
	uint8_t port[MAD_LFT_BLOCK];	/* entry i is LID block*64 + i */
};

struct mad_pkey_block {
	uint16_t pkey[MAD_PKEY_BLOCK];
};

/* GUIDInfo (IBA 14.2.5.5): eight GUIDs a block, the modifier the block;
 * entry 0 of block 0 is the port GUID (read-only), the rest alias GUIDs,
 * 0 for none.  A port holds PortInfo GUIDCap entries. */
struct mad_guid_block {
	uint64_t guid[MAD_GUID_INFO_BLOCK];
};

#define MAD_NUM_SL 16

/* SLtoVLMappingTable (IBA 14.2.5.8): the VL each SL rides, 4 bits each, SL 0
 * in the high nibble of payload byte 0.  On a switch one table per (input port,
 * output port), named by the attribute modifier: see MAD_SL2VL_MOD(). */
struct mad_sl2vl {
	uint8_t vl[MAD_NUM_SL];
};

/* A switch's SLtoVLMappingTable modifier: input port in bits 15:8, output port
 * in bits 7:0.  CAs and routers ignore it (the port the SMP came in on). */
#define MAD_SL2VL_MOD(in_port, out_port) ((uint32_t)(in_port) << 8 | (uint32_t)(out_port))

/*
 * Optimized SLtoVLMappingTable programming (IBA 1.2.1 14.2.5.8, SwitchInfo
 * 14.2.5.4): a switch whose SwitchInfo says so takes a Set whose modifier's
 * bit 17 addresses every input port (bits 15:8 ignored) and bit 16 every
 * output port (bits 7:0 ignored), writing one table to each pair addressed.
 * Only a Set may carry them, only to such a switch; bits 31:18 are reserved.
 * (Bit 17 with an output port is what OpenSM's osm_qos.c sends as 0x20000 |
 * port, and both bits as 0x30000.)
 */
#define MAD_SL2VL_MOD_ALL_OUT (1u << 16)
#define MAD_SL2VL_MOD_ALL_IN (1u << 17)
/* Every input port to output port @out_port. */
#define MAD_SL2VL_MOD_ALL_IN_TO(out_port) (MAD_SL2VL_MOD_ALL_IN | (uint32_t)(out_port))
/* Every (input, output) pair of the switch. */
#define MAD_SL2VL_MOD_ALL_PAIRS (MAD_SL2VL_MOD_ALL_IN | MAD_SL2VL_MOD_ALL_OUT)
#define MAD_SL2VL_MOD_RESERVED 0xfffc0000u

/* SwitchInfo.OptimizedSLtoVLMappingProgramming is 2 bits (byte 11, bits 1:0);
 * its low bit says the switch takes the modifiers above, the other is
 * reserved (libibmad's OptSLtoVLMapping field; OpenSM tests the same bit). */
#define MAD_SI_OPT_SL2VL_SUPPORTED 0x1
static inline bool mad_switch_opt_sl2vl(const struct mad_switch_info *si)
{
	return si->opt_sl2vl & MAD_SI_OPT_SL2VL_SUPPORTED;
}

/*
 * VLArbitrationTable (IBA 14.2.5.9, 7.6.9): one block of 32 (VL, weight)
 * entries, 2 bytes each: 4 reserved bits, the VL in 4 bits, the weight in 8
 * (units of 64 bytes; 0: the entry is skipped).  The modifier names the block
 * in bits 31:16 (MAD_VLARB_*) and, on a switch, the output port in bits 7:0.
 */
#define MAD_VLARB_ENTRIES 32
#define MAD_VLARB_LOW_0_31 1
#define MAD_VLARB_LOW_32_63 2
#define MAD_VLARB_HIGH_0_31 3
#define MAD_VLARB_HIGH_32_63 4
#define MAD_VLARB_MOD(block, port) ((uint32_t)(block) << 16 | (uint32_t)(port))

struct mad_vlarb_block {
	struct {
		uint8_t vl;
		uint8_t weight;
	} e[MAD_VLARB_ENTRIES];
};

/* Notice (IBA 14.2.5.1 / 13.4.8.2), as carried by Trap and TrapRepress. */
struct mad_notice {
	bool is_generic;
	uint8_t type;
	uint32_t producer_type;	/* 24 bits; vendor ID when not generic */
	uint16_t trap_num;	/* device ID when not generic */
	uint16_t issuer_lid;
	bool toggle;
	uint16_t count;
	uint8_t details[54];	/* trap specific data */
};

#define MAD_TRAP_LINK_STATE_CHANGE 128
#define MAD_TRAP_CAPMASK_CHANGE 144
#define MAD_TRAP_BAD_MKEY 256

int mad_node_info_decode(const uint8_t *data, struct mad_node_info *ni);
void mad_node_info_encode(const struct mad_node_info *ni, uint8_t *data);
int mad_node_desc_decode(const uint8_t *data, struct mad_node_desc *nd);
void mad_node_desc_encode(const struct mad_node_desc *nd, uint8_t *data);
int mad_port_info_decode(const uint8_t *data, struct mad_port_info *pi);
void mad_port_info_encode(const struct mad_port_info *pi, uint8_t *data);
int mad_switch_info_decode(const uint8_t *data, struct mad_switch_info *si);
void mad_switch_info_encode(const struct mad_switch_info *si, uint8_t *data);
int mad_sm_info_decode(const uint8_t *data, struct mad_sm_info *sm);
void mad_sm_info_encode(const struct mad_sm_info *sm, uint8_t *data);
int mad_lft_decode(const uint8_t *data, struct mad_lft_block *lft);
void mad_lft_encode(const struct mad_lft_block *lft, uint8_t *data);
int mad_pkey_decode(const uint8_t *data, struct mad_pkey_block *pk);
void mad_pkey_encode(const struct mad_pkey_block *pk, uint8_t *data);
int mad_guid_info_decode(const uint8_t *data, struct mad_guid_block *g);
void mad_guid_info_encode(const struct mad_guid_block *g, uint8_t *data);
/* Every VL 0..15 decodes (VL15 means "drop" for data, IBA 7.6.6); encode keeps
 * the low 4 bits of each entry. */
int mad_sl2vl_decode(const uint8_t *data, struct mad_sl2vl *t);
void mad_sl2vl_encode(const struct mad_sl2vl *t, uint8_t *data);
/* Every VL 0..15 decodes; encode keeps the low 4 bits of each VL and writes
 * the reserved bits as zero. */
int mad_vlarb_decode(const uint8_t *data, struct mad_vlarb_block *b);
void mad_vlarb_encode(const struct mad_vlarb_block *b, uint8_t *data);
int mad_notice_decode(const uint8_t *data, struct mad_notice *n);
void mad_notice_encode(const struct mad_notice *n, uint8_t *data);

/*
 * Speed codes (topo_rate.h) from PortInfo.  @ext: the port's node supports
 * extended speeds and the Get carried MAD_PORT_INFO_EXT_SPEEDS; otherwise the
 * LinkSpeedExt fields are not looked at.  The active speed is XDR when
 * LinkSpeedExtActive2 says so, else the extended one when LinkSpeedExtActive
 * is set, else LinkSpeedActive's; the supported speeds are a mask of every
 * code the fields offer.
 */
uint8_t mad_port_speed_active(const struct mad_port_info *pi, bool ext);
uint8_t mad_port_speed_supported(const struct mad_port_info *pi, bool ext);

/* Data VLs of a PortInfo OperationalVLs (or VLCap) value: 1 VL0, 2 VL0-1,
 * 3 VL0-3, 4 VL0-7, 5 VL0-14 (IBA 14.2.5.6); a reserved value counts as VL0
 * only. */
unsigned mad_data_vls(uint8_t oper_vls);

/* Trap 128/144 details: the LID the trap is about (set trap_num first). */
uint16_t mad_notice_lid(const struct mad_notice *n);
void mad_notice_set_lid(struct mad_notice *n, uint16_t lid);

#endif

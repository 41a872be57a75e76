/* SPDX-License-Identifier: MIT */
/*
 * mad_cc.h - congestion control (CC) MADs as host structures.
 *
 * IBA Annex A10: a CC MAD is a 256-byte GMP of management class 0x21, class
 * version 2, sent to QP1 of a port (a switch: its port 0).  After the common
 * header (bytes 0-23) come the CC_Key (bytes 24-31), 32 reserved bytes and
 * 192 bytes of attribute data from byte 64.  Attributes known here:
 * CongestionInfo (0x11, read only), CongestionKeyInfo (0x12),
 * SwitchCongestionSetting (0x14), SwitchPortCongestionSetting (0x15, 32
 * ports a block, the block in the attribute modifier), CACongestionSetting
 * (0x16, 16 per-SL entries) and CongestionControlTable (0x17, CCTI_Limit
 * and 64 entries a block, the block in the attribute modifier).  Where each
 * field lies is libibmad's IB_CC_* table, the one ibccquery and ibccconfig
 * use (mad_cc.c).
 */
#ifndef IBSMD_MAD_CC_H
#define IBSMD_MAD_CC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_gmp.h"
#include "mad/mad_smp.h"

#define MAD_CLASS_CC 0x21
#define MAD_CC_CLASS_VERSION 2
#define MAD_CC_KEY_OFFSET 24
#define MAD_CC_DATA_OFFSET 64
#define MAD_CC_DATA_SIZE 192
#define MAD_CC_QPN 1

enum mad_cc_attr_id {
	MAD_CC_ATTR_CLASS_PORT_INFO = 0x0001,
	MAD_CC_ATTR_INFO = 0x0011,
	MAD_CC_ATTR_KEY_INFO = 0x0012,
	MAD_CC_ATTR_SWITCH_SETTING = 0x0014,
	MAD_CC_ATTR_SWITCH_PORT_SETTING = 0x0015,
	MAD_CC_ATTR_CA_SETTING = 0x0016,
	MAD_CC_ATTR_CCT = 0x0017,
};

#define MAD_CC_PORT_MASK_BYTES 32	/* a bit per port, 256 ports */
#define MAD_CC_SWITCH_PORTS_PER_BLOCK 32
#define MAD_CC_CA_SLS 16
#define MAD_CC_CCT_PER_BLOCK 64

/* SwitchCongestionSetting Control_Map: which parts of a Set take effect. */
enum {
	MAD_CC_SW_MAP_VICTIM = 1u << 0,
	MAD_CC_SW_MAP_CREDIT = 1u << 1,
	MAD_CC_SW_MAP_THRESHOLD = 1u << 2,	/* Threshold and Packet_Size */
	MAD_CC_SW_MAP_CS = 1u << 3,		/* CS_Threshold and CS_ReturnDelay */
	MAD_CC_SW_MAP_MARKING = 1u << 4,
};
#define MAD_CC_SW_MAP_ALL 0x1fu
/* CongestionInfo bit 0: the switch can mark on credit starvation. */
#define MAD_CC_INFO_CREDIT_STARVATION 0x0001u

struct mad_cc {
	MAD_GMP_HEADER;		/* class MAD_CLASS_CC, version 2 */
	uint64_t cc_key;
	uint8_t data[MAD_CC_DATA_SIZE];
};

/* CongestionInfo (A10.4.3.3). */
struct mad_cc_info {
	uint16_t info;			/* MAD_CC_INFO_* */
	uint8_t control_table_cap;	/* CongestionControlTable blocks of 64 */
};

/* CongestionKeyInfo (A10.4.3.4). */
struct mad_cc_key_info {
	uint64_t cc_key;
	uint8_t protect;		/* 1 bit */
	uint16_t lease_period;		/* seconds; 0: the protection never lapses */
	uint16_t violations;
};

/* SwitchCongestionSetting (A10.4.3.6); the comment is the width in bits
 * when it is not the member's. */
struct mad_cc_switch_setting {
	uint32_t control_map;		/* MAD_CC_SW_MAP_* */
	uint8_t victim_mask[MAD_CC_PORT_MASK_BYTES];	/* port 255 first, port 0 last */
	uint8_t credit_mask[MAD_CC_PORT_MASK_BYTES];
	uint8_t threshold;		/* 4 */
	uint8_t packet_size;		/* in 64-byte credits */
	uint8_t cs_threshold;		/* 4 */
	uint16_t cs_return_delay;	/* a CCT entry: shift 2, multiplier 14 */
	uint16_t marking_rate;
};

/* SwitchPortCongestionSetting (A10.4.3.7): one element a port. */
struct mad_cc_switch_port {
	uint8_t valid;			/* 1 */
	uint8_t control_type;		/* 1: 0 congestion, 1 credit starvation */
	uint8_t threshold;		/* 4 */
	uint8_t packet_size;
	uint16_t marking_rate;
};
struct mad_cc_switch_port_setting {
	struct mad_cc_switch_port port[MAD_CC_SWITCH_PORTS_PER_BLOCK];
};

/* CACongestionSetting (A10.4.3.8). */
struct mad_cc_ca_entry {
	uint16_t ccti_timer;
	uint8_t ccti_increase;
	uint8_t trigger_threshold;
	uint8_t ccti_min;
};
struct mad_cc_ca_setting {
	uint16_t port_control;		/* bit 0: 0 QP based, 1 SL/port based */
	uint16_t control_map;		/* which SLs' entries a Set writes */
	struct mad_cc_ca_entry sl[MAD_CC_CA_SLS];
};

/* CongestionControlTable (A10.4.3.9): a block of 64 entries. */
struct mad_cc_cct_entry {
	uint8_t shift;			/* 2 */
	uint16_t multiplier;		/* 14 */
};
struct mad_cc_cct {
	uint16_t ccti_limit;		/* the table's last index, the same in every block */
	struct mad_cc_cct_entry entry[MAD_CC_CCT_PER_BLOCK];
};

/* A fresh request: versions, @method, @attr_id, modifier 0, @cc_key. */
void mad_cc_init(struct mad_cc *cc, uint8_t method, uint16_t attr_id, uint64_t cc_key);

/* Write @cc as MAD_BLOCK_SIZE wire bytes into @buf. */
void mad_cc_encode(const struct mad_cc *cc, uint8_t buf[MAD_BLOCK_SIZE]);

/*
 * Parse @len bytes at @buf into @cc.  Returns 0, -EMSGSIZE (shorter than a
 * MAD) or -EPROTONOSUPPORT (base version not 1, or not class 0x21).  The
 * class version, method and status are the caller's to judge.
 */
int mad_cc_decode(const uint8_t *buf, size_t len, struct mad_cc *cc);

/* Attribute codecs over @data (MAD_CC_DATA_SIZE bytes).  Encoding masks each
 * field to its width and zeroes the reserved bits; decoding fills every
 * member (padding included: callers compare whole structs). */
void mad_cc_info_encode(const struct mad_cc_info *v, uint8_t *data);
void mad_cc_info_decode(const uint8_t *data, struct mad_cc_info *v);
/*
 * ClassPortInfo (IBA 13.4.8.1), the first thing a manager asks a CC agent:
 * encoded as an agent answers it (BaseVersion 1, ClassVersion 2, the
 * response time value @resp_time, no redirection); and whether an answer is
 * one (BaseVersion 1 and ClassVersion 2).  ibsim (0.10 to 0.12) is no CC
 * agent, yet answers class 0x21 as its SMA's class 0x01 (it looks the handler
 * up by the class's low 4 bits): a ClassPortInfo Get comes back as sent, with
 * status 0 and no data, CongestionKeyInfo as SwitchInfo, the settings as
 * GUIDInfo and P_KeyTable.  (Its CongestionInfo answer holds no data either,
 * which a switch's agent may send too: only ClassPortInfo tells them apart.)
 */
void mad_cc_class_port_info_encode(uint8_t resp_time, uint8_t *data);
bool mad_cc_class_port_info_ours(const uint8_t *data);
void mad_cc_key_info_encode(const struct mad_cc_key_info *v, uint8_t *data);
void mad_cc_key_info_decode(const uint8_t *data, struct mad_cc_key_info *v);
void mad_cc_switch_setting_encode(const struct mad_cc_switch_setting *v, uint8_t *data);
void mad_cc_switch_setting_decode(const uint8_t *data, struct mad_cc_switch_setting *v);
void mad_cc_switch_port_setting_encode(const struct mad_cc_switch_port_setting *v,
				       uint8_t *data);
void mad_cc_switch_port_setting_decode(const uint8_t *data,
				       struct mad_cc_switch_port_setting *v);
void mad_cc_ca_setting_encode(const struct mad_cc_ca_setting *v, uint8_t *data);
void mad_cc_ca_setting_decode(const uint8_t *data, struct mad_cc_ca_setting *v);
void mad_cc_cct_encode(const struct mad_cc_cct *v, uint8_t *data);
void mad_cc_cct_decode(const uint8_t *data, struct mad_cc_cct *v);

/* A CCT entry as the 16 bits of the wire (CS_ReturnDelay is one too). */
static inline uint16_t mad_cc_cct_entry_bits(struct mad_cc_cct_entry e)
{
	return (uint16_t)((e.shift & 3u) << 14 | (e.multiplier & 0x3fffu));
}

#endif

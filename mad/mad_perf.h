/* SPDX-License-Identifier: MIT */
/*
 * mad_perf.h - performance management (PerfMgt) MADs as host structures.
 *
 * IBA 1.x chapter 16.1: a PerfMgt MAD is a 256-byte GMP of management class
 * 0x04, class version 1, sent to QP1 of the port's PMA.  After the common
 * header (13.4.3, bytes 0-23) come 40 reserved bytes and 192 bytes of
 * attribute data from byte 64.  Attributes known here: ClassPortInfo
 * (13.4.8.1, with the PerfMgt CapabilityMask bits of 16.1.2),
 * PortSamplesControl (16.1.3.2, 0x0010: its Tick is the unit PortXmitWait
 * counts in; the sampling fields are coded too, unused here), PortCounters
 * (16.1.3.5, 0x0012: the error counters at their IBA widths, the 32-bit data
 * and packet counters, PortXmitWait of IBA 1.2.1, CounterSelect and
 * CounterSelect2 for a Set that clears) and PortCountersExtended (16.1.4.11,
 * 0x001D: 64-bit data and packet counters).  PortXmitData and PortRcvData
 * count 4-octet words on the wire; these codecs keep them so.
 */
#ifndef IBSMD_MAD_PERF_H
#define IBSMD_MAD_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_sa.h"

#define MAD_CLASS_PERF 0x04
#define MAD_PERF_CLASS_VERSION 1
#define MAD_PERF_DATA_OFFSET 64
#define MAD_PERF_DATA_SIZE 192
#define MAD_PERF_QPN 1		/* a PMA answers on QP1 (IBA 16.1.1) */

enum mad_perf_attr_id {
	MAD_PERF_ATTR_CLASS_PORT_INFO = 0x0001,
	MAD_PERF_ATTR_PORT_SAMPLES_CONTROL = 0x0010,
	MAD_PERF_ATTR_PORT_COUNTERS = 0x0012,
	MAD_PERF_ATTR_PORT_COUNTERS_EXT = 0x001D,
};

/* PerfMgt ClassPortInfo CapabilityMask (IBA 16.1.2, table 221). */
#define MAD_PERF_CAP_ALL_PORT_SELECT (1u << 8)
#define MAD_PERF_CAP_EXT_WIDTH (1u << 9)	/* PortCountersExtended, all of it */
#define MAD_PERF_CAP_EXT_WIDTH_NOIETF (1u << 10)	/* ... its data/packet counters */
#define MAD_PERF_CAP_XMIT_WAIT (1u << 12)	/* PortCounters.PortXmitWait */
/* PortSelect 0xFF: every port of the node at once (with ALL_PORT_SELECT). */
#define MAD_PERF_ALL_PORTS 0xff

/* PortCounters CounterSelect bits (IBA 16.1.3.5, table 225), and
 * CounterSelect2 bit 0 for PortXmitWait. */
enum {
	MAD_PC_SEL_SYMBOL_ERR = 1u << 0, MAD_PC_SEL_LINK_RECOVER = 1u << 1,
	MAD_PC_SEL_LINK_DOWNED = 1u << 2, MAD_PC_SEL_RCV_ERR = 1u << 3,
	MAD_PC_SEL_RCV_REMOTE_PHYS = 1u << 4, MAD_PC_SEL_RCV_SWITCH_RELAY = 1u << 5,
	MAD_PC_SEL_XMIT_DISCARDS = 1u << 6, MAD_PC_SEL_XMIT_CONSTRAINT = 1u << 7,
	MAD_PC_SEL_RCV_CONSTRAINT = 1u << 8, MAD_PC_SEL_LOCAL_LINK_INTEGRITY = 1u << 9,
	MAD_PC_SEL_EXCESSIVE_OVERRUN = 1u << 10, MAD_PC_SEL_VL15_DROPPED = 1u << 11,
	MAD_PC_SEL_XMIT_DATA = 1u << 12, MAD_PC_SEL_RCV_DATA = 1u << 13,
	MAD_PC_SEL_XMIT_PKTS = 1u << 14, MAD_PC_SEL_RCV_PKTS = 1u << 15,
};
#define MAD_PC_SEL_ALL 0xffffu
#define MAD_PC_SEL2_XMIT_WAIT 0x01u
/* PortCountersExtended CounterSelect bits 0-7: data, packets, unicast, multicast. */
#define MAD_PCE_SEL_ALL 0x00ffu

/* Wire sizes of the attributes. */
#define MAD_PORT_SAMPLES_CONTROL_SIZE 80
#define MAD_PORT_COUNTERS_SIZE 44
#define MAD_PORT_COUNTERS_EXT_SIZE 72

struct mad_perf {
	MAD_GMP_HEADER;	/* class MAD_CLASS_PERF, version 1; Get, Set, GetResp */
	uint8_t data[MAD_PERF_DATA_SIZE];
};

/* PortSamplesControl (IBA 16.1.3.2); the comment is the width in bits when
 * it is not the member's. */
#define MAD_PSC_COUNTERS 15
struct mad_port_samples_control {
	uint8_t op_code;
	uint8_t port_select;
	uint8_t tick;			/* RO: the sample tick, mad_perf_tick_ps() */
	uint8_t counter_width;		/* 3 */
	uint32_t counter_masks0_9;	/* 2 reserved, then ten 3-bit masks */
	uint16_t counter_masks10_14;	/* 1 reserved, then five 3-bit masks */
	uint8_t sample_mechanisms;
	uint8_t sample_status;		/* 2 */
	uint64_t option_mask;
	uint64_t vendor_mask;
	uint32_t sample_start;
	uint32_t sample_interval;
	uint16_t tag;
	uint16_t counter_select[MAD_PSC_COUNTERS];
	uint64_t samples_only_option_mask;
};

/* PortCounters (IBA 16.1.3.5, table 224); the comment is the width in bits. */
struct mad_port_counters {
	uint8_t port_select;
	uint16_t counter_select;
	uint16_t symbol_errors;		/* 16 */
	uint8_t link_error_recovery;	/* 8 */
	uint8_t link_downed;		/* 8 */
	uint16_t rcv_errors;		/* 16 */
	uint16_t rcv_remote_phys_errors;	/* 16 */
	uint16_t rcv_switch_relay_errors;	/* 16 */
	uint16_t xmit_discards;		/* 16 */
	uint8_t xmit_constraint_errors;	/* 8 */
	uint8_t rcv_constraint_errors;	/* 8 */
	uint8_t counter_select2;
	uint8_t local_link_integrity_errors;	/* 4 */
	uint8_t excessive_buffer_overrun_errors;	/* 4 */
	uint16_t vl15_dropped;		/* 16 */
	uint32_t xmit_data;		/* 32, in 4-octet words */
	uint32_t rcv_data;		/* 32, in 4-octet words */
	uint32_t xmit_pkts;		/* 32 */
	uint32_t rcv_pkts;		/* 32 */
	uint32_t xmit_wait;		/* 32 */
};

/* PortCountersExtended (IBA 16.1.4.11, table 247). */
struct mad_port_counters_ext {
	uint8_t port_select;
	uint16_t counter_select;
	uint64_t xmit_data;		/* in 4-octet words */
	uint64_t rcv_data;
	uint64_t xmit_pkts;
	uint64_t rcv_pkts;
	uint64_t unicast_xmit_pkts;
	uint64_t unicast_rcv_pkts;
	uint64_t multicast_xmit_pkts;
	uint64_t multicast_rcv_pkts;
};

/* A fresh request: base and class version, @method, @attr_id, modifier 0. */
void mad_perf_init(struct mad_perf *pm, uint8_t method, uint16_t attr_id);

/* Write @pm as MAD_BLOCK_SIZE wire bytes into @buf. */
void mad_perf_encode(const struct mad_perf *pm, uint8_t buf[MAD_BLOCK_SIZE]);

/*
 * Parse @len bytes at @buf into @pm.  Returns 0, -EMSGSIZE (shorter than a
 * MAD), or -EPROTONOSUPPORT (base version not 1 or class not PerfMgt).  The
 * class version, method and status are the caller's to judge.
 */
int mad_perf_decode(const uint8_t *buf, size_t len, struct mad_perf *pm);

/* Attribute codecs: @data holds at least the attribute's wire size.  The
 * 4-bit fields are masked on encode. */
void mad_port_samples_control_encode(const struct mad_port_samples_control *psc,
				     uint8_t *data);
void mad_port_samples_control_decode(const uint8_t *data, struct mad_port_samples_control *psc);
void mad_port_counters_encode(const struct mad_port_counters *pc, uint8_t *data);
void mad_port_counters_decode(const uint8_t *data, struct mad_port_counters *pc);
void mad_port_counters_ext_encode(const struct mad_port_counters_ext *pce, uint8_t *data);
void mad_port_counters_ext_decode(const uint8_t *data, struct mad_port_counters_ext *pce);

/* Does a PMA whose ClassPortInfo CapabilityMask is @cap_mask answer
 * PortCountersExtended (its data and packet counters at least)? */
static inline bool mad_perf_has_ext(uint16_t cap_mask)
{
	return cap_mask & (MAD_PERF_CAP_EXT_WIDTH | MAD_PERF_CAP_EXT_WIDTH_NOIETF);
}

/*
 * The length in picoseconds of a sample tick (PortXmitWait's unit) of a PMA
 * whose PortSamplesControl.Tick is @tick, on a port whose link runs at
 * @speed (a topo_rate.h code; 0 or unknown: SDR).  Tick counts symbol times
 * of the active link less one: 0 is one symbol time, the time a lane takes
 * to carry an octet (4 ns at SDR whatever the width, 1 ns at QDR, 80 ps at
 * NDR), 255 is 256 of them.  Every value of the 8-bit field is a length:
 * what is plausible is the caller's to judge.
 */
#define MAD_PERF_DEFAULT_TICK_PS 4000u	/* Tick 0 at SDR */
uint32_t mad_perf_tick_ps(uint8_t tick, uint8_t speed);

/*
 * The same for the PMA of a node whose NodeInfo says @vendor_id and
 * @device_id, on a port whose link runs at @width (LinkWidthActive) x @speed:
 * mad_perf_tick_ps(), save for the devices known to count a tick as Tick + 1
 * octets of the whole port (NVIDIA's Quantum switches, mad_perf.c), where it
 * is the time the port's lanes together take to carry Tick + 1 octets (a
 * width not known: one lane's).
 */
uint32_t mad_perf_node_tick_ps(uint32_t vendor_id, uint16_t device_id, uint8_t tick,
			       uint8_t width, uint8_t speed);

/* The Tick such a device reports (7: 8 octets of the port), else 0 (what a
 * device under the IBA rule at SDR reports for 4 ns; the sim's default). */
uint8_t mad_perf_device_tick(uint32_t vendor_id, uint16_t device_id);

#endif

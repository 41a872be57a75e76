/* SPDX-License-Identifier: MIT */
/*
 * mad_sim.h - an in-process simulated fabric that answers SMPs.
 *
 * The fabric is loaded from a topology file (mad/model/topofile.h) or built from a
 * struct topo, and serves SMPs with IBA semantics: directed-route forwarding with
 * hop pointer and return path (IBA 14.2.2), LID-routed SMPs forwarded through the
 * LFTs the SM programmed (a wrong table loses the MAD), the port state machine
 * (DOWN/INIT/ARMED/ACTIVE), SwitchInfo LinearFDBTop and PortStateChange, M_Key
 * (protect levels, lease, Trap 256) and P_Key tables, SLtoVLMapping tables,
 * MulticastForwardingTables with SwitchInfo MulticastFDBTop,
 * NodeDescription, adaptive routing on switches marked `ar` (mad_sim_ar.c), and Trap 128 to the SM's LID when a link
 * changes state.  Faults are injected through this API or through a timed event
 * file.  It backs the "sim:" transport (mad_sim_ops).
 *
 * Strict where hardware is: the VL15 buffer of a port holds at most
 * SIM_SMP_BUFFER SMPs for its node (VL15 has no flow control: a switch drops
 * what does not fit), an SMP counting from its arrival until the SM reads its
 * answer; a PortState Set that is no valid transition (ACTIVE on an ACTIVE
 * port) answers status 0x1C; a CA takes a PortInfo Set only for the port it
 * came in on.  An ARMED port can be made to go ACTIVE by itself, as it does on
 * its first data packet.
 *
 * Transport spec: "sim:TOPOFILE[,host=NODE[:PORT]][,events=FILE][,latency=USEC]
 * [,seed=N][,smp-buffer=N][,arm-to-active=MSEC][,lenient=MASK][,traffic=PATTERN]
 * [,opt-sl2vl=0|1][,ipoib=MSEC][,cc=0|1]".  cc=0 leaves every node without a
 * congestion control agent, as ibsim's (sim_set_cc()).  ipoib= runs the hosts'
 * SA clients (IPoIB, VF alias GUIDs) at that pace (sim_set_ipoib()).
 * opt-sl2vl=0 makes every switch one without optimized
 * SL to VL programming (SIM_QUIRK_NO_OPT_SL2VL; default 1: all offer it).
 * traffic= names a steady pattern for the daemon to run (sim_traffic()).  The SM
 * attaches to the first port in the file unless host= says otherwise (a switch
 * attaches at port 0).  smp-buffer=0 lifts the buffer limit; lenient= takes
 * enum sim_lenient bits (3: as lenient as ibsim, 7: all).  More SMs may attach to the
 * same fabric with sim_transport_new_at() (high-availability tests); each reads
 * its own answers, and an SMInfo one SM sends another holds the receiving
 * port's VL15 buffer until that SM reads it.  A transport's port_state() and
 * rebind() take "NODE:PORT" (a node name of the file): an SM moves to another
 * port (its node's second port, say) within the same fabric, its queue
 * dropped, IsSM following it.
 *
 * Link rates: a port line's rate token ("# 4xNDR", "# 2xHDR") is what the link
 * trains to at best; the ports enable and support every width up to it (and
 * 1x), SDR to QDR, and every extended speed up to it (XDR in the IBA 1.7
 * LinkSpeedExt*2 fields).  A node with a port at
 * FDR or faster says IsExtendedSpeedsSupported in CapabilityMask and reports
 * LinkSpeedExt* only to an SMP with attribute-modifier bit 31 (otherwise such
 * a link reads QDR), as hardware does.  A link trains to the best width and
 * speed both ends enable and support, so a narrowed port (sim_port_set_enabled)
 * makes a degraded link.
 *
 * The data path (mad_sim_data.c): sim_data_trace() follows a data packet on an
 * SL hop by hop, through the LFTs, the SLtoVLMapping tables, the ports'
 * OperationalVLs and VL arbitration, as a switch would forward it.
 */
#ifndef IBSMD_MAD_SIM_H
#define IBSMD_MAD_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_ar.h"
#include "mad/mad_attr.h"
#include "mad/mad_cc.h"
#include "mad/mad_perf.h"
#include "mad/model/topo.h"
#include "mad/mad_transport.h"

struct sim_fabric;

/* Load @path.  0, or -errno with "FILE:LINE: reason" in @err. */
int sim_fabric_load(const char *path, struct sim_fabric **out, char *err,
		    size_t errlen);
/* Build from @t (copied; @t stays the caller's).  0 or -ENOMEM. */
int sim_fabric_from_topo(const struct topo *t, struct sim_fabric **out);
void sim_fabric_free(struct sim_fabric *f);

/* The fabric's static description: nodes, GUIDs, names, links as loaded. */
const struct topo *sim_fabric_topo(const struct sim_fabric *f);

/* Attach the SM at @node/@port (port 0 for a switch).  0 or -EINVAL. */
int sim_set_attach(struct sim_fabric *f, uint32_t node, uint8_t port);

/* Faults.  Link changes apply to both ends and raise Trap 128 where IBA says. */
int sim_link_set(struct sim_fabric *f, uint32_t node, uint8_t port, bool up);
/* Drop each MAD crossing this link with probability @rate (0..1). */
int sim_link_loss(struct sim_fabric *f, uint32_t node, uint8_t port, double rate);
/* A dead node answers nothing and forwards nothing. */
int sim_node_dead(struct sim_fabric *f, uint32_t node, bool dead);
/* Give node @node another GUID, as a second device claiming an existing GUID
 * would (ibsim's "Guid" command).  A switch's port GUID follows.  The GUID index
 * of sim_fabric_topo() is not updated.  0 or -EINVAL. */
int sim_node_set_guid(struct sim_fabric *f, uint32_t node, uint64_t guid);
/* Switch @node sends its SM a Trap 128 although no link changed, as a faulty
 * or hostile SMA would (nothing is sent before the SM gave it a LID).  0, or
 * -EINVAL for a node that is no switch. */
int sim_node_trap(struct sim_fabric *f, uint32_t node);
/*
 * Device quirks, as some real devices have them:
 *  SIM_QUIRK_NO_SL_MAPPING   CapabilityMask.IsSLMappingSupported clear, and
 *                            SLtoVLMappingTable answered "unsupported".
 *  SIM_QUIRK_FIXED_LINK      a PortInfo Set leaves SubnetTimeOut, the error
 *                            thresholds and the enabled widths and speeds as
 *                            they are (ibsim does so).
 *  SIM_QUIRK_NO_MKEY         a PortInfo Set leaves the M_Key, its protect bits
 *                            and lease as they are (ibsim does so).
 *  SIM_QUIRK_SILENT_VENDOR   SMPs of the vendor attributes (0xFF00-0xFFFF)
 *                            go unanswered, counted in vendor_dropped (ibsim
 *                            does so), instead of "unsupported attribute".
 *  SIM_QUIRK_NO_OPT_SL2VL    a switch without optimized SLtoVLMappingTable
 *                            programming (SwitchInfo bit clear, as ibsim's
 *                            switches): a Set for all input or output ports
 *                            is refused as an invalid field.  Without it a
 *                            switch offers it and takes such Sets, as NVIDIA
 *                            Quantum switches are taken to (mad_sim_sma.c).
 *  SIM_QUIRK_FOUR_VLS        ports with data VLs 0-3 only (PortInfo VLCap 3)
 *                            instead of 0-7.
 *  SIM_QUIRK_NO_CLIENT_REREG a CA whose ports do not say
 *                            IsClientReregistrationSupported (as ibsim's):
 *                            a ClientReregister it is sent is no event and
 *                            reads back 0.  Without it they do, as ConnectX
 *                            adapters do.
 *  SIM_QUIRK_NO_CC           no congestion control agent: nothing of class
 *                            0x21 is answered (as ibsim's nodes).
 *  SIM_QUIRK_NO_MFT_TOP      a switch without SwitchInfo.MulticastFDBTop
 *                            (port 0 CapabilityMask bit 30 clear, as ibsim's
 *                            and older switches): it forwards by every entry
 *                            of its MFT.  Without it a switch forwards no MLID
 *                            above MulticastFDBTop, which is 0 (none) until
 *                            the SM sets it: the power-on value OPA's STL
 *                            documents for the same field (the IBA text was
 *                            not available), OpenSM's use of 0xBFFF as
 *                            "none" (osm_mcast_mgr.c) alike.
 */
enum sim_quirk {
	SIM_QUIRK_NO_SL_MAPPING = 1,
	SIM_QUIRK_FIXED_LINK = 2,
	SIM_QUIRK_NO_MKEY = 4,
	SIM_QUIRK_SILENT_VENDOR = 8,
	SIM_QUIRK_NO_OPT_SL2VL = 16,
	SIM_QUIRK_FOUR_VLS = 32,
	SIM_QUIRK_NO_MFT_TOP = 64,
	SIM_QUIRK_NO_CLIENT_REREG = 128,
	SIM_QUIRK_NO_CC = 256,
};
int sim_node_set_quirks(struct sim_fabric *f, uint32_t node, unsigned quirks);
/* Every switch offers optimized SL to VL programming (@on, the default) or
 * none does (SIM_QUIRK_NO_OPT_SL2VL added); the spec's opt-sl2vl=0|1. */
void sim_set_opt_sl2vl(struct sim_fabric *f, bool on);
/*
 * Congestion control (mad_sim_cc.c): every node has a CC agent (@on, the
 * default) or none has (the spec's cc=0, as under ibsim).  A CA port's
 * CongestionControlTable has SIM_CC_CCT_BLOCKS blocks (ControlTableCap).
 * sim_cc_set_key() gives @node a CC_Key as another manager would have; the
 * others read what the node holds (the power-on state before any Set: all 0).
 * 0, or -EINVAL for a node or port that has no such attribute (-ENOMEM).
 */
#define SIM_CC_CCT_BLOCKS 2
#define SIM_CC_CCT_ENTRIES (SIM_CC_CCT_BLOCKS * MAD_CC_CCT_PER_BLOCK)
#define SIM_CC_RESP_TIME 18	/* ClassPortInfo RespTimeValue: 4.096 us x 2^18, about 1 s */
void sim_set_cc(struct sim_fabric *f, bool on);
int sim_cc_set_key(struct sim_fabric *f, uint32_t node, uint64_t key);
int sim_cc_get_key(const struct sim_fabric *f, uint32_t node, struct mad_cc_key_info *v);
int sim_cc_get_switch(const struct sim_fabric *f, uint32_t node,
		      struct mad_cc_switch_setting *v);
int sim_cc_get_ca(const struct sim_fabric *f, uint32_t node, uint8_t port,
		  struct mad_cc_ca_setting *ca, uint16_t *ccti_limit,
		  struct mad_cc_cct_entry cct[SIM_CC_CCT_ENTRIES]);
/*
 * Where the sim is strict as hardware is, and can be told to relax:
 *  SIM_LENIENT_VLARB   carry data on a VL that no VLArbitrationTable entry
 *                      weighs (hardware never sends it, IBA 7.6.9);
 *  SIM_LENIENT_PORT_STATE  ignore a PortState Set that is no valid transition
 *                      (ACTIVE on an ACTIVE port), as ibsim does, instead of
 *                      refusing the Set with status 0x1C as hardware does;
 *  SIM_LENIENT_SM_CHANGE   hosts' IPoIB (sim_set_ipoib) also rejoins when its
 *                      port's SM LID changes, as on HCAs that raise an SM
 *                      change event, instead of only on ClientReregister
 *                      (mlx5 raises none).
 */
enum sim_lenient {
	SIM_LENIENT_VLARB = 1,
	SIM_LENIENT_PORT_STATE = 2,
	SIM_LENIENT_SM_CHANGE = 4,
};
void sim_set_lenient(struct sim_fabric *f, unsigned lenient);
/* Narrow what port @port of @node enables, as firmware or an earlier SM may
 * have left it (PortInfo LinkWidthEnabled, LinkSpeedEnabled, LinkSpeedExtEnabled
 * values; the link retrains to the best both ends enable).  0 or -EINVAL. */
int sim_port_set_enabled(struct sim_fabric *f, uint32_t node, uint8_t port, uint8_t width,
			 uint8_t speed, uint8_t speed_ext);
/* Give @node's port @port (a switch: port 0) M_Key @key, protect bits and
 * lease period, as another SM would have left them.  0 or -EINVAL. */
int sim_set_mkey(struct sim_fabric *f, uint32_t node, uint8_t port, uint64_t key,
		 uint8_t protect, uint16_t lease_s);
/* Delay every response by @usec microseconds. */
void sim_set_latency(struct sim_fabric *f, unsigned usec);
void sim_set_seed(struct sim_fabric *f, uint64_t seed);
/* SMPs for a node one of its ports holds at once (default SIM_SMP_BUFFER);
 * 0: no limit. */
#define SIM_SMP_BUFFER 8
void sim_set_smp_buffer(struct sim_fabric *f, unsigned n);
/* ARMED ports go ACTIVE by themselves @msec after being armed; <0: never
 * (the default: no data traffic is modelled). */
void sim_set_arm_to_active(struct sim_fabric *f, int msec);

/*
 * Timed fault events, one per line, relative to when the transport opened:
 *   MSEC link-down "NODE"[PORT]     MSEC link-up "NODE"[PORT]
 *   MSEC loss "NODE"[PORT] RATE     MSEC dead "NODE"   MSEC alive "NODE"
 *   MSEC latency USEC               MSEC trap "SWITCH"
 *   MSEC counter "NODE"[PORT] NAME COUNT   (adds to a port's counters, as
 *     sim_perf_add(); NAME is a member of struct sim_perf_delta)
 *   MSEC ar "SWITCH"   (AR-capable from then on, as the topology file's
 *                      `ar` makes it: sim_node_set_ar(), its AR state empty)
 *   MSEC pma-tick "NODE" TICK   (its PortSamplesControl.Tick, 0 to 255:
 *                      sim_perf_set_tick(); at 0 ms, before the SM's first read)
 *   MSEC width "NODE"[PORT] MASK   (the port's LinkWidthEnabled, 1 to 255, as
 *                      sim_port_set_enabled() with its speeds as they are: the
 *                      link retrains; 1 makes a 4x link a degraded 1x one)
 * '#' starts a comment.  0, or -errno with "FILE:LINE: reason" in @err.
 */
int sim_events_load(struct sim_fabric *f, const char *path, char *err, size_t errlen);

/* Inspection for tests and tools. */
struct sim_stats {
	uint64_t smps_in;	/* SMPs the SM sent */
	uint64_t responses;	/* GetResps delivered back */
	uint64_t dropped;	/* lost: faults, bad routes, bad paths, dead nodes,
				 * full buffers */
	uint64_t overflows;	/* of which: SMPs in by a port whose buffer was full */
	uint64_t gets;
	uint64_t sets;
	uint64_t lft_block_sets;
	uint64_t mft_block_sets;	/* MulticastForwardingTable blocks set */
	uint64_t sl2vl_gets;	/* SLtoVLMappingTable Gets and Sets answered */
	uint64_t sl2vl_sets;
	uint64_t sl2vl_opt_refused;	/* optimized SL2VL Sets to switches without it */
	uint64_t vlarb_gets;	/* VLArbitrationTable Gets and Sets answered */
	uint64_t vlarb_sets;
	uint64_t traps;		/* traps sent to the SM */
	uint64_t represses;	/* TrapRepress that reached the SMA whose trap they answer */
	uint64_t ar_info_sets;	/* AdaptiveRoutingInfo Sets taken */
	uint64_t ar_lft_turned_off;	/* plain LFT Sets that turned an AR switch's AR off */
	uint64_t ar_group_sets;	/* AdaptiveRoutingGroupTable block Sets taken */
	uint64_t ar_lft_sets;	/* AR LFT block Sets taken */
	uint64_t ar_unsupported;	/* AR SMPs refused by nodes without AR */
	uint64_t vendor_dropped;	/* vendor-attribute SMPs SIM_QUIRK_SILENT_VENDOR dropped */
	uint64_t perf_in;	/* PerfMgt requests a PMA answered */
	uint64_t cc_in;		/* CC requests a CC agent answered (any status) */
	uint64_t cc_sets;	/* of which Sets taken */
	uint64_t cc_refused;	/* of which refused with a status */
	uint64_t cc_key_dropped;	/* CC requests discarded for a wrong CC_Key */
	uint64_t client_reregs;	/* PortInfo Sets with ClientReregister a port took */
	uint64_t ipoib_joins;	/* MCMemberRecord joins the hosts' IPoIB sent */
	uint64_t ipoib_joined;	/* of which answered with success */
	uint64_t alias_sets;	/* GUIDInfoRecord Sets the hosts' VF GUIDs sent */
	uint64_t alias_registered;	/* of which answered with success */
};
void sim_get_stats(const struct sim_fabric *f, struct sim_stats *st);
int sim_get_port_info(const struct sim_fabric *f, uint32_t node, uint8_t port,
		      struct mad_port_info *pi);
int sim_get_switch_info(const struct sim_fabric *f, uint32_t node,
			struct mad_switch_info *si);
/* The LFT entry of switch @node for @lid (MAD_LFT_NO_PORT when unset). */
uint8_t sim_get_lft(const struct sim_fabric *f, uint32_t node, uint16_t lid);
/*
 * Adaptive routing (mad_sim_ar.c): make switch @node AR-capable (@on; its AR
 * state starts empty) or not, as the topology file's `ar` does at load.
 * 0, or -EINVAL for a node that is no switch, -ENOMEM.  The inspection calls
 * return -EOPNOTSUPP for a node that is not AR-capable: its AdaptiveRouting-
 * Info, group @group's ports (bit p % 64 of word p / 64; -EINVAL past the
 * cap), the AR LFT entry of @lid (its default port is the LFT's entry).
 * sim_set_ar_info() sets the whole AdaptiveRoutingInfo as a switch would hold
 * it (a previous SM's choices: no_fallback, an ageing time...), unchecked.
 */
int sim_node_set_ar(struct sim_fabric *f, uint32_t node, bool on);
int sim_get_ar_info(const struct sim_fabric *f, uint32_t node, struct mad_ar_info *ai);
int sim_set_ar_info(struct sim_fabric *f, uint32_t node, const struct mad_ar_info *ai);
int sim_get_ar_group(const struct sim_fabric *f, uint32_t node, uint16_t group,
		     uint64_t ports[4]);
int sim_get_ar_lft(const struct sim_fabric *f, uint32_t node, uint16_t lid,
		   struct mad_ar_lft_entry *e);
/* The SLtoVLMappingTable of @node for traffic in on @in_port and out of
 * @out_port (a CA or router: its port @out_port; @in_port is ignored).  Until
 * the SM sets it every SL maps to VL 0.  0, or -EINVAL for a port out of range. */
int sim_get_sl2vl(const struct sim_fabric *f, uint32_t node, uint8_t in_port,
		  uint8_t out_port, struct mad_sl2vl *t);

/*
 * The hosts' SA clients (mad_sim_host.c): with @pace_ms > 0 (the spec's
 * ipoib=MSEC) every CA port joins the IPoIB broadcast group of each
 * partition in its P_Key table, with an MCMemberRecord Set to its SM LID, and
 * registers the alias GUIDs sim_set_vf_guids() gave it, with a GUIDInfoRecord
 * Set per GUIDInfo block, as mlx4's SR-IOV alias GUID service does; both when
 * it goes ACTIVE and when a PortInfo Set carries ClientReregister
 * (SIM_LENIENT_SM_CHANGE: also when its SM LID changes).  A request
 * unanswered within @pace_ms, or refused, is tried again after @pace_ms,
 * doubling up to 16 times it.  0: off (the default).
 * sim_ipoib_joined(): 1 when the port's last join of partition @pkey (15 bits
 * compared) was answered with success, 0 when not (yet), -EINVAL for no CA
 * port.  sim_set_vf_guids(): the @n GUIDs of entries 1..@n of the port's
 * GUIDInfo its VFs want (0: an entry left free); 0, -EINVAL (no CA port, @n
 * past GUIDCap - 1), -ENOMEM; asked for at the next event.
 * sim_vf_guids_registered(): as sim_ipoib_joined() for GUIDInfo block @block.
 */
void sim_set_ipoib(struct sim_fabric *f, unsigned pace_ms);
int sim_ipoib_joined(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t pkey);
int sim_set_vf_guids(struct sim_fabric *f, uint32_t node, uint8_t port, const uint64_t *guids,
		     unsigned n);
int sim_vf_guids_registered(const struct sim_fabric *f, uint32_t node, uint8_t port,
			    uint8_t block);

/* Whether switch @node forwards @mlid to @port: its MFT entry names the
 * port and @mlid is not above its MulticastFDBTop (SIM_QUIRK_NO_MFT_TOP: no
 * top); false for an MLID or port out of range. */
bool sim_get_mft(const struct sim_fabric *f, uint32_t node, uint16_t mlid, uint8_t port);
/* Set (@on) or clear switch @node's MFT entry for @mlid and @port as another
 * SM would have left it; a switch with MulticastFDBTop gets its top raised
 * to cover @mlid, as that SM would have set it.  0 or -EINVAL (no switch, an
 * MLID or port out of range), -ENOMEM. */
int sim_set_mft(struct sim_fabric *f, uint32_t node, uint16_t mlid, uint8_t port, bool on);
/* Block @block of the P_KeyTable of @node's port @port (a switch: port 0 or
 * an external port's enforcement table).  Until the SM writes it a table
 * holds 0xffff in entry 0.  0 or -EINVAL. */
int sim_get_pkeys(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t block,
		  struct mad_pkey_block *pk);
/* GUIDInfo block @block of @node's @port as it answers it (the port GUID
 * first): 0, or -EINVAL for a node, port or block out of range. */
int sim_get_guid_info(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t block,
		      struct mad_guid_block *g);
/*
 * Whether a data packet with P_Key @pkey from CA @node's @port reaches the
 * port owning @dlid, as IBA 10.9 checks it: the sender's table must hold the
 * key, the receiver's the same 15 bits with at least one of the two a full
 * member, and a switch port enforcing partitions (PortInfo
 * PartitionEnforcement) on the way in or out must hold it too.  0 when
 * delivered; -EACCES with where in @why when a check drops it; the errors of
 * sim_data_trace() (SL 0) for the route.
 */
int sim_data_pkey(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t dlid,
		  uint16_t pkey, char *why, size_t len);

/* The VLArbitrationTable blocks (MAD_VLARB_*) of @node's port @port (a CA:
 * its port; a switch: its output port).  0 or -EINVAL. */
int sim_get_vlarb(const struct sim_fabric *f, uint32_t node, uint8_t port, uint8_t block,
		  struct mad_vlarb_block *b);
/*
 * Send a data packet on @sl from CA @node's @port to @dlid.  0 when it is
 * delivered to the port owning @dlid; -EHOSTUNREACH (no route, a loop, a link
 * down), -ENOLINK (mapped onto VL 15 or onto a VL beyond a port's
 * OperationalVLs) or -EAGAIN (a VL no arbitration entry weighs: it waits
 * forever; not with SIM_LENIENT_VLARB), with where and why in @why.
 */
int sim_data_trace(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t dlid,
		   uint8_t sl, char *why, size_t len);

/*
 * A transport on an existing fabric, for tests; the fabric stays the caller's
 * and must outlive the transport.  mad_transport_open("sim:...") instead makes a
 * transport that owns its fabric.
 */
int sim_transport_new(struct sim_fabric *f, struct mad_transport **out);
/* Another SM on the same fabric: a transport attached at @node/@port (port 0
 * of a switch).  Up to four transports share a fabric, each on a thread of its
 * own if need be; SMInfo sent to one SM's port reaches that SM (IBA 14.4) and
 * its answer the asker.  Closing a transport takes its SM off the fabric (its
 * port loses IsSM), as a killed SM would.  0, -EINVAL or -EBUSY (no room). */
int sim_transport_new_at(struct sim_fabric *f, uint32_t node, uint8_t port,
			 struct mad_transport **out);
/*
 * Port counters (mad_sim_perf.c).  What a port counted is added to its
 * PortCounters, each saturating at its IBA width as hardware does, and to its
 * PortCountersExtended (64-bit): for tests, and for the traffic model to
 * drive.  Data counts 4-octet words, as on the wire; PortXmitWait ticks.  0
 * or -EINVAL (a port that does not exist; port 0 only on a switch with an
 * enhanced port 0: a base port 0 has no PMA port of its own).
 */
struct sim_perf_delta {
	uint64_t xmit_data, rcv_data, xmit_pkts, rcv_pkts, xmit_wait;
	uint64_t symbol_errors, link_error_recovery, link_downed, rcv_errors, xmit_discards;
	uint64_t rcv_remote_phys_errors, rcv_switch_relay_errors, xmit_constraint_errors;
	uint64_t rcv_constraint_errors, local_link_integrity_errors;
	uint64_t excessive_buffer_overrun_errors, vl15_dropped;
	uint64_t multicast_xmit_pkts, multicast_rcv_pkts;	/* packets among all */
};
int sim_perf_add(struct sim_fabric *f, uint32_t node, uint8_t port,
		 const struct sim_perf_delta *d);
/*
 * Let port @port of @node count at a steady rate from now on, per
 * millisecond: data words (4 octets), packets, and nanoseconds it waited to
 * send (a traffic pattern's, sm/telemetry/sm_sim_traffic.h), which its PortXmitWait
 * counts in ticks of the node's tick at the port's rate (sim_perf_set_tick).
 * Its PMA counts what the rate sent up to the moment it answers.  All zero
 * stops it.  0 or -EINVAL (no such port; a rate negative, NaN or above 1e15).
 */
struct sim_perf_rate {
	double xmit_data, rcv_data, xmit_pkts, rcv_pkts, xmit_wait_ns;
};
int sim_perf_set_rate(struct sim_fabric *f, uint32_t node, uint8_t port,
		      const struct sim_perf_rate *r);
/* The steady traffic pattern the fabric is to carry (the spec's traffic=:
 * a name of lower-case letters, under 16; whoever runs the traffic model
 * reads it back, "" when none: sm/telemetry/sm_sim_traffic.h).  0 or -EINVAL. */
int sim_set_traffic(struct sim_fabric *f, const char *pattern);
const char *sim_traffic(const struct sim_fabric *f);
/* A port's counters as its PMA would answer them now. */
int sim_perf_get(const struct sim_fabric *f, uint32_t node, uint8_t port,
		 struct mad_port_counters *pc, struct mad_port_counters_ext *pce);
/* The PerfMgt CapabilityMask @node's PMA reports (MAD_PERF_CAP_*; by
 * default SIM_PERF_CAPS).  Without MAD_PERF_CAP_EXT_WIDTH (older hardware)
 * it answers no PortCountersExtended.  0 or -EINVAL. */
#define SIM_PERF_CAPS (MAD_PERF_CAP_ALL_PORT_SELECT | MAD_PERF_CAP_EXT_WIDTH | \
		       MAD_PERF_CAP_XMIT_WAIT)
int sim_perf_set_caps(struct sim_fabric *f, uint32_t node, uint16_t cap_mask);
/* The PortSamplesControl.Tick @node's PMA reports, 0 to 255 (by default what
 * the device reports, mad_perf_device_tick(): 0, one symbol time, or 7 for a
 * node with a Quantum's vendid/devid, 8 octets of the whole port:
 * mad_perf_node_tick_ps()), or none: SIM_PSC_REFUSED answers
 * status "attribute unsupported", SIM_PSC_SILENT no answer at all (a PMA
 * that drops what it does not know).  Also the timed event
 * `MS pma-tick "NODE" TICK`.  0 or -EINVAL. */
#define SIM_PSC_REFUSED (-1)
#define SIM_PSC_SILENT (-2)
int sim_perf_set_tick(struct sim_fabric *f, uint32_t node, int tick);

/* The fabric behind a sim transport (NULL for other backends). */
struct sim_fabric *sim_transport_fabric(struct mad_transport *t);

#endif

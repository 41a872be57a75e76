/* SPDX-License-Identifier: MIT */
/*
 * mad_sim_priv.h - the simulated fabric's state, shared by the mad_sim_*.c files.
 *
 * The static description (nodes, GUIDs, links) is a struct topo owned by the
 * fabric; the dynamic state the SM programs lives in parallel arrays indexed the
 * same way: one sim_node per node, one sim_port per port (0..nports).  LFTs are
 * allocated on the first LFT Set and grow to the highest block written;
 * SLtoVLMapping tables one input port's row at a time, on its first Set.
 *
 *   mad_sim.c           fabric life cycle, link state machine, faults, traps
 *   mad_sim_sma.c       the subnet management agent: attributes Get/Set
 *   mad_sim_mkey.c      M_Key checks, the lease timer, Trap 256
 *   mad_sim_ar.c        adaptive routing: the vendor AR attributes
 *   mad_sim_route.c     directed-route and LID-routed delivery of SMPs
 *   mad_sim_data.c      data packets on an SL: SL to VL, VL arbitration
 *   mad_sim_perf.c      the PMA: PerfMgt GMPs and the port counters
 *   mad_sim_cc.c        the congestion control agent (class 0x21)
 *   mad_sim_host.c      the hosts' IPoIB joins and VF alias GUIDs, on port up
 *                       and ClientReregister
 *   mad_sim_transport.c the response queue, the clock, timed events, "sim:" ops
 */
#ifndef IBSMD_MAD_SIM_PRIV_H
#define IBSMD_MAD_SIM_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "mad/model/topo.h"
#include "mad/model/topo_rate.h"
#include "mad/mad_attr.h"
#include "mad/mad_rmpp.h"
#include "mad/sim/mad_sim.h"

#define SIM_LFT_CAP 49152	/* SwitchInfo LinearFDBCap */
#define SIM_LFT_GROW 2048	/* LFT entries allocated at a time */
#define SIM_PKEY_CAP 64		/* NodeInfo PartitionCap: two P_Key blocks */
#define SIM_GUID_CAP 32		/* a CA port's PortInfo GUIDCap: four GUIDInfo blocks */
#define SIM_MFT_CAP 1024	/* SwitchInfo MulticastFDBCap: MLIDs 0xC000.. */
#define SIM_MAX_LID_HOPS 64	/* a LID-routed packet looping longer is lost */
#define SIM_SL2VL_BYTES 8	/* 16 SLs, 4 bits each (IBA 14.2.5.8) */
#define SIM_MAX_SMS 4		/* SMs attached to one fabric at a time */
#define SIM_VLARB_BLOCKS 4
#define SIM_VLARB_BYTES (SIM_VLARB_BLOCKS * SMP_DATA_SIZE)
#define SIM_VLARB_CAP 8		/* PortInfo VLArbitrationLow/HighCap: entries used */
#define SIM_EXT_SPEED_SHIFT 3	/* LinkSpeedExt bits are topo_rate.h's FDR.. >> 3 */
#define SIM_AR_GROUP_CAP 256	/* AdaptiveRoutingInfo GroupCap of an AR switch */
#define SIM_AR_AGEING_US 20000	/* and its ageing time as it starts */
#define SIM_VL_CAP 4		/* PortInfo VLCap: VL0-7 (3 with SIM_QUIRK_FOUR_VLS) */

struct sim_perf;
struct sim_cc;

/* A host port's request to its SA (mad_sim_host.c): an IPoIB join of one
 * partition's broadcast group, or the registration of one GUIDInfo block of
 * its VFs' alias GUIDs. */
#define SIM_IPOIB_PARTS 8	/* partitions a port joins, at most */
enum sim_host_kind { SIM_HOST_JOIN, SIM_HOST_ALIAS };
struct sim_host_req {
	uint64_t tid;		/* of the request in flight */
	uint64_t due_us;	/* when to send it, or (sent) to give up waiting */
	uint32_t backoff_ms;	/* the wait before the next try after a failure */
	uint16_t pkey;		/* SIM_HOST_JOIN: the partition */
	uint8_t block;		/* SIM_HOST_ALIAS: the GUIDInfo block */
	uint8_t kind;		/* enum sim_host_kind */
	bool sent, done;
};
struct sim_host {
	struct sim_host_req r[SIM_IPOIB_PARTS + SIM_GUID_CAP / MAD_GUID_INFO_BLOCK];
	uint8_t n;
	uint64_t vf[SIM_GUID_CAP];	/* the alias GUIDs its VFs want, by entry; 0: none */
};

struct sim_port {
	uint64_t mkey;
	uint64_t mkey_lease_end_us;	/* the lease timer, 0 when not running */
	uint64_t gid_prefix;
	uint16_t *pkeys;	/* SIM_PKEY_CAP entries; NULL: the default table */
	uint64_t *guids;	/* a CA port's GUIDInfo, SIM_GUID_CAP entries with the
				 * port GUID first; NULL: no alias set yet */
	/* SLtoVLMappingTables with this port as input, as wire bytes: on a switch
	 * one per output port 0..nports, on a CA one; NULL: all SLs on VL 0 */
	uint8_t (*sl2vl)[SIM_SL2VL_BYTES];
	/* VLArbitrationTable blocks 1-4 (low 0-31, low 32-63, high 0-31, high
	 * 32-63) as wire bytes, SIM_VLARB_BYTES; NULL: the power-on table, where
	 * only VL0 has weight */
	uint8_t *vlarb;
	struct sim_perf *perf;	/* its counters (mad_sim_perf.c); NULL: all zero */
	struct sim_host *host;	/* its host's SA requests (mad_sim_host.c); NULL: none yet */
	float loss;		/* probability a MAD sent out of this port is lost */
	uint16_t lid;
	uint16_t sm_lid;
	uint16_t mkey_lease;
	uint16_t mkey_violations;
	uint8_t state;		/* enum mad_port_state */
	uint8_t lmc;
	uint8_t mkey_prot;
	uint8_t width_enabled;	/* LinkWidthEnabled */
	uint8_t speed_enabled;	/* LinkSpeedEnabled (SDR..QDR bits) */
	uint8_t speed_ext_enabled;	/* LinkSpeedExtEnabled (FDR..NDR bits) */
	uint8_t speed_ext2_enabled;	/* LinkSpeedExtEnabled2 (XDR bit) */
	uint8_t neighbor_mtu;
	uint8_t oper_vls;
	uint8_t sm_sl;
	uint8_t vl_high_limit;
	uint8_t hoq_life;
	uint8_t vl_stall;
	uint8_t subnet_timeout;
	uint8_t local_phys_errors;	/* thresholds */
	uint8_t overrun_errors;
	uint8_t client_rereg;
	uint8_t part_enf;	/* PartitionEnforcement: bit 0 inbound, bit 1 outbound */
	uint64_t armed_us;	/* when it went ARMED (sim_now_us) */
	uint32_t held;		/* SMPs in by this port whose answer the SM has not read */
	bool disabled;		/* PortPhysicalState set to Disabled by the SM */
	bool cut;		/* link taken down with sim_link_set() */
};

struct sim_node {
	struct sim_port *ports;	/* nports + 1 */
	uint8_t *lft;		/* lft_len entries, MAD_LFT_NO_PORT when unset */
	struct sim_ar *ar;	/* AR state (mad_sim_ar.c), NULL: not AR-capable */
	struct sim_cc *cc;	/* CC state (mad_sim_cc.c), NULL: power-on */
	uint32_t lft_len;
	uint16_t lft_top;
	/* MFT: SIM_MFT_CAP entries of (nports / 16 + 1) port masks, allocated
	 * on the first Set; NULL: empty */
	uint16_t *mft;
	uint16_t mft_top;	/* SwitchInfo MulticastFDBTop: MLIDs above it are not
				 * forwarded (unless SIM_QUIRK_NO_MFT_TOP); 0 at power-on */
	uint8_t life_time;
	uint16_t quirks;	/* enum sim_quirk */
	bool port_state_change;
	bool dead;
	bool perf_caps_set;	/* perf_caps holds its PMA's CapabilityMask, */
	uint16_t perf_caps;	/* else SIM_PERF_CAPS */
	uint8_t perf_tick;	/* its PortSamplesControl.Tick (sim_perf_set_tick) */
	int8_t perf_psc;	/* its PortSamplesControl: SIM_PSC_* */
	bool ext_speeds;	/* some port runs FDR or faster: CapabilityMask says so */
};

/* What a port's arbitration weighs: its table, or the power-on one. */
void sim_vlarb_table(const struct sim_port *sp, uint8_t out[SIM_VLARB_BYTES]);

/* A MAD on its way to the SM, held until due; or a GSI message reassembled
 * from RMPP segments (mad_sim_gsi.c), its first MAD in mad. */
struct sim_msg {
	uint64_t due_us;
	struct sim_port *holder;	/* the port whose VL15 buffer the request holds, or NULL */
	struct mad_addr from;
	uint8_t mad[MAD_BLOCK_SIZE];
	uint8_t *long_msg;	/* the whole message (owned), or NULL: just mad */
	size_t len;		/* its length (MAD_BLOCK_SIZE for a MAD) */
};

enum sim_event_kind {
	SIM_EV_LINK_DOWN,
	SIM_EV_LINK_UP,
	SIM_EV_LOSS,
	SIM_EV_DEAD,
	SIM_EV_ALIVE,
	SIM_EV_LATENCY,
	SIM_EV_TRAP,
	SIM_EV_COUNTER,
	SIM_EV_AR,
	SIM_EV_PMA_TICK,
	SIM_EV_WIDTH,
};

struct sim_event {
	uint64_t at_us;		/* relative to the transport's open */
	uint32_t node;
	uint32_t seq;		/* file order, to keep equal times stable */
	uint8_t port;
	uint8_t kind;		/* enum sim_event_kind */
	uint8_t counter;	/* SIM_EV_COUNTER: sim_perf_counter_index() */
	double value;		/* loss rate, latency, count or tick */
};

/* An SM's port on the fabric: where it is attached and the MADs waiting for
 * it.  Slot 0 is the default attachment (sim_set_attach, host=); a transport
 * binds a slot while it is open, and only a bound slot is an SM the fabric
 * knows: its port shows IsSM and SMInfo addressed to it reaches its queue. */
/* A long GSI message a slot is sending with RMPP (mad_sim_gsi.c). */
#define SIM_RMPP_SENDERS 8
struct sim_rmpp_out {
	bool busy;
	int to;			/* the slot it goes to */
	struct mad_addr via;	/* as its sender addressed it: P_Key index, GRH */
	uint64_t tid;
	struct mad_rmpp_sender s;
};

/* A long GSI request a slot is receiving (mad_sim_gsi.c): the kernel's MAD
 * layer reassembles those for an agent registered with RMPP. */
#define SIM_RMPP_RECEIVERS 8
struct sim_rmpp_in {
	bool busy;
	int from;		/* the slot sending it */
	struct mad_addr back;	/* its ACKs' way back: the P_Key index it came on */
	uint64_t tid;
	struct mad_rmpp_receiver r;
};

struct sim_sm {
	uint32_t node;
	uint8_t port;
	bool bound;
	/* MADs for this SM: a ring */
	struct sim_msg *q;
	size_t q_head, q_len, q_cap;
	int timerfd;		/* readable when a MAD or an event is due; -1 */
	uint64_t armed_us;	/* the due time it is armed for, UINT64_MAX: none */
	struct sim_rmpp_out rmpp[SIM_RMPP_SENDERS];	/* a ring of senders */
	unsigned rmpp_next;
	struct sim_rmpp_in rmpp_in[SIM_RMPP_RECEIVERS];	/* a ring of receivers */
	unsigned rmpp_in_next;
};

struct sim_fabric {
	struct topo topo;
	struct sim_node *nodes;
	struct sim_sm sms[SIM_MAX_SMS];
	/* held by every transport operation, so that SMs on threads of their own
	 * can share the fabric; the inspection calls of mad_sim.h do not take it */
	pthread_mutex_t mu;
	uint64_t rng;
	unsigned latency_us;
	unsigned smp_buffer;	/* SMPs a port's VL15 buffer holds at once; 0: no limit */
	int64_t arm_to_active_us;	/* ARMED -> ACTIVE by itself after this; <0: never */
	uint64_t next_trap_tid;
	unsigned ports_off;	/* ports cut or Disabled (sim_port_set_off()) */
	bool lossy;		/* some port has had a loss rate set */
	bool cc_off;		/* sim_set_cc(false): no node has a CC agent */
	struct sim_stats stats;
	/* timed events, sorted by time; ev_next is the first not yet applied */
	struct sim_event *ev;
	size_t nev, ev_next;
	uint64_t t0_us;		/* when the first transport opened; 0 before */
	unsigned lenient;	/* enum sim_lenient */
	unsigned ipoib_ms;	/* the hosts' SA clients' pace (sim_set_ipoib); 0: off */
	uint64_t ipoib_due_us;	/* the earliest request due or awaited; UINT64_MAX none */
	uint64_t ipoib_tid;	/* the hosts' requests sent */
	char traffic[16];	/* the spec's traffic= pattern name, "" none */
};

/* mad_sim.c */
bool sim_link_up(const struct sim_fabric *f, uint32_t node, uint8_t port);
/* Set a port's cut and disabled flags, keeping f->ports_off counted. */
void sim_port_set_off(struct sim_fabric *f, struct sim_port *sp, bool cut, bool disabled);
uint8_t sim_phys_state(const struct sim_fabric *f, uint32_t node, uint8_t port);
/* Re-derive both ends' state after a link's flags changed; @was_up before. */
void sim_link_changed(struct sim_fabric *f, uint32_t node, uint8_t port, bool was_up);
/* Where an SM on @node attaches by default: a switch's port 0, else the
 * lowest cabled port (the first a file lists, in practice), else port 1. */
uint8_t sim_first_port(const struct sim_fabric *f, uint32_t node);
/* True when a MAD leaving @node by @port is lost to injected loss. */
bool sim_loss_hit(struct sim_fabric *f, uint32_t node, uint8_t port);
/* The port holding node-wide addressing: port 0 of a switch, else @port. */
struct sim_port *sim_addr_port(const struct sim_fabric *f, uint32_t node, uint8_t port);
/* What port @port of @node can do, as PortInfo's Supported fields: widths
 * (LinkWidthActive bits), base speeds (SDR..QDR), extended speeds (FDR..NDR),
 * extended speeds 2 (XDR). */
uint8_t sim_width_supported(const struct sim_fabric *f, uint32_t node, uint8_t port);
uint8_t sim_speed_supported(const struct sim_fabric *f, uint32_t node, uint8_t port);
uint8_t sim_speed_ext_supported(const struct sim_fabric *f, uint32_t node, uint8_t port);
uint8_t sim_speed_ext2_supported(const struct sim_fabric *f, uint32_t node, uint8_t port);
/* The width and speed code (topo_rate.h) a link trains to: the best both ends
 * support and enable; 0 when the port is down or they have none in common. */
void sim_link_rate(const struct sim_fabric *f, uint32_t node, uint8_t port, uint8_t *width,
		   uint8_t *speed);
/* True when @lid falls in the LID range of @node's port @port. */
bool sim_lid_matches(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t lid);
/* The PortState of a port now: ARMED turns ACTIVE once arm_to_active_us ran
 * out.  sim_node_settle() makes that so for the ports of @node; the SMA does
 * before it takes an SMP. */
uint8_t sim_port_state(const struct sim_fabric *f, uint32_t node, uint8_t port);
void sim_node_settle(struct sim_fabric *f, uint32_t node);

/* The bound SM whose port takes a MAD arriving at @node by @port (a switch's
 * SM takes what reaches the switch), or -1. */
int sim_sm_at(const struct sim_fabric *f, uint32_t node, uint8_t port);
/* True when an SM is bound at exactly @node/@port (its IsSM capability). */
bool sim_sm_bound_at(const struct sim_fabric *f, uint32_t node, uint8_t port);

/* mad_sim_sma.c: answer @smp, received by @node on @port, in place.
 * Returns false when the SMA drops it (M_Key violation, no answer due). */
bool sim_sma_process(struct sim_fabric *f, struct mad_smp *smp, uint32_t node,
		     uint8_t port);

/* mad_sim_sma.c: room in @sn's LFT up to block @block (64 LIDs); 0 or -ENOMEM. */
int sim_lft_grow(struct sim_node *sn, uint32_t block);

/* mad_sim_ar.c: answer an AR attribute (mad_ar.h) in place; the status. */
uint16_t sim_ar_process(struct sim_fabric *f, struct mad_smp *smp, uint32_t node);
/* mad_sim_ar.c: a plain LFT Set reaches switch @node: 0 to take it (AR turned
 * off on an AR switch with no_fallback 0), or the status refusing it. */
uint16_t sim_ar_lft_set(struct sim_fabric *f, uint32_t node);
void sim_ar_free(struct sim_node *sn);

/* mad_sim_mkey.c: check @smp's M_Key at @node's @port.  False when it fails
 * (the SMP is dropped; Trap 256 is sent); *@hide when the answer must show
 * M_Key 0. */
bool sim_mkey_check(struct sim_fabric *f, uint32_t node, uint8_t port,
		    const struct mad_smp *smp, bool *hide);

/* mad_sim_route.c */
/* Walk a LID-routed packet from @node/@port to @dlid (IBA 18.2.4.3).  On
 * success @node and @port name the port that took it. */
bool sim_lid_walk(struct sim_fabric *f, uint32_t *node, uint8_t *port, uint16_t dlid);
/* Carry a MAD from SM @sm into the fabric: a request is answered by the SMA it
 * reaches (the answer queued for @sm), or, SMInfo to another SM's port, queued
 * for that SM; a response (an SM answering another) goes back to the asker. */
void sim_route_smp(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
		   const struct mad_addr *to);
/* Send @smp LID-routed from @node (port 0 of a switch, else out of @port) to
 * @dlid, delivering it to the SM whose port owns @dlid.  @holder: as for
 * sim_queue_push (NULL for a trap or an SM's answer). */
void sim_route_to_sm(struct sim_fabric *f, const struct mad_smp *smp, uint32_t node,
		     uint8_t port, uint16_t dlid, uint16_t slid, struct sim_port *holder);

/* The SM slot bound at the port that owns @dlid, reached LID routed from
 * @node (port 0 of a switch, else out of @port), or -1. */
int sim_lid_to_sm(struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t dlid);

/* mad_sim_gsi.c: GSI MADs and RMPP (see there) */
void sim_route_gsi(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
		   const struct mad_addr *to);
int sim_gsi_send_long(struct sim_fabric *f, int sm, const uint8_t *msg, size_t len,
		      const struct mad_addr *to);
void sim_gsi_unbind(struct sim_fabric *f, int sm);

/* mad_sim_host.c: what makes a host ask its SA again (IPoIB joins, alias
 * GUIDs). */
enum sim_host_why {
	SIM_HOST_ACTIVE,	/* the port went ACTIVE */
	SIM_HOST_REREG,		/* a PortInfo Set carried ClientReregister */
	SIM_HOST_SM_CHANGE,	/* its SM LID changed (SIM_LENIENT_SM_CHANGE only) */
};
void sim_host_event(struct sim_fabric *f, uint32_t node, uint8_t port, enum sim_host_why why);
/* Send the requests due at @now; sets f->ipoib_due_us to the next. */
void sim_host_run(struct sim_fabric *f, uint64_t now);
/* A GSI MAD SM slot @sm sends to @dlid: the answer to a host's request, taken
 * (true), or not. */
bool sim_host_take(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
		   uint16_t dlid);

/* mad_sim_transport.c */
uint64_t sim_now_us(void);
/* Queue an encoded MAD for SM @sm, due after the current latency.  The
 * request it answers (or, SMInfo for @sm, the MAD itself) holds a VL15 buffer
 * of port @holder (NULL: none) until @sm reads it or unbinds. */
void sim_queue_push(struct sim_fabric *f, int sm, const struct mad_smp *smp,
		    uint16_t from_lid, struct sim_port *holder);
/* Queue the GSI MAD @mad (bytes as sent) for SM @sm, from @from. */
void sim_queue_push_raw(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
			const struct mad_addr *from);
/* Queue the reassembled GSI message @msg (@len bytes, owned from here on)
 * for SM @sm, from @from. */
void sim_queue_push_long(struct sim_fabric *f, int sm, uint8_t *msg, size_t len,
			 const struct mad_addr *from);
/* Re-arm SM @sm's timer fd for its next due MAD or event. */
void sim_timer_rearm(struct sim_fabric *f, int sm);

/* mad_sim_data.c: where @sp's P_KeyTable holds @pkey's 15 bits (the
 * power-on table: 0xffff at 0), *@full its membership; -1 when it does not. */
int sim_pkey_find(const struct sim_port *sp, uint16_t pkey, bool *full);

/* mad_sim_cc.c: a CC request from SM @sm to LID to->lid, answered or dropped. */
void sim_cc_request(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
		    const struct mad_addr *to);
void sim_cc_free(struct sim_node *sn);
/* mad_sim_perf.c */
/* Answer a PerfMgt request from SM @sm to @to->lid (the answer queued for @sm). */
void sim_perf_request(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
		      const struct mad_addr *to);
/* Port @port of @node went down: its LinkDownedCounter counts it. */
void sim_perf_link_downed(struct sim_fabric *f, uint32_t node, uint8_t port);
/* The index of the struct sim_perf_delta member named by the @len bytes at
 * @name, or -1; sim_perf_add_one() adds @count to that counter (lock held). */
int sim_perf_counter_index(const char *name, size_t len);
void sim_perf_add_one(struct sim_fabric *f, uint32_t node, uint8_t port, int counter,
		      uint64_t count);
void sim_perf_free(struct sim_port *sp);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * mad_sim.h - an in-process simulated fabric that answers SMPs.
 *
 * The fabric is loaded from a topology file (db/model/topofile.h) or built from a
 * struct topo, and serves SMPs with IBA semantics: directed-route forwarding with
 * hop pointer and return path (IBA 14.2.2), LID-routed SMPs forwarded through the
 * LFTs the SM programmed (a wrong table loses the MAD), the port state machine
 * (DOWN/INIT/ARMED/ACTIVE), SwitchInfo LinearFDBTop and PortStateChange, M_Key
 * and P_Key tables, SLtoVLMapping tables, NodeDescription, and Trap 128 to the SM's LID when a link
 * changes state.  Faults are injected through this API or through a timed event
 * file.  It backs the "sim:" transport (mad_sim_ops).
 *
 * Transport spec: "sim:TOPOFILE[,host=NODE[:PORT]][,events=FILE][,latency=USEC]
 * [,seed=N]".  The SM attaches to the first port in the file unless host= says
 * otherwise (a switch attaches at port 0).
 */
#ifndef IBSMD_MAD_SIM_H
#define IBSMD_MAD_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_attr.h"
#include "db/model/topo.h"
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
/* Delay every response by @usec microseconds. */
void sim_set_latency(struct sim_fabric *f, unsigned usec);
void sim_set_seed(struct sim_fabric *f, uint64_t seed);

/*
 * Timed fault events, one per line, relative to when the transport opened:
 *   MSEC link-down "NODE"[PORT]     MSEC link-up "NODE"[PORT]
 *   MSEC loss "NODE"[PORT] RATE     MSEC dead "NODE"   MSEC alive "NODE"
 *   MSEC latency USEC               MSEC trap "SWITCH"
 * '#' starts a comment.  0, or -errno with "FILE:LINE: reason" in @err.
 */
int sim_events_load(struct sim_fabric *f, const char *path, char *err, size_t errlen);

/* Inspection for tests and tools. */
struct sim_stats {
	uint64_t smps_in;	/* SMPs the SM sent */
	uint64_t responses;	/* GetResps delivered back */
	uint64_t dropped;	/* lost: faults, bad routes, bad paths, dead nodes */
	uint64_t gets;
	uint64_t sets;
	uint64_t lft_block_sets;
	uint64_t sl2vl_gets;	/* SLtoVLMappingTable Gets and Sets answered */
	uint64_t sl2vl_sets;
	uint64_t traps;		/* traps sent to the SM */
};
void sim_get_stats(const struct sim_fabric *f, struct sim_stats *st);
int sim_get_port_info(const struct sim_fabric *f, uint32_t node, uint8_t port,
		      struct mad_port_info *pi);
int sim_get_switch_info(const struct sim_fabric *f, uint32_t node,
			struct mad_switch_info *si);
/* The LFT entry of switch @node for @lid (MAD_LFT_NO_PORT when unset). */
uint8_t sim_get_lft(const struct sim_fabric *f, uint32_t node, uint16_t lid);
/* The SLtoVLMappingTable of @node for traffic in on @in_port and out of
 * @out_port (a CA or router: its port @out_port; @in_port is ignored).  Until
 * the SM sets it every SL maps to VL 0.  0, or -EINVAL for a port out of range. */
int sim_get_sl2vl(const struct sim_fabric *f, uint32_t node, uint8_t in_port,
		  uint8_t out_port, struct mad_sl2vl *t);

/*
 * A transport on an existing fabric, for tests; the fabric stays the caller's
 * and must outlive the transport.  mad_transport_open("sim:...") instead makes a
 * transport that owns its fabric.
 */
int sim_transport_new(struct sim_fabric *f, struct mad_transport **out);
/* The fabric behind a sim transport (NULL for other backends). */
struct sim_fabric *sim_transport_fabric(struct mad_transport *t);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_fabric.h - what one heavy sweep knows about the fabric.
 *
 * The discovery sweep fills it: the topology (struct topo) plus, per node, the
 * attributes read from the device (SwitchInfo, every PortInfo it read), the SM's
 * own node and port, and the problems met on the way (nodes that did not
 * answer, duplicate GUIDs, paths over 63 hops).  The LID manager, routing and
 * programming stages read it; sm_fabric_free() releases it all.
 */
#ifndef IBSMD_SM_FABRIC_H
#define IBSMD_SM_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_attr.h"
#include "mad/model/topo.h"
#include "sm/core/sm_mkey.h"

struct sm_node_attrs {
	struct mad_switch_info si;	/* switches only */
	bool si_valid;
	struct mad_port_info *pi;	/* nports + 1 entries */
	bool *pi_valid;
	/* per port, NULL while none: link parameters the device answered a Set
	 * without taking (SM_LINK_* bits, sm_link.h), not asked for again */
	uint8_t *refused;
	bool nd_valid;		/* topo's desc is the NodeDescription it answered */
	uint16_t partition_cap;	/* NodeInfo PartitionCap (the SA's NodeRecords) */
	uint16_t ar_group_cap;	/* AdaptiveRoutingInfo GroupCap of a switch with AR
				 * (sm_ar.c's probe), 0 for the others */
	bool armed;		/* a port of it was INIT, armed by this sweep: the node
				 * is new, reset or replaced (sm_program.c) */
};

enum sm_issue_kind {
	SM_ISSUE_UNRESPONSIVE,	/* a linked port led to no answer */
	SM_ISSUE_DUPLICATE_GUID,	/* two devices claim one GUID */
	SM_ISSUE_HOP_LIMIT,	/* a node beyond 63 hops */
	SM_ISSUE_BAD_ANSWER,	/* an answer that failed validation */
	SM_ISSUE_MKEY_FOREIGN,	/* a port holds an M_Key the SM did not set */
	SM_ISSUE_MKEY_UNKNOWN,	/* a port ignores the SM's Sets: its M_Key is unknown */
};

struct sm_issue {
	enum sm_issue_kind kind;
	uint64_t guid;		/* the node where it was seen */
	uint8_t port;
	bool probe;		/* a NodeInfo probe out of @guid's @port went unanswered:
				 * the light sweep asks again */
	char detail[160];
};

struct sm_fabric {
	struct topo topo;
	struct sm_node_attrs *attrs;	/* parallel to topo.nodes */
	uint32_t attrs_cap;
	uint32_t local_node;	/* the SM's node */
	uint8_t local_port;	/* the SM's port on it (0 on a switch) */
	struct sm_issue *issues;
	size_t nissues, issues_cap;
	/* answers lost from nodes that did answer NodeInfo: what is known of them
	 * is incomplete, so the sweep is worth repeating (a node that never
	 * answers is not counted: repeating will not find it) */
	unsigned incomplete;
	struct sm_mkeys mkeys;	/* the keys this sweep uses (sm_mkey.h) */
};

void sm_fabric_init(struct sm_fabric *f);
void sm_fabric_free(struct sm_fabric *f);

/* Add a node to the topology and room for its attributes.  Index or TOPO_NONE. */
uint32_t sm_fabric_add_node(struct sm_fabric *f, uint8_t type, uint8_t nports,
			    uint64_t guid);

/*
 * Put the nodes in GUID order, so that what follows (LIDs, routes, the store)
 * does not depend on the order answers happened to arrive in.  0 or -ENOMEM.
 */
int sm_fabric_sort(struct sm_fabric *f);

/* Record a problem (also logged by the caller).  0 or -ENOMEM. */
int sm_fabric_issue(struct sm_fabric *f, enum sm_issue_kind kind, uint64_t guid,
		    uint8_t port, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

const char *sm_issue_kind_name(enum sm_issue_kind kind);

/*
 * The directed route on which port @port of node @node answers for itself.  A
 * CA or router answers PortInfo only for the port an SMP came in on (IBA
 * 14.2.5.6), so a CA port other than the one discovery first came through is
 * reached through its own neighbour: the neighbour's route plus the port to it.
 * That holds for the other ports of the SM's own CA too: hop 0 reaches only
 * the SM's port.
 */
void sm_fabric_port_path(const struct sm_fabric *f, uint32_t node, uint8_t port,
			 struct topo_path *out);

/*
 * Whether port @port of @node supports extended speeds, by the PortInfo read
 * (a switch's ports by port 0's CapabilityMask, as OpenSM judges them), and
 * the PortInfo attribute modifier for it: the port number, with bit 31
 * (SMSupportExtendedSpeeds) when it does.  Every PortInfo Get and Set to a
 * port that supports them carries the bit (IBA 14.2.5.6).
 */
bool sm_fabric_ext_speeds(const struct sm_fabric *f, uint32_t node, uint8_t port);
uint32_t sm_fabric_port_info_mod(const struct sm_fabric *f, uint32_t node, uint8_t port);

#endif

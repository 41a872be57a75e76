/* SPDX-License-Identifier: MIT */
/*
 * topo_names.h - the IBA values the fabric model holds, and their names.
 *
 * Node type (NodeInfo NodeType), port state (PortInfo PortState), physical
 * state (PortInfo PortPhysicalState), SM state (SMInfo SMState): numbers the
 * IBA defines (chapter 14.2.5), stored in struct topo,
 * in the store and in smquery's output.  They are values, not a wire layout:
 * how they sit in an SMP is mad/'s business (mad_attr.h), so the store and
 * smquery use them without knowing any wire format.  The names keep their
 * MAD_/mad_ prefix so that every existing use stays greppable.
 */
#ifndef IBSMD_TOPO_NAMES_H
#define IBSMD_TOPO_NAMES_H

#include <stdint.h>

enum mad_node_type {
	MAD_NODE_CA = 1,
	MAD_NODE_SWITCH = 2,
	MAD_NODE_ROUTER = 3,
};

/* PortInfo PortState (IBA 14.2.5.6) */
enum mad_port_state {
	MAD_PORT_NOP = 0,
	MAD_PORT_DOWN = 1,
	MAD_PORT_INIT = 2,
	MAD_PORT_ARMED = 3,
	MAD_PORT_ACTIVE = 4,
	MAD_PORT_ACTIVE_DEFER = 5,	/* ActiveDefer (IBA 1.2.1 and later) */
};

/* PortInfo PortPhysicalState */
enum mad_phys_state {
	MAD_PHYS_NOP = 0,
	MAD_PHYS_SLEEP = 1,
	MAD_PHYS_POLLING = 2,
	MAD_PHYS_DISABLED = 3,
	MAD_PHYS_TRAINING = 4,
	MAD_PHYS_LINKUP = 5,
	MAD_PHYS_ERROR_RECOVERY = 6,
	MAD_PHYS_PHY_TEST = 7,
};

/* SMInfo SMState (IBA 14.4.1) */
enum mad_sm_state {
	MAD_SM_NOT_ACTIVE = 0,
	MAD_SM_DISCOVERING = 1,
	MAD_SM_STANDBY = 2,
	MAD_SM_MASTER = 3,
};

/* Names for logs and dumps: "Active", "LinkUp", "MASTER"...; "?" for a value
 * outside the table.  Link widths and speeds: topo_rate.h. */
const char *mad_port_state_name(uint8_t state);
const char *mad_phys_state_name(uint8_t state);
const char *mad_sm_state_name(uint8_t state);
const char *mad_node_type_name(uint8_t type);

#endif

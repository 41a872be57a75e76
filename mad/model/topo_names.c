// SPDX-License-Identifier: MIT
/*
 * topo_names.c - names of the IBA values the model holds (see topo_names.h).
 *
 * Dense enumerations are arrays indexed by value.
 */
#include <stddef.h>

#include "mad/model/topo_names.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define NAME_OR(table, i, fallback) \
	((i) < NELEM(table) && (table)[i] ? (table)[i] : (fallback))

const char *mad_port_state_name(uint8_t state)
{
	static const char *const names[] = { "NoChange", "Down", "Initialize", "Armed", "Active",
					     "ActiveDefer" };
	return NAME_OR(names, state, "?");
}

const char *mad_phys_state_name(uint8_t state)
{
	static const char *const names[] = { "NoChange", "Sleep", "Polling", "Disabled",
					     "PortConfigurationTraining", "LinkUp",
					     "LinkErrorRecovery", "PhyTest" };
	return NAME_OR(names, state, "?");
}

const char *mad_sm_state_name(uint8_t state)
{
	static const char *const names[] = { "NOT_ACTIVE", "DISCOVERING", "STANDBY", "MASTER" };
	return NAME_OR(names, state, "?");
}

const char *mad_node_type_name(uint8_t type)
{
	static const char *const names[] = { NULL, "Ca", "Switch", "Router" };
	return NAME_OR(names, type, "?");
}

// SPDX-License-Identifier: MIT
/*
 * sm_state.c - the SM's state machine (see sm_state.h).
 *
 * The transition table is the whole policy: (state, event) -> next state.
 * A transition marks a heavy sweep due where the new state needs one
 * (DISCOVERING, or MASTER after a HANDOVER), marks a MASTER's first sweep
 * (its clients reregister), is logged at notice level, recorded in the store (event
 * "sm_state" and status key sm_state) and reported to systemd (STATUS=).
 */
#include <stdio.h>

#include "mad/mad_attr.h"
#include "sm/util/sm_log.h"
#include "sm/util/sm_notify.h"
#include "sm/core/sm_state.h"

#define ANY 0xff

static const struct transition {
	uint8_t from;
	enum sm_event ev;
	uint8_t to;
	bool sweep;	/* a heavy sweep is due on arrival */
} table[] = {
	{ MAD_SM_NOT_ACTIVE, SM_EV_PORT_READY, MAD_SM_DISCOVERING, true },
	{ MAD_SM_DISCOVERING, SM_EV_NO_HIGHER_SM, MAD_SM_MASTER, false },
	/* IBA 14.4.1: a master, or an SM of higher rank, was found */
	{ MAD_SM_DISCOVERING, SM_EV_HIGHER_SM, MAD_SM_STANDBY, false },
	{ MAD_SM_MASTER, SM_EV_OTHER_MASTER, MAD_SM_STANDBY, false },
	{ MAD_SM_STANDBY, SM_EV_MASTER_LOST, MAD_SM_DISCOVERING, true },
	{ MAD_SM_STANDBY, SM_EV_HANDOVER, MAD_SM_MASTER, true },
	{ MAD_SM_DISCOVERING, SM_EV_HANDOVER, MAD_SM_MASTER, true },
	{ MAD_SM_MASTER, SM_EV_ACKNOWLEDGE, MAD_SM_STANDBY, false },
	{ MAD_SM_DISCOVERING, SM_EV_STANDBY, MAD_SM_STANDBY, false },
	{ MAD_SM_NOT_ACTIVE, SM_EV_DISCOVER, MAD_SM_DISCOVERING, true },
	{ MAD_SM_STANDBY, SM_EV_DISCOVER, MAD_SM_DISCOVERING, true },
	{ ANY, SM_EV_PORT_LOST, MAD_SM_NOT_ACTIVE, false },
	{ ANY, SM_EV_DISABLE, MAD_SM_NOT_ACTIVE, false },
};

const char *sm_event_name(enum sm_event ev)
{
	switch (ev) {
	case SM_EV_PORT_READY: return "port ready";
	case SM_EV_PORT_LOST: return "port lost";
	case SM_EV_NO_HIGHER_SM: return "no higher SM";
	case SM_EV_DISABLE: return "disable";
	case SM_EV_HIGHER_SM: return "higher SM";
	case SM_EV_OTHER_MASTER: return "another master";
	case SM_EV_MASTER_LOST: return "master lost";
	case SM_EV_HANDOVER: return "handover";
	case SM_EV_ACKNOWLEDGE: return "acknowledge";
	case SM_EV_STANDBY: return "standby";
	case SM_EV_DISCOVER: return "discover";
	}
	return "?";
}

void sm_state_event(struct sm *sm, enum sm_event ev, const char *why)
{
	const struct transition *t = NULL;

	for (size_t i = 0; !t && i < sizeof(table) / sizeof(table[0]); i++)
		if ((table[i].from == sm->sm_state || table[i].from == ANY) && table[i].ev == ev)
			t = &table[i];
	if (!t || t->to == sm->sm_state) {
		sm_debug("SM state %s: event '%s' changes nothing", mad_sm_state_name(sm->sm_state),
			 sm_event_name(ev));
		return;
	}
	uint8_t from = sm->sm_state;
	sm->sm_state = t->to;
	sm_notice("SM state %s -> %s (%s: %s)", mad_sm_state_name(from),
		  mad_sm_state_name(t->to), sm_event_name(ev), why);
	if (t->sweep)
		sm->sweep_due = true;
	if (t->to == MAD_SM_MASTER) {
		sm->first_master_sweep = true;
		sm->master_terms++;
	}
	/* queued while a worker stores a sweep (sm_store_queue.h) */
	sm_store_event(&sm->store, DB_EV_SM_STATE, 0, -1, "%s -> %s: %s", mad_sm_state_name(from),
		       mad_sm_state_name(t->to), why);
	sm_store_status(&sm->store, DB_ST_SM_STATE, mad_sm_state_name(t->to));
	sm_notify_status("%s: %s", mad_sm_state_name(t->to), why);
}

void sm_sweep_due(struct sm *sm, const char *why)
{
	if (!sm->sweep_due)
		sm_info("heavy sweep due: %s", why);
	sm->sweep_due = true;
}

/* SPDX-License-Identifier: MIT */
/*
 * sm_state.h - the SM's state machine (IBA 14.4: NOTACTIVE, DISCOVERING,
 * STANDBY, MASTER) and the one place that says a heavy sweep is due.
 *
 * Every change of state goes through sm_state_event(): one function takes an
 * event, looks up the transition, logs it, stores it as an event and tells
 * systemd.  Events that do not apply in the current state are ignored (logged
 * at debug level).  The daemon (sm_daemon.c) and the heavy sweep
 * (sm_sweep.c), the election and SMInfo from other SMs (sm_ha.c) feed it;
 * what the SM does next follows from the state: in DISCOVERING and MASTER a
 * heavy sweep runs when one is due, in STANDBY the master is polled (and,
 * with ha.standby_sweeps, light sweeps keep the store current; a heavy one
 * only discovers), in NOTACTIVE
 * the daemon waits for its port or for SMInfo DISCOVER.
 */
#ifndef IBSMD_SM_STATE_H
#define IBSMD_SM_STATE_H

#include "sm/core/sm.h"

enum sm_event {
	SM_EV_PORT_READY,	/* the local port can carry SMPs */
	SM_EV_PORT_LOST,	/* the transport or the local port went away */
	SM_EV_NO_HIGHER_SM,	/* discovery done, no SM outranks us: we master */
	SM_EV_DISABLE,		/* told to stop managing (shutdown, SMInfo DISABLE) */
	SM_EV_HIGHER_SM,	/* discovery found a master, or an SM that outranks us */
	SM_EV_OTHER_MASTER,	/* a MASTER met another MASTER it cannot hand over
				 * to: it never programs beside it (sm_ha.c) */
	SM_EV_MASTER_LOST,	/* STANDBY: the master stopped answering polls */
	SM_EV_HANDOVER,		/* SMInfo HANDOVER from the master: we take over */
	SM_EV_ACKNOWLEDGE,	/* the SM we handed over to took over (it answered
				 * HANDOVER or sent SMInfo ACKNOWLEDGE) */
	SM_EV_STANDBY,		/* SMInfo STANDBY from the master */
	SM_EV_DISCOVER,		/* SMInfo DISCOVER: start again */
};

/* Feed @ev (with a reason for the log) to the state machine. */
void sm_state_event(struct sm *sm, enum sm_event ev, const char *why);

/* A heavy sweep is due, because of @why (logged at info level). */
void sm_sweep_due(struct sm *sm, const char *why);

const char *sm_event_name(enum sm_event ev);

#endif

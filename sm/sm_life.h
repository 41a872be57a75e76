/* SPDX-License-Identifier: MIT */
/*
 * sm_life.h - the daemon's life cycle: it owns every subsystem's state,
 * opens and closes the store, the transport and the rpc layer, and moves
 * between the local ports.  Included by sm/'s root only (sm_main.c,
 * sm_daemon.c, sm_reload.c, sm_ctl.c): no subsystem includes it.
 */
#ifndef IBSMD_SM_LIFE_H
#define IBSMD_SM_LIFE_H

#include "sm/core/sm.h"

/* Give @sm its subsystems' state, each empty, unless it has it already:
 * sm_open_store() does; a test that builds an SM by hand calls it first.
 * 0 or -ENOMEM. */
int sm_init(struct sm *sm);

/* Open the store, the transport and the rpc layer sm->cfg names (logged on
 * failure).  0 or -errno; sm_close() releases whatever was opened. */
int sm_open(struct sm *sm);
void sm_close(struct sm *sm);
/* The two halves of sm_open(): the store, then the port (transport and rpc
 * layer; logged at @prio on failure, so a daemon waiting for its port does not
 * shout every time).  -ENODEV: a device or port the configuration names is
 * not there (or is no InfiniBand port); -ENETDOWN: it is, its link is not
 * up yet; then with @wait the transport stays open (sm->t, no sm->rpc) and
 * the next call looks at the port again.  sm_close_port() lets a daemon let
 * go of a dead port. */
int sm_open_store(struct sm *sm);
int sm_open_port(struct sm *sm, int prio, bool wait);
void sm_close_port(struct sm *sm);
/* cfg.ports: the first of the first @end entries, other than @skip, whose
 * port has its link up (INIT or better; ACTIVE only when @active), or -1
 * with each refusal in sm->port_error.  Needs an open transport. */
int sm_port_pick(struct sm *sm, unsigned end, int skip, bool active);
/* Move the open transport to cfg.ports[@idx] and give it a new rpc layer
 * (idle: between sweeps).  0, or -errno with the reason in sm->port_error
 * (the transport stays where it was). */
int sm_move_port(struct sm *sm, unsigned idx);

/* A new rpc layer on the open transport, with sm->cfg's window, timeout and
 * retries, replacing the old one (idle: between sweeps).  0 or -errno. */
int sm_rpc_renew(struct sm *sm);

#endif

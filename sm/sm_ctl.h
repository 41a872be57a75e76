/* SPDX-License-Identifier: MIT */
/*
 * sm_ctl.h - the daemon's control socket: operators ask a running ibsmd.
 *
 * A unix stream socket; a client sends one line, the daemon answers one line
 * and closes.  Commands: "resweep" (a heavy sweep is due), "status" (state,
 * sweep counts, what the SM is doing now) and "link restore NODE PORT" (an
 * isolated link back into routing, sm_isolate.h); each followed by " json"
 * for a JSON answer.  smquery --socket (sm/smquery/smq_ctl.c) is the client.
 *
 * Clients are served from the SM's event loop at every stage of every sweep.
 * None can hold it up: sockets are non-blocking, a client has
 * SM_CTL_DEADLINE_MS to send its line, and at most SM_CTL_MAX_CLIENTS are
 * held at once (a newcomer beyond that displaces the longest-silent one).
 *
 * The path is only ever removed when it is a socket nobody answers on (one an
 * earlier ibsmd left), and on exit only when it is still the socket this
 * daemon made: a regular file, the store, or another live daemon's socket at
 * that path is refused with an error and left alone.
 */
#ifndef IBSMD_SM_CTL_H
#define IBSMD_SM_CTL_H

#include "sm/core/sm.h"

#define SM_CTL_MAX_CLIENTS 16
#define SM_CTL_DEADLINE_MS 1000
#define SM_CTL_JOB_DEADLINE_MS 120000
#define SM_CTL_MAX_LINE (5 << 20)	/* 65,536 host names of 63 bytes, and room */

struct sm_ctl;

/* Listen on @path, served from sm->loop.  0 with *@out set, or -errno with
 * the reason logged (-EEXIST: not a socket; -EADDRINUSE: another daemon
 * answers there). */
int sm_ctl_open(struct sm *sm, const char *path, struct sm_ctl **out);

/* Stop listening, drop clients, remove the socket if it is still ours. */
void sm_ctl_close(struct sm_ctl *c);

#endif

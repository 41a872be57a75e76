/* SPDX-License-Identifier: MIT */
/*
 * sm_ctl.h - the daemon's control socket: operators ask a running ibsmd.
 *
 * A unix stream socket; a client sends one line, the daemon answers one line
 * and closes.  Commands: "resweep" (a heavy sweep is due), "status" (state and
 * sweep count).  smquery --socket (sm/smq_ctl.c) is the client.
 */
#ifndef IBSMD_SM_CTL_H
#define IBSMD_SM_CTL_H

#include "sm/sm.h"

/* Listen on @path (a stale socket file there is replaced).  The listening fd,
 * or -errno (logged). */
int sm_ctl_open(const char *path);

/* Serve every client waiting on @fd, without blocking. */
void sm_ctl_serve(struct sm *sm, int fd);

void sm_ctl_close(int fd, const char *path);

#endif

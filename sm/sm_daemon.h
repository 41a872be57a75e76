/* SPDX-License-Identifier: MIT */
/*
 * sm_daemon.h - the SM as a service: the event loop and what it drives.
 *
 * sm_daemon_run() owns the loop until SIGTERM/SIGINT: it waits for the port
 * (NOTACTIVE), runs heavy sweeps when the state machine or a change asks for
 * one (with back-off after a failure), light sweeps on the sweep interval,
 * serves the control socket, takes MADs from the fabric at any time, re-reads
 * the configuration on SIGHUP (the files on a worker, sm_reload.h), reopens
 * the log on SIGUSR1, and keeps systemd informed (READY, STATUS, WATCHDOG).
 */
#ifndef IBSMD_SM_DAEMON_H
#define IBSMD_SM_DAEMON_H

#include <stddef.h>

#include "sm/core/sm.h"
#include "sm/sm_reload.h"

/*
 * Block the signals the daemon takes through its loop.  Call first thing in
 * main(), before any thread exists (libumad2sim starts one), so that none of
 * them can kill the process behind the loop's back.
 */
void sm_daemon_block_signals(void);

/* Serve until asked to stop.  @sm has its store open and sm->cfg set; the
 * port is opened (and waited for) here.  0 on a clean stop, -errno when the
 * daemon cannot run at all. */
int sm_daemon_run(struct sm *sm, sm_reload_fn reload, void *reload_ctx);

#endif

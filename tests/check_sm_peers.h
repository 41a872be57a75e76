/* SPDX-License-Identifier: MIT */
/*
 * check_sm_peers.h - whole SM daemons side by side on one simulated fabric,
 * for the suites of several SMs (check_sm_ha.c, check_sm_jobs.c): each on a
 * thread of its own (sm_daemon_run), attached to its own host's port 1
 * (sim_transport_new_at), and stopped as a SIGKILL would stop it.
 */
#ifndef IBSMD_TESTS_CHECK_SM_PEERS_H
#define IBSMD_TESTS_CHECK_SM_PEERS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "mad/sim/mad_sim.h"
#include "sm/core/sm.h"

struct node_sm {
	struct sm sm;
	pthread_t th;
	bool running;
	char host[16];
};

/* The index of the node named @name in @f's topology (asserted to exist). */
uint32_t peer_node_of(struct sim_fabric *f, const char *name);

/* Run @n, its configuration set and its store open, at port 1 of @f's node
 * named n->host: transport, rpc, the port ready, then the daemon on its thread
 * (a configuration reload is refused). */
void peer_run(struct node_sm *n, struct sim_fabric *f);

/* As a SIGKILL would: the SM stops at once (SIGTERM to its thread) and its
 * port is gone (sm_close()).  Nothing when it is not running. */
void peer_kill(struct node_sm *n);

/* Its SM state and heavy sweeps, read while it runs. */
uint8_t peer_state(struct node_sm *n);
uint64_t peer_sweeps(struct node_sm *n);

#endif

// SPDX-License-Identifier: MIT
/*
 * check_sm_peers.c - SM daemons side by side on one simulated fabric
 * (check_sm_peers.h).
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "mad/model/topo.h"
#include "sm/core/sm_state.h"
#include "sm/sm_daemon.h"
#include "sm/sm_life.h"
#include "sm/util/sm_loop.h"
#include "tests/check_sm_peers.h"

static int no_reload(void *ctx, struct sm_config *out, char *err, size_t errlen)
{
	(void)ctx;
	(void)out;
	snprintf(err, errlen, "no reload in tests");
	return -ENOTSUP;
}

static void *run(void *arg)
{
	struct node_sm *n = arg;

	sm_daemon_run(&n->sm, no_reload, NULL);
	return NULL;
}

uint32_t peer_node_of(struct sim_fabric *f, const char *name)
{
	uint32_t n = topo_find_name(sim_fabric_topo(f), name);

	ck_assert_msg(n != TOPO_NONE, "no node %s", name);
	return n;
}

void peer_run(struct node_sm *n, struct sim_fabric *f)
{
	ck_assert_int_eq(sim_transport_new_at(f, peer_node_of(f, n->host), 1, &n->sm.t), 0);
	ck_assert_int_eq(sm_rpc_renew(&n->sm), 0);
	sm_state_event(&n->sm, SM_EV_PORT_READY, n->host);
	ck_assert_int_eq(pthread_create(&n->th, NULL, run, n), 0);
	n->running = true;
}

void peer_kill(struct node_sm *n)
{
	if (!n->running)
		return;
	pthread_kill(n->th, SIGTERM);
	pthread_join(n->th, NULL);
	/* A stage abandoned at SIGTERM runs on, as it does while a daemon
	 * exits, and sm_close() leaves what it reads.  A test goes on: it
	 * waits for the stage (30 s at most), then frees everything, so that
	 * the leak checker sees no block left behind on a stack gone by. */
	for (int ms = 0; n->sm.abandoned && sm_loop_left_working() && ms < 30000; ms++)
		usleep(1000);
	if (!sm_loop_left_working())
		n->sm.abandoned = false;
	sm_close(&n->sm);
	n->running = false;
}

uint8_t peer_state(struct node_sm *n)
{
	return __atomic_load_n(&n->sm.sm_state, __ATOMIC_ACQUIRE);
}

uint64_t peer_sweeps(struct node_sm *n)
{
	return __atomic_load_n(&n->sm.sweeps, __ATOMIC_ACQUIRE);
}

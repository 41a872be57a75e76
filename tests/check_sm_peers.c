// SPDX-License-Identifier: MIT
/*
 * check_sm_peers.c - SM daemons side by side on one simulated fabric
 * (check_sm_peers.h).
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>

#include "mad/model/topo.h"
#include "sm/core/sm_state.h"
#include "sm/sm_daemon.h"
#include "sm/sm_life.h"
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

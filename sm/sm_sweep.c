// SPDX-License-Identifier: MIT
/*
 * sm_sweep.c - a heavy sweep, stage by stage, timed and counted.
 *
 * discover -> store the snapshot and its diff (one db transaction, which also
 * holds the sweep's statistics).  Each stage's SMPs are the rpc layer's sent
 * counter before and after it.  The new fabric replaces the last one only when
 * the sweep succeeded.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "sm/sm.h"
#include "sm/sm_arena.h"
#include "sm/sm_discover.h"
#include "sm/sm_log.h"

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint64_t smps_sent(const struct sm *sm)
{
	struct mad_rpc_stats st;

	mad_rpc_get_stats(sm->rpc, &st);
	return st.sent;
}

static int store(struct sm *sm, const struct sm_fabric *f, struct db_sweep_stats *st)
{
	int64_t id;
	int rc = db_sweep_begin(sm->db, "heavy", &id);

	if (rc < 0)
		goto fail;
	rc = db_store_topology(sm->db, id, &f->topo);
	for (size_t i = 0; rc >= 0 && i < f->nissues; i++) {
		const struct sm_issue *is = &f->issues[i];
		rc = db_event_add(sm->db, id, sm_issue_kind_name(is->kind), is->guid,
				  is->port, "%s", is->detail);
	}
	if (rc >= 0)
		rc = db_sweep_end(sm->db, id, st);
	if (rc >= 0)
		return 0;
fail:
	sm_err("storing the sweep failed: %s (the previous state is kept)", db_errmsg(sm->db));
	return rc;
}

int sm_sweep_heavy(struct sm *sm)
{
	struct db_sweep_stats st = { .result = "ok" };
	struct sm_fabric f;
	struct sm_arena arena;
	uint64_t t0 = mono_ms(), s0 = smps_sent(sm);

	sm_fabric_init(&f);
	sm_arena_init(&arena);
	int rc = sm_discover(sm->rpc, &f, &arena);
	sm_arena_free(&arena);
	st.discovery_ms = (uint32_t)(mono_ms() - t0);
	st.discovery_smps = smps_sent(sm) - s0;
	if (rc) {
		sm_err("discovery failed: %s", rc == -EHOSTUNREACH ?
		       "the SM's own port does not answer" : strerror(-rc));
		sm_fabric_free(&f);
		return rc;
	}
	sm_notice("discovery: %u nodes (%u switches, %u CAs), %zu links, %zu problems, "
		  "%llu SMPs in %u ms", f.topo.n, topo_count_type(&f.topo, MAD_NODE_SWITCH),
		  topo_count_type(&f.topo, MAD_NODE_CA), topo_count_links(&f.topo), f.nissues,
		  (unsigned long long)st.discovery_smps, st.discovery_ms);
	rc = store(sm, &f, &st);
	if (rc) {
		sm_fabric_free(&f);
		return rc;
	}
	if (sm->have_fabric)
		sm_fabric_free(&sm->fabric);
	sm->fabric = f;
	sm->have_fabric = true;
	sm->sweeps++;
	return 0;
}

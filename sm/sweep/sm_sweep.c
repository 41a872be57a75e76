// SPDX-License-Identifier: MIT
/*
 * sm_sweep.c - a heavy sweep, stage by stage, timed and counted.
 *
 * discover -> [carry over what a lost MAD hid (sm_carry.c) -> sort by GUID ->
 * assign LIDs -> routing view] -> [route] with program LIDs -> program (LFTs,
 * SL2VL, activation) with [store the LFTs] -> [store].
 * The stages in brackets are CPU-heavy and run on a worker (sm_offload()), so
 * the loop keeps answering; the others wait for MADs, and the rpc layer runs
 * the loop while they wait.  The routes are computed on a worker while the
 * loop thread sends the PortInfo Sets (LIDs, ARMED), which need no routes:
 * the engines work on the routing view, built before, which the Sets'
 * answers do not touch.  Discovery ends with the election (sm_ha.c): only
 * a MASTER goes on to program the fabric; a STANDBY's sweep stores what it
 * discovered (a warm store for a takeover) and counts as done.
 * Storing begins while the LFTs go out: once programming knows which tables
 * it sends, a worker stores them, marked pending, with the LID map entries
 * that changed (the LIDs are in the fabric by then), in a transaction of its
 * own: ~100 MB at 27k hosts, written while the loop thread sends 1.4 M
 * blocks.  The store step is then one db transaction holding the snapshot
 * and its diff (port states are known only after activation), the problems
 * met, the tables confirmed (or forgotten where a Set failed) and the sweep's
 * figures; a crash before it commits leaves the previous sweep's state, and
 * the switches whose tables stayed pending are read back by the next sweep.
 * If the early store fails, the store step writes it all as before.  Each
 * stage's SMPs are the rpc layer's sent counter before and after it; the
 * sweep's SMPs sent, lost and retried are the rpc counters' deltas since it
 * began (read on the loop thread, after discovery and after programming).  The
 * sweep is recorded with the time it began, not the time it was stored.  The
 * new fabric replaces the last one only when the sweep got as far as the store.
 * Then the metrics file, if configured, is rewritten.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/core/sm.h"
#include "sm/sweep/sm_sweep.h"
#include "sm/util/sm_arena.h"
#include "sm/sweep/sm_carry.h"
#include "sm/sweep/sm_discover.h"
#include "sm/ha/sm_ha.h"
#include "sm/sweep/sm_lid.h"
#include "sm/util/sm_log.h"
#include "sm/sa/sm_mcast_program.h"
#include "sm/sa/sm_part_store.h"
#include "sm/sa/sm_pkey_program.h"
#include "sm/sweep/sm_program.h"
#include "sm/sweep/sm_route.h"
#include "sm/core/sm_state.h"
#include "sm/repair/sm_ar.h"
#include "sm/repair/sm_patch.h"
#include "sm/sa/sm_sa.h"
#include "sm/jobs/sm_jobs.h"
#include "sm/sa/sm_sa_inform.h"
#include "sm/sweep/sm_path_sl_store.h"
#include "sm/telemetry/sm_isolate.h"
#include "sm/telemetry/sm_rebalance.h"

struct sweep {
	struct sm *sm;
	struct sm_fabric f;
	struct sm_arena arena;
	struct sm_lid_plan plan;
	struct topo_view view;	/* what the routes are computed over */
	bool have_view;
	struct sm_routes routes;
	struct sm_jobs_sweep *jobs;	/* the jobs routed over them (sm_jobs.h) */
	struct sm_iso_set isolated;	/* the links routing leaves out (sm_isolate.h) */
	unsigned nisolated;		/* of them, marked in f's topology */
	struct sm_program_result prog;
	struct sm_job *early;		/* storing the LFTs while they go out */
	bool early_stored;		/* it committed */
	struct sm_pkey_ports pkeys;	/* the partitions resolved against f */
	struct db_sweep_stats st;
	uint32_t plan_ms;	/* LID assignment */
	char result[256];
	int64_t started_ms;		/* the store's clock when the sweep began */
	struct mad_rpc_stats rpc0;	/* the rpc counters then */
};

static int store_lids(struct sweep *sw)
{
	int rc = 0;

	for (size_t i = 0; rc >= 0 && i < sw->plan.n; i++) {
		const struct sm_lid_endpoint *ep = &sw->plan.ep[i];
		if (ep->map_changed)
			rc = db_lids_save(sw->sm->db, ep->guid, ep->lid, ep->lmc);
	}
	return rc;
}

/* The early store's writes: the LID map, the tables about to go out. */
static int store_early_rows(struct db *db, void *arg)
{
	struct sweep *sw = arg;
	size_t nblocks = (size_t)sw->routes.max_lid / MAD_LFT_BLOCK + 1;
	int rc = store_lids(sw);

	for (uint32_t n = 0; rc >= 0 && n < sw->f.topo.n; n++)
		if (sw->prog.lft_planned[n])
			rc = db_lft_save_table(db, sw->f.topo.nodes[n].guid, sw->routes.lft[n],
					       nblocks, true);
	return rc;
}

/* On a worker while the loop thread programs: it reads only what
 * programming leaves alone (the routes, the LID plan, node GUIDs). */
static int store_early(void *arg)
{
	struct sweep *sw = arg;
	struct sm *sm = sw->sm;
	uint64_t t = mad_now_ms();

	pthread_mutex_lock(&sm->db_mu);
	int rc = sm->db ? db_batch(sm->db, store_early_rows, sw) : -ECANCELED;
	if (rc && sm->db)
		sm_warn("storing the LFTs while programming failed: %s (stored after it)",
			db_errmsg(sm->db));
	sm_store_queue_drain_locked(&sm->store);	/* what the loop queued meanwhile */
	pthread_mutex_unlock(&sm->db_mu);
	sw->early_stored = rc == 0;
	if (rc == 0)
		sm_info("stored the LFTs being sent in %llu ms, beside programming",
			(unsigned long long)(mad_now_ms() - t));
	return rc;
}

static void lfts_planned(void *arg)
{
	struct sweep *sw = arg;

	sw->early = sm_job_start(sw->sm, store_early, sw);
}

static int store_extras(struct sweep *sw, int64_t id)
{
	struct db *db = sw->sm->db;
	int rc = 0;

	for (size_t i = 0; rc >= 0 && i < sw->f.nissues; i++) {
		const struct sm_issue *is = &sw->f.issues[i];
		rc = db_event_add(db, id, sm_issue_kind_name(is->kind), is->guid, is->port,
				  "%s", is->detail);
	}
	if (rc >= 0 && !sw->early_stored)
		rc = store_lids(sw);
	if (rc >= 0)
		rc = sm_mkey_store(db, &sw->f);
	if (rc >= 0)
		rc = sm_part_store(db, &sw->sm->sa->partitions, sw->pkeys.slot ? &sw->pkeys : NULL);
	/* the whole table of every switch that took a new block */
	for (uint32_t n = 0; rc >= 0 && sw->prog.lft_changed && n < sw->f.topo.n; n++) {
		uint64_t guid = sw->f.topo.nodes[n].guid;
		if (sw->prog.lft_failed[n])	/* unknown now: the next sweep reads it back */
			rc = db_lft_forget(db, guid);
		else if (sw->early_stored && sw->prog.lft_planned[n])
			rc = db_lft_confirm(db, guid);
		else if (sw->prog.lft_changed[n] || sw->prog.lft_unrecorded[n])
			rc = db_lft_save_table(db, guid, sw->routes.lft[n],
					       (size_t)sw->routes.max_lid / MAD_LFT_BLOCK + 1,
					       false);
	}
	if (rc >= 0)	/* the AR tables the switches now hold (sm_ar_store.c) */
		rc = sm_ar_store(db, sw->sm->ar);
	if (rc >= 0)	/* for route-check's credit loops per SL */
		rc = sm_path_sls_store(db, &sw->f, &sw->routes.sls, sw->sm->path_sls_stored);
	if (rc >= 0 && strcmp(sw->result, "subnet up") == 0) {
		const struct topo_node *me = &sw->f.topo.nodes[sw->f.local_node];
		const struct topo_port *mp = &me->ports[me->type == MAD_NODE_SWITCH ? 0
								: sw->f.local_port];
		char v[32];
		snprintf(v, sizeof(v), "0x%016llx", (unsigned long long)mp->guid);
		rc = db_status_set(db, DB_ST_SM_GUID, v);
		snprintf(v, sizeof(v), "%u", mp->lid);
		if (rc >= 0)
			rc = db_status_set(db, DB_ST_SM_LID, v);
		if (rc >= 0)
			rc = db_status_set(db, DB_ST_SM_STATE,	/* a handover may have come */
					   mad_sm_state_name(sw->sm->sm_state));
		snprintf(v, sizeof(v), "%lld", (long long)db_now_ms(db));
		if (rc >= 0)
			rc = db_status_set(db, DB_ST_SUBNET_UP, v);
	}
	return rc;
}

static int store(struct sweep *sw)
{
	struct db *db = sw->sm->db;
	uint64_t t = mad_now_ms();
	int64_t id;

	db_set_retention(db, sw->sm->cfg.retention_events, sw->sm->cfg.retention_sweeps);
	int rc = db_sweep_begin_at(db, "heavy", sw->started_ms, &id);
	if (rc >= 0)
		rc = db_store_topology(db, id, &sw->f.topo);
	if (rc >= 0)
		rc = store_extras(sw, id);
	sw->st.store_ms = (uint32_t)(mad_now_ms() - t);	/* after programming */
	if (rc >= 0)
		rc = db_sweep_end(db, id, &sw->st);
	if (rc >= 0)
		return 0;
	sm_err("storing the sweep failed: %s (the previous state is kept)", db_errmsg(db));
	return rc;
}

static void sweep_free(struct sweep *sw)
{
	sm_program_result_free(&sw->prog);
	sm_pkey_ports_free(&sw->pkeys);
	sm_routes_free(&sw->routes);
	sm_jobs_sweep_free(sw->jobs);
	if (sw->have_view)
		topo_view_free(&sw->view);
	sm_iso_set_free(&sw->isolated);
	sm_lid_plan_free(&sw->plan);
	sm_arena_free(&sw->arena);
	sm_fabric_free(&sw->f);
}

/* Stop the sweep at a failed stage: log it and record it in the store. */
static int give_up(struct sweep *sw, int rc, const char *what)
{
	snprintf(sw->result, sizeof(sw->result), "%s", what);
	sm_err("heavy sweep stopped: %s", what);
	int64_t id;
	pthread_mutex_lock(&sw->sm->db_mu);
	if (sw->sm->db && db_sweep_begin_at(sw->sm->db, "heavy", sw->started_ms, &id) >= 0)
		db_sweep_abort_stats(sw->sm->db, id, what, &sw->st);
	pthread_mutex_unlock(&sw->sm->db_mu);
	return rc;
}

/* Enter a stage: what `smquery sm-status` shows while it runs. */
static void stage(struct sweep *sw, const char *name)
{
	sw->sm->stage = name;
	sw->sm->stage_started_ms = mad_now_ms();
}

/* Discovery, on the loop thread (it waits for MADs).  Then the election
 * (sm_ha.c) decides whether this SM goes on to program the fabric. */
static int stage_discover(struct sweep *sw)
{
	struct sm *sm = sw->sm;
	char err[256];
	uint64_t t = mad_now_ms(), s = sm_smps_sent(sm);

	stage(sw, "discovery");
	pthread_mutex_lock(&sm->db_mu);
	if (sm_mkey_setup(&sw->f.mkeys, &sm->cfg, sm->db,
			  sm->have_fabric ? &sm->fabric : NULL) < 0)
		sm_warn("M_Key: the stored keys could not be read; using the configured ones");
	pthread_mutex_unlock(&sm->db_mu);
	int rc = sm_discover(sm->rpc, &sw->f, &sw->arena);
	sm_mkey_discovered(&sw->f.mkeys);
	sw->st.discovery_ms = (uint32_t)(mad_now_ms() - t);
	sw->st.discovery_smps = sm_smps_sent(sm) - s;
	sw->st.smps = sm_smps_since(sm, &sw->rpc0);
	if (rc == -EHOSTUNREACH)
		return give_up(sw, rc, "the SM's own port does not answer");
	if (rc) {
		snprintf(err, sizeof(err), "discovery failed: %s", strerror(-rc));
		return give_up(sw, rc, err);
	}
	rc = sm_ha_elect(sm, &sw->f, &sw->arena);
	if (rc) {
		snprintf(err, sizeof(err), "asking the other SMs failed: %s", strerror(-rc));
		return give_up(sw, rc, err);
	}
	return 0;
}

/* Planning, on a worker: what a lost MAD hid, GUID order, LIDs, the routing
 * view.  It reads the last sweep's fabric and writes only this sweep's data. */
static int stage_plan(void *arg)
{
	struct sweep *sw = arg;
	struct sm *sm = sw->sm;
	char err[256];

	unsigned kept = sm->have_fabric ? sm_carry_links(&sw->f, &sm->fabric) : 0;
	if (sm->have_fabric)
		sm_carry_descs(&sw->f, &sm->fabric);
	if (sm_fabric_sort(&sw->f))
		return give_up(sw, -ENOMEM, "out of memory");
	if (kept)
		sm_notice("discovery: %u links known from the last sweep kept (their probes "
			  "were lost)", kept);
	sm_notice("discovery: %u nodes (%u switches, %u CAs), %zu links, %zu problems, "
		  "%llu SMPs in %u ms", sw->f.topo.n, topo_count_type(&sw->f.topo, MAD_NODE_SWITCH),
		  topo_count_type(&sw->f.topo, MAD_NODE_CA), topo_count_links(&sw->f.topo),
		  sw->f.nissues, (unsigned long long)sw->st.discovery_smps, sw->st.discovery_ms);

	uint64_t t = mad_now_ms();
	pthread_mutex_lock(&sm->db_mu);	/* the store is closed (NULL) when stopping */
	int rc = sm->db ? sm_lid_assign(&sw->f, sm->cfg.lmc, sm->db, &sw->plan, err, sizeof(err))
			: -ECANCELED;
	pthread_mutex_unlock(&sm->db_mu);
	if (rc)
		return give_up(sw, rc, err);
	sm_info("LIDs: %zu ports, %zu kept from the map, %zu from the fabric, %zu new; "
		"top LID %u", sw->plan.n, sw->plan.kept_from_map, sw->plan.kept_from_fabric,
		sw->plan.fresh, sw->plan.max_lid);

	sw->plan_ms = (uint32_t)(mad_now_ms() - t);
	t = mad_now_ms();
	sw->nisolated = sm_isolate_mark(&sw->isolated, &sw->f.topo);
	rc = sm_route_prepare(&sw->f, sw->plan.max_lid, &sw->view, &sw->routes);
	sw->have_view = rc == 0;
	sw->st.routing_ms = (uint32_t)(mad_now_ms() - t);
	return rc ? give_up(sw, rc, "out of memory") : 0;
}

/* Routing, on a worker, over the view alone; then the jobs' routes, which
 * keep the view. */
static int route_job(void *arg)
{
	struct sweep *sw = arg;
	uint64_t t = mad_now_ms();
	int rc = sm_route_view(&sw->view, &sw->sm->cfg, &sw->routes);

	if (rc == 0)
		sm_jobs_sweep_route(sw->jobs, &sw->view, &sw->routes);
	sw->st.routing_ms += (uint32_t)(mad_now_ms() - t);
	if (rc && !sw->nisolated)	/* else stage_route() tries without isolation */
		return give_up(sw, rc, "no routing engine produced valid routes");
	return rc;
}

/* Routing again, the isolated links back in the topology. */
static int route_again(void *arg)
{
	struct sweep *sw = arg;
	uint64_t t = mad_now_ms();
	int rc = sm_route(&sw->f, sw->plan.max_lid, &sw->sm->cfg, &sw->routes);

	sw->st.routing_ms += (uint32_t)(mad_now_ms() - t);
	if (rc)
		return give_up(sw, rc, "no routing engine produced valid routes");
	return 0;
}

/* Meanwhile, on the loop thread: LIDs, SM LID, MTU, VLs; ports to ARMED. */
static int program_ports(void *arg)
{
	struct sweep *sw = arg;

	return sm_program_ports(sw->sm, &sw->f, &sw->arena, &sw->prog);
}

/* Routing with the PortInfo Sets alongside.  A routing failure is the
 * sweep's result (give_up() on the worker); else a failed transport is. */
static int stage_route(struct sweep *sw)
{
	struct sm *sm = sw->sm;
	int prc;

	stage(sw, "routing");
	sw->jobs = sm_jobs_sweep_begin(sm);
	int rc = sm_offload_during(sm, route_job, sw, program_ports, sw, &prc);
	if (sm->abandoned)
		return rc;	/* the worker may still read the view */
	topo_view_free(&sw->view);	/* the LFT rows are what the rest needs */
	sw->have_view = false;
	if (rc && sw->nisolated && !sm->stopping) {
		/* never a fabric unrouted for the sake of isolation */
		sm_warn("routing failed without the %u isolated links: routing with them",
			sw->nisolated);
		sm_isolate_mark(&(const struct sm_iso_set){ 0 }, &sw->f.topo);
		sw->nisolated = 0;
		rc = sm_offload(sm, route_again, sw);
		if (sm->abandoned)
			return rc;
	}
	if (rc == 0 && prc)
		return give_up(sw, prc, sm->stopping ? "stopped" : "programming the fabric failed");
	return rc;
}

/* Programming, on the loop thread: LFTs, SL2VL, activation. */
static int stage_program(struct sweep *sw)
{
	struct sm *sm = sw->sm;

	stage(sw, "programming");
	sm_rebalance_reapply(sm, &sw->f, &sw->routes);	/* the moves kept, if they still fit */
	sm_mcast_note_resets(sm, &sw->f);
	const struct sm_program_hook hook = { .lfts_planned = lfts_planned, .arg = sw };
	int rc = sm_program_routes(sm, &sw->f, &sw->routes, &sw->arena, &sw->prog, &hook);
	if (sw->early) {	/* its failure is logged; the store step makes up for it */
		int erc = sm_job_wait(sm, sw->early);
		sw->early = NULL;
		if (erc == -ECANCELED && sm->abandoned)
			return erc;	/* the worker still uses @sw */
	}
	if (rc == 0 || rc == -EIO) {
		int pk = sm_pkey_sweep(sm, &sw->f, &sw->arena, sw->prog.portinfo_sets > 0,
				       &sw->pkeys);
		if (pk == -EIO)
			sw->prog.failures++;
		rc = pk && pk != -EIO ? pk : rc ? rc : pk;
		/* alias GUIDs: again on every port when ports were (re)activated */
		int al = sm_sa_alias_program(sm, &sw->f, sw->prog.portinfo_sets > 0);
		rc = rc ? rc : al;
	}
	sw->st.smps = sm_smps_since(sm, &sw->rpc0);
	sw->st.lid_smps = sw->prog.lid_smps;
	sw->st.lid_ms = sw->plan_ms + sw->prog.lid_ms;
	sw->st.lft_smps = sw->prog.lft_smps;
	sw->st.ar_smps = sw->prog.ar_blocks;
	sw->st.lft_ms = sw->prog.lft_ms;
	sw->st.activate_smps = sw->prog.activate_smps;
	sw->st.activate_ms = sw->prog.activate_ms;
	sm_notice("programming: %zu PortInfo Sets, %zu LFT blocks (%zu read back), "
		  "%zu ports activated, %zu failures; SMPs lid %llu lft %llu activate %llu",
		  sw->prog.portinfo_sets, sw->prog.lft_blocks, sw->prog.lft_reads,
		  sw->prog.activations, sw->prog.failures,
		  (unsigned long long)sw->prog.lid_smps, (unsigned long long)sw->prog.lft_smps,
		  (unsigned long long)sw->prog.activate_smps);
	if (rc == -EIO)
		snprintf(sw->result, sizeof(sw->result), "%zu SMPs failed; resweep due",
			 sw->prog.failures);
	else if (rc)
		return give_up(sw, rc, sm->stopping ? "stopped" : "programming the fabric failed");
	else if (sw->f.incomplete)
		snprintf(sw->result, sizeof(sw->result), "%u answers lost in discovery; "
			 "resweep due", sw->f.incomplete);
	else
		snprintf(sw->result, sizeof(sw->result), "subnet up");
	return 0;
}

/* Storing, on a worker: one transaction. */
static int stage_store(void *arg)
{
	struct sweep *sw = arg;

	sw->st.result = sw->result;
	pthread_mutex_lock(&sw->sm->db_mu);
	int rc = sw->sm->db ? store(sw) : -ECANCELED;
	sm_store_queue_drain_locked(&sw->sm->store);	/* what the loop queued meanwhile */
	pthread_mutex_unlock(&sw->sm->db_mu);
	return rc;
}

/* The new fabric replaces the last one. */
static void publish(struct sweep *sw, uint64_t t0)
{
	struct sm *sm = sw->sm;
	bool up = strcmp(sw->result, "subnet up") == 0;

	if (up)
		sm_notice("subnet up in %llu ms: %u nodes, top LID %u, engine %s, %llu SMPs",
			  (unsigned long long)(mad_now_ms() - t0), sw->f.topo.n, sw->plan.max_lid,
			  sw->routes.engine, (unsigned long long)(sw->st.discovery_smps +
			  sw->st.lid_smps + sw->st.lft_smps + sw->st.activate_smps));
	else if (sm->sm_state != MAD_SM_MASTER)
		sm_info("discovery stored: %u nodes; %s", sw->f.topo.n, sw->result);
	else
		sm_warn("sweep done with problems: %s", sw->result);
	if (sm->have_fabric) {
		sm_sa_report_changes(sm, &sm->fabric, &sw->f);	/* traps 64, 65, 128 */
		sm_fabric_free(&sm->fabric);
	}
	sm->fabric = sw->f;
	sm_fabric_init(&sw->f);
	sm_pkey_ports_free(&sm->sa->pkeys);	/* so do the partitions' ports */
	if (!sw->pkeys.slot)	/* not programmed (a STANDBY's sweep): resolved here */
		(void)sm_pkey_ports_build(&sm->sa->partitions, &sm->fabric, "partitions", &sw->pkeys);
	sm->sa->pkeys = sw->pkeys;
	memset(&sw->pkeys, 0, sizeof(sw->pkeys));
	sm_routes_free(&sm->routes);	/* the LFTs go with their fabric */
	sm->routes = sw->routes;
	memset(&sw->routes, 0, sizeof(sw->routes));
	sm_jobs_sweep_publish(sm, sw->jobs);	/* the jobs' router over them */
	sw->jobs = NULL;
	sm->have_fabric = true;
	sm->sweeps++;
}

/* Does this SM program the fabric now?  A MASTER that has not handed over. */
static bool sm_programs(const struct sm *sm)
{
	return sm->sm_state == MAD_SM_MASTER && !sm->ha->handover_sent;
}

int sm_sweep_heavy(struct sm *sm)
{
	struct sweep *sw = calloc(1, sizeof(*sw));
	uint64_t t0 = mad_now_ms();

	if (!sw)
		return -ENOMEM;
	sw->sm = sm;
	sw->started_ms = db_now_ms(sm->db);
	sm_rpc_stats(sm, &sw->rpc0);
	sm->sweep_due = false;
	sm->patch->npending = 0;	/* links reported dead so far: this discovery sees them */
	sm->patch->overflow = false;
	sm_fabric_init(&sw->f);
	sm_arena_init(&sw->arena);
	int rc = stage_discover(sw);
	if (rc == 0 && sm_programs(sm) && sm_ar_wanted(&sm->cfg))
		rc = sm_ar_probe(sm, &sw->f, &sw->arena);	/* before planning reorders */
	if (rc == 0)
		rc = sm_isolate_snapshot(sm, &sw->isolated);
	if (rc == 0 && sm_programs(sm)) {
		stage(sw, "planning");
		rc = sm_offload(sm, stage_plan, sw);
		/* asked again before the first Set: a HANDOVER may have come */
		if (rc == 0 && sm_programs(sm))
			rc = stage_route(sw);
	}
	/* asked again: a HANDOVER may have been answered while planning ran */
	if (rc == 0 && sm_programs(sm))
		rc = stage_program(sw);
	else if (rc == 0)
		snprintf(sw->result, sizeof(sw->result), "discovered only: this SM is %s%s",
			 mad_sm_state_name(sm->sm_state),
			 sm->ha->handover_sent ? ", handing over" : "");
	if (rc == 0) {
		stage(sw, "store");
		rc = sm_offload(sm, stage_store, sw);
	}
	sm->stage = NULL;
	if (sm->abandoned)
		return rc;	/* a worker still uses @sw: the process is stopping */
	if (rc && sm->rpc && mad_rpc_pending(sm->rpc))	/* a stage gave up midway */
		mad_rpc_discard(sm->rpc);
	if (rc == 0) {
		if (sm->have_fabric)
			sm_isolate_flaps(sm, &sm->fabric, &sw->f, mad_now_ms());
		publish(sw, t0);
		if (sm_programs(sm))
			(void)sm_mcast_sweep(sm);	/* logged; a failure makes a sweep due */
		if (strcmp(sw->result, "subnet up") != 0 &&
		    (sm->sm_state == MAD_SM_MASTER || sm->sm_state == MAD_SM_DISCOVERING)) {
			sm_sweep_due(sm, sw->result);
			rc = -EIO;
		}
	} else if (!sm->stopping) {
		sm_sweep_due(sm, "the last heavy sweep failed");
	}
	snprintf(sm->last_result, sizeof(sm->last_result), "%s", sw->result);
	sm->last_sweep_end_ms = mad_now_ms();
	sweep_free(sw);
	free(sw);
	return rc;
}

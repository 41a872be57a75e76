// SPDX-License-Identifier: MIT
/*
 * sm_life.c - the daemon's life cycle: it owns every subsystem's state (one
 * block, allocated when the store opens), opens the store, the transport and
 * the rpc layer from the configuration (the first port of the port list that
 * is up), moves to another port of that list, and closes them again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/core/sm.h"
#include "sm/core/sm_state.h"
#include "sm/ha/sm_ha.h"
#include "sm/ha/sm_mad_in.h"
#include "sm/ha/sm_trap_limit.h"
#include "sm/jobs/sm_jobs.h"
#include "sm/osm/sm_osm_guid2lid.h"
#include "sm/repair/sm_ar.h"
#include "sm/repair/sm_patch.h"
#include "sm/sa/sm_sa.h"
#include "sm/sa/sm_part_store.h"
#include "sm/sa/sm_sa_store.h"
#include "sm/sm_life.h"
#include "sm/sm_metrics.h"
#include "sm/sm_reload.h"
#include "sm/sweep/sm_path_sl_store.h"
#include "sm/telemetry/sm_isolate.h"
#include "sm/telemetry/sm_perf.h"
#include "sm/cc/sm_cc.h"
#include "sm/telemetry/sm_perf_feed.h"
#include "sm/telemetry/sm_rebalance.h"
#include "sm/util/sm_log.h"
#include "sm/util/sm_loop.h"

/* Every subsystem's state, in one block: struct sm points into it.  The SA's
 * comes first, so sm->sa is the block's address. */
struct sm_parts {
	struct sm_sa sa;
	struct sm_ha ha;
	struct sm_trap_limit traps;
	struct sm_patch_state patch;
	struct sm_ar_cache ar;
	struct sm_isolate iso;
	struct sm_rebalance rebalance;
	struct sm_perf_feed perf_feed;
	struct sm_path_sl_rows path_sls_stored;
	struct sm_jobs jobs;
	struct sm_cc cc;
};

int sm_init(struct sm *sm)
{
	if (sm->sa)
		return 0;
	struct sm_parts *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	sm->sa = &p->sa;
	sm->ha = &p->ha;
	sm->traps = &p->traps;
	sm->patch = &p->patch;
	sm->ar = &p->ar;
	sm->iso = &p->iso;
	sm->rebalance = &p->rebalance;
	sm->perf_feed = &p->perf_feed;
	sm->path_sls_stored = &p->path_sls_stored;
	sm->jobs = &p->jobs;
	sm->cc = &p->cc;
	return 0;
}

/* Let the block go, unless a worker abandoned at a stop may still read it. */
static void parts_free(struct sm *sm)
{
	if (sm->abandoned)	/* kept, and reachable from sm, for the worker */
		return;
	free(sm->sa);	/* the block (struct sm_parts starts with it) */
	sm->sa = NULL;
	sm->ha = NULL;
	sm->traps = NULL;
	sm->patch = NULL;
	sm->ar = NULL;
	sm->iso = NULL;
	sm->rebalance = NULL;
	sm->perf_feed = NULL;
	sm->path_sls_stored = NULL;
	sm->jobs = NULL;
	sm->cc = NULL;
}

/* OpenSM's guid2lid into a store that has no LID map yet; a file that does
 * not read stops the start (its LIDs would be lost for good). */
static int seed_lids(struct sm *sm)
{
	char err[512];
	size_t n = 0;
	int rc = sm_osm_guid2lid_seed(sm->db, sm->cfg.guid2lid_file, &n, err, sizeof(err));

	if (rc < 0)
		sm_err("guid2lid: %s", err);
	else if (rc)
		sm_notice("guid2lid: the LID map seeded with %zu ports' LIDs from %s", n,
			  sm->cfg.guid2lid_file);
	else
		sm_info("guid2lid: the store holds a LID map already: %s not read",
			sm->cfg.guid2lid_file);
	return rc < 0 ? rc : 0;
}

int sm_open_store(struct sm *sm)
{
	char err[512];
	int rc = sm_init(sm);

	if (rc) {
		sm_err("cannot open the store: %s", strerror(-rc));
		return rc;
	}
	rc = db_open(sm->cfg.db_path, DB_WRITER, &sm->db, err, sizeof(err));
	if (rc)
		sm_err("cannot open the store: %s", err);
	pthread_mutex_init(&sm->db_mu, NULL);
	sm_store_queue_init(&sm->store, &sm->db_mu, &sm->db, &sm->loop, SM_STORE_QUEUE_RECS,
			    SM_STORE_QUEUE_BYTES);
	if (rc == 0 && sm->cfg.guid2lid_file[0])
		rc = seed_lids(sm);
	if (rc == 0)
		rc = sm_isolate_load(sm);
	if (rc == 0)
		sm_sa_store_load(sm);	/* logged; the SA starts empty on failure */
	if (rc == 0)
		(void)sm_jobs_load(sm);	/* logged; the jobs start empty on failure */
	sm_mcast_init(&sm->sa->mcast);
	if (rc == 0)
		sm_mcast_load(sm);	/* logged; what loads is served at once */
	if (rc == 0)
		sm_qos_policy_none(&sm->sa->qos);
	if (rc == 0)	/* before the partitions, whose groups take its limits */
		rc = sm_reload_qos(sm);
	return rc ? rc : sm_reload_partitions(sm);
}

/* Can the local port carry SMPs?  Not while it has no link (DOWN). */
static int check_local_port(struct sm *sm)
{
	struct mad_local_port lp;

	if (!sm->t->ops->local_port || sm->t->ops->local_port(sm->t, &lp))
		return 0;	/* nothing to go by: try */
	if (lp.state != MAD_PORT_DOWN)
		return 0;
	snprintf(sm->port_error, sizeof(sm->port_error), "%s port %u (link down)",
		 lp.ca_name, lp.port_num);
	return -ENETDOWN;
}

int sm_rpc_renew(struct sm *sm)
{
	struct mad_rpc_opts ro = { .window = sm->cfg.window, .per_node = sm->cfg.smps_per_node,
				   .timeout_ms = sm->cfg.timeout_ms, .retries = sm->cfg.retries };
	struct mad_rpc *r = mad_rpc_new(sm->t, &ro);

	if (!r)
		return -errno;
	if (sm->rpc) {
		struct mad_rpc_stats st;
		mad_rpc_get_stats(sm->rpc, &st);
		sm_rpc_stats_add(&sm->rpc_base, &st);
		mad_rpc_free(sm->rpc);
	}
	sm->rpc = r;
	mad_rpc_set_unsolicited(r, sm_mad_in, sm);
	mad_rpc_set_gsi(r, sm_sa_in, sm);
	return 0;
}

int sm_port_pick(struct sm *sm, unsigned end, int skip, bool active)
{
	size_t used = 0;

	sm->port_error[0] = '\0';
	for (unsigned i = 0; i < end && i < sm->cfg.nports; i++) {
		struct mad_local_port lp;
		char why[256];
		if ((int)i == skip)
			continue;
		const char *name = sm->cfg.ports[i];
		int rc = sm->t->ops->port_state(sm->t, name, &lp, why, sizeof(why));
		if (rc == 0 && (active ? lp.state == MAD_PORT_ACTIVE : lp.state != MAD_PORT_DOWN))
			return (int)i;
		if (rc == 0)
			snprintf(why, sizeof(why), "%s", mad_port_state_name(lp.state));
		if (used < sizeof(sm->port_error)) {
			int w = snprintf(sm->port_error + used, sizeof(sm->port_error) - used,
					 "%s%s: %s", used ? "; " : "", name, why);
			used += w > 0 ? (size_t)w : 0;
		}
	}
	return -1;
}

/* Is the transport bound to cfg.ports[@idx] already?  (A device's SM port
 * opens once: a second open of issm is refused, EBUSY.) */
static bool bound_to(struct sm *sm, unsigned idx)
{
	struct mad_local_port now, there;
	char why[256];

	return sm->t->ops->local_port && sm->t->ops->local_port(sm->t, &now) == 0 &&
	       sm->t->ops->port_state(sm->t, sm->cfg.ports[idx], &there, why, sizeof(why)) == 0 &&
	       now.port_guid && now.port_guid == there.port_guid;
}

/* Bind the open transport to cfg.ports[@idx]. */
static int bind_port(struct sm *sm, unsigned idx)
{
	char why[400];
	int rc = bound_to(sm, idx) ? 0 : sm->t->ops->rebind(sm->t, sm->cfg.ports[idx], why,
							     sizeof(why));

	if (rc) {
		snprintf(sm->port_error, sizeof(sm->port_error), "%s: %s", sm->cfg.ports[idx], why);
		return rc;
	}
	sm->port_idx = (int)idx;
	snprintf(sm->port_name, sizeof(sm->port_name), "%s", sm->cfg.ports[idx]);
	return 0;
}

int sm_move_port(struct sm *sm, unsigned idx)
{
	int rc = bind_port(sm, idx);

	if (rc == 0 && (rc = sm_rpc_renew(sm)))
		snprintf(sm->port_error, sizeof(sm->port_error), "cannot set up the MAD layer: %s",
			 strerror(-rc));
	return rc;
}

/* Every port of the port list exists (and is InfiniBand): one that does not
 * is an error in the configuration, never a port to wait for.  0 or -ENODEV. */
static int ports_exist(struct sm *sm)
{
	for (unsigned i = 0; i < sm->cfg.nports; i++) {
		struct mad_local_port lp;
		char why[256];
		if (sm->t->ops->port_state(sm->t, sm->cfg.ports[i], &lp, why, sizeof(why)) == -ENODEV) {
			snprintf(sm->port_error, sizeof(sm->port_error), "port: %s does not exist: %s",
				 sm->cfg.ports[i], why);
			return -ENODEV;
		}
	}
	return 0;
}

/* With a port list: bind to the first port of it with its link up. */
static int pick_first_port(struct sm *sm)
{
	if (!sm->t->ops->port_state || !sm->t->ops->rebind) {
		snprintf(sm->port_error, sizeof(sm->port_error), "backend %s cannot choose among "
			 "the ports of port:", sm->cfg.backend);
		return -EOPNOTSUPP;
	}
	int rc = ports_exist(sm);
	if (rc)
		return rc;
	int idx = sm_port_pick(sm, sm->cfg.nports, -1, false);
	if (idx < 0) {
		char why[sizeof(sm->port_error)];
		snprintf(why, sizeof(why), "%s", sm->port_error);
		snprintf(sm->port_error, sizeof(sm->port_error), "a port of port: (link down: "
			 "%.900s)", why);
		return -ENETDOWN;
	}
	if (idx > 0)	/* why the ones before it were passed over */
		sm_warn("port: starting on %s, not on an earlier port of the list: %s",
			sm->cfg.ports[idx], sm->port_error);
	return bind_port(sm, (unsigned)idx);
}

/* Without a port list: the port the backend chose, by name. */
static void name_backend_port(struct sm *sm)
{
	struct mad_local_port lp;

	sm->port_idx = -1;
	sm->port_name[0] = '\0';
	if (sm->t->ops->local_port && sm->t->ops->local_port(sm->t, &lp) == 0)
		snprintf(sm->port_name, sizeof(sm->port_name), "%s:%u", lp.ca_name, lp.port_num);
}

int sm_open_port(struct sm *sm, int prio, bool wait)
{
	char err[400];
	int rc = 0;

	if (!sm->t && (rc = mad_transport_open(sm->cfg.backend, &sm->t, err, sizeof(err)))) {
		snprintf(sm->port_error, sizeof(sm->port_error), "backend %s: %s",
			 sm->cfg.backend, err);
		sm_log(prio, "cannot open %s", sm->port_error);
		sm->t = NULL;
		return rc;
	}
	if (sm->cfg.nports)
		rc = pick_first_port(sm);
	else
		name_backend_port(sm);
	if (rc == 0)
		rc = check_local_port(sm);
	if (rc) {
		sm_log(prio, "%s", sm->port_error);
		if (rc != -ENETDOWN || !wait)
			sm_close_port(sm);	/* else kept: the port is there, its link is not */
		return rc;
	}
	rc = sm_rpc_renew(sm);
	if (rc) {
		snprintf(sm->port_error, sizeof(sm->port_error), "cannot set up the MAD layer: %s",
			 strerror(-rc));
		sm_err("%s", sm->port_error);
		sm_close_port(sm);
		return rc;
	}
	sm_state_event(sm, SM_EV_PORT_READY, sm->port_name[0] ? sm->port_name : sm->cfg.backend);
	return 0;
}

void sm_close_port(struct sm *sm)
{
	if (sm->rpc) {
		struct mad_rpc_stats st;
		mad_rpc_get_stats(sm->rpc, &st);
		sm_rpc_stats_add(&sm->rpc_base, &st);
	}
	mad_rpc_free(sm->rpc);
	mad_transport_close(sm->t);
	sm->rpc = NULL;
	sm->t = NULL;
	sm->port_name[0] = '\0';
}

int sm_open(struct sm *sm)
{
	int rc = sm_open_store(sm);

	return rc ? rc : sm_open_port(sm, LOG_ERR, false);
}

void sm_close(struct sm *sm)
{
	/* First, under the lock: a worker abandoned at SIGTERM may still be
	 * storing, reading the SM's tables (partitions, AR, path SLs) as it goes;
	 * this waits for it, and one that asks later finds the store gone (NULL)
	 * and touches nothing else.  What waits in the queue is written first,
	 * the multicast groups changed since they were last stored with it
	 * (the next start serves them). */
	if (sm->sa && sm->sa->mcast.store_due)
		sm_mcast_store(sm);
	sm_metrics_close(sm);	/* its writer reads the store on a connection of its own */
	sm_store_queue_close(&sm->store);
	if (sm->sa)
		sm_sa_store_flush(sm);	/* the SA's registrations still due */
	pthread_mutex_lock(&sm->db_mu);
	if (sm->db)
		db_close(sm->db);
	sm->db = NULL;
	pthread_mutex_unlock(&sm->db_mu);
	if (sm->have_fabric && !sm->abandoned)	/* a worker may still read it */
		sm_fabric_free(&sm->fabric);
	sm->have_fabric = false;
	sm_routes_free(&sm->routes);
	if (!sm->sa) {	/* the store never opened */
		sm_close_port(sm);
		return;
	}
	sm_path_sl_rows_free(sm->path_sls_stored);
	sm_sa_index_free(&sm->sa->index);
	sm_pkey_ports_free(&sm->sa->pkeys);
	sm_partitions_free(&sm->sa->partitions);
	sm_qos_policy_free(&sm->sa->qos);
	sm_mcast_free(&sm->sa->mcast);
	if (sm->loop) {
		sm_timer_cancel(sm->loop, &sm->sa->lease_timer);
		sm_timer_cancel(sm->loop, &sm->sa->report_timer);
	}
	sm_sa_services_free(&sm->sa->services);
	sm_sa_aliases_free(&sm->sa->aliases);
	sm_sa_informs_free(&sm->sa->informs);
	sm_ar_cache_free(sm->ar);
	sm_isolate_free(sm->iso);
	sm_rebalance_free(sm->rebalance);
	sm_cc_free(sm->cc);
	if (!sm->abandoned)	/* a worker may still route over its router */
		sm_jobs_free(sm->jobs);
	sm_perf_free(sm->perf);
	sm->perf = NULL;
	parts_free(sm);
	sm_close_port(sm);
}


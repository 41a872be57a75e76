// SPDX-License-Identifier: MIT
/*
 * sm_reload.c - re-read the configuration and apply it (see sm_reload.h).
 *
 * Reading (a worker) builds a whole new configuration and partitions, which
 * replace nothing.  Applying (the loop thread): the configuration's own
 * table (sm_config.c) says which keys changed and which may change live;
 * this applies them and acts on what changed: a new rpc layer, the light
 * sweep timer, a reroute, the partitions.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sm/util/sm_log.h"
#include "sm/sm_reload.h"
#include "sm/core/sm_state.h"
#include "sm/sa/sm_mcast_program.h"
#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_qos.h"
#include "sm/sweep/sm_sl2vl.h"
#include "sm/sa/sm_sa.h"
#include "sm/sm_life.h"

#define MAX_CHANGES 64

/* The partitions file @file (none: the default only) into @ps; 0 or -errno
 * with the reason in @err. */
static int read_partitions(const char *file, struct sm_partitions *ps, char *err, size_t errlen)
{
	return file[0] ? sm_partitions_load(file, ps, err, errlen) : sm_partitions_default(ps);
}

/* The QoS policy @file (none: no QoS) into @q; 0 or -errno with the reason
 * in @err. */
static int read_qos(const char *file, struct sm_qos_policy *q, char *err, size_t errlen)
{
	if (file[0])
		return sm_qos_policy_load(file, q, err, errlen);
	sm_qos_policy_none(q);
	return 0;
}

void sm_reload_read(struct sm_reload *r, sm_reload_fn fn, void *ctx)
{
	r->rc = fn(ctx, &r->cfg, r->err, sizeof(r->err));
	if (r->rc)
		return;
	r->parts_rc = read_partitions(r->cfg.partitions_file, &r->parts, r->parts_err,
				      sizeof(r->parts_err));
	r->qos_rc = read_qos(r->cfg.qos_policy_file, &r->qos, r->qos_err, sizeof(r->qos_err));
}

void sm_reload_free(struct sm_reload *r)
{
	sm_partitions_free(&r->parts);	/* all zero when not read, or taken */
	sm_qos_policy_free(&r->qos);
}

/* Take @ps (read from @file with @rc, @err) as the SM's partitions. */
static int take_partitions(struct sm *sm, const char *file, int rc, struct sm_partitions *ps,
			   const char *err)
{
	if (rc) {
		if (file[0])
			sm_err("partitions: %s%s", err, sm->sa->partitions.n ?
			       "; the running partitions are kept" : "");
		return rc;
	}
	bool changed = !sm_partitions_equal(&sm->sa->partitions, ps);
	sm_partitions_free(&sm->sa->partitions);
	sm->sa->partitions = *ps;
	memset(ps, 0, sizeof(*ps));
	sm_mcast_ipoib_groups(sm);	/* served at once, programmed by the next sweep */
	if (changed) {
		sm->sa->pkeys_current = false;
		sm_notice("partitions: %zu read from %s", sm->sa->partitions.n,
			  file[0] ? file : "(built in)");
		if (sm->have_fabric)
			sm_sweep_due(sm, "the partitions changed");
	}
	return 0;
}

/* Take @q (read from @file with @rc, @err) as the SM's QoS policy. */
static int take_qos(struct sm *sm, const char *file, int rc, struct sm_qos_policy *q,
		    const char *err)
{
	char why[256];

	if (rc == 0 && sm->have_fabric &&
	    (rc = sm_qos_vl_check(q, &sm->fabric, sm->routes.check.max_sl + 1u, why,
				  sizeof(why)))) {
		sm_qos_policy_free(q);
		sm_err("qos_policy: %s cannot be met with the routes of engine %s: %s", file,
		       sm->routes.engine ? sm->routes.engine : "?", why);
	}
	if (rc) {
		if (rc != -ERANGE)
			sm_err("qos_policy: %s", err);
		if (sm->sa->qos.on)
			sm_err("qos_policy: the running policy is kept");
		return rc;
	}
	sm_qos_policy_free(&sm->sa->qos);
	sm->sa->qos = *q;
	sm_qos_policy_none(q);
	sm->sl2vl_done_sl = 0;	/* its VL tables are programmed again */
	if (file[0])
		sm_notice("qos_policy: %zu port groups, %zu levels, %zu rules read from %s",
			  sm->sa->qos.ngroups, sm->sa->qos.nlevels, sm->sa->qos.nrules, file);
	if (sm->have_fabric)
		sm_sweep_due(sm, "the QoS policy was read");
	return 0;
}

int sm_reload_qos(struct sm *sm)
{
	struct sm_qos_policy q;
	char err[SM_PATH_LEN + 512];
	const char *file = sm->cfg.qos_policy_file;

	return take_qos(sm, file, read_qos(file, &q, err, sizeof(err)), &q, err);
}

int sm_reload_partitions(struct sm *sm)
{
	struct sm_partitions ps;
	char err[SM_PATH_LEN + 512];
	const char *file = sm->cfg.partitions_file;

	return take_partitions(sm, file, read_partitions(file, &ps, err, sizeof(err)), &ps, err);
}

unsigned sm_reload_apply(struct sm *sm, struct sm_reload *r)
{
	const struct sm_config *nc = &r->cfg;
	struct sm_config_change ch[MAX_CHANGES];
	struct sm_config old = sm->cfg;
	char live[512], restart[512];
	unsigned acts = 0;
	int n = sm_config_diff(&sm->cfg, nc, ch, MAX_CHANGES);

	if (n > MAX_CHANGES)
		n = MAX_CHANGES;
	int nlive = sm_config_change_names(ch, (size_t)n, true, live, sizeof(live));
	int nrestart = sm_config_change_names(ch, (size_t)n, false, restart, sizeof(restart));
	if (nrestart)
		sm_warn("SIGHUP: %s changed: in effect at the next restart", restart);
	if (nlive)
		sm_notice("SIGHUP: %s changed: in effect now", live);
	sm_config_apply_live(&sm->cfg, nc);
	sm_log_set_level(sm->cfg.log_level);
	for (int i = 0; i < n; i++)
		if (ch[i].apply == SM_APPLY_REROUTE)
			acts |= SM_RELOAD_ROUTING;
	if (old.sweep_interval_s != sm->cfg.sweep_interval_s)
		acts |= SM_RELOAD_SWEEP_INTERVAL;
	if (old.window != sm->cfg.window || old.smps_per_node != sm->cfg.smps_per_node ||
	    old.timeout_ms != sm->cfg.timeout_ms || old.retries != sm->cfg.retries) {
		acts |= SM_RELOAD_RPC;
		if (sm->rpc && sm_rpc_renew(sm)) {
			sm_err("SIGHUP: the new SMP window could not be set up; the old one is kept");
			acts &= ~(unsigned)SM_RELOAD_RPC;
		}
	}
	take_partitions(sm, sm->cfg.partitions_file, r->parts_rc, &r->parts, r->parts_err);
	take_qos(sm, sm->cfg.qos_policy_file, r->qos_rc, &r->qos, r->qos_err);
	if (acts & SM_RELOAD_ROUTING)
		sm_sweep_due(sm, "the routing configuration changed");
	sm_notice("SIGHUP: configuration re-read: %d keys changed live, %d need a restart",
		  nlive, nrestart);
	return acts;
}

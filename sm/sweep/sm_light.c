// SPDX-License-Identifier: MIT
/*
 * sm_light.c - the light sweep: has anything changed since the heavy sweep?
 *
 * Asks every known switch for SwitchInfo (PortStateChange is set by the switch
 * whenever one of its ports changes state, IBA 14.2.5.4) and every CA port for
 * PortInfo (still Active, still the LID we gave it, an SM neither come nor
 * gone: IsSM, so that a master meets a new SM, IBA 14.4.1), and probes again every
 * port behind which the heavy sweep found no answer (a node coming back, or a
 * lost SMP).  A switch or port that no longer answers counts as a change too,
 * and so does a silent one that answers now.  The heavy sweep that follows clears
 * PortStateChange (sm_program.c), so the next light sweep sees only new changes.
 * A change found is stored as an event; every light sweep is counted in the
 * store's per-minute aggregate (db_light_sweep_record: time, SMPs, changes),
 * so a quiet fabric adds one row a minute, not one a sweep.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sm/core/sm.h"
#include "sm/sweep/sm_sweep.h"
#include "sm/util/sm_arena.h"
#include "sm/util/sm_log.h"
#include "sm/repair/sm_patch.h"

struct light {
	struct sm *sm;
	struct sm_arena arena;
	unsigned changes;
	char first[160];
	uint64_t t0;			/* when it began (mad_now_ms) */
	struct mad_rpc_stats rpc0;	/* the rpc counters then */
};

struct light_req {
	struct light *l;
	uint32_t node;
	uint8_t port;
};

static void changed(struct light *l, uint32_t node, const char *what)
{
	const struct topo_node *n = &l->sm->fabric.topo.nodes[node];

	if (!l->changes++)
		snprintf(l->first, sizeof(l->first), "%s on 0x%016llx (%s)", what,
			 (unsigned long long)n->guid, n->desc);
}

static void on_switch_info(void *ctx, int err, const struct mad_smp *req,
			   const struct mad_smp *resp)
{
	struct light_req *r = ctx;
	struct mad_switch_info si;

	(void)req;
	if (err || mad_switch_info_decode(resp->data, &si)) {
		changed(r->l, r->node, "no SwitchInfo");
		return;
	}
	if (si.port_state_change) {
		changed(r->l, r->node, "a port changed state");
		sm_patch_note(r->l->sm, r->node);
	}
}

static void on_port_info(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp)
{
	struct light_req *r = ctx;
	const struct sm_fabric *f = &r->l->sm->fabric;
	const struct topo_port *tp = &f->topo.nodes[r->node].ports[r->port];
	const struct sm_node_attrs *a = &f->attrs[r->node];
	struct mad_port_info pi;

	(void)req;
	if (err || mad_port_info_decode(resp->data, &pi))
		changed(r->l, r->node, "no PortInfo");
	else if (pi.port_state != MAD_PORT_ACTIVE || pi.lid != tp->lid)
		changed(r->l, r->node, "a CA port lost its state or LID");
	else if (a->pi_valid[r->port] && ((pi.cap_mask ^ a->pi[r->port].cap_mask) & MAD_CAP_IS_SM))
		changed(r->l, r->node, "an SM came or went (IsSM)");
}

static void on_probe(void *ctx, int err, const struct mad_smp *req,
		     const struct mad_smp *resp)
{
	struct light_req *r = ctx;

	(void)req;
	(void)resp;
	if (!err)
		changed(r->l, r->node, "a port that led to a silent node answers now");
}

/* NodeInfo again out of @port of @node, which went unanswered in the heavy sweep. */
static int reprobe(struct light *l, uint32_t node, uint8_t port)
{
	struct light_req *r = sm_arena_alloc(&l->arena, sizeof(*r));
	struct topo_path path = l->sm->fabric.topo.nodes[node].path;

	if (!r)
		return -ENOMEM;
	if (mad_drpath_push(&path, port))
		return 0;	/* beyond the hop limit: nothing to ask */
	*r = (struct light_req){ .l = l, .node = node, .port = port };
	return mad_rpc_submit_dr(l->sm->rpc, MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0, &path,
				 sm_mkey_probe(&l->sm->fabric, node, port), NULL, on_probe, r);
}

static int ask(struct light *l, uint32_t node, uint8_t port, uint16_t attr, mad_rpc_done_fn fn)
{
	struct light_req *r = sm_arena_alloc(&l->arena, sizeof(*r));
	struct topo_path path;

	if (!r)
		return -ENOMEM;
	*r = (struct light_req){ .l = l, .node = node, .port = port };
	sm_fabric_port_path(&l->sm->fabric, node, port, &path);
	return mad_rpc_submit_dr(l->sm->rpc, MAD_METHOD_GET, attr,
				 attr == MAD_ATTR_PORT_INFO
					 ? sm_fabric_port_info_mod(&l->sm->fabric, node, port) : port,
				 &path, sm_mkey_for(&l->sm->fabric, node, port), NULL, fn, r);
}

static int write_light(struct db *db, void *data)
{
	return db_light_sweep_record(db, data);
}

/* Count the light sweep that ended with @rc in the store's aggregates
 * (through sm->store). */
static void record(const struct light *l, int rc)
{
	struct db_light_sweep *ls = malloc(sizeof(*ls));

	if (ls)
		*ls = (struct db_light_sweep){ .ms = (uint32_t)(mad_now_ms() - l->t0),
			.changes = l->changes, .failed = rc != 0,
			.smps = sm_smps_since(l->sm, &l->rpc0) };
	sm_store_put(&l->sm->store, write_light, ls, sizeof(*ls), "light sweep");
}

int sm_sweep_light(struct sm *sm)
{
	struct light l = { .sm = sm, .t0 = mad_now_ms() };
	const struct sm_fabric *f = &sm->fabric;
	int rc = 0;

	if (!sm->have_fabric)
		return 1;
	sm_rpc_stats(sm, &l.rpc0);
	sm_arena_init(&l.arena);
	for (uint32_t n = 0; rc == 0 && n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		if (tn->type == MAD_NODE_SWITCH) {
			rc = ask(&l, n, 0, MAD_ATTR_SWITCH_INFO, on_switch_info);
			continue;
		}
		for (unsigned p = 1; rc == 0 && p <= tn->nports; p++)
			if (tn->ports[p].lid && tn->ports[p].peer != TOPO_NONE)
				rc = ask(&l, n, (uint8_t)p, MAD_ATTR_PORT_INFO, on_port_info);
	}
	for (size_t i = 0; rc == 0 && i < f->nissues; i++) {
		uint32_t n = f->issues[i].probe ? topo_find_guid(&f->topo, f->issues[i].guid)
						: TOPO_NONE;
		if (n != TOPO_NONE)
			rc = reprobe(&l, n, f->issues[i].port);
	}
	if (rc == 0)
		rc = mad_rpc_drain(sm->rpc);
	else
		mad_rpc_discard(sm->rpc);	/* a submit failed: their contexts go now */
	sm_arena_free(&l.arena);
	sm->light_sweeps++;
	record(&l, rc);
	if (rc)
		return rc;
	if (!l.changes)
		return 0;
	sm_notice("light sweep: %u changes, first: %s; heavy sweep due", l.changes, l.first);
	sm_store_event(&sm->store, DB_EV_PORT_CHANGED, 0, -1, "light sweep: %u changes, first: %s",
		       l.changes, l.first);
	return 1;
}

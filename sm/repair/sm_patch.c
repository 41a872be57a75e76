// SPDX-License-Identifier: MIT
/*
 * sm_patch.c - fast repair of dead links (see sm_patch.h).
 *
 * Flow: 1. PortInfo of every linked port of the noted switches: a port no
 * longer Active is a dead link (both of its ends);  2. for each dead link
 * end on a switch, every LID of sm->routes that switch sends out of it gets
 * another port (reroute: an equal-cost way on that avoids every dead link,
 * the candidates taken in turn by LID so the moved entries spread), or,
 * where the switch has none, its neighbours that send that LID to it get
 * one instead (for a CA's LID; a switch LID's entries, which carry only
 * management traffic, are left to the heavy sweep that follows at once:
 * rewriting them at every neighbour would cost a block each);  3. the changed blocks go out as LFT Sets, by directed route
 * (a route that crossed a dead link is found again, breadth first over the
 * live links), and are drained;  4. the time from the first report to the
 * last answer, the SMPs, entries and blocks are logged, added to the totals
 * (sm->patch) and stored as a sweep of kind "patch" (PortInfo Gets and the
 * time to find the dead links as its discovery, the computing as its routing,
 * the LFT Sets as its LFT stage, and the entries changed), with the patched
 * tables in the store's LFT and AR records, so the heavy sweep that follows
 * (or a restarted daemon) sends only what it changes.  The switches about to
 * get blocks are marked pending first, and one whose Set failed is forgotten:
 * a crash or a failure in between makes the next sweep read it back rather
 * than trust a table it may not hold.
 *
 * Equal cost on the static routes is what keeps the patch legal: on a fat
 * tree the only equal-cost ports are the other up ports (toward any top
 * switch) and the single down port, the AR group of the adaptive engine, so
 * the patched paths stay up/down.  The heavy sweep checks everything again.
 *
 * Limits: a noted switch whose own directed route crosses the dead link does
 * not answer its Gets (they time out, which the patch's time then includes);
 * the other end's answers name the link.  More than P_MAX_DEAD dead ends at
 * once are left to the heavy sweep.
 *
 * On AR-capable switches sm_patch_ar.c then takes the dead ports out of the
 * AR groups and unbinds the LIDs whose group would lead into them; their
 * blocks go out after the LFT blocks and count with them (lft_smps; the
 * sweep's ar_smps says how many).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "sm/core/sm.h"
#include "sm/core/sm_lft_send.h"
#include "sm/util/sm_arena.h"
#include "sm/util/sm_log.h"
#include "sm/repair/sm_patch.h"
#include "sm/repair/sm_patch_int.h"
#include "sm/repair/sm_ar.h"

uint32_t sm_patch_switch_by_lid(const struct sm *sm, uint16_t lid)
{
	const struct topo *t = &sm->fabric.topo;

	for (uint32_t n = 0; lid && sm->have_fabric && n < t->n; n++)
		if (t->nodes[n].type == MAD_NODE_SWITCH && t->nodes[n].ports[0].lid == lid)
			return n;
	return UINT32_MAX;
}

void sm_patch_note(struct sm *sm, uint32_t node)
{
	struct sm_patch_state *ps = sm->patch;

	if (!sm->have_fabric || node >= sm->fabric.topo.n)
		return;
	uint64_t guid = sm->fabric.topo.nodes[node].guid;
	for (unsigned i = 0; i < ps->npending; i++)
		if (ps->pending[i] == guid)
			return;
	if (!ps->npending && !ps->overflow)
		ps->t0_ms = mad_now_ms();
	if (ps->npending == SM_PATCH_MAX_PENDING)
		ps->overflow = true;
	else
		ps->pending[ps->npending++] = guid;
}

bool patch_is_dead(const struct patch *p, uint32_t node, uint8_t port)
{
	for (unsigned i = 0; i < p->ndead; i++)
		if (p->dead[i].node == node && p->dead[i].port == port)
			return true;
	return false;
}

static void add_dead(struct patch *p, uint32_t node, uint8_t port)
{
	if (patch_is_dead(p, node, port))
		return;
	if (p->ndead == P_MAX_DEAD)
		p->too_many = true;
	else
		p->dead[p->ndead++] = (typeof(p->dead[0])){ node, port };
}

static void on_port_info(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp)
{
	struct patch_req *r = ctx;
	const struct topo_port *tp = &r->p->f->topo.nodes[r->node].ports[r->port];
	struct mad_port_info pi;

	(void)req;
	if (err || mad_port_info_decode(resp->data, &pi) || pi.port_state == MAD_PORT_ACTIVE)
		return;	/* unanswered: the other end's report may tell */
	add_dead(r->p, r->node, r->port);
	add_dead(r->p, tp->peer, tp->peer_port);
}

/* Step 1: PortInfo of the noted switches' linked ports.  0 or -errno. */
static int find_dead(struct patch *p)
{
	const struct sm_patch_state *ps = p->sm->patch;
	int rc = 0;

	for (unsigned i = 0; rc == 0 && i < ps->npending; i++) {
		uint32_t n = topo_find_guid(&p->f->topo, ps->pending[i]);
		if (n == TOPO_NONE || p->f->topo.nodes[n].type != MAD_NODE_SWITCH)
			continue;	/* gone since: the heavy sweep's */
		const struct topo_node *tn = &p->f->topo.nodes[n];
		for (unsigned q = 1; rc == 0 && q <= tn->nports; q++) {
			if (tn->ports[q].peer == TOPO_NONE || tn->ports[q].state != MAD_PORT_ACTIVE)
				continue;
			struct patch_req *r = sm_arena_alloc(&p->arena, sizeof(*r));
			struct topo_path path;
			if (!r)
				return -ENOMEM;
			*r = (struct patch_req){ .p = p, .node = n, .port = (uint8_t)q };
			sm_fabric_port_path(p->f, n, (uint8_t)q, &path);
			if (!(rc = mad_rpc_wait_backlog(p->sm->rpc)))
				rc = mad_rpc_submit_dr(p->sm->rpc, MAD_METHOD_GET, MAD_ATTR_PORT_INFO,
						       sm_fabric_port_info_mod(p->f, n, (uint8_t)q),
						       &path, sm_mkey_for(p->f, n, (uint8_t)q), NULL,
						       on_port_info, r);
		}
	}
	return rc ? rc : mad_rpc_drain(p->sm->rpc);
}

/* Hops from switch @n to @lid by the LFTs, or -1: not delivered, or (with
 * @live) a dead link crossed.  *@to_switch (may be NULL): @lid is a switch's. */
int patch_walk(const struct patch *p, uint32_t n, uint16_t lid, bool live, bool *to_switch)
{
	const struct topo *t = &p->f->topo;

	for (int hops = 0; hops < P_MAX_HOPS; hops++) {
		if (!p->rt->lft[n])
			return -1;
		uint8_t port = p->rt->lft[n][lid];
		if (port == 0) {
			if (to_switch)
				*to_switch = true;
			return t->nodes[n].ports[0].lid == lid ? hops : -1;
		}
		if (port > t->nodes[n].nports || (live && patch_is_dead(p, n, port)))
			return -1;
		const struct topo_port *tp = &t->nodes[n].ports[port];
		if (tp->peer == TOPO_NONE)
			return -1;
		const struct topo_port *pp = &t->nodes[tp->peer].ports[tp->peer_port];
		if (t->nodes[tp->peer].type != MAD_NODE_SWITCH)
			return lid >= pp->lid && lid < pp->lid + (1u << pp->lmc) ? hops + 1 : -1;
		n = tp->peer;
	}
	return -1;
}

static int set_entry(struct patch *p, uint32_t n, uint16_t lid, uint8_t port)
{
	int rc = sm_lft_mark(p->dirty, n, lid / MAD_LFT_BLOCK, p->nblocks);

	if (rc < 0)
		return rc;
	p->rt->lft[n][lid] = port;
	p->entries++;
	p->blocks += (unsigned)rc;
	return 0;
}

/* Switch @n sends @lid, @len hops away, out of another port than @avoid:
 * one whose way on is @len - 1 hops and crosses no dead link.  1 when
 * moved, 0 when it has none, -ENOMEM. */
static int reroute(struct patch *p, uint32_t n, uint16_t lid, uint8_t avoid, int len)
{
	const struct topo_node *tn = &p->f->topo.nodes[n];
	uint8_t cand[256];
	unsigned nc = 0;

	for (unsigned q = 1; q <= tn->nports; q++) {
		const struct topo_port *tp = &tn->ports[q];
		if (q == avoid || tp->peer == TOPO_NONE || patch_is_dead(p, n, (uint8_t)q) ||
		    p->f->topo.nodes[tp->peer].type != MAD_NODE_SWITCH)
			continue;
		if (patch_walk(p, tp->peer, lid, true, NULL) == len - 1)
			cand[nc++] = (uint8_t)q;
	}
	if (!nc)
		return 0;
	return set_entry(p, n, lid, cand[lid % nc]) ? -ENOMEM : 1;
}

/* Step 2 for dead link end (@n, @port) on a switch. */
static int patch_end(struct patch *p, uint32_t n, uint8_t port)
{
	const struct topo *t = &p->f->topo;
	const struct topo_node *tn = &t->nodes[n];
	uint32_t peer = tn->ports[port].peer;

	if (!p->rt->lft[n] || peer == TOPO_NONE || t->nodes[peer].type != MAD_NODE_SWITCH)
		return 0;	/* a CA's link: nothing leads around it */
	for (uint32_t lid = 1; lid <= p->rt->max_lid; lid++) {
		if (p->rt->lft[n][lid] != port)
			continue;
		bool to_switch = false;
		int rest = patch_walk(p, peer, (uint16_t)lid, false, &to_switch);
		if (rest < 0)
			continue;	/* was not delivered before either */
		int rc = reroute(p, n, (uint16_t)lid, port, rest + 1);
		if (rc < 0)
			return rc;
		if (rc)
			continue;
		if (to_switch) {	/* management only: the heavy sweep's */
			p->unfixed_switch++;
			continue;
		}
		/* none here: the neighbours that send @lid to @n go elsewhere */
		for (unsigned q = 1; q <= tn->nports; q++) {
			const struct topo_port *tp = &tn->ports[q];
			if (tp->peer == TOPO_NONE || patch_is_dead(p, n, (uint8_t)q) || !p->rt->lft[tp->peer] ||
			    p->rt->lft[tp->peer][lid] != tp->peer_port)
				continue;
			rc = reroute(p, tp->peer, (uint16_t)lid, tp->peer_port, rest + 2);
			if (rc < 0)
				return rc;
			p->unfixed += !rc;
		}
	}
	return 0;
}

/* The directed route to switch @n: the discovered one unless it crosses a
 * dead link, else the shortest over live links (all found at the first need). */
const struct topo_path *patch_path_to(struct patch *p, uint32_t n)
{
	const struct topo *t = &p->f->topo;
	const struct topo_path *dp = &t->nodes[n].path;
	uint32_t at = p->f->local_node;
	bool ok = true;

	for (unsigned h = 1; ok && h <= dp->hops; h++) {
		ok = !patch_is_dead(p, at, dp->port[h]) && dp->port[h] <= t->nodes[at].nports;
		at = ok ? t->nodes[at].ports[dp->port[h]].peer : TOPO_NONE;
		ok = ok && at != TOPO_NONE;
	}
	if (ok || (!p->paths && !(p->paths = calloc(t->n, sizeof(*p->paths)))))
		return dp;
	if (!p->paths[p->f->local_node].hops && p->paths[n].hops == 0) {
		/* breadth first from the SM's node; hops 0 marks "not reached" but
		 * for the SM's node, which the queue starts with */
		uint32_t *queue = malloc(t->n * sizeof(*queue)), head = 0, tail = 0;
		bool *seen = calloc(t->n, sizeof(*seen));
		if (queue && seen) {
			queue[tail++] = p->f->local_node;
			seen[p->f->local_node] = true;
			while (head < tail) {
				uint32_t u = queue[head++];
				if (u != p->f->local_node && t->nodes[u].type != MAD_NODE_SWITCH)
					continue;	/* CAs do not forward */
				for (unsigned q = 1; q <= t->nodes[u].nports; q++) {
					uint32_t v = t->nodes[u].ports[q].peer;
					if (v == TOPO_NONE || seen[v] || patch_is_dead(p, u, (uint8_t)q) ||
					    p->paths[u].hops >= TOPO_PATH_MAX_HOPS)
						continue;
					seen[v] = true;
					p->paths[v] = p->paths[u];
					p->paths[v].port[++p->paths[v].hops] = (uint8_t)q;
					queue[tail++] = v;
				}
			}
		}
		free(queue);
		free(seen);
	}
	return p->paths[n].hops ? &p->paths[n] : dp;
}

static const struct topo_path *path_around_dead(void *arg, uint32_t n)
{
	return patch_path_to(arg, n);
}

/* Step 3: the changed blocks (sm_lft_send.h).  0 or -errno. */
static int send_blocks(struct patch *p)
{
	int rc = sm_lft_send(&p->send);

	p->failed += p->send.failures;
	return rc;
}

/* The patched switches' tables, into the store's LFT and AR records (db_mu
 * held); a switch whose Set failed holds what nobody knows: forgotten, the
 * next sweep reads it back. */
static void store_tables(struct patch *p)
{
	sm_lft_send_store(&p->send);
	if (sm_ar_store(p->sm->db, p->sm->ar))
		sm_warn("patch: AR tables not stored: %s", db_errmsg(p->sm->db));
}

/* The times of the steps (ms since the first report: found, computed,
 * answered) and the SMPs of each. */
struct patch_times {
	uint32_t found_ms, computed_ms, ms;
	uint64_t get_smps, set_smps;
};

/* Step 4: log, count, and store the patch as a sweep of kind "patch". */
static void record(struct patch *p, const struct patch_times *tm, size_t full)
{
	struct sm_patch_state *ps = p->sm->patch;
	uint64_t smps = tm->get_smps + tm->set_smps;
	char result[96] = "ok";
	int64_t id;

	ps->patches++;
	ps->entries += p->entries;
	ps->blocks += p->blocks;
	ps->smps += smps;
	ps->last_ms = tm->ms;
	ps->last_entries = (uint32_t)p->entries;
	ps->last_blocks = (uint32_t)p->blocks;
	ps->last_smps = (uint32_t)smps;
	ps->ar_blocks += p->ar_group_blocks + p->ar_lft_blocks;
	ps->last_ar_group_blocks = (uint32_t)p->ar_group_blocks;
	ps->last_ar_lft_blocks = (uint32_t)p->ar_lft_blocks;
	ps->last_ar_info_smps = (uint32_t)p->ar_info_smps;
	sm_notice("patch: %u dead link ends, %llu LFT entries moved, %llu blocks sent (a full "
		  "reprogram: %zu), %llu SMPs, %u ms from the report to the last answer; entries "
		  "without another equal-cost port: %llu to CAs, %llu to switches (the heavy "
		  "sweep's); AR: %llu groups lost the dead port, %llu LIDs made static, %llu group "
		  "table and %llu AR LFT blocks sent, %llu AdaptiveRoutingInfo SMPs (AR on again)",
		  p->ndead, (unsigned long long)p->entries,
		  (unsigned long long)p->blocks, full, (unsigned long long)smps, tm->ms,
		  (unsigned long long)p->unfixed, (unsigned long long)p->unfixed_switch,
		  (unsigned long long)p->ar_groups, (unsigned long long)p->ar_lids,
		  (unsigned long long)p->ar_group_blocks, (unsigned long long)p->ar_lft_blocks,
		  (unsigned long long)p->ar_info_smps);
	if (p->unfixed || p->failed)
		snprintf(result, sizeof(result), "%llu entries to CAs unpatched, %llu Sets failed",
			 (unsigned long long)p->unfixed, (unsigned long long)p->failed);
	const struct db_sweep_stats st = {
		.result = result, .discovery_smps = tm->get_smps, .lft_smps = tm->set_smps,
		.discovery_ms = tm->found_ms, .routing_ms = tm->computed_ms - tm->found_ms,
		.lft_ms = tm->ms - tm->computed_ms, .lft_entries = p->entries,
		.ar_smps = p->ar_group_blocks + p->ar_lft_blocks,
		.smps = { .sent = smps },
	};
	pthread_mutex_lock(&p->sm->db_mu);
	int rc = db_sweep_begin_at(p->sm->db, "patch", db_now_ms(p->sm->db) - tm->ms, &id);
	if (!rc)
		store_tables(p);
	if (!rc && (rc = db_sweep_end(p->sm->db, id, &st)))
		db_sweep_abort(p->sm->db, id, "the patch's record failed");
	if (rc)
		sm_warn("patch not recorded: %s", db_errmsg(p->sm->db));
	pthread_mutex_unlock(&p->sm->db_mu);
}

int sm_patch(struct sm *sm)
{
	struct patch p = { .sm = sm, .f = &sm->fabric, .rt = &sm->routes };
	struct mad_rpc_stats rpc0;
	int rc = 0;

	if (!sm->have_fabric || !sm->routes.lft || !sm->patch->npending || sm->patch->overflow ||
	    sm->routes.nnodes != sm->fabric.topo.n) {
		rc = sm->patch->npending || sm->patch->overflow;
		goto out;
	}
	struct patch_times tm;
	sm_rpc_stats(sm, &rpc0);
	sm_arena_init(&p.arena);
	p.nblocks = (size_t)sm->routes.max_lid / MAD_LFT_BLOCK + 1;
	p.dirty = calloc(p.f->topo.n, sizeof(*p.dirty));
	p.lft_failed = calloc(p.f->topo.n, sizeof(*p.lft_failed));
	p.send = (struct sm_lft_send){ .sm = sm, .f = p.f, .rt = p.rt, .dirty = p.dirty,
				       .nblocks = p.nblocks, .path = path_around_dead,
				       .path_arg = &p, .who = "patch", .failed = p.lft_failed };
	rc = p.dirty && p.lft_failed ? find_dead(&p) : -ENOMEM;
	if (rc == 0 && p.too_many) {
		sm_notice("patch: more than %d dead link ends: left to the heavy sweep", P_MAX_DEAD);
		p.ndead = 0;
		rc = 1;
	}
	tm.found_ms = (uint32_t)(mad_now_ms() - sm->patch->t0_ms);
	tm.get_smps = sm_smps_since(sm, &rpc0).sent;
	for (unsigned i = 0; rc == 0 && i < p.ndead; i++)
		rc = patch_end(&p, p.dead[i].node, p.dead[i].port);
	if (rc == 0 && p.ndead)
		rc = patch_ar_compute(&p);
	tm.computed_ms = (uint32_t)(mad_now_ms() - sm->patch->t0_ms);
	if (rc == 0 && p.blocks)
		rc = send_blocks(&p);
	if (rc == 0)
		rc = patch_ar_send(&p);
	patch_ar_remember(&p);
	if (rc == 0 && p.ndead)
		rc = patch_ar_keep_on(&p);
	if (rc == 0 && p.ndead) {
		tm.ms = (uint32_t)(mad_now_ms() - sm->patch->t0_ms);
		tm.set_smps = sm_smps_since(sm, &rpc0).sent - tm.get_smps;
		size_t full = 0;
		for (uint32_t n = 0; n < p.f->topo.n; n++)
			full += p.rt->lft[n] ? p.nblocks : 0;
		record(&p, &tm, full);
		rc = p.unfixed || p.failed;
	} else if (rc < 0) {
		mad_rpc_discard(sm->rpc);
		sm_err("patch failed: %s", strerror(-rc));
	}
	for (uint32_t n = 0; p.dirty && n < p.f->topo.n; n++) {
		free(p.dirty[n]);
		free(p.ar_group_dirty ? p.ar_group_dirty[n] : NULL);
		free(p.ar_lft_dirty ? p.ar_lft_dirty[n] : NULL);
	}
	free(p.dirty);
	free(p.lft_failed);
	free(p.ar_group_dirty);
	free(p.ar_lft_dirty);
	free(p.ar_failed);
	free(p.paths);
	sm_arena_free(&p.arena);
out:
	sm->patch->npending = 0;
	sm->patch->overflow = false;
	return rc;
}

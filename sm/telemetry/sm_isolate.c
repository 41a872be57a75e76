// SPDX-License-Identifier: MIT
/*
 * sm_isolate.c - the isolation policy applied to the daemon (see sm_isolate.h):
 * counts in, links out of the routing view, the store and the events.
 *
 * Everything here runs on the loop thread.  The set of isolated links is read
 * by a heavy sweep's worker only through the copy sm_isolate_snapshot() made
 * before the sweep began, so a restore on the control socket mid-sweep is safe
 * (it makes another sweep due).  Store writes go through sm->store: queued
 * while a worker stores a sweep (sm_store_queue.h), written in order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/core/sm.h"
#include "sm/core/sm_names.h"
#include "sm/telemetry/sm_isolate.h"
#include "sm/util/sm_log.h"
#include "sm/core/sm_state.h"

void sm_iso_set_free(struct sm_iso_set *s)
{
	free(s->links);
	memset(s, 0, sizeof(*s));
}

void sm_isolate_free(struct sm_isolate *iso)
{
	sm_iso_track_free(&iso->track);
	sm_iso_set_free(&iso->set);
	iso->pruned_ms = 0;
}

static int set_add(struct sm_iso_set *s, const struct sm_iso_link *l)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct sm_iso_link *p = realloc(s->links, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->links = p;
		s->cap = cap;
	}
	s->links[s->n++] = *l;
	return 0;
}

/* The index in @s of the link with an end (@guid, @port), or @s->n. */
static size_t set_find(const struct sm_iso_set *s, uint64_t guid, uint8_t port)
{
	for (size_t i = 0; i < s->n; i++)
		if ((s->links[i].guid == guid && s->links[i].port == port) ||
		    (s->links[i].peer_guid == guid && s->links[i].peer_port == port))
			return i;
	return s->n;
}

bool sm_iso_set_has(const struct sm_iso_set *s, uint64_t guid, uint8_t port)
{
	return set_find(s, guid, port) < s->n;
}

static int load_row(void *arg, const struct db_isolated *l)
{
	struct sm_iso_link e = { .guid = l->guid, .port = l->port, .peer_guid = l->peer_guid,
				 .peer_port = l->peer_port, .since_ms = l->since_ms,
				 .mono_ms = mad_now_ms() };

	snprintf(e.cause, sizeof(e.cause), "%s", l->cause);
	snprintf(e.reason, sizeof(e.reason), "%s", l->reason);
	return set_add(arg, &e);
}

int sm_isolate_load(struct sm *sm)
{
	sm_iso_set_free(&sm->iso->set);
	int rc = db_isolated_each(sm->db, load_row, &sm->iso->set);
	if (rc) {
		sm_err("isolated links not read from the store: %s", db_errmsg(sm->db));
		return rc;
	}
	if (sm->iso->set.n)
		sm_notice("%zu links stay isolated from routing (smquery isolated)", sm->iso->set.n);
	return 0;
}

int sm_isolate_snapshot(const struct sm *sm, struct sm_iso_set *out)
{
	memset(out, 0, sizeof(*out));
	if (!sm->iso->set.n)
		return 0;
	out->links = malloc(sm->iso->set.n * sizeof(*out->links));
	if (!out->links)
		return -ENOMEM;
	memcpy(out->links, sm->iso->set.links, sm->iso->set.n * sizeof(*out->links));
	out->n = out->cap = sm->iso->set.n;
	return 0;
}

unsigned sm_isolate_mark(const struct sm_iso_set *s, struct topo *t)
{
	unsigned marked = 0;

	for (uint32_t n = 0; n < t->n; n++)
		for (unsigned p = 0; p <= t->nodes[n].nports; p++)
			t->nodes[n].ports[p].isolated = false;
	for (size_t i = 0; i < s->n; i++)	/* a link recabled since is not that link */
		marked += topo_mark_isolated(t, s->links[i].guid, s->links[i].port,
					     s->links[i].peer_guid, s->links[i].peer_port);
	return marked;
}

/* A link routing could use: cabled, both ends LinkUp (or unknown). */
static bool link_usable(const struct topo *t, const struct topo_port *tp)
{
	if (tp->peer == TOPO_NONE)
		return false;
	const struct topo_port *pp = &t->nodes[tp->peer].ports[tp->peer_port];
	return (tp->phys_state == MAD_PHYS_LINKUP || tp->phys_state == MAD_PHYS_NOP) &&
	       (pp->phys_state == MAD_PHYS_LINKUP || pp->phys_state == MAD_PHYS_NOP);
}

/* Do switches @a and @b still meet without the link at @a's port @pa and
 * without the links isolated already?  Breadth first over switch links. */
static int switches_meet(const struct sm_isolate *iso, const struct topo *t, uint32_t a,
			 unsigned pa, uint32_t b)
{
	uint32_t *queue = malloc(((size_t)t->n + 1) * sizeof(*queue));
	bool *seen = calloc((size_t)t->n + 1, sizeof(*seen));
	uint32_t head = 0, tail = 0;
	int met = 0;

	if (!queue || !seen) {
		free(queue);
		free(seen);
		return -ENOMEM;
	}
	seen[a] = true;
	queue[tail++] = a;
	while (head < tail && !met) {
		uint32_t s = queue[head++];
		const struct topo_node *tn = &t->nodes[s];
		for (unsigned p = 1; p <= tn->nports; p++) {
			const struct topo_port *tp = &tn->ports[p];
			if ((s == a && p == pa) || !link_usable(t, tp) || seen[tp->peer] ||
			    t->nodes[tp->peer].type != MAD_NODE_SWITCH ||
			    sm_iso_set_has(&iso->set, tn->guid, (uint8_t)p))
				continue;
			if (tp->peer == b) {
				met = 1;
				break;
			}
			seen[tp->peer] = true;
			queue[tail++] = tp->peer;
		}
	}
	free(queue);
	free(seen);
	return met;
}

/* "link "S1" 0x... port 3 <-> "L2" 0x... port 7" into @buf: both ends named
 * as the last fabric knows them. */
static const char *link_name(const struct sm *sm, const struct sm_iso_link *l, char *buf,
			     size_t len)
{
	char a[SM_NAME_LEN], b[SM_NAME_LEN];

	snprintf(buf, len, "link %s <-> %s", sm_name_port(sm, l->guid, l->port, a, sizeof(a)),
		 sm_name_port(sm, l->peer_guid, l->peer_port, b, sizeof(b)));
	return buf;
}

static void iso_event(struct sm *sm, const char *kind, const struct sm_iso_link *l,
		      const char *detail)
{
	char name[2 * SM_NAME_LEN + 16];

	sm_store_event(&sm->store, kind, l->guid, l->port, "%s: %s",
		       link_name(sm, l, name, sizeof(name)), detail);
}

/* The store's writers of a link isolated (@data: its struct sm_iso_link) and
 * given back (@data: its struct sm_iso_link, only the end is read). */
static int write_isolated(struct db *db, void *data)
{
	const struct sm_iso_link *l = data;
	const struct db_isolated row = { .guid = l->guid, .port = l->port,
					 .peer_guid = l->peer_guid, .peer_port = l->peer_port,
					 .since_ms = l->since_ms, .cause = l->cause,
					 .reason = l->reason };

	return db_isolated_save(db, &row);
}

static int write_restored(struct db *db, void *data)
{
	const struct sm_iso_link *l = data;
	int rc = db_isolated_delete(db, l->guid, l->port);

	return rc < 0 ? rc : 0;
}

/* Hand a copy of @l to the store, written by @fn. */
static void iso_store(struct sm *sm, sm_store_fn fn, const struct sm_iso_link *l,
		      const char *what)
{
	struct sm_iso_link *copy = malloc(sizeof(*copy));

	if (copy)
		*copy = *l;
	sm_store_put(&sm->store, fn, copy, sizeof(*copy), what);
}

/*
 * Isolate the link at port @p of node @n of @t (the fabric as now known) for
 * @cause, @why.  1 when isolated, 0 when refused (a host link, the last path
 * between its switches, the cap reached: logged), -errno.
 */
static int isolate(struct sm *sm, const struct topo *t, uint32_t n, unsigned p,
		   const char *cause, const char *why)
{
	const struct topo_node *tn = &t->nodes[n];
	const struct topo_port *tp = &tn->ports[p];

	if (p == 0 || p > tn->nports || tp->peer == TOPO_NONE ||
	    sm_iso_set_has(&sm->iso->set, tn->guid, (uint8_t)p))
		return 0;
	const struct topo_node *peer = &t->nodes[tp->peer];
	if (tn->type != MAD_NODE_SWITCH || peer->type != MAD_NODE_SWITCH) {
		sm_warn("isolation: 0x%016llx (%s) port %u: %s; a host's link is not isolated "
			"(it would cut the host off): replace the cable", (unsigned long long)tn->guid,
			tn->desc, p, why);
		return 0;
	}
	if (sm->iso->set.n >= sm->cfg.iso_max_links) {
		sm_warn("isolation: 0x%016llx (%s) port %u: %s; not isolated: %zu links are "
			"already (isolation.max_links %u)", (unsigned long long)tn->guid, tn->desc, p,
			why, sm->iso->set.n, sm->cfg.iso_max_links);
		return 0;
	}
	int met = switches_meet(sm->iso, t, n, p, tp->peer);
	if (met <= 0) {
		if (met == 0)
			sm_warn("isolation: 0x%016llx (%s) port %u: %s; not isolated: its switches "
				"have no other path", (unsigned long long)tn->guid, tn->desc, p, why);
		return met;
	}
	bool lower = tn->guid < peer->guid || (tn->guid == peer->guid && p <= tp->peer_port);
	struct sm_iso_link l = {
		.guid = lower ? tn->guid : peer->guid, .port = lower ? (uint8_t)p : tp->peer_port,
		.peer_guid = lower ? peer->guid : tn->guid,
		.peer_port = lower ? tp->peer_port : (uint8_t)p, .mono_ms = mad_now_ms(),
	};
	snprintf(l.cause, sizeof(l.cause), "%s", cause);
	snprintf(l.reason, sizeof(l.reason), "0x%016llx port %u: %s",
		 (unsigned long long)tn->guid, p, why);
	l.since_ms = sm->db ? db_now_ms(sm->db) : 0;
	iso_store(sm, write_isolated, &l, "isolation (kept until this process ends)");
	int rc = set_add(&sm->iso->set, &l);
	if (rc)
		return rc;
	char detail[224], name[2 * SM_NAME_LEN + 16];
	snprintf(detail, sizeof(detail), "isolated (%s): %s", cause, l.reason);
	sm_notice("isolation: %s isolated from routing (%s): %s",
		  link_name(sm, &l, name, sizeof(name)), cause, why);
	iso_event(sm, DB_EV_LINK_ISOLATED, &l, detail);
	sm_sweep_due(sm, "a link was isolated");
	return 1;
}

static struct sm_iso_policy policy_of(const struct sm_config *c)
{
	return (struct sm_iso_policy){ .window_s = c->iso_window_s,
		.symbol_errors = c->iso_symbol_errors, .link_error_recovery = c->iso_link_error_recovery,
		.link_downed = c->iso_link_downed, .flaps = c->iso_flaps };
}

/* Count @d for port (@guid, @port) and judge its window: the cause when it
 * crosses a threshold with @d (it was below before), else NULL. */
static const char *count_and_judge(struct sm *sm, uint64_t guid, uint8_t port,
				   const struct sm_iso_counts *d, uint64_t now_ms, char *why,
				   size_t len, int *err)
{
	struct sm_iso_policy pol = policy_of(&sm->cfg);
	struct sm_iso_counts before, after;
	char old[160];

	sm_iso_track_sum(&sm->iso->track, guid, port, now_ms, pol.window_s, &before);
	*err = sm_iso_track_add(&sm->iso->track, guid, port, d, now_ms, pol.window_s);
	if (*err)
		return NULL;
	sm_iso_track_sum(&sm->iso->track, guid, port, now_ms, pol.window_s, &after);
	/* over already: acted on (or refused and reported) when it crossed; a
	 * link the operator restored meanwhile stays until it crosses again */
	if (sm_iso_judge(&pol, &before, old, sizeof(old)))
		return NULL;
	return sm_iso_judge(&pol, &after, why, len);
}

int sm_isolate_observe_errors(struct sm *sm, uint64_t node_guid, uint8_t port,
			      uint32_t symbol_delta, uint32_t lerr_delta, uint32_t downed_delta,
			      uint64_t now_ms)
{
	const struct sm_iso_counts d = { .symbol_errors = symbol_delta,
		.link_error_recovery = lerr_delta, .link_downed = downed_delta };
	char why[160];
	int err;

	if (!sm->cfg.iso_max_links || !sm->have_fabric)
		return 0;
	sm_isolate_tick(sm, now_ms);	/* the poller's clock serves auto-restore too */
	const char *cause = count_and_judge(sm, node_guid, port, &d, now_ms, why, sizeof(why),
					    &err);
	if (err)
		return err;
	uint32_t n = topo_find_guid(&sm->fabric.topo, node_guid);
	if (!cause || n == TOPO_NONE || port > sm->fabric.topo.nodes[n].nports)
		return 0;
	return isolate(sm, &sm->fabric.topo, n, port, cause, why);
}

unsigned sm_isolate_flaps(struct sm *sm, const struct sm_fabric *old, const struct sm_fabric *new,
			  uint64_t now_ms)
{
	const struct topo *ot = &old->topo, *nt = &new->topo;
	const struct sm_iso_counts flap = { .flaps = 1 };
	unsigned isolated = 0;
	char why[160];
	int err;

	if (!sm->cfg.iso_max_links || !sm->cfg.iso_flaps)
		return 0;
	for (uint32_t o = 0; o < ot->n; o++) {
		const struct topo_node *on = &ot->nodes[o];
		uint32_t n = topo_find_guid(nt, on->guid);
		for (unsigned p = 1; n != TOPO_NONE && p <= on->nports; p++) {
			const struct topo_port *op = &on->ports[p];
			if (!link_usable(ot, op) || p > nt->nodes[n].nports)
				continue;
			const struct topo_node *opeer = &ot->nodes[op->peer];
			/* once per link: from the end with the lower (GUID, port) */
			if (on->guid > opeer->guid || (on->guid == opeer->guid && p > op->peer_port))
				continue;
			if (topo_find_guid(nt, opeer->guid) == TOPO_NONE ||
			    link_usable(nt, &nt->nodes[n].ports[p]))
				continue;
			const char *cause = count_and_judge(sm, on->guid, (uint8_t)p, &flap, now_ms,
							    why, sizeof(why), &err);
			/* judged on the fabric that knew the link: it is down now */
			if (cause && isolate(sm, ot, o, p, cause, why) > 0)
				isolated++;
		}
	}
	return isolated;
}

/* Drop link @i of the set, from the store too, with an event saying @how. */
static void restore(struct sm *sm, size_t i, const char *how)
{
	struct sm_iso_link l = sm->iso->set.links[i];
	char name[2 * SM_NAME_LEN + 16];

	sm->iso->set.links[i] = sm->iso->set.links[--sm->iso->set.n];
	iso_store(sm, write_restored, &l, "isolation restore");
	sm_notice("isolation: %s back in routing: %s", link_name(sm, &l, name, sizeof(name)), how);
	iso_event(sm, DB_EV_LINK_RESTORED, &l, how);
	sm_sweep_due(sm, "an isolated link was restored");
}

/* The node @name names in @t: a GUID (0x... hex), else an exact description
 * or name. */
static uint32_t node_named(const struct topo *t, const char *name)
{
	char *end;
	unsigned long long g = strtoull(name, &end, 16);

	if (strncmp(name, "0x", 2) == 0 && !*end && end != name + 2)
		return topo_find_guid(t, (uint64_t)g);
	for (uint32_t n = 0; n < t->n; n++)
		if (!strcmp(t->nodes[n].desc, name) || !strcmp(t->nodes[n].name, name))
			return n;
	return TOPO_NONE;
}

int sm_isolate_restore(struct sm *sm, const char *node, unsigned port, const char *by,
		       char *msg, size_t len)
{
	uint32_t n = sm->have_fabric ? node_named(&sm->fabric.topo, node) : TOPO_NONE;
	char *end;
	unsigned long long g = strtoull(node, &end, 16);
	/* a GUID the last sweep did not see may still name a stored isolation */
	uint64_t guid = n != TOPO_NONE ? sm->fabric.topo.nodes[n].guid
			: strncmp(node, "0x", 2) == 0 && !*end ? (uint64_t)g : 0;

	if (!guid) {
		snprintf(msg, len, "no node '%.64s' in the fabric", node);
		return -EINVAL;
	}
	size_t i = port <= 255 ? set_find(&sm->iso->set, guid, (uint8_t)port) : sm->iso->set.n;
	if (i == sm->iso->set.n) {
		snprintf(msg, len, "0x%016llx port %u is on no isolated link",
			 (unsigned long long)guid, port);
		return -ENOENT;
	}
	char how[96];
	snprintf(how, sizeof(how), "restored by %s", by);
	snprintf(msg, len, "link 0x%016llx port %u <-> 0x%016llx port %u restored; heavy sweep "
		 "due", (unsigned long long)sm->iso->set.links[i].guid, sm->iso->set.links[i].port,
		 (unsigned long long)sm->iso->set.links[i].peer_guid,
		 sm->iso->set.links[i].peer_port);
	restore(sm, i, how);
	return 0;
}

void sm_isolate_tick(struct sm *sm, uint64_t now_ms)
{
	uint32_t w = sm->cfg.iso_window_s;
	uint64_t w_ms = (uint64_t)w * 1000;
	struct sm_iso_counts a, b;

	for (size_t i = 0; sm->cfg.iso_auto_restore && i < sm->iso->set.n;) {
		const struct sm_iso_link *l = &sm->iso->set.links[i];
		sm_iso_track_sum(&sm->iso->track, l->guid, l->port, now_ms, w, &a);
		sm_iso_track_sum(&sm->iso->track, l->peer_guid, l->peer_port, now_ms, w, &b);
		if (now_ms - l->mono_ms >= w_ms && sm_iso_clean(&a) && sm_iso_clean(&b)) {
			char how[96];
			snprintf(how, sizeof(how), "restored: clean for %u s (isolation.auto_restore)",
				 w);
			restore(sm, i, how);	/* moves the last link to @i */
			continue;
		}
		i++;
	}
	if (now_ms - sm->iso->pruned_ms >= w_ms / SM_ISO_BUCKETS) {
		sm_iso_track_prune(&sm->iso->track, now_ms, w);
		sm->iso->pruned_ms = now_ms;
	}
}

// SPDX-License-Identifier: MIT
/*
 * sm_lid.c - LID assignment (see sm_lid.h).
 *
 * Data: the endpoints sorted by GUID, the persistent map sorted by GUID (binary
 * search), and one byte per unicast LID: free, taken, or reserved for a port
 * that is away.  Passes: map -> reserve absent -> fabric -> fresh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "sm/sweep/sm_lid.h"

/* ordered: a search that tolerates a state tolerates the ones before it */
enum { LID_FREE, LID_RESERVED, LID_TAKEN };

struct map_entry {
	uint64_t guid;
	uint16_t lid;
	uint8_t lmc;
	bool present;
};

struct lid_state {
	uint8_t used[MAD_MAX_UCAST_LID + 1];
	struct map_entry *map;
	size_t nmap, capmap;
	unsigned cursor[8];	/* per LMC: no free range below it */
};

static int cmp_guid(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_ep(const void *a, const void *b)
{
	const struct sm_lid_endpoint *x = a, *y = b;
	int c = cmp_guid(x->guid, y->guid);

	if (c == 0)	/* ports sharing a GUID: the same order on every sweep */
		c = cmp_guid(x->node_guid, y->node_guid);
	return c ? c : (x->port > y->port) - (x->port < y->port);
}

static int cmp_map(const void *a, const void *b)
{
	return cmp_guid(((const struct map_entry *)a)->guid, ((const struct map_entry *)b)->guid);
}

static int map_add(void *arg, uint64_t guid, uint16_t lid, uint8_t lmc)
{
	struct lid_state *s = arg;

	if (s->nmap == s->capmap) {
		size_t cap = s->capmap ? s->capmap * 2 : 1024;
		struct map_entry *m = realloc(s->map, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		s->map = m;
		s->capmap = cap;
	}
	s->map[s->nmap++] = (struct map_entry){ .guid = guid, .lid = lid, .lmc = lmc };
	return 0;
}

static struct map_entry *map_find(struct lid_state *s, uint64_t guid)
{
	struct map_entry key = { .guid = guid };

	return s->nmap ? bsearch(&key, s->map, s->nmap, sizeof(key), cmp_map) : NULL;
}

/* Is [lid, lid + 2^lmc) a valid, aligned range whose LIDs are all at most @worst? */
static bool range_ok(const struct lid_state *s, unsigned lid, uint8_t lmc, int worst)
{
	unsigned count = 1u << lmc;

	if (lid == 0 || lid % count || lid + count - 1 > MAD_MAX_UCAST_LID)
		return false;
	for (unsigned l = lid; l < lid + count; l++)
		if (s->used[l] > worst)
			return false;
	return true;
}

static void take(struct lid_state *s, struct sm_lid_endpoint *ep, uint16_t lid, int mark)
{
	for (unsigned l = lid; l < lid + (1u << ep->lmc); l++)
		s->used[l] = (uint8_t)mark;
	ep->lid = lid;
}

static int collect(struct sm_fabric *f, uint8_t lmc, struct sm_lid_plan *plan)
{
	size_t cap = 0;

	for (uint32_t n = 0; n < f->topo.n; n++)
		cap += f->topo.nodes[n].type == MAD_NODE_SWITCH ? 1 : f->topo.nodes[n].nports;
	plan->ep = calloc(cap + 1, sizeof(*plan->ep));
	if (!plan->ep)
		return -ENOMEM;
	for (uint32_t n = 0; n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		bool sw = tn->type == MAD_NODE_SWITCH;
		for (unsigned p = sw ? 0 : 1; p <= (sw ? 0u : tn->nports); p++) {
			/* a port whose PortInfo answer was lost still owns its LID:
			 * dropping it would tear down the routes to a live port */
			if (!f->attrs[n].pi_valid[p] && !sw && tn->ports[p].peer == TOPO_NONE)
				continue;
			plan->ep[plan->n++] = (struct sm_lid_endpoint){
				.node = n, .port = (uint8_t)p, .lmc = sw ? 0 : lmc,
				.guid = tn->ports[p].guid, .node_guid = tn->guid,
			};
		}
	}
	qsort(plan->ep, plan->n, sizeof(*plan->ep), cmp_ep);
	return 0;
}

/* The lowest free aligned range; ranges are handed out in rising order, so the
 * search resumes where the last one of the same size ended. */
static int fresh(struct lid_state *s, struct sm_lid_endpoint *ep, int worst)
{
	unsigned step = 1u << ep->lmc;
	unsigned start = worst == LID_FREE && s->cursor[ep->lmc] ? s->cursor[ep->lmc] : step;

	for (unsigned lid = start; lid + step - 1 <= MAD_MAX_UCAST_LID; lid += step)
		if (range_ok(s, lid, ep->lmc, worst)) {
			take(s, ep, (uint16_t)lid, LID_TAKEN);
			if (worst == LID_FREE)
				s->cursor[ep->lmc] = lid + step;
			return 0;
		}
	return -ENOSPC;
}

/*
 * Of the ports [@first, @end) that share one GUID, the one that owns it for
 * the map: the port that holds the map's LID now, else the first.  The others
 * are marked duplicate.
 */
static void pick_owner(struct sm_fabric *f, struct lid_state *s, struct sm_lid_endpoint *first,
		       struct sm_lid_endpoint *end)
{
	const struct map_entry *m = map_find(s, first->guid);
	struct sm_lid_endpoint *owner = first;

	for (struct sm_lid_endpoint *ep = first; m && ep < end; ep++)
		if (f->attrs[ep->node].pi_valid[ep->port] &&
		    f->attrs[ep->node].pi[ep->port].lid == m->lid) {
			owner = ep;
			break;
		}
	for (struct sm_lid_endpoint *ep = first; ep < end; ep++)
		ep->duplicate = ep != owner;
}

static int assign(struct sm_fabric *f, struct lid_state *s, struct sm_lid_plan *plan)
{
	for (size_t i = 0, j; i < plan->n; i = j) {
		for (j = i + 1; j < plan->n && plan->ep[j].guid == plan->ep[i].guid; j++)
			;
		if (j - i > 1)
			pick_owner(f, s, &plan->ep[i], &plan->ep[j]);
	}
	/* 1: the persistent map */
	for (size_t i = 0; i < plan->n; i++) {
		struct sm_lid_endpoint *ep = &plan->ep[i];
		struct map_entry *m = ep->duplicate ? NULL : map_find(s, ep->guid);
		if (!m)
			continue;
		m->present = true;
		if (m->lmc == ep->lmc && range_ok(s, m->lid, ep->lmc, LID_FREE)) {
			take(s, ep, m->lid, LID_TAKEN);
			plan->kept_from_map++;
		}
	}
	/* 2: ports that are away keep their LIDs for now */
	for (size_t i = 0; i < s->nmap; i++)
		if (!s->map[i].present && range_ok(s, s->map[i].lid, s->map[i].lmc, LID_FREE))
			for (unsigned l = s->map[i].lid; l < s->map[i].lid + (1u << s->map[i].lmc); l++)
				s->used[l] = LID_RESERVED;
	/* 3: what the fabric already holds */
	for (size_t i = 0; i < plan->n; i++) {
		struct sm_lid_endpoint *ep = &plan->ep[i];
		uint16_t cur = f->attrs[ep->node].pi[ep->port].lid;
		if (!ep->lid && range_ok(s, cur, ep->lmc, LID_FREE)) {
			take(s, ep, cur, LID_TAKEN);
			plan->kept_from_fabric++;
		}
	}
	/* 4: fresh ranges, reclaiming reserved ones only when nothing else is left */
	for (size_t i = 0; i < plan->n; i++) {
		struct sm_lid_endpoint *ep = &plan->ep[i];
		if (ep->lid)
			continue;
		if (fresh(s, ep, LID_FREE) && fresh(s, ep, LID_RESERVED))
			return -ENOSPC;
		plan->fresh++;
	}
	return 0;
}

int sm_lid_assign(struct sm_fabric *f, uint8_t lmc, struct db *db,
		  struct sm_lid_plan *plan, char *err, size_t errlen)
{
	struct lid_state *s = calloc(1, sizeof(*s));
	int rc;

	memset(plan, 0, sizeof(*plan));
	if (!s)
		return -ENOMEM;
	bool said = false;	/* @err holds the reason already */
	rc = collect(f, lmc, plan);
	if (rc == 0 && db && (rc = db_lids_load(db, map_add, s)) && rc != -ENOMEM) {
		snprintf(err, errlen, "%s", db_errmsg(db));	/* names the store */
		said = true;
	}
	if (rc == 0) {
		if (s->nmap)	/* qsort(NULL, 0) is undefined */
			qsort(s->map, s->nmap, sizeof(*s->map), cmp_map);
		rc = assign(f, s, plan);
		if (rc == -ENOSPC)
			snprintf(err, errlen, "the fabric needs more unicast LIDs than the %u "
				 "IBA allows (%zu ports at LMC %u)", (unsigned)MAD_MAX_UCAST_LID, plan->n, lmc);
	}
	for (size_t i = 0; rc == 0 && i < plan->n; i++) {
		struct sm_lid_endpoint *ep = &plan->ep[i];
		struct map_entry *m = map_find(s, ep->guid);
		struct topo_port *tp = &f->topo.nodes[ep->node].ports[ep->port];
		ep->map_changed = !ep->duplicate && (!m || m->lid != ep->lid || m->lmc != ep->lmc);
		tp->lid = ep->lid;
		tp->lmc = ep->lmc;
		uint16_t top = (uint16_t)(ep->lid + (1u << ep->lmc) - 1);
		if (top > plan->max_lid)
			plan->max_lid = top;
	}
	free(s->map);
	free(s);
	if (rc && rc != -ENOSPC && !said)
		snprintf(err, errlen, "LID assignment failed: %s", strerror(-rc));
	return rc;
}

void sm_lid_plan_free(struct sm_lid_plan *plan)
{
	free(plan->ep);
	memset(plan, 0, sizeof(*plan));
}

// SPDX-License-Identifier: MIT
/*
 * topo.c - the in-memory fabric model (see topo.h).
 *
 * Nodes sit in a growing array; an open-addressed hash (linear probing, load
 * at most 1/2) maps node GUIDs to indexes.  Links are stored on both ports.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo.h"

void topo_init(struct topo *t)
{
	memset(t, 0, sizeof(*t));
}

void topo_free(struct topo *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		free(t->nodes[i].ports);
	free(t->nodes);
	free(t->guid_slots);
	topo_init(t);
}

static uint32_t guid_hash(uint64_t guid, uint32_t nslots)
{
	guid ^= guid >> 33;
	guid *= 0xff51afd7ed558ccdULL;
	guid ^= guid >> 33;
	return (uint32_t)(guid & (nslots - 1));
}

static void guid_insert(struct topo *t, uint64_t guid, uint32_t idx)
{
	uint32_t s = guid_hash(guid, t->guid_nslots);

	while (t->guid_slots[s])
		s = (s + 1) & (t->guid_nslots - 1);
	t->guid_slots[s] = idx + 1;
}

static int guid_reserve(struct topo *t, uint32_t count)
{
	uint32_t need = 16;

	while (need < 2 * count)
		need *= 2;
	if (need <= t->guid_nslots)
		return 0;
	uint32_t *slots = calloc(need, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	free(t->guid_slots);
	t->guid_slots = slots;
	t->guid_nslots = need;
	for (uint32_t i = 0; i < t->n; i++)
		if (t->nodes[i].guid)
			guid_insert(t, t->nodes[i].guid, i);
	return 0;
}

uint32_t topo_find_guid(const struct topo *t, uint64_t guid)
{
	if (!t->guid_nslots || !guid)
		return TOPO_NONE;
	for (uint32_t s = guid_hash(guid, t->guid_nslots); t->guid_slots[s];
	     s = (s + 1) & (t->guid_nslots - 1)) {
		uint32_t idx = t->guid_slots[s] - 1;
		if (t->nodes[idx].guid == guid)
			return idx;
	}
	return TOPO_NONE;
}

int topo_set_guid(struct topo *t, uint32_t idx, uint64_t guid)
{
	if (topo_find_guid(t, guid) != TOPO_NONE)
		return -EEXIST;
	if (guid_reserve(t, t->n + 1))
		return -ENOMEM;
	t->nodes[idx].guid = guid;
	guid_insert(t, guid, idx);
	return 0;
}

uint32_t topo_add_node(struct topo *t, uint8_t type, uint8_t nports, uint64_t guid)
{
	if (guid && topo_find_guid(t, guid) != TOPO_NONE) {
		errno = EEXIST;
		return TOPO_NONE;
	}
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 64;
		struct topo_node *nodes = realloc(t->nodes, cap * sizeof(*nodes));
		if (!nodes) {
			errno = ENOMEM;
			return TOPO_NONE;
		}
		t->nodes = nodes;
		t->cap = cap;
	}
	struct topo_port *ports = calloc((size_t)nports + 1, sizeof(*ports));
	if (!ports || guid_reserve(t, t->n + 1)) {
		free(ports);
		errno = ENOMEM;
		return TOPO_NONE;
	}
	for (unsigned p = 0; p <= nports; p++)
		ports[p].peer = TOPO_NONE;
	uint32_t idx = t->n++;
	struct topo_node *n = &t->nodes[idx];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->nports = nports;
	n->ports = ports;
	if (guid) {
		n->guid = guid;
		guid_insert(t, guid, idx);
	}
	return idx;
}

uint32_t topo_find_name(const struct topo *t, const char *name)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (strcmp(t->nodes[i].name, name) == 0)
			return i;
	return TOPO_NONE;
}

int topo_link(struct topo *t, uint32_t a, uint8_t pa, uint32_t b, uint8_t pb)
{
	if (a >= t->n || b >= t->n || pa == 0 || pb == 0 ||
	    pa > t->nodes[a].nports || pb > t->nodes[b].nports)
		return -EINVAL;
	struct topo_port *x = &t->nodes[a].ports[pa];
	struct topo_port *y = &t->nodes[b].ports[pb];
	if (x->peer == b && x->peer_port == pb && y->peer == a && y->peer_port == pa)
		return 0;
	if (x->peer != TOPO_NONE || y->peer != TOPO_NONE)
		return -EBUSY;
	if (a == b && pa == pb)
		return -EINVAL;
	x->peer = b;
	x->peer_port = pb;
	y->peer = a;
	y->peer_port = pa;
	return 0;
}

int topo_reorder(struct topo *t, const uint32_t *perm)
{
	struct topo_node *nodes = malloc((t->cap ? t->cap : 1) * sizeof(*nodes));
	uint32_t *inv = malloc((t->n + 1) * sizeof(*inv));

	if (!nodes || !inv) {
		free(nodes);
		free(inv);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < t->n; i++) {
		nodes[i] = t->nodes[perm[i]];
		inv[perm[i]] = i;
	}
	for (uint32_t i = 0; i < t->n; i++)
		for (unsigned p = 0; p <= nodes[i].nports; p++)
			if (nodes[i].ports[p].peer != TOPO_NONE)
				nodes[i].ports[p].peer = inv[nodes[i].ports[p].peer];
	free(t->nodes);
	t->nodes = nodes;
	memset(t->guid_slots, 0, t->guid_nslots * sizeof(*t->guid_slots));
	for (uint32_t i = 0; i < t->n; i++)
		if (t->nodes[i].guid)
			guid_insert(t, t->nodes[i].guid, i);
	free(inv);
	return 0;
}

size_t topo_count_links(const struct topo *t)
{
	size_t links = 0;

	for (uint32_t i = 0; i < t->n; i++)
		for (unsigned p = 1; p <= t->nodes[i].nports; p++) {
			const struct topo_port *tp = &t->nodes[i].ports[p];
			if (tp->peer != TOPO_NONE &&
			    (tp->peer > i || (tp->peer == i && tp->peer_port > p)))
				links++;
		}
	return links;
}

uint32_t topo_count_type(const struct topo *t, uint8_t type)
{
	uint32_t count = 0;

	for (uint32_t i = 0; i < t->n; i++)
		count += t->nodes[i].type == type;
	return count;
}

struct guid_claim {
	uint64_t guid;		/* port GUID */
	uint64_t node_guid;
	uint32_t node;
	uint8_t port;
};

static int cmp_claim(const void *a, const void *b)
{
	const struct guid_claim *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->node_guid != y->node_guid)
		return x->node_guid < y->node_guid ? -1 : 1;
	return (x->port > y->port) - (x->port < y->port);
}

int topo_port_guid_clashes(const struct topo *t, topo_clash_fn fn, void *arg)
{
	size_t cap = 0, n = 0;
	int clashes = 0;

	for (uint32_t i = 0; i < t->n; i++)
		cap += t->nodes[i].type == MAD_NODE_SWITCH ? 1 : t->nodes[i].nports;
	struct guid_claim *c = malloc((cap + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->n; i++) {
		const struct topo_node *tn = &t->nodes[i];
		bool sw = tn->type == MAD_NODE_SWITCH;
		for (unsigned p = sw ? 0 : 1; p <= (sw ? 0u : tn->nports); p++)
			if (tn->ports[p].guid)
				c[n++] = (struct guid_claim){ .guid = tn->ports[p].guid,
					.node_guid = tn->guid, .node = i, .port = (uint8_t)p };
	}
	qsort(c, n, sizeof(*c), cmp_claim);
	for (size_t i = 1, first = 0; i < n; i++) {
		if (c[i].guid != c[first].guid) {
			first = i;
			continue;
		}
		fn(arg, c[first].node, c[first].port, c[i].node, c[i].port);
		clashes++;
	}
	free(c);
	return clashes;
}

bool topo_mark_isolated(struct topo *t, uint64_t guid, uint8_t port, uint64_t peer_guid,
			uint8_t peer_port)
{
	uint32_t a = topo_find_guid(t, guid), b = topo_find_guid(t, peer_guid);

	if (a == TOPO_NONE || b == TOPO_NONE || port > t->nodes[a].nports ||
	    t->nodes[a].ports[port].peer != b || t->nodes[a].ports[port].peer_port != peer_port)
		return false;
	t->nodes[a].ports[port].isolated = true;
	t->nodes[b].ports[peer_port].isolated = true;
	return true;
}

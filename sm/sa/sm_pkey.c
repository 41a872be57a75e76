// SPDX-License-Identifier: MIT
/*
 * sm_pkey.c - partitions resolved against a fabric: each port's P_Keys.
 *
 * Data: the partitions as read (sm_pkey_file.c) and one sweep's fabric.
 * Flow: every (port, partition, membership) a member entry names becomes one
 * pair; the pairs are sorted by port, then by partition, and of each the
 * fullest membership kept (YAML), or the one of the last entry that names the
 * port (OpenSM's file, last_wins), so that a port's keys come in the file's
 * order (the default partition first) and a port named twice holds one key;
 * a key an indx0 entry gave moves to the front of its port's keys.  Ports
 * are CA and router ports and a switch's port 0 (IBA 10.9.2: a switch's
 * external ports hold their neighbour's keys only for enforcement,
 * sm_pkey_program.c).  In YAML the default partition holds every port, full
 * members unless the file says "all: limited" there (the SM's own port stays
 * full); OpenSM's reader lists its default members itself.  A port GUID is
 * found through a sorted array of the fabric's port GUIDs; a node name by
 * comparing NodeDescriptions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm/util/sm_log.h"
#include "sm/sa/sm_pkey.h"

struct pair {
	uint32_t slot;
	uint16_t part;		/* index in the partitions */
	bool full;
	bool indx0;
	uint32_t seq;		/* the member entry's place in its partition */
};

struct guid_slot {
	uint64_t guid;
	uint32_t slot;
};

struct build {
	const struct sm_partitions *ps;
	const struct sm_fabric *f;
	struct sm_pkey_ports *out;
	struct pair *pairs;
	size_t n, cap;
	struct guid_slot *guids;
	size_t nguids;
};

static bool port_counts(const struct topo_node *n, unsigned p)
{
	return n->type == MAD_NODE_SWITCH ? p == 0 : p >= 1;
}

static int add(struct build *b, uint32_t slot, uint16_t part, const struct sm_pkey_member *m,
	       uint32_t seq)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1024;
		struct pair *p = realloc(b->pairs, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		b->pairs = p;
		b->cap = cap;
	}
	b->pairs[b->n++] = (struct pair){ slot, part, m->full, m->indx0, seq };
	return 0;
}

static int add_node(struct build *b, uint32_t node, uint16_t part,
		    const struct sm_pkey_member *m, uint32_t seq)
{
	const struct topo_node *n = &b->f->topo.nodes[node];
	int rc = 0;

	for (unsigned p = 0; p <= n->nports && !rc; p++)
		if (port_counts(n, p))
			rc = add(b, b->out->slot[node] + p, part, m, seq);
	return rc;
}

static int cmp_guid(const void *a, const void *b)
{
	const struct guid_slot *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

static int cmp_place(const struct pair *x, const struct pair *y)
{
	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return x->part < y->part ? -1 : x->part > y->part;
}

static int cmp_fullest(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = cmp_place(x, y);

	return c ? c : (int)y->full - (int)x->full;	/* full first */
}

static int cmp_last(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = cmp_place(x, y);

	return c ? c : x->seq < y->seq ? 1 : x->seq > y->seq ? -1 : 0;	/* last first */
}

/* The node types a member kind names, as a mask of 1 << MAD_NODE_*; 0 for
 * the kinds that name ports one by one. */
static unsigned kind_types(uint8_t kind)
{
	switch (kind) {
	case SM_PKEY_MEMBER_ALL:
		return 1u << MAD_NODE_CA | 1u << MAD_NODE_SWITCH | 1u << MAD_NODE_ROUTER;
	case SM_PKEY_MEMBER_ALL_CAS: return 1u << MAD_NODE_CA;
	case SM_PKEY_MEMBER_ALL_SWITCHES: return 1u << MAD_NODE_SWITCH;
	case SM_PKEY_MEMBER_ALL_ROUTERS: return 1u << MAD_NODE_ROUTER;
	default: return 0;
	}
}

/* Pairs for member @m (entry @seq) of partition @part; how many ports it
 * named in *@hits. */
static int add_member(struct build *b, uint16_t part, const struct sm_pkey_member *m,
		      uint32_t seq, size_t *hits)
{
	const struct topo *t = &b->f->topo;
	unsigned types = kind_types(m->kind);
	size_t before = b->n;
	int rc = 0;

	if (types) {
		for (uint32_t i = 0; i < t->n && !rc; i++)
			if (t->nodes[i].type < 32 && (types & 1u << t->nodes[i].type))
				rc = add_node(b, i, part, m, seq);
	} else if (m->kind == SM_PKEY_MEMBER_GUID) {
		struct guid_slot key = { .guid = m->guid };
		const struct guid_slot *g = bsearch(&key, b->guids, b->nguids, sizeof(key),
						    cmp_guid);
		if (g)
			rc = add(b, g->slot, part, m, seq);
	} else if (m->kind == SM_PKEY_MEMBER_SELF) {
		if (b->f->local_node < t->n)
			rc = add(b, b->out->slot[b->f->local_node] + b->f->local_port, part, m, seq);
	} else {
		for (uint32_t i = 0; i < t->n && !rc; i++)
			if (strcmp(t->nodes[i].desc, m->name) == 0)
				rc = add_node(b, i, part, m, seq);
	}
	*hits = b->n - before;
	return rc;
}

static int index_guids(struct build *b)
{
	const struct topo *t = &b->f->topo;
	size_t total = 0;

	for (uint32_t i = 0; i < t->n; i++)
		total += t->nodes[i].type == MAD_NODE_SWITCH ? 1 : t->nodes[i].nports;
	b->guids = malloc((total + 1) * sizeof(*b->guids));
	if (!b->guids)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->n; i++) {
		const struct topo_node *n = &t->nodes[i];
		for (unsigned p = 0; p <= n->nports; p++)
			if (port_counts(n, p) && n->ports[p].guid)
				b->guids[b->nguids++] = (struct guid_slot){
					n->ports[p].guid, b->out->slot[i] + p };
	}
	qsort(b->guids, b->nguids, sizeof(*b->guids), cmp_guid);
	return 0;
}

static int pairs_collect(struct build *b, const char *file)
{
	int rc = 0;

	for (size_t i = 0; i < b->ps->n && !rc; i++) {
		const struct sm_partition *part = &b->ps->p[i];
		size_t hits;
		if (i == 0 && !b->ps->last_wins) {
			/* YAML's default: every port, full unless "all: limited", and
			 * the SM's port full (everyone reaches the SA) */
			struct sm_pkey_member all = { .kind = SM_PKEY_MEMBER_ALL, .full = true };
			const struct sm_pkey_member self = { .kind = SM_PKEY_MEMBER_SELF,
							     .full = true };
			for (size_t j = 0; j < part->nmembers; j++)
				all.full &= part->members[j].full;
			rc = add_member(b, 0, &all, 0, &hits);
			if (!rc && !all.full)
				rc = add_member(b, 0, &self, 0, &hits);
			continue;
		}
		for (size_t j = 0; j < part->nmembers && !rc; j++) {
			const struct sm_pkey_member *m = &part->members[j];
			rc = add_member(b, (uint16_t)i, m, (uint32_t)j, &hits);
			if (rc || hits || (m->kind != SM_PKEY_MEMBER_GUID &&
					   m->kind != SM_PKEY_MEMBER_NAME))
				continue;	/* "ALL_ROUTERS" with no router is no mistake */
			b->out->unknown++;
			if (m->kind == SM_PKEY_MEMBER_GUID)
				sm_warn("%s:%u: partition %s: no port has GUID 0x%016llx", file,
					m->line, part->name, (unsigned long long)m->guid);
			else
				sm_warn("%s:%u: partition %s: no node is named '%s'", file,
					m->line, part->name, m->name);
		}
	}
	return rc;
}

/* Move key @k to @first, the place of its port's first key (before the
 * offsets are summed, a port's keys are the last ones written). */
static void front(struct sm_pkey_ports *out, size_t first, size_t k)
{
	uint16_t key = out->keys[k], part = out->parts[k];

	memmove(out->keys + first + 1, out->keys + first, (k - first) * sizeof(*out->keys));
	memmove(out->parts + first + 1, out->parts + first, (k - first) * sizeof(*out->parts));
	out->keys[first] = key;
	out->parts[first] = part;
}

int sm_pkey_ports_build(const struct sm_partitions *ps, const struct sm_fabric *f,
			const char *file, struct sm_pkey_ports *out)
{
	const struct topo *t = &f->topo;
	struct build b = { .ps = ps, .f = f, .out = out };
	uint32_t nslots = 0;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->nnodes = t->n;
	if (!(out->slot = malloc((t->n + 1) * sizeof(*out->slot))))
		goto fail;
	for (uint32_t i = 0; i < t->n; i++) {
		out->slot[i] = nslots;
		nslots += t->nodes[i].nports + 1u;
	}
	out->slot[t->n] = nslots;
	if (!(out->off = calloc(nslots + 1, sizeof(*out->off))) || index_guids(&b))
		goto fail;
	if ((rc = pairs_collect(&b, file)))
		goto fail;
	qsort(b.pairs, b.n, sizeof(*b.pairs), ps->last_wins ? cmp_last : cmp_fullest);
	out->keys = malloc((b.n + 1) * sizeof(*out->keys));
	out->parts = malloc((b.n + 1) * sizeof(*out->parts));
	rc = -ENOMEM;
	if (!out->keys || !out->parts)
		goto fail;
	size_t k = 0;
	for (size_t i = 0; i < b.n; i++) {
		const struct pair *p = &b.pairs[i];
		if (i && p->slot == b.pairs[i - 1].slot && p->part == b.pairs[i - 1].part)
			continue;	/* sorted: the one kept comes first */
		out->keys[k] = (uint16_t)(ps->p[p->part].pkey | (p->full ? SM_PKEY_FULL : 0));
		out->parts[k] = p->part;
		if (p->indx0)	/* to the front of this port's keys */
			front(out, k - out->off[p->slot + 1], k);
		k++;
		out->off[p->slot + 1]++;
	}
	for (uint32_t s = 0; s < nslots; s++)
		out->off[s + 1] += out->off[s];
	free(b.pairs);
	free(b.guids);
	return 0;
fail:
	free(b.pairs);
	free(b.guids);
	sm_pkey_ports_free(out);
	return rc;
}

void sm_pkey_ports_free(struct sm_pkey_ports *pp)
{
	free(pp->slot);
	free(pp->off);
	free(pp->keys);
	free(pp->parts);
	memset(pp, 0, sizeof(*pp));
}

size_t sm_pkey_ports_of(const struct sm_pkey_ports *pp, uint32_t node, uint8_t port,
			const uint16_t **keys, const uint16_t **parts)
{
	if (!pp || !pp->slot || node >= pp->nnodes) {
		*keys = NULL;
		return 0;
	}
	uint32_t s = pp->slot[node] + port;
	if (s >= pp->slot[node + 1]) {
		*keys = NULL;
		return 0;
	}
	*keys = pp->keys + pp->off[s];
	if (parts)
		*parts = pp->parts + pp->off[s];
	return pp->off[s + 1] - pp->off[s];
}

bool sm_pkey_member(const struct sm_pkey_ports *pp, uint32_t node, uint8_t port,
		    uint16_t pkey, bool *full)
{
	const uint16_t *keys;

	if (!pp) {
		*full = true;
		return SM_PKEY_BASE(pkey) == SM_PKEY_DEFAULT;
	}
	size_t n = sm_pkey_ports_of(pp, node, port, &keys, NULL);
	for (size_t i = 0; i < n; i++) {
		if (SM_PKEY_BASE(keys[i]) == SM_PKEY_BASE(pkey)) {
			*full = keys[i] & SM_PKEY_FULL;
			return true;
		}
	}
	return false;
}

bool sm_pkey_shared(const struct sm_pkey_ports *pp, uint32_t na, uint8_t pa, uint32_t nb,
		    uint8_t pb, uint16_t want, uint16_t *pkey)
{
	const uint16_t *ka, *kb;

	if (!pp) {
		*pkey = SM_PKEY_DEFAULT | SM_PKEY_FULL;
		return !want || SM_PKEY_BASE(want) == SM_PKEY_DEFAULT;
	}
	size_t n = sm_pkey_ports_of(pp, na, pa, &ka, NULL);
	size_t m = sm_pkey_ports_of(pp, nb, pb, &kb, NULL);
	for (size_t i = 0; i < n; i++) {
		if (want && SM_PKEY_BASE(want) != SM_PKEY_BASE(ka[i]))
			continue;
		for (size_t j = 0; j < m; j++) {
			if (SM_PKEY_BASE(ka[i]) != SM_PKEY_BASE(kb[j]) ||
			    !((ka[i] | kb[j]) & SM_PKEY_FULL))
				continue;
			*pkey = ka[i];
			return true;
		}
	}
	return false;
}

// SPDX-License-Identifier: MIT
/*
 * sm_sa_index.c - LID and port GUID lookups for the SA (sm_sa_index.h).
 *
 * by_lid is a table over every LID a port's range covers (base + 2^LMC - 1,
 * LMC at most 7); by_guid a sorted array searched by bisection.  A LID or a
 * GUID two ports claim keeps the first port in node order (the sweep reports
 * the clash; the SA does not guess).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sa/sm_sa_index.h"

#define SA_MAX_LMC 7

void sm_sa_index_free(struct sm_sa_index *ix)
{
	free(ix->by_lid);
	free(ix->by_guid);
	memset(ix, 0, sizeof(*ix));
}

static int by_guid_cmp(const void *a, const void *b)
{
	const struct sa_guid_port *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->at.node != y->at.node)	/* the first port in node order first */
		return x->at.node < y->at.node ? -1 : 1;
	return 0;
}

static bool owns_lid(const struct topo_node *n, uint8_t p)
{
	return n->type == MAD_NODE_SWITCH ? p == 0 : p >= 1 && p <= n->nports;
}

bool sm_sa_next_port(const struct sm_fabric *f, struct sa_port *p)
{
	for (;;) {
		if (p->node == TOPO_NONE) {
			p->node = 0;
			p->port = 0;
		} else if (p->port < f->topo.nodes[p->node].nports) {
			p->port++;
		} else {
			p->node++;
			p->port = 0;
		}
		if (p->node >= f->topo.n)
			return false;
		const struct topo_node *n = &f->topo.nodes[p->node];
		if (owns_lid(n, p->port) && n->ports[p->port].lid)
			return true;
	}
}

static const struct topo_port *port_at(const struct sm_fabric *f, struct sa_port p)
{
	return &f->topo.nodes[p.node].ports[p.port];
}

int sm_sa_index_build(struct sm_sa_index *ix, const struct sm_fabric *f)
{
	uint32_t top = 0;
	size_t nports = 0;

	sm_sa_index_free(ix);
	for (struct sa_port p = { TOPO_NONE, 0 }; sm_sa_next_port(f, &p);) {
		const struct topo_port *tp = port_at(f, p);
		nports++;
		if (tp->lmc <= SA_MAX_LMC && tp->lid + (1u << tp->lmc) - 1 > top)
			top = tp->lid + (1u << tp->lmc) - 1;
	}
	ix->nlids = top + 1;
	ix->by_lid = malloc(ix->nlids * sizeof(*ix->by_lid));
	ix->by_guid = malloc((nports ? nports : 1) * sizeof(*ix->by_guid));
	if (!ix->by_lid || !ix->by_guid) {
		sm_sa_index_free(ix);
		return -ENOMEM;
	}
	for (uint32_t l = 0; l < ix->nlids; l++)
		ix->by_lid[l] = (struct sa_port){ TOPO_NONE, 0 };
	for (struct sa_port p = { TOPO_NONE, 0 }; sm_sa_next_port(f, &p);) {
		const struct topo_port *tp = port_at(f, p);
		if (tp->guid)
			ix->by_guid[ix->nguids++] = (struct sa_guid_port){ tp->guid, p };
		if (tp->lmc > SA_MAX_LMC)
			continue;
		for (uint32_t l = tp->lid; l < tp->lid + (1u << tp->lmc); l++)
			if (ix->by_lid[l].node == TOPO_NONE)
				ix->by_lid[l] = p;
	}
	qsort(ix->by_guid, ix->nguids, sizeof(*ix->by_guid), by_guid_cmp);
	return 0;
}

bool sm_sa_index_lid(const struct sm_sa_index *ix, uint16_t lid, struct sa_port *out)
{
	if (!lid || lid >= ix->nlids || ix->by_lid[lid].node == TOPO_NONE)
		return false;
	*out = ix->by_lid[lid];
	return true;
}

bool sm_sa_index_guid(const struct sm_sa_index *ix, uint64_t guid, struct sa_port *out)
{
	size_t lo = 0, hi = ix->nguids;

	while (lo < hi) {	/* the first entry >= guid */
		size_t mid = lo + (hi - lo) / 2;
		if (ix->by_guid[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!guid || lo == ix->nguids || ix->by_guid[lo].guid != guid)
		return false;
	*out = ix->by_guid[lo].at;
	return true;
}

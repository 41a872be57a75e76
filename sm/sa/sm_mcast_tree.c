// SPDX-License-Identifier: MIT
/*
 * sm_mcast_tree.c - the spanning tree a group's MLID is forwarded along.
 *
 * A switch forwards a multicast packet out of every port its MFT entry names
 * but the one it came in by (IBA 18.2.4.3.2), so the entries must form a tree:
 * a loop would circle packets, a port too many would deliver them to a port
 * that did not join.  The tree: breadth first from the root switch over
 * active switch-to-switch links (one parent link per switch, so parallel
 * links and rings are cut), then pruned to the switches on the way from the
 * root to each member's switch.  Every tree switch names its tree links, and
 * its ports to members that receive (full and non-members); a send-only
 * member's switch is in the tree so its packets reach the others, but its
 * port is not named.  A member whose switch the root cannot reach (a
 * partitioned fabric) is left out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_sa_mcmember.h"
#include "sm/sa/sm_mcast.h"

struct parent {
	uint32_t node;		/* TOPO_NONE: the root, or not reached */
	uint8_t up;		/* this switch's port toward it */
	uint8_t down;		/* its port toward this switch */
	bool reached;
};

static bool receives(uint8_t join)
{
	return join & (MAD_MC_JOIN_FULL | MAD_MC_JOIN_NON);
}

static bool active_switch_link(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	const struct topo_port *tp = &f->topo.nodes[n].ports[p];

	return tp->peer != TOPO_NONE && tp->state == MAD_PORT_ACTIVE &&
	       f->topo.nodes[tp->peer].type == MAD_NODE_SWITCH;
}

/* The switch member port @node/@port hangs off, and the switch's port to it
 * (0: the member is the switch's own port 0).  False: none. */
static bool member_switch(const struct sm_fabric *f, uint32_t node, uint8_t port,
			  uint32_t *sw, uint8_t *sw_port)
{
	const struct topo_node *n = &f->topo.nodes[node];

	if (n->type == MAD_NODE_SWITCH) {
		*sw = node;
		*sw_port = 0;
		return true;
	}
	if (!port || port > n->nports)
		return false;
	const struct topo_port *tp = &n->ports[port];
	if (tp->peer == TOPO_NONE || tp->state != MAD_PORT_ACTIVE ||
	    f->topo.nodes[tp->peer].type != MAD_NODE_SWITCH)
		return false;
	*sw = tp->peer;
	*sw_port = tp->peer_port;
	return true;
}

static int bfs(const struct sm_fabric *f, uint32_t root, struct parent *par)
{
	uint32_t *queue = malloc((size_t)f->topo.n * sizeof(*queue));
	size_t head = 0, tail = 0;

	if (!queue)
		return -ENOMEM;
	for (uint32_t i = 0; i < f->topo.n; i++)
		par[i] = (struct parent){ .node = TOPO_NONE };
	par[root].reached = true;
	queue[tail++] = root;
	while (head < tail) {
		uint32_t n = queue[head++];
		const struct topo_node *tn = &f->topo.nodes[n];
		for (unsigned p = 1; p <= tn->nports; p++) {
			if (!active_switch_link(f, n, p))
				continue;
			uint32_t m = tn->ports[p].peer;
			if (par[m].reached)
				continue;
			par[m] = (struct parent){ .node = n, .up = tn->ports[p].peer_port,
						  .down = (uint8_t)p, .reached = true };
			queue[tail++] = m;
		}
	}
	free(queue);
	return 0;
}

static int add_port(struct sm_mcast_tree *t, uint32_t sw, unsigned port)
{
	if (!t->ports[sw]) {
		t->ports[sw] = calloc(t->words, sizeof(uint64_t));
		if (!t->ports[sw])
			return -ENOMEM;
		t->nswitches++;
	}
	t->ports[sw][port / 64] |= 1ull << (port % 64);
	return 0;
}

/* Join switch @sw to the tree: it and its way up to the root. */
static int graft(struct sm_mcast_tree *t, const struct parent *par, uint32_t sw)
{
	while (par[sw].node != TOPO_NONE) {
		bool had = t->ports[sw] && (t->ports[sw][par[sw].up / 64] &
					    (1ull << (par[sw].up % 64)));
		int rc = add_port(t, sw, par[sw].up);
		if (!rc)
			rc = add_port(t, par[sw].node, par[sw].down);
		if (rc || had)
			return rc;	/* the rest of the way is in already */
		sw = par[sw].node;
	}
	if (!t->ports[sw]) {	/* the root alone */
		if (!(t->ports[sw] = calloc(t->words, sizeof(uint64_t))))
			return -ENOMEM;
		t->nswitches++;
	}
	return 0;
}

int sm_mcast_tree_build(const struct sm_fabric *f, const struct sm_mcast_group *g,
			bool (*port_of)(void *ctx, uint64_t guid, uint32_t *node, uint8_t *port),
			void *ctx, struct sm_mcast_tree *t)
{
	uint32_t root = TOPO_NONE, sw, node;
	uint8_t sw_port, port;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	t->words = 256 / 64;
	for (int pass = 0; pass < 2 && root == TOPO_NONE; pass++)	/* a receiver first */
		for (size_t i = 0; i < g->n && root == TOPO_NONE; i++)
			if ((pass || receives(g->members[i].join)) &&
			    port_of(ctx, g->members[i].guid, &node, &port) &&
			    member_switch(f, node, port, &sw, &sw_port))
				root = sw;
	if (root == TOPO_NONE)
		return 0;
	struct parent *par = malloc((size_t)f->topo.n * sizeof(*par));
	t->ports = calloc(f->topo.n, sizeof(*t->ports));
	t->nnodes = f->topo.n;
	if (!par || !t->ports || bfs(f, root, par)) {
		free(par);
		sm_mcast_tree_free(t);
		return -ENOMEM;
	}
	for (size_t i = 0; i < g->n && !rc; i++) {
		const struct sm_mcast_member *m = &g->members[i];
		if (!port_of(ctx, m->guid, &node, &port) ||
		    !member_switch(f, node, port, &sw, &sw_port) || !par[sw].reached)
			continue;
		rc = graft(t, par, sw);
		if (!rc && receives(m->join))
			rc = add_port(t, sw, sw_port);
	}
	free(par);
	if (rc)
		sm_mcast_tree_free(t);
	return rc;
}

void sm_mcast_tree_free(struct sm_mcast_tree *t)
{
	for (uint32_t i = 0; t->ports && i < t->nnodes; i++)
		free(t->ports[i]);
	free(t->ports);
	memset(t, 0, sizeof(*t));
}

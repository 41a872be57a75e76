// SPDX-License-Identifier: MIT
/*
 * topogen_fabric.c - ibsmd-topogen's fabric model, link removal and writer.
 *
 * Nodes live in one array and their ports in another (node->first_port points
 * at port 1).  A link is stored on both ends.  Link removal shuffles the
 * switch-to-switch links with a seeded splitmix64 generator (the same output on
 * every platform), reserves a spanning forest of the switches from the end of
 * the shuffled list with a union-find, then removes the first links that are
 * not reserved: the fabric stays connected by construction.
 *
 * Output: a comment with the counts and the ibsim limits (-N -S -P -L) this
 * file needs, then one record per node, a blank line after each: H0 first, as
 * the first port of the file is ibsim's SM port, then the switches, then the
 * other hosts (ibsim looks nodes up by a linear scan, so switches early load
 * about twice as fast):
 *     caguid=0x...            (or switchguid=0x...: ibsim and ibnetdiscover
 *     Hca 1 "H0"               dialects both read it as this node's GUID)
 *     [1] "L0"[1]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "contrib/topogen/topogen.h"

/* GUIDs: a locally administered prefix, then the node kind, then its ordinal. */
#define TOPOGEN_GUID_HOST   0x0200000100000000ULL
#define TOPOGEN_GUID_SWITCH 0x0200000200000000ULL
#define TOPOGEN_GUID_STRIDE 16	/* room for a CA's port GUIDs (node + port) */

void topogen_fabric_init(struct topogen_fabric *f)
{
	memset(f, 0, sizeof(*f));
}

void topogen_fabric_free(struct topogen_fabric *f)
{
	free(f->nodes);
	free(f->ports);
	topogen_fabric_init(f);
}

int topogen_fabric_reserve(struct topogen_fabric *f, size_t nnodes, size_t nports)
{
	struct topogen_node *n;
	struct topogen_port *p;

	n = realloc(f->nodes, (f->nnodes + nnodes) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	f->nodes = n;
	f->nodes_cap = f->nnodes + nnodes;
	p = realloc(f->ports, (f->nports + nports) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	f->ports = p;
	f->ports_cap = f->nports + nports;
	return 0;
}

uint32_t topogen_fabric_add(struct topogen_fabric *f, int is_switch,
			    unsigned nports, const char *fmt, ...)
{
	struct topogen_node *n;
	va_list ap;

	if (f->nnodes >= f->nodes_cap || f->nports + nports > f->ports_cap ||
	    nports < 1 || nports > TOPOGEN_MAX_PORTS || (!is_switch && f->nswitches))
		abort();	/* a shape broke its own arithmetic */
	n = &f->nodes[f->nnodes];
	va_start(ap, fmt);
	vsnprintf(n->name, sizeof(n->name), fmt, ap);
	va_end(ap);
	n->is_switch = !!is_switch;
	n->nports = (uint8_t)nports;
	n->ordinal = (uint32_t)(is_switch ? f->nswitches++ : f->nhosts++);
	n->first_port = f->nports;
	memset(&f->ports[f->nports], 0, nports * sizeof(f->ports[0]));
	f->nports += nports;
	return (uint32_t)f->nnodes++;
}

/* The record of @node's port @port (1-based). */
static struct topogen_port *topogen_fabric_port(struct topogen_fabric *f,
						uint32_t node, unsigned port)
{
	return &f->ports[f->nodes[node].first_port + port - 1];
}

void topogen_fabric_link(struct topogen_fabric *f, uint32_t a, unsigned pa,
			 uint32_t b, unsigned pb)
{
	struct topogen_port *x, *y;

	if (a >= f->nnodes || b >= f->nnodes || pa < 1 || pb < 1 ||
	    pa > f->nodes[a].nports || pb > f->nodes[b].nports)
		abort();
	x = topogen_fabric_port(f, a, pa);
	y = topogen_fabric_port(f, b, pb);
	if (x->peer_port || y->peer_port || (a == b && pa == pb))
		abort();
	*x = (struct topogen_port){ .peer = b, .peer_port = (uint8_t)pb };
	*y = (struct topogen_port){ .peer = a, .peer_port = (uint8_t)pa };
	f->nlinks++;
}

/* Node GUID of node @idx; port GUIDs follow ibsim's rule (CA: node + port). */
static uint64_t topogen_fabric_guid(const struct topogen_fabric *f, uint32_t idx)
{
	const struct topogen_node *n = &f->nodes[idx];

	return (n->is_switch ? TOPOGEN_GUID_SWITCH : TOPOGEN_GUID_HOST) +
	       (uint64_t)n->ordinal * TOPOGEN_GUID_STRIDE;
}

int topogen_check_size(unsigned nports, size_t nodes, const char *what,
		       char *err, size_t errlen)
{
	if (nports > TOPOGEN_MAX_PORTS) {
		snprintf(err, errlen, "%s would need %u ports, a switch has at most %d",
			 what, nports, TOPOGEN_MAX_PORTS);
		return -EINVAL;
	}
	if (nodes > TOPOGEN_MAX_LIDS) {
		snprintf(err, errlen, "%s would have %zu nodes, more than the %d unicast LIDs of a subnet",
			 what, nodes, TOPOGEN_MAX_LIDS);
		return -EINVAL;
	}
	return 0;
}

/* --- link removal --------------------------------------------------------- */

/* splitmix64 (Steele, Lea, Flood 2014): one 64-bit state, good enough mixing. */
static uint64_t topogen_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Union-find over switch ordinals, path halving. */
static uint32_t topogen_find(uint32_t *parent, uint32_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

/* One end of a link: the lower-numbered node's side. */
struct topogen_end {
	uint32_t node;
	unsigned port;
};

/* Collect one end of every switch-to-switch link into @out; returns how many. */
static size_t topogen_switch_links(const struct topogen_fabric *f,
				   struct topogen_end *out)
{
	size_t n = 0;

	for (uint32_t i = 0; i < f->nnodes; i++) {
		const struct topogen_node *nd = &f->nodes[i];

		if (!nd->is_switch)
			continue;
		for (unsigned p = 1; p <= nd->nports; p++) {
			const struct topogen_port *pt = &f->ports[nd->first_port + p - 1];

			if (pt->peer_port && f->nodes[pt->peer].is_switch &&
			    (pt->peer > i || (pt->peer == i && pt->peer_port > p)))
				out[n++] = (struct topogen_end){ i, p };
		}
	}
	return n;
}

/*
 * Mark in @keep the links of a spanning forest of the switches, taken from the
 * end of @links.  Returns how many are kept.
 */
static size_t topogen_reserve_forest(struct topogen_fabric *f,
				     const struct topogen_end *links, size_t nlinks,
				     uint32_t *parent, uint8_t *keep)
{
	size_t kept = 0;

	for (uint32_t s = 0; s < f->nswitches; s++)
		parent[s] = s;
	for (size_t i = nlinks; i-- > 0;) {
		const struct topogen_port *pt =
			topogen_fabric_port(f, links[i].node, links[i].port);
		uint32_t a = topogen_find(parent, f->nodes[links[i].node].ordinal);
		uint32_t b = topogen_find(parent, f->nodes[pt->peer].ordinal);

		if (a != b) {
			parent[a] = b;
			keep[i] = 1;
			kept++;
		}
	}
	return kept;
}

static void topogen_unlink(struct topogen_fabric *f, struct topogen_end e)
{
	struct topogen_port *x = topogen_fabric_port(f, e.node, e.port);
	struct topogen_port *y = topogen_fabric_port(f, x->peer, x->peer_port);

	*y = (struct topogen_port){ 0 };
	*x = (struct topogen_port){ 0 };
	f->nlinks--;
}

int topogen_fabric_remove_links(struct topogen_fabric *f, double pct,
				uint64_t seed, char *err, size_t errlen)
{
	struct topogen_end *links = malloc(f->nlinks * sizeof(*links) + 1);
	uint32_t *parent = malloc(f->nswitches * sizeof(*parent) + 1);
	uint8_t *keep = calloc(f->nlinks + 1, 1);
	size_t nlinks, want, kept, removed = 0;
	uint64_t state = seed;
	int rc = 0;

	if (!links || !parent || !keep) {
		rc = -ENOMEM;
		goto out;
	}
	nlinks = topogen_switch_links(f, links);
	want = (size_t)((double)nlinks * pct / 100.0 + 1e-9);
	for (size_t i = nlinks; i > 1; i--) {	/* Fisher-Yates */
		size_t j = (size_t)(topogen_rand(&state) % i);
		struct topogen_end t = links[i - 1];

		links[i - 1] = links[j];
		links[j] = t;
	}
	kept = topogen_reserve_forest(f, links, nlinks, parent, keep);
	if (want > nlinks - kept) {
		snprintf(err, errlen,
			 "removing %g%% of %zu switch links is %zu links, but only %zu can go without disconnecting the fabric",
			 pct, nlinks, want, nlinks - kept);
		rc = -EINVAL;
		goto out;
	}
	for (size_t i = 0; removed < want; i++) {
		if (!keep[i]) {
			topogen_unlink(f, links[i]);
			removed++;
		}
	}
out:
	free(links);
	free(parent);
	free(keep);
	return rc;
}

/* --- writer --------------------------------------------------------------- */

static void topogen_write_node(const struct topogen_fabric *f, uint32_t idx,
			       FILE *out)
{
	const struct topogen_node *n = &f->nodes[idx];

	fprintf(out, "%s=0x%016" PRIx64 "\n%s %u \"%s\"\n",
		n->is_switch ? "switchguid" : "caguid", topogen_fabric_guid(f, idx),
		n->is_switch ? "Switch" : "Hca", n->nports, n->name);
	for (unsigned p = 1; p <= n->nports; p++) {
		const struct topogen_port *pt = &f->ports[n->first_port + p - 1];

		if (pt->peer_port)
			fprintf(out, "[%u] \"%s\"[%u]\n", p, f->nodes[pt->peer].name,
				pt->peer_port);
	}
	fputc('\n', out);
}

/* ibsim reserves NumPorts ports per CA and NumPorts + 1 per switch (port 0). */
static size_t topogen_ibsim_ports(const struct topogen_fabric *f)
{
	return f->nports + f->nswitches;
}

int topogen_fabric_write(const struct topogen_fabric *f, FILE *out)
{
	fprintf(out, "# ibsmd-topogen %s\n# %zu hosts, %zu switches, %zu links\n"
		"# ibsim limits: -N %zu -S %zu -P %zu -L %d\n\n",
		f->comment, f->nhosts, f->nswitches, f->nlinks, f->nnodes,
		f->nswitches, topogen_ibsim_ports(f), TOPOGEN_MAX_LIDS + 1);
	/* H0 first (the SM port), then the switches, then the other hosts. */
	topogen_write_node(f, 0, out);
	for (uint32_t i = (uint32_t)f->nhosts; i < f->nnodes; i++)
		topogen_write_node(f, i, out);
	for (uint32_t i = 1; i < f->nhosts; i++)
		topogen_write_node(f, i, out);
	if (fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * topogen_dragonfly.c - dragonfly fabrics (Kim, Dally, Scott, Abts, ISCA 2008).
 *
 * G groups of A routers R<g>.<r>; each router has P hosts, a link to every
 * other router of its group and H global links.  Ports of a router:
 *     1..P                hosts, H<n> on router n / P, port n % P + 1
 *     P+1..P+A-1          local: to the group's other routers in index order
 *     P+A..P+A-1+H        global
 * A group has A*H global slots, slot k = router k / H, global port k % H.
 * Every pair of groups is joined by exactly one global link ("consecutive"
 * arrangement): slot k of group g goes to group k < g ? k : k + 1, which uses
 * its slot g > k ? g - 1 : g.  So G <= A*H + 1; with fewer groups the last
 * slots stay unlinked.  Defaults are the balanced A = 2P = 2H: P = 2, A = 4,
 * H = 2, G = A*H + 1 = 9 (72 hosts, 36 routers of 7 ports).
 */
#include <errno.h>

#include "contrib/topogen/topogen.h"

struct topogen_df {
	unsigned groups, routers, hosts, global;
	uint32_t first;		/* index of R0.0 */
};

static int topogen_dragonfly_check(const struct topogen_opts *o,
				   struct topogen_df *t, char *err, size_t errlen)
{
	t->routers = o->routers ? o->routers : 4;
	t->hosts = o->hosts_per_router ? o->hosts_per_router : 2;
	t->global = o->global_links ? o->global_links : 2;
	t->groups = o->groups ? o->groups : t->routers * t->global + 1;
	if (t->groups < 2 || t->groups > t->routers * t->global + 1) {
		snprintf(err, errlen,
			 "--groups must be between 2 and routers * global links + 1 = %u",
			 t->routers * t->global + 1);
		return -EINVAL;
	}
	return 0;
}

static uint32_t topogen_dragonfly_router(const struct topogen_df *t, unsigned g,
					 unsigned r)
{
	return t->first + g * t->routers + r;
}

/* Local links: router r's port P+1+i goes to the i-th other router of its group. */
static void topogen_dragonfly_local(struct topogen_fabric *f,
				    const struct topogen_df *t, unsigned g)
{
	for (unsigned r = 0; r < t->routers; r++)
		for (unsigned q = r + 1; q < t->routers; q++)
			topogen_fabric_link(f, topogen_dragonfly_router(t, g, r),
					    t->hosts + q,	/* q > r: index q - 1 */
					    topogen_dragonfly_router(t, g, q),
					    t->hosts + 1 + r);
}

/* Global links of group g to every higher-numbered group. */
static void topogen_dragonfly_global(struct topogen_fabric *f,
				     const struct topogen_df *t, unsigned g)
{
	unsigned base = t->hosts + t->routers;	/* port of global link 0 */

	for (unsigned k = g; k + 1 < t->groups; k++) {
		unsigned peer = k + 1;	/* slot k >= g goes to group k + 1 */
		unsigned back = g;	/* peer > g: its slot g comes back */

		topogen_fabric_link(f,
				    topogen_dragonfly_router(t, g, k / t->global),
				    base + k % t->global,
				    topogen_dragonfly_router(t, peer, back / t->global),
				    base + back % t->global);
	}
}

int topogen_dragonfly(const struct topogen_opts *o, struct topogen_fabric *f,
		      char *err, size_t errlen)
{
	struct topogen_df t;
	unsigned nports;
	size_t nrouters, nhosts;
	int rc = topogen_dragonfly_check(o, &t, err, errlen);

	if (rc)
		return rc;
	nports = t.hosts + t.routers - 1 + t.global;
	nrouters = (size_t)t.groups * t.routers;
	nhosts = nrouters * t.hosts;
	rc = topogen_check_size(nports, nhosts + nrouters, "this dragonfly", err, errlen);
	if (rc)
		return rc;
	rc = topogen_fabric_reserve(f, nhosts + nrouters, nhosts + nrouters * nports);
	if (rc)
		return rc;
	for (size_t h = 0; h < nhosts; h++)
		topogen_fabric_add(f, 0, 1, "H%zu", h);
	t.first = (uint32_t)nhosts;
	for (unsigned g = 0; g < t.groups; g++) {
		for (unsigned r = 0; r < t.routers; r++) {
			uint32_t sw = topogen_fabric_add(f, 1, nports, "R%u.%u", g, r);
			size_t h0 = (size_t)(sw - t.first) * t.hosts;

			for (unsigned p = 1; p <= t.hosts; p++)
				topogen_fabric_link(f, (uint32_t)(h0 + p - 1), 1, sw, p);
		}
	}
	for (unsigned g = 0; g < t.groups; g++) {
		topogen_dragonfly_local(f, &t, g);
		topogen_dragonfly_global(f, &t, g);
	}
	snprintf(f->comment, sizeof(f->comment),
		 "dragonfly --groups %u --routers %u --hosts-per-router %u --global-links %u",
		 t.groups, t.routers, t.hosts, t.global);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * topogen_fattree.c - k-ary fat trees of radix-K switches, 2 or 3 levels.
 *
 * Every switch has K ports.  A leaf gives its first D ports to hosts and its
 * last U to the level above, D + U = K (D = U = K/2 unless oversubscribed
 * D:U).  Leaf port D+1+a goes to the a-th switch above it.
 *
 *   2 levels: K leaves L<i>, U spines S<s>.  Spine S<s> port 1+i = L<i> port D+1+s.
 *             K*D hosts, K+U switches (K=36: 648 hosts, 54 switches).
 *   3 levels: K pods of K/2 leaves L<p>.<i> and U aggregation switches A<p>.<a>;
 *             U*K/2 cores C<a>.<j>.  A<p>.<a> port 1+i = L<p>.<i> port D+1+a;
 *             A<p>.<a> port K/2+1+j = C<a>.<j> port 1+p.
 *             K*K/2*D hosts; K=16: 1,024 hosts, 320 switches; K=48: 27,648 and 2,880.
 *
 * Hosts H<n> are numbered leaf by leaf (global leaf index = pod * K/2 + i),
 * then by leaf port: H<n> sits on leaf n / D, port n % D + 1.
 *
 * Rails (--rails R): the leaves form units of R consecutive leaves (within a
 * pod), each unit serving D nodes of R HCAs: HCA i of the unit's node j is
 * on the unit's leaf i, port j + 1, and is named "node<N> mlx5_<i>" (N =
 * unit * D + j), as a host reports itself.  --miswire N:I cables node N's
 * HCA I into the port of its HCA (I + 1) % R, on that rail's leaf, and
 * leaves HCA (I + 1) % R unplugged: one HCA on the wrong rail.
 */
#include <errno.h>

#include "contrib/topogen/topogen.h"

struct topogen_ft {
	unsigned k, down, up;
	unsigned pods, leaves_per_pod;	/* 2 levels: 1 pod of K leaves */
	uint32_t first_leaf, first_mid;
};

static int topogen_fattree_check(const struct topogen_opts *o,
				 struct topogen_ft *t, char *err, size_t errlen)
{
	unsigned n = o->over_down ? o->over_down : 1;
	unsigned m = o->over_down ? o->over_up : 1;

	if (o->levels != 2 && o->levels != 3) {
		snprintf(err, errlen, "--levels must be 2 or 3");
		return -EINVAL;
	}
	if (o->radix < 4 || o->radix % 2 || o->radix > TOPOGEN_MAX_PORTS) {
		snprintf(err, errlen, "--radix must be even, at least 4 and at most %d",
			 TOPOGEN_MAX_PORTS);
		return -EINVAL;
	}
	unsigned lpp = o->levels == 2 ? o->radix : o->radix / 2;
	if (o->rails && (o->rails < 2 || o->rails > 64 || lpp % o->rails)) {
		snprintf(err, errlen, "--rails must be 2 to 64 and divide the %u leaves of %s",
			 lpp, o->levels == 2 ? "the tree" : "a pod");
		return -EINVAL;
	}
	if ((o->radix * n) % (n + m)) {
		snprintf(err, errlen, "--oversubscription %u:%u does not split %u leaf ports",
			 n, m, o->radix);
		return -EINVAL;
	}
	t->k = o->radix;
	t->down = t->k * n / (n + m);
	t->up = t->k - t->down;
	t->pods = o->levels == 2 ? 1 : t->k;
	t->leaves_per_pod = o->levels == 2 ? t->k : t->k / 2;
	if (o->miswire && (o->miswire_hca >= o->rails ||
			   o->miswire_node >= t->pods * t->leaves_per_pod / o->rails * t->down)) {
		snprintf(err, errlen, "--miswire %u:%u names no HCA of this fabric (%u nodes of "
			 "%u HCAs)", o->miswire_node, o->miswire_hca,
			 t->pods * t->leaves_per_pod / o->rails * t->down, o->rails);
		return -EINVAL;
	}
	return 0;
}

/* Hosts and leaves: H<n> on leaf n / D, port n % D + 1; with rails, the
 * HCA --miswire names on the next rail's leaf and that one unplugged. */
static void topogen_fattree_leaves(struct topogen_fabric *f, const struct topogen_ft *t,
				   const struct topogen_opts *o)
{
	unsigned nleaves = t->pods * t->leaves_per_pod;
	uint32_t first = (uint32_t)f->nnodes;

	for (uint32_t l = 0; l < nleaves; l++) {
		if (o->levels == 2)
			topogen_fabric_add(f, 1, t->k, "L%u", l);
		else
			topogen_fabric_add(f, 1, t->k, "L%u.%u", l / t->leaves_per_pod,
					   l % t->leaves_per_pod);
	}
	for (uint32_t l = 0; l < nleaves; l++) {
		for (unsigned p = 1; p <= t->down; p++) {
			uint32_t h = l * t->down + p - 1, leaf = first + l;
			if (o->miswire) {
				uint32_t unit = l / o->rails, hca = l % o->rails;
				uint32_t node = unit * t->down + p - 1;
				uint32_t next = (o->miswire_hca + 1) % o->rails;
				if (node == o->miswire_node && hca == next)
					continue;	/* its port took the miswired HCA */
				if (node == o->miswire_node && hca == o->miswire_hca)
					leaf = first + unit * o->rails + next;
			}
			topogen_fabric_link(f, h, 1, leaf, p);
		}
	}
}

/* Host @h's name: H<h>, or with rails "node<N> mlx5_<i>". */
static void topogen_fattree_host(struct topogen_fabric *f, const struct topogen_ft *t,
				 const struct topogen_opts *o, size_t h)
{
	if (!o->rails) {
		topogen_fabric_add(f, 0, 1, "H%zu", h);
		return;
	}
	size_t leaf = h / t->down, port = h % t->down;
	topogen_fabric_add(f, 0, 1, "node%zu mlx5_%zu", leaf / o->rails * t->down + port,
			   leaf % o->rails);
}

/* The switches right above the leaves: spines (2 levels) or aggregation. */
static void topogen_fattree_mids(struct topogen_fabric *f,
				 const struct topogen_ft *t, int levels)
{
	for (unsigned pod = 0; pod < t->pods; pod++) {
		for (unsigned a = 0; a < t->up; a++) {
			uint32_t mid;

			if (levels == 2)
				mid = topogen_fabric_add(f, 1, t->k, "S%u", a);
			else
				mid = topogen_fabric_add(f, 1, t->k, "A%u.%u", pod, a);
			for (unsigned i = 0; i < t->leaves_per_pod; i++)
				topogen_fabric_link(f, mid, 1 + i,
						    t->first_leaf + pod * t->leaves_per_pod + i,
						    t->down + 1 + a);
		}
	}
}

/* Cores C<a>.<j>: port 1+p to A<p>.<a> port K/2+1+j. */
static void topogen_fattree_cores(struct topogen_fabric *f,
				  const struct topogen_ft *t)
{
	unsigned half = t->k / 2;

	for (unsigned a = 0; a < t->up; a++) {
		for (unsigned j = 0; j < half; j++) {
			uint32_t core = topogen_fabric_add(f, 1, t->k, "C%u.%u", a, j);

			for (unsigned p = 0; p < t->pods; p++)
				topogen_fabric_link(f, core, 1 + p,
						    t->first_mid + p * t->up + a,
						    half + 1 + j);
		}
	}
}

int topogen_fattree(const struct topogen_opts *o, struct topogen_fabric *f,
		    char *err, size_t errlen)
{
	struct topogen_ft t;
	size_t nleaves, nmids, ncores, nhosts, nswitches;
	int rc = topogen_fattree_check(o, &t, err, errlen);

	if (rc)
		return rc;
	nleaves = (size_t)t.pods * t.leaves_per_pod;
	nmids = (size_t)t.pods * t.up;
	ncores = o->levels == 3 ? (size_t)t.up * t.k / 2 : 0;
	nhosts = nleaves * t.down;
	nswitches = nleaves + nmids + ncores;
	rc = topogen_check_size(t.k, nhosts + nswitches, "this fat tree", err, errlen);
	if (rc)
		return rc;
	rc = topogen_fabric_reserve(f, nhosts + nswitches, nhosts + nswitches * t.k);
	if (rc)
		return rc;
	for (size_t h = 0; h < nhosts; h++)
		topogen_fattree_host(f, &t, o, h);
	t.first_leaf = (uint32_t)nhosts;
	t.first_mid = (uint32_t)(nhosts + nleaves);
	topogen_fattree_leaves(f, &t, o);
	topogen_fattree_mids(f, &t, (int)o->levels);
	if (o->levels == 3)
		topogen_fattree_cores(f, &t);
	rc = snprintf(f->comment, sizeof(f->comment), "fattree --levels %u --radix %u",
		      o->levels, t.k);
	if (o->over_down)
		rc += snprintf(f->comment + rc, sizeof(f->comment) - (size_t)rc,
			       " --oversubscription %u:%u", o->over_down, o->over_up);
	if (o->rails)
		rc += snprintf(f->comment + rc, sizeof(f->comment) - (size_t)rc, " --rails %u",
			       o->rails);
	if (o->miswire)
		snprintf(f->comment + rc, sizeof(f->comment) - (size_t)rc, " --miswire %u:%u",
			 o->miswire_node, o->miswire_hca);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * topogen_grid.c - tori (with wraparound) and meshes (without), any number of
 * dimensions.
 *
 * One switch per grid point, named S<c0>.<c1>..., in row-major order (the last
 * coordinate changes fastest).  A switch has N host ports then two ports per
 * dimension d:
 *     ports 1..N         hosts, H<n> on switch n / N, port n % N + 1
 *     port N+1+2d        towards coordinate + 1 in dimension d
 *     port N+2+2d        towards coordinate - 1 in dimension d
 * so port N+1+2d of one switch is linked to port N+2+2d of the next.  In a
 * torus the last switch of a row links back to the first (a dimension of size
 * 2 thus gives two parallel links); in a mesh the edge ports stay unlinked.
 */
#include <errno.h>
#include <string.h>

#include "contrib/topogen/topogen.h"

static int topogen_grid_check(const struct topogen_opts *o, int torus,
			      size_t *nswitches, char *err, size_t errlen)
{
	unsigned min = torus ? 2 : 1;

	if (!o->ndims) {
		snprintf(err, errlen, "%s needs --dims, e.g. --dims 4x4x4", o->shape);
		return -EINVAL;
	}
	*nswitches = 1;
	for (unsigned d = 0; d < o->ndims; d++) {
		if (o->dims[d] < min) {
			snprintf(err, errlen, "--dims: every size of a %s must be at least %u",
				 o->shape, min);
			return -EINVAL;
		}
		*nswitches *= o->dims[d];
		if (*nswitches > TOPOGEN_MAX_LIDS)
			break;	/* topogen_check_size() says why */
	}
	return 0;
}

/* Name switch @s after its coordinates. */
static void topogen_grid_name(const struct topogen_opts *o, size_t s, char *buf,
			      size_t len)
{
	size_t coord[TOPOGEN_MAX_DIMS];
	int off = snprintf(buf, len, "S");

	for (unsigned d = o->ndims; d-- > 0;) {
		coord[d] = s % o->dims[d];
		s /= o->dims[d];
	}
	for (unsigned d = 0; d < o->ndims; d++)
		off += snprintf(buf + off, len - (size_t)off, d ? ".%zu" : "%zu", coord[d]);
}

/* Link every switch to its + neighbour in each dimension. */
static void topogen_grid_links(struct topogen_fabric *f,
			       const struct topogen_opts *o, int torus,
			       uint32_t first, size_t nswitches, unsigned hps)
{
	size_t stride = nswitches;

	for (unsigned d = 0; d < o->ndims; d++) {
		size_t size = o->dims[d];

		stride /= size;	/* distance between neighbours in dimension d */
		for (size_t s = 0; s < nswitches; s++) {
			size_t c = s / stride % size;
			size_t next = c + 1 < size ? s + stride : s - c * stride;

			if (c + 1 < size || torus)
				topogen_fabric_link(f, first + (uint32_t)s, hps + 1 + 2 * d,
						    first + (uint32_t)next, hps + 2 + 2 * d);
		}
	}
}

int topogen_grid(const struct topogen_opts *o, struct topogen_fabric *f,
		 char *err, size_t errlen)
{
	int torus = !strcmp(o->shape, "torus");
	unsigned hps = o->hosts_per_switch ? o->hosts_per_switch : 1;
	unsigned nports = hps + 2 * o->ndims;
	size_t nswitches, nhosts;
	char name[TOPOGEN_NAME_MAX];
	int rc, off;

	rc = topogen_grid_check(o, torus, &nswitches, err, errlen);
	if (rc)
		return rc;
	nhosts = nswitches * hps;
	rc = topogen_check_size(nports, nhosts + nswitches, o->shape, err, errlen);
	if (rc)
		return rc;
	rc = topogen_fabric_reserve(f, nhosts + nswitches, nhosts + nswitches * nports);
	if (rc)
		return rc;
	for (size_t h = 0; h < nhosts; h++)
		topogen_fabric_add(f, 0, 1, "H%zu", h);
	for (size_t s = 0; s < nswitches; s++) {
		uint32_t sw;

		topogen_grid_name(o, s, name, sizeof(name));
		sw = topogen_fabric_add(f, 1, nports, "%s", name);
		for (unsigned p = 1; p <= hps; p++)
			topogen_fabric_link(f, (uint32_t)(s * hps + p - 1), 1, sw, p);
	}
	topogen_grid_links(f, o, torus, (uint32_t)nhosts, nswitches, hps);
	off = snprintf(f->comment, sizeof(f->comment), "%s --dims %u", o->shape,
		       o->dims[0]);
	for (unsigned d = 1; d < o->ndims; d++)
		off += snprintf(f->comment + off, sizeof(f->comment) - (size_t)off,
				"x%u", o->dims[d]);
	snprintf(f->comment + off, sizeof(f->comment) - (size_t)off,
		 " --hosts-per-switch %u", hps);
	return 0;
}

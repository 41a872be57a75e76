// SPDX-License-Identifier: MIT
/*
 * ibsmd-topogen.c - write fabrics in ibsim's net format.
 *
 * Flow: parse "SHAPE [options]" into struct topogen_opts (every option must
 * apply to the shape), let the shape build the fabric model, remove links if
 * asked, write it to stdout or -o FILE.  Bad arguments: a message, the usage,
 * exit 2.  Runtime failures (memory, writing): a message, exit 1.
 * See ibsmd-topogen(1) for names, port numbering and GUIDs.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "contrib/topogen/topogen.h"

#define TOPOGEN_EXIT_USAGE 2
#define TOPOGEN_NUM_MAX 65535	/* any count given on the command line */

enum topogen_opt {
	OPT_LEVELS = 256, OPT_RADIX, OPT_OVERSUB, OPT_DIMS, OPT_HPS, OPT_GROUPS,
	OPT_ROUTERS, OPT_HPR, OPT_GLOBAL, OPT_REMOVE, OPT_SEED, OPT_RAILS, OPT_MISWIRE,
};

enum topogen_shape {
	SHAPE_FATTREE = 1, SHAPE_TORUS = 2, SHAPE_MESH = 4, SHAPE_DRAGONFLY = 8,
	SHAPE_ANY = 15,
};

static const struct topogen_shapeinfo {
	const char *name;
	unsigned bit;
} topogen_shapes[] = {
	{ "fattree", SHAPE_FATTREE }, { "torus", SHAPE_TORUS },
	{ "mesh", SHAPE_MESH }, { "dragonfly", SHAPE_DRAGONFLY },
};

/* Which shapes take which option. */
static const struct topogen_optinfo {
	int id;
	unsigned shapes;
} topogen_optinfo[] = {
	{ OPT_LEVELS, SHAPE_FATTREE }, { OPT_RADIX, SHAPE_FATTREE },
	{ OPT_OVERSUB, SHAPE_FATTREE }, { OPT_RAILS, SHAPE_FATTREE },
	{ OPT_MISWIRE, SHAPE_FATTREE }, { OPT_DIMS, SHAPE_TORUS | SHAPE_MESH },
	{ OPT_HPS, SHAPE_TORUS | SHAPE_MESH }, { OPT_GROUPS, SHAPE_DRAGONFLY },
	{ OPT_ROUTERS, SHAPE_DRAGONFLY }, { OPT_HPR, SHAPE_DRAGONFLY },
	{ OPT_GLOBAL, SHAPE_DRAGONFLY }, { OPT_REMOVE, SHAPE_ANY },
	{ OPT_SEED, SHAPE_ANY }, { 'o', SHAPE_ANY },
};

static const struct option topogen_longopts[] = {
	{ "levels", required_argument, NULL, OPT_LEVELS },
	{ "radix", required_argument, NULL, OPT_RADIX },
	{ "oversubscription", required_argument, NULL, OPT_OVERSUB },
	{ "rails", required_argument, NULL, OPT_RAILS },
	{ "miswire", required_argument, NULL, OPT_MISWIRE },
	{ "dims", required_argument, NULL, OPT_DIMS },
	{ "hosts-per-switch", required_argument, NULL, OPT_HPS },
	{ "groups", required_argument, NULL, OPT_GROUPS },
	{ "routers", required_argument, NULL, OPT_ROUTERS },
	{ "hosts-per-router", required_argument, NULL, OPT_HPR },
	{ "global-links", required_argument, NULL, OPT_GLOBAL },
	{ "remove-links", required_argument, NULL, OPT_REMOVE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void topogen_usage(FILE *out)
{
	fputs("usage: ibsmd-topogen SHAPE [options] [-o FILE]\n"
	      "  fattree --levels 2|3 --radix K [--oversubscription DOWN:UP]\n"
	      "          [--rails R [--miswire NODE:HCA]]\n"
	      "  torus --dims AxB[xC...] [--hosts-per-switch N]\n"
	      "  mesh --dims AxB[xC...] [--hosts-per-switch N]\n"
	      "  dragonfly [--groups G] [--routers A] [--hosts-per-router P] [--global-links H]\n"
	      "any shape: [--remove-links PCT [--seed S]] [-o FILE]\n"
	      "Writes an ibsim net file (stdout by default).  See ibsmd-topogen(1).\n",
	      out);
}

static int topogen_fail(const char *msg)
{
	fprintf(stderr, "ibsmd-topogen: %s\n", msg);
	topogen_usage(stderr);
	return TOPOGEN_EXIT_USAGE;
}

/* A count 1..TOPOGEN_NUM_MAX, or 0 if @s is not one. */
static unsigned topogen_count(const char *s)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > TOPOGEN_NUM_MAX)
		return 0;
	return (unsigned)v;
}

/* "4x4x4" into o->dims. */
static int topogen_parse_dims(const char *s, struct topogen_opts *o)
{
	char buf[128], *save = NULL, *tok;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	o->ndims = 0;
	for (tok = strtok_r(buf, "x", &save); tok; tok = strtok_r(NULL, "x", &save)) {
		if (o->ndims == TOPOGEN_MAX_DIMS || !(o->dims[o->ndims] = topogen_count(tok)))
			return -EINVAL;
		o->ndims++;
	}
	if (!o->ndims || s[0] == 'x' || s[strlen(s) - 1] == 'x' || strstr(s, "xx"))
		return -EINVAL;
	return 0;
}

/* "A:B" into *@a and *@b; @zero: 0 is a value too.  0 or -EINVAL. */
static int topogen_parse_pair(const char *s, unsigned *a, unsigned *b, int zero)
{
	const char *colon = strchr(s, ':');
	char left[16];

	if (!colon || (size_t)(colon - s) >= sizeof(left))
		return -EINVAL;
	memcpy(left, s, (size_t)(colon - s));
	left[colon - s] = '\0';
	if (zero && !strcmp(left, "0"))
		*a = 0;
	else if (!(*a = topogen_count(left)))
		return -EINVAL;
	if (zero && !strcmp(colon + 1, "0"))
		*b = 0;
	else if (!(*b = topogen_count(colon + 1)))
		return -EINVAL;
	return 0;
}

static int topogen_parse_pct(const char *s, double *pct)
{
	char *end;

	errno = 0;
	*pct = strtod(s, &end);
	if (errno || end == s || *end || !(*pct >= 0.0 && *pct <= 100.0))
		return -EINVAL;
	return 0;
}

static int topogen_parse_seed(const char *s, uint64_t *seed)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*seed = strtoull(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

/* The bit of shape @name, 0 if there is no such shape. */
static unsigned topogen_shape_bit(const char *name)
{
	for (size_t i = 0; i < sizeof(topogen_shapes) / sizeof(topogen_shapes[0]); i++)
		if (!strcmp(topogen_shapes[i].name, name))
			return topogen_shapes[i].bit;
	return 0;
}

/* Is option @id allowed for the shape of bit @shape? */
static int topogen_applies(int id, unsigned shape)
{
	for (size_t i = 0; i < sizeof(topogen_optinfo) / sizeof(topogen_optinfo[0]); i++)
		if (topogen_optinfo[i].id == id)
			return !!(topogen_optinfo[i].shapes & shape);
	return 0;
}

static const char *topogen_optname(int c)
{
	for (const struct option *lo = topogen_longopts; lo->name; lo++)
		if (lo->val == c)
			return lo->name;
	return "?";
}

/* Store option @c with argument @arg in @o; -EINVAL with a message in @err. */
static int topogen_set(struct topogen_opts *o, int c, const char *arg,
		       const char **outfile, char *err, size_t errlen)
{
	unsigned *count = NULL;
	int rc = 0;

	switch (c) {
	case OPT_LEVELS:  count = &o->levels; break;
	case OPT_RADIX:   count = &o->radix; break;
	case OPT_HPS:     count = &o->hosts_per_switch; break;
	case OPT_GROUPS:  count = &o->groups; break;
	case OPT_ROUTERS: count = &o->routers; break;
	case OPT_HPR:     count = &o->hosts_per_router; break;
	case OPT_GLOBAL:  count = &o->global_links; break;
	case OPT_OVERSUB: rc = topogen_parse_pair(arg, &o->over_down, &o->over_up, 0); break;
	case OPT_RAILS:   count = &o->rails; break;
	case OPT_MISWIRE:
		rc = topogen_parse_pair(arg, &o->miswire_node, &o->miswire_hca, 1);
		o->miswire = 1;
		break;
	case OPT_DIMS:    rc = topogen_parse_dims(arg, o); break;
	case OPT_REMOVE:  rc = topogen_parse_pct(arg, &o->remove_pct); break;
	case OPT_SEED:    rc = topogen_parse_seed(arg, &o->seed); break;
	case 'o':         *outfile = arg; break;
	}
	if (count && !(*count = topogen_count(arg)))
		rc = -EINVAL;
	if (rc)
		snprintf(err, errlen, "bad value '%s' for --%s%s", arg, topogen_optname(c),
			 c == OPT_REMOVE ? " (a percentage, 0 to 100)" :
			 c == OPT_DIMS ? " (sizes joined by x, e.g. 4x4x4)" :
			 c == OPT_OVERSUB ? " (DOWN:UP, e.g. 2:1)" :
			 c == OPT_MISWIRE ? " (NODE:HCA, e.g. 17:3)" : "");
	return rc;
}

/* Parse argv into @o; returns 0, or an exit code (usage printed). */
static int topogen_parse(int argc, char **argv, struct topogen_opts *o,
			 const char **outfile)
{
	char err[256];
	unsigned shape;
	int c, seed_given = 0;

	if (argc < 2)
		return topogen_fail("no shape given");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		topogen_usage(stdout);
		exit(0);
	}
	o->shape = argv[1];
	shape = topogen_shape_bit(o->shape);
	if (!shape) {
		snprintf(err, sizeof(err), "unknown shape '%s'", o->shape);
		return topogen_fail(err);
	}
	optind = 2;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", topogen_longopts, NULL)) != -1) {
		if (c == 'h') {
			topogen_usage(stdout);
			exit(0);
		}
		if (c == '?' || c == ':') {
			snprintf(err, sizeof(err), "bad or incomplete option '%s'",
				 argv[optind - 1]);
			return topogen_fail(err);
		}
		if (!topogen_applies(c, shape)) {
			snprintf(err, sizeof(err), "--%s does not apply to %s",
				 topogen_optname(c), o->shape);
			return topogen_fail(err);
		}
		if (topogen_set(o, c, optarg, outfile, err, sizeof(err)))
			return topogen_fail(err);
		seed_given |= c == OPT_SEED;
	}
	if (optind < argc) {
		snprintf(err, sizeof(err), "unexpected argument '%s'", argv[optind]);
		return topogen_fail(err);
	}
	if (seed_given && o->remove_pct < 0)
		return topogen_fail("--seed only goes with --remove-links");
	if (o->miswire && !o->rails)
		return topogen_fail("--miswire only goes with --rails");
	return 0;
}

/* Build the fabric of @o into @f; 0 or an exit code (message printed). */
static int topogen_build(const struct topogen_opts *o, struct topogen_fabric *f)
{
	char err[256] = "";
	size_t off;
	int rc;

	if (!strcmp(o->shape, "fattree"))
		rc = topogen_fattree(o, f, err, sizeof(err));
	else if (!strcmp(o->shape, "dragonfly"))
		rc = topogen_dragonfly(o, f, err, sizeof(err));
	else
		rc = topogen_grid(o, f, err, sizeof(err));
	if (!rc && o->remove_pct >= 0) {
		rc = topogen_fabric_remove_links(f, o->remove_pct, o->seed, err, sizeof(err));
		off = strlen(f->comment);
		snprintf(f->comment + off, sizeof(f->comment) - off,
			 " --remove-links %g --seed %" PRIu64, o->remove_pct, o->seed);
	}
	if (rc == -EINVAL)
		return topogen_fail(err);
	if (rc) {
		fprintf(stderr, "ibsmd-topogen: %s\n", strerror(-rc));
		return 1;
	}
	return 0;
}

static int topogen_output(const struct topogen_fabric *f, const char *outfile)
{
	static char buf[1 << 20];
	FILE *out = outfile ? fopen(outfile, "w") : stdout;
	int rc;

	if (!out) {
		fprintf(stderr, "ibsmd-topogen: %s: %s\n", outfile, strerror(errno));
		return 1;
	}
	setvbuf(out, buf, _IOFBF, sizeof(buf));
	rc = topogen_fabric_write(f, out);
	if ((outfile && fclose(out)) || rc) {
		fprintf(stderr, "ibsmd-topogen: %s: %s\n", outfile ? outfile : "stdout",
			strerror(rc ? -rc : errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct topogen_opts o = { .remove_pct = -1.0, .seed = 1 };
	struct topogen_fabric f;
	const char *outfile = NULL;
	int rc = topogen_parse(argc, argv, &o, &outfile);

	if (rc)
		return rc;
	topogen_fabric_init(&f);
	rc = topogen_build(&o, &f);
	if (!rc)
		rc = topogen_output(&f, outfile);
	topogen_fabric_free(&f);
	return rc;
}

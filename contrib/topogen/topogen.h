/* SPDX-License-Identifier: MIT */
/*
 * topogen.h - the fabric model shared by ibsmd-topogen's shapes and writer.
 *
 * A shape (fat tree, torus/mesh, dragonfly) validates its options, then fills a
 * struct topogen_fabric: every host first (H0..Hn-1, in the order of the switch
 * they hang on, then that switch's port), then the switches, then the links
 * between numbered ports.  Optionally some switch-to-switch links are removed;
 * finally the writer prints the nodes in index order in ibsim's net format, so
 * H0 is the first record and thus ibsim's default SM attach point.
 *
 * Errors: functions return 0 or -errno and, for -EINVAL, leave a one-line
 * explanation for the user in the caller's buffer.
 */
#ifndef IBSMD_TOPOGEN_H
#define IBSMD_TOPOGEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TOPOGEN_NAME_MAX 32
#define TOPOGEN_MAX_DIMS 8
/* NodeInfo:NumPorts is 8 bits and port 255 is reserved (IBA 14.2.5.3): 254 ports. */
#define TOPOGEN_MAX_PORTS 254
/* Unicast LIDs run 0x0001-0xBFFF (IBA 4.1.3); every node here needs one. */
#define TOPOGEN_MAX_LIDS 0xBFFF

/* Everything the command line can set; zero means "not given". */
struct topogen_opts {
	const char *shape;
	/* fattree */
	unsigned levels;
	unsigned radix;
	unsigned over_down, over_up;	/* --oversubscription DOWN:UP */
	unsigned rails;			/* --rails R: nodes of R HCAs (0: hosts) */
	unsigned miswire_node, miswire_hca;	/* --miswire NODE:HCA */
	int miswire;
	/* torus, mesh */
	unsigned dims[TOPOGEN_MAX_DIMS];
	unsigned ndims;
	unsigned hosts_per_switch;
	/* dragonfly */
	unsigned groups;
	unsigned routers;
	unsigned hosts_per_router;
	unsigned global_links;
	/* any shape */
	double remove_pct;		/* < 0: no --remove-links */
	uint64_t seed;
};

/* One port: the peer's node index and port number; peer_port 0 = no link. */
struct topogen_port {
	uint32_t peer;
	uint8_t peer_port;
};

struct topogen_node {
	char name[TOPOGEN_NAME_MAX];
	uint8_t is_switch;
	uint8_t nports;
	uint32_t ordinal;		/* index among nodes of its kind */
	size_t first_port;		/* index of port 1 in fabric->ports */
};

struct topogen_fabric {
	struct topogen_node *nodes;
	size_t nnodes, nodes_cap;
	struct topogen_port *ports;
	size_t nports, ports_cap;
	size_t nhosts, nswitches, nlinks;
	char comment[160];		/* first line of the file, after "# " */
};

/* Set @f empty.  topogen_fabric_free() releases what the others allocate. */
void topogen_fabric_init(struct topogen_fabric *f);
void topogen_fabric_free(struct topogen_fabric *f);

/*
 * Reserve room for @nnodes nodes with @nports ports in all, so that a shape
 * can add them without further allocation.  0 or -ENOMEM.
 */
int topogen_fabric_reserve(struct topogen_fabric *f, size_t nnodes, size_t nports);

/*
 * Append a node named by printf @fmt with @nports ports (1..254); returns its
 * index.  Hosts must all be added before the first switch.  The caller has
 * reserved room (topogen_fabric_reserve) for it.
 */
uint32_t topogen_fabric_add(struct topogen_fabric *f, int is_switch,
			    unsigned nports, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Link port @pa of node @a with port @pb of node @b; both must be free. */
void topogen_fabric_link(struct topogen_fabric *f, uint32_t a, unsigned pa,
			 uint32_t b, unsigned pb);

/*
 * Remove floor(@pct% of the switch-to-switch links) chosen with @seed, never
 * disconnecting the fabric.  -EINVAL with a message in @err when that many
 * cannot go without cutting it; -ENOMEM.
 */
int topogen_fabric_remove_links(struct topogen_fabric *f, double pct,
				uint64_t seed, char *err, size_t errlen);

/* Write @f in ibsim's net format to @out.  0 or -errno (write error). */
int topogen_fabric_write(const struct topogen_fabric *f, FILE *out);

/*
 * Check that @nports ports fit a node and that @nodes nodes fit the unicast
 * LID space; 0 or -EINVAL with a message naming @what.
 */
int topogen_check_size(unsigned nports, size_t nodes, const char *what,
		       char *err, size_t errlen);

/* The shapes: build @f from @o.  0, -EINVAL (message in @err) or -ENOMEM. */
int topogen_fattree(const struct topogen_opts *o, struct topogen_fabric *f,
		    char *err, size_t errlen);
int topogen_grid(const struct topogen_opts *o, struct topogen_fabric *f,
		 char *err, size_t errlen);
int topogen_dragonfly(const struct topogen_opts *o, struct topogen_fabric *f,
		      char *err, size_t errlen);

#endif

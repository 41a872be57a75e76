/* SPDX-License-Identifier: MIT */
/*
 * topo.h - the in-memory fabric model: nodes, their ports, and links.
 *
 * One model serves three producers and many readers: the topology file parser
 * (what a file says), the simulated fabric (what it serves) and the discovery
 * sweep (what the SM found).  Nodes live in one array and are named by index;
 * a GUID index finds them by node GUID.  Ports are numbered 0..nports: port 0 is
 * a switch's management port, and unused on CAs and routers.
 *
 * Ownership: a struct topo owns every node and port array it holds; topo_free()
 * releases all of it.  Indexes stay valid until the topo is freed.
 *
 * The model knows no wire format: it lives in mad/model/, a library of its own
 * that links nothing but libc, so the store (db/), smquery and the routing
 * view use it without mad/.  mad/ fills it (the simulated fabric, discovery);
 * the store persists it.  A node's directed route is a byte string to
 * everyone but mad/: struct topo_path.
 */
#ifndef IBSMD_TOPO_H
#define IBSMD_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/model/topo_names.h"

#define TOPO_NONE UINT32_MAX
#define TOPO_NAME_LEN 64
#define TOPO_DESC_LEN 64
/* A directed route has at most 63 hops (IBA 14.2.2). */
#define TOPO_PATH_MAX_HOPS 63

/*
 * A directed route from the SM's port: port[1..hops] are the output ports
 * taken, port[0] is unused (as in an SMP's path fields).  The store keeps
 * port[1..hops] as an opaque byte string.
 */
struct topo_path {
	uint8_t hops;
	uint8_t port[TOPO_PATH_MAX_HOPS + 1];
};

struct topo_port {
	uint64_t guid;		/* port GUID (a switch's ports share port 0's) */
	uint32_t peer;		/* node index of the other end, or TOPO_NONE */
	uint8_t peer_port;
	uint8_t state;		/* enum mad_port_state, 0 when unknown */
	uint8_t phys_state;	/* enum mad_phys_state */
	uint8_t width;		/* PortInfo LinkWidthActive (1, 2, 4, 8) */
	uint8_t speed;		/* speed code, topo_rate.h (SDR 1 ... NDR 64, XDR 128) */
	uint8_t lmc;
	uint8_t degraded;	/* TOPO_DEGRADED_*: trained below both ends' best */
	bool isolated;		/* kept out of the routing view (the SM's isolation
				 * policy, sm_isolate.c): the link stays up */
	uint16_t lid;
};

#define TOPO_DEGRADED_WIDTH 1
#define TOPO_DEGRADED_SPEED 2

struct topo_node {
	uint64_t guid;
	uint64_t sys_guid;
	uint32_t vendor_id;
	uint16_t device_id;
	uint32_t revision;
	uint8_t type;		/* enum mad_node_type */
	uint8_t nports;
	bool enhanced_port0;	/* switches */
	bool ar_capable;	/* switches: adaptive routing (topology file `ar`; the sim) */
	bool responded;		/* discovery: answered NodeInfo (false: seen only) */
	char name[TOPO_NAME_LEN + 1];	/* the file's node id ("S-..." or "sw1") */
	char desc[TOPO_DESC_LEN + 1];	/* NodeDescription */
	struct topo_port *ports;	/* nports + 1 entries */
	struct topo_path path;	/* directed route from the SM's port */
};

struct topo {
	struct topo_node *nodes;
	uint32_t n;
	uint32_t cap;
	/* open-addressed node GUID -> index + 1 (0 is empty) */
	uint32_t *guid_slots;
	uint32_t guid_nslots;
};

void topo_init(struct topo *t);
void topo_free(struct topo *t);

/*
 * Append a node of @type with @nports ports (ports zeroed, unlinked) and GUID
 * @guid.  Returns its index, or TOPO_NONE with errno ENOMEM, or EEXIST when a
 * node with that non-zero GUID is already present.  A zero GUID is not indexed.
 */
uint32_t topo_add_node(struct topo *t, uint8_t type, uint8_t nports, uint64_t guid);

/* Set the GUID of node @idx (was 0) and index it.  Returns 0 or -EEXIST/-ENOMEM. */
int topo_set_guid(struct topo *t, uint32_t idx, uint64_t guid);

/* The index of the node with node GUID @guid, or TOPO_NONE. */
uint32_t topo_find_guid(const struct topo *t, uint64_t guid);

/* Mark both ends of the link port @port of node @guid <-> port @peer_port of
 * node @peer_guid isolated (topo_port.isolated); false when @t has no such
 * link (a node gone, or recabled). */
bool topo_mark_isolated(struct topo *t, uint64_t guid, uint8_t port, uint64_t peer_guid,
			uint8_t peer_port);

/* The index of the node named @name (linear; for tools and tests), or TOPO_NONE. */
uint32_t topo_find_name(const struct topo *t, const char *name);

/*
 * Connect port @pa of node @a to port @pb of node @b, both ways.  Returns 0,
 * -EINVAL for a port out of range or port 0, -EBUSY if either end is already
 * linked elsewhere (linking the same pair again is a no-op).
 */
int topo_link(struct topo *t, uint32_t a, uint8_t pa, uint32_t b, uint8_t pb);

/*
 * Put the nodes in the order @perm gives (new index i holds old node perm[i]),
 * links and the GUID index following.  @perm must be a permutation of 0..n-1.
 * 0 or -ENOMEM (then @t is unchanged).
 */
int topo_reorder(struct topo *t, const uint32_t *perm);

/* Number of links (each counted once). */
size_t topo_count_links(const struct topo *t);

/* Counts by node type. */
uint32_t topo_count_type(const struct topo *t, uint8_t type);

/*
 * Port GUIDs that two ports claim.  The ports that own LIDs (a switch's port
 * 0, every CA or router port with a non-zero GUID) are ordered by (port GUID,
 * node GUID, port); for each port that repeats the GUID of an earlier one,
 * @fn(@arg, the first's node and port, the repeat's node and port) is called.
 * Returns the number of calls, or -ENOMEM.
 */
typedef void (*topo_clash_fn)(void *arg, uint32_t first, uint8_t first_port, uint32_t again,
			      uint8_t again_port);
int topo_port_guid_clashes(const struct topo *t, topo_clash_fn fn, void *arg);

#endif

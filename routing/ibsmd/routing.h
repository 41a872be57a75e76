/* SPDX-License-Identifier: MIT */
/*
 * ibsmd/routing.h - the routing engine API of ibsmd (public, versioned).
 *
 * An engine is one `const struct ibsmd_routing_engine` filled by named fields.
 * Built in, it is listed in the daemon's engine table; as a plugin, a shared
 * object exports it under the symbol name IBSMD_ROUTING_ENGINE_SYMBOL and the
 * daemon loads it with dlopen() at start-up.  The same source builds both ways.
 *
 * An engine sees a read-only view of the fabric as plain arrays (nodes, their
 * ports, who is linked to whom, LIDs) and writes unicast forwarding entries with
 * ibsmd_lft_set().  It never sees MADs or SQL.  Everything here is inline or
 * data, so a plugin needs no symbol from the daemon.
 *
 * Where a plugin runs: in a child process of the daemon, forked after the
 * plugin is loaded, once per routing run.  It calls setup(), compute_unicast()
 * and, when the engine has one, path_sl() for every source it will be asked
 * about (the daemon keeps the answers in a table; see path_sl below), then the
 * child exits: destroy() is not called, the process's memory goes with it.
 * The LFT rows live in memory shared with the daemon; writing outside them
 * faults.  The child has a time budget (plugin_timeout, default 60 s) and a
 * bound on the address space it may add (plugin_memory_mb, default 8 GiB);
 * a crash, an exit(), a run over budget or a signal to the daemon while it
 * runs ends it, the daemon logs the engine's name and why, and the chain moves
 * on to the next engine.  So a plugin must not rely on state kept between
 * runs, on the log callback being called in the daemon's process, or on
 * writing to anything but its LFT rows.  Built-in engines run in the daemon.
 *
 * Compatibility: abi_version must equal IBSMD_ROUTING_ABI_VERSION of the daemon
 * that loads it; any change to a structure below bumps it.  History:
 *   1  the first API: nodes, ports, LIDs, LFT rows, options, log, path_sl.
 *   2  the view carries the switch index (nswitches, switch_node,
 *      node_switch), which every engine used to build for itself.  A plugin
 *      built for 1 is refused; rebuilding it against this header is enough.
 *   3  adaptive routing: ctx->ar and the optional compute_ar hook, through
 *      which an engine gives AR-capable switches groups of ports per LID.
 *      A plugin built for 2 is refused; rebuilding it is enough (it then has
 *      no compute_ar, and its switches keep their static routes only).
 *   4  a port carries its port GUID (struct ibsmd_rt_port.guid), so that an
 *      engine can read lists of ports as OpenSM's GUID files name them.  A
 *      plugin built for 3 is refused; rebuilding it is enough.
 *
 * Adaptive routing (AR, ABI 3).  On a switch that supports it, a packet to a
 * LID with an AR group leaves by the least loaded port of the group instead
 * of the LFT's port.  When the fabric has AR-capable switches and the engine
 * has compute_ar, the daemon calls it after compute_unicast (in the plugin's
 * child too); it fills ctx->ar with ibsmd_ar_group_set() (group g of a
 * switch: a set of its ports) and ibsmd_ar_lid_set() (a LID's group on a
 * switch).  The daemon then checks the groups as it checks the LFTs, and
 * refuses the engine's whole result (the chain moves on) when one fails:
 *  - a group number is 1..ar->group_cap, only CA LIDs have groups, and a
 *    LID's group is not empty;
 *  - every port of a LID's group exists (1..nports) and is linked in the
 *    view (up, usable for data), to a switch or to the CA owning the LID;
 *  - deadlock freedom of every path the groups allow: per destination
 *    switch (the one a CA LID is cabled to), a switch may forward out of its
 *    group or the LFT's port of any of that switch's CA LIDs, and the channel
 *    dependency graph of all those hops (one SL) must have no cycle.
 * The LFT still holds each LID's static port: the port of the switches
 * without AR, and of an AR switch's packets when AR is off; engines should
 * put it in the group too.  Group numbers are what the switches are
 * programmed with: keep them stable from run to run (number them in a fixed
 * order of the fabric), so that a resweep sends only the groups that changed.
 */
#ifndef IBSMD_ROUTING_H
#define IBSMD_ROUTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IBSMD_ROUTING_ABI_VERSION 4
#define IBSMD_ROUTING_ENGINE_SYMBOL "ibsmd_routing_engine"

#define IBSMD_NODE_CA 1
#define IBSMD_NODE_SWITCH 2
#define IBSMD_NODE_ROUTER 3

#define IBSMD_NO_NODE UINT32_MAX
#define IBSMD_NO_PORT 0xff	/* an LFT entry that forwards nowhere */
#define IBSMD_MAX_UCAST_LID 0xbfff

/* One port as routing sees it.  Port 0 of a switch is its management port. */
struct ibsmd_rt_port {
	uint32_t peer;		/* node index at the other end, IBSMD_NO_NODE if none */
	uint8_t peer_port;
	uint8_t lmc;		/* CA/router ports and switch port 0 */
	uint16_t lid;		/* base LID, 0 when the port has none */
	uint8_t width;		/* PortInfo LinkWidthActive */
	uint8_t speed;		/* one bit per rate: SDR 1, DDR 2, QDR 4 (as LinkSpeedActive),
				 * FDR 8, EDR 16, HDR 32, NDR 64, XDR 128 */
	uint64_t guid;		/* port GUID (ABI 4); a switch's ports share port 0's */
};

struct ibsmd_rt_node {
	uint64_t guid;
	uint8_t type;		/* IBSMD_NODE_* */
	uint8_t nports;
	const char *desc;
	const struct ibsmd_rt_port *ports;	/* nports + 1 entries */
};

/* The read-only fabric.  Only links usable for data appear as peers. */
struct ibsmd_rt_view {
	uint32_t nnodes;
	const struct ibsmd_rt_node *nodes;
	uint16_t max_lid;	/* the highest LID in use */
	const uint32_t *lid_node;	/* [0..max_lid]: the node owning a LID, or IBSMD_NO_NODE */
	const uint8_t *lid_port;	/* [0..max_lid]: its port */
	/* The switches numbered 0..nswitches-1 in node order (ABI 2). */
	uint32_t nswitches;
	const uint32_t *switch_node;	/* [0..nswitches-1]: the node index of each switch */
	const uint32_t *node_switch;	/* [0..nnodes-1]: a node's switch number, or
					 * IBSMD_NO_NODE for CAs and routers */
};

#define IBSMD_AR_WORDS 4	/* 64-bit words of a group: ports 0..255 */

/* The AR groups an engine fills (ABI 3).  lid_group[n] and groups[n] are NULL
 * for a node that is no AR-capable switch; else lid_group[n] has max_lid + 1
 * entries (the group of a LID, 0: none) and groups[n] group_cap masks
 * (groups[n][g - 1] is group g: port p is bit p % 64 of word p / 64), all 0
 * on entry. */
struct ibsmd_rt_ar {
	uint16_t group_cap;	/* groups a switch may have, numbered 1..group_cap */
	uint16_t **lid_group;
	uint64_t (**groups)[IBSMD_AR_WORDS];
};

/* What an engine is handed.  lft[n] is NULL for non-switches, else a row of
 * max_lid + 1 entries, all IBSMD_NO_PORT on entry. */
struct ibsmd_rt_ctx {
	const struct ibsmd_rt_view *view;
	uint8_t **lft;
	/* the engine's options from the configuration, "key=value" strings */
	const char *const *options;
	unsigned noptions;
	/* diagnostics: the daemon's log at a syslog priority */
	void (*log)(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
	/* ABI 3: the AR groups to fill, NULL when no switch can take them */
	const struct ibsmd_rt_ar *ar;
};

struct ibsmd_routing_engine {
	const char *name;
	unsigned abi_version;	/* IBSMD_ROUTING_ABI_VERSION */
	const char *description;
	/* Optional: build state from the view; 0 or -errno. */
	int (*setup)(const struct ibsmd_rt_ctx *ctx, void **state);
	/* Fill the LFTs; 0 or -errno (the chain moves on to the next engine). */
	int (*compute_unicast)(const struct ibsmd_rt_ctx *ctx, void *state);
	/* Optional: true if the routes it computes are free of credit loops; the
	 * daemon then checks the channel dependency graph (per SL, using path_sl)
	 * and refuses a result with a cycle. */
	bool deadlock_free;
	/* Optional: the service level for traffic from @slid to @dlid (0 when
	 * absent).  The SM maps SL n to VL n on every port, so an engine breaks a
	 * credit loop by moving some paths to another SL.  As a plugin it is asked
	 * in its child once per (source, destination LID): a source is a CA LID,
	 * or with path_sl_by_switch one CA LID per switch; the table of answers
	 * may take at most 1 GiB, so large fabrics need path_sl_by_switch. */
	uint8_t (*path_sl)(const struct ibsmd_rt_ctx *ctx, void *state, uint16_t slid,
			   uint16_t dlid);
	/* Optional: true when path_sl gives every CA behind one switch the same SL
	 * for a destination (the SL follows the route, and routes leave from the
	 * switch); the daemon then asks it once per switch, not once per CA. */
	bool path_sl_by_switch;
	/* Optional: release what setup() made. */
	void (*destroy)(void *state);
	/* Optional (ABI 3): fill ctx->ar after compute_unicast, called only when
	 * ctx->ar is set; 0 or -errno (the engine's result is then refused). */
	int (*compute_ar)(const struct ibsmd_rt_ctx *ctx, void *state);
};

/*
 * Define an engine so that the same source builds either way:
 *	IBSMD_ROUTING_ENGINE(myengine) = { .name = "myengine", ... };
 * As a plugin (the default) it is the symbol IBSMD_ROUTING_ENGINE_SYMBOL the
 * loader looks up; compiled into ibsmd (-DIBSMD_BUILTIN_ENGINE) it is
 * rt_<id>_engine, listed in the daemon's table of built-in engines.
 */
#ifdef IBSMD_BUILTIN_ENGINE
#define IBSMD_ROUTING_ENGINE(id) const struct ibsmd_routing_engine rt_##id##_engine
#else
#define IBSMD_ROUTING_ENGINE(id) const struct ibsmd_routing_engine ibsmd_routing_engine
#endif

/* Route @lid at switch @sw out of @port.  Out-of-range writes are ignored. */
static inline void ibsmd_lft_set(const struct ibsmd_rt_ctx *ctx, uint32_t sw, uint16_t lid,
				 uint8_t port)
{
	if (sw < ctx->view->nnodes && ctx->lft[sw] && lid <= ctx->view->max_lid &&
	    port <= ctx->view->nodes[sw].nports)
		ctx->lft[sw][lid] = port;
}

static inline uint8_t ibsmd_lft_get(const struct ibsmd_rt_ctx *ctx, uint32_t sw, uint16_t lid)
{
	if (sw >= ctx->view->nnodes || !ctx->lft[sw] || lid > ctx->view->max_lid)
		return IBSMD_NO_PORT;
	return ctx->lft[sw][lid];
}

/* Give switch @sw's AR group @group (1..ctx->ar->group_cap) the ports of
 * @ports (IBSMD_AR_WORDS words).  Out-of-range writes are ignored. */
static inline void ibsmd_ar_group_set(const struct ibsmd_rt_ctx *ctx, uint32_t sw,
				      uint16_t group, const uint64_t *ports)
{
	const struct ibsmd_rt_ar *ar = ctx->ar;

	if (!ar || sw >= ctx->view->nnodes || !ar->groups[sw] || group < 1 ||
	    group > ar->group_cap)
		return;
	for (unsigned w = 0; w < IBSMD_AR_WORDS; w++)
		ar->groups[sw][group - 1][w] = ports[w];
}

/* Packets to @lid at switch @sw may take AR group @group (0: none, the LFT's
 * port only).  Out-of-range writes are ignored. */
static inline void ibsmd_ar_lid_set(const struct ibsmd_rt_ctx *ctx, uint32_t sw, uint16_t lid,
				    uint16_t group)
{
	const struct ibsmd_rt_ar *ar = ctx->ar;

	if (ar && sw < ctx->view->nnodes && ar->lid_group[sw] && lid <= ctx->view->max_lid &&
	    group <= ar->group_cap)
		ar->lid_group[sw][lid] = group;
}

static inline bool ibsmd_is_switch(const struct ibsmd_rt_view *v, uint32_t n)
{
	return n < v->nnodes && v->nodes[n].type == IBSMD_NODE_SWITCH;
}

#ifdef __cplusplus
}
#endif

#endif

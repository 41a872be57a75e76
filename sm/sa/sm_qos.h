/* SPDX-License-Identifier: MIT */
/*
 * sm_qos.h - the QoS policy: which SL, MTU and rate limits and packet
 * lifetime a path gets (its QoS level), and the SL-to-VL and VL arbitration
 * tables each port type is given.
 *
 * The meaning is OpenSM's qos-policy.conf and qos_* options
 * (doc/QoS_management_in_OpenSM.txt), written as YAML (sm_qos_file.c,
 * ibsmd.yaml(5)):
 *  - port groups name ports by port GUID (ranges), port name
 *    ("NodeDescription/Pn"), P_Key or partition name, and node type (ca,
 *    switch, router, self: the SM's own port, all);
 *  - QoS levels hold an SL and optional MTU and rate limits and a packet
 *    lifetime; the level named "DEFAULT" (any case), or the simplified
 *    section's default, applies to a request no rule matches;
 *  - match rules are tried in order, the first whose every criterion holds
 *    wins: source and destination groups (both given: the source in one of
 *    the first and the destination in one of the second), QoS class,
 *    ServiceID and P_Key (each only when the request carries that field);
 *  - the simplified ULP section (ulps) adds rules after the match rules,
 *    each with a level of its SL alone: sdp (ServiceID 0x1PPPP), rds and iser
 *    (0x106PPPP, ports 0x48CA and 0x0CBC unless given), ipoib (its P_Key,
 *    0x7fff unless given), srp (the target's port GUID), and any with a
 *    ServiceID, a P_Key, or a target, source or either port GUID.
 */
#ifndef IBSMD_SM_QOS_H
#define IBSMD_SM_QOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mad/mad_attr.h"
#include "mad/model/topo_names.h"

#define SM_QOS_NAME_LEN 64
#define SM_QOS_MAX_FILE_BYTES (16 << 20)	/* a larger policy file is refused */
#define SM_QOS_MAX_ITEMS 65536			/* groups, levels, rules, ranges */
#define SM_QOS_NO_SL 0xff			/* a level that leaves the SL alone */

struct sm_qos_range {
	uint64_t lo, hi;	/* inclusive */
};

struct sm_qos_ranges {
	struct sm_qos_range *r;
	size_t n;
};

enum sm_qos_node_type {
	SM_QOS_NT_CA = 1,
	SM_QOS_NT_SWITCH = 2,
	SM_QOS_NT_ROUTER = 4,
	SM_QOS_NT_SELF = 8,	/* the port the SM runs on */
};

struct sm_qos_group {
	char name[SM_QOS_NAME_LEN + 1];
	struct sm_qos_ranges guids;	/* port GUIDs */
	struct sm_qos_ranges pkeys;	/* ports holding one of these P_Keys */
	char **port_names;		/* "NodeDescription/Pn" */
	size_t nport_names;
	char **partitions;		/* ports in the partitions of these names */
	size_t npartitions;
	unsigned node_types;		/* enum sm_qos_node_type bits */
};

struct sm_qos_level {
	char name[SM_QOS_NAME_LEN + 1];	/* "" for a ULP's level */
	uint8_t sl;			/* SM_QOS_NO_SL: not set */
	uint8_t mtu;			/* MTU limit, IBA code; 0: none */
	uint8_t rate;			/* rate limit, PathRecord code; 0: none */
	uint8_t pkt_life;		/* PacketLifeTime; 0xff: not set */
};

struct sm_qos_rule {
	struct sm_qos_ranges qos_class, service_ids, pkeys;
	size_t *src, nsrc;		/* source groups (indexes) */
	size_t *dst, ndst;		/* destination groups */
	bool either_end;		/* src == dst: either end in one of them */
	size_t level;			/* index into levels */
	uint32_t line;			/* where the file gives it */
};

/* OpenSM's qos_<type>_ options: the tables of one port type. */
struct sm_qos_vl_config {
	uint8_t max_vls;		/* 1..15 */
	uint8_t high_limit;		/* VLHighLimit */
	struct mad_vlarb_block vlarb_high[2], vlarb_low[2];	/* 64 entries each */
	struct mad_sl2vl sl2vl;
};

enum sm_qos_port_type {
	SM_QOS_PORT_CA,
	SM_QOS_PORT_SWITCH_EXTERNAL,
	SM_QOS_PORT_SWITCH_PORT0,
	SM_QOS_PORT_ROUTER,
	SM_QOS_PORT_TYPES
};

/* The port type of port @p of a node of type @node_type (MAD_NODE_*). */
static inline enum sm_qos_port_type sm_qos_port_type(unsigned node_type, unsigned p)
{
	if (node_type == MAD_NODE_SWITCH)
		return p ? SM_QOS_PORT_SWITCH_EXTERNAL : SM_QOS_PORT_SWITCH_PORT0;
	return node_type == MAD_NODE_ROUTER ? SM_QOS_PORT_ROUTER : SM_QOS_PORT_CA;
}

struct sm_qos_policy {
	bool on;			/* a policy file was given */
	struct sm_qos_group *groups;
	size_t ngroups;
	struct sm_qos_level *levels;
	size_t nlevels;
	size_t default_level;		/* index into levels */
	struct sm_qos_rule *rules;	/* match rules, then the ULPs' */
	size_t nrules;
	struct sm_qos_vl_config vl[SM_QOS_PORT_TYPES];
};

/* The built-in tables (OpenSM's defaults) and no rules: what "no policy"
 * means.  Never fails. */
void sm_qos_policy_none(struct sm_qos_policy *q);
void sm_qos_policy_free(struct sm_qos_policy *q);

/*
 * Read a policy file (sm_qos_file.c).  0 with @q filled (the caller frees
 * it), or -errno with "FILE:LINE:COLUMN: reason" in @err and @q untouched.
 */
int sm_qos_policy_parse(FILE *in, const char *name, struct sm_qos_policy *q, char *err,
			size_t errlen);
int sm_qos_policy_load(const char *path, struct sm_qos_policy *q, char *err, size_t errlen);

/* One end of a request, as the matcher sees it (sm_qos_match.c). */
struct sm_qos_port {
	uint64_t guid;
	const char *desc;		/* NodeDescription */
	unsigned port;			/* port number */
	unsigned node_type;		/* one enum sm_qos_node_type bit, | SELF */
	uint32_t node;			/* the caller's index of its node, for in_partition */
	/* whether the port holds a P_Key in @lo..@hi (15 bits), or, @name not
	 * NULL, is in the partition of that name */
	bool (*in_partition)(const void *ctx, const struct sm_qos_port *pt, uint16_t lo,
			     uint16_t hi, const char *name);
	const void *ctx;
};

/* What a PathRecord or MultiPathRecord asks for. */
struct sm_qos_request {
	const struct sm_qos_port *src, *dst;
	bool has_sid, has_pkey, has_class;
	uint64_t service_id;
	uint16_t pkey;			/* 15 bits */
	uint16_t qos_class;
};

/* The VLs a port of OperationalVLs @oper_vls operates, as a mask of VL
 * numbers (sm_qos_tables.c). */
uint8_t sm_qos_vl_mask(uint8_t oper_vls);
/* The SLtoVLMappingTable @c gives a port of @oper_vls. */
void sm_qos_sl2vl(const struct sm_qos_vl_config *c, uint8_t oper_vls, struct mad_sl2vl *t);
/* VLArbitrationTable block @block (MAD_VLARB_*) @c gives a port of @oper_vls
 * with @cap entries in that table; false when the port has no such block. */
bool sm_qos_vlarb(const struct sm_qos_vl_config *c, uint8_t block, unsigned cap,
		  uint8_t oper_vls, struct mad_vlarb_block *b);

/* The level of the first rule @r matches, else the default level; NULL when
 * no policy is on. */
const struct sm_qos_level *sm_qos_match(const struct sm_qos_policy *q,
					const struct sm_qos_request *r);

/* The level of the first rule that names P_Keys and nothing else and holds
 * @pkey (15 bits): an ipoib or "any, pkey" ULP, or a match rule of pkeys
 * alone; what a multicast group of that P_Key gets.  NULL when none. */
const struct sm_qos_level *sm_qos_match_pkey(const struct sm_qos_policy *q, uint16_t pkey);

/* @l's limits applied to an MTU code and a rate code (@rate_of: a rate
 * code's speed, 0 for none), and its SL when it sets one. */
void sm_qos_limit(const struct sm_qos_level *l, unsigned (*rate_of)(uint8_t code), uint8_t *mtu,
		  uint8_t *rate, uint8_t *sl);

#endif

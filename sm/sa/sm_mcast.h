/* SPDX-License-Identifier: MIT */
/*
 * sm_mcast.h - multicast groups: members, MLIDs, spanning trees, MFTs.
 *
 * A group (IBA 15.4.2) is an MGID with an MLID and the parameters every
 * member uses (Q_Key, P_Key, MTU, rate, SL...); its members are port GUIDs,
 * each with a JoinState (full member, non-member, send-only non-member,
 * send-only full member).
 * Groups are made and left through the SA's MCMemberRecord
 * (sm_sa_mcmember.c, sm_mcast.c); the IPoIB broadcast group of every IPoIB
 * partition, and the groups a partition lists, are made by the SM itself and
 * stay when their members leave.
 * MLIDs come from 0xC000 up, the lowest free.  Full members and send-only
 * full members (SM_MCAST_FULL) make a group and keep it (OpenSM's
 * osm_sa_mcmember_record.c alike): a group whose last one leaves is deleted
 * and its MLID freed, whatever send-only non-members remain.
 *
 * One host must not take every MLID (any host may send MCMemberRecord Sets):
 * a port is a member of at most SM_MCAST_MAX_GROUPS_PER_PORT groups besides
 * the IPoIB broadcast groups, and a group the SA makes leaves free an MLID
 * for the broadcast group of every IPoIB partition that has none yet, and
 * SM_MCAST_SPARE_MLIDS more for partitions a reload adds.  A join refused by
 * either is ERR_NO_RESOURCES, counted in refused (the daemon's metrics:
 * ibsmd_mcast_joins_refused_total).
 *
 * Each group's MLID is forwarded along a spanning tree of the switches
 * (sm_mcast_tree.c) that reaches exactly the ports that receive (full and
 * non-members), and the switches' MFTs are programmed from those trees
 * (sm_mcast_program.c), only the blocks that changed.
 *
 * Threads: the loop thread's, like the SA.
 */
#ifndef IBSMD_SM_MCAST_H
#define IBSMD_SM_MCAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_sa.h"
#include "mad/mad_sa_mcmember.h"
#include "sm/core/sm_fabric.h"
#include "sm/sa/sm_pkey.h"

struct sm_qos_level;	/* sm_qos.h */

#define SM_MLID_FIRST 0xC000
#define SM_MLID_LAST 0xFFFE		/* 0xFFFF is the permissive LID */
#define SM_MLID_COUNT (SM_MLID_LAST - SM_MLID_FIRST + 1)
#define SM_MCAST_MAX_MEMBERS 65536	/* of one group */
#define SM_MCAST_MAX_GROUPS_PER_PORT 64	/* a port's groups, IPoIB broadcast ones aside */
#define SM_MCAST_SPARE_MLIDS 16		/* kept from the SA for IPoIB groups to come */
#define SM_MCAST_MTU_DEFAULT 4		/* a new group's MTU code (2048) unless told */
#define SM_MCAST_RATE_DEFAULT 3		/* and rate code (10G) */
#define SM_MFT_BLOCK 32			/* MLIDs per MFT block (IBA 14.2.5.12) */
#define SM_MFT_POS_PORTS 16		/* ports per PortMask position */
/* The JoinState bits that make a group and keep it. */
#define SM_MCAST_FULL (MAD_MC_JOIN_FULL | MAD_MC_JOIN_SEND_ONLY_FULL)

struct sm_mcast_member {
	uint64_t guid;		/* port GUID */
	uint8_t join;		/* JoinState bits, MAD_MC_JOIN_* */
};

struct sm_mcast_group {
	uint8_t mgid[MAD_GID_LEN];
	uint16_t mlid;
	uint16_t pkey;		/* with the membership bit, as joined */
	uint32_t qkey;
	uint8_t mtu, rate, sl, tclass, hop_limit, scope, lifetime;
	uint32_t flow_label;
	bool well_known;	/* an IPoIB broadcast group: stays when empty */
	struct sm_mcast_member *members;
	size_t n, cap;
	uint32_t tree_switches;	/* switches its MLID is forwarded by, last programmed */
};

/* What one switch's MFT holds, as last set: per block, per PortMask
 * position, SM_MFT_BLOCK masks.  Kept by switch GUID across sweeps.  A
 * switch this process has not programmed (or whose Set failed) is not
 * known: unless it was found new or reset (fresh: empty), it may hold what
 * another SM left anywhere (sm_mcast_program.c). */
struct sm_mcast_sw {
	uint64_t guid;
	uint16_t *held;		/* [block][pos][SM_MFT_BLOCK] */
	uint32_t blocks;	/* blocks of room in held */
	uint8_t npos;		/* PortMask positions: ports / 16 + 1 */
	bool known;		/* held is what the switch has below hidden, and
				 * every block above held's is empty or hidden */
	bool fresh;		/* found new or reset: its MFT is empty */
	uint32_t hidden;	/* blocks from here on may hold another SM's
				 * entries, hidden by the MulticastFDBTop we set */
};

struct sm_mcast {
	struct sm_mcast_group **groups;
	size_t n, cap;
	uint64_t mlid_used[SM_MLID_COUNT / 64 + 1];	/* bitmap from 0xC000 */
	size_t mlids;		/* in use */
	uint16_t mlid_limit;	/* the last MLID every switch's MFT holds */
	uint32_t next_mgid;	/* for MGIDs the SA assigns */
	bool dirty;		/* trees changed since the MFTs were programmed */
	bool store_due;		/* groups changed since they were last stored */
	uint64_t stored_ms;	/* mad_now_ms() of the last store */
	/* what each switch holds, in GUID order */
	struct sm_mcast_sw *sw;
	uint32_t nsw;
	uint32_t top_block;	/* MFT blocks in use or once used, +1 */
	uint64_t blocks_set;	/* counters since start */
	uint64_t tops_set;	/* SwitchInfo MulticastFDBTop Sets */
	uint64_t blocks_read;
	uint64_t failures;
	uint64_t refused;	/* joins refused: a port's cap, the MLIDs kept back */
};

void sm_mcast_init(struct sm_mcast *mc);
void sm_mcast_free(struct sm_mcast *mc);

/* What switch @guid's MFT holds as the SM set it (NULL: never programmed),
 * and its entries for @block at @pos (SM_MFT_BLOCK masks; @block < blocks). */
const struct sm_mcast_sw *sm_mcast_switch(const struct sm_mcast *mc, uint64_t guid);
const uint16_t *sm_mcast_held(const struct sm_mcast_sw *s, uint32_t block, uint8_t pos);

/* The group with @mgid, or NULL. */
struct sm_mcast_group *sm_mcast_find(const struct sm_mcast *mc, const uint8_t *mgid);

/* Whether port @guid is a member of @g (any JoinState). */
bool sm_mcast_is_member(const struct sm_mcast_group *g, uint64_t guid);

/* The groups port @guid is a member of, the well-known ones not counted. */
size_t sm_mcast_port_groups(const struct sm_mcast *mc, uint64_t guid);

/* The MLIDs a new group could still take (free, not above mlid_limit). */
size_t sm_mcast_mlids_free(const struct sm_mcast *mc);

/*
 * Make a group with @mgid (all zero: one is assigned, ff12:601b:...; *@g
 * shows it) and the parameters of @tmpl, with a free MLID.  0, -ENOSPC when no
 * MLID is left, -EEXIST when @mgid has a group, -ENOMEM.
 */
int sm_mcast_create(struct sm_mcast *mc, const uint8_t *mgid,
		    const struct sm_mcast_group *tmpl, struct sm_mcast_group **g);

/*
 * Make the group @tmpl describes, MGID and MLID included, as a store kept it
 * (sm_part_store.c), no member yet.  0; -ERANGE for no multicast MGID or an
 * MLID outside 0xC000..0xFFFE; -EEXIST when the MGID or the MLID has a
 * group; -ENOMEM.
 */
int sm_mcast_restore(struct sm_mcast *mc, const struct sm_mcast_group *tmpl,
		     struct sm_mcast_group **g);

/* Add @join bits for port @guid to @g (a member joining again gains them).
 * 0, -E2BIG past SM_MCAST_MAX_MEMBERS, -ENOMEM. */
int sm_mcast_join(struct sm_mcast *mc, struct sm_mcast_group *g, uint64_t guid, uint8_t join);

/*
 * Take @join bits from port @guid in @g (IBA 15.4.4): a member with none left
 * leaves; a group with no (send-only) full member left is deleted (MLID freed, send-only
 * members with it), unless it is well known.  0, -ENOENT when @guid is no
 * member with any of those bits.  *@deleted when the group went (then @g is
 * freed).
 */
int sm_mcast_leave(struct sm_mcast *mc, struct sm_mcast_group *g, uint64_t guid, uint8_t join,
		   bool *deleted);

/* Delete @g whatever its members (freed; its MLID free again). */
void sm_mcast_drop(struct sm_mcast *mc, struct sm_mcast_group *g);

/*
 * The groups partition @p makes, well known, where missing: its groups
 * (OpenSM's mgid= lines), then, when it carries IPoIB, its broadcast group,
 * MGID ff1S:401b:PKEY::ffff:ffff (the full P_Key; one per scope S, link-local
 * by default) with the partition's MTU, rate (codes; 0: 2048 and 10G), SL,
 * Q_Key (0: 0x0b1b, IETF RFC 4391), TClass and FlowLabel.  A group outside
 * link-local scope gets hop limit 255.  QoS level @lv (NULL: none), the one
 * the policy gives the P_Key, caps their MTU and rate and sets their SL.  0,
 * or the first -errno of sm_mcast_create() (the other groups are still made).
 */
int sm_mcast_partition(struct sm_mcast *mc, const struct sm_partition *p,
		       const struct sm_qos_level *lv);
/* The broadcast MGID of partition @pkey (15 bits), link-local. */
void sm_mcast_ipoib_mgid(uint16_t pkey, uint8_t mgid[MAD_GID_LEN]);

/* Where a group's MLID is forwarded: per switch of @f (node index), a
 * bitmap of output ports, words of 64 (sm_mcast_tree.c). */
struct sm_mcast_tree {
	uint64_t **ports;	/* [node][port / 64]; NULL: not in the tree */
	uint32_t nnodes;	/* of ports */
	uint32_t nswitches;	/* in the tree */
	size_t words;		/* per switch */
};

/*
 * The spanning tree of @g over @f: from the switch of its first receiving
 * member in GUID order, breadth first over active switch-to-switch links,
 * keeping the switches on the way from the root to every member's switch;
 * each keeps its tree links and its links to receiving members (full and
 * non-members; send-only members are joined to the tree but not sent to).
 * @port_of maps a port GUID to its node and port (false: not in @f: left out).
 * 0 or -ENOMEM; free with sm_mcast_tree_free().
 */
int sm_mcast_tree_build(const struct sm_fabric *f, const struct sm_mcast_group *g,
			bool (*port_of)(void *ctx, uint64_t guid, uint32_t *node, uint8_t *port),
			void *ctx, struct sm_mcast_tree *t);
void sm_mcast_tree_free(struct sm_mcast_tree *t);

#endif

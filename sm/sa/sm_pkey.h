/* SPDX-License-Identifier: MIT */
/*
 * sm_pkey.h - partitions: the partitions file as read, and who is in which.
 *
 * A partition (IBA 10.9) is a 15-bit P_Key and its members, each a full or a
 * limited member (the P_Key's bit 15).  Two ports may talk when they share a
 * P_Key and at least one of them is a full member.  The partitions file lists
 * partitions, in ibsmd's YAML (sm_pkey_file.c, ibsmd.yaml(5)) or in OpenSM's
 * partitions.conf (sm_pkey_osm.c), told apart by their first line; the
 * default partition 0x7fff is always there, first, with every port a member:
 * in YAML full, unless the file makes them limited there (the SM's port stays
 * full); in OpenSM's file limited, but the SM's port, unless its rules say
 * otherwise.
 *
 * The file is resolved against one sweep's fabric (sm_pkey.c) into each
 * port's P_Key list: what its P_KeyTable is programmed with
 * (sm_pkey_program.c) and what the SA answers PathRecords from.
 */
#ifndef IBSMD_SM_PKEY_H
#define IBSMD_SM_PKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sm/core/sm_fabric.h"

#define SM_PKEY_DEFAULT 0x7fff		/* the default partition */
#define SM_PKEY_FULL 0x8000		/* the membership bit: full member */
#define SM_PKEY_BASE(k) ((uint16_t)((k) & 0x7fff))
#define SM_PKEY_MAX_PARTITIONS 1024	/* in one file */
#define SM_PKEY_MAX_MEMBERS 65536	/* member entries of one partition */
#define SM_PKEY_MAX_FILE_BYTES (64 << 20)	/* a larger partitions file is refused */
#define SM_PKEY_NAME_LEN 64
#define SM_PKEY_MAX_GROUPS 4096	/* multicast groups one file makes */
#define SM_PKEY_IPOIB_QKEY 0x0b1b	/* IETF RFC 4391: IPoIB's Q_Key */
#define SM_PKEY_SCOPE_LINK 2		/* the link-local scope (IBA 4.1.1) */

enum sm_pkey_member_kind {
	SM_PKEY_MEMBER_ALL,	/* every CA and router port, switch port 0 */
	SM_PKEY_MEMBER_GUID,	/* the port with this port GUID */
	SM_PKEY_MEMBER_NAME,	/* the ports of the nodes with this NodeDescription */
	SM_PKEY_MEMBER_ALL_CAS,	/* every CA port (OpenSM's ALL_CAS) */
	SM_PKEY_MEMBER_ALL_SWITCHES,	/* every switch's port 0 */
	SM_PKEY_MEMBER_ALL_ROUTERS,	/* every router port */
	SM_PKEY_MEMBER_SELF,	/* the SM's own port */
};

struct sm_pkey_member {
	uint8_t kind;		/* enum sm_pkey_member_kind */
	bool full;
	bool indx0;		/* the P_Key goes to entry 0 of this port's table */
	uint32_t line;		/* where the file lists it, for warnings */
	uint64_t guid;
	char *name;		/* SM_PKEY_MEMBER_NAME, owned */
};

/* A multicast group the SM makes in a partition and keeps when empty, as an
 * IPoIB broadcast group (OpenSM's "mgid=" lines and the flags of "ipoib"). */
struct sm_pkey_group {
	uint8_t mgid[16];	/* its scope nibble replaced by each scope below */
	uint16_t scopes;	/* one group per bit s set: scope s (IBA 4.1.1) */
	uint32_t qkey;
	uint32_t flow_label;	/* 20 bits */
	uint8_t mtu, rate;	/* IBA codes */
	uint8_t sl, tclass;
	uint32_t line;
};

struct sm_partition {
	char name[SM_PKEY_NAME_LEN + 1];
	uint16_t pkey;		/* 15 bits, 0x0001..0x7fff */
	bool ipoib;		/* carries IPoIB: its broadcast group is created */
	uint8_t mtu;		/* IBA MTU code (1 256 .. 5 4096), 0 when not given */
	uint8_t rate;		/* IBA rate code (PathRecord Rate), 0 when not given */
	uint8_t sl;
	/* the IPoIB broadcast group's other parameters (OpenSM's flags) */
	uint16_t scopes;	/* one group per bit s set: scope s; 0: link-local */
	uint32_t qkey;		/* 0: SM_PKEY_IPOIB_QKEY */
	uint8_t tclass;
	uint32_t flow_label;
	struct sm_pkey_member *members;
	size_t nmembers;
	struct sm_pkey_group *groups;	/* made before the IPoIB broadcast group */
	size_t ngroups;
};

struct sm_partitions {
	struct sm_partition *p;	/* p[0] is the default partition */
	size_t n;
	/* OpenSM's reading: a port a later member entry names again takes that
	 * entry's membership (else it keeps its fullest) */
	bool last_wins;
};

/* Just the default partition (named "default", IPoIB on).  0 or -ENOMEM. */
int sm_partitions_default(struct sm_partitions *ps);
void sm_partitions_free(struct sm_partitions *ps);

/*
 * Read a partitions file (sm_pkey_file.c), YAML or OpenSM's partitions.conf
 * by its first line that is not blank nor a comment: "partitions:", "---",
 * "%...", "{" or a quote start YAML, and so does a key alone ("word:") followed by a
 * list item, another key or nothing; anything else is OpenSM's.  0 with @ps filled
 * (the caller frees it; the default partition first), or -errno with
 * "FILE:LINE[:COLUMN]: reason" in @err: -ENOENT for a missing file, -EINVAL
 * for a bad one, with @ps untouched.  @name names @in in messages; @in must
 * be seekable (the first lines are read twice).
 */
int sm_partitions_parse(FILE *in, const char *name, struct sm_partitions *ps, char *err,
			size_t errlen);
int sm_partitions_load(const char *path, struct sm_partitions *ps, char *err, size_t errlen);

/* OpenSM's partitions.conf alone (sm_pkey_osm.c); the same contract. */
int sm_partitions_parse_osm(FILE *in, const char *name, struct sm_partitions *ps, char *err,
			    size_t errlen);

/* One partition's members and groups freed (what both readers build). */
void sm_partition_free(struct sm_partition *p);

/* The same partitions, members and all (what a SIGHUP changes). */
bool sm_partitions_equal(const struct sm_partitions *a, const struct sm_partitions *b);

/* An MTU and a rate code as the partitions file's word; NULL when not one.
 * Back: an MTU word ("256".."4096") as its IBA code, a rate word
 * ("2.5G".."1200G", any case) as its PathRecord code; 0 when not one. */
const char *sm_pkey_mtu_word(uint8_t code);
const char *sm_pkey_rate_word(uint8_t code);
uint8_t sm_pkey_mtu_code(const char *word);
uint8_t sm_pkey_rate_code(const char *word);

/*
 * Each port's P_Keys, for one fabric: CA and router ports, and switch port 0.
 * keys[off[slot[n] + p] .. off[slot[n] + p + 1]) are port @p of node @n's
 * P_Keys with the membership bit, in the file's order (the default first).
 */
struct sm_pkey_ports {
	uint32_t nnodes;
	uint32_t *slot;		/* per node: its port 0's slot, ports follow; and
				 * one past the last node: the slot count */
	uint32_t *off;		/* per slot, and one past the last */
	uint16_t *keys;
	uint16_t *parts;	/* parallel to keys: index in the partitions */
	size_t unknown;		/* members that matched no port (logged) */
};

/*
 * Resolve @ps against @f into @out (freed with sm_pkey_ports_free).  A member
 * listed twice keeps its fullest membership.  Members that match no port are
 * logged with the file's line (@file names it) and counted.  0 or -ENOMEM.
 */
int sm_pkey_ports_build(const struct sm_partitions *ps, const struct sm_fabric *f,
			const char *file, struct sm_pkey_ports *out);
void sm_pkey_ports_free(struct sm_pkey_ports *pp);

/* Port @port of node @node's P_Keys: their count, *@keys pointing at them
 * (and *@parts at their partitions' indexes when @parts is not NULL). */
size_t sm_pkey_ports_of(const struct sm_pkey_ports *pp, uint32_t node, uint8_t port,
			const uint16_t **keys, const uint16_t **parts);

/*
 * The partitions two ports share: true with *@pkey the P_Key ports @a and @b
 * talk with, as @a's table holds it (its membership bit), when they share one
 * where at least one of them is a full member; the first in the file's order,
 * or, when @want is not 0, the one whose 15 bits are @want's.  @pp NULL: no
 * partitions resolved, every port in the default partition as a full member.
 */
bool sm_pkey_shared(const struct sm_pkey_ports *pp, uint32_t na, uint8_t pa, uint32_t nb,
		    uint8_t pb, uint16_t want, uint16_t *pkey);

/* Whether port @port of @node is a member of @pkey (15 bits; *@full its
 * membership).  @pp NULL: of the default partition only, as full members. */
bool sm_pkey_member(const struct sm_pkey_ports *pp, uint32_t node, uint8_t port,
		    uint16_t pkey, bool *full);

#endif

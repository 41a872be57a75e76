/* SPDX-License-Identifier: MIT */
/*
 * sm_sa_alias.h - alias GUIDs: the GUIDInfo entries hosts register through
 * the SA (GUIDInfoRecord Set and Delete, IBA 15.2.5.18), as SR-IOV virtual
 * functions do, and what still has to be programmed into the ports.
 */
#ifndef IBSMD_SM_SA_ALIAS_H
#define IBSMD_SM_SA_ALIAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm/core/sm_fabric.h"

/* Entry @index of the GUIDInfo table of port @port_guid holds @alias. */
struct sm_sa_alias {
	uint64_t alias;
	uint64_t port_guid;
	uint16_t index;		/* 1 .. GUIDCap - 1 (entry 0 is the port GUID) */
};

/* A GUIDInfo block that differs from what the port was last sent. */
struct sm_sa_alias_due {
	uint64_t port_guid;
	uint16_t block;
};

struct sm_sa_aliases {
	struct sm_sa_alias *a;	/* sorted by alias: one port and entry each */
	size_t n, cap;
	struct sm_sa_alias_due *due;	/* blocks to program, no two alike */
	size_t ndue, duecap;
	bool all_due;		/* every port's blocks: loaded, or ports reset */
	uint64_t sets, failures;	/* GUIDInfo Sets answered as sent, and not */
};

/* The port GUID @alias stands for: true with *@port_guid, false for none. */
bool sm_sa_alias_find(const struct sm_sa_aliases *t, uint64_t alias, uint64_t *port_guid);
/* The alias at entry @index of @port_guid's table, 0 for none. */
uint64_t sm_sa_alias_at(const struct sm_sa_aliases *t, uint64_t port_guid, unsigned index);
/* Whether @port_guid has any alias. */
bool sm_sa_alias_any(const struct sm_sa_aliases *t, uint64_t port_guid);
/* GUIDInfo block @block of @port_guid as it should be: the port GUID in entry
 * 0 of block 0, the aliases, 0 elsewhere. */
void sm_sa_alias_block(const struct sm_sa_aliases *t, uint64_t port_guid, unsigned block,
		       uint64_t out[8]);
/* Put @alias at entry @index of @port_guid (0: clear the entry), replacing
 * what was there, and mark the block due.  0, -EEXIST when @alias is at
 * another port or entry, -EINVAL for index 0 or a zero port GUID, -ENOMEM. */
int sm_sa_alias_put(struct sm_sa_aliases *t, uint64_t port_guid, unsigned index,
		    uint64_t alias);
/* Mark every block that holds an alias due.  0 or -ENOMEM. */
int sm_sa_alias_mark_all(struct sm_sa_aliases *t);
void sm_sa_aliases_free(struct sm_sa_aliases *t);

/* Program the blocks due (every port's with aliases when all_due or @all)
 * into the ports of @f found by GUID, with GUIDInfo Sets, and wait for the
 * answers.  Failures are logged and counted; 0 or -errno from the rpc layer. */
struct sm;
int sm_sa_alias_program(struct sm *sm, const struct sm_fabric *f, bool all);

#endif

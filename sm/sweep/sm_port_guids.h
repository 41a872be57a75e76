/* SPDX-License-Identifier: MIT */
/*
 * sm_port_guids.h - port GUIDs that two ports of the fabric claim.
 */
#ifndef IBSMD_SM_PORT_GUIDS_H
#define IBSMD_SM_PORT_GUIDS_H

#include "sm/core/sm_fabric.h"

/*
 * Find the port GUIDs that two ports of @f hold (two CA ports with one GUID,
 * or a switch's GUID that is also a CA port's): each clash is logged and
 * recorded in f->issues as SM_ISSUE_DUPLICATE_GUID against the port that
 * sorts later (by node GUID), naming the other and its DR path.  Discovery
 * calls it once the fabric is known; the LID manager keeps the clashing ports
 * from trading LIDs (sm_lid.c).  The number of clashes, or -ENOMEM.
 */
int sm_port_guids_check(struct sm_fabric *f);

#endif

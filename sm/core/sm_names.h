/* SPDX-License-Identifier: MIT */
/*
 * sm_names.h - a LID or a port named for a log line or an event: the node's
 * description, GUID and port beside the number, as the last heavy sweep's
 * fabric (sm->fabric) knows them, so that an operator reading "trap 128 from
 * LID 3806" learns which switch that is without a query.  Loop thread only
 * (the fabric is the loop's; a sweep replaces it there).
 */
#ifndef IBSMD_SM_NAMES_H
#define IBSMD_SM_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "sm/core/sm.h"

/* Room for a name of either kind: a 64-byte description, a GUID, numbers. */
#define SM_NAME_LEN 128

/* The node of the last fabric that answers on @lid (a switch on port 0, a CA
 * or router port on every LID of its LMC range), its port in *@port; TOPO_NONE
 * when none does or there is no fabric yet (LID 0 is nobody's). */
uint32_t sm_lid_owner(const struct sm *sm, uint16_t lid, uint8_t *port);

/* "LID 3806 ("L0.3" 0x0002c903000a0b0c port 0)", or "LID 3806 (not in the
 * last sweep)", into @buf of @len bytes (cut to fit).  Returns @buf. */
const char *sm_name_lid(const struct sm *sm, uint16_t lid, char *buf, size_t len);

/* ""L0.3" 0x0002c903000a0b0c port 7", the description left out when the last
 * fabric does not hold @guid, into @buf of @len bytes.  Returns @buf. */
const char *sm_name_port(const struct sm *sm, uint64_t guid, unsigned port, char *buf,
			 size_t len);

#endif

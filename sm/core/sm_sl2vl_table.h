/* SPDX-License-Identifier: MIT */
/*
 * sm_sl2vl_table.h - the SL to VL mapping the SM wants on each port.
 */
#ifndef IBSMD_SM_SL2VL_TABLE_H
#define IBSMD_SM_SL2VL_TABLE_H

#include <stdbool.h>

#include "mad/mad_attr.h"
#include "sm/core/sm_fabric.h"

/* A port that carries data: cabled, physically up, its PortInfo known. */
bool sm_sl2vl_data_port(const struct sm_fabric *f, uint32_t n, unsigned p);
/* Whether @n maps SLs to VLs at all (IBA 14.2.5.6 CapabilityMask bit 6):
 * a switch says so on port 0, a CA on the port asked. */
bool sm_sl2vl_maps_sls(const struct sm_fabric *f, uint32_t n, unsigned p);
/* The data VLs of port @p of @n (OperationalVLs). */
unsigned sm_sl2vl_port_vls(const struct sm_fabric *f, uint32_t n, unsigned p);
/* The table wanted on an output port with @vls data VLs: SL n -> VL n for
 * n < @vls, else n mod @vls. */
void sm_sl2vl_wanted(unsigned vls, struct mad_sl2vl *t);
/* Whether switch @n takes optimized SLtoVLMappingTable Sets (SwitchInfo). */
bool sm_sl2vl_takes_groups(const struct sm_fabric *f, uint32_t n);
/* The data VLs of the table most of switch @n's data ports want (the fewest
 * among the most common), which its all-pairs Set writes; 0 when it has fewer
 * than two data ports. */
unsigned sm_sl2vl_group_vls(const struct sm_fabric *f, uint32_t n);

/* The SLtoVLMappingTable this SM leaves on output port @out of node @n when
 * the routes use @nsl SLs: SL n -> VL n (mod the port's data VLs) where it
 * maps SLs, on a port without a link of a switch set with optimized Sets the
 * table its all-pairs Set wrote, else every SL on VL 0, as devices come up
 * (the SA's SL2VLTableRecords). */
void sm_sl2vl_table(const struct sm_fabric *f, uint32_t n, unsigned out, unsigned nsl,
		    struct mad_sl2vl *t);

#endif

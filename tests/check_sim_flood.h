/* SPDX-License-Identifier: MIT */
/*
 * check_sim_flood.h - a multicast packet followed through a sim fabric's
 * MFTs, for the suites that check what the SM programmed there.
 */
#ifndef IBSMD_TESTS_CHECK_SIM_FLOOD_H
#define IBSMD_TESTS_CHECK_SIM_FLOOD_H

#include <stdint.h>

#include "mad/sim/mad_sim.h"

/* A packet to @mlid sent by CA @node's @port, flooded through the MFTs the
 * switches forward by (sim_get_mft): how many times it reaches each CA port,
 * at [node * MCAST_FLOOD_PORTS + port] (calloc'ed, the caller frees).  A
 * loop fails the test. */
#define MCAST_FLOOD_PORTS 256
unsigned *mcast_flood(struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t mlid);

#endif

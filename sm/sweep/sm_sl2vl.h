/* SPDX-License-Identifier: MIT */
/*
 * sm_sl2vl.h - SL to VL mapping and VL arbitration, for routes on more than one SL.
 */
#ifndef IBSMD_SM_SL2VL_H
#define IBSMD_SM_SL2VL_H

#include <stddef.h>

#include "sm/core/sm.h"
#include "sm/sa/sm_qos.h"
#include "sm/util/sm_arena.h"
#include "sm/sweep/sm_route.h"

struct sm_sl2vl_result {
	size_t grouped;		/* switches set with optimized Sets (no Get) */
	size_t group_sets;	/* optimized Sets answered with the table asked for */
	size_t group_refused;	/* switches that refused one: then pair by pair */
	size_t tables;		/* tables read: switch port pairs and CA ports */
	size_t reads;		/* Gets answered (mapping and arbitration tables) */
	size_t sets;		/* mapping Sets answered with the table asked for */
	size_t vlarb_ports;	/* data ports whose VL arbitration was checked */
	size_t vlarb_sets;	/* low VLArbitrationTable blocks set */
	size_t failures;	/* SMPs that failed or Sets not taken (logged) */
	size_t unmapped;	/* switches and CA ports without SL mapping, skipped */
};

/*
 * Map SL n to VL n wherever CA traffic can flow, and give every VL in use a
 * weight in each data port's VL arbitration, when @routes use an SL above 0
 * (routes->check.max_sl); send nothing otherwise.  Every table is read and
 * set only where it falls short, pipelined through sm->rpc, but for the mapping
 * tables of a switch that offers optimized programming (SwitchInfo): those are
 * set a group at a time, without reading them first; f->attrs must hold the
 * ports' OperationalVLs as programmed.  Returns 0 (failed SMPs counted in
 * @res and logged), -ERANGE when a switch-to-switch link has fewer data VLs
 * than the routes use SLs (logged), or -errno for memory or transport failure.
 */
int sm_sl2vl_program(struct sm *sm, const struct sm_fabric *f, const struct sm_routes *routes,
		     const struct sm_qos_policy *qos, struct sm_arena *arena,
		     struct sm_sl2vl_result *res);

/*
 * With a QoS policy on (@qos), its tables instead, on every port as OpenSM
 * programs them (sm_qos.h): each data port's VLArbitrationTable blocks and
 * every (input, output) pair's SLtoVLMappingTable of a switch from the
 * switch_external tables, port 0 of a switch with an enhanced port 0 from
 * switch_port0's, CA and router ports from ca's and router's; VLs a port
 * does not operate folded as OpenSM folds them.  Read, set where they differ.
 *
 * When the routes use @nsl > 1 SLs (dfsssp's layers), a level of SL s gives
 * its paths SLs s + layer (sm_sa_path.c); the policy is met only when every
 * SL in use stays within 15 and, on every link between switches, SLs of
 * different layers map to different VLs and none to VL 15: each VL there
 * then carries one layer, whose channel dependencies the engine's credit-loop
 * check found acyclic, so the composition is deadlock free.  Otherwise
 * -ERANGE with why in @err.
 */
int sm_qos_vl_check(const struct sm_qos_policy *q, const struct sm_fabric *f, unsigned nsl,
		    char *err, size_t errlen);

#endif

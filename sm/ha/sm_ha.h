/* SPDX-License-Identifier: MIT */
/*
 * sm_ha.h - more than one SM on a subnet (IBA 14.4): SMInfo, the election,
 * polling the master, HANDOVER and ACKNOWLEDGE, SM_Key.
 *
 * After each discovery sm_ha_elect() asks every other port with IsSM for its
 * SMInfo and feeds the state machine (sm_state.h): a DISCOVERING SM that finds
 * a master, or an SM of higher rank, goes STANDBY; a MASTER that finds another
 * MASTER never programs beside it (it hands over to a higher one holding our
 * SM_Key, else stands by under it), and one that finds a higher STANDBY
 * holding our SM_Key hands over to it.  A STANDBY polls its master
 * (sm_ha_poll(), every ha.poll_interval_ms) and counts it lost after
 * ha.poll_retries polls in a row went unanswered.  SMInfo Get and Set sent to
 * our port arrive through sm_ha_sm_info_in(); our SM_Key shows to whoever
 * passes our port's M_Key check.
 */
#ifndef IBSMD_SM_HA_H
#define IBSMD_SM_HA_H

#include <stdbool.h>
#include <stdint.h>

#include "mad/model/topo.h"
#include "mad/mad_smp.h"
#include "mad/mad_transport.h"

struct sm;
struct sm_fabric;
struct sm_arena;

/* AttributeModifier of SMInfo Set (IBA 14.4.1, table 152) */
enum sm_ha_control {
	SM_HA_HANDOVER = 1,
	SM_HA_ACKNOWLEDGE = 2,
	SM_HA_DISABLE = 3,
	SM_HA_STANDBY = 4,
	SM_HA_DISCOVER = 5,
};

/* Another SM, and how to reach its port: LID routed when @lid is set (it asked
 * us LID routed), else along @path. */
struct sm_ha_peer {
	uint64_t guid;
	uint16_t lid;
	struct topo_path path;
	uint8_t priority;
	uint8_t state;
	bool holds_key;		/* its answer to our Get showed our SM_Key */
};

struct sm_ha {
	struct sm_ha_peer master;	/* STANDBY: the SM polled */
	struct sm_ha_peer handover;	/* MASTER: sent HANDOVER, awaits ACKNOWLEDGE */
	bool handover_sent;
	uint32_t poll_tid;		/* the last poll's TID (low 32 bits), 0: none */
	bool poll_answered;
	unsigned poll_failures;		/* polls unanswered in a row */
	uint32_t tid_seq;
	uint64_t polls;			/* polls sent, for the log and tests */
	unsigned other_masters;		/* MASTERs the last election's survey found */
	uint64_t prompted_ms;		/* a peer's SMInfo last made a sweep due */
	/* the SM whose HANDOVER made us MASTER, and when (mad_now_ms()): it may
	 * still say MASTER until it has our answer (sm_ha.c, SM_HA_YIELD_MS) */
	uint64_t yielded_guid, yielded_ms;
	unsigned masters_stored;	/* status masters_seen as last stored, + 1 (0: none) */
	bool other_master_shown;	/* status other_master names one */
	uint64_t represses;		/* TrapRepress sent (sm_mad_in.c) */
	uint64_t repress_failures;	/* TrapRepress the transport refused */
	uint64_t repress_failing;	/* of them, since the last one sent */
};

/* True when SM (@prio_a, @guid_a) outranks (@prio_b, @guid_b): the higher
 * priority, then the lower GUID (IBA 14.4.1.1). */
bool sm_ha_outranks(uint8_t prio_a, uint64_t guid_a, uint8_t prio_b, uint64_t guid_b);

/*
 * After discovery of @f: SMInfo Get to every other port with IsSM (request
 * contexts from @arena), then the election (events to the state machine) and,
 * from a MASTER, HANDOVER to a higher STANDBY that holds our SM_Key.  Runs only
 * in DISCOVERING and MASTER.  0, or the transport's -errno.
 */
int sm_ha_elect(struct sm *sm, const struct sm_fabric *f, struct sm_arena *arena);

/* The master SMs this SM knows on the subnet, itself included: a MASTER
 * counts itself and the other masters its last survey found (more than 1:
 * two masters), a STANDBY the master it polls, an SM not yet either what its
 * last survey found (0: no master). */
unsigned sm_ha_masters_seen(const struct sm *sm);

/* Every ha.poll_interval_ms, in any state: the status key masters_seen kept
 * current; in STANDBY, count the last poll if it went unanswered
 * (MASTER_LOST after ha.poll_retries in a row), then send the next. */
void sm_ha_poll(struct sm *sm);

/* SMInfo that came unasked (sm_mad_in.c): Get and Set from other SMs and
 * tools, answered on our port; GetResp to our polls. */
void sm_ha_sm_info_in(struct sm *sm, const struct mad_smp *smp, const struct mad_addr *from);

#endif

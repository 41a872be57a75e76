/* SPDX-License-Identifier: MIT */
/*
 * sm_sim_traffic.h - a steady traffic pattern on the simulated fabric, for
 * the port counters: the pattern is routed through the forwarding tables the
 * sim's switches hold now (as the SM programmed them, rebalancing included),
 * with the traffic model's max-min fair rates (routing/rt_traffic.h), and
 * each port's PMA counts from then on at the rate the model gives it
 * (sim_perf_set_rate()): data and packets sent on the port, received on its
 * peer.  Call it again after the LFTs changed to follow them.
 *
 * The model is a fluid one: flows share links at their fair rates and
 * nothing queues.  PortXmitWait is a proxy: a port whose flows would send
 * more on a crossbar than they get (demand above load) waits for the share
 * of the time the rest would take, at most all of it, counted in ticks of
 * the node's PortSamplesControl.Tick (mad_sim.h).  Packets are counted as
 * full 2,048-octet payloads.
 *
 * It lives with the daemon's library because it needs both the sim
 * (mad/) and the model (routing/), which mad/ may not use.
 */
#ifndef IBSMD_SM_SIM_TRAFFIC_H
#define IBSMD_SM_SIM_TRAFFIC_H

#include "mad/sim/mad_sim.h"
#include "routing/rt_traffic.h"

/* Data words per packet the counters are given (a 2,048-octet payload). */
#define SM_SIM_TRAFFIC_PKT_WORDS 512

/*
 * Run @pattern (rt_traffic_pattern_parse()) over @f's links as its PortInfo
 * shows them (LIDs, widths, speeds; links not LinkUp left out) and its
 * switches' LFTs, and set every linked port's rate.  @out (may be NULL)
 * receives the model's figures (stat.ebb: the effective bandwidth these LFTs
 * give the pattern).  0, or -errno of rt_traffic() (-ENOMEM, -EINVAL,
 * -E2BIG) with the rates unchanged.
 */
int sm_sim_traffic(struct sim_fabric *f, enum rt_traffic_pattern pattern, struct rt_traffic *out);

struct sm;

/*
 * The daemon's side: when the SM runs on a sim backend whose spec asked for
 * traffic=PATTERN, run it over the LFTs the sim holds now (before each
 * counter pass, so the counters follow what rebalancing moved).  The model
 * runs on a worker (sm_offload()) while the loop keeps serving; the sim is
 * read before and its rates set after, on this thread.  0 (also without a
 * sim or a pattern), -EINVAL for a pattern rt_traffic does not know,
 * -ECANCELED when the SM stops meanwhile, or the -errno of sm_sim_traffic();
 * logged.
 */
int sm_sim_traffic_follow(struct sm *sm);

#endif

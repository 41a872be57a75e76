// SPDX-License-Identifier: MIT
/*
 * mad_sim_route.c - how an SMP from the SM travels through the simulated fabric.
 *
 * Directed route (IBA 14.2.2): the SMP leaves the SM's node by InitialPath[1],
 * each node it reaches records the port it came in by in ReturnPath[hop
 * pointer] and forwards it by InitialPath[hop pointer + 1], until the hop
 * pointer reaches the hop count; the answer comes back along ReturnPath with the
 * direction bit set.  Only permissive DrSLID/DrDLID (pure directed route) are
 * modelled; SMPs with LID-routed parts are dropped.
 *
 * LID routed (IBA 18.2.4.3): each switch forwards by its LFT entry for the DLID
 * (entries above LinearFDBTop, unset or pointing at port 0 lose the packet);
 * the port whose LID range (LID .. LID + 2^LMC - 1) holds the DLID takes it.
 * The answer is routed the same way back to the SM's LID.  QP0 traffic passes
 * ports in any logical state, so only PortPhysicalState LinkUp matters.
 *
 * Several SMs may be attached (struct sim_sm).  Each request starts at its
 * sender's port and its answer is queued for whichever SM's port it reaches on
 * the way back.  SMInfo (IBA 14.4) that reaches a port with an SM bound is not
 * the SMA's business: it is queued for that SM, whose answer (a GetResp sent
 * through its own transport) travels back the same way, along ReturnPath or
 * LID routed, to the asker.  Such an SMInfo holds the VL15 buffer of the port
 * it reaches until that SM reads it; the answer holds none.  A Trap one SM
 * sends another (OpenSM's Trap 144) is queued for that SM too, and its
 * TrapRepress goes back to the sender; a TrapRepress for a simulated SMA's
 * trap is taken there and counted (each trap is sent once, never repeated).
 *
 * Every link crossing may be lost to injected loss; dead nodes neither answer
 * nor forward; an SMP that enters its node by a port whose VL15 buffer is
 * full (smp_buffer SMPs in by that port whose answers the SM has not read)
 * is lost.  Whatever is lost is counted in stats.dropped.
 */
#include <string.h>

#include "mad/mad_perf.h"
#include "mad/mad_sa.h"
#include "mad/sim/mad_sim_priv.h"

static bool sim_is_switch(const struct sim_fabric *f, uint32_t node)
{
	return f->topo.nodes[node].type == MAD_NODE_SWITCH;
}

/* Send a MAD out of port @port of node @node; on arrival both name the receiving end.
 * Returns false when it is lost on the way. */
static bool sim_cross(struct sim_fabric *f, uint32_t *node, uint8_t *port)
{
	if (*port == 0 || *port > f->topo.nodes[*node].nports)
		return false;
	if (!sim_link_up(f, *node, *port) || sim_loss_hit(f, *node, *port))
		return false;
	const struct topo_port *tp = &f->topo.nodes[*node].ports[*port];
	*node = tp->peer;
	*port = tp->peer_port;
	return !f->nodes[*node].dead;
}

/* Outbound directed route (IBA 14.2.2.2).  On success @node and @port are the
 * destination and the port the SMP entered it by. */
static bool sim_dr_outbound(struct sim_fabric *f, int sm, struct mad_smp *smp,
			    uint32_t *node, uint8_t *port)
{
	uint32_t n = f->sms[sm].node;
	uint8_t p = f->sms[sm].port;

	if (smp->hop_cnt == 0) {
		*node = n;
		*port = p;
		return true;
	}
	smp->hop_ptr = 1;
	/* C14-9: a CA sends only out of the port the SMP names first. */
	if (!sim_is_switch(f, n) && smp->initial_path[1] != p)
		return false;
	for (;;) {
		p = smp->initial_path[smp->hop_ptr];
		if (!sim_cross(f, &n, &p))
			return false;
		smp->return_path[smp->hop_ptr] = p;
		if (smp->hop_ptr == smp->hop_cnt) {
			smp->hop_ptr++;
			*node = n;
			*port = p;
			return true;
		}
		if (!sim_is_switch(f, n))
			return false;	/* only switches forward */
		smp->hop_ptr++;
	}
}

/* The answer's way back along ReturnPath (IBA 14.2.2.3), from @node (reached
 * by @port): the SM whose port it arrives at, or -1 when it is lost. */
static int sim_dr_inbound(struct sim_fabric *f, struct mad_smp *smp, uint32_t node,
			  uint8_t port)
{
	uint32_t n = node;
	uint8_t p = port;

	for (smp->hop_ptr = smp->hop_cnt; smp->hop_ptr > 0;) {
		p = smp->return_path[smp->hop_ptr];
		if (!sim_cross(f, &n, &p))
			return -1;
		smp->hop_ptr--;
		if (smp->hop_ptr == 0)
			break;
		if (!sim_is_switch(f, n))
			return -1;
	}
	return sim_sm_at(f, n, p);
}

/*
 * Carry a LID-routed packet from @node toward @dlid.  @port is the port it
 * leaves by (a CA) or 0 (a switch's own SMA).  On success @node and @port name
 * the node and the port that took it.
 */
bool sim_lid_walk(struct sim_fabric *f, uint32_t *node, uint8_t *port, uint16_t dlid)
{
	uint32_t n = *node;
	uint8_t p = *port;

	for (unsigned hops = 0; hops <= SIM_MAX_LID_HOPS; hops++) {
		if (sim_lid_matches(f, n, p, dlid)) {
			*node = n;
			*port = p;
			return true;
		}
		if (sim_is_switch(f, n)) {
			p = dlid <= f->nodes[n].lft_top ? sim_get_lft(f, n, dlid)
							: MAD_LFT_NO_PORT;
			if (p == 0 || p == MAD_LFT_NO_PORT)
				return false;
		} else if (hops) {
			return false;	/* CAs do not forward */
		}
		if (!sim_cross(f, &n, &p))
			return false;
	}
	return false;
}

int sim_lid_to_sm(struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t dlid)
{
	if (!dlid || !sim_lid_walk(f, &node, &port, dlid))
		return -1;
	return sim_sm_at(f, node, port);
}

void sim_route_to_sm(struct sim_fabric *f, const struct mad_smp *smp, uint32_t node,
		     uint8_t port, uint16_t dlid, uint16_t slid, struct sim_port *holder)
{
	int to = -1;

	if (dlid && sim_lid_walk(f, &node, &port, dlid))
		to = sim_sm_at(f, node, port);
	if (to < 0) {
		f->stats.dropped++;
		return;
	}
	if (smp->method == MAD_METHOD_GET_RESP)
		f->stats.responses++;
	sim_queue_push(f, to, smp, slid, holder);
}

/* SMInfo or a Trap reaching @node/@port where an SM is bound: queued for that
 * SM, which answers it itself.  It holds the port's VL15 buffer until that SM reads it
 * (the SM's QP0 has taken it off the port), not until its answer is read: the
 * answer is another SM's packet, and that SM may never send one.  True when it
 * was taken so. */
static bool sim_to_sm(struct sim_fabric *f, const struct mad_smp *smp, uint32_t node,
		      uint8_t port, uint16_t slid)
{
	bool for_sm = smp->attr_id == MAD_ATTR_SM_INFO ||
		      (smp->method == MAD_METHOD_TRAP && smp->attr_id == MAD_ATTR_NOTICE);
	int to = for_sm ? sim_sm_at(f, node, port) : -1;

	if (to < 0)
		return false;
	sim_queue_push(f, to, smp, slid, &f->nodes[node].ports[port]);
	return true;
}

/* VL15 has no flow control: an SMP that reaches its node by a port whose
 * VL15 buffer is full is lost. */
static bool sim_buffer_full(struct sim_fabric *f, uint32_t node, uint8_t port)
{
	if (!f->smp_buffer || f->nodes[node].ports[port].held < f->smp_buffer)
		return false;
	f->stats.overflows++;
	return true;
}

static void sim_dr_request(struct sim_fabric *f, int sm, struct mad_smp *smp)
{
	uint32_t node;
	uint8_t port;

	/* Pure directed route only: DrSLID/DrDLID other than permissive are not
	 * modelled.  A request must leave with hop pointer 0 (IBA 14.2.2.2). */
	if (smp->direction || smp->hop_ptr != 0 || smp->dr_slid != MAD_LID_PERMISSIVE ||
	    smp->dr_dlid != MAD_LID_PERMISSIVE || !sim_dr_outbound(f, sm, smp, &node, &port) ||
	    sim_buffer_full(f, node, port)) {
		f->stats.dropped++;
		return;
	}
	if (sim_to_sm(f, smp, node, port, MAD_LID_PERMISSIVE))
		return;
	int to = -1;
	if (sim_sma_process(f, smp, node, port))
		to = sim_dr_inbound(f, smp, node, port);
	if (to < 0) {
		f->stats.dropped++;
		return;
	}
	f->stats.responses++;
	sim_queue_push(f, to, smp, MAD_LID_PERMISSIVE, &f->nodes[node].ports[port]);
}

static void sim_lid_request(struct sim_fabric *f, int sm, struct mad_smp *smp, uint16_t dlid)
{
	uint32_t node = f->sms[sm].node;
	uint8_t port = f->sms[sm].port;
	uint16_t slid = sim_addr_port(f, node, port)->lid;

	if (!sim_lid_walk(f, &node, &port, dlid) || sim_buffer_full(f, node, port)) {
		f->stats.dropped++;
		return;
	}
	if (sim_to_sm(f, smp, node, port, slid))
		return;
	if (!sim_sma_process(f, smp, node, port)) {
		f->stats.dropped++;
		return;
	}
	sim_route_to_sm(f, smp, node, port, slid, dlid, &f->nodes[node].ports[port]);
}

/* A TrapRepress from SM @sm, LID routed to @dlid: to the SM whose Trap it
 * answers, or taken by the SMA there.  Directed route: as an answer. */
static bool sim_trap_repress_lid(struct sim_fabric *f, int sm, struct mad_smp *smp,
				 uint16_t dlid)
{
	uint32_t node = f->sms[sm].node;
	uint8_t port = f->sms[sm].port;

	if (smp->mgmt_class == MAD_CLASS_SMI_DR)
		return false;
	if (!dlid || !sim_lid_walk(f, &node, &port, dlid)) {
		f->stats.dropped++;
		return true;
	}
	int to = sim_sm_at(f, node, port);
	if (to >= 0)
		sim_queue_push(f, to, smp, sim_addr_port(f, f->sms[sm].node, f->sms[sm].port)->lid,
			       NULL);
	else
		f->stats.represses++;
	return true;
}

/* An SM's answer to another SM's request: back the way the request came. */
static void sim_sm_response(struct sim_fabric *f, int sm, struct mad_smp *smp, uint16_t dlid)
{
	uint32_t node = f->sms[sm].node;
	uint8_t port = f->sms[sm].port;

	if (smp->mgmt_class == MAD_CLASS_SMI_DR) {
		int to = smp->direction ? sim_dr_inbound(f, smp, node, port) : -1;
		if (to < 0) {
			f->stats.dropped++;
			return;
		}
		f->stats.responses++;
		sim_queue_push(f, to, smp, MAD_LID_PERMISSIVE, NULL);
		return;
	}
	sim_route_to_sm(f, smp, node, port, dlid, sim_addr_port(f, node, port)->lid, NULL);
}

void sim_route_smp(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
		   const struct mad_addr *to)
{
	struct mad_smp smp;

	if (mad[1] == MAD_CLASS_PERF) {	/* a GMP for a PMA (mad_sim_perf.c) */
		sim_perf_request(f, sm, mad, to);
		return;
	}
	if (mad[1] == MAD_CLASS_CC) {	/* a GMP for a CC agent (mad_sim_cc.c) */
		sim_cc_request(f, sm, mad, to);
		return;
	}
	if (mad[1] == MAD_CLASS_SA) {	/* GSI: not an SMP (mad_sim_gsi.c) */
		sim_route_gsi(f, sm, mad, to);
		return;
	}
	f->stats.smps_in++;
	if (mad_smp_decode(mad, MAD_BLOCK_SIZE, &smp) || f->nodes[f->sms[sm].node].dead) {
		f->stats.dropped++;
		return;
	}
	if (smp.method == MAD_METHOD_TRAP_REPRESS &&
	    sim_trap_repress_lid(f, sm, &smp, to ? to->lid : 0))
		return;
	if (smp.method == MAD_METHOD_GET_RESP || smp.method == MAD_METHOD_TRAP_REPRESS) {
		sim_sm_response(f, sm, &smp, to ? to->lid : 0);
		return;
	}
	if (!mad_method_is_request(smp.method) && smp.method != MAD_METHOD_TRAP) {
		f->stats.dropped++;
		return;
	}
	if (smp.mgmt_class == MAD_CLASS_SMI_DR)
		sim_dr_request(f, sm, &smp);
	else
		sim_lid_request(f, sm, &smp, to ? to->lid : 0);
}

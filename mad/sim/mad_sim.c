// SPDX-License-Identifier: MIT
/*
 * mad_sim.c - the simulated fabric: life cycle, link states, faults, traps.
 *
 * A fabric is a copy of a struct topo (what is cabled) plus the state an SM
 * programs into it (mad_sim_priv.h).  Links are up when both ends are cabled,
 * neither end is Disabled and no fault cut them.  A link coming up puts both
 * ports in INIT with PortPhysicalState LinkUp; going down puts them in DOWN and
 * Polling; either way every switch at an end sets SwitchInfo PortStateChange and,
 * once it has a LID and knows the SM's, sends Trap 128 (IBA 14.2.5.1, 14.3.11).
 * The SMA (mad_sim_sma.c), the routing (mad_sim_route.c) and the transport
 * (mad_sim_transport.c) work on this state.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/sim/mad_sim_priv.h"
#include "mad/model/topofile.h"

bool sim_link_up(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	const struct topo_port *tp = &f->topo.nodes[node].ports[port];

	if (port == 0 || tp->peer == TOPO_NONE)
		return false;
	if (f->ports_off == 0)
		return true;	/* the common case: no port to look at */
	const struct sim_port *a = &f->nodes[node].ports[port];
	const struct sim_port *b = &f->nodes[tp->peer].ports[tp->peer_port];
	return !a->cut && !a->disabled && !b->cut && !b->disabled;
}

void sim_port_set_off(struct sim_fabric *f, struct sim_port *sp, bool cut, bool disabled)
{
	f->ports_off -= sp->cut || sp->disabled;
	sp->cut = cut;
	sp->disabled = disabled;
	f->ports_off += cut || disabled;
}

uint8_t sim_phys_state(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	if (port == 0)
		return MAD_PHYS_LINKUP;	/* a switch's management port */
	if (f->nodes[node].ports[port].disabled)
		return MAD_PHYS_DISABLED;
	return sim_link_up(f, node, port) ? MAD_PHYS_LINKUP : MAD_PHYS_POLLING;
}

uint8_t sim_width_supported(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	return (uint8_t)(1 | f->topo.nodes[node].ports[port].width);	/* 1x and as cabled */
}

uint8_t sim_speed_supported(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	(void)f, (void)node, (void)port;
	return 7;	/* SDR, DDR, QDR */
}

/* Every extended speed up to the port's rate: an NDR port also runs HDR, EDR
 * and FDR (a bit mask from 1 up to the rate's bit); an XDR port all four. */
uint8_t sim_speed_ext_supported(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	uint8_t speed = f->topo.nodes[node].ports[port].speed;
	uint8_t top = (uint8_t)((speed > MAD_SPEED_NDR ? MAD_SPEED_NDR : speed) >>
				SIM_EXT_SPEED_SHIFT);

	return top ? (uint8_t)((top << 1) - 1) : 0;
}

uint8_t sim_speed_ext2_supported(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	return f->topo.nodes[node].ports[port].speed >= MAD_SPEED_XDR;
}

void sim_link_rate(const struct sim_fabric *f, uint32_t node, uint8_t port, uint8_t *width,
		   uint8_t *speed)
{
	const struct topo_port *tp = &f->topo.nodes[node].ports[port];

	*width = *speed = 0;
	if (!sim_link_up(f, node, port))
		return;
	const struct sim_port *a = &f->nodes[node].ports[port];
	const struct sim_port *b = &f->nodes[tp->peer].ports[tp->peer_port];
	uint8_t w = a->width_enabled & b->width_enabled & sim_width_supported(f, node, port) &
		    sim_width_supported(f, tp->peer, tp->peer_port);
	uint8_t e = a->speed_ext_enabled & b->speed_ext_enabled &
		    sim_speed_ext_supported(f, node, port) &
		    sim_speed_ext_supported(f, tp->peer, tp->peer_port);
	uint8_t s = a->speed_enabled & b->speed_enabled & sim_speed_supported(f, node, port) &
		    sim_speed_supported(f, tp->peer, tp->peer_port);
	uint8_t x = a->speed_ext2_enabled & b->speed_ext2_enabled &
		    sim_speed_ext2_supported(f, node, port) &
		    sim_speed_ext2_supported(f, tp->peer, tp->peer_port);
	*width = mad_rate_best_width(w);
	*speed = x ? MAD_SPEED_XDR : e ? mad_rate_best_speed((uint8_t)(e << SIM_EXT_SPEED_SHIFT))
				     : mad_rate_best_speed(s);
}

struct sim_port *sim_addr_port(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	if (f->topo.nodes[node].type == MAD_NODE_SWITCH)
		port = 0;
	return &f->nodes[node].ports[port];
}

bool sim_lid_matches(const struct sim_fabric *f, uint32_t node, uint8_t port, uint16_t lid)
{
	const struct sim_port *sp = sim_addr_port(f, node, port);

	return sp->lid && lid >= sp->lid && (unsigned)(lid - sp->lid) < (1u << sp->lmc);
}

/* xorshift64*: deterministic for a seed, good enough for loss decisions. */
static double sim_random(struct sim_fabric *f)
{
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return (double)((f->rng * 0x2545f4914f6cdd1dULL) >> 11) / (double)(1ULL << 53);
}

bool sim_loss_hit(struct sim_fabric *f, uint32_t node, uint8_t port)
{
	if (!f->lossy)
		return false;	/* no port's rate to look at */
	float rate = f->nodes[node].ports[port].loss;

	return rate > 0 && sim_random(f) < rate;
}

void sim_set_seed(struct sim_fabric *f, uint64_t seed)
{
	/* splitmix64 of the seed, so that 0 and small seeds give a good state */
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	f->rng = z ? z : 1;
}

/* Trap 128 from switch @sw to its SM (IBA 14.2.5.1 table 143). */
static void sim_send_trap128(struct sim_fabric *f, uint32_t sw)
{
	const struct sim_port *p0 = &f->nodes[sw].ports[0];
	struct mad_notice n = {
		.is_generic = true,
		.type = 1,		/* urgent */
		.producer_type = 2,	/* switch */
		.trap_num = MAD_TRAP_LINK_STATE_CHANGE,
		.issuer_lid = p0->lid,
	};
	struct mad_smp smp;

	mad_notice_set_lid(&n, p0->lid);
	mad_smp_init_lid(&smp, MAD_METHOD_TRAP, MAD_ATTR_NOTICE, 0);
	smp.tid = ++f->next_trap_tid;
	mad_notice_encode(&n, smp.data);
	f->stats.traps++;
	sim_route_to_sm(f, &smp, sw, 0, p0->sm_lid, p0->lid, NULL);
}

int sim_node_trap(struct sim_fabric *f, uint32_t node)
{
	if (node >= f->topo.n || f->topo.nodes[node].type != MAD_NODE_SWITCH)
		return -EINVAL;
	const struct sim_port *p0 = &f->nodes[node].ports[0];
	if (p0->lid && p0->sm_lid && !f->nodes[node].dead)
		sim_send_trap128(f, node);
	return 0;
}

static void sim_port_changed(struct sim_fabric *f, uint32_t node, uint8_t port, bool up)
{
	struct sim_node *sn = &f->nodes[node];

	sn->ports[port].state = up ? MAD_PORT_INIT : MAD_PORT_DOWN;
	if (f->topo.nodes[node].type != MAD_NODE_SWITCH)
		return;
	sn->port_state_change = true;
	sim_node_trap(f, node);
}

void sim_link_changed(struct sim_fabric *f, uint32_t node, uint8_t port, bool was_up)
{
	const struct topo_port *tp = &f->topo.nodes[node].ports[port];
	bool up = sim_link_up(f, node, port);

	if (up == was_up)
		return;
	if (!up) {
		sim_perf_link_downed(f, node, port);
		if (tp->peer != TOPO_NONE)
			sim_perf_link_downed(f, tp->peer, tp->peer_port);
	}
	sim_port_changed(f, node, port, up);
	if (tp->peer != TOPO_NONE)
		sim_port_changed(f, tp->peer, tp->peer_port, up);
}

static bool sim_valid_port(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	return node < f->topo.n && port >= 1 && port <= f->topo.nodes[node].nports;
}

int sim_link_set(struct sim_fabric *f, uint32_t node, uint8_t port, bool up)
{
	if (!sim_valid_port(f, node, port))
		return -EINVAL;
	const struct topo_port *tp = &f->topo.nodes[node].ports[port];
	if (tp->peer == TOPO_NONE)
		return -ENOTCONN;
	bool was = sim_link_up(f, node, port);
	struct sim_port *a = &f->nodes[node].ports[port];
	struct sim_port *b = &f->nodes[tp->peer].ports[tp->peer_port];
	sim_port_set_off(f, a, !up, a->disabled);
	sim_port_set_off(f, b, !up, b->disabled);
	sim_link_changed(f, node, port, was);
	return 0;
}

int sim_link_loss(struct sim_fabric *f, uint32_t node, uint8_t port, double rate)
{
	if (!sim_valid_port(f, node, port) || !(rate >= 0 && rate <= 1))
		return -EINVAL;
	const struct topo_port *tp = &f->topo.nodes[node].ports[port];
	f->lossy |= rate > 0;
	f->nodes[node].ports[port].loss = (float)rate;
	if (tp->peer != TOPO_NONE)
		f->nodes[tp->peer].ports[tp->peer_port].loss = (float)rate;
	return 0;
}

int sim_node_dead(struct sim_fabric *f, uint32_t node, bool dead)
{
	if (node >= f->topo.n)
		return -EINVAL;
	f->nodes[node].dead = dead;
	return 0;
}

int sim_node_set_guid(struct sim_fabric *f, uint32_t node, uint64_t guid)
{
	if (node >= f->topo.n || !guid)
		return -EINVAL;
	struct topo_node *n = &f->topo.nodes[node];
	n->guid = guid;
	if (n->type == MAD_NODE_SWITCH)
		for (unsigned p = 0; p <= n->nports; p++)
			n->ports[p].guid = guid;
	return 0;
}

void sim_set_latency(struct sim_fabric *f, unsigned usec)
{
	f->latency_us = usec;
}

void sim_set_smp_buffer(struct sim_fabric *f, unsigned n)
{
	f->smp_buffer = n;
}

void sim_set_arm_to_active(struct sim_fabric *f, int msec)
{
	f->arm_to_active_us = msec < 0 ? -1 : (int64_t)msec * 1000;
}

uint8_t sim_port_state(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	const struct sim_port *sp = &f->nodes[node].ports[port];

	if (sp->state == MAD_PORT_ARMED && f->arm_to_active_us >= 0 &&
	    sim_now_us() - sp->armed_us >= (uint64_t)f->arm_to_active_us)
		return MAD_PORT_ACTIVE;
	return sp->state;
}

void sim_node_settle(struct sim_fabric *f, uint32_t node)
{
	if (f->arm_to_active_us < 0)
		return;
	for (unsigned p = 1; p <= f->topo.nodes[node].nports; p++) {
		struct sim_port *sp = &f->nodes[node].ports[p];
		uint8_t was = sp->state;
		sp->state = sim_port_state(f, node, (uint8_t)p);
		if (sp->state == MAD_PORT_ACTIVE && was != MAD_PORT_ACTIVE)
			sim_host_event(f, node, (uint8_t)p, SIM_HOST_ACTIVE);
	}
}

int sim_set_attach(struct sim_fabric *f, uint32_t node, uint8_t port)
{
	if (node >= f->topo.n)
		return -EINVAL;
	const struct topo_node *n = &f->topo.nodes[node];
	if (n->type == MAD_NODE_SWITCH ? port != 0 : (port < 1 || port > n->nports))
		return -EINVAL;
	f->sms[0].node = node;
	f->sms[0].port = port;
	return 0;
}

int sim_sm_at(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	bool sw = f->topo.nodes[node].type == MAD_NODE_SWITCH;

	for (int i = 0; i < SIM_MAX_SMS; i++)
		if (f->sms[i].bound && f->sms[i].node == node && (sw || f->sms[i].port == port))
			return i;
	return -1;
}

bool sim_sm_bound_at(const struct sim_fabric *f, uint32_t node, uint8_t port)
{
	for (int i = 0; i < SIM_MAX_SMS; i++)
		if (f->sms[i].bound && f->sms[i].node == node && f->sms[i].port == port)
			return true;
	return false;
}

uint8_t sim_first_port(const struct sim_fabric *f, uint32_t node)
{
	const struct topo_node *n = &f->topo.nodes[node];

	if (n->type == MAD_NODE_SWITCH)
		return 0;
	for (unsigned p = 1; p <= n->nports; p++)
		if (n->ports[p].peer != TOPO_NONE)
			return (uint8_t)p;
	return 1;
}

/* Power-on state of one port (IBA 7.2: a cabled port trains to LinkUp/INIT). */
static void sim_port_init(struct sim_port *sp, const struct topo_port *tp, bool cabled)
{
	sp->state = cabled ? MAD_PORT_INIT : MAD_PORT_DOWN;
	sp->lid = tp->lid;
	sp->lmc = tp->lmc;
	sp->width_enabled = (uint8_t)(1 | tp->width);	/* 1x and the cabled width */
	sp->speed_enabled = 7;				/* SDR, DDR, QDR */
	sp->speed_ext_enabled = (uint8_t)((tp->speed > MAD_SPEED_NDR ? MAD_SPEED_NDR : tp->speed) >>
					  SIM_EXT_SPEED_SHIFT);
	sp->speed_ext2_enabled = tp->speed >= MAD_SPEED_XDR;
	sp->local_phys_errors = 8;
	sp->overrun_errors = 8;
	sp->neighbor_mtu = 4;				/* 2048 */
	sp->oper_vls = SIM_VL_CAP;			/* VL0-7 */
	sp->vl_stall = 7;
	sp->hoq_life = 0;
	sp->subnet_timeout = 0;
}

/* Take ownership of @t and build the dynamic state. */
static int sim_fabric_adopt(struct topo *t, struct sim_fabric **out)
{
	struct sim_fabric *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->topo = *t;
	pthread_mutex_init(&f->mu, NULL);
	for (int i = 0; i < SIM_MAX_SMS; i++)
		f->sms[i].timerfd = -1;
	f->nodes = calloc(t->n ? t->n : 1, sizeof(*f->nodes));
	if (!f->nodes) {
		free(f);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < t->n; i++) {
		const struct topo_node *tn = &t->nodes[i];
		struct sim_node *sn = &f->nodes[i];
		sn->ports = calloc((size_t)tn->nports + 1, sizeof(*sn->ports));
		if (!sn->ports) {
			topo_init(t);
			sim_fabric_free(f);
			return -ENOMEM;
		}
		for (unsigned p = 0; p <= tn->nports; p++) {
			sim_port_init(&sn->ports[p], &tn->ports[p],
				      p == 0 || tn->ports[p].peer != TOPO_NONE);
			sn->ext_speeds |= tn->ports[p].speed >= MAD_SPEED_FDR;
		}
		/* A switch's management port has no link to train: it is Active from
		 * power-on, as ibsim and switches report it.  CAs have no port 0. */
		sn->ports[0].state = tn->type == MAD_NODE_SWITCH ? MAD_PORT_ACTIVE
							     : MAD_PORT_NOP;
		/* PortSamplesControl.Tick as the device reports it (Quantum: 7) */
		sn->perf_tick = mad_perf_device_tick(tn->vendor_id, tn->device_id);
		if (tn->ar_capable && sim_node_set_ar(f, i, true)) {
			topo_init(t);
			sim_fabric_free(f);
			return -ENOMEM;
		}
	}
	topo_init(t);
	sim_set_seed(f, 1);
	f->smp_buffer = SIM_SMP_BUFFER;
	f->arm_to_active_us = -1;
	if (f->topo.n)
		sim_set_attach(f, 0, sim_first_port(f, 0));
	*out = f;
	return 0;
}

int sim_fabric_load(const char *path, struct sim_fabric **out, char *err, size_t errlen)
{
	struct topo t;
	int rc = topofile_load(path, &t, err, errlen);

	if (rc)
		return rc;
	rc = sim_fabric_adopt(&t, out);
	if (rc) {
		topo_free(&t);
		snprintf(err, errlen, "%s: out of memory", path);
	}
	return rc;
}

/* Deep copy of @src into @dst (initialised here).  0 or -errno. */
static int sim_topo_copy(const struct topo *src, struct topo *dst)
{
	topo_init(dst);
	for (uint32_t i = 0; i < src->n; i++) {
		const struct topo_node *s = &src->nodes[i];
		if (topo_add_node(dst, s->type, s->nports, s->guid) == TOPO_NONE) {
			int e = errno;
			topo_free(dst);
			return -e;
		}
		struct topo_node *d = &dst->nodes[i];
		struct topo_port *ports = d->ports;
		*d = *s;
		d->ports = ports;
		memcpy(ports, s->ports, ((size_t)s->nports + 1) * sizeof(*ports));
	}
	return 0;
}

int sim_fabric_from_topo(const struct topo *t, struct sim_fabric **out)
{
	struct topo copy;
	int rc = sim_topo_copy(t, &copy);

	if (rc)
		return rc;
	rc = sim_fabric_adopt(&copy, out);
	if (rc)
		topo_free(&copy);
	return rc;
}

void sim_fabric_free(struct sim_fabric *f)
{
	if (!f)
		return;
	for (uint32_t i = 0; i < f->topo.n; i++) {
		struct sim_node *sn = &f->nodes[i];
		if (!sn->ports)
			continue;
		for (unsigned p = 0; p <= f->topo.nodes[i].nports; p++) {
			free(sn->ports[p].pkeys);
			free(sn->ports[p].guids);
			free(sn->ports[p].sl2vl);
			free(sn->ports[p].vlarb);
			free(sn->ports[p].host);
			sim_perf_free(&sn->ports[p]);
		}
		free(sn->ports);
		free(sn->lft);
		free(sn->mft);
		sim_ar_free(sn);
		sim_cc_free(sn);
	}
	for (int i = 0; i < SIM_MAX_SMS; i++) {
		if (f->sms[i].timerfd >= 0)
			close(f->sms[i].timerfd);
		free(f->sms[i].q);
		sim_gsi_unbind(f, i);
	}
	pthread_mutex_destroy(&f->mu);
	topo_free(&f->topo);
	free(f->nodes);
	free(f->ev);
	free(f);
}

int sim_node_set_quirks(struct sim_fabric *f, uint32_t node, unsigned quirks)
{
	if (node >= f->topo.n)
		return -EINVAL;
	f->nodes[node].quirks = (uint16_t)quirks;
	for (unsigned p = 0; (quirks & SIM_QUIRK_FOUR_VLS) && p <= f->topo.nodes[node].nports; p++)
		if (f->nodes[node].ports[p].oper_vls > SIM_VL_CAP - 1)
			f->nodes[node].ports[p].oper_vls = SIM_VL_CAP - 1;
	return 0;
}

void sim_set_opt_sl2vl(struct sim_fabric *f, bool on)
{
	for (uint32_t n = 0; n < f->topo.n; n++)
		if (f->topo.nodes[n].type == MAD_NODE_SWITCH)
			f->nodes[n].quirks = (uint16_t)(on ? f->nodes[n].quirks & ~SIM_QUIRK_NO_OPT_SL2VL
							  : f->nodes[n].quirks | SIM_QUIRK_NO_OPT_SL2VL);
}

int sim_port_set_enabled(struct sim_fabric *f, uint32_t node, uint8_t port, uint8_t width,
			 uint8_t speed, uint8_t speed_ext)
{
	if (node >= f->topo.n || port == 0 || port > f->topo.nodes[node].nports)
		return -EINVAL;
	struct sim_port *sp = &f->nodes[node].ports[port];
	sp->width_enabled = width;
	sp->speed_enabled = speed;
	sp->speed_ext_enabled = speed_ext;
	return 0;
}

void sim_set_lenient(struct sim_fabric *f, unsigned lenient)
{
	f->lenient = lenient;
}

const struct topo *sim_fabric_topo(const struct sim_fabric *f)
{
	return &f->topo;
}

void sim_get_stats(const struct sim_fabric *f, struct sim_stats *st)
{
	*st = f->stats;
}

uint8_t sim_get_lft(const struct sim_fabric *f, uint32_t node, uint16_t lid)
{
	if (node >= f->topo.n)
		return MAD_LFT_NO_PORT;
	const struct sim_node *sn = &f->nodes[node];
	return lid < sn->lft_len ? sn->lft[lid] : MAD_LFT_NO_PORT;
}

// SPDX-License-Identifier: MIT
/*
 * sm_sim_traffic.c - a steady traffic pattern driving the sim's port
 * counters (see sm_sim_traffic.h).
 *
 * Flow, in three steps.  On the loop thread, a copy of the sim's topology
 * with what each port's PortInfo says now (LID, LMC, state, width, speed) and
 * the switches' LFTs (sim_get_lft).  On a worker (sm_offload(): the model
 * takes seconds at 3,456 hosts, and the loop serves the control socket, the
 * SA and traps meanwhile), its routing view and rt_traffic() with per-port
 * loads (the share of the link's data rate the flows leaving by the port use)
 * and demands (the same for the rates the flows would get on a crossbar).
 * Back on the loop thread, per port, its load as data words and packets per
 * millisecond sent, its peer's as received, and as PortXmitWait the share of
 * the time its held-back traffic (demand - load) would take to send, at most
 * all of it, as time (the sim's PMA counts it in the node's ticks).  The copy
 * is the worker's alone: the sim goes on answering MADs on the loop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo_rate.h"
#include "mad/model/topo_view.h"
#include "sm/core/sm.h"
#include "sm/util/sm_log.h"
#include "sm/telemetry/sm_sim_traffic.h"

/* A copy of @f's topology with the ports as their PortInfo has them now;
 * *@max_lid the highest LID.  0 or -ENOMEM. */
static int traffic_topo(const struct sim_fabric *f, struct topo *t, uint16_t *max_lid)
{
	const struct topo *s = sim_fabric_topo(f);

	topo_init(t);
	*max_lid = 0;
	for (uint32_t n = 0; n < s->n; n++) {
		const struct topo_node *sn = &s->nodes[n];
		if (topo_add_node(t, sn->type, sn->nports, sn->guid) != n)
			return -ENOMEM;
		memcpy(t->nodes[n].desc, sn->desc, sizeof(sn->desc));
	}
	for (uint32_t n = 0; n < s->n; n++)
		for (uint8_t p = 0; p <= s->nodes[n].nports; p++) {
			const struct topo_port *sp = &s->nodes[n].ports[p];
			struct topo_port *tp = &t->nodes[n].ports[p];
			struct mad_port_info pi;
			if (p && sp->peer != TOPO_NONE && sp->peer > n &&
			    topo_link(t, n, p, sp->peer, sp->peer_port))
				return -ENOMEM;
			if (sim_get_port_info(f, n, p, &pi))
				continue;	/* a CA's port 0 */
			tp->lid = pi.lid;
			tp->lmc = pi.lmc;
			tp->state = pi.port_state;
			tp->phys_state = pi.phys_state;
			tp->width = pi.link_width_active;
			tp->speed = mad_port_speed_active(&pi, true);
			uint32_t top = pi.lid + (1u << pi.lmc) - 1;
			if (pi.lid && top > *max_lid)
				*max_lid = top > UINT16_MAX ? UINT16_MAX : (uint16_t)top;
		}
	return 0;
}

/* Data words per millisecond a port of @tp's rate sends at @load. */
static double words_per_ms(const struct topo_port *tp, double load)
{
	/* Mb/s -> octets/ms is x 1000 / 8, -> words x 1/4 */
	return load > 0 ? load * mad_rate_mbps(tp->width, tp->speed) * 1000.0 / 32 : 0;
}

/* Nanoseconds per millisecond a port held back by @over of its capacity
 * (demand - load) waits to send: its PMA counts them in its own ticks. */
static double wait_ns_per_ms(double over)
{
	return over > 0 ? (over < 1 ? over : 1) * 1e6 : 0;
}

static int traffic_rates(struct sim_fabric *f, const struct topo *t, double *const *load,
			 double *const *demand)
{
	for (uint32_t n = 0; n < t->n; n++)
		for (uint8_t p = 1; p <= t->nodes[n].nports; p++) {
			const struct topo_port *tp = &t->nodes[n].ports[p];
			if (tp->peer == TOPO_NONE)
				continue;
			const struct topo_port *pp = &t->nodes[tp->peer].ports[tp->peer_port];
			double out = words_per_ms(tp, load[n][p]);
			double in = words_per_ms(pp, load[tp->peer][tp->peer_port]);
			const struct sim_perf_rate r = {
				.xmit_data = out, .rcv_data = in,
				.xmit_pkts = out / SM_SIM_TRAFFIC_PKT_WORDS,
				.rcv_pkts = in / SM_SIM_TRAFFIC_PKT_WORDS,
				.xmit_wait_ns = wait_ns_per_ms(demand[n][p] - load[n][p]),
			};
			int rc = sim_perf_set_rate(f, n, p, &r);
			if (rc)
				return rc;
		}
	return 0;
}

/* What the model needs, read from the sim on the loop thread (snapshot()),
 * then worked on by a worker alone (compute()) and applied back to the sim on
 * the loop thread (traffic_rates()). */
struct traffic_job {
	enum rt_traffic_pattern pattern;
	struct topo t;
	uint16_t max_lid;
	uint8_t **lft;		/* per switch: its LFT, LIDs 0 .. max_lid */
	double **load, **demand;	/* per node and port: the model's answer */
	struct rt_traffic tr;
};

static void job_free(struct traffic_job *j)
{
	for (uint32_t n = 0; n < j->t.n; n++) {
		free(j->load ? j->load[n] : NULL);
		free(j->demand ? j->demand[n] : NULL);
		free(j->lft ? j->lft[n] : NULL);
	}
	free(j->load);
	free(j->demand);
	free(j->lft);
	topo_free(&j->t);
	free(j);
}

/* A new job for @pattern over @f as its devices are now, or NULL (-ENOMEM in
 * *@rc). */
static struct traffic_job *snapshot(const struct sim_fabric *f, enum rt_traffic_pattern pattern,
				    int *rc)
{
	struct traffic_job *j = calloc(1, sizeof(*j));

	if (!j) {
		*rc = -ENOMEM;
		return NULL;
	}
	j->pattern = pattern;
	*rc = traffic_topo(f, &j->t, &j->max_lid);
	j->load = calloc((size_t)j->t.n + 1, sizeof(*j->load));
	j->demand = calloc((size_t)j->t.n + 1, sizeof(*j->demand));
	j->lft = calloc((size_t)j->t.n + 1, sizeof(*j->lft));
	if (!*rc && (!j->load || !j->demand || !j->lft))
		*rc = -ENOMEM;
	for (uint32_t n = 0; !*rc && n < j->t.n; n++) {
		if (!(j->load[n] = calloc(j->t.nodes[n].nports + 1u, sizeof(double))) ||
		    !(j->demand[n] = calloc(j->t.nodes[n].nports + 1u, sizeof(double))))
			*rc = -ENOMEM;
		else if (j->t.nodes[n].type == MAD_NODE_SWITCH &&
			 !(j->lft[n] = malloc((size_t)j->max_lid + 1)))
			*rc = -ENOMEM;
		for (uint32_t lid = 0; !*rc && j->lft[n] && lid <= j->max_lid; lid++)
			j->lft[n][lid] = sim_get_lft(f, n, (uint16_t)lid);
	}
	if (*rc) {
		job_free(j);
		return NULL;
	}
	return j;
}

/* The model over the job's copy: no sim, no SM, so any thread may run it.
 * 0 or the -errno of topo_view_build() or rt_traffic(). */
static int compute(void *arg)
{
	struct traffic_job *j = arg;
	struct topo_view m = { 0 };
	int rc = topo_view_build(&j->t, j->max_lid, &m);

	if (rc)
		return rc;
	const struct ibsmd_rt_ctx ctx = { .view = &m.v, .lft = j->lft };
	const struct rt_traffic_opts o = { .pattern = j->pattern, .port_load = j->load,
					   .port_demand = j->demand };
	rc = rt_traffic(&ctx, &o, &j->tr);
	topo_view_free(&m);
	return rc;
}

int sm_sim_traffic(struct sim_fabric *f, enum rt_traffic_pattern pattern, struct rt_traffic *out)
{
	int rc;
	struct traffic_job *j = snapshot(f, pattern, &rc);

	if (!j)
		return rc;
	rc = compute(j);
	if (!rc)
		rc = traffic_rates(f, &j->t, j->load, j->demand);
	if (!rc && out)
		*out = j->tr;
	job_free(j);
	return rc;
}

int sm_sim_traffic_follow(struct sm *sm)
{
	struct sim_fabric *f = sm->t ? sim_transport_fabric(sm->t) : NULL;
	enum rt_traffic_pattern p;
	struct traffic_job *j = NULL;

	if (!f || !*sim_traffic(f))
		return 0;
	int rc = rt_traffic_pattern_parse(sim_traffic(f), &p);
	if (!rc)
		j = snapshot(f, p, &rc);
	if (j) {
		rc = sm_offload(sm, compute, j);
		if (rc == -ECANCELED)
			return rc;	/* stopping: the worker keeps @j to the end */
		if (!rc)
			rc = traffic_rates(f, &j->t, j->load, j->demand);
	}
	if (rc)
		sm_err("sim traffic %s: %s", sim_traffic(f), strerror(-rc));
	else
		sm_debug("sim traffic %s: EBB %.4f over the LFTs the sim holds", sim_traffic(f),
			 j->tr.stat.ebb);
	if (j)
		job_free(j);
	return rc;
}

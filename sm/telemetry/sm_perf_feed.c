// SPDX-License-Identifier: MIT
/*
 * sm_perf_feed.c - the performance manager's samples fed to isolation and
 * rebalancing (see sm_perf_feed.h).
 *
 * Flow: the sample hook (on the loop thread, once per port sampled; a
 * switch's port 0 is passed over: no link to isolate or route around) ->
 * sm_isolate_observe_errors() and, for a switch port, sm_rebalance_observe_port()
 * (counted in sm->perf_feed->observed); after the poller's call: a pass cut
 * short keeps its loads; a complete one is judged by sm_rebalance_pass() when
 * every linked switch port reported, else its loads are dropped.
 */
#include <errno.h>
#include <string.h>

#include "mad/mad_perf.h"
#include "sm/core/sm.h"
#include "sm/util/sm_log.h"
#include "sm/telemetry/sm_perf_feed.h"
#include "sm/telemetry/sm_isolate.h"
#include "sm/telemetry/sm_rebalance.h"

static uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* The unit of node @guid's stored PortXmitWait, in ns (0: it counts none). */
static uint32_t wait_unit_ns(struct sm *sm, uint64_t guid)
{
	uint16_t caps;

	if (sm_perf_node_caps(sm, guid, &caps) == 0 && !(caps & MAD_PERF_CAP_XMIT_WAIT))
		return 0;
	return SM_PERF_WAIT_UNIT_PS / 1000;
}

static void feed_sample(void *ctx, const struct db_port_sample *s)
{
	struct sm *sm = ctx;
	struct sm_perf_feed *fd = sm->perf_feed;
	const struct db_port_counts *d = &s->delta;

	if (!s->interval_ms || !s->port)
		return;		/* a first sample: no rate to judge; port 0: no link */
	int rc = sm_isolate_observe_errors(sm, s->guid, s->port, clamp32(d->symbol_errors),
					   clamp32(d->link_error_recovery),
					   clamp32(d->link_downed), mad_now_ms());
	if (rc > 0)
		fd->isolated++;
	else if (rc < 0)
		sm_debug("isolation: the sample of 0x%016llx port %u dropped: %s",
			 (unsigned long long)s->guid, s->port, strerror(-rc));
	if (sm->cfg.rebalance_enable &&
	    sm_rebalance_observe_port(sm, s->guid, s->port,
				      d->xmit_data > UINT64_MAX / 4 ? UINT64_MAX : d->xmit_data * 4,
				      d->xmit_wait, wait_unit_ns(sm, s->guid),
				      s->interval_ms) == 0)
		fd->observed++;
}

/* Linked switch ports of the fabric: those a complete pass reports. */
static uint32_t switch_ports(const struct sm *sm)
{
	const struct topo *t = &sm->fabric.topo;
	uint32_t n = 0;

	for (uint32_t i = 0; sm->have_fabric && i < t->n; i++) {
		const struct topo_node *tn = &t->nodes[i];
		if (tn->type != MAD_NODE_SWITCH || !tn->ports[0].lid)
			continue;
		for (unsigned p = 1; p <= tn->nports; p++)
			n += tn->ports[p].peer != TOPO_NONE;
	}
	return n;
}

static void feed_reset(struct sm *sm)
{
	sm->perf_feed->open = false;
	sm->perf_feed->observed = sm->perf_feed->isolated = 0;
}

/* A pass is over: judge its loads if they cover every switch port. */
static void feed_judge(struct sm *sm)
{
	uint32_t want = switch_ports(sm), got = sm->perf_feed->observed;

	if (sm->perf_feed->isolated)
		sm_notice("isolation: %u links isolated from this counter pass",
			  sm->perf_feed->isolated);
	if (!sm->cfg.rebalance_enable)
		sm_rebalance_forget(sm);
	else if (sm->sweep_due) {
		/* the routes are about to change (an isolation, a trap): the
		 * loads were made by the old ones */
		sm_info("rebalancing: a heavy sweep is due: this pass is not judged");
		sm_rebalance_forget(sm);
	} else if (want && got >= want)
		sm_rebalance_pass(sm, mad_now_ms());	/* logs what it did */
	else {
		sm_info("rebalancing: %u of %u switch ports sampled over an interval this pass: "
			"nothing judged", got, want);
		sm_rebalance_forget(sm);
	}
	feed_reset(sm);
}

int sm_perf_feed_pass(struct sm *sm, sm_perf_yield_fn yield, void *yield_ctx,
		      struct sm_perf_stats *out)
{
	struct sm_perf_feed *fd = sm->perf_feed;
	struct sm_perf_stats st;

	if (!fd->hooked) {
		int rc = sm_perf_set_hook(sm, feed_sample, sm);
		if (rc)
			return rc;
		fd->hooked = true;
	}
	if (fd->open && fd->sweeps != sm->sweeps) {
		sm_rebalance_forget(sm);	/* the poller starts over too */
		feed_reset(sm);
	}
	if (!fd->open)
		fd->sweeps = sm->sweeps;
	int rc = sm_perf_pass(sm, yield, yield_ctx, &st);
	if (rc) {
		sm_rebalance_forget(sm);
		feed_reset(sm);
	} else if (st.partial) {
		fd->open = true;
	} else {
		feed_judge(sm);
	}
	if (out)
		*out = st;
	return rc;
}

// SPDX-License-Identifier: MIT
/*
 * sm_perf.c - the performance manager's sampling pass (see sm_perf.h).
 *
 * Data: between passes, each node's PMA capabilities and sample tick and
 * each port's last raw counter values, in two open-addressed maps keyed by
 * GUID (and port).  During a pass, one job per linked port (and per enhanced
 * switch port 0), in fabric order, holding that port's answers.
 *
 * Flow: jobs from the fabric -> ClassPortInfo and PortSamplesControl Gets for
 * nodes not known yet (drained) -> PortCounters (+ PortCountersExtended) Gets
 * (drained) -> Sets
 * clearing PortCounters that passed half their range (drained) -> deltas ->
 * the store (through sm->store: queued while a worker stores a sweep, the
 * pass then stamped when written) -> the hook.  Every request goes through
 * the rpc layer's GMP queue, which yields to SMPs; at most PERF_BACKLOG wait
 * at a time.  The pass stops submitting as soon as a sweep is due or the
 * caller's yield function says other work is (a light sweep): what it read
 * is stored, and the next call resumes at the first port it did not ask
 * (from the start when a heavy sweep came in between), its rows part of the
 * same pass.
 *
 * Deltas: cur - prev, or cur when the counter went backwards (cleared by us
 * or by someone else: perfquery -x).  A port's first sample counts all it
 * holds (interval 0), so the stored totals equal the port's counters until
 * the first clear.
 *
 * PortXmitWait is stored as time, in units of SM_PERF_WAIT_UNIT_PS (4 ns,
 * the tick of IBA's Tick 0 at SDR, so a default device's count is stored as
 * it is): its ticks times the tick's length, mad_perf_node_tick_ps() of the
 * node's PortSamplesControl.Tick at the port's link rate (IBA's symbol times,
 * or octets of the whole port for the devices NVIDIA documents so: its
 * Quantum switches), the remainder carried to the port's next sample.  A node that refuses PortSamplesControl (an error
 * status), or leaves it unanswered PERF_PSC_TRIES times while answering
 * ClassPortInfo, keeps the 4 ns default, logged once; until then it is asked
 * again each pass.  Every 8-bit Tick is a length (4 ns to 1 us at
 * SDR), so the check is the counter's: a port that would have waited longer
 * than its interval (plus a tenth and a millisecond of clock slack) shows
 * the node's tick absurd: warned once, the node falls back to the default
 * for good, and a wait still longer than the interval is cut to it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_perf.h"
#include "sm/core/sm.h"
#include "sm/util/sm_log.h"
#include "sm/telemetry/sm_perf.h"

#define PERF_BACKLOG 1024	/* GMPs queued in the rpc layer at once */
#define PERF_PSC_TRIES 3	/* passes a PortSamplesControl may go unanswered */
_Static_assert(SM_PERF_WAIT_UNIT_PS == MAD_PERF_DEFAULT_TICK_PS, "a default tick is a unit");
#define NONE UINT32_MAX

/* What a node's sample tick is known as. */
enum perf_tick_state {
	TICK_UNASKED,		/* no PortSamplesControl answer yet: the default */
	TICK_READ,		/* its Tick, in use */
	TICK_NONE,		/* it answered an error, or never: the default */
	TICK_ABSURD,		/* its Tick belied by a counter: the default */
};

struct perf_node {
	uint64_t guid;
	uint16_t cap_mask;	/* its PMA's ClassPortInfo CapabilityMask */
	bool known;		/* ClassPortInfo answered (a mask may be 0) */
	uint8_t tick;		/* PortSamplesControl.Tick, with TICK_READ */
	uint8_t tick_state;	/* enum perf_tick_state */
	uint8_t psc_misses;	/* PortSamplesControl Gets gone unanswered */
};

struct perf_port {
	uint64_t guid;
	uint8_t port;
	bool have_prev;
	uint32_t wait_carry_ps;	/* waiting time not stored yet, < one unit */
	uint64_t prev_ms;
	struct db_port_counts prev;	/* raw values last read */
};

/* An open-addressed map from a 64-bit key to an index into a dense array. */
struct perf_map {
	uint32_t *slot;		/* index + 1, 0 empty */
	uint32_t cap;		/* a power of two, or 0 */
};

struct sm_perf {
	struct perf_node *nodes;
	uint32_t nnodes, nodes_cap;
	struct perf_map node_map;
	struct perf_port *ports;
	uint32_t nports, ports_cap;
	struct perf_map port_map;
	sm_perf_sample_fn hook;
	void *hook_ctx;
	/* a pass cut short: the job it resumes at, for the fabric of sweep
	 * resume_sweep; 0 when none is open */
	uint32_t resume;
	uint64_t resume_sweep;
};

enum { GOT_CPI = 1, GOT_PC = 2, GOT_PCE = 4, GOT_CLEAR = 8 };

struct perf_job {
	struct sm_perf *owner;
	uint32_t node;		/* into sm_perf.nodes */
	uint32_t port;		/* into sm_perf.ports */
	uint16_t lid;
	uint8_t port_num;
	uint8_t speed;		/* the port's link speed (topo_rate.h), 0 none */
	uint8_t width;		/* its LinkWidthActive, 0 none */
	uint16_t device_id;	/* the node's NodeInfo, for its tick's rule */
	uint32_t vendor_id;
	uint8_t got;		/* GOT_* */
	bool ext;
	struct mad_port_counters pc;
	struct mad_port_counters_ext pce;
};

struct perf_pass {
	struct sm *sm;
	struct sm_perf *p;
	struct perf_job *jobs;
	uint32_t njobs;
	uint32_t first, end;	/* the jobs asked this time: [first, end) */
	sm_perf_yield_fn yield;
	void *yield_ctx;
};

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

/* The index stored for @key, or NONE; @same(ctx, index) tells a match. */
static uint32_t *map_pos(struct perf_map *m, uint64_t key,
			 bool (*same)(const struct sm_perf *, uint32_t, uint64_t),
			 const struct sm_perf *p)
{
	uint32_t mask = m->cap - 1;

	for (uint32_t i = (uint32_t)mix(key) & mask;; i = (i + 1) & mask)
		if (!m->slot[i] || same(p, m->slot[i] - 1, key))
			return &m->slot[i];
}

static bool node_is(const struct sm_perf *p, uint32_t i, uint64_t guid)
{
	return p->nodes[i].guid == guid;
}

static uint64_t port_key(uint64_t guid, uint8_t port)
{
	return mix(guid) ^ port;
}

static bool port_is(const struct sm_perf *p, uint32_t i, uint64_t key)
{
	return port_key(p->ports[i].guid, p->ports[i].port) == key;
}

/* Grow @m to hold @n entries at half load, re-inserting the @n keys @key_of gives. */
static int map_grow(struct perf_map *m, uint32_t n, const struct sm_perf *p,
		    uint64_t (*key_of)(const struct sm_perf *, uint32_t),
		    bool (*same)(const struct sm_perf *, uint32_t, uint64_t))
{
	if (m->cap >= 2 * (n + 1))
		return 0;
	uint32_t cap = m->cap ? m->cap : 1024;
	while (cap < 2 * (n + 1))
		cap *= 2;
	uint32_t *slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	free(m->slot);
	m->slot = slot;
	m->cap = cap;
	for (uint32_t i = 0; i < n; i++)
		*map_pos(m, key_of(p, i), same, p) = i + 1;
	return 0;
}

static uint64_t node_key_of(const struct sm_perf *p, uint32_t i)
{
	return p->nodes[i].guid;
}

static uint64_t port_key_of(const struct sm_perf *p, uint32_t i)
{
	return port_key(p->ports[i].guid, p->ports[i].port);
}

/* Grow a dense array of @size-byte entries to hold one more.  0 or -ENOMEM. */
static int dense_room(void **arr, uint32_t n, uint32_t *cap, size_t size)
{
	if (n < *cap)
		return 0;
	uint32_t nc = *cap ? *cap * 2 : 1024;
	void *a = realloc(*arr, (size_t)nc * size);
	if (!a)
		return -ENOMEM;
	*arr = a;
	*cap = nc;
	return 0;
}

static uint32_t perf_node_get(struct sm_perf *p, uint64_t guid)
{
	if (map_grow(&p->node_map, p->nnodes, p, node_key_of, node_is) ||
	    dense_room((void **)&p->nodes, p->nnodes, &p->nodes_cap, sizeof(*p->nodes)))
		return NONE;
	uint32_t *s = map_pos(&p->node_map, guid, node_is, p);
	if (!*s) {
		p->nodes[p->nnodes] = (struct perf_node){ .guid = guid };
		*s = ++p->nnodes;
	}
	return *s - 1;
}

static uint32_t perf_port_get(struct sm_perf *p, uint64_t guid, uint8_t port)
{
	if (map_grow(&p->port_map, p->nports, p, port_key_of, port_is) ||
	    dense_room((void **)&p->ports, p->nports, &p->ports_cap, sizeof(*p->ports)))
		return NONE;
	uint32_t *s = map_pos(&p->port_map, port_key(guid, port), port_is, p);
	if (!*s) {
		p->ports[p->nports] = (struct perf_port){ .guid = guid, .port = port };
		*s = ++p->nports;
	}
	return *s - 1;
}

static struct sm_perf *perf_state(struct sm *sm)
{
	if (!sm->perf)
		sm->perf = calloc(1, sizeof(*sm->perf));
	return sm->perf;
}

void sm_perf_free(struct sm_perf *p)
{
	if (!p)
		return;
	free(p->nodes);
	free(p->node_map.slot);
	free(p->ports);
	free(p->port_map.slot);
	free(p);
}

int sm_perf_set_hook(struct sm *sm, sm_perf_sample_fn fn, void *ctx)
{
	struct sm_perf *p = perf_state(sm);

	if (!p)
		return -ENOMEM;
	p->hook = fn;
	p->hook_ctx = ctx;
	return 0;
}

int sm_perf_node_caps(struct sm *sm, uint64_t node_guid, uint16_t *cap_mask)
{
	struct sm_perf *p = sm->perf;

	if (!p || !p->node_map.cap)
		return -ENOENT;
	uint32_t *s = map_pos(&p->node_map, node_guid, node_is, p);
	if (!*s || !p->nodes[*s - 1].known)
		return -ENOENT;
	*cap_mask = p->nodes[*s - 1].cap_mask;
	return 0;
}

/* ---- the jobs ---- */

/* Is port @port of @tn sampled: one with a link, or the management port of a
 * switch with an enhanced port 0 (its PMA counts the SM's traffic there); a
 * base port 0 is no port of its own. */
static bool perf_port_sampled(const struct topo_node *tn, uint8_t port)
{
	if (port == 0)
		return tn->type == MAD_NODE_SWITCH && tn->enhanced_port0;
	return tn->ports[port].peer != TOPO_NONE;
}

/* One job per sampled port, on a node with a LID. */
static int perf_jobs(struct perf_pass *ps)
{
	const struct topo *t = &ps->sm->fabric.topo;
	uint32_t cap = 0;

	for (uint32_t n = 0; n < t->n; n++) {
		const struct topo_node *tn = &t->nodes[n];
		bool sw = tn->type == MAD_NODE_SWITCH;
		uint32_t node = NONE;
		for (unsigned port = sw ? 0 : 1; port <= tn->nports; port++) {
			uint16_t lid = tn->ports[sw ? 0 : port].lid;
			if (!perf_port_sampled(tn, (uint8_t)port) || !lid)
				continue;
			if (node == NONE && (node = perf_node_get(ps->p, tn->guid)) == NONE)
				return -ENOMEM;
			uint32_t pi = perf_port_get(ps->p, tn->guid, (uint8_t)port);
			if (pi == NONE || dense_room((void **)&ps->jobs, ps->njobs, &cap,
						     sizeof(*ps->jobs)))
				return -ENOMEM;
			ps->jobs[ps->njobs++] = (struct perf_job){
				.owner = ps->p, .node = node, .port = pi, .lid = lid,
				.port_num = (uint8_t)port, .speed = port ? tn->ports[port].speed : 0,
				.width = port ? tn->ports[port].width : 0,
				.vendor_id = tn->vendor_id, .device_id = tn->device_id,
			};
		}
	}
	return 0;
}

/* ---- requests ---- */

static void cpi_done(void *ctx, int err, const uint8_t *req, const uint8_t *resp);
static void psc_done(void *ctx, int err, const uint8_t *req, const uint8_t *resp);
static void counters_done(void *ctx, int err, const uint8_t *req, const uint8_t *resp);

/* Queue a PerfMgt @method of @attr for @job's port (with @data as the attribute, or
 * a bare PortSelect), keeping at most PERF_BACKLOG waiting.  0 or -errno. */
static int perf_submit(struct perf_pass *ps, struct perf_job *job, uint8_t method,
		       uint16_t attr, const uint8_t *data, mad_rpc_gmp_done_fn done)
{
	struct mad_rpc *r = ps->sm->rpc;
	struct mad_perf pm;
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr to = { .lid = job->lid, .qpn = MAD_PERF_QPN };

	while (mad_rpc_pending(r) >= PERF_BACKLOG) {
		int rc = mad_rpc_poll(r, -1);
		if (rc < 0)
			return rc;
	}
	mad_perf_init(&pm, method, attr);
	if (data)
		memcpy(pm.data, data, MAD_PORT_COUNTERS_EXT_SIZE);
	else
		pm.data[1] = job->port_num;	/* PortSelect, in both counter attributes */
	mad_perf_encode(&pm, buf);
	return mad_rpc_submit_gmp(r, buf, &to, done, job);
}

/* Decode @resp into @pm: false after a failure (logged at debug). */
static bool perf_answer(const struct perf_job *job, int err, const uint8_t *resp,
			struct mad_perf *pm)
{
	if (!err && resp && mad_perf_decode(resp, MAD_BLOCK_SIZE, pm) == 0)
		return true;
	sm_debug("PerfMgt to LID %u port %u: %s", job->lid, job->port_num,
		 err == -ETIMEDOUT ? "no answer" : err == -EREMOTEIO ? "error status" :
		 "bad answer");
	return false;
}

static void cpi_done(void *ctx, int err, const uint8_t *req, const uint8_t *resp)
{
	struct perf_job *job = ctx;
	struct mad_perf pm;
	struct mad_class_port_info cpi;

	(void)req;
	if (!perf_answer(job, err, resp, &pm))
		return;
	mad_class_port_info_decode(pm.data, &cpi);
	job->owner->nodes[job->node].cap_mask = cpi.cap_mask;
	job->owner->nodes[job->node].known = true;
	job->got |= GOT_CPI;
}

static void psc_done(void *ctx, int err, const uint8_t *req, const uint8_t *resp)
{
	struct perf_job *job = ctx;
	struct perf_node *pn = &job->owner->nodes[job->node];
	struct mad_perf pm;
	struct mad_port_samples_control psc;

	(void)req;
	if (perf_answer(job, err, resp, &pm)) {
		mad_port_samples_control_decode(pm.data, &psc);
		pn->tick = psc.tick;
		pn->tick_state = TICK_READ;
	} else if (err == -EREMOTEIO || (pn->known && ++pn->psc_misses >= PERF_PSC_TRIES)) {
		pn->tick_state = TICK_NONE;
		sm_notice("PerfMgt: node 0x%016llx (LID %u) %s PortSamplesControl: "
			  "its PortXmitWait is taken in ticks of %u ns", (unsigned long long)pn->guid,
			  job->lid, err == -EREMOTEIO ? "refuses" : "does not answer",
			  MAD_PERF_DEFAULT_TICK_PS / 1000);
	}	/* no answer: asked again next pass, PERF_PSC_TRIES in all */
}

static void counters_done(void *ctx, int err, const uint8_t *req, const uint8_t *resp)
{
	struct perf_job *job = ctx;
	struct mad_perf pm;

	if (!perf_answer(job, err, resp, &pm))
		return;
	uint16_t attr = (uint16_t)(req[16] << 8 | req[17]);
	if (attr == MAD_PERF_ATTR_PORT_COUNTERS_EXT) {
		mad_port_counters_ext_decode(pm.data, &job->pce);
		job->got |= GOT_PCE;
	} else if (req[3] == MAD_METHOD_SET) {
		job->got |= GOT_CLEAR;
	} else {
		mad_port_counters_decode(pm.data, &job->pc);
		job->got |= GOT_PC;
	}
}

static bool perf_stop(const struct perf_pass *ps)
{
	return ps->sm->sweep_due || ps->sm->stopping || (ps->yield && ps->yield(ps->yield_ctx));
}

/* ClassPortInfo and PortSamplesControl for each node that has not answered
 * them yet: asked by its first job. */
static int perf_ask_cpi(struct perf_pass *ps, struct sm_perf_stats *st)
{
	uint32_t last = NONE;

	for (uint32_t i = ps->first; i < ps->njobs && !perf_stop(ps); i++) {
		struct perf_job *job = &ps->jobs[i];
		const struct perf_node *pn = &ps->p->nodes[job->node];
		if (job->node == last)
			continue;
		last = job->node;
		int rc = 0;
		if (!pn->known) {
			rc = perf_submit(ps, job, MAD_METHOD_GET, MAD_PERF_ATTR_CLASS_PORT_INFO,
					 NULL, cpi_done);
			st->cpi += !rc;
		}
		if (!rc && pn->tick_state == TICK_UNASKED) {
			rc = perf_submit(ps, job, MAD_METHOD_GET,
					 MAD_PERF_ATTR_PORT_SAMPLES_CONTROL, NULL, psc_done);
			st->psc += !rc;
		}
		if (rc)
			return rc;
	}
	return mad_rpc_drain(ps->sm->rpc);
}

/* Is the node's PMA known?  A node whose ClassPortInfo went unanswered is
 * skipped this pass and asked again the next. */
static bool perf_node_known(const struct perf_pass *ps, const struct perf_job *job)
{
	return ps->p->nodes[job->node].known;
}

static int perf_ask_counters(struct perf_pass *ps)
{
	for (ps->end = ps->first; ps->end < ps->njobs && !perf_stop(ps); ps->end++) {
		struct perf_job *job = &ps->jobs[ps->end];
		if (!perf_node_known(ps, job))
			continue;
		job->ext = mad_perf_has_ext(ps->p->nodes[job->node].cap_mask);
		int rc = perf_submit(ps, job, MAD_METHOD_GET, MAD_PERF_ATTR_PORT_COUNTERS, NULL,
				     counters_done);
		if (!rc && job->ext)
			rc = perf_submit(ps, job, MAD_METHOD_GET,
					 MAD_PERF_ATTR_PORT_COUNTERS_EXT, NULL, counters_done);
		if (rc)
			return rc;
	}
	return mad_rpc_drain(ps->sm->rpc);
}

/* ---- deltas ---- */

/* The raw values of a job, from the attribute that holds each. */
static void job_raw(const struct perf_job *job, struct db_port_counts *c)
{
	const struct mad_port_counters *pc = &job->pc;
	const struct mad_port_counters_ext *pce = &job->pce;

	*c = (struct db_port_counts){
		.xmit_wait = pc->xmit_wait, .symbol_errors = pc->symbol_errors,
		.link_error_recovery = pc->link_error_recovery, .link_downed = pc->link_downed,
		.rcv_errors = pc->rcv_errors, .xmit_discards = pc->xmit_discards,
		.rcv_remote_phys_errors = pc->rcv_remote_phys_errors,
		.rcv_switch_relay_errors = pc->rcv_switch_relay_errors,
		.xmit_constraint_errors = pc->xmit_constraint_errors,
		.rcv_constraint_errors = pc->rcv_constraint_errors,
		.local_link_integrity_errors = pc->local_link_integrity_errors,
		.excessive_buffer_overrun_errors = pc->excessive_buffer_overrun_errors,
		.vl15_dropped = pc->vl15_dropped,
		.xmit_data = pc->xmit_data, .rcv_data = pc->rcv_data,
		.xmit_pkts = pc->xmit_pkts, .rcv_pkts = pc->rcv_pkts,
	};
	if (job->ext) {
		c->xmit_data = pce->xmit_data;
		c->rcv_data = pce->rcv_data;
		c->xmit_pkts = pce->xmit_pkts;
		c->rcv_pkts = pce->rcv_pkts;
		c->unicast_xmit_pkts = pce->unicast_xmit_pkts;
		c->unicast_rcv_pkts = pce->unicast_rcv_pkts;
		c->multicast_xmit_pkts = pce->multicast_xmit_pkts;
		c->multicast_rcv_pkts = pce->multicast_rcv_pkts;
	}
}

/* The largest value of each PortCounters field (IBA 16.1.3.5, table 224),
 * by counter; 0: none there (PortCountersExtended only). */
static const uint64_t pc_max[DB_NCOUNTERS] = {
	[DB_COUNTER_xmit_data] = UINT32_MAX, [DB_COUNTER_rcv_data] = UINT32_MAX,
	[DB_COUNTER_xmit_pkts] = UINT32_MAX, [DB_COUNTER_rcv_pkts] = UINT32_MAX,
	[DB_COUNTER_xmit_wait] = UINT32_MAX, [DB_COUNTER_symbol_errors] = UINT16_MAX,
	[DB_COUNTER_link_error_recovery] = UINT8_MAX, [DB_COUNTER_link_downed] = UINT8_MAX,
	[DB_COUNTER_rcv_errors] = UINT16_MAX, [DB_COUNTER_xmit_discards] = UINT16_MAX,
	[DB_COUNTER_rcv_remote_phys_errors] = UINT16_MAX,
	[DB_COUNTER_rcv_switch_relay_errors] = UINT16_MAX,
	[DB_COUNTER_xmit_constraint_errors] = UINT8_MAX,
	[DB_COUNTER_rcv_constraint_errors] = UINT8_MAX,
	[DB_COUNTER_local_link_integrity_errors] = 0xf,
	[DB_COUNTER_excessive_buffer_overrun_errors] = 0xf,
	[DB_COUNTER_vl15_dropped] = UINT16_MAX,
};

/* Is counter @i of @job read from its PortCounters (job_raw)?  A clear
 * zeroes exactly those. */
static bool job_reads_pc(const struct perf_job *job, unsigned i)
{
	bool in_ext = i == DB_COUNTER_xmit_data || i == DB_COUNTER_rcv_data ||
		      i == DB_COUNTER_xmit_pkts || i == DB_COUNTER_rcv_pkts;

	return pc_max[i] && !(job->ext && in_ext);
}

/* Does a PortCounters field the delta reads stand past half its range? */
static bool job_needs_clear(const struct perf_job *job)
{
	struct db_port_counts raw;

	job_raw(job, &raw);
	for (unsigned i = 0; i < DB_NCOUNTERS; i++)
		if (job_reads_pc(job, i) && raw.v[i] > pc_max[i] / 2)
			return true;
	return false;
}

static int perf_clear(struct perf_pass *ps, struct sm_perf_stats *st)
{
	struct mad_port_counters zero = { .counter_select = MAD_PC_SEL_ALL,
					   .counter_select2 = MAD_PC_SEL2_XMIT_WAIT };
	uint8_t data[MAD_PORT_COUNTERS_EXT_SIZE] = { 0 };

	for (uint32_t i = ps->first; i < ps->end && !ps->sm->stopping; i++) {
		struct perf_job *job = &ps->jobs[i];
		if (!(job->got & GOT_PC) || !job_needs_clear(job))
			continue;
		zero.port_select = job->port_num;
		mad_port_counters_encode(&zero, data);
		int rc = perf_submit(ps, job, MAD_METHOD_SET, MAD_PERF_ATTR_PORT_COUNTERS, data,
				     counters_done);
		if (rc)
			return rc;
		st->cleared++;
	}
	return mad_rpc_drain(ps->sm->rpc);
}

static uint64_t delta(uint64_t cur, uint64_t prev)
{
	return cur >= prev ? cur - prev : cur;
}

/* The length of a tick of @job's port in ps. */
static uint32_t job_tick_ps(const struct perf_pass *ps, const struct perf_job *job)
{
	const struct perf_node *pn = &ps->p->nodes[job->node];

	if (pn->tick_state != TICK_READ)
		return MAD_PERF_DEFAULT_TICK_PS;
	return mad_perf_node_tick_ps(job->vendor_id, job->device_id, pn->tick, job->width,
				     job->speed);
}

/* @ticks of PortXmitWait over @interval_ms as stored time (see the top),
 * judging the node's tick by it. */
static uint64_t job_wait(const struct perf_pass *ps, const struct perf_job *job,
			 struct perf_port *pp, uint64_t ticks, uint32_t interval_ms)
{
	struct perf_node *pn = &ps->p->nodes[job->node];
	/* ticks come from a 32-bit counter, a tick is at most 256 x 4 ns:
	 * the product fits 2^52 */
	uint64_t ps_waited = ticks * job_tick_ps(ps, job);
	uint64_t most = ((uint64_t)interval_ms * 11 / 10 + 1) * 1000000000ull;

	if (interval_ms && ps_waited > most && pn->tick_state == TICK_READ) {
		sm_warn("PerfMgt: node 0x%016llx port %u waited %llu ticks of %u ps in %u ms: "
			"its PortSamplesControl.Tick %u is absurd; taking %u ns ticks",
			(unsigned long long)pn->guid, job->port_num, (unsigned long long)ticks,
			job_tick_ps(ps, job), interval_ms, pn->tick,
			MAD_PERF_DEFAULT_TICK_PS / 1000);
		pn->tick_state = TICK_ABSURD;
		ps_waited = ticks * MAD_PERF_DEFAULT_TICK_PS;
	}
	if (interval_ms && ps_waited > (uint64_t)interval_ms * 1000000000ull) {
		ps_waited = (uint64_t)interval_ms * 1000000000ull;	/* no more than all of it */
		pp->wait_carry_ps = 0;
	}
	ps_waited += pp->wait_carry_ps;
	pp->wait_carry_ps = (uint32_t)(ps_waited % SM_PERF_WAIT_UNIT_PS);
	return ps_waited / SM_PERF_WAIT_UNIT_PS;
}

/* The job's delta against its port's previous sample, and the port's new
 * previous values (PortCounters' ones zero after a clear). */
static void job_delta(const struct perf_pass *ps, const struct perf_job *job, uint64_t now,
		      struct db_port_sample *s)
{
	struct perf_port *pp = &ps->p->ports[job->port];
	struct db_port_counts cur, *prev = &pp->prev;

	job_raw(job, &cur);
	*s = (struct db_port_sample){ .guid = pp->guid, .port = pp->port };
	if (pp->have_prev) {
		/* at least 1: 0 says a first sample */
		s->interval_ms = now > pp->prev_ms ? (uint32_t)(now - pp->prev_ms) : 1;
		for (unsigned i = 0; i < DB_NCOUNTERS; i++)
			s->delta.v[i] = delta(cur.v[i], prev->v[i]);
	} else {
		s->delta = cur;
	}
	s->delta.xmit_wait = job_wait(ps, job, pp, s->delta.xmit_wait, s->interval_ms);
	*prev = cur;
	pp->have_prev = true;
	pp->prev_ms = now;
	for (unsigned i = 0; (job->got & GOT_CLEAR) && i < DB_NCOUNTERS; i++)
		if (job_reads_pc(job, i))
			prev->v[i] = 0;
}

/* One pass's rows for the store (db_counters_record()). */
struct counters_rec {
	uint32_t n, ms;
	bool more;
	int64_t keep_ms;
	uint64_t max_rows;
	struct db_port_sample s[];
};

static int write_counters(struct db *db, void *data)
{
	const struct counters_rec *c = data;

	return db_counters_record(db, c->s, c->n, c->ms, c->more, c->keep_ms, c->max_rows);
}

static int perf_store(struct perf_pass *ps, struct sm_perf_stats *st)
{
	struct sm *sm = ps->sm;
	struct db_port_sample *s = calloc(ps->end > ps->first ? ps->end - ps->first : 1,
					  sizeof(*s));
	uint64_t now = mad_now_ms();
	uint32_t n = 0;

	if (!s)
		return -ENOMEM;
	for (uint32_t i = ps->first; i < ps->end; i++) {
		const struct perf_job *job = &ps->jobs[i];
		bool want_ext = job->ext;
		if (!(job->got & GOT_PC) || (want_ext && !(job->got & GOT_PCE))) {
			st->failed += perf_node_known(ps, job);
			continue;
		}
		job_delta(ps, job, now, &s[n++]);
	}
	st->ports = n;
	st->ms = (uint32_t)(now - st->ms);
	uint64_t max_rows = (uint64_t)sm->cfg.perf_history_mb * 1024 * 1024 /
			    DB_COUNTERS_ROW_BYTES;
	size_t size = sizeof(struct counters_rec) + n * sizeof(*s);
	struct counters_rec *c = sm->db ? malloc(size) : NULL;
	if (c) {
		*c = (struct counters_rec){ .n = n, .ms = st->ms, .more = ps->first > 0,
					    .keep_ms = (int64_t)sm->cfg.perf_retention_s * 1000,
					    .max_rows = max_rows };
		memcpy(c->s, s, n * sizeof(*s));
	}
	int rc = sm->db ? sm_store_put(&sm->store, write_counters, c, size, "port counters")
			: -ENODEV;
	if (!sm->db)
		sm_err("storing port counters: no store");
	for (uint32_t i = 0; ps->p->hook && i < n; i++)
		ps->p->hook(ps->p->hook_ctx, &s[i]);
	free(s);
	return rc;
}

/* Where this call starts: where the last one stopped, if the fabric is the same. */
static void perf_resume(struct perf_pass *ps)
{
	struct sm_perf *p = ps->p;

	if (p->resume && (p->resume_sweep != ps->sm->sweeps || p->resume >= ps->njobs))
		p->resume = 0;	/* a heavy sweep came in between: start again */
	ps->first = ps->end = p->resume;
}

int sm_perf_pass(struct sm *sm, sm_perf_yield_fn yield, void *yield_ctx,
		 struct sm_perf_stats *out)
{
	struct sm_perf_stats st = { .ms = (uint32_t)mad_now_ms() };
	struct perf_pass ps = { .sm = sm, .p = perf_state(sm), .yield = yield,
				.yield_ctx = yield_ctx };
	int rc = 0;

	if (!ps.p)
		return -ENOMEM;
	if (sm->have_fabric && sm->rpc) {
		rc = perf_jobs(&ps);
		perf_resume(&ps);
		if (!rc)
			rc = perf_ask_cpi(&ps, &st);
		if (!rc)
			rc = perf_ask_counters(&ps);
		st.partial = ps.end < ps.njobs;
		if (!rc)
			rc = perf_clear(&ps, &st);
		if (!rc && !sm->stopping && ps.end > ps.first)
			rc = perf_store(&ps, &st);
		else
			st.ms = (uint32_t)(mad_now_ms() - st.ms);
		ps.p->resume = rc || !st.partial ? 0 : ps.end;
		ps.p->resume_sweep = sm->sweeps;
		free(ps.jobs);
	} else {
		st.ms = 0;
	}
	if (rc && rc != -ECANCELED)
		sm_err("port counter pass: %s", strerror(-rc));
	else
		sm_info("port counters: %u ports sampled in %u ms (%u failed, %u cleared%s)",
			st.ports, st.ms, st.failed, st.cleared,
			st.partial ? "; other work first, the rest later" : "");
	if (out)
		*out = st;
	return rc == -ECANCELED ? 0 : rc;
}

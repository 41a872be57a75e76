// SPDX-License-Identifier: MIT
/*
 * sm_sl2vl.c - SLtoVLMappingTables and VL arbitration, for engines that route
 * on more than SL 0.
 *
 * An engine that breaks credit loops with service levels (ibsmd/routing.h,
 * path_sl) counts on the SM mapping SL n to VL n on every port, so that each
 * SL has buffers of its own.  Devices come up with every SL on VL 0, so when
 * the routing stage reports a CA route on an SL above 0 (check.max_sl):
 *
 *  1. every switch-to-switch link must have a data VL per SL in use (PortInfo
 *     OperationalVLs as the PortInfo phase left it, IBA 14.2.5.6); a link with
 *     fewer fails the phase, logged, since merging SLs there could close the
 *     credit loop the engine broke;
 *  2. the tables of every (input, output) pair of a switch's data ports and of
 *     every CA port (IBA 14.2.5.8) are read, and the ones that differ from the
 *     wanted mapping are set, from the Get's completion: one pipelined pass;
 *     except on a switch that offers optimized programming (SwitchInfo
 *     OptimizedSLtoVLMappingProgramming, mad_switch_opt_sl2vl()), see below;
 *  3. the VLArbitrationTable of every data port (IBA 14.2.5.9): a VL no entry
 *     weighs is never sent (IBA 7.6.9) and power-on tables are the vendor's,
 *     so the low-priority block (entries 0-31) is read, and where it leaves a
 *     VL in use without weight, set to weigh each such VL equally
 *     (VLARB_WEIGHT) and nothing else.  The high-priority table is not used,
 *     and left as it is.
 *
 * Wanted on an output port with k data VLs: SL n -> VL n for n < k, else VL
 * n mod k.  Only a link to a CA can have fewer VLs than the routes use SLs, and
 * no credit loop runs through a CA, so sharing VLs there is safe; VL 15 (for
 * subnet management only, IBA 7.6) is never used.  Port 0 of a switch is left
 * alone: only management traffic enters or leaves there.
 *
 * A device whose CapabilityMask lacks IsSLMappingSupported (a switch's port 0
 * speaks for it) has no tables to set: it is logged once and skipped, and its
 * SLs all ride VL 0 there; the sweep goes on.
 *
 * Steps 2 and 3 share one pass: each job is one table, read, then set where
 * needed from the Get's completion.
 *
 * Optimized programming: the wanted table depends on the output port only, so
 * on a switch that offers it one Set for all input and all output ports
 * writes the table most of its data ports want (port 0 and ports without a
 * link included: nothing but management traffic flows there, and a port that
 * comes up makes the next sweep run this phase before it is activated), and,
 * from that Set's completion, one Set for all inputs to each data port whose
 * VLs want another: 1 + k SMPs instead of d (d - 1) Gets and as many Sets
 * (the 27,648-host tree with 40% of its switch links cut, under ftree: 6.18 M
 * SL2VL SMPs -> 58 k, all but 2,880 of them the CA ports' Gets and Sets).
 * Those tables are not read first: a Get costs what the Set costs, and one
 * Set settles d (d - 1) tables, so reading cannot save an SMP; what the switch
 * holds afterwards is checked in the Set's answer.  A switch that refuses
 * such a Set although it offers it (an SMP status) is logged and programmed
 * pair by pair after the pass.  A switch that does not offer it never gets
 * one (ibsim's switches, for instance: they would take bits 17:16 for part of
 * the port numbers).
 *
 * With no route above SL 0 nothing is sent at all, so the usual sweep costs no
 * SMP here.  Nothing is remembered between sweeps: a table a device lost is
 * found by the next sweep's read, or written again by its optimized Sets.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sm/util/sm_log.h"
#include "sm/core/sm_sl2vl_table.h"
#include "sm/sweep/sm_sl2vl.h"

struct sl2vl_run {
	struct sm *sm;
	const struct sm_fabric *f;
	struct sm_sl2vl_result *res;
	struct sm_arena *arena;
	bool *refused;		/* per node: refused an optimized Set: pair by pair */
	unsigned nsl;		/* the routes use SLs 0..nsl-1 */
	const struct sm_qos_policy *qos;	/* on: its tables (qos_all()) */
};

/* Weight of each VL in use, in 64-byte units: 4 KB at a turn, as OpenSM's. */
#define VLARB_WEIGHT 64

/*
 * One table: the SLtoVLMappingTable of switch @node for @in -> @out, or of CA
 * port @out (@in 0); or the low VLArbitrationTable of @node's port @out.  Or
 * a group of a switch's mapping tables, set at once (@group).
 */
struct sl2vl_job {
	struct sl2vl_run *run;
	uint32_t node;
	uint8_t in, out;
	uint16_t attr;		/* MAD_ATTR_SL2VL_TABLE or MAD_ATTR_VL_ARB_TABLE */
	uint32_t group;		/* the modifier of an optimized Set
				 * (MAD_SL2VL_MOD_ALL_PAIRS, _ALL_IN_TO(out)); 0: none */
	uint8_t vls;		/* VL arbitration: VLs 0..vls-1 need weight;
				 * all pairs: the data VLs @want is made for */
	uint8_t block;		/* VL arbitration: MAD_VLARB_*, 0: the low 0-31 */
	bool exact;		/* VL arbitration: the table must be @arb (QoS) */
	struct mad_sl2vl want;
	struct mad_vlarb_block arb;	/* the VL arbitration block to set */
};

/* Log, once per node, that @n is left with every SL on VL 0. */
static void skip_unmapped(struct sl2vl_run *run, uint32_t n, unsigned p)
{
	const struct topo_node *tn = &run->f->topo.nodes[n];

	run->res->unmapped++;
	sm_warn("SL2VL: 0x%016llx (%s) port %u does not support SL to VL mapping "
		"(CapabilityMask.IsSLMappingSupported clear): its SLs share VL 0%s",
		(unsigned long long)tn->guid, tn->desc, p,
		tn->type == MAD_NODE_SWITCH ? " on every port, and a credit loop the routes "
		"break with SLs may close through it" : "");
}

/* Port @p of switch @n carries data to another switch. */
static bool switch_link(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	return sm_sl2vl_data_port(f, n, p) &&
	       f->topo.nodes[f->topo.nodes[n].ports[p].peer].type == MAD_NODE_SWITCH;
}

/* Step 1: every switch-to-switch link carries @nsl SLs on VLs of their own. */
static int check_vls(const struct sm_fabric *f, const char *engine, unsigned nsl)
{
	for (uint32_t n = 0; n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		if (tn->type != MAD_NODE_SWITCH)
			continue;
		for (unsigned p = 1; p <= tn->nports; p++) {
			if (!switch_link(f, n, p) || sm_sl2vl_port_vls(f, n, p) >= nsl)
				continue;
			sm_err("SL2VL: engine %s routes CA traffic on SLs 0..%u, but 0x%016llx "
			       "(%s) port %u has %u data VLs (OperationalVLs %u): the SLs would "
			       "share buffers and could close a credit loop", engine, nsl - 1,
			       (unsigned long long)tn->guid, tn->desc, p, sm_sl2vl_port_vls(f, n, p),
			       f->attrs[n].pi[p].oper_vls);
			return -ERANGE;
		}
	}
	return 0;
}

static void job_failed(const struct sl2vl_job *j, int err, const struct mad_smp *resp,
		       const char *what)
{
	const struct topo_node *n = &j->run->f->topo.nodes[j->node];
	char why[64];

	j->run->res->failures++;
	sm_warn("SL2VL: %s on 0x%016llx (%s) ports %u -> %u failed: %s", what,
		(unsigned long long)n->guid, n->desc, j->in, j->out,
		sm_smp_error(err, resp, why, sizeof(why)));
}

static const char *job_what(const struct sl2vl_job *j, uint8_t method)
{
	if (j->group == MAD_SL2VL_MOD_ALL_PAIRS)
		return "SLtoVLMappingTable Set (all ports)";
	if (j->group)
		return "SLtoVLMappingTable Set (all input ports)";
	if (j->attr == MAD_ATTR_VL_ARB_TABLE)
		return method == MAD_METHOD_GET ? "VLArbitrationTable Get" : "VLArbitrationTable Set";
	return method == MAD_METHOD_GET ? "SLtoVLMappingTable Get" : "SLtoVLMappingTable Set";
}

/* Does @b give each of VLs 0..vls-1 a turn, within the first @cap entries? */
static bool weighs_all(const struct mad_vlarb_block *b, unsigned cap, unsigned vls)
{
	uint16_t weighed = 0;

	for (unsigned i = 0; i < cap && i < MAD_VLARB_ENTRIES; i++)
		if (b->e[i].weight)
			weighed |= (uint16_t)(1u << b->e[i].vl);
	return (weighed & ((1u << vls) - 1)) == (1u << vls) - 1;
}

/* Decode the table of @j's kind from @data; *@same: it is what @j wants
 * (a mapping: equal; arbitration: every VL in use weighed). */
static int job_decode(const struct sl2vl_job *j, const uint8_t *data, bool set, bool *same)
{
	if (j->attr == MAD_ATTR_VL_ARB_TABLE) {
		struct mad_vlarb_block b;
		int err = mad_vlarb_decode(data, &b);
		unsigned cap = j->run->f->attrs[j->node].pi[j->out].vl_arb_low_cap;
		*same = set || j->exact ? !memcmp(&b, &j->arb, sizeof(b))
				       : weighs_all(&b, cap, j->vls);
		return err;
	}
	struct mad_sl2vl t;
	int err = mad_sl2vl_decode(data, &t);
	*same = !memcmp(&t, &j->want, sizeof(t));
	return err;
}

static int job_submit(struct sl2vl_job *j, uint8_t method, mad_rpc_done_fn done);

static void on_set(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct sl2vl_job *j = ctx;
	bool same;

	(void)req;
	if (!err)
		err = job_decode(j, resp->data, true, &same);
	if (!err && !same)
		err = -EPROTO;	/* answered, but the table is not what we set */
	if (err) {
		job_failed(j, err, resp, job_what(j, MAD_METHOD_SET));
		return;
	}
	if (j->attr == MAD_ATTR_VL_ARB_TABLE)
		j->run->res->vlarb_sets++;
	else
		j->run->res->sets++;
}

static void on_get(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct sl2vl_job *j = ctx;
	bool same;

	(void)req;
	if (!err)
		err = job_decode(j, resp->data, false, &same);
	if (err) {
		job_failed(j, err, resp, job_what(j, MAD_METHOD_GET));
		return;
	}
	j->run->res->reads++;
	if (same)
		return;
	err = job_submit(j, MAD_METHOD_SET, on_set);
	if (err)
		job_failed(j, err, NULL, job_what(j, MAD_METHOD_SET));
}

/* A switch's tables by directed route to the switch; a CA's through the port
 * whose table it is (a CA answers for the port an SMP comes in on). */
static int job_submit(struct sl2vl_job *j, uint8_t method, mad_rpc_done_fn done)
{
	const struct sm_fabric *f = j->run->f;
	bool sw = f->topo.nodes[j->node].type == MAD_NODE_SWITCH;
	struct topo_path path = f->topo.nodes[j->node].path;
	uint8_t data[SMP_DATA_SIZE] = { 0 };

	if (!sw)
		sm_fabric_port_path(f, j->node, j->out, &path);
	uint32_t mod;
	if (j->attr == MAD_ATTR_VL_ARB_TABLE) {
		mod = MAD_VLARB_MOD(j->block ? j->block : MAD_VLARB_LOW_0_31, sw ? j->out : 0);
		if (method == MAD_METHOD_SET)
			mad_vlarb_encode(&j->arb, data);
	} else {
		mod = !sw ? 0 : j->group ? j->group : MAD_SL2VL_MOD(j->in, j->out);
		if (method == MAD_METHOD_SET)
			mad_sl2vl_encode(&j->want, data);
	}
	return mad_rpc_submit_dr(j->run->sm->rpc, method, j->attr, mod, &path,
				 sm_mkey_for(f, j->node, j->out), data, done, j);
}

/* Submit the Get of one table (@attr).  Waits while the backlog is full; the
 * Sets that Get completions submit meanwhile do not wait, so nothing nests. */
static int read_table(struct sl2vl_run *run, struct sm_arena *arena, uint32_t node,
		      uint8_t in, uint8_t out, uint16_t attr)
{
	int rc = mad_rpc_wait_backlog(run->sm->rpc);

	if (rc)
		return rc;
	struct sl2vl_job *j = sm_arena_alloc(arena, sizeof(*j));

	if (!j)
		return -ENOMEM;
	*j = (struct sl2vl_job){ .run = run, .node = node, .in = in, .out = out, .attr = attr };
	if (attr == MAD_ATTR_VL_ARB_TABLE) {
		unsigned vls = sm_sl2vl_port_vls(run->f, node, out);
		j->vls = (uint8_t)(run->nsl < vls ? run->nsl : vls);
		for (unsigned v = 0; v < j->vls; v++)
			j->arb.e[v].vl = (uint8_t)v, j->arb.e[v].weight = VLARB_WEIGHT;
		run->res->vlarb_ports++;
	} else {
		sm_sl2vl_wanted(sm_sl2vl_port_vls(run->f, node, out), &j->want);
		run->res->tables++;
	}
	return job_submit(j, MAD_METHOD_GET, on_get);
}

/* Step 3 for port @p of @n: queue its arbitration table, unless it has too
 * few entries to weigh every VL in use (logged; left as it is). */
static int arbitrate(struct sl2vl_run *run, struct sm_arena *arena, uint32_t n, unsigned p)
{
	const struct topo_node *tn = &run->f->topo.nodes[n];
	unsigned cap = run->f->attrs[n].pi[p].vl_arb_low_cap;
	unsigned vls = sm_sl2vl_port_vls(run->f, n, p);
	unsigned need = run->nsl < vls ? run->nsl : vls;

	if (cap >= need)
		return read_table(run, arena, n, 0, (uint8_t)p, MAD_ATTR_VL_ARB_TABLE);
	sm_warn("SL2VL: 0x%016llx (%s) port %u has %u low-priority VL arbitration entries, "
		"fewer than the %u VLs in use: left as it is", (unsigned long long)tn->guid,
		tn->desc, p, cap, need);
	return 0;
}

static void on_group_set(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp);

/* Submit the optimized Set @mod of switch @n's tables: @vls data VLs' table. */
static int set_group(struct sl2vl_run *run, uint32_t n, uint32_t mod, unsigned vls)
{
	struct sl2vl_job *j = sm_arena_alloc(run->arena, sizeof(*j));

	if (!j)
		return -ENOMEM;
	*j = (struct sl2vl_job){ .run = run, .node = n, .out = (uint8_t)(mod & 0xff),
				 .attr = MAD_ATTR_SL2VL_TABLE, .group = mod, .vls = (uint8_t)vls };
	sm_sl2vl_wanted(vls, &j->want);
	return job_submit(j, MAD_METHOD_SET, on_group_set);
}

/* After the all-pairs Set of @j's switch: all inputs to each data port whose
 * VLs want another table than the one written. */
static void set_other_outputs(const struct sl2vl_job *j)
{
	const struct sm_fabric *f = j->run->f;

	for (unsigned p = 1; p <= f->topo.nodes[j->node].nports; p++) {
		if (!sm_sl2vl_data_port(f, j->node, p) || sm_sl2vl_port_vls(f, j->node, p) == j->vls)
			continue;
		int err = set_group(j->run, j->node, MAD_SL2VL_MOD_ALL_IN_TO(p),
				    sm_sl2vl_port_vls(f, j->node, p));
		if (err) {
			struct sl2vl_job one = *j;
			one.group = MAD_SL2VL_MOD_ALL_IN_TO(p);
			one.out = (uint8_t)p;
			job_failed(&one, err, NULL, job_what(&one, MAD_METHOD_SET));
		}
	}
}

static void on_group_set(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp)
{
	struct sl2vl_job *j = ctx;
	const struct topo_node *tn = &j->run->f->topo.nodes[j->node];
	bool same;
	char why[64];

	(void)req;
	if (!err)
		err = job_decode(j, resp->data, true, &same);
	if (!err && !same)
		err = -EPROTO;	/* answered, but the table is not what we set */
	if (err == -EREMOTEIO && !j->run->refused[j->node]) {
		j->run->refused[j->node] = true;
		j->run->res->group_refused++;
		sm_warn("SL2VL: 0x%016llx (%s) offers optimized SLtoVLMappingTable "
			"programming (SwitchInfo) but refused a Set for all ports (%s): "
			"programmed pair by pair", (unsigned long long)tn->guid, tn->desc,
			sm_smp_error(err, resp, why, sizeof(why)));
		return;
	}
	if (err) {
		if (err != -EREMOTEIO)
			job_failed(j, err, resp, job_what(j, MAD_METHOD_SET));
		return;
	}
	j->run->res->group_sets++;
	if (j->group == MAD_SL2VL_MOD_ALL_PAIRS)
		set_other_outputs(j);
}

/* Switch @n, optimized: one Set for all pairs with the table most data ports
 * want; the others follow from its completion (on_group_set). */
static int program_groups(struct sl2vl_run *run, uint32_t n)
{
	int rc = mad_rpc_wait_backlog(run->sm->rpc);

	if (rc)
		return rc;
	run->res->grouped++;
	return set_group(run, n, MAD_SL2VL_MOD_ALL_PAIRS, sm_sl2vl_group_vls(run->f, n));
}

/* Per switch, its data ports; returns the most pairs any switch has. */
static int list_data_ports(const struct sm_fabric *f, struct sm_arena *arena,
			   uint8_t **ports, uint8_t *nports, size_t *max_pairs)
{
	*max_pairs = 0;
	for (uint32_t n = 0; n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		if (tn->type != MAD_NODE_SWITCH)
			continue;
		if (!(ports[n] = sm_arena_alloc(arena, (size_t)tn->nports + 1)))
			return -ENOMEM;
		for (unsigned p = 1; p <= tn->nports; p++)
			if (sm_sl2vl_data_port(f, n, p))
				ports[n][nports[n]++] = (uint8_t)p;
		size_t pairs = (size_t)nports[n] * (nports[n] ? nports[n] - 1u : 0u);
		*max_pairs = pairs > *max_pairs ? pairs : *max_pairs;
	}
	return 0;
}

/*
 * Read the tables of every switch @pick chooses, pair by pair across them all
 * so that they all work at once (pair i of a switch with d data ports: input
 * i / (d - 1), output the (i mod (d - 1))-th of the others).
 */
static int read_pairs(struct sl2vl_run *run, struct sm_arena *arena, uint8_t **ports,
		      const uint8_t *nports, size_t max_pairs, const bool *pick)
{
	int rc;

	for (size_t i = 0; i < max_pairs; i++) {
		for (uint32_t n = 0; n < run->f->topo.n; n++) {
			size_t d = nports[n];
			if (!pick[n] || d < 2 || i >= d * (d - 1))
				continue;
			size_t in = i / (d - 1), out = i % (d - 1);
			out += out >= in;
			if ((rc = read_table(run, arena, n, ports[n][in], ports[n][out],
					     MAD_ATTR_SL2VL_TABLE)))
				return rc;
		}
	}
	return 0;
}

/*
 * Step 2: the tables of every switch, optimized where the switch offers it,
 * else read pair by pair, then every CA port's; after the pass, pair by pair
 * on the switches that refused an optimized Set.
 */
static int read_all(struct sl2vl_run *run, struct sm_arena *arena)
{
	const struct sm_fabric *f = run->f;
	uint8_t **ports = sm_arena_alloc(arena, ((size_t)f->topo.n + 1) * sizeof(*ports));
	uint8_t *nports = sm_arena_alloc(arena, (size_t)f->topo.n + 1);
	bool *by_pair = sm_arena_alloc(arena, (size_t)f->topo.n + 1);
	size_t max_pairs;
	int rc;

	run->refused = sm_arena_alloc(arena, (size_t)f->topo.n + 1);
	if (!ports || !nports || !by_pair || !run->refused)
		return -ENOMEM;
	memset(run->refused, 0, (size_t)f->topo.n + 1);
	if ((rc = list_data_ports(f, arena, ports, nports, &max_pairs)))
		return rc;
	for (uint32_t n = 0; n < f->topo.n; n++)
		if (nports[n] >= 2 && !sm_sl2vl_maps_sls(f, n, 0)) {
			skip_unmapped(run, n, 0);
			nports[n] = 0;
		}
	for (uint32_t n = 0; n < f->topo.n; n++)
		for (unsigned k = 0; nports[n] >= 2 && k < nports[n]; k++)
			if ((rc = arbitrate(run, arena, n, ports[n][k])))
				return rc;
	for (uint32_t n = 0; n < f->topo.n; n++) {
		by_pair[n] = !sm_sl2vl_takes_groups(f, n);
		if (nports[n] >= 2 && !by_pair[n] && (rc = program_groups(run, n)))
			return rc;
	}
	if ((rc = read_pairs(run, arena, ports, nports, max_pairs, by_pair)))
		return rc;
	for (uint32_t n = 0; n < f->topo.n; n++) {
		if (f->topo.nodes[n].type == MAD_NODE_SWITCH)
			continue;
		for (unsigned p = 1; p <= f->topo.nodes[n].nports; p++) {
			if (!sm_sl2vl_data_port(f, n, p))
				continue;
			if (!sm_sl2vl_maps_sls(f, n, p))
				skip_unmapped(run, n, p);
			else if ((rc = read_table(run, arena, n, 0, (uint8_t)p,
						  MAD_ATTR_SL2VL_TABLE)) ||
				 (rc = arbitrate(run, arena, n, p)))
				return rc;
		}
	}
	if ((rc = mad_rpc_drain(run->sm->rpc)) || !run->res->group_refused)
		return rc;
	if ((rc = read_pairs(run, arena, ports, nports, max_pairs, run->refused)))
		return rc;
	return mad_rpc_drain(run->sm->rpc);
}

/* ---- the QoS policy's tables ---- */

/* The VLs port @p of @n operates, as a mask of VL numbers. */
static uint8_t vl_mask(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	return sm_qos_vl_mask(f->attrs[n].pi[p].oper_vls);
}

/* Queue the Get of one table of @n (then its Set where it differs). */
static int qos_table(struct sl2vl_run *run, uint32_t n, unsigned in, unsigned out,
		     uint8_t block, const struct mad_sl2vl *map, const struct mad_vlarb_block *arb)
{
	int rc = mad_rpc_wait_backlog(run->sm->rpc);

	if (rc)
		return rc;
	struct sl2vl_job *j = sm_arena_alloc(run->arena, sizeof(*j));
	if (!j)
		return -ENOMEM;
	*j = (struct sl2vl_job){ .run = run, .node = n, .in = (uint8_t)in, .out = (uint8_t)out,
				 .attr = map ? MAD_ATTR_SL2VL_TABLE : MAD_ATTR_VL_ARB_TABLE,
				 .block = block, .exact = true };
	if (map) {
		j->want = *map;
		run->res->tables++;
	} else {
		j->arb = *arb;
		run->res->vlarb_ports++;
	}
	return job_submit(j, MAD_METHOD_GET, on_get);
}

/* Port @p's VLArbitrationTable blocks from @c, as long as the port has
 * entries (PortInfo VLArbitrationLow/HighCap); none on a port of one data VL. */
static int qos_arbitrate(struct sl2vl_run *run, uint32_t n, unsigned p,
			 const struct sm_qos_vl_config *c)
{
	const struct mad_port_info *pi = &run->f->attrs[n].pi[p];
	struct mad_vlarb_block b;
	int rc;

	if (pi->vl_cap == 1)
		return 0;
	for (uint8_t block = MAD_VLARB_LOW_0_31; block <= MAD_VLARB_HIGH_32_63; block++) {
		unsigned cap = block < MAD_VLARB_HIGH_0_31 ? pi->vl_arb_low_cap : pi->vl_arb_high_cap;
		if (sm_qos_vlarb(c, block, cap, pi->oper_vls, &b) &&
		    (rc = qos_table(run, n, 0, p, block, NULL, &b)))
			return rc;
	}
	return 0;
}

/* The SLtoVLMappingTable @in -> @out of @n from @c. */
static int qos_map(struct sl2vl_run *run, uint32_t n, unsigned in, unsigned out,
		   const struct sm_qos_vl_config *c)
{
	struct mad_sl2vl t;

	sm_qos_sl2vl(c, run->f->attrs[n].pi[out].oper_vls, &t);
	return qos_table(run, n, in, out, 0, &t, NULL);
}

/* A port the tables are for: port 0 of a switch with an enhanced port 0, or
 * a data port. */
static bool qos_port(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	return p ? sm_sl2vl_data_port(f, n, p)
		 : f->topo.nodes[n].enhanced_port0 && f->attrs[n].pi_valid[0];
}

/* One switch: its external ports' arbitration, every (input, output) pair's
 * mapping (output port 0 too when enhanced), then port 0's own tables. */
static int qos_switch(struct sl2vl_run *run, uint32_t n)
{
	const struct sm_qos_vl_config *swe = &run->qos->vl[SM_QOS_PORT_SWITCH_EXTERNAL],
				      *sw0 = &run->qos->vl[SM_QOS_PORT_SWITCH_PORT0];
	unsigned np = run->f->topo.nodes[n].nports;
	bool maps = sm_sl2vl_maps_sls(run->f, n, 0);
	int rc;

	if (!maps)
		skip_unmapped(run, n, 0);
	for (unsigned out = 1; out <= np; out++)
		if (qos_port(run->f, n, out) && (rc = qos_arbitrate(run, n, out, swe)))
			return rc;
	for (unsigned out = 0; maps && out <= np; out++)
		for (unsigned in = 0; qos_port(run->f, n, out) && in <= np; in++)
			if ((rc = qos_map(run, n, in, out, out ? swe : sw0)))
				return rc;
	if (!qos_port(run->f, n, 0))
		return 0;
	return qos_arbitrate(run, n, 0, sw0);
}

/* Every port's tables from the policy's, by port type (OpenSM's qos_ca_,
 * qos_swe_, qos_sw0_, qos_rtr_). */
static int qos_all(struct sl2vl_run *run)
{
	const struct sm_fabric *f = run->f;
	int rc;

	for (uint32_t n = 0; n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		if (tn->type == MAD_NODE_SWITCH) {
			if ((rc = qos_switch(run, n)))
				return rc;
			continue;
		}
		const struct sm_qos_vl_config *c = &run->qos->vl[sm_qos_port_type(tn->type, 1)];
		for (unsigned p = 1; p <= tn->nports; p++) {
			if (!sm_sl2vl_data_port(f, n, p))
				continue;
			if ((rc = qos_arbitrate(run, n, p, c)))
				return rc;
			if (!sm_sl2vl_maps_sls(f, n, p))
				skip_unmapped(run, n, p);
			else if ((rc = qos_map(run, n, 0, p, c)))
				return rc;
		}
	}
	return mad_rpc_drain(run->sm->rpc);
}

/* The SLs of the policy's levels, each with the engine's @nsl layers above
 * it: bit sl of the result's entry l (one per layer) is set when SL sl
 * carries layer l. */
static void qos_layers(const struct sm_qos_policy *q, unsigned nsl, uint16_t *sls)
{
	for (size_t i = 0; i < q->nlevels; i++) {
		unsigned base = q->levels[i].sl == SM_QOS_NO_SL ? 0 : q->levels[i].sl;
		for (unsigned l = 0; l < nsl && base + l < MAD_NUM_SL; l++)
			sls[l] |= (uint16_t)(1u << (base + l));
	}
}

int sm_qos_vl_check(const struct sm_qos_policy *q, const struct sm_fabric *f, unsigned nsl,
		    char *err, size_t errlen)
{
	uint16_t sls[MAD_NUM_SL] = { 0 };

	if (!q->on || nsl <= 1)
		return 0;
	for (size_t i = 0; i < q->nlevels; i++)
		if (q->levels[i].sl != SM_QOS_NO_SL && q->levels[i].sl + nsl - 1 >= MAD_NUM_SL) {
			snprintf(err, errlen, "QoS level %s has SL %u, and the routing engine's %u "
				 "layers would take SLs up to %u: at most 15", q->levels[i].name[0] ?
				 q->levels[i].name : "of a ULP rule", q->levels[i].sl, nsl,
				 q->levels[i].sl + nsl - 1);
			return -ERANGE;
		}
	qos_layers(q, nsl, sls);
	for (uint32_t n = 0; n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		if (tn->type != MAD_NODE_SWITCH)
			continue;
		for (unsigned p = 1; p <= tn->nports; p++) {
			if (!switch_link(f, n, p))
				continue;
			/* each VL of a link between switches carries one layer, so
			 * its dependencies are of one layer's acyclic graph */
			uint8_t mask = vl_mask(f, n, p);
			int layer_of[16];
			memset(layer_of, -1, sizeof(layer_of));
			for (unsigned l = 0; l < nsl; l++)
				for (unsigned sl = 0; sl < MAD_NUM_SL; sl++) {
					if (!(sls[l] & (1u << sl)))
						continue;
					unsigned vl = q->vl[SM_QOS_PORT_SWITCH_EXTERNAL].sl2vl.vl[sl];
					vl = vl == 15 ? 15 : vl & mask;
					if (vl == 15 || (layer_of[vl] >= 0 && layer_of[vl] != (int)l)) {
						snprintf(err, errlen, "0x%016llx (%s) port %u, %u data VLs: "
							 "SL %u (layer %u of the routing engine's %u) %s",
							 (unsigned long long)tn->guid, tn->desc, p,
							 sm_sl2vl_port_vls(f, n, p), sl, l, nsl,
							 vl == 15 ? "maps to VL 15 (dropped)"
							 : "shares its VL with another layer: a credit "
							   "loop could close");
						return -ERANGE;
					}
					layer_of[vl] = (int)l;
				}
		}
	}
	return 0;
}

int sm_sl2vl_program(struct sm *sm, const struct sm_fabric *f, const struct sm_routes *routes,
		     const struct sm_qos_policy *qos, struct sm_arena *arena,
		     struct sm_sl2vl_result *res)
{
	unsigned nsl = routes->check.max_sl + 1u;
	struct sl2vl_run run = { .sm = sm, .f = f, .res = res, .arena = arena, .nsl = nsl };
	int rc;

	memset(res, 0, sizeof(*res));
	if (qos && qos->on) {
		char err[256];
		if ((rc = sm_qos_vl_check(qos, f, nsl, err, sizeof(err)))) {
			sm_err("SL2VL: the QoS policy cannot be met with engine %s: %s; nothing "
			       "programmed", routes->engine ? routes->engine : "?", err);
			return rc;
		}
		run.qos = qos;
		rc = qos_all(&run);
		sm_info("SL2VL: the QoS policy's tables: %zu mapping tables read, %zu set; "
			"%zu VL arbitration blocks read, %zu set; %zu failures; %zu devices "
			"without SL mapping", res->tables, res->sets, res->vlarb_ports,
			res->vlarb_sets, res->failures, res->unmapped);
		return rc;
	}
	if (nsl == 1)
		return 0;
	if ((rc = check_vls(f, routes->engine ? routes->engine : "?", nsl)))
		return rc;
	rc = read_all(&run, arena);
	sm_info("SL2VL: routes on SLs 0..%u; %zu switches set with %zu optimized Sets "
		"(%zu refused them); %zu tables read one by one (switch port pairs and CA "
		"ports), %zu set; %zu VL arbitration tables, %zu set; %zu read, %zu failures; "
		"%zu devices without SL mapping", nsl - 1, res->grouped, res->group_sets,
		res->group_refused, res->tables, res->sets, res->vlarb_ports, res->vlarb_sets,
		res->reads, res->failures, res->unmapped);
	return rc;
}

// SPDX-License-Identifier: MIT
/*
 * sm_pkey_program.c - P_KeyTables (IBA 14.2.5.7) as the partitions say.
 *
 * Tables programmed: every CA and router port with a link and every switch's
 * port 0 (their own P_Keys, sm_pkey.c; OpenSM sets port 0 too), and, on a
 * switch that can enforce partitions (SwitchInfo
 * PartitionEnforcementCap > 0 and InboundEnforcementCap or
 * OutboundEnforcementCap), every external port to a CA or router: the
 * neighbour's P_Keys, when the partitions file defines more than the default
 * partition; sm_program.c turns PortInfo PartitionEnforcementInbound and
 * Outbound on there (IBA 10.9.3), so a host cannot send with a P_Key it was
 * not given.  Ports between switches are not enforced (OpenSM's default too).
 *
 * Each block a port's PartitionCap covers (at most SM_PKEY_PROG_BLOCKS) is
 * read; only the blocks that differ from the wanted table are set, from the
 * Get's completion, and the answer must show the table asked for.  A port in
 * more partitions than its PartitionCap keeps the first (logged).  The wanted
 * table is the port's keys packed from entry 0, the rest 0 (the invalid
 * P_Key).
 */
#include <errno.h>
#include <string.h>

#include "sm/util/sm_log.h"
#include "sm/sa/sm_pkey_program.h"
#include "sm/sa/sm_sa.h"

#define SM_PKEY_PROG_BLOCKS 64	/* blocks read per port: 2048 entries */

struct pk_run {
	struct sm *sm;
	const struct sm_fabric *f;
	const struct sm_pkey_ports *pp;
	struct sm_pkey_result *res;
};

struct pk_job {
	struct pk_run *run;
	uint32_t node;		/* the node whose table it is */
	uint8_t port;
	uint16_t block;
	uint32_t keys_node;	/* whose P_Keys it holds (a switch port: the neighbour) */
	uint8_t keys_port;
	uint16_t cap;		/* entries the table has */
	struct mad_pkey_block want;
};

/* Block @b of the table holding @src_node/@src_port's keys, @cap entries. */
static void wanted(const struct pk_run *run, uint32_t node, uint8_t port, uint16_t cap,
		   uint16_t b, struct mad_pkey_block *out)
{
	const uint16_t *keys;
	size_t n = sm_pkey_ports_of(run->pp, node, port, &keys, NULL);

	memset(out, 0, sizeof(*out));
	if (n > cap)
		n = cap;
	for (unsigned i = 0; i < MAD_PKEY_BLOCK; i++) {
		size_t e = (size_t)b * MAD_PKEY_BLOCK + i;
		if (e < n)
			out->pkey[i] = keys[e];
	}
}

static void job_failed(const struct pk_job *j, int err, const struct mad_smp *resp,
		       const char *what)
{
	const struct topo_node *n = &j->run->f->topo.nodes[j->node];
	char why[64];

	j->run->res->failures++;
	sm_warn("partitions: P_KeyTable %s on 0x%016llx (%s) port %u block %u failed: %s",
		what, (unsigned long long)n->guid, n->desc, j->port, j->block,
		sm_smp_error(err, resp, why, sizeof(why)));
}

static int job_submit(struct pk_job *j, uint8_t method, mad_rpc_done_fn done)
{
	const struct sm_fabric *f = j->run->f;
	bool sw = f->topo.nodes[j->node].type == MAD_NODE_SWITCH;
	struct topo_path path = f->topo.nodes[j->node].path;
	uint8_t data[SMP_DATA_SIZE] = { 0 };

	if (!sw)	/* a CA answers for the port an SMP comes in by */
		sm_fabric_port_path(f, j->node, j->port, &path);
	if (method == MAD_METHOD_SET)
		mad_pkey_encode(&j->want, data);
	uint32_t mod = (sw ? (uint32_t)j->port << 16 : 0) | j->block;
	return mad_rpc_submit_dr(j->run->sm->rpc, method, MAD_ATTR_PKEY_TABLE, mod, &path,
				 sm_mkey_for(f, j->node, j->port), data, done, j);
}

static void on_set(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct pk_job *j = ctx;
	struct mad_pkey_block got;

	(void)req;
	if (!err && (mad_pkey_decode(resp->data, &got) ||
		     memcmp(&got, &j->want, sizeof(got))))
		err = -EPROTO;	/* answered, but not with the table we set */
	if (err)
		job_failed(j, err, resp, "Set");
	else
		j->run->res->sets++;
}

static void on_get(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct pk_job *j = ctx;
	struct mad_pkey_block got;

	(void)req;
	if (!err && mad_pkey_decode(resp->data, &got))
		err = -EPROTO;
	if (err) {
		job_failed(j, err, resp, "Get");
		return;
	}
	j->run->res->reads++;
	if (!memcmp(&got, &j->want, sizeof(got)))
		return;
	if ((err = job_submit(j, MAD_METHOD_SET, on_set)))
		job_failed(j, err, NULL, "Set");
}

/* Read (then set where needed) every block of one port's table. */
static int port_table(struct pk_run *run, struct sm_arena *arena, uint32_t node, uint8_t port,
		      uint32_t keys_node, uint8_t keys_port, uint16_t cap)
{
	const uint16_t *keys;
	size_t n = sm_pkey_ports_of(run->pp, keys_node, keys_port, &keys, NULL);
	unsigned blocks = (cap + MAD_PKEY_BLOCK - 1) / MAD_PKEY_BLOCK;

	if (blocks > SM_PKEY_PROG_BLOCKS)
		blocks = SM_PKEY_PROG_BLOCKS;
	if (n > cap) {
		const struct topo_node *tn = &run->f->topo.nodes[node];
		run->res->truncated++;
		sm_warn("partitions: 0x%016llx (%s) port %u is in %zu partitions but holds %u "
			"P_Keys: the first %u are programmed", (unsigned long long)tn->guid,
			tn->desc, port, n, cap, cap);
	}
	run->res->ports++;
	for (unsigned b = 0; b < blocks; b++) {
		int rc = mad_rpc_wait_backlog(run->sm->rpc);
		if (rc)
			return rc;
		struct pk_job *j = sm_arena_alloc(arena, sizeof(*j));
		if (!j)
			return -ENOMEM;
		*j = (struct pk_job){ .run = run, .node = node, .port = port, .block = (uint16_t)b,
				      .keys_node = keys_node, .keys_port = keys_port, .cap = cap };
		wanted(run, keys_node, keys_port, cap, (uint16_t)b, &j->want);
		if ((rc = job_submit(j, MAD_METHOD_GET, on_get)))
			return rc;
	}
	return 0;
}

/* A port that carries data: cabled, its PortInfo known, not down. */
static bool linked(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	const struct topo_port *tp = &f->topo.nodes[n].ports[p];

	return tp->peer != TOPO_NONE && f->attrs[n].pi && f->attrs[n].pi_valid[p] &&
	       tp->state >= MAD_PORT_INIT;
}

bool sm_pkey_enforced(const struct sm_partitions *ps, const struct sm_fabric *f, uint32_t n,
		      unsigned p)
{
	const struct topo_node *tn = &f->topo.nodes[n];
	const struct sm_node_attrs *a = &f->attrs[n];

	if (!ps || ps->n < 2 || tn->type != MAD_NODE_SWITCH || !a->si_valid ||
	    !a->si.partition_enf_cap || !(a->si.part_enf_inb || a->si.part_enf_outb) ||
	    p == 0 || p > tn->nports)
		return false;	/* IBA 14.2.5.4: Inbound/OutboundEnforcementCap */
	uint32_t peer = tn->ports[p].peer;
	return peer != TOPO_NONE && f->topo.nodes[peer].type != MAD_NODE_SWITCH;
}

int sm_pkey_program(struct sm *sm, struct sm_fabric *f, const struct sm_pkey_ports *pp,
		    struct sm_arena *arena, struct sm_pkey_result *res)
{
	struct pk_run run = { .sm = sm, .f = f, .pp = pp, .res = res };
	int rc = 0;

	memset(res, 0, sizeof(*res));
	for (uint32_t n = 0; n < f->topo.n && !rc; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		const struct sm_node_attrs *a = &f->attrs[n];
		bool sw = tn->type == MAD_NODE_SWITCH;
		if (sw && a->pi && a->pi_valid[0])	/* its management port */
			rc = port_table(&run, arena, n, 0, n, 0, a->partition_cap);
		for (unsigned p = 1; p <= tn->nports && !rc; p++) {
			const struct topo_port *tp = &tn->ports[p];
			if (!linked(f, n, p))
				continue;
			if (!sw)
				rc = port_table(&run, arena, n, (uint8_t)p, n, (uint8_t)p,
						a->partition_cap);
			else if (sm_pkey_enforced(&sm->sa->partitions, f, n, p))
				rc = port_table(&run, arena, n, (uint8_t)p, tp->peer,
						tp->peer_port, a->si.partition_enf_cap);
		}
	}
	int drained = mad_rpc_drain(sm->rpc);
	return rc ? rc : drained;
}

/* Every port wants the power-on table: 0xffff alone in entry 0 (IBA 10.9.2). */
static bool power_on_tables(const struct sm_pkey_ports *pp)
{
	uint32_t nslots = pp->slot[pp->nnodes];

	for (uint32_t s = 0; s < nslots; s++)
		if (pp->off[s + 1] - pp->off[s] > 1 ||
		    (pp->off[s + 1] > pp->off[s] && pp->keys[pp->off[s]] != 0xffff))
			return false;
	return true;
}

int sm_pkey_sweep(struct sm *sm, struct sm_fabric *f, struct sm_arena *arena, bool armed,
		  struct sm_pkey_ports *out)
{
	struct sm_pkey_result res;
	const char *file = sm->cfg.partitions_file[0] ? sm->cfg.partitions_file : "partitions";
	int rc = sm_pkey_ports_build(&sm->sa->partitions, f, file, out);

	if (rc) {
		sm_err("partitions: %s", strerror(-rc));
		return rc;
	}
	/* with the default partition only, every port a full member, the
	 * power-on tables are right unless this process set others */
	bool custom = sm->sa->partitions.n > 1 || !power_on_tables(out);
	if (!sm->sa->pkeys_custom && !custom)
		return 0;
	if (sm->sa->pkeys_current && !armed)
		return 0;	/* set everywhere, and no port (re)joined since */
	rc = sm_pkey_program(sm, f, out, arena, &res);
	sm->sa->pkeys_current = rc == 0 && res.failures == 0;
	sm->sa->pkeys_custom |= custom;
	sm_notice("partitions: %zu, P_KeyTables of %zu ports checked: %zu blocks read, %zu set, "
		  "%zu failures", sm->sa->partitions.n, res.ports, res.reads, res.sets, res.failures);
	return rc ? rc : res.failures ? -EIO : 0;
}

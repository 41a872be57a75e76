// SPDX-License-Identifier: MIT
/*
 * sm_sa_alias_program.c - alias GUIDs into the ports' GUIDInfo tables
 * (IBA 14.2.5.5, SubnSet(GUIDInfo), the modifier the block).
 *
 * Flow: the blocks a GUIDInfoRecord Set or Delete changed (sm_sa_alias.h's
 * due list), or after a restart, or once ports were (re)activated, every
 * block of every port with an alias, are sent to the port found by GUID in
 * the fabric, by directed route (a CA answers for the port an SMP comes in
 * by).  The answer must hold the block sent.  A port not in the fabric now
 * gets its blocks when it comes back (a port activated makes the sweep send
 * every block again); a send that failed leaves every block due.  Sent from the loop
 * (sm_daemon.c) after an SA change, and by the heavy sweep after P_Keys.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm/core/sm.h"
#include "sm/core/sm_mkey.h"
#include "sm/util/sm_log.h"
#include "sm/sa/sm_sa.h"

struct gi_job {
	struct sm_sa_aliases *t;
	uint64_t port_guid;
	uint16_t block;
	struct mad_guid_block want;
};

static void on_set(void *ctx, int err, const struct mad_smp *req, const struct mad_smp *resp)
{
	struct gi_job *j = ctx;
	struct mad_guid_block got;
	char why[64];

	(void)req;
	if (!err && (mad_guid_info_decode(resp->data, &got) ||
		     memcmp(&got, &j->want, sizeof(got))))
		err = -EPROTO;	/* answered, but not with the block we set */
	if (!err) {
		j->t->sets++;
		return;
	}
	j->t->failures++;
	sm_warn("alias GUIDs: GUIDInfo Set on port 0x%016llx block %u failed: %s",
		(unsigned long long)j->port_guid, j->block, sm_smp_error(err, resp, why, sizeof(why)));
}

/* The CA or router port, or switch port 0, of @f with GUID @guid. */
static bool port_by_guid(const struct sm_fabric *f, uint64_t guid, uint32_t *node, uint8_t *port)
{
	for (uint32_t n = 0; n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		for (unsigned p = tn->type == MAD_NODE_SWITCH ? 0 : 1;
		     p <= (tn->type == MAD_NODE_SWITCH ? 0u : tn->nports); p++)
			if (tn->ports[p].guid == guid) {
				*node = n;
				*port = (uint8_t)p;
				return true;
			}
	}
	return false;
}

int sm_sa_alias_program(struct sm *sm, const struct sm_fabric *f, bool all)
{
	struct sm_sa_aliases *t = &sm->sa->aliases;
	int rc = 0;

	if ((all || t->all_due) && (rc = sm_sa_alias_mark_all(t)))
		return rc;
	t->all_due = false;
	if (!t->ndue)
		return 0;
	struct gi_job *jobs = calloc(t->ndue, sizeof(*jobs));
	if (!jobs)
		return -ENOMEM;
	size_t sent = 0, absent = 0;
	for (size_t i = 0; i < t->ndue && !rc; i++) {
		struct sm_sa_alias_due d = t->due[i];
		uint32_t node;
		uint8_t port;
		if (!port_by_guid(f, d.port_guid, &node, &port)) {
			absent++;	/* programmed when it is back (activated) */
			continue;
		}
		struct gi_job *j = &jobs[sent++];
		*j = (struct gi_job){ .t = t, .port_guid = d.port_guid, .block = d.block };
		sm_sa_alias_block(t, d.port_guid, d.block, j->want.guid);
		struct topo_path path = f->topo.nodes[node].path;
		if (f->topo.nodes[node].type != MAD_NODE_SWITCH)
			sm_fabric_port_path(f, node, port, &path);
		uint8_t data[SMP_DATA_SIZE] = { 0 };
		mad_guid_info_encode(&j->want, data);
		if (!(rc = mad_rpc_wait_backlog(sm->rpc)))
			rc = mad_rpc_submit_dr(sm->rpc, MAD_METHOD_SET, MAD_ATTR_GUID_INFO, d.block,
					       &path, sm_mkey_for(f, node, port), data, on_set, j);
	}
	t->ndue = 0;
	t->all_due = rc != 0;	/* not all sent: every block at the next sweep */
	int drained = mad_rpc_drain(sm->rpc);
	if (drained)
		mad_rpc_discard(sm->rpc);	/* their callbacks point into @jobs */
	free(jobs);
	if (sent)
		sm_info("alias GUIDs: %zu GUIDInfo blocks sent, %zu of ports not in the fabric",
			sent, absent);
	return rc ? rc : drained;
}

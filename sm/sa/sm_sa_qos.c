// SPDX-License-Identifier: MIT
/*
 * sm_sa_qos.c - the QoS level of a PathRecord or MultiPathRecord request: its
 * two ends as the policy sees them (port GUID, NodeDescription and port
 * number, node type, the SM's own port, their partitions as resolved for the
 * sweep) and the fields it carries (ServiceID, P_Key, QoS class), handed to
 * the matcher (sm_qos_match.c).
 */
#include <string.h>

#include "sm/sa/sm_sa_records.h"

#define PR_SERVICE_ID (MAD_SA_COMP(0) | MAD_SA_COMP(1))
#define PR_QOS_CLASS MAD_SA_COMP(14)

/* Whether port @pt holds a P_Key in @lo..@hi, or is in partition @name. */
static bool in_partition(const void *ctx, const struct sm_qos_port *pt, uint16_t lo,
			 uint16_t hi, const char *name)
{
	const struct sm_sa_source *src = ctx;
	const uint16_t *keys, *parts;
	static const uint16_t dflt[] = { 0x7fff }, dflt_part[] = { 0 };
	size_t n = 1;

	keys = dflt;	/* no partitions resolved: the default one alone */
	parts = dflt_part;
	if (src->pkeys)
		n = sm_pkey_ports_of(src->pkeys, pt->node, (uint8_t)pt->port, &keys, &parts);
	for (size_t i = 0; i < n; i++) {
		if (name ? src->partitions && parts[i] < src->partitions->n &&
			   strcmp(src->partitions->p[parts[i]].name, name) == 0
			 : (keys[i] & 0x7fff) >= lo && (keys[i] & 0x7fff) <= hi)
			return true;
	}
	return false;
}

static struct sm_qos_port qos_port(const struct sm_sa_source *src, struct sa_port sp)
{
	const struct topo_node *tn = &src->f->topo.nodes[sp.node];
	unsigned type = tn->type == MAD_NODE_SWITCH ? SM_QOS_NT_SWITCH
			: tn->type == MAD_NODE_ROUTER ? SM_QOS_NT_ROUTER : SM_QOS_NT_CA;
	uint64_t guid = sa_port_of(src->f, sp)->guid;

	if (src->nsms && src->sms[0].info.guid == guid)
		type |= SM_QOS_NT_SELF;
	return (struct sm_qos_port){ .guid = guid, .desc = tn->desc, .port = sp.port,
				     .node_type = type, .node = sp.node,
				     .in_partition = in_partition, .ctx = src };
}

const struct sm_qos_level *sm_sa_path_level(const struct sm_sa_source *src,
					    const struct mad_sa_path_record *t, uint64_t m,
					    struct sa_port s, struct sa_port d)
{
	if (!src->qos || !src->qos->on)
		return NULL;
	struct sm_qos_port ps = qos_port(src, s), pd = qos_port(src, d);
	struct sm_qos_request r = {
		.src = &ps, .dst = &pd,
		.has_sid = (m & PR_SERVICE_ID) == PR_SERVICE_ID, .service_id = t->service_id,
		.has_pkey = (m & MAD_SA_PR_PKEY) != 0, .pkey = t->pkey,
		.has_class = (m & PR_QOS_CLASS) != 0, .qos_class = t->qos_class,
	};
	return sm_qos_match(src->qos, &r);
}

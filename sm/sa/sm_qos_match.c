// SPDX-License-Identifier: MIT
/*
 * sm_qos_match.c - the QoS level of a request: the first match rule whose
 * every criterion holds (sm_qos.h), else the default level.  A criterion on a
 * field the request does not carry (ServiceID, P_Key, QoS class not in its
 * ComponentMask) does not hold, as in OpenSM.
 */
#include <stdlib.h>
#include <string.h>

#include "sm/sa/sm_qos.h"

static bool in_ranges(const struct sm_qos_ranges *rs, uint64_t x)
{
	for (size_t i = 0; i < rs->n; i++)
		if (x >= rs->r[i].lo && x <= rs->r[i].hi)
			return true;
	return false;
}

/* "NodeDescription/Pn" names @pt. */
static bool port_name_is(const char *name, const struct sm_qos_port *pt)
{
	const char *slash = strrchr(name, '/');
	size_t len = strlen(pt->desc);

	if (!slash || (size_t)(slash - name) != len || strncmp(name, pt->desc, len) ||
	    slash[1] != 'P' || !slash[2])
		return false;
	char *end;
	unsigned long p = strtoul(slash + 2, &end, 10);
	return !*end && p == pt->port;
}

static bool in_group(const struct sm_qos_group *g, const struct sm_qos_port *pt)
{
	if ((g->node_types & pt->node_type) || in_ranges(&g->guids, pt->guid))
		return true;
	for (size_t i = 0; i < g->nport_names; i++)
		if (port_name_is(g->port_names[i], pt))
			return true;
	for (size_t i = 0; pt->in_partition && i < g->pkeys.n; i++)
		if (pt->in_partition(pt->ctx, pt, (uint16_t)g->pkeys.r[i].lo,
				     (uint16_t)g->pkeys.r[i].hi, NULL))
			return true;
	for (size_t i = 0; pt->in_partition && i < g->npartitions; i++)
		if (pt->in_partition(pt->ctx, pt, 0, 0, g->partitions[i]))
			return true;
	return false;
}

static bool in_groups(const struct sm_qos_policy *q, const size_t *gs, size_t n,
		      const struct sm_qos_port *pt)
{
	for (size_t i = 0; i < n; i++)
		if (in_group(&q->groups[gs[i]], pt))
			return true;
	return false;
}

static bool rule_holds(const struct sm_qos_policy *q, const struct sm_qos_rule *ru,
		       const struct sm_qos_request *r)
{
	if (ru->either_end) {
		if (!in_groups(q, ru->src, ru->nsrc, r->src) &&
		    !in_groups(q, ru->dst, ru->ndst, r->dst))
			return false;
	} else if ((ru->nsrc && !in_groups(q, ru->src, ru->nsrc, r->src)) ||
		   (ru->ndst && !in_groups(q, ru->dst, ru->ndst, r->dst))) {
		return false;
	}
	if (ru->qos_class.n && (!r->has_class || !in_ranges(&ru->qos_class, r->qos_class)))
		return false;
	if (ru->service_ids.n && (!r->has_sid || !in_ranges(&ru->service_ids, r->service_id)))
		return false;
	if (ru->pkeys.n && (!r->has_pkey || !in_ranges(&ru->pkeys, r->pkey & 0x7fff)))
		return false;
	return true;
}

const struct sm_qos_level *sm_qos_match(const struct sm_qos_policy *q,
					const struct sm_qos_request *r)
{
	if (!q->on)
		return NULL;
	for (size_t i = 0; i < q->nrules; i++)
		if (rule_holds(q, &q->rules[i], r))
			return &q->levels[q->rules[i].level];
	return &q->levels[q->default_level];
}

const struct sm_qos_level *sm_qos_match_pkey(const struct sm_qos_policy *q, uint16_t pkey)
{
	for (size_t i = 0; q->on && i < q->nrules; i++) {
		const struct sm_qos_rule *ru = &q->rules[i];
		if (ru->pkeys.n && !ru->nsrc && !ru->ndst && !ru->qos_class.n &&
		    !ru->service_ids.n && in_ranges(&ru->pkeys, pkey & 0x7fff))
			return &q->levels[ru->level];
	}
	return NULL;
}

void sm_qos_limit(const struct sm_qos_level *l, unsigned (*rate_of)(uint8_t code), uint8_t *mtu,
		  uint8_t *rate, uint8_t *sl)
{
	if (!l)
		return;
	if (l->mtu && *mtu > l->mtu)
		*mtu = l->mtu;
	if (l->rate && rate_of(*rate) > rate_of(l->rate))
		*rate = l->rate;
	if (l->sl != SM_QOS_NO_SL)
		*sl = l->sl;
}

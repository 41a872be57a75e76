// SPDX-License-Identifier: MIT
/*
 * sm_sa_sminfo.c - SMInfoRecord (IBA 15.2.5.9): the SMs this SM knows of,
 * itself first (its port's LID, GUID, priority, state, ActCount as its SMInfo
 * answers), then the master a STANDBY polls (sm_ha.c).  The SM_Key is shown
 * only to a requester holding it, as for SMInfo itself.  Components: LID,
 * GUID, SM_Key, ActCount, Priority, SMState.
 */
#include "mad/mad_rpc.h"
#include "sm/core/sm.h"
#include "sm/sa/sm_sa_records.h"
#include "sm/ha/sm_ha.h"

unsigned sm_sa_known_sms(const struct sm *sm, struct mad_sa_sm_info_record out[SM_SA_MAX_SMS])
{
	const struct sm_fabric *f = &sm->fabric;
	struct mad_rpc_stats st;
	unsigned n = 0;

	if (!sm->have_fabric || f->local_node == TOPO_NONE)
		return 0;
	const struct topo_node *tn = &f->topo.nodes[f->local_node];
	const struct topo_port *own = &tn->ports[tn->type == MAD_NODE_SWITCH ? 0 : f->local_port];
	sm_rpc_stats(sm, &st);
	out[n++] = (struct mad_sa_sm_info_record){
		.lid = own->lid,
		.info = { .guid = own->guid, .sm_key = sm->cfg.sm_key,
			  .act_count = (uint32_t)st.sent, .priority = sm->cfg.sm_priority,
			  .state = sm->sm_state },
	};
	const struct sm_ha_peer *m = &sm->ha->master;
	struct sa_port at;
	if (sm->sm_state == MAD_SM_STANDBY && m->guid && m->guid != own->guid &&
	    sm_sa_index_guid(&sm->sa->index, m->guid, &at))
		out[n++] = (struct mad_sa_sm_info_record){
			.lid = sa_port_of(f, at)->lid,
			.info = { .guid = m->guid, .priority = m->priority, .state = m->state },
		};
	return n;
}

uint16_t sm_sa_sm_info_records(const struct sm_sa_source *src, const struct mad_sa *req,
			       struct sa_out *o)
{
	struct mad_sa_sm_info_record t;
	uint8_t rec[MAD_SA_SM_INFO_RECORD_SIZE];
	uint64_t m = req->comp_mask;
	bool trusted = src->sm_key && req->sm_key == src->sm_key;

	mad_sa_sm_info_record_decode(req->data, &t);
	for (unsigned i = 0; i < src->nsms; i++) {
		struct mad_sa_sm_info_record r = src->sms[i];
		if (!trusted)
			r.info.sm_key = 0;
		const struct mad_sm_info *ti = &t.info, *ri = &r.info;
		if (!SA_COMP(m, 0, t.lid, r.lid) || !SA_COMP(m, 2, ti->guid, ri->guid) ||
		    !SA_COMP(m, 3, ti->sm_key, ri->sm_key) ||
		    !SA_COMP(m, 4, ti->act_count, ri->act_count) ||
		    !SA_COMP(m, 5, ti->priority, ri->priority) ||
		    !SA_COMP(m, 6, ti->state, ri->state))
			continue;
		mad_sa_sm_info_record_encode(&r, rec);
		sa_out_add(o, rec);
	}
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * sm_sa_switch.c - the switches' records: SwitchInfoRecord (IBA 15.2.5.5,
 * the SwitchInfo each switch answered in the last sweep, LinearFDBTop as
 * programmed), LinearForwardingTableRecord (15.2.5.6, the LFT blocks the last
 * sweep's routes hold up to LinearFDBTop) and MulticastForwardingTableRecord
 * (15.2.5.8, the MFT blocks the SM set and keeps, sm_mcast_program.c; blocks
 * with no port in them are not listed).
 * Components: LID on all three, BlockNum on the LFT and MFT records, Position
 * on the MFT record.  A switch is named by its LID (port 0's).
 */
#include <string.h>

#include "sm/sa/sm_sa_records.h"

/* Step @n to the next switch with a LID that @only (TOPO_NONE: any) allows. */
static bool next_switch(const struct sm_fabric *f, struct sa_port only, uint32_t *n)
{
	for (uint32_t i = *n == TOPO_NONE ? 0 : *n + 1; i < f->topo.n; i++) {
		const struct topo_node *tn = &f->topo.nodes[i];
		if (tn->type != MAD_NODE_SWITCH || !tn->ports[0].lid)
			continue;
		if (only.node != TOPO_NONE && only.node != i)
			continue;
		*n = i;
		return true;
	}
	return false;
}

uint16_t sm_sa_switch_info_records(const struct sm_sa_source *src,
				   const struct mad_sa *req, struct sa_out *o)
{
	const struct sm_fabric *f = src->f;
	struct mad_sa_switch_info_record t;
	struct sa_port only;
	uint8_t rec[MAD_SA_SWITCH_INFO_RECORD_SIZE];

	mad_sa_switch_info_record_decode(req->data, &t);
	if (!sa_only_node(src, req->comp_mask, MAD_SA_COMP(0), t.lid, &only))
		return 0;
	for (uint32_t n = TOPO_NONE; next_switch(f, only, &n);) {
		if (!f->attrs[n].si_valid)
			continue;
		struct mad_sa_switch_info_record r = {
			.lid = f->topo.nodes[n].ports[0].lid, .info = f->attrs[n].si,
		};
		if (src->routes && src->routes->lft && n < src->routes->nnodes &&
		    src->routes->lft[n])
			r.info.lft_top = src->routes->max_lid;
		mad_sa_switch_info_record_encode(&r, rec);
		sa_out_add(o, rec);
	}
	return 0;
}

uint16_t sm_sa_lft_records(const struct sm_sa_source *src, const struct mad_sa *req,
			   struct sa_out *o)
{
	const struct sm_fabric *f = src->f;
	const struct sm_routes *rt = src->routes;
	struct mad_sa_lft_record t;
	struct sa_port only;
	uint8_t rec[MAD_SA_LFT_RECORD_SIZE];

	mad_sa_lft_record_decode(req->data, &t);
	if (!rt || !rt->lft || !sa_only_node(src, req->comp_mask, MAD_SA_COMP(0), t.lid, &only))
		return 0;
	unsigned blocks = (unsigned)rt->max_lid / MAD_LFT_BLOCK + 1;
	for (uint32_t n = TOPO_NONE; next_switch(f, only, &n);) {
		if (n >= rt->nnodes || !rt->lft[n])
			continue;
		for (unsigned b = 0; b < blocks; b++) {
			if (!SA_COMP(req->comp_mask, 1, t.block, b))
				continue;
			struct mad_sa_lft_record r = {
				.lid = f->topo.nodes[n].ports[0].lid, .block = (uint16_t)b,
			};
			memcpy(r.lft.port, rt->lft[n] + (size_t)b * MAD_LFT_BLOCK, MAD_LFT_BLOCK);
			mad_sa_lft_record_encode(&r, rec);
			sa_out_add(o, rec);
		}
	}
	return 0;
}

uint16_t sm_sa_mft_records(const struct sm_sa_source *src, const struct mad_sa *req,
			   struct sa_out *o)
{
	const struct sm_fabric *f = src->f;
	struct mad_sa_mft_record t;
	struct sa_port only;
	uint8_t rec[MAD_SA_MFT_RECORD_SIZE];
	uint64_t m = req->comp_mask;

	mad_sa_mft_record_decode(req->data, &t);
	if (!src->mcast || !sa_only_node(src, m, MAD_SA_COMP(0), t.lid, &only))
		return 0;
	for (uint32_t n = TOPO_NONE; next_switch(f, only, &n);) {
		const struct sm_mcast_sw *s = sm_mcast_switch(src->mcast, f->topo.nodes[n].guid);
		for (uint32_t b = 0; s && s->known && b < s->blocks; b++) {
			for (uint8_t pos = 0; pos < s->npos; pos++) {
				const uint16_t *h = sm_mcast_held(s, b, pos);
				bool used = false;
				for (unsigned i = 0; i < SM_MFT_BLOCK && !used; i++)
					used = h[i];
				if (!used || !SA_COMP(m, 1, t.position, pos) ||
				    !SA_COMP(m, 3, t.block, b))
					continue;
				struct mad_sa_mft_record r = {
					.lid = f->topo.nodes[n].ports[0].lid, .position = pos,
					.block = (uint16_t)b,
				};
				memcpy(r.mask, h, sizeof(r.mask));
				mad_sa_mft_record_encode(&r, rec);
				sa_out_add(o, rec);
			}
		}
	}
	return 0;
}

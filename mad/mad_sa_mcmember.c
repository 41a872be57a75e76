// SPDX-License-Identifier: MIT
/*
 * mad_sa_mcmember.c - MCMemberRecord codec (IBA 15.2.5.17): byte offsets
 * written and read in network order; check_mad_sa_mcmember in check_sm_mcast.c
 * holds them to libibmad's IB_SA_MCM_* field table.
 */
#include <string.h>

#include "mad/mad_bytes.h"
#include "mad/mad_sa_mcmember.h"

enum {
	MCM_MGID = 0, MCM_PORT_GID = 16, MCM_QKEY = 32, MCM_MLID = 36, MCM_MTU = 38,
	MCM_TCLASS = 39, MCM_PKEY = 40, MCM_RATE = 42, MCM_LIFE = 43, MCM_SL_FL_HOP = 44,
	MCM_SCOPE_JOIN = 48, MCM_PROXY = 49,
};

void mad_sa_mcmember_record_encode(const struct mad_sa_mcmember_record *r, uint8_t *data)
{
	memset(data, 0, MAD_SA_MCMEMBER_RECORD_SIZE);
	memcpy(data + MCM_MGID, r->mgid, MAD_GID_LEN);
	memcpy(data + MCM_PORT_GID, r->port_gid, MAD_GID_LEN);
	mad_put_be(data + MCM_QKEY, r->qkey, 4);
	mad_put_be(data + MCM_MLID, r->mlid, 2);
	data[MCM_MTU] = (uint8_t)((r->mtu_selector & 3) << 6 | (r->mtu & 0x3f));
	data[MCM_TCLASS] = r->tclass;
	mad_put_be(data + MCM_PKEY, r->pkey, 2);
	data[MCM_RATE] = (uint8_t)((r->rate_selector & 3) << 6 | (r->rate & 0x3f));
	data[MCM_LIFE] = (uint8_t)((r->lifetime_selector & 3) << 6 | (r->packet_lifetime & 0x3f));
	mad_put_be(data + MCM_SL_FL_HOP, (uint64_t)(r->sl & 0xf) << 28 |
		   (uint64_t)(r->flow_label & 0xfffff) << 8 | r->hop_limit, 4);
	data[MCM_SCOPE_JOIN] = (uint8_t)((r->scope & 0xf) << 4 | (r->join_state & 0xf));
	data[MCM_PROXY] = r->proxy_join ? 0x80 : 0;
}

void mad_sa_mcmember_record_decode(const uint8_t *data, struct mad_sa_mcmember_record *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->mgid, data + MCM_MGID, MAD_GID_LEN);
	memcpy(r->port_gid, data + MCM_PORT_GID, MAD_GID_LEN);
	r->qkey = (uint32_t)mad_get_be(data + MCM_QKEY, 4);
	r->mlid = (uint16_t)mad_get_be(data + MCM_MLID, 2);
	r->mtu_selector = data[MCM_MTU] >> 6;
	r->mtu = data[MCM_MTU] & 0x3f;
	r->tclass = data[MCM_TCLASS];
	r->pkey = (uint16_t)mad_get_be(data + MCM_PKEY, 2);
	r->rate_selector = data[MCM_RATE] >> 6;
	r->rate = data[MCM_RATE] & 0x3f;
	r->lifetime_selector = data[MCM_LIFE] >> 6;
	r->packet_lifetime = data[MCM_LIFE] & 0x3f;
	uint32_t w = (uint32_t)mad_get_be(data + MCM_SL_FL_HOP, 4);
	r->sl = (uint8_t)(w >> 28);
	r->flow_label = (w >> 8) & 0xfffff;
	r->hop_limit = (uint8_t)w;
	r->scope = data[MCM_SCOPE_JOIN] >> 4;
	r->join_state = data[MCM_SCOPE_JOIN] & 0xf;
	r->proxy_join = data[MCM_PROXY] & 0x80;
}

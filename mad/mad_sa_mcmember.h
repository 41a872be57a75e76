/* SPDX-License-Identifier: MIT */
/*
 * mad_sa_mcmember.h - the SA's MCMemberRecord (IBA 15.2.5.17) as a host
 * structure, and its codec.  Like mad_sa.h's codecs it only places fields:
 * a template may hold anything where its ComponentMask does not look.
 */
#ifndef IBSMD_MAD_SA_MCMEMBER_H
#define IBSMD_MAD_SA_MCMEMBER_H

#include <stdbool.h>
#include <stdint.h>

#include "mad/mad_sa.h"

#define MAD_SA_ATTR_MCMEMBER_RECORD 0x0038
#define MAD_SA_MCMEMBER_RECORD_SIZE 52

/* ComponentMask bits (IBA 15.2.5.17, table 220). */
#define MAD_SA_MCMR_MGID (1ull << 0)
#define MAD_SA_MCMR_PORT_GID (1ull << 1)
#define MAD_SA_MCMR_QKEY (1ull << 2)
#define MAD_SA_MCMR_MLID (1ull << 3)
#define MAD_SA_MCMR_MTU_SELECTOR (1ull << 4)
#define MAD_SA_MCMR_MTU (1ull << 5)
#define MAD_SA_MCMR_TCLASS (1ull << 6)
#define MAD_SA_MCMR_PKEY (1ull << 7)
#define MAD_SA_MCMR_RATE_SELECTOR (1ull << 8)
#define MAD_SA_MCMR_RATE (1ull << 9)
#define MAD_SA_MCMR_LIFE_SELECTOR (1ull << 10)
#define MAD_SA_MCMR_LIFE (1ull << 11)
#define MAD_SA_MCMR_SL (1ull << 12)
#define MAD_SA_MCMR_FLOW_LABEL (1ull << 13)
#define MAD_SA_MCMR_HOP_LIMIT (1ull << 14)
#define MAD_SA_MCMR_SCOPE (1ull << 15)
#define MAD_SA_MCMR_JOIN_STATE (1ull << 16)
#define MAD_SA_MCMR_PROXY_JOIN (1ull << 17)

/* JoinState bits (IBA 15.2.5.17). */
#define MAD_MC_JOIN_FULL 0x1
#define MAD_MC_JOIN_NON 0x2
#define MAD_MC_JOIN_SEND_ONLY 0x4
#define MAD_MC_JOIN_SEND_ONLY_FULL 0x8

struct mad_sa_mcmember_record {
	uint8_t mgid[MAD_GID_LEN];
	uint8_t port_gid[MAD_GID_LEN];
	uint32_t qkey;
	uint16_t mlid;
	uint8_t mtu_selector;	/* 2 bits */
	uint8_t mtu;		/* 6 bits */
	uint8_t tclass;
	uint16_t pkey;
	uint8_t rate_selector;
	uint8_t rate;
	uint8_t lifetime_selector;
	uint8_t packet_lifetime;
	uint8_t sl;		/* 4 bits */
	uint32_t flow_label;	/* 20 bits */
	uint8_t hop_limit;
	uint8_t scope;		/* 4 bits */
	uint8_t join_state;	/* 4 bits */
	bool proxy_join;
};

void mad_sa_mcmember_record_encode(const struct mad_sa_mcmember_record *r, uint8_t *data);
void mad_sa_mcmember_record_decode(const uint8_t *data, struct mad_sa_mcmember_record *r);

#endif

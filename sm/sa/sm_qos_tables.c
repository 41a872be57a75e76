// SPDX-License-Identifier: MIT
/*
 * sm_qos_tables.c - the tables a port gets from the QoS policy's tables for
 * its type (sm_qos.h): VLs the port does not operate folded as OpenSM folds
 * them (VL & (2^(OperationalVLs - 1) - 1), VL 15 kept), and the VL
 * arbitration blocks as long as the port has entries.  The sweep programs
 * them (sm/sweep/sm_sl2vl.c), the SA answers them (SL2VLTableRecords).
 */
#include <string.h>

#include "sm/sa/sm_qos.h"

uint8_t sm_qos_vl_mask(uint8_t oper_vls)
{
	return oper_vls ? (uint8_t)((1u << (oper_vls - 1)) - 1) : 0;
}

void sm_qos_sl2vl(const struct sm_qos_vl_config *c, uint8_t oper_vls, struct mad_sl2vl *t)
{
	uint8_t mask = sm_qos_vl_mask(oper_vls);

	*t = c->sl2vl;
	for (unsigned sl = 0; sl < MAD_NUM_SL; sl++)
		if (t->vl[sl] != 15)
			t->vl[sl] &= mask;
}

bool sm_qos_vlarb(const struct sm_qos_vl_config *c, uint8_t block, unsigned cap,
		  uint8_t oper_vls, struct mad_vlarb_block *b)
{
	bool high = block >= MAD_VLARB_HIGH_0_31, second = block == MAD_VLARB_LOW_32_63 ||
							  block == MAD_VLARB_HIGH_32_63;
	const struct mad_vlarb_block *from = (high ? c->vlarb_high : c->vlarb_low) + second;
	uint8_t mask = sm_qos_vl_mask(oper_vls);

	if (second ? cap <= MAD_VLARB_ENTRIES : cap == 0)
		return false;
	/* as OpenSM fills them: the second block holds cap mod 32 entries */
	unsigned len = second ? cap % MAD_VLARB_ENTRIES
			      : cap < MAD_VLARB_ENTRIES ? cap : MAD_VLARB_ENTRIES;
	memset(b, 0, sizeof(*b));
	for (unsigned i = 0; i < len; i++) {
		b->e[i] = from->e[i];
		b->e[i].vl &= mask;
	}
	return true;
}

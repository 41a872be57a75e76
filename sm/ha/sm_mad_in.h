/* SPDX-License-Identifier: MIT */
/*
 * sm_mad_in.h - MADs the fabric sends the SM unasked: traps and SMInfo queries.
 */
#ifndef IBSMD_SM_MAD_IN_H
#define IBSMD_SM_MAD_IN_H

#include "mad/mad_smp.h"
#include "mad/mad_transport.h"
#include "sm/core/sm.h"

/* The rpc layer's unsolicited handler; @ctx is the struct sm. */
void sm_mad_in(void *ctx, const struct mad_smp *smp, const struct mad_addr *from);

#endif

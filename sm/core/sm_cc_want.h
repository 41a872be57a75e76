/* SPDX-License-Identifier: MIT */
/*
 * sm_cc_want.h - the congestion control settings ibsmd.yaml asks for, as the
 * attributes the SM writes (congestion_control.*, OpenSM's cc_* keys).
 *
 * The configuration keeps OpenSM's textual forms for what is not a number: a
 * port mask as up to 64 hex digits (port 0 the lowest bit), the credit
 * starvation return delay as SHIFT:MULTIPLIER, the CA's per-SL values as
 * SL:VALUE pairs, the CongestionControlTable as SHIFT:MULTIPLIER entries.
 * The parsers here check them for the configuration reader (sm_config.c)
 * and build the attributes for the CC pass (sm/cc/).
 */
#ifndef IBSMD_SM_CC_WANT_H
#define IBSMD_SM_CC_WANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_cc.h"

struct sm_config;

#define SM_CC_CCT_MAX_ENTRIES 128	/* OpenSM's OSM_CCT_ENTRY_MAX: 2 blocks */
#define SM_CC_CCT_MAX_BLOCKS (SM_CC_CCT_MAX_ENTRIES / MAD_CC_CCT_PER_BLOCK)

struct sm_cc_want {
	struct mad_cc_key_info key;	/* violations 0 */
	struct mad_cc_switch_setting sw;
	struct mad_cc_ca_setting ca;
	unsigned cct_blocks;		/* at least 1: CCTI_Limit 0 is written too */
	struct mad_cc_cct cct[SM_CC_CCT_MAX_BLOCKS];
};

/* Checkers of the textual keys: 0, or -EINVAL with the reason in @why. */
int sm_cc_check_mask(const char *s, char *why, size_t len);
int sm_cc_check_delay(const char *s, char *why, size_t len);
int sm_cc_check_sl_timers(const char *s, char *why, size_t len);	/* 0-65535 */
int sm_cc_check_sl_bytes(const char *s, char *why, size_t len);	/* 0-255 */
int sm_cc_check_cct(const char *s, char *why, size_t len);

/* The attributes @c asks for.  0, or -EINVAL when a textual key does not
 * parse (never after sm_config accepted it). */
int sm_cc_want_build(const struct sm_config *c, struct sm_cc_want *w);

/* Does what a node holds (@have) match what is wanted (@want), in the parts
 * the wanted Control_Map writes (and the map itself)? */
bool sm_cc_switch_same(const struct mad_cc_switch_setting *have,
		       const struct mad_cc_switch_setting *want);
bool sm_cc_ca_same(const struct mad_cc_ca_setting *have, const struct mad_cc_ca_setting *want);
bool sm_cc_cct_same(const struct mad_cc_cct *have, const struct mad_cc_cct *want);
bool sm_cc_key_same(const struct mad_cc_key_info *have, const struct mad_cc_key_info *want);

#endif

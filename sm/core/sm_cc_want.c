// SPDX-License-Identifier: MIT
/*
 * sm_cc_want.c - congestion_control.* of ibsmd.yaml as the attributes to
 * write, and the comparison of what a node holds with them.
 *
 * The textual forms are OpenSM's (opensm.conf's cc_* keys): a 256-bit port
 * mask in hex, SHIFT:MULTIPLIER for a CCT entry (shift 0-3, multiplier
 * 0-16383), the CCT as such entries separated by commas (at most 128, its
 * CCTI_Limit the last index), and, for a CA's per-SL values, SL:VALUE pairs
 * (OpenSM writes "SL VALUE" on a line of its own per SL).  Each is checked
 * whole: a bad one is refused with its reason, never taken in part.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/core/sm_cc_want.h"
#include "sm/core/sm_config.h"

static int bad(char *why, size_t len, const char *fmt, const char *s)
{
	snprintf(why, len, fmt, s);
	return -EINVAL;
}

/* A decimal or 0x number at *@p up to @max, *@p moved past it. */
static int number(const char **p, unsigned long max, unsigned long *out)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	unsigned long v = strtoul(*p, &end, 0);
	if (errno || v > max || end == *p)
		return -EINVAL;
	*p = end;
	*out = v;
	return 0;
}

static int parse_mask(const char *s, uint8_t mask[MAD_CC_PORT_MASK_BYTES])
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	size_t n = strlen(s);
	if (n == 0 || n > 2 * MAD_CC_PORT_MASK_BYTES || strspn(s, "0123456789abcdefABCDEF") != n)
		return -EINVAL;
	memset(mask, 0, MAD_CC_PORT_MASK_BYTES);
	for (size_t i = 0; i < n; i++) {	/* from the last digit: port 0 up */
		char c = s[n - 1 - i];
		unsigned v = (unsigned)(isdigit((unsigned char)c) ? c - '0' : tolower(c) - 'a' + 10);
		mask[MAD_CC_PORT_MASK_BYTES - 1 - i / 2] |= (uint8_t)(v << (i % 2 * 4));
	}
	return 0;
}

/* "A:B" at *@p, A up to @amax and B up to @bmax. */
static int pair(const char **p, unsigned long amax, unsigned long bmax, unsigned long *a,
		unsigned long *b)
{
	if (number(p, amax, a) || **p != ':')
		return -EINVAL;
	(*p)++;
	return number(p, bmax, b);
}

/* A list of "A:B" separated by commas (spaces allowed around them), each
 * handed to @fn; at most @max.  The count, or -EINVAL. */
static int pairs(const char *s, unsigned long amax, unsigned long bmax, int max,
		 void (*fn)(void *ctx, int i, unsigned long a, unsigned long b), void *ctx)
{
	int n = 0;

	while (*s == ' ')
		s++;
	if (!*s)
		return 0;
	for (;;) {
		unsigned long a, b;
		if (n == max || pair(&s, amax, bmax, &a, &b))
			return -EINVAL;
		if (fn)
			fn(ctx, n, a, b);
		n++;
		while (*s == ' ')
			s++;
		if (!*s)
			return n;
		if (*s++ != ',')
			return -EINVAL;
		while (*s == ' ')
			s++;
	}
}

int sm_cc_check_mask(const char *s, char *why, size_t len)
{
	uint8_t mask[MAD_CC_PORT_MASK_BYTES];

	return parse_mask(s, mask) ? bad(why, len, "'%s' is no port mask (up to 64 hex digits, "
					 "port 0 the lowest bit)", s) : 0;
}

int sm_cc_check_delay(const char *s, char *why, size_t len)
{
	unsigned long a, b;
	const char *p = s;

	if (pair(&p, 3, 0x3fff, &a, &b) || *p)
		return bad(why, len, "'%s' is no SHIFT:MULTIPLIER (shift 0-3, multiplier "
			   "0-16383)", s);
	return 0;
}

static int check_sl_values(const char *s, unsigned long max, char *why, size_t len)
{
	char fmt[96];

	if (pairs(s, MAD_CC_CA_SLS - 1, max, MAD_CC_CA_SLS, NULL, NULL) >= 0)
		return 0;
	snprintf(fmt, sizeof(fmt), "'%%s' is no list of SL:VALUE (SL 0-15, values 0-%lu)", max);
	return bad(why, len, fmt, s);
}

int sm_cc_check_sl_timers(const char *s, char *why, size_t len)
{
	return check_sl_values(s, UINT16_MAX, why, len);
}

int sm_cc_check_sl_bytes(const char *s, char *why, size_t len)
{
	return check_sl_values(s, UINT8_MAX, why, len);
}

int sm_cc_check_cct(const char *s, char *why, size_t len)
{
	if (pairs(s, 3, 0x3fff, SM_CC_CCT_MAX_ENTRIES, NULL, NULL) < 0)
		return bad(why, len, "'%s' is no list of SHIFT:MULTIPLIER entries (shift 0-3, "
			   "multiplier 0-16383, at most 128)", s);
	return 0;
}

/* The per-SL value being filled: which member of the entries. */
struct sl_fill {
	struct mad_cc_ca_setting *ca;
	enum { SL_TIMER, SL_INCREASE, SL_THRESHOLD, SL_MIN } what;
};

static void sl_value(void *ctx, int i, unsigned long sl, unsigned long v)
{
	struct sl_fill *f = ctx;
	struct mad_cc_ca_entry *e = &f->ca->sl[sl];

	(void)i;
	switch (f->what) {
	case SL_TIMER: e->ccti_timer = (uint16_t)v; break;
	case SL_INCREASE: e->ccti_increase = (uint8_t)v; break;
	case SL_THRESHOLD: e->trigger_threshold = (uint8_t)v; break;
	case SL_MIN: e->ccti_min = (uint8_t)v; break;
	}
}

static void cct_entry(void *ctx, int i, unsigned long shift, unsigned long mult)
{
	struct sm_cc_want *w = ctx;

	w->cct[i / MAD_CC_CCT_PER_BLOCK].entry[i % MAD_CC_CCT_PER_BLOCK] =
		(struct mad_cc_cct_entry){ .shift = (uint8_t)shift, .multiplier = (uint16_t)mult };
}

int sm_cc_want_build(const struct sm_config *c, struct sm_cc_want *w)
{
	unsigned long a, b;
	const char *p = c->cc_sw_cs_return_delay;
	const struct { const char *s; int what; } sl[] = {
		{ c->cc_ca_ccti_timer, SL_TIMER }, { c->cc_ca_ccti_increase, SL_INCREASE },
		{ c->cc_ca_trigger_threshold, SL_THRESHOLD }, { c->cc_ca_ccti_min, SL_MIN },
	};

	memset(w, 0, sizeof(*w));
	w->key.cc_key = c->cc_key;
	w->key.protect = c->cc_key_protect;
	w->key.lease_period = c->cc_key_lease_s;
	w->sw.control_map = c->cc_sw_control_map;
	if (parse_mask(c->cc_sw_victim_mask, w->sw.victim_mask) ||
	    parse_mask(c->cc_sw_credit_mask, w->sw.credit_mask) || pair(&p, 3, 0x3fff, &a, &b) || *p)
		return -EINVAL;
	w->sw.threshold = c->cc_sw_threshold;
	w->sw.packet_size = c->cc_sw_packet_size;
	w->sw.cs_threshold = c->cc_sw_cs_threshold;
	w->sw.cs_return_delay = mad_cc_cct_entry_bits((struct mad_cc_cct_entry){
		.shift = (uint8_t)a, .multiplier = (uint16_t)b });
	w->sw.marking_rate = c->cc_sw_marking_rate;
	w->ca.port_control = c->cc_ca_port_control;
	w->ca.control_map = c->cc_ca_control_map;
	for (size_t i = 0; i < sizeof(sl) / sizeof(sl[0]); i++) {
		struct sl_fill f = { .ca = &w->ca, .what = sl[i].what };
		unsigned long max = sl[i].what == SL_TIMER ? UINT16_MAX : UINT8_MAX;
		if (pairs(sl[i].s, MAD_CC_CA_SLS - 1, max, MAD_CC_CA_SLS, sl_value, &f) < 0)
			return -EINVAL;
	}
	int n = pairs(c->cc_cct, 3, 0x3fff, SM_CC_CCT_MAX_ENTRIES, cct_entry, w);
	if (n < 0)
		return -EINVAL;
	/* OpenSM's: no entries is one block with CCTI_Limit 0 */
	w->cct_blocks = n ? (unsigned)(n - 1) / MAD_CC_CCT_PER_BLOCK + 1 : 1;
	for (unsigned i = 0; i < w->cct_blocks; i++)
		w->cct[i].ccti_limit = (uint16_t)(n ? n - 1 : 0);
	return 0;
}

bool sm_cc_switch_same(const struct mad_cc_switch_setting *have,
		       const struct mad_cc_switch_setting *want)
{
	uint32_t m = want->control_map;

	return have->control_map == m &&
	       (!(m & MAD_CC_SW_MAP_VICTIM) ||
		!memcmp(have->victim_mask, want->victim_mask, sizeof(want->victim_mask))) &&
	       (!(m & MAD_CC_SW_MAP_CREDIT) ||
		!memcmp(have->credit_mask, want->credit_mask, sizeof(want->credit_mask))) &&
	       (!(m & MAD_CC_SW_MAP_THRESHOLD) ||
		(have->threshold == want->threshold && have->packet_size == want->packet_size)) &&
	       (!(m & MAD_CC_SW_MAP_CS) || (have->cs_threshold == want->cs_threshold &&
					    have->cs_return_delay == want->cs_return_delay)) &&
	       (!(m & MAD_CC_SW_MAP_MARKING) || have->marking_rate == want->marking_rate);
}

bool sm_cc_ca_same(const struct mad_cc_ca_setting *have, const struct mad_cc_ca_setting *want)
{
	if (have->port_control != want->port_control || have->control_map != want->control_map)
		return false;
	for (unsigned sl = 0; sl < MAD_CC_CA_SLS; sl++) {
		const struct mad_cc_ca_entry *h = &have->sl[sl], *w = &want->sl[sl];
		if ((want->control_map >> sl & 1) &&
		    (h->ccti_timer != w->ccti_timer || h->ccti_increase != w->ccti_increase ||
		     h->trigger_threshold != w->trigger_threshold || h->ccti_min != w->ccti_min))
			return false;
	}
	return true;
}

bool sm_cc_cct_same(const struct mad_cc_cct *have, const struct mad_cc_cct *want)
{
	if (have->ccti_limit != want->ccti_limit)
		return false;
	for (unsigned i = 0; i < MAD_CC_CCT_PER_BLOCK; i++)
		if (mad_cc_cct_entry_bits(have->entry[i]) != mad_cc_cct_entry_bits(want->entry[i]))
			return false;
	return true;
}

bool sm_cc_key_same(const struct mad_cc_key_info *have, const struct mad_cc_key_info *want)
{
	return have->cc_key == want->cc_key && have->protect == want->protect &&
	       have->lease_period == want->lease_period;
}

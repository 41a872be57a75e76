// SPDX-License-Identifier: MIT
/*
 * mad_ar.c - the AR vendor attribute codecs (see mad_ar.h).
 *
 * Every field lives in a big-endian 32-bit word of the payload, given as its
 * lowest bit and width; get/put move it between the word and the host value.
 */
#include <errno.h>
#include <string.h>

#include "mad/mad_ar.h"

static uint32_t word(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_word(uint8_t *p, uint32_t w)
{
	p[0] = (uint8_t)(w >> 24);
	p[1] = (uint8_t)(w >> 16);
	p[2] = (uint8_t)(w >> 8);
	p[3] = (uint8_t)w;
}

/* Bits lo .. lo+width-1 of @w. */
static uint32_t get(uint32_t w, unsigned lo, unsigned width)
{
	return w >> lo & ((1u << width) - 1);
}

/* @v into bits lo .. lo+width-1 of *@w; false when it does not fit. */
static bool put(uint32_t *w, unsigned lo, unsigned width, uint32_t v)
{
	if (v >> width)
		return false;
	*w |= v << lo;
	return true;
}

int mad_ar_info_decode(const uint8_t *data, struct mad_ar_info *ai)
{
	uint32_t w0 = word(data), w1 = word(data + 4), w2 = word(data + 8), w3 = word(data + 12);

	memset(ai, 0, sizeof(*ai));
	ai->enable = get(w0, 0, 1);
	ai->arn_supported = get(w0, 1, 1);
	ai->frn_supported = get(w0, 2, 1);
	ai->fr_supported = get(w0, 3, 1);
	ai->fr_enable = get(w0, 4, 1);
	ai->rn_xmit_enable = get(w0, 5, 1);
	ai->sub_grps_active = (uint8_t)get(w0, 8, 4);
	ai->group_table_copy_sup = (uint8_t)get(w0, 12, 4);
	ai->direction_num_sup = (uint8_t)get(w0, 16, 8);
	ai->no_fallback = get(w0, 24, 1);
	ai->is4_mode = get(w0, 25, 1);
	ai->glb_groups = get(w0, 26, 1);
	ai->by_sl_cap = get(w0, 27, 1);
	ai->by_sl_enable = get(w0, 28, 1);
	ai->by_transp_cap = get(w0, 29, 1);
	ai->dyn_cap_calc_sup = get(w0, 30, 1);
	ai->group_cap = (uint16_t)get(w1, 0, 12);
	ai->group_top = (uint16_t)get(w1, 12, 12);
	ai->group_table_cap = (uint8_t)get(w1, 24, 4);
	ai->string_width_cap = (uint8_t)get(w1, 28, 4);
	ai->ar_version_cap = (uint8_t)get(w2, 0, 4);
	ai->rn_version_cap = (uint8_t)get(w2, 4, 4);
	ai->sub_grps_supported = (uint8_t)get(w2, 8, 8);
	ai->enable_by_sl_mask = (uint16_t)get(w2, 16, 16);
	ai->by_transport_disable = (uint8_t)get(w3, 0, 8);
	ai->ageing_time = word(data + 16);
	/* the top is a group index: the table must hold it */
	return ai->group_top && ai->group_top >= ai->group_cap ? -EBADMSG : 0;
}

int mad_ar_info_encode(const struct mad_ar_info *ai, uint8_t *data)
{
	uint32_t w0 = 0, w1 = 0, w2 = 0, w3 = 0;
	bool ok = put(&w0, 0, 1, ai->enable) && put(&w0, 1, 1, ai->arn_supported) &&
		  put(&w0, 2, 1, ai->frn_supported) && put(&w0, 3, 1, ai->fr_supported) &&
		  put(&w0, 4, 1, ai->fr_enable) && put(&w0, 5, 1, ai->rn_xmit_enable) &&
		  put(&w0, 8, 4, ai->sub_grps_active) && put(&w0, 12, 4, ai->group_table_copy_sup) &&
		  put(&w0, 16, 8, ai->direction_num_sup) && put(&w0, 24, 1, ai->no_fallback) &&
		  put(&w0, 25, 1, ai->is4_mode) && put(&w0, 26, 1, ai->glb_groups) &&
		  put(&w0, 27, 1, ai->by_sl_cap) && put(&w0, 28, 1, ai->by_sl_enable) &&
		  put(&w0, 29, 1, ai->by_transp_cap) && put(&w0, 30, 1, ai->dyn_cap_calc_sup) &&
		  put(&w1, 0, 12, ai->group_cap) && put(&w1, 12, 12, ai->group_top) &&
		  put(&w1, 24, 4, ai->group_table_cap) && put(&w1, 28, 4, ai->string_width_cap) &&
		  put(&w2, 0, 4, ai->ar_version_cap) && put(&w2, 4, 4, ai->rn_version_cap) &&
		  put(&w2, 8, 8, ai->sub_grps_supported) &&
		  put(&w2, 16, 16, ai->enable_by_sl_mask) && put(&w3, 0, 8, ai->by_transport_disable);

	if (!ok)
		return -EINVAL;
	memset(data, 0, SMP_DATA_SIZE);
	put_word(data, w0);
	put_word(data + 4, w1);
	put_word(data + 8, w2);
	put_word(data + 12, w3);
	put_word(data + 16, ai->ageing_time);
	return 0;
}

int mad_ar_group_decode(const uint8_t *data, struct mad_ar_group_block *gb)
{
	for (unsigned g = 0; g < MAD_AR_GROUPS_PER_BLOCK; g++)
		for (unsigned s = 0; s < MAD_AR_GROUP_PORTS / 64; s++) {
			/* sub-group 3 first */
			const uint8_t *p = data + g * MAD_AR_GROUP_LEN + (3 - s) * 8;
			gb->group[g].ports[s] = (uint64_t)word(p) << 32 | word(p + 4);
		}
	return 0;
}

int mad_ar_group_encode(const struct mad_ar_group_block *gb, uint8_t *data)
{
	for (unsigned g = 0; g < MAD_AR_GROUPS_PER_BLOCK; g++)
		for (unsigned s = 0; s < MAD_AR_GROUP_PORTS / 64; s++) {
			uint8_t *p = data + g * MAD_AR_GROUP_LEN + (3 - s) * 8;
			put_word(p, (uint32_t)(gb->group[g].ports[s] >> 32));
			put_word(p + 4, (uint32_t)gb->group[g].ports[s]);
		}
	return 0;
}

int mad_ar_lft_decode(const uint8_t *data, struct mad_ar_lft_block *lb)
{
	for (unsigned i = 0; i < MAD_AR_LFT_PER_BLOCK; i++) {
		uint32_t w = word(data + i * MAD_AR_LFT_ENTRY_LEN);
		lb->e[i] = (struct mad_ar_lft_entry){
			.group = (uint16_t)get(w, 0, 12),
			.default_port = (uint8_t)get(w, 16, 8),
			.table = (uint8_t)get(w, 24, 4),
			.state = (uint8_t)get(w, 30, 2),
		};
		if (lb->e[i].state > MAD_AR_STATIC)
			return -EBADMSG;
	}
	return 0;
}

int mad_ar_lft_encode(const struct mad_ar_lft_block *lb, uint8_t *data)
{
	uint32_t w[MAD_AR_LFT_PER_BLOCK] = { 0 };

	for (unsigned i = 0; i < MAD_AR_LFT_PER_BLOCK; i++) {
		const struct mad_ar_lft_entry *e = &lb->e[i];
		if (e->state > MAD_AR_STATIC || !put(&w[i], 0, 12, e->group) ||
		    !put(&w[i], 16, 8, e->default_port) || !put(&w[i], 24, 4, e->table) ||
		    !put(&w[i], 30, 2, e->state))
			return -EINVAL;
	}
	for (unsigned i = 0; i < MAD_AR_LFT_PER_BLOCK; i++)
		put_word(data + i * MAD_AR_LFT_ENTRY_LEN, w[i]);
	return 0;
}

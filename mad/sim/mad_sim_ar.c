// SPDX-License-Identifier: MIT
/*
 * mad_sim_ar.c - adaptive routing (AR) on the simulated switches: the vendor
 * attributes AdaptiveRoutingInfo (0xFF20), AdaptiveRoutingGroupTable (0xFF21)
 * and AdaptiveRoutingLinearForwardingTable (0xFF22) of mad_ar.h.
 *
 * A switch is AR-capable when its topology file header says `ar` (topo_node's
 * ar_capable) or a test calls sim_node_set_ar(); any other node answers the
 * three attributes with "unsupported method/attribute", as a switch without
 * AR firmware does.  An AR-capable switch reports NodeInfo VendorID
 * MAD_AR_VENDOR_ID unless its file record gives one, and has one group table of
 * SIM_AR_GROUP_CAP groups (group_table_cap 1), four sub-groups of 64 ports,
 * fallback routing, AR by SL and by-transport disable as capabilities, and
 * an ageing time of SIM_AR_AGEING_US (a value of its own, not NVIDIA's: a Set
 * that does not write back what it read loses it).
 *
 * A plain LinearForwardingTable Set to an AR switch does what the layout's
 * no_fallback says (ibis adaptive_routing_info): with no_fallback 0 it is
 * taken and turns AR off (enable := 0, the GetResp of AdaptiveRoutingInfo
 * shows it); with no_fallback 1 it is refused ("invalid field") and changes
 * nothing.  AdaptiveRoutingGroupTable and AR LFT Sets leave AR as it is.
 *
 * The AR LFT is the LFT: an entry's default (static) port is the switch's
 * LFT entry, so an AR LFT Set writes the static ports too, a plain LFT Set
 * shows in the default ports, and LID-routed SMPs keep following the static
 * entry (mad_sim_route.c); the group and LID state are kept beside it.  An
 * entry never written is static, group 0.
 *
 * Strict as hardware is (status "invalid field", nothing written):
 *  - Info Set: a group_top at or past the cap, fallback routing or AR by SL
 *    enabled where not supported, more sub-groups active than supported;
 *  - group table: a block past the cap, a table or private LFT but 0, a port
 *    that is 0, past the switch's ports or in a sub-group not active;
 *  - AR LFT: a block past the LFT cap, a private LFT but 0, a default port
 *    past the switch's ports (255, no port, is fine), a bounded or free entry
 *    whose group is past group_top or whose table is not 0.
 * The capability fields of an Info Set are read-only: the answer shows them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_ar.h"
#include "mad/sim/mad_sim_priv.h"

struct sim_ar {
	struct mad_ar_info info;
	uint64_t (*group)[MAD_AR_GROUP_PORTS / 64];	/* group_cap entries */
	uint16_t *lid_group;	/* per LID of the LFT: the group */
	uint8_t *lid_state;	/* per LID: enum mad_ar_lid_state */
	uint32_t len;		/* entries of lid_group and lid_state */
};

int sim_node_set_ar(struct sim_fabric *f, uint32_t node, bool on)
{
	if (node >= f->topo.n || f->topo.nodes[node].type != MAD_NODE_SWITCH)
		return -EINVAL;
	struct sim_node *sn = &f->nodes[node];
	sim_ar_free(sn);
	if (!on)
		return 0;
	struct sim_ar *ar = calloc(1, sizeof(*ar));
	if (!ar || !(ar->group = calloc(SIM_AR_GROUP_CAP, sizeof(*ar->group)))) {
		free(ar);
		return -ENOMEM;
	}
	ar->info = (struct mad_ar_info){ .group_cap = SIM_AR_GROUP_CAP, .group_table_cap = 1,
		.fr_supported = true, .by_sl_cap = true, .ar_version_cap = 1,
		.sub_grps_supported = MAD_AR_GROUP_PORTS / 64 - 1, .by_transp_cap = true,
		.string_width_cap = 1, .ageing_time = SIM_AR_AGEING_US };
	sn->ar = ar;
	return 0;
}

void sim_ar_free(struct sim_node *sn)
{
	if (!sn->ar)
		return;
	free(sn->ar->group);
	free(sn->ar->lid_group);
	free(sn->ar->lid_state);
	free(sn->ar);
	sn->ar = NULL;
}

/* Room for the per-LID state up to LID block @block (16 LIDs). */
static int ar_grow(struct sim_ar *ar, uint32_t block)
{
	uint32_t need = (block + 1) * MAD_AR_LFT_PER_BLOCK;

	if (need <= ar->len)
		return 0;
	need = (need + SIM_LFT_GROW - 1) / SIM_LFT_GROW * SIM_LFT_GROW;
	need = need < SIM_LFT_CAP ? need : SIM_LFT_CAP;
	uint16_t *g = realloc(ar->lid_group, need * sizeof(*g));
	if (g)
		ar->lid_group = g;
	uint8_t *s = g ? realloc(ar->lid_state, need) : NULL;
	if (!s)
		return -ENOMEM;
	ar->lid_state = s;
	memset(g + ar->len, 0, (need - ar->len) * sizeof(*g));
	memset(s + ar->len, MAD_AR_STATIC, need - ar->len);
	ar->len = need;
	return 0;
}

static uint16_t ar_info(struct sim_fabric *f, struct mad_smp *smp, struct sim_ar *ar)
{
	struct mad_ar_info in;

	if (smp->attr_mod)
		return MAD_STATUS_INVALID_FIELD;
	if (smp->method == MAD_METHOD_SET) {
		if (mad_ar_info_decode(smp->data, &in) || in.group_top >= ar->info.group_cap ||
		    (in.fr_enable && !ar->info.fr_supported) ||
		    (in.by_sl_enable && !ar->info.by_sl_cap) ||
		    (in.by_transport_disable && !ar->info.by_transp_cap) ||
		    in.sub_grps_active > ar->info.sub_grps_supported)
			return MAD_STATUS_INVALID_FIELD;
		/* the selection fields; the capabilities are read-only */
		ar->info.enable = in.enable;
		ar->info.fr_enable = in.fr_enable;
		ar->info.group_top = in.group_top;
		ar->info.sub_grps_active = in.sub_grps_active;
		ar->info.by_sl_enable = in.by_sl_enable;
		ar->info.enable_by_sl_mask = in.enable_by_sl_mask;
		ar->info.no_fallback = in.no_fallback;
		ar->info.is4_mode = in.is4_mode;
		ar->info.by_transport_disable = in.by_transport_disable;
		ar->info.ageing_time = in.ageing_time;
		f->stats.ar_info_sets++;
	}
	mad_ar_info_encode(&ar->info, smp->data);
	return 0;
}

/* May a group of switch @node hold @g? */
static bool ar_group_legal(const struct sim_fabric *f, uint32_t node, const struct sim_ar *ar,
			   const struct mad_ar_group *g)
{
	unsigned nports = f->topo.nodes[node].nports;

	if (g->ports[0] & 1)
		return false;	/* port 0 */
	for (unsigned w = 0; w < MAD_AR_GROUP_PORTS / 64; w++) {
		if (!g->ports[w])
			continue;
		if (w > ar->info.sub_grps_active)
			return false;
		for (unsigned b = 0; b < 64; b++)
			if ((g->ports[w] >> b & 1) && w * 64 + b > nports)
				return false;
	}
	return true;
}

static uint16_t ar_group_table(struct sim_fabric *f, struct mad_smp *smp, uint32_t node,
			       struct sim_ar *ar)
{
	uint32_t block = smp->attr_mod & MAD_AR_GROUP_MAX_BLOCK;
	struct mad_ar_group_block gb;

	if (smp->attr_mod != block || 2 * block >= ar->info.group_cap)
		return MAD_STATUS_INVALID_FIELD;
	if (smp->method == MAD_METHOD_SET) {
		mad_ar_group_decode(smp->data, &gb);
		for (unsigned i = 0; i < MAD_AR_GROUPS_PER_BLOCK; i++)
			if (2 * block + i < ar->info.group_cap &&
			    !ar_group_legal(f, node, ar, &gb.group[i]))
				return MAD_STATUS_INVALID_FIELD;
		for (unsigned i = 0; i < MAD_AR_GROUPS_PER_BLOCK; i++)
			if (2 * block + i < ar->info.group_cap)
				memcpy(ar->group[2 * block + i], gb.group[i].ports,
				       sizeof(ar->group[0]));
		f->stats.ar_group_sets++;
	}
	memset(&gb, 0, sizeof(gb));
	for (unsigned i = 0; i < MAD_AR_GROUPS_PER_BLOCK; i++)
		if (2 * block + i < ar->info.group_cap)
			memcpy(gb.group[i].ports, ar->group[2 * block + i], sizeof(ar->group[0]));
	mad_ar_group_encode(&gb, smp->data);
	return 0;
}

static bool ar_entry_legal(const struct sim_fabric *f, uint32_t node, const struct sim_ar *ar,
			   const struct mad_ar_lft_entry *e)
{
	if (e->default_port > f->topo.nodes[node].nports && e->default_port != MAD_LFT_NO_PORT)
		return false;
	if (e->state == MAD_AR_STATIC)
		return true;
	return e->table == 0 && e->group <= ar->info.group_top && e->group < ar->info.group_cap;
}

static uint16_t ar_lft(struct sim_fabric *f, struct mad_smp *smp, uint32_t node, struct sim_ar *ar)
{
	struct sim_node *sn = &f->nodes[node];
	uint32_t block = smp->attr_mod & MAD_AR_LFT_MAX_BLOCK;
	uint32_t first = block * MAD_AR_LFT_PER_BLOCK;
	struct mad_ar_lft_block lb;

	if (smp->attr_mod != block || first >= SIM_LFT_CAP)
		return MAD_STATUS_INVALID_FIELD;
	if (smp->method == MAD_METHOD_SET) {
		if (mad_ar_lft_decode(smp->data, &lb))
			return MAD_STATUS_INVALID_FIELD;
		for (unsigned i = 0; i < MAD_AR_LFT_PER_BLOCK; i++)
			if (!ar_entry_legal(f, node, ar, &lb.e[i]))
				return MAD_STATUS_INVALID_FIELD;
		if (sim_lft_grow(sn, first / MAD_LFT_BLOCK) || ar_grow(ar, block))
			return MAD_STATUS_BUSY;
		for (unsigned i = 0; i < MAD_AR_LFT_PER_BLOCK; i++) {
			bool fixed = lb.e[i].state == MAD_AR_STATIC;
			sn->lft[first + i] = lb.e[i].default_port;
			ar->lid_state[first + i] = lb.e[i].state;
			ar->lid_group[first + i] = fixed ? 0 : lb.e[i].group;
		}
		f->stats.ar_lft_sets++;
	}
	for (unsigned i = 0; i < MAD_AR_LFT_PER_BLOCK; i++) {
		uint32_t lid = first + i;
		bool have = lid < ar->len;
		lb.e[i] = (struct mad_ar_lft_entry){
			.default_port = lid < sn->lft_len ? sn->lft[lid] : MAD_LFT_NO_PORT,
			.state = have ? ar->lid_state[lid] : MAD_AR_STATIC,
			.group = have ? ar->lid_group[lid] : 0,
		};
	}
	mad_ar_lft_encode(&lb, smp->data);
	return 0;
}

uint16_t sim_ar_lft_set(struct sim_fabric *f, uint32_t node)
{
	struct sim_ar *ar = f->nodes[node].ar;

	if (!ar)
		return 0;
	if (ar->info.no_fallback)
		return MAD_STATUS_INVALID_FIELD;
	if (ar->info.enable)
		f->stats.ar_lft_turned_off++;
	ar->info.enable = false;
	return 0;
}

uint16_t sim_ar_process(struct sim_fabric *f, struct mad_smp *smp, uint32_t node)
{
	struct sim_ar *ar = f->nodes[node].ar;

	if (!ar) {
		f->stats.ar_unsupported++;
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	}
	switch (smp->attr_id) {
	case MAD_ATTR_AR_INFO:
		return ar_info(f, smp, ar);
	case MAD_ATTR_AR_GROUP_TABLE:
		return ar_group_table(f, smp, node, ar);
	case MAD_ATTR_AR_LFT:
		return ar_lft(f, smp, node, ar);
	default:
		return MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	}
}

/* ---- inspection ---- */

static const struct sim_ar *ar_of(const struct sim_fabric *f, uint32_t node)
{
	return node < f->topo.n ? f->nodes[node].ar : NULL;
}

int sim_get_ar_info(const struct sim_fabric *f, uint32_t node, struct mad_ar_info *ai)
{
	const struct sim_ar *ar = ar_of(f, node);

	if (!ar)
		return -EOPNOTSUPP;
	*ai = ar->info;
	return 0;
}

int sim_set_ar_info(struct sim_fabric *f, uint32_t node, const struct mad_ar_info *ai)
{
	struct sim_ar *ar = node < f->topo.n ? f->nodes[node].ar : NULL;

	if (!ar)
		return -EOPNOTSUPP;
	ar->info = *ai;
	return 0;
}

int sim_get_ar_group(const struct sim_fabric *f, uint32_t node, uint16_t group,
		     uint64_t ports[MAD_AR_GROUP_PORTS / 64])
{
	const struct sim_ar *ar = ar_of(f, node);

	if (!ar)
		return -EOPNOTSUPP;
	if (group >= ar->info.group_cap)
		return -EINVAL;
	memcpy(ports, ar->group[group], sizeof(ar->group[0]));
	return 0;
}

int sim_get_ar_lft(const struct sim_fabric *f, uint32_t node, uint16_t lid,
		   struct mad_ar_lft_entry *e)
{
	const struct sim_ar *ar = ar_of(f, node);

	if (!ar)
		return -EOPNOTSUPP;
	bool have = lid < ar->len;
	*e = (struct mad_ar_lft_entry){ .default_port = sim_get_lft(f, node, lid),
		.state = have ? ar->lid_state[lid] : MAD_AR_STATIC,
		.group = have ? ar->lid_group[lid] : 0 };
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * sm_sl2vl_table.c - which SLtoVLMappingTable the SM wants on each port, a
 * function of the fabric alone: the sweep programs it (sm/sweep/sm_sl2vl.c),
 * the SA answers it (SL2VLTableRecords).  The rule is in sm_sl2vl.c's header.
 */
#include <string.h>

#include "sm/core/sm_sl2vl_table.h"

/* A port that carries data: cabled, physically up, its PortInfo known. */
bool sm_sl2vl_data_port(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	const struct topo_port *tp = &f->topo.nodes[n].ports[p];

	return p && tp->peer != TOPO_NONE && tp->phys_state == MAD_PHYS_LINKUP &&
	       f->attrs[n].pi_valid[p];
}

/* Whether @n maps SLs to VLs at all (IBA 14.2.5.6 CapabilityMask bit 6):
 * a switch says so on port 0, a CA on the port asked. */
bool sm_sl2vl_maps_sls(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	if (f->topo.nodes[n].type == MAD_NODE_SWITCH)
		p = 0;
	return f->attrs[n].pi_valid[p] &&
	       (f->attrs[n].pi[p].cap_mask & MAD_CAP_IS_SL_MAPPING_SUPPORTED);
}

unsigned sm_sl2vl_port_vls(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	return mad_data_vls(f->attrs[n].pi[p].oper_vls);
}

void sm_sl2vl_wanted(unsigned vls, struct mad_sl2vl *t)
{
	for (unsigned sl = 0; sl < MAD_NUM_SL; sl++)
		t->vl[sl] = (uint8_t)(sl < vls ? sl : sl % vls);
}

/* Whether switch @n takes optimized SLtoVLMappingTable Sets (SwitchInfo). */
bool sm_sl2vl_takes_groups(const struct sm_fabric *f, uint32_t n)
{
	return f->attrs[n].si_valid && mad_switch_opt_sl2vl(&f->attrs[n].si);
}

/* The data VLs of the table most of switch @n's data ports want (the fewest
 * among the most common), which its all-pairs Set writes; 0 when it has fewer
 * than two data ports (nothing flows through it, nothing is set). */
unsigned sm_sl2vl_group_vls(const struct sm_fabric *f, uint32_t n)
{
	unsigned count[16] = { 0 }, best = 0, d = 0;

	for (unsigned p = 1; p <= f->topo.nodes[n].nports; p++)
		if (sm_sl2vl_data_port(f, n, p)) {
			count[sm_sl2vl_port_vls(f, n, p) & 15]++;
			d++;
		}
	for (unsigned v = 1; v < 16 && d >= 2; v++)
		best = count[v] > count[best] ? v : best;
	return best;
}

void sm_sl2vl_table(const struct sm_fabric *f, uint32_t n, unsigned out, unsigned nsl,
		    struct mad_sl2vl *t)
{
	memset(t, 0, sizeof(*t));
	if (nsl <= 1 || !sm_sl2vl_maps_sls(f, n, out))
		return;
	if (sm_sl2vl_data_port(f, n, out))
		sm_sl2vl_wanted(sm_sl2vl_port_vls(f, n, out), t);
	else if (f->topo.nodes[n].type == MAD_NODE_SWITCH && sm_sl2vl_takes_groups(f, n) &&
		 sm_sl2vl_group_vls(f, n))
		sm_sl2vl_wanted(sm_sl2vl_group_vls(f, n), t);	/* written by the all-pairs Set */
}

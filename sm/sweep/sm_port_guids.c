// SPDX-License-Identifier: MIT
/*
 * sm_port_guids.c - port GUIDs that two ports claim (see sm_port_guids.h).
 *
 * Discovery indexes nodes by node GUID, so a node GUID met twice is caught as
 * it answers (sm_discover.c).  Port GUIDs are not indexed: two hosts whose
 * ports were given one GUID, or a switch whose GUID is also a host port's,
 * pass discovery and would then fight over one LID.  topo_port_guid_clashes()
 * finds them once the fabric is known; each is logged and recorded here.
 */
#include "sm/util/sm_log.h"
#include "sm/sweep/sm_port_guids.h"

static void report(void *arg, uint32_t first, uint8_t first_port, uint32_t again,
		   uint8_t again_port)
{
	struct sm_fabric *f = arg;
	const struct topo_node *a = &f->topo.nodes[first], *b = &f->topo.nodes[again];
	uint64_t guid = a->ports[first_port].guid;
	char pa[256], pb[256];

	mad_drpath_str(&a->path, pa, sizeof(pa));
	mad_drpath_str(&b->path, pb, sizeof(pb));
	sm_err("discovery: duplicate port GUID 0x%016llx: port %u of node 0x%016llx (DR path %s) "
	       "and port %u of node 0x%016llx (DR path %s); they keep the LIDs they have",
	       (unsigned long long)guid, first_port, (unsigned long long)a->guid, pa,
	       again_port, (unsigned long long)b->guid, pb);
	sm_fabric_issue(f, SM_ISSUE_DUPLICATE_GUID, b->guid, again_port,
			"port GUID 0x%016llx is also port %u of node 0x%016llx (DR path %s)",
			(unsigned long long)guid, first_port, (unsigned long long)a->guid, pa);
}

int sm_port_guids_check(struct sm_fabric *f)
{
	return topo_port_guid_clashes(&f->topo, report, f);
}

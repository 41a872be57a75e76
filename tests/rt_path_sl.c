// SPDX-License-Identifier: MIT
/*
 * rt_path_sl.c - the path SLs of a routing engine, as ibdmchk reads them
 * (its -c file: "0xSRC_PORT_GUID DLID SL" per line); not a test.
 *
 *   tests/rt_path_sl TOPOFILE LIDFILE ENGINE [OPTION...]
 *
 * Loads the fabric with the LIDs of LIDFILE ("LID PORTGUID" lines, as the SM
 * gave them), runs ENGINE (setup, compute) with the given "key=value" options
 * and prints, for every CA port with a LID and every CA LID, the SL path_sl
 * gives the route.  The engines are deterministic, so on the SM's LIDs they
 * compute the routes the SM programmed (tests/interop/ibdmchk.sh checks the
 * SM's tables with these SLs).
 */
#include <stdio.h>
#include <string.h>

#include "tests/rt_testview.h"

int main(int argc, char **argv)
{
	const struct ibsmd_routing_engine *e = argc > 3 ? rt_builtin_find(argv[3]) : NULL;
	struct rtv r;
	void *state = NULL;

	if (argc < 4 || !e) {
		fprintf(stderr, "usage: %s TOPOFILE LIDFILE ENGINE [OPTION...]\n", argv[0]);
		return 2;
	}
	if (rtv_load(&r, argv[1], argv[2], argc > 4 ? (const char *const *)argv + 4 : NULL))
		return 1;
	int rc = e->setup ? e->setup(&r.ctx, &state) : 0;
	if (rc == 0)
		rc = e->compute_unicast(&r.ctx, state);
	if (rc) {
		fprintf(stderr, "%s: %s\n", e->name, strerror(-rc));
		return 1;
	}
	for (uint32_t slid = 1; slid <= r.v.max_lid; slid++) {
		uint32_t s = r.v.lid_node[slid];
		if (s == IBSMD_NO_NODE || ibsmd_is_switch(&r.v, s))
			continue;
		const struct topo_port *sp = &r.topo.nodes[s].ports[r.v.lid_port[slid]];
		if (sp->lid != slid)
			continue;	/* one line per port: its base LID speaks for it */
		for (uint32_t dlid = 1; dlid <= r.v.max_lid; dlid++) {
			uint32_t d = r.v.lid_node[dlid];
			if (d == IBSMD_NO_NODE || ibsmd_is_switch(&r.v, d))
				continue;
			unsigned sl = e->path_sl ? e->path_sl(&r.ctx, state, (uint16_t)slid,
							     (uint16_t)dlid) : 0;
			printf("0x%016llx %u %u\n", (unsigned long long)r.v.nodes[s].guid, dlid, sl);
		}
	}
	if (e->destroy)
		e->destroy(state);
	rtv_free(&r);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * smq_osm_sl.c - the path SLs and the SL-to-VL tables of the stored routes,
 * as ibdmchk(1) reads them beside OpenSM's dumps (smq_osm.c):
 *
 *	ibdmchk -s opensm-subnet.lst -f opensm.fdbs -m opensm.mcfdbs \
 *		-c opensm-path-sl.dump -d opensm-sl2vl.dump
 *
 * Without them ibdmchk puts every route on SL 0 and maps it to VL 0, and
 * finds credit loops in the routes of an engine that broke its loops with
 * SLs (dfsssp, a degraded tree's ftree).
 *
 * opensm-path-sl.dump: "0xSRCNODEGUID DLID SL", one line per CA port (its
 * base LID speaks for it) and CA LID (decimal), the SL the daemon stored for
 * that route (smq_path_sl.c); ibdmchk keys its table by the source node.
 *
 * opensm-sl2vl.dump: OpenSM's own format, per switch "Switch 0xPORTGUID,
 * base LID N, "DESC"", a header, and "IN OUT : VL0 .. VL15" for every input
 * port and every linked output port; per CA port "Channel Adapter 0x...",
 * one line "0 0 : ...".  The tables are the rule the daemon programs
 * (sm/sweep/sm_sl2vl.c): SL n on VL n, for every SL the routes use, on every
 * switch-to-switch link (a link with fewer data VLs fails the sweep).  The
 * store keeps no port's VL count, so the SLs no route uses, and the links to
 * CAs (where no credit loop can run), are written with the same rule
 * wrapping at the SLs in use: n mod (highest SL + 1).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "sm/smquery/smq_osm_sl.h"

#define SMQ_NUM_SL 16

int smq_osm_sl_load(struct smq *q, uint16_t top, struct smq_osm_sl *s)
{
	memset(s, 0, sizeof(*s));
	int rc = topo_view_build(&q->topo, top, &s->m);
	if (rc)
		return rc;
	int have = smq_path_sls_load(q, &s->m.v, &s->sls);
	if (have <= 0)
		return have;
	const struct ibsmd_rt_view *v = &s->m.v;
	const struct ibsmd_rt_ctx ctx = { .view = v };
	for (uint32_t slid = 1; slid <= v->max_lid; slid++) {
		uint32_t a = v->lid_node[slid];
		if (a == IBSMD_NO_NODE || ibsmd_is_switch(v, a))
			continue;
		for (uint32_t dlid = 1; dlid <= v->max_lid; dlid++) {
			uint32_t b = v->lid_node[dlid];
			if (b == IBSMD_NO_NODE || ibsmd_is_switch(v, b))
				continue;
			unsigned sl = s->sls.e.path_sl(&ctx, &s->sls.t, (uint16_t)slid,
						      (uint16_t)dlid);
			if (sl + 1 > s->nsl)
				s->nsl = sl + 1;
		}
	}
	return s->nsl > 1;
}

void smq_osm_sl_free(struct smq_osm_sl *s)
{
	smq_path_sls_free(&s->sls);
	topo_view_free(&s->m);
	memset(s, 0, sizeof(*s));
}

long smq_osm_sl_paths(FILE *f, const struct smq_osm_sl *s)
{
	const struct ibsmd_rt_view *v = &s->m.v;
	const struct ibsmd_rt_ctx ctx = { .view = v };
	long lines = 0;

	for (uint32_t slid = 1; slid <= v->max_lid; slid++) {
		uint32_t a = v->lid_node[slid];
		if (a == IBSMD_NO_NODE || ibsmd_is_switch(v, a) ||
		    v->nodes[a].ports[v->lid_port[slid]].lid != slid)
			continue;	/* a switch, or a port's LMC offset */
		for (uint32_t dlid = 1; dlid <= v->max_lid; dlid++) {
			uint32_t b = v->lid_node[dlid];
			if (b == IBSMD_NO_NODE || ibsmd_is_switch(v, b))
				continue;
			fprintf(f, "0x%016" PRIx64 " %" PRIu32 " %u\n", v->nodes[a].guid, dlid,
				s->sls.e.path_sl(&ctx, (void *)&s->sls.t, (uint16_t)slid,
						 (uint16_t)dlid));
			lines++;
		}
	}
	return lines;
}

/* "IN OUT : VL0 .. VL15" as OpenSM writes it. */
static void sl2vl_line(FILE *f, unsigned in, unsigned out, unsigned nsl)
{
	fprintf(f, "%-3u %-3u :", in, out);
	for (unsigned sl = 0; sl < SMQ_NUM_SL; sl++)
		fprintf(f, " %-2u", sl % nsl);
	fputc('\n', f);
}

static const char *const separator =
	"#--------------------------------------------------------";

long smq_osm_sl2vl(FILE *f, const struct smq_osm_sl *s, const uint32_t *order, uint32_t n)
{
	const struct ibsmd_rt_view *v = &s->m.v;
	long tables = 0;

	for (uint32_t k = 0; k < n; k++) {
		const struct ibsmd_rt_node *node = &v->nodes[order[k]];
		bool sw = node->type == IBSMD_NODE_SWITCH;
		for (unsigned p = sw ? 0 : 1; p <= (sw ? 0u : node->nports); p++) {
			if (!node->ports[p].lid)
				continue;
			fprintf(f, "%s 0x%016" PRIx64 ", base LID %u, \"%s\"\n"
				"#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n%s\n",
				sw ? "Switch" : node->type == IBSMD_NODE_CA ? "Channel Adapter" : "Router",
				node->ports[p].guid, node->ports[p].lid, node->desc ? node->desc : "",
				separator);
			for (unsigned out = 1; sw && out <= node->nports; out++)
				for (unsigned in = 0; node->ports[out].peer != IBSMD_NO_NODE &&
				     in <= node->nports; in++)
					sl2vl_line(f, in, out, s->nsl);
			if (!sw)
				sl2vl_line(f, 0, 0, s->nsl);
			fprintf(f, "%s\n\n", separator);
			tables++;
		}
	}
	return tables;
}

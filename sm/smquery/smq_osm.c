// SPDX-License-Identifier: MIT
/*
 * smq_osm.c - `smquery dump-opensm DIR`: the stored fabric and LFTs as the
 * three files OpenSM 3.3 writes into its dump directory, so that tools made
 * for OpenSM check our routes, ibdmchk(1) of ibutils first of all:
 *
 *	ibdmchk -s DIR/opensm-subnet.lst -f DIR/opensm.fdbs -m DIR/opensm.mcfdbs
 *
 * opensm-subnet.lst: one line per cabled port, from each end of every link:
 *	{ SW Ports:08 SystemGUID:... NodeGUID:... PortGUID:... VenID:000000
 *	  DevID:0000 Rev:000000A1 {L0} LID:0021 PN:05 } { ...the far end...
 *	  LID:0029 PN:01 } PHY=4x LOG=ACT SPD=2.5
 * (one line in the file), "CA-SM"/"SW-SM" on the end whose LID is the SM's.
 * OpenSM prints the far end's VenID in 8 digits and its DevID shifted left by
 * 16 bits (a byte-order slip that ibdmchk undoes); we print the same.
 *
 * opensm.fdbs: per switch "dump_ucast_routes: Switch 0x<guid>", a column
 * header, then for LIDs 1 .. top "0x%04X : <port>  : <hops>   : yes" where
 * <hops> is the hop count to the LID through that port and "yes" says no
 * port does better (else "No N hop path possible via port P!"); a LID no
 * port owns, or that the switch has no port for, is "UNREACHABLE".
 *
 * opensm.mcfdbs: multicast forwarding tables.  ibsmd programs none yet, and
 * OpenSM writes an empty file when no switch has a multicast entry.
 *
 * When the stored routes use SLs above 0 (the daemon stored their path SLs):
 * opensm-path-sl.dump and opensm-sl2vl.dump, ibdmchk's -c and -d files
 * (smq_osm_sl.c); otherwise neither, and an old one in DIR is removed.
 *
 * Nodes and switches come in OpenSM's order: its maps are keyed by GUIDs in
 * network byte order, so they sort by the byte-swapped GUID.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mad/model/topo_rate.h"
#include "mad/mad_attr.h"
#include "sm/smquery/smq.h"
#include "sm/smquery/smq_osm_sl.h"

#define SMQ_NO_HOPS 0xffu

struct smq_osm {
	struct smq *q;
	const struct topo *t;
	const struct smq_lids *l;
	uint16_t sm_lid;
	uint32_t *order;	/* node indexes in OpenSM's order */
	uint32_t *sw_of;	/* node index -> switch number, TOPO_NONE for others */
	uint32_t nsw;
	uint8_t *dist;		/* [nsw * nsw]: switch-to-switch hops, SMQ_NO_HOPS */
	struct smq_osm_sl sl;	/* the routes' SLs, when they use more than SL 0 */
	bool sls;
};

struct smq_osm_key {
	uint64_t key;		/* the GUID byte-swapped */
	uint32_t idx;
};

static int smq_osm_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct smq_osm_key *)a)->key;
	uint64_t y = ((const struct smq_osm_key *)b)->key;

	return x < y ? -1 : x > y;
}

/* ---- opensm-subnet.lst ---- */

static const char *smq_osm_type(uint8_t type)
{
	return type == MAD_NODE_SWITCH ? "SW" : type == MAD_NODE_CA ? "CA"
	       : type == MAD_NODE_ROUTER ? "Rt" : "**";
}

static const char *smq_osm_state(uint8_t state)
{
	switch (state) {
	case MAD_PORT_ACTIVE: return "ACT";
	case MAD_PORT_ARMED: return "ARM";
	case MAD_PORT_INIT: return "INI";
	default: return "DWN";
	}
}

/* One end of a link: node @idx, port @pn; @far selects OpenSM's far-end widths. */
static void smq_osm_end(FILE *f, const struct smq_osm *o, uint32_t idx, unsigned pn, bool far)
{
	const struct topo_node *n = &o->t->nodes[idx];
	uint16_t lid = n->ports[n->type == MAD_NODE_SWITCH ? 0 : pn].lid;

	fprintf(f, "{ %s%s Ports:%02X SystemGUID:%016" PRIx64 " NodeGUID:%016" PRIx64
		" PortGUID:%016" PRIx64 " VenID:%0*X DevID:%04X Rev:%08X {%s} LID:%04X PN:%02X } ",
		smq_osm_type(n->type), lid && lid == o->sm_lid ? "-SM" : "", n->nports,
		n->sys_guid, n->guid, n->ports[pn].guid, far ? 8 : 6, n->vendor_id,
		far ? (unsigned)n->device_id << 16 : n->device_id, n->revision, n->desc, lid, pn);
}

static long smq_osm_subnet(FILE *f, struct smq_osm *o)
{
	long lines = 0;

	for (uint32_t k = 0; k < o->t->n; k++) {
		const struct topo_node *n = &o->t->nodes[o->order[k]];

		for (unsigned pn = 1; pn <= n->nports; pn++) {
			const struct topo_port *p = &n->ports[pn];

			if (p->peer == TOPO_NONE)
				continue;
			smq_osm_end(f, o, o->order[k], pn, false);
			smq_osm_end(f, o, p->peer, p->peer_port, true);
			fprintf(f, "PHY=%s LOG=%s SPD=%s\n", mad_rate_width_name(p->width, MAD_RATE_OSM),
				smq_osm_state(p->state), mad_rate_speed_name(p->speed, MAD_RATE_OSM));
			lines++;
		}
	}
	return lines;
}

/* ---- opensm.fdbs ---- */

/* Breadth-first switch-to-switch distances over the stored links. */
static int smq_osm_distances(struct smq_osm *o)
{
	const struct topo *t = o->t;
	uint32_t *queue = malloc((o->nsw + 1) * sizeof(*queue));
	uint32_t *sw_node = malloc((o->nsw + 1) * sizeof(*sw_node));

	o->dist = malloc((size_t)o->nsw * o->nsw + 1);
	if (!queue || !sw_node || !o->dist) {
		free(queue);
		free(sw_node);
		return -ENOMEM;
	}
	memset(o->dist, SMQ_NO_HOPS, (size_t)o->nsw * o->nsw);
	for (uint32_t i = 0; i < t->n; i++)
		if (o->sw_of[i] != TOPO_NONE)
			sw_node[o->sw_of[i]] = i;
	for (uint32_t s = 0; s < o->nsw; s++) {
		uint8_t *d = o->dist + (size_t)s * o->nsw;
		uint32_t head = 0, tail = 0;

		d[s] = 0;
		queue[tail++] = s;
		while (head < tail) {
			uint32_t u = queue[head++];
			const struct topo_node *n = &t->nodes[sw_node[u]];

			for (unsigned p = 1; p <= n->nports; p++) {
				uint32_t peer = n->ports[p].peer;
				uint32_t v = peer == TOPO_NONE ? TOPO_NONE : o->sw_of[peer];

				if (v == TOPO_NONE || d[v] != SMQ_NO_HOPS || d[u] + 1u >= SMQ_NO_HOPS)
					continue;
				d[v] = (uint8_t)(d[u] + 1);
				queue[tail++] = v;
			}
		}
	}
	free(queue);
	free(sw_node);
	return 0;
}

static unsigned smq_osm_dist(const struct smq_osm *o, uint32_t x, uint32_t y)
{
	return o->dist[(size_t)o->sw_of[x] * o->nsw + o->sw_of[y]];
}

/*
 * Hops to @lid leaving switch @sw by port @p, as OpenSM's hop tables count
 * them: the links to the switch that owns the LID, or to the switch a CA or
 * router port hangs on and one more.  SMQ_NO_HOPS when there is no way.
 */
static unsigned smq_osm_hops_via(const struct smq_osm *o, uint32_t sw, unsigned p, uint16_t lid)
{
	uint32_t owner = o->l->node[lid], target = owner;
	const struct topo_port *port = &o->t->nodes[sw].ports[p];
	unsigned extra = 1;	/* the link out of port p */

	if (p == 0)
		return owner == sw ? 0 : SMQ_NO_HOPS;
	if (port->peer == TOPO_NONE)
		return SMQ_NO_HOPS;
	if (port->peer == owner && port->peer_port == o->l->port[lid])
		return 1;	/* the destination port itself */
	if (o->sw_of[owner] == TOPO_NONE) {
		const struct topo_port *cp = &o->t->nodes[owner].ports[o->l->port[lid]];
		if (cp->peer == TOPO_NONE || o->sw_of[cp->peer] == TOPO_NONE)
			return SMQ_NO_HOPS;
		target = cp->peer;
		extra = 2;
	}
	if (o->sw_of[port->peer] == TOPO_NONE)
		return SMQ_NO_HOPS;
	unsigned d = smq_osm_dist(o, port->peer, target);
	return d == SMQ_NO_HOPS ? d : d + extra;
}

/* The fewest hops from switch @sw to @lid by any port (what "Optimal" compares to). */
static unsigned smq_osm_best(const struct smq_osm *o, uint32_t sw, uint16_t lid)
{
	uint32_t owner = o->l->node[lid];

	if (o->sw_of[owner] != TOPO_NONE)
		return smq_osm_dist(o, sw, owner);
	const struct topo_port *cp = &o->t->nodes[owner].ports[o->l->port[lid]];
	if (cp->peer == TOPO_NONE || o->sw_of[cp->peer] == TOPO_NONE)
		return SMQ_NO_HOPS;
	unsigned d = smq_osm_dist(o, sw, cp->peer);
	return d == SMQ_NO_HOPS ? d : d + 1;
}

static void smq_osm_fdb_line(FILE *f, const struct smq_osm *o, uint32_t sw, uint16_t lid,
			     uint8_t entry)
{
	const struct topo_node *n = &o->t->nodes[sw];

	fprintf(f, "0x%04X : ", lid);
	if (o->l->node[lid] == TOPO_NONE || entry > n->nports) {
		fputs("UNREACHABLE\n", f);
		return;
	}
	unsigned hops = smq_osm_hops_via(o, sw, entry, lid);
	if (hops == SMQ_NO_HOPS) {
		fprintf(f, "%03u  : HOPS UNKNOWN\n", entry);
		return;
	}
	unsigned best = smq_osm_best(o, sw, lid);
	fprintf(f, "%03u  : %02u   : ", entry, hops);
	if (best >= hops) {
		fputs("yes\n", f);
		return;
	}
	unsigned p = 0;
	while (p < n->nports && smq_osm_hops_via(o, sw, p, lid) != best)
		p++;
	fprintf(f, "No %u hop path possible via port %u!\n", best, p);
}

static long smq_osm_fdbs(FILE *f, struct smq_osm *o)
{
	long switches = 0;

	for (uint32_t k = 0; k < o->t->n; k++) {
		uint32_t sw = o->order[k];
		int found;

		if (o->sw_of[sw] == TOPO_NONE)
			continue;
		uint8_t *lft = smq_lft_load(o->q, sw, &found);
		if (!lft)
			return -EIO;
		fprintf(f, "dump_ucast_routes: Switch 0x%016" PRIx64
			"\nLID    : Port : Hops : Optimal\n", o->t->nodes[sw].guid);
		for (uint32_t lid = 1; lid <= o->l->top; lid++)
			smq_osm_fdb_line(f, o, sw, (uint16_t)lid, lft[lid]);
		free(lft);
		switches++;
	}
	return switches;
}

/* ---- the SL files ---- */

static long smq_osm_paths(FILE *f, struct smq_osm *o)
{
	return smq_osm_sl_paths(f, &o->sl);
}

static long smq_osm_tables(FILE *f, struct smq_osm *o)
{
	return smq_osm_sl2vl(f, &o->sl, o->order, o->t->n);
}

/* ---- the command ---- */

static int smq_osm_prepare(struct smq_osm *o)
{
	char buf[16];

	if (!db_status_get(o->q->db, DB_ST_SM_LID, buf, sizeof(buf)))
		o->sm_lid = (uint16_t)strtoul(buf, NULL, 10);
	struct smq_osm_key *keys = malloc((o->t->n + 1) * sizeof(*keys));
	o->order = malloc((o->t->n + 1) * sizeof(*o->order));
	o->sw_of = malloc((o->t->n + 1) * sizeof(*o->sw_of));
	if (!keys || !o->order || !o->sw_of) {
		free(keys);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < o->t->n; i++) {
		keys[i] = (struct smq_osm_key){ __builtin_bswap64(o->t->nodes[i].guid), i };
		o->sw_of[i] = o->t->nodes[i].type == MAD_NODE_SWITCH ? o->nsw++ : TOPO_NONE;
	}
	qsort(keys, o->t->n, sizeof(*keys), smq_osm_cmp);
	for (uint32_t i = 0; i < o->t->n; i++)
		o->order[i] = keys[i].idx;
	free(keys);
	return smq_osm_distances(o);
}

/* Write @dir/@name with @fn; its count in *@count.  Returns 0 or SMQ_FAIL (printed). */
static int smq_osm_write(struct smq_osm *o, const char *dir, const char *name,
			 long (*fn)(FILE *f, struct smq_osm *o), long *count)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		return smq_fail("%s: %s", path, strerror(errno));
	*count = fn ? fn(f, o) : 0;
	if (fclose(f) || *count < 0)
		return *count < 0 ? SMQ_FAIL : smq_fail("%s: %s", path, strerror(errno));
	return SMQ_OK;
}

static void smq_osm_report(struct smq *q, const char *dir, long lines, long switches,
			   uint16_t top, const struct smq_osm *o, long paths, long tables)
{
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_str(q, "dir", dir);
		smq_json_int(q, "subnet_lines", lines);
		smq_json_int(q, "fdb_switches", switches);
		smq_json_int(q, "top", top);
		smq_json_int(q, "mcast_groups", 0);
		smq_json_int(q, "sls", o->sls ? o->sl.nsl : 1);
		smq_json_int(q, "path_sl_lines", paths);
		smq_json_int(q, "sl2vl_tables", tables);
		smq_json_close(q, '}');
		return;
	}
	fprintf(q->out, "%s/opensm-subnet.lst: %ld port lines (%ld links)\n"
		"%s/opensm.fdbs: %ld switches, lids 1..%u\n"
		"%s/opensm.mcfdbs: no multicast groups\n", dir, lines, lines / 2, dir, switches,
		top, dir);
	if (o->sls)
		fprintf(q->out, "%s/opensm-path-sl.dump: %ld paths on %u SLs\n"
			"%s/opensm-sl2vl.dump: %ld SL to VL tables\n", dir, paths, o->sl.nsl, dir,
			tables);
	fprintf(q->out, "check: ibdmchk -s %s/opensm-subnet.lst -f %s/opensm.fdbs -m %s/opensm.mcfdbs",
		dir, dir, dir);
	if (o->sls)
		fprintf(q->out, " -c %s/opensm-path-sl.dump -d %s/opensm-sl2vl.dump", dir, dir);
	fputc('\n', q->out);
}

/* The SL files, when the routes use SLs; else no stale ones left in @dir. */
static int smq_osm_sl_files(struct smq_osm *o, const char *dir, long *paths, long *tables)
{
	static const char *const names[] = { "opensm-path-sl.dump", "opensm-sl2vl.dump" };
	char path[4096];
	int rc;

	if (o->sls) {
		rc = smq_osm_write(o, dir, names[0], smq_osm_paths, paths);
		return rc ? rc : smq_osm_write(o, dir, names[1], smq_osm_tables, tables);
	}
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (unlink(path) && errno != ENOENT)
			return smq_fail("%s: %s", path, strerror(errno));
	}
	return SMQ_OK;
}

int smq_cmd_dump_opensm(struct smq *q, int argc, char **argv)
{
	const char *dir = argv[1];
	struct smq_osm o = { .q = q, .t = smq_topo(q) };
	long lines = 0, switches = 0, groups = 0, paths = 0, tables = 0;
	int rc = SMQ_FAIL, have;

	(void)argc;
	o.l = o.t ? smq_lids(q) : NULL;
	if (!o.l)
		return SMQ_FAIL;
	if ((have = smq_osm_sl_load(q, o.l->top, &o.sl)) < 0) {
		smq_osm_sl_free(&o.sl);
		return smq_fail("reading the path SLs: %s", strerror(-have));
	}
	o.sls = have > 0;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		rc = smq_fail("%s: %s", dir, strerror(errno));
	} else if (smq_osm_prepare(&o)) {
		rc = smq_fail("out of memory");
	} else if (!(rc = smq_osm_write(&o, dir, "opensm-subnet.lst", smq_osm_subnet,
					&lines)) &&
		   !(rc = smq_osm_write(&o, dir, "opensm.fdbs", smq_osm_fdbs, &switches)) &&
		   !(rc = smq_osm_write(&o, dir, "opensm.mcfdbs", NULL, &groups)) &&
		   !(rc = smq_osm_sl_files(&o, dir, &paths, &tables))) {
		smq_osm_report(q, dir, lines, switches, o.l->top, &o, paths, tables);
	}
	smq_osm_sl_free(&o.sl);
	free(o.order);
	free(o.sw_of);
	free(o.dist);
	return rc;
}

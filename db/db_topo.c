// SPDX-License-Identifier: MIT
/*
 * db_topo.c - the stored topology: nodes, ports, links; the snapshot diff.
 *
 * db_store_topology() reads what is stored into a struct topo ("old"), then
 * walks the new snapshot against it:
 *   1. links of old that the new snapshot lacks: deleted, link_removed;
 *   2. nodes of old that the new snapshot lacks: deleted with their ports,
 *      node_removed;
 *   3. each new node: inserted (node_added) or compared with its old self and
 *      rewritten only if something differs (node_changed, unresponsive); its
 *      ports likewise (port_changed for state, physical state, width, speed,
 *      LID, LMC; link_degraded when it newly trains low); links of new that
 *      old lacks: inserted, link_added;
 *   4. last_seen of every node := now, in one statement (a cold store wrote
 *      it with each row).
 * A steady fabric thus costs one read of the tables and almost no writes.
 * A cold store (no node stored yet) gets one "discovered" event with the
 * fabric's counts instead of a node_added per node and a link_added per link
 * (113k of them at 27k hosts); problems (unresponsive) are still events.
 * Everything runs inside the open sweep's transaction; the first failure rolls
 * the sweep back (db_fail) and stops.
 *
 * Ports stored: 0..nports of a switch, 1..nports of a CA or router.  Only
 * port 0 of a switch has a LID (IBA 14.2.5.6): what a switch answers in the
 * LID and LMC of its external ports is neither stored nor compared (it is 0 or
 * the switch's LID depending on the device and on whether an SM set port 0, and
 * made every restart log a "lid 0 -> X" per switch port).  A link is
 * stored once, end a being the lower (GUID, port); a port row also names its
 * peer.  Node seq is the node's index in the snapshot, so loading in seq order
 * gives back the snapshot's order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "db/db_int.h"
#include "mad/model/topo_rate.h"

#define DB_DETAIL_LEN 512

enum db_topo_sql {
	SQL_NODE_PUT,
	SQL_NODE_DEL,
	SQL_PORTS_DEL,
	SQL_PORT_PUT,
	SQL_LINK_PUT,
	SQL_LINK_DEL,
	SQL_SEEN,
	SQL_COUNT
};

static const char *const db_topo_sql[SQL_COUNT] = {
	[SQL_NODE_PUT] =
	"INSERT INTO nodes (guid, seq, type, nports, sys_guid, vendor_id, device_id,"
	" revision, enhanced_port0, desc, name, path, first_seen, last_seen, responded)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13, ?14)"
	" ON CONFLICT (guid) DO UPDATE SET seq = excluded.seq, type = excluded.type,"
	" nports = excluded.nports, sys_guid = excluded.sys_guid,"
	" vendor_id = excluded.vendor_id, device_id = excluded.device_id,"
	" revision = excluded.revision, enhanced_port0 = excluded.enhanced_port0,"
	" desc = excluded.desc, name = excluded.name, path = excluded.path,"
	" responded = excluded.responded",
	[SQL_NODE_DEL] = "DELETE FROM nodes WHERE guid = ?",
	[SQL_PORTS_DEL] = "DELETE FROM ports WHERE node_guid = ?1 AND port_num > ?2",
	[SQL_PORT_PUT] =
	"INSERT OR REPLACE INTO ports (node_guid, port_num, port_guid, state, phys_state,"
	" width, speed, lid, lmc, peer_guid, peer_port, degraded)"
	" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[SQL_LINK_PUT] = "INSERT OR REPLACE INTO links (guid_a, port_a, guid_b, port_b)"
	" VALUES (?, ?, ?, ?)",
	[SQL_LINK_DEL] = "DELETE FROM links WHERE guid_a = ? AND port_a = ?",
	[SQL_SEEN] = "UPDATE nodes SET last_seen = ?",
};

struct db_store {
	struct db *db;
	int64_t sweep;
	int64_t now;
	const struct topo *cur;	/* the new snapshot */
	struct topo old;	/* what was stored */
	sqlite3_stmt *st[SQL_COUNT];
	int events;
	bool cold;		/* nothing stored before: one discovered event */
	uint32_t links;		/* links written */
};

/* ---- helpers on a struct topo ---- */

static uint8_t db_first_port(const struct topo_node *n)
{
	return n->type == MAD_NODE_SWITCH ? 0 : 1;
}

/* The LID and LMC of port @pn of @n as stored: 0 on a switch's external ports. */
static uint16_t db_port_lid(const struct topo_node *n, unsigned pn)
{
	return n->type == MAD_NODE_SWITCH && pn ? 0 : n->ports[pn].lid;
}

static uint8_t db_port_lmc(const struct topo_node *n, unsigned pn)
{
	return n->type == MAD_NODE_SWITCH && pn ? 0 : n->ports[pn].lmc;
}

static uint64_t db_peer_guid(const struct topo *t, const struct topo_port *p)
{
	return p->peer == TOPO_NONE ? 0 : t->nodes[p->peer].guid;
}

/* The port @port of node @guid in @t, or NULL. */
static const struct topo_port *db_port_of(const struct topo *t, uint64_t guid, unsigned port)
{
	uint32_t i = topo_find_guid(t, guid);

	if (i == TOPO_NONE || port > t->nodes[i].nports)
		return NULL;
	return &t->nodes[i].ports[port];
}

/* Does @t link port @pa of node @ga to port @pb of node @gb? */
static bool db_has_link(const struct topo *t, uint64_t ga, unsigned pa, uint64_t gb, unsigned pb)
{
	const struct topo_port *p = db_port_of(t, ga, pa);

	return p && p->peer != TOPO_NONE && t->nodes[p->peer].guid == gb && p->peer_port == pb;
}

/*
 * Is port @pn of node @n the "a" end of a storable link: linked, both GUIDs
 * known, and (GUID, port) lower than the peer's?
 */
static bool db_link_a_end(const struct topo *t, const struct topo_node *n, unsigned pn)
{
	const struct topo_port *p = &n->ports[pn];
	uint64_t peer = db_peer_guid(t, p);

	if (!n->guid || !peer)
		return false;
	return n->guid < peer || (n->guid == peer && pn < p->peer_port);
}

/* ---- statements and events ---- */

static int db_store_prepare(struct db_store *s)
{
	for (int i = 0; i < SQL_COUNT; i++) {
		int err = db_prepare(s->db, db_topo_sql[i], &s->st[i]);
		if (err)
			return err;
	}
	return 0;
}

static void db_store_finish(struct db_store *s)
{
	for (int i = 0; i < SQL_COUNT; i++)
		sqlite3_finalize(s->st[i]);
	topo_free(&s->old);
}

static int db_store_event(struct db_store *s, const char *kind, uint64_t guid, int port,
			  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int db_store_event(struct db_store *s, const char *kind, uint64_t guid, int port,
			  const char *fmt, ...)
{
	char detail[DB_DETAIL_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	s->events++;
	return db_event_put(s->db, s->sweep, kind, guid, port, detail);
}

/* ---- writes ---- */

static int db_node_write(struct db_store *s, uint32_t idx)
{
	const struct topo_node *n = &s->cur->nodes[idx];
	sqlite3_stmt *st = s->st[SQL_NODE_PUT];

	sqlite3_bind_int64(st, 1, db_guid_to_sql(n->guid));
	sqlite3_bind_int64(st, 2, idx);
	sqlite3_bind_int(st, 3, n->type);
	sqlite3_bind_int(st, 4, n->nports);
	sqlite3_bind_int64(st, 5, db_guid_to_sql(n->sys_guid));
	sqlite3_bind_int64(st, 6, n->vendor_id);
	sqlite3_bind_int(st, 7, n->device_id);
	sqlite3_bind_int64(st, 8, n->revision);
	sqlite3_bind_int(st, 9, n->enhanced_port0);
	sqlite3_bind_text(st, 10, n->desc, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 11, n->name, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 12, n->path.port + 1, n->path.hops, SQLITE_STATIC);
	sqlite3_bind_int64(st, 13, s->now);
	sqlite3_bind_int(st, 14, n->responded);
	return db_step_done(s->db, st, "storing a node");
}

static int db_port_write(struct db_store *s, const struct topo_node *n, unsigned pn)
{
	const struct topo_port *p = &n->ports[pn];
	sqlite3_stmt *st = s->st[SQL_PORT_PUT];
	uint64_t peer = db_peer_guid(s->cur, p);

	sqlite3_bind_int64(st, 1, db_guid_to_sql(n->guid));
	sqlite3_bind_int(st, 2, (int)pn);
	sqlite3_bind_int64(st, 3, db_guid_to_sql(p->guid));
	sqlite3_bind_int(st, 4, p->state);
	sqlite3_bind_int(st, 5, p->phys_state);
	sqlite3_bind_int(st, 6, p->width);
	sqlite3_bind_int(st, 7, p->speed);
	sqlite3_bind_int(st, 8, db_port_lid(n, pn));
	sqlite3_bind_int(st, 9, db_port_lmc(n, pn));
	if (peer) {
		sqlite3_bind_int64(st, 10, db_guid_to_sql(peer));
		sqlite3_bind_int(st, 11, p->peer_port);
	} else {
		sqlite3_bind_null(st, 10);
		sqlite3_bind_null(st, 11);
	}
	sqlite3_bind_int(st, 12, p->degraded);
	return db_step_done(s->db, st, "storing a port");
}

/* Delete the ports of node @guid numbered above @above (-1: all). */
static int db_ports_delete(struct db_store *s, uint64_t guid, int above)
{
	sqlite3_stmt *st = s->st[SQL_PORTS_DEL];

	sqlite3_bind_int64(st, 1, db_guid_to_sql(guid));
	sqlite3_bind_int(st, 2, above);
	return db_step_done(s->db, st, "deleting ports");
}

static int db_link_write(struct db_store *s, sqlite3_stmt *st, uint64_t ga, unsigned pa,
			 uint64_t gb, unsigned pb)
{
	sqlite3_bind_int64(st, 1, db_guid_to_sql(ga));
	sqlite3_bind_int(st, 2, (int)pa);
	if (st == s->st[SQL_LINK_PUT]) {
		sqlite3_bind_int64(st, 3, db_guid_to_sql(gb));
		sqlite3_bind_int(st, 4, (int)pb);
	}
	return db_step_done(s->db, st, "storing a link");
}

/* ---- the diff ---- */

/* Links of the snapshot @from that @to lacks: write them with @sql and @kind. */
static int db_links_diff(struct db_store *s, const struct topo *from, const struct topo *to,
			 enum db_topo_sql sql, const char *kind)
{
	for (uint32_t i = 0; i < from->n; i++) {
		const struct topo_node *n = &from->nodes[i];

		for (unsigned pn = 1; pn <= n->nports; pn++) {
			const struct topo_port *p = &n->ports[pn];

			if (!db_link_a_end(from, n, pn))
				continue;
			const struct topo_node *peer = &from->nodes[p->peer];
			if (db_has_link(to, n->guid, pn, peer->guid, p->peer_port))
				continue;
			int err = db_link_write(s, s->st[sql], n->guid, pn, peer->guid,
						p->peer_port);
			s->links++;
			if (!err && !s->cold)
				err = db_store_event(s, kind, n->guid, (int)pn,
						     "0x%016" PRIx64 "[%u] \"%s\" - 0x%016" PRIx64
						     "[%u] \"%s\"", n->guid, pn, n->desc,
						     peer->guid, p->peer_port, peer->desc);
			if (err)
				return err;
		}
	}
	return 0;
}

static int db_nodes_removed(struct db_store *s)
{
	for (uint32_t i = 0; i < s->old.n; i++) {
		const struct topo_node *o = &s->old.nodes[i];

		if (topo_find_guid(s->cur, o->guid) != TOPO_NONE)
			continue;
		sqlite3_bind_int64(s->st[SQL_NODE_DEL], 1, db_guid_to_sql(o->guid));
		int err = db_step_done(s->db, s->st[SQL_NODE_DEL], "deleting a node");
		if (!err)
			err = db_ports_delete(s, o->guid, -1);
		if (!err)
			err = db_store_event(s, DB_EV_NODE_REMOVED, o->guid, -1, "%s \"%s\"",
					     mad_node_type_name(o->type), o->desc);
		if (err)
			return err;
	}
	return 0;
}

static bool db_node_differs(const struct topo_node *n, uint32_t idx, const struct topo_node *o,
			    uint32_t oidx)
{
	return idx != oidx || n->type != o->type || n->nports != o->nports ||
	       n->sys_guid != o->sys_guid || n->vendor_id != o->vendor_id ||
	       n->device_id != o->device_id || n->revision != o->revision ||
	       n->enhanced_port0 != o->enhanced_port0 || n->responded != o->responded ||
	       strcmp(n->desc, o->desc) || strcmp(n->name, o->name) ||
	       n->path.hops != o->path.hops ||
	       memcmp(n->path.port + 1, o->path.port + 1, n->path.hops);
}

/* Append ", what a -> b" to @buf when @a != @b. */
static void db_note(char *buf, size_t len, const char *what, const char *a, const char *b)
{
	size_t used = strlen(buf);

	if (strcmp(a, b) && used < len)
		snprintf(buf + used, len - used, "%s%s %s -> %s", used ? ", " : "", what, a, b);
}

static void db_note_num(char *buf, size_t len, const char *what, unsigned a, unsigned b)
{
	char sa[16], sb[16];

	snprintf(sa, sizeof(sa), "%u", a);
	snprintf(sb, sizeof(sb), "%u", b);
	db_note(buf, len, what, sa, sb);
}

static int db_node_changed(struct db_store *s, const struct topo_node *n,
			   const struct topo_node *o)
{
	char what[DB_DETAIL_LEN] = "", da[TOPO_DESC_LEN + 3], db_[TOPO_DESC_LEN + 3];

	db_note(what, sizeof(what), "type", mad_node_type_name(o->type),
		mad_node_type_name(n->type));
	db_note_num(what, sizeof(what), "ports", o->nports, n->nports);
	snprintf(da, sizeof(da), "\"%s\"", o->desc);
	snprintf(db_, sizeof(db_), "\"%s\"", n->desc);
	db_note(what, sizeof(what), "description", da, db_);
	if (!what[0])
		return 0;
	return db_store_event(s, DB_EV_NODE_CHANGED, n->guid, -1, "%s", what);
}

/* Does port @pn of @n (in @a) differ from port @pn of @o (in @b)? */
static bool db_port_differs(const struct topo *a, const struct topo_node *n,
			    const struct topo *b, const struct topo_node *o, unsigned pn)
{
	const struct topo_port *p = &n->ports[pn], *q = &o->ports[pn];

	return p->guid != q->guid || p->state != q->state || p->phys_state != q->phys_state ||
	       p->width != q->width || p->speed != q->speed ||
	       db_port_lid(n, pn) != db_port_lid(o, pn) ||
	       db_port_lmc(n, pn) != db_port_lmc(o, pn) || p->peer_port != q->peer_port ||
	       p->degraded != q->degraded ||
	       db_peer_guid(a, p) != db_peer_guid(b, q);
}

static int db_port_changed(struct db_store *s, const struct topo_node *n,
			   const struct topo_node *on, unsigned pn)
{
	const struct topo_port *p = &n->ports[pn], *o = &on->ports[pn];
	char what[DB_DETAIL_LEN] = "";

	db_note(what, sizeof(what), "state", mad_port_state_name(o->state),
		mad_port_state_name(p->state));
	db_note(what, sizeof(what), "phys", mad_phys_state_name(o->phys_state),
		mad_phys_state_name(p->phys_state));
	db_note(what, sizeof(what), "width", mad_rate_width_name(o->width, MAD_RATE_TEXT),
		mad_rate_width_name(p->width, MAD_RATE_TEXT));
	db_note(what, sizeof(what), "speed", mad_rate_speed_name(o->speed, MAD_RATE_TEXT),
		mad_rate_speed_name(p->speed, MAD_RATE_TEXT));
	db_note_num(what, sizeof(what), "lid", db_port_lid(on, pn), db_port_lid(n, pn));
	db_note_num(what, sizeof(what), "lmc", db_port_lmc(on, pn), db_port_lmc(n, pn));
	if (!what[0])
		return 0;
	return db_store_event(s, DB_EV_PORT_CHANGED, n->guid, (int)pn, "%s", what);
}

/* A link that trained (again) below what both its ends support. */
static int db_link_degraded(struct db_store *s, uint64_t guid, unsigned pn,
			    const struct topo_port *p)
{
	return db_store_event(s, DB_EV_LINK_DEGRADED, guid, (int)pn,
			      "runs at %s %s, below what both ends support: %s%s%s",
			      mad_rate_width_name(p->width, MAD_RATE_TEXT),
			      mad_rate_speed_name(p->speed, MAD_RATE_TEXT),
			      p->degraded & TOPO_DEGRADED_WIDTH ? "width" : "",
			      p->degraded == (TOPO_DEGRADED_WIDTH | TOPO_DEGRADED_SPEED) ? ", " : "",
			      p->degraded & TOPO_DEGRADED_SPEED ? "speed" : "");
}

/* Write the ports of new node @n that differ from old node @o (NULL: all). */
static int db_ports_diff(struct db_store *s, const struct topo_node *n,
			 const struct topo_node *o)
{
	int err = 0;

	if (o && o->nports > n->nports)
		err = db_ports_delete(s, n->guid, n->nports);
	for (unsigned pn = db_first_port(n); !err && pn <= n->nports; pn++) {
		bool had = o && pn <= o->nports && pn >= db_first_port(o);

		if (had && !db_port_differs(s->cur, n, &s->old, o, pn))
			continue;
		err = db_port_write(s, n, pn);
		if (!err && had)
			err = db_port_changed(s, n, o, pn);
		if (!err && n->ports[pn].degraded && !s->cold &&
		    !(had && o->ports[pn].degraded == n->ports[pn].degraded))
			err = db_link_degraded(s, n->guid, pn, &n->ports[pn]);
	}
	return err;
}

static int db_unresponsive(struct db_store *s, const struct topo_node *n)
{
	char route[4 * sizeof(n->path.port)] = "";
	size_t used = 0;

	for (unsigned h = 1; h <= n->path.hops && used < sizeof(route); h++)
		used += (size_t)snprintf(route + used, sizeof(route) - used, "%s%u",
					 h > 1 ? "," : "", n->path.port[h]);
	return db_store_event(s, DB_EV_UNRESPONSIVE, n->guid, -1,
			      "%s \"%s\" did not answer; directed route [%s]",
			      mad_node_type_name(n->type), n->desc, route);
}

static int db_node_diff(struct db_store *s, uint32_t idx)
{
	const struct topo_node *n = &s->cur->nodes[idx];
	uint32_t oidx = topo_find_guid(&s->old, n->guid);
	const struct topo_node *o = oidx == TOPO_NONE ? NULL : &s->old.nodes[oidx];
	int err = 0;

	if (!n->guid)
		return n->responded ? 0 : db_unresponsive(s, n);
	if (!o) {
		err = db_node_write(s, idx);
		if (!err && !s->cold)
			err = db_store_event(s, DB_EV_NODE_ADDED, n->guid, -1,
					     "%s %u ports \"%s\"", mad_node_type_name(n->type),
					     n->nports, n->desc);
	} else if (db_node_differs(n, idx, o, oidx)) {
		err = db_node_write(s, idx);
		if (!err)
			err = db_node_changed(s, n, o);
	}
	if (!err && !n->responded && (!o || o->responded))
		err = db_unresponsive(s, n);
	return err ? err : db_ports_diff(s, n, o);
}

static int db_topo_read(struct db *db, struct topo *out);

/* The cold store's one event: what was found, in counts (degraded links
 * too: a simulator may report every link so, and one event per port would
 * bury the rest). */
static int db_discovered(struct db_store *s)
{
	uint32_t nodes = 0, type[4] = { 0 }, degraded = 0;

	for (uint32_t i = 0; i < s->cur->n; i++) {
		const struct topo_node *n = &s->cur->nodes[i];
		if (!n->guid)
			continue;	/* not stored */
		nodes++;
		if (n->type >= 1 && n->type <= 3)
			type[n->type]++;
		for (unsigned pn = 1; pn <= n->nports; pn++) {
			const struct topo_port *p = &n->ports[pn];
			if (p->degraded && p->peer != TOPO_NONE &&
			    db_peer_guid(s->cur, p) > n->guid)	/* each link once */
				degraded++;
		}
	}
	char more[48] = "";
	if (degraded)
		snprintf(more, sizeof(more), ", %u of them degraded", degraded);
	return db_store_event(s, DB_EV_DISCOVERED, 0, -1,
			      "%u nodes (%u switches, %u CAs, %u routers), %u links%s", nodes,
			      type[MAD_NODE_SWITCH], type[MAD_NODE_CA], type[MAD_NODE_ROUTER],
			      s->links, more);
}

int db_store_topology(struct db *db, int64_t sweep_id, const struct topo *t)
{
	struct db_store s = { .db = db, .sweep = sweep_id, .now = db_now_ms(db), .cur = t };
	int err = db_sweep_check(db, sweep_id);

	if (err)
		return err;
	topo_init(&s.old);
	err = db_topo_read(db, &s.old);
	s.cold = s.old.n == 0;
	if (!err)
		err = db_store_prepare(&s);
	if (!err)
		err = db_links_diff(&s, &s.old, t, SQL_LINK_DEL, DB_EV_LINK_REMOVED);
	if (!err)
		err = db_nodes_removed(&s);
	for (uint32_t i = 0; !err && i < t->n; i++)
		err = db_node_diff(&s, i);
	if (!err)
		err = db_links_diff(&s, t, &s.old, SQL_LINK_PUT, DB_EV_LINK_ADDED);
	if (!err && s.cold && t->n)
		err = db_discovered(&s);
	if (!err && !s.cold) {	/* a cold store's rows were written with it */
		sqlite3_bind_int64(s.st[SQL_SEEN], 1, s.now);
		err = db_step_done(db, s.st[SQL_SEEN], "updating last_seen");
	}
	db_store_finish(&s);
	if (err) {
		db_sweep_fail(db);
		return err;
	}
	return s.events;
}

/* ---- loading ---- */

static const char db_nodes_sql[] =
	"SELECT guid, type, nports, sys_guid, vendor_id, device_id, revision,"
	" enhanced_port0, responded, desc, name, path FROM nodes ORDER BY seq";

static const char db_ports_sql[] =
	"SELECT node_guid, port_num, port_guid, state, phys_state, width, speed, lid, lmc,"
	" peer_guid, peer_port, degraded FROM ports";

static void db_node_from_row(sqlite3_stmt *st, struct topo_node *n)
{
	const void *path = sqlite3_column_blob(st, 11);
	int hops = sqlite3_column_bytes(st, 11);

	n->sys_guid = db_guid_from_sql(sqlite3_column_int64(st, 3));
	n->vendor_id = (uint32_t)sqlite3_column_int64(st, 4);
	n->device_id = (uint16_t)sqlite3_column_int(st, 5);
	n->revision = (uint32_t)sqlite3_column_int64(st, 6);
	n->enhanced_port0 = sqlite3_column_int(st, 7);
	n->responded = sqlite3_column_int(st, 8);
	snprintf(n->desc, sizeof(n->desc), "%s", (const char *)sqlite3_column_text(st, 9));
	snprintf(n->name, sizeof(n->name), "%s", (const char *)sqlite3_column_text(st, 10));
	if (hops > TOPO_PATH_MAX_HOPS)
		hops = TOPO_PATH_MAX_HOPS;
	n->path.hops = (uint8_t)hops;
	if (hops)
		memcpy(n->path.port + 1, path, (size_t)hops);
}

static int db_nodes_read(struct db *db, struct topo *out)
{
	sqlite3_stmt *st;
	int rc, err = db_prepare(db, db_nodes_sql, &st);

	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t guid = db_guid_from_sql(sqlite3_column_int64(st, 0));
		uint32_t idx = topo_add_node(out, (uint8_t)sqlite3_column_int(st, 1),
					     (uint8_t)sqlite3_column_int(st, 2), guid);
		if (idx == TOPO_NONE) {
			err = db_fail_msg(db, -errno, "%s: loading node 0x%016" PRIx64 ": %s",
					  db->path, guid, strerror(errno));
			break;
		}
		db_node_from_row(st, &out->nodes[idx]);
	}
	if (!err && rc != SQLITE_DONE)
		err = db_fail(db, rc, "reading nodes");
	sqlite3_finalize(st);
	return err;
}

static void db_port_from_row(sqlite3_stmt *st, const struct topo *t, struct topo_port *p)
{
	p->guid = db_guid_from_sql(sqlite3_column_int64(st, 2));
	p->state = (uint8_t)sqlite3_column_int(st, 3);
	p->phys_state = (uint8_t)sqlite3_column_int(st, 4);
	p->width = (uint8_t)sqlite3_column_int(st, 5);
	p->speed = (uint8_t)sqlite3_column_int(st, 6);
	p->lid = (uint16_t)sqlite3_column_int(st, 7);
	p->lmc = (uint8_t)sqlite3_column_int(st, 8);
	p->peer = sqlite3_column_type(st, 9) == SQLITE_NULL ? TOPO_NONE
		  : topo_find_guid(t, db_guid_from_sql(sqlite3_column_int64(st, 9)));
	p->peer_port = p->peer == TOPO_NONE ? 0 : (uint8_t)sqlite3_column_int(st, 10);
	p->degraded = (uint8_t)(sqlite3_column_int(st, 11) &
				(TOPO_DEGRADED_WIDTH | TOPO_DEGRADED_SPEED));
}

static int db_ports_read(struct db *db, struct topo *out)
{
	sqlite3_stmt *st;
	int rc, err = db_prepare(db, db_ports_sql, &st);
	uint32_t idx = TOPO_NONE;
	uint64_t last = 0;

	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t guid = db_guid_from_sql(sqlite3_column_int64(st, 0));
		int pn = sqlite3_column_int(st, 1);

		if (idx == TOPO_NONE || guid != last)	/* rows come grouped by node */
			idx = topo_find_guid(out, guid);
		last = guid;
		if (idx != TOPO_NONE && pn >= 0 && pn <= out->nodes[idx].nports)
			db_port_from_row(st, out, &out->nodes[idx].ports[pn]);
	}
	if (rc != SQLITE_DONE)
		err = db_fail(db, rc, "reading ports");
	sqlite3_finalize(st);
	return err;
}

static int db_topo_read(struct db *db, struct topo *out)
{
	int err = db_nodes_read(db, out);

	if (!err)
		err = db_ports_read(db, out);
	if (err)
		topo_free(out);
	return err;
}

int db_load_topology(struct db *db, struct topo *out)
{
	bool began;

	topo_init(out);
	int err = db_read_begin(db, &began);
	if (err)
		return err;
	err = db_topo_read(db, out);
	db_read_end(db, began);
	return err;
}

int db_node_seen(struct db *db, uint64_t guid, int64_t *first_ms, int64_t *last_ms)
{
	sqlite3_stmt *st;
	int err = db_prepare(db, "SELECT first_seen, last_seen FROM nodes WHERE guid = ?", &st);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db_guid_to_sql(guid));
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*first_ms = sqlite3_column_int64(st, 0);
		*last_ms = sqlite3_column_int64(st, 1);
	} else if (rc == SQLITE_DONE) {
		err = db_fail_msg(db, -ENOENT, "%s: no node 0x%016" PRIx64, db->path, guid);
	} else {
		err = db_fail(db, rc, "reading a node");
	}
	sqlite3_finalize(st);
	return err;
}

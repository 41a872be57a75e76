// SPDX-License-Identifier: MIT
/*
 * db_metrics_links.c - links in trouble, for alerts: down, isolated,
 * degraded.  A count of each, and one series per link, valued 1, labelled
 * with both ends (node GUIDs, ports, descriptions), so that an alert names
 * the link.
 *
 * Down: db_links_down_each() (db_lost.c), a link whose newest link event
 * still kept is its removal and neither end of which is cabled now, its far
 * end read back from that event; it stays down until it comes back or its
 * events are pruned (retention.events).  Isolated: isolated_links.
 * Degraded: a link of the stored topology either end of which trained below
 * what both ends support (ports.degraded).
 *
 * Each family is written whole or, past the budget of series, left out
 * (counted); the counts always are.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "db/db_metrics_int.h"

struct link_row {
	uint64_t guid, rguid;
	unsigned port, rport;
	char name[65], rname[65];
};

struct link_rows {
	struct link_row *v;
	size_t n, cap;
	bool nomem;
};

/* Room for one more row: its place, or NULL (rows->nomem set). */
static struct link_row *row_add(struct link_rows *rows)
{
	if (rows->n == rows->cap) {
		size_t cap = rows->cap ? 2 * rows->cap : 64;
		struct link_row *v = realloc(rows->v, cap * sizeof(*v));
		if (!v) {
			rows->nomem = true;
			return NULL;
		}
		rows->v = v;
		rows->cap = cap;
	}
	return &rows->v[rows->n++];
}

/* Columns: guid, port, desc, then peer guid, port, desc. */
static void link_row(void *ctx, sqlite3_stmt *st)
{
	struct link_row *r = row_add(ctx);

	if (!r)
		return;
	*r = (struct link_row){ .guid = db_guid_from_sql(sqlite3_column_int64(st, 0)),
				.port = (unsigned)sqlite3_column_int(st, 1),
				.rguid = db_guid_from_sql(sqlite3_column_int64(st, 3)),
				.rport = (unsigned)sqlite3_column_int(st, 4) };
	snprintf(r->name, sizeof(r->name), "%s", db_col_text(st, 2));
	snprintf(r->rname, sizeof(r->rname), "%s", db_col_text(st, 5));
}

/* A link down (db_lost.c): its far end unknown when its event names none. */
static int down_row(void *ctx, const struct db_link_down *l)
{
	struct link_row *r = row_add(ctx);

	if (!r)
		return 0;	/* rows->nomem says it */
	*r = (struct link_row){ .guid = l->guid, .port = l->port, .rguid = l->peer_guid,
				.rport = l->peer_port };
	snprintf(r->name, sizeof(r->name), "%s", l->desc);
	snprintf(r->rname, sizeof(r->rname), "%s", l->peer_desc);
	return 0;
}

/* guid="..",port="..",name="..",remote_guid="..",remote_port="..",remote_name=".." */
static void link_sample(struct db_metrics *m, const char *family, const struct link_row *r)
{
	struct db_mtext *t = &m->text;
	char guid[19], rguid[19], esc[2 * sizeof(r->name) + 1];

	db_metrics_guid(guid, r->guid);
	db_metrics_guid(rguid, r->rguid);
	db_mtext_puts(t, family);
	db_mtext_puts(t, "{guid=\"");
	db_mtext_puts(t, guid);
	db_mtext_puts(t, "\",port=\"");
	db_mtext_u64(t, r->port);
	db_mtext_puts(t, "\",name=\"");
	db_mtext_put(t, esc, db_metrics_escape(esc, r->name));
	db_mtext_puts(t, "\",remote_guid=\"");
	db_mtext_puts(t, r->rname[0] || r->rguid ? rguid : "");
	db_mtext_puts(t, "\",remote_port=\"");
	if (r->rname[0] || r->rguid)
		db_mtext_u64(t, r->rport);
	db_mtext_puts(t, "\",remote_name=\"");
	db_mtext_put(t, esc, db_metrics_escape(esc, r->rname));
	db_mtext_puts(t, "\"} 1\n");
	t->series++;
}

struct link_family {
	const char *count, *count_help;	/* the count (NULL: printed elsewhere) */
	const char *each, *each_help;	/* a series per link */
	const char *sql;		/* NULL: the links down (db_lost.c) */
};

static const struct link_family families[] = {
	{ "ibsmd_links_down",
	  "Links that went down and are not back (as long as their events are kept).",
	  "ibsmd_link_down", "A link that went down and is not back: 1.",
	  NULL },	/* db_links_down_each() */
	{ NULL, NULL,	/* ibsmd_isolated_links: db_metrics.c */
	  "ibsmd_link_isolated", "A link the isolation policy keeps out of routing: 1.",
	  "SELECT i.guid, i.port, n.desc, i.peer_guid, i.peer_port, r.desc"
	  " FROM isolated_links i LEFT JOIN nodes n ON n.guid = i.guid"
	  " LEFT JOIN nodes r ON r.guid = i.peer_guid ORDER BY i.guid, i.port" },
	{ "ibsmd_links_degraded",
	  "Links trained below the width or speed both ends support.",
	  "ibsmd_link_degraded", "A link trained below what both ends support: 1.",
	  "SELECT l.guid_a, l.port_a, na.desc, l.guid_b, l.port_b, nb.desc FROM links l"
	  " JOIN ports pa ON pa.node_guid = l.guid_a AND pa.port_num = l.port_a"
	  " JOIN ports pb ON pb.node_guid = l.guid_b AND pb.port_num = l.port_b"
	  " LEFT JOIN nodes na ON na.guid = l.guid_a LEFT JOIN nodes nb ON nb.guid = l.guid_b"
	  " WHERE pa.degraded != 0 OR pb.degraded != 0 ORDER BY l.guid_a, l.port_a" },
};

int db_metrics_links(struct db_metrics *m)
{
	struct link_rows rows = { 0 };
	int err = 0;

	for (size_t f = 0; !err && f < sizeof(families) / sizeof(families[0]); f++) {
		const struct link_family *lf = &families[f];
		rows.n = 0;
		err = lf->sql ? db_metrics_rows(m, lf->sql, link_row, &rows)
			      : db_links_down_each(m->db, down_row, &rows);
		if (!err && rows.nomem)
			err = db_fail_msg(m->db, -ENOMEM, "%s: out of memory", m->db->path);
		if (err)
			break;
		if (lf->count) {
			db_metrics_family(m, lf->count, "gauge", lf->count_help);
			db_metrics_sample(m, lf->count, NULL, NULL, NULL, NULL, rows.n);
		}
		if (!rows.n || !db_metrics_fits(m, rows.n))
			continue;
		db_metrics_family(m, lf->each, "gauge", lf->each_help);
		for (size_t i = 0; i < rows.n; i++)
			link_sample(m, lf->each, &rows.v[i]);
	}
	free(rows.v);
	return err;
}

// SPDX-License-Identifier: MIT
/*
 * db_lost.c - what the fabric lost, from the history the snapshot leaves
 * out: links that went down and are not back, and the ports behind which
 * nothing answered in the last heavy sweep (for the map's problems).
 *
 * A link down: the newest link event kept for its lower (GUID, port) end
 * (link_added or link_removed, written by db_topo.c's diff) is its removal,
 * and neither end is cabled to anything now (an end cabled elsewhere is a
 * link moved, not one down).  The snapshot holds only live links, so the far
 * end is read back from the event's text, "0x<guid>[<port>] "<desc>" -
 * 0x<guid>[<port>] "<desc>"": descriptions are written as the devices gave
 * them, so either may hold the separator; the near node's description as
 * stored now finds it, else the last separator after which a whole end
 * reads (a text that names no far end still gives a link down, its far end
 * unknown).  A link stays listed until it comes back or its events are
 * pruned.  The map's problems and the metrics' ibsmd_link_down read it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/db_int.h"

/* The end at @s, <16 hex digits>[<port>] "<desc>" up to the end of the text,
 * into @l's far end (its description in @desc). */
static bool far_end_at(const char *s, struct db_link_down *l, char *desc, size_t len)
{
	char *end;

	if (strspn(s, "0123456789abcdef") != 16 || s[16] != '[')
		return false;
	unsigned long port = strtoul(s + 17, &end, 10);
	if (end == s + 17 || port > 255 || strncmp(end, "] \"", 3))
		return false;
	const char *d = end + 3;
	size_t n = strlen(d);
	if (!n || d[n - 1] != '"')
		return false;
	l->peer_guid = strtoull(s, NULL, 16);
	l->peer_port = (unsigned)port;
	snprintf(desc, len, "%.*s", (int)(n - 1), d);
	return true;
}

/* The far end of a link event's text whose near end is @l's, that node's
 * description now @near_desc (NULL: unknown): where the text holds that
 * description, the end after it; else the end after the last separator
 * after which one reads whole.  The near description as written goes to
 * @ndesc. */
static bool far_end(const char *text, const char *near_desc, struct db_link_down *l,
		    char *ndesc, char *desc, size_t len)
{
	static const char sep[] = "\" - 0x";
	char near[40];
	const char *found = NULL;

	snprintf(near, sizeof(near), "0x%016llx[%u] \"", (unsigned long long)l->guid, l->port);
	size_t n = strlen(near), d = near_desc ? strlen(near_desc) : 0;
	if (strncmp(text, near, n))
		return false;
	bool by_desc = near_desc && !strncmp(text + n, near_desc, d) &&
		       !strncmp(text + n + d, sep, 6) && far_end_at(text + n + d + 6, l, desc, len);
	if (by_desc)
		found = text + n + d + 6;
	/* else the last that reads whole (far_end_at() writes only when it does) */
	for (const char *p = strstr(text + n, sep); !by_desc && p; p = strstr(p + 1, sep))
		if (far_end_at(p + 6, l, desc, len))
			found = p + 6;
	if (!found)
		return false;
	snprintf(ndesc, len, "%.*s", (int)(found - 6 - (text + n)), text + n);
	return true;
}

/* Is port (@guid, @port) cabled to anything in the snapshot?  1, 0, -errno. */
static int cabled(struct db *db, sqlite3_stmt *st, uint64_t guid, unsigned port)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, db_guid_to_sql(guid));
	sqlite3_bind_int(st, 2, (int)port);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		return sqlite3_column_int(st, 0) != 0;
	return rc == SQLITE_DONE ? 0 : db_fail(db, rc, "reading a port");
}

int db_links_down_each(struct db *db, int (*fn)(void *arg, const struct db_link_down *l),
		       void *arg)
{
	sqlite3_stmt *st, *port;
	int rc = SQLITE_DONE, ret;
	bool began;

	if ((ret = db_read_begin(db, &began)))
		return ret;
	ret = db_prepare(db, "SELECT e.guid, e.port, e.time, e.detail, n.desc FROM events e"
			 " JOIN (SELECT max(id) AS id FROM events WHERE kind IN ('"
			 DB_EV_LINK_ADDED "', '" DB_EV_LINK_REMOVED "') AND guid IS NOT NULL"
			 " AND port IS NOT NULL GROUP BY guid, port) newest ON newest.id = e.id"
			 " LEFT JOIN nodes n ON n.guid = e.guid"
			 " WHERE e.kind = '" DB_EV_LINK_REMOVED "' ORDER BY e.guid, e.port", &st);
	if (ret) {
		db_read_end(db, began);
		return ret;
	}
	ret = db_prepare(db, "SELECT peer_guid IS NOT NULL FROM ports WHERE node_guid = ?"
			 " AND port_num = ?", &port);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		char desc[128] = "", ndesc[128] = "";
		struct db_link_down l = {
			.guid = db_guid_from_sql(sqlite3_column_int64(st, 0)),
			.port = (unsigned)sqlite3_column_int(st, 1),
			.since_ms = sqlite3_column_int64(st, 2), .desc = ndesc, .peer_desc = desc,
		};
		const char *text = (const char *)sqlite3_column_text(st, 3);
		const char *now = (const char *)sqlite3_column_text(st, 4);
		if (!text || !far_end(text, now, &l, ndesc, desc, sizeof(desc)))
			desc[0] = '\0';	/* the far end unknown: peer_guid 0 */
		if (now)
			l.desc = now;
		int near = cabled(db, port, l.guid, l.port);
		int far = near || !l.peer_guid ? 0 : cabled(db, port, l.peer_guid, l.peer_port);
		if (near < 0 || far < 0)
			ret = near < 0 ? near : far;
		else if (!near && !far)
			ret = fn(arg, &l);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading the link events");
	sqlite3_finalize(st);
	if (port)
		sqlite3_finalize(port);
	db_read_end(db, began);
	return ret;
}

int db_unanswered_each(struct db *db, int (*fn)(void *arg, const struct db_unanswered *u),
		       void *arg)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE;
	int ret = db_prepare(db, "SELECT guid, port, time, detail FROM events"
			     " WHERE kind = '" DB_EV_UNRESPONSIVE "' AND guid IS NOT NULL"
			     " AND port IS NOT NULL AND sweep_id = (SELECT max(id) FROM sweeps"
			     " WHERE kind = 'heavy') ORDER BY id", &st);

	if (ret)
		return ret;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *detail = (const char *)sqlite3_column_text(st, 3);
		struct db_unanswered u = {
			.guid = db_guid_from_sql(sqlite3_column_int64(st, 0)),
			.port = (unsigned)sqlite3_column_int(st, 1),
			.time_ms = sqlite3_column_int64(st, 2), .detail = detail ? detail : "",
		};
		ret = fn(arg, &u);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading the unresponsive ports");
	sqlite3_finalize(st);
	return ret;
}

// SPDX-License-Identifier: MIT
/*
 * smq_out.c - output helpers of smquery: a small streaming JSON writer (keys
 * and strings escaped per RFC 8259, always valid UTF-8, commas placed by
 * nesting level), terminal-safe text (topo_text.h), times, type names and the JSON node
 * object every topology command shares.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "mad/mad_attr.h"
#include "mad/model/topo_text.h"
#include "sm/smquery/smq.h"

/* Strings from the store (node descriptions come from the devices, any bytes)
 * are written as valid UTF-8: controls, bidi controls and line separators
 * escaped (topo_text_unsafe()), a byte that starts no valid UTF-8 sequence as
 * U+FFFD; for a page (@html), '<', '>' and '&' escaped too, so that no string
 * closes the <script> element it is in. */
static void smq_json_escaped(FILE *f, const char *s, bool html)
{
	fputc('"', f);
	for (const char *p = s; *p;) {
		uint32_t cp = 0;
		unsigned n = topo_utf8_next(p, &cp);
		if (n == 0)
			fputs("\\ufffd", f);
		else if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", *p);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (topo_text_unsafe(cp) || (html && (cp == '<' || cp == '>' || cp == '&')))
			fprintf(f, "\\u%04x", (unsigned)cp);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

const char *smq_text(char *buf, size_t len, const char *s)
{
	snprintf(buf, len, "%s", s ? s : "");
	topo_text_replace(buf);
	return buf;
}

void smq_text_safe_topo(struct topo *t)
{
	for (uint32_t i = 0; i < t->n; i++) {
		topo_text_replace(t->nodes[i].desc);
		topo_text_replace(t->nodes[i].name);
	}
}

void smq_json_member(struct smq *q, const char *key)
{
	if (q->depth > 0) {
		if (q->has_member[q->depth])
			fputc(',', q->out);
		q->has_member[q->depth] = true;
	}
	if (key) {
		smq_json_escaped(q->out, key, q->html);
		fputc(':', q->out);
	}
}

void smq_json_open(struct smq *q, const char *key, char bracket)
{
	smq_json_member(q, key);
	fputc(bracket, q->out);
	if (q->depth + 1 < SMQ_JSON_DEPTH)
		q->has_member[++q->depth] = false;
}

void smq_json_close(struct smq *q, char bracket)
{
	fputc(bracket, q->out);
	if (q->depth > 0)
		q->depth--;
	if (q->depth == 0)
		fputc('\n', q->out);
}

void smq_json_str(struct smq *q, const char *key, const char *val)
{
	smq_json_member(q, key);
	if (val)
		smq_json_escaped(q->out, val, q->html);
	else
		fputs("null", q->out);
}

void smq_json_int(struct smq *q, const char *key, int64_t val)
{
	smq_json_member(q, key);
	fprintf(q->out, "%" PRId64, val);
}

void smq_json_bool(struct smq *q, const char *key, bool val)
{
	smq_json_member(q, key);
	fputs(val ? "true" : "false", q->out);
}

void smq_json_null(struct smq *q, const char *key)
{
	smq_json_member(q, key);
	fputs("null", q->out);
}

void smq_json_guid(struct smq *q, const char *key, uint64_t guid)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%016" PRIx64, guid);
	smq_json_str(q, key, buf);
}

const char *smq_type_key(uint8_t type)
{
	switch (type) {
	case MAD_NODE_SWITCH:
		return "switch";
	case MAD_NODE_CA:
		return "ca";
	case MAD_NODE_ROUTER:
		return "router";
	default:
		return "unknown";
	}
}

uint16_t smq_node_lid(const struct topo_node *n)
{
	if (n->type == MAD_NODE_SWITCH)
		return n->ports[0].lid;
	for (unsigned p = 1; p <= n->nports; p++)
		if (n->ports[p].lid)
			return n->ports[p].lid;
	return 0;
}

/* The zone every time is printed in: local (TZ) unless smq_time_utc(). */
static bool smq_utc;

void smq_time_utc(bool utc)
{
	smq_utc = utc;
}

/* @ms (since the epoch, before it too) broken down in the chosen zone, its
 * milliseconds in *@milli; false when the calendar cannot hold it. */
static bool smq_time_tm(int64_t ms, struct tm *tm, int *milli)
{
	int64_t sec = ms / 1000 - (ms % 1000 < 0);	/* rounded down */
	time_t t = (time_t)sec;

	*milli = (int)(ms % 1000 + (ms % 1000 < 0 ? 1000 : 0));
	if ((int64_t)t != sec)
		return false;
	return smq_utc ? gmtime_r(&t, tm) != NULL : localtime_r(&t, tm) != NULL;
}

const char *smq_time(char *buf, size_t len, int64_t ms)
{
	struct tm tm;
	int milli;

	if (!ms || !smq_time_tm(ms, &tm, &milli) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "-");
	return buf;
}

const char *smq_time_iso(char *buf, size_t len, int64_t ms)
{
	struct tm tm;
	char date[32], zone[8];
	int milli;

	if (!smq_time_tm(ms, &tm, &milli) || tm.tm_year < -1900 || tm.tm_year > 9999 - 1900 ||
	    !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm) ||
	    strftime(zone, sizeof(zone), "%z", &tm) != 5) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (smq_utc)	/* "Z"; else the offset as +hh:mm */
		snprintf(buf, len, "%s.%03dZ", date, milli);
	else
		snprintf(buf, len, "%s.%03d%.3s:%s", date, milli, zone, zone + 3);
	return buf;
}

void smq_json_node(struct smq *q, const char *key, const struct topo *t, uint32_t idx)
{
	const struct topo_node *n = &t->nodes[idx];
	int64_t first = 0, last = 0;

	db_node_seen(q->db, n->guid, &first, &last);
	smq_json_open(q, key, '{');
	smq_json_guid(q, "guid", n->guid);
	smq_json_str(q, "type", smq_type_key(n->type));
	smq_json_int(q, "nports", n->nports);
	smq_json_str(q, "description", n->desc);
	smq_json_str(q, "name", n->name);
	smq_json_int(q, "lid", smq_node_lid(n));
	smq_json_guid(q, "sys_guid", n->sys_guid);
	smq_json_int(q, "vendor_id", n->vendor_id);
	smq_json_int(q, "device_id", n->device_id);
	smq_json_int(q, "revision", n->revision);
	if (n->type == MAD_NODE_SWITCH)
		smq_json_bool(q, "enhanced_port0", n->enhanced_port0);
	smq_json_bool(q, "responded", n->responded);
	smq_json_int(q, "first_seen", first);
	smq_json_int(q, "last_seen", last);
	smq_json_close(q, '}');
}

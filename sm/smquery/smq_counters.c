// SPDX-License-Identifier: MIT
/*
 * smq_counters.c - `smquery counters`: what the performance manager stored.
 *
 * Without a node: the newest pass's ports ranked by data rate (the higher of
 * transmit and receive), PortXmitWait rate or error rate (symbol errors, link
 * error recoveries, links downed, receive errors and transmit discards), the
 * top N shown with the remote end of their link.  With NODE PORT: that
 * port's stored history, oldest first.  Rates are per second over each
 * sample's interval; a port's first sample (interval 0) has none.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sm/smquery/smq.h"

enum smq_rank { SMQ_BY_DATA, SMQ_BY_WAIT, SMQ_BY_ERRORS };

static const char *const smq_rank_names[] = { "data", "wait", "errors" };

struct smq_rows {
	struct db_port_row *r;
	size_t n, cap;
};

static int smq_rows_add(void *arg, const struct db_port_row *r)
{
	struct smq_rows *rows = arg;

	if (rows->n == rows->cap) {
		size_t cap = rows->cap ? rows->cap * 2 : 256;
		struct db_port_row *a = realloc(rows->r, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		rows->r = a;
		rows->cap = cap;
	}
	rows->r[rows->n++] = *r;
	return 0;
}

uint64_t smq_errors(const struct db_port_counts *c)
{
	return c->symbol_errors + c->link_error_recovery + c->link_downed + c->rcv_errors +
	       c->xmit_discards;
}

/* @v per second over @r's interval (0 without one). */
static double smq_rate(const struct db_port_row *r, uint64_t v)
{
	return r->interval_ms ? (double)v * 1000.0 / r->interval_ms : 0;
}

static double smq_rank_value(const struct db_port_row *r, enum smq_rank by)
{
	const struct db_port_counts *c = &r->c;

	switch (by) {
	case SMQ_BY_WAIT:
		return smq_rate(r, c->xmit_wait);
	case SMQ_BY_ERRORS:
		return smq_rate(r, smq_errors(c));
	default:
		return smq_rate(r, 4 * (c->xmit_data > c->rcv_data ? c->xmit_data : c->rcv_data));
	}
}

static enum smq_rank smq_sort_by;

static int smq_rank_cmp(const void *a, const void *b)
{
	const struct db_port_row *x = a, *y = b;
	double vx = smq_rank_value(x, smq_sort_by), vy = smq_rank_value(y, smq_sort_by);

	if (vx != vy)
		return vx < vy ? 1 : -1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (int)x->port - (int)y->port;
}

/* The node of @guid in the stored topology, TOPO_NONE when it is not there. */
static uint32_t smq_node_of(const struct topo *t, uint64_t guid)
{
	return t ? topo_find_guid(t, guid) : TOPO_NONE;
}

static void smq_counts_json(struct smq *q, const struct db_port_row *r)
{
	const struct db_port_counts *c = &r->c;

	smq_json_int(q, "interval_ms", r->interval_ms);
	smq_json_int(q, "xmit_bytes", (int64_t)(4 * c->xmit_data));
	smq_json_int(q, "rcv_bytes", (int64_t)(4 * c->rcv_data));
	smq_json_int(q, "xmit_pkts", (int64_t)c->xmit_pkts);
	smq_json_int(q, "rcv_pkts", (int64_t)c->rcv_pkts);
	smq_json_int(q, "xmit_wait", (int64_t)c->xmit_wait);
	smq_json_int(q, "symbol_errors", (int64_t)c->symbol_errors);
	smq_json_int(q, "link_error_recovery", (int64_t)c->link_error_recovery);
	smq_json_int(q, "link_downed", (int64_t)c->link_downed);
	smq_json_int(q, "rcv_errors", (int64_t)c->rcv_errors);
	smq_json_int(q, "xmit_discards", (int64_t)c->xmit_discards);
}

/* "name" of @guid, or its GUID in hex when the topology does not know it. */
static const char *smq_port_name(const struct topo *t, uint64_t guid, char *buf, size_t len)
{
	uint32_t n = smq_node_of(t, guid);

	if (n != TOPO_NONE && t->nodes[n].desc[0])
		return t->nodes[n].desc;
	snprintf(buf, len, "0x%016" PRIx64, guid);
	return buf;
}

static void smq_top_row(struct smq *q, const struct topo *t, const struct db_port_row *r,
			unsigned rank)
{
	uint32_t n = smq_node_of(t, r->guid);
	const struct topo_port *tp = n != TOPO_NONE && r->port <= t->nodes[n].nports ?
				     &t->nodes[n].ports[r->port] : NULL;
	bool linked = tp && tp->peer != TOPO_NONE;
	char a[24], b[24], remote[80] = "-";

	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_guid(q, "guid", r->guid);
		smq_json_str(q, "name", n != TOPO_NONE ? t->nodes[n].desc : NULL);
		smq_json_int(q, "port", r->port);
		if (linked) {
			smq_json_open(q, "remote", '{');
			smq_json_guid(q, "guid", t->nodes[tp->peer].guid);
			smq_json_str(q, "name", t->nodes[tp->peer].desc);
			smq_json_int(q, "port", tp->peer_port);
			smq_json_close(q, '}');
		} else {
			smq_json_null(q, "remote");
		}
		smq_counts_json(q, r);
		smq_json_open(q, "per_s", '{');
		smq_json_int(q, "xmit_bytes", (int64_t)smq_rate(r, 4 * r->c.xmit_data));
		smq_json_int(q, "rcv_bytes", (int64_t)smq_rate(r, 4 * r->c.rcv_data));
		smq_json_int(q, "xmit_wait", (int64_t)smq_rate(r, r->c.xmit_wait));
		smq_json_int(q, "errors", (int64_t)smq_rate(r, smq_errors(&r->c)));
		smq_json_close(q, '}');
		smq_json_close(q, '}');
		return;
	}
	if (linked)
		snprintf(remote, sizeof(remote), "%.60s[%u]",
			 smq_port_name(t, t->nodes[tp->peer].guid, b, sizeof(b)), tp->peer_port);
	fprintf(q->out, "%4u  %-24.24s %4u  %-28.28s %12.1f %12.1f %12.0f %10.1f\n", rank,
		smq_port_name(t, r->guid, a, sizeof(a)), r->port, remote,
		smq_rate(r, 4 * r->c.xmit_data) / 1e6, smq_rate(r, 4 * r->c.rcv_data) / 1e6,
		smq_rate(r, r->c.xmit_wait), smq_rate(r, smq_errors(&r->c)));
}

static int smq_counters_top(struct smq *q, unsigned top, enum smq_rank by)
{
	struct smq_rows rows = { 0 };
	const struct topo *t = smq_topo(q);

	if (!t)
		return SMQ_FAIL;
	if (db_counters_latest_each(q->db, smq_rows_add, &rows)) {
		free(rows.r);
		return smq_fail("%s", db_errmsg(q->db));
	}
	smq_sort_by = by;
	if (rows.n)	/* rows.r is NULL when no pass was stored */
		qsort(rows.r, rows.n, sizeof(*rows.r), smq_rank_cmp);
	size_t show = rows.n < top ? rows.n : top;
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_str(q, "by", smq_rank_names[by]);
		if (rows.n)
			smq_json_int(q, "time", rows.r[0].ts_ms);
		else
			smq_json_null(q, "time");
		smq_json_open(q, "ports", '[');
	} else {
		char when[32];
		fprintf(q->out, "Top %zu ports by %s rate, pass of %s (%zu ports counted something)\n",
			show, smq_rank_names[by], smq_time(when, sizeof(when),
							   rows.n ? rows.r[0].ts_ms : 0), rows.n);
		fprintf(q->out, "%4s  %-24s %4s  %-28s %12s %12s %12s %10s\n", "RANK", "NODE",
			"PORT", "REMOTE", "XMIT_MB/S", "RCV_MB/S", "XMIT_WAIT/S", "ERRORS/S");
	}
	for (size_t i = 0; i < show; i++)
		smq_top_row(q, t, &rows.r[i], (unsigned)i + 1);
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	free(rows.r);
	return SMQ_OK;
}

static int smq_history_row(void *arg, const struct db_port_row *r)
{
	struct smq *q = arg;
	char when[32];

	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_int(q, "time", r->ts_ms);
		smq_counts_json(q, r);
		smq_json_close(q, '}');
		return 0;
	}
	fprintf(q->out, "%-19s %9.1f %14" PRIu64 " %14" PRIu64 " %12" PRIu64 " %8" PRIu64
		" %8" PRIu64 " %6" PRIu64 " %8" PRIu64 " %8" PRIu64 "\n",
		smq_time(when, sizeof(when), r->ts_ms), r->interval_ms / 1000.0,
		4 * r->c.xmit_data, 4 * r->c.rcv_data, r->c.xmit_wait, r->c.symbol_errors,
		r->c.link_error_recovery, r->c.link_downed, r->c.rcv_errors, r->c.xmit_discards);
	return 0;
}

static int smq_counters_port(struct smq *q, const char *name, const char *port_arg)
{
	const struct topo *t = smq_topo(q);
	char *end;

	if (!t)
		return SMQ_FAIL;
	uint32_t n = smq_node_find(t, name);
	if (n == TOPO_NONE)
		return SMQ_FAIL;
	/* an enhanced switch port 0 is sampled too (the management port) */
	unsigned lowest = t->nodes[n].type == MAD_NODE_SWITCH && t->nodes[n].enhanced_port0 ? 0 : 1;
	errno = 0;
	unsigned long port = strtoul(port_arg, &end, 10);
	if (errno || *end || end == port_arg || port < lowest || port > t->nodes[n].nports)
		return smq_usage_error("counters", "%s has ports %u to %u, not '%s'",
				       t->nodes[n].desc, lowest, t->nodes[n].nports, port_arg);
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_guid(q, "guid", t->nodes[n].guid);
		smq_json_str(q, "name", t->nodes[n].desc);
		smq_json_int(q, "port", (int64_t)port);
		smq_json_open(q, "samples", '[');
	} else {
		fprintf(q->out, "%s port %lu (0x%016" PRIx64 "), deltas per sample:\n",
			t->nodes[n].desc, port, t->nodes[n].guid);
		fprintf(q->out, "%-19s %9s %14s %14s %12s %8s %8s %6s %8s %8s\n", "TIME",
			"INTERVAL", "XMIT_BYTES", "RCV_BYTES", "XMIT_WAIT", "SYMBOL", "RECOVER",
			"DOWNED", "RCV_ERR", "DISCARD");
	}
	if (db_counters_history_each(q->db, t->nodes[n].guid, (uint8_t)port, smq_history_row, q))
		return smq_fail("%s", db_errmsg(q->db));
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	return SMQ_OK;
}

int smq_cmd_counters(struct smq *q, int argc, char **argv)
{
	unsigned long top = 10;
	enum smq_rank by = SMQ_BY_DATA;
	int i = 1;

	if (argc == 3 && argv[1][0] != '-')
		return smq_counters_port(q, argv[1], argv[2]);
	for (; i + 1 < argc; i += 2) {
		char *end;
		if (!strcmp(argv[i], "--top")) {
			errno = 0;
			top = strtoul(argv[i + 1], &end, 10);
			if (errno || *end || end == argv[i + 1] || top < 1 || top > 1000000)
				return smq_usage_error(argv[0], "bad --top '%s' (1 to 1000000)",
						       argv[i + 1]);
		} else if (!strcmp(argv[i], "--by")) {
			unsigned k;
			for (k = 0; k < 3 && strcmp(argv[i + 1], smq_rank_names[k]); k++)
				;
			if (k == 3)
				return smq_usage_error(argv[0], "--by takes data, wait or errors, "
						       "not '%s'", argv[i + 1]);
			by = (enum smq_rank)k;
		} else {
			break;
		}
	}
	if (i < argc)
		return smq_usage_error(argv[0], "unexpected '%s'", argv[i]);
	return smq_counters_top(q, (unsigned)top, by);
}

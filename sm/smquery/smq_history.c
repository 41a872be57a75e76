// SPDX-License-Identifier: MIT
/*
 * smq_history.c - what the SM did: events, sweeps, and the status summary.
 * Rows stream from the store straight to the output, oldest first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "mad/model/topo_text.h"
#include "sm/smquery/smq.h"

static int smq_event_row(void *arg, const struct db_event *ev)
{
	struct smq *q = arg;
	char when[32], guid[24] = "-", port[16] = "-", sweep[24] = "-";

	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_int(q, "id", ev->id);
		if (ev->sweep_id)
			smq_json_int(q, "sweep", ev->sweep_id);
		else
			smq_json_null(q, "sweep");
		smq_json_int(q, "time", ev->time_ms);
		smq_json_str(q, "kind", ev->kind);
		if (ev->guid)
			smq_json_guid(q, "guid", ev->guid);
		else
			smq_json_null(q, "guid");
		if (ev->port >= 0)
			smq_json_int(q, "port", ev->port);
		else
			smq_json_null(q, "port");
		smq_json_str(q, "detail", ev->detail);
		smq_json_close(q, '}');
		return 0;
	}
	if (ev->guid)
		snprintf(guid, sizeof(guid), "0x%016" PRIx64, ev->guid);
	if (ev->port >= 0)
		snprintf(port, sizeof(port), "%d", ev->port);
	if (ev->sweep_id)
		snprintf(sweep, sizeof(sweep), "%" PRId64, ev->sweep_id);
	char *detail = strdup(ev->detail ? ev->detail : "");	/* quotes descriptions */
	if (!detail)
		return -ENOMEM;
	topo_text_replace(detail);
	fprintf(q->out, "%6" PRId64 "  %5s  %-19s  %-14s  %-18s  %4s  %s\n", ev->id, sweep,
		smq_time(when, sizeof(when), ev->time_ms), ev->kind, guid, port, detail);
	free(detail);
	return 0;
}

int smq_cmd_events(struct smq *q, int argc, char **argv)
{
	int64_t since = 0;

	if (argc > 1) {
		char *end;

		if (strcmp(argv[1], "--since") || argc != 3)
			return smq_usage_error(argv[0], "unexpected '%s'", argv[1]);
		errno = 0;
		since = strtoll(argv[2], &end, 10);
		if (errno || *end || end == argv[2] || since < 0)
			return smq_usage_error(argv[0], "bad event id '%s'", argv[2]);
	}
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_open(q, "events", '[');
	} else {
		fprintf(q->out, "%6s  %5s  %-19s  %-14s  %-18s  %4s  %s\n", "ID", "SWEEP", "TIME",
			"KIND", "GUID", "PORT", "DETAIL");
	}
	if (db_events_each(q->db, since, smq_event_row, q))
		return smq_fail("%s", db_errmsg(q->db));
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	return SMQ_OK;
}

static void smq_smps_json(struct smq *q, const struct db_smp_counts *c)
{
	smq_json_int(q, "sent", (int64_t)c->sent);
	smq_json_int(q, "lost", (int64_t)c->lost);
	smq_json_int(q, "retried", (int64_t)c->retried);
}

static void smq_sweep_json(struct smq *q, const char *key, const struct db_sweep *sw)
{
	smq_json_open(q, key, '{');
	smq_json_int(q, "id", sw->id);
	smq_json_str(q, "kind", sw->kind);
	smq_json_int(q, "started", sw->started_ms);
	smq_json_int(q, "ended", sw->ended_ms);
	smq_json_str(q, "result", sw->st.result);
	smq_json_int(q, "nodes", sw->nodes);
	smq_json_int(q, "links", sw->links);
	smq_json_int(q, "lft_entries", (int64_t)sw->st.lft_entries);
	smq_json_open(q, "smps", '{');
	smq_json_int(q, "discovery", (int64_t)sw->st.discovery_smps);
	smq_json_int(q, "lid", (int64_t)sw->st.lid_smps);
	smq_json_int(q, "lft", (int64_t)sw->st.lft_smps);
	smq_json_int(q, "activate", (int64_t)sw->st.activate_smps);
	smq_json_int(q, "ar", (int64_t)sw->st.ar_smps);
	smq_smps_json(q, &sw->st.smps);
	smq_json_close(q, '}');
	smq_json_open(q, "ms", '{');
	smq_json_int(q, "discovery", sw->st.discovery_ms);
	smq_json_int(q, "lid", sw->st.lid_ms);
	smq_json_int(q, "routing", sw->st.routing_ms);
	smq_json_int(q, "lft", sw->st.lft_ms);
	smq_json_int(q, "activate", sw->st.activate_ms);
	smq_json_int(q, "store", sw->st.store_ms);
	smq_json_close(q, '}');
	smq_json_close(q, '}');
}

static int smq_sweep_row(void *arg, const struct db_sweep *sw)
{
	struct smq *q = arg;
	char when[32], smps[96], ms[96];

	if (q->json) {
		smq_sweep_json(q, NULL, sw);
		return 0;
	}
	snprintf(smps, sizeof(smps), "%" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64,
		 sw->st.discovery_smps, sw->st.lid_smps, sw->st.lft_smps, sw->st.activate_smps);
	snprintf(ms, sizeof(ms), "%u/%u/%u/%u/%u/%u", sw->st.discovery_ms, sw->st.lid_ms,
		 sw->st.routing_ms, sw->st.lft_ms, sw->st.activate_ms, sw->st.store_ms);
	fprintf(q->out, "%5" PRId64 "  %-5s  %-19s  %8.3f  %6u  %6u  %-23s  %6" PRIu64
		"  %-28s  %s", sw->id, sw->kind, smq_time(when, sizeof(when), sw->started_ms),
		sw->ended_ms ? (double)(sw->ended_ms - sw->started_ms) / 1000 : 0.0, sw->nodes,
		sw->links, smps, sw->st.smps.lost, ms, sw->st.result ? sw->st.result : "-");
	if (!strcmp(sw->kind, "patch"))	/* PortInfo Gets, LFT Sets: entries changed */
		fprintf(q->out, " (%" PRIu64 " LFT entries)", sw->st.lft_entries);
	if (sw->st.ar_smps)	/* of the LFT stage's SMPs */
		fprintf(q->out, " (%" PRIu64 " AR blocks)", sw->st.ar_smps);
	fputc('\n', q->out);
	return 0;
}

static int smq_light_row(void *arg, const struct db_light_interval *li)
{
	struct smq *q = arg;
	char when[32];

	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_int(q, "started", li->started_ms);
		smq_json_int(q, "last", li->last_ms);
		smq_json_int(q, "sweeps", li->sweeps);
		smq_json_int(q, "changed", li->changed);
		smq_json_int(q, "failed", li->failed);
		smq_json_int(q, "changes", (int64_t)li->changes);
		smq_json_int(q, "ms", (int64_t)li->ms);
		smq_json_int(q, "max_ms", li->max_ms);
		smq_json_open(q, "smps", '{');
		smq_smps_json(q, &li->smps);
		smq_json_close(q, '}');
		smq_json_close(q, '}');
		return 0;
	}
	fprintf(q->out, "%-19s  %6u  %7u  %6u  %7" PRIu64 "  %8" PRIu64 "  %6" PRIu64
		"  %6" PRIu64 "  %6u\n", smq_time(when, sizeof(when), li->started_ms), li->sweeps,
		li->changed, li->failed, li->changes, li->smps.sent, li->smps.lost,
		li->sweeps ? li->ms / li->sweeps : 0, li->max_ms);
	return 0;
}

int smq_cmd_sweeps(struct smq *q, int argc, char **argv)
{
	(void)argc, (void)argv;
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_open(q, "sweeps", '[');
	} else {
		fprintf(q->out, "%5s  %-5s  %-19s  %8s  %6s  %6s  %-23s  %6s  %-28s  %s\n", "ID",
			"KIND", "STARTED", "SECONDS", "NODES", "LINKS", "SMPS DISC/LID/LFT/ACT",
			"LOST", "MS DISC/LID/RT/LFT/ACT/STORE", "RESULT");
	}
	if (db_sweeps_each(q->db, smq_sweep_row, q))
		return smq_fail("%s", db_errmsg(q->db));
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_int(q, "light_interval_ms", DB_LIGHT_INTERVAL_MS);
		smq_json_open(q, "light_sweeps", '[');
	} else {
		fprintf(q->out, "\nLight sweeps, per %d s:\n%-19s  %6s  %7s  %6s  %7s  %8s  %6s  %6s"
			"  %6s\n", DB_LIGHT_INTERVAL_MS / 1000, "INTERVAL", "SWEEPS", "CHANGED",
			"FAILED", "CHANGES", "SMPS", "LOST", "AVG MS", "MAX MS");
	}
	if (db_light_each(q->db, smq_light_row, q))
		return smq_fail("%s", db_errmsg(q->db));
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	return SMQ_OK;
}

static int smq_status_row(void *arg, const char *key, const char *value)
{
	struct smq *q = arg;
	char when[40], *end;

	if (!strcmp(key, DB_ST_SUBNET_UP)) {	/* a time in ms: shown in ISO 8601 */
		errno = 0;
		long long ms = strtoll(value, &end, 10);
		if (end != value && !*end && !errno && ms > 0 &&
		    strcmp(smq_time_iso(when, sizeof(when), ms), "-"))
			value = when;	/* else the store's text as it is */
	}
	if (q->json)
		smq_json_str(q, key, value);
	else if (strcmp(key, DB_ST_LAST_SWEEP))	/* already shown in full */
		fprintf(q->out, "%-16s %s\n", key, value);
	return 0;
}

/* Keep the last sweep: copy what smq_sweep_json needs beyond the callback. */
struct smq_last {
	struct db_sweep sw;
	char kind[8];
	char result[256];
};

static int smq_last_sweep(void *arg, const struct db_sweep *sw)
{
	struct smq_last *last = arg;

	last->sw = *sw;
	snprintf(last->kind, sizeof(last->kind), "%s", sw->kind);
	snprintf(last->result, sizeof(last->result), "%s", sw->st.result ? sw->st.result : "");
	last->sw.kind = last->kind;
	last->sw.st.result = last->result;
	return 0;
}

int smq_cmd_status(struct smq *q, int argc, char **argv)
{
	static const struct { const char *key; uint8_t type; } kinds[] = {
		{ "switches", MAD_NODE_SWITCH }, { "cas", MAD_NODE_CA },
		{ "routers", MAD_NODE_ROUTER },
	};
	const struct topo *t = smq_topo(q);
	struct smq_last last = { .sw.id = 0 };
	char when[40];

	(void)argc, (void)argv;
	if (!t || db_sweeps_each(q->db, smq_last_sweep, &last))
		return t ? smq_fail("%s", db_errmsg(q->db)) : SMQ_FAIL;
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_int(q, "schema_version", DB_SCHEMA_VERSION);
		smq_json_open(q, "counts", '{');
		smq_json_int(q, "nodes", t->n);
	} else {
		fprintf(q->out, "%-16s %d\n%-16s %u\n", "schema_version", DB_SCHEMA_VERSION,
			"nodes", t->n);
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		uint32_t n = topo_count_type(t, kinds[k].type);
		if (q->json)
			smq_json_int(q, kinds[k].key, n);
		else
			fprintf(q->out, "%-16s %u\n", kinds[k].key, n);
	}
	if (q->json) {
		smq_json_int(q, "links", (int64_t)topo_count_links(t));
		smq_json_close(q, '}');
		if (last.sw.id)
			smq_sweep_json(q, "last_sweep", &last.sw);
		else
			smq_json_null(q, "last_sweep");
		smq_json_open(q, "status", '{');
	} else {
		fprintf(q->out, "%-16s %zu\n", "links", topo_count_links(t));
		if (last.sw.id)
			fprintf(q->out, "%-16s %" PRId64 " %s %s: %s\n", "last_sweep", last.sw.id,
				last.sw.kind, smq_time_iso(when, sizeof(when), last.sw.started_ms),
				last.sw.st.result);
	}
	if (db_status_each(q->db, smq_status_row, q))
		return smq_fail("%s", db_errmsg(q->db));
	if (q->json) {
		smq_json_close(q, '}');
		smq_json_close(q, '}');
	}
	return SMQ_OK;
}

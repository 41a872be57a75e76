// SPDX-License-Identifier: MIT
/*
 * smq_isolate.c - `smquery isolated` (also `smquery link list`): the links the
 * daemon's isolation policy keeps out of routing (table isolated_links,
 * sm/telemetry/sm_isolate.h), with when and why.  Restoring one is the daemon's job:
 * `smquery link restore` goes to the control socket (smquery.c).  Also marks
 * them in the loaded topology for route-check (smq_check.c).
 */
#include <string.h>

#include "sm/smquery/smq.h"

static int smq_isolated_row(void *arg, const struct db_isolated *l)
{
	struct smq *q = arg;
	const struct topo *t = q->topo_loaded ? &q->topo : NULL;
	char when[32];

	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_guid(q, "guid", l->guid);
		smq_json_int(q, "port", l->port);
		smq_json_str(q, "desc", smq_guid_desc(t, l->guid));
		smq_json_guid(q, "peer_guid", l->peer_guid);
		smq_json_int(q, "peer_port", l->peer_port);
		smq_json_str(q, "peer_desc", smq_guid_desc(t, l->peer_guid));
		smq_json_int(q, "since", l->since_ms);
		smq_json_str(q, "cause", l->cause);
		smq_json_str(q, "reason", l->reason);
		smq_json_close(q, '}');
		return 0;
	}
	char reason[256];
	fprintf(q->out, "0x%016llx %-20.20s %4u  0x%016llx %-20.20s %4u  %-19s  %-6s  %s\n",
		(unsigned long long)l->guid, smq_guid_desc(t, l->guid), l->port,
		(unsigned long long)l->peer_guid, smq_guid_desc(t, l->peer_guid), l->peer_port,
		smq_time(when, sizeof(when), l->since_ms), l->cause,
		smq_text(reason, sizeof(reason), l->reason));
	return 0;
}

int smq_cmd_isolated(struct smq *q, int argc, char **argv)
{
	if (strcmp(argv[0], "link") == 0 && (argc != 2 || strcmp(argv[1], "list")))
		return smq_usage_error(argv[0], "want 'list', or 'restore NODE PORT' with --socket");
	if (!smq_topo(q))
		return SMQ_FAIL;
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_open(q, "isolated", '[');
	} else {
		fprintf(q->out, "%-18s %-20s %4s  %-18s %-20s %4s  %-19s  %-6s  %s\n", "GUID", "DESC",
			"PORT", "PEER GUID", "PEER DESC", "PORT", "SINCE", "CAUSE", "REASON");
	}
	if (db_isolated_each(q->db, smq_isolated_row, q))
		return smq_fail("%s", db_errmsg(q->db));
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	return SMQ_OK;
}

static int smq_isolated_mark_row(void *arg, const struct db_isolated *l)
{
	topo_mark_isolated(arg, l->guid, l->port, l->peer_guid, l->peer_port);
	return 0;	/* a link recabled since is not that link */
}

int smq_isolated_mark(struct smq *q)
{
	if (!smq_topo(q))
		return SMQ_FAIL;
	if (db_isolated_each(q->db, smq_isolated_mark_row, &q->topo))
		return smq_fail("%s", db_errmsg(q->db));
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * smq_cc.c - `smquery cc`: each node's congestion control state as the
 * daemon's last CC pass stored it (table cc_nodes, db_cc.c; a switch at
 * port 0, a CA at each port): whether its agent answered CongestionInfo,
 * whether it holds our CC_Key, the attributes that hold what is wanted,
 * the Sets of that pass sent and refused, the last error; then the totals
 * of Sets since the store began (cc_totals).
 */
#include <string.h>

#include "sm/smquery/smq.h"

/* Counts of the rows by state, for the text's closing line. */
struct smq_cc_sum {
	struct smq *q;
	const struct topo *t;
	unsigned rows, configured, no_agent, key_refused, errors;
};

/* The agent answered CongestionInfo: every state but "no-agent". */
static bool smq_cc_answered(const struct db_cc_node *r)
{
	return strcmp(r->state, "no-agent") != 0;
}

/* Our CC_Key is set: CongestionKeyInfo reads back as wanted. */
static bool smq_cc_key_set(const struct db_cc_node *r)
{
	return strstr(r->configured, "key") != NULL;
}

static void smq_cc_json_row(struct smq *q, const struct topo *t, const struct db_cc_node *r)
{
	smq_json_open(q, NULL, '{');
	smq_json_guid(q, "guid", r->guid);
	smq_json_int(q, "port", r->port);
	smq_json_int(q, "lid", r->lid);
	smq_json_str(q, "type", smq_type_key(r->type));
	smq_json_str(q, "description", smq_guid_desc(t, r->guid));
	smq_json_str(q, "state", r->state);
	smq_json_bool(q, "answered", smq_cc_answered(r));
	smq_json_bool(q, "key_set", smq_cc_key_set(r));
	smq_json_str(q, "configured", r->configured);
	smq_json_int(q, "sent", r->sent);
	smq_json_int(q, "refused", r->refused);
	if (*r->last_error)
		smq_json_str(q, "last_error", r->last_error);
	else
		smq_json_null(q, "last_error");
	smq_json_int(q, "checked", r->checked_ms);
	smq_json_close(q, '}');
}

static int smq_cc_row(void *arg, const struct db_cc_node *r)
{
	struct smq_cc_sum *s = arg;
	char state[16], configured[32], error[128];

	s->rows++;
	s->configured += strcmp(r->state, "configured") == 0;
	s->no_agent += !smq_cc_answered(r);
	s->key_refused += strcmp(r->state, "key-refused") == 0;
	s->errors += strcmp(r->state, "error") == 0;
	if (s->q->json) {
		smq_cc_json_row(s->q, s->t, r);
		return 0;
	}
	fprintf(s->q->out, "0x%016llx %4u %5u %-6s %-20.20s %-11s %-3s %-3s %-12s %5u %7u  %s\n",
		(unsigned long long)r->guid, r->port, r->lid, smq_type_key(r->type),
		smq_guid_desc(s->t, r->guid), smq_text(state, sizeof(state), r->state),
		smq_cc_answered(r) ? "yes" : "no", smq_cc_key_set(r) ? "yes" : "no",
		*r->configured ? smq_text(configured, sizeof(configured), r->configured) : "-",
		r->sent, r->refused, *r->last_error ? smq_text(error, sizeof(error), r->last_error) : "-");
	return 0;
}

int smq_cmd_cc(struct smq *q, int argc, char **argv)
{
	struct smq_cc_sum s = { .q = q };
	uint64_t sent, refused;

	(void)argc;
	(void)argv;
	if (!(s.t = smq_topo(q)))
		return SMQ_FAIL;
	if (db_cc_totals(q->db, &sent, &refused))
		return smq_fail("%s", db_errmsg(q->db));
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_open(q, "totals", '{');
		smq_json_int(q, "sent", (int64_t)sent);
		smq_json_int(q, "refused", (int64_t)refused);
		smq_json_close(q, '}');
		smq_json_open(q, "nodes", '[');
	} else {
		fprintf(q->out, "%-18s %4s %5s %-6s %-20s %-11s %-3s %-3s %-12s %5s %7s  %s\n", "GUID",
			"PORT", "LID", "TYPE", "DESC", "STATE", "CI", "KEY", "CONFIGURED", "SENT",
			"REFUSED", "LAST ERROR");
	}
	if (db_cc_each(q->db, smq_cc_row, &s))
		return smq_fail("%s", db_errmsg(q->db));
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
		return SMQ_OK;
	}
	fprintf(q->out, "%u agents: %u configured, %u no agent, %u key refused, %u errors; "
		"settings since the store began: %llu sent, %llu refused\n", s.rows, s.configured,
		s.no_agent, s.key_refused, s.errors, (unsigned long long)sent,
		(unsigned long long)refused);
	return SMQ_OK;
}

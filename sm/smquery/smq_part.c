// SPDX-License-Identifier: MIT
/*
 * smq_part.c - smquery partitions and smquery mcast: the partitions and the
 * multicast groups as the daemon last stored them (db_part.c).
 *
 * partitions: one line per partition (P_Key, name, IPoIB, MTU, rate, SL, the
 * ports that are members in the last sweep) and its member entries as the
 * partitions file writes them.  mcast: one line per group (MGID, MLID, P_Key,
 * Q_Key, MTU, rate, SL, the switches its tree spans, members) and a line per
 * member (port GUID, JoinState).  --json: the schema in smquery(1).
 */
#include <inttypes.h>
#include <stdio.h>

#include "sm/smquery/smq.h"

struct smq_members {
	struct smq *q;
	unsigned n;
};

static int smq_member_row(void *arg, const struct db_partition_member *m)
{
	struct smq_members *ms = arg;
	struct smq *q = ms->q;
	char who[TOPO_DESC_LEN + 1];

	ms->n++;
	if (!q->json) {	/* a node name: a NodeDescription's bytes */
		fprintf(q->out, "    %-24s %s\n", smq_text(who, sizeof(who), m->member),
			m->full ? "full" : "limited");
		return 0;
	}
	smq_json_open(q, NULL, '{');
	smq_json_str(q, "member", m->member);
	smq_json_str(q, "membership", m->full ? "full" : "limited");
	smq_json_close(q, '}');
	return 0;
}

static int smq_partition_row(void *arg, const struct db_partition *p)
{
	struct smq *q = arg;
	char pkey[8], name[128];

	snprintf(pkey, sizeof(pkey), "0x%04x", p->pkey);
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_str(q, "pkey", pkey);
		smq_json_str(q, "name", p->name);
		smq_json_bool(q, "ipoib", p->ipoib);
		smq_json_str(q, "mtu", p->mtu);
		smq_json_str(q, "rate", p->rate);
		smq_json_int(q, "sl", p->sl);
		smq_json_int(q, "ports", p->ports);
		smq_json_open(q, "members", '[');
	} else {
		fprintf(q->out, "%-6s  %-16s  %-5s  %-5s  %-5s  %2u  %6" PRIu32 "\n", pkey,
			smq_text(name, sizeof(name), p->name),
			p->ipoib ? "yes" : "no", p->mtu ? p->mtu : "-", p->rate ? p->rate : "-",
			p->sl, p->ports);
	}
	struct smq_members ms = { .q = q };
	int rc = db_partition_members_each(q->db, p->pkey, smq_member_row, &ms);
	if (!rc && !ms.n && p->pkey == 0x7fff)	/* the default holds every port, full */
		smq_member_row(&ms, &(struct db_partition_member){ .pkey = p->pkey,
			.member = "all", .full = true });
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	return rc;
}

int smq_cmd_partitions(struct smq *q, int argc, char **argv)
{
	(void)argc, (void)argv;
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_open(q, "partitions", '[');
	} else {
		fprintf(q->out, "%-6s  %-16s  %-5s  %-5s  %-5s  %2s  %6s\n", "PKEY", "NAME", "IPOIB",
			"MTU", "RATE", "SL", "PORTS");
	}
	if (db_partitions_each(q->db, smq_partition_row, q))
		return smq_fail("%s", db_errmsg(q->db));
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	return SMQ_OK;
}

static void smq_join_names(uint8_t join, char *buf, size_t len)
{
	static const char *const names[] = { "full", "non-member", "send-only",
					     "send-only-full" };
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned b = 0; b < 4; b++)
		if ((join & (1u << b)) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
						 names[b]);
}

static int smq_mcast_member_row(void *arg, const struct db_mcast_member *m)
{
	struct smq *q = arg;
	char join[64];

	smq_join_names(m->join_state, join, sizeof(join));
	if (!q->json) {
		fprintf(q->out, "    0x%016" PRIx64 "  %s\n", m->guid, join);
		return 0;
	}
	smq_json_open(q, NULL, '{');
	smq_json_guid(q, "guid", m->guid);
	smq_json_str(q, "join", join);
	smq_json_close(q, '}');
	return 0;
}

static int smq_group_row(void *arg, const struct db_mcast_group *g)
{
	struct smq *q = arg;
	char mlid[8], pkey[8], qkey[12];

	snprintf(mlid, sizeof(mlid), "0x%04x", g->mlid);
	snprintf(pkey, sizeof(pkey), "0x%04x", g->pkey);
	snprintf(qkey, sizeof(qkey), "0x%08" PRIx32, g->qkey);
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_str(q, "mgid", g->mgid);
		smq_json_str(q, "mlid", mlid);
		smq_json_str(q, "pkey", pkey);
		smq_json_str(q, "qkey", qkey);
		smq_json_str(q, "mtu", g->mtu);
		smq_json_str(q, "rate", g->rate);
		smq_json_int(q, "sl", g->sl);
		smq_json_bool(q, "ipoib_broadcast", g->well_known);
		smq_json_int(q, "tree_switches", g->tree_switches);
		smq_json_open(q, "members", '[');
	} else {
		fprintf(q->out, "%-40s  %-6s  %-6s  %-10s  %-5s  %-5s  %2u  %4" PRIu32 "  %7" PRIu32
			"\n", g->mgid, mlid, pkey, qkey, g->mtu ? g->mtu : "-",
			g->rate ? g->rate : "-", g->sl, g->tree_switches, g->members);
	}
	int rc = db_mcast_members_each(q->db, g->mgid, smq_mcast_member_row, q);
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	return rc;
}

int smq_cmd_mcast(struct smq *q, int argc, char **argv)
{
	(void)argc, (void)argv;
	if (q->json) {
		smq_json_open(q, NULL, '{');
		smq_json_open(q, "groups", '[');
	} else {
		fprintf(q->out, "%-40s  %-6s  %-6s  %-10s  %-5s  %-5s  %2s  %4s  %7s\n", "MGID",
			"MLID", "PKEY", "QKEY", "MTU", "RATE", "SL", "TREE", "MEMBERS");
	}
	if (db_mcast_each(q->db, smq_group_row, q))
		return smq_fail("%s", db_errmsg(q->db));
	if (q->json) {
		smq_json_close(q, ']');
		smq_json_close(q, '}');
	}
	return SMQ_OK;
}

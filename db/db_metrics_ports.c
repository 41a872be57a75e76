// SPDX-License-Identifier: MIT
/*
 * db_metrics_ports.c - the port series of the metrics output: every counter
 * PortCounters and PortCountersExtended give (the running totals of
 * port_counter_totals), and what a port is (rate, width, speed, state, the
 * remote end), under the names and labels db_metrics_opts asks for.
 *
 * Names: with DB_METRICS_NAMES_TREYDOCK, those of treydock/infiniband_exporter
 * (its collectors/switch.go and hca.go): infiniband_switch_port_<counter> for
 * switch ports and infiniband_hca_port_<counter> for CA (and router) ports,
 * labelled guid (the port's GUID, as ibnetdiscover --ports prints it: a
 * switch's for all its ports) and port; its info families (switch and HCA
 * info, rate and raw rate, uplink_info with the remote end).  With
 * DB_METRICS_NAMES_IBSMD, infiniband_port_<counter> for every port, labelled
 * with the node's GUID, the port, the node's description and the remote end's.
 * Both add ibsmd_port_info (width, speed, state, physical state).  Counters
 * are as the exporter gives them: data in octets (the PMA's words x 4); but
 * PortXmitWait is the time the port waited, in 4 ns units, whatever the
 * device's tick (sm_perf.c), so that 4e-9 x its rate is the share of time.
 *
 * Data: the nodes (GUID, type, description, LID) and then the ports that are
 * linked or have counters (switch port 0 never: it is no link), read in one
 * query each into arrays; each port's labels are rendered once, into one
 * buffer, and reused by every family.
 *
 * Flow: select the ports (db_metrics_opts.ports), then write the families of
 * each group in the order of the budget (errors, wait, info, data, casts);
 * a family is written whole, or left out when the budget has no room for it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "db/db_metrics_int.h"
#include "mad/model/topo_names.h"
#include "mad/model/topo_rate.h"

#define NONE UINT32_MAX

struct mnode {
	uint64_t guid;
	uint8_t type;		/* MAD_NODE_* */
	uint16_t lid;		/* a switch's (port 0's) */
	char desc[65];
};

struct mport {
	uint32_t node, rnode;	/* into the nodes; rnode NONE: not linked */
	uint64_t port_guid, rport_guid;
	uint8_t port, rport;
	uint8_t state, phys_state, width, speed;
	uint16_t lid, rlid;	/* a CA port's own LID; the remote's (a switch's) */
	bool counted;		/* has running totals */
	bool selected;
	size_t labels, labels_len;	/* into the label buffer: k="v",... */
	struct db_port_counts c;
};

struct mports {
	struct db_metrics *m;
	struct mnode *nodes;
	size_t nnodes, nodes_cap;
	struct mport *ports;
	size_t nports, ports_cap;
	char *labels;
	size_t labels_len, labels_cap;
	bool nomem;
};

/* ---- reading ---- */

/* @n more elements of @size in *@v (capacity *@cap); false when out of memory. */
static bool grow(void **v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? 2 * *cap : 1024;
	void *p = realloc(*v, c * size);
	if (!p)
		return false;
	*v = p;
	*cap = c;
	return true;
}

static void node_row(void *ctx, sqlite3_stmt *st)
{
	struct mports *mp = ctx;

	if (!grow((void **)&mp->nodes, &mp->nodes_cap, mp->nnodes, sizeof(*mp->nodes))) {
		mp->nomem = true;
		return;
	}
	struct mnode *n = &mp->nodes[mp->nnodes++];
	n->guid = db_guid_from_sql(sqlite3_column_int64(st, 0));
	n->type = (uint8_t)sqlite3_column_int(st, 1);
	n->lid = (uint16_t)sqlite3_column_int(st, 3);
	snprintf(n->desc, sizeof(n->desc), "%s", db_col_text(st, 2));
}

static int node_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct mnode *)a)->guid, y = ((const struct mnode *)b)->guid;

	return x < y ? -1 : x > y;
}

/* The node of @guid (the nodes are sorted by it), or NONE. */
static uint32_t node_of(const struct mports *mp, uint64_t guid)
{
	size_t lo = 0, hi = mp->nnodes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (mp->nodes[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < mp->nnodes && mp->nodes[lo].guid == guid ? (uint32_t)lo : NONE;
}

#define COUNTER_COL(name) ", t." #name

/* Columns of port_sql, then the counters. */
enum { P_GUID, P_PORT, P_PORT_GUID, P_STATE, P_PHYS, P_WIDTH, P_SPEED, P_LID, P_PEER,
       P_PEER_PORT, P_PEER_PORT_GUID, P_PEER_LID, P_COUNTED, P_COUNTERS };

static const char port_sql[] =
	"SELECT p.node_guid, p.port_num, p.port_guid, p.state, p.phys_state, p.width, p.speed,"
	" p.lid, p.peer_guid, p.peer_port, r.port_guid, r.lid, t.guid IS NOT NULL"
	DB_PORT_COUNTERS(COUNTER_COL)
	" FROM ports p LEFT JOIN port_counter_totals t ON t.guid = p.node_guid"
	" AND t.port = p.port_num"
	" LEFT JOIN ports r ON r.node_guid = p.peer_guid AND r.port_num = p.peer_port"
	" WHERE p.port_num > 0 AND (p.peer_guid IS NOT NULL OR t.guid IS NOT NULL)"
	" ORDER BY p.node_guid, p.port_num";

static void port_row(void *ctx, sqlite3_stmt *st)
{
	struct mports *mp = ctx;
	uint32_t node = node_of(mp, db_guid_from_sql(sqlite3_column_int64(st, P_GUID)));

	if (node == NONE)
		return;		/* a port row whose node is gone: nothing to name it by */
	if (!grow((void **)&mp->ports, &mp->ports_cap, mp->nports, sizeof(*mp->ports))) {
		mp->nomem = true;
		return;
	}
	struct mport *p = &mp->ports[mp->nports++];
	*p = (struct mport){
		.node = node, .rnode = NONE,
		.port_guid = db_guid_from_sql(sqlite3_column_int64(st, P_PORT_GUID)),
		.port = (uint8_t)sqlite3_column_int(st, P_PORT),
		.state = (uint8_t)sqlite3_column_int(st, P_STATE),
		.phys_state = (uint8_t)sqlite3_column_int(st, P_PHYS),
		.width = (uint8_t)sqlite3_column_int(st, P_WIDTH),
		.speed = (uint8_t)sqlite3_column_int(st, P_SPEED),
		.lid = (uint16_t)sqlite3_column_int(st, P_LID),
		.counted = sqlite3_column_int(st, P_COUNTED) != 0,
	};
	if (sqlite3_column_type(st, P_PEER) != SQLITE_NULL)
		p->rnode = node_of(mp, db_guid_from_sql(sqlite3_column_int64(st, P_PEER)));
	if (p->rnode != NONE) {
		p->rport = (uint8_t)sqlite3_column_int(st, P_PEER_PORT);
		p->rport_guid = db_guid_from_sql(sqlite3_column_int64(st, P_PEER_PORT_GUID));
		p->rlid = mp->nodes[p->rnode].type == MAD_NODE_SWITCH
				  ? mp->nodes[p->rnode].lid
				  : (uint16_t)sqlite3_column_int(st, P_PEER_LID);
	}
	for (unsigned i = 0; p->counted && i < DB_NCOUNTERS; i++)
		p->c.v[i] = db_col_count(st, P_COUNTERS + (int)i);
}

static int mports_read(struct mports *mp)
{
	/* a switch's LID is its port 0's */
	int err = db_metrics_rows(mp->m, "SELECT n.guid, n.type, n.desc, coalesce(p.lid, 0)"
				  " FROM nodes n LEFT JOIN ports p ON p.node_guid = n.guid"
				  " AND p.port_num = 0", node_row, mp);

	if (!err && !mp->nomem) {
		/* by GUID as the unsigned value it is (the store's order is signed) */
		qsort(mp->nodes, mp->nnodes, sizeof(*mp->nodes), node_cmp);
		err = db_metrics_rows(mp->m, port_sql, port_row, mp);
	}
	if (!err && mp->nomem)
		err = db_fail_msg(mp->m->db, -ENOMEM, "%s: out of memory", mp->m->db->path);
	return err;
}

/* ---- selection and labels ---- */

static bool is_switch(const struct mports *mp, const struct mport *p)
{
	return mp->nodes[p->node].type == MAD_NODE_SWITCH;
}

/* The DB_METRICS_* bits a port belongs to. */
static unsigned port_class(const struct mports *mp, const struct mport *p)
{
	if (!is_switch(mp, p))
		return DB_METRICS_CA;
	if (p->rnode == NONE)
		return DB_METRICS_SWITCH_SWITCH | DB_METRICS_SWITCH_CA;
	return mp->nodes[p->rnode].type == MAD_NODE_SWITCH ? DB_METRICS_SWITCH_SWITCH
							   : DB_METRICS_SWITCH_CA;
}

/* Append @s (escaped when @escape) to the label buffer. */
static void labels_put(struct mports *mp, const char *s, bool escape)
{
	size_t need = escape ? 2 * strlen(s) + 1 : strlen(s) + 1;

	if (mp->labels_len + need > mp->labels_cap) {
		size_t cap = mp->labels_cap ? 2 * mp->labels_cap : 1 << 20;
		while (cap < mp->labels_len + need)
			cap *= 2;
		char *b = realloc(mp->labels, cap);
		if (!b) {
			mp->nomem = true;
			return;
		}
		mp->labels = b;
		mp->labels_cap = cap;
	}
	char *d = mp->labels + mp->labels_len;
	mp->labels_len += escape ? db_metrics_escape(d, s) : (size_t)(stpcpy(d, s) - d);
}

/* The labels of @p's series: treydock's guid and port; ibsmd's both ends. */
static void port_labels(struct mports *mp, struct mport *p)
{
	const struct mnode *n = &mp->nodes[p->node];
	char guid[19], num[8];
	bool treydock = mp->m->o->names == DB_METRICS_NAMES_TREYDOCK;

	p->labels = mp->labels_len;
	db_metrics_guid(guid, treydock ? p->port_guid : n->guid);
	snprintf(num, sizeof(num), "%u", p->port);
	labels_put(mp, "guid=\"", false);
	labels_put(mp, guid, false);
	labels_put(mp, "\",port=\"", false);
	labels_put(mp, num, false);
	if (!treydock) {
		bool linked = p->rnode != NONE;
		labels_put(mp, "\",name=\"", false);
		labels_put(mp, n->desc, true);
		db_metrics_guid(guid, linked ? mp->nodes[p->rnode].guid : 0);
		snprintf(num, sizeof(num), "%u", p->rport);
		labels_put(mp, "\",remote_guid=\"", false);
		labels_put(mp, linked ? guid : "", false);
		labels_put(mp, "\",remote_port=\"", false);
		labels_put(mp, linked ? num : "", false);
		labels_put(mp, "\",remote_name=\"", false);
		labels_put(mp, linked ? mp->nodes[p->rnode].desc : "", true);
	}
	labels_put(mp, "\"", false);
	p->labels_len = mp->labels_len - p->labels;
}

static void mports_select(struct mports *mp)
{
	for (size_t i = 0; i < mp->nports; i++) {
		struct mport *p = &mp->ports[i];
		p->selected = port_class(mp, p) & mp->m->o->ports;
		if (p->selected)
			port_labels(mp, p);
	}
}

/* ---- writing ---- */

/* Which ports a family has. */
enum scope {
	ALL,		/* every selected port (DB_METRICS_NAMES_IBSMD) */
	SWITCHES,	/* the selected switch ports */
	CAS,		/* the selected CA and router ports */
};

static bool in_scope(const struct mports *mp, const struct mport *p, enum scope s)
{
	return p->selected && (s == ALL || (s == SWITCHES) == is_switch(mp, p));
}

/* The family's name: infiniband_ + switch_ or hca_ (treydock's) + @suffix. */
static void family_name(char *buf, size_t len, enum scope s, const char *suffix)
{
	snprintf(buf, len, "infiniband_%s%s", s == SWITCHES ? "switch_" : s == CAS ? "hca_" : "",
		 suffix);
}

static void labelled(struct mports *mp, const char *name, const struct mport *p)
{
	struct db_mtext *t = &mp->m->text;

	db_mtext_puts(t, name);
	db_mtext_puts(t, "{");
	db_mtext_put(t, mp->labels + p->labels, p->labels_len);
}

/* One counter, treydock's suffix for it, the factor to its unit, and its help. */
struct counter_family {
	enum db_counter counter;
	unsigned group;
	const char *suffix;
	unsigned scale;
	const char *help;
};

/* In the order of the budget: errors, wait, data, casts (info between wait and data). */
static const struct counter_family counter_families[] = {
	{ DB_COUNTER_symbol_errors, DB_METRICS_ERRORS, "port_symbol_error_total", 1,
	  "Minor link errors detected on the port's physical lanes (SymbolErrorCounter)." },
	{ DB_COUNTER_link_error_recovery, DB_METRICS_ERRORS, "port_link_error_recovery_total", 1,
	  "Times the port's link error recovery completed (LinkErrorRecoveryCounter)." },
	{ DB_COUNTER_link_downed, DB_METRICS_ERRORS, "port_link_downed_total", 1,
	  "Times the port's link failed error recovery and went down (LinkDownedCounter)." },
	{ DB_COUNTER_rcv_errors, DB_METRICS_ERRORS, "port_receive_errors_total", 1,
	  "Packets with an error received on the port (PortRcvErrors)." },
	{ DB_COUNTER_rcv_remote_phys_errors, DB_METRICS_ERRORS,
	  "port_receive_remote_physical_errors_total", 1,
	  "Packets received marked with the EBP delimiter (PortRcvRemotePhysicalErrors)." },
	{ DB_COUNTER_rcv_switch_relay_errors, DB_METRICS_ERRORS,
	  "port_receive_switch_relay_errors_total", 1,
	  "Packets received the switch could not forward (PortRcvSwitchRelayErrors)." },
	{ DB_COUNTER_xmit_discards, DB_METRICS_ERRORS, "port_transmit_discards_total", 1,
	  "Outbound packets discarded: port down or congestion (PortXmitDiscards)." },
	{ DB_COUNTER_xmit_constraint_errors, DB_METRICS_ERRORS,
	  "port_transmit_constraint_errors_total", 1,
	  "Packets not sent for partition or raw constraints (PortXmitConstraintErrors)." },
	{ DB_COUNTER_rcv_constraint_errors, DB_METRICS_ERRORS,
	  "port_receive_constraint_errors_total", 1,
	  "Packets received and dropped for partition or raw constraints "
	  "(PortRcvConstraintErrors)." },
	{ DB_COUNTER_local_link_integrity_errors, DB_METRICS_ERRORS,
	  "port_local_link_integrity_errors_total", 1,
	  "Times local physical errors passed their threshold (LocalLinkIntegrityErrors)." },
	{ DB_COUNTER_excessive_buffer_overrun_errors, DB_METRICS_ERRORS,
	  "port_excessive_buffer_overrun_errors_total", 1,
	  "Times buffer overruns passed their threshold (ExcessiveBufferOverrunErrors)." },
	{ DB_COUNTER_vl15_dropped, DB_METRICS_ERRORS, "port_vl15_dropped_total", 1,
	  "Incoming VL15 (subnet management) packets dropped (VL15Dropped)." },
	{ DB_COUNTER_xmit_wait, DB_METRICS_WAIT, "port_transmit_wait_total", 1,
	  "Time the port had data to send but no credits, in 4 ns units "
	  "(PortXmitWait times its tick)." },
	{ DB_COUNTER_xmit_data, DB_METRICS_DATA, "port_transmit_data_bytes_total", 4,
	  "Octets sent out of the port (PortXmitData x 4)." },
	{ DB_COUNTER_rcv_data, DB_METRICS_DATA, "port_receive_data_bytes_total", 4,
	  "Octets received on the port (PortRcvData x 4)." },
	{ DB_COUNTER_xmit_pkts, DB_METRICS_DATA, "port_transmit_packets_total", 1,
	  "Packets sent out of the port (PortXmitPkts)." },
	{ DB_COUNTER_rcv_pkts, DB_METRICS_DATA, "port_receive_packets_total", 1,
	  "Packets received on the port (PortRcvPkts)." },
	{ DB_COUNTER_unicast_xmit_pkts, DB_METRICS_CASTS, "port_unicast_transmit_packets_total", 1,
	  "Unicast packets sent (PortUnicastXmitPkts)." },
	{ DB_COUNTER_unicast_rcv_pkts, DB_METRICS_CASTS, "port_unicast_receive_packets_total", 1,
	  "Unicast packets received (PortUnicastRcvPkts)." },
	{ DB_COUNTER_multicast_xmit_pkts, DB_METRICS_CASTS,
	  "port_multicast_transmit_packets_total", 1,
	  "Multicast packets sent (PortMulticastXmitPkts)." },
	{ DB_COUNTER_multicast_rcv_pkts, DB_METRICS_CASTS,
	  "port_multicast_receive_packets_total", 1,
	  "Multicast packets received (PortMulticastRcvPkts)." },
};

static void counter_family(struct mports *mp, const struct counter_family *cf, enum scope s)
{
	struct db_mtext *t = &mp->m->text;
	char name[96];
	uint64_t n = 0;

	for (size_t i = 0; i < mp->nports; i++)
		n += in_scope(mp, &mp->ports[i], s) && mp->ports[i].counted;
	if (!n || !db_metrics_fits(mp->m, n))
		return;
	family_name(name, sizeof(name), s, cf->suffix);
	db_metrics_family(mp->m, name, "counter", cf->help);
	for (size_t i = 0; i < mp->nports; i++) {
		const struct mport *p = &mp->ports[i];
		if (!in_scope(mp, p, s) || !p->counted)
			continue;
		uint64_t v = p->c.v[cf->counter];
		labelled(mp, name, p);
		db_mtext_puts(t, "} ");
		db_mtext_u64(t, v > UINT64_MAX / cf->scale ? UINT64_MAX : v * cf->scale);
		db_mtext_puts(t, "\n");
	}
	t->series += n;
}

/* The scopes a family is written for, in order; SWITCHES and CAS stand for
 * treydock's two families, ALL for ibsmd's one. */
static void scopes(const struct mports *mp, enum scope out[2], size_t *n)
{
	if (mp->m->o->names == DB_METRICS_NAMES_TREYDOCK) {
		out[0] = SWITCHES;
		out[1] = CAS;
		*n = 2;
	} else {
		out[0] = ALL;
		*n = 1;
	}
}

static void counter_group(struct mports *mp, unsigned group)
{
	enum scope sc[2];
	size_t nsc;

	if (!(mp->m->o->groups & group))
		return;
	scopes(mp, sc, &nsc);
	for (size_t f = 0; f < sizeof(counter_families) / sizeof(counter_families[0]); f++)
		for (size_t s = 0; counter_families[f].group == group && s < nsc; s++)
			counter_family(mp, &counter_families[f], sc[s]);
}

/* ---- the info group ---- */

/* One info family: which ports have a series (linked ones only, or one per
 * node), its labels (the port's, or only the port's GUID, to which @tail
 * adds), and @tail, which writes the rest of the labels and the value. */
struct info_family {
	const char *name, *help;
	bool linked;		/* only ports with a link now */
	bool guid_only;		/* {guid="<port GUID>", not the port's labels */
	void (*tail)(struct mports *mp, const struct mport *p);
};

static void put_label(struct db_mtext *t, const char *key, const char *value, bool escape)
{
	char esc[2 * 65 + 1];

	db_mtext_puts(t, ",");
	db_mtext_puts(t, key);
	db_mtext_puts(t, "=\"");
	if (escape)
		db_mtext_put(t, esc, db_metrics_escape(esc, value));
	else
		db_mtext_puts(t, value);
	db_mtext_puts(t, "\"");
}

static void tail_rate(struct mports *mp, const struct mport *p)
{
	db_mtext_puts(&mp->m->text, "} ");
	db_mtext_u64(&mp->m->text, (uint64_t)mad_rate_mbps(p->width, p->speed) * 125000);
	db_mtext_puts(&mp->m->text, "\n");
}

static void tail_raw_rate(struct mports *mp, const struct mport *p)
{
	db_mtext_puts(&mp->m->text, "} ");
	db_mtext_u64(&mp->m->text, mad_rate_signal_kbps(p->width, p->speed) * 125);
	db_mtext_puts(&mp->m->text, "\n");
}

/* ibsmd_port_info: width, speed, state and physical state as labels */
static void tail_port_info(struct mports *mp, const struct mport *p)
{
	struct db_mtext *t = &mp->m->text;

	put_label(t, "width", mad_rate_width_name(p->width, MAD_RATE_IBND), false);
	put_label(t, "speed", mad_rate_speed_name(p->speed, MAD_RATE_IBND), false);
	put_label(t, "state", mad_port_state_name(p->state), false);
	put_label(t, "phys_state", mad_phys_state_name(p->phys_state), false);
	db_mtext_puts(t, "} 1\n");
}

/* treydock's uplink_info: switch= or hca= the node, the remote end as
 * uplink, uplink_guid (its port GUID), uplink_type (SW, CA), uplink_port,
 * uplink_lid */
static void tail_uplink(struct mports *mp, const struct mport *p)
{
	struct db_mtext *t = &mp->m->text;
	const struct mnode *r = &mp->nodes[p->rnode];
	char guid[19], num[8];

	put_label(t, is_switch(mp, p) ? "switch" : "hca", mp->nodes[p->node].desc, true);
	put_label(t, "uplink", r->desc, true);
	db_metrics_guid(guid, p->rport_guid);
	put_label(t, "uplink_guid", guid, false);
	put_label(t, "uplink_type", r->type == MAD_NODE_SWITCH ? "SW" : "CA", false);
	snprintf(num, sizeof(num), "%u", p->rport);
	put_label(t, "uplink_port", num, false);
	snprintf(num, sizeof(num), "%u", p->rlid);
	put_label(t, "uplink_lid", num, false);
	db_mtext_puts(t, "} 1\n");
}

/* treydock's switch_info and hca_info: switch= or hca= the node, lid= its
 * LID (a switch's, a CA port's own) */
static void tail_node_info(struct mports *mp, const struct mport *p)
{
	struct db_mtext *t = &mp->m->text;
	char num[8];

	put_label(t, is_switch(mp, p) ? "switch" : "hca", mp->nodes[p->node].desc, true);
	snprintf(num, sizeof(num), "%u", is_switch(mp, p) ? mp->nodes[p->node].lid : p->lid);
	put_label(t, "lid", num, false);
	db_mtext_puts(t, "} 1\n");
}

static const struct info_family port_info = {
	"ibsmd_port_info", "The port's link width, speed, state and physical state: 1.",
	false, false, tail_port_info,
};

static const struct info_family treydock_switch_info[] = {
	{ "infiniband_switch_info", "The switch: its description and LID: 1.",
	  false, true, tail_node_info },
	{ "infiniband_switch_port_rate_bytes_per_second",
	  "The port's data rate: its lanes' rate after line coding.", true, false, tail_rate },
	{ "infiniband_switch_port_raw_rate_bytes_per_second", "The port's signalling rate.",
	  true, false, tail_raw_rate },
	{ "infiniband_switch_uplink_info", "The remote end of the switch port's link: 1.",
	  true, false, tail_uplink },
};

static const struct info_family treydock_hca_info[] = {
	{ "infiniband_hca_info", "The HCA port: its node's description and its LID: 1.",
	  false, true, tail_node_info },
	{ "infiniband_hca_rate_bytes_per_second",
	  "The port's data rate: its lanes' rate after line coding.", true, true, tail_rate },
	{ "infiniband_hca_raw_rate_bytes_per_second", "The port's signalling rate.",
	  true, true, tail_raw_rate },
	{ "infiniband_hca_uplink_info", "The remote end of the HCA port's link: 1.",
	  true, false, tail_uplink },
};

static const struct info_family ibsmd_rates[] = {
	{ "infiniband_port_rate_bytes_per_second",
	  "The port's data rate: its lanes' rate after line coding.", true, false, tail_rate },
	{ "infiniband_port_raw_rate_bytes_per_second", "The port's signalling rate.",
	  true, false, tail_raw_rate },
};

/* Does the port @i get a series of @f in scope @s?  A switch's
 * infiniband_switch_info goes with its first port in scope (the ports are by
 * node). */
static bool info_has(const struct mports *mp, const struct info_family *f, size_t i,
		     enum scope s)
{
	const struct mport *p = &mp->ports[i];

	if (!in_scope(mp, p, s) || (f->linked && p->rnode == NONE))
		return false;
	if (f->tail != tail_node_info || !is_switch(mp, p))
		return true;
	for (size_t j = i; j-- > 0 && mp->ports[j].node == p->node;)
		if (in_scope(mp, &mp->ports[j], s))
			return false;
	return true;
}

static void info_family(struct mports *mp, const struct info_family *f, enum scope s)
{
	struct db_mtext *t = &mp->m->text;
	uint64_t n = 0;
	char guid[19];

	for (size_t i = 0; i < mp->nports; i++)
		n += info_has(mp, f, i, s);
	if (!n || !db_metrics_fits(mp->m, n))
		return;
	db_metrics_family(mp->m, f->name, "gauge", f->help);
	for (size_t i = 0; i < mp->nports; i++) {
		const struct mport *p = &mp->ports[i];
		if (!info_has(mp, f, i, s))
			continue;
		if (f->guid_only) {
			db_metrics_guid(guid, p->port_guid);
			db_mtext_puts(t, f->name);
			db_mtext_puts(t, "{guid=\"");
			db_mtext_puts(t, guid);
			db_mtext_puts(t, "\"");
		} else {
			labelled(mp, f->name, p);
		}
		f->tail(mp, p);
	}
	t->series += n;
}

static void info_families(struct mports *mp, const struct info_family *f, size_t n,
			  enum scope s)
{
	for (size_t i = 0; i < n; i++)
		info_family(mp, &f[i], s);
}

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void info_group(struct mports *mp)
{
	if (!(mp->m->o->groups & DB_METRICS_INFO))
		return;
	info_family(mp, &port_info, ALL);
	if (mp->m->o->names == DB_METRICS_NAMES_IBSMD) {
		info_families(mp, ibsmd_rates, NELEM(ibsmd_rates), ALL);
	} else {
		info_families(mp, treydock_switch_info, NELEM(treydock_switch_info), SWITCHES);
		info_families(mp, treydock_hca_info, NELEM(treydock_hca_info), CAS);
	}
}

int db_metrics_ports(struct db_metrics *m)
{
	struct mports mp = { .m = m };
	int err = mports_read(&mp);

	if (!err) {
		mports_select(&mp);
		if (mp.nomem)
			err = db_fail_msg(m->db, -ENOMEM, "%s: out of memory", m->db->path);
	}
	if (!err) {
		counter_group(&mp, DB_METRICS_ERRORS);
		counter_group(&mp, DB_METRICS_WAIT);
		info_group(&mp);
		counter_group(&mp, DB_METRICS_DATA);
		counter_group(&mp, DB_METRICS_CASTS);
	}
	free(mp.nodes);
	free(mp.ports);
	free(mp.labels);
	return err;
}

/* SPDX-License-Identifier: MIT */
/*
 * smq.h - what the files of smquery share: the query context, the command
 * table entry, JSON and text output helpers, node naming.
 *
 * smquery.c parses the command line, opens the store read-only and runs one
 * command from the table; each smq_<group>.c implements a group of commands
 * and prints text or, with --json, one JSON document (schema in smquery.1).
 */
#ifndef IBSMD_SM_SMQ_H
#define IBSMD_SM_SMQ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "db/db.h"
#include "mad/model/topo.h"

/* Exit codes */
#define SMQ_OK 0
#define SMQ_FAIL 1	/* the query could not be answered: unknown node, store error */
#define SMQ_USAGE 2	/* bad command line */

#define SMQ_JSON_DEPTH 16

struct smq {
	struct db *db;
	FILE *out;
	bool json;
	bool html;		/* JSON strings go into a page: <, >, & escaped */
	bool topo_loaded;
	struct topo topo;	/* the stored topology, loaded on first use */
	struct smq_lids *lids;	/* its LID index, built on first use */
	/* JSON writer: nesting depth and whether the current level has members */
	int depth;
	bool has_member[SMQ_JSON_DEPTH];
};

/*
 * The LIDs of the stored topology: which node and port answers each one (a
 * switch on port 0, a CA or router port on every LID of base .. base+2^LMC-1).
 * @top is the highest of them: the LinearFDBTop ibsmd programs into every
 * switch (IBA 14.2.5.4), and so the last LFT entry that matters.
 */
struct smq_lids {
	uint16_t top;
	uint32_t *node;		/* [top + 1]: node index, TOPO_NONE for a free LID */
	uint8_t *port;		/* [top + 1]: port number */
};

struct smq_cmd {
	const char *name;
	const char *args;	/* for usage: "NODE", "[--since ID]" */
	int min_args, max_args;	/* operands after the command name */
	int (*run)(struct smq *q, int argc, char **argv);	/* argv[0] is the command */
	const char *help;
};

/* Print "smquery: <message>" on stderr; returns SMQ_FAIL. */
int smq_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print a usage error about command @name on stderr; returns SMQ_USAGE. */
/* A port's errors as `smquery counters --by errors` counts them: symbol
 * errors, link error recoveries, links downed, receive errors, transmit
 * discards (smq_counters.c). */
struct db_port_counts;
uint64_t smq_errors(const struct db_port_counts *c);
int smq_usage_error(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The stored topology (loaded once), or NULL after printing why. */
const struct topo *smq_topo(struct smq *q);

/*
 * The index in @t of the node named @name: a GUID ("0x..." or bare hex, node
 * or port GUID), a LID (decimal) or an exact node description.  Prints why on
 * stderr and returns TOPO_NONE when there is none or the description is
 * ambiguous (the candidates are listed).
 */
uint32_t smq_node_find(const struct topo *t, const char *name);

/*
 * The same, and in *@port the port @name names: the port a port GUID or a LID
 * belongs to (0 on a switch), else 0.
 */
uint32_t smq_port_find(const struct topo *t, const char *name, unsigned *port);

/* The description of node @guid in @t (NULL: none loaded), or "?". */
const char *smq_guid_desc(const struct topo *t, uint64_t guid);

/* The LID index of the stored topology (built once), or NULL after printing why. */
const struct smq_lids *smq_lids(struct smq *q);

/* Free a LID index (NULL is fine). */
void smq_lids_free(struct smq_lids *l);

/*
 * The LFT entries 0 .. lids->top of switch @sw as the daemon last programmed
 * them (0xff where it stored none), in a buffer the caller frees; *@found is
 * the number of blocks stored (0: the switch was never programmed).  NULL
 * after printing why on a store error.
 */
uint8_t *smq_lft_load(struct smq *q, uint32_t sw, int *found);

/* The LID a node answers on: a switch's port 0, else its first port with a LID. */
uint16_t smq_node_lid(const struct topo_node *n);

/* "switch", "ca", "router" (JSON) */
const char *smq_type_key(uint8_t type);

/* Local time "YYYY-MM-DD HH:MM:SS" of @ms into @buf (>= 20 bytes); "-" for 0. */
const char *smq_time(char *buf, size_t len, int64_t ms);

/* @s made terminal-safe as below, in @buf of @len bytes (cut to fit): a
 * string from the store for a text column.  Returns @buf. */
const char *smq_text(char *buf, size_t len, const char *s);

/* topo_text_replace() on every node's description and name: each control
 * character (TAB included), bidi control, line separator and byte of no valid
 * UTF-8 sequence one '?', so a text column holds its width and its order. */
void smq_text_safe_topo(struct topo *t);

/* ---- JSON writer: one document on q->out; @key is NULL inside arrays ---- */
void smq_json_open(struct smq *q, const char *key, char bracket);	/* '{' or '[' */
/* The separator and key of a new member, whose value the caller writes. */
void smq_json_member(struct smq *q, const char *key);
void smq_json_close(struct smq *q, char bracket);			/* '}' or ']' */
void smq_json_str(struct smq *q, const char *key, const char *val);	/* NULL: null */
void smq_json_int(struct smq *q, const char *key, int64_t val);
void smq_json_bool(struct smq *q, const char *key, bool val);
void smq_json_null(struct smq *q, const char *key);
void smq_json_guid(struct smq *q, const char *key, uint64_t guid);	/* "0x%016x" */

/* A node as a JSON object (the "node object" of smquery.1), without ports. */
void smq_json_node(struct smq *q, const char *key, const struct topo *t, uint32_t idx);

/* Times: smq_time() above and smq_time_iso() are in local time (TZ), or in
 * UTC after smq_time_utc(true) (smquery --utc).  smq_time_iso(): ISO 8601 with
 * milliseconds and the zone, "2026-01-01T01:00:00.250+01:00" or
 * "2026-01-01T00:00:00.250Z", into @buf (>= 32 bytes); "-" for a time the
 * calendar cannot show (years past 9999). */
void smq_time_utc(bool utc);
const char *smq_time_iso(char *buf, size_t len, int64_t ms);

/* The tier of a node that is not a switch, or of a switch no leaf reaches. */
#define SMQ_NO_TIER UINT16_MAX

/*
 * The tier of every node of @t into @tier[t->n] (smq_tiers.c: leaves, the
 * switches with CAs, are 0, every other switch its hops from the nearest
 * leaf) and the highest in *@height.  0 or -ENOMEM.
 */
int smq_tiers(const struct topo *t, uint16_t *tier, uint16_t *height);

/* `topology --format dot`: the stored fabric as a Graphviz graph (smq_dot.c). */
int smq_topology_dot(struct smq *q, const struct topo *t);

/* Commands, by group */
int smq_cmd_nodes(struct smq *q, int argc, char **argv);
int smq_cmd_links(struct smq *q, int argc, char **argv);
int smq_cmd_ports(struct smq *q, int argc, char **argv);
int smq_cmd_topology(struct smq *q, int argc, char **argv);
int smq_cmd_events(struct smq *q, int argc, char **argv);
int smq_cmd_sweeps(struct smq *q, int argc, char **argv);
int smq_cmd_status(struct smq *q, int argc, char **argv);
int smq_cmd_metrics(struct smq *q, int argc, char **argv);
int smq_cmd_lft(struct smq *q, int argc, char **argv);
int smq_cmd_route(struct smq *q, int argc, char **argv);
int smq_cmd_dump_opensm(struct smq *q, int argc, char **argv);
int smq_cmd_partitions(struct smq *q, int argc, char **argv);
int smq_cmd_mcast(struct smq *q, int argc, char **argv);
int smq_cmd_counters(struct smq *q, int argc, char **argv);
int smq_cmd_map(struct smq *q, int argc, char **argv);
int smq_cmd_isolated(struct smq *q, int argc, char **argv);
int smq_cmd_cc(struct smq *q, int argc, char **argv);
/* Mark the stored isolated links in q->topo (topo_port.isolated), so a routing
 * view of it leaves them out as the daemon's did.  0, or SMQ_FAIL after saying
 * why. */
int smq_isolated_mark(struct smq *q);

#endif

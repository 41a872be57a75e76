// SPDX-License-Identifier: MIT
/*
 * smquery.c - the command-line client of the ibsmd store.
 *
 *	smquery [--db PATH | --socket PATH] [--json] COMMAND [ARGS]
 *
 * Parses the options, opens the store read-only (the daemon may be writing:
 * WAL gives us a consistent snapshot), finds COMMAND in smq_cmds[] and runs
 * it.  To add a command: write smq_cmd_<name>() in the smq_<group>.c it
 * belongs to, add a row below, and document it and its JSON in smquery.1.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sm/smquery/smq.h"
#include "sm/smquery/smq_ctl.h"
#include "sm/smquery/smq_check.h"
#include "sm/smquery/smq_job.h"
#include "sm/smquery/smq_job_check.h"


static const struct smq_cmd smq_cmds[] = {
	{ "nodes", "", 0, 0, smq_cmd_nodes, "every node" },
	{ "switches", "", 0, 0, smq_cmd_nodes, "the switches" },
	{ "cas", "", 0, 0, smq_cmd_nodes, "the channel adapters" },
	{ "links", "", 0, 0, smq_cmd_links, "every link, once" },
	{ "ports", "NODE", 1, 1, smq_cmd_ports, "the ports of NODE" },
	{ "topology", "[--format ibnetdiscover|dot]", 0, 2, smq_cmd_topology,
	  "the fabric in ibnetdiscover's format, or Graphviz" },
	{ "events", "[--since ID]", 0, 2, smq_cmd_events, "what happened, oldest first" },
	{ "sweeps", "", 0, 0, smq_cmd_sweeps, "every recorded sweep, light sweeps per minute" },
	{ "metrics", "[--names N] [--ports LIST] [--counters LIST] [--max-series N]", 0, 8,
	  smq_cmd_metrics, "the store's figures for Prometheus" },
	{ "counters", "[--top N] [--by data|wait|errors] | NODE PORT", 0, 4, smq_cmd_counters,
	  "the busiest ports of the last counter pass, or one port's history" },
	{ "status", "", 0, 0, smq_cmd_status, "the SM and the fabric in short" },
	{ "lft", "SWITCH", 1, 1, smq_cmd_lft, "the switch's LFT in ibroute's format" },
	{ "route", "SRC DST", 2, 2, smq_cmd_route, "the path from SRC to DST's LID, hop by hop" },
	{ "partitions", "", 0, 0, smq_cmd_partitions, "partitions, their members and ports" },
	{ "mcast", "", 0, 0, smq_cmd_mcast, "multicast groups, their members and tree size" },
	{ "route-check", "[--pairings N] [--seed S] [--engine NAME [--option K=V]...] "
	  "[--traffic shift|random|alltoall|bitrev] [--job NAME]", 0, 40,
	  smq_cmd_route_check,
	  "how good the stored LFTs are: reachability, loops, load, contention, EBB" },
	{ "map", "[-o FILE] [--by data|errors] [--scale absolute|relative]", 0, 6, smq_cmd_map,
	  "the fabric as one HTML page: tiers, links, what is broken, search, routes" },
	{ "dump-opensm", "DIR", 1, 1, smq_cmd_dump_opensm,
	  "OpenSM's subnet.lst, fdbs, mcfdbs in DIR (for ibdmchk); path SLs and SL2VL too "
	  "when routes use SLs" },
	{ "jobs", "", 0, 0, smq_cmd_jobs, "the jobs the routes are shaped for (stored)" },
	{ "rails", "", 0, 0, smq_cmd_rails,
	  "rail validation: every node's HCA i on a leaf of rail i" },
	{ "isolated", "", 0, 0, smq_cmd_isolated,
	  "the links kept out of routing by the isolation policy, and why" },
	{ "link", "list", 1, 1, smq_cmd_isolated, "the same as isolated" },
	{ "cc", "", 0, 0, smq_cmd_cc,
	  "congestion control: each node's state after the last CC pass, the Sets in total" },
};

#define SMQ_NCMDS (sizeof(smq_cmds) / sizeof(smq_cmds[0]))

int smq_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("smquery: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return SMQ_FAIL;
}

static const struct smq_cmd *smq_cmd_find(const char *name)
{
	for (size_t i = 0; i < SMQ_NCMDS; i++)
		if (!strcmp(smq_cmds[i].name, name))
			return &smq_cmds[i];
	return NULL;
}

int smq_usage_error(const char *name, const char *fmt, ...)
{
	const struct smq_cmd *cmd = smq_cmd_find(name);
	va_list ap;

	fprintf(stderr, "smquery: %s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (usage: smquery %s%s%s)\n", name, cmd && *cmd->args ? " " : "",
		cmd ? cmd->args : "");
	return SMQ_USAGE;
}

/* One command of the help: its name, its arguments (on a line of their own,
 * the description below, when they are longer than the column) and what it
 * does.  tests/man_help.sh reads these columns. */
static void smq_help_command(FILE *f, const char *name, const char *args, const char *help)
{
	if (strlen(args) <= 13)
		fprintf(f, "  %-11s %-13s %s\n", name, args, help);
	else
		fprintf(f, "  %-11s %s\n  %-11s %-13s %s\n", name, args, "", "", help);
}

static void smq_help(FILE *f)
{
	fprintf(f, "usage: smquery [--db PATH | --socket PATH] [--json] [--utc] COMMAND [ARGS]\n"
		"  --db PATH      the ibsmd database (default %s)\n"
		"  --socket PATH  the running ibsmd's control socket (default %s)\n"
		"  --json         one JSON document instead of text (schema: smquery(1))\n"
		"  --utc          times in UTC (default: local time; status: ISO 8601 with the zone)\n"
		"  --help         the options and commands (this list)\n"
		"  --version      the version\n"
		"commands:\n", IBSMD_DB_PATH, IBSMD_SOCKET_PATH);
	for (size_t i = 0; i < SMQ_NCMDS; i++)
		smq_help_command(f, smq_cmds[i].name, smq_cmds[i].args, smq_cmds[i].help);
	smq_help_command(f, "resweep", "",
			 "ask the running ibsmd for a heavy sweep (control socket)");
	smq_help_command(f, "sm-status", "",
			 "the running ibsmd's state (control socket; also 'status' with --socket)");
	smq_help_command(f, "link", "restore NODE PORT",
			 "give an isolated link back to routing (control socket)");
	smq_help_command(f, "job", "start NAME --hosts LIST [--pattern P] [--order FILE]",
			 "routes shaped for a job's pattern (control socket)");
	smq_help_command(f, "job", "end NAME | list",
			 "the job's entries back to the base routes; the running jobs");
	fprintf(f, "NODE, SWITCH, SRC, DST: a GUID (0x... or hex), a LID (decimal) or a node "
		"description\n");
}

const struct topo *smq_topo(struct smq *q)
{
	if (q->topo_loaded)
		return &q->topo;
	int err = db_load_topology(q->db, &q->topo);
	if (err) {
		smq_fail("%s", db_errmsg(q->db));
		return NULL;
	}
	q->topo_loaded = true;
	if (!q->json)	/* descriptions are the devices' bytes: keep the terminal's state */
		smq_text_safe_topo(&q->topo);
	return &q->topo;
}

static int smq_run(const char *path, bool json, int argc, char **argv)
{
	const struct smq_cmd *cmd = smq_cmd_find(argv[0]);
	struct smq q = { .out = stdout, .json = json };
	char err[512];

	if (!cmd) {
		fprintf(stderr, "smquery: unknown command '%s' (smquery --help lists them)\n",
			argv[0]);
		return SMQ_USAGE;
	}
	if (argc - 1 < cmd->min_args || argc - 1 > cmd->max_args)
		return smq_usage_error(cmd->name, "%s operands",
				       argc - 1 < cmd->min_args ? "missing" : "too many");
	if (db_open(path, DB_READONLY, &q.db, err, sizeof(err)))
		return smq_fail("%s", err);
	int rc = cmd->run(&q, argc, argv);
	smq_lids_free(q.lids);
	if (q.topo_loaded)
		topo_free(&q.topo);
	db_close(q.db);
	if (fflush(stdout) || ferror(stdout))
		return smq_fail("writing the output failed");
	return rc;
}

/* link restore NODE PORT: to the daemon, which knows the fabric's names. */
static int smq_link_restore(const char *socket_path, bool json, int argc, char **argv)
{
	char line[128], *end;

	if (argc != 4)
		return smq_usage_error("link", "want: link restore NODE PORT");
	unsigned long port = strtoul(argv[3], &end, 10);
	if (!*argv[3] || *end || port < 1 || port > 254)
		return smq_usage_error("link", "bad port '%s' (1..254)", argv[3]);
	if (!*argv[2] || strpbrk(argv[2], "\r\n") ||
	    (size_t)snprintf(line, sizeof(line), "link restore %s %lu", argv[2], port) >=
		    sizeof(line) - 6)
		return smq_usage_error("link", "bad node '%s'", argv[2]);
	return smq_ctl_ask(socket_path, line, json);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "socket", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "utc", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = IBSMD_DB_PATH;
	const char *socket_path = IBSMD_SOCKET_PATH;
	bool json = false, socket_given = false;
	int c;

	while ((c = getopt_long(argc, argv, "+d:s:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			path = optarg;
			break;
		case 's':
			socket_path = optarg;
			socket_given = true;
			break;
		case 'j':
			json = true;
			break;
		case 'u':
			smq_time_utc(true);
			break;
		case 'h':
			smq_help(stdout);
			return SMQ_OK;
		case 'V':
			printf("smquery (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return SMQ_OK;
		default:
			smq_help(stderr);
			return SMQ_USAGE;
		}
	}
	if (optind >= argc) {
		smq_help(stderr);
		return SMQ_USAGE;
	}
	/* commands for the running daemon, not the store ("status" too when
	 * --socket names the daemon) */
	const char *cmd = argv[optind];
	if (strcmp(cmd, "resweep") == 0 || strcmp(cmd, "sm-status") == 0 ||
	    (socket_given && strcmp(cmd, "status") == 0)) {
		if (argc - optind > 1)
			return smq_usage_error(cmd, "too many operands");
		return smq_ctl_ask(socket_path, strcmp(cmd, "resweep") == 0 ? "resweep" : "status",
				   json);
	}
	if (strcmp(cmd, "link") == 0 && argc - optind >= 2 && strcmp(argv[optind + 1], "restore") == 0)
		return smq_link_restore(socket_path, json, argc - optind, argv + optind);
	if (strcmp(cmd, "job") == 0)
		return smq_job(socket_path, json, argc - optind, argv + optind);
	if (socket_given)
		return smq_fail("%s reads the store, not the daemon: use --db PATH", argv[optind]);
	return smq_run(path, json, argc - optind, argv + optind);
}

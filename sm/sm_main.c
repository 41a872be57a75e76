// SPDX-License-Identifier: MIT
/*
 * sm_main.c - ibsmd: command line, start-up, the event loop, shutdown.
 *
 * Start-up reads the configuration (defaults < ibsmd.yaml < command line) and
 * opens the store.  With --once it opens the port, runs one heavy sweep and
 * exits with its result; otherwise sm_daemon.c serves the fabric until
 * SIGTERM/SIGINT (SIGHUP re-reads the configuration through reload_config()).
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "sm/cc/sm_cc.h"
#include "sm/core/sm.h"
#include "sm/osm/sm_osm_guid2lid.h"
#include "sm/osm/sm_osm_import.h"
#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_qos.h"
#include "sm/sm_daemon.h"
#include "sm/util/sm_log.h"
#include "sm/sm_life.h"
#include "sm/sm_metrics.h"
#include "sm/sweep/sm_sweep.h"

#define DEFAULT_CONFIG SYSCONFDIR "/ibsmd/ibsmd.yaml"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ibsmd [-c FILE] [--backend umad[:CA[:PORT]] | --backend sim:TOPOFILE]\n"
		"             [--db PATH] [--routing ENGINE[,ENGINE...]] [--once]\n"
		"             [--control-socket PATH] [--foreground] [--check-config [-v]]\n"
		"             [--log-level LEVEL] [--priority 0..15] [--port LIST]\n"
		"             [--version] [--help]\n"
		"       ibsmd --import-opensm FILE [--import-opensm FILE]\n"
		"\n"
		"  -c, --config FILE    configuration (default %s)\n"
		"  -b, --backend SPEC   where the fabric is: umad (first active port),\n"
		"                       umad:CA, umad:CA:PORT, or sim:TOPOFILE\n"
		"  -d, --db PATH        the SQLite store (default %s)\n"
		"  -r, --routing LIST   routing engine chain, e.g. ftree,updn,minhop\n"
		"  -s, --control-socket PATH  the control socket (\"\": none)\n"
		"  -o, --once           bring the subnet up once and exit (0: it is up)\n"
		"  -f, --foreground     log to stderr as well when log.file is set\n"
		"      --check-config   check the configuration (syntax and meaning) and exit\n"
		"  -v, --verbose        with --check-config: print the effective configuration\n"
		"  -l, --log-level LVL  error, warning, notice, info or debug\n"
		"  -p, --priority N     SMInfo priority 0..15 (the highest SM is master)\n"
		"  -P, --port LIST      local ports the SM may run on, first preferred:\n"
		"                       DEVICE:PORT or port GUID, comma-separated (it moves\n"
		"                       to the next when one fails)\n"
		"      --import-opensm FILE  print OpenSM's opensm.conf FILE as an ibsmd.yaml\n"
		"                       (keys without a counterpart listed at its end), or its\n"
		"                       qos-policy.conf as the QoS policy qos_policy names\n"
		"                       (twice: the policy and the opensm.conf of its qos_*\n"
		"                       tables), and exit\n"
		"  -V, --version        print the version and exit\n"
		"  -h, --help           print this help and exit\n"
		"\n"
		"ibsmd never forks: it runs in the foreground until stopped, as systemd's\n"
		"Type=notify expects.  Signals: SIGHUP re-reads the configuration, SIGUSR1\n"
		"reopens the log file, SIGTERM and SIGINT stop the daemon.\n",
		DEFAULT_CONFIG, IBSMD_DB_PATH);
}

struct cli {
	const char *config;
	bool config_given;
	const char *backend, *db, *routing, *log_level, *socket, *priority, *port;
	const char *import_opensm[2];
	size_t nimport;
	bool once, foreground, check_config, verbose;
};

static int parse_args(int argc, char **argv, struct cli *cli)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "backend", required_argument, NULL, 'b' },
		{ "db", required_argument, NULL, 'd' },
		{ "routing", required_argument, NULL, 'r' },
		{ "control-socket", required_argument, NULL, 's' },
		{ "once", no_argument, NULL, 'o' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "check-config", no_argument, NULL, 'C' },
		{ "import-opensm", required_argument, NULL, 'I' },
		{ "log-level", required_argument, NULL, 'l' },
		{ "priority", required_argument, NULL, 'p' },
		{ "port", required_argument, NULL, 'P' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	cli->config = DEFAULT_CONFIG;
	while ((c = getopt_long(argc, argv, "c:b:d:r:s:ofl:p:P:vVh", opts, NULL)) != -1) {
		switch (c) {
		case 'c': cli->config = optarg; cli->config_given = true; break;
		case 'b': cli->backend = optarg; break;
		case 'd': cli->db = optarg; break;
		case 'r': cli->routing = optarg; break;
		case 's': cli->socket = optarg; break;
		case 'o': cli->once = true; break;
		case 'f': cli->foreground = true; break;
		case 'C': cli->check_config = true; break;
		case 'I':
			if (cli->nimport == 2) {
				fprintf(stderr, "ibsmd: --import-opensm at most twice (a "
					"qos-policy.conf and an opensm.conf)\n");
				return -EINVAL;
			}
			cli->import_opensm[cli->nimport++] = optarg;
			break;
		case 'l': cli->log_level = optarg; break;
		case 'p': cli->priority = optarg; break;
		case 'P': cli->port = optarg; break;
		case 'v': cli->verbose = true; break;
		case 'V': printf("ibsmd %s\n", PACKAGE_VERSION); exit(0);
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ibsmd: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return -EINVAL;
	}
	return 0;
}

/* defaults < file < command line; the reason in @err on failure */
static int build_config(const struct cli *cli, struct sm_config *cfg, char *err, size_t errlen)
{
	char why[512];

	sm_config_defaults(cfg);
	if ((cli->config_given || access(cli->config, F_OK) == 0) &&
	    sm_config_load(cfg, cli->config, err, errlen))
		return -EINVAL;
	/* each option goes through the file's own key, with the same checks */
	const struct { const char *key, *opt, *val; } opts[] = {
		{ "backend", "--backend", cli->backend },
		{ "db", "--db", cli->db },
		{ "socket", "--control-socket", cli->socket },
		{ "routing", "--routing", cli->routing },
		{ "log.level", "--log-level", cli->log_level },
		{ "sm_priority", "--priority", cli->priority },
		{ "port", "--port", cli->port },
	};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (opts[i].val && sm_config_set(cfg, opts[i].key, opts[i].val, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", opts[i].opt, why);
			return -EINVAL;
		}
	}
	return sm_config_check_files(cfg, cli->config, err, errlen) ? -EINVAL : 0;
}

/* --check-config: the partitions file must load as the daemon would load it. */
static int check_partitions(const struct sm_config *cfg, char *err, size_t errlen)
{
	struct sm_partitions ps;
	char why[SM_PATH_LEN + 64];

	if (!cfg->partitions_file[0])
		return 0;
	if (sm_partitions_load(cfg->partitions_file, &ps, why, sizeof(why))) {
		snprintf(err, errlen, "partitions: %s", why);
		return -EINVAL;
	}
	sm_partitions_free(&ps);
	return 0;
}

/* --check-config: the QoS policy file must read as the start would read it. */
static int check_qos(const struct sm_config *cfg, char *err, size_t errlen)
{
	struct sm_qos_policy q;
	char why[512];

	if (!cfg->qos_policy_file[0])
		return 0;
	if (sm_qos_policy_load(cfg->qos_policy_file, &q, why, sizeof(why))) {
		snprintf(err, errlen, "qos_policy: %s", why);
		return -EINVAL;
	}
	sm_qos_policy_free(&q);
	return 0;
}

/* --check-config: OpenSM's guid2lid file must read as the start would read it. */
static int check_guid2lid(const struct sm_config *cfg, char *err, size_t errlen)
{
	struct sm_osm_lid *e = NULL;
	char why[SM_PATH_LEN + 128];
	size_t n;

	if (!cfg->guid2lid_file[0])
		return 0;
	if (sm_osm_guid2lid_read(cfg->guid2lid_file, &e, &n, why, sizeof(why))) {
		snprintf(err, errlen, "guid2lid: %s", why);
		return -EINVAL;
	}
	free(e);
	return 0;
}

/* SIGHUP: the same sources again. */
static int reload_config(void *ctx, struct sm_config *out, char *err, size_t errlen)
{
	return build_config(ctx, out, err, errlen);
}

/* Static: a worker left running at exit (sm_offload) may still read it. */
static struct sm sm;

int main(int argc, char **argv)
{
	struct cli cli = { 0 };
	char err[1024];

	sm_daemon_block_signals();	/* before any thread: see sm_daemon.h */
	/* A sweep's big tables (LFT rows, routing and store work) are made and
	 * freed on several threads: a fixed threshold gives the large ones back
	 * to the system when freed, where glibc's sliding one would keep them
	 * in a thread's heap (18 MB more at the peak of a 27k-host sweep). */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	if (parse_args(argc, argv, &cli))
		return 2;
	if (cli.nimport)	/* a conversion: no configuration is read */
		return sm_osm_import(cli.import_opensm, cli.nimport, stdout, stderr);
	if (build_config(&cli, &sm.cfg, err, sizeof(err))) {
		fprintf(stderr, "ibsmd: %s\n", err);
		return 2;
	}
	/* the file that gave a secret, if others may read it: a warning */
	const char *file = cli.config_given || access(cli.config, F_OK) == 0 ? cli.config : NULL;
	char open_file[sizeof(err)] = "";
	if (sm_config_check_private(&sm.cfg, file, err, sizeof(err)))
		snprintf(open_file, sizeof(open_file), "%s", err);
	if (cli.check_config) {
		const char *src = file ? file : "built-in defaults";
		if (sm_config_check(&sm.cfg, err, sizeof(err)) ||
		    check_partitions(&sm.cfg, err, sizeof(err)) ||
		    check_qos(&sm.cfg, err, sizeof(err)) ||
		    check_guid2lid(&sm.cfg, err, sizeof(err))) {
			fprintf(stderr, "ibsmd: %s: %s\n", src, err);
			return 2;
		}
		if (open_file[0])
			fprintf(stderr, "ibsmd: warning: %s\n", open_file);
		if (cli.verbose)
			return sm_config_write(&sm.cfg, stdout) ? 1 : 0;
		printf("%s: configuration OK\n", src);
		return 0;
	}
	if (sm_log_open(sm.cfg.log_file[0] ? sm.cfg.log_file : NULL, sm.cfg.log_level,
			cli.foreground || cli.once || !sm.cfg.log_file[0])) {
		fprintf(stderr, "ibsmd: cannot open log %s: %s\n", sm.cfg.log_file, strerror(errno));
		return 1;
	}
	sm_notice("ibsmd %s starting: backend %s, store %s", PACKAGE_VERSION, sm.cfg.backend,
		  sm.cfg.db_path);
	if (open_file[0])
		sm_warn("%s", open_file);
	int rc;
	if (cli.once) {
		rc = sm_open(&sm);
		if (rc == 0)
			rc = sm_sweep_heavy(&sm);
		if (rc == 0 && sm.cfg.cc_enable)	/* after the subnet is up */
			rc = sm_cc_pass(&sm, NULL);
		sm_metrics_write(&sm, true);	/* the file, if set, before exiting */
		sm_metrics_flush(&sm);
	} else {
		rc = sm_open_store(&sm);
		if (rc == 0)
			rc = sm_daemon_run(&sm, reload_config, &cli);
	}
	sm_close(&sm);
	if (!sm.abandoned)	/* else a worker may still log: exit closes it */
		sm_log_close();
	return rc ? 1 : 0;
}

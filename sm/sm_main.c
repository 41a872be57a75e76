// SPDX-License-Identifier: MIT
/*
 * sm_main.c - ibsmd: command line, start-up, the event loop, shutdown.
 *
 * Start-up reads the configuration (defaults < ibsmd.yaml < command line), opens
 * the store, the transport and the rpc layer, then runs a heavy sweep.  With
 * --once it exits with the sweep's result; otherwise it loops: MADs from the
 * fabric (traps, requests to the SM) are handled as they come, and a sweep
 * runs when one is due.  SIGTERM/SIGINT stop it cleanly; SIGHUP asks for a
 * heavy sweep.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "sm/sm.h"
#include "sm/sm_ctl.h"
#include "sm/sm_log.h"

#define DEFAULT_CONFIG SYSCONFDIR "/ibsmd/ibsmd.yaml"

static volatile sig_atomic_t stop_requested, resweep_requested;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		resweep_requested = 1;
	else
		stop_requested = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ibsmd [-c FILE] [--backend umad[:CA[:PORT]] | --backend sim:TOPOFILE]\n"
		"             [--db PATH] [--routing ENGINE[,ENGINE...]] [--once]\n"
		"             [--foreground] [--check-config] [--log-level LEVEL]\n"
		"\n"
		"  -c, --config FILE    configuration (default %s)\n"
		"  -b, --backend SPEC   where the fabric is: umad (first active port),\n"
		"                       umad:CA, umad:CA:PORT, or sim:TOPOFILE\n"
		"  -d, --db PATH        the SQLite store\n"
		"  -r, --routing LIST   routing engine chain, e.g. ftree,updn,minhop\n"
		"  -o, --once           bring the subnet up once and exit (0: it is up)\n"
		"  -f, --foreground     stay in the foreground, log to stderr\n"
		"      --check-config   validate the configuration and exit\n"
		"  -l, --log-level LVL  error, warning, notice, info or debug\n"
		"  -V, --version        print the version and exit\n",
		DEFAULT_CONFIG);
}

struct cli {
	const char *config;
	bool config_given;
	const char *backend, *db, *routing, *log_level;
	bool once, foreground, check_config;
};

static int parse_args(int argc, char **argv, struct cli *cli)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "backend", required_argument, NULL, 'b' },
		{ "db", required_argument, NULL, 'd' },
		{ "routing", required_argument, NULL, 'r' },
		{ "once", no_argument, NULL, 'o' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "check-config", no_argument, NULL, 'C' },
		{ "log-level", required_argument, NULL, 'l' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	cli->config = DEFAULT_CONFIG;
	while ((c = getopt_long(argc, argv, "c:b:d:r:ofl:Vh", opts, NULL)) != -1) {
		switch (c) {
		case 'c': cli->config = optarg; cli->config_given = true; break;
		case 'b': cli->backend = optarg; break;
		case 'd': cli->db = optarg; break;
		case 'r': cli->routing = optarg; break;
		case 'o': cli->once = true; break;
		case 'f': cli->foreground = true; break;
		case 'C': cli->check_config = true; break;
		case 'l': cli->log_level = optarg; break;
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

/* @value of option --@name into @dst, refused (never cut short) when too long. */
static int set_path(char *dst, size_t size, const char *name, const char *value)
{
	if (strlen(value) >= size) {
		fprintf(stderr, "ibsmd: --%s: %zu characters, at most %zu\n", name, strlen(value),
			size - 1);
		return -ENAMETOOLONG;
	}
	snprintf(dst, size, "%s", value);
	return 0;
}

/* defaults < file < command line */
static int build_config(const struct cli *cli, struct sm_config *cfg)
{
	char err[512];

	sm_config_defaults(cfg);
	if (cli->config_given || access(cli->config, F_OK) == 0) {
		if (sm_config_load(cfg, cli->config, err, sizeof(err))) {
			fprintf(stderr, "ibsmd: %s\n", err);
			return -EINVAL;
		}
	}
	if ((cli->backend && set_path(cfg->backend, sizeof(cfg->backend), "backend", cli->backend)) ||
	    (cli->db && set_path(cfg->db_path, sizeof(cfg->db_path), "db", cli->db)))
		return -EINVAL;
	if (cli->routing && sm_config_set_routing(cfg, cli->routing, err, sizeof(err))) {
		fprintf(stderr, "ibsmd: --routing: %s\n", err);
		return -EINVAL;
	}
	if (cli->log_level && (cfg->log_level = sm_log_level_parse(cli->log_level)) < 0) {
		fprintf(stderr, "ibsmd: --log-level: '%s' is not one of error, warning, notice, "
			"info, debug\n", cli->log_level);
		return -EINVAL;
	}
	return 0;
}

/*
 * Serve the fabric until asked to stop.  A light sweep runs every
 * sweep_interval seconds; a heavy one when a light sweep, a trap or SIGHUP asks
 * for it.  A heavy sweep that fails is retried after 1, 2, 4... seconds, up to
 * the sweep interval, so a broken fabric is never hammered.  The control
 * socket (sm_ctl.c) is served between MADs.
 */
static void run_loop(struct sm *sm)
{
	time_t next_light = time(NULL) + (time_t)sm->cfg.sweep_interval_s;
	time_t next_heavy = 0, backoff = 1;
	int ctl = sm->cfg.socket_path[0] ? sm_ctl_open(sm->cfg.socket_path) : -1;

	while (!stop_requested) {
		int rc = mad_rpc_poll(sm->rpc, 200);
		if (rc < 0 && rc != -EINTR) {
			sm_err("the transport failed: %s", strerror(-rc));
			break;
		}
		sm_ctl_serve(sm, ctl);
		time_t now = time(NULL);
		if (sm->cfg.sweep_interval_s && now >= next_light) {
			next_light = now + (time_t)sm->cfg.sweep_interval_s;
			if (!sm->resweep) {
				rc = sm_sweep_light(sm);
				if (rc < 0)
					sm_err("light sweep failed: %s", strerror(-rc));
				sm->resweep = rc != 0;
			}
		}
		if (resweep_requested)
			sm->resweep = true;
		if (sm->resweep && now >= next_heavy) {
			resweep_requested = 0;
			sm->resweep = false;
			if (sm_sweep_heavy(sm) == 0) {
				backoff = 1;
				continue;
			}
			/* retry, less and less often, up to once per sweep interval */
			sm->resweep = true;
			next_heavy = now + backoff;
			if (backoff < (time_t)sm->cfg.sweep_interval_s)
				backoff *= 2;
		}
	}
	sm_ctl_close(ctl, sm->cfg.socket_path);
	sm_notice("stopping");
}

int main(int argc, char **argv)
{
	struct cli cli = { 0 };
	struct sm sm = { 0 };

	if (parse_args(argc, argv, &cli) || build_config(&cli, &sm.cfg))
		return 2;
	if (cli.check_config) {
		printf("%s: configuration OK\n", cli.config_given || access(cli.config, F_OK) == 0
		       ? cli.config : "built-in defaults");
		return 0;
	}
	if (sm_log_open(sm.cfg.log_file[0] ? sm.cfg.log_file : NULL, sm.cfg.log_level,
			cli.foreground || cli.once || !sm.cfg.log_file[0])) {
		fprintf(stderr, "ibsmd: cannot open log %s: %s\n", sm.cfg.log_file, strerror(errno));
		return 1;
	}
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	sm_notice("ibsmd %s starting: backend %s, store %s", PACKAGE_VERSION, sm.cfg.backend,
		  sm.cfg.db_path);
	int rc = sm_open(&sm);
	if (rc == 0 && cli.once) {
		rc = sm_sweep_heavy(&sm);
	} else if (rc == 0) {
		/* a daemon keeps at it: a first sweep that fails is retried */
		sm.resweep = true;
		run_loop(&sm);
	}
	sm_close(&sm);
	sm_log_close();
	return rc ? 1 : 0;
}

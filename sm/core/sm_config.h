/* SPDX-License-Identifier: MIT */
/*
 * sm_config.h - ibsmd.yaml: what the daemon is told to do.
 *
 * Defaults first, then the YAML file, then the command line: each later source
 * overrides the earlier.  Every key is one row of a table in sm_config.c (name,
 * type, range, default, where it lives here, whether SIGHUP applies it live),
 * and parsing, printing, checking and diffing all walk that table.  Unknown
 * keys, duplicate keys and values of the wrong type are errors with the file's
 * name, line and column, so a typo never passes silently.
 *
 * Adding a key: a member below, one row in sm_config.c's table, a paragraph in
 * sm/ibsmd.yaml.5 (a test checks every row is documented there).
 */
#ifndef IBSMD_SM_CONFIG_H
#define IBSMD_SM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define SM_MAX_ENGINES 8
#define SM_MAX_ROUTING_OPTIONS 16
#define SM_MAX_PORTS 8		/* local ports the SM may run on */
#define SM_PORT_NAME_LEN 72	/* "DEVICE:PORT" */
#define SM_PATH_LEN 512
#define SM_CONFIG_MAX_FILE_BYTES (1 << 20)	/* a larger ibsmd.yaml is refused */

struct sm_config {
	char backend[SM_PATH_LEN];	/* "umad[:CA[:PORT]]" or "sim:FILE" */
	/* local ports ("DEVICE:PORT" or "0xGUID") the SM runs on, the first one up preferred;
	 * none: the port the backend picks (sm_daemon.c moves between them) */
	char ports[SM_MAX_PORTS][SM_PORT_NAME_LEN];
	unsigned nports;
	uint8_t port_failback;		/* 1: back to a preferred port once it is ACTIVE */
	uint32_t port_dwell_s;		/* on a port at least this long before a failback */
	char db_path[SM_PATH_LEN];
	char log_file[SM_PATH_LEN];	/* "" = stderr */
	char socket_path[SM_PATH_LEN];	/* control socket, "" = none */
	int log_level;			/* syslog priority */
	/* engine chain: built-in names, plugin names or plugin paths */
	char routing[SM_MAX_ENGINES][SM_PATH_LEN];
	unsigned nrouting;
	/* "key=value" options handed to every engine (root=GUID, file=PATH...) */
	char routing_options[SM_MAX_ROUTING_OPTIONS][SM_PATH_LEN];
	unsigned nrouting_options;
	unsigned plugin_timeout_s;	/* a plugin engine's time budget per run */
	uint32_t plugin_memory_mb;	/* address space it may add; 0 = no bound */
	unsigned window;		/* SMPs in flight */
	unsigned smps_per_node;		/* of which to one node */
	unsigned timeout_ms;
	unsigned retries;
	unsigned sweep_interval_s;	/* light sweeps; 0 = traps only */
	uint8_t lmc;
	uint8_t sm_priority;		/* 0..15 */
	uint64_t sm_key;		/* SMInfo SM_Key (IBA 14.4.1) */
	unsigned ha_poll_interval_ms;	/* STANDBY: how often the master is polled */
	unsigned ha_poll_retries;	/* unanswered polls before it is lost */
	unsigned ha_standby_sweeps;	/* 1: a STANDBY keeps light sweeps */
	uint64_t subnet_prefix;
	/* link timers and thresholds written to every port (IBA 14.2.5.4/6) */
	uint8_t hoq_life;		/* switch ports to switches (HOQLife) */
	uint8_t hoq_life_leaf;		/* switch ports to CAs and routers */
	uint8_t vl_stall_count;		/* switch ports */
	uint8_t subnet_timeout;		/* CA and router ports, switch port 0 */
	uint8_t local_phy_errors;	/* LocalPhyErrors threshold, data ports */
	uint8_t overrun_errors;		/* OverrunErrors threshold, data ports */
	uint8_t life_time;		/* SwitchInfo LifeTimeValue */
	/* 1: ports whose enabled widths/speeds are narrower than supported get
	 * "all supported" (255/15/31) written; 0: left as found */
	uint8_t enable_all_supported;
	char metrics_file[SM_PATH_LEN];	/* Prometheus textfile, "" = none */
	/* the metrics' shape: db_metrics_*_words */
	char metrics_names[16];
	char metrics_ports[3][16];
	unsigned nmetrics_ports;
	char metrics_counters[5][16];
	unsigned nmetrics_counters;
	uint64_t metrics_max_series;	/* 0 = no bound */
	char metrics_listen[64];	/* HTTP /metrics: "ADDRESS:PORT", "PORT", "" = none */
	char partitions_file[SM_PATH_LEN];	/* partitions (sm_pkey.h), "" = default only */
	char guid2lid_file[SM_PATH_LEN];	/* OpenSM's LID cache: seeds an empty LID
						 * map (sm_osm_guid2lid.h), "" = none */
	char qos_policy_file[SM_PATH_LEN];	/* QoS policy (sm_qos.h), "" = no QoS */
	uint32_t trap_max_per_s;	/* traps taken a second from one source port */
	uint32_t trap_holddown_s;	/* then ignored for this long (sm_trap_limit.h) */
	uint32_t retention_events;	/* events kept in the store, 0 = all */
	uint32_t retention_sweeps;	/* heavy sweeps, and light-sweep minutes, kept */
	/* M_Key (sm_mkey.h): 0 with no secret = off */
	uint64_t mkey_key;		/* every port's key when no secret is set */
	char mkey_secret[128];		/* per-port keys derived from it; "" = none */
	uint8_t mkey_protect;		/* M_KeyProtectBits, 0..3 */
	uint16_t mkey_lease_s;		/* M_KeyLeasePeriod, 0 = never expires */
	/* bad-link isolation (sm_isolate.h): counts within a window; 0 = not judged */
	uint32_t iso_window_s;
	uint32_t iso_symbol_errors;	/* SymbolErrorCounter increments */
	uint32_t iso_link_error_recovery;	/* LinkErrorRecoveryCounter */
	uint32_t iso_link_downed;	/* LinkDownedCounter */
	uint32_t iso_flaps;		/* downs the SM saw itself */
	uint8_t iso_auto_restore;	/* 1: back after a clean window */
	uint32_t iso_max_links;		/* isolated at once, at most */
	/* congestion-aware rebalancing (sm_rebalance.h) */
	uint8_t rebalance_enable;
	uint8_t rebalance_hot_pct;	/* a port this busy (% of its link) is hot */
	uint8_t rebalance_cool_pct;	/* an alternative at most this busy is cool */
	uint32_t rebalance_moves_per_hour;	/* LFT entries moved, at most */
	/* the performance manager (sm_perf.h) */
	uint32_t perf_interval_s;	/* between sampling passes, 0 = off */
	uint32_t perf_retention_s;	/* port counter history kept */
	uint32_t perf_history_mb;	/* and at most this much of it, 0 = no bound */
	/* congestion control (sm/cc/; the textual forms: sm_cc_want.h) */
	uint8_t cc_enable;
	uint64_t cc_key;
	uint8_t cc_key_protect;
	uint16_t cc_key_lease_s;
	uint32_t cc_max_outstanding;	/* CC MADs in flight at once */
	uint32_t cc_sw_control_map;
	char cc_sw_victim_mask[72];
	char cc_sw_credit_mask[72];
	uint8_t cc_sw_threshold;
	uint8_t cc_sw_packet_size;
	uint8_t cc_sw_cs_threshold;
	char cc_sw_cs_return_delay[16];
	uint16_t cc_sw_marking_rate;
	uint16_t cc_ca_port_control;
	uint16_t cc_ca_control_map;
	char cc_ca_ccti_timer[256];
	char cc_ca_ccti_increase[256];
	char cc_ca_trigger_threshold[256];
	char cc_ca_ccti_min[256];
	char cc_cct[2048];
};

/* Fill @c with the built-in defaults (the table's). */
void sm_config_defaults(struct sm_config *c);

/*
 * Read @path into @c (over what it holds).  0, or -errno with
 * "FILE:LINE:COLUMN: reason" in @err: -ENOENT for a missing file, -EINVAL for
 * a bad one.  @c is unchanged on error.
 */
int sm_config_load(struct sm_config *c, const char *path, char *err, size_t errlen);

/* The same from an open stream; @name is used in messages. */
int sm_config_parse(struct sm_config *c, FILE *in, const char *name, char *err,
		    size_t errlen);

/*
 * Set key @key ("backend", "sweep.window"...) from the text @value, as the
 * command line gives it: the same checks as in the file; a list key takes
 * "a,b,c".  0, or -EINVAL with "KEY: reason" in @err (@c unchanged).
 */
int sm_config_set(struct sm_config *c, const char *key, const char *value, char *err,
		  size_t errlen);

/* Parse "a,b,c" into the routing chain: sm_config_set(c, "routing", ...). */
int sm_config_set_routing(struct sm_config *c, const char *list, char *err, size_t errlen);

/* What a set secret key (sm_key, mkey.key, mkey.secret) prints as; the
 * reader refuses it ("redacted value: give the real key"). */
#define SM_CONFIG_REDACTED "<redacted>"

/*
 * Print @c to @out in ibsmd.yaml's own syntax, every key, in the table's order:
 * what `ibsmd --check-config -v` shows.  A secret key prints as
 * SM_CONFIG_REDACTED when set (its comment says whether it is), never its
 * value.  Reading it back gives @c again, once the secrets are given again.
 * 0 or -EIO.
 */
int sm_config_write(const struct sm_config *c, FILE *out);

/*
 * What the file's syntax cannot tell: every routing engine is built in or a
 * plugin file that exists; every routing option is read by an engine of the
 * chain, and its GUID or GUID file reads (rt_options_check()); the backend
 * spec is well formed (and a sim
 * topology file exists); the log file's directory exists; db, socket and
 * log.file are three different files.  0, or -EINVAL with the first problem
 * in @err.  Looks at the file system, opens nothing.
 */
int sm_config_check(const struct sm_config *c, char *err, size_t errlen);

/* The same-file checks of sm_config_check() only (the store, socket, log and
 * metrics files are distinct), and none of them is @config_path (may be
 * NULL): the daemon runs them at start and on SIGHUP, so a file it writes can
 * never be one it must not touch.  A missing directory is left to the file's
 * own user (a metrics file that cannot be written is a warning).  0 or
 * -EINVAL. */
int sm_config_check_files(const struct sm_config *c, const char *config_path, char *err,
			  size_t errlen);

/* @c holds a secret (sm_key, mkey.key, mkey.secret: only the file sets them)
 * and the file @path (may be NULL) is readable by others: -EACCES with
 * "KEY: set in PATH, which every user may read..." in @err, which the daemon
 * and --check-config print as a warning.  0 otherwise. */
int sm_config_check_private(const struct sm_config *c, const char *path, char *err,
			    size_t errlen);

/* How a changed key takes effect on SIGHUP. */
enum sm_config_apply {
	SM_APPLY_RESTART,	/* only after a restart: the running value stays */
	SM_APPLY_LIVE,		/* at once */
	SM_APPLY_REROUTE,	/* at once, and the fabric is routed again */
};

struct sm_config_change {
	const char *key;	/* "sweep.interval": static, for the log */
	enum sm_config_apply apply;
};

/*
 * The keys whose values differ between @old and @new, in the table's order,
 * the first @max of them into @out.  Returns how many differ (may exceed @max).
 */
int sm_config_diff(const struct sm_config *old, const struct sm_config *new,
		   struct sm_config_change *out, size_t max);

/*
 * Copy into @running the keys of @new that change live (SM_APPLY_LIVE and
 * SM_APPLY_REROUTE); the keys that need a restart keep their running values.
 * What SIGHUP does once @new is read and checked.
 */
void sm_config_apply_live(struct sm_config *running, const struct sm_config *new);

/*
 * "routing, sweep.interval": the keys of @ch[0..n-1] that are live (@live) or
 * that need a restart (!@live; SM_APPLY_REROUTE counts as live), for the log.
 * Returns how many were listed.
 */
int sm_config_change_names(const struct sm_config_change *ch, size_t n, bool live,
			   char *buf, size_t len);

/* The table's key names, in order, for documentation tests: NULL past the end. */
const char *sm_config_key_name(size_t i);
/* The index of key @name in that order, SIZE_MAX when there is none; how many. */
size_t sm_config_key_index(const char *name);
size_t sm_config_nkeys(void);
/* Key @i's default, as the command line would give it; NULL past the end. */
const char *sm_config_key_default(size_t i);

/*
 * Print the keys whose @notes[i] is not NULL (i: the key's index), in the
 * table's order and ibsmd.yaml's syntax, each under "# NOTE" and with its
 * value in full, a secret's too: what `ibsmd --import-opensm` writes, a file
 * to install.  0 or -EIO.
 */
int sm_config_write_keys(const struct sm_config *c, FILE *out, const char *const *notes);

#endif

// SPDX-License-Identifier: MIT
/*
 * sm_config.c - ibsmd.yaml: one table of keys, and what walks it.
 *
 * Each row of `keys` names a key ("sweep.window": the dot is a nested
 * mapping), its type and range, its default (as the command line would write
 * it), where it lives in struct sm_config, how SIGHUP applies a change, and a
 * line of documentation.  The YAML reader (libyaml's document API), the
 * command-line setter, the printer, the defaults and the diff all go through
 * the table, so a new key is one row.  Parsing works on a copy, which replaces
 * the caller's configuration only when the whole file is good.
 *
 * Numbers are decimal or 0x hex.  A leading zero ("024") is an error, never
 * octal: a value that means 20 to YAML 1.1 and 24 to a reader is refused.
 *
 * Secret keys (SM_Key, M_Key and its secret) are never printed nor echoed in
 * an error: the printer writes SM_CONFIG_REDACTED for a set one, which the
 * reader refuses, so a printed configuration fed back cannot silently run
 * with the secret unset.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#include "db/db.h"
#include "mad/mad_transport.h"
#include "mad/model/topo_text.h"
#include "routing/rt.h"
#include "routing/rt_sandbox.h"
#include "sm/core/sm_cc_want.h"
#include "sm/core/sm_config.h"
#include "sm/util/sm_addr.h"
#include "sm/util/sm_file.h"
#include "sm/util/sm_log.h"
#include "sm/util/sm_yaml.h"

enum key_type {
	K_STR,		/* char[size]; min 1: must not be empty */
	K_UINT,		/* unsigned of @size bytes, min..max, printed in decimal */
	K_HEX,		/* the same, printed in hex */
	K_LEVEL,	/* int, a log level name */
	K_LIST,		/* char[max][size] with an unsigned count; min..max entries */
};

struct key {
	const char *name;
	enum key_type type;
	uint64_t min, max;
	size_t offset, size;
	size_t count;			/* K_LIST: offset of the entry count */
	bool key_value;			/* K_LIST: entries are "key=value" */
	bool local_port;		/* K_LIST: entries name local ports, each once */
	const char *const *words;	/* K_STR, K_LIST: one of these (each once), or NULL */
	unsigned file;			/* K_STR naming a file: KF_* */
	bool secret;			/* never printed nor echoed (SM_CONFIG_REDACTED) */
	int (*check)(const char *s, char *why, size_t len);	/* K_STR: its form */
	enum sm_config_apply apply;
	const char *def;		/* default, as text ("a,b" for a list) */
	const char *doc;		/* one line, printed by sm_config_write() */
};

/* --check-config: every KF_FILE key names its own file; a KF_DIR key's
 * directory exists (the daemon creates the file there). */
enum { KF_FILE = 1, KF_DIR = 2 };

#define STR_(x) #x
#define STR(x) STR_(x)
#define MEMBER(m) .offset = offsetof(struct sm_config, m), \
	.size = sizeof(((struct sm_config *)0)->m)
#define LIST(m, n) .offset = offsetof(struct sm_config, m), \
	.size = sizeof(((struct sm_config *)0)->m[0]), .count = offsetof(struct sm_config, n)

/* Rows sharing a prefix ("log.", "sweep.") must be next to each other. */
static const struct key keys[] = {
	{ "backend", K_STR, .min = 1, MEMBER(backend), .apply = SM_APPLY_RESTART,
	  .def = "umad", .doc = "umad, umad:CA, umad:CA:PORT or sim:TOPOFILE" },
	{ "port", K_LIST, .max = SM_MAX_PORTS, LIST(ports, nports), .local_port = true,
	  .apply = SM_APPLY_RESTART, .def = "",
	  .doc = "DEVICE:PORT or port GUIDs the SM may run on, first preferred (none: the backend's)" },
	{ "port_failback", K_UINT, .max = 1, MEMBER(port_failback), .apply = SM_APPLY_LIVE,
	  .def = "0", .doc = "1: move back to a preferred port once it is ACTIVE again" },
	{ "port_dwell", K_UINT, .min = 1, .max = 86400, MEMBER(port_dwell_s),
	  .apply = SM_APPLY_LIVE, .def = "60", .doc = "seconds on a port before a failback" },
	{ "db", K_STR, .min = 1, MEMBER(db_path), .file = KF_FILE, .apply = SM_APPLY_RESTART,
	  .def = IBSMD_DB_PATH, .doc = "the SQLite store" },
	{ "socket", K_STR, MEMBER(socket_path), .file = KF_FILE, .apply = SM_APPLY_RESTART,
	  .def = IBSMD_SOCKET_PATH, .doc = "the control socket (\"\": none)" },
	{ "routing", K_LIST, .min = 1, .max = SM_MAX_ENGINES, LIST(routing, nrouting),
	  .apply = SM_APPLY_REROUTE, .def = "minhop", .doc = "engines tried in order" },
	{ "routing_options", K_LIST, .max = SM_MAX_ROUTING_OPTIONS,
	  LIST(routing_options, nrouting_options), .key_value = true,
	  .apply = SM_APPLY_REROUTE, .def = "", .doc = "key=value for the engines" },
	{ "plugin_timeout", K_UINT, .min = 1, .max = 3600, MEMBER(plugin_timeout_s),
	  .apply = SM_APPLY_LIVE, .def = STR(RT_PLUGIN_TIMEOUT_S),
	  .doc = "seconds a plugin engine may run before it is killed" },
	{ "plugin_memory_mb", K_UINT, .max = 1048576, MEMBER(plugin_memory_mb),
	  .apply = SM_APPLY_LIVE, .def = STR(RT_PLUGIN_MEMORY_MB),
	  .doc = "address space a plugin engine may add, in MB (0: no bound)" },
	{ "lmc", K_UINT, .max = 7, MEMBER(lmc), .apply = SM_APPLY_RESTART,
	  .def = "0", .doc = "2^lmc LIDs per CA port" },
	{ "sm_priority", K_UINT, .max = 15, MEMBER(sm_priority), .apply = SM_APPLY_LIVE,
	  .def = "15", .doc = "SMInfo priority (the highest is master)" },
	{ "sm_key", K_HEX, .max = UINT64_MAX, MEMBER(sm_key), .apply = SM_APPLY_LIVE,
	  .secret = true, .def = "0x1",
	  .doc = "SM_Key: other SMs must hold it to get HANDOVER or Set SMInfo" },
	{ "subnet_prefix", K_HEX, .max = UINT64_MAX, MEMBER(subnet_prefix),
	  .apply = SM_APPLY_RESTART, .def = "0xfe80000000000000",
	  .doc = "GID prefix of the subnet" },
	{ "metrics_file", K_STR, MEMBER(metrics_file), .file = KF_FILE | KF_DIR,
	  .apply = SM_APPLY_LIVE,
	  .def = "", .doc = "Prometheus textfile written after each sweep (\"\": none)" },
	/* the metrics' shape (db_metrics_opts) and HTTP endpoint (sm_metrics_http.c) */
	{ "metrics.names", K_STR, .min = 1, MEMBER(metrics_names), .words = db_metrics_names_words,
	  .apply = SM_APPLY_LIVE, .def = "treydock",
	  .doc = "names of the port series: treydock (its exporter's) or ibsmd" },
	{ "metrics.ports", K_LIST, .min = 1, .max = 3, LIST(metrics_ports, nmetrics_ports),
	  .words = db_metrics_ports_words, .apply = SM_APPLY_LIVE,
	  .def = "switch-switch,switch-ca",
	  .doc = "ports with series: switch-switch, switch-ca, ca (the HCA side)" },
	{ "metrics.counters", K_LIST, .min = 1, .max = 5, LIST(metrics_counters, nmetrics_counters),
	  .words = db_metrics_groups_words, .apply = SM_APPLY_LIVE,
	  .def = "data,wait,errors,info",
	  .doc = "groups of port series: data, casts, wait, errors, info" },
	{ "metrics.max_series", K_UINT, .max = UINT64_MAX, MEMBER(metrics_max_series),
	  .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "series in one output at most, whole families left out past it (0: no bound)" },
	{ "metrics.listen", K_STR, MEMBER(metrics_listen), .apply = SM_APPLY_RESTART,
	  .def = "", .doc = "HTTP /metrics on ADDRESS:PORT, or PORT on loopback (\"\": none)" },
	{ "partitions", K_STR, MEMBER(partitions_file), .file = KF_FILE, .apply = SM_APPLY_LIVE,
	  .def = "", .doc = "the partitions file, YAML or OpenSM's (\"\": the default partition only)" },
	{ "guid2lid", K_STR, MEMBER(guid2lid_file), .file = KF_FILE, .apply = SM_APPLY_RESTART,
	  .def = "", .doc = "OpenSM's guid2lid file, seeding the LID map of a store that has none" },
	{ "qos_policy", K_STR, MEMBER(qos_policy_file), .file = KF_FILE, .apply = SM_APPLY_LIVE,
	  .def = "", .doc = "the QoS policy file (\"\": no QoS: the engines' SLs, no VL tables of its own)" },
	{ "ha.poll_interval_ms", K_UINT, .min = 10, .max = 60000, MEMBER(ha_poll_interval_ms),
	  .apply = SM_APPLY_LIVE, .def = "500", .doc = "a STANDBY polls the master this often" },
	{ "ha.poll_retries", K_UINT, .min = 1, .max = 100, MEMBER(ha_poll_retries),
	  .apply = SM_APPLY_LIVE, .def = "4",
	  .doc = "polls unanswered in a row before the master counts as lost" },
	{ "ha.standby_sweeps", K_UINT, .max = 1, MEMBER(ha_standby_sweeps),
	  .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "1: a STANDBY keeps light sweeps; 0: it only polls the master" },
	{ "log.file", K_STR, MEMBER(log_file), .file = KF_FILE | KF_DIR,
	  .apply = SM_APPLY_RESTART,
	  .def = "", .doc = "the log file (\"\": standard error)" },
	{ "log.level", K_LEVEL, MEMBER(log_level), .apply = SM_APPLY_LIVE,
	  .def = "notice", .doc = "error, warning, notice, info or debug" },
	{ "sweep.interval", K_UINT, .max = 86400, MEMBER(sweep_interval_s),
	  .apply = SM_APPLY_LIVE, .def = "10",
	  .doc = "seconds between light sweeps (0: on traps only)" },
	{ "sweep.window", K_UINT, .min = 1, .max = 4096, MEMBER(window),
	  .apply = SM_APPLY_LIVE, .def = "64",
	  .doc = "SMPs in flight (a timeout halves it, answers grow it back)" },
	{ "sweep.smps_per_node", K_UINT, .min = 1, .max = 64, MEMBER(smps_per_node),
	  .apply = SM_APPLY_LIVE, .def = "4",
	  .doc = "of which to any one node (VL15 has no flow control)" },
	/* at most the umad backend's send timeout (mad_umad.c): later answers are dropped */
	{ "sweep.timeout_ms", K_UINT, .min = 1, .max = 2000, MEMBER(timeout_ms),
	  .apply = SM_APPLY_LIVE, .def = "200", .doc = "per SMP try" },
	{ "sweep.retries", K_UINT, .max = 20, MEMBER(retries), .apply = SM_APPLY_LIVE,
	  .def = "3", .doc = "extra tries before a node counts as silent" },
	{ "traps.max_per_s", K_UINT, .min = 1, .max = 100000, MEMBER(trap_max_per_s),
	  .apply = SM_APPLY_LIVE, .def = "10",
	  .doc = "traps taken a second from one port; one more and it is held" },
	{ "traps.holddown_s", K_UINT, .min = 1, .max = 86400, MEMBER(trap_holddown_s),
	  .apply = SM_APPLY_LIVE, .def = "60",
	  .doc = "seconds a babbling port's traps are then ignored" },
	{ "retention.events", K_UINT, .max = UINT32_MAX, MEMBER(retention_events),
	  .apply = SM_APPLY_LIVE, .def = "100000", .doc = "events kept in the store (0: all)" },
	{ "retention.sweeps", K_UINT, .max = UINT32_MAX, MEMBER(retention_sweeps),
	  .apply = SM_APPLY_LIVE, .def = "10000",
	  .doc = "heavy sweeps and light-sweep minutes kept (0: all)" },
	/* link timers and thresholds (IBA 14.2.5.4, 14.2.5.6), OpenSM's defaults;
	 * each heavy sweep writes them where a port holds another value */
	{ "link.hoq_life", K_UINT, .max = 31, MEMBER(hoq_life), .apply = SM_APPLY_LIVE,
	  .def = "18", .doc = "HOQLife of switch ports to switches (20+: infinite)" },
	{ "link.hoq_life_leaf", K_UINT, .max = 31, MEMBER(hoq_life_leaf),
	  .apply = SM_APPLY_LIVE, .def = "16", .doc = "HOQLife of switch ports to CAs" },
	{ "link.vl_stall_count", K_UINT, .max = 7, MEMBER(vl_stall_count),
	  .apply = SM_APPLY_LIVE, .def = "7", .doc = "VLStallCount of switch ports" },
	{ "link.subnet_timeout", K_UINT, .max = 31, MEMBER(subnet_timeout),
	  .apply = SM_APPLY_LIVE, .def = "18",
	  .doc = "SubnetTimeOut of CA ports and switch port 0" },
	{ "link.local_phy_errors", K_UINT, .max = 15, MEMBER(local_phy_errors),
	  .apply = SM_APPLY_LIVE, .def = "8", .doc = "LocalPhyErrors threshold of data ports" },
	{ "link.overrun_errors", K_UINT, .max = 15, MEMBER(overrun_errors),
	  .apply = SM_APPLY_LIVE, .def = "8", .doc = "OverrunErrors threshold of data ports" },
	{ "link.life_time", K_UINT, .max = 31, MEMBER(life_time), .apply = SM_APPLY_LIVE,
	  .def = "18", .doc = "SwitchInfo LifeTimeValue" },
	{ "link.enable_all_supported", K_UINT, .max = 1, MEMBER(enable_all_supported),
	  .apply = SM_APPLY_LIVE, .def = "1",
	  .doc = "1: enable every width and speed a port supports" },
	{ "mkey.key", K_HEX, .max = UINT64_MAX, MEMBER(mkey_key), .apply = SM_APPLY_REROUTE,
	  .secret = true, .def = "0",
	  .doc = "M_Key set on every port (0 and no secret: M_Key off)" },
	{ "mkey.secret", K_STR, MEMBER(mkey_secret), .apply = SM_APPLY_REROUTE,
	  .secret = true, .def = "",
	  .doc = "per-port M_Keys derived from it and the port GUID (\"\": none)" },
	{ "mkey.protect", K_UINT, .max = 3, MEMBER(mkey_protect), .apply = SM_APPLY_REROUTE,
	  .def = "1", .doc = "M_KeyProtectBits: 0 Gets open, 1 key hidden, 2-3 Gets checked" },
	{ "mkey.lease_s", K_UINT, .max = 65535, MEMBER(mkey_lease_s), .apply = SM_APPLY_REROUTE,
	  .def = "60", .doc = "M_KeyLeasePeriod in seconds (0: never expires)" },
	/* bad-link isolation (sm_isolate.c): counts over isolation.window_s */
	{ "isolation.window_s", K_UINT, .min = 10, .max = 604800, MEMBER(iso_window_s),
	  .apply = SM_APPLY_LIVE, .def = "600",
	  .doc = "seconds over which errors and flaps are counted" },
	{ "isolation.symbol_errors", K_UINT, .max = UINT32_MAX, MEMBER(iso_symbol_errors),
	  .apply = SM_APPLY_LIVE, .def = "1000",
	  .doc = "SymbolErrorCounter increments in a window that isolate (0: not judged)" },
	{ "isolation.link_error_recovery", K_UINT, .max = UINT32_MAX,
	  MEMBER(iso_link_error_recovery), .apply = SM_APPLY_LIVE, .def = "20",
	  .doc = "LinkErrorRecoveryCounter increments in a window that isolate (0: not judged)" },
	{ "isolation.link_downed", K_UINT, .max = UINT32_MAX, MEMBER(iso_link_downed),
	  .apply = SM_APPLY_LIVE, .def = "5",
	  .doc = "LinkDownedCounter increments in a window that isolate (0: not judged)" },
	{ "isolation.flaps", K_UINT, .max = UINT32_MAX, MEMBER(iso_flaps),
	  .apply = SM_APPLY_LIVE, .def = "5",
	  .doc = "times the SM sees a link go down in a window that isolate (0: not judged)" },
	{ "isolation.auto_restore", K_UINT, .max = 1, MEMBER(iso_auto_restore),
	  .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "1: an isolated link comes back after a clean window" },
	{ "isolation.max_links", K_UINT, .max = 4096, MEMBER(iso_max_links),
	  .apply = SM_APPLY_LIVE, .def = "32",
	  .doc = "links isolated at once, at most (0: isolation off)" },
	/* congestion-aware rebalancing (sm_rebalance.c) */
	{ "rebalance.enable", K_UINT, .max = 1, MEMBER(rebalance_enable),
	  .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "1: move LFT entries from hot ports to cool equal-cost ones" },
	{ "rebalance.hot_pct", K_UINT, .min = 1, .max = 100, MEMBER(rebalance_hot_pct),
	  .apply = SM_APPLY_LIVE, .def = "80", .doc = "a port busier than this % is hot" },
	{ "rebalance.cool_pct", K_UINT, .max = 99, MEMBER(rebalance_cool_pct),
	  .apply = SM_APPLY_LIVE, .def = "50",
	  .doc = "an equal-cost port at most this % busy is cool (below hot_pct)" },
	{ "rebalance.moves_per_hour", K_UINT, .max = 100000, MEMBER(rebalance_moves_per_hour),
	  .apply = SM_APPLY_LIVE, .def = "256",
	  .doc = "LFT entries moved in any hour, at most" },
	{ "perfmgr.interval", K_UINT, .max = 86400, MEMBER(perf_interval_s),
	  .apply = SM_APPLY_LIVE, .def = "60",
	  .doc = "seconds between port counter passes (0: none)" },
	{ "perfmgr.retention_s", K_UINT, .min = 60, .max = 31536000, MEMBER(perf_retention_s),
	  .apply = SM_APPLY_LIVE, .def = "86400", .doc = "seconds of port counter history kept" },
	{ "perfmgr.history_mb", K_UINT, .max = 1048576, MEMBER(perf_history_mb),
	  .apply = SM_APPLY_LIVE, .def = "2048",
	  .doc = "and at most this many MB of it (0: no bound)" },
	/* congestion control (sm/cc/): OpenSM's cc_* keys and defaults */
	{ "congestion_control.enable", K_UINT, .max = 1, MEMBER(cc_enable),
	  .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "1: program congestion control after each heavy sweep (OpenSM: congestion_control)" },
	{ "congestion_control.cc_key", K_HEX, .max = UINT64_MAX, MEMBER(cc_key),
	  .apply = SM_APPLY_LIVE, .secret = true, .def = "0",
	  .doc = "CC_Key sent in every CC MAD and set on every node" },
	{ "congestion_control.cc_key_protect", K_UINT, .max = 1, MEMBER(cc_key_protect),
	  .apply = SM_APPLY_LIVE, .def = "0", .doc = "CC_KeyProtectBit set with the key" },
	{ "congestion_control.cc_key_lease", K_UINT, .max = 65535, MEMBER(cc_key_lease_s),
	  .apply = SM_APPLY_LIVE, .def = "0", .doc = "CC_KeyLeasePeriod in seconds" },
	{ "congestion_control.max_outstanding_mads", K_UINT, .min = 1, .max = 4096,
	  MEMBER(cc_max_outstanding), .apply = SM_APPLY_LIVE, .def = "500",
	  .doc = "CC MADs in flight at once" },
	{ "congestion_control.sw_cong_setting_control_map", K_HEX, .max = MAD_CC_SW_MAP_ALL,
	  MEMBER(cc_sw_control_map), .apply = SM_APPLY_LIVE, .def = "0x0",
	  .doc = "SwitchCongestionSetting parts written: 1 victim, 2 credit, 4 threshold, 8 CS, "
		 "16 marking" },
	{ "congestion_control.sw_cong_setting_victim_mask", K_STR, MEMBER(cc_sw_victim_mask),
	  .check = sm_cc_check_mask, .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "ports that are victims of congestion (hex, port 0 the lowest bit)" },
	{ "congestion_control.sw_cong_setting_credit_mask", K_STR, MEMBER(cc_sw_credit_mask),
	  .check = sm_cc_check_mask, .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "ports that mark on credit starvation (hex, port 0 the lowest bit)" },
	{ "congestion_control.sw_cong_setting_threshold", K_UINT, .max = 15,
	  MEMBER(cc_sw_threshold), .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "how aggressively switches mark (0: none, 15: most)" },
	{ "congestion_control.sw_cong_setting_packet_size", K_UINT, .max = 255,
	  MEMBER(cc_sw_packet_size), .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "packets of this many 64-byte credits or more are marked" },
	{ "congestion_control.sw_cong_setting_credit_starvation_threshold", K_UINT, .max = 15,
	  MEMBER(cc_sw_cs_threshold), .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "credit starvation marking threshold" },
	{ "congestion_control.sw_cong_setting_credit_starvation_return_delay", K_STR,
	  MEMBER(cc_sw_cs_return_delay), .check = sm_cc_check_delay, .apply = SM_APPLY_LIVE,
	  .def = "0:0", .doc = "SHIFT:MULTIPLIER" },
	{ "congestion_control.sw_cong_setting_marking_rate", K_UINT, .max = 65535,
	  MEMBER(cc_sw_marking_rate), .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "packets sent between two marked ones" },
	{ "congestion_control.ca_cong_setting_port_control", K_UINT, .max = 1,
	  MEMBER(cc_ca_port_control), .apply = SM_APPLY_LIVE, .def = "0",
	  .doc = "0: QP based, 1: SL/port based" },
	{ "congestion_control.ca_cong_setting_control_map", K_HEX, .max = 0xffff,
	  MEMBER(cc_ca_control_map), .apply = SM_APPLY_LIVE, .def = "0x0",
	  .doc = "SLs whose entries are written, a bit each" },
	{ "congestion_control.ca_cong_setting_ccti_timer", K_STR, MEMBER(cc_ca_ccti_timer),
	  .check = sm_cc_check_sl_timers, .apply = SM_APPLY_LIVE, .def = "",
	  .doc = "SL:VALUE, ... (the rest 0)" },
	{ "congestion_control.ca_cong_setting_ccti_increase", K_STR, MEMBER(cc_ca_ccti_increase),
	  .check = sm_cc_check_sl_bytes, .apply = SM_APPLY_LIVE, .def = "",
	  .doc = "SL:VALUE, ... (values 0-255)" },
	{ "congestion_control.ca_cong_setting_trigger_threshold", K_STR,
	  MEMBER(cc_ca_trigger_threshold), .check = sm_cc_check_sl_bytes,
	  .apply = SM_APPLY_LIVE, .def = "", .doc = "SL:VALUE, ... (values 0-255)" },
	{ "congestion_control.ca_cong_setting_ccti_min", K_STR, MEMBER(cc_ca_ccti_min),
	  .check = sm_cc_check_sl_bytes, .apply = SM_APPLY_LIVE, .def = "",
	  .doc = "SL:VALUE, ... (values 0-255)" },
	{ "congestion_control.cct", K_STR, MEMBER(cc_cct), .check = sm_cc_check_cct,
	  .apply = SM_APPLY_LIVE, .def = "",
	  .doc = "CongestionControlTable: SHIFT:MULTIPLIER, ... (at most 128 entries)" },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

const char *sm_config_key_name(size_t i)
{
	return i < NKEYS ? keys[i].name : NULL;
}

static const struct key *key_find(const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

/* Is @name ("log") the mapping some keys ("log.file") live in? */
static bool key_is_section(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < NKEYS; i++)
		if (strncmp(keys[i].name, name, n) == 0 && keys[i].name[n] == '.')
			return true;
	return false;
}

/* --- values from text ---------------------------------------------------- */

static void *field(struct sm_config *c, const struct key *k)
{
	return (char *)c + k->offset;
}

static const void *cfield(const struct sm_config *c, const struct key *k)
{
	return (const char *)c + k->offset;
}

static unsigned *list_count(struct sm_config *c, const struct key *k)
{
	return (unsigned *)((char *)c + k->count);
}

static unsigned clist_count(const struct sm_config *c, const struct key *k)
{
	return *(const unsigned *)((const char *)c + k->count);
}

/* "KEY: reason" into @why; -EINVAL. */
static int reject(char *why, size_t len, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int reject(char *why, size_t len, const char *key, const char *fmt, ...)
{
	int n = snprintf(why, len, "%s: ", key);
	va_list ap;

	if (n >= 0 && (size_t)n < len) {
		va_start(ap, fmt);
		vsnprintf(why + n, len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The code point of the UTF-8 sequence at @p, its length in *@n; 0 in *@n if
 * it is not one (no overlong forms, surrogates or values past U+10FFFF). */
static uint32_t utf8_decode(const unsigned char *p, size_t *n)
{
	*n = p[0] < 0x80 ? 1 : p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
	     : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	uint32_t cp = *n == 1 ? p[0] : *n == 2 ? p[0] & 0x1fu : *n == 3 ? p[0] & 0x0fu
		      : p[0] & 0x07u;
	for (size_t i = 1; i < *n; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			*n = 0;
			return 0;
		}
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	if ((*n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (*n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		*n = 0;
	return cp;
}

/* A string value: fits, is UTF-8, and holds no control character nor anything
 * YAML reads as a line break (U+0085, U+2028, U+2029) or strips (U+FEFF), so
 * that it prints as YAML that reads back as itself. */
static int check_text(const struct key *k, const char *s, size_t size, char *why, size_t len)
{
	if (strlen(s) >= size)
		return reject(why, len, k->name, "value too long (at most %zu bytes)", size - 1);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n;
		uint32_t cp = utf8_decode(p, &n);
		if (!n)
			return reject(why, len, k->name, "the value is not valid UTF-8");
		bool control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 ||
			       cp == 0x2029 || cp == 0xfeff;
		if (control && k->secret)	/* where, not what */
			return reject(why, len, k->name, "a control character at byte %zu of the "
				      "value", (size_t)(p - (const unsigned char *)s) + 1);
		if (control)
			return reject(why, len, k->name, "control character U+%04X in the value",
				      (unsigned)cp);
		p += n;
	}
	return 0;
}

static int parse_uint(const struct key *k, const char *s, uint64_t *out, char *why, size_t len)
{
	const char *digits = s;
	int base = 10;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		digits = s + 2;
	} else if (s[0] == '0' && s[1] >= '0' && s[1] <= '9') {
		const char *q = k->secret ? "" : "'";	/* a secret is not echoed */
		char v[TOPO_TEXT_VALUE_SIZE];
		return reject(why, len, k->name, "%s%s%s has a leading zero: write the number in "
			      "decimal without it, or in hex as 0x... (octal is not read)", q,
			      k->secret ? "the value" : topo_text_value(v, s), q);
	}
	errno = 0;
	unsigned long long x = strtoull(digits, &end, base);
	bool digits_only = *digits && strspn(digits, base == 16 ? "0123456789abcdefABCDEF"
					     : "0123456789") == strlen(digits);
	if (!digits_only || errno || *end || x < k->min || x > k->max)
		return reject(why, len, k->name, "expected a whole number from %" PRIu64 " to %"
			      PRIu64, k->min, k->max);
	*out = x;
	return 0;
}

static void store_uint(void *dst, size_t size, uint64_t x)
{
	switch (size) {
	case 1: *(uint8_t *)dst = (uint8_t)x; break;
	case 2: *(uint16_t *)dst = (uint16_t)x; break;
	case 4: *(uint32_t *)dst = (uint32_t)x; break;
	default: *(uint64_t *)dst = x; break;
	}
}

static uint64_t load_uint(const void *src, size_t size)
{
	switch (size) {
	case 1: return *(const uint8_t *)src;
	case 2: return *(const uint16_t *)src;
	case 4: return *(const uint32_t *)src;
	default: return *(const uint64_t *)src;
	}
}

/* Append @s to list key @k. */
/* Two entries of the port list name the same port: the same text, or the
 * same port GUID however written. */
static bool same_local_port(const char *a, const char *b)
{
	uint64_t ga, gb;

	if (mad_port_name_guid(a, &ga) == 0 && mad_port_name_guid(b, &gb) == 0)
		return ga == gb;
	return strcmp(a, b) == 0;
}

/* "DEVICE:PORT" (a device name, the last ':' ends it, and a port 0..254 in
 * decimal without a leading zero) or a port GUID, and no port twice. */
static int check_local_port(const struct sm_config *c, const struct key *k, const char *s,
			    char *why, size_t len)
{
	const char *colon = strrchr(s, ':'), *num = colon ? colon + 1 : "";
	size_t digits = strspn(num, "0123456789");
	char v[TOPO_TEXT_VALUE_SIZE];
	uint64_t guid;

	if (mad_port_name_guid(s, &guid) &&
	    (!colon || colon == s || !digits || num[digits] || digits > 3 ||
	     (num[0] == '0' && digits > 1) || atoi(num) > 254))
		return reject(why, len, k->name, "'%s' is neither DEVICE:PORT (PORT 0..254, "
			      "e.g. mlx5_0:1) nor a port GUID (0x and 1 to 16 hex digits, not 0)",
			      topo_text_value(v, s));
	for (unsigned i = 0; i < clist_count(c, k); i++)
		if (same_local_port((const char *)cfield(c, k) + (size_t)i * k->size, s))
			return reject(why, len, k->name, "'%s' is listed twice", topo_text_value(v, s));
	return 0;
}

/* @s is one of @k's words (and, in a list, not one already there). */
static int check_word(const struct sm_config *c, const struct key *k, const char *s, char *why,
		      size_t len)
{
	char list[160] = "";
	size_t o = 0;

	if (!k->words)
		return 0;
	if (db_metrics_word(k->words, s) < 0) {
		for (size_t i = 0; k->words[i] && o < sizeof(list); i++)
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? ", " : "",
					      k->words[i]);
		return reject(why, len, k->name, "'%.64s' is not one of %s", s, list);
	}
	for (unsigned i = 0; k->type == K_LIST && i < clist_count(c, k); i++)
		if (!strcmp((const char *)cfield(c, k) + (size_t)i * k->size, s))
			return reject(why, len, k->name, "'%.64s' is listed twice", s);
	return 0;
}

static int list_add(struct sm_config *c, const struct key *k, const char *s, char *why,
		    size_t len)
{
	unsigned *n = list_count(c, k);
	char v[TOPO_TEXT_VALUE_SIZE];

	if (*n == k->max)
		return reject(why, len, k->name, "at most %" PRIu64 " entries", k->max);
	if (!s[0])
		return reject(why, len, k->name, "an empty entry");
	if (k->key_value && !strchr(s, '='))
		return reject(why, len, k->name, "'%s' is not key=value", topo_text_value(v, s));
	int rc = check_text(k, s, k->size, why, len);
	if (rc || (k->local_port && (rc = check_local_port(c, k, s, why, len))) ||
	    (rc = check_word(c, k, s, why, len)))
		return rc;
	snprintf((char *)field(c, k) + (size_t)*n * k->size, k->size, "%s", s);
	(*n)++;
	return 0;
}

static int list_done(const struct sm_config *c, const struct key *k, char *why, size_t len)
{
	if (clist_count(c, k) < k->min)
		return reject(why, len, k->name, "at least %" PRIu64 " entr%s", k->min,
			      k->min == 1 ? "y" : "ies");
	return 0;
}

/* Set the scalar key @k, or the list key @k from "a,b,c", from the text @s. */
/* A list written "a,,b", ",a" or "a,": an entry left out by mistake (a
 * list that is all blanks is the empty list). */
static bool list_has_empty_entry(const char *s)
{
	bool any = false, field = false;

	for (; *s; s++) {
		if (*s == ',') {
			if (!field)
				return true;
			field = false;
			any = true;
		} else if (*s != ' ') {
			field = true;
		}
	}
	return any && !field;
}

static int set_text(struct sm_config *c, const struct key *k, const char *s, char *why,
		    size_t len)
{
	char v[TOPO_TEXT_VALUE_SIZE];
	uint64_t x = 0;
	int rc, level;

	if (k->secret && strcmp(s, SM_CONFIG_REDACTED) == 0)
		return reject(why, len, k->name, "redacted value (as --check-config -v prints a "
			      "secret): give the real key");
	switch (k->type) {
	case K_STR:
		if ((rc = check_text(k, s, k->size, why, len)))
			return rc;
		if (k->min && !s[0])
			return reject(why, len, k->name, "must not be empty");
		if ((rc = check_word(c, k, s, why, len)))
			return rc;
		if (k->check && (rc = k->check(s, why, len)))
			return rc;
		snprintf(field(c, k), k->size, "%s", s);
		return 0;
	case K_UINT:
	case K_HEX:
		if ((rc = parse_uint(k, s, &x, why, len)))
			return rc;
		store_uint(field(c, k), k->size, x);
		return 0;
	case K_LEVEL:
		if ((level = sm_log_level_parse(s)) < 0)
			return reject(why, len, k->name, "'%s' is not one of error, warning, notice, "
				      "info, debug", topo_text_value(v, s));
		*(int *)field(c, k) = level;
		return 0;
	case K_LIST: {
		if (list_has_empty_entry(s))
			return reject(why, len, k->name, "'%s' has an empty entry",
				      topo_text_value(v, s));
		char *buf = strdup(s), *save = NULL;
		if (!buf)
			return reject(why, len, k->name, "out of memory");
		*list_count(c, k) = 0;
		rc = 0;
		for (char *tok = strtok_r(buf, ", ", &save); tok && !rc;
		     tok = strtok_r(NULL, ", ", &save))
			rc = list_add(c, k, tok, why, len);
		free(buf);
		return rc ? rc : list_done(c, k, why, len);
	}
	}
	return reject(why, len, k->name, "unknown type");
}

void sm_config_defaults(struct sm_config *c)
{
	char why[256];

	memset(c, 0, sizeof(*c));
	/* the defaults are known good: check_sm_config prints and compares them */
	for (size_t i = 0; i < NKEYS; i++)
		(void)set_text(c, &keys[i], keys[i].def, why, sizeof(why));
}

int sm_config_set(struct sm_config *c, const char *key, const char *value, char *err,
		  size_t errlen)
{
	const struct key *k = key_find(key);

	if (!k) {
		snprintf(err, errlen, "unknown key '%s'", key);
		return -EINVAL;
	}
	struct sm_config *tmp = malloc(sizeof(*tmp));
	if (!tmp) {
		snprintf(err, errlen, "%s: out of memory", key);
		return -ENOMEM;
	}
	*tmp = *c;
	int rc = set_text(tmp, k, value, err, errlen);
	if (rc == 0)
		*c = *tmp;
	free(tmp);
	return rc;
}

int sm_config_set_routing(struct sm_config *c, const char *list, char *err, size_t errlen)
{
	return sm_config_set(c, "routing", list, err, errlen);
}

/* --- the YAML file --------------------------------------------------------- */

struct parse {
	yaml_document_t *doc;
	const char *path;
	char *err;
	size_t errlen;
};

static int fail_at(struct parse *p, yaml_mark_t m, const char *msg)
{
	snprintf(p->err, p->errlen, "%s:%lu:%lu: %s", p->path, (unsigned long)m.line + 1,
		 (unsigned long)m.column + 1, msg);
	return -EINVAL;
}

static int fail(struct parse *p, const yaml_node_t *node, const char *msg)
{
	return fail_at(p, node->start_mark, msg);
}

static int set_node(struct parse *p, struct sm_config *c, const struct key *k,
		    const yaml_node_t *v)
{
	char why[384];
	int rc;

	if (v->type == YAML_SCALAR_NODE) {
		rc = set_text(c, k, (const char *)v->data.scalar.value, why, sizeof(why));
		return rc ? fail(p, v, why) : 0;
	}
	if (k->type != K_LIST || v->type != YAML_SEQUENCE_NODE) {
		snprintf(why, sizeof(why), "%s: expected %s", k->name,
			 k->type == K_LIST ? "a list" : "a single value");
		return fail(p, v, why);
	}
	*list_count(c, k) = 0;
	for (yaml_node_item_t *it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++) {
		yaml_node_t *e = yaml_document_get_node(p->doc, *it);
		if (e->type != YAML_SCALAR_NODE) {
			snprintf(why, sizeof(why), "%s: expected a list of single values", k->name);
			return fail(p, e, why);
		}
		if ((rc = list_add(c, k, (const char *)e->data.scalar.value, why, sizeof(why))))
			return fail(p, e, why);
	}
	rc = list_done(c, k, why, sizeof(why));
	return rc ? fail(p, v, why) : 0;
}

static int walk_mapping(struct parse *p, struct sm_config *c, const yaml_node_t *map,
			const char *prefix)
{
	char msg[256];

	if (map->type != YAML_MAPPING_NODE) {
		snprintf(msg, sizeof(msg), "%.*s: expected a mapping of keys to values",
			 (int)strlen(prefix) - 1, prefix);
		return fail(p, map, prefix[0] ? msg : "the file must be a mapping of keys to values");
	}
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
	     pr < map->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(p->doc, pr->key);
		yaml_node_t *v = yaml_document_get_node(p->doc, pr->value);
		char key[128];
		int rc;

		if (k->type != YAML_SCALAR_NODE)
			return fail(p, k, "keys must be plain names");
		const char *name = (const char *)k->data.scalar.value;
		/* every earlier key of this mapping was valid, so this loop is short */
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < pr; q++) {
			yaml_node_t *qk = yaml_document_get_node(p->doc, q->key);
			if (strcmp((const char *)qk->data.scalar.value, name))
				continue;
			snprintf(msg, sizeof(msg), "duplicate key '%s%.64s' (first at line %lu)",
				 prefix, name, (unsigned long)qk->start_mark.line + 1);
			return fail(p, k, msg);
		}
		snprintf(key, sizeof(key), "%s%.64s", prefix, name);
		const struct key *row;
		if (!prefix[0] && key_is_section(key)) {
			char sub[sizeof(key) + 1];
			snprintf(sub, sizeof(sub), "%s.", key);
			rc = walk_mapping(p, c, v, sub);
		} else if ((row = key_find(key))) {
			rc = set_node(p, c, row, v);
		} else {
			char tok[TOPO_TEXT_TOKEN_SIZE];	/* the file may be no ibsmd.yaml */
			snprintf(msg, sizeof(msg), "unknown key '%s%s'", prefix,
				 topo_text_token(tok, name));
			rc = fail(p, k, msg);
		}
		if (rc)
			return rc;
	}
	return 0;
}

int sm_config_parse(struct sm_config *c, FILE *in, const char *name, char *err,
		    size_t errlen)
{
	struct parse p = { .path = name, .err = err, .errlen = errlen };
	struct sm_yaml_source src = { .in = in };
	yaml_parser_t parser;
	yaml_document_t doc, next;
	int rc;

	struct sm_config *tmp = malloc(sizeof(*tmp));
	if (!tmp) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	*tmp = *c;
	yaml_parser_initialize(&parser);
	if ((rc = sm_yaml_input(&parser, &src, name, err, errlen)))
		goto out;
	if (!yaml_parser_load(&parser, &doc)) {
		rc = sm_yaml_fail(&parser, &src, name, err, errlen);
		goto out;
	}
	p.doc = &doc;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	rc = root ? walk_mapping(&p, tmp, root, "") : 0;	/* an empty file is fine */
	yaml_document_delete(&doc);
	if (rc)
		goto out;
	/* one document: a second one ("---") is a mistake, not something to skip */
	if (!yaml_parser_load(&parser, &next)) {
		rc = sm_yaml_fail(&parser, &src, name, err, errlen);
		goto out;
	}
	if (yaml_document_get_root_node(&next))
		rc = fail_at(&p, next.start_mark, "a second YAML document: the file must hold one");
	yaml_document_delete(&next);
out:
	yaml_parser_delete(&parser);
	if (rc == 0)
		*c = *tmp;
	free(tmp);
	return rc;
}

int sm_config_load(struct sm_config *c, const char *path, char *err, size_t errlen)
{
	int rc;
	FILE *f = sm_file_open(path, SM_CONFIG_MAX_FILE_BYTES, &rc, err, errlen);

	if (!f)
		return rc;
	rc = sm_config_parse(c, f, path, err, errlen);
	fclose(f);
	return rc;
}

/* --- printing ------------------------------------------------------------- */

/* A string that YAML reads back as itself when written bare. */
static bool plain_ok(const char *s)
{
	static const char first[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_./";
	static const char rest[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_./=+-:@%";

	return s[0] && strchr(first, s[0]) && strspn(s, rest) == strlen(s) &&
	       s[strlen(s) - 1] != ':';
}

static void write_string(FILE *out, const char *s)
{
	if (plain_ok(s)) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
		if (*q == '"' || *q == '\\')
			fprintf(out, "\\%c", *q);
		else if (*q < 0x20 || *q == 0x7f)
			fprintf(out, "\\x%02x", *q);
		else
			fputc(*q, out);
	}
	fputc('"', out);
}

static void write_value(FILE *out, const struct sm_config *c, const struct key *k)
{
	switch (k->type) {
	case K_STR:
		write_string(out, cfield(c, k));
		break;
	case K_UINT:
		fprintf(out, "%" PRIu64, load_uint(cfield(c, k), k->size));
		break;
	case K_HEX:
		fprintf(out, "0x%016" PRIx64, load_uint(cfield(c, k), k->size));
		break;
	case K_LEVEL:
		fputs(sm_log_level_name(*(const int *)cfield(c, k)), out);
		break;
	case K_LIST:
		fputc('[', out);
		for (unsigned i = 0; i < clist_count(c, k); i++) {
			fputs(i ? ", " : "", out);
			write_string(out, (const char *)cfield(c, k) + (size_t)i * k->size);
		}
		fputc(']', out);
		break;
	}
}

/* A secret key holds something: a secret that is not "", a key that is
 * neither 0 (none) nor its default (sm_key's 1 is OpenSM's: every SM knows it). */
static bool secret_set(const struct sm_config *c, const struct key *k)
{
	if (k->type == K_STR)
		return ((const char *)cfield(c, k))[0] != '\0';
	uint64_t v = load_uint(cfield(c, k), k->size);
	return v != 0 && v != strtoull(k->def, NULL, 0);
}

/* "  # SMPs in flight; 1..4096; SIGHUP: live\n  window: 64\n"; a secret key
 * says whether it is set, and a set one shows SM_CONFIG_REDACTED.  With @note,
 * "  # NOTE\n  window: 64\n", a secret's value in full. */
static void write_key(FILE *out, const struct sm_config *c, const struct key *k, size_t sect,
		      const char *note)
{
	static const char *const apply[] = {
		[SM_APPLY_RESTART] = "needs a restart",
		[SM_APPLY_LIVE] = "live",
		[SM_APPLY_REROUTE] = "live, reroutes",
	};
	const char *indent = sect ? "  " : "";
	bool hide = !note && k->secret && secret_set(c, k);

	if (note) {
		fprintf(out, "%s# %s\n%s%s: ", indent, note, indent, k->name + sect);
	} else {
		fprintf(out, "%s# %s; ", indent, k->doc);
		if (k->type == K_UINT)
			fprintf(out, "%" PRIu64 "..%" PRIu64 "; ", k->min, k->max);
		if (k->type == K_LIST)
			fprintf(out, "%" PRIu64 "..%" PRIu64 " entries; ", k->min, k->max);
		if (k->secret)
			fputs(hide ? "secret, set (not shown); " : "secret, not set; ", out);
		fprintf(out, "SIGHUP: %s\n%s%s: ", apply[k->apply], indent, k->name + sect);
	}
	if (hide)
		write_string(out, SM_CONFIG_REDACTED);
	else
		write_value(out, c, k);
	fputc('\n', out);
}

/* The keys @notes picks (all when NULL), each under its note or its doc. */
static int write_some(const struct sm_config *c, FILE *out, const char *const *notes)
{
	const char *sect_name = NULL;	/* the open section ("log.file": "log"), NULL: none */
	size_t sect_len = 0;

	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		const char *dot = strchr(k->name, '.');
		size_t sect = dot ? (size_t)(dot - k->name) + 1 : 0;

		if (notes && !notes[i])
			continue;
		if (sect && (!sect_name || sect != sect_len || strncmp(k->name, sect_name, sect)))
			fprintf(out, "%.*s:\n", (int)sect - 1, k->name);
		sect_name = sect ? k->name : NULL;
		sect_len = sect;
		write_key(out, c, k, sect, notes ? notes[i] : NULL);
	}
	fflush(out);
	return ferror(out) ? -EIO : 0;
}

int sm_config_write(const struct sm_config *c, FILE *out)
{
	fputs("# ibsmd.yaml: the effective configuration (defaults < file < command line)\n",
	      out);
	return write_some(c, out, NULL);
}

int sm_config_write_keys(const struct sm_config *c, FILE *out, const char *const *notes)
{
	return write_some(c, out, notes);
}

size_t sm_config_key_index(const char *name)
{
	const struct key *k = key_find(name);

	return k ? (size_t)(k - keys) : SIZE_MAX;
}

size_t sm_config_nkeys(void)
{
	return NKEYS;
}

const char *sm_config_key_default(size_t i)
{
	return i < NKEYS ? keys[i].def : NULL;
}

/* --- what the syntax cannot tell ------------------------------------------ */

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!a[0] || !b[0])
		return false;
	if (strcmp(a, b) == 0)
		return true;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

static int check_engine(const char *name, char *err, size_t errlen)
{
	char path[SM_PATH_LEN + 64], v[TOPO_TEXT_VALUE_SIZE];

	if (rt_builtin_find(name))
		return 0;
	if (rt_plugin_path(name, PKGLIBDIR, path, sizeof(path)))
		return reject(err, errlen, "routing", "plugin path for '%s' is too long",
			      topo_text_value(v, name));
	if (access(path, R_OK))
		return reject(err, errlen, "routing", "'%s' is not a built-in engine and its plugin "
			      "%s cannot be read: %s", topo_text_value(v, name), path,
			      strerror(errno));
	return 0;
}

/* The directory of the file key @k names exists. */
static int check_dir(const struct key *k, const char *file, char *err, size_t errlen)
{
	char dir[SM_PATH_LEN];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", file);
	char *slash = strrchr(dir, '/');
	if (!slash)
		return 0;	/* the current directory */
	slash[slash == dir] = '\0';	/* "/x" -> "/" */
	if (stat(dir, &st))
		return reject(err, errlen, k->name, "directory %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return reject(err, errlen, k->name, "%s is not a directory", dir);
	return 0;
}

/* The file keys: each names its own file, in a directory that exists (KF_DIR). */
static int check_files(const struct sm_config *c, bool dirs, char *err, size_t errlen)
{
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *a = &keys[i];
		const char *pa = cfield(c, a);
		if (!(a->file & KF_FILE) || !pa[0])
			continue;
		int rc = dirs && (a->file & KF_DIR) ? check_dir(a, pa, err, errlen) : 0;
		if (rc)
			return rc;
		for (size_t j = 0; j < i; j++) {
			const struct key *b = &keys[j];
			if ((b->file & KF_FILE) && same_file(pa, cfield(c, b)))
				return reject(err, errlen, a->name, "the same file as %s (%s): "
					      "each needs its own", b->name, pa);
		}
	}
	return 0;
}

int sm_config_check_files(const struct sm_config *c, const char *config_path, char *err,
			  size_t errlen)
{
	int rc = check_files(c, false, err, errlen);

	for (size_t i = 0; rc == 0 && config_path && i < NKEYS; i++)
		if ((keys[i].file & KF_FILE) && same_file(config_path, cfield(c, &keys[i])))
			rc = reject(err, errlen, keys[i].name, "is the configuration file itself "
				    "(%s)", config_path);
	return rc;
}

int sm_config_check(const struct sm_config *c, char *err, size_t errlen)
{
	char why[SM_PATH_LEN + 512];
	int rc;

	for (unsigned i = 0; i < c->nrouting; i++)
		if ((rc = check_engine(c->routing[i], err, errlen)))
			return rc;
	const char *chain[SM_MAX_ENGINES], *opts[SM_MAX_ROUTING_OPTIONS];
	for (unsigned i = 0; i < c->nrouting; i++)
		chain[i] = c->routing[i];
	for (unsigned i = 0; i < c->nrouting_options; i++)
		opts[i] = c->routing_options[i];
	if (rt_options_check(chain, c->nrouting, opts, c->nrouting_options, why, sizeof(why)))
		return reject(err, errlen, "routing_options", "%s", why);
	if (mad_transport_check(c->backend, why, sizeof(why)))
		return reject(err, errlen, "backend", "%s", why);
	if (c->metrics_listen[0] && sm_addr_parse(c->metrics_listen, NULL, NULL, why, sizeof(why)))
		return reject(err, errlen, "metrics.listen", "%s", why);
	if (c->metrics_listen[0] && !c->metrics_file[0])
		return reject(err, errlen, "metrics.listen", "serves metrics_file: set it too");
	if (c->rebalance_cool_pct >= c->rebalance_hot_pct)
		return reject(err, errlen, "rebalance.cool_pct", "%u is not below hot_pct (%u)",
			      c->rebalance_cool_pct, c->rebalance_hot_pct);
	return check_files(c, true, err, errlen);
}

int sm_config_check_private(const struct sm_config *c, const char *path, char *err,
			    size_t errlen)
{
	struct stat st;

	for (size_t i = 0; i < NKEYS; i++) {
		if (!keys[i].secret || !secret_set(c, &keys[i]))
			continue;
		if (!path || stat(path, &st) || !(st.st_mode & S_IROTH))
			return 0;
		(void)reject(err, errlen, keys[i].name, "set in %s, which every user may read "
			     "(mode %04o): make it readable by root only", path,
			     (unsigned)(st.st_mode & 07777));
		return -EACCES;
	}
	return 0;
}

/* --- reload ---------------------------------------------------------------- */

static bool key_equal(const struct sm_config *a, const struct sm_config *b,
		      const struct key *k)
{
	switch (k->type) {
	case K_STR:
		return strcmp(cfield(a, k), cfield(b, k)) == 0;
	case K_LIST:
		if (clist_count(a, k) != clist_count(b, k))
			return false;
		for (unsigned i = 0; i < clist_count(a, k); i++)
			if (strcmp((const char *)cfield(a, k) + (size_t)i * k->size,
				   (const char *)cfield(b, k) + (size_t)i * k->size))
				return false;
		return true;
	default:
		return memcmp(cfield(a, k), cfield(b, k), k->size) == 0;
	}
}

int sm_config_diff(const struct sm_config *old, const struct sm_config *new,
		   struct sm_config_change *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < NKEYS; i++) {
		if (key_equal(old, new, &keys[i]))
			continue;
		if (n < max)
			out[n] = (struct sm_config_change){ keys[i].name, keys[i].apply };
		n++;
	}
	return (int)n;
}

void sm_config_apply_live(struct sm_config *running, const struct sm_config *new)
{
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		if (k->apply == SM_APPLY_RESTART)
			continue;
		size_t bytes = k->type == K_LIST ? (size_t)k->max * k->size : k->size;
		memcpy(field(running, k), cfield(new, k), bytes);
		if (k->type == K_LIST)
			*list_count(running, k) = clist_count(new, k);
	}
}

int sm_config_change_names(const struct sm_config_change *ch, size_t n, bool live,
			   char *buf, size_t len)
{
	size_t used = 0;
	int listed = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if ((ch[i].apply != SM_APPLY_RESTART) != live)
			continue;
		if (used < len) {
			int w = snprintf(buf + used, len - used, "%s%s", listed ? ", " : "",
					 ch[i].key);
			used += w > 0 ? (size_t)w : 0;
		}
		listed++;
	}
	return listed;
}

// SPDX-License-Identifier: MIT
/*
 * sm_osm_conf.c - OpenSM's opensm.conf converted (sm_osm_import.h).
 *
 * The file is what `opensm -c FILE` writes: "KEY VALUE" lines, '#' comments,
 * blank lines; a value runs to the end of its line.  One table row per key of
 * OpenSM 3.3 (and a row per family, qos_* and cc_*): its default as `opensm
 * -c` writes it, ibsmd's counterpart if there is one, how the value is
 * carried, and otherwise why not.  A key at its default that ibsmd has no
 * counterpart for needs nothing (ibsmd does the same, or the feature is
 * off); set otherwise, it is listed with the reason and told as a warning.
 * Values are carried as they are (OpenSM's hex and TRUE/FALSE are read the
 * way ibsmd's keys read them), but:
 *  - routing_engine: OpenSM's names (sssp is dfsssp; lash, dor, torus-2QoS,
 *    nue and dnup have no counterpart, left out), minhop last, as OpenSM
 *    falls back to it; lfts_file, root_guid_file, cn_guid_file and
 *    io_guid_file become routing_options, kept only when an engine of the
 *    chain reads them and the file reads (what --check-config demands);
 *  - perfmgr and perfmgr_sweep_time_s make perfmgr.interval (0: off);
 *  - force_link_speed, _speed_ext and _width at "all supported" (their
 *    defaults) or 0 make link.enable_all_supported 1 or 0;
 *  - log_flags: the most verbose level its bits ask for;
 *  - congestion_control TRUE/FALSE makes congestion_control.enable 1/0, the
 *    cc_* keys congestion_control.* of the same name, the CA's per-SL lines
 *    ("cc_ca_cong_setting_ccti_timer SL VALUE", one per SL) one list of
 *    SL:VALUE pairs each, cc_cct "(null)" ibsmd's empty table;
 *  - partition_config_file, when the file is there (OpenSM then reads it,
 *    and so does ibsmd, as it is);
 *  - reassign_lids FALSE: OpenSM's LID cache (guid2lid in $OSM_CACHE_DIR,
 *    by default /var/cache/opensm) seeds ibsmd's LID map, when it is there;
 *  - max_wire_smps, log_file at OpenSM's defaults keep ibsmd's own: 4 SMPs
 *    in flight in all would slow ibsmd's sweeps 16-fold (it bounds each
 *    node at sweep.smps_per_node instead), and OpenSM's log file is
 *    OpenSM's.
 * SA_Key is never echoed (ibsmd has no counterpart to write it to), CC_Key
 * only as the value of congestion_control.cc_key; messages quote an unknown
 * word of the file by a short token only.
 * Refused (errors, nothing written): a line with a control character or a
 * NUL byte, a line longer than SM_OSM_MAX_LINE, a value ibsmd's key refuses.
 * A key given twice: the later counts, as in OpenSM (a warning).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/model/topo_text.h"
#include "routing/rt.h"
#include "sm/osm/sm_osm_import.h"

#define CONF_MAX_KEY 64
#define CC_SLS 16
/* What a message may quote of the file's word @s. */
#define TOKEN(s) topo_text_token((char[TOPO_TEXT_TOKEN_SIZE]){ 0 }, (s))

struct conf;

struct osm_key {
	const char *name;	/* a trailing '*' names a family: qos_* */
	const char *def;	/* OpenSM 3.3's default, as `opensm -c` writes it */
	const char *to;		/* ibsmd's key, NULL: none */
	/* how the value is carried (NULL: as it is to @to) */
	void (*conv)(struct conf *c, const struct osm_key *k, const char *val);
	const char *why;	/* no counterpart: why; with keep: what ibsmd keeps */
	bool keep;		/* at OpenSM's default, ibsmd's own default is kept */
	bool secret;		/* a key (SA_Key, CC_Key): its value is never echoed */
};

/* What the lines leave for the end: the routing chain and its options, the
 * performance manager. */
struct conf {
	struct sm_osm_import *im;
	char chain[SM_MAX_ENGINES][32];
	unsigned nchain;
	unsigned chain_line;
	char chain_note[160];
	struct {
		char text[SM_PATH_LEN];
		unsigned line;
		char note[SM_PATH_LEN + 64];
	} opts[SM_MAX_ROUTING_OPTIONS];
	unsigned nopts;
	int perfmgr;		/* -1: not given, 0/1 */
	/* the CA's per-SL congestion values, "SL:VALUE,..." per CA_SL key */
	struct {
		char text[CC_SLS * 16];
		unsigned line;
	} ca_sl[4];
	char perf_time[16];
	unsigned perf_line[2];
	unsigned *seen;		/* per row: the line it was given on, 0: not yet */
};

/* ibsmd's @key set to @value, noted as OpenSM's line "NAME @val". */
static void set_from(struct conf *c, const struct osm_key *k, const char *key, const char *val,
		     const char *value)
{
	char what[SM_OSM_MAX_LINE + 64];

	snprintf(what, sizeof(what), "%s %s", k->name, val);
	sm_osm_import_set(c->im, key, value, what);
}

static void set(struct conf *c, const struct osm_key *k, const char *key, const char *val)
{
	set_from(c, k, key, val, val);
}

/* The value as it is, or at OpenSM's default ibsmd's own kept (k->keep). */
static void conv_plain(struct conf *c, const struct osm_key *k, const char *val)
{
	char what[SM_OSM_MAX_LINE + 256];

	if (!k->keep || strcmp(val, k->def)) {
		set(c, k, k->to, val);
		return;
	}
	snprintf(what, sizeof(what), "%s %s, OpenSM's default: ibsmd's own kept, %s", k->name,
		 val, k->why);
	sm_osm_import_set(c->im, k->to, sm_config_key_default(sm_config_key_index(k->to)), what);
}

static bool is_true(const char *val)
{
	return strcmp(val, "TRUE") == 0;
}

static bool is_bool(const char *val)
{
	return is_true(val) || strcmp(val, "FALSE") == 0;
}

static void conv_port(struct conf *c, const struct osm_key *k, const char *val)
{
	if (strtoull(val, NULL, 0) == 0 && strspn(val, "0x") == strlen(val))
		sm_osm_import_at_default(c->im, k->name);	/* 0: the first active port */
	else
		set(c, k, "port", val);
}

static void conv_force(struct conf *c, const struct osm_key *k, const char *val)
{
	if (strcmp(val, k->def) == 0 || strcmp(val, "0") == 0)
		set_from(c, k, k->to, val, strcmp(val, "0") ? "1" : "0");
	else
		sm_osm_import_missing(c->im, k->name, val, "ibsmd enables every width and speed a "
				      "port supports (link.enable_all_supported 1) or leaves them "
				      "as they are (0), nothing in between");
}

/* OpenSM's log_flags bits: 0x01 error, 0x02 info, 0x04 verbose, 0x08 debug,
 * 0x10 functions, 0x20 frames, 0x40 routing, 0x80 sys. */
static void conv_log_flags(struct conf *c, const struct osm_key *k, const char *val)
{
	char *end;
	unsigned long f = strtoul(val, &end, 0);

	if (*end || !*val) {
		sm_osm_import_error(c->im, "log_flags %s: not a number", TOKEN(val));
		return;
	}
	const char *level = f & 0x38 ? "debug" : f & 0x04 ? "info" : f & 0x02 ? "notice"
			    : "error";
	char what[SM_OSM_MAX_LINE + 64];
	snprintf(what, sizeof(what), "%s %s", k->name, val);
	sm_osm_import_set(c->im, k->to, level, what);
}

static void conv_partitions(struct conf *c, const struct osm_key *k, const char *val)
{
	if (access(val, R_OK) == 0)
		set(c, k, k->to, val);
	else if (strcmp(val, k->def) == 0 || strcmp(val, "(null)") == 0)
		sm_osm_import_at_default(c->im, k->name);	/* none: the default partition */
	else
		sm_osm_import_missing(c->im, k->name, val, "the file is not there (or not "
				      "readable): point partitions at it once it is");
}

static void conv_reassign(struct conf *c, const struct osm_key *k, const char *val)
{
	const char *dir = getenv("OSM_CACHE_DIR");
	char path[SM_PATH_LEN], what[SM_OSM_MAX_LINE + SM_PATH_LEN];

	if (is_true(val)) {
		sm_osm_import_missing(c->im, k->name, val, "OpenSM gave LIDs anew at each start; "
				      "ibsmd keeps them in its store, with no guid2lid seed");
		return;
	}
	snprintf(path, sizeof(path), "%s/guid2lid", dir && dir[0] ? dir : "/var/cache/opensm");
	if (access(path, R_OK)) {
		sm_osm_import_at_default(c->im, k->name);	/* no cache to seed from */
		return;
	}
	snprintf(what, sizeof(what), "%s %s: OpenSM's LIDs from its cache", k->name, val);
	sm_osm_import_set(c->im, k->to, path, what);
}

static void conv_perfmgr(struct conf *c, const struct osm_key *k, const char *val)
{
	(void)k;
	if (!is_bool(val)) {
		sm_osm_import_error(c->im, "perfmgr %s: expected TRUE or FALSE", TOKEN(val));
		return;
	}
	c->perfmgr = is_true(val);
	c->perf_line[0] = c->im->line;
}

static void conv_perf_time(struct conf *c, const struct osm_key *k, const char *val)
{
	(void)k;
	snprintf(c->perf_time, sizeof(c->perf_time), "%.15s", val);
	c->perf_line[1] = c->im->line;
}

static void conv_cc_enable(struct conf *c, const struct osm_key *k, const char *val)
{
	if (!is_bool(val)) {
		sm_osm_import_error(c->im, "%s %s: expected TRUE or FALSE", k->name, TOKEN(val));
		return;
	}
	set_from(c, k, k->to, val, is_true(val) ? "1" : "0");
}

/* CC_Key: written as the value of its key, never into a message or a note. */
static void conv_cc_key(struct conf *c, const struct osm_key *k, const char *val)
{
	char what[96];

	snprintf(what, sizeof(what), "%s (a key, not shown)", k->name);
	sm_osm_import_set(c->im, k->to, val, what);
}

/* cc_cct: "(null)" is OpenSM's empty table, ibsmd's "". */
static void conv_cc_cct(struct conf *c, const struct osm_key *k, const char *val)
{
	set_from(c, k, k->to, val, strcmp(val, "(null)") ? val : "");
}

/* The CA's per-SL keys, in the order of c->ca_sl. */
static const char *const ca_sl_keys[] = {
	"cc_ca_cong_setting_ccti_timer", "cc_ca_cong_setting_ccti_increase",
	"cc_ca_cong_setting_trigger_threshold", "cc_ca_cong_setting_ccti_min",
};

/* "KEY SL VALUE": added to the key's SL:VALUE list, written at the end. */
static void conv_cc_ca_sl(struct conf *c, const struct osm_key *k, const char *val)
{
	unsigned i = 0, sl;
	char value[16], tail;

	while (strcmp(ca_sl_keys[i], k->name))
		i++;
	if (sscanf(val, "%u %15s %c", &sl, value, &tail) != 2 || sl >= CC_SLS ||
	    strspn(value, "0123456789abcdefxABCDEFX") != strlen(value)) {
		sm_osm_import_error(c->im, "%s %s: expected an SL (0-15) and a value", k->name,
				    TOKEN(val));
		return;
	}
	char *t = c->ca_sl[i].text;
	size_t n = strlen(t);
	snprintf(t + n, sizeof(c->ca_sl[i].text) - n, "%s%u:%s", n ? "," : "", sl, value);
	c->ca_sl[i].line = c->im->line;
}

/* The per-SL lists, each at the line of its last SL (a later SL wins in
 * ibsmd as in OpenSM). */
static void finish_cc(struct conf *c)
{
	for (unsigned i = 0; i < sizeof(ca_sl_keys) / sizeof(ca_sl_keys[0]); i++) {
		char key[80], what[CC_SLS * 16 + 64];
		if (!c->ca_sl[i].line)
			continue;
		c->im->line = c->ca_sl[i].line;
		snprintf(key, sizeof(key), "congestion_control.%s", ca_sl_keys[i] + 3);
		snprintf(what, sizeof(what), "%s %s", ca_sl_keys[i], c->ca_sl[i].text);
		sm_osm_import_set(c->im, key, c->ca_sl[i].text, what);
	}
}

/* OpenSM's engine names, as ibsmd's; NULL: none. */
static const char *engine_name(const char *osm)
{
	static const char *const same[] = { "minhop", "updn", "ftree", "file", "dfsssp" };

	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (strcmp(osm, same[i]) == 0)
			return same[i];
	return strcmp(osm, "sssp") == 0 ? "dfsssp" : NULL;
}

static void conv_routing(struct conf *c, const struct osm_key *k, const char *val)
{
	char list[SM_OSM_MAX_LINE], *save = NULL;

	c->nchain = 0;
	c->chain_line = c->im->line;
	snprintf(c->chain_note, sizeof(c->chain_note), "%s %.100s", k->name, val);
	if (strcmp(val, k->def) == 0)
		return;	/* OpenSM's minhop */
	snprintf(list, sizeof(list), "%s", val);
	for (char *e = strtok_r(list, ", ", &save); e; e = strtok_r(NULL, ", ", &save)) {
		const char *ours = engine_name(e);
		bool dup = false;
		for (unsigned i = 0; ours && i < c->nchain; i++)
			dup |= strcmp(c->chain[i], ours) == 0;
		if (!ours)
			sm_osm_import_missing(c->im, k->name, e, "ibsmd has no such engine (dfsssp "
					      "is deadlock free on any topology): left out of the "
					      "chain");
		else if (!dup && c->nchain < SM_MAX_ENGINES - 1)
			snprintf(c->chain[c->nchain++], sizeof(c->chain[0]), "%s", ours);
	}
}

static void conv_option(struct conf *c, const struct osm_key *k, const char *val)
{
	static const struct {
		const char *osm, *opt;
	} opts[] = {
		{ "lfts_file", "file" }, { "root_guid_file", "root_guid_file" },
		{ "cn_guid_file", "cn_guid_file" }, { "io_guid_file", "io_guid_file" },
	};
	size_t i = 0;

	if (strcmp(val, "(null)") == 0) {
		sm_osm_import_at_default(c->im, k->name);
		return;
	}
	while (strcmp(opts[i].osm, k->name))
		i++;
	size_t olen = strlen(opts[i].opt);
	for (unsigned j = 0; j < c->nopts;)	/* given again: the later counts */
		if (strncmp(c->opts[j].text, opts[i].opt, olen) == 0 && c->opts[j].text[olen] == '=')
			c->opts[j] = c->opts[--c->nopts];
		else
			j++;
	if (c->nopts == SM_MAX_ROUTING_OPTIONS) {
		sm_osm_import_error(c->im, "more than %d routing options", SM_MAX_ROUTING_OPTIONS);
		return;
	}
	snprintf(c->opts[c->nopts].text, sizeof(c->opts[0].text), "%s=%.*s", opts[i].opt,
		 (int)(SM_PATH_LEN - 32), val);
	snprintf(c->opts[c->nopts].note, sizeof(c->opts[0].note), "%s %.*s", k->name,
		 (int)SM_PATH_LEN, val);
	c->opts[c->nopts++].line = c->im->line;
}

#define NONE(n, d, w) { .name = n, .def = d, .why = w }
#define NONE_SECRET(n, d, w) { .name = n, .def = d, .why = w, .secret = true }
#define PLAIN(n, d, k) { .name = n, .def = d, .to = k }
#define CONV(n, d, k, f) { .name = n, .def = d, .to = k, .conv = f }
#define QOS_WHY "convert the QoS with `ibsmd --import-opensm QOS-POLICY-FILE --import-opensm " \
	"THIS-FILE` into the file qos_policy names"
/* OpenSM writes a 256-bit port mask as 64 hex digits */
#define CC_NO_PORTS "0x0000000000000000000000000000000000000000000000000000000000000000"
#define CC(n, d) PLAIN("cc_" n, d, "congestion_control." n)
#define CC_SL(n) CONV("cc_" n, NULL, "congestion_control." n, conv_cc_ca_sl)
#define PERF_WHY "ibsmd's PerfMgt pass has no such setting"
#define ROUTE_WHY "ibsmd's engines take no such input"

static const struct osm_key table[] = {
	CONV("guid", "0x0000000000000000", "port", conv_port),
	PLAIN("m_key", "0x0000000000000000", "mkey.key"),
	PLAIN("m_key_lease_period", "0", "mkey.lease_s"),
	PLAIN("m_key_protection_level", "0", "mkey.protect"),
	NONE("m_key_lookup", "TRUE", "ibsmd keeps the M_Keys it set in its store"),
	PLAIN("sm_key", "0x0000000000000001", "sm_key"),
	NONE_SECRET("sa_key", "0x0000000000000001", "ibsmd's SA checks no SA_Key"),
	PLAIN("subnet_prefix", "0xfe80000000000000", "subnet_prefix"),
	PLAIN("lmc", "0", "lmc"),
	NONE("lmc_esp0", "FALSE", "ibsmd gives switch port 0 one LID"),
	NONE("sm_sl", "0", "ibsmd's SM and SA use SL 0"),
	PLAIN("packet_life_time", "0x12", "link.life_time"),
	PLAIN("vl_stall_count", "0x07", "link.vl_stall_count"),
	NONE("leaf_vl_stall_count", "0x07", "ibsmd writes link.vl_stall_count on every switch port"),
	PLAIN("head_of_queue_lifetime", "0x12", "link.hoq_life"),
	PLAIN("leaf_head_of_queue_lifetime", "0x10", "link.hoq_life_leaf"),
	NONE("max_op_vls", "5", "ibsmd leaves OperationalVLs as the ports hold them"),
	CONV("force_link_speed", "15", "link.enable_all_supported", conv_force),
	CONV("force_link_speed_ext", "31", "link.enable_all_supported", conv_force),
	CONV("force_link_width", "255", "link.enable_all_supported", conv_force),
	NONE("fdr10", "1", "ibsmd sends no vendor ExtendedPortInfo"),
	PLAIN("subnet_timeout", "18", "link.subnet_timeout"),
	PLAIN("local_phy_errors_threshold", "0x08", "link.local_phy_errors"),
	PLAIN("overrun_errors_threshold", "0x08", "link.overrun_errors"),
	NONE("use_mfttop", "TRUE", "ibsmd programs the MFT blocks groups use"),
	CONV("partition_config_file", "/etc/opensm/partitions.conf", "partitions", conv_partitions),
	NONE("no_partition_enforcement", "FALSE", "ibsmd enforces partitions on switch ports to "
	     "CAs and routers where switches can"),
	NONE("part_enforce", "both", "ibsmd enforces inbound and outbound where switches can"),
	NONE("allow_both_pkeys", "FALSE", "ibsmd reads a membership of both as full"),
	NONE("keep_pkey_indexes", "TRUE", "ibsmd packs each P_KeyTable from entry 0"),
	NONE("sm_assigned_guid", "0x00", "ibsmd assigns no alias GUIDs"),
	PLAIN("sweep_interval", "10", "sweep.interval"),
	CONV("reassign_lids", "FALSE", "guid2lid", conv_reassign),
	NONE("force_heavy_sweep", "FALSE", "ibsmd's light sweeps tell when a heavy one is due"),
	NONE("sweep_on_trap", "TRUE", "ibsmd sweeps on traps 128 and 144, and holds a babbling "
	     "port's (traps.*)"),
	NONE("port_profile_switch_nodes", "FALSE", ROUTE_WHY),
	NONE("port_prof_ignore_file", "(null)", ROUTE_WHY),
	NONE("hop_weights_file", "(null)", ROUTE_WHY),
	NONE("port_search_ordering_file", "(null)", ROUTE_WHY),
	CONV("routing_engine", "(null)", "routing", conv_routing),
	NONE("avoid_throttled_links", "FALSE", ROUTE_WHY),
	NONE("connect_roots", "FALSE", "updn and ftree route between roots as the links allow"),
	NONE("use_ucast_cache", "FALSE", "ibsmd patches the LFTs around a dead link before the "
	     "next heavy sweep"),
	NONE("lid_matrix_dump_file", "(null)", "smquery dump-opensm writes OpenSM's dumps"),
	CONV("lfts_file", "(null)", "routing_options", conv_option),
	CONV("root_guid_file", "(null)", "routing_options", conv_option),
	CONV("cn_guid_file", "(null)", "routing_options", conv_option),
	CONV("io_guid_file", "(null)", "routing_options", conv_option),
	NONE("quasi_ftree_indexing", "FALSE", ROUTE_WHY),
	NONE("max_reverse_hops", "0", "ibsmd's ftree routes I/O nodes to every CA itself, "
	     "turning on SLs 1 to 7 where it must"),
	NONE("ids_guid_file", "(null)", ROUTE_WHY),
	NONE("guid_routing_order_file", "(null)", ROUTE_WHY),
	NONE("do_mesh_analysis", "FALSE", "no lash engine"),
	NONE("lash_start_vl", "0", "no lash engine"),
	NONE("nue_max_num_vls", "1", "no nue engine"),
	NONE("nue_include_switches", "FALSE", "no nue engine"),
	NONE("port_shifting", "FALSE", ROUTE_WHY),
	NONE("scatter_ports", "0", ROUTE_WHY),
	NONE("guid_routing_order_no_scatter", "FALSE", ROUTE_WHY),
	NONE("sa_db_file", "(null)", "ibsmd keeps the SA's records in its store"),
	NONE("sa_db_dump", "FALSE", "ibsmd keeps the SA's records in its store"),
	NONE("torus_config", "/etc/opensm/torus-2QoS.conf", "no torus-2QoS engine"),
	PLAIN("sm_priority", "0", "sm_priority"),
	NONE("ignore_other_sm", "FALSE", "ibsmd always takes part in the election"),
	PLAIN("sminfo_polling_timeout", "10000", "ha.poll_interval_ms"),
	PLAIN("polling_retry_number", "4", "ha.poll_retries"),
	NONE("honor_guid2lid_file", "FALSE", "ibsmd's LID map holds the LIDs across restarts"),
	{ .name = "max_wire_smps", .def = "4", .to = "sweep.window",
	  .why = "a per-node bound, sweep.smps_per_node, guards each device", .keep = true },
	NONE("max_wire_smps2", "4", "ibsmd's window grows and shrinks with the answers"),
	NONE("max_smps_timeout", "600000", "ibsmd's window grows and shrinks with the answers"),
	PLAIN("transaction_timeout", "200", "sweep.timeout_ms"),
	PLAIN("transaction_retries", "3", "sweep.retries"),
	NONE("long_transaction_timeout", "500", "ibsmd has one SMP timeout"),
	NONE("max_msg_fifo_timeout", "10000", "ibsmd has no message FIFO"),
	NONE("single_thread", "FALSE", "ibsmd runs one event loop"),
	NONE("daemon", "FALSE", "ibsmd does not fork: run it under systemd"),
	NONE("sm_inactive", "FALSE", "stop the service instead"),
	NONE("babbling_port_policy", "FALSE", "ibsmd ignores a babbling port's traps for "
	     "traps.holddown_s, it disables no port"),
	NONE("drop_event_subscriptions", "FALSE", "ibsmd keeps InformInfo subscriptions in its "
	     "store"),
	NONE("ipoib_mcgroup_creation_validation", "TRUE", "ibsmd checks every group's parameters"),
	NONE("mcgroup_join_validation", "TRUE", "ibsmd checks every join"),
	NONE("use_original_extended_sa_rates_only", "FALSE", "ibsmd's SA answers every IBA rate"),
	NONE("use_optimized_slvl", "FALSE", "ibsmd uses optimized SL2VL Sets where a switch "
	     "offers them"),
	NONE("fsync_high_avail_files", "TRUE", "ibsmd's store is SQLite in WAL mode"),
	CONV("perfmgr", "FALSE", "perfmgr.interval", conv_perfmgr),
	NONE("perfmgr_redir", "TRUE", PERF_WHY),
	CONV("perfmgr_sweep_time_s", "180", "perfmgr.interval", conv_perf_time),
	NONE("perfmgr_max_outstanding_queries", "500", "ibsmd's PerfMgt MADs take at most half "
	     "of sweep.window"),
	NONE("perfmgr_ignore_cas", "FALSE", PERF_WHY),
	NONE("perfmgr_rm_nodes", "TRUE", "ibsmd forgets nodes as sweeps do"),
	NONE("perfmgr_log_errors", "TRUE", "ibsmd stores the counters: smquery counters"),
	NONE("perfmgr_query_cpi", "TRUE", "ibsmd asks ClassPortInfo once per node"),
	NONE("perfmgr_xmit_wait_log", "FALSE", "ibsmd stores PortXmitWait: smquery counters"),
	NONE("perfmgr_xmit_wait_threshold", "65535", PERF_WHY),
	NONE("event_db_dump_file", "(null)", "smquery events and metrics"),
	NONE("event_plugin_name", "(null)", "ibsmd loads no event plugins"),
	NONE("event_plugin_options", "(null)", "ibsmd loads no event plugins"),
	NONE("node_name_map_name", "(null)", "ibsmd names nodes by NodeDescription"),
	CONV("log_flags", "0x03", "log.level", conv_log_flags),
	NONE("force_log_flush", "FALSE", "ibsmd writes each log line at once"),
	{ .name = "log_file", .def = "/var/log/opensm.log", .to = "log.file",
	  .why = "standard error (the journal); OpenSM's file stays OpenSM's", .keep = true },
	NONE("log_max_size", "0", "rotate with logrotate: SIGUSR1 reopens the file"),
	NONE("accum_log_file", "TRUE", "ibsmd appends to its log file"),
	NONE("per_module_logging_file", "/etc/opensm/per-module-logging.conf",
	     "ibsmd has one log level"),
	NONE("dump_files_dir", "/var/log/", "smquery dump-opensm DIR writes OpenSM's dumps"),
	NONE("enable_quirks", "FALSE", "ibsmd applies its device rules itself"),
	NONE("no_clients_rereg", "FALSE", "ibsmd asks clients to reregister as OpenSM does"),
	NONE("disable_multicast", "FALSE", "ibsmd always runs multicast"),
	NONE("exit_on_fatal", "TRUE", "ibsmd logs and goes on"),
	NONE("console", "off", "smquery and the control socket"),
	NONE("console_port", "10000", "smquery and the control socket"),
	NONE("qos", "FALSE", QOS_WHY),
	NONE("qos_policy_file", "/etc/opensm/qos-policy.conf", QOS_WHY),
	NONE("qos_*", NULL, QOS_WHY),
	NONE("suppress_sl2vl_mad_status_errors", "FALSE", "ibsmd logs a device that refuses its "
	     "SL2VL tables once"),
	CONV("congestion_control", "FALSE", "congestion_control.enable", conv_cc_enable),
	CONV("cc_key", "0x0000000000000000", "congestion_control.cc_key", conv_cc_key),
	CC("max_outstanding_mads", "500"),
	CC("sw_cong_setting_control_map", "0x00000000"),
	CC("sw_cong_setting_victim_mask", CC_NO_PORTS),
	CC("sw_cong_setting_credit_mask", CC_NO_PORTS),
	CC("sw_cong_setting_threshold", "0x00"),
	CC("sw_cong_setting_packet_size", "0"),
	CC("sw_cong_setting_credit_starvation_threshold", "0x00"),
	CC("sw_cong_setting_credit_starvation_return_delay", "0:0"),
	CC("sw_cong_setting_marking_rate", "0"),
	CC("ca_cong_setting_port_control", "0x0000"),
	CC("ca_cong_setting_control_map", "0x0000"),
	CC_SL("ca_cong_setting_ccti_timer"),
	CC_SL("ca_cong_setting_ccti_increase"),
	CC_SL("ca_cong_setting_trigger_threshold"),
	CC_SL("ca_cong_setting_ccti_min"),
	CONV("cc_cct", "(null)", "congestion_control.cct", conv_cc_cct),
	NONE("prefix_routes_file", "/etc/opensm/prefix-routes.conf", "ibsmd has no prefix routes"),
	NONE("consolidate_ipv6_snm_req", "FALSE", "ibsmd keeps each solicited-node group"),
	NONE("log_prefix", "(null)", "ibsmd's log lines carry no prefix"),
};

#define NROWS (sizeof(table) / sizeof(table[0]))

static const struct osm_key *row(const char *key)
{
	for (size_t i = 0; i < NROWS; i++) {
		size_t n = strlen(table[i].name);
		if (table[i].name[n - 1] == '*' ? strncmp(key, table[i].name, n - 1) == 0
						 : strcmp(key, table[i].name) == 0)
			return &table[i];
	}
	return NULL;
}

/* A family's value that sets nothing: (null), FALSE, 0, -1, all zeros. */
static bool unset(const char *val)
{
	return strcmp(val, "(null)") == 0 || strcmp(val, "FALSE") == 0 ||
	       strcmp(val, "-1") == 0 || strspn(val, "0x: ") == strlen(val);
}

bool sm_osm_conf_split(char *line, char **key, char **val)
{
	char *s = line + strspn(line, " \t");
	size_t n = strlen(s);

	while (n && strchr(" \t\r\n", s[n - 1]))
		s[--n] = '\0';
	if (!*s || *s == '#')
		return false;
	*key = s;
	s += strcspn(s, " \t");
	if (*s)
		*s++ = '\0';
	*val = s + strspn(s, " \t");
	return true;
}

bool sm_osm_conf_is(FILE *in)
{
	char line[SM_OSM_MAX_LINE + 2], *key, *val;
	bool is = false;

	while (fgets(line, sizeof(line), in))
		if (sm_osm_conf_split(line, &key, &val)) {
			is = row(key) != NULL;
			break;
		}
	rewind(in);
	return is;
}

static void convert_line(struct conf *c, char *key, char *val)
{
	const struct osm_key *k = row(key);

	if (strlen(key) > CONF_MAX_KEY) {
		sm_osm_import_error(c->im, "'%s': not an opensm.conf key", TOKEN(key));
		return;
	}
	if (!k) {
		sm_osm_import_unknown(c->im, key, val);
		return;
	}
	size_t r = (size_t)(k - table);
	if (k->def && c->seen[r]) {
		sm_osm_import_warn(c->im, "%s given again (first at line %u): the later counts, "
				   "as in OpenSM", key, c->seen[r]);
		if (k->to && !k->conv)
			sm_osm_import_forget(c->im, k->to);
	}
	c->seen[r] = c->im->line;
	if (k->conv)
		k->conv(c, k, val);
	else if (k->to)
		conv_plain(c, k, val);
	else if (k->def ? strcmp(val, k->def) == 0 : unset(val))
		sm_osm_import_at_default(c->im, key);
	else
		sm_osm_import_missing(c->im, key, k->secret ? "(a key, not shown)" : val, k->why);
}

/* The chain, minhop last (OpenSM's fallback), and the options it reads. */
static void finish_routing(struct conf *c)
{
	struct sm_osm_import *im = c->im;
	const char *names[SM_MAX_ENGINES];
	char list[SM_MAX_ENGINES * 34] = "", why[512];
	bool minhop = false;

	for (unsigned i = 0; i < c->nchain; i++)
		minhop |= strcmp(c->chain[i], "minhop") == 0;
	if (!minhop)
		snprintf(c->chain[c->nchain++], sizeof(c->chain[0]), "minhop");
	for (unsigned i = 0; i < c->nchain; i++) {
		names[i] = c->chain[i];
		strcat(strcat(list, i ? "," : ""), c->chain[i]);
	}
	if (c->chain_line) {
		char what[300];
		im->line = c->chain_line;
		snprintf(what, sizeof(what), "%s%s", c->chain_note, minhop ? "" : c->nchain > 1 ?
			 " (minhop last: OpenSM falls back to it)" : ": OpenSM's minhop");
		sm_osm_import_set(im, "routing", list, what);
	}
	char opts[SM_MAX_ROUTING_OPTIONS * SM_PATH_LEN] = "", notes[2048] = "";
	for (unsigned i = 0; i < c->nopts; i++) {
		const char *o = c->opts[i].text;
		im->line = c->opts[i].line;
		if (rt_options_check(names, c->nchain, &o, 1, why, sizeof(why))) {
			const char *eq = strchr(c->opts[i].note, ' ');
			char key[64];
			snprintf(key, sizeof(key), "%.*s", (int)(eq - c->opts[i].note), c->opts[i].note);
			sm_osm_import_missing(im, key, eq + 1, why);
			continue;
		}
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts), "%s%s", opts[0] ? "," : "",
			 o);
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes), "%s%s",
			 notes[0] ? ", " : "", c->opts[i].note);
	}
	if (opts[0])
		sm_osm_import_set(im, "routing_options", opts, notes);
}

static void finish_perfmgr(struct conf *c)
{
	struct sm_osm_import *im = c->im;
	char what[128];

	if (c->perfmgr < 0)
		return;
	im->line = c->perf_line[0];
	snprintf(what, sizeof(what), "perfmgr %s%s%s", c->perfmgr ? "TRUE" : "FALSE",
		 c->perfmgr && c->perf_time[0] ? ", perfmgr_sweep_time_s " : "",
		 c->perfmgr ? c->perf_time : "");
	sm_osm_import_set(im, "perfmgr.interval", c->perfmgr ? c->perf_time[0] ? c->perf_time
				  : "180" : "0", what);
}

static void conf_line(void *arg, char *line)
{
	char *key, *val;

	if (sm_osm_conf_split(line, &key, &val))
		convert_line(arg, key, val);
}

void sm_osm_conf_convert(struct sm_osm_import *im, FILE *in)
{
	struct conf c = { .im = im, .perfmgr = -1 };

	if (!(c.seen = calloc(NROWS, sizeof(*c.seen)))) {
		sm_osm_import_error(im, "out of memory");
		return;
	}
	sm_osm_import_lines(im, in, "an opensm.conf", conf_line, &c);
	if (!im->errors) {
		finish_perfmgr(&c);
		finish_routing(&c);
		finish_cc(&c);
	}
	free(c.seen);
}

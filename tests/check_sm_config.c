// SPDX-License-Identifier: MIT
/*
 * check_sm_config.c - ibsmd.yaml: every key read, every mistake named with its
 * file, line and column, a bad file leaving the configuration untouched; the
 * printed configuration matching its golden file and reading back as itself;
 * the semantic checks of --check-config; the diff a reload logs.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mad/mad_transport.h"
#include "sm/core/sm_config.h"
#include "sm/util/sm_log.h"
#include "tests/check_util.h"

static const char *cfg_path(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/tests/config/%s",
		 getenv("top_srcdir") ? getenv("top_srcdir") : ".", name);
	return path;
}

START_TEST(reads_every_key)
{
	struct sm_config c;
	char err[256];

	sm_config_defaults(&c);
	ck_assert_str_eq(c.metrics_file, "");
	ck_assert_uint_eq(c.retention_events, 100000);	/* a bounded store by default */
	ck_assert_uint_eq(c.retention_sweeps, 10000);
	ck_assert_int_eq(sm_config_load(&c, cfg_path("good.yaml"), err, sizeof(err)), 0);
	ck_assert_str_eq(c.backend, "sim:fabric.topo");
	ck_assert_str_eq(c.db_path, "/tmp/x.db");
	ck_assert_uint_eq(c.nrouting, 3);
	ck_assert_str_eq(c.routing[0], "ftree");
	ck_assert_str_eq(c.routing[2], "minhop");
	ck_assert_uint_eq(c.nrouting_options, 2);
	ck_assert_str_eq(c.routing_options[0], "root=0x0002c9030000abcd");
	ck_assert_str_eq(c.routing_options[1], "file=/etc/ibsmd/lfts.dump");
	ck_assert_uint_eq(c.lmc, 2);
	ck_assert_uint_eq(c.sm_priority, 7);
	ck_assert_uint_eq(c.subnet_prefix, 0xfe80000000000001ULL);
	ck_assert_int_eq(c.log_level, LOG_DEBUG);
	ck_assert_uint_eq(c.sweep_interval_s, 0);
	ck_assert_uint_eq(c.window, 128);
	ck_assert_uint_eq(c.smps_per_node, 2);
	ck_assert_uint_eq(c.timeout_ms, 50);
	ck_assert_uint_eq(c.retries, 5);
	ck_assert_str_eq(c.metrics_file, "/var/lib/node_exporter/textfile/ibsmd.prom");
	ck_assert_uint_eq(c.retention_events, 5000);
	ck_assert_uint_eq(c.retention_sweeps, 0);	/* keep every sweep */
	ck_assert_uint_eq(c.nports, 3);
	ck_assert_str_eq(c.ports[0], "mlx5_0:1");
	ck_assert_str_eq(c.ports[1], "mlx5_1:1");
	ck_assert_str_eq(c.ports[2], "0x0002c903000a0b0c");
	ck_assert_uint_eq(c.port_failback, 1);
	ck_assert_uint_eq(c.port_dwell_s, 30);
}
END_TEST

/* The link parameters (link.*), and that they change live. */
START_TEST(reads_link_keys)
{
	struct sm_config c, d;
	struct sm_config_change ch[16];
	char err[256];

	sm_config_defaults(&c);
	ck_assert_uint_eq(c.hoq_life, 0x12);	/* OpenSM's defaults */
	ck_assert_uint_eq(c.hoq_life_leaf, 0x10);
	ck_assert_uint_eq(c.vl_stall_count, 7);
	ck_assert_uint_eq(c.subnet_timeout, 0x12);
	ck_assert_uint_eq(c.life_time, 0x12);
	ck_assert_uint_eq(c.enable_all_supported, 1);
	d = c;
	ck_assert_int_eq(sm_config_load(&c, cfg_path("link.yaml"), err, sizeof(err)), 0);
	ck_assert_uint_eq(c.hoq_life, 0x13);
	ck_assert_uint_eq(c.hoq_life_leaf, 0x11);
	ck_assert_uint_eq(c.vl_stall_count, 5);
	ck_assert_uint_eq(c.subnet_timeout, 20);
	ck_assert_uint_eq(c.local_phy_errors, 4);
	ck_assert_uint_eq(c.overrun_errors, 15);
	ck_assert_uint_eq(c.life_time, 0x10);
	ck_assert_uint_eq(c.enable_all_supported, 0);
	int n = sm_config_diff(&d, &c, ch, 16);
	ck_assert_int_eq(n, 8);
	for (int i = 0; i < n; i++)
		ck_assert_msg(ch[i].apply == SM_APPLY_LIVE, "%s", ch[i].key);
}
END_TEST

static void expect_error(const char *file, int rc, const char *needle)
{
	struct sm_config c, before;
	char err[256] = "";

	sm_config_defaults(&c);
	before = c;
	ck_assert_int_eq(sm_config_load(&c, cfg_path(file), err, sizeof(err)), rc);
	ck_assert_msg(strstr(err, needle), "%s: '%s' lacks '%s'", file, err, needle);
	ck_assert_msg(strstr(err, file), "%s: '%s' does not name the file", file, err);
	ck_assert_mem_eq(&c, &before, sizeof(c));
}

/* ibsmd.yaml nested past the bound is refused at once, where it goes too
 * deep (libyaml alone takes time quadratic in the depth), the configuration
 * left as it was. */
START_TEST(deep_nesting_refused_fast)
{
	size_t n = 120 * 1024;
	char *text = malloc(n + 16), err[256];
	struct sm_config c, before;

	ck_assert_ptr_nonnull(text);
	memcpy(text, "routing: ", 9);
	memset(text + 9, '[', n);
	strcpy(text + 9 + n, "\n");
	sm_config_defaults(&c);
	before = c;
	FILE *in = fmemopen(text, strlen(text), "r");
	ck_assert_ptr_nonnull(in);
	uint64_t t0 = mad_now_ms();
	ck_assert_int_eq(sm_config_parse(&c, in, "deep.yaml", err, sizeof(err)), -EINVAL);
	ck_assert_uint_lt(mad_now_ms() - t0, 500);
	fclose(in);
	ck_assert_str_eq(err, "deep.yaml:1:41: collections nested deeper than 32 levels");
	ck_assert_mem_eq(&c, &before, sizeof(c));
	free(text);
}
END_TEST

START_TEST(mistakes_are_named)
{
	expect_error("bad-key.yaml", -EINVAL, ":3:3: unknown key 'sweep.windw'");
	/* pointed at /etc/shadow: a short token of its line, never the hash */
	expect_error("shadow.yaml", -EINVAL, "shadow.yaml:1:1: unknown key 'root...'");
	expect_error("bad-range.yaml", -EINVAL, ":1:6: lmc: expected a whole number from 0 to 7");
	expect_error("bad-yaml.yaml", -EINVAL, "bad-yaml.yaml:2:4: ");
	expect_error("bad-number.yaml", -EINVAL, ":2:11: sweep.window: expected a whole number "
		     "from 1 to 4096");
	expect_error("bad-level.yaml", -EINVAL, ":2:10: log.level: 'loud' is not one of");
	expect_error("bad-root.yaml", -EINVAL, ":1:1: the file must be a mapping");
	expect_error("bad-option.yaml", -EINVAL, ":1:19: routing_options: 'root' is not key=value");
	expect_error("bad-section.yaml", -EINVAL, ":1:6: log: expected a mapping");
	expect_error("bad-control.yaml", -EINVAL, ":1:5: db: control character U+0001");
	expect_error("bad-retention.yaml", -EINVAL, ":2:11: retention.events: expected a whole number from 0 to 4294967295");
	expect_error("bad-link.yaml", -EINVAL,
		     ":2:19: link.vl_stall_count: expected a whole number from 0 to 7");
	expect_error("bad-port.yaml", -EINVAL, ":1:18: port: 'mlx5_0' is neither DEVICE:PORT");
	expect_error("bad-port-twice.yaml", -EINVAL, ":4:5: port: 'mlx5_0:1' is listed twice");
	expect_error("missing.yaml", -ENOENT, "No such file");
}
END_TEST

START_TEST(routing_chain_from_the_command_line)
{
	struct sm_config c;
	char err[256];

	sm_config_defaults(&c);
	ck_assert_int_eq(sm_config_set_routing(&c, "updn,minhop", err, sizeof(err)), 0);
	ck_assert_uint_eq(c.nrouting, 2);
	ck_assert_str_eq(c.routing[1], "minhop");
	ck_assert_int_eq(sm_config_set_routing(&c, ",", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(sm_config_set_routing(&c, "a,b,c,d,e,f,g,h,i", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "at most 8"));
}
END_TEST

/* Issue 13: the last of two equal keys used to win silently. */
START_TEST(duplicate_keys_are_errors)
{
	expect_error("dup-key.yaml", -EINVAL, ":3:1: duplicate key 'lmc' (first at line 1)");
	expect_error("dup-nested.yaml", -EINVAL,
		     ":3:3: duplicate key 'sweep.window' (first at line 2)");
	expect_error("dup-section.yaml", -EINVAL, ":4:1: duplicate key 'log' (first at line 1)");
}
END_TEST

/* Issue 13: a second document used to be ignored. */
START_TEST(a_second_document_is_an_error)
{
	expect_error("two-docs.yaml", -EINVAL, "two-docs.yaml:2:1: a second YAML document");
}
END_TEST

/* Issue 13: "024" used to be read as octal (20).  It is refused, and says why. */
START_TEST(leading_zeros_are_refused_not_octal)
{
	struct sm_config c;
	char err[256];

	expect_error("octal.yaml", -EINVAL, ":2:12: sweep.retries: '024' has a leading zero");
	expect_error("octal.yaml", -EINVAL, "octal is not read");
	sm_config_defaults(&c);
	ck_assert_int_eq(sm_config_set(&c, "sweep.retries", "0x14", err, sizeof(err)), 0);
	ck_assert_uint_eq(c.retries, 20);
	ck_assert_int_eq(sm_config_set(&c, "sweep.retries", "0", err, sizeof(err)), 0);
	ck_assert_uint_eq(c.retries, 0);
	ck_assert_int_eq(sm_config_set(&c, "sweep.retries", "00", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(sm_config_set(&c, "sweep.retries", "+3", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(sm_config_set(&c, "sweep.retries", "-0", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(sm_config_set(&c, "sweep.retries", "0x", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(sm_config_set(&c, "subnet_prefix", "0x1ffffffffffffffff", err,
					 sizeof(err)), -EINVAL);
	ck_assert_uint_eq(c.retries, 0);
}
END_TEST

/* Issue 13: engine names were char[32], so plugin paths of 32 characters or more
 * were refused. */
START_TEST(long_plugin_paths_are_accepted)
{
	static const char path[] = "/usr/lib/x86_64-linux-gnu/ibsmd/site-plugins/fabric_engine.so";
	struct sm_config c;
	char err[256], longest[SM_PATH_LEN];

	sm_config_defaults(&c);
	ck_assert_int_eq(sm_config_load(&c, cfg_path("long-plugin.yaml"), err, sizeof(err)), 0);
	ck_assert_uint_eq(c.nrouting, 2);
	ck_assert_str_eq(c.routing[0], path);
	memset(longest, 'a', sizeof(longest) - 1);
	longest[0] = '/';
	longest[sizeof(longest) - 1] = '\0';
	ck_assert_int_eq(sm_config_set_routing(&c, longest, err, sizeof(err)), 0);
	ck_assert_str_eq(c.routing[0], longest);
	longest[sizeof(longest) - 2] = '\0';
	char *too_long = malloc(SM_PATH_LEN + 2);
	memset(too_long, 'b', SM_PATH_LEN + 1);
	too_long[SM_PATH_LEN + 1] = '\0';
	ck_assert_int_eq(sm_config_set_routing(&c, too_long, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "too long"));
	free(too_long);
}
END_TEST

/* The paths configure chose, marked in the golden files as in
 * etc/ibsmd.yaml.in; the keys whose defaults they are. */
static const struct { const char *mark, *value, *key; } dirs[] = {
	{ "@ibsmd_db@", IBSMD_DB_PATH, "db: " },
	{ "@ibsmd_socket@", IBSMD_SOCKET_PATH, "socket: " },
};

/* The golden file with the directories configure chose filled in. */
static char *golden(const char *name)
{
	FILE *f = fopen(cfg_path(name), "r");
	char *out = NULL, line[1024];
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		char *p = line;
		for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
			char *at = strstr(p, dirs[i].mark);
			if (!at)
				continue;
			fprintf(mem, "%.*s%s", (int)(at - p), p, dirs[i].value);
			p = at + strlen(dirs[i].mark);
		}
		fputs(p, mem);
	}
	fclose(f);
	fclose(mem);
	return out;
}

/* @text must equal the golden file @name; with GOLDEN_UPDATE=1 it replaces the
 * file instead (the default directories marked again). */
static void same_as_golden(const char *text, const char *name)
{
	const char *update = getenv("GOLDEN_UPDATE");

	if (update && strcmp(update, "1") == 0) {
		FILE *f = fopen(cfg_path(name), "w");
		ck_assert_ptr_nonnull(f);
		for (const char *p = text; *p;) {
			size_t n = strcspn(p, "\n"), skip = 0;
			n += p[n] == '\n';
			for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !skip; i++) {
				size_t k = strlen(dirs[i].key), v = strlen(dirs[i].value);
				if (strncmp(p, dirs[i].key, k) == 0 &&
				    strncmp(p + k, dirs[i].value, v) == 0 && p[k + v] == '\n') {
					fprintf(f, "%s%s", dirs[i].key, dirs[i].mark);
					skip = k + v;
				}
			}
			fwrite(p + skip, 1, n - skip, f);
			p += n;
		}
		ck_assert_int_eq(fclose(f), 0);
	}
	char *want = golden(name);
	ck_assert_str_eq(text, want);
	free(want);
}

static char *printed(const struct sm_config *c)
{
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);

	ck_assert_int_eq(sm_config_write(c, mem), 0);
	fclose(mem);
	return out;
}

/* @text without its lines that show a redacted secret. */
static char *without_redacted(const char *text)
{
	static const char shown[] = ": \"" SM_CONFIG_REDACTED "\"";
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n') ? strchr(p, '\n') : p + strlen(p);
		size_t n = (size_t)(nl - p);
		if (n < strlen(shown) || memcmp(nl - strlen(shown), shown, strlen(shown)))
			fwrite(p, 1, n + (*nl == '\n'), mem);
		p = nl + (*nl == '\n');
	}
	fclose(mem);
	return out;
}

/* Print @c, read it back over the defaults, print again: the same text and the
 * same configuration.  The secrets are not printed: their lines are left out
 * and the defaults read over hold @c's secrets, as if given again.  Returns the
 * first print. */
static char *round_trip(const struct sm_config *c)
{
	struct sm_config back;
	char err[256] = "";
	char *text = printed(c), *rest = without_redacted(text);
	FILE *in = fmemopen(rest, strlen(rest), "r");

	sm_config_defaults(&back);
	back.sm_key = c->sm_key;
	back.mkey_key = c->mkey_key;
	memcpy(back.mkey_secret, c->mkey_secret, sizeof(back.mkey_secret));
	ck_assert_msg(sm_config_parse(&back, in, "printed", err, sizeof(err)) == 0,
		      "printed text does not parse: %s\n%s", err, text);
	fclose(in);
	free(rest);
	struct sm_config_change ch[4];
	ck_assert_int_eq(sm_config_diff(c, &back, ch, 4), 0);
	char *again = printed(&back);
	ck_assert_str_eq(again, text);
	free(again);
	return text;
}

START_TEST(printed_configuration_matches_golden_and_reads_back)
{
	struct sm_config c;
	char err[256];

	sm_config_defaults(&c);
	char *text = round_trip(&c);
	same_as_golden(text, "defaults.golden");
	free(text);

	ck_assert_int_eq(sm_config_load(&c, cfg_path("good.yaml"), err, sizeof(err)), 0);
	text = round_trip(&c);
	same_as_golden(text, "good.golden");
	free(text);
}
END_TEST

static unsigned occurrences(const char *text, const char *needle)
{
	unsigned n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* --check-config -v went into tickets with mkey.secret and sm_key in clear.
 * The secret keys say whether they are set and show a placeholder that the
 * reader refuses, by the command line too. */
START_TEST(secrets_are_never_printed)
{
	static const char *const leaks[] = {
		"correct horse", "5ec2e7", "5EC2E7",
		"6828567920587382785" /* 0x5ec2e7000000a001 */,
		"6828567920587386882" /* 0x5ec2e7000000b002 */,
	};
	static const char *const secret_keys[] = { "sm_key", "mkey.key", "mkey.secret",
						   "congestion_control.cc_key" };
	struct sm_config c, back;
	char err[256];

	sm_config_defaults(&c);
	char *text = printed(&c);
	ck_assert_uint_eq(occurrences(text, "; secret, not set; "), 4);
	ck_assert_ptr_null(strstr(text, SM_CONFIG_REDACTED));
	free(text);

	ck_assert_int_eq(sm_config_set(&c, "sm_key", "0x5ec2e7000000a001", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_set(&c, "mkey.key", "0x5ec2e7000000b002", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_set(&c, "mkey.secret", "correct horse battery staple", err,
				       sizeof(err)), 0);
	text = printed(&c);
	for (size_t i = 0; i < sizeof(leaks) / sizeof(leaks[0]); i++)
		ck_assert_msg(!strstr(text, leaks[i]), "'%s' printed:\n%s", leaks[i], text);
	ck_assert_uint_eq(occurrences(text, "; secret, set (not shown); "), 3);
	ck_assert_uint_eq(occurrences(text, ": \"" SM_CONFIG_REDACTED "\"\n"), 3);

	/* fed back as it is, refused at the first secret, saying what to do */
	const char *line = strstr(text, "\nsm_key: ");
	ck_assert_ptr_nonnull(line);
	unsigned lineno = 1;
	for (const char *p = text; p <= line; p++)
		lineno += *p == '\n';
	char want[64];
	snprintf(want, sizeof(want), "printed:%u:9: sm_key: redacted value", lineno);
	FILE *in = fmemopen(text, strlen(text), "r");
	sm_config_defaults(&back);
	ck_assert_int_eq(sm_config_parse(&back, in, "printed", err, sizeof(err)), -EINVAL);
	fclose(in);
	ck_assert_msg(strstr(err, want) && strstr(err, "give the real key"), "%s", err);
	for (size_t i = 0; i < sizeof(secret_keys) / sizeof(secret_keys[0]); i++) {
		ck_assert_int_eq(sm_config_set(&back, secret_keys[i], SM_CONFIG_REDACTED, err,
					       sizeof(err)), -EINVAL);
		ck_assert_msg(strstr(err, "redacted value"), "%s: %s", secret_keys[i], err);
	}
	free(text);
}
END_TEST

/* A secret that is wrong is refused without being echoed: the message says
 * where (the key, the byte), never what. */
START_TEST(refused_secrets_are_not_echoed)
{
	static const struct { const char *key, *value, *leak; } bad[] = {
		{ "sm_key", "05ec2e75ec2e7", "5ec2e7" },		/* a leading zero */
		{ "mkey.key", "05ec2e75ec2e7", "5ec2e7" },
		{ "mkey.key", "0x5ec2e75ec2e7zz", "5ec2e7" },
		{ "mkey.secret", "tenant\tseven", "U+0009" },	/* a control character */
		{ "mkey.secret", "tenant\x01seven", "tenant" },
	};
	struct sm_config c;
	char err[256];

	sm_config_defaults(&c);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(sm_config_set(&c, bad[i].key, bad[i].value, err, sizeof(err)),
				 -EINVAL);
		ck_assert_msg(strncmp(err, bad[i].key, strlen(bad[i].key)) == 0, "%s", err);
		ck_assert_msg(!strstr(err, bad[i].leak), "%s = '%s': '%s'", bad[i].key,
			      bad[i].value, err);
	}
	ck_assert_int_eq(sm_config_set(&c, "mkey.secret", "tenant\tseven", err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "mkey.secret: a control character at byte 7 of the value");
	/* the other keys still say what they refused */
	ck_assert_int_eq(sm_config_set(&c, "sweep.retries", "024", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "'024' has a leading zero"));
}
END_TEST

/* A file setting a secret that every user may read is reported; without a
 * secret, or readable by its owner only, it is not. */
START_TEST(secret_in_a_readable_file_is_reported)
{
	char path[] = "/tmp/ibsmd-config-XXXXXX", err[256] = "";
	struct sm_config c;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "lmc: 1\n", 7), 7);
	close(fd);
	ck_assert_int_eq(chmod(path, 0644), 0);
	sm_config_defaults(&c);
	ck_assert_int_eq(sm_config_load(&c, path, err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_check_private(&c, path, err, sizeof(err)), 0);
	FILE *f = fopen(path, "a");
	ck_assert_ptr_nonnull(f);
	fputs("mkey:\n  secret: \"s3cr3t value\"\n", f);
	fclose(f);
	ck_assert_int_eq(sm_config_load(&c, path, err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_check_private(&c, path, err, sizeof(err)), -EACCES);
	ck_assert_msg(strstr(err, "mkey.secret: set in /tmp/ibsmd-config-") &&
		      strstr(err, "every user may read (mode 0644)") && !strstr(err, "s3cr3t"),
		      "%s", err);
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(sm_config_check_private(&c, path, err, sizeof(err)), 0);
	ck_assert_int_eq(unlink(path), 0);
}
END_TEST

/* Values YAML would misread if they were written bare. */
START_TEST(awkward_strings_read_back)
{
	static const char *const odd[] = {
		"", "a b", "#x", "x #y", "- x", "a: b", "[x]", "{x}", "a,b", "'q'", "\"q\"",
		"back\\slash", "~", "null", "true", "024", "0x10", "*alias", "&anchor", "!tag",
		"%dir", "@at", "`tick", "trailing:", "|", ">", "?", "é ü",
	};
	struct sm_config c;
	char err[256];

	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		sm_config_defaults(&c);
		snprintf(c.socket_path, sizeof(c.socket_path), "%s", odd[i]);
		snprintf(c.log_file, sizeof(c.log_file), "%s", odd[i]);
		if (odd[i][0]) {
			snprintf(c.db_path, sizeof(c.db_path), "%s", odd[i]);
			snprintf(c.routing[0], sizeof(c.routing[0]), "%s", odd[i]);
			snprintf(c.routing_options[0], sizeof(c.routing_options[0]), "k=%s", odd[i]);
			c.nrouting_options = 1;
		}
		free(round_trip(&c));
	}
	/* and what the command line sets reads back too */
	sm_config_defaults(&c);
	ck_assert_int_eq(sm_config_set(&c, "routing_options", "root=0x1,file=/a", err,
				       sizeof(err)), 0);
	ck_assert_uint_eq(c.nrouting_options, 2);
	free(round_trip(&c));
	/* a space separates too, and "b" alone is no option: nothing changes */
	ck_assert_int_eq(sm_config_set(&c, "routing_options", "root=0x2,file=/a b", err,
				       sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "routing_options: 'b' is not key=value");
	ck_assert_str_eq(c.routing_options[0], "root=0x1");
}
END_TEST

/* The file parses, but --check-config must still refuse it: @needle in the reason. */
static void expect_check_error(const char *file, const char *needle)
{
	struct sm_config c;
	char err[512] = "";

	sm_config_defaults(&c);
	ck_assert_msg(sm_config_load(&c, cfg_path(file), err, sizeof(err)) == 0, "%s: %s", file, err);
	ck_assert_int_eq(sm_config_check(&c, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, needle), "%s: '%s' lacks '%s'", file, err, needle);
}

/* Issue 13: --check-config checked the syntax only. */
START_TEST(check_config_checks_meaning)
{
	expect_check_error("bad-engine.yaml", "routing: 'nosuch_engine' is not a built-in engine");
	expect_check_error("bad-engine.yaml", "/nosuch_engine.so cannot be read");
	expect_check_error("bad-backend.yaml", "backend: umad: bad spec 'umad:mlx5_0:one'");
	expect_check_error("missing-topo.yaml",
			   "backend: sim: /nonexistent/fabric.topo: No such file or directory");
	expect_check_error("missing-logdir.yaml",
			   "log.file: directory /nonexistent/ibsmd: No such file or directory");
	expect_check_error("socket-is-db.yaml",
			   "socket: the same file as db (/tmp/ibsmd-test.db)");
	expect_check_error("log-is-db.yaml", "log.file: the same file as db");
	expect_check_error("socket-is-log.yaml", "log.file: the same file as socket");
	/* the metrics file is renamed over its path: over the store, it would replace it */
	expect_check_error("metrics-is-db.yaml",
			   "metrics_file: the same file as db (/tmp/ibsmd-test.db)");
	expect_check_error("missing-metricsdir.yaml",
			   "metrics_file: directory /nonexistent/prom: No such file or directory");
}
END_TEST

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fclose(f);
}

/* -c naming a FIFO nobody writes, an endless device or a directory: refused
 * at once (the FIFO once blocked ibsmd in open() with SIGTERM waiting in its
 * signalfd); /dev/null is no configuration at all. */
START_TEST(config_path_not_a_regular_file)
{
	char dir[] = "/tmp/check_sm_config.XXXXXX", fifo[600], err[512] = "";
	struct sm_config c;

	sm_config_defaults(&c);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/ibsmd.yaml", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(sm_config_load(&c, fifo, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "not a regular file"), "%s", err);
	ck_assert_int_eq(sm_config_load(&c, "/dev/zero", err, sizeof(err)), -EFBIG);
	ck_assert_msg(sm_config_load(&c, "/dev/null", err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(sm_config_load(&c, dir, err, sizeof(err)), -EINVAL);
	unlink(fifo);
	rmdir(dir);
}
END_TEST

START_TEST(check_config_accepts_what_is_fine)
{
	static const char *const backends[] = { "umad", "umad:mlx5_0", "umad:mlx5_0:1" };
	char err[512] = "", dir[] = "/tmp/check_sm_config.XXXXXX";
	char plugin[600], log[600], other[600], spec[600];
	struct sm_config c;

	sm_config_defaults(&c);
	ck_assert_msg(sm_config_check(&c, err, sizeof(err)) == 0, "defaults: %s", err);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* a plugin given as a path that exists, a sim fabric that exists */
	snprintf(plugin, sizeof(plugin), "%s/site_engine_with_a_rather_long_name.so", dir);
	touch(plugin);
	ck_assert_int_eq(sm_config_set(&c, "routing", plugin, err, sizeof(err)), 0);
	snprintf(spec, sizeof(spec), "sim:%s/tests/topo/twoswitch.topo,host=h1",
		 getenv("top_srcdir") ? getenv("top_srcdir") : ".");
	ck_assert_int_eq(sm_config_set(&c, "backend", spec, err, sizeof(err)), 0);
	snprintf(log, sizeof(log), "%s/ibsmd.log", dir);
	ck_assert_int_eq(sm_config_set(&c, "log.file", log, err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_set(&c, "socket", "", err, sizeof(err)), 0);
	ck_assert_msg(sm_config_check(&c, err, sizeof(err)) == 0, "%s", err);
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		ck_assert_int_eq(sm_config_set(&c, "backend", backends[i], err, sizeof(err)), 0);
		ck_assert_msg(sm_config_check(&c, err, sizeof(err)) == 0, "%s: %s", backends[i], err);
	}
	ck_assert_int_eq(sm_config_set(&c, "backend", "rdma", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_check(&c, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "backend: unknown backend 'rdma'"));
	ck_assert_int_eq(sm_config_set(&c, "backend", "umad", err, sizeof(err)), 0);
	/* two names for one file are still one file */
	snprintf(other, sizeof(other), "%s/other-name.log", dir);
	touch(log);
	ck_assert_int_eq(symlink(log, other), 0);
	ck_assert_int_eq(sm_config_set(&c, "db", other, err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_check(&c, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "log.file: the same file as db"));
	unlink(other);
	unlink(log);
	unlink(plugin);
	rmdir(dir);
}
END_TEST

START_TEST(diff_names_live_and_restart_keys)
{
	struct sm_config a, b;
	struct sm_config_change ch[16];
	char err[256], names[256];

	sm_config_defaults(&a);
	b = a;
	ck_assert_int_eq(sm_config_diff(&a, &b, ch, 16), 0);
	ck_assert_int_eq(sm_config_set(&b, "routing", "ftree,minhop", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_set(&b, "db", "/tmp/other.db", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_set(&b, "sweep.interval", "30", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_set(&b, "log.level", "debug", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_set(&b, "lmc", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_diff(&a, &b, ch, 16), 5);
	ck_assert_str_eq(ch[0].key, "db");
	ck_assert_int_eq(ch[0].apply, SM_APPLY_RESTART);
	ck_assert_str_eq(ch[1].key, "routing");
	ck_assert_int_eq(ch[1].apply, SM_APPLY_REROUTE);
	ck_assert_int_eq(sm_config_change_names(ch, 5, true, names, sizeof(names)), 3);
	ck_assert_str_eq(names, "routing, log.level, sweep.interval");
	ck_assert_int_eq(sm_config_change_names(ch, 5, false, names, sizeof(names)), 2);
	ck_assert_str_eq(names, "db, lmc");
	/* a short buffer: truncated, still counted */
	ck_assert_int_eq(sm_config_change_names(ch, 5, true, names, 8), 3);
	ck_assert_str_eq(names, "routing");
	/* more changes than room: counted, the first stored */
	ck_assert_int_eq(sm_config_diff(&a, &b, ch, 1), 5);
	ck_assert_str_eq(ch[0].key, "db");
	/* the same chain, one engine more: a change; options too */
	b = a;
	ck_assert_int_eq(sm_config_set(&b, "routing", "minhop,minhop", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_diff(&a, &b, ch, 16), 1);
	b = a;
	ck_assert_int_eq(sm_config_set(&b, "routing_options", "root=0x1", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_diff(&a, &b, ch, 16), 1);
	ck_assert_str_eq(ch[0].key, "routing_options");
	ck_assert_int_eq(ch[0].apply, SM_APPLY_REROUTE);
}
END_TEST

/* SIGHUP: the live keys of the new file are taken, the others stay. */
START_TEST(reload_takes_live_keys_only)
{
	struct sm_config running, file, want;
	struct sm_config_change ch[32];
	char err[256];

	sm_config_defaults(&running);
	ck_assert_int_eq(sm_config_set(&running, "routing", "updn,minhop", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_set(&running, "routing_options", "root=0x1", err, sizeof(err)), 0);
	sm_config_defaults(&file);
	ck_assert_int_eq(sm_config_load(&file, cfg_path("good.yaml"), err, sizeof(err)), 0);
	want = running;
	sm_config_apply_live(&running, &file);
	/* every live key now as in the file, every restart key as before */
	int n = sm_config_diff(&running, &file, ch, 32);
	for (int i = 0; i < n; i++)
		ck_assert_msg(ch[i].apply == SM_APPLY_RESTART, "%s not applied", ch[i].key);
	ck_assert_int_eq(n, 5);		/* backend, port, db, lmc, subnet_prefix */
	n = sm_config_diff(&want, &running, ch, 32);
	for (int i = 0; i < n; i++)
		ck_assert_msg(ch[i].apply != SM_APPLY_RESTART, "%s changed", ch[i].key);
	ck_assert_uint_eq(running.nrouting, 3);
	ck_assert_str_eq(running.routing[2], "minhop");
	ck_assert_uint_eq(running.nrouting_options, 2);
	ck_assert_uint_eq(running.window, 128);
	ck_assert_int_eq(running.log_level, LOG_DEBUG);
	ck_assert_str_eq(running.backend, want.backend);
	ck_assert_uint_eq(running.lmc, 0);
	ck_assert_uint_eq(running.sm_priority, 7);
}
END_TEST

START_TEST(command_line_values_are_checked_like_the_file)
{
	struct sm_config c, before;
	char err[256];

	sm_config_defaults(&c);
	before = c;
	ck_assert_int_eq(sm_config_set(&c, "sweep.window", "0", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "sweep.window: expected a whole number from 1 to 4096");
	ck_assert_int_eq(sm_config_set(&c, "log.level", "loud", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(sm_config_set(&c, "db", "", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "db: must not be empty");
	ck_assert_int_eq(sm_config_set(&c, "routing", "", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "routing: at least 1 entry");
	ck_assert_int_eq(sm_config_set(&c, "nosuch", "1", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "unknown key 'nosuch'");
	/* what could not be printed as YAML and read back */
	static const char *const not_utf8[] = { "/tmp/\xff.db", "/tmp/\xc3", "/\xc0\xaf",
						"/\xed\xa0\x80", "/\xf4\x90\x80\x80" };
	for (size_t i = 0; i < sizeof(not_utf8) / sizeof(not_utf8[0]); i++) {
		ck_assert_int_eq(sm_config_set(&c, "db", not_utf8[i], err, sizeof(err)), -EINVAL);
		ck_assert_str_eq(err, "db: the value is not valid UTF-8");
	}
	static const char *const breaks[] = { "/tmp/\x7f", "/\xc2\x85", "/\xe2\x80\xa8",
					      "/\xe2\x80\xa9", "/\xef\xbb\xbf" };
	for (size_t i = 0; i < sizeof(breaks) / sizeof(breaks[0]); i++) {
		ck_assert_int_eq(sm_config_set(&c, "db", breaks[i], err, sizeof(err)), -EINVAL);
		ck_assert_ptr_nonnull(strstr(err, "db: control character U+"));
	}
	ck_assert_mem_eq(&c, &before, sizeof(c));
	ck_assert_int_eq(sm_config_set(&c, "log.level", "debug", err, sizeof(err)), 0);
	ck_assert_int_eq(c.log_level, LOG_DEBUG);
}
END_TEST

/* ibsmd.yaml(5) has a paragraph (".B KEY") for every key of the table. */
START_TEST(man_page_documents_every_key)
{
	char path[512], *text = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/sm/ibsmd.yaml.5",
		 getenv("top_srcdir") ? getenv("top_srcdir") : ".");
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ne(getdelim(&text, &len, '\0', f), -1);
	fclose(f);
	const char *name;
	for (size_t i = 0; (name = sm_config_key_name(i)); i++) {
		char want[128];
		snprintf(want, sizeof(want), "\n.B %s\n", name);
		ck_assert_msg(strstr(text, want), "sm/ibsmd.yaml.5 does not document '%s'", name);
	}
	free(text);
}
END_TEST

/* The installed etc/ibsmd.yaml (made from etc/ibsmd.yaml.in) shows the
 * built-in defaults, the store's and the socket's paths included, and reads
 * without error. */
START_TEST(example_file_shows_the_defaults)
{
	struct sm_config example, defaults;
	struct sm_config_change ch[16];
	char err[256], path[512];

	snprintf(path, sizeof(path), "%s/etc/ibsmd.yaml",
		 getenv("top_builddir") ? getenv("top_builddir") : ".");
	sm_config_defaults(&defaults);
	sm_config_defaults(&example);
	ck_assert_msg(sm_config_load(&example, path, err, sizeof(err)) == 0, "%s", err);
	int n = sm_config_diff(&defaults, &example, ch, 16);
	ck_assert_msg(n == 0, "etc/ibsmd.yaml differs from the defaults in %s",
		      n ? ch[0].key : "");
}
END_TEST

/* The port list's worst values: each refused with its reason, and the
 * list as it was kept. */
START_TEST(port_list_worst_values)
{
	static const struct { const char *value, *why; } bad[] = {
		{ "mlx5_0", "'mlx5_0' is neither DEVICE:PORT" },
		{ ":1", "':1' is neither DEVICE:PORT" },
		{ "mlx5_0:", "'mlx5_0:' is neither DEVICE:PORT" },
		{ "mlx5_0:255", "'mlx5_0:255' is neither DEVICE:PORT (PORT 0..254" },
		{ "mlx5_0:01", "'mlx5_0:01' is neither DEVICE:PORT" },
		{ "mlx5_0:1x", "'mlx5_0:1x' is neither DEVICE:PORT" },
		{ "mlx5_0:99999999999999999999", "is neither DEVICE:PORT" },
		{ "mlx5_0:-1", "is neither DEVICE:PORT" },
		{ "mlx5_0:1,mlx5_0:2,mlx5_0:1", "'mlx5_0:1' is listed twice" },
		{ "a:1,b:1,c:1,d:1,e:1,f:1,g:1,h:1,i:1", "at most 8 entries" },
		{ "0x0", "'0x0' is neither DEVICE:PORT" },
		{ "0x", "'0x' is neither DEVICE:PORT" },
		{ "0x10000000000000000", "is neither DEVICE:PORT" },
		{ "0xfg", "is neither DEVICE:PORT" },
		{ "0x0002c903000a0b0c,mlx5_0:1,0x2c903000a0b0c", "'0x2c903000a0b0c' is listed twice" },
		{ "mlx5_0:1,,mlx5_0:2", "has an empty entry" },	/* one left out */
		{ ",mlx5_0:1", "has an empty entry" },
		{ "mlx5_0:1, ", "has an empty entry" },
		{ ",", "has an empty entry" },
	};
	struct sm_config c;
	char err[256], huge[8192];

	sm_config_defaults(&c);
	ck_assert_uint_eq(c.nports, 0);		/* none: the backend's port */
	ck_assert_uint_eq(c.port_failback, 0);	/* no failback unless asked */
	ck_assert_int_eq(sm_config_set(&c, "port", "mlx5_0:1", err, sizeof(err)), 0);
	ck_assert_uint_eq(c.nports, 1);		/* the single-value form */
	ck_assert_int_eq(sm_config_set(&c, "port", "mlx5_0:1,0x0002c903000a0b0c", err,
				       sizeof(err)), 0);
	ck_assert_uint_eq(c.nports, 2);
	free(round_trip(&c));
	ck_assert_int_eq(sm_config_set(&c, "port", "mlx5_0:1,mlx5_1:1", err, sizeof(err)), 0);
	ck_assert_uint_eq(c.nports, 2);
	free(round_trip(&c));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(sm_config_set(&c, "port", bad[i].value, err, sizeof(err)), -EINVAL);
		ck_assert_msg(strstr(err, bad[i].why), "%s: '%s' lacks '%s'", bad[i].value, err,
			      bad[i].why);
		ck_assert_uint_eq(c.nports, 2);
		ck_assert_str_eq(c.ports[1], "mlx5_1:1");
	}
	/* the routing chain is a list too */
	ck_assert_int_eq(sm_config_set(&c, "routing", "ftree,,minhop", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "has an empty entry"));
	ck_assert_int_eq(sm_config_set(&c, "routing", "ftree, minhop", err, sizeof(err)), 0);
	ck_assert_int_eq(sm_config_set(&c, "port", " ", err, sizeof(err)), 0);
	ck_assert_uint_eq(c.nports, 0);		/* all blanks: the empty list */
	/* a huge list: refused at the ninth entry, whatever follows */
	size_t used = 0;
	for (unsigned i = 0; used + 16 < sizeof(huge); i++)
		used += (size_t)snprintf(huge + used, sizeof(huge) - used, "%sd%u:1", i ? "," : "", i);
	ck_assert_int_eq(sm_config_set(&c, "port", huge, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "port: at most 8 entries");
	/* a device name longer than an entry holds */
	memset(huge, 'x', 200);
	snprintf(huge + 200, sizeof(huge) - 200, ":1");
	ck_assert_int_eq(sm_config_set(&c, "port", huge, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "value too long"), "%s", err);
	/* the empty list: back to the backend's own port */
	ck_assert_int_eq(sm_config_set(&c, "port", "", err, sizeof(err)), 0);
	ck_assert_uint_eq(c.nports, 0);
	ck_assert_int_eq(sm_config_set(&c, "port_dwell", "0", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(sm_config_set(&c, "port_failback", "2", err, sizeof(err)), -EINVAL);
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("sm_config");
	TCase *tc = tcase_create("yaml");

	tcase_add_test(tc, reads_every_key);
	tcase_add_test(tc, deep_nesting_refused_fast);
	tcase_add_test(tc, reads_link_keys);
	tcase_add_test(tc, config_path_not_a_regular_file);
	tcase_add_test(tc, mistakes_are_named);
	tcase_add_test(tc, routing_chain_from_the_command_line);
	tcase_add_test(tc, duplicate_keys_are_errors);
	tcase_add_test(tc, a_second_document_is_an_error);
	tcase_add_test(tc, leading_zeros_are_refused_not_octal);
	tcase_add_test(tc, long_plugin_paths_are_accepted);
	tcase_add_test(tc, printed_configuration_matches_golden_and_reads_back);
	tcase_add_test(tc, port_list_worst_values);
	tcase_add_test(tc, awkward_strings_read_back);
	tcase_add_test(tc, secrets_are_never_printed);
	tcase_add_test(tc, refused_secrets_are_not_echoed);
	tcase_add_test(tc, secret_in_a_readable_file_is_reported);
	tcase_add_test(tc, check_config_checks_meaning);
	tcase_add_test(tc, check_config_accepts_what_is_fine);
	tcase_add_test(tc, diff_names_live_and_restart_keys);
	tcase_add_test(tc, reload_takes_live_keys_only);
	tcase_add_test(tc, command_line_values_are_checked_like_the_file);
	tcase_add_test(tc, man_page_documents_every_key);
	tcase_add_test(tc, example_file_shows_the_defaults);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(config_suite)

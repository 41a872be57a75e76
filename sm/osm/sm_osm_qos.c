// SPDX-License-Identifier: MIT
/*
 * sm_osm_qos.c - OpenSM's QoS converted (sm_osm_import.h): a qos-policy.conf
 * and, when given, the qos_* keys of an opensm.conf, as the YAML file ibsmd's
 * qos_policy names (sm/sa/sm_qos_file.c, ibsmd.yaml(5)).
 *
 * The policy file's grammar (OpenSM's doc/QoS_management_in_OpenSM.txt): a
 * keyword first on its line; sections port-groups, qos-setup, qos-levels,
 * qos-match-rules and qos-ulps, each closed by end-SECTION; blocks
 * port-group, qos-level and qos-match-rule inside them, closed the same way,
 * of "key: value" lines, a value a comma list (numbers and LO-HI ranges, or
 * names, quoted or not); qos-ulps of "ULP[, CRITERION VALUE] : SL" lines;
 * '#' starts a comment.  Each block becomes one YAML list item, each of its
 * keys one YAML line (a key given again in a block adds to its list), and
 * every YAML line written remembers the OpenSM line it came from.
 *
 * Not carried over, listed at the end of the output and told: the qos-setup
 * section (OpenSM parses it and applies none of it: its tables come from
 * opensm.conf), a level's pkey and path-bits (ibsmd's levels have none).
 * Errors (nothing written): a line that is no keyword of its place, a block
 * or section left open or closed where none is open, a value that is not
 * what its key takes (an SL above 15, an MTU or a rate that is no IBA code,
 * a word in a list of numbers).  Last, the YAML is read back as the daemon
 * reads it (sm_qos_policy_parse()): what it refuses (a rule naming a group or
 * a level that is not there, no DEFAULT level, a name given twice, a value
 * out of its field) is an error at the OpenSM line its YAML line came from.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "mad/model/topo_text.h"
#include "sm/osm/sm_osm_import.h"
#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_qos.h"

#define TOKEN(s) topo_text_token((char[TOPO_TEXT_TOKEN_SIZE]){ 0 }, (s))

/* The YAML of one section as it is written, and per line its OpenSM line. */
struct ysec {
	FILE *f;
	char *buf;
	size_t len;
	unsigned *from;
	size_t n, cap;
};

/* How a block's key is carried. */
enum vkind {
	V_NAME,		/* one name: a quoted string */
	V_NAMES,	/* a comma list of names: a list of quoted strings */
	V_NUMS,		/* numbers and LO-HI ranges: one quoted string */
	V_NODE_TYPES,	/* CA, SWITCH, ROUTER, SELF, ALL */
	V_SL,		/* 0..15 */
	V_MTU,		/* an IBA MTU code, written as its word */
	V_RATE,		/* an IBA rate code, written as its word */
	V_USE,		/* a description: a YAML comment */
	V_NONE,		/* no counterpart: listed */
};

struct vkey {
	const char *osm, *yaml;
	enum vkind kind;
	const char *why;	/* V_NONE */
};

#define MAX_KEYS 8

struct block_kind {
	const char *name;	/* its keyword; "end-" + name closes it */
	const char *section;	/* the section it stands in */
	struct vkey keys[MAX_KEYS];
};

#define K(o, y, k) { .osm = (o), .yaml = (y), .kind = (k) }
#define NONE(o, w) { .osm = (o), .kind = V_NONE, .why = (w) }

static const struct block_kind blocks[] = {
	{ .name = "port-group", .section = "port-groups", .keys = {
		K("name", "name", V_NAME), K("use", NULL, V_USE),
		K("port-guid", "port_guids", V_NUMS), K("port-name", "port_names", V_NAMES),
		K("partition", "partitions", V_NAMES), K("pkey", "pkeys", V_NUMS),
		K("node-type", "node_types", V_NODE_TYPES) } },
	{ .name = "qos-level", .section = "qos-levels", .keys = {
		K("name", "name", V_NAME), K("use", NULL, V_USE), K("sl", "sl", V_SL),
		K("mtu-limit", "mtu_limit", V_MTU), K("rate-limit", "rate_limit", V_RATE),
		K("packet-life", "packet_life", V_NUMS),
		NONE("pkey", "ibsmd's QoS levels carry no P_Key: the partitions give it"),
		NONE("path-bits", "ibsmd's QoS levels choose no path bits") } },
	{ .name = "qos-match-rule", .section = "qos-match-rules", .keys = {
		K("use", NULL, V_USE), K("qos-class", "qos_class", V_NUMS),
		K("source", "source", V_NAMES), K("destination", "destination", V_NAMES),
		K("service-id", "service_ids", V_NUMS), K("pkey", "pkeys", V_NUMS),
		K("qos-level-name", "level", V_NAME) } },
};

#define NBLOCKS (sizeof(blocks) / sizeof(blocks[0]))

/* The sections, in the order the YAML holds them. */
enum { S_GROUPS, S_LEVELS, S_RULES, S_ULPS, S_TABLES, NSECTIONS };
static const char *const section_yaml[NSECTIONS] = {
	"port_groups", "qos_levels", "match_rules", "ulps", "vl_tables",
};

/* opensm.conf's qos_ prefixes and the port type each names. */
static const struct {
	const char *prefix, *type;
} conf_types[] = {
	{ "qos_ca_", "ca" }, { "qos_sw0_", "switch_port0" }, { "qos_swe_", "switch_external" },
	{ "qos_rtr_", "router" }, { "qos_", "all" },
};

#define NTYPES (sizeof(conf_types) / sizeof(conf_types[0]))

struct qos {
	struct sm_osm_import *im;
	struct ysec sec[NSECTIONS];
	struct ysec type[NTYPES];	/* vl_tables, per port type */
	const char *section;		/* the open section's keyword, NULL: none */
	unsigned section_line;
	const struct block_kind *block;	/* the open block, NULL: none */
	unsigned block_line;
	char *val[MAX_KEYS];		/* the open block's values, joined by ", " */
	unsigned val_line[MAX_KEYS];
	unsigned setup_line, setup_lines;	/* qos-setup: where, lines left out */
	size_t items[NBLOCKS];		/* blocks written, per kind */
	bool default_level;		/* a qos-level named DEFAULT (any case) */
	unsigned ulp_default_line;	/* qos-ulps' "default : SL", 0: none */
	unsigned long long ulp_default_sl;
	bool conf_qos_off;		/* opensm.conf says qos FALSE */
};

/* --- YAML lines --- */

static void ysec_line(struct qos *q, struct ysec *s, unsigned from, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void ysec_line(struct qos *q, struct ysec *s, unsigned from, const char *fmt, ...)
{
	va_list ap;

	if (!s->f && !(s->f = open_memstream(&s->buf, &s->len)))
		goto oom;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		unsigned *m = realloc(s->from, cap * sizeof(*m));
		if (!m)
			goto oom;
		s->from = m;
		s->cap = cap;
	}
	va_start(ap, fmt);
	vfprintf(s->f, fmt, ap);
	va_end(ap);
	fputc('\n', s->f);
	s->from[s->n++] = from;
	return;
oom:
	sm_osm_import_error(q->im, "out of memory");
}

static void ysec_free(struct ysec *s)
{
	if (s->f)
		fclose(s->f);
	free(s->buf);
	free(s->from);
}

/* @s as a YAML double-quoted string: printable ASCII as it is, '"' and '\\'
 * escaped, other bytes \xNN. */
static void quote(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, f);
		else
			fprintf(f, "\\x%02x", c);
	}
	fputc('"', f);
}

/* @s as a quoted YAML string, allocated; NULL without memory. */
static char *quoted(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	quote(f, s, strlen(s));
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* --- values --- */

/* @s without its leading and trailing blanks (in place). */
static char *trim(char *s)
{
	size_t n;

	s += strspn(s, " \t");
	n = strlen(s);
	while (n && strchr(" \t\r\n", s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* The next item of the comma list *@s (quotes kept whole, then dropped),
 * trimmed; *@s moves past it.  NULL at the end. */
static char *next_item(char **s)
{
	char *p = *s, *start;
	bool quoted = false;

	if (!p)
		return NULL;
	start = p;
	for (; *p && (quoted || *p != ','); p++)
		if (*p == '"')
			quoted = !quoted;
	*s = *p ? p + 1 : NULL;
	*p = '\0';
	start = trim(start);
	size_t n = strlen(start);
	if (n >= 2 && start[0] == '"' && start[n - 1] == '"') {
		start[n - 1] = '\0';
		start++;
	}
	return start;
}

/* A number as OpenSM reads one: decimal or 0x hex. */
static bool number(const char *s, unsigned long long *out)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return !errno && !*end;
}

/* Every item of @list a number or a LO-HI range; @list as one string. */
static bool number_list(struct qos *q, const char *key, char *list)
{
	char *copy = strdup(list), *rest = copy, *it;
	bool ok = copy != NULL;

	while (ok && (it = next_item(&rest))) {
		unsigned long long a;
		char *dash = strchr(it, '-');
		if (dash)
			*dash = '\0';
		ok = number(trim(it), &a) && (!dash || number(trim(dash + 1), &a));
		if (!ok)
			sm_osm_import_error(q->im, "%s: '%s' is no number nor LO-HI range", key,
					    TOKEN(it));
	}
	free(copy);
	return ok;
}

/* A key's value as the YAML line "KEY: VALUE"; false (told) when it is not
 * what the key takes. */
static bool yaml_value(struct qos *q, const struct vkey *k, char *v, FILE *f)
{
	unsigned long long x;
	const char *word;
	char *it;

	fprintf(f, "%s: ", k->yaml);
	switch (k->kind) {
	case V_NAME:
		it = next_item(&v);
		quote(f, it, strlen(it));
		return true;
	case V_NAMES:
	case V_NODE_TYPES:
		fputc('[', f);
		for (bool first = true; (it = next_item(&v)); first = false) {
			fputs(first ? "" : ", ", f);
			if (k->kind == V_NAMES) {
				quote(f, it, strlen(it));
				continue;
			}
			static const char *const types[] = { "ca", "switch", "router", "self", "all" };
			size_t i = 0;
			while (i < 5 && strcasecmp(it, types[i]))
				i++;
			if (i == 5) {
				sm_osm_import_error(q->im, "node-type: '%s' is none of CA, SWITCH, "
						    "ROUTER, SELF, ALL", TOKEN(it));
				return false;
			}
			fputs(types[i], f);
		}
		fputc(']', f);
		return true;
	case V_NUMS:
		if (!number_list(q, k->osm, v))
			return false;
		quote(f, v, strlen(v));
		return true;
	case V_SL:
	case V_MTU:
	case V_RATE:
		word = NULL;
		if (number(v, &x) && x <= 255)
			word = k->kind == V_SL ? (x <= 15 ? v : NULL)
			       : k->kind == V_MTU ? sm_pkey_mtu_word((uint8_t)x)
			       : sm_pkey_rate_word((uint8_t)x);
		if (!word) {
			sm_osm_import_error(q->im, "%s: '%s' is no %s", k->osm, TOKEN(v),
					    k->kind == V_SL ? "SL (0 to 15)" : k->kind == V_MTU
					    ? "IBA MTU code (1 256, 2 512, 3 1024, 4 2048, 5 4096)"
					    : "IBA rate code (2 2.5G, 3 10G, ... 24 1200G)");
			return false;
		}
		fputs(word, f);
		return true;
	case V_USE:
	case V_NONE:
		break;
	}
	return false;
}

/* --- blocks and sections --- */

static void close_block(struct qos *q)
{
	const struct block_kind *b = q->block;
	struct ysec *s = &q->sec[b - blocks];
	bool first = true;
	char *line = NULL;
	size_t len = 0;
	unsigned at = q->im->line;

	for (size_t i = 0; i < MAX_KEYS && b->keys[i].osm; i++) {
		const struct vkey *k = &b->keys[i];
		if (!q->val[i])
			continue;
		q->im->line = q->val_line[i];
		if (k->kind == V_USE) {
			ysec_line(q, s, q->val_line[i], "  %s# use: %.200s", first ? "" : "  ",
				  q->val[i]);
			continue;
		}
		if (k->kind == V_NONE) {
			sm_osm_import_missing(q->im, k->osm, q->val[i], k->why);
			continue;
		}
		FILE *f = open_memstream(&line, &len);
		if (!f) {
			sm_osm_import_error(q->im, "out of memory");
			break;
		}
		if (k->kind == V_NAME && b == &blocks[S_LEVELS]) {
			char *v = q->val[i], *name = next_item(&v);
			q->default_level |= strcasecmp(name, "DEFAULT") == 0;
		}
		bool ok = yaml_value(q, k, q->val[i], f);
		if (fclose(f) == 0 && ok) {
			ysec_line(q, s, q->val_line[i], "  %s %s", first ? "-" : " ", line);
			first = false;
		}
		free(line);
		line = NULL;
	}
	q->im->line = q->block_line;
	if (first)	/* every key a comment or none: the block still counts */
		ysec_line(q, s, q->block_line, "  - {}");
	q->im->line = at;
	for (size_t i = 0; i < MAX_KEYS; i++) {
		free(q->val[i]);
		q->val[i] = NULL;
	}
	q->items[b - blocks]++;
	q->block = NULL;
}

/* "key: value" inside the open block. */
static void block_key(struct qos *q, const char *key, const char *val)
{
	const struct block_kind *b = q->block;
	size_t i = 0;

	while (i < MAX_KEYS && b->keys[i].osm && strcasecmp(key, b->keys[i].osm))
		i++;
	if (i == MAX_KEYS || !b->keys[i].osm) {
		sm_osm_import_error(q->im, "'%s' is no key of a %s", TOKEN(key), b->name);
		return;
	}
	const struct vkey *k = &b->keys[i];
	if (q->val[i] && (k->kind == V_NAME || k->kind == V_SL || k->kind == V_MTU ||
			  k->kind == V_RATE)) {
		sm_osm_import_error(q->im, "%s given twice in this %s (first at line %u)", k->osm,
				    b->name, q->val_line[i]);
		return;
	}
	size_t had = q->val[i] ? strlen(q->val[i]) + 2 : 0;
	char *joined = malloc(had + strlen(val) + 1);
	if (!joined) {
		sm_osm_import_error(q->im, "out of memory");
		return;
	}
	sprintf(joined, "%s%s%s", q->val[i] ? q->val[i] : "", q->val[i] ? ", " : "", val);
	if (!q->val[i])
		q->val_line[i] = q->im->line;
	free(q->val[i]);
	q->val[i] = joined;
}

/* "ULP[, CRITERION VALUE] : SL" of qos-ulps. */
static void ulp_line(struct qos *q, char *line)
{
	static const char *const crits[] = { "port-num", "pkey", "service-id",
					     "target-port-guid", "source-port-guid",
					     "source-target-port-guid" };
	char *colon = strrchr(line, ':'), *comma, *crit = NULL, *value = NULL;
	unsigned long long sl;

	if (!colon) {
		sm_osm_import_error(q->im, "'%s': a qos-ulps line is ULP[, CRITERION VALUE] : SL",
				    TOKEN(line));
		return;
	}
	*colon = '\0';
	char *sls = trim(colon + 1);
	if (!number(sls, &sl) || sl > 15) {
		sm_osm_import_error(q->im, "'%s' is no SL (0 to 15)", TOKEN(sls));
		return;
	}
	if ((comma = strchr(line, ','))) {
		*comma = '\0';
		crit = trim(comma + 1);
		value = crit + strcspn(crit, " \t");
		if (*value)
			*value++ = '\0';
		value = trim(value);
	}
	char *ulp = trim(line);
	static const char *const names[] = { "default", "sdp", "rds", "iser", "srp", "ipoib",
					     "any" };
	size_t u = 0, c = 0;
	while (u < 7 && strcasecmp(ulp, names[u]))
		u++;
	if (u == 7) {
		sm_osm_import_error(q->im, "'%s' is no ULP of qos-ulps (default, sdp, rds, iser, "
				    "srp, ipoib, any)", TOKEN(ulp));
		return;
	}
	if (crit) {
		while (c < 6 && strcasecmp(crit, crits[c]))
			c++;
		if (c == 6 || !*value) {
			sm_osm_import_error(q->im, "'%s': expected port-num, pkey, service-id, "
					    "target-port-guid, source-port-guid or "
					    "source-target-port-guid and a value", TOKEN(crit));
			return;
		}
		if (!number_list(q, crit, value))
			return;
	}
	if (u == 0 && !crit) {	/* written last, unless a DEFAULT level overrides it */
		if (q->ulp_default_line)
			sm_osm_import_error(q->im, "the default ULP rule given twice (first at line "
					    "%u)", q->ulp_default_line);
		q->ulp_default_line = q->im->line;
		q->ulp_default_sl = sl;
		return;
	}
	char yaml_crit[32] = "";
	if (crit)
		for (size_t i = 0; crits[c][i] && i < sizeof(yaml_crit) - 1; i++)
			yaml_crit[i] = crits[c][i] == '-' ? '_' : crits[c][i];
	char *v = crit ? quoted(value) : NULL;
	if (crit && !v) {
		sm_osm_import_error(q->im, "out of memory");
		return;
	}
	ysec_line(q, &q->sec[S_ULPS], q->im->line, "  - { ulp: %s%s%s%s%s, sl: %llu }", names[u],
		  crit ? ", " : "", yaml_crit, crit ? ": " : "", crit ? v : "", sl);
	free(v);
}

static const char *const section_names[] = {
	"port-groups", "qos-levels", "qos-match-rules", "qos-ulps", "qos-setup",
};

static void policy_line(void *arg, char *raw)
{
	struct qos *q = arg;
	char *line = trim(raw);
	char *hash = strchr(line, '#');

	if (hash && !memchr(line, '"', (size_t)(hash - line)))
		*hash = '\0';	/* a comment (a '#' inside a quoted name stays) */
	line = trim(line);
	if (!*line)
		return;
	if (q->section && strcmp(q->section, "qos-setup") == 0) {
		if (strcasecmp(line, "end-qos-setup") == 0)
			q->section = NULL;
		else
			q->setup_lines++;
		return;
	}
	if (strncasecmp(line, "end-", 4) == 0) {
		const char *what = line + 4;
		if (q->block && strcasecmp(what, q->block->name) == 0)
			close_block(q);
		else if (!q->block && q->section && strcasecmp(what, q->section) == 0)
			q->section = NULL;
		else
			sm_osm_import_error(q->im, "'%s' closes nothing open here%s%s", TOKEN(line),
					    q->block ? ": open is a " : "",
					    q->block ? q->block->name : "");
		return;
	}
	for (size_t i = 0; !q->block && i < NBLOCKS; i++)
		if (strcasecmp(line, blocks[i].name) == 0) {
			if (!q->section || strcmp(q->section, blocks[i].section)) {
				sm_osm_import_error(q->im, "%s outside %s", blocks[i].name,
						    blocks[i].section);
				return;
			}
			q->block = &blocks[i];
			q->block_line = q->im->line;
			return;
		}
	for (size_t i = 0; !q->section && i < sizeof(section_names) / sizeof(section_names[0]);
	     i++)
		if (strcasecmp(line, section_names[i]) == 0) {
			q->section = section_names[i];
			q->section_line = q->im->line;
			if (i == 4)
				q->setup_line = q->im->line;
			return;
		}
	if (q->block) {
		char *colon = strchr(line, ':');
		if (!colon) {
			sm_osm_import_error(q->im, "'%s': a %s holds KEY: VALUE lines", TOKEN(line),
					    q->block->name);
			return;
		}
		*colon = '\0';
		block_key(q, trim(line), trim(colon + 1));
		return;
	}
	if (q->section && strcmp(q->section, "qos-ulps") == 0) {
		ulp_line(q, line);
		return;
	}
	sm_osm_import_error(q->im, "'%s' is no keyword of a qos-policy.conf here", TOKEN(line));
}

/* --- opensm.conf's qos_* keys --- */

static void conf_line(void *arg, char *line)
{
	static const char *const fields[] = { "max_vls", "high_limit", "vlarb_high",
					      "vlarb_low", "sl2vl" };
	struct qos *q = arg;
	char *key, *val;

	if (!sm_osm_conf_split(line, &key, &val))
		return;
	if (strcmp(key, "qos") == 0) {
		q->conf_qos_off = strcmp(val, "TRUE") != 0;
		return;
	}
	if (strncmp(key, "qos_", 4) || strcmp(key, "qos_policy_file") == 0)
		return;	/* the rest is ibsmd.yaml's: --import-opensm on the file alone */
	size_t t = 0;
	while (strncmp(key, conf_types[t].prefix, strlen(conf_types[t].prefix)))
		t++;	/* "qos_" ends the table */
	const char *field = key + strlen(conf_types[t].prefix);
	size_t i = 0;
	while (i < 5 && strcmp(field, fields[i]))
		i++;
	if (i == 5) {
		sm_osm_import_unknown(q->im, key, val);
		return;
	}
	/* opensm -c writes an unset one as (null), -1, or max_vls 0 */
	if (strcmp(val, "(null)") == 0 || strcmp(val, "-1") == 0 ||
	    (i == 0 && strcmp(val, "0") == 0))
		return;
	unsigned long long x;
	if (i < 2 && !number(val, &x)) {
		sm_osm_import_error(q->im, "%s: '%s' is no number", key, TOKEN(val));
		return;
	}
	if (i == 4 && !number_list(q, key, val))
		return;
	struct ysec *s = &q->type[t];
	if (!s->n)
		ysec_line(q, s, q->im->line, "  %s:", conf_types[t].type);
	if (i < 2) {
		ysec_line(q, s, q->im->line, "    %s: %llu", fields[i], x);
		return;
	}
	/* VL:weight pairs: checked where the daemon reads them (check_back()) */
	char *v = quoted(val);
	if (!v) {
		sm_osm_import_error(q->im, "out of memory");
		return;
	}
	ysec_line(q, s, q->im->line, "    %s: %s", fields[i], v);
	free(v);
}

/* --- the whole --- */

/* Every section's YAML, in order, into @f; per line its OpenSM file and line
 * in @from/@file_of (0: the conf file's lines, 1: the policy's). */
static int assemble(struct qos *q, FILE *f, unsigned **from, unsigned char **file_of,
		    size_t *n)
{
	size_t total = 2 * NSECTIONS;

	for (size_t i = 0; i < NSECTIONS; i++)
		total += q->sec[i].n;
	for (size_t i = 0; i < NTYPES; i++)
		total += q->type[i].n;
	*from = calloc(total, sizeof(**from));
	*file_of = calloc(total, 1);
	if (!*from || !*file_of)
		return -ENOMEM;
	*n = 0;
	for (size_t i = 0; i < NSECTIONS; i++) {
		struct ysec *parts = i == S_TABLES ? q->type : &q->sec[i];
		size_t nparts = i == S_TABLES ? NTYPES : 1, lines = 0;
		for (size_t k = 0; k < nparts; k++)
			lines += parts[k].n;
		if (!lines)
			continue;
		fprintf(f, "%s:\n", section_yaml[i]);
		(*n)++;
		/* vl_tables: all first, then the types in ibsmd's order */
		for (size_t k = 0; k < nparts; k++) {
			struct ysec *s = &parts[i == S_TABLES ? (k + NTYPES - 1) % NTYPES : k];
			if (!s->n)
				continue;
			fflush(s->f);
			fwrite(s->buf, 1, s->len, f);
			memcpy(*from + *n, s->from, s->n * sizeof(**from));
			memset(*file_of + *n, i != S_TABLES, s->n);
			*n += s->n;
		}
	}
	return 0;
}

/* Read the YAML back as the daemon would; a refusal at the OpenSM line its
 * YAML line came from. */
static void check_back(struct qos *q, const char *yaml, size_t len, const unsigned *from,
		       const unsigned char *file_of, size_t n, const char *names[2])
{
	struct sm_qos_policy pol;
	char err[1024];
	unsigned long yl = 0, col = 0;
	int used = 0;
	FILE *in = fmemopen((void *)yaml, len ? len : 1, "r");

	if (!in) {
		sm_osm_import_error(q->im, "out of memory");
		return;
	}
	int rc = sm_qos_policy_parse(in, "", &pol, err, sizeof(err));
	fclose(in);
	if (rc == 0) {
		sm_qos_policy_free(&pol);
		return;
	}
	/* "':LINE:COLUMN: reason" or ": reason" (the whole) */
	if (sscanf(err, ":%lu:%lu: %n", &yl, &col, &used) < 2 || !used)
		used = err[0] == ':' ? 2 : 0, yl = 0;
	if (yl >= 1 && yl - 1 < n && from[yl - 1]) {
		q->im->file = names[file_of[yl - 1]];
		q->im->line = from[yl - 1];
	} else {
		q->im->file = names[1];
		q->im->line = 0;
	}
	sm_osm_import_error(q->im, "%s", err + used);
}

static void write_out(struct qos *q, FILE *out, const char *yaml, size_t len,
		      const char *names[2])
{
	fputs("# ibsmd's QoS policy (the file qos_policy names, ibsmd.yaml(5)) converted from\n"
	      "# OpenSM's ", out);
	quote(out, names[1], strlen(names[1]));
	if (names[0]) {
		fputs(" and the qos_* keys of ", out);
		quote(out, names[0], strlen(names[0]));
	}
	fprintf(out, "\n# by `ibsmd --import-opensm` (ibsmd %s).\n", PACKAGE_VERSION);
	fwrite(yaml, 1, len, out);
	if (q->im->nmissing) {
		fflush(q->im->missing);
		fprintf(out, "\n# OpenSM's lines ibsmd has no counterpart for (not carried over):\n%s",
			q->im->missing_buf);
	}
	if (q->im->nunknown) {
		fflush(q->im->unknown);
		fprintf(out, "\n# Keys OpenSM 3.3 does not have (left out):\n%s", q->im->unknown_buf);
	}
}

int sm_osm_qos_import(FILE *in, const char *name, FILE *conf, const char *conf_name, FILE *out,
		      FILE *diag)
{
	struct sm_osm_import im;
	struct qos q = { .im = &im };
	const char *names[2] = { conf_name, name };
	char *yaml = NULL;
	size_t len = 0, n = 0;
	unsigned *from = NULL;
	unsigned char *file_of = NULL;
	int rc = 1;

	if (sm_osm_import_init(&im, diag)) {
		fprintf(diag, "ibsmd: out of memory\n");
		return 1;
	}
	if (conf) {
		im.file = conf_name;
		sm_osm_import_lines(&im, conf, "an opensm.conf", conf_line, &q);
		if (!im.errors && q.conf_qos_off)
			sm_osm_import_warn(&im, "qos is not TRUE here: OpenSM applies no QoS, "
					   "ibsmd applies this policy once qos_policy names it");
	}
	im.file = name;
	im.line = 0;
	sm_osm_import_lines(&im, in, "a qos-policy.conf", policy_line, &q);
	if (!im.errors && (q.block || q.section)) {
		im.line = q.block ? q.block_line : q.section_line;
		sm_osm_import_error(&im, "%s not closed (end-%s)", q.block ? q.block->name
				    : q.section, q.block ? q.block->name : q.section);
	}
	if (q.block)
		close_block(&q);
	if (!im.errors && q.ulp_default_line) {
		im.line = q.ulp_default_line;
		char sl[4];
		snprintf(sl, sizeof(sl), "%llu", q.ulp_default_sl);
		if (q.default_level)
			sm_osm_import_missing(&im, "default :", sl, "the qos-level named DEFAULT "
					      "takes precedence, as in OpenSM");
		else
			ysec_line(&q, &q.sec[S_ULPS], im.line, "  - { ulp: default, sl: %s }", sl);
	}
	if (!im.errors && q.setup_lines) {
		im.line = q.setup_line;
		sm_osm_import_missing(&im, "qos-setup", "(its tables)", "OpenSM parses the "
				      "section and applies none of it: the VL tables come from "
				      "opensm.conf's qos_* keys");
	}
	FILE *f = open_memstream(&yaml, &len);
	if (!f || assemble(&q, f, &from, &file_of, &n)) {
		sm_osm_import_error(&im, "out of memory");
	}
	if (f && fclose(f))
		sm_osm_import_error(&im, "out of memory");
	if (!im.errors)
		check_back(&q, yaml, len, from, file_of, n, names);
	if (im.errors) {
		fprintf(diag, "ibsmd: %s: %u errors, nothing written\n", name, im.errors);
	} else {
		write_out(&q, out, yaml, len, names);
		fflush(out);
		if (ferror(out))
			fprintf(diag, "ibsmd: writing the converted QoS policy failed\n");
		else
			rc = 0;
	}
	if (rc == 0)
		fprintf(diag, "ibsmd: %s: a QoS policy of %zu groups, %zu levels, %zu rules, %zu ULP "
			"rules; %u lines without a counterpart (listed at the end of the output)\n",
			name, q.items[S_GROUPS], q.items[S_LEVELS], q.items[S_RULES],
			q.sec[S_ULPS].n, im.nmissing);
	for (size_t i = 0; i < NSECTIONS; i++)
		ysec_free(&q.sec[i]);
	for (size_t i = 0; i < NTYPES; i++)
		ysec_free(&q.type[i]);
	for (size_t i = 0; i < MAX_KEYS; i++)
		free(q.val[i]);
	free(yaml);
	free(from);
	free(file_of);
	sm_osm_import_free(&im);
	return rc;
}

bool sm_osm_qos_is(FILE *in)
{
	char line[SM_OSM_MAX_LINE + 2];
	bool is = false;

	while (fgets(line, sizeof(line), in)) {
		char *s = trim(line), *hash = strchr(s, '#');
		if (hash)
			*hash = '\0';
		s = trim(s);
		if (!*s)
			continue;
		for (size_t i = 0; i < sizeof(section_names) / sizeof(section_names[0]); i++)
			is |= strcasecmp(s, section_names[i]) == 0;
		break;
	}
	rewind(in);
	return is;
}

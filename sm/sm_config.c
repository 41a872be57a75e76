// SPDX-License-Identifier: MIT
/*
 * sm_config.c - load ibsmd.yaml with libyaml's document API.
 *
 * The file is one mapping.  Each known key has a setter that checks the value's
 * type and range; nested mappings ("log:", "sweep:") name their keys with a
 * dotted prefix ("log.level") in one table.  Parsing works on a copy of the
 * configuration, which replaces the caller's only when the whole file is good.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "sm/sm_config.h"
#include "sm/sm_log.h"

void sm_config_defaults(struct sm_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->backend, sizeof(c->backend), "umad");
	snprintf(c->db_path, sizeof(c->db_path), "%s/lib/ibsmd/ibsmd.db", LOCALSTATEDIR);
	snprintf(c->socket_path, sizeof(c->socket_path), "%s/lib/ibsmd/ibsmd.sock", LOCALSTATEDIR);
	c->log_level = LOG_NOTICE;
	snprintf(c->routing[0], sizeof(c->routing[0]), "minhop");
	c->nrouting = 1;
	c->window = 64;
	c->smps_per_node = 4;
	c->timeout_ms = 200;
	c->retries = 3;
	c->sweep_interval_s = 10;
	c->lmc = 0;
	c->sm_priority = 15;
	c->subnet_prefix = 0xfe80000000000000ULL;
}

int sm_config_set_routing(struct sm_config *c, const char *list, char *err, size_t errlen)
{
	char buf[SM_PATH_LEN], *save = NULL;
	unsigned n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (n == SM_MAX_ENGINES) {
			snprintf(err, errlen, "routing: at most %d engines in a chain", SM_MAX_ENGINES);
			return -EINVAL;
		}
		if (strlen(tok) >= sizeof(c->routing[0])) {
			snprintf(err, errlen, "routing: engine name '%s' is too long", tok);
			return -EINVAL;
		}
		snprintf(c->routing[n++], sizeof(c->routing[0]), "%s", tok);
	}
	if (!n) {
		snprintf(err, errlen, "routing: the chain is empty");
		return -EINVAL;
	}
	c->nrouting = n;
	return 0;
}

struct parse {
	yaml_document_t *doc;
	const char *path;
	char *err;
	size_t errlen;
};

static int fail(struct parse *p, const yaml_node_t *node, const char *fmt, const char *a)
{
	char msg[256];

	snprintf(msg, sizeof(msg), fmt, a);
	snprintf(p->err, p->errlen, "%s:%lu: %s", p->path,
		 (unsigned long)node->start_mark.line + 1, msg);
	return -EINVAL;
}

static int scalar(struct parse *p, const yaml_node_t *v, const char *key, const char **out)
{
	if (v->type != YAML_SCALAR_NODE)
		return fail(p, v, "%s: expected a single value", key);
	*out = (const char *)v->data.scalar.value;
	return 0;
}

static int get_str(struct parse *p, const yaml_node_t *v, const char *key, char *dst, size_t len)
{
	const char *s;
	int rc = scalar(p, v, key, &s);

	if (rc)
		return rc;
	if (strlen(s) >= len)
		return fail(p, v, "%s: value too long", key);
	snprintf(dst, len, "%s", s);
	return 0;
}

static int get_uint(struct parse *p, const yaml_node_t *v, const char *key,
		    uint64_t max, uint64_t *out)
{
	const char *s;
	char *end;
	int rc = scalar(p, v, key, &s);

	if (rc)
		return rc;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || x > max) {
		char msg[192];
		snprintf(msg, sizeof(msg), "%.64s: expected a whole number from 0 to %" PRIu64,
			 key, max);
		return fail(p, v, "%s", msg);
	}
	*out = x;
	return 0;
}

static int set_routing(struct parse *p, struct sm_config *c, const yaml_node_t *v)
{
	char list[SM_PATH_LEN] = "", msg[256];

	if (v->type == YAML_SCALAR_NODE) {
		snprintf(list, sizeof(list), "%s", (const char *)v->data.scalar.value);
	} else if (v->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = v->data.sequence.items.start;
		     it < v->data.sequence.items.top; it++) {
			yaml_node_t *e = yaml_document_get_node(p->doc, *it);
			const char *s;
			int rc = scalar(p, e, "routing", &s);
			if (rc)
				return rc;
			size_t used = strlen(list);
			snprintf(list + used, sizeof(list) - used, "%s%s", used ? "," : "", s);
		}
	} else {
		return fail(p, v, "%s: expected a list of engine names", "routing");
	}
	if (sm_config_set_routing(c, list, msg, sizeof(msg)))
		return fail(p, v, "%s", msg);
	return 0;
}

/* Numeric keys: where each lives in struct sm_config and its range. */
struct num_key {
	const char *name;
	uint64_t min, max;
	size_t offset, size;
};

#define NUM_KEY(name, min, max, member) \
	{ name, min, max, offsetof(struct sm_config, member), sizeof(((struct sm_config *)0)->member) }

static const struct num_key num_keys[] = {
	NUM_KEY("sweep.window", 1, 4096, window),
	NUM_KEY("sweep.smps_per_node", 1, 64, smps_per_node),
	/* at most the umad backend's send timeout (mad_umad.c): later answers are dropped */
	NUM_KEY("sweep.timeout_ms", 1, 2000, timeout_ms),
	NUM_KEY("sweep.retries", 0, 20, retries),
	NUM_KEY("sweep.interval", 0, 86400, sweep_interval_s),
	NUM_KEY("lmc", 0, 7, lmc),
	NUM_KEY("sm_priority", 0, 15, sm_priority),
	NUM_KEY("subnet_prefix", 0, UINT64_MAX, subnet_prefix),
};

static void store_uint(void *dst, size_t size, uint64_t x)
{
	switch (size) {
	case 1: *(uint8_t *)dst = (uint8_t)x; break;
	case 2: *(uint16_t *)dst = (uint16_t)x; break;
	case 4: *(uint32_t *)dst = (uint32_t)x; break;
	default: *(uint64_t *)dst = x; break;
	}
}

/* routing_options: a list of "key=value" strings every engine is handed. */
static int set_routing_options(struct parse *p, struct sm_config *c, const yaml_node_t *v)
{
	if (v->type != YAML_SEQUENCE_NODE)
		return fail(p, v, "%s: expected a list of key=value strings", "routing_options");
	c->nrouting_options = 0;
	for (yaml_node_item_t *it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++) {
		yaml_node_t *e = yaml_document_get_node(p->doc, *it);
		const char *opt;
		int rc = scalar(p, e, "routing_options", &opt);
		if (rc)
			return rc;
		if (!strchr(opt, '='))
			return fail(p, e, "routing_options: '%s' is not key=value", opt);
		if (c->nrouting_options == SM_MAX_ROUTING_OPTIONS)
			return fail(p, e, "%s: too many options", "routing_options");
		rc = get_str(p, e, "routing_options", c->routing_options[c->nrouting_options],
			     sizeof(c->routing_options[0]));
		if (rc)
			return rc;
		c->nrouting_options++;
	}
	return 0;
}

static int set_key(struct parse *p, struct sm_config *c, const char *key, const yaml_node_t *v)
{
	uint64_t x;
	int rc;

	if (!strcmp(key, "backend"))
		return get_str(p, v, key, c->backend, sizeof(c->backend));
	if (!strcmp(key, "db"))
		return get_str(p, v, key, c->db_path, sizeof(c->db_path));
	if (!strcmp(key, "socket"))
		return get_str(p, v, key, c->socket_path, sizeof(c->socket_path));
	if (!strcmp(key, "routing"))
		return set_routing(p, c, v);
	if (!strcmp(key, "routing_options"))
		return set_routing_options(p, c, v);
	if (!strcmp(key, "log.file"))
		return get_str(p, v, key, c->log_file, sizeof(c->log_file));
	if (!strcmp(key, "log.level")) {
		const char *s;
		if ((rc = scalar(p, v, key, &s)))
			return rc;
		c->log_level = sm_log_level_parse(s);
		if (c->log_level < 0)
			return fail(p, v, "log.level: '%s' is not one of error, warning, "
				    "notice, info, debug", s);
		return 0;
	}
	for (size_t i = 0; i < sizeof(num_keys) / sizeof(num_keys[0]); i++) {
		const struct num_key *nk = &num_keys[i];
		if (strcmp(key, nk->name))
			continue;
		if ((rc = get_uint(p, v, key, nk->max, &x)))
			return rc;
		if (x < nk->min)
			return fail(p, v, "%s: must be at least 1", key);
		store_uint((char *)c + nk->offset, nk->size, x);
		return 0;
	}
	return fail(p, v, "unknown key '%s'", key);
}

static int walk_mapping(struct parse *p, struct sm_config *c, const yaml_node_t *map,
			const char *prefix)
{
	if (map->type != YAML_MAPPING_NODE)
		return fail(p, map, "%s", prefix[0] ? "expected a mapping" :
			    "the file must be a mapping of keys to values");
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
	     pr < map->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(p->doc, pr->key);
		yaml_node_t *v = yaml_document_get_node(p->doc, pr->value);
		char key[128];
		int rc;

		if (k->type != YAML_SCALAR_NODE)
			return fail(p, k, "%s", "keys must be plain names");
		snprintf(key, sizeof(key), "%s%s", prefix, (const char *)k->data.scalar.value);
		if (v->type == YAML_MAPPING_NODE && !prefix[0] &&
		    (!strcmp(key, "log") || !strcmp(key, "sweep"))) {
			char sub[sizeof(key) + 1];
			snprintf(sub, sizeof(sub), "%s.", key);
			rc = walk_mapping(p, c, v, sub);
		} else {
			rc = set_key(p, c, key, v);
		}
		if (rc)
			return rc;
	}
	return 0;
}

int sm_config_parse(struct sm_config *c, FILE *in, const char *name, char *err,
		    size_t errlen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	struct sm_config tmp = *c;
	int rc;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, in);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "%s:%lu: %s", name,
			 (unsigned long)parser.problem_mark.line + 1,
			 parser.problem ? parser.problem : "not valid YAML");
		yaml_parser_delete(&parser);
		return -EINVAL;
	}
	struct parse p = { .doc = &doc, .path = name, .err = err, .errlen = errlen };
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	rc = root ? walk_mapping(&p, &tmp, root, "") : 0;	/* an empty file is fine */
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (rc == 0)
		*c = tmp;
	return rc;
}

int sm_config_load(struct sm_config *c, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");

	if (!f) {
		int rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	int rc = sm_config_parse(c, f, path, err, errlen);
	fclose(f);
	return rc;
}

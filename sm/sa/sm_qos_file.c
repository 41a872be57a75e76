// SPDX-License-Identifier: MIT
/*
 * sm_qos_file.c - the QoS policy file (YAML), read and checked whole:
 *
 *   port_groups:
 *     - name: storage
 *       port_guids: [0x0002c90300a1b2c4, 0x10-0x1f]   # ranges as lo-hi
 *       port_names: ["node1 HCA-1/P1"]               # NodeDescription/Pn
 *       pkeys: [0x0002]            # ports holding one of these P_Keys
 *       partitions: [storage]      # ports of these partitions (by name)
 *       node_types: [ca, switch, router, self, all]
 *   qos_levels:
 *     - name: DEFAULT              # the level of a request no rule matches
 *       sl: 0
 *     - name: bulk
 *       sl: 1
 *       mtu_limit: 2048            # 256 .. 4096
 *       rate_limit: 100G           # an IBA rate, as in the partitions file
 *       packet_life: 16            # PacketLifeTime, 0..63
 *   match_rules:                   # the first that holds wins
 *     - source: [storage]          # port groups
 *       destination: [storage]
 *       qos_class: [1-3]
 *       service_ids: [0x10000-0x1ffff]
 *       pkeys: [0x0002]
 *       level: bulk
 *   ulps:                          # OpenSM's qos-ulps, after the rules
 *     - { ulp: default, sl: 0 }
 *     - { ulp: sdp, port_num: 10000-20000, sl: 1 }   # sdp, rds, iser: port_num
 *     - { ulp: ipoib, pkey: 0x0001, sl: 2 }         # ipoib, any: pkey
 *     - { ulp: srp, target_port_guid: 0x1234, sl: 3 }
 *     - { ulp: any, service_id: 0x6234, sl: 4 }      # or source_port_guid,
 *                                  # target_port_guid, source_target_port_guid
 *   vl_tables:                     # OpenSM's qos_ and qos_<type>_ options
 *     all:                         # then ca, switch_external, switch_port0, router
 *       max_vls: 15
 *       high_limit: 0
 *       vlarb_high: "0:4,1:0"      # VL:weight, at most 64
 *       vlarb_low: "0:0,1:4,2:4"
 *       sl2vl: [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7]   # 16 VLs, 15 drops the SL
 *
 * A list of numbers or ranges may also be one string, comma separated, as
 * OpenSM writes them ("0x10, 0x20-0x2f").  Each type's tables take, field by
 * field, the type's value, else all's, else OpenSM's default.
 *
 * Refused, with FILE:LINE:COLUMN: an unknown key, a name given twice (groups
 * and levels are named case-insensitively, as in OpenSM), a rule naming a
 * group or a level that is not there, no default level, a range whose ends
 * are the wrong way round, a value out of its field, more than
 * SM_QOS_MAX_ITEMS of anything.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sm/util/sm_file.h"
#include "sm/util/sm_ydoc.h"
#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_qos.h"

/* OpenSM's built-in qos_ options (doc/QoS_management_in_OpenSM.txt §7). */
#define QOS_DEFAULT_MAX_VLS 15
#define QOS_DEFAULT_VLARB_HIGH "0:4,1:0,2:0,3:0,4:0,5:0,6:0,7:0,8:0,9:0,10:0,11:0,12:0,13:0,14:0"
#define QOS_DEFAULT_VLARB_LOW "0:0,1:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,10:4,11:4,12:4,13:4,14:4"
static const uint8_t default_sl2vl[MAD_NUM_SL] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
						   13, 14, 7 };

static const char *const port_type_keys[SM_QOS_PORT_TYPES] = {
	[SM_QOS_PORT_CA] = "ca",
	[SM_QOS_PORT_SWITCH_EXTERNAL] = "switch_external",
	[SM_QOS_PORT_SWITCH_PORT0] = "switch_port0",
	[SM_QOS_PORT_ROUTER] = "router",
};

/* --- the policy --- */

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

void sm_qos_policy_free(struct sm_qos_policy *q)
{
	for (size_t i = 0; i < q->ngroups; i++) {
		struct sm_qos_group *g = &q->groups[i];
		free(g->guids.r);
		free(g->pkeys.r);
		free_names(g->port_names, g->nport_names);
		free_names(g->partitions, g->npartitions);
	}
	for (size_t i = 0; i < q->nrules; i++) {
		struct sm_qos_rule *r = &q->rules[i];
		free(r->qos_class.r);
		free(r->service_ids.r);
		free(r->pkeys.r);
		free(r->src);
		if (r->dst != r->src)
			free(r->dst);
	}
	free(q->groups);
	free(q->levels);
	free(q->rules);
	sm_qos_policy_none(q);
}

/* "VL:weight,..." into @b (two blocks of 32); entries not given weigh 0. */
static int vlarb_parse(const char *s, struct mad_vlarb_block b[2], const char **why)
{
	unsigned i = 0;

	memset(b, 0, 2 * sizeof(*b));
	while (*s) {
		char *end;
		unsigned long vl = strtoul(s, &end, 0), w;
		if (end == s || *end != ':' || vl > 14)
			return *why = "an entry is VL:weight with a VL of 0 to 14", -EINVAL;
		s = end + 1;
		w = strtoul(s, &end, 0);
		if (end == s || w > 255)
			return *why = "a weight is 0 to 255", -EINVAL;
		if (i >= 2 * MAD_VLARB_ENTRIES)
			return *why = "at most 64 entries", -EINVAL;
		b[i / MAD_VLARB_ENTRIES].e[i % MAD_VLARB_ENTRIES].vl = (uint8_t)vl;
		b[i / MAD_VLARB_ENTRIES].e[i % MAD_VLARB_ENTRIES].weight = (uint8_t)w;
		i++;
		s = end + strspn(end, " ");
		if (*s == ',')
			s += 1 + strspn(s + 1, " ");
		else if (*s)
			return *why = "entries are separated by commas", -EINVAL;
	}
	return 0;
}

static void vl_config_default(struct sm_qos_vl_config *c)
{
	const char *why;

	*c = (struct sm_qos_vl_config){ .max_vls = QOS_DEFAULT_MAX_VLS };
	vlarb_parse(QOS_DEFAULT_VLARB_HIGH, c->vlarb_high, &why);
	vlarb_parse(QOS_DEFAULT_VLARB_LOW, c->vlarb_low, &why);
	memcpy(c->sl2vl.vl, default_sl2vl, sizeof(default_sl2vl));
}

void sm_qos_policy_none(struct sm_qos_policy *q)
{
	*q = (struct sm_qos_policy){ .on = false };
	for (unsigned t = 0; t < SM_QOS_PORT_TYPES; t++)
		vl_config_default(&q->vl[t]);
}

/* --- reading --- */

/* The fields of one vl_tables entry a file gives. */
struct vl_given {
	bool max_vls, high_limit, vlarb_high, vlarb_low, sl2vl;
	struct sm_qos_vl_config c;
};

struct parse {
	struct sm_ydoc y;
	struct sm_qos_policy q;
	struct vl_given vl_all, vl[SM_QOS_PORT_TYPES];
	bool ulp_default;		/* the ulps gave a default SL */
	uint8_t ulp_default_sl;
	const yaml_node_t *ulp_default_at;
};

#define FAIL(p, at, ...) sm_ydoc_fail(&(p)->y, at, __VA_ARGS__)

static const char *scalar(const yaml_node_t *n)
{
	return sm_ydoc_scalar(n);
}

static yaml_node_t *child(struct parse *p, int id)
{
	return sm_ydoc_node(&p->y, id);
}

static size_t seq_len(const yaml_node_t *v)
{
	return (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
}

/* Call @fn on each item of @v: the items of a sequence, or the comma
 * separated words of a scalar (OpenSM's form). */
static int each_item(struct parse *p, const yaml_node_t *v, const char *key,
		     int (*fn)(struct parse *p, const yaml_node_t *at, const char *word,
			       void *arg), void *arg)
{
	int rc;

	if (v->type == YAML_SEQUENCE_NODE) {
		if (seq_len(v) > SM_QOS_MAX_ITEMS)
			return FAIL(p, v, "%s: more than %d items", key, SM_QOS_MAX_ITEMS);
		for (yaml_node_item_t *it = v->data.sequence.items.start;
		     it < v->data.sequence.items.top; it++) {
			const yaml_node_t *n = child(p, *it);
			if (!scalar(n))
				return FAIL(p, n, "%s: expected a value, not a list or a mapping", key);
			if ((rc = fn(p, n, scalar(n), arg)))
				return rc;
		}
		return 0;
	}
	if (!scalar(v))
		return FAIL(p, v, "%s: expected a value or a list", key);
	char *copy = strdup(scalar(v)), *save = NULL;
	if (!copy)
		return FAIL(p, v, "out of memory");
	rc = 0;
	unsigned n = 0;
	for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*w))
			w++;
		for (char *e = w + strlen(w); e > w && isspace((unsigned char)e[-1]); )
			*--e = 0;
		rc = ++n > SM_QOS_MAX_ITEMS ? FAIL(p, v, "%s: more than %d items", key,
						    SM_QOS_MAX_ITEMS) : fn(p, v, w, arg);
	}
	free(copy);
	return rc;
}

/* A number in decimal or 0x hex, the whole of @s, up to @max. */
static bool whole_number(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	if (!isxdigit((unsigned char)s[hex ? 2 : 0]) || s[0] == '-' || s[0] == '+')
		return false;
	errno = 0;
	unsigned long long x = strtoull(s, &end, hex ? 16 : 10);
	if (errno || *end || x > max)
		return false;
	*out = x;
	return true;
}

struct ranges_arg {
	struct sm_qos_ranges *rs;
	const char *key;
	uint64_t max;
};

/* "N" or "LO-HI" appended to a list of ranges. */
static int range_item(struct parse *p, const yaml_node_t *at, const char *word, void *arg)
{
	struct ranges_arg *a = arg;
	struct sm_qos_range r;
	char lo[32], *dash = strchr(word, '-');
	size_t len = dash ? (size_t)(dash - word) : strlen(word);

	if (len >= sizeof(lo))
		return FAIL(p, at, "%s: '%.40s' is not a number or a range LO-HI", a->key, word);
	memcpy(lo, word, len);
	lo[len] = 0;
	if (!whole_number(lo, a->max, &r.lo) || !whole_number(dash ? dash + 1 : lo, a->max, &r.hi))
		return FAIL(p, at, "%s: '%.40s' is not a number or a range LO-HI of numbers up "
			    "to 0x%llx", a->key, word, (unsigned long long)a->max);
	if (r.lo > r.hi)
		return FAIL(p, at, "%s: range '%.40s' ends below its start", a->key, word);
	struct sm_qos_range *grown = realloc(a->rs->r, (a->rs->n + 1) * sizeof(*grown));
	if (!grown)
		return FAIL(p, at, "out of memory");
	a->rs->r = grown;
	a->rs->r[a->rs->n++] = r;
	return 0;
}

static int ranges(struct parse *p, const yaml_node_t *v, const char *key, uint64_t max,
		  struct sm_qos_ranges *rs)
{
	struct ranges_arg a = { rs, key, max };

	return each_item(p, v, key, range_item, &a);
}

struct names_arg {
	char ***names;
	size_t *n;
	const char *key;
};

static int name_item(struct parse *p, const yaml_node_t *at, const char *word, void *arg)
{
	struct names_arg *a = arg;

	if (!word[0] || strlen(word) > 2 * SM_QOS_NAME_LEN)
		return FAIL(p, at, "%s: a name is 1 to %d bytes", a->key, 2 * SM_QOS_NAME_LEN);
	char **grown = realloc(*a->names, (*a->n + 1) * sizeof(*grown));
	if (!grown)
		return FAIL(p, at, "out of memory");
	*a->names = grown;
	if (!(grown[*a->n] = strdup(word)))
		return FAIL(p, at, "out of memory");
	(*a->n)++;
	return 0;
}

static int names(struct parse *p, const yaml_node_t *v, const char *key, char ***out, size_t *n)
{
	struct names_arg a = { out, n, key };

	return each_item(p, v, key, name_item, &a);
}

static int node_type_item(struct parse *p, const yaml_node_t *at, const char *word, void *arg)
{
	static const struct {
		const char *word;
		unsigned bits;
	} types[] = {
		{ "ca", SM_QOS_NT_CA }, { "switch", SM_QOS_NT_SWITCH },
		{ "router", SM_QOS_NT_ROUTER }, { "self", SM_QOS_NT_SELF },
		{ "all", SM_QOS_NT_CA | SM_QOS_NT_SWITCH | SM_QOS_NT_ROUTER },
	};
	unsigned *bits = arg;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcasecmp(word, types[i].word) == 0)
			return *bits |= types[i].bits, 0;
	return FAIL(p, at, "node_types: '%.40s' is not ca, switch, router, self or all", word);
}

/* A name of a group or level: 1..SM_QOS_NAME_LEN printable bytes. */
static int set_name(struct parse *p, const yaml_node_t *v, char *name)
{
	const char *s = scalar(v);

	if (!s || !s[0] || strlen(s) > SM_QOS_NAME_LEN)
		return FAIL(p, v, "name: 1 to %d bytes", SM_QOS_NAME_LEN);
	for (const char *c = s; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return FAIL(p, v, "name: a control character");
	snprintf(name, SM_QOS_NAME_LEN + 1, "%s", s);
	return 0;
}

/* Iterate a mapping's pairs after checking its keys are unique. */
#define FOR_PAIRS(map, pr) \
	for (yaml_node_pair_t *pr = (map)->data.mapping.pairs.start; \
	     pr < (map)->data.mapping.pairs.top; pr++)

static int group_key(struct parse *p, struct sm_qos_group *g, const char *key,
		     const yaml_node_t *k, const yaml_node_t *v)
{
	if (strcmp(key, "name") == 0)
		return set_name(p, v, g->name);
	if (strcmp(key, "use") == 0)
		return 0;	/* a description, as OpenSM's */
	if (strcmp(key, "port_guids") == 0)
		return ranges(p, v, key, UINT64_MAX, &g->guids);
	if (strcmp(key, "pkeys") == 0)
		return ranges(p, v, key, 0x7fff, &g->pkeys);
	if (strcmp(key, "port_names") == 0)
		return names(p, v, key, &g->port_names, &g->nport_names);
	if (strcmp(key, "partitions") == 0)
		return names(p, v, key, &g->partitions, &g->npartitions);
	if (strcmp(key, "node_types") == 0)
		return each_item(p, v, key, node_type_item, &g->node_types);
	return FAIL(p, k, "unknown key '%.64s' (name, use, port_guids, port_names, pkeys, "
		    "partitions, node_types)", key);
}

static int level_key(struct parse *p, struct sm_qos_level *l, const char *key,
		     const yaml_node_t *k, const yaml_node_t *v)
{
	uint64_t x;
	int rc;

	if (strcmp(key, "name") == 0)
		return set_name(p, v, l->name);
	if (strcmp(key, "use") == 0)
		return 0;
	if (strcmp(key, "sl") == 0) {
		if ((rc = sm_ydoc_number(&p->y, v, key, 15, &x)))
			return rc;
		l->sl = (uint8_t)x;
	} else if (strcmp(key, "mtu_limit") == 0) {
		if (!scalar(v) || !(l->mtu = sm_pkey_mtu_code(scalar(v))))
			return FAIL(p, v, "mtu_limit: expected 256, 512, 1024, 2048 or 4096");
	} else if (strcmp(key, "rate_limit") == 0) {
		if (!scalar(v) || !(l->rate = sm_pkey_rate_code(scalar(v))))
			return FAIL(p, v, "rate_limit: expected an IBA rate: 2.5G, 10G, 25G, 40G, "
				    "50G, 100G, 200G, 400G, 800G, 1200G...");
	} else if (strcmp(key, "packet_life") == 0) {
		if ((rc = sm_ydoc_number(&p->y, v, key, 63, &x)))
			return rc;
		l->pkt_life = (uint8_t)x;
	} else {
		return FAIL(p, k, "unknown key '%.64s' (name, use, sl, mtu_limit, rate_limit, "
			    "packet_life)", key);
	}
	return 0;
}

/* The index of the group or level named @name (any case), or -1. */
static long find_group(const struct parse *p, const char *name)
{
	for (size_t i = 0; i < p->q.ngroups; i++)
		if (p->q.groups[i].name[0] && strcasecmp(p->q.groups[i].name, name) == 0)
			return (long)i;
	return -1;
}

static long find_level(const struct parse *p, const char *name)
{
	for (size_t i = 0; i < p->q.nlevels; i++)
		if (p->q.levels[i].name[0] && strcasecmp(p->q.levels[i].name, name) == 0)
			return (long)i;
	return -1;
}

struct group_refs {
	size_t **idx;
	size_t *n;
	const char *key;
};

static int group_ref_item(struct parse *p, const yaml_node_t *at, const char *word, void *arg)
{
	struct group_refs *a = arg;
	long g = find_group(p, word);

	if (g < 0)
		return FAIL(p, at, "%s: no port group named '%.64s'", a->key, word);
	size_t *grown = realloc(*a->idx, (*a->n + 1) * sizeof(*grown));
	if (!grown)
		return FAIL(p, at, "out of memory");
	*a->idx = grown;
	grown[(*a->n)++] = (size_t)g;
	return 0;
}

/* A new element at the end of an array of @size bytes each, zeroed. */
static void *append(struct parse *p, const yaml_node_t *at, void **arr, size_t *n, size_t size)
{
	if (*n >= SM_QOS_MAX_ITEMS) {
		FAIL(p, at, "more than %d entries", SM_QOS_MAX_ITEMS);
		return NULL;
	}
	char *grown = realloc(*arr, (*n + 1) * size);
	if (!grown) {
		FAIL(p, at, "out of memory");
		return NULL;
	}
	*arr = grown;
	memset(grown + *n * size, 0, size);
	return grown + (*n)++ * size;
}

static int rule_key(struct parse *p, struct sm_qos_rule *r, const char *key,
		    const yaml_node_t *k, const yaml_node_t *v)
{
	if (strcmp(key, "use") == 0)
		return 0;
	if (strcmp(key, "source") == 0 || strcmp(key, "destination") == 0) {
		bool src = key[0] == 's';
		struct group_refs a = { src ? &r->src : &r->dst, src ? &r->nsrc : &r->ndst, key };
		return each_item(p, v, key, group_ref_item, &a);
	}
	if (strcmp(key, "qos_class") == 0)
		return ranges(p, v, key, 0xfff, &r->qos_class);
	if (strcmp(key, "service_ids") == 0)
		return ranges(p, v, key, UINT64_MAX, &r->service_ids);
	if (strcmp(key, "pkeys") == 0)
		return ranges(p, v, key, 0x7fff, &r->pkeys);
	if (strcmp(key, "level") == 0) {
		long l = scalar(v) ? find_level(p, scalar(v)) : -1;
		if (l < 0)
			return FAIL(p, v, "level: no QoS level named '%.64s'",
				    scalar(v) ? scalar(v) : "");
		r->level = (size_t)l;
		return 0;
	}
	return FAIL(p, k, "unknown key '%.64s' (use, source, destination, qos_class, "
		    "service_ids, pkeys, level)", key);
}

/* One entry of a list section: a mapping whose keys @fn reads one by one. */
typedef int (*entry_key_fn)(struct parse *p, void *entry, const char *key,
			    const yaml_node_t *k, const yaml_node_t *v);

static int entry(struct parse *p, const yaml_node_t *map, const char *what, void *e,
		 entry_key_fn fn)
{
	int rc;

	if (map->type != YAML_MAPPING_NODE)
		return FAIL(p, map, "%s: expected a mapping", what);
	if ((rc = sm_ydoc_unique_keys(&p->y, map, what)))
		return rc;
	FOR_PAIRS(map, pr) {
		const yaml_node_t *k = child(p, pr->key);
		if ((rc = fn(p, e, scalar(k), k, child(p, pr->value))))
			return rc;
	}
	return 0;
}

/* Whether mapping @map has the plain key @key (keys not yet checked). */
static bool has_key(struct parse *p, const yaml_node_t *map, const char *key)
{
	FOR_PAIRS(map, pr) {
		const char *k = scalar(child(p, pr->key));
		if (k && strcmp(k, key) == 0)
			return true;
	}
	return false;
}

static int group(struct parse *p, const yaml_node_t *map)
{
	struct sm_qos_group *g = append(p, map, (void **)&p->q.groups, &p->q.ngroups, sizeof(*g));
	int rc;

	if (!g)
		return -ENOMEM;
	if ((rc = entry(p, map, "port group", g, (entry_key_fn)group_key)))
		return rc;
	if (!g->name[0])
		return FAIL(p, map, "a port group needs a name");
	p->q.ngroups--;
	long dup = find_group(p, g->name);
	p->q.ngroups++;
	if (dup >= 0)
		return FAIL(p, map, "port group '%s' given twice", g->name);
	return 0;
}

static int level(struct parse *p, const yaml_node_t *map)
{
	struct sm_qos_level *l = append(p, map, (void **)&p->q.levels, &p->q.nlevels, sizeof(*l));
	int rc;

	if (!l)
		return -ENOMEM;
	l->sl = SM_QOS_NO_SL;
	l->pkt_life = 0xff;
	if ((rc = entry(p, map, "QoS level", l, (entry_key_fn)level_key)))
		return rc;
	if (!l->name[0])
		return FAIL(p, map, "a QoS level needs a name");
	p->q.nlevels--;
	long dup = find_level(p, l->name);
	p->q.nlevels++;
	if (dup >= 0)
		return FAIL(p, map, "QoS level '%s' given twice", l->name);
	return 0;
}

static int rule(struct parse *p, const yaml_node_t *map)
{
	struct sm_qos_rule *r = append(p, map, (void **)&p->q.rules, &p->q.nrules, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->line = (uint32_t)map->start_mark.line + 1;
	if (map->type == YAML_MAPPING_NODE && !has_key(p, map, "level"))
		return FAIL(p, map, "a match rule needs a level");
	return entry(p, map, "match rule", r, (entry_key_fn)rule_key);
}

/* --- the simplified ULP section --- */

/* A ULP rule: its criterion and its level (an SL alone). */
struct ulp {
	const char *ulp;
	const yaml_node_t *ulp_at, *crit_at, *sl_at;
	const char *crit;	/* the criterion's key, NULL: none */
	uint8_t sl;
};

static int ulp_key(struct parse *p, struct ulp *u, const char *key, const yaml_node_t *k,
		   const yaml_node_t *v)
{
	static const char *const crits[] = { "port_num", "pkey", "service_id",
					     "target_port_guid", "source_port_guid",
					     "source_target_port_guid" };
	uint64_t x;
	int rc;

	if (strcmp(key, "ulp") == 0) {
		if (!(u->ulp = scalar(v)))
			return FAIL(p, v, "ulp: expected a name");
		u->ulp_at = v;
		return 0;
	}
	if (strcmp(key, "sl") == 0) {
		if ((rc = sm_ydoc_number(&p->y, v, key, 15, &x)))
			return rc;
		u->sl = (uint8_t)x;
		u->sl_at = v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(crits) / sizeof(crits[0]); i++)
		if (strcmp(key, crits[i]) == 0) {
			if (u->crit)
				return FAIL(p, k, "a ULP rule has one criterion (%s is given)", u->crit);
			u->crit = crits[i];
			u->crit_at = v;
			return 0;
		}
	return FAIL(p, k, "unknown key '%.64s' (ulp, sl, port_num, pkey, service_id, "
		    "target_port_guid, source_port_guid, source_target_port_guid)", key);
}

/* The criteria each ULP takes, and what it matches without one. */
static const struct {
	const char *ulp;
	const char *crits;	/* the keys it takes, space separated */
	uint64_t sid_base;	/* sdp, rds, iser: ServiceID of port 0 */
	uint64_t dflt_lo, dflt_hi;	/* ServiceIDs or P_Key without a criterion */
} ulps[] = {
	{ "sdp", "port_num", 0x10000, 0x10000, 0x1ffff },
	{ "rds", "port_num", 0x1060000, 0x10648ca, 0x10648ca },
	{ "iser", "port_num", 0x1060000, 0x1060cbc, 0x1060cbc },
	{ "ipoib", "pkey", 0, 0x7fff, 0x7fff },
	{ "srp", "target_port_guid", 0, 0, 0 },
	{ "any", "pkey service_id target_port_guid source_port_guid source_target_port_guid",
	  0, 0, 0 },
};

/* A group of the port GUIDs @v names, hidden (no name) for one ULP rule. */
static int ulp_guid_group(struct parse *p, const yaml_node_t *v, size_t *idx)
{
	struct sm_qos_group *g = append(p, v, (void **)&p->q.groups, &p->q.ngroups, sizeof(*g));

	if (!g)
		return -ENOMEM;
	*idx = p->q.ngroups - 1;
	return ranges(p, v, "port GUID", UINT64_MAX, &g->guids);
}

static int ulp_rule(struct parse *p, const struct ulp *u, size_t i, const yaml_node_t *map)
{
	struct sm_qos_level *l = append(p, map, (void **)&p->q.levels, &p->q.nlevels, sizeof(*l));
	if (!l)
		return -ENOMEM;
	*l = (struct sm_qos_level){ .sl = u->sl, .pkt_life = 0xff };
	struct sm_qos_rule *r = append(p, map, (void **)&p->q.rules, &p->q.nrules, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->level = p->q.nlevels - 1;
	r->line = (uint32_t)map->start_mark.line + 1;
	const char *c = u->crit;
	if (!c) {
		if (!ulps[i].dflt_hi)
			return FAIL(p, map, "ulp %s needs %s", u->ulp, ulps[i].crits);
		struct sm_qos_ranges *rs = strcasecmp(u->ulp, "ipoib") ? &r->service_ids
								       : &r->pkeys;
		if (!(rs->r = malloc(sizeof(*rs->r))))
			return FAIL(p, map, "out of memory");
		rs->r[0] = (struct sm_qos_range){ ulps[i].dflt_lo, ulps[i].dflt_hi };
		rs->n = 1;
		return 0;
	}
	if (strcmp(c, "port_num") == 0) {
		int rc = ranges(p, u->crit_at, c, 0xffff, &r->service_ids);
		for (size_t j = 0; j < r->service_ids.n; j++) {
			r->service_ids.r[j].lo += ulps[i].sid_base;
			r->service_ids.r[j].hi += ulps[i].sid_base;
		}
		return rc;
	}
	if (strcmp(c, "pkey") == 0)
		return ranges(p, u->crit_at, c, 0x7fff, &r->pkeys);
	if (strcmp(c, "service_id") == 0)
		return ranges(p, u->crit_at, c, UINT64_MAX, &r->service_ids);
	size_t g;
	int rc = ulp_guid_group(p, u->crit_at, &g);
	if (rc)
		return rc;
	size_t *one = malloc(sizeof(*one));
	if (!one)
		return FAIL(p, map, "out of memory");
	*one = g;
	if (strcmp(c, "source_port_guid") == 0) {
		r->src = one;
		r->nsrc = 1;
	} else {
		r->dst = one;
		r->ndst = 1;
		if (strcmp(c, "source_target_port_guid") == 0) {
			r->src = one;
			r->nsrc = 1;
			r->either_end = true;
		}
	}
	return 0;
}

static int ulp(struct parse *p, const yaml_node_t *map)
{
	struct ulp u = { .ulp = NULL };
	int rc;

	if ((rc = entry(p, map, "ULP rule", &u, (entry_key_fn)ulp_key)))
		return rc;
	if (!u.ulp || !u.sl_at)
		return FAIL(p, map, "a ULP rule needs ulp and sl");
	if (strcasecmp(u.ulp, "default") == 0) {
		if (u.crit)
			return FAIL(p, u.crit_at, "the default ULP rule takes no criterion");
		if (p->ulp_default)
			return FAIL(p, map, "the default ULP rule given twice");
		p->ulp_default = true;
		p->ulp_default_sl = u.sl;
		p->ulp_default_at = map;
		return 0;
	}
	for (size_t i = 0; i < sizeof(ulps) / sizeof(ulps[0]); i++) {
		if (strcasecmp(u.ulp, ulps[i].ulp))
			continue;
		if (u.crit) {
			size_t len = strlen(u.crit);
			const char *at = strstr(ulps[i].crits, u.crit);
			if (!at || (at[len] && at[len] != ' ') ||
			    (at > ulps[i].crits && at[-1] != ' '))
				return FAIL(p, u.crit_at, "ulp %s takes %s, not %s", ulps[i].ulp,
					    ulps[i].crits, u.crit);
		}
		return ulp_rule(p, &u, i, map);
	}
	return FAIL(p, u.ulp_at, "ulp: '%.40s' is not default, sdp, rds, iser, ipoib, srp or "
		    "any", u.ulp);
}

/* --- vl_tables --- */

static int vl_key(struct parse *p, struct vl_given *g, const char *key, const yaml_node_t *k,
		  const yaml_node_t *v)
{
	uint64_t x;
	int rc;

	if (strcmp(key, "max_vls") == 0) {
		if ((rc = sm_ydoc_number(&p->y, v, key, 15, &x)))
			return rc;
		if (!x)
			return FAIL(p, v, "max_vls: 1 to 15");
		g->c.max_vls = (uint8_t)x;
		g->max_vls = true;
	} else if (strcmp(key, "high_limit") == 0) {
		if ((rc = sm_ydoc_number(&p->y, v, key, 255, &x)))
			return rc;
		g->c.high_limit = (uint8_t)x;
		g->high_limit = true;
	} else if (strcmp(key, "vlarb_high") == 0 || strcmp(key, "vlarb_low") == 0) {
		bool high = key[6] == 'h';
		const char *why;
		if (!scalar(v))
			return FAIL(p, v, "%s: expected \"VL:weight,...\"", key);
		if (vlarb_parse(scalar(v), high ? g->c.vlarb_high : g->c.vlarb_low, &why))
			return FAIL(p, v, "%s: %s", key, why);
		*(high ? &g->vlarb_high : &g->vlarb_low) = true;
	} else if (strcmp(key, "sl2vl") == 0) {
		struct sm_qos_ranges vls = { NULL, 0 };
		rc = ranges(p, v, key, 15, &vls);
		for (size_t i = 0; !rc && i < vls.n; i++)
			if (vls.r[i].lo != vls.r[i].hi)
				rc = FAIL(p, v, "sl2vl: a VL per SL, not a range");
		if (!rc && vls.n != MAD_NUM_SL)
			rc = FAIL(p, v, "sl2vl: %zu VLs, expected one per SL (16)", vls.n);
		for (size_t i = 0; !rc && i < vls.n; i++)
			g->c.sl2vl.vl[i] = (uint8_t)vls.r[i].lo;
		free(vls.r);
		g->sl2vl = !rc;
		return rc;
	} else {
		return FAIL(p, k, "unknown key '%.64s' (max_vls, high_limit, vlarb_high, "
			    "vlarb_low, sl2vl)", key);
	}
	return 0;
}

static int vl_tables(struct parse *p, const yaml_node_t *map)
{
	int rc;

	if (map->type != YAML_MAPPING_NODE)
		return FAIL(p, map, "vl_tables: expected a mapping of port types");
	if ((rc = sm_ydoc_unique_keys(&p->y, map, "vl_tables")))
		return rc;
	FOR_PAIRS(map, pr) {
		const yaml_node_t *k = child(p, pr->key);
		const char *key = scalar(k);
		struct vl_given *g = strcmp(key, "all") == 0 ? &p->vl_all : NULL;
		for (unsigned t = 0; !g && t < SM_QOS_PORT_TYPES; t++)
			if (strcmp(key, port_type_keys[t]) == 0)
				g = &p->vl[t];
		if (!g)
			return FAIL(p, k, "vl_tables: '%.64s' is not all, ca, switch_external, "
				    "switch_port0 or router", key);
		if ((rc = entry(p, child(p, pr->value), key, g, (entry_key_fn)vl_key)))
			return rc;
	}
	return 0;
}

/* Each type's tables: the type's field, else all's, else the default. */
static void vl_resolve(struct parse *p)
{
	for (unsigned t = 0; t < SM_QOS_PORT_TYPES; t++) {
		struct sm_qos_vl_config *c = &p->q.vl[t];
		const struct vl_given *g = &p->vl[t], *a = &p->vl_all;
		if (g->max_vls || a->max_vls)
			c->max_vls = (g->max_vls ? g : a)->c.max_vls;
		if (g->high_limit || a->high_limit)
			c->high_limit = (g->high_limit ? g : a)->c.high_limit;
		if (g->vlarb_high || a->vlarb_high)
			memcpy(c->vlarb_high, (g->vlarb_high ? g : a)->c.vlarb_high,
			       sizeof(c->vlarb_high));
		if (g->vlarb_low || a->vlarb_low)
			memcpy(c->vlarb_low, (g->vlarb_low ? g : a)->c.vlarb_low,
			       sizeof(c->vlarb_low));
		if (g->sl2vl || a->sl2vl)
			c->sl2vl = (g->sl2vl ? g : a)->c.sl2vl;
	}
}

/* --- the file --- */

static int list(struct parse *p, const yaml_node_t *v, const char *key,
		int (*fn)(struct parse *p, const yaml_node_t *item))
{
	int rc;

	if (v->type == YAML_SCALAR_NODE && !scalar(v)[0])
		return 0;	/* "key:" with nothing */
	if (v->type != YAML_SEQUENCE_NODE)
		return FAIL(p, v, "%s: expected a list", key);
	for (yaml_node_item_t *it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++)
		if ((rc = fn(p, child(p, *it))))
			return rc;
	return 0;
}

/* The sections in the order they must be read: rules name groups and
 * levels, the ULPs' rules come after the match rules. */
static const struct {
	const char *key;
	int (*fn)(struct parse *p, const yaml_node_t *item);
	bool is_list;
} sections[] = {
	{ "port_groups", group, true },
	{ "qos_levels", level, true },
	{ "match_rules", rule, true },
	{ "ulps", ulp, true },
	{ "vl_tables", vl_tables, false },
};

static int default_level(struct parse *p, const yaml_node_t *root)
{
	long d = find_level(p, "DEFAULT");

	if (d >= 0 && p->ulp_default)
		return FAIL(p, p->ulp_default_at, "a default level is given twice: the QoS level "
			    "DEFAULT and the default ULP rule");
	if (d < 0 && p->ulp_default) {
		struct sm_qos_level *l = append(p, root, (void **)&p->q.levels, &p->q.nlevels,
						sizeof(*l));
		if (!l)
			return -ENOMEM;
		*l = (struct sm_qos_level){ .sl = p->ulp_default_sl, .pkt_life = 0xff };
		snprintf(l->name, sizeof(l->name), "DEFAULT");
		d = (long)p->q.nlevels - 1;
	}
	if (d < 0)
		return FAIL(p, root, "no default: give a QoS level named DEFAULT or a ULP rule "
			    "'ulp: default'");
	p->q.default_level = (size_t)d;
	return 0;
}

static int top(void *arg, const yaml_node_t *root)
{
	struct parse *p = arg;
	int rc;

	if (!root)
		return sm_ydoc_fail(&p->y, &(yaml_node_t){ .type = YAML_NO_NODE },
				    "the policy is empty: give a default level at least");
	if (root->type != YAML_MAPPING_NODE)
		return FAIL(p, root, "the policy must be a mapping (port_groups, qos_levels, "
			    "match_rules, ulps, vl_tables)");
	if ((rc = sm_ydoc_unique_keys(&p->y, root, "the policy")))
		return rc;
	FOR_PAIRS(root, pr) {
		const char *key = scalar(child(p, pr->key));
		size_t i = 0;
		while (i < sizeof(sections) / sizeof(sections[0]) && strcmp(sections[i].key, key))
			i++;
		if (i == sizeof(sections) / sizeof(sections[0]))
			return FAIL(p, child(p, pr->key), "unknown key '%.64s' (port_groups, "
				    "qos_levels, match_rules, ulps, vl_tables)", key);
	}
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		FOR_PAIRS(root, pr) {
			if (strcmp(scalar(child(p, pr->key)), sections[i].key))
				continue;
			const yaml_node_t *v = child(p, pr->value);
			rc = sections[i].is_list ? list(p, v, sections[i].key, sections[i].fn)
						 : sections[i].fn(p, v);
			if (rc)
				return rc;
		}
	vl_resolve(p);
	return default_level(p, root);
}

int sm_qos_policy_parse(FILE *in, const char *name, struct sm_qos_policy *q, char *err,
			size_t errlen)
{
	struct parse p = { .y = { .path = name, .err = err, .errlen = errlen } };
	int rc;

	sm_qos_policy_none(&p.q);
	p.q.on = true;
	if ((rc = sm_ydoc_read(in, &p.y, top, &p))) {
		sm_qos_policy_free(&p.q);
		return rc;
	}
	*q = p.q;
	return 0;
}

int sm_qos_policy_load(const char *path, struct sm_qos_policy *q, char *err, size_t errlen)
{
	int rc;
	FILE *f = sm_file_open(path, SM_QOS_MAX_FILE_BYTES, &rc, err, errlen);

	if (!f)
		return rc;
	rc = sm_qos_policy_parse(f, path, q, err, errlen);
	fclose(f);
	return rc;
}

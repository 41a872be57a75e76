// SPDX-License-Identifier: MIT
/*
 * sm_pkey_file.c - the partitions file: ibsmd's YAML read and checked whole,
 * or OpenSM's partitions.conf handed to sm_pkey_osm.c (sm_pkey.h says which).
 *
 *   partitions:
 *     - name: storage
 *       pkey: 0x0002
 *       ipoib: yes
 *       mtu: 4096          # 256 512 1024 2048 4096
 *       rate: 100G         # 2.5G .. 1200G, as IBA's PathRecord rates
 *       sl: 0
 *       members:
 *         all: limited                      # every port
 *         0x0002c90300a1b2c4: full          # a port GUID
 *         "node1 HCA-1": full               # every port of that node
 *
 * The whole file is read first (sm_ydoc.c), into a new set of
 * partitions that replaces the caller's only when all of it is good: every
 * error names FILE:LINE:COLUMN.  Refused: an unknown key, a missing name or
 * P_Key, a P_Key of 0 or above 0x7fff (the membership bit is per member), a
 * P_Key or name given twice, membership other than full or limited, an MTU or
 * rate that is not one of IBA's, an SL above 15, more than
 * SM_PKEY_MAX_PARTITIONS partitions or SM_PKEY_MAX_MEMBERS members in one.
 * The default partition 0x7fff may be listed (for its name, IPoIB, MTU, rate,
 * SL; IPoIB stays on unless it says no); it holds every port, full members unless it says "all: limited" (the
 * SM's own port stays full), so other members are refused there.  Members that name no port are
 * found only against a fabric (sm_pkey.c): they are warnings then.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo_text.h"
#include "sm/util/sm_file.h"
#include "sm/util/sm_ydoc.h"
#include "sm/sa/sm_pkey.h"

static const struct {
	const char *word;
	uint8_t code;
} mtus[] = {
	{ "256", 1 }, { "512", 2 }, { "1024", 3 }, { "2048", 4 }, { "4096", 5 },
};

/* PathRecord rate codes (IBA 15.2.5.16, table 213) by their data rate. */
static const struct {
	const char *word;
	uint8_t code;
} rates[] = {
	{ "2.5G", 2 }, { "5G", 5 }, { "10G", 3 }, { "14G", 11 }, { "20G", 6 },
	{ "25G", 15 }, { "28G", 19 }, { "30G", 4 }, { "40G", 7 }, { "50G", 20 },
	{ "56G", 12 }, { "60G", 8 }, { "80G", 9 }, { "100G", 16 }, { "112G", 13 },
	{ "120G", 10 }, { "168G", 14 }, { "200G", 17 }, { "300G", 18 }, { "400G", 21 },
	{ "600G", 22 }, { "800G", 23 }, { "1200G", 24 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

uint8_t sm_pkey_mtu_code(const char *word)
{
	for (size_t i = 0; i < NELEM(mtus); i++)
		if (strcmp(mtus[i].word, word) == 0)
			return mtus[i].code;
	return 0;
}

uint8_t sm_pkey_rate_code(const char *word)
{
	for (size_t i = 0; i < NELEM(rates); i++)
		if (strcasecmp(rates[i].word, word) == 0)
			return rates[i].code;
	return 0;
}

const char *sm_pkey_mtu_word(uint8_t code)
{
	for (size_t i = 0; i < NELEM(mtus); i++)
		if (mtus[i].code == code)
			return mtus[i].word;
	return NULL;
}

const char *sm_pkey_rate_word(uint8_t code)
{
	for (size_t i = 0; i < NELEM(rates); i++)
		if (rates[i].code == code)
			return rates[i].word;
	return NULL;
}

/* --- the set of partitions --- */

void sm_partition_free(struct sm_partition *p)
{
	for (size_t i = 0; i < p->nmembers; i++)
		free(p->members[i].name);
	free(p->members);
	free(p->groups);
	p->members = NULL;
	p->nmembers = 0;
	p->groups = NULL;
	p->ngroups = 0;
}

void sm_partitions_free(struct sm_partitions *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		sm_partition_free(&ps->p[i]);
	free(ps->p);
	ps->p = NULL;
	ps->n = 0;
}

static void default_partition(struct sm_partition *p)
{
	*p = (struct sm_partition){ .pkey = SM_PKEY_DEFAULT, .ipoib = true };
	snprintf(p->name, sizeof(p->name), "default");
}

int sm_partitions_default(struct sm_partitions *ps)
{
	*ps = (struct sm_partitions){ .p = calloc(1, sizeof(*ps->p)) };
	if (!ps->p)
		return -ENOMEM;
	default_partition(&ps->p[0]);
	ps->n = 1;
	return 0;
}

static bool member_equal(const struct sm_pkey_member *a, const struct sm_pkey_member *b)
{
	return a->kind == b->kind && a->full == b->full && a->indx0 == b->indx0 &&
	       a->guid == b->guid &&
	       (a->kind != SM_PKEY_MEMBER_NAME || strcmp(a->name, b->name) == 0);
}

static bool group_equal(const struct sm_pkey_group *a, const struct sm_pkey_group *b)
{
	return !memcmp(a->mgid, b->mgid, sizeof(a->mgid)) && a->scopes == b->scopes &&
	       a->qkey == b->qkey && a->flow_label == b->flow_label && a->mtu == b->mtu &&
	       a->rate == b->rate && a->sl == b->sl && a->tclass == b->tclass;
}

bool sm_partitions_equal(const struct sm_partitions *a, const struct sm_partitions *b)
{
	if (a->n != b->n || a->last_wins != b->last_wins)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct sm_partition *x = &a->p[i], *y = &b->p[i];
		if (strcmp(x->name, y->name) || x->pkey != y->pkey || x->ipoib != y->ipoib ||
		    x->mtu != y->mtu || x->rate != y->rate || x->sl != y->sl ||
		    x->scopes != y->scopes || x->qkey != y->qkey || x->tclass != y->tclass ||
		    x->flow_label != y->flow_label ||
		    x->nmembers != y->nmembers || x->ngroups != y->ngroups)
			return false;
		for (size_t j = 0; j < x->nmembers; j++)
			if (!member_equal(&x->members[j], &y->members[j]))
				return false;
		for (size_t j = 0; j < x->ngroups; j++)
			if (!group_equal(&x->groups[j], &y->groups[j]))
				return false;
	}
	return true;
}

/* --- the YAML file --- */

struct parse {
	struct sm_ydoc y;
	struct sm_partitions ps;
	uint32_t *lines;	/* per partition: where it starts, for duplicates */
	bool default_listed;
};

static int member(struct parse *p, struct sm_partition *part, const yaml_node_t *k,
		  const yaml_node_t *v)
{
	const char *who = sm_ydoc_scalar(k), *how = sm_ydoc_scalar(v);
	struct sm_pkey_member m = { .line = (uint32_t)k->start_mark.line + 1 };
	char val[TOPO_TEXT_VALUE_SIZE];

	if (!how || (strcmp(how, "full") && strcmp(how, "limited")))
		return sm_ydoc_fail(&p->y, v, "member '%s': expected full or limited", topo_text_value(val, who));
	m.full = strcmp(how, "full") == 0;
	if (strcmp(who, "all") == 0) {
		m.kind = SM_PKEY_MEMBER_ALL;
	} else if (who[0] == '0' && (who[1] == 'x' || who[1] == 'X')) {
		uint64_t g;
		int rc = sm_ydoc_number(&p->y, k, "member GUID", UINT64_MAX, &g);
		if (rc)
			return rc;
		if (!g)
			return sm_ydoc_fail(&p->y, k, "member GUID 0 names no port");
		m.kind = SM_PKEY_MEMBER_GUID;
		m.guid = g;
	} else {
		if (!who[0] || strlen(who) > TOPO_DESC_LEN)
			return sm_ydoc_fail(&p->y, k, "member '%s': a node name is 1 to %d bytes",
				    topo_text_value(val, who), TOPO_DESC_LEN);
		m.kind = SM_PKEY_MEMBER_NAME;
		if (!(m.name = strdup(who)))
			return sm_ydoc_fail(&p->y, k, "out of memory");
	}
	if (part->pkey == SM_PKEY_DEFAULT && m.kind != SM_PKEY_MEMBER_ALL) {
		free(m.name);
		return sm_ydoc_fail(&p->y, k, "the default partition 0x7fff holds every port: list no "
			    "members there, or only 'all: full' or 'all: limited'");
	}
	part->members[part->nmembers++] = m;
	return 0;
}

static int members(struct parse *p, struct sm_partition *part, const yaml_node_t *v)
{
	if (v->type != YAML_MAPPING_NODE)
		return sm_ydoc_fail(&p->y, v, "members: expected a mapping of members (a port GUID, "
			    "a node name or all) to full or limited");
	size_t n = (size_t)(v->data.mapping.pairs.top - v->data.mapping.pairs.start);
	if (n > SM_PKEY_MAX_MEMBERS)
		return sm_ydoc_fail(&p->y, v, "members: %zu entries, at most %d: use all, or node names",
			    n, SM_PKEY_MAX_MEMBERS);
	int rc = sm_ydoc_unique_keys(&p->y, v, "members");
	if (rc)
		return rc;
	if (n && !(part->members = calloc(n, sizeof(*part->members))))
		return sm_ydoc_fail(&p->y, v, "out of memory");
	for (yaml_node_pair_t *pr = v->data.mapping.pairs.start;
	     pr < v->data.mapping.pairs.top; pr++)
		if ((rc = member(p, part, sm_ydoc_node(&p->y, pr->key), sm_ydoc_node(&p->y, pr->value))))
			return rc;
	return 0;
}

/* One key of a partition's mapping, but members (read last: they need the P_Key). */
static int partition_key(struct parse *p, struct sm_partition *part, const yaml_node_t *k,
			 const yaml_node_t *v)
{
	const char *key = sm_ydoc_scalar(k), *s = sm_ydoc_scalar(v);
	char tok[TOPO_TEXT_TOKEN_SIZE];
	uint64_t x;
	int rc;

	if (strcmp(key, "name") == 0) {
		if (!s || !s[0] || strlen(s) > SM_PKEY_NAME_LEN)
			return sm_ydoc_fail(&p->y, v, "name: 1 to %d bytes", SM_PKEY_NAME_LEN);
		for (const char *c = s; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return sm_ydoc_fail(&p->y, v, "name: a control character");
		snprintf(part->name, sizeof(part->name), "%s", s);
	} else if (strcmp(key, "pkey") == 0) {
		if ((rc = sm_ydoc_number(&p->y, v, "pkey", UINT16_MAX, &x)))
			return rc;
		if (SM_PKEY_BASE(x) == 0)
			return sm_ydoc_fail(&p->y, v, "pkey: 0x%04llx is the invalid P_Key (IBA 10.9.1.2)",
				    (unsigned long long)x);
		if (x & SM_PKEY_FULL)
			return sm_ydoc_fail(&p->y, v, "pkey: 0x%04llx has the membership bit: write the 15-bit "
				    "P_Key (0x%04llx) and say full or limited per member",
				    (unsigned long long)x, (unsigned long long)SM_PKEY_BASE(x));
		part->pkey = (uint16_t)x;
	} else if (strcmp(key, "ipoib") == 0) {
		return sm_ydoc_bool(&p->y, v, "ipoib", &part->ipoib);
	} else if (strcmp(key, "mtu") == 0) {
		if (!s || !(part->mtu = sm_pkey_mtu_code(s)))
			return sm_ydoc_fail(&p->y, v, "mtu: expected 256, 512, 1024, 2048 or 4096");
	} else if (strcmp(key, "rate") == 0) {
		if (!s || !(part->rate = sm_pkey_rate_code(s)))
			return sm_ydoc_fail(&p->y, v, "rate: expected an IBA rate: 2.5G, 10G, 25G, 40G, 50G, "
				    "100G, 200G, 400G, 800G, 1200G...");
	} else if (strcmp(key, "sl") == 0) {
		if ((rc = sm_ydoc_number(&p->y, v, "sl", 15, &x)))
			return rc;
		part->sl = (uint8_t)x;
	} else if (strcmp(key, "members") != 0) {
		return sm_ydoc_fail(&p->y, k, "unknown key '%s' (name, pkey, ipoib, mtu, rate, sl, members)",
			    topo_text_token(tok, key));
	}
	return 0;
}

static int partition(struct parse *p, const yaml_node_t *map)
{
	struct sm_partition part = { .pkey = 0 };
	char val[TOPO_TEXT_VALUE_SIZE];
	const yaml_node_t *mem = NULL, *pkey_at = map;
	bool named = false, ipoib_given = false;
	int rc;

	if (map->type != YAML_MAPPING_NODE)
		return sm_ydoc_fail(&p->y, map, "a partition is a mapping (name, pkey, members...)");
	if ((rc = sm_ydoc_unique_keys(&p->y, map, "partition")))
		return rc;
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
	     pr < map->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = sm_ydoc_node(&p->y, pr->key), *v = sm_ydoc_node(&p->y, pr->value);
		if (strcmp(sm_ydoc_scalar(k), "members") == 0)
			mem = v;
		if (strcmp(sm_ydoc_scalar(k), "pkey") == 0)
			pkey_at = v;
		named |= strcmp(sm_ydoc_scalar(k), "name") == 0;
		ipoib_given |= strcmp(sm_ydoc_scalar(k), "ipoib") == 0;
		if ((rc = partition_key(p, &part, k, v)))
			return rc;
	}
	if (!named || !part.pkey)
		return sm_ydoc_fail(&p->y, map, "a partition needs a name and a pkey");
	if (part.pkey == SM_PKEY_DEFAULT && !ipoib_given)
		part.ipoib = true;	/* the default partition carries IPoIB unless told */
	for (size_t i = 0; i < p->ps.n; i++) {
		if (i == 0 && part.pkey == SM_PKEY_DEFAULT && !p->default_listed)
			continue;	/* the built-in default, about to be replaced */
		char first[48] = "the built-in default partition";
		if (p->lines[i])
			snprintf(first, sizeof(first), "line %u", p->lines[i]);
		if (p->ps.p[i].pkey == part.pkey)
			return sm_ydoc_fail(&p->y, pkey_at, "pkey 0x%04x given twice (first at %s)",
				    part.pkey, first);
		if (strcmp(p->ps.p[i].name, part.name) == 0)
			return sm_ydoc_fail(&p->y, map, "partition name '%s' given twice (first at %s)",
				    topo_text_value(val, part.name), first);
	}
	if (mem && (rc = members(p, &part, mem))) {
		sm_partition_free(&part);
		return rc;
	}
	uint32_t line = (uint32_t)map->start_mark.line + 1;
	if (part.pkey == SM_PKEY_DEFAULT) {
		sm_partition_free(&p->ps.p[0]);
		p->ps.p[0] = part;
		p->lines[0] = line;
		p->default_listed = true;
		return 0;
	}
	p->ps.p[p->ps.n] = part;
	p->lines[p->ps.n++] = line;
	return 0;
}

static int top(struct parse *p, const yaml_node_t *root)
{
	const yaml_node_t *list = NULL;
	int rc;

	if (root->type != YAML_MAPPING_NODE)
		return sm_ydoc_fail(&p->y, root, "the file must be a mapping with the key 'partitions'");
	/* a file that is no partitions file fails here: a token of its first key */
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
	     pr < root->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = sm_ydoc_node(&p->y, pr->key);
		char tok[TOPO_TEXT_TOKEN_SIZE];
		if (!sm_ydoc_scalar(k))
			return sm_ydoc_fail(&p->y, k, "the file: keys must be plain names");
		if (strcmp(sm_ydoc_scalar(k), "partitions"))
			return sm_ydoc_fail(&p->y, k, "unknown key '%s' (the file holds 'partitions')",
				    topo_text_token(tok, sm_ydoc_scalar(k)));
		list = sm_ydoc_node(&p->y, pr->value);
	}
	if ((rc = sm_ydoc_unique_keys(&p->y, root, "the file")))
		return rc;
	if (!list)
		return 0;
	if (list->type == YAML_SCALAR_NODE && !sm_ydoc_scalar(list)[0])
		return 0;	/* "partitions:" with nothing */
	if (list->type != YAML_SEQUENCE_NODE)
		return sm_ydoc_fail(&p->y, list, "partitions: expected a list of partitions");
	size_t n = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	if (n > SM_PKEY_MAX_PARTITIONS)
		return sm_ydoc_fail(&p->y, list, "partitions: %zu listed, at most %d", n,
			    SM_PKEY_MAX_PARTITIONS);
	struct sm_partition *grown = realloc(p->ps.p, (n + 1) * sizeof(*grown));
	uint32_t *lines = realloc(p->lines, (n + 1) * sizeof(*lines));
	if (grown)
		p->ps.p = grown;
	if (lines)
		p->lines = lines;
	if (!grown || !lines)
		return sm_ydoc_fail(&p->y, list, "out of memory");
	for (yaml_node_item_t *it = list->data.sequence.items.start;
	     it < list->data.sequence.items.top; it++)
		if ((rc = partition(p, sm_ydoc_node(&p->y, *it))))
			return rc;
	return 0;
}

static int top_node(void *arg, const yaml_node_t *root)
{
	return root ? top(arg, root) : 0;	/* an empty file: the default only */
}

static int parse_yaml(FILE *in, const char *name, struct sm_partitions *ps, char *err,
		      size_t errlen)
{
	struct parse p = { .y = { .path = name, .err = err, .errlen = errlen } };
	int rc;

	if (sm_partitions_default(&p.ps) || !(p.lines = calloc(1, sizeof(*p.lines)))) {
		sm_partitions_free(&p.ps);
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	rc = sm_ydoc_read(in, &p.y, top_node, &p);
	free(p.lines);
	if (rc) {
		sm_partitions_free(&p.ps);
		return rc;
	}
	*ps = p.ps;
	return 0;
}

/* The next line of @in that is neither blank nor a comment, its blanks
 * skipped; NULL at the end. */
static const char *significant_line(FILE *in, char *line, size_t len)
{
	while (fgets(line, (int)len, in)) {
		const char *s = line + strspn(line, " \t\r\n");
		if (*s && *s != '#')
			return s;
	}
	return NULL;
}

/* @s starts with a YAML key, "word:" (a letter or '_', then letters, digits
 * or '_'); the rest after the ':' in *@rest. */
static bool key_line(const char *s, const char **rest)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	s += strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	s += strspn(s, " \t");
	if (*s != ':')
		return false;
	*rest = s + 1 + strspn(s + 1, " \t\r\n");
	return true;
}

/*
 * Whether @in reads as YAML, from its first significant line: a document
 * start ("---", "%YAML"), a flow mapping ("{"), a quoted key, "partitions: ...", or a key
 * alone ("word:") that no line follows, or that a list item ("- ...") or
 * another key follows; anything else is OpenSM's ("Default=0x7fff: ...",
 * "Name:" then its members).  An empty file is YAML (the default partition
 * only).  @in is rewound.
 */
static bool is_yaml(FILE *in)
{
	char line[256];
	const char *s = significant_line(in, line, sizeof(line)), *rest;
	bool yaml = true;

	if (s && (strncmp(s, "---", 3) == 0 || strchr("%{\"'", *s)))
		yaml = true;
	else if (s && key_line(s, &rest) && (*rest && *rest != '#'))
		yaml = strncmp(s, "partitions", 10) == 0;
	else if (s && key_line(s, &rest))
		yaml = !(s = significant_line(in, line, sizeof(line))) || *s == '-' ||
		       key_line(s, &rest);
	else
		yaml = !s;
	rewind(in);
	return yaml;
}

int sm_partitions_parse(FILE *in, const char *name, struct sm_partitions *ps, char *err,
			size_t errlen)
{
	return is_yaml(in) ? parse_yaml(in, name, ps, err, errlen)
			   : sm_partitions_parse_osm(in, name, ps, err, errlen);
}

int sm_partitions_load(const char *path, struct sm_partitions *ps, char *err, size_t errlen)
{
	int rc;
	FILE *f = sm_file_open(path, SM_PKEY_MAX_FILE_BYTES, &rc, err, errlen);

	if (!f)
		return rc;
	rc = sm_partitions_parse(f, path, ps, err, errlen);
	fclose(f);
	return rc;
}

// SPDX-License-Identifier: MIT
/*
 * sm_pkey_osm.c - OpenSM's partitions.conf, read as OpenSM reads it.
 *
 * The grammar (OpenSM's doc/partition-config.txt):
 *
 *	# a comment runs to the end of the line
 *	NAME[=PKEY][,FLAG[=VALUE]]... : ENTRY[,ENTRY]... ;
 *
 * A definition runs from its header (up to the ':', on one line) to the ';',
 * over as many lines as it takes; several may share a line, and the last one
 * of the file may lack its ';'.  Header flags: ipoib (the partition's IPoIB
 * broadcast group is made), indx0 (its P_Key goes to entry 0 of the tables of
 * the ports this definition lists), defmember=full|limited|both (for entries
 * that say none; limited when not given), and the group flags mtu=, rate=,
 * sl=, scope=, Q_Key=, TClass=, FlowLabel= (IBA codes and values: the
 * broadcast group's, inherited by the definition's mgid= groups but TClass).
 * An entry is a port GUID, ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF or
 * NONE, with =full, =limited or =both; or mgid=GID[,GROUP_FLAG]..., a
 * multicast group made in the partition, which takes the rest of the
 * definition's line.  Keywords, flags and memberships may be shortened to a
 * prefix, as OpenSM compares them ("limi", "A" for ALL, "N" for NONE).
 *
 * Meaning, as OpenSM gives it:
 *  - the default partition 0x7fff ("Default") holds every port as a limited
 *    member and the SM's port as a full one before the first definition;
 *    IPoIB there only when a definition of 0x7fff says ipoib;
 *  - a P_Key defined twice merges the definitions (the first name stays, the
 *    later sl= counts); a definition without a P_Key joins an earlier one of
 *    its name, else takes the next unused P_Key counting from 1; a name that
 *    starts with a digit is the P_Key; the membership bit of a P_Key is
 *    dropped (0x8001 is 0x0001);
 *  - a port named again takes its later membership (last_wins), "both" is a
 *    full membership (OpenSM's allow_both_pkeys FALSE);
 *  - a group's scope is link-local (2) unless scope= flags say others: one
 *    group per scope, its MGID's scope nibble replaced; IP groups (signature
 *    0x401b or 0x601b) get the partition's full P_Key in their MGID where it
 *    holds 0 (or the broadcast group's 0xffff) and Q_Key 0x0b1b unless one is
 *    given, and must keep the partition's MTU and rate.
 *
 * An error quotes of the file only a short token (topo_text_token(): "root..."
 * for a line of /etc/shadow a path may name by mistake), and an MGID only as
 * it parsed.
 *
 * Where OpenSM logs a warning and goes on (an unknown flag, keyword or
 * membership, a value that is no number or out of range, a group that is not
 * multicast or whose P_Key, MTU or rate disagree, an MGID given twice), this
 * reader refuses the file with FILE:LINE and the reason, as ibsmd's YAML
 * does: a typo never passes silently.  Numbers are decimal or 0x hex; a
 * leading 0 is refused, never read as octal; P_Key 0 is refused.
 * Bounds: SM_PKEY_MAX_PARTITIONS partitions, SM_PKEY_MAX_MEMBERS entries in
 * one, SM_PKEY_MAX_GROUPS groups, lines of at most OSM_MAX_LINE bytes.
 *
 * Flow: one line at a time (getline), its comment cut, split at ';'; each
 * piece opens a definition (header) when none is open, then adds entries to
 * the open one; a ';' closes it.  At the end, each partition's member
 * entries named twice are reduced to the last (the store keeps one row per
 * entry).  The result replaces the caller's only when the whole file is good.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo_text.h"
#include "sm/sa/sm_pkey.h"

#define OSM_MAX_LINE (64 << 10)
#define OSM_MTU_2048 4		/* OpenSM's default group MTU and rate codes */
#define OSM_RATE_10G 3
#define OSM_MGID_LEN 16

struct osm {
	const char *path;
	char *err;
	size_t errlen;
	uint32_t line;
	struct sm_partitions ps;
	size_t cap;		/* partitions allocated */
	size_t *mcap;		/* per partition: member entries allocated */
	size_t ngroups;		/* in the whole file */
	uint16_t next_pkey;	/* the last P_Key made up for a definition */
	/* the open definition */
	bool open;
	size_t cur;		/* its partition */
	bool full;		/* defmember */
	bool indx0;
	struct sm_pkey_group flags;	/* its group flags (no MGID) */
	uint16_t scopes;
};

/* What an error may quote of the file's word @s (a token buffer each). */
#define TOKEN(s) topo_text_token((char[TOPO_TEXT_TOKEN_SIZE]){ 0 }, (s))

static int fail(struct osm *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct osm *o, const char *fmt, ...)
{
	int n = snprintf(o->err, o->errlen, "%s:%u: ", o->path, o->line);
	va_list ap;

	if (n >= 0 && (size_t)n < o->errlen) {
		va_start(ap, fmt);
		vsnprintf(o->err + n, o->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* @s without its leading and trailing blanks (in place). */
static char *trim(char *s)
{
	s += strspn(s, " \t");
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* The next ','-separated token of *@s, trimmed; *@s moves past it (NULL
 * after the last).  Empty tokens count: ",ipoib" is an empty name, then a
 * flag. */
static char *token(char **s)
{
	char *tok = *s, *comma = strchr(tok, ',');

	if (comma)
		*comma = '\0';
	*s = comma ? comma + 1 : NULL;
	return trim(tok);
}

/* Split "name=value" at its first '=': the value, trimmed, or NULL. */
static char *split_value(char *tok)
{
	char *eq = strchr(tok, '=');

	if (!eq)
		return NULL;
	*eq = '\0';
	return trim(eq + 1);
}

/* @word is a non-empty prefix of @full: how OpenSM compares its keywords. */
static bool prefix(const char *word, const char *full)
{
	size_t n = strlen(word);

	return n && n <= strlen(full) && strncmp(word, full, n) == 0;
}

/* A whole number, decimal or 0x hex, at most @max. */
static int number(struct osm *o, const char *what, const char *s, uint64_t max, uint64_t *out)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;

	if (!digits[0] || strspn(digits, hex ? "0123456789abcdefABCDEF" : "0123456789") !=
	    strlen(digits))
		return fail(o, "%s: '%s' is not a number (decimal, or hex as 0x...)", what, TOKEN(s));
	if (!hex && s[0] == '0' && s[1])
		return fail(o, "%s: '%s' has a leading zero: write it in decimal without it, "
			    "or in hex as 0x... (octal is not read)", what, TOKEN(s));
	errno = 0;
	unsigned long long x = strtoull(digits, NULL, hex ? 16 : 10);
	if (errno || x > max)
		return fail(o, "%s: %s is out of range (at most 0x%llx)", what, TOKEN(s),
			    (unsigned long long)max);
	*out = x;
	return 0;
}

/* full, limited or both (a prefix of one); both is full. */
static int membership(struct osm *o, const char *s, bool *full)
{
	if (prefix(s, "full") || prefix(s, "both"))
		*full = true;
	else if (prefix(s, "limited"))
		*full = false;
	else
		return fail(o, "membership '%s': expected full, limited or both", TOKEN(s));
	return 0;
}

/* One group flag into @g (scope= into *@scopes).  1 when @name is one, 0 when
 * it is none, -EINVAL for a bad value.  OpenSM's order settles prefixes. */
static int group_flag(struct osm *o, struct sm_pkey_group *g, uint16_t *scopes,
		      const char *name, const char *val)
{
	static const struct {
		const char *name;
		uint64_t max;
	} flags[] = {
		{ "mtu", 255 }, { "rate", 255 }, { "scope", 15 }, { "Q_Key", UINT32_MAX },
		{ "TClass", 255 }, { "sl", 15 }, { "FlowLabel", 0xfffff },
	};
	uint64_t x;
	size_t i = 0;
	int rc;

	while (i < sizeof(flags) / sizeof(flags[0]) && !prefix(name, flags[i].name))
		i++;
	if (i == sizeof(flags) / sizeof(flags[0]))
		return 0;
	if (!val || !val[0])
		return fail(o, "flag '%s' needs a value", flags[i].name);
	if ((rc = number(o, flags[i].name, val, flags[i].max, &x)))
		return rc;
	switch (i) {
	case 0:
		if (!sm_pkey_mtu_word((uint8_t)x))
			return fail(o, "mtu=%s: expected an IBA MTU code, 1 (256) to 5 (4096)",
				    TOKEN(val));
		g->mtu = (uint8_t)x;
		break;
	case 1:
		if (!sm_pkey_rate_word((uint8_t)x))
			return fail(o, "rate=%s: not an IBA rate code (3 is 10G, 7 40G, 16 100G...)",
				    TOKEN(val));
		g->rate = (uint8_t)x;
		break;
	case 2:
		if (!x)
			return fail(o, "scope=0: expected a scope from 1 to 15");
		*scopes |= (uint16_t)(1u << x);
		break;
	case 3: g->qkey = (uint32_t)x; break;
	case 4: g->tclass = (uint8_t)x; break;
	case 5: g->sl = (uint8_t)x; break;
	default: g->flow_label = (uint32_t)x; break;
	}
	return 1;
}

/* --- partitions --- */

static int grow_partitions(struct osm *o)
{
	if (o->ps.n > SM_PKEY_MAX_PARTITIONS)	/* the default and as many as YAML's */
		return fail(o, "more than %d partitions", SM_PKEY_MAX_PARTITIONS);
	if (o->ps.n < o->cap)
		return 0;
	size_t cap = o->cap ? o->cap * 2 : 16;
	struct sm_partition *p = realloc(o->ps.p, cap * sizeof(*p));
	if (p)
		o->ps.p = p;
	size_t *m = realloc(o->mcap, cap * sizeof(*m));
	if (m)
		o->mcap = m;
	if (!p || !m)
		return fail(o, "out of memory");
	o->cap = cap;
	return 0;
}

static int add_member(struct osm *o, size_t part, struct sm_pkey_member m)
{
	struct sm_partition *p = &o->ps.p[part];

	if (p->nmembers == o->mcap[part]) {
		if (p->nmembers >= SM_PKEY_MAX_MEMBERS)
			return fail(o, "partition %s: more than %d member entries", p->name,
				    SM_PKEY_MAX_MEMBERS);
		size_t cap = o->mcap[part] ? o->mcap[part] * 2 : 8;
		struct sm_pkey_member *g = realloc(p->members, cap * sizeof(*g));
		if (!g)
			return fail(o, "out of memory");
		p->members = g;
		o->mcap[part] = cap;
	}
	m.line = o->line;
	p->members[p->nmembers++] = m;
	return 0;
}

static size_t find_pkey(const struct osm *o, uint16_t pkey)
{
	for (size_t i = 0; i < o->ps.n; i++)
		if (o->ps.p[i].pkey == pkey)
			return i;
	return SIZE_MAX;
}

static int new_partition(struct osm *o, const char *name, uint16_t pkey)
{
	int rc = grow_partitions(o);

	if (rc)
		return rc;
	struct sm_partition *p = &o->ps.p[o->ps.n];
	*p = (struct sm_partition){ .pkey = pkey };
	if (name && name[0])
		snprintf(p->name, sizeof(p->name), "%s", name);
	else
		snprintf(p->name, sizeof(p->name), "%04x", pkey);
	o->mcap[o->ps.n] = 0;
	o->cur = o->ps.n++;
	return 0;
}

/* The definition's partition: by P_Key, by name, or a new one. */
static int pick_partition(struct osm *o, const char *name, const char *id)
{
	uint64_t x;
	int rc;

	if (!id && name && isdigit((unsigned char)name[0])) {
		id = name;	/* "0x8001: ..." names the P_Key */
		name = NULL;
	}
	if (name && strlen(name) > SM_PKEY_NAME_LEN)
		return fail(o, "partition name '%s': at most %d bytes", TOKEN(name),
			    SM_PKEY_NAME_LEN);
	if (id) {
		if ((rc = number(o, "P_Key", id, UINT16_MAX, &x)))
			return rc;
		uint16_t pkey = SM_PKEY_BASE(x);
		if (!pkey)
			return fail(o, "P_Key %s is the invalid P_Key (IBA 10.9.1.2)", TOKEN(id));
		if ((o->cur = find_pkey(o, pkey)) != SIZE_MAX)
			return 0;	/* merged; the first name stays */
		return new_partition(o, name, pkey);
	}
	for (size_t i = 0; name && i < o->ps.n; i++)
		if (strcmp(o->ps.p[i].name, name) == 0) {
			o->cur = i;
			return 0;
		}
	while (o->next_pkey < SM_PKEY_DEFAULT - 1)
		if (find_pkey(o, ++o->next_pkey) == SIZE_MAX)
			return new_partition(o, name, o->next_pkey);
	return fail(o, "no P_Key left to give partition '%s'", TOKEN(name ? name : ""));
}

/* "ipoib": the partition's broadcast group takes the definition's flags,
 * unless an earlier definition made it. */
static void ipoib(struct osm *o, struct sm_partition *p)
{
	if (p->ipoib)
		return;
	p->ipoib = true;
	p->mtu = o->flags.mtu;
	p->rate = o->flags.rate;
	p->scopes = o->scopes;
	p->qkey = o->flags.qkey;
	p->tclass = o->flags.tclass;
	p->flow_label = o->flags.flow_label;
}

/* "NAME[=PKEY][,FLAG[=VALUE]]..." before the ':'. */
static int header(struct osm *o, char *h)
{
	char *name = token(&h), *id = split_value(name);
	bool is_ipoib = false;
	int rc;

	name = trim(name);
	o->full = false;
	o->indx0 = false;
	o->scopes = 0;
	o->flags = (struct sm_pkey_group){ .mtu = OSM_MTU_2048, .rate = OSM_RATE_10G };
	while (h) {
		char *flag = token(&h), *val = split_value(flag);
		flag = trim(flag);
		if (!flag[0])
			continue;	/* "P=1,,ipoib": OpenSM skips it too */
		if ((rc = group_flag(o, &o->flags, &o->scopes, flag, val)) < 0)
			return rc;
		if (rc)
			continue;
		if (prefix(flag, "ipoib"))
			is_ipoib = true;
		else if (prefix(flag, "defmember") && val)
			rc = membership(o, val, &o->full);
		else if (strcmp(flag, "indx0") == 0)
			o->indx0 = true;
		else
			return fail(o, "unknown partition flag '%s' (ipoib, indx0, defmember=, "
				    "mtu=, rate=, sl=, scope=, Q_Key=, TClass=, FlowLabel=)", TOKEN(flag));
		if (rc)
			return rc;
	}
	if (o->scopes == 0)
		o->scopes = 1u << SM_PKEY_SCOPE_LINK;
	if ((rc = pick_partition(o, name[0] || id ? name : NULL, id)))
		return rc;
	struct sm_partition *p = &o->ps.p[o->cur];
	p->sl = o->flags.sl;	/* every definition sets it, as in OpenSM */
	if (is_ipoib)
		ipoib(o, p);
	o->open = true;
	return 0;
}

/* --- entries --- */

static int port_entry(struct osm *o, char *name, const char *flag)
{
	static const struct {
		const char *word;
		uint8_t kind;
	} words[] = {
		{ "ALL", SM_PKEY_MEMBER_ALL }, { "ALL_CAS", SM_PKEY_MEMBER_ALL_CAS },
		{ "ALL_SWITCHES", SM_PKEY_MEMBER_ALL_SWITCHES },
		{ "ALL_ROUTERS", SM_PKEY_MEMBER_ALL_ROUTERS }, { "SELF", SM_PKEY_MEMBER_SELF },
	};
	struct sm_pkey_member m = { .full = o->full, .indx0 = o->indx0 };
	size_t i = 0;
	int rc;

	if (prefix(name, "NONE"))
		return 0;
	if (flag && (rc = membership(o, flag, &m.full)))
		return rc;
	while (i < sizeof(words) / sizeof(words[0]) && !prefix(name, words[i].word))
		i++;
	if (i < sizeof(words) / sizeof(words[0])) {
		m.kind = words[i].kind;
	} else {
		if (!isdigit((unsigned char)name[0]))
			return fail(o, "'%s' is no port GUID nor one of ALL, ALL_CAS, "
				    "ALL_SWITCHES, ALL_ROUTERS, SELF, NONE, mgid=", TOKEN(name));
		if ((rc = number(o, "port GUID", name, UINT64_MAX, &m.guid)))
			return rc;
		if (!m.guid)
			return fail(o, "port GUID 0 names no port");
		m.kind = SM_PKEY_MEMBER_GUID;
	}
	return add_member(o, o->cur, m);
}

static bool mgid_is_ip(const uint8_t *g)
{
	return (g[2] == 0x40 || g[2] == 0x60) && g[3] == 0x1b;
}

/* The IPoIB broadcast MGID with 0xffff for its P_Key: OpenSM's template. */
static bool mgid_is_broadcast_template(const uint8_t *g)
{
	static const uint8_t t[OSM_MGID_LEN] = {
		0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
	};

	return memcmp(g, t, sizeof(t)) == 0;
}

/* Whether another group of the file has @g's MGID on a scope @g also makes. */
static bool mgid_taken(const struct osm *o, const struct sm_pkey_group *g)
{
	for (size_t i = 0; i < o->ps.n; i++)
		for (size_t k = 0; k < o->ps.p[i].ngroups; k++) {
			const struct sm_pkey_group *h = &o->ps.p[i].groups[k];
			if ((h->scopes & g->scopes) && h->mgid[0] == g->mgid[0] &&
			    (h->mgid[1] & 0xf0) == (g->mgid[1] & 0xf0) &&
			    !memcmp(h->mgid + 2, g->mgid + 2, OSM_MGID_LEN - 2))
				return true;
		}
	return false;
}

/* "mgid=GID[,GROUP_FLAG]..." (@rest: what follows the GID on the line, or NULL). */
static int group_entry(struct osm *o, const char *gid, char *rest)
{
	struct sm_partition *p = &o->ps.p[o->cur];
	struct sm_pkey_group g = o->flags;
	uint16_t scopes = 0;
	int rc;

	g.tclass = 0;	/* OpenSM does not hand TClass on to mgid= groups */
	g.line = o->line;
	if (!gid || inet_pton(AF_INET6, gid, g.mgid) != 1 || g.mgid[0] != 0xff)
		return fail(o, "mgid=%s: expected a multicast GID (ff..:...)", TOKEN(gid ? gid : ""));
	while (rest) {
		char *flag = token(&rest), *val = split_value(flag);
		flag = trim(flag);
		if (!flag[0])
			continue;
		if ((rc = group_flag(o, &g, &scopes, flag, val)) < 0)
			return rc;
		if (!rc)
			return fail(o, "mgid=%s: unknown group flag '%s' (mtu=, rate=, sl=, "
				    "scope=, Q_Key=, TClass=, FlowLabel=; one group per line)",
				    gid, TOKEN(flag));	/* the GID parsed: it is one */
	}
	g.scopes = scopes ? scopes : o->scopes;
	if (mgid_is_ip(g.mgid)) {
		uint16_t full = (uint16_t)(p->pkey | SM_PKEY_FULL);
		uint16_t in = (uint16_t)(g.mgid[4] << 8 | g.mgid[5]);
		if (in && in != full && !mgid_is_broadcast_template(g.mgid))
			return fail(o, "mgid=%s: an IP group with P_Key 0x%04x in partition 0x%04x",
				    gid, in, p->pkey);
		g.mgid[4] = (uint8_t)(full >> 8);
		g.mgid[5] = (uint8_t)full;
		if (g.mtu != o->flags.mtu || g.rate != o->flags.rate)
			return fail(o, "mgid=%s: an IP group must keep the partition's MTU (%u) and "
				    "rate (%u)", gid, o->flags.mtu, o->flags.rate);
		if (!g.qkey)
			g.qkey = SM_PKEY_IPOIB_QKEY;
	}
	if (mgid_taken(o, &g))
		return fail(o, "mgid=%s is given twice", gid);
	if (o->ngroups == SM_PKEY_MAX_GROUPS)
		return fail(o, "more than %d multicast groups", SM_PKEY_MAX_GROUPS);
	struct sm_pkey_group *grown = realloc(p->groups, (p->ngroups + 1) * sizeof(*grown));
	if (!grown)
		return fail(o, "out of memory");
	p->groups = grown;
	p->groups[p->ngroups++] = g;
	o->ngroups++;
	return 0;
}

/* "ENTRY[,ENTRY]..." after the ':' (or on a line of an open definition). */
static int entries(struct osm *o, char *body)
{
	while (body) {
		char *name = token(&body), *flag = split_value(name);
		name = trim(name);
		if (strcmp(name, "mgid") == 0)
			return group_entry(o, flag, body);
		if (!name[0] && flag)
			return fail(o, "'=%s': an entry without a name (a ';' missing before "
				    "a partition?)", TOKEN(flag));
		int rc = name[0] ? port_entry(o, name, flag) : 0;	/* "a,,b": skipped */
		if (rc)
			return rc;
	}
	return 0;
}

/* A piece of a line between ';'s. */
static int piece(struct osm *o, char *s)
{
	if (!o->open) {
		s = trim(s);
		if (!s[0])
			return 0;
		char *colon = strchr(s, ':');
		if (!colon)
			return fail(o, "'%s': a partition starts with NAME[=PKEY][,FLAG]...: "
				    "and its members", TOKEN(s));
		*colon = '\0';
		int rc = header(o, s);
		if (rc)
			return rc;
		s = colon + 1;
	}
	return entries(o, s);
}

static int line(struct osm *o, char *s, size_t len)
{
	if (memchr(s, '\0', len))
		return fail(o, "a NUL byte: not a text file");
	char *hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	s[strcspn(s, "\r\n")] = '\0';
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if ((*c < 0x20 && *c != '\t') || *c == 0x7f)
			return fail(o, "control character 0x%02x", *c);
	while (s) {
		char *semi = strchr(s, ';');
		if (semi)
			*semi = '\0';
		int rc = piece(o, s);
		if (rc)
			return rc;
		if (semi)
			o->open = false;
		s = semi ? semi + 1 : NULL;
	}
	return 0;
}

/* --- the end: each entry once, the last of its name --- */

struct entry_ref {
	const struct sm_pkey_member *m;
	size_t at;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry_ref *x = a, *y = b;

	if (x->m->kind != y->m->kind)
		return x->m->kind < y->m->kind ? -1 : 1;
	if (x->m->guid != y->m->guid)
		return x->m->guid < y->m->guid ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static int keep_last_entries(struct sm_partition *p)
{
	struct entry_ref *r = malloc((p->nmembers + 1) * sizeof(*r));
	bool *drop = calloc(p->nmembers + 1, sizeof(*drop));

	if (!r || !drop) {
		free(r);
		free(drop);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->nmembers; i++)
		r[i] = (struct entry_ref){ &p->members[i], i };
	qsort(r, p->nmembers, sizeof(*r), cmp_entry);
	for (size_t i = 0; i + 1 < p->nmembers; i++)
		drop[r[i].at] = r[i].m->kind == r[i + 1].m->kind && r[i].m->guid == r[i + 1].m->guid;
	size_t k = 0;
	for (size_t i = 0; i < p->nmembers; i++)
		if (!drop[i])
			p->members[k++] = p->members[i];
	p->nmembers = k;
	free(r);
	free(drop);
	return 0;
}

int sm_partitions_parse_osm(FILE *in, const char *name, struct sm_partitions *ps, char *err,
			    size_t errlen)
{
	struct osm o = { .path = name, .err = err, .errlen = errlen };
	char *buf = NULL;
	size_t bufcap = 0;
	ssize_t len;
	int rc = new_partition(&o, "Default", SM_PKEY_DEFAULT);

	o.ps.last_wins = true;
	if (!rc)
		rc = add_member(&o, 0, (struct sm_pkey_member){ .kind = SM_PKEY_MEMBER_ALL });
	if (!rc)
		rc = add_member(&o, 0, (struct sm_pkey_member){ .kind = SM_PKEY_MEMBER_SELF,
								 .full = true });
	while (!rc && (len = getline(&buf, &bufcap, in)) > 0) {
		o.line++;
		rc = len > OSM_MAX_LINE ? fail(&o, "a line longer than %d bytes", OSM_MAX_LINE)
					: line(&o, buf, (size_t)len);
	}
	free(buf);
	if (!rc && ferror(in))
		rc = fail(&o, "read error");
	for (size_t i = 0; !rc && i < o.ps.n; i++)
		if (keep_last_entries(&o.ps.p[i]))
			rc = fail(&o, "out of memory");
	free(o.mcap);
	if (rc) {
		sm_partitions_free(&o.ps);
		return rc;
	}
	*ps = o.ps;
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * topofile.c - read ibsim net files and ibnetdiscover output into a topo.
 *
 * One pass over the lines builds the nodes as their headers appear (so made-up
 * GUIDs follow file order, as ibsim numbers them) and records every port line as
 * a pending link naming its peer by string.  Peers may be defined later in the
 * file, so links are resolved in a second pass over the pending list once every
 * name is known; a name hash keeps that linear.  Any error frees everything:
 * the caller never sees a half-built topo.  Ports that share a port GUID are
 * only a warning: the sim must be able to serve such a broken fabric.
 *
 * Record syntax (both dialects):
 *   vendid=0x2c9 / devid=0xc738 / sysimgguid=0x.. / switchguid=0x..(portguid) /
 *   caguid=0x.. / rtguid=0x..         attributes of the next header
 *   Switch 36 "S-guid" # "desc" enhanced port 0 lid 9 lmc 0 [ar]
 *   Hca|Ca|Rt 2 "name" # "desc"
 *   [1] "peer"[26] # ... 4xNDR       (switch port; (guid) may follow [26]; the
 *                                     rate token names topo_rate.h's speeds)
 *   [1](portguid) "peer"[26] w=4     (CA port with its GUID; ibsim's w=)
 * A blank line ends a record; '#' starts a comment outside quotes.  Inside
 * quotes (names, descriptions) \" is a quote, \\ a backslash and \xHH that
 * byte, as `smquery topology` writes them; any other backslash is itself.
 * An error quotes no line it could not read: at most a short token of it
 * (topo_text_token()), in case the file is not a topology at all.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo_rate.h"
#include "mad/model/topo_text.h"
#include "mad/model/topofile.h"

/* ibsim's numbering for nodes the file gives no GUID (see topofile.h). */
#define TOPOFILE_CA_GUID_BASE 0x100000ULL
#define TOPOFILE_SWITCH_GUID_BASE 0x200000ULL
#define TOPOFILE_ROUTER_GUID_BASE 0x300000ULL
#define TOPOFILE_MAX_PORTS 254	/* port 255 is reserved (IBA 14.2.5.3) */
#define TOPOFILE_DEFAULT_WIDTH 2	/* 4x */
#define TOPOFILE_DEFAULT_SPEED MAD_SPEED_SDR

/* A port line, kept until every node name is known. */
struct pending_link {
	uint32_t node;
	uint32_t peer_name;	/* offset into the name pool */
	uint32_t line;
	uint64_t peer_guid;	/* the (guid) after the peer's port, or 0 */
	uint8_t port;
	uint8_t peer_port;
	uint8_t width;
	uint8_t speed;
};

/* Attribute lines seen since the last header. */
struct pending_attrs {
	uint64_t node_guid;
	uint64_t port_guid;
	uint64_t sys_guid;
	uint32_t vendor_id;
	uint32_t device_id;
};

struct parser {
	const char *file;
	unsigned line;
	char *err;
	size_t errlen;
	struct topo *t;
	uint32_t cur;		/* node of the current record, TOPO_NONE between */
	struct pending_attrs attrs;
	uint64_t next_guid[4];	/* indexed by node type */
	uint32_t *node_line;	/* header line of each node */
	uint32_t node_line_cap;
	/* node name -> index + 1, open addressing, power-of-two size */
	uint32_t *names;
	uint32_t nnames;
	struct pending_link *links;
	size_t nlinks, links_cap;
	char *pool;		/* peer names, NUL separated */
	size_t pool_len, pool_cap;
	unsigned clashes;	/* port GUIDs two ports claim */
};

static int parse_error(struct parser *p, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int parse_error(struct parser *p, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int off = snprintf(p->err, p->errlen, "%s:%u: ", p->file, line);

	if (off >= 0 && (size_t)off < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + off, p->errlen - off, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int oom(struct parser *p)
{
	snprintf(p->err, p->errlen, "%s:%u: out of memory", p->file, p->line);
	return -ENOMEM;
}

/* Grow @*arr to hold at least @need elements of @size bytes. */
static int grow(void **arr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	void *a = realloc(*arr, n * size);
	if (!a)
		return -ENOMEM;
	*arr = a;
	*cap = n;
	return 0;
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static uint32_t name_find(const struct parser *p, const char *name)
{
	if (!p->nnames)
		return TOPO_NONE;
	for (uint32_t s = name_hash(name) & (p->nnames - 1); p->names[s];
	     s = (s + 1) & (p->nnames - 1))
		if (strcmp(p->t->nodes[p->names[s] - 1].name, name) == 0)
			return p->names[s] - 1;
	return TOPO_NONE;
}

static void name_insert(struct parser *p, uint32_t idx)
{
	uint32_t s = name_hash(p->t->nodes[idx].name) & (p->nnames - 1);

	while (p->names[s])
		s = (s + 1) & (p->nnames - 1);
	p->names[s] = idx + 1;
}

/* Index node @idx by name, growing the table to keep the load under 1/2. */
static int name_add(struct parser *p, uint32_t idx)
{
	if (2 * (p->t->n + 1) > p->nnames) {
		uint32_t n = p->nnames ? 2 * p->nnames : 256;
		uint32_t *names = calloc(n, sizeof(*names));
		if (!names)
			return -ENOMEM;
		free(p->names);
		p->names = names;
		p->nnames = n;
		for (uint32_t i = 0; i < p->t->n; i++)
			if (i != idx)
				name_insert(p, i);
	}
	name_insert(p, idx);
	return 0;
}

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* True when only blanks or a comment remain. */
static bool at_end(const char *s)
{
	s = skip_space(s);
	return *s == '\0' || *s == '#';
}

/* The closing quote of the quoted string that opens at @s, past escaped
 * quotes; else the first quote after it (ibnetdiscover escapes nothing: a
 * description that ends in a backslash); NULL when the line has none. */
static const char *quote_end(const char *s)
{
	const char *e = s + 1;

	for (; *e && *e != '"'; e++)
		if (*e == '\\' && e[1])
			e++;
	return *e ? e : strchr(s + 1, '"');
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The text of a quoted string, from @s (after its opening quote) to @end (its
 * closing one), unescaped into @buf: \\ and \" as the character, \xHH as
 * that byte (00 excepted), any other backslash as itself.  At most @len
 * bytes and a NUL are written; returns the whole text's length. */
static size_t unquote(const char *s, const char *end, char *buf, size_t len)
{
	size_t n = 0;

	while (s < end) {
		char c = *s++;
		int hi, lo;
		if (c == '\\' && s < end && (*s == '\\' || *s == '"')) {
			c = *s++;
		} else if (c == '\\' && *s == 'x' && end - s >= 3 && (hi = hex_digit(s[1])) >= 0 &&
			   (lo = hex_digit(s[2])) >= 0 && (hi || lo)) {
			c = (char)(hi << 4 | lo);
			s += 3;
		}
		if (n < len)
			buf[n] = c;
		n++;
	}
	buf[n < len ? n : len] = '\0';
	return n;
}

/* Parse "quoted" at @s into @buf (at most @len chars).  Returns the character
 * after the closing quote, or NULL (not a quoted string, or too long). */
static const char *parse_quoted(const char *s, char *buf, size_t len)
{
	const char *end = *s == '"' ? quote_end(s) : NULL;

	if (!end || unquote(s + 1, end, buf, len) > len)
		return NULL;
	return end + 1;
}

/* Parse "[N]" into @port (0..255).  Returns the rest, or NULL. */
static const char *parse_port(const char *s, unsigned *port)
{
	char *end;

	if (*s != '[' || !isdigit((unsigned char)s[1]))
		return NULL;
	unsigned long v = strtoul(s + 1, &end, 10);
	if (*end != ']' || v > 255)
		return NULL;
	*port = (unsigned)v;
	return end + 1;
}

/* Parse an optional "(hexguid)".  Returns the rest (@s when absent), or NULL. */
static const char *parse_paren_guid(const char *s, uint64_t *guid)
{
	char *end;

	*guid = 0;
	if (*s != '(')
		return s;
	if (!isxdigit((unsigned char)s[1]))
		return NULL;
	*guid = strtoull(s + 1, &end, 16);
	if (*end != ')' || *guid == 0)
		return NULL;
	return end + 1;
}

/* Scan a comment for a rate token, skipping quoted descriptions. */
static void comment_rate(const char *s, uint8_t *width, uint8_t *speed)
{
	while (*s) {
		if (*s == '"') {
			const char *end = quote_end(s);
			if (!end)
				return;
			s = end + 1;
			continue;
		}
		if (*s == ' ' || *s == '\t') {
			s++;
			continue;
		}
		size_t len = strcspn(s, " \t\"");
		mad_rate_parse(s, len, width, speed);
		s += len;
	}
}

/* ibsim's "w=1|4|12" link width option. */
static const char *parse_ibsim_width(struct parser *p, const char *s, uint8_t *width)
{
	char tok[TOPO_TEXT_TOKEN_SIZE];
	char *end;
	unsigned long w = strtoul(s + 2, &end, 10);

	switch (w) {
	case 1: *width = 1; break;
	case 4: *width = 2; break;
	case 8: *width = 4; break;
	case 12: *width = 8; break;
	default:
		parse_error(p, p->line, "bad link width 'w=%s'", topo_text_token(tok, s + 2));
		return NULL;
	}
	return end;
}

static int check_port_range(struct parser *p, uint32_t node, unsigned port)
{
	const struct topo_node *n = &p->t->nodes[node];

	if (port == 0)
		return parse_error(p, p->line, "bad port number 0 (ports start at 1)");
	if (port > n->nports)
		return parse_error(p, p->line, "port %u beyond the %u ports of \"%s\"", port,
				   n->nports, n->name);
	return 0;
}

static int parse_port_line(struct parser *p, const char *s)
{
	struct pending_link l = { .node = p->cur, .line = p->line };
	char peer[TOPO_NAME_LEN + 1], tok[TOPO_TEXT_TOKEN_SIZE];
	unsigned port, peer_port;
	uint64_t guid;

	if (p->cur == TOPO_NONE)
		return parse_error(p, p->line, "port line outside a node record");
	s = parse_port(s, &port);
	if (!s)
		return parse_error(p, p->line, "bad port number");
	int rc = check_port_range(p, p->cur, port);
	if (rc)
		return rc;
	s = parse_paren_guid(s, &guid);
	if (!s)
		return parse_error(p, p->line, "bad port GUID");
	if (guid)
		p->t->nodes[p->cur].ports[port].guid = guid;
	s = parse_quoted(skip_space(s), peer, TOPO_NAME_LEN);
	if (!s)
		return parse_error(p, p->line, "expected a quoted peer name after [%u]", port);
	s = parse_port(skip_space(s), &peer_port);
	if (!s)
		return parse_error(p, p->line, "bad port number for peer \"%s\"", peer);
	if (peer_port == 0)
		return parse_error(p, p->line, "bad port number 0 for peer \"%s\"", peer);
	s = parse_paren_guid(s, &l.peer_guid);
	if (!s)
		return parse_error(p, p->line, "bad peer port GUID");
	for (s = skip_space(s); strncmp(s, "w=", 2) == 0; s = skip_space(s)) {
		s = parse_ibsim_width(p, s, &l.width);
		if (!s)
			return -EINVAL;
	}
	if (!at_end(s))
		return parse_error(p, p->line, "unexpected text '%s' after the peer",
				   topo_text_token(tok, s));
	if (*s == '#')
		comment_rate(s + 1, &l.width, &l.speed);
	l.port = (uint8_t)port;
	l.peer_port = (uint8_t)peer_port;
	size_t nlen = strlen(peer) + 1;
	if (grow((void **)&p->pool, &p->pool_cap, p->pool_len + nlen, 1) ||
	    grow((void **)&p->links, &p->links_cap, p->nlinks + 1, sizeof(l)))
		return oom(p);
	l.peer_name = (uint32_t)p->pool_len;
	memcpy(p->pool + p->pool_len, peer, nlen);
	p->pool_len += nlen;
	p->links[p->nlinks++] = l;
	return 0;
}

/* "key=0xVALUE" attribute lines that precede a header. */
static int parse_attr_line(struct parser *p, const char *s, bool *matched)
{
	static const char *const keys[] = { "vendid=", "devid=", "sysimgguid=",
					    "switchguid=", "caguid=", "rtguid=" };
	char tok[TOPO_TEXT_TOKEN_SIZE];
	size_t k;
	char *end;

	*matched = false;
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (strncmp(s, keys[k], strlen(keys[k])) == 0)
			break;
	if (k == sizeof(keys) / sizeof(keys[0]))
		return 0;
	*matched = true;
	s += strlen(keys[k]);
	if (!isxdigit((unsigned char)*s))
		return parse_error(p, p->line, "bad value '%s' for %.*s", topo_text_token(tok, s),
				   (int)strlen(keys[k]) - 1, keys[k]);
	uint64_t v = strtoull(s, &end, 0);
	const char *rest = end;
	switch (k) {
	case 0: p->attrs.vendor_id = (uint32_t)v; break;
	case 1: p->attrs.device_id = (uint32_t)v; break;
	case 2: p->attrs.sys_guid = v; break;
	default:
		p->attrs.node_guid = v;
		rest = parse_paren_guid(end, &p->attrs.port_guid);
		break;
	}
	bool ok = k < 2 ? v <= (k == 0 ? 0xffffffu : 0xffffu) : v != 0;
	if (!rest || !at_end(rest) || !ok)
		return parse_error(p, p->line, "bad value '%s' for %.*s", topo_text_token(tok, s),
				   (int)strlen(keys[k]) - 1, keys[k]);
	return 0;
}

static uint8_t node_type_of(const char *word, size_t len)
{
	static const struct { const char *s; uint8_t type; } types[] = {
		{ "Switch", MAD_NODE_SWITCH }, { "Hca", MAD_NODE_CA }, { "Ca", MAD_NODE_CA },
		{ "Rt", MAD_NODE_ROUTER }, { "Router", MAD_NODE_ROUTER },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].s) == len && strncmp(word, types[i].s, len) == 0)
			return types[i].type;
	return 0;
}

/* The header's trailing comment: # "desc" [enhanced|base port 0 lid N lmc M] [ar]
 * (ar, a word of its own: a switch with adaptive routing, for the sim) */
static void parse_header_comment(const char *s, struct topo_node *n)
{
	s = skip_space(s);
	if (*s != '#')
		return;
	s = skip_space(s + 1);
	if (*s == '"') {
		const char *end = quote_end(s);
		if (!end)
			return;
		unquote(s + 1, end, n->desc, TOPO_DESC_LEN);	/* longer: cut */
		s = end + 1;
	}
	n->enhanced_port0 = strstr(s, "enhanced port 0") != NULL;
	for (const char *w = s; (w = strstr(w, "ar")) != NULL; w += 2)
		if ((w == s || isspace((unsigned char)w[-1])) &&
		    (!w[2] || isspace((unsigned char)w[2])))
			n->ar_capable = n->type == MAD_NODE_SWITCH;
}

static uint64_t made_up_guid(struct parser *p, uint8_t type, uint8_t nports)
{
	uint64_t guid = p->next_guid[type];

	/* ibsim gives a switch one GUID (its ports share it), a CA nports + 1. */
	p->next_guid[type] += type == MAD_NODE_SWITCH ? 1 : (uint64_t)nports + 1;
	return guid;
}

static int parse_header(struct parser *p, const char *s, bool *matched)
{
	size_t wlen = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
	char name[TOPO_NAME_LEN + 1], tok[TOPO_TEXT_TOKEN_SIZE];
	char *end;

	*matched = false;
	const char *num = skip_space(s + wlen);
	if (wlen == 0 || num == s + wlen || !isdigit((unsigned char)*num))
		return 0;
	*matched = true;
	uint8_t type = node_type_of(s, wlen);
	if (!type)
		return parse_error(p, p->line, "unknown node type '%.*s'",	/* letters only */
				   (int)(wlen < TOPO_TEXT_TOKEN_MAX ? wlen : TOPO_TEXT_TOKEN_MAX), s);
	unsigned long nports = strtoul(num, &end, 10);
	if (nports == 0 || nports > TOPOFILE_MAX_PORTS)
		return parse_error(p, p->line, "bad port count %lu (1..%d)", nports,
				   TOPOFILE_MAX_PORTS);
	const char *rest = parse_quoted(skip_space(end), name, TOPO_NAME_LEN);
	if (!rest)
		return parse_error(p, p->line,
				   "expected a quoted node name of at most %d characters",
				   TOPO_NAME_LEN);
	if (!at_end(rest))
		return parse_error(p, p->line, "unexpected text '%s' after the node name",
				   topo_text_token(tok, skip_space(rest)));
	uint32_t dup = name_find(p, name);
	if (dup != TOPO_NONE)
		return parse_error(p, p->line, "duplicate node name \"%s\" (first at line %u)",
				   name, p->node_line[dup]);
	uint64_t guid = p->attrs.node_guid ? p->attrs.node_guid
					   : made_up_guid(p, type, (uint8_t)nports);
	uint32_t other = topo_find_guid(p->t, guid);
	if (other != TOPO_NONE)
		return parse_error(p, p->line, "duplicate GUID 0x%016llx (also \"%s\")",
				   (unsigned long long)guid, p->t->nodes[other].name);
	size_t cap = p->node_line_cap;
	if (grow((void **)&p->node_line, &cap, p->t->n + 1, sizeof(*p->node_line)))
		return oom(p);
	p->node_line_cap = (uint32_t)cap;
	uint32_t idx = topo_add_node(p->t, type, (uint8_t)nports, guid);
	if (idx == TOPO_NONE)
		return oom(p);
	struct topo_node *n = &p->t->nodes[idx];
	strcpy(n->name, name);
	snprintf(n->desc, sizeof(n->desc), "%s", name);
	n->sys_guid = p->attrs.sys_guid ? p->attrs.sys_guid : guid;
	n->vendor_id = p->attrs.vendor_id;
	n->device_id = (uint16_t)p->attrs.device_id;
	n->ports[0].guid = p->attrs.port_guid;
	parse_header_comment(rest, n);
	p->node_line[idx] = p->line;
	if (name_add(p, idx))
		return oom(p);
	memset(&p->attrs, 0, sizeof(p->attrs));
	p->cur = idx;
	return 0;
}

static int parse_line(struct parser *p, const char *s)
{
	char tok[TOPO_TEXT_TOKEN_SIZE];
	bool matched;
	int rc;

	s = skip_space(s);
	if (*s == '\0') {
		p->cur = TOPO_NONE;	/* a blank line ends a record */
		return 0;
	}
	if (*s == '#')
		return 0;
	if (*s == '[')
		return parse_port_line(p, s);
	rc = parse_attr_line(p, s, &matched);
	if (rc || matched)
		return rc;
	rc = parse_header(p, s, &matched);
	if (rc || matched)
		return rc;
	if (strncmp(s, "include", 7) == 0 || strncmp(s, "do ", 3) == 0)
		return parse_error(p, p->line, "ibsim's '%.*s' lines are not supported",
				   (int)strcspn(s, " \t"), s);
	return parse_error(p, p->line, "unrecognised line '%s'", topo_text_token(tok, s));
}

/* Link both ends of one pending port line. */
static int resolve_link(struct parser *p, const struct pending_link *l)
{
	const char *peer_name = p->pool + l->peer_name;
	struct topo *t = p->t;
	uint32_t peer = name_find(p, peer_name);

	p->line = l->line;
	if (peer == TOPO_NONE)
		return parse_error(p, l->line, "peer \"%s\" is never defined", peer_name);
	int rc = check_port_range(p, peer, l->peer_port);
	if (rc)
		return rc;
	rc = topo_link(t, l->node, l->port, peer, l->peer_port);
	if (rc == -EBUSY)
		return parse_error(p, l->line, "port linked twice: \"%s\"[%u] - \"%s\"[%u] "
				   "conflicts with an earlier link",
				   t->nodes[l->node].name, l->port, peer_name, l->peer_port);
	if (rc)
		return parse_error(p, l->line, "\"%s\"[%u] is linked to itself",
				   peer_name, l->peer_port);
	struct topo_port *a = &t->nodes[l->node].ports[l->port];
	struct topo_port *b = &t->nodes[peer].ports[l->peer_port];
	if (l->width) {
		a->width = b->width = l->width;
	}
	if (l->speed) {
		a->speed = b->speed = l->speed;
	}
	if (l->peer_guid && !b->guid)
		b->guid = l->peer_guid;
	return 0;
}

/* Port GUIDs and rates the file left out. */
static void fill_defaults(struct topo *t)
{
	for (uint32_t i = 0; i < t->n; i++) {
		struct topo_node *n = &t->nodes[i];
		uint64_t port0 = n->ports[0].guid ? n->ports[0].guid : n->guid;
		for (unsigned pn = 0; pn <= n->nports; pn++) {
			struct topo_port *tp = &n->ports[pn];
			if (n->type == MAD_NODE_SWITCH)
				tp->guid = port0;
			else if (!tp->guid && pn > 0)
				tp->guid = n->guid + pn;
			if (!tp->width)
				tp->width = TOPOFILE_DEFAULT_WIDTH;
			if (!tp->speed)
				tp->speed = TOPOFILE_DEFAULT_SPEED;
		}
	}
}

/* Two ports with one port GUID: a warning (the first) in p->err. */
static void note_clash(void *arg, uint32_t first, uint8_t first_port, uint32_t again,
		       uint8_t again_port)
{
	struct parser *p = arg;
	const struct topo_node *a = &p->t->nodes[first], *b = &p->t->nodes[again];

	if (p->clashes++)
		return;
	snprintf(p->err, p->errlen, "%s:%u: warning: port GUID 0x%016llx of \"%s\"[%u] is also "
		 "the GUID of \"%s\"[%u] (line %u)", p->file, p->node_line[again],
		 (unsigned long long)b->ports[again_port].guid, b->name, again_port, a->name,
		 first_port, p->node_line[first]);
}

static int parse_stream(struct parser *p, FILE *in)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	errno = 0;
	while (!rc && (len = getline(&buf, &cap, in)) >= 0) {
		p->line++;
		if (memchr(buf, '\0', (size_t)len)) {
			rc = parse_error(p, p->line, "NUL byte in line");
			break;
		}
		while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		rc = parse_line(p, buf);
	}
	free(buf);
	if (rc)
		return rc;
	if (ferror(in))	/* a directory: EISDIR */
		return parse_error(p, p->line, "cannot read: %s",
				   strerror(errno ? errno : EIO));
	if (p->t->n == 0)
		return parse_error(p, p->line, "no nodes defined");
	for (size_t i = 0; i < p->nlinks && !rc; i++)
		rc = resolve_link(p, &p->links[i]);
	if (rc)
		return rc;
	fill_defaults(p->t);
	int clashes = topo_port_guid_clashes(p->t, note_clash, p);
	if (clashes < 0)
		return oom(p);
	size_t used = p->errlen ? strlen(p->err) : 0;
	if (clashes > 1)
		snprintf(p->err + used, p->errlen - used, "; %d port GUIDs repeat in all", clashes);
	return 0;
}

int topofile_parse(FILE *in, const char *name, struct topo *out, char *err,
		   size_t errlen)
{
	struct parser p = {
		.file = name, .err = err, .errlen = errlen, .t = out, .cur = TOPO_NONE,
		.next_guid = { 0, TOPOFILE_CA_GUID_BASE, TOPOFILE_SWITCH_GUID_BASE,
			       TOPOFILE_ROUTER_GUID_BASE },
	};

	topo_init(out);
	if (errlen)
		err[0] = '\0';
	int rc = parse_stream(&p, in);
	if (rc)
		topo_free(out);
	free(p.node_line);
	free(p.names);
	free(p.links);
	free(p.pool);
	return rc;
}

int topofile_load(const char *path, struct topo *out, char *err, size_t errlen)
{
	FILE *in = fopen(path, "r");

	if (!in) {
		int e = errno;
		topo_init(out);
		snprintf(err, errlen, "%s:0: cannot open: %s", path, strerror(e));
		return -e;
	}
	int rc = topofile_parse(in, path, out, err, errlen);
	fclose(in);
	return rc;
}

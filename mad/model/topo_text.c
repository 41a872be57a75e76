// SPDX-License-Identifier: MIT
/*
 * topo_text.c - strings from the fabric and from files, made safe to show
 * (see topo_text.h): one UTF-8 decoder, one list of unsafe characters, and
 * the three ways an output shows them.
 */
#include <stdio.h>
#include <string.h>

#include "mad/model/topo_text.h"

unsigned topo_utf8_next(const char *s, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned n;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, *cp = p[0] & 0x1fu;
	else if ((p[0] & 0xf0) == 0xe0)
		n = 3, *cp = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, *cp = p[0] & 0x07u;
	else
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)	/* the NUL stops here too */
			return 0;
		*cp = *cp << 6 | (p[i] & 0x3fu);
	}
	if ((n == 3 && (*cp < 0x800 || (*cp >= 0xd800 && *cp <= 0xdfff))) ||
	    (n == 4 && (*cp < 0x10000 || *cp > 0x10ffff)))
		return 0;
	return n;
}

bool topo_text_unsafe(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||	/* C0, DEL, C1 */
	       cp == 0x061c || cp == 0x200e || cp == 0x200f ||	/* Bidi_Control */
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x2028 || cp == 0x2029;			/* line, paragraph separators */
}

/* The escape of the character @cp of @n bytes at @s (0: a byte of no valid
 * sequence) into @esc; its length, 0 when it goes out as it is. */
static int escape_of(const char *s, unsigned n, uint32_t cp, char esc[8])
{
	if (n == 0)
		return snprintf(esc, 8, "\\x%02x", (unsigned char)*s);
	if (cp == '\\')
		return snprintf(esc, 8, "\\\\");
	if (!topo_text_unsafe(cp))
		return 0;
	switch (cp) {
	case '\t': return snprintf(esc, 8, "\\t");
	case '\n': return snprintf(esc, 8, "\\n");
	case '\r': return snprintf(esc, 8, "\\r");
	default:
		return n == 1 ? snprintf(esc, 8, "\\x%02x", (unsigned)cp)
			      : snprintf(esc, 8, "\\u%04x", (unsigned)cp);
	}
}

size_t topo_text_escape(char *out, size_t size, const char *in)
{
	size_t len = 0, written = 0;

	for (const char *p = in; *p;) {
		uint32_t cp = 0;
		unsigned n = topo_utf8_next(p, &cp);
		char esc[8];
		int e = escape_of(p, n, cp, esc);
		const char *piece = e ? esc : p;
		size_t plen = e ? (size_t)e : n;

		if (written == len && len + plen < size) {	/* nothing cut yet, and it fits */
			memcpy(out + len, piece, plen);
			written += plen;
		}
		len += plen;
		p += n ? n : 1;
	}
	out[written] = '\0';
	return len;
}

const char *topo_text_value(char out[TOPO_TEXT_VALUE_SIZE], const char *s)
{
	if (topo_text_escape(out, TOPO_TEXT_VALUE_MAX + 1, s) > TOPO_TEXT_VALUE_MAX)
		strcat(out, "...");
	return out;
}

void topo_text_replace(char *s)
{
	char *out = s;

	for (const char *p = s; *p;) {
		uint32_t cp;
		unsigned n = topo_utf8_next(p, &cp);

		if (n == 0 || topo_text_unsafe(cp)) {
			*out++ = '?';
			p += n ? n : 1;
		} else {
			memmove(out, p, n);
			out += n;
			p += n;
		}
	}
	*out = '\0';
}

static bool token_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

const char *topo_text_token(char out[TOPO_TEXT_TOKEN_SIZE], const char *s)
{
	size_t n = 0;

	while (n < TOPO_TEXT_TOKEN_MAX && token_char(s[n]))
		n++;
	memcpy(out, s, n);
	/* the word goes on with what is not shown (a blank ends it) */
	strcpy(out + n, s[n] && s[n] != ' ' && s[n] != '\t' ? "..." : "");
	return out;
}

// SPDX-License-Identifier: MIT
/*
 * rt_guids.c - GUID lists from engine options and OpenSM's GUID files (see
 * rt_guids.h).
 *
 * Flow: every GUID (of an option or a file's line) is appended; the list is
 * sorted and made unique once at the end, so lookups are a binary search.  An
 * error quotes of a line only a short token (topo_text_token()): the path may
 * name a file that is not a GUID file at all.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>

#include "mad/model/topo_text.h"
#include "routing/rt_guids.h"

static int add(struct rt_guids *s, size_t *cap, uint64_t g)
{
	if (s->n == RT_GUIDS_MAX)
		return -E2BIG;
	if (s->n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		uint64_t *p = realloc(s->g, c * sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->g = p;
		*cap = c;
	}
	s->g[s->n++] = g;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void sort_unique(struct rt_guids *s)
{
	size_t k = 0;

	if (!s->n)
		return;
	qsort(s->g, s->n, sizeof(*s->g), cmp_u64);
	for (size_t i = 0; i < s->n; i++)
		if (!k || s->g[k - 1] != s->g[i])
			s->g[k++] = s->g[i];
	s->n = k;
}

/* A GUID at the start of @s: 0x hex or decimal, not 0, no leading zero;
 * *@end past it.  0 or -EINVAL. */
static int parse_guid(const char *s, uint64_t *g, const char **end)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *d = hex ? s + 2 : s;
	size_t n = strspn(d, hex ? "0123456789abcdefABCDEF" : "0123456789");
	char *e;

	if (!n || (!hex && d[0] == '0') || (hex && n > 16))
		return -EINVAL;
	errno = 0;
	*g = strtoull(d, &e, hex ? 16 : 10);
	*end = e;
	return errno || !*g || e != d + n ? -EINVAL : 0;
}

int rt_guid_parse(const char *s, uint64_t *guid)
{
	const char *end;

	return parse_guid(s, guid, &end) || *end ? -EINVAL : 0;
}

static int file_fail(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int file_fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return rc;
}

int rt_guid_file_read(const char *path, struct rt_guids *s, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	size_t cap = s->n, line = 0, bufcap = 0;
	char *buf = NULL;
	ssize_t len;
	int rc = 0;

	if (!f)
		return file_fail(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return file_fail(err, errlen, -EINVAL, "%s: not a regular file", path);
	}
	while (rc == 0 && (len = getline(&buf, &bufcap, f)) > 0) {
		char tok[TOPO_TEXT_TOKEN_SIZE];
		const char *end;
		uint64_t g;
		line++;
		if (len > RT_GUIDS_MAX_LINE) {
			rc = file_fail(err, errlen, -EINVAL, "%s:%zu: a line longer than %u bytes",
				       path, line, RT_GUIDS_MAX_LINE);
			break;
		}
		if (memchr(buf, '\0', (size_t)len)) {
			rc = file_fail(err, errlen, -EINVAL, "%s:%zu: a NUL byte: not a GUID file",
				       path, line);
			break;
		}
		buf[strcspn(buf, "\r\n")] = '\0';
		const char *p = buf + strspn(buf, " \t");
		if (*p == '#' || !*p)
			continue;
		if (parse_guid(p, &g, &end) || !strchr(" \t#", *end))
			rc = file_fail(err, errlen, -EINVAL, "%s:%zu: '%s' is not a GUID (0x and "
				       "1 to 16 hex digits, or decimal; not 0)", path, line,
				       topo_text_token(tok, p));
		else if ((rc = add(s, &cap, g)))
			rc = file_fail(err, errlen, rc, "%s:%zu: %s", path, line,
				       rc == -E2BIG ? "too many GUIDs" : strerror(-rc));
	}
	if (rc == 0 && ferror(f))
		rc = file_fail(err, errlen, -EIO, "%s: read error", path);
	free(buf);
	fclose(f);
	sort_unique(s);
	return rc;
}

int rt_guids_from_options(const struct ibsmd_rt_ctx *ctx, const char *engine, const char *key,
			  const char *file_key, struct rt_guids *s)
{
	size_t klen = key ? strlen(key) : 0, flen = strlen(file_key), cap = 0;
	char err[512];
	int rc = 0;

	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; rc == 0 && ctx->options && i < ctx->noptions; i++) {
		const char *o = ctx->options[i];
		uint64_t g;
		if (key && strncmp(o, key, klen) == 0 && o[klen] == '=') {
			s->given = true;
			if (rt_guid_parse(o + klen + 1, &g)) {
				ctx->log(LOG_ERR, "routing: %s: option '%s': not a GUID", engine, o);
				rc = -EINVAL;
			} else {
				rc = add(s, &cap, g);
			}
		} else if (strncmp(o, file_key, flen) == 0 && o[flen] == '=') {
			s->given = true;
			if ((rc = rt_guid_file_read(o + flen + 1, s, err, sizeof(err))))
				ctx->log(LOG_ERR, "routing: %s: option %s: %s", engine, file_key, err);
			cap = s->n;	/* at most the room there is: add() grows it */
		}
	}
	sort_unique(s);
	if (rc)
		rt_guids_free(s);
	return rc == -ENOMEM ? rc : rc ? -EINVAL : 0;
}

bool rt_guids_has(const struct rt_guids *s, uint64_t guid)
{
	return s->n && bsearch(&guid, s->g, s->n, sizeof(*s->g), cmp_u64);
}

void rt_guids_free(struct rt_guids *s)
{
	free(s->g);
	s->g = NULL;
	s->n = 0;
}

// SPDX-License-Identifier: MIT
/*
 * sm_osm_guid2lid.c - OpenSM's guid2lid file into the store's LID map.
 *
 * The file is OpenSM's key/value database (its cache directory, by default
 * /var/cache/opensm/guid2lid): one entry a line, "PORTGUID MINLID MAXLID"
 * (0x hex or decimal), the entries separated by blank lines.  A port's range
 * MINLID..MAXLID holds 2^LMC LIDs, aligned (IBA 7.11.1); a switch's port 0
 * has one.  Refused with the line: a line that is no such entry, a GUID 0, a
 * LID outside 1..0xBFFF, a range that is no aligned power of two of at most
 * 128 LIDs, a port GUID twice, two ranges that overlap; and lines '#' starts
 * are skipped.  The whole file is read and checked before the store is
 * touched.
 *
 * Seeding is "once": the entries go into the LID map (db_lids_save(), in one
 * db_batch() transaction) only when it holds none, which is a store that
 * never swept.  The LID manager (sm_lid.c) then prefers them to what the
 * fabric's ports hold, as it prefers any entry of its map.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sm/osm/sm_osm_guid2lid.h"
#include "sm/util/sm_file.h"

#define G2L_MAX_LID 0xbfff
#define G2L_MAX_LINE 1024	/* OpenSM's own line buffer */

struct g2l {
	const char *path;
	char *err;
	size_t errlen;
	size_t line;
	struct sm_osm_lid *e;
	size_t n, cap;
};

/* "PATH:LINE: reason" (line 0: "PATH: reason", the whole file's), -EINVAL. */
static int fail_at(struct g2l *g, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_at(struct g2l *g, size_t line, const char *fmt, ...)
{
	int w = line ? snprintf(g->err, g->errlen, "%s:%zu: ", g->path, line)
		     : snprintf(g->err, g->errlen, "%s: ", g->path);
	va_list ap;

	if (w >= 0 && (size_t)w < g->errlen) {
		va_start(ap, fmt);
		vsnprintf(g->err + w, g->errlen - (size_t)w, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The next blank-separated token of *@s as a number (0x hex or decimal, no
 * leading zero) at most @max; *@s moves past it.  -EINVAL if it is none. */
static int number(char **s, uint64_t max, uint64_t *out)
{
	char *t = *s + strspn(*s, " \t"), *end;
	size_t len = strcspn(t, " \t\r\n");
	bool hex = t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
	const char *d = hex ? t + 2 : t;
	size_t nd = strspn(d, hex ? "0123456789abcdefABCDEF" : "0123456789");

	if (!nd || d + nd != t + len || (!hex && nd > 1 && d[0] == '0'))
		return -EINVAL;
	errno = 0;
	unsigned long long x = strtoull(d, &end, hex ? 16 : 10);
	if (errno || x > max)
		return -EINVAL;
	*out = x;
	*s = t + len;
	return 0;
}

static int entry(struct g2l *g, char *s)
{
	uint64_t guid, lo, hi;

	if (number(&s, UINT64_MAX, &guid) || number(&s, UINT16_MAX, &lo) ||
	    number(&s, UINT16_MAX, &hi) || s[strspn(s, " \t\r\n")])
		return fail_at(g, g->line, "expected PORTGUID MINLID MAXLID (as OpenSM writes them)");
	if (!guid)
		return fail_at(g, g->line, "port GUID 0 names no port");
	if (!lo || hi > G2L_MAX_LID || hi < lo)
		return fail_at(g, g->line, "LIDs 0x%04llx..0x%04llx: not a unicast range (1..0x%04x)",
			    (unsigned long long)lo, (unsigned long long)hi, G2L_MAX_LID);
	uint64_t count = hi - lo + 1;
	uint8_t lmc = 0;
	while ((1ull << lmc) < count)
		lmc++;
	if ((1ull << lmc) != count || lmc > 7 || lo % count)
		return fail_at(g, g->line, "LIDs 0x%04llx..0x%04llx: not 2^LMC LIDs (at most 128) aligned "
			    "to their count", (unsigned long long)lo, (unsigned long long)hi);
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 256;
		struct sm_osm_lid *e = realloc(g->e, cap * sizeof(*e));
		if (!e)
			return fail_at(g, g->line, "out of memory");
		g->e = e;
		g->cap = cap;
	}
	g->e[g->n++] = (struct sm_osm_lid){ guid, (uint16_t)lo, lmc };
	return 0;
}

static int cmp_guid(const void *a, const void *b)
{
	const struct sm_osm_lid *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* No GUID twice, no LID in two ranges; names one of each offending pair. */
static int check_unique(struct g2l *g)
{
	struct sm_osm_lid *by_guid = malloc((g->n + 1) * sizeof(*by_guid));
	uint64_t *owner = calloc(G2L_MAX_LID + 1, sizeof(*owner));
	int rc = 0;

	if (!by_guid || !owner) {
		free(by_guid);
		free(owner);
		return fail_at(g, 0, "out of memory");
	}
	if (g->n)
		memcpy(by_guid, g->e, g->n * sizeof(*by_guid));
	qsort(by_guid, g->n, sizeof(*by_guid), cmp_guid);
	for (size_t i = 1; !rc && i < g->n; i++)
		if (by_guid[i].guid == by_guid[i - 1].guid)
			rc = fail_at(g, 0, "port GUID 0x%016llx is given twice",
				       (unsigned long long)by_guid[i].guid);
	for (size_t i = 0; !rc && i < g->n; i++)
		for (unsigned l = g->e[i].lid; !rc && l < g->e[i].lid + (1u << g->e[i].lmc); l++) {
			if (owner[l])
				rc = fail_at(g, 0, "LID 0x%04x is given to 0x%016llx and 0x%016llx", l,
					       (unsigned long long)owner[l],
					       (unsigned long long)g->e[i].guid);
			owner[l] = g->e[i].guid;
		}
	free(by_guid);
	free(owner);
	return rc;
}

int sm_osm_guid2lid_read(const char *path, struct sm_osm_lid **out, size_t *n, char *err,
			 size_t errlen)
{
	struct g2l g = { .path = path, .err = err, .errlen = errlen };
	char *buf = NULL;
	size_t bufcap = 0;
	ssize_t len;
	int rc = 0;
	FILE *f = sm_file_open(path, SM_OSM_GUID2LID_MAX_BYTES, &rc, err, errlen);

	if (!f)
		return rc;
	rc = 0;
	while (rc == 0 && (len = getline(&buf, &bufcap, f)) > 0) {
		char *s = buf + strspn(buf, " \t");
		g.line++;
		if (len > G2L_MAX_LINE)
			rc = fail_at(&g, g.line, "a line longer than %d bytes", G2L_MAX_LINE);
		else if (memchr(buf, '\0', (size_t)len))
			rc = fail_at(&g, g.line, "a NUL byte: not OpenSM's guid2lid file");
		else if (*s && *s != '\n' && *s != '\r' && *s != '#')
			rc = entry(&g, s);
	}
	if (rc == 0 && ferror(f))
		rc = fail_at(&g, 0, "read error");
	free(buf);
	fclose(f);
	if (rc == 0)
		rc = check_unique(&g);
	if (rc) {
		free(g.e);
		return rc;
	}
	*out = g.e;
	*n = g.n;
	return 0;
}

struct seed {
	const struct sm_osm_lid *e;
	size_t n;
};

static int map_has_entry(void *arg, uint64_t guid, uint16_t lid, uint8_t lmc)
{
	(void)arg;
	(void)guid;
	(void)lid;
	(void)lmc;
	return 1;	/* stops db_lids_load() at the first */
}

static int fill(struct db *db, void *arg)
{
	const struct seed *s = arg;
	int rc = db_lids_load(db, map_has_entry, NULL);

	for (size_t i = 0; rc == 0 && i < s->n; i++)
		rc = db_lids_save(db, s->e[i].guid, s->e[i].lid, s->e[i].lmc);
	return rc;
}

int sm_osm_guid2lid_seed(struct db *db, const char *path, size_t *n, char *err, size_t errlen)
{
	struct seed s = { 0 };
	struct sm_osm_lid *e = NULL;
	int rc = db_lids_load(db, map_has_entry, NULL);

	if (rc == 1)
		return 0;	/* the map holds LIDs: nothing to seed */
	if (rc) {
		snprintf(err, errlen, "%s", db_errmsg(db));
		return rc;
	}
	if ((rc = sm_osm_guid2lid_read(path, &e, &s.n, err, errlen)))
		return rc;
	s.e = e;
	rc = db_batch(db, fill, &s);
	free(e);
	if (rc == 1)
		return 0;	/* filled meanwhile */
	if (rc) {
		snprintf(err, errlen, "%s", db_errmsg(db));
		return rc;
	}
	*n = s.n;
	return 1;
}

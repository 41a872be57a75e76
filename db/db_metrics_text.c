// SPDX-License-Identifier: MIT
/*
 * db_metrics_text.c - the Prometheus text exposition format (0.0.4) as the
 * metrics output writes it: a buffered writer that counts the samples,
 * family headers, escaped label values, samples with up to two labels, and
 * the budget of series.
 *
 * Label values are escaped (\\, \", \n; other bytes outside printable ASCII
 * become '_'), so a hostile string in the store cannot break the format.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "db/db_metrics_int.h"

void db_mtext_put(struct db_mtext *t, const char *s, size_t n)
{
	if (t->len + n > sizeof(t->buf)) {
		db_mtext_flush(t);
		if (n > sizeof(t->buf)) {
			if (fwrite(s, 1, n, t->out) != n)
				t->failed = true;
			return;
		}
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
}

void db_mtext_puts(struct db_mtext *t, const char *s)
{
	db_mtext_put(t, s, strlen(s));
}

void db_mtext_u64(struct db_mtext *t, uint64_t v)
{
	char digits[20];
	size_t n = sizeof(digits);

	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	db_mtext_put(t, digits + n, sizeof(digits) - n);
}

int db_mtext_flush(struct db_mtext *t)
{
	if (t->len && fwrite(t->buf, 1, t->len, t->out) != t->len)
		t->failed = true;
	t->len = 0;
	return t->failed ? -EIO : 0;
}

size_t db_metrics_escape(char *dst, const char *v)
{
	char *d = dst;

	for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
		if (*c == '\\' || *c == '"') {
			*d++ = '\\';
			*d++ = (char)*c;
		} else if (*c == '\n') {
			*d++ = '\\';
			*d++ = 'n';
		} else {
			*d++ = *c >= 0x20 && *c < 0x7f ? (char)*c : '_';
		}
	}
	*d = '\0';
	return (size_t)(d - dst);
}

void db_metrics_family(struct db_metrics *m, const char *name, const char *type,
		       const char *help)
{
	struct db_mtext *t = &m->text;

	db_mtext_puts(t, "# HELP ");
	db_mtext_puts(t, name);
	db_mtext_puts(t, " ");
	db_mtext_puts(t, help);
	db_mtext_puts(t, "\n# TYPE ");
	db_mtext_puts(t, name);
	db_mtext_puts(t, " ");
	db_mtext_puts(t, type);
	db_mtext_puts(t, "\n");
}

/* k="v" (escaped); the value of a label from the store is short (a node
 * description is at most 64 bytes), a longer one is cut. */
static void label(struct db_mtext *t, const char *k, const char *v)
{
	char esc[2 * 256 + 1], cut[257];

	snprintf(cut, sizeof(cut), "%s", v);
	db_mtext_puts(t, k);
	db_mtext_puts(t, "=\"");
	db_mtext_put(t, esc, db_metrics_escape(esc, cut));
	db_mtext_puts(t, "\"");
}

static void sample_name(struct db_metrics *m, const char *name, const char *k1, const char *v1,
			const char *k2, const char *v2)
{
	struct db_mtext *t = &m->text;

	db_mtext_puts(t, name);
	if (k1) {
		db_mtext_puts(t, "{");
		label(t, k1, v1);
		if (k2) {
			db_mtext_puts(t, ",");
			label(t, k2, v2);
		}
		db_mtext_puts(t, "}");
	}
	t->series++;
}

void db_metrics_sample(struct db_metrics *m, const char *name, const char *k1, const char *v1,
		       const char *k2, const char *v2, uint64_t value)
{
	sample_name(m, name, k1, v1, k2, v2);
	db_mtext_puts(&m->text, " ");
	db_mtext_u64(&m->text, value);
	db_mtext_puts(&m->text, "\n");
}

void db_metrics_sample_s(struct db_metrics *m, const char *name, const char *k1,
			 const char *v1, int64_t ms)
{
	char v[32];

	snprintf(v, sizeof(v), " %.3f\n", (double)ms / 1000);
	sample_name(m, name, k1, v1, NULL, NULL);
	db_mtext_puts(&m->text, v);
}

void db_metrics_sample_f(struct db_metrics *m, const char *name, const char *k1,
			 const char *v1, double value)
{
	char v[40];

	snprintf(v, sizeof(v), " %.17g\n", value);
	sample_name(m, name, k1, v1, NULL, NULL);
	db_mtext_puts(&m->text, v);
}

bool db_metrics_cancelled(const struct db_metrics *m)
{
	return m->o->cancel && *m->o->cancel;
}

bool db_metrics_fits(struct db_metrics *m, uint64_t n)
{
	uint64_t max = m->o->max_series;

	if (db_metrics_cancelled(m))
		return false;
	if (!max || (m->text.series <= max && n <= max - m->text.series))
		return true;
	m->omitted += n;
	return false;
}

void db_metrics_guid(char buf[19], uint64_t guid)
{
	snprintf(buf, 19, "0x%016" PRIx64, guid);
}

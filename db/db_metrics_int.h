/* SPDX-License-Identifier: MIT */
/*
 * db_metrics_int.h - what the files of the metrics output share: the text
 * writer (db_metrics_text.c), the output's state, and the parts
 * db_metrics.c calls: the link problems (db_metrics_links.c), then the port
 * series (db_metrics_ports.c).
 *
 * The writer buffers the text and counts the series it writes, so that the
 * budget (db_metrics_opts.max_series) can be kept family by family.
 */
#ifndef IBSMD_DB_METRICS_INT_H
#define IBSMD_DB_METRICS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db/db_int.h"

#define DB_MTEXT_BUF (1 << 16)

struct db_mtext {
	FILE *out;
	size_t len;
	bool failed;		/* a write to @out failed */
	uint64_t series;	/* samples written */
	char buf[DB_MTEXT_BUF];
};

/* One output: the store, the options, the writer. */
struct db_metrics {
	struct db *db;
	const struct db_metrics_opts *o;
	int64_t now_ms;
	uint64_t omitted;	/* series the budget left out */
	struct db_mtext text;
};

/* @n bytes of @s as they are. */
void db_mtext_put(struct db_mtext *t, const char *s, size_t n);
void db_mtext_puts(struct db_mtext *t, const char *s);
void db_mtext_u64(struct db_mtext *t, uint64_t v);
/* Write out what is buffered; 0 or -EIO. */
int db_mtext_flush(struct db_mtext *t);

/*
 * @v as a label value into @dst, which holds 2 * strlen(@v) + 1 bytes at
 * least: \\, \" and \n escaped, any other byte outside printable ASCII '_'
 * (the format wants UTF-8; the store's strings are not checked for it).
 * Returns the length written (the terminating 0 not counted).
 */
size_t db_metrics_escape(char *dst, const char *v);

/* # HELP and # TYPE of a family. */
void db_metrics_family(struct db_metrics *m, const char *name, const char *type,
		       const char *help);

/* name{k1="v1",k2="v2"} value: a NULL key ends the labels early. */
void db_metrics_sample(struct db_metrics *m, const char *name, const char *k1, const char *v1,
		       const char *k2, const char *v2, uint64_t value);
/* The same with one label at most and @ms printed as seconds. */
void db_metrics_sample_s(struct db_metrics *m, const char *name, const char *k1,
			 const char *v1, int64_t ms);
/* The same with one label at most and any value. */
void db_metrics_sample_f(struct db_metrics *m, const char *name, const char *k1,
			 const char *v1, double v);

/* Has the caller asked the output to stop (db_metrics_opts.cancel)? */
bool db_metrics_cancelled(const struct db_metrics *m);

/* May @n more series be written under the budget?  If not, they are counted
 * as left out (and nothing more is written once the output is cancelled). */
bool db_metrics_fits(struct db_metrics *m, uint64_t n);

/* Run @sql and hand each row to @row(@ctx, row).  0 or -errno. */
int db_metrics_rows(struct db_metrics *m, const char *sql,
		    void (*row)(void *ctx, sqlite3_stmt *st), void *ctx);
/* A column as text ("" for NULL), as a count (0 for NULL or negative). */
const char *db_col_text(sqlite3_stmt *st, int col);
uint64_t db_col_count(sqlite3_stmt *st, int col);

/* A GUID as a label value: 0x and 16 hex digits. */
void db_metrics_guid(char buf[19], uint64_t guid);

/* Links down, isolated and degraded: counts, and a series per link. */
int db_metrics_links(struct db_metrics *m);

/* The port series, as db_metrics_opts asks. */
int db_metrics_ports(struct db_metrics *m);

#endif

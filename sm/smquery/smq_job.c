// SPDX-License-Identifier: MIT
/*
 * smq_job.c - `smquery job start NAME --hosts LIST [--pattern P] [--order
 * FILE]`, `job end NAME`, `job list`: the batch scheduler's jobs, told to
 * the running ibsmd over its control socket (sm/sm_ctl.c, sm/jobs/).
 *
 * LIST: host names joined by commas (or spaces, or newlines), "@FILE" for a
 * file of them, "-" for standard input: a job's list may be longer than a
 * command line.  --order FILE gives the rank order: its names first (one a
 * line, blank lines and '#' comments left out; a name given twice keeps its
 * first place), then the other hosts of LIST in their order; a name it gives
 * that LIST lacks is an error.  Without --hosts, the order file is the list.
 * The daemon checks the names again and finds them in the fabric; this side
 * only builds the line: "job start NAME PATTERN HOST,HOST,...".  A start or
 * an end is answered once the daemon has served it: up to two minutes when
 * a heavy sweep runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/smquery/smq.h"
#include "sm/smquery/smq_ctl.h"
#include "sm/smquery/smq_job.h"

#define SMQ_JOB_WAIT_MS 130000	/* the daemon's SM_CTL_JOB_DEADLINE_MS, and some */
#define SMQ_JOB_MAX_TEXT (64u << 20)

/* A growing text. */
struct text {
	char *s;
	size_t len, cap;
};

static int text_add(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > SMQ_JOB_MAX_TEXT)
		return -E2BIG;
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		while (cap < t->len + n + 1)
			cap *= 2;
		char *p = realloc(t->s, cap);
		if (!p)
			return -ENOMEM;
		t->s = p;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
	return 0;
}

static int read_all(FILE *f, struct text *t)
{
	char buf[65536];
	size_t n;
	int rc = 0;

	while (rc == 0 && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		rc = text_add(t, buf, n);
	return rc ? rc : ferror(f) ? -EIO : 0;
}

/* The names of @spec ("a,b", "@FILE", "-") into @t, NUL-separated words;
 * comments ('#' to the end of a line) dropped for files. */
static int words_of(const char *spec, struct text *t, const char *what)
{
	int rc;

	if (!strcmp(spec, "-")) {
		rc = read_all(stdin, t);
	} else if (spec[0] == '@') {
		FILE *f = fopen(spec + 1, "r");
		if (!f)
			return smq_fail("%s %s: %s", what, spec + 1, strerror(errno));
		rc = read_all(f, t);
		fclose(f);
	} else {
		rc = text_add(t, spec, strlen(spec));
	}
	if (rc)
		return smq_fail("%s: %s", what, rc == -E2BIG ? "too long" : strerror(-rc));
	bool comment = false;
	for (size_t i = 0; i < t->len; i++) {
		char c = t->s[i];
		comment = c == '#' ? true : c == '\n' ? false : comment;
		if (comment || c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')
			t->s[i] = '\0';
	}
	return SMQ_OK;
}

/* The next word of @t from *@at, or NULL. */
static const char *next_word(const struct text *t, size_t *at)
{
	while (*at < t->len && t->s[*at] == '\0')
		(*at)++;
	if (*at >= t->len)
		return NULL;
	const char *w = t->s + *at;
	*at += strlen(w) + 1;
	return w;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The index of @w in @sorted[0..n-1], or -1. */
static long find_word(const char *w, const char **sorted, size_t n)
{
	const char **at = bsearch(&w, sorted, n, sizeof(*sorted), str_cmp);

	return at ? at - sorted : -1;
}

static int append(struct text *out, const char *w)
{
	if (out->len && text_add(out, ",", 1))
		return -1;
	return text_add(out, w, strlen(w)) ? -1 : 0;
}

/* The hosts in rank order, joined by commas, into @out. */
static int rank_order(const char *hosts, const char *order, struct text *out)
{
	struct text h = { 0 }, o = { 0 };
	const char **listed = NULL;
	bool *placed = NULL;
	size_t nlisted = 0, at;
	const char *w;
	int rc = SMQ_OK;

	if (hosts && (rc = words_of(hosts, &h, "--hosts")) != SMQ_OK)
		goto out;
	if (order) {
		char spec[4096];
		snprintf(spec, sizeof(spec), "@%s", order);
		if ((rc = words_of(spec, &o, "--order")) != SMQ_OK)
			goto out;
	}
	const struct text *base = hosts ? &h : &o;
	listed = malloc((base->len / 2 + 2) * sizeof(*listed));
	placed = calloc(base->len / 2 + 2, sizeof(*placed));
	if (!listed || !placed) {
		rc = smq_fail("out of memory");
		goto out;
	}
	for (at = 0; (w = next_word(base, &at));)
		listed[nlisted++] = w;
	qsort(listed, nlisted, sizeof(*listed), str_cmp);
	for (size_t i = 1; hosts && i < nlisted; i++)
		if (!strcmp(listed[i], listed[i - 1])) {
			rc = smq_fail("--hosts names %s twice", listed[i]);
			goto out;
		}
	/* the order file's names first, each once */
	for (at = 0; order && (w = next_word(&o, &at));) {
		long k = find_word(w, listed, nlisted);
		if (k < 0) {
			rc = smq_fail("--order names %s, which --hosts does not", w);
			goto out;
		}
		if (placed[k])
			continue;
		placed[k] = true;
		if (append(out, w))
			goto too_long;
	}
	for (at = 0; hosts && (w = next_word(&h, &at));)
		if (!placed[find_word(w, listed, nlisted)] && append(out, w))
			goto too_long;
	if (!out->len)
		rc = smq_usage_error("job", "no hosts");
	goto out;
too_long:
	rc = smq_fail("the host list is too long");
out:
	free(h.s);
	free(o.s);
	free(listed);
	free(placed);
	return rc;
}

static int job_start(const char *socket_path, bool json, int argc, char **argv)
{
	const char *name = argv[2], *hosts = NULL, *order = NULL, *pattern = "ring";
	struct text list = { 0 }, line = { 0 };

	for (int i = 3; i < argc; i += 2) {
		if (i + 1 >= argc)
			return smq_usage_error("job", "%s wants a value", argv[i]);
		if (!strcmp(argv[i], "--hosts"))
			hosts = argv[i + 1];
		else if (!strcmp(argv[i], "--order"))
			order = argv[i + 1];
		else if (!strcmp(argv[i], "--pattern"))
			pattern = argv[i + 1];
		else
			return smq_usage_error("job", "unexpected '%s'", argv[i]);
	}
	if (!hosts && !order)
		return smq_usage_error("job", "--hosts LIST (or --order FILE) is needed");
	if (strpbrk(name, " \t\r\n") || strpbrk(pattern, " \t\r\n"))
		return smq_usage_error("job", "no spaces in NAME or PATTERN");
	int rc = rank_order(hosts, order, &list);
	if (rc == SMQ_OK && (text_add(&line, "job start ", 10) ||
			     text_add(&line, name, strlen(name)) || text_add(&line, " ", 1) ||
			     text_add(&line, pattern, strlen(pattern)) || text_add(&line, " ", 1) ||
			     text_add(&line, list.s, list.len)))
		rc = smq_fail("the host list is too long");
	if (rc == SMQ_OK)
		rc = smq_ctl_ask_wait(socket_path, line.s, json, SMQ_JOB_WAIT_MS);
	free(list.s);
	free(line.s);
	return rc;
}

int smq_job(const char *socket_path, bool json, int argc, char **argv)
{
	char line[128];

	if (argc >= 2 && !strcmp(argv[1], "list") && argc == 2)
		return smq_ctl_ask(socket_path, "job list", json);
	if (argc >= 3 && !strcmp(argv[1], "end")) {
		if (argc > 3)
			return smq_usage_error("job", "too many operands");
		if (strpbrk(argv[2], " \t\r\n") ||
		    (size_t)snprintf(line, sizeof(line), "job end %s", argv[2]) >= sizeof(line) - 6)
			return smq_usage_error("job", "bad job name '%s'", argv[2]);
		return smq_ctl_ask_wait(socket_path, line, json, SMQ_JOB_WAIT_MS);
	}
	if (argc >= 3 && !strcmp(argv[1], "start"))
		return job_start(socket_path, json, argc, argv);
	return smq_usage_error("job", "want: job start NAME --hosts LIST [--pattern ring|"
			       "halving-doubling|alltoall] [--order FILE] | job end NAME | job list");
}

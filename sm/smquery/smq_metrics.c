// SPDX-License-Identifier: MIT
/*
 * smq_metrics.c - `smquery metrics`: the store's figures in the Prometheus
 * text format, the text the daemon writes to its metrics_file (both come
 * from db_metrics_print), shaped by the same options as its metrics.* keys:
 * --names, --ports, --counters, --max-series.  Ages are as of now.  The
 * daemon's own figures (SA requests, store errors, masters seen) are in its
 * file only: the store does not hold them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm/smquery/smq.h"

/* "a, b or c" of @words, for a usage error */
static void word_list(const char *const *words, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; words[i] && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? words[i + 1] ? ", " : " or " : "",
				      words[i]);
}

int smq_cmd_metrics(struct smq *q, int argc, char **argv)
{
	struct db_metrics_opts o = DB_METRICS_OPTS_DEFAULT;
	char words[128];
	int i = 1;

	if (q->json)
		return smq_usage_error(argv[0], "the Prometheus text format has no --json form");
	for (; i + 1 < argc; i += 2) {
		const char *opt = argv[i], *val = argv[i + 1];
		char *end;
		if (!strcmp(opt, "--names")) {
			int n = db_metrics_word(db_metrics_names_words, val);
			word_list(db_metrics_names_words, words, sizeof(words));
			if (n < 0)
				return smq_usage_error(argv[0], "--names takes %s, not '%s'", words,
						       val);
			o.names = (enum db_metrics_names)n;
		} else if (!strcmp(opt, "--ports")) {
			word_list(db_metrics_ports_words, words, sizeof(words));
			if (db_metrics_mask(db_metrics_ports_words, val, &o.ports))
				return smq_usage_error(argv[0], "--ports takes a comma-separated "
						       "list of %s, not '%s'", words, val);
		} else if (!strcmp(opt, "--counters")) {
			word_list(db_metrics_groups_words, words, sizeof(words));
			if (db_metrics_mask(db_metrics_groups_words, val, &o.groups))
				return smq_usage_error(argv[0], "--counters takes a comma-separated "
						       "list of %s, not '%s'", words, val);
		} else if (!strcmp(opt, "--max-series")) {
			errno = 0;
			unsigned long long n = strtoull(val, &end, 10);
			if (errno || *end || end == val || val[0] == '-')
				return smq_usage_error(argv[0], "bad --max-series '%s' (0: no bound, "
						       "or a number of series)", val);
			o.max_series = n;
		} else {
			break;
		}
	}
	if (i < argc)
		return smq_usage_error(argv[0], "unexpected '%s'", argv[i]);
	if (db_metrics_print(q->db, q->out, db_now_ms(q->db), &o, NULL))
		return smq_fail("%s", db_errmsg(q->db));
	return SMQ_OK;
}

// SPDX-License-Identifier: MIT
/*
 * smq_metrics.c - `smquery metrics`: the store's figures in the Prometheus
 * text format, the same text the daemon writes to its metrics_file (both come
 * from db_metrics_print).  Ages are as of now.
 */
#include "sm/smquery/smq.h"

int smq_cmd_metrics(struct smq *q, int argc, char **argv)
{
	(void)argc;
	if (q->json)
		return smq_usage_error(argv[0], "the Prometheus text format has no --json form");
	if (db_metrics_print(q->db, q->out, db_now_ms(q->db)))
		return smq_fail("%s", db_errmsg(q->db));
	return SMQ_OK;
}

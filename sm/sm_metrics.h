/* SPDX-License-Identifier: MIT */
/*
 * sm_metrics.h - the daemon's metrics file: the store's figures
 * (db_metrics_print), shaped by the metrics.* keys, with the daemon's own
 * beside them (masters seen, store errors and drops, SA requests by result,
 * the last rendering's time), written to metrics_file by a thread of its
 * own, over a read-only connection to the store: the loop thread never waits
 * for it, and it never takes db_mu.  sm_metrics_http.h serves that file.
 */
#ifndef IBSMD_SM_METRICS_H
#define IBSMD_SM_METRICS_H

#include <stdbool.h>

#include "db/db.h"

struct sm;
struct sm_config;

/* After a heavy sweep or counter pass (@force), or at most every
 * SM_METRICS_EVERY_MS after light sweeps. */
#define SM_METRICS_EVERY_MS 10000

/*
 * Have metrics_file (if set) rewritten: the daemon's figures as they are now
 * go to the writer thread (started at the first call), which writes the file
 * as soon as it is free; asks made meanwhile are folded into one.  Loop
 * thread; never waits.  A failure is a warning (from the writer).
 */
void sm_metrics_write(struct sm *sm, bool force);

/* Wait until the writer has done what was asked before this call (tests,
 * and the daemon's last write at exit).  0, or the last write's -errno. */
int sm_metrics_flush(struct sm *sm);

/* Stop the writer (a file still under way half a second on is cut short and
 * not written) and free it.  Loop thread, at sm_close(). */
void sm_metrics_close(struct sm *sm);

/* The options the metrics.* keys of @c give (no extra figures, no cancel). */
void sm_metrics_opts(const struct sm_config *c, struct db_metrics_opts *o);

#endif

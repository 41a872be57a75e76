/* SPDX-License-Identifier: MIT */
/*
 * sm_metrics_http.h - the metrics over HTTP: GET /metrics answers the last
 * metrics file the daemon wrote (sm_metrics.h), from the daemon's loop.
 *
 * What it is for: Prometheus scrapes the SM directly (its `up` says whether
 * the daemon runs), with no node_exporter in between.  It never renders: a
 * scrape costs the daemon a file sent with sendfile(), whatever the fabric's
 * size, and never touches the store.  Off unless metrics.listen is set;
 * an address without one is loopback's.
 *
 * Hostile clients: at most SM_HTTP_CLIENTS at once (a newcomer displaces the
 * client that has been sending its request the longest; with every slot
 * sending an answer it gets 503 at once); a request line and headers of at
 * most SM_HTTP_HEAD_MAX bytes within SM_HTTP_HEAD_MS (slowloris), an answer
 * taken within SM_HTTP_SEND_MS (a reader that never reads); sockets are
 * non-blocking and each wake-up sends at most SM_HTTP_CHUNK bytes, so the
 * loop is never held.  GET and HEAD of /metrics only; anything else gets
 * 400, 404, 405 or 431, and the connection is closed after every answer.
 */
#ifndef IBSMD_SM_METRICS_HTTP_H
#define IBSMD_SM_METRICS_HTTP_H

#define SM_HTTP_CLIENTS 8
#define SM_HTTP_BACKLOG 64		/* connections the kernel holds for accept() */
#define SM_HTTP_HEAD_MAX 4096
#define SM_HTTP_HEAD_MS 5000
#define SM_HTTP_SEND_MS 120000
#define SM_HTTP_CHUNK (1 << 20)
#define SM_HTTP_DRAIN_MS 1000		/* answered: what it still sends, dropped */
#define SM_HTTP_DRAIN_MAX (64 << 10)

struct sm;
struct sm_metrics_http;

/* Listen on @spec (sm_addr_parse()) from @sm's loop, answering with
 * sm->cfg.metrics_file.  0 or -errno (logged). */
int sm_metrics_http_open(struct sm *sm, const char *spec, struct sm_metrics_http **out);
/* Close the listener and every client (NULL: nothing). */
void sm_metrics_http_close(struct sm_metrics_http *h);

#endif

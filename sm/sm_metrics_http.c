// SPDX-License-Identifier: MIT
/*
 * sm_metrics_http.c - the metrics over HTTP (see sm_metrics_http.h).
 *
 * Data: the listening socket and a fixed table of client slots; a slot holds
 * the request as it comes, then the answer's head and the file being sent
 * (its own descriptor: a newer file renamed over the name meanwhile does not
 * change what this client gets), and one deadline timer.
 *
 * Flow: accept (non-blocking) -> the client's fd watched for input -> bytes
 * gather until the blank line that ends the head (or the buffer is full: 431)
 * -> the request line judged -> the fd watched for output: the answer's head,
 * then the file by sendfile(), SM_HTTP_CHUNK at a time -> our side shut, what
 * the client still sends dropped until it closes -> closed.  The deadline
 * closes a client that has not finished by then, whatever it does.
 */
#define _GNU_SOURCE	/* accept4, memmem */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sm/core/sm.h"
#include "sm/sm_metrics_http.h"
#include "sm/util/sm_addr.h"
#include "sm/util/sm_log.h"
#include "sm/util/sm_loop.h"

/* What a client is at. */
enum phase {
	READING,	/* its request */
	ANSWERING,	/* the answer goes out */
	DRAINING,	/* answered, our side shut: what it still sends is read and dropped
			 * until it closes (closing on unread bytes would reset the
			 * connection before it read the answer) */
};

struct client {
	struct sm_metrics_http *h;
	int fd;			/* -1: a free slot */
	enum phase phase;
	size_t len;		/* request bytes read */
	char req[SM_HTTP_HEAD_MAX];
	char head[256];		/* the answer's head (and a short body) */
	size_t head_len, head_sent;
	int file;		/* the metrics file being sent, or -1 */
	off_t sent, size;
	uint64_t since_ms;	/* accepted */
	struct sm_timer deadline;
};

struct sm_metrics_http {
	struct sm *sm;
	int fd;
	struct client clients[SM_HTTP_CLIENTS];
};

/* ---- clients ---- */

static void client_close(struct client *cl)
{
	if (cl->fd < 0)
		return;
	sm_loop_del_fd(cl->h->sm->loop, cl->fd);
	sm_timer_cancel(cl->h->sm->loop, &cl->deadline);
	close(cl->fd);
	if (cl->file >= 0)
		close(cl->file);
	cl->fd = cl->file = -1;
}

static void on_output(void *ctx, uint32_t events);
static void drain(struct client *cl);

/* Answer with @status and, for an error, @body; the file goes after the head
 * when cl->file is open. */
static void answer(struct client *cl, const char *status, const char *body, bool head_only)
{
	struct sm *sm = cl->h->sm;
	int n = snprintf(cl->head, sizeof(cl->head),
			 "HTTP/1.1 %s\r\nContent-Type: text/plain; %scharset=utf-8\r\n"
			 "Content-Length: %lld\r\nConnection: close\r\n\r\n%s", status,
			 cl->file >= 0 ? "version=0.0.4; " : "",
			 cl->file >= 0 ? (long long)cl->size : (long long)strlen(body),
			 head_only || cl->file >= 0 ? "" : body);
	cl->head_len = n > 0 && (size_t)n < sizeof(cl->head) ? (size_t)n : 0;
	cl->head_sent = 0;
	if (head_only && cl->file >= 0) {
		close(cl->file);
		cl->file = -1;
	}
	cl->phase = ANSWERING;
	sm_loop_del_fd(sm->loop, cl->fd);
	if (sm_loop_add_fd(sm->loop, cl->fd, EPOLLOUT, on_output, cl))
		client_close(cl);
	else
		sm_timer_at(sm->loop, &cl->deadline, cl->since_ms + SM_HTTP_SEND_MS);
}

/* The request line of the head read: GET or HEAD /metrics[?query] HTTP/1.x. */
static void judge(struct client *cl)
{
	const char *metrics_file = cl->h->sm->cfg.metrics_file;
	char method[8], target[64], version[16];
	struct stat st;

	size_t line = 0;
	while (line < cl->len && cl->req[line] != '\r' && cl->req[line] != '\n')
		line++;
	bool nul = memchr(cl->req, '\0', line) != NULL;	/* binary: no request line */
	cl->req[line] = '\0';
	if (nul || sscanf(cl->req, "%7s %63s %15s", method, target, version) != 3 ||
	    strncmp(version, "HTTP/1.", 7)) {
		answer(cl, "400 Bad Request", "a request line: GET /metrics HTTP/1.1\n", false);
		return;
	}
	bool head_only = !strcmp(method, "HEAD");
	if (!head_only && strcmp(method, "GET")) {
		answer(cl, "405 Method Not Allowed", "GET or HEAD only\n", false);
		return;
	}
	size_t path_len = strcspn(target, "?");
	if (path_len != 8 || strncmp(target, "/metrics", 8)) {
		answer(cl, "404 Not Found", "the metrics are at /metrics\n", head_only);
		return;
	}
	cl->file = metrics_file[0] ? open(metrics_file, O_RDONLY | O_CLOEXEC) : -1;
	if (cl->file >= 0 && (fstat(cl->file, &st) || !S_ISREG(st.st_mode))) {
		close(cl->file);
		cl->file = -1;
	}
	if (cl->file < 0) {
		answer(cl, "503 Service Unavailable", "no metrics written yet\n", head_only);
		return;
	}
	cl->size = st.st_size;
	cl->sent = 0;
	answer(cl, "200 OK", "", head_only);
}

static void on_input(void *ctx, uint32_t events)
{
	struct client *cl = ctx;

	(void)events;
	ssize_t n = read(cl->fd, cl->req + cl->len, sizeof(cl->req) - 1 - cl->len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		client_close(cl);	/* gone before its request ended */
		return;
	}
	cl->len += (size_t)n;
	if (memmem(cl->req, cl->len, "\r\n\r\n", 4) || memmem(cl->req, cl->len, "\n\n", 2))
		judge(cl);
	else if (cl->len == sizeof(cl->req) - 1)
		answer(cl, "431 Request Header Fields Too Large", "the request is too long\n",
		       false);
}

static void on_output(void *ctx, uint32_t events)
{
	struct client *cl = ctx;

	(void)events;
	if (cl->head_sent < cl->head_len) {
		ssize_t n = write(cl->fd, cl->head + cl->head_sent, cl->head_len - cl->head_sent);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			client_close(cl);
			return;
		}
		cl->head_sent += (size_t)n;
		if (cl->head_sent < cl->head_len)
			return;
	}
	if (cl->file >= 0 && cl->sent < cl->size) {
		size_t chunk = cl->size - cl->sent < SM_HTTP_CHUNK ? (size_t)(cl->size - cl->sent)
								   : SM_HTTP_CHUNK;
		ssize_t n = sendfile(cl->fd, cl->file, &cl->sent, chunk);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n > 0 && cl->sent < cl->size)
			return;	/* more at the next wake-up */
		if (n <= 0) {
			client_close(cl);
			return;
		}
	}
	drain(cl);
}

static void on_drain(void *ctx, uint32_t events)
{
	struct client *cl = ctx;
	char sink[4096];

	(void)events;
	ssize_t n = read(cl->fd, sink, sizeof(sink));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	cl->len += n > 0 ? (size_t)n : 0;
	if (n <= 0 || cl->len > SM_HTTP_DRAIN_MAX)
		client_close(cl);
}

/* The answer is out: shut our side, drop what the client still sends until
 * it closes, SM_HTTP_DRAIN_MAX bytes or SM_HTTP_DRAIN_MS at most. */
static void drain(struct client *cl)
{
	struct sm *sm = cl->h->sm;

	cl->phase = DRAINING;
	cl->len = 0;
	if (cl->file >= 0)
		close(cl->file);
	cl->file = -1;
	sm_loop_del_fd(sm->loop, cl->fd);
	if (shutdown(cl->fd, SHUT_WR) || sm_loop_add_fd(sm->loop, cl->fd, EPOLLIN, on_drain, cl)) {
		client_close(cl);
		return;
	}
	sm_timer_in(sm->loop, &cl->deadline, SM_HTTP_DRAIN_MS);
}

static void on_deadline(void *ctx)
{
	struct client *cl = ctx;

	if (cl->phase != DRAINING)
		sm_debug("metrics endpoint: a client did not %s in time; closed",
			 cl->phase == ANSWERING ? "take its answer" : "send its request");
	client_close(cl);
}

/* A free slot; when all are taken, one that was answered already, else the
 * one sending its request the longest, is dropped for the newcomer.  NULL
 * when every client is being answered. */
static struct client *free_slot(struct sm_metrics_http *h)
{
	struct client *oldest = NULL;

	/* requests that arrived but were not read yet first: a client that sent
	 * its whole request is answered, not displaced */
	for (unsigned i = 0; i < SM_HTTP_CLIENTS; i++)
		if (h->clients[i].fd >= 0 && h->clients[i].phase == READING)
			on_input(&h->clients[i], EPOLLIN);
	for (unsigned i = 0; i < SM_HTTP_CLIENTS; i++) {
		struct client *cl = &h->clients[i];
		if (cl->fd < 0)
			return cl;
		if (cl->phase == DRAINING) {
			client_close(cl);
			return cl;
		}
		if (cl->phase == READING && (!oldest || cl->since_ms < oldest->since_ms))
			oldest = cl;
	}
	if (oldest) {
		sm_debug("metrics endpoint: %d clients; the one sending its request the "
			 "longest is dropped", SM_HTTP_CLIENTS);
		client_close(oldest);
	}
	return oldest;
}

static void on_listen(void *ctx, uint32_t events)
{
	static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
				   "Connection: close\r\n\r\n";
	struct sm_metrics_http *h = ctx;
	int fd;

	(void)events;
	while ((fd = accept4(h->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		struct client *cl = free_slot(h);
		if (!cl || sm_loop_add_fd(h->sm->loop, fd, EPOLLIN, on_input, cl)) {
			if (write(fd, busy, sizeof(busy) - 1) < 0) {
				/* it is gone already */
			}
			close(fd);
			continue;
		}
		cl->fd = fd;
		cl->file = -1;
		cl->len = 0;
		cl->phase = READING;
		cl->since_ms = mad_now_ms();
		sm_timer_init(&cl->deadline, on_deadline, cl);
		sm_timer_at(h->sm->loop, &cl->deadline, cl->since_ms + SM_HTTP_HEAD_MS);
	}
}

int sm_metrics_http_open(struct sm *sm, const char *spec, struct sm_metrics_http **out)
{
	struct sockaddr_storage sa;
	socklen_t len;
	char why[128];
	int one = 1;

	if (sm_addr_parse(spec, &sa, &len, why, sizeof(why))) {
		sm_err("metrics.listen: %s", why);
		return -EINVAL;
	}
	struct sm_metrics_http *h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->sm = sm;
	for (unsigned i = 0; i < SM_HTTP_CLIENTS; i++)
		h->clients[i] = (struct client){ .h = h, .fd = -1, .file = -1 };
	h->fd = socket(sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int rc = h->fd < 0 ? -errno : 0;
	if (!rc && (setsockopt(h->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
		    bind(h->fd, (struct sockaddr *)&sa, len) || listen(h->fd, SM_HTTP_BACKLOG)))
		rc = -errno;
	if (!rc)
		rc = sm_loop_add_fd(sm->loop, h->fd, EPOLLIN, on_listen, h);
	if (rc) {
		sm_err("metrics endpoint %s: %s (Prometheus cannot scrape this SM there)", spec,
		       strerror(-rc));
		if (h->fd >= 0)
			close(h->fd);
		free(h);
		return rc;
	}
	char addr[64];
	sm_addr_format(&sa, addr, sizeof(addr));
	sm_notice("metrics endpoint: http://%s/metrics", addr);
	*out = h;
	return 0;
}

void sm_metrics_http_close(struct sm_metrics_http *h)
{
	if (!h)
		return;
	for (unsigned i = 0; i < SM_HTTP_CLIENTS; i++)
		client_close(&h->clients[i]);
	sm_loop_del_fd(h->sm->loop, h->fd);
	close(h->fd);
	free(h);
}

// SPDX-License-Identifier: MIT
/*
 * sm_ctl.c - the control socket (see sm_ctl.h).
 *
 * Data: the listening socket, the inode it got when bound (to recognise it
 * again at exit), and a fixed table of client slots, each with its partial
 * line (grown as it comes, up to SM_CTL_MAX_LINE) and a deadline timer.
 * Flow: accept (non-blocking) -> the client's fd joins the loop -> bytes
 * gather until a newline, EOF or the limit -> one answer is written ->
 * closed.  A job start or end is queued instead (sm/jobs/sm_jobs.h): the
 * slot waits, its deadline pushed to SM_CTL_JOB_DEADLINE_MS, until the daemon
 * answers through job_reply(); a slot closed meanwhile cancels the answer.
 * A client that sends nothing is closed when its deadline passes.  The
 * socket is mode 0660: whoever is in the store's directory's group may ask
 * for a resweep, or start and end jobs.
 */
#define _GNU_SOURCE	/* accept4 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "mad/mad_attr.h"
#include "sm/sm_ctl.h"
#include "sm/util/sm_log.h"
#include "sm/util/sm_loop.h"
#include "sm/core/sm_state.h"
#include "sm/jobs/sm_jobs.h"
#include "sm/telemetry/sm_isolate.h"

struct client {
	struct sm_ctl *ctl;
	int fd;			/* -1: a free slot */
	size_t len, cap;
	char *line;		/* grows up to SM_CTL_MAX_LINE */
	bool waiting;		/* a job request of it is queued (sm_jobs.h) */
	struct sm_timer deadline;
};

struct sm_ctl {
	struct sm *sm;
	int fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	dev_t dev;
	ino_t ino;
	struct client clients[SM_CTL_MAX_CLIENTS];
};

/* Is someone answering on the socket at @sa? */
static bool socket_is_live(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return false;
	bool live = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0 ||
		    errno != ECONNREFUSED;
	close(fd);
	return live;
}

/* Make the path free for bind(): nothing there, or a stale socket removed. */
static int claim_path(const struct sockaddr_un *sa)
{
	struct stat st;

	if (lstat(sa->sun_path, &st)) {
		if (errno == ENOENT)
			return 0;
		sm_err("control socket %s: %s", sa->sun_path, strerror(errno));
		return -errno;
	}
	if (!S_ISSOCK(st.st_mode)) {
		sm_err("control socket %s: the path exists and is not a socket; it is left "
		       "alone (choose another 'socket:' path)", sa->sun_path);
		return -EEXIST;
	}
	if (socket_is_live(sa)) {
		sm_err("control socket %s: another process (an ibsmd already running?) "
		       "answers on it; it is left alone", sa->sun_path);
		return -EADDRINUSE;
	}
	sm_info("control socket %s: removing a stale socket nobody answers on", sa->sun_path);
	if (unlink(sa->sun_path) && errno != ENOENT)
		return -errno;
	return 0;
}

static void client_close(struct client *cl)
{
	if (cl->fd < 0)
		return;
	if (cl->waiting)
		sm_jobs_cancel(cl->ctl->sm, cl);
	cl->waiting = false;
	sm_loop_del_fd(cl->ctl->sm->loop, cl->fd);
	sm_timer_cancel(cl->ctl->sm->loop, &cl->deadline);
	close(cl->fd);
	cl->fd = -1;
	free(cl->line);
	cl->line = NULL;
	cl->len = cl->cap = 0;
}

/* @s as a JSON string body (quotes and control bytes escaped) into @out. */
static void json_escape(const char *s, char *out, size_t len)
{
	size_t o = 0;

	for (; *s && o + 7 < len; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			o += (size_t)snprintf(out + o, len - o, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			o += (size_t)snprintf(out + o, len - o, "\\u%04x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
}

static void status_reply(struct sm *sm, bool json, char *reply, size_t len)
{
	char doing[96], last[2 * sizeof(sm->last_result)], store[96] = "";
	char port[2 * sizeof(sm->port_name)];
	uint64_t now = mad_now_ms(), dropped;
	size_t queued;

	sm_store_queue_counts(&sm->store, &queued, &dropped);
	if (queued || dropped)
		snprintf(store, sizeof(store), "; store busy: %zu records wait, %llu dropped",
			 queued, (unsigned long long)dropped);

	if (sm->stage)
		snprintf(doing, sizeof(doing), "heavy sweep: %s (%.1f s)", sm->stage,
			 (double)(now - sm->stage_started_ms) / 1000.0);
	else
		snprintf(doing, sizeof(doing), "%s", sm->sweep_due ? "a heavy sweep is due" : "idle");
	if (!json) {
		snprintf(reply, len, "ok: %s, %llu heavy sweeps, %llu light sweeps, %s%s%s; "
			 "port %s%s\n",
			 mad_sm_state_name(sm->sm_state), (unsigned long long)sm->sweeps,
			 (unsigned long long)sm->light_sweeps, doing,
			 sm->last_result[0] ? "; last heavy sweep: " : "", sm->last_result,
			 sm->port_name[0] ? sm->port_name : "none", store);
		return;
	}
	json_escape(sm->last_result, last, sizeof(last));
	json_escape(sm->port_name, port, sizeof(port));
	snprintf(reply, len, "{\"ok\": true, \"state\": \"%s\", \"heavy_sweeps\": %llu, "
		 "\"light_sweeps\": %llu, \"stage\": %s%s%s, \"sweep_due\": %s, "
		 "\"last_result\": \"%s\", \"last_sweep_age_s\": %.3f, \"store_queued\": %zu, "
		 "\"store_dropped\": %llu, \"port\": \"%s\"}\n",
		 mad_sm_state_name(sm->sm_state), (unsigned long long)sm->sweeps,
		 (unsigned long long)sm->light_sweeps, sm->stage ? "\"" : "",
		 sm->stage ? sm->stage : "null", sm->stage ? "\"" : "",
		 sm->sweep_due ? "true" : "false", last,
		 sm->last_sweep_end_ms ? (double)(now - sm->last_sweep_end_ms) / 1000.0 : -1.0,
		 queued, (unsigned long long)dropped, port);
}

/* "NODE PORT": give back an isolated link (sm_isolate.h).  NODE is a GUID or
 * a description, which may hold spaces: the port is the last word. */
static void link_restore_reply(struct sm *sm, char *args, bool json, char *reply, size_t len)
{
	char msg[256], esc[2 * sizeof(msg)];
	char *sp = strrchr(args, ' '), *end;
	unsigned long port = sp ? strtoul(sp + 1, &end, 10) : 0;
	int rc = -EINVAL;

	if (!sp || sp == args || !sp[1] || *end || port < 1 || port > 254)
		snprintf(msg, sizeof(msg), "want: link restore NODE PORT (PORT 1..254)");
	else {
		*sp = '\0';
		rc = sm_isolate_restore(sm, args, (unsigned)port, "the operator (control socket)",
					msg, sizeof(msg));
	}
	json_escape(msg, esc, sizeof(esc));
	if (json)
		snprintf(reply, len, "{\"ok\": %s, \"%s\": \"%s\"}\n", rc ? "false" : "true",
			 rc ? "error" : "restored", esc);
	else
		snprintf(reply, len, "%s: %s\n", rc ? "error" : "ok", esc);
}

/* The answer to a queued job request (sm_jobs_reply_fn). */
static void job_reply(void *cookie, const char *line)
{
	struct client *cl = cookie;

	cl->waiting = false;
	if (write(cl->fd, line, strlen(line)) < 0)
		sm_debug("control socket: the client left before the answer");
	client_close(cl);
}

/* "job ...": "list" answered now; "start", "end" queued.  true when queued
 * (the answer comes later), else @reply holds the answer. */
static bool job_request(struct client *cl, const char *args, bool json, char *reply,
			size_t len)
{
	struct sm *sm = cl->ctl->sm;
	char msg[256], esc[2 * sizeof(msg)];

	if (strcmp(args, "list") == 0) {
		sm_jobs_list(sm, json, reply, len);
		return false;
	}
	if (sm_jobs_request(sm, args, json, job_reply, cl, msg, sizeof(msg)) == 0) {
		cl->waiting = true;
		sm_timer_cancel(sm->loop, &cl->deadline);
		sm_timer_in(sm->loop, &cl->deadline, SM_CTL_JOB_DEADLINE_MS);
		return true;
	}
	json_escape(msg, esc, sizeof(esc));
	if (json)
		snprintf(reply, len, "{\"ok\": false, \"error\": \"%s\"}\n", esc);
	else
		snprintf(reply, len, "error: %s\n", esc);
	return false;
}

static void answer(struct client *cl)
{
	struct sm *sm = cl->ctl->sm;
	char reply[8192], *cmd = cl->line;
	bool json = false;

	cl->line[cl->len] = '\0';
	cl->line[strcspn(cl->line, "\r\n")] = '\0';
	size_t clen = strlen(cmd);
	if (clen > 5 && strcmp(cmd + clen - 5, " json") == 0) {
		cmd[clen - 5] = '\0';
		json = true;
	}
	if (cl->len >= SM_CTL_MAX_LINE) {
		snprintf(reply, sizeof(reply), "error: request longer than %d bytes\n",
			 SM_CTL_MAX_LINE);
	} else if (strcmp(cmd, "resweep") == 0) {
		sm_notice("control socket: a heavy sweep was asked for");
		sm_sweep_due(sm, "asked for on the control socket");
		snprintf(reply, sizeof(reply), json ? "{\"ok\": true, \"scheduled\": \"heavy sweep\"}\n"
			 : "ok: heavy sweep scheduled\n");
	} else if (strcmp(cmd, "status") == 0) {
		status_reply(sm, json, reply, sizeof(reply));
	} else if (strncmp(cmd, "link restore ", 13) == 0) {
		link_restore_reply(sm, cmd + 13, json, reply, sizeof(reply));
	} else if (strncmp(cmd, "job ", 4) == 0) {
		if (job_request(cl, cmd + 4, json, reply, sizeof(reply)))
			return;	/* job_reply() answers */
	} else {
		char esc[2 * 64 + 8], head[65];
		snprintf(head, sizeof(head), "%.64s", cl->line);
		json_escape(head, esc, sizeof(esc));
		snprintf(reply, sizeof(reply), "error: unknown command '%s' (resweep, status, "
			 "link restore NODE PORT, job start|end|list; add ' json' for JSON)\n", esc);
	}
	if (write(cl->fd, reply, strlen(reply)) < 0)
		sm_debug("control socket: the client left before the answer");
	client_close(cl);
}

static void on_client(void *ctx, uint32_t events)
{
	struct client *cl = ctx;
	char drain[256];

	(void)events;
	if (cl->waiting) {	/* nothing more is read; EOF: the client left */
		ssize_t n = read(cl->fd, drain, sizeof(drain));
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			client_close(cl);
		return;
	}
	if (cl->len + 1 >= cl->cap && cl->cap < SM_CTL_MAX_LINE + 1) {
		size_t cap = cl->cap ? 2 * cl->cap : 256;
		cap = cap > SM_CTL_MAX_LINE + 1 ? SM_CTL_MAX_LINE + 1 : cap;
		char *line = realloc(cl->line, cap);
		if (!line) {
			client_close(cl);
			return;
		}
		cl->line = line;
		cl->cap = cap;
	}
	ssize_t n = read(cl->fd, cl->line + cl->len, cl->cap - 1 - cl->len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0)
		cl->len += (size_t)n;
	if (n <= 0 || memchr(cl->line + cl->len - (n > 0 ? (size_t)n : 0), '\n', n > 0 ? (size_t)n : 0) ||
	    cl->len >= SM_CTL_MAX_LINE)
		answer(cl);
}

static void on_deadline(void *ctx)
{
	struct client *cl = ctx;

	if (cl->waiting)
		sm_warn("control socket: a job request found no answer within %d ms; its "
			"client is closed (the request still runs)", SM_CTL_JOB_DEADLINE_MS);
	else
		sm_debug("control socket: a client sent no command within %d ms; closed",
			 SM_CTL_DEADLINE_MS);
	client_close(cl);
}

/* A free client slot; when all are taken, the one that has been silent the
 * longest is dropped for the newcomer, so idle connections can never lock
 * out a client that has something to say. */
static struct client *free_slot(struct sm_ctl *c)
{
	struct client *oldest = &c->clients[0];

	for (unsigned i = 0; i < SM_CTL_MAX_CLIENTS; i++) {
		struct client *cl = &c->clients[i];
		if (cl->fd < 0)
			return cl;
		/* one waiting for a job's answer goes only when all do */
		if ((oldest->waiting && !cl->waiting) ||
		    (oldest->waiting == cl->waiting && cl->deadline.due_ms < oldest->deadline.due_ms))
			oldest = cl;
	}
	on_client(oldest, EPOLLIN);	/* its line may be waiting unread: answer it */
	if (oldest->fd >= 0) {
		sm_debug("control socket: %d clients waiting; the oldest silent one is "
			 "dropped", SM_CTL_MAX_CLIENTS);
		client_close(oldest);
	}
	return oldest;
}

static void on_listen(void *ctx, uint32_t events)
{
	struct sm_ctl *c = ctx;
	int fd;

	(void)events;
	while ((fd = accept4(c->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		struct client *cl = free_slot(c);
		if (sm_loop_add_fd(c->sm->loop, fd, EPOLLIN, on_client, cl)) {
			static const char busy[] = "error: busy, try again\n";
			if (write(fd, busy, sizeof(busy) - 1) < 0) {
				/* it is gone already */
			}
			close(fd);
			continue;
		}
		cl->fd = fd;
		cl->len = 0;
		cl->waiting = false;
		sm_timer_init(&cl->deadline, on_deadline, cl);
		sm_timer_in(c->sm->loop, &cl->deadline, SM_CTL_DEADLINE_MS);
	}
}

int sm_ctl_open(struct sm *sm, const char *path, struct sm_ctl **out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int rc;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		sm_err("control socket %s: path too long (at most %zu bytes)", path,
		       sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	rc = claim_path(&sa);
	if (rc)
		return rc;
	struct sm_ctl *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->sm = sm;
	snprintf(c->path, sizeof(c->path), "%s", path);
	for (unsigned i = 0; i < SM_CTL_MAX_CLIENTS; i++)
		c->clients[i] = (struct client){ .ctl = c, .fd = -1 };
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0 || bind(c->fd, (struct sockaddr *)&sa, sizeof(sa)))
		goto fail;
	if (lstat(path, &st) || chmod(path, 0660) || listen(c->fd, SM_CTL_MAX_CLIENTS))
		goto fail_bound;
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	rc = sm_loop_add_fd(sm->loop, c->fd, EPOLLIN, on_listen, c);
	if (rc) {
		errno = -rc;
		goto fail_bound;
	}
	*out = c;
	return 0;
fail_bound:
	rc = -errno;
	unlink(path);	/* ours: bind() just made it */
	errno = -rc;
fail:
	rc = -errno;
	sm_err("control socket %s: %s (smquery resweep will not reach this SM)", path,
	       strerror(-rc));
	if (c->fd >= 0)
		close(c->fd);
	free(c);
	return rc;
}

void sm_ctl_close(struct sm_ctl *c)
{
	struct stat st;

	if (!c)
		return;
	for (unsigned i = 0; i < SM_CTL_MAX_CLIENTS; i++)
		client_close(&c->clients[i]);
	sm_loop_del_fd(c->sm->loop, c->fd);
	close(c->fd);
	if (lstat(c->path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == c->dev &&
	    st.st_ino == c->ino)
		unlink(c->path);
	else
		sm_notice("control socket %s: no longer ours; left alone", c->path);
	free(c);
}

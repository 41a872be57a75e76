// SPDX-License-Identifier: MIT
/*
 * rt_sandbox.c - a plugin engine run in a child process (see rt_sandbox.h).
 *
 * The shared mapping, made before the fork:
 *	[header page][guard][...LFT rows, the last one ending at][guard][SL table...]
 *	[guard][AR group masks...][AR groups' LID rows...]
 * The rows lie back to back, one of max_lid + 1 bytes per node with a row in
 * the caller's ctx, so a write before the first or past the last faults on a
 * guard page; one past a middle row lands in its neighbour, whose routes the
 * daemon then validates like any other.  The child marks the header done only
 * after compute_unicast returned and the SL table is full, then _exit()s;
 * anything else (a signal, an exit, the budget) is a failure.  The caller
 * polls a pidfd (pidfd_open, Linux 5.3), readable once the child can be reaped.
 * It does not call the plugin's destroy(): its memory goes with the process.
 * The AR area (routing ABI 3, only when the caller's ctx->ar is set) holds,
 * per switch with an AR row, group_cap masks, then per such switch max_lid + 1
 * group numbers; after a good run they are copied into the caller's
 * ctx->ar like the LFT rows, and checked there like any engine's (rt_ar.c):
 * whatever the plugin wrote, the daemon reads only those bytes.
 *
 * The child may be forked from a worker thread while another thread holds the
 * log's stdio lock, so it never calls the daemon's log: its lines go through
 * a non-blocking pipe (one write each, atomic below PIPE_BUF; dropped when
 * the pipe is full) and the daemon logs them as it collects.
 */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "routing/rt_sandbox.h"

#define NO_ROW UINT32_MAX
#define LOG_LINE 1024		/* one record: priority digit, text, NUL */

struct shared_header {
	int32_t done;		/* set by the child, last */
	int32_t rc;		/* compute_unicast's (or setup's) result */
};

struct rt_sandbox {
	const struct ibsmd_routing_engine *e;
	struct ibsmd_routing_engine proxy;	/* path_sl from the table */
	pid_t pid;		/* -1 once reaped */
	int fd;			/* the child's pidfd */
	int logfd;		/* read end of the child's log pipe */
	char partial[LOG_LINE];	/* a record cut by a read */
	size_t npartial;
	int result;
	bool collected, cancelled;
	uint64_t deadline_ms;
	unsigned timeout_ms;
	uint64_t memory_mb;
	uint8_t *map;
	size_t maplen;
	struct shared_header *hdr;
	size_t rowlen;		/* max_lid + 1 */
	uint32_t nnodes;
	uint8_t **lft;		/* per node: its row in the mapping, or NULL */
	uint8_t *sl;		/* SL table: nsl rows of rowlen */
	uint32_t nsl;
	uint32_t *sl_row;	/* per source LID: its table row, or NO_ROW */
	uint16_t *sl_slid;	/* per table row: the source LID asked */
	struct ibsmd_rt_ar ar;	/* the child's ctx->ar: rows in the AR area */
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static size_t page_round(size_t n, size_t page)
{
	return (n + page - 1) / page * page;
}

/*
 * Rows of the path_sl table: with path_sl_by_switch one per switch that CAs
 * are cabled to, asked with its first CA LID; otherwise one per CA LID.
 */
static int plan_sl_table(struct rt_sandbox *sb, const struct ibsmd_rt_view *v)
{
	uint32_t *node_row = NULL;

	if (!sb->e->path_sl)
		return 0;
	sb->sl_row = malloc(sb->rowlen * sizeof(*sb->sl_row));
	sb->sl_slid = malloc(sb->rowlen * sizeof(*sb->sl_slid));
	if (sb->e->path_sl_by_switch)
		node_row = malloc((size_t)v->nnodes * sizeof(*node_row) + 1);
	if (!sb->sl_row || !sb->sl_slid || (sb->e->path_sl_by_switch && !node_row)) {
		free(node_row);
		return -ENOMEM;
	}
	for (uint32_t n = 0; node_row && n < v->nnodes; n++)
		node_row[n] = NO_ROW;
	for (size_t slid = 0; slid < sb->rowlen; slid++) {
		uint32_t n = slid ? v->lid_node[slid] : IBSMD_NO_NODE;
		sb->sl_row[slid] = NO_ROW;
		if (n == IBSMD_NO_NODE || n >= v->nnodes || ibsmd_is_switch(v, n))
			continue;
		const struct ibsmd_rt_node *ca = &v->nodes[n];
		uint32_t sw = v->lid_port[slid] <= ca->nports ? ca->ports[v->lid_port[slid]].peer :
			      IBSMD_NO_NODE;
		if (node_row && ibsmd_is_switch(v, sw) && node_row[sw] != NO_ROW) {
			sb->sl_row[slid] = node_row[sw];
			continue;
		}
		if (node_row && ibsmd_is_switch(v, sw))
			node_row[sw] = sb->nsl;
		sb->sl_slid[sb->nsl] = (uint16_t)slid;
		sb->sl_row[slid] = sb->nsl++;
	}
	free(node_row);
	if ((uint64_t)sb->nsl * sb->rowlen > RT_SANDBOX_MAX_SL_TABLE)
		return -EFBIG;
	return 0;
}

/* Bytes of the AR area for @ctx: 0 without ctx->ar. */
static size_t ar_area_len(const struct rt_sandbox *sb, const struct ibsmd_rt_ctx *ctx)
{
	size_t nar = 0;

	for (uint32_t n = 0; ctx->ar && n < ctx->view->nnodes; n++)
		nar += ctx->ar->lid_group[n] != NULL;
	return nar * (sb->rowlen * sizeof(uint16_t) +
		      (ctx->ar ? ctx->ar->group_cap : 0) * sizeof(uint64_t[IBSMD_AR_WORDS]));
}

/* Point sb->ar's rows into the AR area at @area. */
static int ar_rows(struct rt_sandbox *sb, const struct ibsmd_rt_ctx *ctx, uint8_t *area)
{
	sb->ar.group_cap = ctx->ar->group_cap;
	sb->ar.lid_group = calloc((size_t)sb->nnodes + 1, sizeof(*sb->ar.lid_group));
	sb->ar.groups = calloc((size_t)sb->nnodes + 1, sizeof(*sb->ar.groups));
	if (!sb->ar.lid_group || !sb->ar.groups)
		return -ENOMEM;
	/* the masks first: the area is page aligned, the masks 32 bytes each */
	for (uint32_t n = 0; n < sb->nnodes; n++)
		if (ctx->ar->lid_group[n]) {
			sb->ar.groups[n] = (uint64_t(*)[IBSMD_AR_WORDS])area;
			area += ctx->ar->group_cap * sizeof(uint64_t[IBSMD_AR_WORDS]);
		}
	for (uint32_t n = 0; n < sb->nnodes; n++)
		if (ctx->ar->lid_group[n]) {
			sb->ar.lid_group[n] = (uint16_t *)area;
			area += sb->rowlen * sizeof(uint16_t);
		}
	return 0;
}

static int map_shared(struct rt_sandbox *sb, const struct ibsmd_rt_ctx *ctx)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint32_t nrows = 0;

	for (uint32_t n = 0; n < ctx->view->nnodes; n++)
		nrows += ctx->lft[n] != NULL;
	size_t rows = (size_t)nrows * sb->rowlen, sl = (size_t)sb->nsl * sb->rowlen;
	size_t rows_area = page_round(rows ? rows : 1, page);
	size_t sl_area = page_round(sl ? sl : 1, page), ar = ar_area_len(sb, ctx);
	sb->maplen = page + page + rows_area + page + sl_area + (ctx->ar ? page + ar : 0);
	sb->map = mmap(NULL, sb->maplen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sb->map == MAP_FAILED) {
		sb->map = NULL;
		return -errno;
	}
	if (mprotect(sb->map + page, page, PROT_NONE) ||
	    mprotect(sb->map + 2 * page + rows_area, page, PROT_NONE))
		return -errno;
	sb->hdr = (struct shared_header *)sb->map;
	uint8_t *row = sb->map + 2 * page + rows_area - rows;
	memset(row, IBSMD_NO_PORT, rows);
	for (uint32_t n = 0; n < ctx->view->nnodes; n++) {
		if (ctx->lft[n]) {
			sb->lft[n] = row;
			row += sb->rowlen;
		}
	}
	sb->sl = sb->map + 3 * page + rows_area;
	if (!ctx->ar)
		return 0;
	uint8_t *guard = sb->sl + sl_area;
	if (mprotect(guard, page, PROT_NONE))
		return -errno;
	return ar_rows(sb, ctx, guard + page);	/* the area is zero, as mmap made it */
}

/* In the child: bound its address space to what it has plus memory_mb. */
static void limit_memory(uint64_t memory_mb)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!memory_mb || !f || fscanf(f, "%lu", &pages) != 1) {
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	rlim_t lim = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (rlim_t)(memory_mb << 20);
	struct rlimit rl = { .rlim_cur = lim, .rlim_max = lim };
	setrlimit(RLIMIT_AS, &rl);
}

static void fill_sl_table(const struct rt_sandbox *sb, const struct ibsmd_rt_ctx *c, void *state)
{
	const struct ibsmd_rt_view *v = c->view;

	for (uint32_t r = 0; r < sb->nsl; r++) {
		uint8_t *row = sb->sl + (size_t)r * sb->rowlen;
		for (size_t dlid = 1; dlid < sb->rowlen; dlid++)
			row[dlid] = v->lid_node[dlid] == IBSMD_NO_NODE ? 0 :
				    sb->e->path_sl(c, state, sb->sl_slid[r], (uint16_t)dlid) & 0xf;
	}
}

static int child_logfd = -1;	/* in the child: the pipe's write end */

static void child_log(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void child_log(int prio, const char *fmt, ...)
{
	char line[LOG_LINE];
	va_list ap;

	line[0] = (char)('0' + (prio & 7));
	va_start(ap, fmt);
	int n = vsnprintf(line + 1, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	size_t len = n < 0 ? 1 : (size_t)n + 1 < sizeof(line) ? (size_t)n + 1 : sizeof(line) - 1;
	line[len] = '\0';
	if (write(child_logfd, line, len + 1) < 0) {
		/* full: the line is dropped rather than the child stalled */
	}
}

/* A plugin that calls exit() ends the child with its status and nothing else:
 * no atexit handler the daemon or a library registered in the parent runs in
 * the child, nor a sanitizer's leak check of the memory the fork copied (it
 * would change the status).  Registered last, so it runs first. */
static void child_exit_now(int status, void *arg)
{
	(void)arg;
	_exit(status);
}

static _Noreturn void child_main(struct rt_sandbox *sb, const struct ibsmd_rt_ctx *ctx,
				 pid_t parent, int logfd)
{
	/* default actions: a crash is then the signal itself, whatever handler
	 * the daemon (or a sanitizer) installed */
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2,
				    SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS };
	struct ibsmd_rt_ctx c = *ctx;
	void *state = NULL;
	int rc = 0;

	sigset_t none;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);	/* a worker thread's mask blocks them */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	limit_memory(sb->memory_mb);
	on_exit(child_exit_now, NULL);
	c.lft = sb->lft;
	c.ar = ctx->ar ? &sb->ar : NULL;
	c.log = child_log;
	child_logfd = logfd;
	if (sb->e->setup)
		rc = sb->e->setup(&c, &state);
	if (rc == 0)
		rc = sb->e->compute_unicast(&c, state);
	if (rc == 0 && c.ar && sb->e->compute_ar)
		rc = sb->e->compute_ar(&c, state);
	if (rc == 0 && sb->e->path_sl)
		fill_sl_table(sb, &c, state);
	sb->hdr->rc = rc;
	__atomic_store_n(&sb->hdr->done, 1, __ATOMIC_RELEASE);
	_exit(0);
}

static uint8_t table_path_sl(const struct ibsmd_rt_ctx *ctx, void *state, uint16_t slid,
			     uint16_t dlid)
{
	const struct rt_sandbox *sb = state;

	(void)ctx;
	if (slid >= sb->rowlen || dlid >= sb->rowlen || sb->sl_row[slid] == NO_ROW)
		return 0;
	return sb->sl[(size_t)sb->sl_row[slid] * sb->rowlen + dlid];
}

int rt_sandbox_start(const struct ibsmd_routing_engine *e, const struct ibsmd_rt_ctx *ctx,
		     const struct rt_plugin_limits *lim, struct rt_sandbox **out)
{
	struct rt_sandbox *sb = calloc(1, sizeof(*sb));
	int logpipe[2] = { -1, -1 }, rc;

	*out = NULL;
	if (!sb)
		return -ENOMEM;
	sb->e = e;
	sb->pid = -1;
	sb->fd = -1;
	sb->logfd = -1;
	sb->timeout_ms = lim && lim->timeout_ms ? lim->timeout_ms : RT_PLUGIN_TIMEOUT_S * 1000;
	sb->memory_mb = lim ? lim->memory_mb : RT_PLUGIN_MEMORY_MB;
	sb->rowlen = (size_t)ctx->view->max_lid + 1;
	sb->nnodes = ctx->view->nnodes;
	sb->lft = calloc((size_t)sb->nnodes + 1, sizeof(*sb->lft));
	rc = sb->lft ? plan_sl_table(sb, ctx->view) : -ENOMEM;
	if (rc == -EFBIG)
		ctx->log(LOG_ERR, "routing: plugin %s: a table of its path_sl answers for %u "
			 "sources would take %llu MiB, over the %llu MiB limit (set "
			 "path_sl_by_switch if its SLs follow the source switch); refused",
			 e->name, sb->nsl, (unsigned long long)(sb->nsl * sb->rowlen >> 20),
			 (unsigned long long)(RT_SANDBOX_MAX_SL_TABLE >> 20));
	if (rc == 0)
		rc = map_shared(sb, ctx);
	if (rc == 0 && pipe2(logpipe, O_CLOEXEC | O_NONBLOCK))
		rc = -errno;
	sb->logfd = logpipe[0];
	if (rc) {
		rt_sandbox_free(sb);
		return rc;
	}
	sb->proxy = (struct ibsmd_routing_engine){ .name = e->name,
		.abi_version = IBSMD_ROUTING_ABI_VERSION, .description = e->description,
		.deadlock_free = e->deadlock_free, .path_sl = e->path_sl ? table_path_sl : NULL,
		.path_sl_by_switch = e->path_sl_by_switch };
	fflush(NULL);	/* or the child's exit() writes our buffers again */
	pid_t parent = getpid();
	sb->pid = fork();
	if (sb->pid == 0) {
		close(logpipe[0]);
		child_main(sb, ctx, parent, logpipe[1]);
	}
	rc = sb->pid < 0 ? -errno : 0;
	close(logpipe[1]);
	if (rc == 0 && (sb->fd = (int)syscall(SYS_pidfd_open, sb->pid, 0)) < 0) {
		rc = -errno;
		ctx->log(LOG_ERR, "routing: plugin %s: pidfd_open: %s", e->name, strerror(-rc));
	}
	if (rc) {
		rt_sandbox_free(sb);
		return rc;
	}
	sb->deadline_ms = now_ms() + sb->timeout_ms;
	ctx->log(LOG_INFO, "routing: plugin %s runs in process %d, for at most %u ms", e->name,
		 (int)sb->pid, sb->timeout_ms);
	*out = sb;
	return 0;
}

int rt_sandbox_fd(const struct rt_sandbox *sb)
{
	return sb->fd;
}

int rt_sandbox_remaining_ms(const struct rt_sandbox *sb)
{
	uint64_t now = now_ms();

	return sb->collected || now >= sb->deadline_ms ? 0 : (int)(sb->deadline_ms - now);
}

void rt_sandbox_cancel(struct rt_sandbox *sb)
{
	if (sb->pid > 0 && !sb->collected) {
		sb->cancelled = true;
		kill(sb->pid, SIGKILL);
	}
}

/* Log what the child wrote to its log pipe so far, through the daemon's log. */
static void drain_log(struct rt_sandbox *sb, const struct ibsmd_rt_ctx *ctx)
{
	char buf[4 * LOG_LINE];
	ssize_t n;

	while ((n = read(sb->logfd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (sb->npartial < sizeof(sb->partial))
				sb->partial[sb->npartial++] = buf[i];
			if (buf[i] != '\0')
				continue;
			sb->partial[sizeof(sb->partial) - 1] = '\0';
			int prio = sb->partial[0] >= '0' && sb->partial[0] <= '7' ?
				   sb->partial[0] - '0' : LOG_ERR;
			ctx->log(prio, "%s", sb->npartial > 1 ? sb->partial + 1 : "");
			sb->npartial = 0;
		}
	}
}

/* The verdict on a child that ended with @status, logged when it failed. */
static int judge(struct rt_sandbox *sb, const struct ibsmd_rt_ctx *ctx, int status,
		 bool over_budget)
{
	const char *name = sb->e->name;

	if (__atomic_load_n(&sb->hdr->done, __ATOMIC_ACQUIRE) && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0) {
		int rc = sb->hdr->rc;
		return rc > 0 || rc < -4095 ? -EPROTO : rc;
	}
	if (over_budget)
		ctx->log(LOG_ERR, "routing: plugin %s ran over its time budget of %u ms; killed",
			 name, sb->timeout_ms);
	else if (sb->cancelled)
		ctx->log(LOG_ERR, "routing: plugin %s stopped: a signal interrupted its run", name);
	else if (WIFSIGNALED(status))
		ctx->log(LOG_ERR, "routing: plugin %s crashed: signal %d (%s)%s", name,
			 WTERMSIG(status), strsignal(WTERMSIG(status)),
			 WTERMSIG(status) == SIGSEGV ? ", maybe a write past its LFT rows" : "");
	else
		ctx->log(LOG_ERR, "routing: plugin %s exited with status %d before returning its "
			 "routes", name, WEXITSTATUS(status));
	return sb->cancelled && !over_budget ? -ECANCELED : -ECHILD;
}

int rt_sandbox_collect(struct rt_sandbox *sb, const struct ibsmd_rt_ctx *ctx)
{
	bool over_budget = false;
	int status = 0;

	if (sb->collected)
		return sb->result;
	drain_log(sb, ctx);
	pid_t r = waitpid(sb->pid, &status, WNOHANG);
	struct pollfd ended = { .fd = sb->fd, .events = POLLIN };
	if (r == 0 && poll(&ended, 1, 0) == 1)	/* it has exited, reapable in a moment */
		while ((r = waitpid(sb->pid, &status, 0)) < 0 && errno == EINTR)
			;
	if (r == 0) {
		if (!sb->cancelled && now_ms() < sb->deadline_ms)
			return -EAGAIN;
		over_budget = !sb->cancelled;
		kill(sb->pid, SIGKILL);
		do
			r = waitpid(sb->pid, &status, 0);
		while (r < 0 && errno == EINTR);
	}
	sb->collected = true;
	sb->pid = -1;
	drain_log(sb, ctx);	/* what it wrote last, before the verdict */
	if (r < 0) {
		ctx->log(LOG_ERR, "routing: plugin %s: its child was lost: %s", sb->e->name,
			 strerror(errno));
		return sb->result = -ECHILD;
	}
	sb->result = judge(sb, ctx, status, over_budget);
	for (uint32_t n = 0; sb->result == 0 && n < sb->nnodes; n++) {
		if (ctx->lft[n] && sb->lft[n])
			memcpy(ctx->lft[n], sb->lft[n], sb->rowlen);
		if (!ctx->ar || !ctx->ar->lid_group[n] || !sb->ar.lid_group[n])
			continue;
		memcpy(ctx->ar->lid_group[n], sb->ar.lid_group[n], sb->rowlen * sizeof(uint16_t));
		memcpy(ctx->ar->groups[n], sb->ar.groups[n],
		       ctx->ar->group_cap * sizeof(uint64_t[IBSMD_AR_WORDS]));
	}
	return sb->result;
}

const struct ibsmd_routing_engine *rt_sandbox_engine(const struct rt_sandbox *sb, void **state)
{
	*state = (void *)sb;
	return &sb->proxy;
}

void rt_sandbox_free(struct rt_sandbox *sb)
{
	if (!sb)
		return;
	if (sb->pid > 0) {
		kill(sb->pid, SIGKILL);
		while (waitpid(sb->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (sb->fd >= 0)
		close(sb->fd);
	if (sb->logfd >= 0)
		close(sb->logfd);
	if (sb->map)
		munmap(sb->map, sb->maplen);
	free(sb->lft);
	free(sb->ar.lid_group);
	free(sb->ar.groups);
	free(sb->sl_row);
	free(sb->sl_slid);
	free(sb);
}

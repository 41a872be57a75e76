// SPDX-License-Identifier: MIT
/*
 * rt_chain.c - built-in engines, plugin loading, and the fallback chain.
 *
 * A plugin is a shared object exporting `const struct ibsmd_routing_engine
 * ibsmd_routing_engine`.  It is refused, with the reason logged, when the
 * symbol is missing or its ABI version differs from ours; the chain then moves
 * on.  Loaded plugins stay loaded for the life of the process (their code may
 * be called again on the next sweep).  Built-in engines run in the daemon; a
 * plugin runs in a child process with a time budget (rt_sandbox.c), and the
 * checks below then read its tables from shared memory.  An engine's AR
 * groups (ABI 3, ctx->ar) are checked after its LFTs (rt_ar.c).  The chain is a small
 * state machine (rt_chain_step()) so that an event loop can wait for a plugin
 * among its other descriptors; rt_chain_run() waits with poll().
 */
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "routing/rt.h"
#include "routing/rt_adaptive.h"
#include "routing/rt_ar.h"
#include "routing/rt_guids.h"
#include "routing/rt_path_sl.h"
#include "routing/rt_sandbox.h"

/* The options a built-in engine reads (what routing_options may name), and
 * how --check-config checks their values. */
enum { OPT_TEXT, OPT_GUID, OPT_GUID_FILE };

struct engine_option {
	const char *key;
	uint8_t kind;
};

#define FTREE_OPTIONS { "root", OPT_GUID }, { "root_guid_file", OPT_GUID_FILE }, \
	{ "cn_guid_file", OPT_GUID_FILE }, { "io_guid_file", OPT_GUID_FILE }

static const struct {
	const struct ibsmd_routing_engine *e;
	struct engine_option options[6];	/* up to the first with no key */
} builtins[] = {
	{ &rt_minhop_engine, { { NULL, 0 } } },
	{ &rt_updn_engine, { { "root", OPT_GUID }, { "root_guid_file", OPT_GUID_FILE } } },
	{ &rt_ftree_engine, { FTREE_OPTIONS } },
	{ &rt_file_engine, { { "file", OPT_TEXT } } },
	{ &rt_dfsssp_engine, { { "vls", OPT_TEXT } } },
	{ &rt_adaptive_engine, { FTREE_OPTIONS, { "group_cap", OPT_TEXT } } },	/* ftree's too */
};

#define NBUILTINS (sizeof(builtins) / sizeof(builtins[0]))

static size_t builtin_index(const char *name)
{
	for (size_t i = 0; i < NBUILTINS; i++)
		if (strcmp(builtins[i].e->name, name) == 0)
			return i;
	return SIZE_MAX;
}

const struct ibsmd_routing_engine *rt_builtin_find(const char *name)
{
	size_t i = builtin_index(name);

	return i == SIZE_MAX ? NULL : builtins[i].e;
}

/* The option of built-in engine @i with key @key (@klen bytes), or NULL. */
static const struct engine_option *engine_option(size_t i, const char *key, size_t klen)
{
	for (const struct engine_option *o = builtins[i].options; o->key; o++)
		if (strlen(o->key) == klen && strncmp(o->key, key, klen) == 0)
			return o;
	return NULL;
}

/* "ftree reads root, root_guid_file...; minhop none" for the chain, into @buf. */
static void chain_options(const char *const *names, unsigned n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned k = 0; k < n && used < len; k++) {
		size_t i = builtin_index(names[k]);
		int w = snprintf(buf + used, len - used, "%s%s reads", k ? "; " : "", names[k]);
		used += w > 0 ? (size_t)w : 0;
		for (const struct engine_option *o = builtins[i].options; o->key && used < len; o++) {
			w = snprintf(buf + used, len - used, "%s %s", o == builtins[i].options ? ""
				     : ",", o->key);
			used += w > 0 ? (size_t)w : 0;
		}
		if (!builtins[i].options[0].key && used < len) {
			w = snprintf(buf + used, len - used, " none");
			used += w > 0 ? (size_t)w : 0;
		}
	}
}

int rt_options_check(const char *const *names, unsigned n, const char *const *options,
		     unsigned nopt, char *err, size_t errlen)
{
	bool plugin = false;

	for (unsigned k = 0; k < n; k++)
		plugin |= builtin_index(names[k]) == SIZE_MAX;
	for (unsigned j = 0; j < nopt; j++) {
		const char *eq = strchr(options[j], '=');
		size_t klen = eq ? (size_t)(eq - options[j]) : strlen(options[j]);
		const struct engine_option *o = NULL;
		for (unsigned k = 0; k < n && !o; k++) {
			size_t i = builtin_index(names[k]);
			o = i == SIZE_MAX ? NULL : engine_option(i, options[j], klen);
		}
		if (!o && plugin)
			continue;	/* a plugin may read it: it is not known here */
		if (!o) {
			char have[512];
			chain_options(names, n, have, sizeof(have));
			snprintf(err, errlen, "'%.64s': no engine of the chain reads '%.*s' (%s)",
				 options[j], (int)(klen > 64 ? 64 : klen), options[j], have);
			return -EINVAL;
		}
		uint64_t g;
		char why[400];
		struct rt_guids s = { 0 };
		int rc = 0;
		if (o->kind == OPT_GUID && rt_guid_parse(eq + 1, &g)) {
			snprintf(err, errlen, "'%.64s': not a GUID (0x and 1 to 16 hex digits)",
				 options[j]);
			return -EINVAL;
		}
		if (o->kind == OPT_GUID_FILE) {
			rc = rt_guid_file_read(eq + 1, &s, why, sizeof(why));
			rt_guids_free(&s);
		}
		if (rc) {
			snprintf(err, errlen, "%s: %s", o->key, why);
			return -EINVAL;
		}
	}
	return 0;
}

int rt_plugin_path(const char *name, const char *dir, char *path, size_t len)
{
	int n = strchr(name, '/') ? snprintf(path, len, "%s", name)
				  : snprintf(path, len, "%s/%s.so", dir, name);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static const struct ibsmd_routing_engine *plugin_load(const char *name, const char *dir,
						      const struct ibsmd_rt_ctx *ctx)
{
	char path[1024];

	if (rt_plugin_path(name, dir, path, sizeof(path))) {
		ctx->log(LOG_ERR, "routing: plugin path for '%s' is too long", name);
		return NULL;
	}
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		ctx->log(LOG_ERR, "routing: engine '%s' is not built in and %s", name, dlerror());
		return NULL;
	}
	const struct ibsmd_routing_engine *e = dlsym(h, IBSMD_ROUTING_ENGINE_SYMBOL);
	if (!e) {
		ctx->log(LOG_ERR, "routing: plugin %s has no symbol %s; refused", path,
			 IBSMD_ROUTING_ENGINE_SYMBOL);
	} else if (e->abi_version != IBSMD_ROUTING_ABI_VERSION) {
		ctx->log(LOG_ERR, "routing: plugin %s is built for routing ABI %u, this ibsmd "
			 "has ABI %u; refused", path, e->abi_version, IBSMD_ROUTING_ABI_VERSION);
	} else if (!e->name || !e->compute_unicast) {
		ctx->log(LOG_ERR, "routing: plugin %s lacks a name or compute_unicast; refused", path);
	} else {
		return e;
	}
	dlclose(h);
	return NULL;
}

/* Before an engine runs: its LFT rows all IBSMD_NO_PORT, its AR groups empty. */
static void clear_lfts(const struct ibsmd_rt_ctx *ctx)
{
	for (uint32_t n = 0; n < ctx->view->nnodes; n++)
		if (ctx->lft[n])
			memset(ctx->lft[n], IBSMD_NO_PORT, (size_t)ctx->view->max_lid + 1);
	rt_ar_clear(ctx);
}

/* The AR groups @e left in ctx->ar (routing.h, ABI 3): in range, and deadlock
 * free with the LFTs.  0, or -EINVAL / -ELOOP (logged), -ENOMEM. */
static int check_ar(const struct ibsmd_routing_engine *e, const struct ibsmd_rt_ctx *ctx)
{
	char why[256] = "";
	int rc;

	if (!rt_ar_any(ctx))
		return 0;
	if ((rc = rt_ar_validate(ctx, why, sizeof(why))))
		ctx->log(LOG_ERR, "routing: engine %s is refused: its AR groups fail "
			 "validation: %s", e->name, why);
	else if ((rc = rt_ar_cdg_check(ctx)) == -ELOOP)
		ctx->log(LOG_ERR, "routing: engine %s is refused: the hops its AR groups allow, "
			 "with its LFTs, make a credit loop", e->name);
	return rc;
}

static uint64_t rt_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Keep @e's path SLs in @sls (NULL: not wanted) when its routes use SLs. */
static void keep_sls(const struct ibsmd_routing_engine *e, void *state,
		     struct ibsmd_rt_ctx *ctx, uint8_t max_sl, struct rt_path_sls *sls)
{
	if (!sls || !max_sl)
		return;
	int rc = rt_path_sls_keep(ctx, e, state, sls);
	if (rc)
		ctx->log(LOG_WARNING, "routing: the path SLs of engine %s are not kept (%s): "
			 "the SA answers no PathRecord", e->name, strerror(-rc));
}

/* Validate what @e (with @state, for path_sl) left in ctx's LFTs, and keep its
 * path SLs in @sls (may be NULL). */
static int check_result(const struct ibsmd_routing_engine *e, void *state,
			struct ibsmd_rt_ctx *ctx, struct rt_validation *res,
			struct rt_path_sls *sls)
{
	uint64_t t0 = rt_ms();
	int rc = rt_validate(ctx, res);
	uint64_t t1 = rt_ms();

	if (rc == -EHOSTUNREACH) {
		ctx->log(LOG_ERR, "routing: engine %s fails validation: %llu of %llu CA pairs "
			 "unreachable, %llu looping; to switch LIDs %llu of %llu unreachable, "
			 "%llu looping; first: %s", e->name,
			 (unsigned long long)res->unreachable, (unsigned long long)res->pairs,
			 (unsigned long long)res->loops, (unsigned long long)res->sw_unreachable,
			 (unsigned long long)res->sw_pairs, (unsigned long long)res->sw_loops,
			 res->first_problem);
	} else if (rc == 0 && e->deadlock_free) {
		struct rt_cdg_result cdg;
		if ((rc = rt_cdg_check(ctx, e, state, &cdg)) == -ELOOP)
			ctx->log(LOG_ERR, "routing: engine %s is refused: its routes have a credit "
				 "loop of %u channels: %s", e->name, cdg.cycle_len, cdg.first_cycle);
		res->max_sl = cdg.max_sl;	/* the CDG asked path_sl every route */
	} else if (rc == 0) {
		res->max_sl = rt_path_sls_max(ctx, e, state);
	}
	if (rc == 0)
		rc = check_ar(e, ctx);
	if (rc == 0)
		keep_sls(e, state, ctx, res->max_sl, sls);
	if (rc == 0)
		ctx->log(LOG_INFO, "routing: engine %s: %llu ms validating, %llu ms checking "
			 "credit loops and SLs", e->name, (unsigned long long)(t1 - t0),
			 (unsigned long long)(rt_ms() - t1));
	return rc;
}

static void log_failure(const struct ibsmd_rt_ctx *ctx, const char *name, int rc)
{
	ctx->log(LOG_ERR, "routing: engine %s failed: %s", name, strerror(-rc));
}

/* Run built-in @e on @ctx and validate the result while the engine's state lives. */
static int run_builtin(const struct ibsmd_routing_engine *e, struct ibsmd_rt_ctx *ctx,
		       struct rt_validation *res, struct rt_path_sls *sls)
{
	void *state = NULL;
	int rc = 0;
	uint64_t t0 = rt_ms();

	if (e->setup)
		rc = e->setup(ctx, &state);
	if (rc == 0)
		rc = e->compute_unicast(ctx, state);
	if (rc == 0 && ctx->ar && e->compute_ar)
		rc = e->compute_ar(ctx, state);
	if (rc == 0)
		ctx->log(LOG_INFO, "routing: engine %s: %llu ms computing", e->name,
			 (unsigned long long)(rt_ms() - t0));
	if (rc)
		log_failure(ctx, e->name, rc);
	else
		rc = check_result(e, state, ctx, res, sls);
	if (e->destroy)
		e->destroy(state);
	return rc;
}

struct rt_chain {
	const char **names;
	unsigned n;
	unsigned next;		/* the engine to try next */
	unsigned cur;		/* the plugin running in sb */
	const char *plugin_dir;
	struct rt_plugin_limits lim;
	struct ibsmd_rt_ctx *ctx;
	struct rt_validation *res;
	struct rt_path_sls *sls;	/* where to keep the path SLs, or NULL */
	const struct ibsmd_routing_engine *e;	/* sb's engine */
	struct rt_sandbox *sb;	/* a plugin running, or NULL */
	bool cancelled, done;
	int result;
};

int rt_chain_start(const char *const *names, unsigned n, const char *plugin_dir,
		   const struct rt_plugin_limits *lim, struct ibsmd_rt_ctx *ctx,
		   struct rt_validation *res, struct rt_chain **out)
{
	struct rt_chain *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c || !(c->names = calloc(n + 1, sizeof(*c->names)))) {
		free(c);
		return -ENOMEM;
	}
	memcpy(c->names, names, n * sizeof(*names));
	c->n = n;
	c->plugin_dir = plugin_dir;
	c->lim = lim ? *lim : (struct rt_plugin_limits){ .memory_mb = RT_PLUGIN_MEMORY_MB };
	c->ctx = ctx;
	c->res = res;
	*out = c;
	return 0;
}

/* Engine @i ended with @rc: true when the chain is done (c->result set). */
static bool engine_done(struct rt_chain *c, unsigned i, const struct ibsmd_routing_engine *e,
			int rc)
{
	if (rc == 0) {
		c->ctx->log(LOG_NOTICE, "routing: engine %s routes all %llu CA pairs and %llu "
			    "pairs to switch LIDs", e->name, (unsigned long long)c->res->pairs,
			    (unsigned long long)c->res->sw_pairs);
		c->result = (int)i;
	} else if (rc == -ENOMEM || (rc == -ECANCELED && c->cancelled)) {
		c->result = rc;
	} else {
		if (i + 1 < c->n)
			c->ctx->log(LOG_NOTICE, "routing: trying the next engine, %s",
				    c->names[i + 1]);
		return false;
	}
	c->done = true;
	return true;
}

/* The plugin in c->sb ended with @rc (rt_sandbox_collect()): validate its rows
 * here, with its path_sl answers from the sandbox's table. */
static int plugin_verdict(struct rt_chain *c, int rc)
{
	void *state;

	if (rc == 0) {
		const struct ibsmd_routing_engine *stand_in = rt_sandbox_engine(c->sb, &state);
		rc = check_result(stand_in, state, c->ctx, c->res, c->sls);
	} else if (rc != -ECHILD && rc != -ECANCELED) {	/* those are logged already */
		log_failure(c->ctx, c->e->name, rc);
	}
	rt_sandbox_free(c->sb);
	c->sb = NULL;
	/* the child's shortage, not ours: the chain goes on */
	return rc == -ENOMEM ? -ECHILD : rc;
}

int rt_chain_step(struct rt_chain *c)
{
	if (c->done)
		return c->result;
	if (c->sb) {
		int rc = rt_sandbox_collect(c->sb, c->ctx);
		if (rc == -EAGAIN)
			return rc;
		if (engine_done(c, c->cur, c->e, plugin_verdict(c, rc)))
			return c->result;
	}
	while (!c->cancelled && c->next < c->n) {
		unsigned i = c->next++;
		const struct ibsmd_routing_engine *e = rt_builtin_find(c->names[i]);
		if (e) {
			clear_lfts(c->ctx);
			if (engine_done(c, i, e, run_builtin(e, c->ctx, c->res, c->sls)))
				return c->result;
			continue;
		}
		if (!(e = plugin_load(c->names[i], c->plugin_dir, c->ctx)))
			continue;
		clear_lfts(c->ctx);
		int rc = rt_sandbox_start(e, c->ctx, &c->lim, &c->sb);
		if (rc == 0) {
			c->cur = i;
			c->e = e;
			return -EAGAIN;
		}
		if (rc != -EFBIG)	/* logged already */
			log_failure(c->ctx, e->name, rc);
		if (engine_done(c, i, e, rc == -ENOMEM ? -ECHILD : rc))
			return c->result;
	}
	c->done = true;
	c->result = c->cancelled ? -ECANCELED : -EHOSTUNREACH;
	return c->result;
}

int rt_chain_fd(const struct rt_chain *c)
{
	return c->sb ? rt_sandbox_fd(c->sb) : -1;
}

int rt_chain_remaining_ms(const struct rt_chain *c)
{
	return c->sb ? rt_sandbox_remaining_ms(c->sb) : 0;
}

void rt_chain_cancel(struct rt_chain *c)
{
	c->cancelled = true;
	if (c->sb)
		rt_sandbox_cancel(c->sb);
}

void rt_chain_free(struct rt_chain *c)
{
	if (!c)
		return;
	rt_sandbox_free(c->sb);
	free(c->names);
	free(c);
}

int rt_chain_run_sls(const char *const *names, unsigned n, const char *plugin_dir,
		     const struct rt_plugin_limits *lim, struct ibsmd_rt_ctx *ctx,
		     struct rt_validation *res, struct rt_path_sls *sls)
{
	struct rt_chain *c;
	int rc = rt_chain_start(names, n, plugin_dir, lim, ctx, res, &c);

	if (rc == 0)
		c->sls = sls;	/* the path SLs kept, before the first step */
	while (rc == 0 && (rc = rt_chain_step(c)) == -EAGAIN) {
		struct pollfd p = { .fd = rt_chain_fd(c), .events = POLLIN };
		/* a signal stops the plugin (a failed engine); the chain goes on */
		if (poll(&p, 1, rt_chain_remaining_ms(c)) < 0 && errno == EINTR)
			rt_sandbox_cancel(c->sb);
		rc = 0;
	}
	rt_chain_free(c);
	return rc;
}

int rt_chain_run(const char *const *names, unsigned n, const char *plugin_dir,
		 const struct rt_plugin_limits *lim, struct ibsmd_rt_ctx *ctx,
		 struct rt_validation *res)
{
	return rt_chain_run_sls(names, n, plugin_dir, lim, ctx, res, NULL);
}

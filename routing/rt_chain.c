// SPDX-License-Identifier: MIT
/*
 * rt_chain.c - built-in engines, plugin loading, and the fallback chain.
 *
 * A plugin is a shared object exporting `const struct ibsmd_routing_engine
 * ibsmd_routing_engine`.  It is refused, with the reason logged, when the
 * symbol is missing or its ABI version differs from ours; the chain then moves
 * on.  Loaded plugins stay loaded for the life of the process (their code may
 * be called again on the next sweep).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "routing/rt.h"

static const struct ibsmd_routing_engine *const builtins[] = {
	&rt_minhop_engine,
	&rt_updn_engine,
	&rt_ftree_engine,
	&rt_file_engine,
	&rt_dfsssp_engine,
};

const struct ibsmd_routing_engine *rt_builtin_find(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strcmp(builtins[i]->name, name) == 0)
			return builtins[i];
	return NULL;
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

static void clear_lfts(const struct ibsmd_rt_ctx *ctx)
{
	for (uint32_t n = 0; n < ctx->view->nnodes; n++)
		if (ctx->lft[n])
			memset(ctx->lft[n], IBSMD_NO_PORT, (size_t)ctx->view->max_lid + 1);
}

/* The base LID of the first CA (or router) port cabled to switch @s, or 0. */
static uint16_t first_ca_lid(const struct ibsmd_rt_view *v, uint32_t s)
{
	const struct ibsmd_rt_node *sw = &v->nodes[s];

	for (unsigned p = 1; p <= sw->nports; p++) {
		uint32_t peer = sw->ports[p].peer;
		if (peer == IBSMD_NO_NODE || ibsmd_is_switch(v, peer))
			continue;
		uint16_t lid = v->nodes[peer].ports[sw->ports[p].peer_port].lid;
		if (lid)
			return lid;
	}
	return 0;
}

/*
 * The highest SL @e's path_sl gives a CA -> CA route (0 without the hook).
 * With path_sl_by_switch the first CA of each switch stands for all of its
 * CAs: (switches with CAs) x (CA LIDs) calls; otherwise every CA LID is asked.
 */
static uint8_t max_path_sl(const struct ibsmd_rt_ctx *ctx, const struct ibsmd_routing_engine *e,
			   void *state)
{
	const struct ibsmd_rt_view *v = ctx->view;
	uint8_t max = 0;

	for (uint32_t slid = 1; e->path_sl && slid <= v->max_lid; slid++) {
		uint32_t s = v->lid_node[slid];
		if (s == IBSMD_NO_NODE || ibsmd_is_switch(v, s))
			continue;
		uint32_t sw = v->nodes[s].ports[v->lid_port[slid]].peer;
		if (e->path_sl_by_switch && (!ibsmd_is_switch(v, sw) || first_ca_lid(v, sw) != slid))
			continue;
		for (uint32_t lid = 1; lid <= v->max_lid; lid++) {
			uint32_t d = v->lid_node[lid];
			if (d == IBSMD_NO_NODE || ibsmd_is_switch(v, d))
				continue;
			uint8_t sl = e->path_sl(ctx, state, (uint16_t)slid, (uint16_t)lid) & 0xf;
			max = sl > max ? sl : max;
		}
	}
	return max;
}

/* Run @e on @ctx and validate the result while the engine's state lives. */
static int run_engine(const struct ibsmd_routing_engine *e, struct ibsmd_rt_ctx *ctx,
		      struct rt_validation *res)
{
	void *state = NULL;
	int rc = 0;

	clear_lfts(ctx);
	if (e->setup)
		rc = e->setup(ctx, &state);
	if (rc == 0)
		rc = e->compute_unicast(ctx, state);
	if (rc) {
		ctx->log(LOG_ERR, "routing: engine %s failed: %s", e->name, strerror(-rc));
	} else if ((rc = rt_validate(ctx, res)) == -EHOSTUNREACH) {
		ctx->log(LOG_ERR, "routing: engine %s fails validation: %llu of %llu CA pairs "
			 "unreachable, %llu looping; first: %s", e->name,
			 (unsigned long long)res->unreachable, (unsigned long long)res->pairs,
			 (unsigned long long)res->loops, res->first_problem);
	} else if (rc == 0 && e->deadlock_free) {
		struct rt_cdg_result cdg;
		if ((rc = rt_cdg_check(ctx, e, state, &cdg)) == -ELOOP)
			ctx->log(LOG_ERR, "routing: engine %s is refused: its routes have a credit "
				 "loop of %u channels: %s", e->name, cdg.cycle_len, cdg.first_cycle);
	}
	if (rc == 0)
		res->max_sl = max_path_sl(ctx, e, state);
	if (e->destroy)
		e->destroy(state);
	return rc;
}

int rt_chain_run(const char *const *names, unsigned n, const char *plugin_dir,
		 struct ibsmd_rt_ctx *ctx, struct rt_validation *res)
{
	for (unsigned i = 0; i < n; i++) {
		const struct ibsmd_routing_engine *e = rt_builtin_find(names[i]);
		if (!e)
			e = plugin_load(names[i], plugin_dir, ctx);
		if (!e)
			continue;
		int rc = run_engine(e, ctx, res);
		if (rc == -ENOMEM)
			return rc;
		if (rc) {
			if (i + 1 < n)
				ctx->log(LOG_NOTICE, "routing: trying the next engine, %s", names[i + 1]);
			continue;
		}
		ctx->log(LOG_NOTICE, "routing: engine %s routes all %llu CA pairs", e->name,
			 (unsigned long long)res->pairs);
		return (int)i;
	}
	return -EHOSTUNREACH;
}

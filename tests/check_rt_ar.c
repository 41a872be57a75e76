// SPDX-License-Identifier: MIT
/*
 * check_rt_ar.c - AR groups through the engine API (routing ABI 3,
 * ibsmd/routing.h): ctx->ar filled by compute_ar, in the daemon and across
 * the plugin sandbox, and checked by the chain (routing/rt_ar.c).
 *
 * On the 128-host 3-level radix-8 fat tree, every switch AR-capable with 255
 * groups:
 * - adaptive through the chain fills ctx->ar with exactly the groups its
 *   state holds (rt_adaptive_group), numbered the same on a second run;
 * - the example plugin (ar=1) fills them in its child: they reach the
 *   daemon's ctx->ar, pass the checks, and a leaf's group toward a remote
 *   host is all its up ports;
 * - rt_arbad_plugin's bad groups, each refused with its reason, and the
 *   chain moves on to minhop, whose result leaves ctx->ar empty;
 * - without ctx->ar nothing is asked of compute_ar.
 */
#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_adaptive.h"
#include "routing/rt_ar.h"
#include "tests/check_util.h"
#include "tests/rt_testview.h"

#define CAP 255

static char all_log[1 << 16];

static void log_all(int prio, const char *fmt, ...)
{
	size_t n = strlen(all_log);
	va_list ap;

	(void)prio;
	va_start(ap, fmt);
	if (n < sizeof(all_log) - 2)
		vsnprintf(all_log + n, sizeof(all_log) - n - 1, fmt, ap);
	va_end(ap);
	strcat(all_log, "\n");
}

struct arv {
	struct rtv r;
	struct ibsmd_rt_ar ar;
};

/* The tree with every switch AR-capable, ctx->ar set, @options. */
static void load(struct arv *a, const char *const *options)
{
	ck_assert_int_eq(rtv_load_generated(&a->r, "fattree --levels 3 --radix 8", options), 0);
	uint32_t n = a->r.v.nnodes;
	a->ar.group_cap = CAP;
	a->ar.lid_group = calloc(n, sizeof(*a->ar.lid_group));
	a->ar.groups = calloc(n, sizeof(*a->ar.groups));
	ck_assert(a->ar.lid_group && a->ar.groups);
	for (uint32_t i = 0; i < n; i++) {
		if (!ibsmd_is_switch(&a->r.v, i))
			continue;
		a->ar.lid_group[i] = calloc((size_t)a->r.v.max_lid + 1, sizeof(uint16_t));
		a->ar.groups[i] = calloc(CAP, sizeof(*a->ar.groups[i]));
		ck_assert(a->ar.lid_group[i] && a->ar.groups[i]);
	}
	a->r.ctx.ar = &a->ar;
	a->r.ctx.log = log_all;
	all_log[0] = '\0';
}

static void unload(struct arv *a)
{
	for (uint32_t i = 0; i < a->r.v.nnodes; i++) {
		free(a->ar.lid_group[i]);
		free(a->ar.groups[i]);
	}
	free(a->ar.lid_group);
	free(a->ar.groups);
	rtv_free(&a->r);
}

static const char *plugin(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/tests/.libs/%s.so",
		 getenv("top_builddir") ? getenv("top_builddir") : ".", name);
	return path;
}

static int chain(struct arv *a, const char *first, const char *second)
{
	const char *names[] = { first, second };
	struct rt_validation res;

	return rt_chain_run(names, second ? 2 : 1, "/nonexistent", NULL, &a->r.ctx, &res);
}

START_TEST(adaptive_fills_what_it_computed_and_keeps_numbers)
{
	struct arv a;
	void *state;
	uint64_t groups = 0;

	load(&a, NULL);
	ck_assert_int_eq(chain(&a, "adaptive", NULL), 0);
	ck_assert(rt_ar_any(&a.r.ctx));
	/* the engine again, outside the chain: its state's groups are ctx->ar's */
	struct arv b;
	load(&b, NULL);
	ck_assert_int_eq(rt_adaptive_engine.setup(&b.r.ctx, &state), 0);
	ck_assert_int_eq(rt_adaptive_engine.compute_unicast(&b.r.ctx, state), 0);
	ck_assert_int_eq(rt_adaptive_engine.compute_ar(&b.r.ctx, state), 0);
	for (uint32_t n = 0; n < a.r.v.nnodes; n++) {
		if (!a.ar.lid_group[n])
			continue;
		for (uint16_t lid = 1; lid <= a.r.v.max_lid; lid++) {
			const uint64_t *m = rt_adaptive_group(state, n, lid);
			uint16_t g = a.ar.lid_group[n][lid];
			ck_assert_msg((g != 0) == (m != NULL), "%s LID %u", a.r.v.nodes[n].desc, lid);
			if (m)
				ck_assert_mem_eq(a.ar.groups[n][g - 1], m, 32);
			groups += g != 0;
		}
		/* the second run numbers every group the same */
		ck_assert_mem_eq(a.ar.lid_group[n], b.ar.lid_group[n], (a.r.v.max_lid + 1u) * 2);
		ck_assert_mem_eq(a.ar.groups[n], b.ar.groups[n], CAP * 32u);
	}
	ck_assert_uint_gt(groups, 1000);
	rt_adaptive_engine.destroy(state);
	unload(&b);
	unload(&a);
}
END_TEST

START_TEST(example_plugin_groups_cross_the_sandbox)
{
	static const char *const options[] = { "ar=1", NULL };
	struct arv a;
	unsigned checked = 0;

	load(&a, options);
	ck_assert_int_eq(chain(&a, plugin("rt_example"), NULL), 0);
	ck_assert_msg(strstr(all_log, "dmodk routes all"), "%s", all_log);
	ck_assert(rt_ar_any(&a.r.ctx));
	char why[256];
	ck_assert_int_eq(rt_ar_validate(&a.r.ctx, why, sizeof(why)), 0);
	ck_assert_int_eq(rt_ar_cdg_check(&a.r.ctx), 0);
	/* a leaf (a switch with hosts): toward a host elsewhere, all its up ports */
	const struct ibsmd_rt_view *v = &a.r.v;
	for (uint32_t n = 0; n < v->nnodes; n++) {
		if (!ibsmd_is_switch(v, n) || v->nodes[n].ports[1].peer == IBSMD_NO_NODE ||
		    ibsmd_is_switch(v, v->nodes[n].ports[1].peer))
			continue;
		uint64_t up = 0;
		for (unsigned p = 1; p <= v->nodes[n].nports; p++)
			if (ibsmd_is_switch(v, v->nodes[n].ports[p].peer))
				up |= 1ULL << p;
		for (uint16_t lid = 1; lid <= v->max_lid; lid++) {
			uint32_t h = v->lid_node[lid];
			if (h == IBSMD_NO_NODE || ibsmd_is_switch(v, h) ||
			    v->nodes[h].ports[v->lid_port[lid]].peer == n)
				continue;
			uint16_t g = a.ar.lid_group[n][lid];
			ck_assert_uint_ne(g, 0);
			ck_assert_uint_eq(a.ar.groups[n][g - 1][0], up);
			checked++;
		}
	}
	ck_assert_uint_gt(checked, 1000);
	/* without ar=1 the same plugin leaves the groups empty */
	unload(&a);
	load(&a, NULL);
	ck_assert_int_eq(chain(&a, plugin("rt_example"), NULL), 0);
	ck_assert(!rt_ar_any(&a.r.ctx));
	unload(&a);
}
END_TEST

/* rt_arbad with bad=@what: refused with @expect logged, minhop routes after. */
static void refused(const char *what, const char *expect)
{
	char opt[64];
	const char *options[] = { opt, NULL };
	struct arv a;

	snprintf(opt, sizeof(opt), "bad=%s", what);
	load(&a, options);
	ck_assert_int_eq(chain(&a, plugin("rt_arbad"), NULL), -EHOSTUNREACH);
	ck_assert_msg(strstr(all_log, "engine arbad is refused") && strstr(all_log, expect),
		      "bad=%s: no '%s' in:\n%s", what, expect, all_log);
	all_log[0] = '\0';
	ck_assert_int_eq(chain(&a, plugin("rt_arbad"), "minhop"), 1);
	ck_assert_msg(strstr(all_log, "minhop routes all"), "%s", all_log);
	ck_assert(!rt_ar_any(&a.r.ctx));	/* minhop has no groups: none left over */
	unload(&a);
}

START_TEST(bad_groups_are_refused)
{
	refused("garbage", "past the cap of 255");
	refused("cap", "group 256 past the cap of 255");
	refused("port", "names port 255, which it lacks");
	refused("ca", "which leads to another CA");
	refused("empty", "is empty");
	refused("switchlid", "which is no CA's");
	refused("loop", "make a credit loop");
}
END_TEST

START_TEST(good_groups_pass_with_the_plain_engine_too)
{
	static const char *const options[] = { "bad=none", NULL };
	struct arv a;

	/* bad=none: one legal group (a port to a switch) on one switch: taken */
	load(&a, options);
	ck_assert_int_eq(chain(&a, plugin("rt_arbad"), NULL), 0);
	ck_assert(rt_ar_any(&a.r.ctx));
	/* no ctx->ar: compute_ar is never called, routing as before */
	a.r.ctx.ar = NULL;
	ck_assert_int_eq(chain(&a, plugin("rt_arbad"), NULL), 0);
	a.r.ctx.ar = &a.ar;
	unload(&a);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("rt_ar");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, adaptive_fills_what_it_computed_and_keeps_numbers);
	tcase_add_test(tc, example_plugin_groups_cross_the_sandbox);
	tcase_add_test(tc, bad_groups_are_refused);
	tcase_add_test(tc, good_groups_pass_with_the_plain_engine_too);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

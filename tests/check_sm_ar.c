// SPDX-License-Identifier: MIT
/*
 * check_sm_ar.c - adaptive routing programmed by whole sweeps on the sim
 * (sm/repair/sm_ar.c, the engine adaptive):
 *
 * - the wire: every AR SMP the SM sends to tests/topo/ar-tree.topo (L1 and
 *   S1 do AR, L2 and S2 do not), method, attribute, modifier, path and
 *   payload, in order, against tests/golden/ar-program.txt: one probe each,
 *   Info with group_top and fallback routing, group blocks, AR LFT blocks,
 *   Info read back, Info enabling AR (every field the switch holds written
 *   back as it was: the sim's ageing time 20000 us, its capabilities);
 *   nothing else to the switches without AR (L2, of
 *   Mellanox's VendorID, is asked once and refuses; S2, vendor 0, is never
 *   asked);
 * - a switch that drops the probe unanswered, as ibsim's do, is asked once;
 * - the 128-host 3-level tree with every switch AR-capable: the group tables
 *   and AR LFTs read back from the sim are what the engine computed (the
 *   sweep's routes), default ports are the static LFT, every host reaches
 *   every host; a second sweep sends no AR SMP (group numbers are stable);
 *   after a link to the top level goes, the next sends under half as many
 *   and the tables still match;
 * - an engine without AR groups (ftree) probes nothing, sends nothing of AR;
 * - a restart (a new SM on the same store and the same switches): the store
 *   holds what each switch holds, and the new SM sends no AR Set; where a
 *   switch no longer holds its record (an AR LFT entry another SM changed in
 *   the block the check reads back; AR reset, empty, its LFT kept) that
 *   switch, and only it, is programmed whole, and every table ends right.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_ar.h"
#include "mad/mad_rpc.h"
#include "mad/sim/mad_sim.h"
#include "sm/core/sm_mkey.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/repair/sm_ar.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

static void use_engine(struct sm *sm, const char *engine)
{
	snprintf(sm->cfg.routing[0], sizeof(sm->cfg.routing[0]), "%s", engine);
	sm->cfg.nrouting = 1;
}

/* ---- recording the AR SMPs the SM sends ---- */

static struct mad_transport_ops rec_ops;
static const struct mad_transport_ops *real_ops;
static FILE *rec;

static int rec_send(struct mad_transport *t, const uint8_t mad[MAD_BLOCK_SIZE],
		    const struct mad_addr *to)
{
	struct mad_smp smp;

	if (mad_smp_decode(mad, MAD_BLOCK_SIZE, &smp) == 0 && smp.attr_id >= MAD_ATTR_AR_INFO &&
	    smp.attr_id <= MAD_ATTR_AR_LFT && smp.method != MAD_METHOD_GET_RESP) {
		fprintf(rec, "%s 0x%04x mod 0x%08x path", smp.method == MAD_METHOD_GET ? "Get" : "Set",
			smp.attr_id, smp.attr_mod);
		for (unsigned h = 1; h <= smp.hop_cnt; h++)
			fprintf(rec, "%s%u", h > 1 ? "," : " ", smp.initial_path[h]);
		if (smp.method == MAD_METHOD_SET) {
			unsigned len = SMP_DATA_SIZE;
			while (len > 4 && !smp.data[len - 1])
				len--;
			fputs(" data ", rec);
			for (unsigned i = 0; i < len; i++)
				fprintf(rec, "%02x%s", smp.data[i], i % 4 == 3 && i + 1 < len ? " " : "");
		}
		fputc('\n', rec);
	}
	return real_ops->send(t, mad, to);
}

static void record(struct sm *sm, FILE *f)
{
	real_ops = sm->t->ops;
	rec_ops = *real_ops;
	rec_ops.send = rec_send;
	sm->t->ops = &rec_ops;
	rec = f;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 16);

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(buf);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

START_TEST(wire_format_golden)
{
	struct sm sm;
	char path[300], golden[400];
	struct sim_stats st;

	snprintf(path, sizeof(path), "%s/ar.txt", dbdir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	sm_start_file(&sm, "ar-tree.topo");
	use_engine(&sm, "adaptive");
	record(&sm, f);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	fputs("-- second sweep\n", f);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	fclose(f);
	sm.t->ops = real_ops;	/* fab() knows the sim by its ops */
	sim_get_stats(fab(&sm), &st);
	ck_assert_uint_eq(st.ar_unsupported, 1);	/* L2, once; S2 (vendor 0) never */
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
	snprintf(golden, sizeof(golden), "%s/tests/golden/ar-program.txt",
		 getenv("top_srcdir") ? getenv("top_srcdir") : ".");
	char *got = slurp(path), *want = slurp(golden);
	ck_assert_msg(strcmp(got, want) == 0, "AR SMPs differ from %s:\n%s", golden, got);
	free(got);
	free(want);
}
END_TEST

/* The 128-host tree, every switch marked `ar`, in dbdir; its path. */
static const char *ar_tree(void)
{
	static char path[300];
	char cmd[1024];

	snprintf(path, sizeof(path), "%s/ft3-ar.topo", dbdir);
	snprintf(cmd, sizeof(cmd), "%s/contrib/topogen/ibsmd-topogen fattree --levels 3 "
		 "--radix 8 | sed 's/^Switch.*/& # ar/' > %s",
		 getenv("top_builddir") ? getenv("top_builddir") : ".", path);
	ck_assert_int_eq(system(cmd), 0);
	return path;
}

static uint64_t ar_sets(struct sim_fabric *f)
{
	struct sim_stats st;

	sim_get_stats(f, &st);
	return st.ar_info_sets + st.ar_group_sets + st.ar_lft_sets;
}

START_TEST(groups_read_back_are_the_engines)
{
	struct sm sm;
	char spec[400];
	struct sim_stats st;

	snprintf(spec, sizeof(spec), "sim:%s", ar_tree());
	sm_start(&sm, spec);
	use_engine(&sm, "adaptive");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	struct sim_fabric *f = fab(&sm);
	assert_subnet_up(f);
	ck_assert_uint_gt(assert_ar_tables_match(&sm), 80 * 100);	/* ~all remote hosts */
	sim_get_stats(f, &st);
	ck_assert_uint_eq(st.ar_unsupported, 0);
	uint64_t first = ar_sets(f);
	/* again: the engine numbers the groups the same, nothing is sent */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_uint_eq(ar_sets(f), first);
	/* a link between the second level and the top gone: only what changed */
	const struct topo *t = sim_fabric_topo(f);
	uint32_t a = 0;
	while (t->nodes[a].name[0] != 'A')
		a++;
	ck_assert_int_eq(sim_link_set(f, a, t->nodes[a].nports, false), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	uint64_t patch = ar_sets(f) - first;
	ck_assert_uint_gt(patch, 0);
	ck_assert_uint_lt(patch, first / 2);
	assert_subnet_up(f);
	assert_ar_tables_match(&sm);
	assert_ar_stored(&sm);
	sm_close(&sm);
}
END_TEST

/* Issue 20 items 4 and 5 on the 128-host tree, every switch AR-capable:
 * - the switches come with what a previous SM left: no_fallback set (a plain
 *   LFT Set refused), an ageing time, AR off on given transports, is4_mode;
 *   the first sweep clears no_fallback (so its LFT blocks are taken), brings
 *   the subnet up with AR on everywhere, and every field it does not set
 *   reads back as the switch had it;
 * - a link to the top level goes: the heavy sweep's plain LFT blocks turn
 *   AR off on the switches they reach (no_fallback 0, as the sim models the
 *   layout's rule), and the sweep turns it on again on exactly those: AR is
 *   on everywhere when it ends.  Before, AR stayed off, the cache saying
 *   otherwise. */
START_TEST(ar_stays_on_and_keeps_what_it_does_not_set)
{
	struct sm sm;
	char spec[400];
	struct sim_stats st0, st1, st2;

	snprintf(spec, sizeof(spec), "sim:%s", ar_tree());
	sm_start(&sm, spec);
	use_engine(&sm, "adaptive");
	struct sim_fabric *f = fab(&sm);
	const struct topo *t = sim_fabric_topo(f);
	unsigned switches = 0;
	for (uint32_t n = 0; n < t->n; n++) {
		struct mad_ar_info ai;
		if (sim_get_ar_info(f, n, &ai))
			continue;
		ai.no_fallback = true;
		ai.ageing_time = 1000 + n;
		ai.by_transport_disable = 0x5;
		ai.is4_mode = true;
		ck_assert_int_eq(sim_set_ar_info(f, n, &ai), 0);
		switches++;
	}
	ck_assert_uint_gt(switches, 0);
	sim_get_stats(f, &st0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	assert_subnet_up(f);
	assert_ar_tables_match(&sm);	/* AR on, every table the engine's */
	for (uint32_t n = 0; n < t->n; n++) {
		struct mad_ar_info ai;
		if (sim_get_ar_info(f, n, &ai))
			continue;
		ck_assert(ai.enable && !ai.no_fallback && ai.is4_mode && ai.by_transp_cap);
		ck_assert_uint_eq(ai.ageing_time, 1000 + n);
		ck_assert_uint_eq(ai.by_transport_disable, 0x5);
		ck_assert_uint_eq(ai.string_width_cap, 1);
	}

	uint32_t a = 0;
	while (t->nodes[a].name[0] != 'A')
		a++;
	ck_assert_int_eq(sim_link_set(f, a, t->nodes[a].nports, false), 0);
	sim_get_stats(f, &st1);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(f, &st2);
	ck_assert_uint_gt(st2.lft_block_sets, st1.lft_block_sets);
	uint64_t turned_off = st2.ar_lft_turned_off - st1.ar_lft_turned_off;
	ck_assert_uint_gt(turned_off, 0);	/* the test can fail */
	ck_assert_uint_ge(st2.ar_info_sets - st1.ar_info_sets, turned_off);
	assert_subnet_up(f);
	assert_ar_tables_match(&sm);
	for (uint32_t n = 0; n < t->n; n++) {
		struct mad_ar_info ai;
		if (sim_get_ar_info(f, n, &ai) == 0)
			ck_assert_uint_eq(ai.ageing_time, 1000 + n);
	}
	sm_close(&sm);
}
END_TEST

START_TEST(silent_switch_asked_once)
{
	struct sm sm;
	struct sim_stats st;

	sm_start_file(&sm, "ar-tree.topo");
	use_engine(&sm, "adaptive");
	const struct topo *t = sim_fabric_topo(fab(&sm));
	uint32_t l2 = 0;
	while (strcmp(t->nodes[l2].name, "L2"))
		l2++;
	ck_assert_int_eq(sim_node_set_quirks(fab(&sm), l2, SIM_QUIRK_SILENT_VENDOR), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(fab(&sm), &st);
	ck_assert_uint_eq(st.vendor_dropped, 1u + sm.cfg.retries);	/* one probe, its retries */
	ck_assert_uint_eq(st.ar_unsupported, 0);
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

START_TEST(engine_without_groups_sends_no_ar)
{
	struct sm sm;
	struct sim_stats st;

	sm_start_file(&sm, "ar-tree.topo");
	use_engine(&sm, "ftree");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(fab(&sm), &st);
	ck_assert_uint_eq(st.ar_unsupported, 0);
	ck_assert_uint_eq(st.ar_info_sets + st.ar_group_sets + st.ar_lft_sets, 0);
	assert_subnet_up(fab(&sm));
	sm_close(&sm);
}
END_TEST

/* The 128-host AR tree as a fabric of the test's own, outliving its SMs. */
static struct sim_fabric *own_ar_tree(void)
{
	struct sim_fabric *f;
	char err[256];

	ck_assert_msg(sim_fabric_load(ar_tree(), &f, err, sizeof(err)) == 0, "%s", err);
	return f;
}

/* Bring @f up with a new SM (engine adaptive) on the test's store. */
static void bring_up(struct sm *sm, struct sim_fabric *f)
{
	sm_start_on(sm, f);
	use_engine(sm, "adaptive");
	ck_assert_int_eq(sm_sweep_heavy(sm), 0);
	assert_subnet_up(f);
	assert_ar_tables_match(sm);
}

START_TEST(restart_sends_no_ar_set)
{
	struct sm sm;
	struct sim_fabric *f = own_ar_tree();

	bring_up(&sm, f);
	assert_ar_stored(&sm);
	uint64_t first = ar_sets(f);
	ck_assert_uint_gt(first, 0);
	sm_close(&sm);

	bring_up(&sm, f);	/* the daemon restarted: nothing of AR to send */
	ck_assert_uint_eq(ar_sets(f), first);
	assert_ar_stored(&sm);
	sm_close(&sm);
	sim_fabric_free(f);
}
END_TEST

/* The highest LID switch @n of @sm's routes binds to a group (0: none). */
static uint16_t last_bound(const struct sm *sm, uint32_t n)
{
	for (uint16_t lid = sm->routes.max_lid; lid > 0; lid--)
		if (sm->routes.ar.lid_group[n][lid])
			return lid;
	return 0;
}

static void on_rogue_set(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp)
{
	(void)req;
	(void)resp;
	*(int *)ctx = err;
}

/* As another SM would: switch @n's @lid made static, its default port kept. */
static void rogue_unbind(struct sm *sm, uint32_t n, uint16_t lid)
{
	uint16_t b = lid / MAD_AR_LFT_PER_BLOCK;
	uint8_t data[SMP_DATA_SIZE];
	struct mad_ar_lft_block lb;
	int err = 1;

	ck_assert_int_eq(sm_ar_lft_block(&sm->routes, n, b, data), 0);
	ck_assert_int_eq(mad_ar_lft_decode(data, &lb), 0);
	lb.e[lid % MAD_AR_LFT_PER_BLOCK].state = MAD_AR_STATIC;
	lb.e[lid % MAD_AR_LFT_PER_BLOCK].group = 0;
	ck_assert_int_eq(mad_ar_lft_encode(&lb, data), 0);
	ck_assert_int_eq(mad_rpc_submit_dr(sm->rpc, MAD_METHOD_SET, MAD_ATTR_AR_LFT,
					   mad_ar_lft_mod(b), &sm->fabric.topo.nodes[n].path,
					   sm_mkey_for(&sm->fabric, n, 0), data, on_rogue_set, &err),
			 0);
	ck_assert_int_eq(mad_rpc_drain(sm->rpc), 0);
	ck_assert_int_eq(err, 0);
}

START_TEST(restart_finds_stale_records)
{
	struct sm sm;
	struct sim_fabric *f = own_ar_tree();
	struct sim_stats before, after;
	uint32_t changed[2], nchanged = 0;

	bring_up(&sm, f);
	for (uint32_t n = 0; nchanged < 2 && n < sm.fabric.topo.n; n++)
		if (sm.fabric.topo.nodes[n].type == MAD_NODE_SWITCH && last_bound(&sm, n))
			changed[nchanged++] = n;
	ck_assert_uint_eq(nchanged, 2);
	rogue_unbind(&sm, changed[0], last_bound(&sm, changed[0]));
	uint32_t s = topo_find_guid(sim_fabric_topo(f), sm.fabric.topo.nodes[changed[1]].guid);
	uint16_t max_lid = sm.routes.max_lid;
	sm_close(&sm);
	ck_assert_int_eq(sim_node_set_ar(f, s, false), 0);	/* AR reset: empty */
	ck_assert_int_eq(sim_node_set_ar(f, s, true), 0);

	sim_get_stats(f, &before);
	bring_up(&sm, f);
	sim_get_stats(f, &after);
	/* the two switches whole, the others nothing */
	ck_assert_uint_eq(sm.routes.max_lid, max_lid);
	ck_assert_uint_eq(after.ar_lft_sets - before.ar_lft_sets,
			  2 * (max_lid / MAD_AR_LFT_PER_BLOCK + 1));
	ck_assert_uint_gt(after.ar_group_sets - before.ar_group_sets, 0);
	assert_ar_stored(&sm);
	sm_close(&sm);
	sim_fabric_free(f);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("sm_ar");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, wire_format_golden);
	tcase_add_test(tc, groups_read_back_are_the_engines);
	tcase_add_test(tc, ar_stays_on_and_keeps_what_it_does_not_set);
	tcase_add_test(tc, silent_switch_asked_once);
	tcase_add_test(tc, engine_without_groups_sends_no_ar);
	tcase_add_test(tc, restart_sends_no_ar_set);
	tcase_add_test(tc, restart_finds_stale_records);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

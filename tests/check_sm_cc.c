// SPDX-License-Identifier: MIT
/*
 * check_sm_cc.c - the congestion control pass (sm/cc/) on the sim backend,
 * twoswitch.topo (2 switches, 5 CAs, one of them dual-ported: 8 agents):
 * the tables read back equal to the configured ones, a second pass sends
 * no Set, after a second heavy sweep no MAD at all (a node whose port
 * bounced, a new term as MASTER: read again), a changed configuration sends
 * only the difference (Sets alone after a sweep), a node holding
 * another CC_Key is counted as refused and gets nothing more, a node
 * without an agent gets CongestionInfo only, and the store keeps it all.
 */
#include <check.h>
#include <string.h>

#include "db/db.h"
#include "sm/cc/sm_cc.h"
#include "sm/core/sm_cc_want.h"
#include "sm/sweep/sm_sweep.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"

static struct sm sm;

static void set(const char *key, const char *value)
{
	char err[256] = "";

	ck_assert_msg(sm_config_set(&sm.cfg, key, value, err, sizeof(err)) == 0, "%s", err);
}

static void setup(void)
{
	fixture_setup();
	sm_start_file(&sm, "twoswitch.topo");
	set("congestion_control.enable", "1");
	set("congestion_control.sw_cong_setting_control_map", "0x1f");
	set("congestion_control.sw_cong_setting_victim_mask", "0x1e");
	set("congestion_control.sw_cong_setting_credit_mask", "0x60");
	set("congestion_control.sw_cong_setting_threshold", "7");
	set("congestion_control.sw_cong_setting_packet_size", "8");
	set("congestion_control.sw_cong_setting_credit_starvation_threshold", "3");
	set("congestion_control.sw_cong_setting_credit_starvation_return_delay", "2:100");
	set("congestion_control.sw_cong_setting_marking_rate", "10");
	set("congestion_control.ca_cong_setting_port_control", "1");
	set("congestion_control.ca_cong_setting_control_map", "0x3");
	set("congestion_control.ca_cong_setting_ccti_timer", "0:1000, 1:2000");
	set("congestion_control.ca_cong_setting_ccti_increase", "0:1,1:2");
	set("congestion_control.ca_cong_setting_trigger_threshold", "0:3,1:4");
	set("congestion_control.ca_cong_setting_ccti_min", "1:5");
	set("congestion_control.cct", "0:0,1:100,2:200,3:300");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
}

static void teardown(void)
{
	sm_close(&sm);
	fixture_teardown();
}

static struct sm_cc_stats pass(void)
{
	struct sm_cc_stats st;

	ck_assert_int_eq(sm_cc_pass(&sm, &st), 0);
	ck_assert_uint_eq(st.agents, 8);
	return st;
}

/* Every node of the sim holds what is configured. */
static void assert_tables_configured(void)
{
	struct sm_cc_want w;
	const struct topo *t = sim_fabric_topo(fab(&sm));

	ck_assert_int_eq(sm_cc_want_build(&sm.cfg, &w), 0);
	for (uint32_t n = 0; n < t->n; n++) {
		if (t->nodes[n].type == MAD_NODE_SWITCH) {
			struct mad_cc_switch_setting sw;
			ck_assert_int_eq(sim_cc_get_switch(fab(&sm), n, &sw), 0);
			ck_assert_msg(sm_cc_switch_same(&sw, &w.sw), "%s", t->nodes[n].name);
			ck_assert_uint_eq(sw.threshold, sm.cfg.cc_sw_threshold);
			continue;
		}
		for (uint8_t p = 1; p <= t->nodes[n].nports; p++) {
			struct mad_cc_ca_setting ca;
			struct mad_cc_cct_entry cct[SIM_CC_CCT_ENTRIES];
			uint16_t limit;
			ck_assert_int_eq(sim_cc_get_ca(fab(&sm), n, p, &ca, &limit, cct), 0);
			ck_assert_msg(sm_cc_ca_same(&ca, &w.ca), "%s/%u", t->nodes[n].name, p);
			ck_assert_uint_eq(limit, 3);
			ck_assert_uint_eq(cct[3].multiplier, 300);
			ck_assert_uint_eq(cct[2].shift, 2);
			ck_assert_uint_eq(ca.sl[1].ccti_timer, 2000);
		}
	}
}

START_TEST(tables_read_back_configured)
{
	struct sm_cc_stats st = pass();
	struct sim_stats s0, s1;

	ck_assert_uint_eq(st.answered, 8);
	ck_assert_uint_eq(st.configured, 8);
	ck_assert_uint_eq(st.errors, 0);
	/* 2 switches: SwitchCongestionSetting; 6 CA ports: CA setting and CCT */
	ck_assert_uint_eq(st.sent, 2 + 6 * 2);
	ck_assert_uint_eq(st.refused, 0);
	assert_tables_configured();
	/* a second pass reads and sends no Set */
	sim_get_stats(fab(&sm), &s0);
	st = pass();
	sim_get_stats(fab(&sm), &s1);
	ck_assert_uint_eq(st.sent, 0);
	ck_assert_uint_eq(s1.cc_sets, s0.cc_sets);
	ck_assert_uint_eq(st.gmps, 2 * 4 + 6 * 5);	/* ClassPortInfo, Info, key, settings, one
						 * CCT block */
}
END_TEST

static int count_state(void *arg, const struct db_cc_node *r)
{
	const char **want = arg;

	if (strcmp(r->state, want[0]) == 0)
		want[1]++;
	return 0;
}

/* The MADs the sim's agents answered since @s0. */
static uint64_t cc_in_since(const struct sim_stats *s0)
{
	struct sim_stats s1;

	sim_get_stats(fab(&sm), &s1);
	return s1.cc_in - s0->cc_in;
}

START_TEST(second_sweep_reads_nothing)
{
	struct sim_stats s0;

	pass();
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(fab(&sm), &s0);
	struct sm_cc_stats st = pass();
	ck_assert_uint_eq(st.gmps, 0);
	ck_assert_uint_eq(cc_in_since(&s0), 0);
	ck_assert_uint_eq(st.known, 8);
	ck_assert_uint_eq(st.configured, 8);
	/* the rows are carried over, as smquery reads them */
	sm_store_queue_drain_locked(&sm.store);
	const char *configured[2] = { "configured", NULL };
	ck_assert_int_eq(db_cc_each(sm.db, count_state, configured), 0);
	ck_assert_ptr_eq(configured[1], (const char *)8);
	/* H1's port bounces: H1 and the switch at the other end (its port came
	 * up from INIT too, as all of them do when it restarts) are read again */
	uint32_t h1 = sim_node_named(&sm, "H1");
	ck_assert_int_eq(sim_link_set(fab(&sm), h1, 1, false), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	ck_assert_int_eq(sim_link_set(fab(&sm), h1, 1, true), 0);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sim_get_stats(fab(&sm), &s0);
	st = pass();
	ck_assert_uint_eq(st.gmps, 5 + 4);	/* ClassPortInfo, Info, key, CA setting, CCT
					 * block; ClassPortInfo, Info, key, switch
					 * setting */
	ck_assert_uint_eq(cc_in_since(&s0), 5 + 4);
	ck_assert_uint_eq(st.known, 6);
	ck_assert_uint_eq(st.configured, 8);
	/* a new term as MASTER trusts nothing */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	sm.master_terms++;
	st = pass();
	ck_assert_uint_eq(st.known, 0);
	ck_assert_uint_eq(st.gmps, 2 * 4 + 6 * 5);
}
END_TEST

START_TEST(changed_config_sends_the_difference)
{
	struct sm_cc_stats st = pass();
	struct sim_stats s0, s1;

	set("congestion_control.sw_cong_setting_threshold", "9");
	sim_get_stats(fab(&sm), &s0);
	st = pass();
	sim_get_stats(fab(&sm), &s1);
	ck_assert_uint_eq(st.sent, 2);	/* the switches' setting, nothing of the CAs */
	ck_assert_uint_eq(s1.cc_sets - s0.cc_sets, 2);
	assert_tables_configured();
	/* after a sweep, the agents are known: a changed CCT entry is one Set per
	 * CA port and nothing else */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	set("congestion_control.cct", "0:0,1:100,2:200,3:301");
	sim_get_stats(fab(&sm), &s0);
	st = pass();
	ck_assert_uint_eq(st.known, 8);
	ck_assert_uint_eq(st.gmps, 6);
	ck_assert_uint_eq(cc_in_since(&s0), 6);
	ck_assert_uint_eq(st.sent, 6);
	ck_assert_uint_eq(st.configured, 8);
	set("congestion_control.cct", "0:0,1:100,2:200,3:300");
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	st = pass();
	ck_assert_uint_eq(st.gmps, 6);
	assert_tables_configured();
	/* a changed CC_Key: every agent read again */
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	set("congestion_control.cc_key", "0x42");
	st = pass();
	ck_assert_uint_eq(st.known, 0);
	ck_assert_uint_ge(st.gmps, 8 * 3);
	/* and changed again: the agents hold 0x42 and drop what carries 0x43;
	 * asked again under 0x42, each takes 0x43 from a Set under 0x42 */
	struct mad_cc_key_info ki;
	ck_assert_int_eq(sim_cc_get_key(fab(&sm), sim_node_named(&sm, "H1"), &ki), 0);
	ck_assert_uint_eq(ki.cc_key, 0x42);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	set("congestion_control.cc_key", "0x43");
	st = pass();
	ck_assert_uint_eq(st.key_refused, 0);
	ck_assert_uint_eq(st.configured, 8);
	ck_assert_int_eq(sim_cc_get_key(fab(&sm), sim_node_named(&sm, "H1"), &ki), 0);
	ck_assert_uint_eq(ki.cc_key, 0x43);
	ck_assert_int_eq(sim_cc_get_key(fab(&sm), sim_node_named(&sm, "SA"), &ki), 0);
	ck_assert_uint_eq(ki.cc_key, 0x43);
	/* a longer table: the CAs get the second block and the first's new limit */
	set("congestion_control.cct", "0:0,1:100,2:200,3:300,0:1,0:2,0:3,0:4,0:5,0:6,0:7,0:8,"
	    "0:9,0:10,0:11,0:12,0:13,0:14,0:15,0:16,0:17,0:18,0:19,0:20,0:21,0:22,0:23,0:24,"
	    "0:25,0:26,0:27,0:28,0:29,0:30,0:31,0:32,0:33,0:34,0:35,0:36,0:37,0:38,0:39,0:40,"
	    "0:41,0:42,0:43,0:44,0:45,0:46,0:47,0:48,0:49,0:50,0:51,0:52,0:53,0:54,0:55,0:56,"
	    "0:57,0:58,0:59,0:60,0:61");
	st = pass();
	ck_assert_uint_eq(st.sent, 6 * 2);
	ck_assert_uint_eq(st.errors, 0);
}
END_TEST

START_TEST(wrong_key_refused_no_agent_silent)
{
	uint32_t h1 = sim_node_named(&sm, "H1");
	struct mad_cc_key_info ki;

	ck_assert_int_eq(sim_cc_set_key(fab(&sm), h1, 0x99), 0);
	ck_assert_int_eq(sim_node_set_quirks(fab(&sm), sim_node_named(&sm, "H2"), SIM_QUIRK_NO_CC),
			 0);
	struct sm_cc_stats st = pass();
	ck_assert_uint_eq(st.answered, 7);
	ck_assert_uint_eq(st.key_refused, 1);
	ck_assert_uint_eq(st.configured, 6);
	ck_assert_uint_ge(st.refused, 1);
	ck_assert_int_eq(sim_cc_get_key(fab(&sm), h1, &ki), 0);
	ck_assert_uint_ge(ki.violations, 1);
	/* nothing configured reached H1 */
	struct mad_cc_ca_setting ca;
	struct mad_cc_cct_entry cct[SIM_CC_CCT_ENTRIES];
	uint16_t limit;
	ck_assert_int_eq(sim_cc_get_ca(fab(&sm), h1, 1, &ca, &limit, cct), 0);
	ck_assert_uint_eq(ca.port_control, 0);
	/* the second pass: the silent node gets its ClassPortInfo Get and
	 * nothing else, the key-refused one ClassPortInfo, CongestionInfo and
	 * the key Get */
	st = pass();
	ck_assert_uint_eq(st.gmps, 2 * 4 + 4 * 5 + 1 + 3);
	/* the store, as smquery reads it */
	sm_store_queue_drain_locked(&sm.store);
	const char *no_agent[2] = { "no-agent", NULL }, *refused[2] = { "key-refused", NULL };
	ck_assert_int_eq(db_cc_each(sm.db, count_state, no_agent), 0);
	ck_assert_int_eq(db_cc_each(sm.db, count_state, refused), 0);
	ck_assert_ptr_eq(no_agent[1], (const char *)1);
	ck_assert_ptr_eq(refused[1], (const char *)1);
	uint64_t sent, ref;
	ck_assert_int_eq(db_cc_totals(sm.db, &sent, &ref), 0);
	ck_assert_uint_eq(sent, 2 + 4 * 2);	/* H1 and H2 got none */
	ck_assert_uint_ge(ref, 2);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_cc");
	TCase *tc = tcase_create("pass");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, tables_read_back_configured);
	tcase_add_test(tc, second_sweep_reads_nothing);
	tcase_add_test(tc, changed_config_sends_the_difference);
	tcase_add_test(tc, wrong_key_refused_no_agent_silent);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

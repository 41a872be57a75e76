// SPDX-License-Identifier: MIT
/*
 * check_mad_sim_cc.c - the sim's congestion control agent (mad_sim_cc.c) as
 * a manager meets it, GMPs sent through the rpc layer of a daemon that
 * brought twoswitch.topo up: CongestionInfo, Sets read back (through the
 * agent and the sim's inspection), the CC_Key discarding and counting, the
 * ranges refused with 0x1C and nothing changed, attributes of the other
 * node type refused, a node without an agent (SIM_QUIRK_NO_CC, cc=0) silent.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "mad/mad_cc.h"
#include "mad/mad_rpc.h"
#include "sm/sweep/sm_sweep.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"
#include "sm/sm_life.h"

static struct sm sm;

static void setup(void)
{
	sm_fixture_swept(&sm, "twoswitch.topo");
}

static void teardown(void)
{
	sm_fixture_stop(&sm);
}

struct answer {
	int err;
	bool done;
	struct mad_cc cc;
};

static void answered(void *ctx, int err, const uint8_t *req, const uint8_t *resp)
{
	struct answer *a = ctx;

	(void)req;
	a->err = err;
	a->done = true;
	if (resp)
		ck_assert_int_eq(mad_cc_decode(resp, MAD_BLOCK_SIZE, &a->cc), 0);
}

static uint16_t lid_of(const char *name, uint8_t port)
{
	struct mad_port_info pi;

	ck_assert_int_eq(sim_get_port_info(fab(&sm), sim_node_named(&sm, name), port, &pi), 0);
	return pi.lid;
}

/* One CC request to port @port of @name; the error, the answer in @a. */
static int cc_call(const char *name, uint8_t port, uint8_t method, uint16_t attr, uint32_t mod,
		   uint64_t key, const uint8_t *data, struct answer *a)
{
	struct mad_cc req;
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr to = { .lid = lid_of(name, port), .qpn = MAD_CC_QPN };

	memset(a, 0, sizeof(*a));
	mad_cc_init(&req, method, attr, key);
	req.attr_mod = mod;
	if (data)
		memcpy(req.data, data, MAD_CC_DATA_SIZE);
	mad_cc_encode(&req, buf);
	ck_assert_int_eq(mad_rpc_submit_gmp(sm.rpc, buf, &to, answered, a), 0);
	ck_assert_int_eq(mad_rpc_drain(sm.rpc), 0);
	ck_assert(a->done);
	return a->err;
}

START_TEST(info_answers)
{
	struct answer a;
	struct mad_cc_info ci;

	ck_assert_int_eq(cc_call("H0", 1, MAD_METHOD_GET, MAD_CC_ATTR_INFO, 0, 0, NULL, &a), 0);
	mad_cc_info_decode(a.cc.data, &ci);
	ck_assert_uint_eq(ci.control_table_cap, SIM_CC_CCT_BLOCKS);
	ck_assert_uint_eq(a.cc.method, MAD_METHOD_GET_RESP);
	ck_assert_int_eq(cc_call("SA", 0, MAD_METHOD_GET, MAD_CC_ATTR_INFO, 0, 0, NULL, &a), 0);
	mad_cc_info_decode(a.cc.data, &ci);
	ck_assert_uint_eq(ci.info, MAD_CC_INFO_CREDIT_STARVATION);
	ck_assert_uint_eq(ci.control_table_cap, 0);
	/* CongestionInfo is read only; another class version is refused */
	ck_assert_int_eq(cc_call("H0", 1, MAD_METHOD_SET, MAD_CC_ATTR_INFO, 0, 0, NULL, &a),
			 -EREMOTEIO);
	ck_assert_uint_eq(a.cc.status, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
}
END_TEST

START_TEST(ca_setting_and_cct_read_back)
{
	uint8_t data[MAD_CC_DATA_SIZE];
	struct answer a;
	struct mad_cc_ca_setting ca = { .port_control = 1, .control_map = 0x0003 }, got;
	struct mad_cc_cct cct = { .ccti_limit = 127 };
	struct mad_cc_cct_entry entries[SIM_CC_CCT_ENTRIES];
	uint16_t limit;
	uint32_t hd = sim_node_named(&sm, "HD");

	ca.sl[0] = (struct mad_cc_ca_entry){ 10, 1, 2, 3 };
	ca.sl[1] = (struct mad_cc_ca_entry){ 20, 4, 5, 6 };
	ca.sl[2] = (struct mad_cc_ca_entry){ 30, 7, 8, 9 };	/* not in the map */
	mad_cc_ca_setting_encode(&ca, data);
	ck_assert_int_eq(cc_call("HD", 2, MAD_METHOD_SET, MAD_CC_ATTR_CA_SETTING, 0, 0, data, &a),
			 0);
	ck_assert_int_eq(sim_cc_get_ca(fab(&sm), hd, 2, &got, &limit, entries), 0);
	ck_assert_uint_eq(got.port_control, 1);
	ck_assert_uint_eq(got.sl[1].ccti_timer, 20);
	ck_assert_uint_eq(got.sl[1].ccti_min, 6);
	ck_assert_uint_eq(got.sl[2].ccti_timer, 0);	/* its map bit was clear */
	/* the other port of the same CA is its own */
	ck_assert_int_eq(sim_cc_get_ca(fab(&sm), hd, 1, &got, &limit, entries), 0);
	ck_assert_uint_eq(got.port_control, 0);

	cct.entry[5] = (struct mad_cc_cct_entry){ .shift = 1, .multiplier = 1000 };
	mad_cc_cct_encode(&cct, data);
	ck_assert_int_eq(cc_call("HD", 2, MAD_METHOD_SET, MAD_CC_ATTR_CCT, 1, 0, data, &a), 0);
	ck_assert_int_eq(cc_call("HD", 2, MAD_METHOD_GET, MAD_CC_ATTR_CCT, 1, 0, NULL, &a), 0);
	struct mad_cc_cct back;
	mad_cc_cct_decode(a.cc.data, &back);
	ck_assert_uint_eq(back.ccti_limit, 127);
	ck_assert_uint_eq(back.entry[5].multiplier, 1000);
	ck_assert_int_eq(sim_cc_get_ca(fab(&sm), hd, 2, &got, &limit, entries), 0);
	ck_assert_uint_eq(limit, 127);
	ck_assert_uint_eq(entries[64 + 5].shift, 1);
}
END_TEST

START_TEST(ranges_refused)
{
	uint8_t data[MAD_CC_DATA_SIZE];
	struct answer a;
	struct mad_cc_cct cct = { .ccti_limit = SIM_CC_CCT_ENTRIES };
	struct mad_cc_ca_setting ca = { .port_control = 2 };
	struct mad_cc_switch_setting sw = { .control_map = MAD_CC_SW_MAP_VICTIM };
	uint32_t sa = sim_node_named(&sm, "SA");
	struct sim_stats st;

	/* a CCTI_Limit past the table, a block beyond ControlTableCap */
	mad_cc_cct_encode(&cct, data);
	ck_assert_int_eq(cc_call("H0", 1, MAD_METHOD_SET, MAD_CC_ATTR_CCT, 0, 0, data, &a),
			 -EREMOTEIO);
	ck_assert_uint_eq(a.cc.status, MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(cc_call("H0", 1, MAD_METHOD_GET, MAD_CC_ATTR_CCT, SIM_CC_CCT_BLOCKS, 0,
				 NULL, &a), -EREMOTEIO);
	ck_assert_uint_eq(a.cc.status, MAD_STATUS_INVALID_FIELD);
	/* a reserved Port_Control bit; a CCTI_Min past the table */
	mad_cc_ca_setting_encode(&ca, data);
	ck_assert_int_eq(cc_call("H0", 1, MAD_METHOD_SET, MAD_CC_ATTR_CA_SETTING, 0, 0, data, &a),
			 -EREMOTEIO);
	ca = (struct mad_cc_ca_setting){ .control_map = 0x8000 };
	ca.sl[15].ccti_min = 200;
	mad_cc_ca_setting_encode(&ca, data);
	ck_assert_int_eq(cc_call("H0", 1, MAD_METHOD_SET, MAD_CC_ATTR_CA_SETTING, 0, 0, data, &a),
			 -EREMOTEIO);
	/* a victim mask naming port 9 of an 8-port switch; a reserved map bit */
	sw.victim_mask[MAD_CC_PORT_MASK_BYTES - 2] = 0x02;
	mad_cc_switch_setting_encode(&sw, data);
	ck_assert_int_eq(cc_call("SA", 0, MAD_METHOD_SET, MAD_CC_ATTR_SWITCH_SETTING, 0, 0, data,
				 &a), -EREMOTEIO);
	ck_assert_uint_eq(a.cc.status, MAD_STATUS_INVALID_FIELD);
	sw = (struct mad_cc_switch_setting){ .control_map = 0x20 };
	mad_cc_switch_setting_encode(&sw, data);
	ck_assert_int_eq(cc_call("SA", 0, MAD_METHOD_SET, MAD_CC_ATTR_SWITCH_SETTING, 0, 0, data,
				 &a), -EREMOTEIO);
	/* a port block beyond the switch; the other node type's attributes */
	ck_assert_int_eq(cc_call("SA", 0, MAD_METHOD_GET, MAD_CC_ATTR_SWITCH_PORT_SETTING, 1, 0,
				 NULL, &a), -EREMOTEIO);
	ck_assert_uint_eq(a.cc.status, MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(cc_call("SA", 0, MAD_METHOD_GET, MAD_CC_ATTR_CA_SETTING, 0, 0, NULL, &a),
			 -EREMOTEIO);
	ck_assert_uint_eq(a.cc.status, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	ck_assert_int_eq(cc_call("H0", 1, MAD_METHOD_GET, MAD_CC_ATTR_SWITCH_SETTING, 0, 0, NULL,
				 &a), -EREMOTEIO);
	ck_assert_uint_eq(a.cc.status, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	/* nothing of it changed anything */
	ck_assert_int_eq(sim_cc_get_switch(fab(&sm), sa, &sw), 0);
	ck_assert_uint_eq(sw.control_map, 0);
	sim_get_stats(fab(&sm), &st);
	ck_assert_uint_eq(st.cc_sets, 0);
	ck_assert_uint_ge(st.cc_refused, 9);
}
END_TEST

START_TEST(wrong_key_discarded_and_counted)
{
	uint8_t data[MAD_CC_DATA_SIZE];
	struct answer a;
	struct mad_cc_key_info ki;
	struct mad_cc_ca_setting ca = { .port_control = 1 };
	uint32_t h1 = sim_node_named(&sm, "H1");

	ck_assert_int_eq(sim_cc_set_key(fab(&sm), h1, 0x5555), 0);
	mad_cc_ca_setting_encode(&ca, data);
	ck_assert_int_eq(cc_call("H1", 1, MAD_METHOD_SET, MAD_CC_ATTR_CA_SETTING, 0, 0, data, &a),
			 -ETIMEDOUT);
	ck_assert_int_eq(cc_call("H1", 1, MAD_METHOD_GET, MAD_CC_ATTR_KEY_INFO, 0, 0x1234, NULL,
				 &a), -ETIMEDOUT);
	ck_assert_int_eq(sim_cc_get_key(fab(&sm), h1, &ki), 0);
	ck_assert_uint_ge(ki.violations, 2);	/* each try of each */
	/* CongestionInfo answers whatever the key: the agent can be found */
	ck_assert_int_eq(cc_call("H1", 1, MAD_METHOD_GET, MAD_CC_ATTR_INFO, 0, 0, NULL, &a), 0);
	/* the right key is taken; a Set of CongestionKeyInfo leaves the count */
	ck_assert_int_eq(cc_call("H1", 1, MAD_METHOD_SET, MAD_CC_ATTR_CA_SETTING, 0, 0x5555, data,
				 &a), 0);
	ki = (struct mad_cc_key_info){ .cc_key = 0x77, .protect = 1, .lease_period = 60,
				       .violations = 0 };
	mad_cc_key_info_encode(&ki, data);
	ck_assert_int_eq(cc_call("H1", 1, MAD_METHOD_SET, MAD_CC_ATTR_KEY_INFO, 0, 0x5555, data,
				 &a), 0);
	mad_cc_key_info_decode(a.cc.data, &ki);
	ck_assert_uint_eq(ki.cc_key, 0x77);
	ck_assert_uint_eq(ki.protect, 1);
	ck_assert_uint_eq(ki.lease_period, 60);
	ck_assert_uint_ge(ki.violations, 2);
}
END_TEST

START_TEST(no_agent_silent)
{
	struct answer a;
	struct sim_stats before, after;

	ck_assert_int_eq(sim_node_set_quirks(fab(&sm), sim_node_named(&sm, "H2"),
					     SIM_QUIRK_NO_CC), 0);
	ck_assert_int_eq(cc_call("H2", 1, MAD_METHOD_GET, MAD_CC_ATTR_INFO, 0, 0, NULL, &a),
			 -ETIMEDOUT);
	ck_assert_int_eq(cc_call("H3", 1, MAD_METHOD_GET, MAD_CC_ATTR_INFO, 0, 0, NULL, &a), 0);
	sim_get_stats(fab(&sm), &before);
	sim_set_cc(fab(&sm), false);
	ck_assert_int_eq(cc_call("H3", 1, MAD_METHOD_GET, MAD_CC_ATTR_INFO, 0, 0, NULL, &a),
			 -ETIMEDOUT);
	sim_get_stats(fab(&sm), &after);
	ck_assert_uint_eq(after.cc_in, before.cc_in);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mad_sim_cc");
	TCase *tc = tcase_create("agent");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, info_answers);
	tcase_add_test(tc, ca_setting_and_cct_read_back);
	tcase_add_test(tc, ranges_refused);
	tcase_add_test(tc, wrong_key_discarded_and_counted);
	tcase_add_test(tc, no_agent_silent);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

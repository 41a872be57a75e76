// SPDX-License-Identifier: MIT
/*
 * check_sm_mad_in.c - traps as they reach the SM (sm_mad_in.c), on the sim
 * backend after one heavy sweep: every Trap is answered with TrapRepress,
 * the ones the rate limit drops too (the simulated switch counts what reaches
 * it); a Trap from SLID 0 (our own node) is repressed to our own LID; a
 * repress the transport refuses is counted and said once; Trap 144 makes a
 * heavy sweep due, as Trap 128 does, and a vendor notice numbered 144 does not.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "mad/mad_rpc.h"
#include "sm/ha/sm_ha.h"
#include "sm/ha/sm_mad_in.h"
#include "sm/sweep/sm_sweep.h"
#include "sm/util/sm_log.h"
#include "sm/sm_life.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"

/* @sm up on the two-switch fabric; returns switch SA's LID. */
static uint16_t up(struct sm *sm)
{
	struct mad_port_info pi;

	sm_start_file(sm, "twoswitch.topo");
	ck_assert_int_eq(sm_sweep_heavy(sm), 0);
	ck_assert(!sm->sweep_due);
	ck_assert_int_eq(sim_get_port_info(fab(sm), sim_node_named(sm, "SA"), 0, &pi), 0);
	ck_assert_uint_ne(pi.lid, 0);
	return pi.lid;
}

/* Trap @num (generic unless @vendor) from @slid, TID @tid, as the SMA of
 * @slid sends it, handed to the SM as the rpc layer would. */
static void trap_in(struct sm *sm, uint16_t slid, uint16_t num, bool vendor, uint64_t tid)
{
	struct mad_notice n = { .is_generic = !vendor, .type = 1, .producer_type = 2,
				.trap_num = num, .issuer_lid = slid };
	struct mad_addr from = { .lid = slid };
	struct mad_smp smp;

	if (!vendor)
		mad_notice_set_lid(&n, slid);
	mad_smp_init_lid(&smp, MAD_METHOD_TRAP, MAD_ATTR_NOTICE, 0);
	smp.tid = tid;
	mad_notice_encode(&n, smp.data);
	sm_mad_in(sm, &smp, &from);
}

static uint64_t represses_at_smas(struct sm *sm)
{
	struct sim_stats st;

	sim_get_stats(fab(sm), &st);
	return st.represses;
}

START_TEST(every_trap_repressed)
{
	struct sm sm;
	uint16_t lid = up(&sm);

	sm.cfg.trap_max_per_s = 2;	/* the third trap of a second is babbling */
	uint64_t at_smas = represses_at_smas(&sm);
	for (unsigned i = 0; i < 20; i++)
		trap_in(&sm, lid, MAD_TRAP_LINK_STATE_CHANGE, false, 0x100 + i);
	ck_assert_uint_eq(sm.ha->represses, 20);
	ck_assert_uint_eq(represses_at_smas(&sm) - at_smas, 20);
	ck_assert_uint_eq(sm.ha->repress_failures, 0);
	sm_close(&sm);
}
END_TEST

/* A trap from our own node comes with SLID 0: the repress goes to our own
 * LID (it reaches our own port, where the SM reads it). */
START_TEST(trap_from_slid_0_repressed_to_own_lid)
{
	struct sm sm;
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr from;
	struct mad_smp smp;

	up(&sm);
	trap_in(&sm, 0, MAD_TRAP_LINK_STATE_CHANGE, false, 0x5107);
	ck_assert_uint_eq(sm.ha->represses, 1);
	size_t len = sizeof(buf);
	ck_assert_int_eq(sm.t->ops->recv(sm.t, buf, &len, &from, 100), 0);
	ck_assert_int_eq(mad_smp_decode(buf, sizeof(buf), &smp), 0);
	ck_assert_uint_eq(smp.method, MAD_METHOD_TRAP_REPRESS);
	ck_assert_uint_eq((uint32_t)smp.tid, 0x5107);
	ck_assert_uint_eq(smp.status, 0);
	sm_close(&sm);
}
END_TEST

static int refuse_send(struct mad_transport *t, const uint8_t mad[MAD_BLOCK_SIZE],
		       const struct mad_addr *to)
{
	(void)t, (void)mad, (void)to;
	return -EIO;
}

/* The log file's text (the caller frees it). */
static char *log_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_ne(getdelim(&text, &len, '\0', f), -1);
	fclose(f);
	return text;
}

static unsigned count_of(const char *text, const char *what)
{
	unsigned n = 0;

	for (const char *p = text; (p = strstr(p, what)); p++)
		n++;
	return n;
}

START_TEST(refused_repress_counted_and_said_once)
{
	struct sm sm;
	char logpath[400];
	uint16_t lid = up(&sm);
	const struct mad_transport_ops *real = sm.t->ops;
	struct mad_transport_ops refusing = *real;

	refusing.send = refuse_send;
	snprintf(logpath, sizeof(logpath), "%s/sm.log", dbdir);
	ck_assert_int_eq(sm_log_open(logpath, LOG_NOTICE, 0), 0);
	sm.t->ops = &refusing;
	for (unsigned i = 0; i < 3; i++)
		trap_in(&sm, lid, MAD_TRAP_LINK_STATE_CHANGE, false, 0x200 + i);
	sm.t->ops = real;
	ck_assert_uint_eq(sm.ha->repress_failures, 3);
	ck_assert_uint_eq(sm.ha->represses, 0);
	trap_in(&sm, lid, MAD_TRAP_LINK_STATE_CHANGE, false, 0x203);
	ck_assert_uint_eq(sm.ha->represses, 1);
	sm_log_set_level(LOG_WARNING);
	char *text = log_text(logpath);
	ck_assert_msg(count_of(text, "TrapRepress for trap 128 to LID") == 1, "%s", text);
	ck_assert_msg(strstr(text, "Input/output error"), "%s", text);
	ck_assert_msg(strstr(text, "TrapRepress sent again, after 3 failed"), "%s", text);
	free(text);
	sm_close(&sm);
}
END_TEST

/* Trap 144 (an SM came, went or outranks the master; a port's capabilities
 * changed) makes a heavy sweep due, whose election looks at the other SMs. */
START_TEST(trap_144_makes_a_sweep_due)
{
	struct sm sm;
	struct mad_port_info sb;
	uint16_t lid = up(&sm);

	/* each the first of its port's second: either may make a sweep due */
	ck_assert_int_eq(sim_get_port_info(fab(&sm), sim_node_named(&sm, "SB"), 0, &sb), 0);
	trap_in(&sm, lid, MAD_TRAP_CAPMASK_CHANGE, true, 0x300);	/* a vendor's 144 */
	ck_assert(!sm.sweep_due);
	ck_assert_uint_eq(sm.ha->represses, 1);
	trap_in(&sm, sb.lid, MAD_TRAP_CAPMASK_CHANGE, false, 0x301);
	ck_assert(sm.sweep_due);
	ck_assert_uint_eq(sm.ha->represses, 2);
	sm_close(&sm);
}
END_TEST

static Suite *mad_in_suite(void)
{
	Suite *s = suite_create("sm_mad_in");
	TCase *tc = tcase_create("traps");

	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, every_trap_repressed);
	tcase_add_test(tc, trap_from_slid_0_repressed_to_own_lid);
	tcase_add_test(tc, refused_repress_counted_and_said_once);
	tcase_add_test(tc, trap_144_makes_a_sweep_due);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(mad_in_suite)

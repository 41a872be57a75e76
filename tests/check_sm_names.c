// SPDX-License-Identifier: MIT
/*
 * check_sm_names.c - LIDs and ports named by their node (sm_names.c) on the
 * simulated 2-level fat tree: a switch's LID is its port 0, a CA's every LID
 * of its LMC range its port, LID 0 and free LIDs nobody's; before the first
 * sweep nothing is known; a long description is cut, never overrun; and an
 * isolated link's event names both ends (sm_isolate.c).
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sm/core/sm_names.h"
#include "sm/telemetry/sm_isolate.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"
#include "tests/check_sm_fixture.h"
#include "tests/check_util.h"

/* The node the last fabric calls @desc, and its index in *@idx. */
static const struct topo_node *named(struct sm *sm, const char *desc, uint32_t *idx)
{
	const struct topo *t = &sm->fabric.topo;

	for (uint32_t i = 0; i < t->n; i++)
		if (!strcmp(t->nodes[i].desc, desc)) {
			*idx = i;
			return &t->nodes[i];
		}
	ck_abort_msg("no node %s in the fabric", desc);
	return NULL;
}

START_TEST(nothing_before_a_sweep)
{
	struct sm sm;
	char buf[SM_NAME_LEN];
	uint8_t port = 9;

	sm_start_r8(&sm, NULL);
	ck_assert_uint_eq(sm_lid_owner(&sm, 1, &port), TOPO_NONE);
	ck_assert_uint_eq(port, 0);
	ck_assert_str_eq(sm_name_lid(&sm, 1, buf, sizeof(buf)), "LID 1 (no sweep yet)");
	ck_assert_str_eq(sm_name_port(&sm, 0x2c90000000001ull, 3, buf, sizeof(buf)),
			 "0x0002c90000000001 port 3");
	sm_close(&sm);
}
END_TEST

START_TEST(lids_and_ports_named)
{
	struct sm sm;
	char buf[SM_NAME_LEN], want[SM_NAME_LEN];
	uint32_t i;
	uint8_t port;

	sm_start_r8(&sm, NULL);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	/* a switch answers on its port 0 */
	const struct topo_node *l0 = named(&sm, "L0", &i);
	uint16_t lid = l0->ports[0].lid;
	ck_assert_uint_ne(lid, 0);
	ck_assert_uint_eq(sm_lid_owner(&sm, lid, &port), i);
	ck_assert_uint_eq(port, 0);
	snprintf(want, sizeof(want), "LID %u (\"L0\" 0x%016" PRIx64 " port 0)", lid, l0->guid);
	ck_assert_str_eq(sm_name_lid(&sm, lid, buf, sizeof(buf)), want);
	/* a CA on its port, on every LID of its LMC range and no further */
	const struct topo_node *h = named(&sm, "H5", &i);
	struct topo_port *hp = &h->ports[1];
	ck_assert_uint_ne(hp->lid, 0);
	ck_assert_uint_eq(sm_lid_owner(&sm, hp->lid, &port), i);
	ck_assert_uint_eq(port, 1);
	uint16_t base = hp->lid;
	hp->lmc = 2;
	hp->lid = 0xbff0;	/* above every LID the sweep gave */
	ck_assert_uint_eq(sm_lid_owner(&sm, 0xbff3, &port), i);
	ck_assert_uint_eq(port, 1);
	ck_assert_uint_eq(sm_lid_owner(&sm, 0xbff4, &port), TOPO_NONE);
	ck_assert_str_eq(sm_name_lid(&sm, 0xbff4, buf, sizeof(buf)),
			 "LID 49140 (not in the last sweep)");
	ck_assert_uint_eq(sm_lid_owner(&sm, base, &port), TOPO_NONE);
	hp->lid = base;
	hp->lmc = 0;
	ck_assert_str_eq(sm_name_lid(&sm, 0, buf, sizeof(buf)), "LID 0 (none)");
	snprintf(want, sizeof(want), "\"H5\" 0x%016" PRIx64 " port 1", h->guid);
	ck_assert_str_eq(sm_name_port(&sm, h->guid, 1, buf, sizeof(buf)), want);
	/* the longest description a device can give is cut to the buffer */
	struct topo_node *big = &sm.fabric.topo.nodes[i];
	memset(big->desc, 'x', TOPO_DESC_LEN);
	big->desc[TOPO_DESC_LEN] = '\0';
	char small[24], whole[2 * SM_NAME_LEN];
	memset(small, '#', sizeof(small));
	snprintf(whole, sizeof(whole), "LID %u (\"%s\" 0x%016" PRIx64 " port 1)", base, big->desc,
		 big->guid);
	sm_name_lid(&sm, base, small, sizeof(small) - 4);
	ck_assert_uint_eq(strlen(small), sizeof(small) - 5);
	ck_assert(!strncmp(small, whole, sizeof(small) - 5));
	ck_assert_int_eq(small[sizeof(small) - 1], '#');
	ck_assert_uint_lt(strlen(sm_name_lid(&sm, base, buf, sizeof(buf))), SM_NAME_LEN);
	ck_assert_ptr_nonnull(strstr(buf, "port 1)"));
	sm_close(&sm);
}
END_TEST

struct last_event {
	const char *kind;
	char detail[512];
};

static int keep_last(void *arg, const struct db_event *ev)
{
	struct last_event *e = arg;

	if (!strcmp(ev->kind, e->kind))
		snprintf(e->detail, sizeof(e->detail), "%s", ev->detail);
	return 0;
}

START_TEST(isolation_event_names_both_ends)
{
	struct sm sm;
	struct last_event ev = { .kind = DB_EV_LINK_ISOLATED };
	char want[512];
	uint32_t i;

	sm_start_r8(&sm, NULL);
	ck_assert_int_eq(sm_sweep_heavy(&sm), 0);
	const struct topo_node *l0 = named(&sm, "L0", &i);
	const struct topo_port *p5 = &l0->ports[5];
	const struct topo_node *peer = &sm.fabric.topo.nodes[p5->peer];
	ck_assert_int_eq(sm_isolate_observe_errors(&sm, l0->guid, 5, 5000, 0, 0, mad_now_ms()), 1);
	sm_store_queue_flush(&sm.store);
	ck_assert_int_eq(db_events_each(sm.db, 0, keep_last, &ev), 0);
	/* from the end with the lower GUID */
	bool l0_first = l0->guid < peer->guid;
	snprintf(want, sizeof(want), "link \"%s\" 0x%016" PRIx64 " port %u <-> \"%s\" 0x%016" PRIx64
		 " port %u: isolated (errors): ", l0_first ? "L0" : peer->desc,
		 l0_first ? l0->guid : peer->guid, l0_first ? 5 : p5->peer_port,
		 l0_first ? peer->desc : "L0", l0_first ? peer->guid : l0->guid,
		 l0_first ? p5->peer_port : 5);
	ck_assert_msg(!strncmp(ev.detail, want, strlen(want)), "event '%s', want '%s...'",
		      ev.detail, want);
	sm_close(&sm);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sm_names");
	TCase *tc = tcase_create("sim");

	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, nothing_before_a_sweep);
	tcase_add_test(tc, lids_and_ports_named);
	tcase_add_test(tc, isolation_event_names_both_ends);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)

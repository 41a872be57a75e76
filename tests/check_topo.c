// SPDX-License-Identifier: MIT
/*
 * check_topo.c - the fabric model: GUID index, links, counts, value names, and
 * the routing view built from it (switch index, LID index, links that are up).
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "mad/model/topo_rate.h"
#include "mad/model/topo_view.h"
#include "tests/check_util.h"

START_TEST(guid_index_survives_growth)
{
	struct topo t;

	topo_init(&t);
	for (uint32_t i = 0; i < 5000; i++)
		ck_assert_uint_eq(topo_add_node(&t, MAD_NODE_CA, 2, 0x1000 + i * 3), i);
	for (uint32_t i = 0; i < 5000; i++)
		ck_assert_uint_eq(topo_find_guid(&t, 0x1000 + i * 3), i);
	ck_assert_uint_eq(topo_find_guid(&t, 0x1001), TOPO_NONE);
	ck_assert_uint_eq(topo_find_guid(&t, 0), TOPO_NONE);
	errno = 0;
	ck_assert_uint_eq(topo_add_node(&t, MAD_NODE_CA, 1, 0x1000), TOPO_NONE);
	ck_assert_int_eq(errno, EEXIST);
	topo_free(&t);
	ck_assert_uint_eq(t.n, 0);
}
END_TEST

START_TEST(set_guid_later)
{
	struct topo t;

	topo_init(&t);
	uint32_t a = topo_add_node(&t, MAD_NODE_SWITCH, 8, 0);
	uint32_t b = topo_add_node(&t, MAD_NODE_SWITCH, 8, 0x77);
	ck_assert_uint_eq(topo_find_guid(&t, 0x55), TOPO_NONE);
	ck_assert_int_eq(topo_set_guid(&t, a, 0x55), 0);
	ck_assert_uint_eq(topo_find_guid(&t, 0x55), a);
	ck_assert_int_eq(topo_set_guid(&t, a, 0x77), -EEXIST);
	ck_assert_uint_eq(topo_find_guid(&t, 0x77), b);
	topo_free(&t);
}
END_TEST

START_TEST(links_both_ways)
{
	struct topo t;

	topo_init(&t);
	uint32_t sw = topo_add_node(&t, MAD_NODE_SWITCH, 4, 1);
	uint32_t h = topo_add_node(&t, MAD_NODE_CA, 2, 2);
	strcpy(t.nodes[h].name, "H0");
	ck_assert_int_eq(topo_link(&t, sw, 3, h, 1), 0);
	ck_assert_uint_eq(t.nodes[h].ports[1].peer, sw);
	ck_assert_uint_eq(t.nodes[h].ports[1].peer_port, 3);
	ck_assert_uint_eq(t.nodes[sw].ports[3].peer, h);
	ck_assert_int_eq(topo_link(&t, h, 1, sw, 3), 0);	/* same link again */
	ck_assert_int_eq(topo_link(&t, sw, 3, h, 2), -EBUSY);
	ck_assert_int_eq(topo_link(&t, sw, 0, h, 2), -EINVAL);
	ck_assert_int_eq(topo_link(&t, sw, 5, h, 2), -EINVAL);
	ck_assert_int_eq(topo_link(&t, sw, 1, sw, 1), -EINVAL);
	ck_assert_int_eq(topo_link(&t, sw, 1, sw, 2), 0);	/* loopback cable */
	ck_assert_uint_eq(topo_count_links(&t), 2);
	ck_assert_uint_eq(topo_count_type(&t, MAD_NODE_SWITCH), 1);
	ck_assert_uint_eq(topo_find_name(&t, "H0"), h);
	ck_assert_uint_eq(topo_find_name(&t, "H1"), TOPO_NONE);
	topo_free(&t);
}
END_TEST

START_TEST(reorder_keeps_links_and_index)
{
	struct topo t;
	const uint32_t perm[] = { 2, 0, 1 };

	topo_init(&t);
	uint32_t a = topo_add_node(&t, MAD_NODE_SWITCH, 4, 0xa);
	uint32_t b = topo_add_node(&t, MAD_NODE_CA, 1, 0xb);
	uint32_t c = topo_add_node(&t, MAD_NODE_CA, 1, 0xc);
	ck_assert_int_eq(topo_link(&t, a, 1, b, 1), 0);
	ck_assert_int_eq(topo_link(&t, a, 2, c, 1), 0);
	ck_assert_int_eq(topo_reorder(&t, perm), 0);
	/* new order: c, a, b */
	ck_assert_uint_eq(t.nodes[0].guid, 0xc);
	ck_assert_uint_eq(t.nodes[1].guid, 0xa);
	ck_assert_uint_eq(topo_find_guid(&t, 0xa), 1);
	ck_assert_uint_eq(topo_find_guid(&t, 0xb), 2);
	ck_assert_uint_eq(t.nodes[1].ports[1].peer, 2);
	ck_assert_uint_eq(t.nodes[1].ports[2].peer, 0);
	ck_assert_uint_eq(t.nodes[0].ports[1].peer, 1);
	ck_assert_uint_eq(t.nodes[0].ports[1].peer_port, 2);
	ck_assert_uint_eq(topo_count_links(&t), 2);
	topo_free(&t);
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(mad_port_state_name(MAD_PORT_ACTIVE), "Active");
	ck_assert_str_eq(mad_port_state_name(9), "?");
	ck_assert_str_eq(mad_phys_state_name(MAD_PHYS_LINKUP), "LinkUp");
	ck_assert_str_eq(mad_sm_state_name(MAD_SM_MASTER), "MASTER");
	ck_assert_str_eq(mad_node_type_name(MAD_NODE_CA), "Ca");
	ck_assert_str_eq(mad_node_type_name(0), "?");
}
END_TEST

/* One table serves every format; unknown codes get each format's marker. */
START_TEST(rate_names)
{
	static const struct { uint8_t speed; const char *text, *osm; } sp[] = {
		{ MAD_SPEED_SDR, "SDR", "2.5" }, { MAD_SPEED_DDR, "DDR", "5" },
		{ MAD_SPEED_QDR, "QDR", "10" }, { MAD_SPEED_FDR, "FDR", "14" },
		{ MAD_SPEED_EDR, "EDR", "25" }, { MAD_SPEED_HDR, "HDR", "??" },
		{ MAD_SPEED_NDR, "NDR", "??" }, { MAD_SPEED_XDR, "XDR", "??" },
	};
	uint8_t w, s;

	for (size_t i = 0; i < sizeof(sp) / sizeof(sp[0]); i++) {
		ck_assert_str_eq(mad_rate_speed_name(sp[i].speed, MAD_RATE_TEXT), sp[i].text);
		ck_assert_str_eq(mad_rate_speed_name(sp[i].speed, MAD_RATE_IBND), sp[i].text);
		ck_assert_str_eq(mad_rate_speed_name(sp[i].speed, MAD_RATE_OSM), sp[i].osm);
	}
	ck_assert_str_eq(mad_rate_speed_name(3, MAD_RATE_TEXT), "?");
	ck_assert_str_eq(mad_rate_speed_name(0, MAD_RATE_IBND), "???");
	ck_assert_str_eq(mad_rate_speed_name(0, MAD_RATE_OSM), "??");
	ck_assert_str_eq(mad_rate_width_name(2, MAD_RATE_TEXT), "4X");
	ck_assert_str_eq(mad_rate_width_name(8, MAD_RATE_IBND), "12x");
	ck_assert_str_eq(mad_rate_width_name(16, MAD_RATE_OSM), "2x");
	ck_assert_str_eq(mad_rate_width_name(3, MAD_RATE_TEXT), "?");
	ck_assert_str_eq(mad_rate_width_name(0, MAD_RATE_IBND), "??");

	ck_assert(mad_rate_parse("4xNDR", 5, &w, &s));
	ck_assert_uint_eq(w, 2);
	ck_assert_uint_eq(s, MAD_SPEED_NDR);
	ck_assert(mad_rate_parse("12XHDR", 6, &w, &s));
	ck_assert_uint_eq(w, 8);
	ck_assert_uint_eq(s, MAD_SPEED_HDR);
	ck_assert(mad_rate_parse("1xFDR10", 7, &w, &s));
	ck_assert_uint_eq(s, MAD_SPEED_QDR);
	ck_assert(!mad_rate_parse("4xNDRX", 6, &w, &s));
	ck_assert(!mad_rate_parse("4x", 2, &w, &s));
	ck_assert(!mad_rate_parse("3xQDR", 5, &w, &s));

	ck_assert_uint_eq(mad_rate_mbps(2, MAD_SPEED_NDR), 400000);
	ck_assert_uint_eq(mad_rate_mbps(8, MAD_SPEED_QDR), 96000);
	ck_assert_uint_eq(mad_rate_mbps(3, MAD_SPEED_QDR), 0);
	ck_assert_uint_eq(mad_rate_mbps(8, 255), 0);
	ck_assert_uint_eq(mad_rate_signal_kbps(2, MAD_SPEED_EDR), 103125000);	/* 4 x 25.78125 */
	ck_assert_uint_eq(mad_rate_signal_kbps(2, MAD_SPEED_HDR), 212500000);
	ck_assert_uint_eq(mad_rate_signal_kbps(1, MAD_SPEED_SDR), 2500000);
	ck_assert_uint_eq(mad_rate_signal_kbps(3, MAD_SPEED_QDR), 0);
	ck_assert_uint_eq(mad_rate_signal_kbps(2, 255), 0);
	ck_assert_uint_eq(mad_rate_best_width(3 | 8), 8);
	ck_assert_uint_eq(mad_rate_best_width(1 | 16), 16);	/* 2x beats 1x */
	ck_assert_uint_eq(mad_rate_best_width(0), 0);
	ck_assert_uint_eq(mad_rate_best_speed(0x7f), MAD_SPEED_NDR);
	ck_assert_uint_eq(mad_rate_best_speed(0), 0);
}
END_TEST

/* CA, switch, CA, switch: the view numbers the switches in node order. */
START_TEST(view_indexes_switches_and_lids)
{
	struct topo t;
	struct topo_view m;

	topo_init(&t);
	uint32_t h0 = topo_add_node(&t, MAD_NODE_CA, 1, 0xa);
	uint32_t s0 = topo_add_node(&t, MAD_NODE_SWITCH, 4, 0xb);
	uint32_t h1 = topo_add_node(&t, MAD_NODE_CA, 1, 0xc);
	uint32_t s1 = topo_add_node(&t, MAD_NODE_SWITCH, 4, 0xd);
	ck_assert_int_eq(topo_link(&t, h0, 1, s0, 1), 0);
	ck_assert_int_eq(topo_link(&t, s0, 2, s1, 2), 0);
	ck_assert_int_eq(topo_link(&t, s0, 3, s1, 3), 0);
	ck_assert_int_eq(topo_link(&t, h1, 1, s1, 1), 0);
	t.nodes[s0].ports[3].phys_state = MAD_PHYS_POLLING;	/* cabled, not up */
	t.nodes[h0].ports[1].lid = 1;
	t.nodes[h1].ports[1].lid = 2;
	t.nodes[h1].ports[1].lmc = 1;				/* LIDs 2 and 3 */
	t.nodes[s1].ports[0].lid = 9;				/* above max_lid */
	ck_assert_int_eq(topo_view_build(&t, 4, &m), 0);
	ck_assert_uint_eq(m.v.nnodes, 4);
	ck_assert_uint_eq(m.v.nswitches, 2);
	ck_assert_uint_eq(m.v.switch_node[0], s0);
	ck_assert_uint_eq(m.v.switch_node[1], s1);
	ck_assert_uint_eq(m.v.node_switch[s0], 0);
	ck_assert_uint_eq(m.v.node_switch[s1], 1);
	ck_assert_uint_eq(m.v.node_switch[h0], IBSMD_NO_NODE);
	ck_assert_uint_eq(m.v.node_switch[h1], IBSMD_NO_NODE);
	ck_assert_uint_eq(m.v.lid_node[1], h0);
	ck_assert_uint_eq(m.v.lid_node[3], h1);
	ck_assert_uint_eq(m.v.lid_port[3], 1);
	ck_assert_uint_eq(m.v.lid_node[4], IBSMD_NO_NODE);
	ck_assert_uint_eq(m.v.nodes[s0].ports[2].peer, s1);
	ck_assert_uint_eq(m.v.nodes[s0].ports[3].peer, IBSMD_NO_NODE);
	ck_assert_uint_eq(m.v.nodes[s1].ports[3].peer, IBSMD_NO_NODE);
	topo_view_free(&m);
	topo_free(&t);
}
END_TEST

/* An isolated link stays cabled and up in the topology, and leaves the view. */
START_TEST(view_leaves_isolated_links_out)
{
	struct topo t;
	struct topo_view m;

	topo_init(&t);
	uint32_t s0 = topo_add_node(&t, MAD_NODE_SWITCH, 4, 0xb);
	uint32_t s1 = topo_add_node(&t, MAD_NODE_SWITCH, 4, 0xd);
	ck_assert_int_eq(topo_link(&t, s0, 2, s1, 2), 0);
	ck_assert_int_eq(topo_link(&t, s0, 3, s1, 4), 0);
	/* not these links: wrong peer port, unknown GUID, port beyond the node */
	ck_assert(!topo_mark_isolated(&t, 0xb, 3, 0xd, 3));
	ck_assert(!topo_mark_isolated(&t, 0xb, 3, 0xe, 4));
	ck_assert(!topo_mark_isolated(&t, 0xb, 200, 0xd, 4));
	ck_assert(topo_mark_isolated(&t, 0xd, 4, 0xb, 3));	/* either end names it */
	ck_assert(t.nodes[s0].ports[3].isolated && t.nodes[s1].ports[4].isolated);
	ck_assert_uint_eq(t.nodes[s0].ports[3].peer, s1);
	ck_assert_int_eq(topo_view_build(&t, 4, &m), 0);
	ck_assert_uint_eq(m.v.nodes[s0].ports[2].peer, s1);
	ck_assert_uint_eq(m.v.nodes[s0].ports[3].peer, IBSMD_NO_NODE);
	ck_assert_uint_eq(m.v.nodes[s1].ports[4].peer, IBSMD_NO_NODE);
	topo_view_free(&m);
	topo_free(&t);
}
END_TEST

static Suite *topo_suite(void)
{
	Suite *s = suite_create("topo");
	TCase *tc = tcase_create("model");

	tcase_add_test(tc, guid_index_survives_growth);
	tcase_add_test(tc, set_guid_later);
	tcase_add_test(tc, links_both_ways);
	tcase_add_test(tc, reorder_keeps_links_and_index);
	tcase_add_test(tc, names);
	tcase_add_test(tc, rate_names);
	tcase_add_test(tc, view_indexes_switches_and_lids);
	tcase_add_test(tc, view_leaves_isolated_links_out);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(topo_suite)

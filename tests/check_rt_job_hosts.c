// SPDX-License-Identifier: MIT
/*
 * check_rt_job_hosts.c - hosts by NodeDescription and their rails
 * (routing/rt_job_hosts.c):
 *
 * - a rail-optimised tree from ibsmd-topogen (nodes of 8 HCAs "nodeN
 *   mlx5_I"): 8 rails in natural order, a host's endpoints in rail order;
 *   the rail check passes, and with one HCA cabled to the wrong leaf it
 *   names exactly that HCA;
 * - a job over rails: a ring per rail, contention-free after job-aware
 *   routing, each rail's flows only on that rail's leaves;
 * - names a scheduler gives: a short name for a host that reports a domain,
 *   and worst values (unknown hosts, duplicates, bad characters, too long,
 *   an ambiguous short name) refused with the index of the culprit.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "routing/rt_job.h"
#include "routing/rt_job_hosts.h"
#include "tests/check_util.h"
#include "tests/rt_testview.h"

#define RAILS "fattree --levels 2 --radix 16 --rails 8"	/* 16 nodes of 8 HCAs */

START_TEST(rails_found)
{
	struct rtv r;
	struct rt_hosts *h;
	struct rt_rail_check rc;
	char name[64];

	ck_assert_int_eq(rtv_load_generated(&r, RAILS, NULL), 0);
	ck_assert_int_eq(rt_hosts_build(&r.v, &h), 0);
	ck_assert_uint_eq(rt_hosts_count(h), 16);
	ck_assert_uint_eq(rt_hosts_rails(h), 8);
	rt_hosts_rail_name(h, 7, name, sizeof(name));
	ck_assert_str_eq(name, "mlx5_7 port 1");
	ck_assert_int_eq(rt_hosts_rail_check(h, &rc), 0);
	ck_assert_uint_eq(rc.hosts, 16);
	ck_assert_uint_eq(rc.endpoints, 128);
	ck_assert_uint_eq(rc.leaves, 16);
	ck_assert_uint_eq(rc.misplaced, 0);

	const char *names[] = { "node3", "node0" };
	struct rt_job_ranks ranks;
	uint32_t bad, unknown;
	ck_assert_int_eq(rt_hosts_job(h, names, 2, &ranks, &bad, &unknown), 0);
	ck_assert_uint_eq(ranks.nranks, 2);
	ck_assert_uint_eq(ranks.first[1], 8);
	ck_assert_uint_eq(ranks.first[2], 16);
	for (unsigned i = 0; i < 8; i++) {
		ck_assert_uint_eq(ranks.rails[i], i);
		ck_assert_uint_eq(ranks.rails[8 + i], i);
		/* node3's HCA i: the 4th host port of leaf i */
		uint32_t node = r.v.lid_node[ranks.lids[i]];
		snprintf(name, sizeof(name), "node3 mlx5_%u", i);
		ck_assert_str_eq(r.v.nodes[node].desc, name);
	}
	rt_job_ranks_free(&ranks);
	rt_hosts_free(h);
	rtv_free(&r);
}
END_TEST

START_TEST(miswired_hca_named)
{
	struct rtv r;
	struct rt_hosts *h;
	struct rt_rail_check rc;

	ck_assert_int_eq(rtv_load_generated(&r, RAILS " --miswire 5:3", NULL), 0);
	ck_assert_int_eq(rt_hosts_build(&r.v, &h), 0);
	ck_assert_int_eq(rt_hosts_rail_check(h, &rc), 0);
	ck_assert_uint_eq(rc.endpoints, 127);	/* node5's mlx5_4 is unplugged */
	ck_assert_uint_eq(rc.misplaced, 1);
	ck_assert_str_eq(r.v.nodes[rc.first[0].node].desc, "node5 mlx5_3");
	ck_assert_uint_eq(rc.first[0].rail, 3);
	ck_assert_uint_eq(rc.first[0].leaf_rail, 4);
	ck_assert_str_eq(r.v.nodes[rc.first[0].leaf].desc, "L4");
	rt_hosts_free(h);
	rtv_free(&r);
}
END_TEST

/* A ring over 6 nodes' 8 rails in random node order: 8 rings, each only on
 * its rail's leaf and the spines, contention-free once routed. */
START_TEST(ring_per_rail)
{
	struct rtv r;
	struct rt_hosts *h;
	struct rt_jobs *J;
	struct rt_job_ranks ranks;
	struct rt_job_report rep;
	struct rt_job_meter *m;
	struct rt_job_ebb e;
	uint32_t bad, unknown;
	const char *names[] = { "node9", "node2", "node14", "node5", "node11", "node0" };
	const struct ibsmd_routing_engine *ft = rt_builtin_find("ftree");
	void *st;

	ck_assert_int_eq(rtv_load_generated(&r, "fattree --levels 3 --radix 8 --rails 4", NULL), 0);
	ck_assert_int_eq(ft->setup(&r.ctx, &st), 0);
	ck_assert_int_eq(ft->compute_unicast(&r.ctx, st), 0);
	ck_assert_int_eq(rt_hosts_build(&r.v, &h), 0);
	ck_assert_int_eq(rt_hosts_job(h, names, 6, &ranks, &bad, &unknown), 0);
	struct rt_job_spec s = { .name = "rails", .pattern = RT_JOB_RING, .nranks = ranks.nranks,
				 .first = ranks.first, .lids = ranks.lids, .rails = ranks.rails };
	ck_assert_int_eq(rt_jobs_open(&r.ctx, &J), 0);
	ck_assert_int_eq(rt_jobs_start(J, &s, NULL, &rep), 0);
	ck_assert_uint_eq(rep.dests, 24);
	ck_assert_int_eq(rt_job_meter_open(&r.ctx, &m), 0);
	ck_assert_int_eq(rt_job_meter_ebb(m, &s, NULL, &e), 0);
	ck_assert_uint_eq(e.round[0].flows, 24);
	ck_assert_double_eq(e.round[0].ebb, 1.0);
	/* each rail's ring (rank j -> j + 1 on rail i) crosses only switches
	 * whose hosts are all on rail i, or none */
	for (uint32_t i = 0; i < 4; i++)
		for (uint32_t j = 0; j < 6; j++) {
			uint16_t from = ranks.lids[ranks.first[j] + i];
			uint16_t to = ranks.lids[ranks.first[(j + 1) % 6] + i];
			ck_assert_uint_eq(ranks.rails[ranks.first[j] + i], i);
			uint32_t at = r.v.nodes[r.v.lid_node[from]].ports[1].peer;
			for (unsigned hops = 0; ibsmd_is_switch(&r.v, at) && hops < 8; hops++) {
				const struct ibsmd_rt_node *sw = &r.v.nodes[at];
				for (unsigned p = 1; p <= sw->nports; p++) {
					uint32_t peer = sw->ports[p].peer;
					if (peer >= r.v.nnodes || ibsmd_is_switch(&r.v, peer))
						continue;
					char want[16];
					snprintf(want, sizeof(want), "mlx5_%u", i);
					ck_assert_ptr_nonnull(strstr(r.v.nodes[peer].desc, want));
				}
				at = sw->ports[r.lft[at][to]].peer;
			}
			ck_assert_uint_eq(at, r.v.lid_node[to]);
		}
	rt_job_meter_close(m);
	rt_jobs_close(J);
	rt_job_ranks_free(&ranks);
	rt_hosts_free(h);
	ft->destroy(st);
	rtv_free(&r);
}
END_TEST

static char *write_topo(const char *text)
{
	char *path = strdup("/tmp/check_rt_job_hosts.XXXXXX");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

START_TEST(names_as_schedulers_give_them)
{
	static const char topo[] =
		"Switch 8 \"S\"\n"
		"[1] \"a.cluster mlx5_0\"[1]\n[2] \"a.cluster mlx5_1\"[1]\n"
		"[3] \"b mlx5_0\"[1]\n[4] \"c.x\"[1]\n[5] \"c.y\"[1]\n\n"
		"Hca 1 \"a.cluster mlx5_0\"\n[1] \"S\"[1]\n\n"
		"Hca 1 \"a.cluster mlx5_1\"\n[1] \"S\"[2]\n\n"
		"Hca 1 \"b mlx5_0\"\n[1] \"S\"[3]\n\n"
		"Hca 1 \"c.x\"\n[1] \"S\"[4]\n\n"
		"Hca 1 \"c.y\"\n[1] \"S\"[5]\n\n";
	char *path = write_topo(topo);
	struct rtv r;
	struct rt_hosts *h;
	struct rt_job_ranks ranks;
	uint32_t bad = 99, unknown = 0;
	char longname[RT_HOST_NAME_MAX + 1];

	ck_assert_int_eq(rtv_load(&r, path, NULL, NULL), 0);
	unlink(path);
	free(path);
	ck_assert_int_eq(rt_hosts_build(&r.v, &h), 0);
	ck_assert_uint_eq(rt_hosts_count(h), 4);	/* a.cluster, b, c.x, c.y */

	const char *ok[] = { "a", "b", "c.y" };
	ck_assert_int_eq(rt_hosts_job(h, ok, 3, &ranks, &bad, &unknown), 0);
	ck_assert_uint_eq(ranks.first[1], 2);	/* a.cluster: both HCAs */
	ck_assert_uint_eq(ranks.first[3], 4);
	rt_job_ranks_free(&ranks);

	const char *missing[] = { "b", "zz1", "a", "zz2" };
	ck_assert_int_eq(rt_hosts_job(h, missing, 4, &ranks, &bad, &unknown), -ENOENT);
	ck_assert_uint_eq(bad, 1);
	ck_assert_uint_eq(unknown, 2);
	ck_assert_ptr_null(ranks.first);

	const char *ambiguous[] = { "c" };	/* c.x or c.y */
	ck_assert_int_eq(rt_hosts_job(h, ambiguous, 1, &ranks, &bad, &unknown), -ENOENT);

	const char *twice[] = { "a", "b", "a" };
	ck_assert_int_eq(rt_hosts_job(h, twice, 3, &ranks, &bad, &unknown), -EINVAL);
	ck_assert_uint_eq(bad, 2);

	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	const char *bads[][2] = { { "b", "x;rm -rf" }, { "b", "" }, { "b", longname },
				  { "b", "a b" }, { "b", "\xff" } };
	for (unsigned i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		ck_assert_int_eq(rt_hosts_job(h, bads[i], 2, &ranks, &bad, &unknown), -EINVAL);
		ck_assert_uint_eq(bad, 1);
	}
	ck_assert(rt_host_name_ok("node-17_a.b"));
	ck_assert(!rt_host_name_ok(NULL));
	rt_hosts_free(h);
	rtv_free(&r);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("rt_job_hosts");
	TCase *tc = tcase_create("hosts");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, rails_found);
	tcase_add_test(tc, miswired_hca_named);
	tcase_add_test(tc, ring_per_rail);
	tcase_add_test(tc, names_as_schedulers_give_them);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

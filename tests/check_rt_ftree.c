// SPDX-License-Identifier: MIT
/*
 * check_rt_ftree.c - the ftree engine (routing/rt_ftree.c) on generated fat
 * trees, pure and degraded, on the real clusters, and on fabrics that are no
 * fat tree.
 *
 * Quality is measured on the tables, flow by flow: hosts are numbered in leaf
 * order (leaf switches by GUID, which is ibsmd-topogen's leaf numbering, then
 * ports); a flow from host a to host b walks the LFTs from a's leaf to b's LID,
 * and every switch output port it leaves through is one link direction.  A
 * shift permutation (host i sends to host i + s mod N) is contention-free when
 * no link direction carries two of its flows.  Effective bisection bandwidth:
 * over random pairings of the hosts (both directions of each pair), the mean
 * over flows of 1 / the most flows any link of the flow's path carries.
 * Deadlock freedom is the channel dependency graph check of rt_cdg.c, with
 * the engine's path_sl.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/check_util.h"
#include "tests/rt_testview.h"

#define MAX_HOPS 64
#define PAIRINGS 1000	/* for the EBB: 100 still varies in the third digit */
/* a tree damaged enough that some of its routes turn onto SL 1 and above */
#define TURNING_TREE "fattree --levels 2 --radix 8 --remove-links 40 --seed 3"

struct hosts {
	uint32_t n;
	uint32_t *leaf;		/* host -> its switch node */
	uint16_t *lid;
	size_t *base;		/* node -> first port slot */
	size_t nslots;
	uint32_t *load;		/* per port slot: flows through it */
};

static const struct ibsmd_rt_view *sort_view;

static int guid_cmp(const void *a, const void *b)
{
	const struct ibsmd_rt_view *v = sort_view;
	uint64_t x = v->nodes[*(const uint32_t *)a].guid, y = v->nodes[*(const uint32_t *)b].guid;

	return x < y ? -1 : x > y;
}

/* Hosts in leaf order: switches by GUID, then port. */
static void hosts_init(struct hosts *h, const struct ibsmd_rt_view *v)
{
	uint32_t *sw = malloc((v->nnodes + 1) * sizeof(*sw)), nsw = 0;

	memset(h, 0, sizeof(*h));
	h->base = malloc((v->nnodes + 1) * sizeof(*h->base));
	for (uint32_t n = 0; n < v->nnodes; n++) {
		h->base[n] = h->nslots;
		h->nslots += (size_t)v->nodes[n].nports + 1;
		if (ibsmd_is_switch(v, n))
			sw[nsw++] = n;
	}
	h->load = calloc(h->nslots, sizeof(*h->load));
	h->leaf = malloc(h->nslots * sizeof(*h->leaf));
	h->lid = malloc(h->nslots * sizeof(*h->lid));
	sort_view = v;
	qsort(sw, nsw, sizeof(*sw), guid_cmp);
	for (uint32_t i = 0; i < nsw; i++) {
		const struct ibsmd_rt_node *s = &v->nodes[sw[i]];
		for (unsigned p = 1; p <= s->nports; p++) {
			uint32_t peer = s->ports[p].peer;
			if (peer == IBSMD_NO_NODE || ibsmd_is_switch(v, peer))
				continue;
			h->leaf[h->n] = sw[i];
			h->lid[h->n++] = v->nodes[peer].ports[s->ports[p].peer_port].lid;
		}
	}
	free(sw);
}

static void hosts_free(struct hosts *h)
{
	free(h->leaf);
	free(h->lid);
	free(h->base);
	free(h->load);
}

/* The port slots of the flow a -> b into @path; returns its length, or -1
 * when it does not arrive. */
static int flow_path(const struct rtv *r, const struct hosts *h, uint32_t a, uint32_t b,
		     size_t *path)
{
	uint32_t cur = h->leaf[a];
	int len = 0;

	while (len < MAX_HOPS) {
		uint8_t p = ibsmd_lft_get(&r->ctx, cur, h->lid[b]);
		if (p == 0 || p > r->v.nodes[cur].nports)
			return -1;
		uint32_t peer = r->v.nodes[cur].ports[p].peer;
		if (peer == IBSMD_NO_NODE)
			return -1;
		path[len++] = h->base[cur] + p;
		if (!ibsmd_is_switch(&r->v, peer))
			return peer == r->v.lid_node[h->lid[b]] ? len : -1;
		cur = peer;
	}
	return -1;
}

/* Load the flows src[i] -> dst[i]; returns the most any link carries. */
static uint32_t load_flows(const struct rtv *r, struct hosts *h, const uint32_t *src,
			   const uint32_t *dst, uint32_t n)
{
	size_t path[MAX_HOPS];
	uint32_t max = 0;

	memset(h->load, 0, h->nslots * sizeof(*h->load));
	for (uint32_t i = 0; i < n; i++) {
		int len = flow_path(r, h, src[i], dst[i], path);
		ck_assert_int_gt(len, 0);
		for (int k = 0; k < len; k++)
			if (++h->load[path[k]] > max)
				max = h->load[path[k]];
	}
	return max;
}

/* How many of the N-1 shift permutations are contention-free. */
static uint32_t contention_free_shifts(const struct rtv *r, struct hosts *h)
{
	uint32_t *src = malloc(h->n * sizeof(*src)), *dst = malloc(h->n * sizeof(*dst));
	uint32_t ok = 0;

	for (uint32_t s = 1; s < h->n; s++) {
		for (uint32_t i = 0; i < h->n; i++) {
			src[i] = i;
			dst[i] = (i + s) % h->n;
		}
		ok += load_flows(r, h, src, dst, h->n) == 1;
	}
	free(src);
	free(dst);
	return ok;
}

static uint64_t rng_next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Effective bisection bandwidth over @rounds random pairings (fixed seed). */
static double ebb(const struct rtv *r, struct hosts *h, unsigned rounds)
{
	uint32_t n = h->n & ~1u;
	uint32_t *perm = malloc(h->n * sizeof(*perm)), *src = malloc(n * sizeof(*src));
	uint32_t *dst = malloc(n * sizeof(*dst));
	size_t path[MAX_HOPS];
	uint64_t seed = 0x5eed;
	double sum = 0;

	for (unsigned round = 0; round < rounds; round++) {
		for (uint32_t i = 0; i < h->n; i++)
			perm[i] = i;
		for (uint32_t i = h->n - 1; i > 0; i--) {
			uint32_t j = (uint32_t)(rng_next(&seed) % (i + 1)), t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (uint32_t i = 0; i < n; i += 2) {
			src[i] = dst[i + 1] = perm[i];
			dst[i] = src[i + 1] = perm[i + 1];
		}
		load_flows(r, h, src, dst, n);
		for (uint32_t i = 0; i < n; i++) {
			int len = flow_path(r, h, src[i], dst[i], path);
			uint32_t worst = 1;
			for (int k = 0; k < len; k++)
				worst = h->load[path[k]] > worst ? h->load[path[k]] : worst;
			sum += 1.0 / worst;
		}
	}
	free(perm);
	free(src);
	free(dst);
	return sum / ((double)rounds * n);
}

static void load_generated(struct rtv *r, const char *args)
{
	char *path = rtv_topogen(args);

	ck_assert_ptr_nonnull(path);
	ck_assert_int_eq(rtv_load(r, path, NULL, NULL), 0);
	unlink(path);
	free(path);
}

/* The ftree engine's whole life on @r, checked as the chain would: every CA
 * pair reaches, and no credit loop on the SLs path_sl gives.  Returns the
 * highest SL any CA -> CA route uses (routes to switches may turn where CA
 * routes do not: a spine reaches another spine only through a leaf). */
static unsigned ftree_ok(struct rtv *r)
{
	const struct ibsmd_routing_engine *e = &rt_ftree_engine;
	struct rt_validation val;
	struct rt_cdg_result cdg;
	void *state = NULL;
	unsigned max_sl = 0;

	ck_assert(e->deadlock_free);
	ck_assert_int_eq(e->setup(&r->ctx, &state), 0);
	ck_assert_msg(e->compute_unicast(&r->ctx, state) == 0, "%s", rtv_last_log);
	ck_assert_msg(rt_validate(&r->ctx, &val) == 0, "%s", val.first_problem);
	ck_assert_uint_eq(val.unreachable + val.loops, 0);
	ck_assert_msg(rt_cdg_check(&r->ctx, e, state, &cdg) == 0, "%s", cdg.first_cycle);
	for (uint32_t slid = 1; slid <= r->v.max_lid; slid++) {
		uint32_t n = r->v.lid_node[slid];
		if (n == IBSMD_NO_NODE || ibsmd_is_switch(&r->v, n))
			continue;
		for (uint32_t dlid = 1; dlid <= r->v.max_lid; dlid++) {
			if (ibsmd_is_switch(&r->v, r->v.lid_node[dlid]))
				continue;
			unsigned sl = e->path_sl(&r->ctx, state, (uint16_t)slid, (uint16_t)dlid);
			max_sl = sl > max_sl ? sl : max_sl;
		}
	}
	e->destroy(state);
	return max_sl;
}

START_TEST(three_level_shifts_contention_free)
{
	struct rtv r;
	struct hosts h;

	load_generated(&r, "fattree --levels 3 --radix 8");
	ck_assert_uint_eq(ftree_ok(&r), 0);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "3 levels, 32 leaves, 80 switches"));
	hosts_init(&h, &r.v);
	ck_assert_uint_eq(h.n, 128);
	ck_assert_uint_eq(contention_free_shifts(&r, &h), 127);
	double e = ebb(&r, &h, PAIRINGS);
	printf("ftree, 3-level radix-8 fat tree: 127 of 127 shifts contention-free, "
	       "EBB %.3f\n", e);
	ck_assert_double_ge(e, 0.59);	/* OpenSM's ftree */
	hosts_free(&h);
	rtv_free(&r);
}
END_TEST

START_TEST(two_level_shifts_contention_free)
{
	struct rtv r;
	struct hosts h;

	load_generated(&r, "fattree --levels 2 --radix 8");
	ck_assert_uint_eq(ftree_ok(&r), 0);
	hosts_init(&h, &r.v);
	ck_assert_uint_eq(h.n, 32);
	ck_assert_uint_eq(contention_free_shifts(&r, &h), 31);
	hosts_free(&h);
	rtv_free(&r);
}
END_TEST

/* up*-down* on the same tree is far from contention-free: the measure bites */
START_TEST(updn_is_not_contention_free)
{
	struct rtv r;
	struct hosts h;

	load_generated(&r, "fattree --levels 3 --radix 8");
	ck_assert_int_eq(rt_updn_engine.compute_unicast(&r.ctx, NULL), 0);
	hosts_init(&h, &r.v);
	ck_assert_uint_lt(contention_free_shifts(&r, &h), 127);
	hosts_free(&h);
	rtv_free(&r);
}
END_TEST

/* Every pair routed, no credit loop, and a better EBB than min-hop's (0.536
 * against 0.496 with 100 pairings; both 0.594 on the pure tree). */
START_TEST(degraded_tree_routes_every_pair)
{
	struct rtv r;
	struct hosts h;

	load_generated(&r, "fattree --levels 3 --radix 8 --remove-links 5 --seed 1");
	ftree_ok(&r);
	hosts_init(&h, &r.v);
	double e = ebb(&r, &h, PAIRINGS);
	printf("ftree, 3-level radix-8 fat tree, 5%% of links removed: %u of 127 shifts "
	       "contention-free, EBB %.3f\n", contention_free_shifts(&r, &h), e);
	rtv_clear(&r);
	ck_assert_int_eq(rt_minhop_engine.compute_unicast(&r.ctx, NULL), 0);
	double m = ebb(&r, &h, PAIRINGS);
	printf("minhop, the same tree: EBB %.3f\n", m);
	ck_assert_double_gt(e, m + 0.03);
	hosts_free(&h);
	rtv_free(&r);
}
END_TEST

/* Trees so damaged that some pairs have no up-then-down path: those turn, on
 * SLs above 0, and the CDG stays acyclic. */
START_TEST(turns_get_their_own_sl)
{
	static const char *const args[] = {
		"fattree --levels 2 --radix 8 --remove-links 40 --seed 3",
		"fattree --levels 3 --radix 8 --remove-links 30 --seed 2",
		"fattree --levels 3 --radix 8 --remove-links 45 --seed 7",
	};
	unsigned turned = 0;

	for (unsigned i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		struct rtv r;
		load_generated(&r, args[i]);
		turned += ftree_ok(&r) > 0;
		rtv_free(&r);
	}
	ck_assert_uint_gt(turned, 0);
}
END_TEST

/* Copy topology file @from to @to without the link between switches @a and
 * @b: the lines of @a's block naming @b, and of @b's naming @a. */
static void cut_link(const char *from, const char *to, const char *a, const char *b)
{
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");
	char line[256], block[64] = "", qa[64], qb[64];

	ck_assert(in && out);
	snprintf(qa, sizeof(qa), "\"%s\"", a);
	snprintf(qb, sizeof(qb), "\"%s\"", b);
	while (fgets(line, sizeof(line), in)) {
		const char *q = strchr(line, '"');
		if (line[0] != '[' && q)
			snprintf(block, sizeof(block), "%.*s", (int)strcspn(q + 1, "\"") + 2, q);
		else if (line[0] == '[' && ((strcmp(block, qa) == 0 && strstr(line, qb)) ||
					    (strcmp(block, qb) == 0 && strstr(line, qa))))
			continue;
		fputs(line, out);
	}
	fclose(in);
	fclose(out);
}

/* Rank of every switch node: hops from the nearest switch with CAs (what the
 * engine ranks a generated tree by); UINT16_MAX for the other nodes. */
static uint16_t *switch_ranks(const struct ibsmd_rt_view *v)
{
	uint16_t *rank = malloc(v->nnodes * sizeof(*rank));
	uint32_t *queue = malloc(v->nnodes * sizeof(*queue)), head = 0, tail = 0;

	for (uint32_t n = 0; n < v->nnodes; n++) {
		rank[n] = UINT16_MAX;
		for (unsigned p = 1; ibsmd_is_switch(v, n) && p <= v->nodes[n].nports; p++) {
			uint32_t peer = v->nodes[n].ports[p].peer;
			if (peer != IBSMD_NO_NODE && !ibsmd_is_switch(v, peer) && rank[n]) {
				rank[n] = 0;
				queue[tail++] = n;
			}
		}
	}
	while (head < tail) {
		uint32_t n = queue[head++];
		for (unsigned p = 1; p <= v->nodes[n].nports; p++) {
			uint32_t peer = v->nodes[n].ports[p].peer;
			if (peer != IBSMD_NO_NODE && ibsmd_is_switch(v, peer) && rank[peer] == UINT16_MAX) {
				rank[peer] = rank[n] + 1;
				queue[tail++] = peer;
			}
		}
	}
	free(queue);
	return rank;
}

/* Does the route from switch @s to @dlid go down, then up again? */
static bool turns_down_then_up(const struct rtv *r, const uint16_t *rank, uint32_t s,
			       uint16_t dlid)
{
	bool down = false;

	for (unsigned hops = 0; hops < MAX_HOPS && s != r->v.lid_node[dlid]; hops++) {
		uint8_t p = r->lft[s][dlid];
		ck_assert_uint_ge(p, 1);
		ck_assert_uint_le(p, r->v.nodes[s].nports);
		uint32_t t = r->v.nodes[s].ports[p].peer;
		if (!ibsmd_is_switch(&r->v, t))
			break;
		if (rank[t] > rank[s] && down)
			return true;
		down |= rank[t] < rank[s];
		s = t;
	}
	return false;
}

/*
 * The routes ftree says turn down-then-up are the ones that do, and each gets
 * its SL from path_sl: walking every CA -> CA route (from the first CA of each
 * switch, path_sl_by_switch), the routes that turn are those path_sl puts
 * above SL 0, as many as the engine logs, and the highest SL is the one the
 * credit-loop check finds (which decides SL2VL programming).  Routes to
 * switch LIDs stay on SL 0, turns or not, as the check leaves them out.
 * Returns how many CA -> CA routes turn.
 */
static unsigned turns_match_path_sls(struct rtv *r, unsigned *to_switch_lids)
{
	const struct ibsmd_routing_engine *e = &rt_ftree_engine;
	struct rt_cdg_result cdg;
	void *state = NULL;
	uint16_t *rank = switch_ranks(&r->v);
	uint8_t *asked = calloc(r->v.nnodes, 1);
	unsigned turned = 0, sw_turned = 0, max_sl = 0, logged, logged_sl, to_switches;

	ck_assert_int_eq(e->setup(&r->ctx, &state), 0);
	ck_assert_msg(e->compute_unicast(&r->ctx, state) == 0, "%s", rtv_last_log);
	const char *at = strstr(rtv_last_log, "switches ranked; ");
	ck_assert_msg(at && sscanf(at, "switches ranked; %u CA -> CA routes turn down-then-up, "
				   "on SLs up to %u; %u CA -> switch LID", &logged, &logged_sl,
				   &to_switches) == 3, "%s", rtv_last_log);
	ck_assert_msg(rt_cdg_check(&r->ctx, e, state, &cdg) == 0, "%s", cdg.first_cycle);
	for (uint32_t slid = 1; slid <= r->v.max_lid; slid++) {
		uint32_t n = r->v.lid_node[slid];
		if (n == IBSMD_NO_NODE || ibsmd_is_switch(&r->v, n))
			continue;
		uint32_t s = r->v.nodes[n].ports[r->v.lid_port[slid]].peer;
		if (asked[s]++)		/* one CA per switch, as path_sl is keyed */
			continue;
		for (uint32_t dlid = 1; dlid <= r->v.max_lid; dlid++) {
			uint32_t d = r->v.lid_node[dlid];
			if (d == IBSMD_NO_NODE)
				continue;
			bool turns = turns_down_then_up(r, rank, s, (uint16_t)dlid);
			unsigned sl = e->path_sl(&r->ctx, state, (uint16_t)slid, (uint16_t)dlid);
			if (ibsmd_is_switch(&r->v, d)) {
				ck_assert_uint_eq(sl, 0);
				sw_turned += turns;
				continue;
			}
			ck_assert_msg(turns == (sl > 0), "LID %u -> %u: %s, on SL %u", slid, dlid,
				      turns ? "turns" : "does not turn", sl);
			turned += turns;
			max_sl = sl > max_sl ? sl : max_sl;
		}
	}
	ck_assert_uint_eq(turned, logged);
	ck_assert_uint_eq(max_sl, logged_sl);
	ck_assert_uint_eq(cdg.max_sl, max_sl);
	ck_assert_uint_eq(sw_turned, to_switches);
	*to_switch_lids = to_switches;
	e->destroy(state);
	free(asked);
	free(rank);
	return turned;
}

/* A 3-level tree whose leaf L0.1 keeps one of its four uplinks: no CA -> CA
 * route turns (L0.1 reaches every top through its last parent, and every
 * leaf reaches that parent's tops), but the routes from L0.1 to the LIDs of
 * the other pod-0 aggregation switches, of the tops above them and of their
 * peers in the other pods do.  The engine logged those as CA routes on SL 1
 * while the check, the SL2VL tables and the SA kept SL 0 for them. */
START_TEST(a_leaf_with_one_uplink_turns_only_to_switch_lids)
{
	char *path = rtv_topogen("fattree --levels 3 --radix 8");
	char cut[2][64] = { "/tmp/check_rt_ftree_cut1.XXXXXX", "/tmp/check_rt_ftree_cut2.XXXXXX" };
	static const char *const aggs[] = { "A0.0", "A0.1", "A0.2" };
	unsigned to_switches;
	struct rtv r;

	ck_assert_ptr_nonnull(path);
	for (unsigned i = 0; i < 2; i++)
		ck_assert_int_ge(close(mkstemp(cut[i])), 0);
	cut_link(path, cut[0], "L0.1", aggs[0]);
	cut_link(cut[0], cut[1], "L0.1", aggs[1]);
	cut_link(cut[1], cut[0], "L0.1", aggs[2]);
	ck_assert_int_eq(rtv_load(&r, cut[0], NULL, NULL), 0);
	ck_assert_uint_eq(turns_match_path_sls(&r, &to_switches), 0);
	/* 3 aggregation switches in pod 0, their 3 x 4 tops, 7 x 3 peers */
	ck_assert_uint_eq(to_switches, 3 + 12 + 21);
	rtv_free(&r);
	for (unsigned i = 0; i < 2; i++)
		unlink(cut[i]);
	unlink(path);
	free(path);
}
END_TEST

/* The same on trees whose CA -> CA routes do turn. */
START_TEST(turning_routes_are_the_ones_on_sls)
{
	static const char *const args[] = {
		TURNING_TREE,
		"fattree --levels 3 --radix 8 --remove-links 30 --seed 2",
		"fattree --levels 3 --radix 8 --remove-links 45 --seed 7",
	};
	unsigned turned = 0, to_switches;

	for (unsigned i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		struct rtv r;
		load_generated(&r, args[i]);
		turned += turns_match_path_sls(&r, &to_switches);
		rtv_free(&r);
	}
	ck_assert_uint_gt(turned, 0);
}
END_TEST

/* The same source as a plugin runs in a child: the same rows, and its path_sl
 * answers reach the credit-loop check and the highest SL through the shared
 * table (routing/rt_sandbox.c). */
START_TEST(as_a_plugin_gives_the_same_routes_and_sls)
{
	char so[512];
	snprintf(so, sizeof(so), "%s/tests/.libs/rt_ftree_plugin.so",
		 getenv("top_builddir") ? getenv("top_builddir") : ".");
	const char *builtin[] = { "ftree" }, *plugin[] = { so };
	struct rt_validation in, out;
	struct rtv r;

	load_generated(&r, TURNING_TREE);
	ck_assert_int_eq(rt_chain_run(builtin, 1, "/nonexistent", NULL, &r.ctx, &in), 0);
	ck_assert_uint_gt(in.max_sl, 0);
	size_t row = (size_t)r.v.max_lid + 1;
	uint8_t *rows = calloc(r.v.nnodes, row);
	ck_assert_ptr_nonnull(rows);
	for (uint32_t n = 0; n < r.v.nnodes; n++)
		if (r.lft[n])
			memcpy(rows + n * row, r.lft[n], row);
	ck_assert_int_eq(rt_chain_run(plugin, 1, "/nonexistent", NULL, &r.ctx, &out), 0);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "ftree routes all"));
	ck_assert_uint_eq(out.max_sl, in.max_sl);
	for (uint32_t n = 0; n < r.v.nnodes; n++)
		if (r.lft[n])
			ck_assert_mem_eq(rows + n * row, r.lft[n], row);
	free(rows);
	rtv_free(&r);
}
END_TEST

START_TEST(real_two_level_cluster)
{
	struct rtv r;

	ck_assert_int_eq(rtv_load(&r, rtv_srcpath("tests/topo/real/cluster144-sx6036-2level.topo"),
				  NULL, NULL), 0);
	ftree_ok(&r);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "2 levels, 6 leaves, 8 switches"));
	rtv_free(&r);
}
END_TEST

/* Irregular, but layered: every pair has an up-then-down path. */
START_TEST(real_irregular_cluster_routes_as_a_tree)
{
	struct rtv r;

	ck_assert_int_eq(rtv_load(&r, rtv_srcpath("tests/topo/real/cluster89-mixed-irregular.topo"),
				  NULL, NULL), 0);
	ck_assert_uint_eq(ftree_ok(&r), 0);
	rtv_free(&r);
}
END_TEST

/* FNV-1a over every switch's LFT row, LIDs 0..max_lid, in node order. */
static uint64_t lft_hash(const struct rtv *r)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (uint32_t n = 0; n < r->v.nnodes; n++)
		for (uint32_t lid = 0; r->lft[n] && lid <= r->v.max_lid; lid++)
			h = (h ^ r->lft[n][lid]) * 0x100000001b3ULL;
	return h;
}

/* The rows are the ones the engine gave before its per-destination state was
 * kept across destinations (recorded with that code): pure, oversubscribed
 * and degraded trees (with turns), LMC 2, and the real clusters. */
START_TEST(routes_are_unchanged)
{
	static const struct {
		const char *args;	/* ibsmd-topogen, or a file under tests/ */
		unsigned lmc;
		uint64_t hash;
	} fab[] = {
		{ "fattree --levels 3 --radix 8", 0, 0xbc43fb15e3aa1295ULL },
		{ "fattree --levels 3 --radix 8", 2, 0x8fa655ee2c070ad5ULL },
		{ "fattree --levels 2 --radix 12 --oversubscription 2:1", 0, 0x7361a82661c61f1dULL },
		{ "fattree --levels 3 --radix 8 --remove-links 5 --seed 1", 0, 0x50cf105797999633ULL },
		{ TURNING_TREE, 0, 0x7c154d31ed9a0d4fULL },
		{ "fattree --levels 3 --radix 8 --remove-links 30 --seed 2", 1, 0xa81e7e533b0f59fcULL },
		{ "fattree --levels 3 --radix 8 --remove-links 45 --seed 7", 0, 0x0cf146eb01eae660ULL },
		{ "tests/topo/real/cluster144-sx6036-2level.topo", 0, 0xaed3d384f05f165eULL },
		{ "tests/topo/real/cluster89-mixed-irregular.topo", 0, 0x5cd17665b72ef50eULL },
	};

	for (unsigned i = 0; i < sizeof(fab) / sizeof(fab[0]); i++) {
		struct rtv r;
		if (strncmp(fab[i].args, "tests/", 6) == 0)
			ck_assert_int_eq(rtv_load(&r, rtv_srcpath(fab[i].args), NULL, NULL), 0);
		else
			load_generated(&r, fab[i].args);
		if (fab[i].lmc)
			ck_assert_int_eq(rtv_set_lmc(&r, fab[i].lmc), 0);
		ftree_ok(&r);
		ck_assert_msg(lft_hash(&r) == fab[i].hash, "%s, LMC %u: routes changed",
			      fab[i].args, fab[i].lmc);
		rtv_free(&r);
	}
}
END_TEST

START_TEST(torus_is_refused)
{
	const char *names[] = { "ftree", "minhop" };
	struct rt_validation val;
	struct rtv r;

	load_generated(&r, "torus --dims 4x4");
	ck_assert_int_eq(rt_ftree_engine.compute_unicast(&r.ctx, NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "not a fat tree"));
	rtv_clear(&r);
	ck_assert_int_eq(rt_chain_run(names, 2, "/nonexistent", NULL, &r.ctx, &val), 1);
	rtv_free(&r);
	load_generated(&r, "dragonfly");
	ck_assert_int_eq(rt_ftree_engine.compute_unicast(&r.ctx, NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "not a fat tree"));
	rtv_free(&r);
}
END_TEST

/* --- OpenSM's GUID files: storage nodes on the spines of tests/topo/ftree-io.topo --- */

static char guid_dir[64];

/* A GUID file (OpenSM's format: GUIDs, names after them, comments) under
 * guid_dir; its path, in a static buffer. */
static const char *guid_file(const char *name, const char *text)
{
	static char path[4][128];
	static unsigned next;
	char *p = path[next++ % 4];

	if (!guid_dir[0])
		ck_assert_ptr_nonnull(mkdtemp(strcpy(guid_dir, "/tmp/ftree-guids.XXXXXX")));
	snprintf(p, sizeof(path[0]), "%s/%s", guid_dir, name);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return p;
}

static void guid_files_gone(void)
{
	const char *names[] = { "roots", "cns", "ios", "bad" };
	char p[128];

	for (unsigned i = 0; guid_dir[0] && i < 4; i++) {
		snprintf(p, sizeof(p), "%s/%s", guid_dir, names[i]);
		unlink(p);
	}
	if (guid_dir[0])
		rmdir(guid_dir);
	guid_dir[0] = '\0';
}

/* ftree on ftree-io.topo with @options (KEY=PATH options point at guid_file()s). */
static int io_tree(struct rtv *r, const char *const *options)
{
	ck_assert_int_eq(rtv_load(r, rtv_srcpath("tests/topo/ftree-io.topo"), NULL, options), 0);
	return rt_ftree_engine.compute_unicast(&r->ctx, NULL);
}

#define ROOTS "# the spines\n0x0300000200000100 S0\n\n0x0300000200000110\tS1 # two\n"
#define CNS "0x0300000100000001\n0x0300000100000011\n0x0300000100000021\n" \
	"0x0300000100000031\n0x0300000100000041\n0x0300000100000051\n" \
	"0x0300000100000061\n0x0300000100000071\n"
#define IOS "0x0300000100000101\n0x0300000100000111\n0x0300000100000121\n0x0300000100000131\n"

/* Storage on the spines: too many CAs there for the leaves to be guessed;
 * OpenSM's files say which switches are roots and which CAs compute. */
START_TEST(guid_files_settle_the_levels)
{
	char roots[160], cns[160], ios[160], bad[160];
	struct rtv r;

	snprintf(roots, sizeof(roots), "root_guid_file=%s", guid_file("roots", ROOTS));
	snprintf(cns, sizeof(cns), "cn_guid_file=%s", guid_file("cns", CNS));
	snprintf(ios, sizeof(ios), "io_guid_file=%s", guid_file("ios", IOS));
	/* guessed: the spines look like leaves linked to leaves */
	ck_assert_int_eq(io_tree(&r, NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "not a fat tree: switches with compute nodes"));
	rtv_free(&r);
	/* the roots alone: every CA is a compute node, on two levels (as OpenSM) */
	ck_assert_int_eq(io_tree(&r, (const char *[]){ roots, NULL }), -EINVAL);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "compute nodes on two levels below the roots"));
	rtv_free(&r);
	/* the compute nodes, the I/O nodes, the roots with either, root= */
	const char *const good[][4] = {
		{ cns, NULL }, { ios, NULL }, { roots, cns, NULL }, { ios, roots, NULL },
		{ "root=0x0300000200000100", "root=0x0300000200000110", ios },
	};
	for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ck_assert_int_eq(rtv_load(&r, rtv_srcpath("tests/topo/ftree-io.topo"), NULL,
					  good[i]), 0);
		ftree_ok(&r);	/* every pair, I/O to I/O too, without a credit loop */
		ck_assert_msg(strstr(rtv_last_log, "2 levels, 4 leaves, 6 switches ranked"),
			      "options %u: %s", i, rtv_last_log);
		rtv_free(&r);
	}
	/* a root that is away is passed over; none left, a GUID file that does
	 * not read, a list naming no compute node: refused */
	ck_assert_int_eq(io_tree(&r, (const char *[]){ "root=0x99", "root=0x0300000200000100",
						       "root=0x0300000200000110", cns, NULL }), 0);
	rtv_free(&r);
	ck_assert_int_eq(io_tree(&r, (const char *[]){ "root=0x0300000100000001", cns, NULL }),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "none of the roots given is a switch"));
	rtv_free(&r);
	snprintf(bad, sizeof(bad), "cn_guid_file=%s", guid_file("bad", "0x10\nH3\n"));
	ck_assert_int_eq(io_tree(&r, (const char *[]){ bad, NULL }), -EINVAL);
	ck_assert_msg(strstr(rtv_last_log, "/bad:2: 'H3' is not a GUID"), "%s", rtv_last_log);
	rtv_free(&r);
	ck_assert_int_eq(io_tree(&r, (const char *[]){ "cn_guid_file=/nonexistent", NULL }),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "/nonexistent: No such file"));
	rtv_free(&r);
	snprintf(bad, sizeof(bad), "cn_guid_file=%s", guid_file("bad", "# none\n0x77\n"));
	ck_assert_int_eq(io_tree(&r, (const char *[]){ bad, NULL }), -EINVAL);
	ck_assert_ptr_nonnull(strstr(rtv_last_log, "no switch has a compute node"));
	rtv_free(&r);
	/* updn reads OpenSM's root file too */
	snprintf(roots, sizeof(roots), "root_guid_file=%s",
		 guid_file("roots", "0x0200000200000080\n0x0200000200000090 S1\n"));
	char *tree = rtv_topogen("fattree --levels 2 --radix 8");
	ck_assert_ptr_nonnull(tree);
	/* named: the context keeps the options until the engine runs (clang ends
	 * a compound literal's life with the call: ASan stack-use-after-scope) */
	const char *updn_opts[] = { roots, NULL };
	ck_assert_int_eq(rtv_load(&r, tree, NULL, updn_opts), 0);
	unlink(tree);
	free(tree);
	ck_assert_int_eq(rt_updn_engine.compute_unicast(&r.ctx, NULL), 0);
	ck_assert_msg(strstr(rtv_last_log, "2 roots (configured): 0x0200000200000080 "
			     "0x0200000200000090"), "%s", rtv_last_log);
	rtv_free(&r);
	guid_files_gone();
}
END_TEST

static Suite *ftree_suite(void)
{
	Suite *s = suite_create("ftree");
	TCase *tc = tcase_create("ftree");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, three_level_shifts_contention_free);
	tcase_add_test(tc, two_level_shifts_contention_free);
	tcase_add_test(tc, updn_is_not_contention_free);
	tcase_add_test(tc, degraded_tree_routes_every_pair);
	tcase_add_test(tc, turns_get_their_own_sl);
	tcase_add_test(tc, a_leaf_with_one_uplink_turns_only_to_switch_lids);
	tcase_add_test(tc, turning_routes_are_the_ones_on_sls);
	tcase_add_test(tc, as_a_plugin_gives_the_same_routes_and_sls);
	tcase_add_test(tc, real_two_level_cluster);
	tcase_add_test(tc, real_irregular_cluster_routes_as_a_tree);
	tcase_add_test(tc, routes_are_unchanged);
	tcase_add_test(tc, torus_is_refused);
	tcase_add_test(tc, guid_files_settle_the_levels);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(ftree_suite)

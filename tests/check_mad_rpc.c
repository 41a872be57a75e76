// SPDX-License-Identifier: MIT
/*
 * check_mad_rpc.c - the rpc layer over a scripted loopback transport: window,
 * TID matching, timeouts, retries, unsolicited MADs, malformed answers.
 *
 * The loopback answers every request with a GetResp of the same TID unless the
 * test tells it to drop the next few sends; it records how many requests were
 * on the wire at once, in all and per destination (the first port of the
 * directed route), so the window and the per-node cap can be checked.
 * PerfMgt GMPs are answered too (status from gmp_status), and the order of
 * classes on the wire is kept, for the SMP-first rule.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "mad/mad_perf.h"
#include "mad/mad_rpc.h"
#include "tests/check_util.h"

#define LOOP_MAX 8192

struct loop {
	uint8_t q[LOOP_MAX][MAD_BLOCK_SIZE];
	unsigned head, len;
	unsigned drop_next;	/* drop this many sends */
	unsigned corrupt_next;	/* answer with a bad base version */
	unsigned max_outstanding, outstanding;
	unsigned dest_now[256], dest_max[256];
	unsigned sends;
	uint8_t classes[LOOP_MAX];	/* mgmt class of each send */
	unsigned gmp_now, gmp_max;
	uint16_t gmp_status;
};

static struct loop lp;

static int loop_send(struct mad_transport *t, const uint8_t mad[MAD_BLOCK_SIZE],
		     const struct mad_addr *to)
{
	struct mad_smp smp;

	(void)t;
	(void)to;
	if (lp.sends < LOOP_MAX)
		lp.classes[lp.sends] = mad[1];
	lp.sends++;
	if (lp.drop_next) {
		lp.drop_next--;
		return 0;
	}
	if (mad[1] == MAD_CLASS_PERF) {
		uint8_t *slot = lp.q[(lp.head + lp.len++) % LOOP_MAX];
		memcpy(slot, mad, MAD_BLOCK_SIZE);
		slot[3] = MAD_METHOD_GET_RESP;
		slot[4] = (uint8_t)(lp.gmp_status >> 8);
		slot[5] = (uint8_t)lp.gmp_status;
		lp.outstanding++;
		if (++lp.gmp_now > lp.gmp_max)
			lp.gmp_max = lp.gmp_now;
		return 0;
	}
	ck_assert_int_eq(mad_smp_decode(mad, MAD_BLOCK_SIZE, &smp), 0);
	mad_smp_make_response(&smp, 0);
	smp.data[0] = (uint8_t)smp.attr_mod;
	uint8_t *slot = lp.q[(lp.head + lp.len) % LOOP_MAX];
	mad_smp_encode(&smp, slot);
	if (lp.corrupt_next) {
		lp.corrupt_next--;
		slot[0] = 7;
	}
	lp.len++;
	uint8_t d = smp.hop_cnt ? smp.initial_path[1] : 0;
	if (++lp.dest_now[d] > lp.dest_max[d])
		lp.dest_max[d] = lp.dest_now[d];
	if (++lp.outstanding > lp.max_outstanding)
		lp.max_outstanding = lp.outstanding;
	return 0;
}

static int loop_recv(struct mad_transport *t, uint8_t *mad, size_t *len,
		     struct mad_addr *from, int timeout_ms)
{
	(void)t;
	(void)timeout_ms;
	*len = MAD_BLOCK_SIZE;
	if (!lp.len)
		return -ETIMEDOUT;
	struct mad_smp smp;

	memcpy(mad, lp.q[lp.head], MAD_BLOCK_SIZE);
	lp.gmp_now -= mad[1] == MAD_CLASS_PERF;
	if (mad_smp_decode(mad, MAD_BLOCK_SIZE, &smp) == 0 && smp.method == MAD_METHOD_GET_RESP)
		lp.dest_now[smp.hop_cnt ? smp.initial_path[1] : 0]--;
	lp.head = (lp.head + 1) % LOOP_MAX;
	lp.len--;
	lp.outstanding--;
	from->lid = 0xffff;
	return 0;
}

static const struct mad_transport_ops loop_ops = {
	.name = "loop", .send = loop_send, .recv = loop_recv,
};

static struct mad_transport loop_t = { .ops = &loop_ops };

struct tally {
	unsigned ok, timeouts, other;
	uint32_t last_mod;
};

static void count_done(void *ctx, int err, const struct mad_smp *req,
		       const struct mad_smp *resp)
{
	struct tally *tl = ctx;

	if (err == 0) {
		tl->ok++;
		ck_assert_uint_eq(resp->data[0], (uint8_t)req->attr_mod);
		tl->last_mod = req->attr_mod;
	} else if (err == -ETIMEDOUT) {
		tl->timeouts++;
	} else {
		tl->other++;
	}
}

static void setup(void)
{
	memset(&lp, 0, sizeof(lp));
}

static void submit_n(struct mad_rpc *r, unsigned n, struct tally *tl)
{
	struct topo_path path = { 0 };
	struct mad_addr to = { .lid = 0xffff };
	struct mad_smp smp;

	for (unsigned i = 0; i < n; i++) {
		mad_smp_init_dr(&smp, MAD_METHOD_GET, MAD_ATTR_NODE_INFO, i, &path);
		ck_assert_int_eq(mad_rpc_submit(r, &smp, &to, count_done, tl), 0);
	}
}

START_TEST(window_is_respected)
{
	struct mad_rpc_opts o = { .window = 16, .timeout_ms = 50, .retries = 0 };
	struct mad_rpc *r = mad_rpc_new(&loop_t, &o);
	struct tally tl = { 0 };
	struct mad_rpc_stats st;

	submit_n(r, 1000, &tl);
	ck_assert_uint_eq(mad_rpc_pending(r), 1000);
	ck_assert_uint_eq(lp.sends, 0);		/* nothing leaves before a poll */
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	ck_assert_uint_eq(tl.ok, 1000);
	ck_assert_uint_eq(lp.max_outstanding, 16);
	mad_rpc_get_stats(r, &st);
	ck_assert_uint_eq(st.sent, 1000);
	ck_assert_uint_eq(st.answered, 1000);
	ck_assert_uint_eq(mad_rpc_pending(r), 0);
	mad_rpc_free(r);
}
END_TEST

START_TEST(retry_then_success)
{
	struct mad_rpc_opts o = { .window = 4, .timeout_ms = 5, .retries = 2 };
	struct mad_rpc *r = mad_rpc_new(&loop_t, &o);
	struct tally tl = { 0 };
	struct mad_rpc_stats st;

	lp.drop_next = 2;	/* first two tries lost, third answered */
	submit_n(r, 1, &tl);
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	ck_assert_uint_eq(tl.ok, 1);
	mad_rpc_get_stats(r, &st);
	ck_assert_uint_eq(st.sent, 3);
	ck_assert_uint_eq(st.retries, 2);
	ck_assert_uint_eq(st.timeouts, 0);
	mad_rpc_free(r);
}
END_TEST

START_TEST(timeout_after_retries)
{
	struct mad_rpc_opts o = { .window = 1, .timeout_ms = 5, .retries = 1 };
	struct mad_rpc *r = mad_rpc_new(&loop_t, &o);
	struct tally tl = { 0 };
	struct mad_rpc_stats st;

	lp.drop_next = 2;
	submit_n(r, 3, &tl);	/* the first is lost on both tries, the others answered */
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	ck_assert_uint_eq(tl.timeouts, 1);
	ck_assert_uint_eq(tl.ok, 2);
	mad_rpc_get_stats(r, &st);
	ck_assert_uint_eq(st.timeouts, 1);
	ck_assert_uint_eq(st.sent, 4);
	mad_rpc_free(r);
}
END_TEST

static unsigned unsolicited_seen;

static void on_unsolicited(void *ctx, const struct mad_smp *smp, const struct mad_addr *from)
{
	(void)ctx;
	(void)from;
	ck_assert_uint_eq(smp->method, MAD_METHOD_TRAP);
	unsolicited_seen++;
}

START_TEST(unsolicited_and_malformed)
{
	struct mad_rpc_opts o = { .window = 4, .timeout_ms = 5, .retries = 0 };
	struct mad_rpc *r = mad_rpc_new(&loop_t, &o);
	struct mad_rpc_stats st;
	struct tally tl = { 0 };
	struct mad_smp trap;

	unsolicited_seen = 0;
	mad_rpc_set_unsolicited(r, on_unsolicited, NULL);
	mad_smp_init_lid(&trap, MAD_METHOD_TRAP, MAD_ATTR_NOTICE, 0);
	mad_smp_encode(&trap, lp.q[0]);
	lp.len = 1;
	lp.outstanding = 1;
	lp.corrupt_next = 1;	/* the answer to the request is garbage */
	submit_n(r, 1, &tl);
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	ck_assert_uint_eq(unsolicited_seen, 1);
	ck_assert_uint_eq(tl.timeouts, 1);
	mad_rpc_get_stats(r, &st);
	ck_assert_uint_eq(st.malformed, 1);
	ck_assert_uint_eq(st.unsolicited, 1);
	mad_rpc_free(r);
}
END_TEST

START_TEST(call_is_synchronous)
{
	struct mad_rpc_opts o = { .window = 1, .timeout_ms = 5, .retries = 0 };
	struct mad_rpc *r = mad_rpc_new(&loop_t, &o);
	struct topo_path path = { 0 };
	struct mad_addr to = { .lid = 0xffff };
	struct mad_smp req, resp;

	mad_smp_init_dr(&req, MAD_METHOD_GET, MAD_ATTR_PORT_INFO, 9, &path);
	ck_assert_int_eq(mad_rpc_call(r, &req, &to, &resp), 0);
	ck_assert_uint_eq(resp.data[0], 9);
	ck_assert_uint_eq(resp.attr_id, MAD_ATTR_PORT_INFO);
	lp.drop_next = 1;
	ck_assert_int_eq(mad_rpc_call(r, &req, &to, &resp), -ETIMEDOUT);
	mad_rpc_free(r);
}
END_TEST

/* Requests to @ndest destinations, @per each, submitted destination by
 * destination (as discovery asks all ports of one switch in a row). */
static void submit_to(struct mad_rpc *r, unsigned ndest, unsigned per, struct tally *tl)
{
	struct mad_addr to = { .lid = 0xffff };
	struct mad_smp smp;

	for (unsigned d = 0; d < ndest; d++) {
		struct topo_path path = { .hops = 1, .port = { 0, (uint8_t)(d + 1) } };
		for (unsigned i = 0; i < per; i++) {
			mad_smp_init_dr(&smp, MAD_METHOD_GET, MAD_ATTR_PORT_INFO, i, &path);
			ck_assert_int_eq(mad_rpc_submit(r, &smp, &to, count_done, tl), 0);
		}
	}
}

START_TEST(per_node_cap)
{
	struct mad_rpc_opts o = { .window = 64, .per_node = 3, .timeout_ms = 50, .retries = 0 };
	struct mad_rpc *r = mad_rpc_new(&loop_t, &o);
	struct tally tl = { 0 };

	submit_to(r, 40, 30, &tl);
	ck_assert_uint_eq(mad_rpc_pending(r), 1200);
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	ck_assert_uint_eq(tl.ok, 1200);
	ck_assert_uint_eq(tl.other, 0);
	for (unsigned d = 1; d <= 40; d++)
		ck_assert_uint_eq(lp.dest_max[d], 3);
	/* a busy destination does not hold up the others: the whole window works */
	ck_assert_uint_eq(lp.max_outstanding, 64);
	ck_assert_uint_eq(mad_rpc_pending(r), 0);
	mad_rpc_free(r);
}
END_TEST

static uint32_t order_next[256];

static void order_done(void *ctx, int err, const struct mad_smp *req,
		       const struct mad_smp *resp)
{
	(void)ctx;
	(void)resp;
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq(req->attr_mod, order_next[req->initial_path[1]]++);
}

START_TEST(per_node_keeps_order)
{
	struct mad_rpc_opts o = { .window = 16, .per_node = 2, .timeout_ms = 50, .retries = 0 };
	struct mad_rpc *r = mad_rpc_new(&loop_t, &o);
	struct mad_addr to = { .lid = 0xffff };
	struct mad_smp smp;

	memset(order_next, 0, sizeof(order_next));
	/* interleaved: each destination's requests go out in submission order */
	for (unsigned i = 0; i < 50; i++)
		for (unsigned d = 1; d <= 5; d++) {
			struct topo_path path = { .hops = 1, .port = { 0, (uint8_t)d } };
			mad_smp_init_dr(&smp, MAD_METHOD_GET, MAD_ATTR_PORT_INFO, i, &path);
			ck_assert_int_eq(mad_rpc_submit(r, &smp, &to, order_done, NULL), 0);
		}
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	for (unsigned d = 1; d <= 5; d++) {
		ck_assert_uint_eq(order_next[d], 50);
		ck_assert_uint_eq(lp.dest_max[d], 2);
	}
	mad_rpc_free(r);
}
END_TEST

START_TEST(window_shrinks_on_timeouts_and_grows_back)
{
	struct mad_rpc_opts o = { .window = 32, .timeout_ms = 5, .retries = 3 };
	struct mad_rpc *r = mad_rpc_new(&loop_t, &o);
	struct tally tl = { 0 };
	struct mad_rpc_stats st;

	lp.drop_next = 32;	/* the whole first burst is lost */
	submit_n(r, 32, &tl);
	while (lp.sends < 33)
		ck_assert_int_ge(mad_rpc_poll(r, 10), 0);
	mad_rpc_get_stats(r, &st);
	ck_assert_uint_eq(st.window_cuts, 1);	/* one burst lost: one cut */
	ck_assert_uint_eq(st.window, 16);
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	ck_assert_uint_eq(tl.ok, 32);
	lp.max_outstanding = 0;
	submit_n(r, 16, &tl);
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	ck_assert_uint_le(lp.max_outstanding, 17);
	/* answers flow: a window's worth of answers grows it by one, up to 32 */
	submit_n(r, 2000, &tl);
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	mad_rpc_get_stats(r, &st);
	ck_assert_uint_eq(st.window, 32);

	/* it never shrinks below the floor */
	for (unsigned i = 0; i < 6; i++) {
		lp.drop_next = 1;
		submit_n(r, 1, &tl);
		ck_assert_int_eq(mad_rpc_drain(r), 0);
	}
	mad_rpc_get_stats(r, &st);
	ck_assert_uint_eq(st.window, MAD_RPC_MIN_WINDOW);
	mad_rpc_free(r);
}
END_TEST

static void gmp_done(void *ctx, int err, const uint8_t *req, const uint8_t *resp)
{
	struct tally *tl = ctx;

	if (err == 0) {
		tl->ok++;
		ck_assert_uint_eq(resp[3], MAD_METHOD_GET_RESP);
		ck_assert_mem_eq(resp + 8, req + 8, 8);	/* its TID */
	} else if (err == -ETIMEDOUT) {
		tl->timeouts++;
	} else {
		tl->other++;
	}
}

static void submit_gmps(struct mad_rpc *r, unsigned n, struct tally *tl)
{
	struct mad_perf pm;
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr to = { .lid = 7, .qpn = MAD_PERF_QPN };

	mad_perf_init(&pm, MAD_METHOD_GET, MAD_PERF_ATTR_PORT_COUNTERS);
	mad_perf_encode(&pm, buf);
	for (unsigned i = 0; i < n; i++)
		ck_assert_int_eq(mad_rpc_submit_gmp(r, buf, &to, gmp_done, tl), 0);
}

/* SMPs never wait behind GMPs: submitted after them, they leave first, and
 * GMPs hold at most half the window. */
START_TEST(gmps_yield_to_smps)
{
	struct mad_rpc_opts o = { .window = 8, .timeout_ms = 50, .retries = 0 };
	struct mad_rpc *r = mad_rpc_new(&loop_t, &o);
	struct tally smps = { 0 }, gmps = { 0 };
	struct mad_rpc_stats st;

	submit_gmps(r, 40, &gmps);
	submit_n(r, 20, &smps);
	ck_assert_uint_eq(mad_rpc_pending(r), 60);
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	ck_assert_uint_eq(smps.ok, 20);
	ck_assert_uint_eq(gmps.ok, 40);
	for (unsigned i = 0; i < 20; i++)
		ck_assert_uint_ne(lp.classes[i], MAD_CLASS_PERF);
	ck_assert_uint_le(lp.gmp_max, 4);
	ck_assert_uint_le(lp.max_outstanding, 8);
	mad_rpc_get_stats(r, &st);
	ck_assert_uint_eq(st.gmp_sent, 40);
	ck_assert_uint_eq(st.sent, 20);
	mad_rpc_free(r);
}
END_TEST

/* GMPs parked behind their node's cap stay behind the SMPs queued meanwhile. */
START_TEST(parked_gmps_yield_to_smps)
{
	struct mad_rpc_opts o = { .window = 4, .per_node = 1, .timeout_ms = 50, .retries = 0 };
	struct mad_rpc *r = mad_rpc_new(&loop_t, &o);
	struct tally smps = { 0 }, gmps = { 0 };

	submit_gmps(r, 6, &gmps);	/* one node: one on the wire at a time */
	ck_assert_int_ge(mad_rpc_poll(r, 0), 0);	/* two went (one answered), four parked */
	ck_assert_uint_eq(lp.sends, 2);
	submit_n(r, 5, &smps);
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	ck_assert_uint_eq(smps.ok, 5);
	ck_assert_uint_eq(gmps.ok, 6);
	/* the window holds 3 SMPs beside the GMP; when it answers, the other 2
	 * SMPs go before the parked GMPs */
	for (unsigned i = 2; i < 7; i++)
		ck_assert_msg(lp.classes[i] != MAD_CLASS_PERF, "send %u is a GMP", i);
	mad_rpc_free(r);
}
END_TEST

/* A lost GMP times out without cutting the SMP window; a status is -EREMOTEIO. */
START_TEST(gmp_timeout_and_status)
{
	struct mad_rpc_opts o = { .window = 8, .timeout_ms = 5, .retries = 1 };
	struct mad_rpc *r = mad_rpc_new(&loop_t, &o);
	struct tally gmps = { 0 };
	struct mad_rpc_stats st;

	lp.drop_next = 8;
	submit_gmps(r, 4, &gmps);
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	ck_assert_uint_eq(gmps.timeouts, 4);
	mad_rpc_get_stats(r, &st);
	ck_assert_uint_eq(st.window_cuts, 0);
	ck_assert_uint_eq(st.window, 8);
	lp.gmp_status = MAD_STATUS_METHOD_ATTR_UNSUPPORTED;
	submit_gmps(r, 2, &gmps);
	ck_assert_int_eq(mad_rpc_drain(r), 0);
	ck_assert_uint_eq(gmps.other, 2);
	mad_rpc_free(r);
}
END_TEST

START_TEST(bad_options)
{
	struct mad_rpc_opts o = { .window = 0, .timeout_ms = 5 };

	ck_assert_ptr_null(mad_rpc_new(&loop_t, &o));
	o.window = MAD_RPC_MAX_WINDOW + 1;
	ck_assert_ptr_null(mad_rpc_new(&loop_t, &o));
	o.window = 4;
	o.per_node = MAD_RPC_MAX_PER_NODE + 1;
	ck_assert_ptr_null(mad_rpc_new(&loop_t, &o));
}
END_TEST

static Suite *rpc_suite(void)
{
	Suite *s = suite_create("mad_rpc");
	TCase *tc = tcase_create("rpc");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, window_is_respected);
	tcase_add_test(tc, retry_then_success);
	tcase_add_test(tc, timeout_after_retries);
	tcase_add_test(tc, unsolicited_and_malformed);
	tcase_add_test(tc, call_is_synchronous);
	tcase_add_test(tc, per_node_cap);
	tcase_add_test(tc, per_node_keeps_order);
	tcase_add_test(tc, window_shrinks_on_timeouts_and_grows_back);
	tcase_add_test(tc, gmps_yield_to_smps);
	tcase_add_test(tc, parked_gmps_yield_to_smps);
	tcase_add_test(tc, gmp_timeout_and_status);
	tcase_add_test(tc, bad_options);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(rpc_suite)

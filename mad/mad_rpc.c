// SPDX-License-Identifier: MIT
/*
 * mad_rpc.c - request/response matching, window, retries (see mad_rpc.h).
 *
 * Data: a slot array of `window` entries for requests on the wire, and a FIFO of
 * requests waiting for a slot.  The low 32 bits of a TID are (sequence << 12 |
 * slot), so an answer finds its slot in O(1) and a stale answer for a slot that
 * was reused fails the full-TID comparison.  Every request has the same timeout,
 * so expiry is checked by a scan at most once per millisecond.
 *
 * Destinations: a hash of the directed route (or the LID) names where a request
 * goes.  Each has a count on the wire and a FIFO of requests parked because
 * that count reached `per_node`; a destination whose answer frees room while
 * it has parked requests joins the ready ring, which fill() serves before the
 * main FIFO, so one busy switch never holds up requests to the others.
 * Destinations live in a dense array (stable indices, kept in the slots)
 * behind an open-addressing index; both are emptied when nothing is pending.
 *
 * Flow: submit -> queue -> fill() (-> parked -> ready) -> wire -> recv ->
 * match -> callback.
 *
 * GMPs (PerfMgt, class 0x04; congestion control, class 0x21) share the slots, TIDs and retries but wait in a
 * FIFO of their own that fill() serves only when no SMP waits (queued, or
 * parked behind its node's cap), and take at most half the window: an SMP submitted at any time finds half the window
 * free of them, and goes ahead of every GMP still queued.  A GMP that times
 * out does not cut the window (it travels on a data VL, not VL15).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_bytes.h"
#include "mad/mad_cc.h"
#include "mad/mad_perf.h"
#include "mad/mad_rpc.h"
#include "mad/mad_sa.h"

#define SLOT_BITS 12
#define SLOT_MASK ((1u << SLOT_BITS) - 1)
#define NONE UINT32_MAX

struct rpc_req {
	union {
		struct mad_smp smp;
		uint8_t gmp[MAD_BLOCK_SIZE];	/* is_gmp: the encoded MAD */
	};
	struct mad_addr to;
	union {
		mad_rpc_done_fn done;
		mad_rpc_gmp_done_fn gmp_done;	/* is_gmp */
	};
	void *ctx;
	unsigned tries;
	bool is_gmp;
};

/* A ring buffer of waiting requests. */
struct rpc_fifo {
	struct rpc_req *q;
	size_t head, len, cap;
};

struct rpc_slot {
	bool busy;
	uint32_t dest;
	uint64_t deadline_ms;
	struct rpc_req req;
};

/* A request parked behind its destination's cap: a singly linked FIFO. */
struct rpc_parked {
	struct rpc_req req;
	uint32_t next;
};

struct rpc_dest {
	uint64_t key;
	uint32_t on_wire;
	uint32_t park_head, park_tail;	/* NONE when nothing is parked */
	bool ready;			/* in the ready ring */
};

struct mad_rpc {
	struct mad_transport *t;
	struct mad_rpc_opts opts;
	struct mad_rpc_stats stats;
	mad_rpc_unsolicited_fn unsolicited;
	void *unsolicited_ctx;
	mad_rpc_gsi_fn gsi;
	void *gsi_ctx;
	mad_rpc_wait_fn waiter;
	void *waiter_ctx;
	uint64_t serviced_ms;	/* when the waiter last ran */

	struct rpc_slot *slots;
	unsigned *free_slots;	/* stack of free slot numbers */
	unsigned nfree;
	uint32_t seq;
	uint64_t next_scan_ms;

	/* AIMD: the window now, answers toward its next growth, last cut */
	unsigned cwnd, credit;
	uint64_t last_cut_ms;

	struct rpc_fifo queue;	/* SMPs waiting */
	struct rpc_fifo low;	/* GMPs waiting: only when no SMP does */
	unsigned gmp_on_wire;

	struct rpc_dest *dests;
	uint32_t ndests, dests_cap;
	uint32_t *index;	/* open addressing: dest number or NONE */
	uint32_t index_cap;	/* a power of two, at least twice ndests */
	uint32_t last;		/* the dest found last (stages ask a node many
				 * things in a row), or NONE */
	uint32_t *ready;	/* ring of dest numbers */
	uint32_t rhead, rlen;	/* the ring has dests_cap entries */
	struct rpc_parked *parked;
	uint32_t parked_cap, parked_free, nparked;
	uint32_t smps_parked;	/* of which SMPs: no GMP goes while one waits */
};

struct mad_rpc *mad_rpc_new(struct mad_transport *t, const struct mad_rpc_opts *opts)
{
	if (!opts->window || opts->window > MAD_RPC_MAX_WINDOW || !opts->timeout_ms ||
	    opts->per_node > MAD_RPC_MAX_PER_NODE) {
		errno = EINVAL;
		return NULL;
	}
	struct mad_rpc *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->t = t;
	r->opts = *opts;
	r->cwnd = opts->window;
	r->parked_free = NONE;
	r->last = NONE;
	r->slots = calloc(opts->window, sizeof(*r->slots));
	r->free_slots = calloc(opts->window, sizeof(*r->free_slots));
	if (!r->slots || !r->free_slots) {
		mad_rpc_free(r);
		errno = ENOMEM;
		return NULL;
	}
	for (unsigned i = 0; i < opts->window; i++)
		r->free_slots[r->nfree++] = opts->window - 1 - i;
	return r;
}

void mad_rpc_free(struct mad_rpc *r)
{
	if (!r)
		return;
	free(r->slots);
	free(r->free_slots);
	free(r->queue.q);
	free(r->low.q);
	free(r->dests);
	free(r->index);
	free(r->ready);
	free(r->parked);
	free(r);
}

void mad_rpc_set_unsolicited(struct mad_rpc *r, mad_rpc_unsolicited_fn fn, void *ctx)
{
	r->unsolicited = fn;
	r->unsolicited_ctx = ctx;
}

void mad_rpc_set_gsi(struct mad_rpc *r, mad_rpc_gsi_fn fn, void *ctx)
{
	r->gsi = fn;
	r->gsi_ctx = ctx;
}

void mad_rpc_set_waiter(struct mad_rpc *r, mad_rpc_wait_fn fn, void *ctx)
{
	r->waiter = fn;
	r->waiter_ctx = ctx;
}

/* Wait for the transport up to @wait_ms through the owner's loop: 0 when the
 * transport should be asked without blocking now, 1 when it must block itself. */
static int wait_in_owner(struct mad_rpc *r, int wait_ms)
{
	if (!r->waiter)
		return 1;
	r->serviced_ms = mad_now_ms();
	return r->waiter(r->waiter_ctx, wait_ms);
}

static int fifo_push(struct rpc_fifo *f, const struct rpc_req *req)
{
	if (f->len == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 256;
		struct rpc_req *q = malloc(cap * sizeof(*q));
		if (!q)
			return -ENOMEM;
		for (size_t i = 0; i < f->len; i++)
			q[i] = f->q[(f->head + i) % f->cap];
		free(f->q);
		f->q = q;
		f->cap = cap;
		f->head = 0;
	}
	f->q[(f->head + f->len) % f->cap] = *req;
	f->len++;
	return 0;
}

static void fifo_pop(struct rpc_fifo *f, struct rpc_req *req)
{
	*req = f->q[f->head];
	f->head = (f->head + 1) % f->cap;
	f->len--;
}

static int queue_push(struct mad_rpc *r, const struct rpc_req *req)
{
	return fifo_push(&r->queue, req);
}

int mad_rpc_submit(struct mad_rpc *r, const struct mad_smp *req,
		   const struct mad_addr *to, mad_rpc_done_fn done, void *ctx)
{
	struct rpc_req q = { .smp = *req, .to = *to, .done = done, .ctx = ctx };

	return queue_push(r, &q);
}

int mad_rpc_submit_gmp(struct mad_rpc *r, const uint8_t mad[MAD_BLOCK_SIZE],
		       const struct mad_addr *to, mad_rpc_gmp_done_fn done, void *ctx)
{
	struct rpc_req q = { .to = *to, .gmp_done = done, .ctx = ctx, .is_gmp = true };

	memcpy(q.gmp, mad, MAD_BLOCK_SIZE);
	return fifo_push(&r->low, &q);
}

/* Complete @q with @err and no answer. */
static void req_fail(const struct rpc_req *q, int err)
{
	if (q->is_gmp)
		q->gmp_done(q->ctx, err, q->gmp, NULL);
	else
		q->done(q->ctx, err, &q->smp, NULL);
}

int mad_rpc_submit_dr(struct mad_rpc *r, uint8_t method, uint16_t attr_id,
		      uint32_t attr_mod, const struct topo_path *path, uint64_t mkey,
		      const uint8_t *payload, mad_rpc_done_fn done, void *ctx)
{
	static const struct mad_addr dr = { .lid = MAD_LID_PERMISSIVE };
	struct rpc_req q = { .to = dr, .done = done, .ctx = ctx };

	mad_smp_init_dr(&q.smp, method, attr_id, attr_mod, path);
	q.smp.mkey = mkey;
	if (payload)
		memcpy(q.smp.data, payload, SMP_DATA_SIZE);
	return queue_push(r, &q);
}

/* ---- destinations ---- */

/* FNV-1a over the directed route (hop count, then ports), or the LID. */
static uint64_t dest_key(const struct rpc_req *q)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	if (q->is_gmp || q->smp.mgmt_class != MAD_CLASS_SMI_DR)
		return (uint64_t)q->to.lid << 1 | 1;
	h = (h ^ q->smp.hop_cnt) * 0x100000001b3ULL;
	for (unsigned i = 1; i <= q->smp.hop_cnt && i < SMP_PATH_SIZE; i++)
		h = (h ^ q->smp.initial_path[i]) * 0x100000001b3ULL;
	return h & ~1ULL;
}

static uint32_t index_pos(const struct mad_rpc *r, uint64_t key)
{
	uint32_t mask = r->index_cap - 1;
	uint32_t i = (uint32_t)(key ^ key >> 32) * 2654435761u & mask;

	while (r->index[i] != NONE && r->dests[r->index[i]].key != key)
		i = (i + 1) & mask;
	return i;
}

static int index_grow(struct mad_rpc *r)
{
	uint32_t cap = r->index_cap ? r->index_cap * 2 : 256;
	uint32_t *idx = malloc(cap * sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	free(r->index);
	r->index = idx;
	r->index_cap = cap;
	memset(idx, 0xff, cap * sizeof(*idx));
	for (uint32_t d = 0; d < r->ndests; d++)
		r->index[index_pos(r, r->dests[d].key)] = d;
	return 0;
}

/* The destination of @q, made on first use.  Its number, or NONE (no memory). */
static uint32_t dest_of(struct mad_rpc *r, const struct rpc_req *q)
{
	uint64_t key = dest_key(q);

	if (r->last != NONE && r->dests[r->last].key == key)
		return r->last;
	if (r->index_cap < 2 * (r->ndests + 1) && index_grow(r))
		return NONE;
	uint32_t i = index_pos(r, key);
	if (r->index[i] != NONE)
		return r->last = r->index[i];
	if (r->ndests == r->dests_cap) {
		uint32_t cap = r->dests_cap ? r->dests_cap * 2 : 128;
		struct rpc_dest *d = realloc(r->dests, cap * sizeof(*d));
		uint32_t *ring = malloc(cap * sizeof(*ring));
		if (!d || !ring) {
			if (d)
				r->dests = d;
			free(ring);
			return NONE;
		}
		for (uint32_t k = 0; k < r->rlen; k++)
			ring[k] = r->ready[(r->rhead + k) % r->dests_cap];
		free(r->ready);
		r->dests = d;
		r->ready = ring;
		r->rhead = 0;
		r->dests_cap = cap;
	}
	r->dests[r->ndests] = (struct rpc_dest){ .key = key, .park_head = NONE,
						  .park_tail = NONE };
	r->index[i] = r->ndests;
	return r->last = r->ndests++;
}

/* Forget every destination; only when nothing is queued, parked or on the wire. */
static void dests_reset(struct mad_rpc *r)
{
	r->ndests = 0;
	r->last = NONE;
	r->rhead = r->rlen = 0;
	if (r->index)
		memset(r->index, 0xff, r->index_cap * sizeof(*r->index));
}

static bool dest_full(const struct mad_rpc *r, uint32_t d)
{
	return r->opts.per_node && r->dests[d].on_wire >= r->opts.per_node;
}

static void ready_push(struct mad_rpc *r, uint32_t d)
{
	r->dests[d].ready = true;
	r->ready[(r->rhead + r->rlen++) % r->dests_cap] = d;
}

static int park(struct mad_rpc *r, uint32_t d, const struct rpc_req *q)
{
	if (r->parked_free == NONE) {
		uint32_t cap = r->parked_cap ? r->parked_cap * 2 : 256;
		struct rpc_parked *p = realloc(r->parked, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		for (uint32_t i = r->parked_cap; i < cap; i++)
			p[i].next = i + 1 < cap ? i + 1 : NONE;
		r->parked = p;
		r->parked_free = r->parked_cap;
		r->parked_cap = cap;
	}
	uint32_t e = r->parked_free;
	struct rpc_dest *dst = &r->dests[d];

	r->parked_free = r->parked[e].next;
	r->parked[e].req = *q;
	r->parked[e].next = NONE;
	if (dst->park_tail == NONE)
		dst->park_head = e;
	else
		r->parked[dst->park_tail].next = e;
	dst->park_tail = e;
	r->nparked++;
	r->smps_parked += !q->is_gmp;
	return 0;
}

static void unpark(struct mad_rpc *r, uint32_t d, struct rpc_req *q)
{
	struct rpc_dest *dst = &r->dests[d];
	uint32_t e = dst->park_head;

	*q = r->parked[e].req;
	dst->park_head = r->parked[e].next;
	if (dst->park_head == NONE)
		dst->park_tail = NONE;
	r->parked[e].next = r->parked_free;
	r->parked_free = e;
	r->nparked--;
	r->smps_parked -= !q->is_gmp;
}

/* ---- the window ---- */

static unsigned min_window(const struct mad_rpc *r)
{
	return r->opts.window < MAD_RPC_MIN_WINDOW ? r->opts.window : MAD_RPC_MIN_WINDOW;
}

/* A try timed out: halve the window, once per timeout period (the SMPs of one
 * burst all time out together: one loss event). */
static void window_cut(struct mad_rpc *r, uint64_t now)
{
	if (r->last_cut_ms && now - r->last_cut_ms < r->opts.timeout_ms)
		return;
	r->last_cut_ms = now;
	r->cwnd = r->cwnd / 2 > min_window(r) ? r->cwnd / 2 : min_window(r);
	r->credit = 0;
	r->stats.window_cuts++;
}

/* An answer came: a window's worth of them grows it by one. */
static void window_grow(struct mad_rpc *r)
{
	if (r->cwnd < r->opts.window && ++r->credit >= r->cwnd) {
		r->cwnd++;
		r->credit = 0;
	}
}

static unsigned on_wire(const struct mad_rpc *r)
{
	return r->opts.window - r->nfree;
}

/* ---- the wire ---- */

static int wire_send(struct mad_rpc *r, const struct mad_smp *smp, const struct mad_addr *to)
{
	uint8_t buf[MAD_BLOCK_SIZE];

	mad_smp_encode(smp, buf);
	int rc = r->t->ops->send(r->t, buf, to);
	if (rc == 0)
		r->stats.sent++;
	return rc;
}

static int wire_send_req(struct mad_rpc *r, const struct rpc_req *q)
{
	if (!q->is_gmp)
		return wire_send(r, &q->smp, &q->to);
	int rc = r->t->ops->send(r->t, q->gmp, &q->to);
	if (rc == 0)
		r->stats.gmp_sent++;
	return rc;
}

int mad_rpc_send(struct mad_rpc *r, const struct mad_smp *smp, const struct mad_addr *to)
{
	return wire_send(r, smp, to);
}

int mad_rpc_send_gsi(struct mad_rpc *r, const uint8_t mad[MAD_BLOCK_SIZE],
		     const struct mad_addr *to)
{
	return r->t->ops->send(r->t, mad, to);
}

int mad_rpc_send_gsi_long(struct mad_rpc *r, const uint8_t *msg, size_t len,
			  const struct mad_addr *to)
{
	if (!r->t->ops->send_long)
		return -EOPNOTSUPP;
	return r->t->ops->send_long(r->t, msg, len, to);
}

bool mad_rpc_has_gsi_long(const struct mad_rpc *r)
{
	return r->t->ops->send_long != NULL;
}

static void slot_release(struct mad_rpc *r, unsigned slot)
{
	struct rpc_slot *s = &r->slots[slot];
	struct rpc_dest *d = &r->dests[s->dest];

	s->busy = false;
	r->free_slots[r->nfree++] = slot;
	r->gmp_on_wire -= s->req.is_gmp;
	d->on_wire--;
	if (d->park_head != NONE && !d->ready)
		ready_push(r, s->dest);
}

/* Put a request on the wire in @slot at time @now (ms); on a send failure
 * complete it at once. */
static int slot_send(struct mad_rpc *r, unsigned slot, uint64_t now)
{
	struct rpc_slot *s = &r->slots[slot];

	r->seq = (r->seq + 1) & ((1u << (32 - SLOT_BITS)) - 1);
	uint32_t tid = r->seq << SLOT_BITS | slot;
	if (s->req.is_gmp)	/* TID bytes 12-15 of the header (IBA 13.4.3) */
		mad_put_be(s->req.gmp + 12, tid, 4);
	else
		s->req.smp.tid = (s->req.smp.tid & ~0xffffffffULL) | tid;
	s->deadline_ms = now + r->opts.timeout_ms;
	s->req.tries++;
	int rc = wire_send_req(r, &s->req);
	if (rc == -EAGAIN)
		return rc;
	if (rc) {
		struct rpc_req req = s->req;
		r->stats.errors++;
		slot_release(r, slot);
		req_fail(&req, rc);
		return 1;
	}
	return 0;
}

/*
 * The next request that may go on the wire: a parked one whose destination has
 * room again, else the head of the FIFO (parking those whose destination is
 * full, or has requests parked ahead of them).  false when none may go now;
 * -ENOMEM in *@err when parking failed.
 */
/* May a GMP go on the wire now?  Not while an SMP waits (queued or parked),
 * nor beyond half the window. */
static bool gmp_may_go(const struct mad_rpc *r)
{
	return !r->queue.len && !r->smps_parked && r->gmp_on_wire < (r->cwnd + 1) / 2;
}

static bool next_request(struct mad_rpc *r, struct rpc_req *q, uint32_t *dest, int *err)
{
	for (uint32_t left = r->rlen; left; left--) {
		uint32_t d = r->ready[r->rhead];
		r->rhead = (r->rhead + 1) % r->dests_cap;
		r->rlen--;
		r->dests[d].ready = false;
		if (r->dests[d].park_head == NONE || dest_full(r, d))
			continue;	/* served already, or full again: its release re-queues it */
		if (r->parked[r->dests[d].park_head].req.is_gmp && !gmp_may_go(r)) {
			ready_push(r, d);	/* its turn comes after the SMPs */
			continue;
		}
		unpark(r, d, q);
		if (r->dests[d].park_head != NONE && !dest_full(r, d) &&
		    r->dests[d].on_wire + 1 < r->opts.per_node)
			ready_push(r, d);
		*dest = d;
		return true;
	}
	for (;;) {
		/* GMPs only when no SMP waits, and on at most half the window */
		struct rpc_fifo *from = r->queue.len ? &r->queue :
					r->low.len && gmp_may_go(r) ? &r->low : NULL;
		if (!from)
			return false;
		fifo_pop(from, q);
		uint32_t d = dest_of(r, q);
		if (d == NONE) {
			*err = -ENOMEM;
			req_fail(q, -ENOMEM);
			continue;
		}
		if (!dest_full(r, d) && r->dests[d].park_head == NONE) {
			*dest = d;
			return true;
		}
		if (park(r, d, q)) {
			*err = -ENOMEM;
			req_fail(q, -ENOMEM);
		}
	}
}

/* Move waiting requests into free slots.  Returns callbacks run or -errno.
 * One clock reading serves the burst (sending takes microseconds). */
static int fill(struct mad_rpc *r)
{
	struct rpc_req q;
	uint32_t d;
	int ran = 0, err = 0;
	uint64_t now = 0;

	while (r->nfree && on_wire(r) < r->cwnd && next_request(r, &q, &d, &err)) {
		if (!now)
			now = mad_now_ms();
		unsigned slot = r->free_slots[--r->nfree];
		struct rpc_slot *s = &r->slots[slot];
		s->busy = true;
		s->req = q;
		s->dest = d;
		r->dests[d].on_wire++;
		r->gmp_on_wire += q.is_gmp;
		int rc = slot_send(r, slot, now);
		if (rc == -EAGAIN) {
			/* transport full: keep it in the slot, retry at its deadline */
			s->req.tries--;
			s->deadline_ms = now;
			break;
		}
		ran += rc;
	}
	return err ? err : ran;
}

static int expire(struct mad_rpc *r)
{
	uint64_t now = mad_now_ms();
	int ran = 0;

	if (now < r->next_scan_ms)
		return 0;
	r->next_scan_ms = now + 1;
	for (unsigned slot = 0; slot < r->opts.window; slot++) {
		struct rpc_slot *s = &r->slots[slot];
		if (!s->busy || s->deadline_ms > now)
			continue;
		if (s->req.tries && !s->req.is_gmp)
			window_cut(r, now);
		if (s->req.tries <= r->opts.retries) {
			if (s->req.tries)
				r->stats.retries++;
			int rc = slot_send(r, slot, now);
			if (rc == -EAGAIN) {
				s->req.tries--;
				return ran;
			}
			ran += rc;
			continue;
		}
		struct rpc_req req = s->req;
		r->stats.timeouts++;
		slot_release(r, slot);
		req_fail(&req, -ETIMEDOUT);
		ran++;
	}
	return ran;
}

/* A GetResp of class @buf[1] answering a GMP on the wire: complete it.  1 when
 * it did, 0 when it answers nothing outstanding. */
static int dispatch_gmp(struct mad_rpc *r, const uint8_t *buf)
{
	uint32_t tid = (uint32_t)mad_get_be(buf + 12, 4);
	unsigned slot = tid & SLOT_MASK;

	if (buf[3] != MAD_METHOD_GET_RESP || slot >= r->opts.window || !r->slots[slot].busy ||
	    !r->slots[slot].req.is_gmp)
		return 0;
	const uint8_t *sent = r->slots[slot].req.gmp;
	/* our half of the TID, the class and the attribute (IBA 13.4.6.2) */
	if (mad_get_be(sent + 12, 4) != tid || sent[1] != buf[1] ||
	    memcmp(sent + 16, buf + 16, 2) != 0)
		return 0;
	struct rpc_req req = r->slots[slot].req;
	int rc = mad_get_be(buf + 4, 2) ? -EREMOTEIO : 0;
	slot_release(r, slot);
	if (rc)
		r->stats.errors++;
	else
		r->stats.answered++;
	req.gmp_done(req.ctx, rc, req.gmp, buf);
	return 1;
}

/* The MAD or message @buf of @len bytes (MAD_BLOCK_SIZE for a MAD): to the
 * request it answers, or to a handler. */
static int dispatch(struct mad_rpc *r, const uint8_t *buf, size_t len, const struct mad_addr *from)
{
	struct mad_smp smp;

	if (buf[1] == MAD_CLASS_SA) {	/* we send no SA requests: all unsolicited */
		r->stats.unsolicited++;
		if (r->gsi)
			r->gsi(r->gsi_ctx, buf, len, from);
		return 0;
	}
	if (len != MAD_BLOCK_SIZE) {	/* only the SA takes messages (RMPP) */
		r->stats.malformed++;
		return 0;
	}
	/* we are no PMA nor CC agent: answers only */
	if (buf[0] == 1 && (buf[1] == MAD_CLASS_PERF || buf[1] == MAD_CLASS_CC)) {
		int ran = dispatch_gmp(r, buf);
		if (!ran)
			r->stats.unsolicited++;
		return ran;
	}
	if (mad_smp_decode(buf, MAD_BLOCK_SIZE, &smp)) {
		r->stats.malformed++;
		return 0;
	}
	unsigned slot = (unsigned)(smp.tid & SLOT_MASK);
	if (smp.method == MAD_METHOD_GET_RESP && slot < r->opts.window &&
	    r->slots[slot].busy &&
	    (uint32_t)r->slots[slot].req.smp.tid == (uint32_t)smp.tid) {
		struct rpc_req req = r->slots[slot].req;
		/* Compare on our half of the TID only. */
		smp.tid = req.smp.tid;
		int rc = mad_smp_check_response(&req.smp, &smp);
		if (rc == -EBADMSG) {
			r->stats.malformed++;
			return 0;
		}
		slot_release(r, slot);
		window_grow(r);
		if (rc)
			r->stats.errors++;
		else
			r->stats.answered++;
		req.done(req.ctx, rc, &req.smp, &smp);
		return 1;
	}
	r->stats.unsolicited++;
	if (r->unsolicited)
		r->unsolicited(r->unsolicited_ctx, &smp, from);
	return 0;
}

static int next_wait_ms(const struct mad_rpc *r, int timeout_ms)
{
	uint64_t now = mad_now_ms(), first = UINT64_MAX;

	for (unsigned slot = 0; slot < r->opts.window; slot++)
		if (r->slots[slot].busy && r->slots[slot].deadline_ms < first)
			first = r->slots[slot].deadline_ms;
	if (first == UINT64_MAX)
		return timeout_ms;
	int wait = first > now ? (int)(first - now) : 0;
	return timeout_ms >= 0 && timeout_ms < wait ? timeout_ms : wait;
}

/*
 * Read one MAD into @mad, or a message longer than a MAD (a request the
 * transport reassembled) into a buffer allocated for it, *@msg (the caller
 * frees it; NULL for a MAD).  The transport keeps such a message first in
 * line until it is read with room enough (-ENOSPC with its length): it is
 * read at once, whatever its length, so that nothing behind it waits.
 */
static int rpc_recv(struct mad_rpc *r, uint8_t mad[MAD_BLOCK_SIZE], uint8_t **msg, size_t *len,
		    struct mad_addr *from, int timeout_ms)
{
	*msg = NULL;
	*len = MAD_BLOCK_SIZE;
	int rc = r->t->ops->recv(r->t, mad, len, from, timeout_ms);
	if (rc != -ENOSPC)
		return rc;
	if (*len <= MAD_BLOCK_SIZE)
		return -EIO;	/* too long for a MAD, yet no longer: a broken transport */
	if (!(*msg = malloc(*len)))
		return -ENOMEM;
	rc = r->t->ops->recv(r->t, *msg, len, from, 0);
	if (rc) {
		free(*msg);
		*msg = NULL;
	}
	return rc == -ENOSPC ? -EIO : rc;
}

int mad_rpc_poll(struct mad_rpc *r, int timeout_ms)
{
	uint8_t buf[MAD_BLOCK_SIZE], *msg;
	struct mad_addr from;
	size_t len;
	int ran, rc;

	ran = fill(r);
	if (ran < 0)
		return ran;
	bool waiting = on_wire(r) > 0;
	int wait = waiting ? next_wait_ms(r, timeout_ms) : timeout_ms;
	if (r->waiter && mad_now_ms() - r->serviced_ms >= MAD_RPC_SERVICE_MS) {
		rc = wait_in_owner(r, 0);	/* let the owner's loop breathe */
		if (rc < 0)
			return rc;
	}
	rc = rpc_recv(r, buf, &msg, &len, &from, r->waiter ? 0 : wait);
	if ((rc == -ETIMEDOUT || rc == -EAGAIN) && r->waiter && wait != 0) {
		rc = wait_in_owner(r, wait);
		if (rc < 0)
			return rc;
		rc = rpc_recv(r, buf, &msg, &len, &from, rc > 0 ? wait : 0);
	}
	while (rc == 0) {
		ran += dispatch(r, msg ? msg : buf, len, &from);
		free(msg);
		rc = rpc_recv(r, buf, &msg, &len, &from, 0);
	}
	if (rc != -ETIMEDOUT && rc != -EAGAIN && rc != -EINTR)
		return rc;
	ran += expire(r);
	rc = fill(r);
	return rc < 0 ? rc : ran + rc;
}

size_t mad_rpc_pending(const struct mad_rpc *r)
{
	return r->queue.len + r->low.len + r->nparked + on_wire(r);
}

int mad_rpc_wait_backlog(struct mad_rpc *r)
{
	while (mad_rpc_pending(r) >= MAD_RPC_BACKLOG) {
		int rc = mad_rpc_poll(r, -1);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void mad_rpc_discard(struct mad_rpc *r)
{
	for (unsigned slot = 0; slot < r->opts.window; slot++)
		if (r->slots[slot].busy) {
			r->slots[slot].busy = false;
			r->free_slots[r->nfree++] = slot;
		}
	r->queue.head = r->queue.len = 0;
	r->low.head = r->low.len = 0;
	r->gmp_on_wire = 0;
	for (uint32_t i = 0; i < r->parked_cap; i++)
		r->parked[i].next = i + 1 < r->parked_cap ? i + 1 : NONE;
	r->parked_free = r->parked_cap ? 0 : NONE;
	r->nparked = r->smps_parked = 0;
	dests_reset(r);
}

int mad_rpc_drain(struct mad_rpc *r)
{
	while (mad_rpc_pending(r)) {
		int rc = mad_rpc_poll(r, -1);
		if (rc < 0) {
			mad_rpc_discard(r);	/* the caller is about to give up */
			return rc;
		}
	}
	if (r->ndests > 4096)	/* destinations of a sweep long gone */
		dests_reset(r);
	return 0;
}

struct call_result {
	bool done;
	int err;
	struct mad_smp *resp;
};

static void call_done(void *ctx, int err, const struct mad_smp *req,
		      const struct mad_smp *resp)
{
	struct call_result *cr = ctx;

	(void)req;
	cr->done = true;
	cr->err = err;
	if (resp)
		*cr->resp = *resp;
}

int mad_rpc_call(struct mad_rpc *r, const struct mad_smp *req,
		 const struct mad_addr *to, struct mad_smp *resp)
{
	struct call_result cr = { .resp = resp };
	int rc = mad_rpc_submit(r, req, to, call_done, &cr);

	while (rc == 0 && !cr.done)
		rc = mad_rpc_poll(r, -1) < 0 ? -EIO : 0;
	return rc ? rc : cr.err;
}

void mad_rpc_get_stats(const struct mad_rpc *r, struct mad_rpc_stats *st)
{
	*st = r->stats;
	st->window = r->cwnd;
}

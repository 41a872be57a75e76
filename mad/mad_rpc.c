// SPDX-License-Identifier: MIT
/*
 * mad_rpc.c - request/response matching, window, retries (see mad_rpc.h).
 *
 * Data: a slot array of `window` entries for requests on the wire, and a FIFO of
 * requests waiting for a slot.  The low 32 bits of a TID are (sequence << 12 |
 * slot), so an answer finds its slot in O(1) and a stale answer for a slot that
 * was reused fails the full-TID comparison.  Every request has the same timeout,
 * so expiry is checked by a scan at most once per millisecond.
 * Flow: submit -> queue -> fill() -> wire -> recv -> match -> callback.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_rpc.h"
#include "mad/mad_sa.h"

#define SLOT_BITS 12
#define SLOT_MASK ((1u << SLOT_BITS) - 1)

struct rpc_req {
	struct mad_smp smp;
	struct mad_addr to;
	mad_rpc_done_fn done;
	void *ctx;
	unsigned tries;
};

struct rpc_slot {
	bool busy;
	uint64_t deadline_ms;
	struct rpc_req req;
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

	struct rpc_req *queue;	/* ring buffer of waiting requests */
	size_t qhead, qlen, qcap;
};

struct mad_rpc *mad_rpc_new(struct mad_transport *t, const struct mad_rpc_opts *opts)
{
	if (!opts->window || opts->window > MAD_RPC_MAX_WINDOW || !opts->timeout_ms) {
		errno = EINVAL;
		return NULL;
	}
	struct mad_rpc *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->t = t;
	r->opts = *opts;
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
	free(r->queue);
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

static int queue_push(struct mad_rpc *r, const struct rpc_req *req)
{
	if (r->qlen == r->qcap) {
		size_t cap = r->qcap ? r->qcap * 2 : 256;
		struct rpc_req *q = malloc(cap * sizeof(*q));
		if (!q)
			return -ENOMEM;
		for (size_t i = 0; i < r->qlen; i++)
			q[i] = r->queue[(r->qhead + i) % r->qcap];
		free(r->queue);
		r->queue = q;
		r->qcap = cap;
		r->qhead = 0;
	}
	r->queue[(r->qhead + r->qlen) % r->qcap] = *req;
	r->qlen++;
	return 0;
}

int mad_rpc_submit(struct mad_rpc *r, const struct mad_smp *req,
		   const struct mad_addr *to, mad_rpc_done_fn done, void *ctx)
{
	struct rpc_req q = { .smp = *req, .to = *to, .done = done, .ctx = ctx };

	return queue_push(r, &q);
}

static int wire_send(struct mad_rpc *r, const struct mad_smp *smp, const struct mad_addr *to)
{
	uint8_t buf[MAD_BLOCK_SIZE];

	mad_smp_encode(smp, buf);
	int rc = r->t->ops->send(r->t, buf, to);
	if (rc == 0)
		r->stats.sent++;
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

static void slot_release(struct mad_rpc *r, unsigned slot)
{
	r->slots[slot].busy = false;
	r->free_slots[r->nfree++] = slot;
}

/* Put a request on the wire in @slot; on a send failure complete it at once. */
static int slot_send(struct mad_rpc *r, unsigned slot)
{
	struct rpc_slot *s = &r->slots[slot];

	r->seq = (r->seq + 1) & ((1u << (32 - SLOT_BITS)) - 1);
	s->req.smp.tid = (s->req.smp.tid & ~0xffffffffULL) | (uint64_t)r->seq << SLOT_BITS | slot;
	s->deadline_ms = mad_now_ms() + r->opts.timeout_ms;
	s->req.tries++;
	int rc = wire_send(r, &s->req.smp, &s->req.to);
	if (rc == -EAGAIN)
		return rc;
	if (rc) {
		struct rpc_req req = s->req;
		r->stats.errors++;
		slot_release(r, slot);
		req.done(req.ctx, rc, &req.smp, NULL);
		return 1;
	}
	return 0;
}

/* Move queued requests into free slots.  Returns callbacks run or -errno. */
static int fill(struct mad_rpc *r)
{
	int ran = 0;

	while (r->qlen && r->nfree) {
		unsigned slot = r->free_slots[--r->nfree];
		r->slots[slot].busy = true;
		r->slots[slot].req = r->queue[r->qhead];
		r->qhead = (r->qhead + 1) % r->qcap;
		r->qlen--;
		int rc = slot_send(r, slot);
		if (rc == -EAGAIN) {
			/* transport full: keep it in the slot, retry at its deadline */
			r->slots[slot].req.tries--;
			r->slots[slot].deadline_ms = mad_now_ms();
			break;
		}
		ran += rc;
	}
	return ran;
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
		if (s->req.tries <= r->opts.retries) {
			if (s->req.tries)
				r->stats.retries++;
			int rc = slot_send(r, slot);
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
		req.done(req.ctx, -ETIMEDOUT, &req.smp, NULL);
		ran++;
	}
	return ran;
}

static int dispatch(struct mad_rpc *r, const uint8_t *buf, const struct mad_addr *from)
{
	struct mad_smp smp;

	if (buf[1] == MAD_CLASS_SA) {	/* we send no SA requests: all unsolicited */
		r->stats.unsolicited++;
		if (r->gsi)
			r->gsi(r->gsi_ctx, buf, from);
		return 0;
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

int mad_rpc_poll(struct mad_rpc *r, int timeout_ms)
{
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr from;
	int ran, rc;

	ran = fill(r);
	if (ran < 0)
		return ran;
	bool waiting = r->nfree < r->opts.window;
	int wait = waiting ? next_wait_ms(r, timeout_ms) : timeout_ms;
	if (r->waiter && mad_now_ms() - r->serviced_ms >= MAD_RPC_SERVICE_MS) {
		rc = wait_in_owner(r, 0);	/* let the owner's loop breathe */
		if (rc < 0)
			return rc;
	}
	rc = r->t->ops->recv(r->t, buf, &from, r->waiter ? 0 : wait);
	if ((rc == -ETIMEDOUT || rc == -EAGAIN) && r->waiter && wait != 0) {
		rc = wait_in_owner(r, wait);
		if (rc < 0)
			return rc;
		rc = r->t->ops->recv(r->t, buf, &from, rc > 0 ? wait : 0);
	}
	while (rc == 0) {
		ran += dispatch(r, buf, &from);
		rc = r->t->ops->recv(r->t, buf, &from, 0);
	}
	if (rc != -ETIMEDOUT && rc != -EAGAIN && rc != -EINTR)
		return rc;
	ran += expire(r);
	rc = fill(r);
	return rc < 0 ? rc : ran + rc;
}

size_t mad_rpc_pending(const struct mad_rpc *r)
{
	return r->qlen + (r->opts.window - r->nfree);
}

int mad_rpc_drain(struct mad_rpc *r)
{
	while (mad_rpc_pending(r)) {
		int rc = mad_rpc_poll(r, -1);
		if (rc < 0)
			return rc;
	}
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
}

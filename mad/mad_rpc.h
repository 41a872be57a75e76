/* SPDX-License-Identifier: MIT */
/*
 * mad_rpc.h - request/response matching over a transport.
 *
 * Callers submit SMP requests with a completion callback; the rpc layer gives
 * each a TID, keeps at most `window` of them on the wire and at most
 * `per_node` to any one destination (a switch drops SMPs beyond its VL15
 * buffer: VL15 has no flow control), queues the rest in submission order,
 * retries a request that times out, and calls back exactly once with the
 * answer or the error.  The window adapts (AIMD): a timeout halves it, at most
 * once per timeout period and never below MAD_RPC_MIN_WINDOW; each window's
 * worth of answers grows it by one, back up to `window`.  MADs that answer
 * nothing outstanding (traps, requests from other SMs or tools, late answers)
 * go to the unsolicited handler.
 * TIDs are matched on their low 32 bits: the kernel owns the high half on umad.
 */
#ifndef IBSMD_MAD_RPC_H
#define IBSMD_MAD_RPC_H

#include <stddef.h>
#include <stdint.h>

#include "mad/mad_smp.h"
#include "mad/mad_transport.h"

#define MAD_RPC_MAX_WINDOW 4096
#define MAD_RPC_MAX_PER_NODE 64
/* The window never shrinks below this (or `window`, when smaller): OpenSM's
 * default max_wire_smps. */
#define MAD_RPC_MIN_WINDOW 4

struct mad_rpc_opts {
	unsigned window;	/* SMPs in flight, 1..MAD_RPC_MAX_WINDOW */
	unsigned per_node;	/* to one destination, 0..MAD_RPC_MAX_PER_NODE; 0: no cap.
				 * A destination is a directed route, or a LID for
				 * LID-routed SMPs */
	unsigned timeout_ms;	/* per try */
	unsigned retries;	/* extra tries after the first */
};

struct mad_rpc_stats {
	uint64_t sent;		/* every SMP put on the wire, retries included */
	uint64_t answered;	/* requests completed with a response */
	uint64_t timeouts;	/* requests given up after the last retry */
	uint64_t retries;	/* re-sends after a timeout */
	uint64_t errors;	/* answered with a bad status, or send failures */
	uint64_t malformed;	/* received MADs that failed to decode (dropped) */
	uint64_t unsolicited;	/* received MADs that answered nothing outstanding */
	uint64_t window_cuts;	/* times a timeout halved the window */
	uint64_t gmp_sent;	/* GMP requests (PerfMgt) put on the wire, retries
				 * included; answered, timeouts, retries, errors
				 * count them with the SMPs */
	unsigned window;	/* the window now (AIMD), at most opts.window */
};

/*
 * Completion: @err is 0 with @resp the validated answer, -ETIMEDOUT after the
 * last retry, -EREMOTEIO when the responder set a status (@resp shows it), or
 * another -errno when sending failed (@resp NULL).  @req is the request as sent.
 */
typedef void (*mad_rpc_done_fn)(void *ctx, int err, const struct mad_smp *req,
				const struct mad_smp *resp);
typedef void (*mad_rpc_unsolicited_fn)(void *ctx, const struct mad_smp *smp,
				       const struct mad_addr *from);
/* Completion of a GMP request (mad_rpc_submit_gmp): @req the MAD as sent,
 * @resp the GetResp's bytes (MAD_BLOCK_SIZE) or NULL; @err as above. */
typedef void (*mad_rpc_gmp_done_fn)(void *ctx, int err, const uint8_t *req,
				    const uint8_t *resp);
/* A GSI MAD (not an SMP: SA class 0x03) as received, bytes undecoded: @len
 * MAD_BLOCK_SIZE, or more for a request the transport reassembled from RMPP
 * segments (its first segment's header, then all the data). */
typedef void (*mad_rpc_gsi_fn)(void *ctx, const uint8_t *msg, size_t len,
			       const struct mad_addr *from);

struct mad_rpc;

/* A new rpc layer over @t (not owned).  NULL with errno on failure. */
struct mad_rpc *mad_rpc_new(struct mad_transport *t, const struct mad_rpc_opts *opts);
void mad_rpc_free(struct mad_rpc *r);

void mad_rpc_set_unsolicited(struct mad_rpc *r, mad_rpc_unsolicited_fn fn, void *ctx);
/* Where SA-class MADs go (counted as unsolicited; dropped without a handler). */
void mad_rpc_set_gsi(struct mad_rpc *r, mad_rpc_gsi_fn fn, void *ctx);

/*
 * The owner's event loop, for while the rpc layer waits on the fabric.  With a
 * waiter set, mad_rpc_poll() calls @fn(@ctx, wait_ms) instead of blocking in
 * the transport: with the time it would have blocked (-1: no limit) when
 * nothing has arrived, and with 0 at least every MAD_RPC_SERVICE_MS while
 * answers keep arriving, so the owner's other work is never starved.  @fn
 * returns 0 once the transport may be readable or the time is up, 1 when it
 * cannot wait now (the rpc layer then blocks in the transport itself), or a
 * negative errno to stop: mad_rpc_poll() returns it.
 */
#define MAD_RPC_SERVICE_MS 5
typedef int (*mad_rpc_wait_fn)(void *ctx, int wait_ms);
void mad_rpc_set_waiter(struct mad_rpc *r, mad_rpc_wait_fn fn, void *ctx);

/*
 * Submit @req (copied; its TID is assigned here) to @to.  @done runs later from
 * mad_rpc_poll()/mad_rpc_drain(), never from inside this call.  0 or -ENOMEM.
 */
int mad_rpc_submit(struct mad_rpc *r, const struct mad_smp *req,
		   const struct mad_addr *to, mad_rpc_done_fn done, void *ctx);

/*
 * Submit an encoded GMP request (a Get or Set of PerfMgt, class 0x04, or of
 * congestion control, class 0x21) to @to
 * (LID, QP 1).  It waits behind every SMP and takes at most half the window
 * (mad_rpc.c); the TID's low 32 bits are assigned here, the answer matched on
 * them, the class and the attribute.  As mad_rpc_submit().
 */
int mad_rpc_submit_gmp(struct mad_rpc *r, const uint8_t mad[MAD_BLOCK_SIZE],
		       const struct mad_addr *to, mad_rpc_gmp_done_fn done, void *ctx);

/*
 * Submit a directed-route request along @path (mad_smp_init_dr), carrying the
 * destination port's M_Key @mkey, with @payload (SMP_DATA_SIZE bytes, or NULL
 * for a zero payload): what every sweep stage sends.  As mad_rpc_submit().
 */
int mad_rpc_submit_dr(struct mad_rpc *r, uint8_t method, uint16_t attr_id,
		      uint32_t attr_mod, const struct topo_path *path, uint64_t mkey,
		      const uint8_t *payload, mad_rpc_done_fn done, void *ctx);

/* Send @smp as is, expecting nothing back (responses to requests, trap
 * represses).  0 or -errno. */
int mad_rpc_send(struct mad_rpc *r, const struct mad_smp *smp, const struct mad_addr *to);
/* Send an encoded GSI MAD (an SA answer) as is.  0 or -errno. */
int mad_rpc_send_gsi(struct mad_rpc *r, const uint8_t mad[MAD_BLOCK_SIZE],
		     const struct mad_addr *to);

/* Send an encoded GSI message longer than a MAD (an SA answer with RMPP
 * Active) through the transport's RMPP (mad_transport.h send_long).  0,
 * -EOPNOTSUPP when the transport has none, or -errno. */
int mad_rpc_send_gsi_long(struct mad_rpc *r, const uint8_t *msg, size_t len,
			  const struct mad_addr *to);
/* Whether the transport can send such messages. */
bool mad_rpc_has_gsi_long(const struct mad_rpc *r);

/*
 * Move things along once: fill the window, wait up to @timeout_ms for one MAD,
 * dispatch everything that is ready, expire timeouts.  Returns the number of
 * callbacks run, or -errno for a transport failure.
 */
int mad_rpc_poll(struct mad_rpc *r, int timeout_ms);

/* Forget every request queued, parked or in flight, calling no callback: for
 * an owner about to free what their callbacks point to, after a drain that
 * failed.  Answers that come later are unsolicited. */
void mad_rpc_discard(struct mad_rpc *r);

/* Poll until nothing is queued or in flight.  0 or -errno; on failure what
 * is left is discarded (mad_rpc_discard()), its callbacks never run. */
int mad_rpc_drain(struct mad_rpc *r);

/* Requests queued or in flight. */
size_t mad_rpc_pending(const struct mad_rpc *r);

/* Requests a stage should queue ahead of the window, at most: a stage can have
 * millions of SMPs (every LFT block of a large fabric), each a whole MAD while
 * it waits. */
#define MAD_RPC_BACKLOG 4096

/* Poll until fewer than MAD_RPC_BACKLOG requests are pending.  A caller whose
 * completions submit must not call it from them (it would nest).  0 or -errno. */
int mad_rpc_wait_backlog(struct mad_rpc *r);

/* Submit and drain one request; fills @resp.  The completion's @err. */
int mad_rpc_call(struct mad_rpc *r, const struct mad_smp *req,
		 const struct mad_addr *to, struct mad_smp *resp);

void mad_rpc_get_stats(const struct mad_rpc *r, struct mad_rpc_stats *st);

#endif

// SPDX-License-Identifier: MIT
/*
 * mad_sim_gsi.c - GSI MADs (the SA class) between the SMs and clients bound
 * to a simulated fabric, and RMPP for answers longer than one MAD.
 *
 * A GSI MAD is LID routed from the sender's port through the programmed LFTs
 * to the port that owns the destination LID, and queued for whoever is bound
 * there (an SM, or a test's client transport, sim_transport_new_at); an
 * answer to a host's IPoIB join goes to that host (mad_sim_host.c), an SM
 * bound at its port or not; with nobody there, or no route, it is dropped,
 * as QP1 of a port without an agent would.  No SMA sees it.  It carries the
 * P_Key of the sender's table entry its address names and arrives at the
 * index the receiver's table holds it, or is lost (a P_Key violation); a GRH
 * it is sent with must name the receiver's GID and arrives with the sender's
 * (gsi_arrival()).
 *
 * A request in several RMPP DATA segments (a client's GetMulti longer than a
 * MAD) is reassembled for its destination, as the kernel's MAD layer does for
 * an agent registered with RMPP (mad_rmpp.c there: the segments ACKed window
 * by window, the message handed up whole, its first segment's header and
 * every segment's data); the SM reads it as one message (sim_recv).  A
 * single segment (First and Last) goes as the MAD it is; responses go as
 * segments (a test's client reassembles them itself).
 *
 * A long message (sim_gsi_send_long) is what the kernel's MAD layer makes of
 * one on hardware: an RMPP sender (mad_rmpp.c) kept in the sending slot,
 * which sends its first window; the receiver's ACKs, routed back to that
 * slot, are taken here (never queued) and move the window on; STOP, ABORT,
 * or the last ACK end it.  The simulated fabric loses no GSI MAD, so nothing
 * is sent again on a timer; a client that stops ACKing leaves its sender
 * behind until SIM_RMPP_SENDERS newer ones replace it or the slot unbinds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_bytes.h"
#include "mad/mad_sa.h"
#include "mad/sim/mad_sim_priv.h"

#define SA_TID_OFF 8

/* Route @mad from slot @sm's port to @dlid: the slot bound there, or -1. */
static int gsi_dest(struct sim_fabric *f, int sm, uint16_t dlid)
{
	uint32_t node = f->sms[sm].node;
	uint8_t port = f->sms[sm].port;

	if (f->nodes[node].dead)
		return -1;
	return sim_lid_to_sm(f, node, port, dlid);
}

/* The port of slot @sm, and its GID (its GID prefix, its port GUID). */
static struct sim_port *slot_port(struct sim_fabric *f, int sm)
{
	return &f->nodes[f->sms[sm].node].ports[f->sms[sm].port];
}

static void slot_gid(const struct sim_fabric *f, int sm, uint8_t gid[16])
{
	uint32_t node = f->sms[sm].node;
	uint8_t port = f->sms[sm].port;

	mad_put_be(gid, sim_addr_port(f, node, port)->gid_prefix, 8);
	mad_put_be(gid + 8, f->topo.nodes[node].ports[port].guid, 8);
}

/*
 * How a GSI MAD slot @sm sends to slot @to as @via says arrives there, into
 * @from: from @sm's LID, QP 1; with the P_Key of entry @via->pkey_index of
 * @sm's port's table, at the index @to's port holds it (QP1 takes only a
 * P_Key its port holds, one of the two ends a full member, IBA 10.9.3: a MAD
 * sent on the wrong key is lost); with the GRH @via gives, which must name
 * @to's port GID, its values up with @sm's GID.  False when it is lost.
 */
static bool gsi_arrival(struct sim_fabric *f, int sm, int to, const struct mad_addr *via,
			struct mad_addr *from)
{
	const struct sim_port *sp = slot_port(f, sm), *tp = slot_port(f, to);
	uint16_t pkey = via->pkey_index >= SIM_PKEY_CAP ? 0
			: sp->pkeys ? sp->pkeys[via->pkey_index]
			: via->pkey_index == 0 ? 0xffff : 0;
	bool sender_full = pkey & 0x8000, full;

	*from = (struct mad_addr){
		.lid = sim_addr_port(f, f->sms[sm].node, f->sms[sm].port)->lid, .qpn = 1,
	};
	int at = pkey & 0x7fff ? sim_pkey_find(tp, pkey, &full) : -1;
	if (at < 0 || (!sender_full && !full))
		return false;
	from->pkey_index = (uint16_t)at;
	if (!via->grh.present)
		return true;
	uint8_t gid[16];
	slot_gid(f, to, gid);
	if (memcmp(gid, via->grh.gid, sizeof(gid)))
		return false;	/* a GRH for another port */
	from->grh = via->grh;
	from->grh.gid_index = 0;
	slot_gid(f, sm, from->grh.gid);
	return true;
}

static void gsi_push(struct sim_fabric *f, int sm, int to, const uint8_t mad[MAD_BLOCK_SIZE],
		     const struct mad_addr *via)
{
	struct mad_addr from;

	if (gsi_arrival(f, sm, to, via, &from))
		sim_queue_push_raw(f, to, mad, &from);
	else
		f->stats.dropped++;
}

/* Send what @o's window allows from slot @sm. */
static void sender_run(struct sim_fabric *f, int sm, struct sim_rmpp_out *o)
{
	uint8_t seg[MAD_BLOCK_SIZE];

	while (mad_rmpp_sender_next(&o->s, seg))
		gsi_push(f, sm, o->to, seg, &o->via);
}

static void sender_end(struct sim_rmpp_out *o)
{
	mad_rmpp_sender_free(&o->s);
	o->busy = false;
}

/* An ACK, STOP or ABORT for a message slot @to is sending to slot @from. */
static void sender_ack(struct sim_fabric *f, int to, int from, const uint8_t mad[MAD_BLOCK_SIZE])
{
	uint64_t tid = mad_get_be(mad + SA_TID_OFF, 8);

	for (int i = 0; i < SIM_RMPP_SENDERS; i++) {
		struct sim_rmpp_out *o = &f->sms[to].rmpp[i];
		if (!o->busy || o->to != from || o->tid != tid)
			continue;
		int rc = mad_rmpp_sender_ack(&o->s, mad);
		if (rc == 0) {
			sender_run(f, to, o);
			return;
		}
		if (rc < 0) {	/* the receiver is lost: tell it, and stop */
			uint8_t abort[MAD_BLOCK_SIZE];
			mad_rmpp_abort(mad, MAD_RMPP_STATUS_BAD_SEG, abort);
			if (rc == -EPROTO)
				gsi_push(f, to, from, abort, &o->via);
			f->stats.dropped++;
		}
		sender_end(o);
		return;
	}
	f->stats.dropped++;	/* no such transaction */
}

static void receiver_end(struct sim_rmpp_in *in)
{
	mad_rmpp_receiver_free(&in->r);
	in->busy = false;
}

/* A segment of a request slot @from sends to slot @to: its receiver's (a new
 * one for segment 1), the ACKs back to @from, the message to @to once whole. */
static void receiver_take(struct sim_fabric *f, int from, int to, const uint8_t mad[MAD_BLOCK_SIZE],
			  const struct mad_addr *via)
{
	struct sim_sm *s = &f->sms[to];
	uint64_t tid = mad_get_be(mad + SA_TID_OFF, 8);
	struct sim_rmpp_in *in = NULL;

	for (int i = 0; i < SIM_RMPP_RECEIVERS && !in; i++)
		if (s->rmpp_in[i].busy && s->rmpp_in[i].from == from && s->rmpp_in[i].tid == tid)
			in = &s->rmpp_in[i];
	struct mad_addr src;
	if (!gsi_arrival(f, from, to, via, &src)) {
		f->stats.dropped++;
		return;
	}
	if (!in && mad_get_be(mad + MAD_RMPP_OFF + 4, 4) == 1) {
		in = &s->rmpp_in[s->rmpp_in_next];
		s->rmpp_in_next = (s->rmpp_in_next + 1) % SIM_RMPP_RECEIVERS;
		if (in->busy)
			receiver_end(in);	/* the oldest gives way */
		*in = (struct sim_rmpp_in){ .busy = true, .from = from, .tid = tid,
					    .back = { .pkey_index = src.pkey_index } };
		mad_rmpp_receiver_init(&in->r, MAD_SA_DATA_OFFSET);
	}
	if (!in) {	/* no such transaction */
		f->stats.dropped++;
		return;
	}
	uint8_t ack[MAD_BLOCK_SIZE];
	bool send_ack;
	int rc = mad_rmpp_receiver_add(&in->r, mad, ack, &send_ack);
	if (rc < 0) {	/* the sender is told, the message lost */
		mad_rmpp_abort(mad, MAD_RMPP_STATUS_BAD_SEG, ack);
		gsi_push(f, to, from, ack, &in->back);
		f->stats.dropped++;
		receiver_end(in);
		return;
	}
	if (send_ack)	/* as the kernel's MAD layer ACKs: on the P_Key it came on */
		gsi_push(f, to, from, ack, &in->back);
	if (rc == 1) {
		sim_queue_push_long(f, to, in->r.msg, in->r.hdr_len + in->r.data_len, &src);
		in->r.msg = NULL;	/* the queue's now */
		receiver_end(in);
	}
}

/* A request in more than one RMPP segment (not First and Last at once). */
static bool multi_segment_request(const uint8_t mad[MAD_BLOCK_SIZE])
{
	uint8_t flags = mad[MAD_RMPP_OFF + 2] & (MAD_RMPP_FLAG_FIRST | MAD_RMPP_FLAG_LAST);

	return !(mad[3] & 0x80) && mad_rmpp_active(mad) && mad_rmpp_type(mad) == MAD_RMPP_TYPE_DATA &&
	       flags != (MAD_RMPP_FLAG_FIRST | MAD_RMPP_FLAG_LAST);
}

void sim_route_gsi(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
		   const struct mad_addr *to)
{
	if (to && sim_host_take(f, sm, mad, to->lid))
		return;	/* the SA's answer to a host's request */
	int dest = to ? gsi_dest(f, sm, to->lid) : -1;

	if (dest < 0) {
		f->stats.dropped++;
		return;
	}
	if (mad_rmpp_active(mad) && mad_rmpp_type(mad) != MAD_RMPP_TYPE_DATA) {
		sender_ack(f, dest, sm, mad);
		return;
	}
	if (multi_segment_request(mad)) {
		receiver_take(f, sm, dest, mad, to);
		return;
	}
	gsi_push(f, sm, dest, mad, to);
}

int sim_gsi_send_long(struct sim_fabric *f, int sm, const uint8_t *msg, size_t len,
		      const struct mad_addr *to)
{
	int dest = gsi_dest(f, sm, to->lid);

	if (dest < 0) {
		f->stats.dropped++;
		return 0;	/* lost on the way, as on a fabric */
	}
	struct sim_sm *s = &f->sms[sm];
	struct sim_rmpp_out *o = &s->rmpp[s->rmpp_next];
	if (o->busy)
		sender_end(o);	/* the oldest gives way */
	int rc = mad_rmpp_sender_init(&o->s, msg, len, MAD_SA_DATA_OFFSET);
	if (rc)
		return rc;
	o->busy = true;
	o->to = dest;
	o->via = *to;
	o->tid = mad_get_be(msg + SA_TID_OFF, 8);
	s->rmpp_next = (s->rmpp_next + 1) % SIM_RMPP_SENDERS;
	sender_run(f, sm, o);
	return 0;
}

void sim_gsi_unbind(struct sim_fabric *f, int sm)
{
	for (int i = 0; i < SIM_RMPP_SENDERS; i++)
		if (f->sms[sm].rmpp[i].busy)
			sender_end(&f->sms[sm].rmpp[i]);
	for (int i = 0; i < SIM_RMPP_RECEIVERS; i++)
		if (f->sms[sm].rmpp_in[i].busy)
			receiver_end(&f->sms[sm].rmpp_in[i]);
}

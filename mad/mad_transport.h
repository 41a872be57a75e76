/* SPDX-License-Identifier: MIT */
/*
 * mad_transport.h - how MADs reach a fabric: an operations table and two backends.
 *
 * A transport sends and receives whole 256-byte MADs on QP0 of one local port
 * (SMPs) and, where the backend has a GSI agent, on QP1 (SA, class 0x03).
 * Backends: "umad" (libibumad: real hardware, or ibsim through libumad2sim) and
 * "sim" (the in-process simulated fabric, mad_sim.c).  mad_transport_open()
 * parses the spec given on the command line: "umad", "umad:CA", "umad:CA:PORT"
 * or "sim:TOPOFILE".  Everything above (mad_rpc.c) is backend-agnostic.
 */
#ifndef IBSMD_MAD_TRANSPORT_H
#define IBSMD_MAD_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_smp.h"

/* The Global Route Header of a GSI MAD (IBA 8.3): on receipt what the sender
 * put there, from the receiver's side (gid the sender's GID, gid_index the
 * index in our GID table of the GID it was sent to); on a send what goes out
 * (gid the destination's).  A request that came with one is answered with the
 * same values back (IBA 13.5.1.1: a response goes back on the request's path). */
struct mad_grh {
	bool present;
	uint8_t gid_index;
	uint8_t hop_limit;
	uint8_t traffic_class;
	uint32_t flow_label;	/* 20 bits, host order */
	uint8_t gid[16];
};

/* Where a MAD goes to or came from.  For directed-route SMPs lid is 0xffff.
 * qpn: 0 for SMPs (QP0); for a GSI MAD the remote QP it came from, which its
 * answer goes back to (IBA 13.5.1.1).  pkey_index: for a GSI MAD, the index in
 * the local port's P_Key table of the P_Key it came with, or goes out with
 * (QP1 takes only a P_Key the port holds; an answer uses the request's, as
 * the kernel's own MAD responses do).  Every field not set is 0: no GRH,
 * P_Key index 0. */
struct mad_addr {
	uint16_t lid;
	uint8_t sl;
	uint32_t qpn;
	uint16_t pkey_index;
	struct mad_grh grh;
};

/* The local port a transport is bound to, as far as the backend knows it. */
struct mad_local_port {
	char ca_name[64];
	uint8_t port_num;
	uint64_t port_guid;
	uint16_t lid;
	uint16_t sm_lid;
	uint8_t state;		/* enum mad_port_state */
};

struct mad_transport;

struct mad_transport_ops {
	const char *name;
	/* Bind to the port @arg names (backend-specific; may be NULL or ""). 0/-errno,
	 * with a message for the operator in @err. */
	int (*open)(struct mad_transport *t, const char *arg, char *err, size_t errlen);
	/* Is @arg well formed (and a file it names there)?  Opens nothing.  0/-errno,
	 * with a message in @err. */
	int (*check)(const char *arg, char *err, size_t errlen);
	/* Queue one MAD.  0 or -errno (-EAGAIN: try later). */
	int (*send)(struct mad_transport *t, const uint8_t mad[MAD_BLOCK_SIZE],
		    const struct mad_addr *to);
	/* Optional: send one GSI message longer than a MAD (@len bytes: the SA
	 * header with RMPP Active, then the data) as RMPP segments, windows and
	 * all (IBA 13.6): the kernel's MAD layer under umad, the fabric's own
	 * sender on the sim.  0 or -errno. */
	int (*send_long)(struct mad_transport *t, const uint8_t *msg, size_t len,
			 const struct mad_addr *to);
	/* Wait up to @timeout_ms (0: poll, <0: forever) for one MAD, or one
	 * message the transport reassembled from RMPP segments (a GSI request
	 * longer than a MAD: the kernel's MAD layer under umad, the fabric on
	 * the sim), into @buf of *@len bytes (at least MAD_BLOCK_SIZE).  0 with
	 * *@len the message's length and @from filled, -ETIMEDOUT, or -errno.
	 * -ENOSPC: the message is longer than *@len, as the kernel's read()
	 * says it (user_mad.c): its first MAD_BLOCK_SIZE bytes are in @buf,
	 * *@len is the length it needs, and it stays first in line for a read
	 * with a buffer that large.  Both answers and unsolicited MADs (traps,
	 * requests to the SM) arrive here. */
	int (*recv)(struct mad_transport *t, uint8_t *buf, size_t *len, struct mad_addr *from,
		    int timeout_ms);
	/* A file descriptor that polls readable when recv() would not block, or -1. */
	int (*fd)(struct mad_transport *t);
	/* Refresh @lp (LID and state change as the SM programs its own port). */
	int (*local_port)(struct mad_transport *t, struct mad_local_port *lp);
	/* Optional: another local port the SM may move to, named @port
	 * ("DEVICE:PORT": a CA and port under umad, a node of the topology and
	 * port on the sim; or its port GUID, mad_port_name_guid()).  port_state() fills @lp as local_port() would,
	 * binding nothing; rebind() lets go of the bound port and binds to
	 * @port (on failure the transport stays where it was).  0 or -errno
	 * (-ENODEV: no such device or port), with a message in @err. */
	int (*port_state)(struct mad_transport *t, const char *port, struct mad_local_port *lp,
			  char *err, size_t errlen);
	int (*rebind)(struct mad_transport *t, const char *port, char *err, size_t errlen);
	void (*close)(struct mad_transport *t);
};

struct mad_transport {
	const struct mad_transport_ops *ops;
	void *priv;		/* backend state */
};

extern const struct mad_transport_ops mad_umad_ops;
extern const struct mad_transport_ops mad_sim_ops;

/*
 * Open a transport from @spec ("umad[:CA[:PORT]]" or "sim:FILE").  On success
 * *@out is a new transport the caller frees with mad_transport_close().  On
 * error returns -errno and writes a message for the operator into @err.
 */
int mad_transport_open(const char *spec, struct mad_transport **out, char *err,
		       size_t errlen);
void mad_transport_close(struct mad_transport *t);

/* What open would refuse before touching a device: a bad spec, a missing sim
 * topology file.  0 or -errno with a message in @err (ibsmd --check-config). */
int mad_transport_check(const char *spec, char *err, size_t errlen);

/* A local port named by its port GUID: "0x" and 1 to 16 hex digits, not
 * all zero.  0 with *@guid set, or -EINVAL (then it is no GUID). */
int mad_port_name_guid(const char *name, uint64_t *guid);

/* One MAD of at most MAD_BLOCK_SIZE bytes into @mad (t->ops->recv with a
 * MAD's room): for a client that takes no longer message.  As recv(); a
 * longer message gives -ENOSPC and stays first in line. */
int mad_transport_recv_mad(struct mad_transport *t, uint8_t mad[MAD_BLOCK_SIZE],
			   struct mad_addr *from, int timeout_ms);

/* The monotonic clock in milliseconds: MAD timeouts and stage timings. */
uint64_t mad_now_ms(void);

#endif

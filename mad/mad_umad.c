// SPDX-License-Identifier: MIT
/*
 * mad_umad.c - the libibumad transport: QP0 and QP1 of one local CA port.
 *
 * Data: one umad port (a file descriptor), two agents registered on it for the
 * SMI classes (directed route 0x81 and LID routed 0x01), one for the SA
 * class (0x03, on QP1, with RMPP left to the kernel) and one for PerfMgt
 * (0x04, on QP1: the answers to our Gets and Sets), the issm device held
 * open (it sets IsSM in the port's CapabilityMask, and under ibsim it is what
 * makes the simulator hand us traps and SMInfo requests), and one umad buffer
 * (grown to the longest message read: the kernel reassembles an RMPP request
 * for the SA agent, a client's GetMulti of many GIDs, and hands it up whole).
 * Flow: open() parses "", "CA" or "CA:PORT", picks the port
 * (mad_umad_port.c: InfiniBand only; a named one that is not there is an
 * error, one that is there without its link is opened and waited for), opens
 * and registers; send() wraps a 256-byte MAD in a struct ib_user_mad addressed to
 * QP0 of a LID (0xffff for directed route), for an SA answer to the QP the
 * request came from, for a PerfMgt request to QP1; recv() waits with poll() on the
 * umad fd and unwraps, dropping entries that carry a umad status (a request
 * the kernel or the simulator gave up on: the rpc layer keeps its own clock).
 *
 * The same code runs under ibsim with libumad2sim.so preloaded.  That wrapper
 * differs from the kernel in ways the layers above must know:
 *  - it ignores method masks and hands every request of a class to the one
 *    agent registered for it (a MAD of a class nobody registered crashes its
 *    receiver thread); requests (traps, SMInfo) reach only a client that
 *    opened issm;
 *  - it rewrites TID bits 32..47 of our requests with the agent id (the kernel
 *    rewrites bits 32..63): only the low 32 bits are ours;
 *  - a MAD ibsim cannot route comes back at once as our own request with
 *    umad status ETIMEDOUT (110); the kernel reports a lost request the same
 *    way, but only after the send timeout;
 *  - its fd is a fake number >= 1024: poll() on it works only through the
 *    wrapper, and a poll() set that mixes it with real fds waits on it alone;
 *    epoll and select do not work on it;
 *  - the sysfs it fakes is a snapshot taken when the process first touched
 *    libibumad: local_port() does not see the LID or state the SM sets later.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "mad/mad_attr.h"
#include "mad/mad_cc.h"
#include "mad/mad_perf.h"
#include "mad/mad_sa.h"
#include "mad/mad_transport.h"
#include "mad/mad_umad_port.h"

/*
 * How long the kernel keeps a request on its wait list.  The kernel delivers a
 * GetResp only to the agent of a request still waiting, so this bounds the
 * slowest answer we can receive; it must exceed any rpc timeout.  Requests the
 * rpc layer retried in the meantime are answered late and show up as
 * unsolicited MADs.
 */
#define UMAD_SEND_TIMEOUT_MS 2000
#define UMAD_RMPP_RETRIES 3	/* an RMPP window the receiver did not ACK, sent again */
#define UMAD_QKEY_SMI 0		/* QP0 does not check Q_Keys */
#define UMAD_QKEY_GSI 0x80010000	/* the well-known GSI Q_Key (IBA 13.5.1.1) */
#define UMAD_RMPP_VERSION 1
#define UMAD_PORT_ANY MAD_UMAD_PORT_ANY
_Static_assert(UMAD_CA_NAME_LEN == MAD_UMAD_NAME_LEN, "CA names fit");

struct umad_priv {
	int portid;		/* from umad_open_port(); also the fd */
	int issm_fd;
	int agent_dr;		/* class 0x81 */
	int agent_lid;		/* class 0x01 */
	int agent_sa;		/* class 0x03, QP1 */
	int agent_perf;		/* class 0x04, QP1: answers only */
	int agent_cc;		/* class 0x21, QP1: answers only */
	char ca[UMAD_CA_NAME_LEN];
	int port;
	uint8_t *buf;		/* umad_size() + buf_len */
	size_t buf_len;
};

/*
 * Split @arg ("", "CA" or "CA:PORT") into @ca (empty: any) and *@port
 * (UMAD_PORT_ANY when not given).  0 or -EINVAL with a message.
 */
static int umad_parse_spec(const char *arg, char ca[UMAD_CA_NAME_LEN], int *port,
			   char *err, size_t errlen)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);

	*port = UMAD_PORT_ANY;
	if (len >= UMAD_CA_NAME_LEN) {
		snprintf(err, errlen, "umad: CA name '%.*s' is longer than %d characters",
			 (int)len, arg, UMAD_CA_NAME_LEN - 1);
		return -EINVAL;
	}
	memcpy(ca, arg, len);
	ca[len] = '\0';
	if (!colon)
		return 0;
	char *end;
	errno = 0;
	long p = strtol(colon + 1, &end, 10);
	if (len == 0 || colon[1] == '\0' || *end || errno || p < 0 || p > 254) {
		snprintf(err, errlen,
			 "umad: bad spec 'umad:%s' (expected umad:CA or umad:CA:PORT, "
			 "PORT 0..254)", arg);
		return -EINVAL;
	}
	*port = (int)p;
	return 0;
}

/* Every port of every CA libibumad sees, as mad_umad_port_choose() takes
 * them, into @ports (room for @max), the CA names into @cas.  The count. */
static size_t umad_list_ports(struct mad_umad_port *ports, size_t max,
			      char (*cas)[MAD_UMAD_NAME_LEN], size_t *ncas)
{
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
	int n = umad_get_cas_names(names, UMAD_MAX_DEVICES);
	size_t np = 0;

	*ncas = 0;
	for (int i = 0; i < n; i++) {
		umad_ca_t c;
		/* With no CA at all, libibumad still names a default one. */
		if (umad_get_ca(names[i], &c) < 0)
			continue;
		snprintf(cas[(*ncas)++], MAD_UMAD_NAME_LEN, "%.*s", MAD_UMAD_NAME_LEN - 1, names[i]);
		for (int j = 0; j < UMAD_CA_MAX_PORTS && np < max; j++) {
			const umad_port_t *up = c.ports[j];
			if (!up)
				continue;
			struct mad_umad_port *p = &ports[np++];
			*p = (struct mad_umad_port){ .num = up->portnum, .state = (int)up->state,
						     .phys_state = (int)up->phys_state };
			snprintf(p->ca, sizeof(p->ca), "%.*s", MAD_UMAD_NAME_LEN - 1, names[i]);
			snprintf(p->link_layer, sizeof(p->link_layer), "%.*s", MAD_UMAD_NAME_LEN - 1,
				 up->link_layer);
		}
		umad_release_ca(&c);
	}
	return np;
}

/*
 * The port to run on for @ca ("" any) and *@port (UMAD_PORT_ANY: any),
 * mad_umad_port_choose() over what sysfs shows: fills @ca and *@port.  0, or
 * -ENETDOWN for a named port that exists with no link yet (filled too: it
 * may be opened and waited for), or the other answers of
 * mad_umad_port_choose() with a message.
 */
static int umad_find_port(char ca[UMAD_CA_NAME_LEN], int *port, char *err, size_t errlen)
{
	struct mad_umad_port ports[UMAD_MAX_DEVICES * 2];
	char cas[UMAD_MAX_DEVICES][MAD_UMAD_NAME_LEN];
	size_t ncas, chosen;
	size_t n = umad_list_ports(ports, sizeof(ports) / sizeof(ports[0]), cas, &ncas);
	int rc = mad_umad_port_choose(ports, n, cas, ncas, ca, *port, &chosen, err, errlen);

	if (rc == 0 || (rc == -ENETDOWN && *port != UMAD_PORT_ANY)) {
		snprintf(ca, UMAD_CA_NAME_LEN, "%s", ports[chosen].ca);
		*port = ports[chosen].num;
	}
	return rc;
}

/* A message for a failed open() of the device @path. */
static int umad_open_error(int e, const char *path, char *err, size_t errlen)
{
	if (e == EACCES || e == EPERM)
		snprintf(err, errlen,
			 "umad: permission denied on %s (run as root, or give the "
			 "user access to /dev/infiniband)", path);
	else if (e == EAGAIN || e == EBUSY)
		snprintf(err, errlen,
			 "umad: %s is busy: another SM is running on this port", path);
	else if (e == ENOENT || e == ENODEV || e == ENXIO)
		snprintf(err, errlen, "umad: %s does not exist (is ib_umad loaded?)",
			 path);
	else
		snprintf(err, errlen, "umad: cannot open %s: %s", path, strerror(e));
	return e ? -e : -EIO;
}

/*
 * Register for @mgmt_class (version @version, RMPP @rmpp): answers to our
 * requests, and the unsolicited requests of @methods.  libibumad returns -EPERM
 * whatever went wrong; the ioctl's errno says more.  The kernel refuses a
 * method another agent of the port holds with EINVAL (EBUSY on some versions):
 * on QP0, or for the SA class, that is another SM, such as OpenSM.
 */
static int umad_register_class(struct umad_priv *p, int mgmt_class, int version,
			       int rmpp, const uint8_t *methods, size_t nmethods,
			       char *err, size_t errlen)
{
	long mask[16 / sizeof(long)] = { 0 };
	const unsigned bits = 8 * sizeof(long);

	for (size_t i = 0; i < nmethods; i++)
		mask[methods[i] / bits] |= 1L << (methods[i] % bits);
	errno = 0;
	int id = umad_register(p->portid, mgmt_class, version, rmpp, mask);
	int e = errno ? errno : -id;
	if (id >= 0)
		return id;
	const char *what = mgmt_class == MAD_CLASS_SA ? "SA" : "SM";
	if (e == EINVAL || e == EBUSY)
		snprintf(err, errlen, "umad: cannot register for %s class 0x%02x on %s port %d: "
			 "another SM may hold the %s class on this port (%s)", what, mgmt_class,
			 p->ca, p->port, what, strerror(e));
	else if (e == EPERM || e == EACCES)
		snprintf(err, errlen, "umad: cannot register for %s class 0x%02x on %s port %d: "
			 "permission denied (run as root)", what, mgmt_class, p->ca, p->port);
	else
		snprintf(err, errlen, "umad: cannot register an agent for class 0x%02x on %s "
			 "port %d: %s", mgmt_class, p->ca, p->port, strerror(e));
	return id;
}

/* Open the umad and issm devices of @p->ca/@p->port. */
static int umad_open_devices(struct umad_priv *p, char *err, size_t errlen)
{
	char issm[256], umad[256];

	if (umad_get_issm_path(p->ca, p->port, issm, sizeof(issm)) < 0) {
		snprintf(err, errlen, "umad: no umad device for %s port %d", p->ca,
			 p->port);
		return -ENODEV;
	}
	/* The umad and issm devices share their number (ib_umad). */
	const char *num = strrchr(issm, '/');
	snprintf(umad, sizeof(umad), "%.*s/umad%s", (int)(num - issm), issm,
		 num + 1 + strlen("issm"));

	errno = 0;
	p->portid = umad_open_port(p->ca, p->port);
	if (p->portid < 0)	/* errno from open(), if it got that far */
		return umad_open_error(errno ? errno : -p->portid, umad, err, errlen);
	/* SMI: Get, Set (SMInfo from other SMs, IBA 14.4.1), Trap and
	 * TrapRepress (IBA 13.4.9).  SA: the requests of IBA 15.4.  Under
	 * libumad2sim the SA agent is also what keeps an saquery from crashing
	 * its receive thread. */
	static const uint8_t smi[] = {
		MAD_METHOD_GET, MAD_METHOD_SET, MAD_METHOD_TRAP, MAD_METHOD_TRAP_REPRESS,
	};
	static const uint8_t sa[] = {
		MAD_SA_METHOD_GET, MAD_SA_METHOD_SET, MAD_SA_METHOD_GET_TABLE,
		MAD_SA_METHOD_GET_MULTI, MAD_SA_METHOD_DELETE,
	};
	/* the first refusal is the one reported */
	if ((p->agent_dr = umad_register_class(p, MAD_CLASS_SMI_DR, 1, 0, smi, sizeof(smi),
					       err, errlen)) < 0 ||
	    (p->agent_lid = umad_register_class(p, MAD_CLASS_SMI, 1, 0, smi, sizeof(smi),
						err, errlen)) < 0 ||
	    (p->agent_sa = umad_register_class(p, MAD_CLASS_SA, MAD_SA_CLASS_VERSION,
					       UMAD_RMPP_VERSION, sa, sizeof(sa), err,
					       errlen)) < 0 ||
	    (p->agent_perf = umad_register_class(p, MAD_CLASS_PERF, MAD_PERF_CLASS_VERSION, 0,
						 NULL, 0, err, errlen)) < 0 ||
	    (p->agent_cc = umad_register_class(p, MAD_CLASS_CC, MAD_CC_CLASS_VERSION, 0,
					       NULL, 0, err, errlen)) < 0)
		return -EIO;
	p->issm_fd = open(issm, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (p->issm_fd < 0)
		return umad_open_error(errno, issm, err, errlen);
	return 0;
}

static void umad_priv_free(struct umad_priv *p)
{
	if (p->agent_dr >= 0)
		umad_unregister(p->portid, p->agent_dr);
	if (p->agent_lid >= 0)
		umad_unregister(p->portid, p->agent_lid);
	if (p->agent_sa >= 0)
		umad_unregister(p->portid, p->agent_sa);
	if (p->agent_perf >= 0)
		umad_unregister(p->portid, p->agent_perf);
	if (p->agent_cc >= 0)
		umad_unregister(p->portid, p->agent_cc);
	if (p->issm_fd >= 0)
		close(p->issm_fd);
	if (p->portid >= 0)
		umad_close_port(p->portid);
	free(p->buf);
	free(p);
	umad_done();
}

static int umad_check(const char *arg, char *err, size_t errlen)
{
	char ca[UMAD_CA_NAME_LEN];
	int port;

	return umad_parse_spec(arg, ca, &port, err, errlen);
}

static int umad_open(struct mad_transport *t, const char *arg, char *err, size_t errlen)
{
	struct umad_priv *p = calloc(1, sizeof(*p));
	int rc;

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	p->portid = p->issm_fd = p->agent_dr = p->agent_lid = p->agent_sa = -1;
	p->agent_perf = -1;
	p->agent_cc = -1;
	rc = umad_parse_spec(arg, p->ca, &p->port, err, errlen);
	if (rc) {
		free(p);
		return rc;
	}
	if (umad_init() < 0) {
		snprintf(err, errlen, "umad: libibumad failed to initialise");
		free(p);
		return -EIO;
	}
	rc = umad_find_port(p->ca, &p->port, err, errlen);
	if (rc == -ENETDOWN && p->port != UMAD_PORT_ANY)
		rc = 0;	/* named and there: opened, the SM waits for its link */
	if (!rc)
		rc = umad_open_devices(p, err, errlen);
	if (!rc && !(p->buf = calloc(1, umad_size() + MAD_BLOCK_SIZE))) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
	}
	p->buf_len = MAD_BLOCK_SIZE;
	if (rc) {
		umad_priv_free(p);
		return rc;
	}
	t->priv = p;
	return 0;
}

/* Address the umad @buf to @to: LID, QP, SL, Q_Key, and for a GSI MAD the
 * P_Key index and the GRH (an SA answer goes back as its request came, IBA
 * 13.5.1.1; the kernel builds the reply's address handle from them,
 * user_mad.c ib_umad_write()).  umad_set_grh() is not used: it leaves the
 * GID index out. */
static void umad_address(uint8_t *buf, const struct mad_addr *to, bool gsi)
{
	umad_set_addr(buf, to->lid, gsi ? (int)to->qpn : 0, to->sl,
		      gsi ? (int)UMAD_QKEY_GSI : UMAD_QKEY_SMI);
	if (!gsi)
		return;
	umad_set_pkey(buf, to->pkey_index);
	if (!to->grh.present)
		return;
	ib_mad_addr_t *a = umad_get_mad_addr(buf);
	a->grh_present = 1;
	a->gid_index = to->grh.gid_index;
	a->hop_limit = to->grh.hop_limit;
	a->traffic_class = to->grh.traffic_class;
	a->flow_label = htobe32(to->grh.flow_label & 0xfffff);
	memcpy(a->gid, to->grh.gid, sizeof(a->gid));
}

static int umad_send_op(struct mad_transport *t, const uint8_t mad[MAD_BLOCK_SIZE],
			const struct mad_addr *to)
{
	struct umad_priv *p = t->priv;
	bool perf = mad[1] == MAD_CLASS_PERF, cc = mad[1] == MAD_CLASS_CC;
	bool gsi = mad[1] == MAD_CLASS_SA || perf || cc;
	int agent = perf ? p->agent_perf : cc ? p->agent_cc : gsi ? p->agent_sa :
		    mad[1] == MAD_CLASS_SMI_DR ? p->agent_dr : p->agent_lid;
	/* A request needs a timeout, or the kernel drops its answer (on QP1 we
	 * send SA answers, PerfMgt and CC requests, and Reports that a ReportResp
	 * answers). */
	bool request = perf || cc || !gsi ? mad_method_is_request(mad[3]) : mad[3] == MAD_SA_METHOD_REPORT;
	int timeout = request ? UMAD_SEND_TIMEOUT_MS : 0;

	memset(p->buf, 0, umad_size());
	memcpy(umad_get_mad(p->buf), mad, MAD_BLOCK_SIZE);
	umad_address(p->buf, to, gsi);
	errno = 0;
	if (umad_send(p->portid, agent, p->buf, MAD_BLOCK_SIZE, timeout, 0) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

/* The SA agent is registered with RMPP: the kernel segments the message. */
static int umad_send_long_op(struct mad_transport *t, const uint8_t *msg, size_t len,
			     const struct mad_addr *to)
{
	struct umad_priv *p = t->priv;
	uint8_t *buf = calloc(1, umad_size() + len);

	if (!buf)
		return -ENOMEM;
	memcpy(umad_get_mad(buf), msg, len);
	umad_address(buf, to, true);
	errno = 0;
	int rc = umad_send(p->portid, p->agent_sa, buf, (int)len, UMAD_SEND_TIMEOUT_MS,
			   UMAD_RMPP_RETRIES);
	int e = errno;
	free(buf);
	return rc < 0 ? (e ? -e : -EIO) : 0;
}

/* Where the MAD in p->buf came from: LID, SL, QP, P_Key index, GRH. */
static void umad_from(struct umad_priv *p, struct mad_addr *from)
{
	ib_mad_addr_t *addr = umad_get_mad_addr(p->buf);
	int pkey = umad_get_pkey(p->buf);

	*from = (struct mad_addr){
		.lid = ntohs(addr->lid), .sl = addr->sl, .qpn = ntohl(addr->qpn),
		.pkey_index = pkey > 0 ? (uint16_t)pkey : 0,
	};
	if (!addr->grh_present)
		return;
	from->grh = (struct mad_grh){
		.present = true, .gid_index = addr->gid_index, .hop_limit = addr->hop_limit,
		.traffic_class = addr->traffic_class,
		.flow_label = be32toh(addr->flow_label) & 0xfffff,
	};
	memcpy(from->grh.gid, addr->gid, sizeof(from->grh.gid));
}

/* Room for @len bytes of MAD in p->buf.  0 or -ENOMEM. */
static int umad_room(struct umad_priv *p, size_t len)
{
	if (len <= p->buf_len)
		return 0;
	uint8_t *b = realloc(p->buf, umad_size() + len);
	if (!b)
		return -ENOMEM;
	p->buf = b;
	p->buf_len = len;
	return 0;
}

static int umad_recv_op(struct mad_transport *t, uint8_t *buf, size_t *len,
			struct mad_addr *from, int timeout_ms)
{
	struct umad_priv *p = t->priv;
	uint64_t deadline = timeout_ms > 0 ? mad_now_ms() + (uint64_t)timeout_ms : 0;
	int wait = timeout_ms;

	if (*len < MAD_BLOCK_SIZE || *len > INT_MAX)
		return -EINVAL;	/* umad_recv(3): at least a MAD's room */
	if (umad_room(p, *len))
		return -ENOMEM;
	for (;;) {
		int got = (int)*len;

		errno = 0;
		int rc = umad_recv(p->portid, p->buf, &got, wait);
		if (rc == -ENOSPC && got > (int)*len) {	/* the first MAD, and the length */
			memcpy(buf, umad_get_mad(p->buf), MAD_BLOCK_SIZE);
			umad_from(p, from);
			*len = (size_t)got;
			return -ENOSPC;
		}
		if (rc >= 0 && !umad_status(p->buf)) {
			size_t n = got > 0 ? (size_t)got : 0;
			n = n < *len ? n : *len;
			memcpy(buf, umad_get_mad(p->buf), n);
			if (n < MAD_BLOCK_SIZE)	/* a short MAD reads as zeros */
				memset(buf + n, 0, MAD_BLOCK_SIZE - n);
			*len = n > MAD_BLOCK_SIZE ? n : MAD_BLOCK_SIZE;
			umad_from(p, from);
			return 0;
		}
		/* EAGAIN (== EWOULDBLOCK, what libumad2sim's read returns) */
		if (rc < 0 && rc != -ETIMEDOUT && rc != -EAGAIN)
			return errno == EINTR ? -EINTR : rc;
		/* Nothing yet, a spurious wake-up, or a request the kernel or ibsim
		 * gave up on (umad status set): the rpc layer times those out. */
		if (timeout_ms == 0)
			return -ETIMEDOUT;
		if (timeout_ms > 0) {
			uint64_t now = mad_now_ms();
			if (now >= deadline)
				return -ETIMEDOUT;
			wait = (int)(deadline - now);
		}
	}
}

static int umad_fd_op(struct mad_transport *t)
{
	struct umad_priv *p = t->priv;

	return umad_get_fd(p->portid);
}

static int umad_local_port(struct mad_transport *t, struct mad_local_port *lp)
{
	struct umad_priv *p = t->priv;
	umad_port_t up;

	if (umad_get_port(p->ca, p->port, &up) < 0)
		return -ENODEV;
	memset(lp, 0, sizeof(*lp));
	snprintf(lp->ca_name, sizeof(lp->ca_name), "%s", p->ca);
	lp->port_num = (uint8_t)p->port;
	lp->port_guid = be64toh(up.port_guid);
	lp->lid = (uint16_t)up.base_lid;
	lp->sm_lid = (uint16_t)up.sm_lid;
	lp->state = (uint8_t)up.state;
	umad_release_port(&up);
	return 0;
}

/* The CA and port whose port GUID is @guid.  0 or -ENODEV with a message. */
static int umad_find_guid(uint64_t guid, char ca[UMAD_CA_NAME_LEN], int *num, char *err,
			  size_t errlen)
{
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
	int n = umad_get_cas_names(names, UMAD_MAX_DEVICES);

	for (int i = 0; i < n; i++) {
		__be64 guids[UMAD_CA_MAX_PORTS + 1];
		int ports = umad_get_ca_portguids(names[i], guids, UMAD_CA_MAX_PORTS + 1);
		for (int j = 1; j < ports; j++) {	/* [0] is port 0 (a switch's) */
			if (be64toh(guids[j]) != guid)
				continue;
			memcpy(ca, names[i], UMAD_CA_NAME_LEN);
			*num = j;
			return 0;
		}
	}
	snprintf(err, errlen, "umad: no local port has GUID 0x%016" PRIx64, guid);
	return -ENODEV;
}

/* A port of the SM's port list ("CA:PORT" in full, or a port GUID). */
static int umad_parse_named(const char *port, char ca[UMAD_CA_NAME_LEN], int *num, char *err,
			    size_t errlen)
{
	uint64_t guid;

	if (mad_port_name_guid(port, &guid) == 0)
		return umad_find_guid(guid, ca, num, err, errlen);
	int rc = umad_parse_spec(port, ca, num, err, errlen);

	if (rc == 0 && *num == UMAD_PORT_ANY) {
		snprintf(err, errlen, "umad: '%s' is no CA:PORT", port);
		rc = -EINVAL;
	}
	return rc;
}

static int umad_port_state(struct mad_transport *t, const char *port, struct mad_local_port *lp,
			   char *err, size_t errlen)
{
	char ca[UMAD_CA_NAME_LEN];
	int num, rc = umad_parse_named(port, ca, &num, err, errlen);
	umad_port_t up;

	(void)t;
	if (rc)
		return rc;
	rc = umad_find_port(ca, &num, err, errlen);	/* there, and InfiniBand */
	if (rc && rc != -ENETDOWN)
		return rc;
	if (umad_get_port(ca, num, &up) < 0) {
		snprintf(err, errlen, "umad: CA %s has no port %d", ca, num);
		return -ENODEV;
	}
	memset(lp, 0, sizeof(*lp));
	snprintf(lp->ca_name, sizeof(lp->ca_name), "%s", ca);
	lp->port_num = (uint8_t)num;
	lp->port_guid = be64toh(up.port_guid);
	lp->lid = (uint16_t)up.base_lid;
	lp->sm_lid = (uint16_t)up.sm_lid;
	/* a port without its link is no place for an SM yet */
	lp->state = rc ? MAD_PORT_DOWN : (uint8_t)up.state;
	umad_release_port(&up);
	return 0;
}

static void umad_close_op(struct mad_transport *t);

/* The new port is opened before the old one is closed: when it cannot be,
 * the transport stays where it was. */
static int umad_rebind(struct mad_transport *t, const char *port, char *err, size_t errlen)
{
	char ca[UMAD_CA_NAME_LEN], spec[UMAD_CA_NAME_LEN + 8];
	int num, rc = umad_parse_named(port, ca, &num, err, errlen);
	struct mad_transport nt = { .ops = t->ops };

	if (rc)
		return rc;
	snprintf(spec, sizeof(spec), "%s:%d", ca, num);
	if ((rc = umad_open(&nt, spec, err, errlen)))
		return rc;
	umad_close_op(t);
	t->priv = nt.priv;
	return 0;
}

/* Before the agents go: answers to SMPs a stopping SM left in flight are
 * read and dropped until the port has been quiet for QUIET_MS (at most
 * QUIESCE_MS in all).  Under libumad2sim a MAD that arrives once its agent is
 * unregistered crashes the wrapper's receiver thread, and with it ibsmd. */
#define QUIET_MS 50
#define QUIESCE_MS 500

static void umad_close_op(struct mad_transport *t)
{
	uint8_t mad[MAD_BLOCK_SIZE];
	struct mad_addr from;
	uint64_t end = mad_now_ms() + QUIESCE_MS;

	while (mad_now_ms() < end && mad_transport_recv_mad(t, mad, &from, QUIET_MS) == 0)
		;
	umad_priv_free(t->priv);
	t->priv = NULL;
}

const struct mad_transport_ops mad_umad_ops = {
	.name = "umad",
	.open = umad_open,
	.check = umad_check,
	.send = umad_send_op,
	.send_long = umad_send_long_op,
	.recv = umad_recv_op,
	.fd = umad_fd_op,
	.local_port = umad_local_port,
	.port_state = umad_port_state,
	.rebind = umad_rebind,
	.close = umad_close_op,
};

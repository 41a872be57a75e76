// SPDX-License-Identifier: MIT
/*
 * mad_sim_transport.c - the "sim:" transport: queue, clock, timed fault events.
 *
 * send() runs an SMP through the fabric at once (mad_sim_route.c) and queues the
 * answer, due after the configured latency; traps join the same FIFO.  recv()
 * pops the head once it is due, waiting up to its timeout.  A timerfd, armed
 * for the earliest due MAD or event, is what fd() returns (made on first use),
 * so an event loop can poll the simulated fabric like a real device.  Timed
 * events (sim_events_load) count from the transport's open and are applied, in
 * order, by whichever of send() or recv() first runs after they fall due.
 *
 * Several transports may share one fabric (sim_transport_new_at), each bound
 * to an SM slot of its own (its port, queue and timer fd), on threads of their
 * own: every operation holds the fabric's mutex (recv() lets go of it while it
 * sleeps, and sleeps in short slices then, since another SM may queue a MAD).
 * A queued answer keeps the VL15 buffer its request holds until its SM reads
 * it (or unbinds).
 *
 * Spec: "TOPOFILE[,host=NODE[:PORT]][,events=FILE][,latency=USEC][,seed=N]
 * [,smp-buffer=N][,arm-to-active=MSEC][,lenient=MASK][,traffic=PATTERN]
 * [,opt-sl2vl=0|1][,ipoib=MSEC][,cc=0|1]" (mad_sim.h).  The hosts' SA requests
 * (mad_sim_host.c) fall due like timed events.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "mad/model/topo_text.h"
#include "mad/sim/mad_sim_priv.h"

struct sim_transport {
	struct sim_fabric *f;
	int sm;		/* its slot in f->sms */
	bool owns;
};

#define SIM_SHARED_SLEEP_US 1000	/* recv()'s slice while other SMs may send */

uint64_t sim_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The time (µs) the next MAD for SM @sm or event falls due, or UINT64_MAX. */
static uint64_t sim_next_due(const struct sim_fabric *f, int sm)
{
	const struct sim_sm *s = &f->sms[sm];
	uint64_t due = UINT64_MAX;

	if (s->q_len)
		due = s->q[s->q_head].due_us;
	if (f->t0_us && f->ev_next < f->nev && f->t0_us + f->ev[f->ev_next].at_us < due)
		due = f->t0_us + f->ev[f->ev_next].at_us;
	if (f->ipoib_ms && f->ipoib_due_us < due)	/* the hosts' joins */
		due = f->ipoib_due_us;
	return due;
}

/* The timer fd polls readable while something is due.  timerfd_settime()
 * costs tens of µs, so it is only called when the answer changes: a timer
 * that has already expired stays readable while the head is due (the common
 * case with no latency: a system call per burst, not per MAD), and is moved
 * when the next due time lies ahead or nothing is left. */
void sim_timer_rearm(struct sim_fabric *f, int sm)
{
	struct sim_sm *s = &f->sms[sm];
	struct itimerspec its = { 0 };
	uint64_t due = sim_next_due(f, sm);

	if (s->timerfd < 0 || due == s->armed_us)
		return;
	uint64_t now = due != UINT64_MAX ? sim_now_us() : 0;
	if (due != UINT64_MAX && due <= now && s->armed_us <= now)
		return;	/* expired, so readable, and something is due */
	if (due != UINT64_MAX) {
		uint64_t at = due ? due : 1;	/* an all-zero it_value would disarm */
		its.it_value.tv_sec = (time_t)(at / 1000000u);
		its.it_value.tv_nsec = (long)(at % 1000000u) * 1000;
	}
	timerfd_settime(s->timerfd, TFD_TIMER_ABSTIME, &its, NULL);
	s->armed_us = due;
}

static void sim_timers_rearm(struct sim_fabric *f)
{
	for (int i = 0; i < SIM_MAX_SMS; i++)
		if (f->sms[i].bound)
			sim_timer_rearm(f, i);
}

/* A new message at the tail of SM @sm's queue, or NULL (counted as dropped). */
static struct sim_msg *sim_queue_tail(struct sim_fabric *f, int sm)
{
	struct sim_sm *s = &f->sms[sm];

	if (s->q_len == s->q_cap) {
		size_t cap = s->q_cap ? 2 * s->q_cap : 64;
		struct sim_msg *q = malloc(cap * sizeof(*q));
		if (!q) {
			f->stats.dropped++;
			return NULL;
		}
		for (size_t i = 0; i < s->q_len; i++)
			q[i] = s->q[(s->q_head + i) % s->q_cap];
		free(s->q);
		s->q = q;
		s->q_cap = cap;
		s->q_head = 0;
	}
	struct sim_msg *m = &s->q[(s->q_head + s->q_len++) % s->q_cap];
	/* no latency: due at once, and no clock to read (once per SMP, else) */
	m->due_us = f->latency_us ? sim_now_us() + f->latency_us : 0;
	m->holder = NULL;
	m->long_msg = NULL;
	m->len = MAD_BLOCK_SIZE;
	return m;
}

void sim_queue_push(struct sim_fabric *f, int sm, const struct mad_smp *smp,
		    uint16_t from_lid, struct sim_port *holder)
{
	struct sim_msg *m = sim_queue_tail(f, sm);

	if (!m)
		return;
	m->holder = holder;
	if (holder)
		holder->held++;
	m->from = (struct mad_addr){ .lid = from_lid };
	mad_smp_encode(smp, m->mad);
	sim_timer_rearm(f, sm);
}

void sim_queue_push_raw(struct sim_fabric *f, int sm, const uint8_t mad[MAD_BLOCK_SIZE],
			const struct mad_addr *from)
{
	struct sim_msg *m = sim_queue_tail(f, sm);

	if (!m)
		return;
	m->from = *from;
	memcpy(m->mad, mad, MAD_BLOCK_SIZE);
	sim_timer_rearm(f, sm);
}

void sim_queue_push_long(struct sim_fabric *f, int sm, uint8_t *msg, size_t len,
			 const struct mad_addr *from)
{
	struct sim_msg *m = sim_queue_tail(f, sm);

	if (!m) {
		free(msg);
		return;
	}
	m->from = *from;
	memcpy(m->mad, msg, MAD_BLOCK_SIZE);
	m->long_msg = msg;
	m->len = len;
	sim_timer_rearm(f, sm);
}

/* Let go of the head of SM @sm's queue. */
static void sim_queue_pop(struct sim_fabric *f, int sm)
{
	struct sim_sm *s = &f->sms[sm];
	struct sim_msg *m = &s->q[s->q_head];

	if (m->holder)
		m->holder->held--;
	free(m->long_msg);
	m->long_msg = NULL;
	s->q_head = (s->q_head + 1) % s->q_cap;
	s->q_len--;
}

static void sim_apply_event(struct sim_fabric *f, const struct sim_event *e)
{
	switch (e->kind) {
	case SIM_EV_LINK_DOWN:
	case SIM_EV_LINK_UP:
		sim_link_set(f, e->node, e->port, e->kind == SIM_EV_LINK_UP);
		break;
	case SIM_EV_LOSS:
		sim_link_loss(f, e->node, e->port, e->value);
		break;
	case SIM_EV_DEAD:
	case SIM_EV_ALIVE:
		sim_node_dead(f, e->node, e->kind == SIM_EV_DEAD);
		break;
	case SIM_EV_TRAP:
		sim_node_trap(f, e->node);
		break;
	case SIM_EV_COUNTER:
		sim_perf_add_one(f, e->node, e->port, e->counter, (uint64_t)e->value);
		break;
	case SIM_EV_AR:
		sim_node_set_ar(f, e->node, true);
		break;
	case SIM_EV_PMA_TICK:
		sim_perf_set_tick(f, e->node, (int)e->value);
		break;
	case SIM_EV_WIDTH: {
		const struct sim_port *sp = &f->nodes[e->node].ports[e->port];
		sim_port_set_enabled(f, e->node, e->port, (uint8_t)e->value, sp->speed_enabled,
				     sp->speed_ext_enabled);
		break;
	}
	default:
		sim_set_latency(f, (unsigned)e->value);
		break;
	}
}

/* Timed events and the hosts' joins due at @now. */
static void sim_apply_due_events(struct sim_fabric *f, uint64_t now)
{
	bool any = f->ipoib_ms != 0;

	while (f->t0_us && f->ev_next < f->nev && f->t0_us + f->ev[f->ev_next].at_us <= now) {
		sim_apply_event(f, &f->ev[f->ev_next++]);
		any = true;
	}
	sim_host_run(f, now);
	if (any)
		sim_timers_rearm(f);
}

static int sim_send(struct mad_transport *t, const uint8_t mad[MAD_BLOCK_SIZE],
		    const struct mad_addr *to)
{
	struct sim_transport *st = t->priv;
	struct sim_fabric *f = st->f;

	pthread_mutex_lock(&f->mu);
	if (f->ev_next < f->nev || f->ipoib_ms)	/* the clock matters to these only */
		sim_apply_due_events(f, sim_now_us());
	sim_route_smp(f, st->sm, mad, to);
	if (f->ipoib_ms)	/* a port the SMP made ACTIVE, or told to reregister */
		sim_timers_rearm(f);
	pthread_mutex_unlock(&f->mu);
	return 0;
}

static int sim_send_long(struct mad_transport *t, const uint8_t *msg, size_t len,
			 const struct mad_addr *to)
{
	struct sim_transport *st = t->priv;
	struct sim_fabric *f = st->f;

	pthread_mutex_lock(&f->mu);
	int rc = sim_gsi_send_long(f, st->sm, msg, len, to);
	pthread_mutex_unlock(&f->mu);
	return rc;
}

/* More than one SM bound: another thread may queue a MAD for us at any time. */
static bool sim_shared(const struct sim_fabric *f)
{
	int n = 0;

	for (int i = 0; i < SIM_MAX_SMS; i++)
		n += f->sms[i].bound;
	return n > 1;
}

/*
 * Sleep until @until (µs, CLOCK_MONOTONIC), or forever for UINT64_MAX.
 */
static void sim_sleep_until(uint64_t until)
{
	struct timespec ts = {
		.tv_sec = (time_t)(until / 1000000u),
		.tv_nsec = (long)(until % 1000000u) * 1000,
	};

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* Nothing is queued and no event is pending, a wait without end would never
 * finish in a single-threaded simulation: such a recv() returns -ETIMEDOUT at
 * once rather than hang.  A message longer than *@len is left at the head
 * with its first MAD copied and -ENOSPC, as the kernel's user_mad read()
 * leaves it (copy_recv_mad(), ib_umad_read()). */
static int sim_recv_locked(struct sim_fabric *f, int sm, uint8_t *buf, size_t *len,
			   struct mad_addr *from, int timeout_ms)
{
	struct sim_sm *s = &f->sms[sm];
	/* an answer queued without latency is due whatever the time: no clock
	 * to read (once per SMP, else) unless a timed event may fall due */
	bool due_now = s->q_len && s->q[s->q_head].due_us == 0 && f->ev_next >= f->nev &&
		       !f->ipoib_ms;
	uint64_t now = due_now ? 0 : sim_now_us();
	uint64_t deadline = timeout_ms < 0 ? UINT64_MAX : now + (uint64_t)timeout_ms * 1000u;

	for (;;) {
		sim_apply_due_events(f, now);
		if (s->q_len && s->q[s->q_head].due_us <= now) {
			const struct sim_msg *m = &s->q[s->q_head];
			bool room = *len >= m->len;
			memcpy(buf, m->long_msg && room ? m->long_msg : m->mad,
			       room ? m->len : MAD_BLOCK_SIZE);
			*len = m->len;
			if (from)
				*from = m->from;
			if (!room)
				return -ENOSPC;
			sim_queue_pop(f, sm);
			sim_timer_rearm(f, sm);
			return 0;
		}
		uint64_t next = sim_next_due(f, sm);
		bool shared = sim_shared(f);
		if (next == UINT64_MAX && deadline == UINT64_MAX && !shared)
			return -ETIMEDOUT;
		if (now >= deadline)
			return -ETIMEDOUT;
		if (shared && next > now + SIM_SHARED_SLEEP_US)
			next = now + SIM_SHARED_SLEEP_US;
		pthread_mutex_unlock(&f->mu);
		sim_sleep_until(next < deadline ? next : deadline);
		pthread_mutex_lock(&f->mu);
		now = sim_now_us();
	}
}

static int sim_recv(struct mad_transport *t, uint8_t *buf, size_t *len, struct mad_addr *from,
		    int timeout_ms)
{
	struct sim_transport *st = t->priv;

	if (*len < MAD_BLOCK_SIZE)
		return -EINVAL;	/* as the kernel: a MAD's room at least */
	pthread_mutex_lock(&st->f->mu);
	int rc = sim_recv_locked(st->f, st->sm, buf, len, from, timeout_ms);
	pthread_mutex_unlock(&st->f->mu);
	return rc;
}

/* The timer fd is made on first use: a caller that only uses recv() with a
 * timeout pays no system calls for it. */
static int sim_fd(struct mad_transport *t)
{
	struct sim_transport *st = t->priv;
	struct sim_fabric *f = st->f;
	struct sim_sm *s = &f->sms[st->sm];

	pthread_mutex_lock(&f->mu);
	if (s->timerfd < 0) {
		s->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		s->armed_us = UINT64_MAX;
		sim_timer_rearm(f, st->sm);
	}
	int fd = s->timerfd;
	pthread_mutex_unlock(&f->mu);
	return fd;
}

/* What waits for SM slot @sm is dropped, and the VL15 buffers it held are
 * free again.  Under f->mu. */
static void sim_sm_drop_queue(struct sim_fabric *f, int sm)
{
	struct sim_sm *s = &f->sms[sm];

	sim_gsi_unbind(f, sm);
	while (s->q_len)
		sim_queue_pop(f, sm);
}

/* The port whose port GUID is @guid, as the SM would bind to it (port 0 of
 * a switch).  0 or -ENODEV. */
static int sim_port_by_guid(const struct sim_fabric *f, uint64_t guid, uint32_t *node,
			    uint8_t *port)
{
	for (uint32_t n = 0; n < f->topo.n; n++) {
		const struct topo_node *tn = &f->topo.nodes[n];
		for (unsigned p = tn->type == MAD_NODE_SWITCH ? 0 : 1;
		     p <= (tn->type == MAD_NODE_SWITCH ? 0u : tn->nports); p++) {
			if (tn->ports[p].guid != guid)
				continue;
			*node = n;
			*port = (uint8_t)p;
			return 0;
		}
	}
	return -ENODEV;
}

/* @name, "NODE:PORT" (the last ':' splits) or a port GUID, to a node and a
 * port of @t's fabric the SM can bind to: port 0 of a switch, 1..N of a CA.
 * 0 or -errno with a message. */
static int sim_port_parse(struct mad_transport *t, const char *name, uint32_t *node,
			  uint8_t *port, char *err, size_t errlen)
{
	const struct sim_fabric *f = ((struct sim_transport *)t->priv)->f;
	const char *colon = strrchr(name, ':');
	char nn[TOPO_NAME_LEN + 1];
	uint64_t guid;
	char *end;

	if (mad_port_name_guid(name, &guid) == 0) {
		if (sim_port_by_guid(f, guid, node, port) == 0)
			return 0;
		snprintf(err, errlen, "sim: no port has GUID %s", name);
		return -ENODEV;
	}
	if (!colon || colon == name || (size_t)(colon - name) > TOPO_NAME_LEN) {
		snprintf(err, errlen, "sim: '%s' is no NODE:PORT", name);
		return -EINVAL;
	}
	snprintf(nn, sizeof(nn), "%.*s", (int)(colon - name), name);
	*node = topo_find_name(&f->topo, nn);
	if (*node == TOPO_NONE) {
		snprintf(err, errlen, "sim: no node named '%s'", nn);
		return -ENODEV;
	}
	errno = 0;
	unsigned long p = strtoul(colon + 1, &end, 10);
	const struct topo_node *n = &f->topo.nodes[*node];
	if (!colon[1] || *end || errno ||
	    (n->type == MAD_NODE_SWITCH ? p != 0 : (p < 1 || p > n->nports))) {
		snprintf(err, errlen, "sim: node %s has no port %s (%s)", nn, colon + 1,
			 n->type == MAD_NODE_SWITCH ? "a switch's SM is on port 0" : "ports start at 1");
		return -ENODEV;
	}
	*port = (uint8_t)p;
	return 0;
}

/* Port @p of node @n as the SM bound there would see it.  Under f->mu. */
static void sim_port_fill(struct sim_fabric *f, uint32_t n, uint8_t p, struct mad_local_port *lp)
{
	const struct sim_port *ap = sim_addr_port(f, n, p);

	memset(lp, 0, sizeof(*lp));
	snprintf(lp->ca_name, sizeof(lp->ca_name), "sim:%.59s", f->topo.nodes[n].name);
	lp->port_num = p;
	lp->port_guid = f->topo.nodes[n].ports[p].guid;
	lp->lid = ap->lid;
	lp->sm_lid = ap->sm_lid;
	sim_node_settle(f, n);
	lp->state = f->nodes[n].ports[p].state;
}

static int sim_port_of(struct mad_transport *t, const char *name, struct mad_local_port *lp,
		       char *err, size_t errlen)
{
	struct sim_fabric *f = ((struct sim_transport *)t->priv)->f;
	uint32_t n;
	uint8_t p;
	int rc = sim_port_parse(t, name, &n, &p, err, errlen);

	if (rc == 0) {
		pthread_mutex_lock(&f->mu);
		sim_apply_due_events(f, sim_now_us());	/* a port's state now */
		sim_port_fill(f, n, p, lp);
		pthread_mutex_unlock(&f->mu);
	}
	return rc;
}

static int sim_local_port(struct mad_transport *t, struct mad_local_port *lp)
{
	struct sim_transport *st = t->priv;
	struct sim_fabric *f = st->f;

	pthread_mutex_lock(&f->mu);
	sim_apply_due_events(f, sim_now_us());
	sim_port_fill(f, f->sms[st->sm].node, f->sms[st->sm].port, lp);
	pthread_mutex_unlock(&f->mu);
	return 0;
}

/* The SM slot moves: what waited for it at the old port is dropped, the old
 * port loses IsSM and the new one gains it (mad_sim_sma.c). */
static int sim_rebind(struct mad_transport *t, const char *name, char *err, size_t errlen)
{
	struct sim_transport *st = t->priv;
	uint32_t n;
	uint8_t p;
	int rc = sim_port_parse(t, name, &n, &p, err, errlen);

	if (rc)
		return rc;
	pthread_mutex_lock(&st->f->mu);
	sim_sm_drop_queue(st->f, st->sm);
	st->f->sms[st->sm].node = n;
	st->f->sms[st->sm].port = p;
	sim_timers_rearm(st->f);
	pthread_mutex_unlock(&st->f->mu);
	return 0;
}

/* Unbind the SM slot: its port loses IsSM, what waited for it is dropped and
 * the VL15 buffers it held are free again. */
static void sim_close(struct mad_transport *t)
{
	struct sim_transport *st = t->priv;

	if (!st)
		return;
	if (st->owns) {
		sim_fabric_free(st->f);
	} else {
		struct sim_sm *s = &st->f->sms[st->sm];
		pthread_mutex_lock(&st->f->mu);
		s->bound = false;
		sim_sm_drop_queue(st->f, st->sm);
		if (s->timerfd >= 0)
			close(s->timerfd);
		s->timerfd = -1;
		pthread_mutex_unlock(&st->f->mu);
	}
	free(st);
	t->priv = NULL;
}

/* Bind @t to slot @sm of @f; the first transport starts the event clock. */
static int sim_bind(struct mad_transport *t, struct sim_fabric *f, int sm, bool owns)
{
	struct sim_transport *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->f = f;
	st->sm = sm;
	st->owns = owns;
	t->ops = &mad_sim_ops;
	t->priv = st;
	f->sms[sm].bound = true;
	if (!f->t0_us) {
		f->t0_us = sim_now_us();
		f->ev_next = 0;
	}
	sim_timers_rearm(f);
	return 0;
}

static int sim_transport_bind_new(struct sim_fabric *f, int sm, struct mad_transport **out)
{
	struct mad_transport *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	int rc = sim_bind(t, f, sm, false);
	if (rc) {
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}

int sim_transport_new(struct sim_fabric *f, struct mad_transport **out)
{
	pthread_mutex_lock(&f->mu);
	int rc = f->sms[0].bound ? -EBUSY : sim_transport_bind_new(f, 0, out);
	pthread_mutex_unlock(&f->mu);
	return rc;
}

int sim_transport_new_at(struct sim_fabric *f, uint32_t node, uint8_t port,
			 struct mad_transport **out)
{
	const struct topo_node *n = node < f->topo.n ? &f->topo.nodes[node] : NULL;
	int rc = -EBUSY;

	if (!n || (n->type == MAD_NODE_SWITCH ? port != 0 : (port < 1 || port > n->nports)))
		return -EINVAL;
	pthread_mutex_lock(&f->mu);
	for (int i = 0; i < SIM_MAX_SMS; i++) {
		if (f->sms[i].bound)
			continue;
		f->sms[i].node = node;
		f->sms[i].port = port;
		rc = sim_transport_bind_new(f, i, out);
		break;
	}
	pthread_mutex_unlock(&f->mu);
	return rc;
}

struct sim_fabric *sim_transport_fabric(struct mad_transport *t)
{
	if (!t || t->ops != &mad_sim_ops || !t->priv)
		return NULL;
	return ((struct sim_transport *)t->priv)->f;
}

/* ---- timed events ---- */

struct sim_ev_parser {
	const char *file;
	unsigned line;
	char *err;
	size_t errlen;
	const struct topo *t;
};

static int sim_ev_error(struct sim_ev_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int sim_ev_error(struct sim_ev_parser *p, const char *fmt, ...)
{
	va_list ap;
	int off = snprintf(p->err, p->errlen, "%s:%u: ", p->file, p->line);

	if (off >= 0 && (size_t)off < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + off, p->errlen - off, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Parse "NODE" or "NODE"[PORT] at *@s into @e; @want_port says which. */
static int sim_ev_target(struct sim_ev_parser *p, char **s, struct sim_event *e,
			 bool want_port)
{
	char name[TOPO_NAME_LEN + 1];
	char *q = *s + strspn(*s, " \t");
	char *end;

	if (*q != '"' || !(end = strchr(q + 1, '"')) || end - q - 1 > TOPO_NAME_LEN)
		return sim_ev_error(p, "expected a quoted node name");
	memcpy(name, q + 1, (size_t)(end - q - 1));
	name[end - q - 1] = '\0';
	e->node = topo_find_name(p->t, name);
	if (e->node == TOPO_NONE)
		return sim_ev_error(p, "unknown node \"%s\"", name);
	*s = end + 1;
	if (!want_port)
		return 0;
	unsigned long port = 0;
	if (**s == '[')
		port = strtoul(*s + 1, &end, 10);
	if (**s != '[' || *end != ']' || port < 1 || port > p->t->nodes[e->node].nports)
		return sim_ev_error(p, "expected a port of \"%s\" as [1..%u]", name,
				    p->t->nodes[e->node].nports);
	if (p->t->nodes[e->node].ports[port].peer == TOPO_NONE)
		return sim_ev_error(p, "\"%s\"[%lu] is not cabled", name, port);
	e->port = (uint8_t)port;
	*s = end + 1;
	return 0;
}

static int sim_ev_number(struct sim_ev_parser *p, char **s, double max, double *v)
{
	char *end;

	*v = strtod(*s, &end);
	if (end == *s || !(*v >= 0 && *v <= max))
		return sim_ev_error(p, "expected a number from 0 to %g", max);
	*s = end;
	return 0;
}

/* "NAME COUNT" of a counter event at *@s. */
static int sim_ev_counter(struct sim_ev_parser *p, char **s, struct sim_event *e)
{
	char tok[TOPO_TEXT_TOKEN_SIZE];

	*s += strspn(*s, " \t");
	size_t len = strcspn(*s, " \t");
	int c = sim_perf_counter_index(*s, len);

	if (c < 0)
		return sim_ev_error(p, "unknown counter '%s'", topo_text_token(tok, *s));
	e->counter = (uint8_t)c;
	*s += len + strspn(*s + len, " \t");
	return sim_ev_number(p, s, 1e15, &e->value);
}

static int sim_ev_parse_line(struct sim_ev_parser *p, char *s, struct sim_event *e)
{
	static const char *const kinds[] = {
		[SIM_EV_LINK_DOWN] = "link-down", [SIM_EV_LINK_UP] = "link-up",
		[SIM_EV_LOSS] = "loss", [SIM_EV_DEAD] = "dead", [SIM_EV_ALIVE] = "alive",
		[SIM_EV_LATENCY] = "latency", [SIM_EV_TRAP] = "trap",
		[SIM_EV_COUNTER] = "counter", [SIM_EV_AR] = "ar", [SIM_EV_PMA_TICK] = "pma-tick",
		[SIM_EV_WIDTH] = "width",
	};
	char tok[TOPO_TEXT_TOKEN_SIZE];
	double ms;
	int rc;

	if (sim_ev_number(p, &s, 1e9, &ms))
		return -EINVAL;
	e->at_us = (uint64_t)(ms * 1000);
	s += strspn(s, " \t");
	size_t len = strcspn(s, " \t");
	unsigned k;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (strlen(kinds[k]) == len && strncmp(s, kinds[k], len) == 0)
			break;
	if (k == sizeof(kinds) / sizeof(kinds[0]))	/* a token: the file may be no events file */
		return sim_ev_error(p, "unknown event '%s'", topo_text_token(tok, s));
	e->kind = (uint8_t)k;
	s += len;
	if (k == SIM_EV_LATENCY) {
		s += strspn(s, " \t");
		rc = sim_ev_number(p, &s, 60e6, &e->value);
	} else {
		rc = sim_ev_target(p, &s, e, k <= SIM_EV_LOSS || k == SIM_EV_COUNTER ||
					       k == SIM_EV_WIDTH);
		if (!rc && k == SIM_EV_AR && p->t->nodes[e->node].type != MAD_NODE_SWITCH)
			rc = sim_ev_error(p, "\"%s\" is no switch", p->t->nodes[e->node].name);
		if (!rc && k == SIM_EV_LOSS) {
			s += strspn(s, " \t");
			rc = sim_ev_number(p, &s, 1, &e->value);
		}
		if (!rc && k == SIM_EV_COUNTER)
			rc = sim_ev_counter(p, &s, e);
		if (!rc && k == SIM_EV_PMA_TICK) {
			s += strspn(s, " \t");
			rc = sim_ev_number(p, &s, UINT8_MAX, &e->value);
			if (!rc && e->value != (double)(uint8_t)e->value)
				rc = sim_ev_error(p, "expected a whole tick from 0 to 255");
		}
		if (!rc && k == SIM_EV_WIDTH) {
			s += strspn(s, " \t");
			rc = sim_ev_number(p, &s, UINT8_MAX, &e->value);
			if (!rc && (e->value < 1 || e->value != (double)(uint8_t)e->value))
				rc = sim_ev_error(p, "expected a LinkWidthEnabled mask from 1 to 255");
		}
	}
	if (rc)
		return rc;
	s += strspn(s, " \t");
	if (*s)
		return sim_ev_error(p, "unexpected text '%s'", topo_text_token(tok, s));
	return 0;
}

static int sim_ev_cmp(const void *a, const void *b)
{
	const struct sim_event *x = a, *y = b;

	if (x->at_us != y->at_us)
		return x->at_us < y->at_us ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int sim_ev_read(struct sim_ev_parser *p, FILE *in, struct sim_event **evs, size_t *n)
{
	char *buf = NULL;
	size_t cap = 0, evcap = 0;
	int rc = 0;

	while (getline(&buf, &cap, in) >= 0) {
		p->line++;
		buf[strcspn(buf, "#\r\n")] = '\0';
		char *s = buf + strspn(buf, " \t");
		if (!*s)
			continue;
		if (*n == evcap) {
			evcap = evcap ? 2 * evcap : 16;
			struct sim_event *e = realloc(*evs, evcap * sizeof(*e));
			if (!e) {
				rc = sim_ev_error(p, "out of memory");
				break;
			}
			*evs = e;
		}
		struct sim_event *e = &(*evs)[*n];
		memset(e, 0, sizeof(*e));
		e->seq = (uint32_t)*n;
		rc = sim_ev_parse_line(p, s, e);
		if (rc)
			break;
		(*n)++;
	}
	free(buf);
	return rc;
}

int sim_events_load(struct sim_fabric *f, const char *path, char *err, size_t errlen)
{
	struct sim_ev_parser p = { .file = path, .err = err, .errlen = errlen, .t = &f->topo };
	struct sim_event *evs = NULL;
	size_t n = 0;
	FILE *in = fopen(path, "r");

	if (!in) {
		int e = errno;
		snprintf(err, errlen, "%s:0: cannot open: %s", path, strerror(e));
		return -e;
	}
	int rc = sim_ev_read(&p, in, &evs, &n);
	fclose(in);
	if (rc) {
		free(evs);
		return rc;
	}
	qsort(evs, n, sizeof(*evs), sim_ev_cmp);
	free(f->ev);
	f->ev = evs;
	f->nev = n;
	f->ev_next = 0;
	sim_timers_rearm(f);
	return 0;
}

/* ---- the "sim:" spec ---- */

static int sim_spec_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int sim_spec_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* host=NODE or host=NODE:PORT; a name containing ':' is tried whole first. */
static int sim_spec_host(struct sim_fabric *f, const char *v, char *err, size_t errlen)
{
	uint32_t node = topo_find_name(&f->topo, v);
	const char *colon = strrchr(v, ':');
	bool have_port = false;
	unsigned long port = 0;
	char *end;

	if (node == TOPO_NONE && colon) {
		char name[TOPO_NAME_LEN + 1];
		snprintf(name, sizeof(name), "%.*s", (int)(colon - v), v);
		node = topo_find_name(&f->topo, name);
		port = strtoul(colon + 1, &end, 10);
		if (node != TOPO_NONE && (end == colon + 1 || *end || port > 255))
			return sim_spec_error(err, errlen, "sim: bad port in host=%s", v);
		have_port = true;
	}
	/* a node or port the spec names that is not there: -ENODEV, as umad's */
	if (node == TOPO_NONE) {
		sim_spec_error(err, errlen, "sim: host=%s: no such node", v);
		return -ENODEV;
	}
	if (!have_port)
		port = sim_first_port(f, node);
	if (sim_set_attach(f, node, (uint8_t)port)) {
		sim_spec_error(err, errlen, "sim: host=%s: no such port (%s)", v,
			       f->topo.nodes[node].type == MAD_NODE_SWITCH
				       ? "a switch attaches at port 0" : "ports start at 1");
		return -ENODEV;
	}
	return 0;
}

static int sim_spec_number(const char *key, const char *v, unsigned long long max,
			   unsigned long long *out, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*out = strtoull(v, &end, 0);
	if (!*v || *end || errno || *out > max)
		return sim_spec_error(err, errlen, "sim: bad number in %s=%s", key, v);
	return 0;
}

static int sim_spec_option(struct sim_fabric *f, char *opt, char *err, size_t errlen)
{
	char *v = strchr(opt, '=');
	unsigned long long n;

	if (!v)
		return sim_spec_error(err, errlen, "sim: expected key=value, got '%s'", opt);
	*v++ = '\0';
	if (strcmp(opt, "host") == 0)
		return sim_spec_host(f, v, err, errlen);
	if (strcmp(opt, "events") == 0)
		return sim_events_load(f, v, err, errlen);
	if (strcmp(opt, "latency") == 0) {
		if (sim_spec_number(opt, v, 60000000, &n, err, errlen))
			return -EINVAL;
		sim_set_latency(f, (unsigned)n);
		return 0;
	}
	if (strcmp(opt, "seed") == 0) {
		if (sim_spec_number(opt, v, UINT64_MAX, &n, err, errlen))
			return -EINVAL;
		sim_set_seed(f, n);
		return 0;
	}
	if (strcmp(opt, "smp-buffer") == 0) {
		if (sim_spec_number(opt, v, 65535, &n, err, errlen))
			return -EINVAL;
		sim_set_smp_buffer(f, (unsigned)n);
		return 0;
	}
	if (strcmp(opt, "arm-to-active") == 0) {
		if (sim_spec_number(opt, v, 3600000, &n, err, errlen))
			return -EINVAL;
		sim_set_arm_to_active(f, (int)n);
		return 0;
	}
	if (strcmp(opt, "traffic") == 0) {
		if (sim_set_traffic(f, v))
			return sim_spec_error(err, errlen, "sim: bad traffic=%s (a pattern name: "
					      "shift, random, alltoall, bitrev)", v);
		return 0;
	}
	if (strcmp(opt, "lenient") == 0) {
		if (sim_spec_number(opt, v, SIM_LENIENT_VLARB | SIM_LENIENT_PORT_STATE |
				    SIM_LENIENT_SM_CHANGE, &n, err, errlen))
			return -EINVAL;
		sim_set_lenient(f, (unsigned)n);
		return 0;
	}
	if (strcmp(opt, "opt-sl2vl") == 0) {
		if (sim_spec_number(opt, v, 1, &n, err, errlen))
			return -EINVAL;
		sim_set_opt_sl2vl(f, n);
		return 0;
	}
	if (strcmp(opt, "cc") == 0) {
		if (sim_spec_number(opt, v, 1, &n, err, errlen))
			return -EINVAL;
		sim_set_cc(f, n);
		return 0;
	}
	if (strcmp(opt, "ipoib") == 0) {
		if (sim_spec_number(opt, v, 60000, &n, err, errlen))
			return -EINVAL;
		sim_set_ipoib(f, (unsigned)n);
		return 0;
	}
	return sim_spec_error(err, errlen,
			      "sim: unknown option '%s' (expected host=, events=, latency=, seed=, "
			      "smp-buffer=, arm-to-active=, lenient=, traffic=, opt-sl2vl=, ipoib=, cc=)",
			      opt);
}

static const char sim_no_file[] =
	"sim: no topology file (expected sim:FILE[,host=NODE[:PORT]][,events=FILE]"
	"[,latency=USEC][,seed=N])";

/* The spec names a topology file that can be read (options are checked on open). */
static int sim_check(const char *arg, char *err, size_t errlen)
{
	size_t len = strcspn(arg, ",");
	char file[4096];

	if (len == 0)
		return sim_spec_error(err, errlen, "%s", sim_no_file);
	if (len >= sizeof(file))
		return sim_spec_error(err, errlen, "sim: topology file name too long");
	memcpy(file, arg, len);
	file[len] = '\0';
	if (access(file, R_OK)) {
		int e = errno;
		snprintf(err, errlen, "sim: %s: %s", file, strerror(e));
		return -e;
	}
	return 0;
}

static int sim_open(struct mad_transport *t, const char *arg, char *err, size_t errlen)
{
	struct sim_fabric *f = NULL;
	char *spec = strdup(arg ? arg : "");
	char *save = NULL;
	int rc;

	if (!spec)
		return sim_spec_error(err, errlen, "sim: out of memory");
	char *file = strtok_r(spec, ",", &save);
	if (!file) {
		free(spec);
		return sim_spec_error(err, errlen, "%s", sim_no_file);
	}
	rc = sim_fabric_load(file, &f, err, errlen);
	for (char *opt; !rc && (opt = strtok_r(NULL, ",", &save));)
		rc = sim_spec_option(f, opt, err, errlen);
	if (!rc)
		rc = sim_bind(t, f, 0, true);
	if (rc)
		sim_fabric_free(f);
	free(spec);
	return rc;
}

const struct mad_transport_ops mad_sim_ops = {
	.name = "sim",
	.open = sim_open,
	.check = sim_check,
	.send = sim_send,
	.send_long = sim_send_long,
	.recv = sim_recv,
	.fd = sim_fd,
	.local_port = sim_local_port,
	.port_state = sim_port_of,
	.rebind = sim_rebind,
	.close = sim_close,
};

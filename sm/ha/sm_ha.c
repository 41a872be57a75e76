// SPDX-License-Identifier: MIT
/*
 * sm_ha.c - more than one SM on a subnet (see sm_ha.h).
 *
 * SMInfo (IBA 14.4.1): GUID, SM_Key, ActCount, priority and state.  The
 * SM_Key is guarded by our port's M_Key, as OpenSM reads the IBA
 * (osm_sminfo_rcv.c): a Get shows the key to a requester whose SMP passes
 * our port's M_Key check (any requester while M_Key is off); at protect level
 * 1 one that fails it sees 0, at levels 2 and 3 it gets no answer, and a Set
 * that fails it is dropped.  A Set must also carry our SM_Key in its payload,
 * or it changes nothing.  So a peer's answer to our Get shows its own key, and
 * only a peer whose key is ours is ever handed the subnet.  The default key is
 * OpenSM's (1), so that ibsmd and OpenSM at their defaults see each other.
 *
 * Election, after each discovery (DISCOVERING or MASTER): every other port
 * with IsSM is asked SMInfo Get along its directed route.  DISCOVERING: a
 * MASTER found, or an SM that outranks us, sends us STANDBY (polling it),
 * whatever its key: standing by gives the other nothing, and rank alone
 * decides which of two discovering SMs that share no key goes on (two
 * masters that share none keep whichever did not meet the other first);
 * else we master.
 * MASTER: another MASTER, of any key, is never programmed beside.  It is
 * reported (an error in the log, an "other_master" event and status key,
 * which `smquery status` shows until an election finds us MASTER alone, and
 * masters_seen, status key and metric); one that outranks us and holds our key is
 * handed the subnet (HANDOVER), and under any other we stand by, polling it:
 * a lower one that holds our key then hands over to us, as ibsmd and OpenSM
 * do for a higher STANDBY.  A higher STANDBY that holds our key gets HANDOVER
 * (SMInfo Set; a DISCOVERING one is left to stand by first: OpenSM takes a
 * HANDOVER in DISCOVERING for a mere sweep, and tells us, or its polls do,
 * once it stands by).  It answers, sends us ACKNOWLEDGE (still as
 * a STANDBY: OpenSM checks that, and sends none itself) and takes over; its
 * answer or the ACKNOWLEDGE, whichever comes first, sends us STANDBY, polling
 * it.  A HANDOVER that reaches us as MASTER (a lower master yields, as OpenSM
 * does) makes a heavy sweep due.  A master meets another SM at its next light
 * sweep (IsSM on a port), on Trap 144 (sm_mad_in.c), or when a peer's SMInfo
 * request says it is MASTER, or a higher SM holding our key: each makes a
 * heavy sweep due, and its election decides.
 *
 * Polling: a STANDBY sends SMInfo Get to its master every poll interval,
 * directly on the wire with a TID of our own (bit 31 set), so that each poll
 * is one SMP without the rpc layer's retries; the answer arrives as an
 * unsolicited GetResp.  A poll unanswered by the next tick, or answered by an
 * SM that is no longer MASTER, is a failure; ha.poll_retries failures in a row
 * are MASTER_LOST: DISCOVERING, and a heavy sweep elects again.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "mad/mad_rpc.h"
#include "sm/core/sm.h"
#include "sm/util/sm_arena.h"
#include "sm/ha/sm_ha.h"
#include "sm/util/sm_log.h"
#include "sm/core/sm_state.h"

#define POLL_TID_BIT 0x80000000u

#define PROMPT_EVERY_MS 1000	/* at most one sweep a second made due by peers' SMInfo */

static const struct mad_addr dr_addr = { .lid = MAD_LID_PERMISSIVE };

bool sm_ha_outranks(uint8_t prio_a, uint64_t guid_a, uint8_t prio_b, uint64_t guid_b)
{
	return prio_a != prio_b ? prio_a > prio_b : guid_a < guid_b;
}

static const char *control_name(uint32_t mod)
{
	static const char *const names[] = { "?", "HANDOVER", "ACKNOWLEDGE", "DISABLE",
					     "STANDBY", "DISCOVER" };

	return mod < sizeof(names) / sizeof(names[0]) ? names[mod] : "?";
}

/* Our port's GUID: from the last sweep, else from the transport. */
static uint64_t own_guid(const struct sm *sm)
{
	struct mad_local_port lp;

	if (sm->have_fabric && sm->fabric.local_node != TOPO_NONE) {
		const struct topo_node *n = &sm->fabric.topo.nodes[sm->fabric.local_node];
		return n->ports[n->type == MAD_NODE_SWITCH ? 0 : sm->fabric.local_port].guid;
	}
	if (sm->t && sm->t->ops->local_port && sm->t->ops->local_port(sm->t, &lp) == 0)
		return lp.port_guid;
	return 0;
}

/* What an SMInfo request gets, by our port's M_Key (see the top). */
enum key_rule {
	KEY_SHOW,	/* the answer shows our SM_Key */
	KEY_HIDE,	/* the answer shows 0 there */
	KEY_DROP,	/* no answer, the request changes nothing */
};

/* The M_Key our port holds as this SM set it; false when M_Key is off.  Before
 * the first sweep, with M_Key configured, the key is not known (*@known
 * false): no request passes then. */
static bool own_mkey(const struct sm *sm, uint64_t *key, bool *known)
{
	*known = sm->have_fabric;
	if (!sm->have_fabric)
		return sm->cfg.mkey_key || sm->cfg.mkey_secret[0];
	*key = sm_mkey_wanted(&sm->fabric.mkeys, own_guid(sm));
	return *key != 0;
}

static enum key_rule key_rule(const struct sm *sm, const struct mad_smp *req)
{
	uint64_t key = 0;
	bool known;

	if (!own_mkey(sm, &key, &known) || (known && req->mkey == key))
		return KEY_SHOW;
	if (req->method != MAD_METHOD_GET)
		return KEY_DROP;	/* a Set must carry our port's M_Key */
	switch (sm->cfg.mkey_protect) {
	case 0:
		return KEY_SHOW;
	case 1:
		return KEY_HIDE;
	default:
		return KEY_DROP;
	}
}

/* Our SMInfo in @state, with the SM_Key only when @show_key. */
static void own_info(const struct sm *sm, bool show_key, uint8_t state, uint8_t *data)
{
	struct mad_rpc_stats st;

	sm_rpc_stats(sm, &st);
	struct mad_sm_info info = {
		.guid = own_guid(sm),
		.sm_key = show_key ? sm->cfg.sm_key : 0,
		.act_count = (uint32_t)st.sent,	/* ActCount: SMPs we have sent */
		.priority = sm->cfg.sm_priority,
		.state = state,
	};

	mad_sm_info_encode(&info, data);
}

/* An SMInfo request to @peer: LID routed when we know its LID from its own
 * request, else along its directed route; with the M_Key its port should
 * hold (an SM checks it as we do: peers share the M_Key configuration). */
static void peer_request(const struct sm *sm, const struct sm_ha_peer *peer, uint8_t method,
			 uint32_t mod, struct mad_smp *smp, struct mad_addr *to)
{
	if (peer->lid) {
		mad_smp_init_lid(smp, method, MAD_ATTR_SM_INFO, mod);
		*to = (struct mad_addr){ .lid = peer->lid };
	} else {
		mad_smp_init_dr(smp, method, MAD_ATTR_SM_INFO, mod, &peer->path);
		*to = dr_addr;
	}
	smp->mkey = sm->have_fabric ? sm_mkey_wanted(&sm->fabric.mkeys, peer->guid) : 0;
}

/* The sender of @req, as a peer we can send requests to. */
static void peer_from_request(const struct mad_smp *req, const struct mad_addr *from,
			      const struct mad_sm_info *info, struct sm_ha_peer *peer)
{
	memset(peer, 0, sizeof(*peer));
	peer->guid = info->guid;
	peer->priority = info->priority;
	peer->state = info->state;
	if (req->mgmt_class != MAD_CLASS_SMI_DR) {
		peer->lid = from->lid;
		return;
	}
	/* back the way it came: the ports it entered each hop by, last first */
	for (unsigned i = req->hop_cnt; i >= 1; i--)
		mad_drpath_push(&peer->path, req->return_path[i]);
}

static void poll_reset(struct sm_ha *ha)
{
	ha->poll_tid = 0;
	ha->poll_answered = false;
	ha->poll_failures = 0;
}

static void follow(struct sm *sm, const struct sm_ha_peer *master)
{
	sm->ha->master = *master;
	poll_reset(sm->ha);
}

/* ---- the election ---- */

struct survey {
	struct sm *sm;
	struct sm_ha_peer *peers;
	size_t n, cap;
};

struct survey_req {
	struct survey *s;
	struct topo_path path;
	uint64_t port_guid;
};

static void on_peer_info(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp)
{
	struct survey_req *r = ctx;
	struct survey *s = r->s;
	struct mad_sm_info info;
	char p[256];

	(void)req;
	if (!err)
		err = mad_sm_info_decode(resp->data, &info);
	if (err) {
		char why[64];
		sm_info("SMInfo of the SM port 0x%016llx at DR path %s: %s",
			(unsigned long long)r->port_guid, mad_drpath_str(&r->path, p, sizeof(p)),
			sm_smp_error(err, resp, why, sizeof(why)));
		return;
	}
	if (s->n == s->cap)
		return;
	struct sm_ha_peer *peer = &s->peers[s->n++];
	memset(peer, 0, sizeof(*peer));
	peer->guid = info.guid ? info.guid : r->port_guid;
	peer->path = r->path;
	peer->priority = info.priority;
	peer->state = info.state;
	/* the answer shows our SM_Key exactly when the peer holds it */
	peer->holds_key = info.sm_key == s->sm->cfg.sm_key;
	sm_info("SM 0x%016llx: %s, priority %u, SM_Key %s", (unsigned long long)peer->guid,
		mad_sm_state_name(info.state), info.priority, peer->holds_key ? "ours" : "not ours");
}

/* Port @p of node @n is another SM's: IsSM in its PortInfo (a switch's SM
 * shows it on port 0), and not our own port. */
static bool sm_port(const struct sm_fabric *f, uint32_t n, unsigned p)
{
	const struct sm_node_attrs *a = &f->attrs[n];

	return (f->topo.nodes[n].type == MAD_NODE_SWITCH) == (p == 0) && a->pi_valid[p] &&
	       (a->pi[p].cap_mask & MAD_CAP_IS_SM) && !(n == f->local_node && p == f->local_port);
}

/* Ask every other port with IsSM.  0 or the transport's -errno. */
static int survey(struct sm *sm, const struct sm_fabric *f, struct sm_arena *arena,
		  struct survey *s)
{
	for (uint32_t n = 0; n < f->topo.n; n++)
		for (unsigned p = 0; p <= f->topo.nodes[n].nports; p++)
			s->cap += sm_port(f, n, p);
	if (!s->cap)
		return 0;
	s->peers = sm_arena_alloc(arena, s->cap * sizeof(*s->peers));
	if (!s->peers)
		return -ENOMEM;
	for (uint32_t n = 0; n < f->topo.n; n++) {
		for (unsigned p = 0; p <= f->topo.nodes[n].nports; p++) {
			if (!sm_port(f, n, p))
				continue;
			struct survey_req *r = sm_arena_alloc(arena, sizeof(*r));
			struct mad_smp smp;
			if (!r)
				return -ENOMEM;
			r->s = s;
			r->port_guid = f->topo.nodes[n].ports[p].guid;
			sm_fabric_port_path(f, n, (uint8_t)p, &r->path);
			mad_smp_init_dr(&smp, MAD_METHOD_GET, MAD_ATTR_SM_INFO, 0, &r->path);
			smp.mkey = sm_mkey_for(f, n, (uint8_t)p);	/* its SM checks it */
			own_info(sm, true, sm->sm_state, smp.data);	/* the requester's SM_Key */
			if (mad_rpc_submit(sm->rpc, &smp, &dr_addr, on_peer_info, r)) {
				mad_rpc_discard(sm->rpc);	/* @s is on the caller's stack */
				return -ENOMEM;
			}
		}
	}
	return mad_rpc_drain(sm->rpc);
}

/* Stand by under @master, a MASTER met while we were MASTER too. */
static void stand_by_other_master(struct sm *sm, const struct sm_ha_peer *master,
				  const char *how)
{
	char why[160];

	follow(sm, master);
	snprintf(why, sizeof(why), "SM 0x%016llx is MASTER (priority %u, %s)",
		 (unsigned long long)master->guid, master->priority, how);
	sm_state_event(sm, SM_EV_OTHER_MASTER, why);
}

static void on_handover_answer(void *ctx, int err, const struct mad_smp *req,
			       const struct mad_smp *resp)
{
	struct sm *sm = ctx;
	char why[128];

	(void)req;
	if (!sm->ha->handover_sent)
		return;	/* ACKNOWLEDGE came first */
	sm->ha->handover_sent = false;
	if (err && sm->ha->handover.state == MAD_SM_MASTER) {
		sm_warn("HANDOVER to SM 0x%016llx, a MASTER, not answered: %s; standing by "
			"under it", (unsigned long long)sm->ha->handover.guid,
			sm_smp_error(err, resp, why, sizeof(why)));
		stand_by_other_master(sm, &sm->ha->handover, "HANDOVER unanswered");
		return;
	}
	if (err) {
		sm_warn("HANDOVER to SM 0x%016llx not answered: %s; staying MASTER",
			(unsigned long long)sm->ha->handover.guid,
			sm_smp_error(err, resp, why, sizeof(why)));
		return;
	}
	/* answered: it is master now (IBA 14.4.1) */
	follow(sm, &sm->ha->handover);
	snprintf(why, sizeof(why), "SM 0x%016llx answered HANDOVER",
		 (unsigned long long)sm->ha->handover.guid);
	sm_state_event(sm, SM_EV_ACKNOWLEDGE, why);
}

static void hand_over(struct sm *sm, const struct sm_ha_peer *to)
{
	struct mad_smp smp;
	struct mad_addr addr;

	peer_request(sm, to, MAD_METHOD_SET, SM_HA_HANDOVER, &smp, &addr);
	own_info(sm, true, sm->sm_state, smp.data);
	sm->ha->handover = *to;
	sm->ha->handover_sent = true;
	sm_notice("HANDOVER to SM 0x%016llx, %s (priority %u outranks ours, %u)",
		  (unsigned long long)to->guid, mad_sm_state_name(to->state), to->priority,
		  sm->cfg.sm_priority);
	if (mad_rpc_submit(sm->rpc, &smp, &addr, on_handover_answer, sm))
		sm->ha->handover_sent = false;
}

/* How long the SM that handed us the subnet may still say MASTER: it leaves
 * MASTER once our answer or ACKNOWLEDGE reaches it, which may come after the
 * election of the sweep its HANDOVER found us in (OpenSM under ibsim: a few
 * ms later). */
#define SM_HA_YIELD_MS 10000

/* A MASTER met @other, another MASTER (@n in all, us included): said loudly,
 * and never programmed beside; unless @other is the SM that has just handed
 * us the subnet, which is on its way to STANDBY. */
static void other_master(struct sm *sm, const struct sm_ha_peer *other, unsigned n)
{
	if (other->guid == sm->ha->yielded_guid &&
	    mad_now_ms() - sm->ha->yielded_ms < SM_HA_YIELD_MS) {
		sm_notice("SM 0x%016llx still says MASTER after its HANDOVER to us: it is "
			  "standing by; we stay MASTER", (unsigned long long)other->guid);
		return;
	}
	uint64_t me = own_guid(sm);
	bool higher = sm_ha_outranks(other->priority, other->guid, sm->cfg.sm_priority, me);
	const char *then = higher && other->holds_key ? "handing the subnet over to it"
						      : "standing by under it";

	char what[160];

	snprintf(what, sizeof(what), "SM 0x%016llx (priority %u, SM_Key %s) was MASTER beside us: %s",
		 (unsigned long long)other->guid, other->priority,
		 other->holds_key ? "ours" : "not ours", then);
	sm_err("two masters: %s (our priority %u)", what, sm->cfg.sm_priority);
	sm_store_event(&sm->store, DB_EV_OTHER_MASTER, other->guid, -1, "%u masters: %s", n, what);
	sm_store_status(&sm->store, DB_ST_OTHER_MASTER, what);
	sm->ha->other_master_shown = true;
	if (!higher || !other->holds_key)
		stand_by_other_master(sm, other, other->holds_key ? "of lower rank: it hands over"
								  : "its SM_Key is not ours");
	else if (!sm->ha->handover_sent)
		hand_over(sm, other);
}

static void decide(struct sm *sm, const struct survey *s)
{
	uint64_t me = own_guid(sm);
	uint8_t prio = sm->cfg.sm_priority;
	const struct sm_ha_peer *master = NULL, *higher = NULL;
	char why[160];

	sm->ha->other_masters = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct sm_ha_peer *p = &s->peers[i];
		sm->ha->other_masters += p->state == MAD_SM_MASTER;
		if (p->state == MAD_SM_MASTER) {
			if (!master || sm_ha_outranks(p->priority, p->guid, master->priority,
						      master->guid))
				master = p;
		} else if (p->state != MAD_SM_NOT_ACTIVE &&
			   sm_ha_outranks(p->priority, p->guid, prio, me) &&
			   (!higher || sm_ha_outranks(p->priority, p->guid, higher->priority,
						      higher->guid))) {
			higher = p;
		}
	}
	if (sm->sm_state == MAD_SM_DISCOVERING) {
		const struct sm_ha_peer *to = master ? master : higher;
		if (!to) {
			sm_state_event(sm, SM_EV_NO_HIGHER_SM, s->n ? "no other SM outranks us"
								     : "discovery found no other SM");
			return;
		}
		if (!to->holds_key)
			sm_warn("SM 0x%016llx (%s) does not hold our SM_Key: standing by under it, "
				"but it will never hand the subnet over to us, nor we to it",
				(unsigned long long)to->guid, mad_sm_state_name(to->state));
		follow(sm, to);
		snprintf(why, sizeof(why), "SM 0x%016llx is %s, priority %u",
			 (unsigned long long)to->guid, mad_sm_state_name(to->state), to->priority);
		sm_state_event(sm, SM_EV_HIGHER_SM, why);
		return;
	}
	if (master) {
		other_master(sm, master, sm_ha_masters_seen(sm));
		return;
	}
	if (sm->ha->other_master_shown)	/* a MASTER alone */
		sm_store_status(&sm->store, DB_ST_OTHER_MASTER, "none");
	sm->ha->other_master_shown = false;
	if (!higher || sm->ha->handover_sent)
		return;
	if (higher->state != MAD_SM_STANDBY) {	/* OpenSM takes HANDOVER only so */
		sm_info("SM 0x%016llx outranks us but is %s: HANDOVER once it stands by",
			(unsigned long long)higher->guid, mad_sm_state_name(higher->state));
		return;
	}
	if (!higher->holds_key) {
		sm_warn("SM 0x%016llx outranks us (priority %u) but does not hold our SM_Key: "
			"no HANDOVER", (unsigned long long)higher->guid, higher->priority);
		return;
	}
	hand_over(sm, higher);
}

unsigned sm_ha_masters_seen(const struct sm *sm)
{
	unsigned others = sm->ha ? sm->ha->other_masters : 0;

	switch (sm->sm_state) {
	case MAD_SM_MASTER:
		return 1 + others;
	case MAD_SM_STANDBY:
		return 1;	/* until its polls go unanswered: then it is DISCOVERING */
	default:
		return others;
	}
}

/* The status key masters_seen, when it changed (a quiet fabric writes
 * nothing): after an election, and at each poll tick, so that a HANDOVER
 * answered or a master lost shows within a poll interval. */
static void masters_status(struct sm *sm)
{
	unsigned seen = sm_ha_masters_seen(sm);
	char text[16];

	if (seen + 1 == sm->ha->masters_stored)
		return;
	snprintf(text, sizeof(text), "%u", seen);
	sm_store_status(&sm->store, DB_ST_MASTERS_SEEN, text);
	sm->ha->masters_stored = seen + 1;
}

int sm_ha_elect(struct sm *sm, const struct sm_fabric *f, struct sm_arena *arena)
{
	struct survey s = { .sm = sm };

	if (sm->sm_state != MAD_SM_DISCOVERING && sm->sm_state != MAD_SM_MASTER)
		return 0;
	int rc = survey(sm, f, arena, &s);
	if (rc)
		return rc;
	decide(sm, &s);
	masters_status(sm);
	return 0;
}

/* ---- polling the master ---- */

void sm_ha_poll(struct sm *sm)
{
	struct sm_ha *ha = sm->ha;
	struct mad_smp smp;
	struct mad_addr to;
	char why[96];

	masters_status(sm);
	if (sm->sm_state != MAD_SM_STANDBY || !sm->rpc)
		return;
	if (ha->poll_tid && !ha->poll_answered)
		ha->poll_failures++;
	if (ha->poll_failures >= sm->cfg.ha_poll_retries) {
		snprintf(why, sizeof(why), "SM 0x%016llx unanswered %u polls in a row",
			 (unsigned long long)ha->master.guid, ha->poll_failures);
		poll_reset(ha);
		sm_state_event(sm, SM_EV_MASTER_LOST, why);
		return;
	}
	peer_request(sm, &ha->master, MAD_METHOD_GET, 0, &smp, &to);
	own_info(sm, true, sm->sm_state, smp.data);
	ha->tid_seq = (ha->tid_seq + 1) & ~POLL_TID_BIT;
	ha->poll_tid = POLL_TID_BIT | ha->tid_seq;
	ha->poll_answered = false;
	smp.tid = ha->poll_tid;
	ha->polls++;
	if (mad_rpc_send(sm->rpc, &smp, &to))
		sm_debug("SMInfo poll of the master could not be sent");
}

static void poll_answer(struct sm *sm, const struct mad_smp *resp)
{
	struct sm_ha *ha = sm->ha;
	struct mad_sm_info info;

	if ((uint32_t)resp->tid != ha->poll_tid || ha->poll_answered)
		return;
	if (resp->status || mad_sm_info_decode(resp->data, &info))
		return;	/* counted as unanswered at the next tick */
	if (info.state != MAD_SM_MASTER) {
		sm_info("the polled SM 0x%016llx is %s, not MASTER", (unsigned long long)info.guid,
			mad_sm_state_name(info.state));
		return;
	}
	ha->poll_answered = true;
	ha->poll_failures = 0;
}

/* ---- SMInfo sent to our port ---- */

static void on_ack_answer(void *ctx, int err, const struct mad_smp *req,
			  const struct mad_smp *resp)
{
	char why[64];

	(void)ctx;
	(void)req;
	if (err)
		sm_warn("ACKNOWLEDGE to the old master not answered: %s",
			sm_smp_error(err, resp, why, sizeof(why)));
}

static void send_ack(struct sm *sm, const struct sm_ha_peer *to)
{
	struct mad_smp smp;
	struct mad_addr addr;

	peer_request(sm, to, MAD_METHOD_SET, SM_HA_ACKNOWLEDGE, &smp, &addr);
	/* as the STANDBY that takes over: what OpenSM checks an ACKNOWLEDGE for */
	own_info(sm, true, MAD_SM_STANDBY, smp.data);
	if (mad_rpc_submit(sm->rpc, &smp, &addr, on_ack_answer, sm))
		sm_warn("ACKNOWLEDGE to the old master could not be queued");
}

/* Act on a Set from @peer holding our key, whose payload said it is in
 * @sender_state.  Returns a MAD status. */
static uint16_t control(struct sm *sm, uint32_t mod, const struct sm_ha_peer *peer,
			uint8_t sender_state)
{
	char why[128];

	/* who may send what (OpenSM's reading, osm_sminfo_rcv.c): ACKNOWLEDGE
	 * comes from the STANDBY taking over, the others from a MASTER */
	if (mod >= SM_HA_HANDOVER && mod <= SM_HA_DISCOVER &&
	    sender_state != (mod == SM_HA_ACKNOWLEDGE ? MAD_SM_STANDBY : MAD_SM_MASTER))
		return MAD_STATUS_INVALID_FIELD;
	snprintf(why, sizeof(why), "SMInfo %s from SM 0x%016llx", control_name(mod),
		 (unsigned long long)peer->guid);
	switch (mod) {
	case SM_HA_HANDOVER:
		if (sm->sm_state == MAD_SM_MASTER) {
			/* a lower master yields to us (OpenSM: a first master sweep) */
			sm_notice("%s, a master that yields: we stay MASTER", why);
			sm_sweep_due(sm, why);
			break;
		}
		if (sm->sm_state != MAD_SM_STANDBY && sm->sm_state != MAD_SM_DISCOVERING)
			break;
		send_ack(sm, peer);
		sm->ha->yielded_guid = peer->guid;
		sm->ha->yielded_ms = mad_now_ms();
		sm_state_event(sm, SM_EV_HANDOVER, why);
		break;
	case SM_HA_ACKNOWLEDGE:	/* in STANDBY: the HANDOVER's answer came first */
		if (sm->sm_state != MAD_SM_MASTER || !sm->ha->handover_sent ||
		    peer->guid != sm->ha->handover.guid)	/* only from the SM we chose */
			break;
		sm->ha->handover_sent = false;
		follow(sm, peer);
		sm_state_event(sm, SM_EV_ACKNOWLEDGE, why);
		break;
	case SM_HA_DISABLE:	/* a MASTER hands over; it is not switched off */
		if (sm->sm_state != MAD_SM_STANDBY && sm->sm_state != MAD_SM_DISCOVERING)
			return MAD_STATUS_INVALID_FIELD;
		sm_state_event(sm, SM_EV_DISABLE, why);
		break;
	case SM_HA_STANDBY:
		if (sm->sm_state == MAD_SM_DISCOVERING)
			follow(sm, peer);
		sm_state_event(sm, SM_EV_STANDBY, why);
		break;
	case SM_HA_DISCOVER:
		sm_state_event(sm, SM_EV_DISCOVER, why);
		break;
	default:
		return MAD_STATUS_INVALID_FIELD;
	}
	return 0;
}

/* A MASTER asked by @info's SM: a heavy sweep is due (its election decides)
 * when that SM is a MASTER too, or outranks us and holds our key (it stands
 * by under us and awaits HANDOVER).  At most once a second: a STANDBY polls
 * often. */
static void prompted(struct sm *sm, const struct mad_sm_info *info)
{
	struct sm_ha *ha = sm->ha;
	uint64_t now = mad_now_ms();
	char why[128];

	if (sm->sm_state != MAD_SM_MASTER || ha->handover_sent || info->guid == own_guid(sm) ||
	    (ha->prompted_ms && now - ha->prompted_ms < PROMPT_EVERY_MS))
		return;
	if (info->state == MAD_SM_MASTER)
		snprintf(why, sizeof(why), "SM 0x%016llx asks SMInfo as a MASTER",
			 (unsigned long long)info->guid);
	else if ((info->state == MAD_SM_STANDBY || info->state == MAD_SM_DISCOVERING) &&
		 info->sm_key == sm->cfg.sm_key &&
		 sm_ha_outranks(info->priority, info->guid, sm->cfg.sm_priority, own_guid(sm)))
		snprintf(why, sizeof(why), "SM 0x%016llx (%s) outranks us", (unsigned long long)info->guid,
			 mad_sm_state_name(info->state));
	else
		return;
	ha->prompted_ms = now;
	sm_sweep_due(sm, why);
}

void sm_ha_sm_info_in(struct sm *sm, const struct mad_smp *smp, const struct mad_addr *from)
{
	struct mad_sm_info info;
	uint16_t status = 0;

	if (smp->method == MAD_METHOD_GET_RESP) {
		poll_answer(sm, smp);
		return;
	}
	if (smp->method != MAD_METHOD_GET && smp->method != MAD_METHOD_SET)
		return;
	enum key_rule rule = key_rule(sm, smp);
	bool valid = mad_sm_info_decode(smp->data, &info) == 0;
	if (!valid)
		memset(&info, 0, sizeof(info));
	bool key_ok = valid && info.sm_key == sm->cfg.sm_key;
	/* the key itself is never logged: a peer holding ours would show it */
	sm_debug("SMInfo %s (modifier %u) from SM 0x%016llx, %s, SM_Key %s, LID %u%s",
		 smp->method == MAD_METHOD_GET ? "Get" : "Set", smp->attr_mod,
		 (unsigned long long)info.guid, mad_sm_state_name(info.state),
		 key_ok ? "ours" : info.sm_key ? "not ours" : "none", from->lid,
		 rule == KEY_SHOW ? "" : ", M_Key not ours");
	if (rule == KEY_DROP) {
		sm_info("SMInfo %s from LID %u without our port's M_Key: dropped",
			smp->method == MAD_METHOD_GET ? "Get" : "Set", from->lid);
		return;
	}
	if (smp->method == MAD_METHOD_SET) {
		struct sm_ha_peer peer;
		peer_from_request(smp, from, &info, &peer);
		if (!valid)
			status = MAD_STATUS_INVALID_FIELD;	/* a state beyond MASTER */
		else if (!key_ok)
			sm_warn("SMInfo %s from SM 0x%016llx with a wrong SM_Key: ignored",
				control_name(smp->attr_mod), (unsigned long long)info.guid);
		else
			status = control(sm, smp->attr_mod, &peer, info.state);
	} else if (valid) {
		prompted(sm, &info);
	}
	struct mad_smp resp = *smp;
	mad_smp_make_response(&resp, status);
	memset(resp.data, 0, sizeof(resp.data));
	own_info(sm, rule == KEY_SHOW, sm->sm_state, resp.data);
	if (mad_rpc_send(sm->rpc, &resp, from))
		sm_warn("could not answer an SMInfo %s from LID %u",
			smp->method == MAD_METHOD_GET ? "Get" : "Set", from->lid);
}

// SPDX-License-Identifier: MIT
/*
 * sm_cc.c - the congestion control pass: every node's CC settings read, and
 * only what differs from congestion_control.* written.
 *
 * Data: one agent per node port that has a LID (a switch: port 0; a CA:
 * each port, each its own CC agent), with the list of attributes it should
 * hold: CongestionKeyInfo, then SwitchCongestionSetting (a switch) or
 * CACongestionSetting and the CongestionControlTable blocks (a CA), as
 * sm_cc_want_build() makes them.  OpenSM sets the same attributes
 * (osm_congestion_control.c) but writes them blind; nothing here is Set
 * without being read first.
 *
 * Flow: each agent is a chain of GMPs through the rpc layer (they queue
 * below every SMP, as PerfMgt's): Get(ClassPortInfo) first; an agent that
 * does not answer it gets nothing else of class 0x21, nor one whose answer
 * is not a CC agent's (ibsim has no CC agent and answers class 0x21 as its
 * SMA: mad_cc_class_port_info_ours()).  Then Get(CongestionInfo), for the
 * table's size, and, attribute by attribute, a
 * Get, and a Set of the wanted value only when the answer differs in what
 * the wanted Control_Map selects; the Set's answer must read back as wanted, or it counts as
 * refused.  A CongestionKeyInfo Get unanswered means the node holds a CC_Key
 * not ours (it discards what carries another, A10.4.1): key-refused, and
 * nothing more is sent to it.  At most max_outstanding_mads agents have a
 * MAD in flight.  The pass runs from the daemon's top level after a heavy
 * sweep (the subnet is up first), or after --once's sweep; its rows replace
 * the store's (db_cc_store) through the store queue.
 *
 * Re-reads, as for LFTs: an agent the last pass left configured (struct
 * sm_cc's known list) in this term as MASTER, whose node the sweep did not
 * arm (no port came up from INIT: not reset nor replaced) and whose CC_Key
 * the configuration kept, is not read again: it gets the Sets of the
 * attributes whose wanted value changed since, each checked by its answer,
 * or nothing at all, and its row is carried over.
 *
 * A changed CC_Key: the agents hold the one this term's last pass set, and
 * drop what carries the new one, so an agent whose CongestionKeyInfo goes
 * unanswered under one key is read again under the other (twice at most: a
 * CA's ports share the node's key, and another port's agent may have just
 * changed it), and the Set that gives it the new key goes under the old; its
 * MADs carry the new key from then on.  (A restart knows no old key: such agents are
 * key-refused until an operator clears them.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/db.h"
#include "mad/mad_cc.h"
#include "mad/mad_rpc.h"
#include "sm/cc/sm_cc.h"
#include "sm/core/sm.h"
#include "sm/core/sm_cc_want.h"
#include "sm/util/sm_log.h"

#define CC_STEPS_MAX (2 + SM_CC_CCT_MAX_BLOCKS)	/* key, ca, the CCT blocks */

struct cc_step {
	uint16_t attr;
	uint32_t mod;
};

struct cc_pass;

struct cc_agent {
	struct cc_pass *pass;
	uint64_t guid;
	uint16_t lid;
	uint8_t port, type;
	struct cc_step steps[CC_STEPS_MAX];
	unsigned nsteps, step;
	bool known;			/* configured before: its steps are Sets, no read */
	uint64_t key;			/* the CC_Key its MADs carry */
	unsigned key_tries;		/* CongestionKeyInfo asked again under the other key */
	bool set_sent;			/* the current step's Set is on its way */
	struct db_cc_node row;
};

struct cc_pass {
	struct sm *sm;
	struct sm_cc_want want;
	struct cc_agent *agents;
	size_t n;
	uint32_t *todo;			/* the agents that get a MAD */
	size_t ntodo, next;		/* of which the next to start */
	int err;			/* a submit failed */
	struct sm_cc_stats st;
	/* the CC_Key the last pass of this term left on its agents, when the
	 * configuration has changed it since (held_key_valid) */
	uint64_t held_key;
	bool held_key_valid;
};

void sm_cc_sweep_done(struct sm *sm)
{
	if (sm->cfg.cc_enable)
		sm->cc->due = true;
}

bool sm_cc_due(const struct sm *sm)
{
	return sm->cc->due && sm->cfg.cc_enable;
}

static const char *attr_name(uint16_t attr)
{
	switch (attr) {
	case MAD_CC_ATTR_CLASS_PORT_INFO: return "ClassPortInfo";
	case MAD_CC_ATTR_INFO: return "CongestionInfo";
	case MAD_CC_ATTR_KEY_INFO: return "CongestionKeyInfo";
	case MAD_CC_ATTR_SWITCH_SETTING: return "SwitchCongestionSetting";
	case MAD_CC_ATTR_CA_SETTING: return "CACongestionSetting";
	default: return "CongestionControlTable";
	}
}

static void agent_done(struct cc_agent *a);
static void answered(void *ctx, int err, const uint8_t *req, const uint8_t *resp);

static void submit(struct cc_agent *a, uint8_t method, uint16_t attr, uint32_t mod,
		   const uint8_t *data)
{
	struct cc_pass *p = a->pass;
	struct mad_cc m;
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr to = { .lid = a->lid, .qpn = MAD_CC_QPN };

	mad_cc_init(&m, method, attr, a->key);
	m.attr_mod = mod;
	if (data)
		memcpy(m.data, data, MAD_CC_DATA_SIZE);
	mad_cc_encode(&m, buf);
	int rc = mad_rpc_submit_gmp(p->sm->rpc, buf, &to, answered, a);
	if (rc) {
		p->err = rc;
		agent_done(a);
		return;
	}
	p->st.gmps++;
}

/* The wanted value of @s, encoded into @data. */
static void want_encode(const struct cc_pass *p, const struct cc_step *s, uint8_t *data)
{
	switch (s->attr) {
	case MAD_CC_ATTR_KEY_INFO: mad_cc_key_info_encode(&p->want.key, data); break;
	case MAD_CC_ATTR_SWITCH_SETTING: mad_cc_switch_setting_encode(&p->want.sw, data); break;
	case MAD_CC_ATTR_CA_SETTING: mad_cc_ca_setting_encode(&p->want.ca, data); break;
	default: mad_cc_cct_encode(&p->want.cct[s->mod], data); break;
	}
}

/* Does @data, an answer to @s, hold what is wanted? */
static bool holds_wanted(const struct cc_pass *p, const struct cc_step *s, const uint8_t *data)
{
	union {
		struct mad_cc_key_info key;
		struct mad_cc_switch_setting sw;
		struct mad_cc_ca_setting ca;
		struct mad_cc_cct cct;
	} have;

	switch (s->attr) {
	case MAD_CC_ATTR_KEY_INFO:
		mad_cc_key_info_decode(data, &have.key);
		return sm_cc_key_same(&have.key, &p->want.key);
	case MAD_CC_ATTR_SWITCH_SETTING:
		mad_cc_switch_setting_decode(data, &have.sw);
		return sm_cc_switch_same(&have.sw, &p->want.sw);
	case MAD_CC_ATTR_CA_SETTING:
		mad_cc_ca_setting_decode(data, &have.ca);
		return sm_cc_ca_same(&have.ca, &p->want.ca);
	default:
		mad_cc_cct_decode(data, &have.cct);
		return sm_cc_cct_same(&have.cct, &p->want.cct[s->mod]);
	}
}

/* @a ends in @state, with @why of @attr as its last error: @err an rpc
 * error (the answer's @status), or 0 for @note. */
static void fail(struct cc_agent *a, const char *state, uint16_t attr, int err, uint16_t status,
		 const char *note)
{
	char *e = a->row.last_error;
	size_t len = sizeof(a->row.last_error);

	snprintf(a->row.state, sizeof(a->row.state), "%s", state);
	if (err == -EREMOTEIO)
		snprintf(e, len, "%s: status 0x%04x", attr_name(attr), status);
	else if (err)
		snprintf(e, len, "%s: %s", attr_name(attr),
			 err == -ETIMEDOUT ? "no answer" : strerror(-err));
	else
		snprintf(e, len, "%s: %s", attr_name(attr), note);
	agent_done(a);
}

/* The next step of @a: a Get, or the end. */
static void next_step(struct cc_agent *a)
{
	if (a->step == a->nsteps) {
		snprintf(a->row.state, sizeof(a->row.state), "configured");
		agent_done(a);
		return;
	}
	const struct cc_step *s = &a->steps[a->step];
	if (a->known) {		/* it holds what was wanted before: Set the change */
		uint8_t data[MAD_CC_DATA_SIZE];
		want_encode(a->pass, s, data);
		a->set_sent = true;
		submit(a, MAD_METHOD_SET, s->attr, s->mod, data);
		return;
	}
	a->set_sent = false;
	submit(a, MAD_METHOD_GET, s->attr, s->mod, NULL);
}

static void configured_add(struct cc_agent *a, uint16_t attr)
{
	const char *w = attr == MAD_CC_ATTR_KEY_INFO ? "key" :
			attr == MAD_CC_ATTR_SWITCH_SETTING ? "switch" :
			attr == MAD_CC_ATTR_CA_SETTING ? "ca" : "cct";
	size_t n = strlen(a->row.configured);

	if (strstr(a->row.configured, w))	/* several CCT blocks: "cct" once */
		return;
	snprintf(a->row.configured + n, sizeof(a->row.configured) - n, "%s%s", n ? "," : "", w);
}

/* CongestionInfo answered: the steps, unless the table is too short. */
static void info_answered(struct cc_agent *a, const uint8_t *data)
{
	struct mad_cc_info ci;

	mad_cc_info_decode(data, &ci);
	a->pass->st.answered++;
	if (a->type != MAD_NODE_SWITCH && ci.control_table_cap < a->pass->want.cct_blocks) {
		a->nsteps = 2;	/* the key and the CA setting: not a table it cannot hold */
		snprintf(a->row.last_error, sizeof(a->row.last_error),
			 "ControlTableCap %u blocks, %u wanted", ci.control_table_cap,
			 a->pass->want.cct_blocks);
	}
	next_step(a);
}

static void answered(void *ctx, int err, const uint8_t *req, const uint8_t *resp)
{
	struct cc_agent *a = ctx;
	struct cc_pass *p = a->pass;
	struct mad_cc m = { .status = 0 };
	uint16_t attr = (uint16_t)(req[16] << 8 | req[17]);

	bool decoded = resp && mad_cc_decode(resp, MAD_BLOCK_SIZE, &m) == 0;

	if (!err && !decoded)
		err = -EBADMSG;
	if (attr == MAD_CC_ATTR_CLASS_PORT_INFO) {
		if (err == -ETIMEDOUT) {
			snprintf(a->row.state, sizeof(a->row.state), "no-agent");
			agent_done(a);
		} else if (!err && !mad_cc_class_port_info_ours(m.data)) {
			/* another class's answer (ibsim's SMA): not an agent to set */
			fail(a, "no-agent", attr, 0, 0, "not a CC agent's answer");
		} else if (err) {
			fail(a, "error", attr, err, m.status, NULL);
		} else {
			submit(a, MAD_METHOD_GET, MAD_CC_ATTR_INFO, 0, NULL);
		}
		return;
	}
	if (attr == MAD_CC_ATTR_INFO) {
		if (err)
			fail(a, "error", attr, err, m.status, NULL);
		else
			info_answered(a, m.data);
		return;
	}
	if (err == -ETIMEDOUT && attr == MAD_CC_ATTR_KEY_INFO && p->held_key_valid &&
	    a->key_tries < 2) {
		/* dropped under one key: read again under the other (the old
		 * one, or the new one a sibling port's agent just gave the node) */
		a->key_tries++;
		a->key = a->key == p->held_key ? p->want.key.cc_key : p->held_key;
		a->set_sent = false;
		submit(a, MAD_METHOD_GET, MAD_CC_ATTR_KEY_INFO, 0, NULL);
		return;
	}
	if (err == -ETIMEDOUT && attr == MAD_CC_ATTR_KEY_INFO && !a->set_sent) {
		p->st.refused++;
		a->row.refused++;
		fail(a, "key-refused", attr, 0, 0, "no answer: the node's CC_Key is not ours");
		return;
	}
	if (err) {
		if (a->set_sent) {
			p->st.refused++;
			a->row.refused++;
		}
		fail(a, "error", attr, err, m.status, NULL);
		return;
	}
	const struct cc_step *s = &a->steps[a->step];
	if (holds_wanted(p, s, m.data)) {
		if (a->set_sent) {
			p->st.sent++;
			a->row.sent++;
		}
		if (s->attr == MAD_CC_ATTR_KEY_INFO)
			a->key = p->want.key.cc_key;	/* it holds ours now */
		configured_add(a, s->attr);
		a->step++;
		next_step(a);
		return;
	}
	if (a->set_sent) {	/* taken, but it reads back otherwise */
		p->st.refused++;
		a->row.refused++;
		fail(a, "error", attr, 0, 0, "Set not taken: it reads back otherwise");
		return;
	}
	uint8_t data[MAD_CC_DATA_SIZE];
	want_encode(p, s, data);
	a->set_sent = true;
	submit(a, MAD_METHOD_SET, s->attr, s->mod, data);
}

static void agent_start(struct cc_agent *a)
{
	if (a->known)
		next_step(a);
	else
		submit(a, MAD_METHOD_GET, MAD_CC_ATTR_CLASS_PORT_INFO, 0, NULL);
}

/* @a is finished: its count, and the next agent starts in its place. */
static void agent_done(struct cc_agent *a)
{
	struct cc_pass *p = a->pass;

	p->st.configured += strcmp(a->row.state, "configured") == 0;
	p->st.key_refused += strcmp(a->row.state, "key-refused") == 0;
	p->st.errors += strcmp(a->row.state, "error") == 0;
	if (p->next < p->ntodo && !p->err)
		agent_start(&p->agents[p->todo[p->next++]]);
}

static void agent_steps(struct cc_agent *a, const struct sm_cc_want *w)
{
	a->steps[a->nsteps++] = (struct cc_step){ MAD_CC_ATTR_KEY_INFO, 0 };
	if (a->type == MAD_NODE_SWITCH) {
		a->steps[a->nsteps++] = (struct cc_step){ MAD_CC_ATTR_SWITCH_SETTING, 0 };
		return;
	}
	a->steps[a->nsteps++] = (struct cc_step){ MAD_CC_ATTR_CA_SETTING, 0 };
	for (unsigned b = 0; b < w->cct_blocks; b++)
		a->steps[a->nsteps++] = (struct cc_step){ MAD_CC_ATTR_CCT, b };
}

static int known_cmp(const void *x, const void *y)
{
	const struct db_cc_node *a = x, *b = y;

	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	return (a->port > b->port) - (a->port < b->port);
}

/* @a's row from the last pass when it may be trusted without a read, or NULL. */
static const struct db_cc_node *known_row(const struct cc_pass *p, const struct cc_agent *a,
					  bool armed)
{
	const struct sm_cc *cc = p->sm->cc;
	struct db_cc_node key = { .guid = a->guid, .port = a->port };

	if (armed || !cc->nknown || cc->known_term != p->sm->master_terms ||
	    !sm_cc_key_same(&cc->known_want.key, &p->want.key))
		return NULL;
	return bsearch(&key, cc->known, cc->nknown, sizeof(key), known_cmp);
}

/* Has the wanted value of @s changed since @was was configured? */
static bool step_changed(const struct sm_cc_want *was, const struct sm_cc_want *now,
			 const struct cc_step *s)
{
	switch (s->attr) {
	case MAD_CC_ATTR_KEY_INFO: return !sm_cc_key_same(&was->key, &now->key);
	case MAD_CC_ATTR_SWITCH_SETTING: return !sm_cc_switch_same(&was->sw, &now->sw);
	case MAD_CC_ATTR_CA_SETTING: return !sm_cc_ca_same(&was->ca, &now->ca);
	default:
		return s->mod >= was->cct_blocks || !sm_cc_cct_same(&was->cct[s->mod], &now->cct[s->mod]);
	}
}

/* A known agent keeps its row and only the steps whose wanted value changed. */
static void agent_known(struct cc_agent *a, const struct db_cc_node *row)
{
	const struct sm_cc_want *was = &a->pass->sm->cc->known_want;
	unsigned n = 0;

	a->known = true;
	a->row = (struct db_cc_node){ .guid = row->guid, .port = row->port, .lid = a->lid,
				      .type = a->type, .checked_ms = row->checked_ms };
	snprintf(a->row.state, sizeof(a->row.state), "%s", row->state);
	snprintf(a->row.configured, sizeof(a->row.configured), "%s", row->configured);
	for (unsigned i = 0; i < a->nsteps; i++)
		if (step_changed(was, &a->pass->want, &a->steps[i]))
			a->steps[n++] = a->steps[i];
	a->nsteps = n;
}

/* One agent per switch (port 0) and per CA or router port with a LID; the
 * agents that get a MAD listed in p->todo. */
static int agents_build(struct cc_pass *p, int64_t now_ms)
{
	const struct sm_fabric *f = &p->sm->fabric;
	const struct topo *t = &f->topo;
	size_t cap = 0;

	for (uint32_t i = 0; i < t->n; i++)
		cap += t->nodes[i].type == MAD_NODE_SWITCH ? 1 : t->nodes[i].nports;
	p->agents = calloc(cap ? cap : 1, sizeof(*p->agents));
	p->todo = calloc(cap ? cap : 1, sizeof(*p->todo));
	if (!p->agents || !p->todo)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->n; i++) {
		const struct topo_node *tn = &t->nodes[i];
		bool sw = tn->type == MAD_NODE_SWITCH;
		for (unsigned port = sw ? 0 : 1; port <= (sw ? 0u : tn->nports); port++) {
			if (!tn->ports[port].lid)
				continue;
			struct cc_agent *a = &p->agents[p->n];
			*a = (struct cc_agent){ .pass = p, .guid = tn->guid, .lid = tn->ports[port].lid,
						.port = (uint8_t)port, .type = tn->type,
						.key = p->want.key.cc_key };
			a->row = (struct db_cc_node){ .guid = tn->guid, .port = (uint8_t)port,
						      .lid = a->lid, .type = tn->type,
						      .checked_ms = now_ms };
			agent_steps(a, &p->want);
			const struct db_cc_node *row = known_row(p, a, f->attrs[i].armed);
			if (row) {
				agent_known(a, row);
				p->st.known++;
			}
			if (!a->known || a->nsteps)
				p->todo[p->ntodo++] = (uint32_t)p->n;
			else
				p->st.configured++;	/* nothing to send: as it was */
			p->n++;
		}
	}
	return 0;
}

/* The agents left configured, for the next pass to trust (none after a
 * failed pass). */
static void known_keep(struct cc_pass *p, bool ok)
{
	struct sm_cc *cc = p->sm->cc;
	size_t n = 0;

	sm_cc_free(cc);
	cc->known = ok ? malloc((p->n ? p->n : 1) * sizeof(*cc->known)) : NULL;
	if (!cc->known)
		return;
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->agents[i].row.state, "configured") == 0 && !*p->agents[i].row.last_error)
			cc->known[n++] = p->agents[i].row;
	qsort(cc->known, n, sizeof(*cc->known), known_cmp);
	cc->nknown = n;
	cc->known_want = p->want;
	cc->known_term = p->sm->master_terms;
}

void sm_cc_free(struct sm_cc *cc)
{
	if (!cc)
		return;
	free(cc->known);
	cc->known = NULL;
	cc->nknown = 0;
}

struct cc_store {
	size_t n;
	uint64_t sent, refused;
	struct db_cc_node rows[];
};

static int store_rows(struct db *db, void *data)
{
	struct cc_store *s = data;

	return db_cc_store(db, s->rows, s->n, s->sent, s->refused);
}

static void pass_store(struct cc_pass *p)
{
	size_t size = sizeof(struct cc_store) + p->n * sizeof(struct db_cc_node);
	struct cc_store *s = p->sm->db ? malloc(size) : NULL;

	if (!s)
		return;
	s->n = p->n;
	s->sent = p->st.sent;
	s->refused = p->st.refused;
	for (size_t i = 0; i < p->n; i++)
		s->rows[i] = p->agents[i].row;
	sm_store_put(&p->sm->store, store_rows, s, size, "congestion control");
}

int sm_cc_pass(struct sm *sm, struct sm_cc_stats *out)
{
	struct cc_pass p = { .sm = sm };
	uint64_t t0 = mad_now_ms();
	int rc;

	sm->cc->due = false;
	if (!sm->have_fabric || !sm->rpc)
		return 0;
	if (sm_cc_want_build(&sm->cfg, &p.want))
		return -EINVAL;	/* sm_config refuses such a file */
	const struct sm_cc *cc = sm->cc;
	p.held_key = cc->known_want.key.cc_key;
	p.held_key_valid = cc->nknown && cc->known_term == sm->master_terms &&
			   p.held_key != p.want.key.cc_key;
	if ((rc = agents_build(&p, (int64_t)time(NULL) * 1000))) {
		free(p.agents);
		free(p.todo);
		return rc;
	}
	p.st.agents = (uint32_t)p.n;
	size_t first = sm->cfg.cc_max_outstanding < p.ntodo ? sm->cfg.cc_max_outstanding : p.ntodo;
	for (p.next = first; p.err == 0 && first--;)
		agent_start(&p.agents[p.todo[first]]);
	rc = mad_rpc_drain(sm->rpc);
	if (!rc)
		rc = p.err;
	p.st.ms = mad_now_ms() - t0;
	if (!rc)
		pass_store(&p);
	known_keep(&p, rc == 0);
	sm->cc->last = p.st;
	sm->cc->passes++;
	sm_notice("congestion control: %u agents (%u known), %u answered, %u configured, "
		  "%u key refused, %u errors; %llu settings sent, %llu refused; %llu CC MADs in %llu ms",
		  p.st.agents, p.st.known, p.st.answered, p.st.configured, p.st.key_refused, p.st.errors,
		  (unsigned long long)p.st.sent, (unsigned long long)p.st.refused,
		  (unsigned long long)p.st.gmps, (unsigned long long)p.st.ms);
	free(p.agents);
	free(p.todo);
	if (out)
		*out = p.st;
	return rc;
}

// SPDX-License-Identifier: MIT
/*
 * sm_discover.c - breadth-first directed-route discovery.
 *
 * Flow: NodeInfo over the empty path finds the SM's own node.  Every new node
 * gets NodeDescription, SwitchInfo (switches) and PortInfo: all ports 0..N of a
 * switch, and of a CA or router only the port the probe came in on (CAs do not
 * forward SMPs, so their other ports are found from the other side).  A
 * switch's ports 1..N are asked once port 0 answered, with attribute modifier
 * bit 31 when port 0 says the switch supports extended speeds; a CA port that
 * does is asked again with the bit (IBA 14.2.5.6, SMSupportExtendedSpeeds).  A switch
 * port that is physically LinkUp and whose peer is still unknown is probed with
 * NodeInfo one hop further; NodeInfo's LocalPortNum names the far end, so each
 * link is probed once, from the side that reached it first.  All requests go
 * through the rpc window; callbacks submit the next ones.
 *
 * A NodeInfo answer whose GUID is already known is the same node reached again
 * when type and port count agree and the port it came in on is free (or already
 * linked back to us); otherwise two devices share a GUID, which is recorded and
 * never merged.  Port GUIDs claimed twice are looked for at the end
 * (sm_port_guids.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sm/core/sm.h"
#include "sm/sweep/sm_discover.h"
#include "sm/util/sm_log.h"
#include "sm/sweep/sm_port_guids.h"

struct disc {
	struct mad_rpc *rpc;
	struct sm_fabric *f;
	struct sm_arena *arena;
	int err;
};

/* One request's context: where it goes and, for probes, where from. */
struct disc_req {
	struct disc *d;
	uint32_t node;		/* the node asked, or the node probed from */
	uint8_t port;		/* the port asked, or the port probed out of */
	struct topo_path path;
};

static void submit(struct disc *d, uint16_t attr, uint32_t mod, uint32_t node,
		   uint8_t port, const struct topo_path *path, mad_rpc_done_fn done)
{
	struct disc_req *r = sm_arena_alloc(d->arena, sizeof(*r));

	if (!r) {
		d->err = -ENOMEM;
		return;
	}
	r->d = d;
	r->node = node;
	r->port = port;
	r->path = *path;
	if (mad_rpc_submit_dr(d->rpc, MAD_METHOD_GET, attr, mod, path,
			      attr == MAD_ATTR_NODE_INFO ? sm_mkey_probe(d->f, node, port)
							 : sm_mkey_for(d->f, node, port),
			      NULL, done, r))
		d->err = -ENOMEM;
}

static uint64_t node_guid(const struct disc *d, uint32_t node)
{
	return node == TOPO_NONE ? 0 : d->f->topo.nodes[node].guid;
}

static void note_failure(struct disc *d, const struct disc_req *r, int err,
			 const char *what)
{
	if (strcmp(what, "NodeInfo") != 0)	/* a question to a node we know */
		d->f->incomplete++;
	char p[256];
	enum sm_issue_kind kind = err == -ETIMEDOUT ? SM_ISSUE_UNRESPONSIVE
						    : SM_ISSUE_BAD_ANSWER;

	char why[64];

	mad_drpath_str(&r->path, p, sizeof(p));
	sm_smp_error(err, NULL, why, sizeof(why));
	sm_warn("discovery: %s at DR path %s: %s", what, p, why);
	if (sm_fabric_issue(d->f, kind, node_guid(d, r->node), r->port,
			    "%s at DR path %s: %s", what, p, why) == 0)
		d->f->issues[d->f->nissues - 1].probe = r->node != TOPO_NONE &&
							strcmp(what, "NodeInfo") == 0;
}

static void on_port_info(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp);
static void on_node_desc(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp);
static void on_switch_info(void *ctx, int err, const struct mad_smp *req,
			   const struct mad_smp *resp);
static void on_node_info(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp);

static void probe(struct disc *d, uint32_t node, uint8_t port)
{
	struct topo_path path = d->f->topo.nodes[node].path;

	if (mad_drpath_push(&path, port)) {
		sm_fabric_issue(d->f, SM_ISSUE_HOP_LIMIT, node_guid(d, node), port,
				"a node beyond 63 hops is not reachable by directed route");
		return;
	}
	submit(d, MAD_ATTR_NODE_INFO, 0, node, port, &path, on_node_info);
}

/* PortInfo of @port, asked along @path (a CA answers only for the port the
 * SMP came in on, so its ports are asked along the route that reached them);
 * @ext asks with SMSupportExtendedSpeeds. */
static void ask_port(struct disc *d, uint32_t node, uint8_t port, const struct topo_path *path,
		     bool ext)
{
	submit(d, MAD_ATTR_PORT_INFO, port | (ext ? MAD_PORT_INFO_EXT_SPEEDS : 0), node, port,
	       path, on_port_info);
}

static uint32_t add_node(struct disc *d, const struct mad_node_info *ni,
			 const struct disc_req *r)
{
	uint32_t idx = sm_fabric_add_node(d->f, ni->node_type, ni->num_ports, ni->node_guid);
	if (idx == TOPO_NONE) {
		d->err = -ENOMEM;
		return idx;
	}
	struct topo_node *n = &d->f->topo.nodes[idx];
	n->sys_guid = ni->system_guid;
	n->vendor_id = ni->vendor_id;
	n->device_id = ni->device_id;
	n->revision = ni->revision;
	d->f->attrs[idx].partition_cap = ni->partition_cap;
	n->responded = true;
	n->path = r->path;
	if (ni->node_type == MAD_NODE_SWITCH)
		for (unsigned p = 0; p <= ni->num_ports; p++)
			n->ports[p].guid = ni->port_guid;
	else	/* a CA answers by the port the SMP comes in on: its M_Key's */
		n->ports[ni->local_port].guid = ni->port_guid;

	submit(d, MAD_ATTR_NODE_DESC, 0, idx,
	       ni->node_type == MAD_NODE_SWITCH ? 0 : ni->local_port, &n->path, on_node_desc);
	if (ni->node_type == MAD_NODE_SWITCH) {
		submit(d, MAD_ATTR_SWITCH_INFO, 0, idx, 0, &n->path, on_switch_info);
		ask_port(d, idx, 0, &n->path, false);	/* then the others: on_port_info() */
	}
	return idx;
}

/* @idx already has @ni's GUID: same node reached again, or a GUID clash? */
static bool same_node(struct disc *d, uint32_t idx, const struct mad_node_info *ni,
		      const struct disc_req *r)
{
	const struct topo_node *n = &d->f->topo.nodes[idx];
	const struct topo_port *tp = &n->ports[ni->local_port];

	if (n->type != ni->node_type || n->nports != ni->num_ports)
		return false;
	if (r->node == TOPO_NONE)
		return true;
	return tp->peer == TOPO_NONE || (tp->peer == r->node && tp->peer_port == r->port);
}

static void on_node_info(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp)
{
	struct disc_req *r = ctx;
	struct disc *d = r->d;
	struct mad_node_info ni;
	char p[256], q[256];

	(void)req;
	if (err) {
		if (r->node == TOPO_NONE)
			d->err = -EHOSTUNREACH;
		note_failure(d, r, err, "NodeInfo");
		return;
	}
	err = mad_node_info_decode(resp->data, &ni);
	if (err) {
		note_failure(d, r, err, "NodeInfo");
		return;
	}
	bool fresh_port = true;
	uint32_t idx = topo_find_guid(&d->f->topo, ni.node_guid);
	if (idx == TOPO_NONE) {
		idx = add_node(d, &ni, r);
		if (idx == TOPO_NONE)
			return;
	} else if (!same_node(d, idx, &ni, r)) {
		mad_drpath_str(&r->path, p, sizeof(p));
		sm_err("discovery: duplicate GUID 0x%016llx at DR path %s (also at %s); "
		       "not merged, not explored further", (unsigned long long)ni.node_guid,
		       p, mad_drpath_str(&d->f->topo.nodes[idx].path, q, sizeof(q)));
		sm_fabric_issue(d->f, SM_ISSUE_DUPLICATE_GUID, ni.node_guid, ni.local_port,
				"a second device with GUID 0x%016llx answered at DR path %s",
				(unsigned long long)ni.node_guid, p);
		return;
	} else {
		fresh_port = d->f->topo.nodes[idx].ports[ni.local_port].peer == TOPO_NONE;
	}
	struct topo_node *n = &d->f->topo.nodes[idx];
	if (r->node == TOPO_NONE) {
		d->f->local_node = idx;
		d->f->local_port = ni.local_port;
	} else {
		topo_link(&d->f->topo, r->node, r->port, idx, ni.local_port);
	}
	/* CAs and routers: ask the port we came in on, once. */
	if (n->type != MAD_NODE_SWITCH && fresh_port && !d->f->attrs[idx].pi_valid[ni.local_port]) {
		n->ports[ni.local_port].guid = ni.port_guid;
		ask_port(d, idx, ni.local_port, &r->path, false);
	}
}

static void on_port_info(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp)
{
	struct disc_req *r = ctx;
	struct disc *d = r->d;
	struct mad_port_info pi;
	struct topo_node *n = &d->f->topo.nodes[r->node];
	struct topo_port *tp = &n->ports[r->port];

	if (!err)
		err = mad_port_info_decode(resp->data, &pi);
	if (err) {
		note_failure(d, r, err, "PortInfo");
		for (unsigned p = 1; n->type == MAD_NODE_SWITCH && r->port == 0 && p <= n->nports; p++)
			ask_port(d, r->node, (uint8_t)p, &n->path, false);
		return;
	}
	bool ext = (req->attr_mod & MAD_PORT_INFO_EXT_SPEEDS) != 0;
	bool ext_cap = (pi.cap_mask & MAD_CAP_IS_EXT_SPEEDS_SUPPORTED) != 0;
	if (n->type == MAD_NODE_SWITCH && r->port == 0) {
		/* a switch's ports are judged by port 0's CapabilityMask */
		for (unsigned p = 1; p <= n->nports; p++)
			ask_port(d, r->node, (uint8_t)p, &n->path, ext_cap);
	} else if (n->type != MAD_NODE_SWITCH && ext_cap && !ext) {
		/* its extended speeds are only told to an SM that says it knows them */
		ask_port(d, r->node, r->port, &r->path, true);
		return;
	}
	d->f->attrs[r->node].pi[r->port] = pi;
	d->f->attrs[r->node].pi_valid[r->port] = true;
	sm_mkey_check_answer(d->f, r->node, r->port, &pi);
	tp->state = pi.port_state;
	tp->phys_state = pi.phys_state;
	tp->width = pi.link_width_active;
	tp->speed = mad_port_speed_active(&pi, ext);
	tp->lid = pi.lid;
	tp->lmc = pi.lmc;
	if (pi.phys_state != MAD_PHYS_LINKUP || tp->peer != TOPO_NONE)
		return;
	bool from_switch = n->type == MAD_NODE_SWITCH && r->port > 0;
	bool from_local_ca = r->node == d->f->local_node && n->type != MAD_NODE_SWITCH &&
			     r->port == d->f->local_port;
	if (from_switch || from_local_ca)
		probe(d, r->node, r->port);
}

static void on_node_desc(void *ctx, int err, const struct mad_smp *req,
			 const struct mad_smp *resp)
{
	struct disc_req *r = ctx;
	struct mad_node_desc nd;

	(void)req;
	if (err) {
		note_failure(r->d, r, err, "NodeDescription");
		return;
	}
	mad_node_desc_decode(resp->data, &nd);
	struct topo_node *n = &r->d->f->topo.nodes[r->node];
	memcpy(n->desc, nd.desc, sizeof(n->desc));
	r->d->f->attrs[r->node].nd_valid = true;
}

static void on_switch_info(void *ctx, int err, const struct mad_smp *req,
			   const struct mad_smp *resp)
{
	struct disc_req *r = ctx;
	struct sm_node_attrs *a = &r->d->f->attrs[r->node];

	(void)req;
	if (!err)
		err = mad_switch_info_decode(resp->data, &a->si);
	if (err) {
		note_failure(r->d, r, err, "SwitchInfo");
		return;
	}
	a->si_valid = true;
	r->d->f->topo.nodes[r->node].enhanced_port0 = a->si.enhanced_port0;
}

int sm_discover(struct mad_rpc *rpc, struct sm_fabric *f, struct sm_arena *arena)
{
	struct disc d = { .rpc = rpc, .f = f, .arena = arena };
	struct topo_path here = { 0 };

	submit(&d, MAD_ATTR_NODE_INFO, 0, TOPO_NONE, 0, &here, on_node_info);
	int rc = mad_rpc_drain(rpc);
	if (rc)
		return rc;
	if (!d.err && sm_port_guids_check(f) < 0)
		return -ENOMEM;
	return d.err;
}

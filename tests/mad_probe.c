// SPDX-License-Identifier: MIT
/*
 * mad_probe.c - walk a fabric over any transport and print it canonically.
 *
 * Usage: mad_probe BACKEND_SPEC   (umad[:CA[:PORT]] or sim:FILE[,host=NODE])
 *        mad_probe -l BACKEND_SPEC
 *
 * A breadth-first directed-route walk through the rpc layer, many SMPs in
 * flight: NodeInfo at 0 hops, then for each new node (deduplicated by node
 * GUID) NodeDescription and PortInfo of every port (0..N on a switch, 1..N on a
 * CA), and NodeInfo through every switch port whose link is up (and through
 * the local port when we sit on a CA: a CA forwards nothing, IBA 14.2.2).
 * The output is sorted text that names nodes by description (by description
 * and GUID where descriptions repeat), never by GUID alone, so that two
 * backends numbering GUIDs differently print the same fabric alike:
 *   attach "NAME"[PORT]
 *   node "NAME" TYPE NPORTS
 *   port "NAME"[PORT] STATE PHYSSTATE
 *   link "NAME"[PORT] -- "NAME"[PORT]
 * A summary (counts, SMPs, time) goes to stderr.  Exit 0, or 1 if any SMP
 * failed, 2 if the transport did not open.  A test tool, not the SM's sweep.
 *
 * With -l it walks nothing: it prints "ready", waits (10 s at most) for one
 * SMInfo Get from elsewhere (sminfo, another SM) and answers it as a STANDBY
 * SM of priority 5 whose GUID is the local port's, then prints
 * "answered SMInfo as 0xGUID": a check that unsolicited requests reach us.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mad/mad_attr.h"
#include "mad/mad_rpc.h"

#define PROBE_MAX_PORTS 256
#define PROBE_NO_NODE UINT32_MAX

struct probe_node {
	uint64_t guid;
	uint8_t type, nports;
	char desc[MAD_NODE_DESC_LEN + 1];
	struct topo_path path;
	uint8_t state[PROBE_MAX_PORTS], phys[PROBE_MAX_PORTS];
	uint32_t peer[PROBE_MAX_PORTS];		/* node index + 1, 0: none */
	uint8_t peer_port[PROBE_MAX_PORTS];
};

struct probe {
	struct mad_rpc *rpc;
	struct probe_node *nodes;
	size_t n, cap;
	size_t links;
	uint8_t attach_port;
	int errors;
};

/* One outstanding SMP: which node/port it is about, or where it came from. */
struct probe_req {
	struct probe *pr;
	uint32_t node;		/* PROBE_NO_NODE for the first NodeInfo */
	uint8_t port;
	struct topo_path path;
};

static const struct mad_addr probe_dr_addr = { .lid = MAD_LID_PERMISSIVE };

static void probe_done(void *ctx, int err, const struct mad_smp *req,
		       const struct mad_smp *resp);

static void probe_submit(struct probe *pr, uint16_t attr, uint32_t mod,
			 const struct topo_path *path, uint32_t node, uint8_t port)
{
	struct probe_req *q = malloc(sizeof(*q));
	struct mad_smp smp;

	if (!q) {
		pr->errors++;
		return;
	}
	*q = (struct probe_req){ .pr = pr, .node = node, .port = port, .path = *path };
	mad_smp_init_dr(&smp, MAD_METHOD_GET, attr, mod, path);
	if (mad_rpc_submit(pr->rpc, &smp, &probe_dr_addr, probe_done, q)) {
		free(q);
		pr->errors++;
	}
}

static uint32_t probe_find(const struct probe *pr, uint64_t guid)
{
	for (size_t i = 0; i < pr->n; i++)
		if (pr->nodes[i].guid == guid)
			return (uint32_t)i;
	return PROBE_NO_NODE;
}

static uint32_t probe_add(struct probe *pr, const struct mad_node_info *ni,
			  const struct topo_path *path)
{
	if (pr->n == pr->cap) {
		size_t cap = pr->cap ? pr->cap * 2 : 64;
		struct probe_node *nodes = realloc(pr->nodes, cap * sizeof(*nodes));
		if (!nodes)
			return PROBE_NO_NODE;
		pr->nodes = nodes;
		pr->cap = cap;
	}
	struct probe_node *nd = &pr->nodes[pr->n];
	memset(nd, 0, sizeof(*nd));
	nd->guid = ni->node_guid;
	nd->type = ni->node_type;
	nd->nports = ni->num_ports;
	nd->path = *path;
	return (uint32_t)pr->n++;
}

static void probe_link(struct probe *pr, uint32_t a, uint8_t pa, uint32_t b, uint8_t pb)
{
	struct probe_node *na = &pr->nodes[a], *nb = &pr->nodes[b];

	if (na->peer[pa] || nb->peer[pb])
		return;		/* seen from the other end already */
	na->peer[pa] = b + 1;
	na->peer_port[pa] = pb;
	nb->peer[pb] = a + 1;
	nb->peer_port[pb] = pa;
	pr->links++;
}

static void probe_node_info(struct probe_req *q, const struct mad_smp *resp)
{
	struct probe *pr = q->pr;
	struct mad_node_info ni;

	if (mad_node_info_decode(resp->data, &ni)) {
		pr->errors++;
		return;
	}
	uint32_t idx = probe_find(pr, ni.node_guid);
	if (idx == PROBE_NO_NODE) {
		idx = probe_add(pr, &ni, &q->path);
		if (idx == PROBE_NO_NODE) {
			pr->errors++;
			return;
		}
		if (q->path.hops == 0)
			pr->attach_port = ni.local_port;
		probe_submit(pr, MAD_ATTR_NODE_DESC, 0, &q->path, idx, 0);
		unsigned first = ni.node_type == MAD_NODE_SWITCH ? 0 : 1;
		for (unsigned p = first; p <= ni.num_ports; p++)
			probe_submit(pr, MAD_ATTR_PORT_INFO, p, &q->path, idx, (uint8_t)p);
	}
	if (q->node != PROBE_NO_NODE)
		probe_link(pr, q->node, q->port, idx, ni.local_port);
}

static void probe_port_info(struct probe_req *q, const struct mad_smp *resp)
{
	struct probe *pr = q->pr;
	struct probe_node *nd = &pr->nodes[q->node];
	struct mad_port_info pi;

	if (mad_port_info_decode(resp->data, &pi)) {
		pr->errors++;
		return;
	}
	nd->state[q->port] = pi.port_state;
	nd->phys[q->port] = pi.phys_state;
	bool exits = nd->type == MAD_NODE_SWITCH ||
		     (nd->path.hops == 0 && q->port == pr->attach_port);
	if (q->port == 0 || pi.phys_state != MAD_PHYS_LINKUP || !exits || nd->peer[q->port])
		return;
	struct topo_path next = nd->path;
	if (mad_drpath_push(&next, q->port)) {
		pr->errors++;
		return;
	}
	probe_submit(pr, MAD_ATTR_NODE_INFO, 0, &next, q->node, q->port);
}

static void probe_done(void *ctx, int err, const struct mad_smp *req,
		       const struct mad_smp *resp)
{
	struct probe_req *q = ctx;
	char buf[32], path[256];

	if (err) {
		fprintf(stderr, "mad_probe: %s at path %s: %s\n",
			mad_attr_name(req->attr_id, buf, sizeof(buf)),
			mad_drpath_str(&q->path, path, sizeof(path)), strerror(-err));
		q->pr->errors++;
	} else if (req->attr_id == MAD_ATTR_NODE_INFO) {
		probe_node_info(q, resp);
	} else if (req->attr_id == MAD_ATTR_PORT_INFO) {
		probe_port_info(q, resp);
	} else {
		struct mad_node_desc nd;
		if (mad_node_desc_decode(resp->data, &nd))
			q->pr->errors++;
		else
			memcpy(q->pr->nodes[q->node].desc, nd.desc, sizeof(nd.desc));
	}
	free(q);
}

/* The name a node is printed under: "DESC", or "DESC@GUID" if DESC repeats. */
static void probe_name(const struct probe *pr, uint32_t i, char *buf, size_t len)
{
	const struct probe_node *nd = &pr->nodes[i];

	for (size_t j = 0; j < pr->n; j++)
		if (j != i && strcmp(pr->nodes[j].desc, nd->desc) == 0) {
			snprintf(buf, len, "\"%s@%016" PRIx64 "\"", nd->desc, nd->guid);
			return;
		}
	snprintf(buf, len, "\"%s\"", nd->desc);
}

static int probe_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#define PROBE_LINE 384

static void probe_print(const struct probe *pr)
{
	size_t max = 1, n = 0;

	for (size_t i = 0; i < pr->n; i++)
		max += 1 + 2u * (pr->nodes[i].nports + 1u);
	char (*lines)[PROBE_LINE] = calloc(max, PROBE_LINE);
	char **sorted = calloc(max, sizeof(*sorted));
	if (!lines || !sorted) {
		fprintf(stderr, "mad_probe: out of memory\n");
		exit(1);
	}
	char me[96], peer[96];
	if (pr->n) {
		probe_name(pr, 0, me, sizeof(me));
		snprintf(lines[n++], PROBE_LINE, "attach %s[%u]", me, pr->attach_port);
	}
	for (uint32_t i = 0; i < pr->n; i++) {
		const struct probe_node *nd = &pr->nodes[i];
		unsigned first = nd->type == MAD_NODE_SWITCH ? 0 : 1;

		probe_name(pr, i, me, sizeof(me));
		snprintf(lines[n++], PROBE_LINE, "node %s %s %u", me,
			 mad_node_type_name(nd->type), nd->nports);
		for (unsigned p = first; p <= nd->nports; p++) {
			snprintf(lines[n++], PROBE_LINE, "port %s[%u] %s %s", me, p,
				 mad_port_state_name(nd->state[p]),
				 mad_phys_state_name(nd->phys[p]));
			if (!nd->peer[p])
				continue;
			/* each link once, from its lexically smaller end */
			probe_name(pr, nd->peer[p] - 1, peer, sizeof(peer));
			int c = strcmp(me, peer);
			if (c < 0 || (c == 0 && p < nd->peer_port[p]))
				snprintf(lines[n++], PROBE_LINE, "link %s[%u] -- %s[%u]", me, p,
					 peer, nd->peer_port[p]);
		}
	}
	for (size_t i = 0; i < n; i++)
		sorted[i] = lines[i];
	qsort(sorted, n, sizeof(*sorted), probe_cmp);
	for (size_t i = 0; i < n; i++)
		puts(sorted[i]);
	free(sorted);
	free(lines);
}

static double probe_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct probe_listen {
	struct mad_rpc *rpc;
	uint64_t guid;
	bool answered;
};

/* Answer a SMInfo Get (IBA 14.4.1); ignore anything else. */
static void probe_sminfo(void *ctx, const struct mad_smp *smp, const struct mad_addr *from)
{
	struct probe_listen *pl = ctx;
	struct mad_sm_info si = { .guid = pl->guid, .priority = 5,
				  .state = MAD_SM_STANDBY, .act_count = 1 };

	if (smp->attr_id != MAD_ATTR_SM_INFO || smp->method != MAD_METHOD_GET)
		return;
	struct mad_smp resp = *smp;
	mad_smp_make_response(&resp, 0);
	mad_sm_info_encode(&si, resp.data);
	pl->answered = mad_rpc_send(pl->rpc, &resp, from) == 0;
}

static int probe_listen(struct mad_rpc *rpc, struct mad_transport *t)
{
	struct probe_listen pl = { .rpc = rpc };
	struct mad_local_port lp;

	if (t->ops->local_port(t, &lp)) {
		fprintf(stderr, "mad_probe: cannot read the local port\n");
		return 1;
	}
	pl.guid = lp.port_guid;
	mad_rpc_set_unsolicited(rpc, probe_sminfo, &pl);
	printf("ready\n");
	fflush(stdout);
	for (double end = probe_now() + 10; !pl.answered && probe_now() < end;)
		if (mad_rpc_poll(rpc, 100) < 0)
			break;
	if (!pl.answered) {
		fprintf(stderr, "mad_probe: no SMInfo Get arrived\n");
		return 1;
	}
	printf("answered SMInfo as 0x%" PRIx64 "\n", pl.guid);
	return 0;
}

int main(int argc, char **argv)
{
	struct mad_transport *t;
	char err[256];

	bool listen = argc == 3 && strcmp(argv[1], "-l") == 0;
	if (argc != 2 && !listen) {
		fprintf(stderr, "usage: mad_probe [-l] umad[:CA[:PORT]] | sim:FILE[,host=NODE]\n");
		return 2;
	}
	const char *spec = argv[argc - 1];
	if (mad_transport_open(spec, &t, err, sizeof(err))) {
		fprintf(stderr, "mad_probe: %s\n", err);
		return 2;
	}
	const struct mad_rpc_opts opts = { .window = 32, .per_node = 4, .timeout_ms = 300,
					   .retries = 3 };
	struct probe pr = { .rpc = mad_rpc_new(t, &opts) };
	if (!pr.rpc) {
		fprintf(stderr, "mad_probe: rpc: %s\n", strerror(errno));
		mad_transport_close(t);
		return 2;
	}
	if (listen) {
		int lrc = probe_listen(pr.rpc, t);
		mad_rpc_free(pr.rpc);
		mad_transport_close(t);
		return lrc;
	}
	double t0 = probe_now();
	const struct topo_path local = { .hops = 0 };
	probe_submit(&pr, MAD_ATTR_NODE_INFO, 0, &local, PROBE_NO_NODE, 0);
	int rc = mad_rpc_drain(pr.rpc);
	double secs = probe_now() - t0;
	if (rc) {
		fprintf(stderr, "mad_probe: transport: %s\n", strerror(-rc));
		pr.errors++;
	}
	struct mad_rpc_stats st;
	mad_rpc_get_stats(pr.rpc, &st);
	fprintf(stderr, "mad_probe: %s: %zu nodes, %zu links, %" PRIu64 " SMPs sent, "
		"%" PRIu64 " timeouts, %.3f s\n", spec, pr.n, pr.links, st.sent,
		st.timeouts, secs);
	probe_print(&pr);
	free(pr.nodes);
	mad_rpc_free(pr.rpc);
	mad_transport_close(t);
	return pr.errors ? 1 : 0;
}

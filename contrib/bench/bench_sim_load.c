// SPDX-License-Identifier: MIT
/*
 * bench_sim_load.c - how fast the simulated fabric loads and serves.
 *
 * Usage: bench_sim_load TOPOFILE
 * Opens "sim:TOPOFILE", then walks the fabric breadth-first the way discovery
 * does: a directed-route NodeInfo out of every port of every switch found, one
 * SMP at a time, straight through the transport's send/recv with encoded SMPs.
 * Prints the load time, the walk time, SMPs sent, nodes found and peak RSS.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "mad/mad_attr.h"
#include "mad/sim/mad_sim.h"
#include "mad/mad_smp.h"
#include "mad/model/topo.h"
#include "mad/mad_transport.h"

static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* NodeInfo along @path: 0 with @ni filled, or -errno (lost, bad answer). */
static int bench_node_info(struct mad_transport *t, const struct topo_path *path,
			   uint64_t tid, struct mad_node_info *ni)
{
	struct mad_smp req, resp;
	struct mad_addr to = { .lid = MAD_LID_PERMISSIVE }, from;
	uint8_t buf[MAD_BLOCK_SIZE];

	mad_smp_init_dr(&req, MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0, path);
	req.tid = tid;
	mad_smp_encode(&req, buf);
	int rc = t->ops->send(t, buf, &to);
	if (!rc)
		rc = mad_transport_recv_mad(t, buf, &from, 100);
	if (!rc)
		rc = mad_smp_decode(buf, sizeof(buf), &resp);
	if (!rc)
		rc = mad_smp_check_response(&req, &resp);
	return rc ? rc : mad_node_info_decode(resp.data, ni);
}

/* Breadth-first over switches; @seen collects every node found.  Returns the
 * number of SMPs sent, or -errno. */
static long bench_walk(struct mad_transport *t, struct topo *seen)
{
	struct topo_path *queue = malloc(sizeof(*queue));
	size_t head = 0, len = 1, cap = 1;
	struct mad_node_info ni;
	long smps = 0;

	if (!queue)
		return -ENOMEM;
	queue[0] = (struct topo_path){ 0 };
	while (head < len) {
		struct topo_path path = queue[head++];
		smps++;
		if (bench_node_info(t, &path, (uint64_t)smps, &ni))
			continue;
		if (topo_find_guid(seen, ni.node_guid) != TOPO_NONE)
			continue;
		if (topo_add_node(seen, ni.node_type, ni.num_ports, ni.node_guid) == TOPO_NONE)
			break;
		if (ni.node_type != MAD_NODE_SWITCH && path.hops > 0)
			continue;
		for (unsigned p = 1; p <= ni.num_ports; p++) {
			if (ni.node_type != MAD_NODE_SWITCH && p != ni.local_port)
				continue;	/* an SM's CA sends out of its own port */
			if (len == cap) {
				struct topo_path *q = realloc(queue, 2 * cap * sizeof(*q));
				if (!q) {
					free(queue);
					return -ENOMEM;
				}
				queue = q;
				cap *= 2;
			}
			queue[len] = path;
			if (mad_drpath_push(&queue[len], (uint8_t)p) == 0)
				len++;
		}
	}
	free(queue);
	return smps;
}

int main(int argc, char **argv)
{
	char spec[4200], err[512];
	struct mad_transport *t;
	struct topo seen;
	struct sim_stats st;
	struct rusage ru;

	if (argc != 2) {
		fprintf(stderr, "usage: %s TOPOFILE\n", argv[0]);
		return 2;
	}
	snprintf(spec, sizeof(spec), "sim:%s", argv[1]);
	double t0 = bench_now();
	if (mad_transport_open(spec, &t, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	double t1 = bench_now();
	topo_init(&seen);
	long smps = bench_walk(t, &seen);
	double t2 = bench_now();
	const struct topo *fab = sim_fabric_topo(sim_transport_fabric(t));
	sim_get_stats(sim_transport_fabric(t), &st);
	getrusage(RUSAGE_SELF, &ru);
	printf("fabric: %u nodes (%u switches, %u CAs), %zu links\n", fab->n,
	       topo_count_type(fab, MAD_NODE_SWITCH), topo_count_type(fab, MAD_NODE_CA),
	       topo_count_links(fab));
	printf("load: %.3f s\n", t1 - t0);
	printf("serve: %.3f s for %ld SMPs (%.0f SMPs/s), %u nodes found, %llu lost\n",
	       t2 - t1, smps, smps / (t2 - t1 > 0 ? t2 - t1 : 1e-9), seen.n,
	       (unsigned long long)st.dropped);
	printf("peak RSS: %.1f MiB\n", ru.ru_maxrss / 1024.0);
	int rc = smps < 0 || seen.n != fab->n;
	topo_free(&seen);
	mad_transport_close(t);
	return rc;
}

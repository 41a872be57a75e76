// SPDX-License-Identifier: MIT
/*
 * bench_patch.c - how fast a dead spine link is patched (sm/repair/sm_patch.c).
 *
 * Usage: bench_patch TOPOFILE [ENGINE]
 * Brings the sim fabric up with one heavy sweep (engine ftree by default),
 * kills one top switch's link to a pod (the first whose two ends' directed
 * routes do not cross it), waits for the Trap 128, and patches.  Prints the
 * time from the trap's arrival to the last patch SMP answered, the SMPs, the
 * LFT entries moved and the blocks sent against a full reprogram's, and
 * whether every CA LID stays reachable from every leaf switch over live links by
 * the LFTs the simulated switches hold (before any heavy sweep).
 * The store is a temporary directory's, removed at the end.  Exit 0 when
 * all of that holds, 1 when not, 2 on a setup error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mad/mad_attr.h"
#include "mad/sim/mad_sim.h"
#include "sm/core/sm.h"
#include "sm/util/sm_log.h"
#include "sm/repair/sm_patch.h"
#include "sm/sm_life.h"
#include "sm/sweep/sm_sweep.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether the discovered route to @n crosses the link (@a, @pa). */
static bool path_crosses(const struct sm_fabric *f, uint32_t n, uint32_t a, uint8_t pa)
{
	const struct topo *t = &f->topo;
	const struct topo_path *p = &t->nodes[n].path;
	uint32_t at = f->local_node;
	const struct topo_port *tp = &t->nodes[a].ports[pa];

	for (unsigned h = 1; h <= p->hops && at != TOPO_NONE; h++) {
		if ((at == a && p->port[h] == pa) || (at == tp->peer && p->port[h] == tp->peer_port))
			return true;
		at = t->nodes[at].ports[p->port[h]].peer;
	}
	return false;
}

/* (leaf switch, CA LID) pairs not delivered over live links by the
 * simulated LFTs (the link (@a, @pa) dead): every CA pair's route starts at
 * a leaf. */
static unsigned long unreachable(struct sim_fabric *sf, uint32_t a, uint8_t pa)
{
	const struct topo *t = sim_fabric_topo(sf);
	const struct topo_port *dead = &t->nodes[a].ports[pa];
	unsigned long bad = 0;
	bool *leaf = calloc(t->n, sizeof(*leaf));

	for (uint32_t n = 0; leaf && n < t->n; n++)
		if (t->nodes[n].type != MAD_NODE_SWITCH && t->nodes[n].ports[1].peer != TOPO_NONE)
			leaf[t->nodes[n].ports[1].peer] = true;
	for (uint32_t d = 0; leaf && d < t->n; d++) {
		if (t->nodes[d].type == MAD_NODE_SWITCH)
			continue;
		struct mad_port_info pi;
		if (sim_get_port_info(sf, d, 1, &pi))
			continue;
		for (uint32_t s = 0; s < t->n; s++) {
			if (t->nodes[s].type != MAD_NODE_SWITCH || !leaf[s])
				continue;
			uint32_t n = s;
			bool ok = false;
			for (int hops = 0; hops < 16; hops++) {
				uint8_t p = sim_get_lft(sf, n, pi.lid);
				if (p == 0 || p > t->nodes[n].nports || (n == a && p == pa) ||
				    (n == dead->peer && p == dead->peer_port))
					break;
				n = t->nodes[n].ports[p].peer;
				if (n == TOPO_NONE || t->nodes[n].type != MAD_NODE_SWITCH) {
					ok = n == d;
					break;
				}
			}
			bad += !ok;
		}
	}
	bad = leaf ? bad : ~0ul;
	free(leaf);
	return bad;
}

int main(int argc, char **argv)
{
	struct sm sm;
	char err[256];

	if (argc < 2) {
		fprintf(stderr, "usage: bench_patch TOPOFILE [ENGINE]\n");
		return 2;
	}
	memset(&sm, 0, sizeof(sm));
	sm_log_set_level(LOG_WARNING);
	sm_config_defaults(&sm.cfg);
	snprintf(sm.cfg.backend, sizeof(sm.cfg.backend), "sim:%s", argv[1]);
	char dir[] = "/tmp/bench_patch.XXXXXX";
	if (!mkdtemp(dir))
		return 2;
	snprintf(sm.cfg.db_path, sizeof(sm.cfg.db_path), "%s/sm.db", dir);
	if (sm_config_set_routing(&sm.cfg, argc > 2 ? argv[2] : "ftree", err, sizeof(err))) {
		fprintf(stderr, "bench_patch: %s\n", err);
		return 2;
	}
	double t0 = now_s();
	if (sm_open(&sm) || sm_sweep_heavy(&sm)) {
		fprintf(stderr, "bench_patch: the fabric did not come up\n");
		return 2;
	}
	printf("bring-up: %.2f s\n", now_s() - t0);
	struct sim_fabric *sf = sim_transport_fabric(sm.t);
	const struct topo *t = &sm.fabric.topo;
	uint32_t spine = TOPO_NONE;
	uint8_t port = 0;
	/* a top switch: a switch with no CA whose every peer is a switch, the
	 * last in GUID order (topogen names them last) */
	for (uint32_t n = t->n; n-- > 0 && spine == TOPO_NONE;) {
		if (t->nodes[n].type != MAD_NODE_SWITCH || !strchr(t->nodes[n].desc, 'C'))
			continue;
		for (unsigned p = 1; p <= t->nodes[n].nports && spine == TOPO_NONE; p++) {
			const struct topo_port *tp = &t->nodes[n].ports[p];
			if (tp->peer != TOPO_NONE && !path_crosses(&sm.fabric, n, n, (uint8_t)p) &&
			    !path_crosses(&sm.fabric, tp->peer, n, (uint8_t)p)) {
				spine = n;
				port = (uint8_t)p;
			}
		}
	}
	if (spine == TOPO_NONE) {
		fprintf(stderr, "bench_patch: no top switch link to kill\n");
		return 2;
	}
	/* the simulator's node numbers are the file's, the SM's are by GUID */
	uint32_t sim_spine = topo_find_guid(sim_fabric_topo(sf), t->nodes[spine].guid);
	uint8_t sim_port = port;
	printf("killing %s port %u (to %s)\n", t->nodes[spine].desc, port,
	       t->nodes[t->nodes[spine].ports[port].peer].desc);
	if (sim_link_set(sf, sim_spine, sim_port, false))
		return 2;
	for (int i = 0; i < 100 && !sm.patch->npending; i++)
		mad_rpc_poll(sm.rpc, 10);
	if (!sm.patch->npending) {
		fprintf(stderr, "bench_patch: no trap 128 came\n");
		return 2;
	}
	int rc = sm_patch(&sm);
	size_t nblocks = (size_t)sm.routes.max_lid / MAD_LFT_BLOCK + 1, full = 0;
	for (uint32_t n = 0; n < t->n; n++)
		full += sm.routes.lft[n] ? nblocks : 0;
	unsigned long bad = unreachable(sf, sim_spine, sim_port);
	printf("patch: %u ms from the trap to the last SMP answered, %u SMPs, %u entries, "
	       "%u of %zu LFT blocks (%.3f%%), AR: %u group table and %u AR LFT blocks, "
	       "result %d; leaf-to-CA routes broken: %lu\n",
	       sm.patch->last_ms, sm.patch->last_smps, sm.patch->last_entries, sm.patch->last_blocks,
	       full, 100.0 * sm.patch->last_blocks / (double)full, sm.patch->last_ar_group_blocks,
	       sm.patch->last_ar_lft_blocks, rc, bad);
	bool good = rc == 0 && bad == 0 && sm.patch->last_ms < 100 &&
		    sm.patch->last_blocks * 20 < full;
	sm_close(&sm);
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 && good ? 0 : 1;
}

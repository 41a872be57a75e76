// SPDX-License-Identifier: MIT
/*
 * check_sm_fixture.c - the whole-sweep suites' shared set-up and device checks
 * (check_sm_fixture.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/util/sm_log.h"
#include "sm/core/sm_state.h"
#include "tests/check_sm_fixture.h"
#include "sm/sm_life.h"
#include "sm/sa/sm_sa.h"
#include "sm/sa/sm_sa_index.h"
#include "sm/sweep/sm_sweep.h"

char dbdir[] = "/tmp/ibsmd-sweep-XXXXXX";
char dbpath[256];

void fixture_setup(void)
{
	strcpy(dbdir, "/tmp/ibsmd-sweep-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dbdir));
	snprintf(dbpath, sizeof(dbpath), "%s/sm.db", dbdir);
	sm_log_set_level(LOG_WARNING);
}

void fixture_teardown(void)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dbdir);
	ck_assert_int_eq(system(cmd), 0);
}

const char *topo_path(const char *name)
{
	static char path[400];

	snprintf(path, sizeof(path), "%s/tests/topo/%s", getenv("top_srcdir") ?
		 getenv("top_srcdir") : ".", name);
	return path;
}

/* The configuration of sm_start(), on @backend. */
static void configure(struct sm *sm, const char *backend)
{
	memset(sm, 0, sizeof(*sm));
	sm_config_defaults(&sm->cfg);
	snprintf(sm->cfg.backend, sizeof(sm->cfg.backend), "%s", backend);
	snprintf(sm->cfg.db_path, sizeof(sm->cfg.db_path), "%s", dbpath);
	sm->cfg.timeout_ms = 20;
	sm->cfg.retries = 1;
}

void sm_start(struct sm *sm, const char *backend)
{
	configure(sm, backend);
	ck_assert_int_eq(sm_open(sm), 0);
}

void sm_start_on(struct sm *sm, struct sim_fabric *f)
{
	configure(sm, "sim:the test's");
	ck_assert_int_eq(sm_open_store(sm), 0);
	ck_assert_int_eq(sim_transport_new(f, &sm->t), 0);
	ck_assert_int_eq(sm_rpc_renew(sm), 0);
	sm_state_event(sm, SM_EV_PORT_READY, sm->cfg.backend);
}

void sm_start_cut_tree(struct sm *sm)
{
	char cmd[1200], spec[700], err[128];

	snprintf(spec, sizeof(spec), "sim:%s/cut.topo", dbdir);
	snprintf(cmd, sizeof(cmd), "%s/contrib/topogen/ibsmd-topogen fattree --levels 3 "
		 "--radix 8 --remove-links 40 --seed 1 -o %s",
		 getenv("top_builddir") ? getenv("top_builddir") : ".", spec + 4);
	ck_assert_int_eq(system(cmd), 0);
	sm_start(sm, spec);
	ck_assert_int_eq(sm_config_set_routing(&sm->cfg, "ftree", err, sizeof(err)), 0);
}

void sm_start_file(struct sm *sm, const char *file)
{
	char spec[480];

	snprintf(spec, sizeof(spec), "sim:%.400s", topo_path(file));
	sm_start(sm, spec);
}

void sm_start_policies(struct sm *sm, const char *file, const char *partitions,
		       const char *qos)
{
	char spec[480];

	snprintf(spec, sizeof(spec), "sim:%.400s", topo_path(file));
	configure(sm, spec);
	snprintf(sm->cfg.partitions_file, sizeof(sm->cfg.partitions_file), "%s",
		 partitions ? partitions : "");
	snprintf(sm->cfg.qos_policy_file, sizeof(sm->cfg.qos_policy_file), "%s", qos ? qos : "");
	ck_assert_int_eq(sm_open(sm), 0);
	ck_assert_int_eq(sm_sweep_heavy(sm), 0);
}

uint16_t sm_port1_lid(struct sm *sm, const char *name)
{
	uint64_t guid = sim_fabric_topo(fab(sm))->nodes[sim_node_named(sm, name)].guid;
	uint32_t n = topo_find_guid(&sm->fabric.topo, guid);

	ck_assert_uint_ne(n, TOPO_NONE);
	return sm->fabric.topo.nodes[n].ports[1].lid;
}

struct mad_sa sm_sa_ask(struct sm *sm, uint8_t method, uint16_t attr, uint64_t mask,
			const uint8_t *data, size_t size)
{
	struct sm_sa_source src = { .f = &sm->fabric, .ix = &sm->sa->index, .routes = &sm->routes,
				    .subnet_prefix = sm->cfg.subnet_prefix, .pkeys = &sm->sa->pkeys,
				    .partitions = &sm->sa->partitions, .qos = &sm->sa->qos };
	struct mad_sa req = { .base_version = 1, .mgmt_class = MAD_CLASS_SA,
			      .class_version = MAD_SA_CLASS_VERSION, .method = method,
			      .attr_id = attr, .comp_mask = mask };
	uint8_t wire[MAD_BLOCK_SIZE];
	struct sm_sa_reply out;
	struct mad_sa resp;

	ck_assert_int_eq(sm_sa_index_build(&sm->sa->index, &sm->fabric), 0);
	memcpy(req.data, data, size);
	mad_sa_encode(&req, wire);
	ck_assert(sm_sa_answer(&src, wire, sizeof(wire), &out, &sm->sa->counts));
	ck_assert_ptr_null(out.msg);	/* no RMPP asked: one MAD */
	ck_assert_int_eq(mad_sa_decode(out.mad, sizeof(out.mad), &resp), 0);
	return resp;
}

void sm_fixture_swept(struct sm *sm, const char *file)
{
	fixture_setup();
	sm_start_file(sm, file);
	ck_assert_int_eq(sm_sweep_heavy(sm), 0);
}

void sm_fixture_stop(struct sm *sm)
{
	sm_close(sm);
	fixture_teardown();
}

struct sim_fabric *fab(struct sm *sm)
{
	return sim_transport_fabric(sm->t);
}

uint32_t sim_node_named(struct sm *sm, const char *name)
{
	uint32_t i = topo_find_name(sim_fabric_topo(fab(sm)), name);

	ck_assert_uint_ne(i, TOPO_NONE);
	return i;
}

void sm_start_r8(struct sm *sm, const char *engine)
{
	char spec[480];

	snprintf(spec, sizeof(spec), "sim:%s/contrib/fabrics/fattree-2l-r8.topo",
		 getenv("top_srcdir") ? getenv("top_srcdir") : ".");
	sm_start(sm, spec);
	if (engine) {
		sm->cfg.nrouting = 1;
		snprintf(sm->cfg.routing[0], sizeof(sm->cfg.routing[0]), "%s", engine);
	}
}

unsigned lft_uses(struct sm *sm, const char *name, uint8_t port)
{
	uint32_t sw = sim_node_named(sm, name);
	unsigned n = 0;

	for (uint16_t lid = 1; lid <= sm->routes.max_lid; lid++)
		n += sim_get_lft(fab(sm), sw, lid) == port;
	return n;
}

bool lid_reaches(struct sim_fabric *f, uint32_t sw, uint16_t lid)
{
	const struct topo *t = sim_fabric_topo(f);
	struct mad_port_info pi;

	for (unsigned hops = 0; hops < 64; hops++) {
		uint8_t port = sim_get_lft(f, sw, lid);
		if (port == 0) {
			ck_assert_int_eq(sim_get_port_info(f, sw, 0, &pi), 0);
			return pi.lid == lid;
		}
		if (port == MAD_LFT_NO_PORT || port > t->nodes[sw].nports)
			return false;
		const struct topo_port *tp = &t->nodes[sw].ports[port];
		if (tp->peer == TOPO_NONE)
			return false;
		if (t->nodes[tp->peer].type != MAD_NODE_SWITCH) {
			ck_assert_int_eq(sim_get_port_info(f, tp->peer, tp->peer_port, &pi), 0);
			return lid >= pi.lid && lid < pi.lid + (1u << pi.lmc);
		}
		sw = tp->peer;
	}
	return false;
}

struct kind_count {
	const char *kind;
	long n;
};

static int count_kind(void *arg, const struct db_event *ev)
{
	struct kind_count *k = arg;

	k->n += !strcmp(ev->kind, k->kind);
	return 0;
}

long db_events_of_kind(struct db *db, const char *kind)
{
	struct kind_count k = { kind, 0 };

	ck_assert_int_eq(db_events_each(db, 0, count_kind, &k), 0);
	return k.n;
}

long events_of_kind(struct sm *sm, const char *kind)
{
	return db_events_of_kind(sm->db, kind);
}

struct port_find {
	uint64_t guid;
	uint8_t port;
	struct port_rows found;
};

static int find_port_row(void *arg, const struct db_port_row *r)
{
	struct port_find *f = arg;

	if (r->guid == f->guid && r->port == f->port) {
		f->found.rows++;
		f->found.last = *r;
	}
	return 0;
}

struct port_rows counters_latest(struct sm *sm, uint64_t guid, uint8_t port)
{
	struct port_find f = { .guid = guid, .port = port };

	ck_assert_int_eq(db_counters_latest_each(sm->db, find_port_row, &f), 0);
	return f.found;
}

struct port_rows counters_total(struct sm *sm, uint64_t guid, uint8_t port)
{
	struct port_find f = { .guid = guid, .port = port };

	ck_assert_int_eq(db_counters_totals_each(sm->db, find_port_row, &f), 0);
	return f.found;
}

void assert_subnet_up(struct sim_fabric *f)
{
	const struct topo *t = sim_fabric_topo(f);
	uint8_t seen[MAD_MAX_UCAST_LID + 1] = { 0 };
	struct mad_port_info pi;

	for (uint32_t n = 0; n < t->n; n++) {
		for (unsigned p = 1; p <= t->nodes[n].nports; p++) {
			if (t->nodes[n].ports[p].peer == TOPO_NONE)
				continue;
			ck_assert_int_eq(sim_get_port_info(f, n, (uint8_t)p, &pi), 0);
			if (pi.phys_state != MAD_PHYS_LINKUP)	/* a cable pulled by the test */
				continue;
			ck_assert_msg(pi.port_state == MAD_PORT_ACTIVE, "%s port %u is %s",
				      t->nodes[n].name, p, mad_port_state_name(pi.port_state));
			if (t->nodes[n].type == MAD_NODE_SWITCH)
				continue;
			ck_assert_uint_ne(pi.lid, 0);
			ck_assert_msg(!seen[pi.lid], "LID %u given twice", pi.lid);
			seen[pi.lid] = 1;
			for (uint32_t s = 0; s < t->n; s++)
				if (t->nodes[s].type == MAD_NODE_SWITCH)
					ck_assert_msg(lid_reaches(f, s, pi.lid), "%s cannot reach %s",
						      t->nodes[s].name, t->nodes[n].name);
		}
	}
}

/* The AR tables of every switch of @sm's sim fabric are the sweep's routes:
 * groups, LID states and default ports; AR and fallback routing on.  Returns
 * the LIDs bounded to a group, summed over the switches. */
unsigned assert_ar_tables_match(struct sm *sm)
{
	struct sim_fabric *f = fab(sm);
	const struct sm_routes *rt = &sm->routes;
	unsigned bounded = 0;

	ck_assert_ptr_nonnull(rt->ar.lid_group);
	for (uint32_t n = 0; n < sm->fabric.topo.n; n++) {
		const struct topo_node *tn = &sm->fabric.topo.nodes[n];
		if (tn->type != MAD_NODE_SWITCH)
			continue;
		uint32_t s = topo_find_guid(sim_fabric_topo(f), tn->guid);
		struct mad_ar_info ai;
		ck_assert_int_eq(sim_get_ar_info(f, s, &ai), 0);
		ck_assert_ptr_nonnull(rt->ar.lid_group[n]);
		uint16_t top = 0;
		for (uint16_t lid = 1; lid <= rt->max_lid; lid++) {
			struct mad_ar_lft_entry e;
			uint16_t g = rt->ar.lid_group[n][lid];
			ck_assert_int_eq(sim_get_ar_lft(f, s, lid, &e), 0);
			ck_assert_uint_eq(e.default_port, rt->lft[n][lid]);
			ck_assert_uint_eq(e.state, g ? MAD_AR_BOUNDED : MAD_AR_STATIC);
			ck_assert_uint_eq(e.group, g);
			top = g > top ? g : top;
			bounded += g != 0;
		}
		ck_assert(ai.enable && ai.fr_enable);
		ck_assert_uint_eq(ai.group_top, top);
		for (uint16_t g = 1; g <= top; g++) {
			uint64_t ports[4];
			ck_assert_int_eq(sim_get_ar_group(f, s, g, ports), 0);
			ck_assert_mem_eq(ports, rt->ar.groups[n][g - 1], sizeof(ports));
			ck_assert(ports[0] || ports[1] || ports[2] || ports[3]);
		}
	}
	return bounded;
}

void assert_ar_stored(struct sm *sm)
{
	const struct sm_routes *rt = &sm->routes;

	for (uint32_t n = 0; n < sm->fabric.topo.n; n++) {
		struct db_ar_table t;
		uint16_t top = 0;
		if (sm->fabric.topo.nodes[n].type != MAD_NODE_SWITCH)
			continue;
		ck_assert_int_eq(db_ar_load(sm->db, sm->fabric.topo.nodes[n].guid, &t), 1);
		for (uint32_t lid = 0; lid <= rt->max_lid; lid++)
			top = rt->ar.lid_group[n][lid] > top ? rt->ar.lid_group[n][lid] : top;
		ck_assert_uint_ge(t.top, top);
		ck_assert_uint_eq(t.nlid, sm_routes_ar_row(rt));
		ck_assert_mem_eq(t.lid_group, rt->ar.lid_group[n], t.nlid * sizeof(*t.lid_group));
		ck_assert_mem_eq(t.groups, rt->ar.groups[n], (size_t)t.top * sizeof(*t.groups));
		db_ar_table_free(&t);
	}
}

// SPDX-License-Identifier: MIT
/*
 * check_db_fixture.c - fabrics built in C, stored, and compared (see the header).
 */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/mad_attr.h"
#include "tests/check_db_fixture.h"

/*
 * Check's assertions only work inside a test run, and these helpers also
 * serve the check_smquery_mkdb program: a broken fixture aborts, which a Check
 * test reports as an error.
 */
#define FIX_REQUIRE(cond, ...)                                              \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);     \
			fprintf(stderr, __VA_ARGS__);                       \
			fputc('\n', stderr);                                \
			abort();                                            \
		}                                                           \
	} while (0)

static uint32_t fix_switch(struct topo *t, uint64_t guid, const char *desc, uint16_t lid,
			   bool enhanced)
{
	uint32_t i = topo_add_node(t, MAD_NODE_SWITCH, 8, guid);

	FIX_REQUIRE(i != TOPO_NONE, "adding a node");
	struct topo_node *n = &t->nodes[i];
	n->sys_guid = guid;
	n->vendor_id = 0x2c9;
	n->device_id = 0xc738;
	n->revision = 0xa1;
	n->enhanced_port0 = enhanced;
	n->responded = true;
	snprintf(n->desc, sizeof(n->desc), "%s", desc);
	snprintf(n->name, sizeof(n->name), "S-%016" PRIx64, guid);
	for (unsigned p = 0; p <= n->nports; p++) {
		n->ports[p].guid = guid;
		n->ports[p].state = p ? MAD_PORT_DOWN : MAD_PORT_ACTIVE;
		n->ports[p].phys_state = p ? MAD_PHYS_POLLING : MAD_PHYS_LINKUP;
		n->ports[p].width = 2;
		n->ports[p].speed = 4;
	}
	n->ports[0].lid = lid;
	return i;
}

static void fix_up(struct topo_port *p, uint8_t speed)
{
	p->state = MAD_PORT_ACTIVE;
	p->phys_state = MAD_PHYS_LINKUP;
	p->width = 2;
	p->speed = speed;
}

static void fix_cable(struct topo *t, uint32_t a, uint8_t pa, uint32_t b, uint8_t pb,
		      uint8_t speed)
{
	FIX_REQUIRE(topo_link(t, a, pa, b, pb) == 0, "linking");
	fix_up(&t->nodes[a].ports[pa], speed);
	fix_up(&t->nodes[b].ports[pb], speed);
}

static uint32_t fix_ca(struct topo *t, uint64_t guid, const char *desc, uint8_t nports)
{
	uint32_t i = topo_add_node(t, MAD_NODE_CA, nports, guid);

	FIX_REQUIRE(i != TOPO_NONE, "adding a node");
	struct topo_node *n = &t->nodes[i];
	n->sys_guid = guid;
	n->vendor_id = 0x2c9;
	n->device_id = 0x1017;
	n->revision = 0;
	n->responded = true;
	snprintf(n->desc, sizeof(n->desc), "%s", desc);
	snprintf(n->name, sizeof(n->name), "H-%016" PRIx64, guid);
	for (unsigned p = 1; p <= nports; p++)
		n->ports[p].guid = guid + p;
	return i;
}

uint32_t fix_add_host(struct topo *t, uint64_t guid, const char *desc, uint16_t lid,
		      uint32_t sw, uint8_t port)
{
	uint32_t h = fix_ca(t, guid, desc, 1);

	t->nodes[h].ports[1].lid = lid;
	fix_cable(t, sw, port, h, 1, 2);
	return h;
}

void fix_small(struct topo *t)
{
	topo_init(t);
	uint32_t s1 = fix_switch(t, FIX_SW1, "leaf-1", 1, true);
	uint32_t s2 = fix_switch(t, FIX_SW2, "leaf-2", 2, false);
	fix_cable(t, s1, 7, s2, 7, 4);
	fix_cable(t, s1, 8, s2, 8, 4);
	uint32_t h1 = fix_ca(t, FIX_H1, "node01 mlx5_0", 2);
	t->nodes[h1].ports[1].lid = 3;
	t->nodes[h1].ports[2].lid = 4;
	fix_cable(t, s1, 1, h1, 1, 2);
	fix_cable(t, s2, 1, h1, 2, 2);
	fix_add_host(t, FIX_H2, "node02 mlx5_0", 5, s1, 2);
	fix_add_host(t, FIX_H3, "node02 mlx5_0", 6, s2, 2);
	t->nodes[s2].path.hops = 1;
	t->nodes[s2].path.port[1] = 7;
}

void fix_big(struct topo *t, uint32_t nswitches, uint32_t hosts_per_switch)
{
	char desc[TOPO_DESC_LEN + 1];

	topo_init(t);
	for (uint32_t s = 0; s < nswitches; s++) {
		uint32_t i = topo_add_node(t, MAD_NODE_SWITCH, 36, 0x0002c90300000000ULL + s);
		struct topo_node *n = &t->nodes[i];

		n->responded = true;
		snprintf(n->desc, sizeof(n->desc), "switch %u", s);
		for (unsigned p = 0; p <= 36; p++)
			n->ports[p].guid = n->guid;
		n->ports[0].lid = (uint16_t)(s + 1);
	}
	for (uint32_t s = 0; s < nswitches; s++) {
		fix_cable(t, s, 35, (s + 1) % nswitches, 36, 4);
		for (uint32_t h = 0; h < hosts_per_switch; h++) {
			uint64_t guid = 0x506b4b0000000000ULL + ((uint64_t)(s * hosts_per_switch + h) << 4);
			snprintf(desc, sizeof(desc), "host%u-%u mlx5_0", s, h);
			uint32_t c = fix_ca(t, guid, desc, 2);
			t->nodes[c].ports[1].lid = (uint16_t)(nswitches + 1 + s * hosts_per_switch + h);
			fix_cable(t, s, (uint8_t)(h + 1), c, 1, 2);
		}
	}
}

struct db *fix_store(const char *path, const struct topo *t)
{
	char err[256];
	struct db *db;
	int64_t id;

	FIX_REQUIRE(db_open(path, DB_WRITER, &db, err, sizeof(err)) == 0, "%s", err);
	db_freeze_clock(db, FIX_TIME_MS);
	FIX_REQUIRE(db_sweep_begin(db, "heavy", &id) == 0, "%s", db_errmsg(db));
	FIX_REQUIRE(db_store_topology(db, id, t) >= 0, "%s", db_errmsg(db));
	const struct db_sweep_stats st = { .result = "ok", .discovery_smps = 42,
					   .discovery_ms = 7, .store_ms = 3,
					   .smps = { .sent = 45, .lost = 1, .retried = 3 } };
	FIX_REQUIRE(db_sweep_end(db, id, &st) == 0, "%s", db_errmsg(db));
	return db;
}

char *fix_tmp_path(void)
{
	char dir[] = "/tmp/ibsmd-test-XXXXXX";
	size_t len = sizeof(dir) + sizeof("/ibsmd.db");
	char *path = malloc(len);

	FIX_REQUIRE(path && mkdtemp(dir), "making a temporary directory");
	snprintf(path, len, "%s/ibsmd.db", dir);
	return path;
}

void fix_tmp_free(char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	char buf[512];

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", path, suffix[i]);
		unlink(buf);
	}
	*strrchr(path, '/') = 0;
	rmdir(path);
	free(path);
}

static uint64_t fix_peer(const struct topo *t, const struct topo_port *p)
{
	return p->peer == TOPO_NONE ? 0 : t->nodes[p->peer].guid;
}

static int fix_port_equal(const struct topo *a, const struct topo_port *p,
			  const struct topo *b, const struct topo_port *q)
{
	return p->guid == q->guid && p->state == q->state && p->phys_state == q->phys_state &&
	       p->width == q->width && p->speed == q->speed && p->lid == q->lid &&
	       p->lmc == q->lmc && fix_peer(a, p) == fix_peer(b, q) &&
	       (!fix_peer(a, p) || p->peer_port == q->peer_port);
}

static int fix_node_equal(const struct topo_node *n, const struct topo_node *o)
{
	return n->type == o->type && n->nports == o->nports && n->sys_guid == o->sys_guid &&
	       n->vendor_id == o->vendor_id && n->device_id == o->device_id &&
	       n->revision == o->revision && n->enhanced_port0 == o->enhanced_port0 &&
	       n->responded == o->responded && !strcmp(n->desc, o->desc) &&
	       !strcmp(n->name, o->name) && n->path.hops == o->path.hops &&
	       !memcmp(n->path.port + 1, o->path.port + 1, n->path.hops);
}

int fix_topo_equal(const struct topo *a, const struct topo *b, char *why, size_t len)
{
	if (a->n != b->n) {
		snprintf(why, len, "%u nodes against %u", a->n, b->n);
		return 0;
	}
	for (uint32_t i = 0; i < a->n; i++) {
		const struct topo_node *n = &a->nodes[i];
		uint32_t j = topo_find_guid(b, n->guid);

		if (j == TOPO_NONE || !fix_node_equal(n, &b->nodes[j])) {
			snprintf(why, len, "node 0x%016" PRIx64 " differs", n->guid);
			return 0;
		}
		for (unsigned p = n->type == MAD_NODE_SWITCH ? 0 : 1; p <= n->nports; p++)
			if (!fix_port_equal(a, &n->ports[p], b, &b->nodes[j].ports[p])) {
				snprintf(why, len, "port 0x%016" PRIx64 "[%u] differs", n->guid, p);
				return 0;
			}
	}
	return 1;
}

void fix_corrupt_table(const char *path, const char *table)
{
	sqlite3 *s;
	sqlite3_stmt *st;
	int root = 0, page = 0;

	FIX_REQUIRE(sqlite3_open(path, &s) == SQLITE_OK, "opening the store to corrupt");
	sqlite3_exec(s, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
	FIX_REQUIRE(sqlite3_prepare_v2(s, "SELECT rootpage, (SELECT page_size FROM "
				       "pragma_page_size) FROM sqlite_master WHERE name = ?",
				       -1, &st, NULL) == SQLITE_OK, "finding the table");
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		root = sqlite3_column_int(st, 0);
		page = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	sqlite3_close(s);
	FIX_REQUIRE(root > 1 && page > 0, "no such table");
	FILE *f = fopen(path, "r+b");
	FIX_REQUIRE(f && fseek(f, (long)(root - 1) * page, SEEK_SET) == 0, "seeking to its page");
	static const unsigned char junk[16] = { 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42,
						0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42 };
	FIX_REQUIRE(fwrite(junk, 1, sizeof(junk), f) == sizeof(junk), "writing junk");
	fclose(f);
}

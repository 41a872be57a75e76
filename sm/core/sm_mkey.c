// SPDX-License-Identifier: MIT
/*
 * sm_mkey.c - the M_Key of every port: keys wanted, keys sent, keys stored,
 * and the ports whose key the SM does not know (see sm_mkey.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "sm/core/sm_config.h"
#include "sm/core/sm_fabric.h"
#include "sm/util/sm_log.h"
#include "sm/core/sm_mkey.h"

/* ---- SipHash-2-4 (Aumasson and Bernstein, 2012) ---- */

static uint64_t rotl(uint64_t x, unsigned b)
{
	return x << b | x >> (64 - b);
}

static void sip_rounds(uint64_t v[4], unsigned n)
{
	while (n--) {
		v[0] += v[1];
		v[1] = rotl(v[1], 13) ^ v[0];
		v[0] = rotl(v[0], 32);
		v[2] += v[3];
		v[3] = rotl(v[3], 16) ^ v[2];
		v[0] += v[3];
		v[3] = rotl(v[3], 21) ^ v[0];
		v[2] += v[1];
		v[1] = rotl(v[1], 17) ^ v[2];
		v[2] = rotl(v[2], 32);
	}
}

static void sip_word(uint64_t v[4], uint64_t m)
{
	v[3] ^= m;
	sip_rounds(v, 2);
	v[0] ^= m;
}

uint64_t sm_siphash(const uint64_t k[2], const void *msg, size_t len)
{
	const uint8_t *p = msg;
	uint64_t v[4] = {
		k[0] ^ 0x736f6d6570736575ull, k[1] ^ 0x646f72616e646f6dull,
		k[0] ^ 0x6c7967656e657261ull, k[1] ^ 0x7465646279746573ull,
	};
	uint64_t last = (uint64_t)len << 56;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t m = 0;
		for (unsigned b = 0; b < 8; b++)
			m |= (uint64_t)p[i + b] << (8 * b);
		sip_word(v, m);
	}
	for (unsigned b = 0; i + b < len; b++)
		last |= (uint64_t)p[i + b] << (8 * b);
	sip_word(v, last);
	v[2] ^= 0xff;
	sip_rounds(v, 4);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* ---- configuration and the stored keys ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

#define SM_MKEY_DEAF_LOGGED 10	/* ports not taking a key logged one by one */

static bool is_deaf(const struct sm_mkeys *k, uint64_t guid)
{
	return k->ndeaf && bsearch(&guid, k->deaf, k->ndeaf, sizeof(*k->deaf), cmp_u64);
}

/* Add @guid (not in the list) to the ports not asked again, in order.  No
 * memory: asked again, harmless. */
static void add_deaf(struct sm_mkeys *k, uint64_t guid)
{
	if (k->ndeaf == k->deaf_cap) {
		size_t cap = k->deaf_cap ? k->deaf_cap * 2 : 64;
		uint64_t *d = realloc(k->deaf, cap * sizeof(*d));
		if (!d)
			return;
		k->deaf = d;
		k->deaf_cap = cap;
	}
	size_t lo = 0, hi = k->ndeaf;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (k->deaf[mid] < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(k->deaf + lo + 1, k->deaf + lo, (k->ndeaf - lo) * sizeof(*k->deaf));
	k->deaf[lo] = guid;
	k->ndeaf++;
}

static int cmp_entry(const void *a, const void *b)
{
	uint64_t x = ((const struct sm_mkey_entry *)a)->guid;
	uint64_t y = ((const struct sm_mkey_entry *)b)->guid;

	return x < y ? -1 : x > y;
}

struct load_ctx {
	struct sm_mkeys *k;
	size_t cap;
};

static int load_one(void *arg, uint64_t guid, uint64_t mkey)
{
	struct load_ctx *c = arg;
	struct sm_mkeys *k = c->k;

	if (k->nstored == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct sm_mkey_entry *e = realloc(k->stored, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		k->stored = e;
		c->cap = cap;
	}
	k->stored[k->nstored++] = (struct sm_mkey_entry){ .guid = guid, .mkey = mkey };
	return 0;
}

void sm_mkey_discovered(struct sm_mkeys *k)
{
	topo_free(&k->loaded);
	topo_init(&k->loaded);
	k->prev = NULL;
	k->own_guid = 0;
}

void sm_mkey_free(struct sm_mkeys *k)
{
	free(k->stored);
	free(k->deaf);
	topo_free(&k->loaded);
	memset(k, 0, sizeof(*k));
	topo_init(&k->loaded);
}

/* Who was where last time: @last's topology and the SM's port, else the store's. */
static int setup_prev(struct sm_mkeys *k, struct db *db, const struct sm_fabric *last)
{
	char v[32];

	if (last) {
		k->prev = &last->topo;
		if (last->mkeys.ndeaf && (k->deaf = malloc(last->mkeys.ndeaf * sizeof(*k->deaf)))) {
			memcpy(k->deaf, last->mkeys.deaf, last->mkeys.ndeaf * sizeof(*k->deaf));
			k->ndeaf = k->deaf_cap = last->mkeys.ndeaf;
		}
		if (last->local_node != TOPO_NONE) {
			const struct topo_node *n = &last->topo.nodes[last->local_node];
			k->own_guid = n->ports[n->type == MAD_NODE_SWITCH ? 0 : last->local_port].guid;
		}
		return 0;
	}
	if (!db || !k->on)
		return 0;
	int rc = db_load_topology(db, &k->loaded);
	if (rc)
		return rc;
	k->prev = &k->loaded;
	if (db_status_get(db, DB_ST_SM_GUID, v, sizeof(v)) == 0)
		k->own_guid = strtoull(v, NULL, 16);
	return 0;
}

int sm_mkey_setup(struct sm_mkeys *k, const struct sm_config *cfg, struct db *db,
		  const struct sm_fabric *last)
{
	static const uint64_t k0[2] = { 0, 0 }, k1[2] = { 1, 0 };
	size_t len = strnlen(cfg->mkey_secret, sizeof(cfg->mkey_secret));

	sm_mkey_free(k);
	k->derive = len > 0;
	k->key = cfg->mkey_key;
	k->on = k->derive || k->key != 0;
	k->protect = cfg->mkey_protect & 3;
	k->lease_s = cfg->mkey_lease_s;
	if (k->derive) {	/* a 128-bit key from a secret of any length */
		k->sip[0] = sm_siphash(k0, cfg->mkey_secret, len);
		k->sip[1] = sm_siphash(k1, cfg->mkey_secret, len);
	}
	if (!db)
		return setup_prev(k, NULL, last);
	struct load_ctx c = { .k = k };
	int rc = db_mkeys_load(db, load_one, &c);
	if (rc) {
		free(k->stored);
		k->stored = NULL;
		k->nstored = 0;
		return rc;
	}
	if (k->nstored)
		qsort(k->stored, k->nstored, sizeof(*k->stored), cmp_entry);
	return setup_prev(k, db, last);
}

static const struct sm_mkey_entry *stored(const struct sm_mkeys *k, uint64_t guid)
{
	struct sm_mkey_entry want = { .guid = guid };

	if (!k->nstored)
		return NULL;
	return bsearch(&want, k->stored, k->nstored, sizeof(*k->stored), cmp_entry);
}

uint64_t sm_mkey_wanted(const struct sm_mkeys *k, uint64_t guid)
{
	if (!k->derive)
		return k->key;
	uint8_t b[8];
	for (unsigned i = 0; i < 8; i++)
		b[i] = (uint8_t)(guid >> (56 - 8 * i));
	uint64_t key = sm_siphash(k->sip, b, sizeof(b));
	return key ? key : 1;	/* 0 would switch the port's checking off */
}

/* What the SM believes port @guid holds: the key it stored, else the wanted one. */
static uint64_t believed(const struct sm_mkeys *k, uint64_t guid)
{
	const struct sm_mkey_entry *e = stored(k, guid);

	return e ? e->mkey : sm_mkey_wanted(k, guid);
}

/* ---- per port ---- */

/* The port holding @node's M_Key for SMPs entering by @port. */
static uint8_t key_port(const struct sm_fabric *f, uint32_t node, uint8_t port)
{
	return f->topo.nodes[node].type == MAD_NODE_SWITCH ? 0 : port;
}

static uint64_t key_guid(const struct sm_fabric *f, uint32_t node, uint8_t kp)
{
	const struct topo_node *n = &f->topo.nodes[node];

	return n->ports[kp].guid ? n->ports[kp].guid : n->guid;
}

/* The key port @kp of @f's @node showed in PortInfo this sweep (0: none seen). */
static uint64_t shown(const struct sm_fabric *f, uint32_t node, uint8_t kp)
{
	const struct sm_node_attrs *a = &f->attrs[node];

	return a->pi_valid[kp] ? a->pi[kp].mkey : 0;
}

uint64_t sm_mkey_for(const struct sm_fabric *f, uint32_t node, uint8_t port)
{
	if (node >= f->topo.n)
		return 0;
	uint8_t kp = key_port(f, node, port);
	if (kp > f->topo.nodes[node].nports)
		return 0;
	uint64_t key = shown(f, node, kp);

	return key ? key : believed(&f->mkeys, key_guid(f, node, kp));
}

uint64_t sm_mkey_probe(const struct sm_fabric *f, uint32_t from, uint8_t port)
{
	const struct sm_mkeys *k = &f->mkeys;
	const struct topo *prev = k->prev;
	uint32_t was = prev && from < f->topo.n ? topo_find_guid(prev, f->topo.nodes[from].guid)
						: TOPO_NONE;

	if (from == TOPO_NONE && k->own_guid)	/* our own port */
		return believed(k, k->own_guid);
	if (was != TOPO_NONE && port <= prev->nodes[was].nports &&
	    prev->nodes[was].ports[port].peer != TOPO_NONE) {
		const struct topo_port *tp = &prev->nodes[was].ports[port];
		const struct topo_node *peer = &prev->nodes[tp->peer];
		const struct topo_port *kp = &peer->ports[peer->type == MAD_NODE_SWITCH ? 0
								   : tp->peer_port];
		return believed(k, kp->guid ? kp->guid : peer->guid);
	}
	return k->derive ? 0 : k->key;	/* a derived key needs the GUID */
}

static bool holds_key(const struct sm_fabric *f, uint32_t n, uint8_t p)
{
	return f->topo.nodes[n].type != MAD_NODE_SWITCH || p == 0;
}

bool sm_mkey_port_wanted(const struct sm_fabric *f, uint32_t n, uint8_t p,
			 struct mad_port_info *want)
{
	const struct sm_mkeys *k = &f->mkeys;

	if (!k->on || !holds_key(f, n, p) || is_deaf(k, key_guid(f, n, p)))
		return false;
	const struct mad_port_info *cur = &f->attrs[n].pi[p];
	want->mkey = sm_mkey_wanted(k, key_guid(f, n, p));
	want->mkey_prot = k->protect;
	want->mkey_lease = k->lease_s;
	return want->mkey != cur->mkey || want->mkey_prot != cur->mkey_prot ||
	       want->mkey_lease != cur->mkey_lease;
}

void sm_mkey_check_answer(struct sm_fabric *f, uint32_t node, uint8_t port,
			  const struct mad_port_info *pi)
{
	const struct sm_mkeys *k = &f->mkeys;

	if (!k->on || !holds_key(f, node, port) || !pi->mkey)
		return;
	uint64_t guid = key_guid(f, node, port);
	const struct sm_mkey_entry *e = stored(k, guid);
	if (pi->mkey == sm_mkey_wanted(k, guid) || (e && pi->mkey == e->mkey))
		return;
	sm_warn("M_Key: port 0x%016llx/%u holds a key the SM did not set (protect %u): "
		"taking it over", (unsigned long long)guid, port, pi->mkey_prot);
	sm_fabric_issue(f, SM_ISSUE_MKEY_FOREIGN, f->topo.nodes[node].guid, port,
			"port 0x%016llx holds an M_Key the SM did not set (protect bits %u, "
			"lease %u s); the SM takes it over", (unsigned long long)guid,
			pi->mkey_prot, pi->mkey_lease);
}

void sm_mkey_set_answered(struct sm_fabric *f, uint32_t node, uint8_t port,
			  const struct mad_port_info *asked, const struct mad_port_info *pi)
{
	if (!f->mkeys.on || !holds_key(f, node, port))
		return;
	uint64_t guid = key_guid(f, node, port);
	/* an answer to the right key shows the port's key: the one asked for */
	if (asked->mkey != sm_mkey_wanted(&f->mkeys, guid) || pi->mkey == asked->mkey ||
	    is_deaf(&f->mkeys, guid))
		return;
	if (f->mkeys.ndeaf < SM_MKEY_DEAF_LOGGED)
		sm_warn("M_Key: port 0x%016llx/%u does not take an M_Key (it answered another); "
			"not asked again%s", (unsigned long long)guid, port,
			f->mkeys.ndeaf + 1 == SM_MKEY_DEAF_LOGGED ? " (further such ports are not "
			"logged)" : "");
	add_deaf(&f->mkeys, guid);
}

void sm_mkey_set_failed(struct sm_fabric *f, uint32_t node, uint8_t port, int err)
{
	if (!f->mkeys.on || err != -ETIMEDOUT || !holds_key(f, node, port))
		return;
	uint64_t guid = key_guid(f, node, port);
	sm_warn("M_Key: port 0x%016llx/%u ignores the SM's PortInfo Set: its M_Key is not "
		"the one the SM knows; it is taken over once its lease expires",
		(unsigned long long)guid, port);
	sm_fabric_issue(f, SM_ISSUE_MKEY_UNKNOWN, f->topo.nodes[node].guid, port,
			"port 0x%016llx ignored a PortInfo Set: its M_Key is unknown to the "
			"SM (taken over once its lease expires)", (unsigned long long)guid);
}

/* Trap 256's details (IBA 14.2.5.1): LID at 0, method at 4, attribute at 6,
 * modifier at 8, the M_Key tried at 12, all big-endian. */
static uint64_t be_bytes(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

void sm_mkey_bad_key_trap(const struct mad_notice *n)
{
	char name[32];
	const uint8_t *d = n->details;

	/* the key tried is not logged: sent by this SM (a stale belief), it is
	 * a real key of some port */
	sm_warn("M_Key: LID %u refused a %s of %s (modifier 0x%x) carrying a wrong M_Key "
		"(%s; trap 256 from LID %u)", (unsigned)be_bytes(d, 2),
		d[4] == MAD_METHOD_SET ? "Set" : d[4] == MAD_METHOD_GET ? "Get" : "request",
		mad_attr_name((uint16_t)be_bytes(d + 6, 2), name, sizeof(name)),
		(unsigned)be_bytes(d + 8, 4), be_bytes(d + 12, 8) ? "the key is not logged"
		: "key 0", n->issuer_lid);
}

int sm_mkey_store(struct db *db, const struct sm_fabric *f)
{
	for (uint32_t n = 0; n < f->topo.n; n++) {
		for (unsigned p = 0; p <= f->topo.nodes[n].nports; p++) {
			if (!holds_key(f, n, (uint8_t)p))
				continue;
			uint64_t key = shown(f, n, (uint8_t)p);
			uint64_t guid = key_guid(f, n, (uint8_t)p);
			const struct sm_mkey_entry *e = stored(&f->mkeys, guid);
			if (!key || (e && e->mkey == key))
				continue;
			int rc = db_mkey_save(db, guid, key);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

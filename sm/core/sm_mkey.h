/* SPDX-License-Identifier: MIT */
/*
 * sm_mkey.h - the M_Key of every port (IBA 14.2.4): which key the SM sets, and
 * which key each SMP it sends carries.
 *
 * The key a port should hold comes from the configuration: mkey.key for every
 * port, or, with mkey.secret, a key per port GUID (SipHash-2-4 keyed with the
 * secret), so one leaked key opens one port.  The key-holding port is a
 * switch's port 0 and each CA port.  An SMP to a port carries, in this order:
 * the key the port showed in this sweep's PortInfo (a port answers its real
 * key to the right key, or at protect level 0 to anyone), the key stored for
 * its GUID (what the SM last set: the store's mkey table), or the key it
 * should hold.  A NodeInfo probe of a port not yet known uses the key of the
 * port found there last time: in the last sweep's fabric or, after a restart,
 * in the stored topology.  Programming sets the keys in a phase of their own, before any
 * other PortInfo Set, so a switch's other ports are Set with its new key.
 *
 * A port that answers a key Set without taking the key (ibsim keeps no M_Key)
 * is logged once and not asked again while the SM runs.
 *
 * Problems become sweep issues (events): a port holding a readable key the SM
 * neither set nor wants ("mkey_foreign": the SM takes it over), a PortInfo Set
 * left unanswered on a key-holding port ("mkey_unknown": the port keeps a key
 * the SM does not know; once its lease runs out it clears its protect bits,
 * a later sweep reads the key and takes the port over).
 */
#ifndef IBSMD_SM_MKEY_H
#define IBSMD_SM_MKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/model/topo.h"
#include "mad/mad_attr.h"
#include "mad/mad_smp.h"

struct db;
struct sm_config;
struct sm_fabric;

struct sm_mkey_entry {
	uint64_t guid;
	uint64_t mkey;
};

struct sm_mkeys {
	bool on;		/* the SM sets keys (mkey.key or mkey.secret) */
	bool derive;		/* per-port keys from the secret */
	uint64_t key;		/* mkey.key */
	uint64_t sip[2];	/* the SipHash key made from the secret */
	uint8_t protect;
	uint16_t lease_s;
	struct sm_mkey_entry *stored;	/* the store's keys, by GUID */
	size_t nstored;
	uint64_t *deaf;			/* ports that do not take a key, by GUID */
	size_t ndeaf, deaf_cap;
	/* during discovery: who was where last time */
	const struct topo *prev;	/* the last fabric's topology, or &loaded */
	struct topo loaded;		/* the stored topology, when no last fabric */
	uint64_t own_guid;		/* the SM's port GUID last time (0: unknown) */
};

/* Take @cfg's keys and the store's (@db may be NULL) into @k, replacing what
 * it held, and for discovery the last sweep's fabric @last (NULL: none; with
 * M_Key on, the store's topology stands in for it).  0 or -errno (@k then
 * holds the configured keys only). */
int sm_mkey_setup(struct sm_mkeys *k, const struct sm_config *cfg, struct db *db,
		  const struct sm_fabric *last);
/* Discovery is over: drop what it needed of the last fabric. */
void sm_mkey_discovered(struct sm_mkeys *k);
void sm_mkey_free(struct sm_mkeys *k);

/* SipHash-2-4 of @len bytes at @msg under the 128-bit key @k (k[0] = the key's
 * first 8 bytes, little-endian). */
uint64_t sm_siphash(const uint64_t k[2], const void *msg, size_t len);

/* The key port @guid should hold: 0 when M_Key is off. */
uint64_t sm_mkey_wanted(const struct sm_mkeys *k, uint64_t guid);

/* The key for an SMP to node @node of @f, entering it by @port (ignored for a
 * switch). */
uint64_t sm_mkey_for(const struct sm_fabric *f, uint32_t node, uint8_t port);

/* The key for a NodeInfo probe out of @from's port @port to a node not yet known. */
uint64_t sm_mkey_probe(const struct sm_fabric *f, uint32_t from, uint8_t port);

/* Programming's M_Key phase: put the key, protect bits and lease port @p of
 * @n should hold into @want; true when the port holds something else.  False
 * when M_Key is off or @p holds no key (a switch's ports 1..N). */
bool sm_mkey_port_wanted(const struct sm_fabric *f, uint32_t n, uint8_t p,
			 struct mad_port_info *want);

/* Discovery read @pi from port @port of @node: a key-holding port showing a key
 * the SM neither set nor wants is recorded as an issue. */
void sm_mkey_check_answer(struct sm_fabric *f, uint32_t node, uint8_t port,
			  const struct mad_port_info *pi);

/* A PortInfo Set of @asked to port @port of @node was answered with @pi: a
 * key asked for and not taken makes the port one not asked again. */
void sm_mkey_set_answered(struct sm_fabric *f, uint32_t node, uint8_t port,
			  const struct mad_port_info *asked, const struct mad_port_info *pi);

/* A PortInfo Set to port @port of @node failed with @err: on a key-holding
 * port left unanswered while M_Key is on, record that its key is unknown. */
void sm_mkey_set_failed(struct sm_fabric *f, uint32_t node, uint8_t port, int err);

/* Trap 256 @n (bad M_Key) came in: log what was tried (the key itself only
 * when it is 0: a key this SM sent is a real one). */
void sm_mkey_bad_key_trap(const struct mad_notice *n);

/* Store the key of every key-holding port whose known key differs from the
 * stored one.  0 or -errno. */
int sm_mkey_store(struct db *db, const struct sm_fabric *f);

#endif

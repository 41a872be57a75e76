/* SPDX-License-Identifier: MIT */
/*
 * check_db_fixture.h - fabrics built in C for the db and smquery tests, and
 * helpers to store them and compare topologies.
 *
 * The small fabric: two switches "leaf-1" (0x0002c9030000a000, LID 1) and
 * "leaf-2" (0xf452140300116000, a GUID above 2^63, LID 2) joined by two
 * parallel 4xQDR cables (ports 7 and 8); a dual-port CA "node01 mlx5_0" on
 * leaf-1[1] and leaf-2[1]; two one-port CAs that share the description
 * "node02 mlx5_0", on leaf-1[2] and leaf-2[2].  Hosts are 4xDDR.
 */
#ifndef IBSMD_TESTS_CHECK_DB_FIXTURE_H
#define IBSMD_TESTS_CHECK_DB_FIXTURE_H

#include <stdint.h>

#include "db/db.h"
#include "mad/model/topo.h"

#define FIX_SW1 0x0002c9030000a000ULL
#define FIX_SW2 0xf452140300116000ULL
#define FIX_H1 0x0002c9030000c000ULL
#define FIX_H2 0x0002c9030000d000ULL
#define FIX_H3 0x0002c9030000e000ULL
#define FIX_TIME_MS 1767225600000LL	/* 2026-01-01 00:00:00 UTC */

/* Build the small fabric into @t (initialised here). */
void fix_small(struct topo *t);

/* A fabric of @nswitches 36-port switches in a ring, @hosts_per_switch CAs on each. */
void fix_big(struct topo *t, uint32_t nswitches, uint32_t hosts_per_switch);

/* Add a CA with one port (GUID @guid + 1, LID @lid) cabled to @sw[@port]. */
uint32_t fix_add_host(struct topo *t, uint64_t guid, const char *desc, uint16_t lid,
		      uint32_t sw, uint8_t port);

/* Open @path as writer, store @t in one heavy sweep, return the store. */
struct db *fix_store(const char *path, const struct topo *t);

/* A fresh temporary path for a store ("/tmp/ibsmd-test-XXXXXX/ibsmd.db"). */
char *fix_tmp_path(void);

/* Remove the store at @path, its WAL files and its directory; free @path. */
void fix_tmp_free(char *path);

/* Garble the root page of table @table in the (closed, checkpointed) store at
 * @path: reading that table then fails with "database disk image is malformed"
 * while the schema and the other tables still read. */
void fix_corrupt_table(const char *path, const char *table);

/* Do @a and @b hold the same nodes (by GUID), fields, ports and links? */
int fix_topo_equal(const struct topo *a, const struct topo *b, char *why, size_t len);

#endif

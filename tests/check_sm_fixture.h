/* SPDX-License-Identifier: MIT */
/*
 * check_sm_fixture.h - what the whole-sweep suites share: a fresh store per
 * test, an SM opened on a sim fabric, and checks made on the simulated
 * devices themselves (port states, LIDs, the LFTs a sweep programmed).
 */
#ifndef IBSMD_TESTS_CHECK_SM_FIXTURE_H
#define IBSMD_TESTS_CHECK_SM_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_sa.h"
#include "mad/sim/mad_sim.h"
#include "sm/core/sm.h"

/* The test's scratch directory and the store's path in it (tests may point
 * dbpath elsewhere in dbdir). */
extern char dbdir[];
extern char dbpath[256];

/* Check fixture: make dbdir (quiet log), remove it again. */
void fixture_setup(void);
void fixture_teardown(void);

/* tests/topo/@name under $top_srcdir. */
const char *topo_path(const char *name);
/* sm_open() on @backend with the defaults, dbpath, short timeouts. */
void sm_start(struct sm *sm, const char *backend);
/* sm_start() on the sim fabric @f, which stays the caller's: sm_close()
 * leaves its devices as they are, for the next SM (a restarted daemon). */
void sm_start_on(struct sm *sm, struct sim_fabric *f);
/* sm_start() on "sim:tests/topo/@file". */
void sm_start_file(struct sm *sm, const char *file);
/* The whole set-up of a suite on one swept fabric: fixture_setup(),
 * sm_start_file() and a heavy sweep that must succeed; sm_fixture_stop()
 * closes the SM and ends the fixture. */
void sm_fixture_swept(struct sm *sm, const char *file);
void sm_fixture_stop(struct sm *sm);
/* Build a 3-level radix-8 fat tree with 40 links cut (ftree then routes some
 * CA pairs on SL 1) into dbdir, and sm_start() on it routing with ftree. */
void sm_start_cut_tree(struct sm *sm);
/* sm_start() on the bundled 2-level fat tree (contrib/fabrics/fattree-2l-r8.topo),
 * routing with @engine alone (NULL: the default chain); no sweep yet. */
void sm_start_r8(struct sm *sm, const char *engine);
/* sm_start_file() on tests/topo/@file with the partitions file and QoS policy
 * file given (NULL: none), then one heavy sweep. */
void sm_start_policies(struct sm *sm, const char *file, const char *partitions,
		       const char *qos);
/* The LID of port 1 of the sim node named @name, as the SM's last sweep has it. */
uint16_t sm_port1_lid(struct sm *sm, const char *name);
/* One SA request to @sm's agent, answered from its last sweep (one MAD). */
struct mad_sa sm_sa_ask(struct sm *sm, uint8_t method, uint16_t attr, uint64_t mask,
			const uint8_t *data, size_t size);
/* The fabric behind the SM's sim transport. */
struct sim_fabric *fab(struct sm *sm);
/* The index of the simulated node named @name (the topology file's name). */
uint32_t sim_node_named(struct sm *sm, const char *name);

/* LFT entries of switch @name (the topology file's name), as programmed in
 * the device, that point at @port. */
unsigned lft_uses(struct sm *sm, const char *name, uint8_t port);
/* Follow the programmed LFTs from switch @sw to @lid; true if it is delivered. */
bool lid_reaches(struct sim_fabric *f, uint32_t sw, uint16_t lid);
/* How many events of @kind the SM's store (@db) holds. */
long events_of_kind(struct sm *sm, const char *kind);
long db_events_of_kind(struct db *db, const char *kind);

/* The store's rows for port @port of node @guid: the newest pass's deltas
 * (counters_latest) or the running totals (counters_total); how many rows
 * there were (0 or 1) and the last. */
struct port_rows {
	unsigned rows;
	struct db_port_row last;
};
struct port_rows counters_latest(struct sm *sm, uint64_t guid, uint8_t port);
struct port_rows counters_total(struct sm *sm, uint64_t guid, uint8_t port);

/* Every cabled port Active; every CA port a unique LID every switch reaches. */
void assert_subnet_up(struct sim_fabric *f);

/* The AR tables of every switch of @sm's sim fabric are the sweep's routes:
 * groups, LID states and default ports; AR and fallback routing on.  Returns
 * the LIDs bounded to a group, summed over the switches. */
unsigned assert_ar_tables_match(struct sm *sm);
/* The store's AR record of every switch is what @sm's routes give it (groups
 * up to the record's top, which a patch leaves as it was). */
void assert_ar_stored(struct sm *sm);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_sa_store.h - the SA's ServiceRecords and InformInfo subscriptions kept
 * in the store (db_sa.c), so that a restarted SM still has them.
 */
#ifndef IBSMD_SM_SA_STORE_H
#define IBSMD_SM_SA_STORE_H

struct sm;

/* The tables are rewritten at most this often, and tried again this long
 * after a moment when a worker held the store. */
#define SM_SA_STORE_EVERY_MS 1000
#define SM_SA_STORE_RETRY_MS 200

/* Read the stored registrations back into sm->sa->services and
 * sm->sa->informs (after the store opens, before the SA answers): leases
 * that ran out meanwhile are dropped, a row no Set could have made is
 * skipped, each with a log line.  0 or -errno (logged; the SA starts empty). */
int sm_sa_store_load(struct sm *sm);

/* The registrations changed: have the store follow, from the loop's timer
 * (at most every SM_SA_STORE_EVERY_MS, never waiting for db_mu), or at once
 * when there is no loop and the store is free. */
void sm_sa_store_due(struct sm *sm);

/* The loop now runs: the lease timer for what sm_sa_store_load() read, and
 * the store's timer for what is still due. */
void sm_sa_store_start(struct sm *sm);

/* Write what is still due, waiting for the store if need be (closing). */
void sm_sa_store_flush(struct sm *sm);

#endif

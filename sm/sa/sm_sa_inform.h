/* SPDX-License-Identifier: MIT */
/*
 * sm_sa_inform.h - trap subscriptions (InformInfo Set, IBA 13.4.8.3, 15.2.5)
 * and the Reports the SM sends their subscribers: traps 64 and 65 (a port's
 * GID in and out of service) and 128 (a switch's link state changed), found
 * by comparing each heavy sweep's fabric with the last one.
 */
#ifndef IBSMD_SM_SA_INFORM_H
#define IBSMD_SM_SA_INFORM_H

#include <stddef.h>
#include <stdint.h>

#include "mad/mad_sa.h"
#include "mad/mad_smp.h"

#define SM_SA_MAX_INFORMS 1024	/* subscriptions kept at most */
/* and at most this many per subscriber port (the SM's own, LID 0, uncounted),
 * so one host cannot fill the table for all */
#define SM_SA_MAX_INFORMS_PER_PORT 32
#define SM_SA_MAX_REPORTS 1024	/* Reports awaiting their ReportResp */
#define SM_SA_REPORT_RETRY_MS 1000
#define SM_SA_REPORT_TRIES 3

#define SM_TRAP_GID_IN_SERVICE 64
#define SM_TRAP_GID_OUT_OF_SERVICE 65

struct sm_sa_inform {
	struct mad_sa_inform_info ii;
	uint16_t lid;		/* the subscriber's LID: Reports go there, to ii.qpn */
};

/* A Report sent, awaiting its ReportResp. */
struct sm_sa_report {
	uint8_t mad[MAD_BLOCK_SIZE];
	uint16_t lid;
	uint32_t qpn;
	unsigned tries;
	uint64_t due_ms;	/* when to send it again */
};

struct sm_sa_informs {
	struct sm_sa_inform *v;
	size_t n, cap;
	struct sm_sa_report *pending;
	size_t npending, pending_cap;
	uint64_t tid;		/* the last Report's TID */
	uint64_t reports, acked, given_up;	/* counts */
};

void sm_sa_informs_free(struct sm_sa_informs *s);
/* Add @e as read back from the store (sm_sa_store.c), under the rules a Set
 * follows: 0, -EINVAL (what no Set takes), -EEXIST (the same subscription
 * already there), -ENOSPC (the table or its port's share full; no memory). */
int sm_sa_inform_restore(struct sm_sa_informs *s, const struct sm_sa_inform *e);

struct sm;
struct sm_fabric;

/* After a heavy sweep of @now following @before (MASTER only, with
 * subscribers): Reports of traps 64, 65 and 128 to every subscriber
 * whose subscription matches. */
void sm_sa_report_changes(struct sm *sm, const struct sm_fabric *before,
			  const struct sm_fabric *now);

/* A ReportResp (@mad, from the rpc layer): its Report is through. */
void sm_sa_report_resp(struct sm *sm, const uint8_t mad[MAD_BLOCK_SIZE]);

/* Send again the Reports due by @now_ms, give up after SM_SA_REPORT_TRIES;
 * the time the next one falls due, or UINT64_MAX. */
uint64_t sm_sa_reports_retry(struct sm *sm, uint64_t now_ms);

#endif

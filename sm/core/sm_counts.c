// SPDX-License-Identifier: MIT
/*
 * sm_counts.c - what the stages are measured and reported by: an SMP's
 * failure as text, the rpc layer's counters since the SM started, and the
 * metrics file written from the store.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sm/core/sm.h"
#include "sm/util/sm_log.h"

const char *sm_smp_error(int err, const struct mad_smp *resp, char *buf, size_t len)
{
	if (err == -ETIMEDOUT)
		snprintf(buf, len, "no answer");
	else if (err == -EREMOTEIO && resp)
		snprintf(buf, len, "MAD status 0x%04x", resp->status);
	else
		snprintf(buf, len, "%s", strerror(-err));
	return buf;
}

void sm_rpc_stats_add(struct mad_rpc_stats *sum, const struct mad_rpc_stats *st)
{
	sum->sent += st->sent;
	sum->answered += st->answered;
	sum->timeouts += st->timeouts;
	sum->retries += st->retries;
	sum->errors += st->errors;
	sum->malformed += st->malformed;
	sum->unsolicited += st->unsolicited;
	sum->window_cuts += st->window_cuts;
	sum->window = st->window;	/* a gauge: the latest */
}

void sm_rpc_stats(const struct sm *sm, struct mad_rpc_stats *st)
{
	*st = sm->rpc_base;
	if (sm->rpc) {
		struct mad_rpc_stats now;
		mad_rpc_get_stats(sm->rpc, &now);
		sm_rpc_stats_add(st, &now);
	}
}

uint64_t sm_smps_sent(const struct sm *sm)
{
	struct mad_rpc_stats st;

	sm_rpc_stats(sm, &st);
	return st.sent;
}

struct db_smp_counts sm_smps_since(const struct sm *sm, const struct mad_rpc_stats *since)
{
	struct mad_rpc_stats now;

	sm_rpc_stats(sm, &now);
	return (struct db_smp_counts){
		.sent = now.sent - since->sent,
		.lost = now.timeouts - since->timeouts,
		.retried = now.retries - since->retries,
	};
}

// SPDX-License-Identifier: MIT
/*
 * sm.c - the daemon's life cycle: open the store, the transport and the rpc
 * layer from the configuration, and close them again; the clock and counter
 * the sweep stages are measured with.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sm/sm.h"
#include "sm/sm_log.h"
#include "sm/sm_mad_in.h"

int sm_open(struct sm *sm)
{
	char err[512];
	int rc;

	rc = db_open(sm->cfg.db_path, DB_WRITER, &sm->db, err, sizeof(err));
	if (rc) {
		sm_err("cannot open the store: %s", err);
		return rc;
	}
	rc = mad_transport_open(sm->cfg.backend, &sm->t, err, sizeof(err));
	if (rc) {
		sm_err("cannot open backend %s: %s", sm->cfg.backend, err);
		return rc;
	}
	struct mad_rpc_opts ro = { .window = sm->cfg.window, .per_node = sm->cfg.smps_per_node,
				   .timeout_ms = sm->cfg.timeout_ms, .retries = sm->cfg.retries };
	sm->rpc = mad_rpc_new(sm->t, &ro);
	if (!sm->rpc) {
		sm_err("cannot set up the MAD layer: %s", strerror(errno));
		return -errno;
	}
	mad_rpc_set_unsolicited(sm->rpc, sm_mad_in, sm);
	return 0;
}

void sm_close(struct sm *sm)
{
	if (sm->have_fabric)
		sm_fabric_free(&sm->fabric);
	mad_rpc_free(sm->rpc);
	mad_transport_close(sm->t);
	db_close(sm->db);
}

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

uint64_t sm_smps_sent(const struct sm *sm)
{
	struct mad_rpc_stats st;

	mad_rpc_get_stats(sm->rpc, &st);
	return st.sent;
}

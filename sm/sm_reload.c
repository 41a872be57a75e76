// SPDX-License-Identifier: MIT
/*
 * sm_reload.c - apply a re-read configuration (see sm_reload.h).
 *
 * One table of keys says, per key, how to compare the old and new values and
 * whether the key may change live; the apply step copies the live ones and
 * acts on what changed.
 */
#include <stdio.h>
#include <string.h>

#include "sm/sm_log.h"
#include "sm/sm_reload.h"
#include "sm/sm_state.h"

#define FIELD(f) offsetof(struct sm_config, f), sizeof(((struct sm_config *)0)->f)

static const struct key {
	const char *name;
	size_t off, size;
	unsigned live;		/* SM_RELOAD_* to act on, 0: needs a restart */
} keys[] = {
	{ "routing", FIELD(routing), SM_RELOAD_ROUTING },
	{ "routing", FIELD(nrouting), SM_RELOAD_ROUTING },
	{ "routing_options", FIELD(routing_options), SM_RELOAD_ROUTING },
	{ "routing_options", FIELD(nrouting_options), SM_RELOAD_ROUTING },
	{ "sweep.interval", FIELD(sweep_interval_s), SM_RELOAD_SWEEP_INTERVAL },
	{ "sweep.window", FIELD(window), SM_RELOAD_RPC },
	{ "sweep.timeout_ms", FIELD(timeout_ms), SM_RELOAD_RPC },
	{ "sweep.retries", FIELD(retries), SM_RELOAD_RPC },
	{ "log.level", FIELD(log_level), ~0u },
	{ "sm_priority", FIELD(sm_priority), ~0u },
	{ "backend", FIELD(backend), 0 },
	{ "db", FIELD(db_path), 0 },
	{ "socket", FIELD(socket_path), 0 },
	{ "log.file", FIELD(log_file), 0 },
	{ "lmc", FIELD(lmc), 0 },
	{ "subnet_prefix", FIELD(subnet_prefix), 0 },
};

unsigned sm_reload_apply(struct sm *sm, const struct sm_config *nc)
{
	unsigned acts = 0, changed = 0, restart = 0;
	const char *last = "";

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct key *k = &keys[i];
		char *cur = (char *)&sm->cfg + k->off;
		const char *neu = (const char *)nc + k->off;
		if (memcmp(cur, neu, k->size) == 0)
			continue;
		bool again = strcmp(last, k->name) == 0;	/* a key of two fields */
		last = k->name;
		if (!k->live) {
			if (!again)
				sm_warn("SIGHUP: '%s' changed: it takes effect at the next restart",
					k->name);
			restart++;
			continue;
		}
		memcpy(cur, neu, k->size);
		acts |= k->live;
		if (!again) {
			sm_notice("SIGHUP: '%s' changed: in effect now", k->name);
			changed++;
		}
	}
	sm_log_set_level(sm->cfg.log_level);
	if ((acts & SM_RELOAD_RPC) && sm->rpc && sm_rpc_renew(sm)) {
		sm_err("SIGHUP: the new SMP window could not be set up; the old one is kept");
		acts &= ~(unsigned)SM_RELOAD_RPC;
	}
	if (acts & SM_RELOAD_ROUTING)
		sm_sweep_due(sm, "the routing configuration changed");
	sm_notice("SIGHUP: configuration re-read: %u keys changed live, %u need a restart",
		  changed, restart);
	return acts & (SM_RELOAD_SWEEP_INTERVAL | SM_RELOAD_RPC | SM_RELOAD_ROUTING);
}

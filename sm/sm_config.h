/* SPDX-License-Identifier: MIT */
/*
 * sm_config.h - ibsmd.yaml: what the daemon is told to do.
 *
 * Defaults first, then the YAML file, then the command line: each later source
 * overrides the earlier.  Unknown keys and values of the wrong type are errors
 * with the file name and line, so a typo never passes silently.
 */
#ifndef IBSMD_SM_CONFIG_H
#define IBSMD_SM_CONFIG_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define SM_MAX_ENGINES 8
#define SM_MAX_ROUTING_OPTIONS 16
#define SM_PATH_LEN 512

struct sm_config {
	char backend[SM_PATH_LEN];	/* "umad[:CA[:PORT]]" or "sim:FILE" */
	char db_path[SM_PATH_LEN];
	char log_file[SM_PATH_LEN];	/* "" = stderr */
	char socket_path[SM_PATH_LEN];	/* control socket, "" = none */
	int log_level;			/* syslog priority */
	char routing[SM_MAX_ENGINES][32];	/* engine chain */
	unsigned nrouting;
	/* "key=value" options handed to every engine (root=GUID, file=PATH...) */
	char routing_options[SM_MAX_ROUTING_OPTIONS][SM_PATH_LEN];
	unsigned nrouting_options;
	unsigned window;		/* SMPs in flight */
	unsigned smps_per_node;		/* of which to one node */
	unsigned timeout_ms;
	unsigned retries;
	unsigned sweep_interval_s;	/* light sweeps; 0 = traps only */
	uint8_t lmc;
	uint8_t sm_priority;		/* 0..15 */
	uint64_t subnet_prefix;
};

/* Fill @c with the built-in defaults. */
void sm_config_defaults(struct sm_config *c);

/*
 * Read @path into @c (over what it holds).  0, or -errno with "FILE:LINE: reason"
 * in @err: -ENOENT for a missing file, -EINVAL for a bad one.  @c is unchanged
 * on error.
 */
int sm_config_load(struct sm_config *c, const char *path, char *err, size_t errlen);

/* The same from an open stream; @name is used in messages. */
int sm_config_parse(struct sm_config *c, FILE *in, const char *name, char *err,
		    size_t errlen);

/* Parse "a,b,c" into the routing chain.  0 or -EINVAL with a reason. */
int sm_config_set_routing(struct sm_config *c, const char *list, char *err, size_t errlen);

#endif

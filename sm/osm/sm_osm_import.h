/* SPDX-License-Identifier: MIT */
/*
 * sm_osm_import.h - `ibsmd --import-opensm FILE`: an OpenSM file converted
 * into an ibsmd.yaml.
 *
 * A converter reads one kind of OpenSM file into a struct sm_osm_import:
 * ibsmd's keys it sets, each noted with the OpenSM line it came from, and
 * what it could not carry over (a key without a counterpart, a key unknown to
 * OpenSM, a key left at OpenSM's default where ibsmd does the same).
 * sm_osm_import.c picks the converter by the file's content, then writes the
 * YAML (the keys set, then the rest as comments) or, when the file held an
 * error, nothing but the errors.  Two converters: opensm.conf into an
 * ibsmd.yaml (sm_osm_conf.c), and a qos-policy.conf, with the qos_* keys of
 * an opensm.conf given beside it, into the QoS policy file ibsmd's
 * qos_policy names (sm_osm_qos.c).
 */
#ifndef IBSMD_SM_OSM_IMPORT_H
#define IBSMD_SM_OSM_IMPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "sm/core/sm_config.h"

#define SM_OSM_MAX_FILE_BYTES (4 << 20)	/* a larger file is refused */
#define SM_OSM_MAX_LINE 4096		/* and a longer line */

struct sm_osm_import {
	struct sm_config cfg;	/* ibsmd's defaults, then what the converters set */
	char **from;		/* per ibsmd key (sm_config_key_index()): where its value
				 * came from ("opensm.conf:12: lmc 2"), NULL: not set */
	FILE *missing;		/* comment lines: keys without a counterpart */
	FILE *unknown;		/* comment lines: keys OpenSM does not have */
	FILE *at_default;	/* "KEY, KEY, ": at OpenSM's default, nothing to carry */
	char *missing_buf, *unknown_buf, *at_default_buf;
	size_t missing_len, unknown_len, at_default_len;
	unsigned set, nmissing, nunknown, errors;
	FILE *diag;		/* "ibsmd: FILE:LINE: ..." errors and warnings */
	const char *file;	/* the file at hand and its line, for messages */
	unsigned line;
};

/* @im made empty (ibsmd's defaults), telling @diag.  0 or -ENOMEM. */
int sm_osm_import_init(struct sm_osm_import *im, FILE *diag);
void sm_osm_import_free(struct sm_osm_import *im);

/* Set ibsmd's @key to @value from the line at hand, noted "FILE:LINE: @what";
 * a value ibsmd refuses is an error (counted, told).  0 or -EINVAL. */
int sm_osm_import_set(struct sm_osm_import *im, const char *key, const char *value,
		      const char *what);
/* Forget what ibsmd's @key was set from (an OpenSM key given again). */
void sm_osm_import_forget(struct sm_osm_import *im, const char *key);
/* @key @value of the line at hand has no counterpart in ibsmd: @why, listed
 * in the output and told as a warning. */
void sm_osm_import_missing(struct sm_osm_import *im, const char *key, const char *value,
			   const char *why);
/* @key of the line at hand is at OpenSM's default, and ibsmd does the same or
 * has nothing to set: listed by name. */
void sm_osm_import_at_default(struct sm_osm_import *im, const char *key);
/* @key @value is no key of the file's kind: listed and told as a warning. */
void sm_osm_import_unknown(struct sm_osm_import *im, const char *key, const char *value);
/* An error at the line at hand (counted, told): no YAML is written. */
void sm_osm_import_error(struct sm_osm_import *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sm_osm_import_warn(struct sm_osm_import *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Each line of @in (one of @kind, for messages) to @fn, im->line counting:
 * a line longer than SM_OSM_MAX_LINE, a control character or a NUL byte, a
 * read error are errors, and the reading stops. */
void sm_osm_import_lines(struct sm_osm_import *im, FILE *in, const char *kind,
			 void (*fn)(void *arg, char *line), void *arg);

/* opensm.conf, as `opensm -c` writes it (sm_osm_conf.c). */
bool sm_osm_conf_is(FILE *in);
void sm_osm_conf_convert(struct sm_osm_import *im, FILE *in);
/* "KEY VALUE" of an opensm.conf line (cut in place); false for a blank or
 * comment line. */
bool sm_osm_conf_split(char *line, char **key, char **val);

/* A qos-policy.conf (sm_osm_qos.c): its first keyword opens a section. */
bool sm_osm_qos_is(FILE *in);
/* @in (named @name) and the qos_* keys of opensm.conf @conf (named
 * @conf_name; NULL: none, OpenSM's default tables) as ibsmd's QoS policy
 * YAML on @out.  0 written, 1 errors (told on @diag, nothing on @out). */
int sm_osm_qos_import(FILE *in, const char *name, FILE *conf, const char *conf_name, FILE *out,
		      FILE *diag);

/*
 * The command: convert @paths (@n of them: one OpenSM file, or a
 * qos-policy.conf and the opensm.conf whose qos_* keys give its tables),
 * writing the YAML to @out and warnings and errors to @diag.  0 when it is
 * written (warnings or not), 1 when a file held errors or the files are not
 * what ibsmd converts (nothing on @out).
 */
int sm_osm_import(const char *const *paths, size_t n, FILE *out, FILE *diag);
/* The same from an open, seekable stream; @name names it in messages. */
int sm_osm_import_stream(FILE *in, const char *name, FILE *out, FILE *diag);

#endif

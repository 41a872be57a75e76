/* SPDX-License-Identifier: MIT */
/*
 * sm_yaml.h - a YAML file the daemon reads (ibsmd.yaml, the partitions file)
 * given to libyaml within two bounds libyaml lacks.
 *
 * Nesting: libyaml's scanner takes time quadratic in the depth of nested
 * collections (a 120 KB "partitions: [[[..." took 55 s).  Before the
 * document is built, one pass over the file's events refuses a collection
 * nested deeper than SM_YAML_MAX_DEPTH, as soon as it opens: the pass ends
 * within the first kilobytes of such a file.  The daemon's own files need
 * four levels.
 *
 * Stopping: the daemon blocks SIGTERM and SIGINT (its loop takes them
 * through a signalfd), so a file read before the loop runs (at start, for
 * --check-config) would hold them.  The input is read through a handler
 * that stops the read, as a read error, when either is pending: a huge file
 * never keeps ibsmd from ending.
 */
#ifndef IBSMD_SM_YAML_H
#define IBSMD_SM_YAML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <yaml.h>

#define SM_YAML_MAX_DEPTH 32

/* What a parser reads: the file, and whether a stop signal ended the read. */
struct sm_yaml_source {
	FILE *in;
	bool stopped;
};

/*
 * Check @src->in's nesting, rewind it, and point the initialised @parser at
 * it through the stopping handler (@src must outlive the parser).  0, or
 * -EINVAL with "NAME:LINE:COLUMN: collections nested deeper than 32 levels"
 * in @err, -ECANCELED "NAME: not read: ibsmd is stopping (SIGTERM or
 * SIGINT)", -EIO when the file cannot be read again from its start.  A file
 * that is not YAML passes: the document's load says where.
 */
int sm_yaml_input(yaml_parser_t *parser, struct sm_yaml_source *src, const char *name,
		  char *err, size_t errlen);

/* Why @parser failed, into @err as "NAME:LINE:COLUMN: problem" (or the stop
 * of sm_yaml_input()).  -EINVAL, or -ECANCELED when a stop signal ended
 * the read. */
int sm_yaml_fail(const yaml_parser_t *parser, const struct sm_yaml_source *src,
		 const char *name, char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sm_ydoc.h - reading a YAML document the daemon checks whole (the partitions
 * file, the QoS policy): libyaml's document API over sm_yaml.h's bounded
 * input, errors as FILE:LINE:COLUMN, numbers as the configuration writes them
 * (decimal or 0x hex, no octal).
 */
#ifndef IBSMD_SM_YDOC_H
#define IBSMD_SM_YDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <yaml.h>

struct sm_ydoc {
	yaml_document_t *doc;
	const char *path;	/* named in every error */
	char *err;
	size_t errlen;
};

/* Write "PATH:LINE:COLUMN: " and the message into y->err; -EINVAL. */
int sm_ydoc_fail(struct sm_ydoc *y, const yaml_node_t *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline yaml_node_t *sm_ydoc_node(const struct sm_ydoc *y, int id)
{
	return yaml_document_get_node(y->doc, id);
}

/* The text of a scalar node, NULL for a mapping or a sequence. */
static inline const char *sm_ydoc_scalar(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A whole number in decimal or 0x hex, up to @max; @key names it in errors. */
int sm_ydoc_number(struct sm_ydoc *y, const yaml_node_t *v, const char *key, uint64_t max,
		   uint64_t *out);

/* yes/true/on or no/false/off. */
int sm_ydoc_bool(struct sm_ydoc *y, const yaml_node_t *v, const char *key, bool *out);

/* The mapping @map's keys are plain and unique: the first repeated one is an
 * error naming @what. */
int sm_ydoc_unique_keys(struct sm_ydoc *y, const yaml_node_t *map, const char *what);

/* Parse @in (named @y->path) and call @top with its root node (NULL: an empty
 * file) while the document lives; a file that is not YAML, nests too deep or
 * is cut short by a stop signal is an error (sm_yaml.h). */
int sm_ydoc_read(FILE *in, struct sm_ydoc *y,
		 int (*top)(void *arg, const yaml_node_t *root), void *arg);

#endif

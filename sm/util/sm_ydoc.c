// SPDX-License-Identifier: MIT
/*
 * sm_ydoc.c - the common ground of the YAML files the daemon checks whole:
 * loading the document, errors at FILE:LINE:COLUMN, numbers, yes/no and
 * unique keys, over sm_yaml.c's bounded input.  What each file means is its
 * reader's (sm/sa/sm_pkey_file.c, sm/sa/sm_qos_file.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sm/util/sm_yaml.h"
#include "sm/util/sm_ydoc.h"

int sm_ydoc_fail(struct sm_ydoc *y, const yaml_node_t *at, const char *fmt, ...)
{
	int n = snprintf(y->err, y->errlen, "%s:%lu:%lu: ", y->path,
			 (unsigned long)at->start_mark.line + 1,
			 (unsigned long)at->start_mark.column + 1);
	va_list ap;

	if (n >= 0 && (size_t)n < y->errlen) {
		va_start(ap, fmt);
		vsnprintf(y->err + n, y->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int sm_ydoc_number(struct sm_ydoc *y, const yaml_node_t *v, const char *key, uint64_t max,
		   uint64_t *out)
{
	const char *s = sm_ydoc_scalar(v);
	char *end;

	if (!s || !s[0])
		return sm_ydoc_fail(y, v, "%s: expected a number", key);
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	if (!digits[0] || strspn(digits, hex ? "0123456789abcdefABCDEF" : "0123456789") !=
	    strlen(digits) || (!hex && s[0] == '0' && s[1]))
		return sm_ydoc_fail(y, v, "%s: '%.32s' is not a number (decimal, or hex as 0x...)",
				    key, s);
	errno = 0;
	unsigned long long x = strtoull(digits, &end, hex ? 16 : 10);
	if (errno || x > max)
		return sm_ydoc_fail(y, v, "%s: %.32s is out of range (at most 0x%llx)", key, s,
				    (unsigned long long)max);
	*out = x;
	return 0;
}

int sm_ydoc_bool(struct sm_ydoc *y, const yaml_node_t *v, const char *key, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on" };
	static const char *const no[] = { "no", "false", "off" };
	const char *s = sm_ydoc_scalar(v);

	for (size_t i = 0; s && i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return *out = true, 0;
		if (strcasecmp(s, no[i]) == 0)
			return *out = false, 0;
	}
	return sm_ydoc_fail(y, v, "%s: expected yes or no", key);
}

int sm_ydoc_unique_keys(struct sm_ydoc *y, const yaml_node_t *map, const char *what)
{
	for (yaml_node_pair_t *a = map->data.mapping.pairs.start;
	     a < map->data.mapping.pairs.top; a++) {
		const yaml_node_t *ka = sm_ydoc_node(y, a->key);
		if (!sm_ydoc_scalar(ka))
			return sm_ydoc_fail(y, ka, "%s: keys must be plain names", what);
		for (yaml_node_pair_t *b = map->data.mapping.pairs.start; b < a; b++) {
			const yaml_node_t *kb = sm_ydoc_node(y, b->key);
			if (strcmp(sm_ydoc_scalar(ka), sm_ydoc_scalar(kb)) == 0)
				return sm_ydoc_fail(y, ka, "%s: '%.64s' given twice (first at line %lu)",
						    what, sm_ydoc_scalar(ka),
						    (unsigned long)kb->start_mark.line + 1);
		}
	}
	return 0;
}

int sm_ydoc_read(FILE *in, struct sm_ydoc *y,
		 int (*top)(void *arg, const yaml_node_t *root), void *arg)
{
	struct sm_yaml_source src = { .in = in };
	yaml_parser_t parser;
	yaml_document_t doc;
	int rc;

	yaml_parser_initialize(&parser);
	rc = sm_yaml_input(&parser, &src, y->path, y->err, y->errlen);	/* too deep, stopping */
	if (!rc && !yaml_parser_load(&parser, &doc)) {
		rc = sm_yaml_fail(&parser, &src, y->path, y->err, y->errlen);
	} else if (!rc) {
		y->doc = &doc;
		rc = top(arg, yaml_document_get_root_node(&doc));
		y->doc = NULL;
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&parser);
	return rc;
}

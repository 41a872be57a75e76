// SPDX-License-Identifier: MIT
/*
 * sm_yaml.c - a YAML file given to libyaml within a nesting bound and a stop
 * signal (see sm_yaml.h): a first pass over the events counts the depth of
 * open collections and gives up at the first one too deep; both passes read
 * through a handler that looks for a pending SIGTERM or SIGINT before each
 * block libyaml asks for.
 */
#include <errno.h>
#include <signal.h>

#include "sm/util/sm_yaml.h"

static bool stop_pending(void)
{
	sigset_t set;

	return sigpending(&set) == 0 && (sigismember(&set, SIGTERM) == 1 ||
					 sigismember(&set, SIGINT) == 1);
}

static int read_input(void *data, unsigned char *buf, size_t size, size_t *got)
{
	struct sm_yaml_source *src = data;

	*got = 0;
	if (stop_pending()) {
		src->stopped = true;
		return 0;	/* libyaml's "input error": the load ends */
	}
	*got = fread(buf, 1, size, src->in);
	return !ferror(src->in);
}

static int stopped(const char *name, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: not read: ibsmd is stopping (SIGTERM or SIGINT)", name);
	return -ECANCELED;
}

/* The depth of the deepest collection, as far as the first one deeper than
 * SM_YAML_MAX_DEPTH (its mark in *@at); a file that is not YAML ends the
 * pass where libyaml stops. */
static unsigned deepest(struct sm_yaml_source *src, yaml_mark_t *at)
{
	yaml_parser_t p;
	yaml_event_t e;
	unsigned depth = 0, max = 0;
	bool end = false;

	yaml_parser_initialize(&p);
	yaml_parser_set_input(&p, read_input, src);
	while (!end && max <= SM_YAML_MAX_DEPTH && yaml_parser_parse(&p, &e)) {
		if (e.type == YAML_SEQUENCE_START_EVENT || e.type == YAML_MAPPING_START_EVENT) {
			if (++depth > max)
				max = depth;
			*at = e.start_mark;
		} else if (e.type == YAML_SEQUENCE_END_EVENT || e.type == YAML_MAPPING_END_EVENT) {
			depth--;
		}
		end = e.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&e);
	}
	yaml_parser_delete(&p);
	return max;
}

int sm_yaml_input(yaml_parser_t *parser, struct sm_yaml_source *src, const char *name,
		  char *err, size_t errlen)
{
	yaml_mark_t at = { 0 };

	src->stopped = false;
	if (deepest(src, &at) > SM_YAML_MAX_DEPTH) {
		snprintf(err, errlen, "%s:%lu:%lu: collections nested deeper than %d levels", name,
			 (unsigned long)at.line + 1, (unsigned long)at.column + 1,
			 SM_YAML_MAX_DEPTH);
		return -EINVAL;
	}
	if (src->stopped)
		return stopped(name, err, errlen);
	if (fseek(src->in, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: cannot read it again from its start", name);
		return -EIO;
	}
	clearerr(src->in);
	yaml_parser_set_input(parser, read_input, src);
	return 0;
}

int sm_yaml_fail(const yaml_parser_t *parser, const struct sm_yaml_source *src,
		 const char *name, char *err, size_t errlen)
{
	if (src->stopped)
		return stopped(name, err, errlen);
	snprintf(err, errlen, "%s:%lu:%lu: %s", name, (unsigned long)parser->problem_mark.line + 1,
		 (unsigned long)parser->problem_mark.column + 1,
		 parser->problem ? parser->problem : "not valid YAML");
	return -EINVAL;
}

// SPDX-License-Identifier: MIT
/*
 * sm_osm_import.c - `ibsmd --import-opensm FILE`: the converter picked by the
 * file's content, what it gathers, and the YAML written (see sm_osm_import.h).
 *
 * Output: a header saying where it came from, the ibsmd keys set (each under
 * the OpenSM line it came from, in ibsmd.yaml's syntax, secrets in full: it
 * is a file to install), then as comments the OpenSM keys without a
 * counterpart with the reason, the keys unknown to OpenSM, and the keys left
 * at OpenSM's default that need nothing.  What goes into a comment is
 * printable ASCII; other bytes are written \xNN, so the output always reads
 * as YAML.  Warnings and errors go to @diag as "ibsmd: FILE:LINE: ...".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "mad/model/topo_text.h"
#include "sm/osm/sm_osm_import.h"
#include "sm/util/sm_file.h"

/* The converters, by the kind of file each reads. */
static const struct {
	const char *what;
	bool (*is)(FILE *in);		/* @in is its kind (rewound after) */
	void (*convert)(struct sm_osm_import *im, FILE *in);
} converters[] = {
	{ "opensm.conf", sm_osm_conf_is, sm_osm_conf_convert },
};

#define NCONVERTERS (sizeof(converters) / sizeof(converters[0]))

int sm_osm_import_init(struct sm_osm_import *im, FILE *diag)
{
	memset(im, 0, sizeof(*im));
	sm_config_defaults(&im->cfg);
	im->diag = diag;
	im->from = calloc(sm_config_nkeys(), sizeof(*im->from));
	im->missing = open_memstream(&im->missing_buf, &im->missing_len);
	im->unknown = open_memstream(&im->unknown_buf, &im->unknown_len);
	im->at_default = open_memstream(&im->at_default_buf, &im->at_default_len);
	if (!im->from || !im->missing || !im->unknown || !im->at_default) {
		sm_osm_import_free(im);
		return -ENOMEM;
	}
	return 0;
}

void sm_osm_import_free(struct sm_osm_import *im)
{
	for (size_t i = 0; im->from && i < sm_config_nkeys(); i++)
		free(im->from[i]);
	free(im->from);
	FILE *const streams[] = { im->missing, im->unknown, im->at_default };
	for (size_t i = 0; i < 3; i++)
		if (streams[i])
			fclose(streams[i]);
	free(im->missing_buf);
	free(im->unknown_buf);
	free(im->at_default_buf);
	memset(im, 0, sizeof(*im));
}

/* @s into a comment: printable ASCII as it is, other bytes as \xNN. */
static void comment_text(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p >= 0x20 && *p < 0x7f && *p != '\\')
			fputc(*p, out);
		else
			fprintf(out, "\\x%02x", *p);
}

static void tell(struct sm_osm_import *im, const char *kind, const char *fmt, va_list ap)
{
	fprintf(im->diag, "ibsmd: %s:%u: %s", im->file, im->line, kind);
	vfprintf(im->diag, fmt, ap);
	fputc('\n', im->diag);
}

void sm_osm_import_error(struct sm_osm_import *im, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tell(im, "", fmt, ap);
	va_end(ap);
	im->errors++;
}

void sm_osm_import_warn(struct sm_osm_import *im, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tell(im, "warning: ", fmt, ap);
	va_end(ap);
}

int sm_osm_import_set(struct sm_osm_import *im, const char *key, const char *value,
		      const char *what)
{
	char why[512], *note = NULL;
	size_t i = sm_config_key_index(key);

	if (i == SIZE_MAX || sm_config_set(&im->cfg, key, value, why, sizeof(why))) {
		/* the OpenSM key, and ibsmd's reason, which echoes no secret */
		sm_osm_import_error(im, "%.*s, as %s", (int)strcspn(what, " "), what,
				    i == SIZE_MAX ? "no such ibsmd key" : why);
		return -EINVAL;
	}
	/* a second OpenSM line for the same key (perfmgr and its interval) adds */
	const char *prev = im->from[i];
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);
	if (f) {
		if (prev)
			fprintf(f, "%s; ", prev);
		fprintf(f, "%s:%u: ", im->file, im->line);
		comment_text(f, what);
		if (fclose(f) == 0)
			note = mem;
	}
	if (!note) {
		sm_osm_import_error(im, "out of memory");
		free(mem);
		return -ENOMEM;
	}
	free(im->from[i]);
	im->from[i] = note;
	im->set += !prev;
	return 0;
}

void sm_osm_import_forget(struct sm_osm_import *im, const char *key)
{
	size_t i = sm_config_key_index(key);

	if (i == SIZE_MAX || !im->from[i])
		return;
	free(im->from[i]);
	im->from[i] = NULL;
	im->set--;
}

void sm_osm_import_missing(struct sm_osm_import *im, const char *key, const char *value,
			   const char *why)
{
	fprintf(im->missing, "#   %s:%u: ", im->file, im->line);
	comment_text(im->missing, key);
	fputc(' ', im->missing);
	comment_text(im->missing, value);
	fputs(": ", im->missing);
	comment_text(im->missing, why);
	fputc('\n', im->missing);
	im->nmissing++;
	char shown[TOPO_TEXT_VALUE_SIZE];
	sm_osm_import_warn(im, "%s %s: no counterpart in ibsmd (%s)", key,
			   topo_text_value(shown, value), why);
}

void sm_osm_import_at_default(struct sm_osm_import *im, const char *key)
{
	comment_text(im->at_default, key);
	fputs(", ", im->at_default);
}

void sm_osm_import_unknown(struct sm_osm_import *im, const char *key, const char *value)
{
	fprintf(im->unknown, "#   %s:%u: ", im->file, im->line);
	comment_text(im->unknown, key);
	fputc(' ', im->unknown);
	comment_text(im->unknown, value);
	fputc('\n', im->unknown);
	im->nunknown++;
	char tok[TOPO_TEXT_TOKEN_SIZE];
	sm_osm_import_warn(im, "'%s' is no key of OpenSM 3.3: left out", topo_text_token(tok, key));
}

/* "a, b, c, " as comment lines of at most 78 columns. */
static void write_names(FILE *out, const char *names)
{
	size_t col = 0;

	while (*names) {
		size_t w = strcspn(names, ",");
		bool last = !names[w] || !names[w + 1] || !names[w + 2];
		if (col && col + w + 2 > 78) {
			fputs(",\n", out);
			col = 0;
		} else if (col) {
			col += (size_t)fprintf(out, ", ");
		}
		col += (size_t)fprintf(out, "%s%.*s", col ? "" : "#   ", (int)w, names);
		names += names[w] ? w + 2 : w;
		if (last)
			break;
	}
	if (col)
		fputc('\n', out);
}

static int write_yaml(struct sm_osm_import *im, FILE *out, const char *path, const char *what)
{
	fflush(im->missing);
	fflush(im->unknown);
	fflush(im->at_default);
	fprintf(out, "# ibsmd.yaml converted from OpenSM's %s ", what);
	comment_text(out, path);
	fprintf(out, "\n# by `ibsmd --import-opensm` (ibsmd %s).  Each key is under the "
		"OpenSM line it\n# came from; check it with `ibsmd --check-config -c FILE`.\n",
		PACKAGE_VERSION);
	if (sm_config_write_keys(&im->cfg, out, (const char *const *)im->from))
		return -EIO;
	if (im->nmissing)
		fprintf(out, "\n# OpenSM keys ibsmd has no counterpart for (not carried over):\n%s",
			im->missing_buf);
	if (im->nunknown)
		fprintf(out, "\n# Keys OpenSM 3.3 does not have (left out):\n%s", im->unknown_buf);
	if (im->at_default_len) {
		fputs("\n# At OpenSM's default, where ibsmd needs nothing set:\n", out);
		write_names(out, im->at_default_buf);
	}
	fflush(out);
	return ferror(out) ? -EIO : 0;
}

void sm_osm_import_lines(struct sm_osm_import *im, FILE *in, const char *kind,
			 void (*fn)(void *arg, char *line), void *arg)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&buf, &cap, in)) > 0) {
		im->line++;
		if (len > SM_OSM_MAX_LINE) {
			sm_osm_import_error(im, "a line longer than %d bytes", SM_OSM_MAX_LINE);
			break;
		}
		bool bad = memchr(buf, '\0', (size_t)len) != NULL;
		for (ssize_t i = 0; !bad && i < len; i++)
			bad = ((unsigned char)buf[i] < 0x20 && !strchr("\t\r\n", buf[i])) ||
			      buf[i] == 0x7f;
		if (bad) {
			sm_osm_import_error(im, "a control character or NUL byte: not %s", kind);
			break;
		}
		fn(arg, buf);
	}
	if (ferror(in))
		sm_osm_import_error(im, "read error");
	free(buf);
}

int sm_osm_import_stream(FILE *in, const char *name, FILE *out, FILE *diag)
{
	struct sm_osm_import im;
	size_t k = 0;
	int rc = 1;

	if (sm_osm_qos_is(in))
		return sm_osm_qos_import(in, name, NULL, NULL, out, diag);
	while (k < NCONVERTERS && !converters[k].is(in))
		k++;
	if (k == NCONVERTERS) {
		fprintf(diag, "ibsmd: %s: not an OpenSM file ibsmd converts (", name);
		for (size_t i = 0; i < NCONVERTERS; i++)
			fprintf(diag, "%s%s", i ? ", " : "", converters[i].what);
		fputs(", qos-policy.conf)\n", diag);
		return 1;
	}
	if (sm_osm_import_init(&im, diag)) {
		fprintf(diag, "ibsmd: out of memory\n");
		return 1;
	}
	im.file = name;
	converters[k].convert(&im, in);
	if (im.errors)
		fprintf(diag, "ibsmd: %s: %u errors, nothing written\n", name, im.errors);
	else if (write_yaml(&im, out, name, converters[k].what))
		fprintf(diag, "ibsmd: writing the converted configuration failed\n");
	else
		rc = 0;
	if (rc == 0)
		fprintf(diag, "ibsmd: %s: %u ibsmd keys set, %u OpenSM keys without a counterpart, "
			"%u unknown (listed at the end of the output)\n", name, im.set, im.nmissing,
			im.nunknown);
	if (rc == 0 && (im.cfg.sm_key || im.cfg.mkey_key))
		fprintf(diag, "ibsmd: the output holds %s: keep the file readable by root only\n",
			im.cfg.sm_key && im.cfg.mkey_key ? "sm_key and mkey.key" : im.cfg.sm_key
			? "sm_key" : "mkey.key");
	sm_osm_import_free(&im);
	return rc;
}

int sm_osm_import(const char *const *paths, size_t n, FILE *out, FILE *diag)
{
	FILE *in[2] = { NULL, NULL };
	char err[512];
	int rc = 1;

	for (size_t i = 0; i < n && i < 2; i++)
		if (!(in[i] = sm_file_open(paths[i], SM_OSM_MAX_FILE_BYTES, &rc, err, sizeof(err)))) {
			fprintf(diag, "ibsmd: %s\n", err);
			rc = 1;
			goto out;
		}
	if (n == 1) {
		rc = sm_osm_import_stream(in[0], paths[0], out, diag);
	} else if (n == 2) {
		/* the policy and the opensm.conf of its tables, in either order */
		size_t p = sm_osm_qos_is(in[0]) ? 0 : 1;
		if (!sm_osm_qos_is(in[p]) || !sm_osm_conf_is(in[1 - p]))
			fprintf(diag, "ibsmd: --import-opensm twice: a qos-policy.conf and an "
				"opensm.conf (its qos_* keys), not %s and %s\n", paths[0], paths[1]);
		else
			rc = sm_osm_qos_import(in[p], paths[p], in[1 - p], paths[1 - p], out, diag);
	}
out:
	for (size_t i = 0; i < 2; i++)
		if (in[i])
			fclose(in[i]);
	return rc;
}

// SPDX-License-Identifier: MIT
/*
 * rt_file.c - the file engine: unicast LFTs (IBA 14.2.5.10) read from dumps in
 * the format ibroute(8) of infiniband-diags prints, one switch after another.
 *
 * Option "file=PATH" names the file.  Each switch's dump opens with a header
 * naming the switch by node GUID, then one line per routed LID:
 *
 *	Unicast lids [0x0-0xe] of switch Lid 12 guid 0x0200000200000030 (L3):
 *	  Lid  Out   Destination
 *	       Port     Info
 *	0x0001 004 : (Channel Adapter portguid 0x0200000100000001: 'H0')
 *	...
 *	14 valid lids dumped
 *
 * (`ibroute` with a DR path prints "DR path slid ...; dlid ...; 0,1" in place
 * of "Lid 12"; both are read).  What follows the ':' is ibroute's description
 * of the destination and is not needed.  A header naming a GUID that is no
 * switch of the fabric, an entry for a LID beyond the fabric's or a port the
 * switch lacks, a trailer whose count differs from the entries read, or any
 * other line is an error naming the file and line (-EINVAL); the tables are
 * then left as the chain clears them.  Switches the file does not mention
 * keep empty tables (the validator reports what that breaks).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "routing/rt.h"

struct file_reader {
	const struct ibsmd_rt_ctx *ctx;
	const char *path;
	unsigned line;
	uint32_t sw;		/* the switch being read; IBSMD_NO_NODE outside a dump */
	unsigned entries;	/* entries read since its header */
};

static int file_fail(const struct file_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int file_fail(const struct file_reader *r, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	r->ctx->log(LOG_ERR, "routing: file: %s:%u: %s", r->path, r->line, what);
	return -EINVAL;
}

/* "Unicast lids [...] of switch ... guid 0xG (desc):" */
static int file_header(struct file_reader *r, const char *s)
{
	const struct ibsmd_rt_view *v = r->ctx->view;
	const char *g = strstr(s, " guid 0x");
	char *end;

	if (!g)
		return file_fail(r, "switch header without a node GUID");
	uint64_t guid = strtoull(g + 6, &end, 16);
	r->sw = IBSMD_NO_NODE;
	for (uint32_t i = 0; i < v->nswitches && r->sw == IBSMD_NO_NODE; i++)
		if (v->nodes[v->switch_node[i]].guid == guid)
			r->sw = v->switch_node[i];
	if (r->sw == IBSMD_NO_NODE)
		return file_fail(r, "no switch of the fabric has GUID 0x%016" PRIx64, guid);
	r->entries = 0;
	return 0;
}

/* "0x0001 004 : (destination)" */
static int file_entry(struct file_reader *r, const char *s)
{
	const struct ibsmd_rt_view *v = r->ctx->view;
	char *end, *pend;
	unsigned long lid = strtoul(s, &end, 16);
	unsigned long port = strtoul(end, &pend, 10);

	while (*pend == ' ')
		pend++;
	if (end == s || pend == end || *pend != ':')
		return file_fail(r, "neither an LFT entry (\"0xLID PORT : ...\") nor a header");
	if (r->sw == IBSMD_NO_NODE)
		return file_fail(r, "LFT entry before any switch header");
	if (lid == 0 || lid > v->max_lid)
		return file_fail(r, "LID 0x%lx is outside the fabric's LIDs (1..0x%x)", lid,
				 v->max_lid);
	if (port > v->nodes[r->sw].nports)
		return file_fail(r, "switch 0x%016" PRIx64 " has no port %lu",
				 v->nodes[r->sw].guid, port);
	ibsmd_lft_set(r->ctx, r->sw, (uint16_t)lid, (uint8_t)port);
	r->entries++;
	return 0;
}

static int file_line(struct file_reader *r, char *s)
{
	unsigned count;
	int end = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	size_t len = strlen(s);
	while (len && strchr(" \t\r\n", s[len - 1]))
		s[--len] = '\0';
	if (*s == '\0')
		return 0;
	if (strncmp(s, "Unicast lids ", 13) == 0)
		return file_header(r, s);
	if (strncmp(s, "Lid ", 4) == 0 || strncmp(s, "Port ", 5) == 0)
		return 0;	/* column headings */
	if (sscanf(s, "%u valid lids dumped%n", &count, &end) == 1 && end && !s[end]) {
		if (r->sw != IBSMD_NO_NODE && count != r->entries)
			return file_fail(r, "the trailer counts %u LIDs, the dump holds %u",
					 count, r->entries);
		r->sw = IBSMD_NO_NODE;
		return 0;
	}
	return file_entry(r, s);
}

static const char *file_option(const struct ibsmd_rt_ctx *ctx)
{
	for (unsigned i = 0; ctx->options && i < ctx->noptions; i++)
		if (strncmp(ctx->options[i], "file=", 5) == 0 && ctx->options[i][5])
			return ctx->options[i] + 5;
	return NULL;
}

static int file_compute(const struct ibsmd_rt_ctx *ctx, void *state)
{
	struct file_reader r = { .ctx = ctx, .path = file_option(ctx), .sw = IBSMD_NO_NODE };
	char *buf = NULL;
	size_t cap = 0;
	int rc = 0;

	(void)state;
	if (!r.path) {
		ctx->log(LOG_ERR, "routing: file: no option file=PATH names the LFT dump");
		return -EINVAL;
	}
	FILE *f = fopen(r.path, "r");
	if (!f) {
		rc = -errno;
		ctx->log(LOG_ERR, "routing: file: %s: %s", r.path, strerror(errno));
		return rc;
	}
	errno = 0;
	while (rc == 0 && getline(&buf, &cap, f) >= 0) {
		r.line++;
		rc = file_line(&r, buf);
	}
	if (rc == 0 && ferror(f)) {	/* a directory: EISDIR */
		rc = errno ? -errno : -EIO;
		ctx->log(LOG_ERR, "routing: file: %s: cannot read: %s", r.path, strerror(-rc));
	}
	free(buf);
	fclose(f);
	return rc;
}

IBSMD_ROUTING_ENGINE(file) = {
	.name = "file",
	.abi_version = IBSMD_ROUTING_ABI_VERSION,
	.description = "LFTs read from ibroute dumps; option file=PATH",
	.compute_unicast = file_compute,
};

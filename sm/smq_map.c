// SPDX-License-Identifier: MIT
/*
 * smq_map.c - `smquery map [-o FILE]`: the fabric as one self-contained HTML
 * page, for a browser on a management node that has no network: the page
 * template (sm/smq_map_page.html, built into smq_map_page.h) with the
 * fabric's data (smq_map_data.c) put in at its @FABRIC@ line.  The template
 * holds the style, the SVG drawing and the script; its Content-Security-
 * Policy forbids every fetch, so nothing it does can reach the network.
 *
 * FILE is written in place (stdout without -o); when the data cannot be
 * read it is removed again, so that no half page is left behind.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "sm/smq_map.h"
#include "sm/smq_map_page.h"

#define SMQ_MAP_MARK "@FABRIC@"

int smq_cmd_map(struct smq *q, int argc, char **argv)
{
	const char *path = NULL;
	enum smq_map_by by = SMQ_MAP_BY_DATA;

	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc || (strcmp(argv[i], "-o") && strcmp(argv[i], "--by")))
			return smq_usage_error(argv[0], "unexpected '%s'", argv[i]);
		if (!strcmp(argv[i], "-o"))
			path = argv[i + 1];
		else if (!strcmp(argv[i + 1], "errors"))
			by = SMQ_MAP_BY_ERRORS;
		else if (strcmp(argv[i + 1], "data"))
			return smq_usage_error(argv[0], "--by takes data or errors, not '%s'",
					       argv[i + 1]);
	}
	if (q->json)
		return smq_usage_error(argv[0], "the map is a page, it has no --json form");
	const char *mark = strstr(smq_map_page, SMQ_MAP_MARK);
	if (!mark)	/* the build puts it there */
		return smq_fail("map: the page template has no %s line", SMQ_MAP_MARK);
	/* the store first: an error leaves no file behind */
	if (!smq_topo(q) || !smq_lids(q) || smq_isolated_mark(q))
		return SMQ_FAIL;
	FILE *f = path ? fopen(path, "w") : stdout;
	if (!f)
		return smq_fail("%s: %s", path, strerror(errno));
	q->out = f;
	fwrite(smq_map_page, 1, (size_t)(mark - smq_map_page), f);
	int rc = smq_map_data(q, by);
	fputs(mark + strlen(SMQ_MAP_MARK), f);
	q->out = stdout;
	if (path && ((ferror(f) | fclose(f)) != 0) && rc == SMQ_OK)
		rc = smq_fail("writing %s failed", path);
	if (path && rc != SMQ_OK)
		unlink(path);
	return rc;
}

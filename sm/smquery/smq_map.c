// SPDX-License-Identifier: MIT
/*
 * smq_map.c - `smquery map [-o FILE] [--by data|errors] [--scale
 * absolute|relative]`: the fabric as one self-contained HTML page, for a
 * browser on a management node that has no network: the page template (sm/smquery/smq_map_page.html, built into smq_map_page.h) with the
 * fabric's data (smq_map_data.c) put in at its @FABRIC@ line.  The template
 * holds the style, the SVG drawing and the script; its Content-Security-
 * Policy forbids every fetch, so nothing it does can reach the network.
 *
 * FILE (stdout without -o) is replaced whole: the page goes to a temporary
 * file beside it (beside a symbolic link's target), renamed over FILE once
 * complete, so a browser reading FILE sees the old page or the new one and a
 * failure (the store, a full disk) leaves the old page as it was.  A FILE that
 * is no regular file (/dev/stdout, a FIFO) is written in place and never
 * removed; a directory is refused.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sm/smquery/smq_map.h"
#include "sm/smquery/smq_map_page.h"

#define SMQ_MAP_MARK "@FABRIC@"

/* Where the page for @path goes: in place (@tmp empty) when @path exists and
 * is no regular file, else a new temporary file beside the file it names;
 * @target the path to rename it to.  NULL with errno set on failure. */
static FILE *open_page(const char *path, char tmp[PATH_MAX], char target[PATH_MAX])
{
	struct stat st;

	tmp[0] = 0;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return NULL;
		}
		return fopen(path, "w");
	}
	if (!realpath(path, target)) {	/* a new file: its name as given */
		if (errno != ENOENT || strlen(path) >= PATH_MAX) {
			errno = errno == ENOENT ? ENAMETOOLONG : errno;
			return NULL;
		}
		strcpy(target, path);
	}
	if (snprintf(tmp, PATH_MAX, "%s.XXXXXX", target) >= PATH_MAX) {
		tmp[0] = 0;
		errno = ENAMETOOLONG;
		return NULL;
	}
	int fd = mkstemp(tmp);
	if (fd < 0) {
		tmp[0] = 0;
		return NULL;
	}
	mode_t mask = umask(0);
	umask(mask);
	FILE *f = fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;
		close(fd);
		unlink(tmp);
		tmp[0] = 0;
		errno = e;
	}
	return f;
}

int smq_cmd_map(struct smq *q, int argc, char **argv)
{
	const char *path = NULL;
	enum smq_map_by by = SMQ_MAP_BY_DATA;
	enum smq_map_scale scale = SMQ_MAP_SCALE_ABSOLUTE;

	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc || (strcmp(argv[i], "-o") && strcmp(argv[i], "--by") &&
				      strcmp(argv[i], "--scale")))
			return smq_usage_error(argv[0], "unexpected '%s'", argv[i]);
		if (!strcmp(argv[i], "-o"))
			path = argv[i + 1];
		else if (!strcmp(argv[i], "--scale") && !strcmp(argv[i + 1], "relative"))
			scale = SMQ_MAP_SCALE_RELATIVE;
		else if (!strcmp(argv[i], "--scale") && strcmp(argv[i + 1], "absolute"))
			return smq_usage_error(argv[0], "--scale takes absolute or relative, not "
					       "'%s'", argv[i + 1]);
		else if (!strcmp(argv[i], "--by") && !strcmp(argv[i + 1], "errors"))
			by = SMQ_MAP_BY_ERRORS;
		else if (!strcmp(argv[i], "--by") && strcmp(argv[i + 1], "data"))
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
	char tmp[PATH_MAX], target[PATH_MAX];
	FILE *f = path ? open_page(path, tmp, target) : stdout;
	if (!f)
		return smq_fail("%s: %s", path, strerror(errno));
	q->out = f;
	fwrite(smq_map_page, 1, (size_t)(mark - smq_map_page), f);
	int rc = smq_map_data(q, by, scale);
	fputs(mark + strlen(SMQ_MAP_MARK), f);
	q->out = stdout;
	if (path && ((ferror(f) | fclose(f)) != 0) && rc == SMQ_OK)
		rc = smq_fail("writing %s failed", path);
	if (path && tmp[0] && rc == SMQ_OK && rename(tmp, target))
		rc = smq_fail("%s: %s", path, strerror(errno));
	if (path && tmp[0] && rc != SMQ_OK)
		unlink(tmp);	/* the old page stays */
	return rc;
}

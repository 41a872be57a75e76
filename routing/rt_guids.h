/* SPDX-License-Identifier: MIT */
/*
 * rt_guids.h - GUID lists an engine is handed through its options: "KEY=GUID"
 * entries and OpenSM's GUID files ("FILE_KEY=PATH": root_guid_file,
 * cn_guid_file, io_guid_file), for ftree's and updn's roots and ftree's
 * compute and I/O nodes (rt_guids.c).
 *
 * A GUID file is OpenSM's: one GUID a line, 0x hex or decimal, optionally
 * followed by blanks and anything (a name); blank lines and lines starting
 * with '#' are skipped.  A line that starts otherwise, a GUID out of range,
 * 0, or with a leading zero (OpenSM would read it as octal) is an error
 * naming the file and line.  At most RT_GUIDS_MAX GUIDs, RT_GUIDS_MAX_LINE
 * bytes a line.
 */
#ifndef IBSMD_RT_GUIDS_H
#define IBSMD_RT_GUIDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibsmd/routing.h"

#define RT_GUIDS_MAX (1u << 20)
#define RT_GUIDS_MAX_LINE 4096

struct rt_guids {
	uint64_t *g;		/* sorted, each once */
	size_t n;
	bool given;		/* an option named the list (it may be empty) */
};

/* Add the GUIDs of the file @path to @s (kept sorted and unique).  0, or
 * -errno with "PATH:LINE: reason" (or "PATH: reason") in @err. */
int rt_guid_file_read(const char *path, struct rt_guids *s, char *err, size_t errlen);

/*
 * The list the options of @ctx give through "@key=GUID" (NULL: none) and
 * "@file_key=PATH" entries, into @s (zeroed first; s->given tells whether any
 * such option is there).  0, or -EINVAL with the option and the reason logged
 * as "routing: @engine: ..." (a file that cannot be read too), -ENOMEM.
 */
int rt_guids_from_options(const struct ibsmd_rt_ctx *ctx, const char *engine, const char *key,
			  const char *file_key, struct rt_guids *s);

/* A GUID as an option gives it: 0x hex or decimal, not 0, no leading zero,
 * nothing after it.  0 or -EINVAL. */
int rt_guid_parse(const char *s, uint64_t *guid);

bool rt_guids_has(const struct rt_guids *s, uint64_t guid);
void rt_guids_free(struct rt_guids *s);

#endif

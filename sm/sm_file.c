/* SPDX-License-Identifier: MIT */
/*
 * sm_file.c - a file read whole, checked before the first byte (see
 * sm_file.h): opened without blocking (a FIFO with no writer returns at
 * once), fstat() on the descriptor opened (no race with a rename), then
 * handed to stdio.
 */
#include "sm/sm_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *sm_file_open(const char *path, off_t max_bytes, int *rc, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		*rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st)) {
		*rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		*rc = -EINVAL;
		snprintf(err, errlen, "%s: not a regular file", path);
	} else if (st.st_size > max_bytes) {
		*rc = -EFBIG;
		snprintf(err, errlen, "%s: %lld bytes, more than the %lld it may have", path,
			 (long long)st.st_size, (long long)max_bytes);
	} else {
		FILE *f = fdopen(fd, "r");
		if (f)
			return f;
		*rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	}
	close(fd);
	return NULL;
}

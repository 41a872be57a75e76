/* SPDX-License-Identifier: MIT */
/*
 * sm_file.c - a file read whole, checked before the parser sees a byte (see
 * sm_file.h): opened without blocking (a FIFO with no writer returns at
 * once), fstat() on the descriptor opened (no race with a rename).  A
 * regular file is handed to stdio as it is; a character device (-c
 * /dev/null: no configuration) is read now, without blocking and at most
 * @max_bytes, into a temporary file the parser reads instead.
 */
#include "sm/util/sm_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The device behind @fd copied into a temporary file, rewound; NULL and
 * *rc on failure (-EFBIG past @max, -EAGAIN when it would block). */
static FILE *copy_device(int fd, off_t max, int *rc)
{
	FILE *tmp = tmpfile();
	char buf[65536];
	off_t total = 0;

	if (!tmp) {
		*rc = -errno;
		return NULL;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (total += n) > max) {
			*rc = n < 0 ? -errno : -EFBIG;
			break;
		}
		if (n == 0) {
			rewind(tmp);
			return tmp;
		}
		if (fwrite(buf, 1, (size_t)n, tmp) != (size_t)n) {
			*rc = -EIO;
			break;
		}
	}
	fclose(tmp);
	return NULL;
}

FILE *sm_file_open(const char *path, off_t max_bytes, int *rc, char *err, size_t errlen)
{
	struct stat st;
	FILE *f = NULL;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		*rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st)) {
		*rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	} else if (S_ISCHR(st.st_mode)) {
		f = copy_device(fd, max_bytes, rc);
		if (!f && *rc == -EFBIG)
			snprintf(err, errlen, "%s: more than the %lld bytes it may have", path,
				 (long long)max_bytes);
		else if (!f)
			snprintf(err, errlen, "%s: %s", path, strerror(-*rc));
	} else if (!S_ISREG(st.st_mode)) {
		*rc = -EINVAL;
		snprintf(err, errlen, "%s: not a regular file", path);
	} else if (st.st_size > max_bytes) {
		*rc = -EFBIG;
		snprintf(err, errlen, "%s: %lld bytes, more than the %lld it may have", path,
			 (long long)st.st_size, (long long)max_bytes);
	} else {
		f = fdopen(fd, "r");
		if (f)
			return f;
		*rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	}
	close(fd);
	return f;
}

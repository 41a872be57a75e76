/* SPDX-License-Identifier: MIT */
/*
 * sm_file.h - opening a file the daemon reads whole (ibsmd.yaml, the
 * partitions file), whatever its path names: only a regular file of at most a
 * given size is read.  A FIFO or a device would block the daemon's one thread
 * in open() or read() forever (its signals wait in a signalfd: not even
 * SIGTERM ends it), a directory reads as an I/O error, and /dev/zero or a huge
 * file would feed the parser without end.  A symbolic link is followed.
 */
#ifndef IBSMD_SM_FILE_H
#define IBSMD_SM_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* @path opened for reading when it is a regular file of at most @max_bytes;
 * else NULL, *rc the -errno (-EINVAL: not a regular file, -EFBIG: larger) and
 * @err "PATH: why". */
FILE *sm_file_open(const char *path, off_t max_bytes, int *rc, char *err, size_t errlen);

#endif

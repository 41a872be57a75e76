/* SPDX-License-Identifier: MIT */
/*
 * sm_file.h - opening a file the daemon reads whole (ibsmd.yaml, the
 * partitions file), whatever its path names: a regular file or a character
 * device (/dev/null) of at most a given size.  A FIFO would block the
 * daemon's one thread in open() forever (its signals wait in a signalfd: not
 * even SIGTERM ends it), a terminal in read(); a directory reads as an I/O
 * error; /dev/zero or a huge file would feed the parser without end.  A
 * symbolic link is followed.
 */
#ifndef IBSMD_SM_FILE_H
#define IBSMD_SM_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* @path opened for reading when it is a regular file of at most @max_bytes;
 * or a character device that gives at most @max_bytes without blocking; else
 * NULL, *rc the -errno (-EINVAL: a FIFO, socket or directory, -EFBIG: larger,
 * -EAGAIN: a device that would block) and @err "PATH: why". */
FILE *sm_file_open(const char *path, off_t max_bytes, int *rc, char *err, size_t errlen);

#endif

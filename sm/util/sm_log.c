// SPDX-License-Identifier: MIT
/*
 * sm_log.c - timestamped, prioritised log lines (see sm_log.h).
 *
 * The file's name is kept so that sm_log_reopen() can open it again after
 * logrotate renamed it: the new file is opened before the old one is closed.
 *
 * Messages carry strings from the fabric (NodeDescriptions) and from files:
 * each whole message is escaped here (topo_text_escape()), once, before it
 * goes out, so no caller can forget it.  A line is one line: a line feed,
 * an ESC or a bidi override in a message shows as \n, \x1b, \u202e.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "mad/model/topo_text.h"
#include "sm/util/sm_log.h"

static FILE *log_file;
static char log_path[4096];
static int log_level = LOG_NOTICE;
static int log_stderr = 1;

static const char *const prio_names[] = {
	"emerg", "alert", "crit", "error", "warning", "notice", "info", "debug",
};

const char *sm_log_level_name(int level)
{
	return prio_names[level & 7];
}

int sm_log_level_parse(const char *name)
{
	for (int i = 0; i < 8; i++)
		if (strcmp(name, prio_names[i]) == 0)
			return i;
	if (strcmp(name, "err") == 0)
		return LOG_ERR;
	return -1;
}

int sm_log_open(const char *path, int level, int also_stderr)
{
	log_level = level;
	log_stderr = also_stderr;
	if (!path)
		return 0;
	if (strlen(path) >= sizeof(log_path))
		return -ENAMETOOLONG;
	snprintf(log_path, sizeof(log_path), "%s", path);
	return sm_log_reopen();
}

int sm_log_reopen(void)
{
	if (!log_path[0])
		return 0;
	FILE *f = fopen(log_path, "ae");
	if (!f)
		return -errno;
	setvbuf(f, NULL, _IOLBF, 0);
	if (log_file)
		fclose(log_file);
	log_file = f;
	return 0;
}

void sm_log_close(void)
{
	if (log_file)
		fclose(log_file);
	log_file = NULL;
	log_path[0] = '\0';	/* closed: nothing to reopen */
}

void sm_log_set_level(int level)
{
	log_level = level;
}

static void emit(FILE *f, const char *stamp, int prio, const char *msg)
{
	fprintf(f, "%s ibsmd[%d] %s: %s\n", stamp, (int)getpid(), prio_names[prio & 7], msg);
}

void sm_log(int prio, const char *fmt, ...)
{
	char msg[1024], line[4 * sizeof(msg)], stamp[32];
	struct timeval tv;
	struct tm tm;
	va_list ap;

	if (prio > log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	topo_text_escape(line, sizeof(line), msg);
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	size_t n = strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(stamp + n, sizeof(stamp) - n, ".%03ld", (long)tv.tv_usec / 1000);
	if (log_file)
		emit(log_file, stamp, prio, line);
	if (log_stderr || !log_file)
		emit(stderr, stamp, prio, line);
}

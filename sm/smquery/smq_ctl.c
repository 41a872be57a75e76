// SPDX-License-Identifier: MIT
/*
 * smq_ctl.c - smquery's commands for a running ibsmd, over its control socket
 * (sm/sm_ctl.c): send one line, print the one-line answer.  They need no
 * database; "resweep" asks for a heavy sweep.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sm/smquery/smq.h"
#include "sm/smquery/smq_ctl.h"

int smq_ctl_ask(const char *path, const char *command, bool json)
{
	/* the SM answers between MADs: give it a few seconds in a heavy sweep */
	return smq_ctl_ask_wait(path, command, json, 10000);
}

int smq_ctl_ask_wait(const char *path, const char *command, bool json, int timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct pollfd pfd;
	char reply[16384];
	size_t n = 0;

	if (strlen(path) >= sizeof(sa.sun_path))
		return smq_fail("%s: socket path too long", path);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		return smq_fail("%s: cannot reach ibsmd: %s", path, strerror(err));
	}
	if (dprintf(fd, "%s%s\n", command, json ? " json" : "") < 0) {
		close(fd);
		return smq_fail("%s: cannot send to ibsmd: %s", path, strerror(errno));
	}
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	/* one line, maybe in pieces, until the daemon closes */
	while (n < sizeof(reply) - 1 && poll(&pfd, 1, timeout_ms) == 1) {
		ssize_t k = read(fd, reply + n, sizeof(reply) - 1 - n);
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	if (n == 0)
		return smq_fail("%s: ibsmd did not answer", path);
	reply[n] = '\0';
	fputs(reply, stdout);
	const char *ok = json ? "{\"ok\": true" : "ok";
	return strncmp(reply, ok, strlen(ok)) == 0 ? SMQ_OK : SMQ_FAIL;
}

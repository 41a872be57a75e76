// SPDX-License-Identifier: MIT
/*
 * sm_ctl.c - the control socket (see sm_ctl.h).
 *
 * The listening socket is non-blocking and served from the event loop between
 * MADs; each accepted client gets 200 ms to send its line, so a stuck client
 * cannot stall the SM.  The socket is mode 0660: whoever may read the store's
 * directory's group may ask for a resweep.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "mad/mad_attr.h"
#include "sm/sm_ctl.h"
#include "sm/sm_log.h"

int sm_ctl_open(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		sm_err("control socket %s: path too long", path);
		return -ENAMETOOLONG;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	unlink(path);	/* a socket file left by an earlier ibsmd */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || chmod(path, 0660) ||
	    listen(fd, 8))
		goto fail;
	return fd;
fail:;
	int err = errno;
	sm_err("control socket %s: %s (smquery resweep will not reach this SM)", path,
	       strerror(err));
	if (fd >= 0)
		close(fd);
	return -err;
}

/* One client: read its line (200 ms at most), answer, close. */
static void serve_one(struct sm *sm, int c)
{
	struct pollfd pfd = { .fd = c, .events = POLLIN };
	char line[128] = "", reply[256];
	ssize_t n = 0;

	if (poll(&pfd, 1, 200) == 1)
		n = read(c, line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = '\0';
	line[strcspn(line, "\r\n")] = '\0';
	if (strcmp(line, "resweep") == 0) {
		sm->resweep = true;
		snprintf(reply, sizeof(reply), "ok: heavy sweep scheduled\n");
		sm_notice("control socket: a heavy sweep was asked for");
	} else if (strcmp(line, "status") == 0) {
		snprintf(reply, sizeof(reply), "ok: %s, %llu heavy sweeps, %llu light sweeps, %s\n",
			 mad_sm_state_name(sm->sm_state), (unsigned long long)sm->sweeps,
			 (unsigned long long)sm->light_sweeps,
			 sm->resweep ? "a heavy sweep is due" : "idle");
	} else {
		snprintf(reply, sizeof(reply), "error: unknown command '%.64s' "
			 "(resweep, status)\n", line);
	}
	if (write(c, reply, strlen(reply)) < 0)
		sm_debug("control socket: the client left before the answer");
	close(c);
}

void sm_ctl_serve(struct sm *sm, int fd)
{
	int c;

	if (fd < 0)
		return;
	while ((c = accept(fd, NULL, NULL)) >= 0)
		serve_one(sm, c);
}

void sm_ctl_close(int fd, const char *path)
{
	if (fd < 0)
		return;
	close(fd);
	unlink(path);
}

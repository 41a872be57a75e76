// SPDX-License-Identifier: MIT
/*
 * ctl_latency.c - how fast a running ibsmd answers its control socket.
 *
 * usage: ctl_latency SOCKET [INTERVAL_MS]
 * Sends "status" every INTERVAL_MS (default 10) from the first moment the
 * socket accepts until SIGTERM or SIGINT, timing each request from connect()
 * to the whole answer, then prints the count, p50, p99 and maximum.  A request
 * that gets no answer within 5 s counts as failed.  `make bench` runs it
 * beside a cold heavy sweep (contrib/bench/control.sh).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t done;

static void on_signal(int sig)
{
	(void)sig;
	done = 1;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* One request: its latency in ms, -1 when it could not connect, -2 when it
 * got no answer. */
static double ask(const struct sockaddr_un *sa)
{
	double t0 = now_ms();
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	char buf[1024];

	if (fd < 0 || connect(fd, (const struct sockaddr *)sa, sizeof(*sa))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	double rc = -2;
	if (write(fd, "status\n", 7) == 7) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		while (poll(&p, 1, 5000) == 1) {
			ssize_t n = read(fd, buf, sizeof(buf));
			if (n <= 0) {	/* the daemon closes after its answer */
				rc = now_ms() - t0;
				break;
			}
		}
	}
	close(fd);
	return rc;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t n = 0, cap = 4096, failed = 0;
	double *lat = malloc(cap * sizeof(*lat));

	if (argc < 2 || argc > 3 || strlen(argv[1]) >= sizeof(sa.sun_path) || !lat) {
		fprintf(stderr, "usage: ctl_latency SOCKET [INTERVAL_MS]\n");
		return 2;
	}
	int interval = argc == 3 ? atoi(argv[2]) : 10;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[1]);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	while (!done) {
		double l = ask(&sa);
		if (l == -2 || (l == -1 && n))
			failed++;
		else if (l >= 0) {
			if (n == cap && !(lat = realloc(lat, (cap *= 2) * sizeof(*lat))))
				return 1;
			lat[n++] = l;
		}
		usleep((useconds_t)interval * 1000);
	}
	if (!n) {
		printf("control socket: no answer at all\n");
		return 1;
	}
	qsort(lat, n, sizeof(*lat), cmp);
	printf("control socket: %zu status requests, p50 %.2f ms, p99 %.2f ms, max %.2f ms, "
	       "%zu failed\n", n, lat[n / 2], lat[(n * 99) / 100], lat[n - 1], failed);
	free(lat);
	return failed ? 1 : 0;
}

// SPDX-License-Identifier: MIT
/*
 * mad_transport.c - pick a backend from a spec string and open it; the
 * port GUID form of a local port's name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mad/mad_transport.h"

/* The backend @spec names, and the part after its "NAME:". */
static int backend_pick(const char *spec, const struct mad_transport_ops **ops,
			const char **arg, char *err, size_t errlen)
{
	if (strncmp(spec, "umad", 4) == 0 && (spec[4] == '\0' || spec[4] == ':')) {
		*ops = &mad_umad_ops;
		*arg = spec[4] ? spec + 5 : "";
	} else if (strncmp(spec, "sim:", 4) == 0) {
		*ops = &mad_sim_ops;
		*arg = spec + 4;
	} else {
		snprintf(err, errlen,
			 "unknown backend '%s' (expected umad[:CA[:PORT]] or sim:TOPOFILE)",
			 spec);
		return -EINVAL;
	}
	return 0;
}

int mad_transport_check(const char *spec, char *err, size_t errlen)
{
	const struct mad_transport_ops *ops;
	const char *arg;
	int rc = backend_pick(spec, &ops, &arg, err, errlen);

	return rc ? rc : ops->check(arg, err, errlen);
}

int mad_transport_open(const char *spec, struct mad_transport **out, char *err,
		       size_t errlen)
{
	const struct mad_transport_ops *ops;
	const char *arg;
	int rc = backend_pick(spec, &ops, &arg, err, errlen);

	if (rc)
		return rc;
	struct mad_transport *t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	t->ops = ops;
	rc = ops->open(t, arg, err, errlen);
	if (rc) {
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void mad_transport_close(struct mad_transport *t)
{
	if (!t)
		return;
	t->ops->close(t);
	free(t);
}

int mad_transport_recv_mad(struct mad_transport *t, uint8_t mad[MAD_BLOCK_SIZE],
			   struct mad_addr *from, int timeout_ms)
{
	size_t len = MAD_BLOCK_SIZE;

	return t->ops->recv(t, mad, &len, from, timeout_ms);
}

uint64_t mad_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int mad_port_name_guid(const char *name, uint64_t *guid)
{
	size_t digits = strncmp(name, "0x", 2) == 0 ? strspn(name + 2, "0123456789abcdefABCDEF") : 0;

	if (!digits || digits > 16 || name[2 + digits])
		return -EINVAL;
	*guid = strtoull(name + 2, NULL, 16);
	return *guid ? 0 : -EINVAL;
}

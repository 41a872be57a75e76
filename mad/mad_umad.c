// SPDX-License-Identifier: MIT
/*
 * mad_umad.c - placeholder for the umad backend (being written).
 */
#include <errno.h>
#include <stdio.h>

#include "mad/mad_transport.h"

static int umad_open(struct mad_transport *t, const char *arg, char *err, size_t errlen)
{
	(void)t;
	(void)arg;
	snprintf(err, errlen, "the umad backend is not built yet");
	return -ENOSYS;
}

const struct mad_transport_ops mad_umad_ops = {
	.name = "umad",
	.open = umad_open,
};

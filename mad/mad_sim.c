// SPDX-License-Identifier: MIT
/*
 * mad_sim.c - placeholder for the sim backend (being written).
 */
#include <errno.h>
#include <stdio.h>

#include "mad/mad_transport.h"

static int sim_open(struct mad_transport *t, const char *arg, char *err, size_t errlen)
{
	(void)t;
	(void)arg;
	snprintf(err, errlen, "the sim backend is not built yet");
	return -ENOSYS;
}

const struct mad_transport_ops mad_sim_ops = {
	.name = "sim",
	.open = sim_open,
};

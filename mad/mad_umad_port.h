/* SPDX-License-Identifier: MIT */
/*
 * mad_umad_port.h - which local port the umad backend runs the SM on, decided
 * over a list of what each port is (libibumad fills it from sysfs; tests give
 * lists of their own).
 *
 * Only an InfiniBand port carries SMPs: a port whose link layer is anything
 * else ("Ethernet": RoCE, iWARP devices such as irdma; "Unknown") is never
 * taken, named or not (OpenSM issue #40 picked an irdma port over mlx5;
 * registering QP0 there fails, rdma-core PR #1794).  libibumad reports "IB"
 * when sysfs has no link_layer file, so that counts as InfiniBand.
 *
 * What comes back, for the daemon to act on:
 *  0           a port to open (*@ca, *@port);
 *  -ENODEV     a CA or port the configuration names does not exist, or it
 *              exists and is not InfiniBand: nothing to wait for;
 *  -ENETDOWN   the port exists (or, unnamed, InfiniBand ports exist) but no
 *              link is up yet: wait for it;
 *  -ENOENT     no CA at all (ib_umad not loaded yet), or, nothing named, no
 *              InfiniBand port among them: wait.
 * Each with a message for the operator in @err.
 */
#ifndef IBSMD_MAD_UMAD_PORT_H
#define IBSMD_MAD_UMAD_PORT_H

#include <stdbool.h>
#include <stddef.h>

#define MAD_UMAD_NAME_LEN 20	/* UMAD_CA_NAME_LEN */
#define MAD_UMAD_PORT_ANY -1

/* One port of a CA as sysfs shows it. */
struct mad_umad_port {
	char ca[MAD_UMAD_NAME_LEN];
	int num;
	int state;		/* PortState: 1 DOWN .. 4 ACTIVE */
	int phys_state;		/* PortPhysicalState: 5 LinkUp */
	char link_layer[MAD_UMAD_NAME_LEN];	/* "InfiniBand", "IB", "Ethernet"... */
};

/* Whether @link_layer is InfiniBand's. */
bool mad_umad_port_is_ib(const char *link_layer);

/*
 * Choose among the @n ports of @ports (every port of every CA, CAs in
 * order) for @ca ("" any) and @port (MAD_UMAD_PORT_ANY: any of the CA): the
 * named one, or the first ACTIVE InfiniBand port, else the first with its
 * link up (INIT or ARMED: every port before an SM runs).  @cas names the CAs
 * found (@ncas), ports or not, for the messages.  On 0 *@chosen is the
 * index in @ports.  See above for the rest.
 */
int mad_umad_port_choose(const struct mad_umad_port *ports, size_t n,
			 const char (*cas)[MAD_UMAD_NAME_LEN], size_t ncas, const char *ca, int port,
			 size_t *chosen, char *err, size_t errlen);

#endif

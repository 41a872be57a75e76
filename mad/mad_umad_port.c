// SPDX-License-Identifier: MIT
/*
 * mad_umad_port.c - the choice of the SM's local port among the CAs' ports
 * (see mad_umad_port.h): named or the best, InfiniBand only, and why not.
 *
 * Flow: the named CA and port are looked for first (missing: -ENODEV with
 * the CAs there are); a named port is judged alone (not InfiniBand:
 * -ENODEV; no link: -ENETDOWN); otherwise every InfiniBand port of the CA
 * (or of all) is ranked and the best taken, in list order on a tie.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mad/mad_umad_port.h"

#define STATE_INIT 2
#define STATE_ACTIVE 4
#define PHYS_LINKUP 5

bool mad_umad_port_is_ib(const char *link_layer)
{
	return strcmp(link_layer, "InfiniBand") == 0 || strcmp(link_layer, "IB") == 0;
}

/* 2 ACTIVE, 1 link up but not yet active (INIT or ARMED), 0 no link. */
static int rank(const struct mad_umad_port *p)
{
	if (p->state == STATE_ACTIVE)
		return 2;
	return p->phys_state == PHYS_LINKUP && p->state >= STATE_INIT;
}

/* " a b c": the CA names, for a message. */
static void name_list(const char (*cas)[MAD_UMAD_NAME_LEN], size_t ncas, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < ncas && used < len; i++) {
		int w = snprintf(out + used, len - used, " %.*s", MAD_UMAD_NAME_LEN - 1, cas[i]);
		used += w > 0 ? (size_t)w : 0;
	}
}

int mad_umad_port_choose(const struct mad_umad_port *ports, size_t n,
			 const char (*cas)[MAD_UMAD_NAME_LEN], size_t ncas, const char *ca, int port,
			 size_t *chosen, char *err, size_t errlen)
{
	char list[256];
	bool ca_found = !ca[0], any_ib = false;
	int best = -1, best_rank = 0;

	name_list(cas, ncas, list, sizeof(list));
	for (size_t i = 0; ca[0] && i < ncas; i++)
		ca_found |= strcmp(cas[i], ca) == 0;
	if (!ncas) {
		snprintf(err, errlen, "umad: %s%s%sno InfiniBand CA found (is the ib_umad module "
			 "loaded? under ibsim, preload libumad2sim.so)", ca[0] ? "no CA named '" : "",
			 ca, ca[0] ? "': " : "");
		return ca[0] ? -ENODEV : -ENOENT;
	}
	if (!ca_found) {
		snprintf(err, errlen, "umad: no CA named '%s' (CAs:%s)", ca, list);
		return -ENODEV;
	}
	for (size_t i = 0; i < n; i++) {
		const struct mad_umad_port *p = &ports[i];
		if (ca[0] && strcmp(p->ca, ca) != 0)
			continue;
		if (port != MAD_UMAD_PORT_ANY) {
			if (p->num != port)
				continue;
			if (!mad_umad_port_is_ib(p->link_layer)) {
				snprintf(err, errlen, "umad: %s port %d is %s, not InfiniBand: no SM "
					 "runs there", ca, port, p->link_layer);
				return -ENODEV;
			}
			*chosen = i;
			if (rank(p))
				return 0;
			snprintf(err, errlen, "%s port %d (link down)", ca, port);
			return -ENETDOWN;
		}
		if (!mad_umad_port_is_ib(p->link_layer))
			continue;	/* never an Ethernet or unknown port */
		any_ib = true;
		if (rank(p) > best_rank) {
			best_rank = rank(p);
			best = (int)i;
		}
	}
	if (port != MAD_UMAD_PORT_ANY) {
		snprintf(err, errlen, "umad: CA %s has no port %d", ca, port);
		return -ENODEV;
	}
	if (best >= 0) {
		*chosen = (size_t)best;
		return 0;
	}
	if (!any_ib) {
		snprintf(err, errlen, "umad: %s%s has no InfiniBand port (CAs:%s)",
			 ca[0] ? "CA " : "no CA", ca, list);
		return ca[0] ? -ENODEV : -ENOENT;
	}
	snprintf(err, errlen, "%s%s (link down)", ca[0] ? "a port of " : "an InfiniBand port", ca);
	return -ENETDOWN;
}

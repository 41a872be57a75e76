/* SPDX-License-Identifier: MIT */
/*
 * sm_addr.h - a TCP listening address from text, numeric only (no name
 * lookup: nothing blocks, nothing depends on DNS).
 */
#ifndef IBSMD_SM_ADDR_H
#define IBSMD_SM_ADDR_H

#include <stddef.h>
#include <sys/socket.h>

/*
 * "ADDRESS:PORT" (a numeric IPv4 address, or an IPv6 one in brackets:
 * "[::1]:9683") or "PORT" alone (127.0.0.1), port 1 to 65535 in decimal
 * without a leading zero, into @sa and @len (may be NULL: only checked).
 * 0, or -EINVAL with the reason in @why.
 */
int sm_addr_parse(const char *spec, struct sockaddr_storage *sa, socklen_t *len, char *why,
		  size_t whylen);

/* @sa as "ADDRESS:PORT" ("[ADDRESS]:PORT" for IPv6) into @buf. */
void sm_addr_format(const struct sockaddr_storage *sa, char *buf, size_t len);

#endif

// SPDX-License-Identifier: MIT
/*
 * sm_addr.c - TCP listening addresses from text and back (see sm_addr.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/util/sm_addr.h"

int sm_addr_parse(const char *spec, struct sockaddr_storage *sa, socklen_t *len, char *why,
		  size_t whylen)
{
	struct sockaddr_storage tmp;
	char host[64] = "127.0.0.1";
	const char *port = spec, *colon = strrchr(spec, ':');

	if (!sa)
		sa = &tmp;
	memset(sa, 0, sizeof(*sa));
	if (colon) {
		size_t n = (size_t)(colon - spec);
		bool bracket = n >= 2 && spec[0] == '[' && spec[n - 1] == ']';
		if (bracket)
			spec++, n -= 2;
		if (!n || n >= sizeof(host) || (!bracket && memchr(spec, ':', n))) {
			snprintf(why, whylen, "'%.64s' is not ADDRESS:PORT (an IPv6 address goes in "
				 "brackets: [::1]:9683)", spec - bracket);
			return -EINVAL;
		}
		memcpy(host, spec, n);
		host[n] = '\0';
		port = colon + 1;
	}
	size_t digits = strspn(port, "0123456789");
	long p = digits && digits <= 5 && !port[digits] && port[0] != '0' ? atol(port) : 0;
	if (p < 1 || p > 65535) {
		snprintf(why, whylen, "port '%.16s': a number from 1 to 65535", port);
		return -EINVAL;
	}
	struct sockaddr_in *v4 = (struct sockaddr_in *)sa;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)sa;
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)p);
		if (len)
			*len = sizeof(*v4);
	} else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)p);
		if (len)
			*len = sizeof(*v6);
	} else {
		snprintf(why, whylen, "'%.64s' is not a numeric IPv4 or IPv6 address", host);
		return -EINVAL;
	}
	return 0;
}

void sm_addr_format(const struct sockaddr_storage *sa, char *buf, size_t len)
{
	const struct sockaddr_in *v4 = (const struct sockaddr_in *)sa;
	const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)sa;
	char addr[INET6_ADDRSTRLEN] = "?";
	bool is6 = sa->ss_family == AF_INET6;

	inet_ntop(sa->ss_family, is6 ? (const void *)&v6->sin6_addr : (const void *)&v4->sin_addr,
		  addr, sizeof(addr));
	snprintf(buf, len, "%s%s%s:%u", is6 ? "[" : "", addr, is6 ? "]" : "",
		 ntohs(is6 ? v6->sin6_port : v4->sin_port));
}

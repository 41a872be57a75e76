// SPDX-License-Identifier: MIT
/*
 * mcast_join.c - join or leave a multicast group through the SA, as a host's
 * IPoIB or rdma_cm would: one MCMemberRecord Set (join) or Delete (leave)
 * from the local port (libibumad/libibmad; under ibsim through libumad2sim),
 * sent to the SM's LID.  For the interop tests: there is no such command in
 * infiniband-diags.
 *
 *   mcast_join [-l] MGID|0 [JOINSTATE]
 *
 * MGID 0 asks the SA for a new group (Q_Key 0x1234, P_Key 0xffff).
 * JOINSTATE is 1 (full, the default), 2 (non-member) or 4 (send-only).
 * Prints "mgid ff12:... mlid 0xc001" from the answer; exits 1 with the MAD
 * status when the SA refuses.
 */
#include <arpa/inet.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <endian.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/mad_sa_mcmember.h"

static int parse_gid(const char *s, uint8_t *gid)
{
	struct in6_addr a;

	if (strcmp(s, "0") == 0) {
		memset(gid, 0, MAD_GID_LEN);
		return 0;
	}
	if (inet_pton(AF_INET6, s, &a) != 1)
		return -1;
	memcpy(gid, &a, MAD_GID_LEN);
	return 0;
}

int main(int argc, char **argv)
{
	int mgmt[] = { IB_SA_CLASS };
	bool leave = argc > 1 && strcmp(argv[1], "-l") == 0;
	struct mad_sa_mcmember_record r = { .qkey = 0x1234, .pkey = 0xffff, .join_state = 1 };
	uint8_t buf[IB_SA_DATA_SIZE] = { 0 };
	umad_port_t port;
	ib_portid_t sm = { 0 };
	char text[INET6_ADDRSTRLEN];

	argv += leave;
	argc -= leave;
	if (argc < 2 || argc > 3 || parse_gid(argv[1], r.mgid)) {
		fprintf(stderr, "usage: mcast_join [-l] MGID|0 [JOINSTATE]\n");
		return 2;
	}
	if (argc == 3)
		r.join_state = (uint8_t)strtoul(argv[2], NULL, 0);
	struct ibmad_port *p = mad_rpc_open_port(NULL, 0, mgmt, 1);
	if (!p || umad_get_port(NULL, 0, &port)) {
		fprintf(stderr, "mcast_join: cannot open the local port\n");
		return 1;
	}
	uint64_t prefix = be64toh(port.gid_prefix), guid = be64toh(port.port_guid);
	for (int i = 0; i < 8; i++) {
		r.port_gid[i] = (uint8_t)(prefix >> (56 - 8 * i));
		r.port_gid[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
	sm.lid = (int)port.sm_lid;
	mad_sa_mcmember_record_encode(&r, buf);
	ib_sa_call_t sa = {
		.attrid = MAD_SA_ATTR_MCMEMBER_RECORD,
		.method = leave ? 0x15 : IB_MAD_METHOD_SET,
		.mask = MAD_SA_MCMR_MGID | MAD_SA_MCMR_PORT_GID | MAD_SA_MCMR_JOIN_STATE |
			(leave ? 0 : MAD_SA_MCMR_QKEY | MAD_SA_MCMR_PKEY),
	};
	if (!sa_rpc_call(p, buf, &sm, &sa, 2000)) {
		fprintf(stderr, "mcast_join: refused or not answered\n");
		return 1;
	}
	mad_sa_mcmember_record_decode(buf, &r);
	inet_ntop(AF_INET6, r.mgid, text, sizeof(text));
	printf("mgid %s mlid 0x%04x join %u\n", text, r.mlid, r.join_state);
	umad_release_port(&port);
	mad_rpc_close_port(p);
	return 0;
}

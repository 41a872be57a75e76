/* SPDX-License-Identifier: MIT */
/*
 * sm_sa_service.h - the services registered with the SA (ServiceRecord, IBA
 * 15.2.5.14): what clients Set, each with its lease, kept until it runs out
 * or is deleted; the store keeps a copy (sm_sa_store.c) so that a restarted
 * SM still has them.
 */
#ifndef IBSMD_SM_SA_SERVICE_H
#define IBSMD_SM_SA_SERVICE_H

#include <stddef.h>
#include <stdint.h>

#include "mad/mad_sa.h"

/* Registrations kept at most: a Set beyond gets ERR_NO_RESOURCES.  One port
 * may hold at most SM_SA_MAX_SERVICES_PER_PORT of them, so that a host that
 * floods the SA cannot leave the others none (requests from inside the SM,
 * requester LID 0, are not counted). */
#define SM_SA_MAX_SERVICES 4096
#define SM_SA_MAX_SERVICES_PER_PORT 64

struct sm_sa_service {
	struct mad_sa_service_record r;
	uint64_t expires_ms;	/* mad_now_ms() clock, UINT64_MAX: never */
	uint16_t lid;		/* the requester that registered it */
};

struct sm_sa_services {
	struct sm_sa_service *v;
	size_t n, cap;
};

/* Drop the registrations whose lease ran out by @now_ms; the time the next
 * one runs out, or UINT64_MAX. */
uint64_t sm_sa_services_expire(struct sm_sa_services *s, uint64_t now_ms);
void sm_sa_services_free(struct sm_sa_services *s);
/* Add @e as read back from the store, under the rules a Set follows: 0,
 * -EINVAL (a P_Key no Set takes), -EEXIST (its ID, GID and P_Key already
 * registered), -ENOSPC (the table or its port's share full; no memory). */
int sm_sa_service_restore(struct sm_sa_services *s, const struct sm_sa_service *e);

#endif

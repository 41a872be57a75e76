// SPDX-License-Identifier: MIT
/*
 * sm_routes.c - freeing a sweep's routing result.
 */
#include <stdlib.h>
#include <string.h>

#include "sm/core/sm_routes.h"

void sm_routes_free(struct sm_routes *r)
{
	for (uint32_t n = 0; r->lft && n < r->nnodes; n++)
		free(r->lft[n]);
	for (uint32_t n = 0; r->ar.lid_group && n < r->nnodes; n++) {
		free(r->ar.lid_group[n]);
		free(r->ar.groups[n]);
	}
	free(r->ar.lid_group);
	free(r->ar.groups);
	free(r->lft);
	rt_path_sls_free(&r->sls);
	memset(r, 0, sizeof(*r));
}

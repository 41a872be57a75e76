// SPDX-License-Identifier: MIT
/*
 * sm_sa_multipath.c - MultiPathRecord (IBA 15.2.5.20): GetMulti, answered
 * with the PathRecords between every source GID and every destination GID
 * the request lists after its record.
 *
 * The request names SGIDCount source GIDs, then DGIDCount destination GIDs
 * (both components and at least one of each required:
 * ERR_REQ_INSUFFICIENT_COMPONENTS); they must all be in the request
 * (ERR_REQ_INVALID otherwise: a request of more GIDs than one MAD holds, up
 * to 255 + 255, comes reassembled from its RMPP segments, sm_sa.c) and be
 * ports of the subnet (ERR_REQ_INVALID_GID).  The record's Reversible, P_Key, SL, MTU
 * and rate (with their selectors) and ServiceID are a PathRecord template
 * (sm_sa_path.c walks each path through the LFTs).  Our routes give one path
 * per (SLID, DLID): a pair of ports has as many distinct paths as the larger
 * LMC range has LIDs, each with its own SLID and DLID.  They come round by
 * round, the first path of every pair, then the second of every pair, so that
 * NumbPath (the paths wanted in all) takes the most independent ones first:
 * different ports before different LIDs of the same ports.  The
 * IndependenceSelector asks for nothing we could do better, and is taken as
 * given.
 */
#include "sm/sa/sm_sa_records.h"

/* MultiPathRecord components and the PathRecord ones they stand for. */
static const struct {
	uint64_t mpr, pr;
} comps[] = {
	{ MAD_SA_MPR_REVERSIBLE, 1ull << 11 },
	{ MAD_SA_MPR_PKEY, MAD_SA_PR_PKEY },
	{ MAD_SA_MPR_SL, MAD_SA_PR_SL },
	{ MAD_SA_MPR_MTU_SELECTOR, MAD_SA_PR_MTU_SELECTOR },
	{ MAD_SA_MPR_MTU, MAD_SA_PR_MTU },
	{ MAD_SA_MPR_RATE_SELECTOR, MAD_SA_PR_RATE_SELECTOR },
	{ MAD_SA_MPR_RATE, MAD_SA_PR_RATE },
	{ MAD_SA_MPR_SERVICE_ID_MSB, 1ull << 0 },
	{ MAD_SA_MPR_SERVICE_ID_LSB, 1ull << 1 },
};

/* The PathRecord mask a MultiPathRecord's mask @m stands for. */
static uint64_t path_mask(uint64_t m)
{
	uint64_t pm = 0;

	for (size_t i = 0; i < sizeof(comps) / sizeof(comps[0]); i++)
		if (m & comps[i].mpr)
			pm |= comps[i].pr;
	return pm;
}

uint16_t sm_sa_multipath_records(const struct sm_sa_source *src, const struct mad_sa *req,
				 struct sa_out *o)
{
	struct mad_sa_multipath_record r;
	struct sa_port ends[MAD_SA_MULTIPATH_MAX_GIDS];
	uint64_t m = req->comp_mask;

	mad_sa_multipath_record_decode(src->req_data, src->req_data_len, &r);
	if ((m & (MAD_SA_MPR_SGID_COUNT | MAD_SA_MPR_DGID_COUNT)) !=
	    (MAD_SA_MPR_SGID_COUNT | MAD_SA_MPR_DGID_COUNT) || !r.sgid_count || !r.dgid_count)
		return MAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS;
	unsigned ns = r.sgid_count, nd = r.dgid_count;
	if (mad_sa_multipath_gids(src->req_data_len) < ns + nd)
		return MAD_SA_ERR_REQ_INVALID;	/* more GIDs than the request carries */
	const struct mad_sa_path_record *t = &r.path;	/* the template */
	uint64_t pm = path_mask(m);
	uint16_t st = sm_sa_path_template_status(src, t, pm);
	if (st)
		return st;
	for (unsigned k = 0; k < ns + nd; k++)
		if (!sa_gid_port(src, r.gids[k], &ends[k]))
			return MAD_SA_ERR_REQ_INVALID_GID;
	unsigned want = (m & MAD_SA_MPR_NUMB_PATH) ? r.path.numb_path : UINT32_MAX, got = 0;
	bool more = true;
	for (unsigned i = 0; more && got < want && !sa_out_full(o); i++) {
		more = false;
		for (unsigned a = 0; a < ns && got < want && !sa_out_full(o); a++) {
			for (unsigned b = 0; b < nd && got < want && !sa_out_full(o); b++) {
				int rc = sm_sa_port_path(src, t, pm, ends[a], ends[ns + b], i, o);
				more |= rc >= 0;
				got += rc > 0;
			}
		}
	}
	return 0;
}

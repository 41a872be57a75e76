// SPDX-License-Identifier: MIT
/*
 * sm_lft_send.c - LFT blocks sent between heavy sweeps (see sm_lft_send.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_attr.h"
#include "sm/core/sm_lft_send.h"
#include "sm/core/sm_mkey.h"
#include "sm/util/sm_log.h"

struct req {
	struct sm_lft_send *s;
	uint32_t node;
};

int sm_lft_mark(uint64_t **maps, uint32_t n, size_t bit, size_t bits)
{
	if (!maps[n] && !(maps[n] = calloc(bits / 64 + 1, sizeof(uint64_t))))
		return -ENOMEM;
	if (sm_lft_bit(maps[n], bit))
		return 0;
	maps[n][bit / 64] |= 1ull << (bit % 64);
	return 1;
}

static void on_lft_set(void *ctx, int err, const struct mad_smp *req,
		       const struct mad_smp *resp)
{
	struct req *r = ctx;
	struct sm_lft_send *s = r->s;

	if (!err && memcmp(resp->data, req->data, MAD_LFT_BLOCK))
		err = -EPROTO;
	if (err) {
		s->failures++;
		s->failed[r->node] = true;
		sm_warn("%s: LFT Set to 0x%016llx (%s) failed: %s", s->who,
			(unsigned long long)s->f->topo.nodes[r->node].guid,
			s->f->topo.nodes[r->node].desc, strerror(-err));
	}
}

static int mark_pending(struct db *db, void *arg)
{
	struct sm_lft_send *s = arg;
	int rc = 0;

	for (uint32_t n = 0; rc == 0 && n < s->f->topo.n; n++)
		if (s->dirty[n])
			rc = db_lft_mark_pending(db, s->f->topo.nodes[n].guid);
	return rc;
}

int sm_lft_send(struct sm_lft_send *s)
{
	struct sm *sm = s->sm;
	size_t count = 0, k = 0;
	int rc = 0;

	for (uint32_t n = 0; n < s->f->topo.n; n++)
		for (size_t b = 0; s->dirty[n] && b < s->nblocks; b++)
			count += sm_lft_bit(s->dirty[n], b);
	if (!count)
		return 0;
	struct req *reqs = malloc(count * sizeof(*reqs));
	if (!reqs)
		return -ENOMEM;
	pthread_mutex_lock(&sm->db_mu);	/* at top level: no worker holds it */
	if (sm->db && db_batch(sm->db, mark_pending, s))
		sm_warn("%s: LFTs not marked pending: %s", s->who, db_errmsg(sm->db));
	pthread_mutex_unlock(&sm->db_mu);
	for (uint32_t n = 0; rc == 0 && n < s->f->topo.n; n++)
		for (size_t b = 0; rc == 0 && s->dirty[n] && b < s->nblocks; b++) {
			if (!sm_lft_bit(s->dirty[n], b))
				continue;
			struct req *r = &reqs[k++];
			*r = (struct req){ .s = s, .node = n };
			const struct topo_path *path = s->path ? s->path(s->path_arg, n)
							       : &s->f->topo.nodes[n].path;
			if (!(rc = mad_rpc_wait_backlog(sm->rpc)))
				rc = mad_rpc_submit_dr(sm->rpc, MAD_METHOD_SET, MAD_ATTR_LFT, (uint32_t)b,
						       path, sm_mkey_for(s->f, n, 0),
						       s->rt->lft[n] + b * MAD_LFT_BLOCK, on_lft_set, r);
			s->sent += rc == 0;
		}
	if (rc == 0)
		rc = mad_rpc_drain(sm->rpc);
	else
		mad_rpc_discard(sm->rpc);
	free(reqs);
	return rc;
}

int sm_lft_send_store(struct sm_lft_send *s)
{
	int first = 0;

	for (uint32_t n = 0; s->sm->db && n < s->f->topo.n; n++) {
		if (!s->dirty[n])
			continue;
		uint64_t guid = s->f->topo.nodes[n].guid;
		int rc = s->failed[n] ? db_lft_forget(s->sm->db, guid)
				      : db_lft_save_table(s->sm->db, guid, s->rt->lft[n], s->nblocks,
							  false);
		if (rc) {
			sm_warn("%s: LFT not stored: %s", s->who, db_errmsg(s->sm->db));
			first = first ? first : rc;
		}
	}
	return first;
}

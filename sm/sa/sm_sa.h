/* SPDX-License-Identifier: MIT */
/*
 * sm_sa.h - the subnet administrator: SA queries answered from the last
 * committed sweep.
 */
#ifndef IBSMD_SM_SA_H
#define IBSMD_SM_SA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad_sa.h"
#include "mad/mad_transport.h"
#include "sm/core/sm_fabric.h"
#include "sm/sa/sm_mcast.h"
#include "sm/sa/sm_pkey.h"
#include "sm/sa/sm_qos.h"
#include "sm/core/sm_routes.h"
#include "sm/util/sm_loop.h"
#include "sm/sa/sm_sa_alias.h"
#include "sm/sa/sm_sa_index.h"
#include "sm/sa/sm_sa_inform.h"
#include "sm/sa/sm_sa_service.h"

/* What the SA agent did with the MADs it was given. */
struct sm_sa_counts {
	uint64_t answered;	/* status 0, records or a ClassPortInfo */
	uint64_t no_records;	/* ERR_NO_RECORDS (a Get matched nothing) */
	uint64_t invalid;	/* bad class version, an invalid GID, insufficient
				 * components, ERR_TOO_MANY_RECORDS on a Get; and
				 * PathRecords while routes use SLs we do not keep */
	uint64_t unsupported;	/* method or attribute we do not serve */
	uint64_t too_big;	/* a table over what RMPP (or one MAD without it)
				 * may carry (ERR_NO_RESOURCES) */
	uint64_t rmpp;		/* answers sent as RMPP messages */
	uint64_t busy;		/* asked before the first sweep (busy status) */
	uint64_t dropped;	/* not an SA request: short, another class, a response */
};

/* The SA's state in the daemon (struct sm's sa): what it answers with beyond
 * the sweep's fabric, the partitions and multicast groups it manages, and
 * the registrations hosts made. */
struct sm_sa {
	struct sm_sa_counts counts;	/* SA queries answered, refused, dropped */
	struct sm_sa_index index;	/* lookups into the fabric */
	struct sm_partitions partitions;	/* the partitions file as last read well */
	struct sm_qos_policy qos;	/* the QoS policy as last read well (sm_qos.h) */
	bool qos_vl_done;		/* the VL tables last programmed everywhere are its */
	struct sm_pkey_ports pkeys;	/* partitions resolved against the fabric */
	/* P_KeyTables: the partitions were programmed everywhere with no port
	 * armed since (cleared by a changed file); tables other than the
	 * power-on default were ever set by this process */
	bool pkeys_current, pkeys_custom;
	struct sm_mcast mcast;		/* multicast groups and MFTs (sm_mcast.h) */
	struct sm_sa_services services;	/* ServiceRecords registered */
	struct sm_sa_aliases aliases;	/* alias GUIDs registered (GUIDInfoRecord) */
	struct sm_timer lease_timer;	/* for the next lease to run out */
	struct sm_sa_informs informs;	/* trap subscriptions, Reports out */
	struct sm_timer report_timer;	/* for the next Report to send again */
	bool store_due;			/* the store's copy of the three is behind */
	uint64_t stored_ms;		/* mad_now_ms() of its last rewrite */
	struct sm_timer store_timer;	/* for the next rewrite (sm_sa_store.c) */
};

/* What answers are made of. */
struct sm_sa_source {
	const struct sm_fabric *f;	/* NULL before the first sweep */
	const struct sm_sa_index *ix;	/* lookups into f */
	const struct sm_routes *routes;	/* that sweep's LFTs (lft NULL: no paths) */
	uint64_t subnet_prefix;		/* GIDs are prefix:port GUID */
	uint64_t sm_key;		/* a request carrying it may read M_Keys */
	const struct sm_pkey_ports *pkeys;	/* partitions (NULL: the default only) */
	const struct sm_partitions *partitions;	/* as read (a new group's MTU, rate) */
	const struct sm_qos_policy *qos;	/* the QoS policy (sm_qos.h) */
	struct sm_mcast *mcast;		/* multicast groups, changed by joins (NULL: none) */
	const struct mad_sa_sm_info_record *sms;	/* the SMs known, ours first */
	unsigned nsms;
	bool rmpp;			/* answers longer than a MAD can be sent */
	struct sm_sa_services *services;	/* ServiceRecords (NULL: none taken) */
	struct sm_sa_aliases *aliases;	/* alias GUIDs (NULL: none taken) */
	uint64_t now_ms;		/* mad_now_ms(), for leases */
	struct sm_sa_informs *informs;	/* trap subscriptions (NULL: none taken) */
	uint16_t requester_lid;		/* who asked (a subscriber's LID) */
	/* the request's data, all of it (sm_sa_answer() sets them): a request
	 * the transport reassembled from RMPP segments carries more than the
	 * MAD's worth of req->data (a GetMulti's GIDs) */
	const uint8_t *req_data;
	size_t req_data_len;
};

/* An answer: one MAD, or with RMPP a longer message. */
struct sm_sa_reply {
	uint8_t mad[MAD_BLOCK_SIZE];	/* the answer, or the first MAD of msg */
	uint8_t *msg;			/* NULL, or the whole message (RMPP) */
	size_t len;			/* its length */
};

/* The SMs an SM knows of, for SMInfoRecords: itself, the master it polls. */
#define SM_SA_MAX_SMS 2
struct sm;
unsigned sm_sa_known_sms(const struct sm *sm, struct mad_sa_sm_info_record out[SM_SA_MAX_SMS]);

/*
 * Answer the SA request @req (@len bytes) from @src: true with @out the
 * encoded answer to send back (sm_sa_reply_free()), false when the MAD gets
 * no answer (counted as dropped).  Never trusts @req: every field is checked,
 * the worst value is answered with a status.
 */
bool sm_sa_answer(const struct sm_sa_source *src, const uint8_t *req, size_t len,
		  struct sm_sa_reply *out, struct sm_sa_counts *counts);
void sm_sa_reply_free(struct sm_sa_reply *r);

/* Drop the ServiceRecords whose lease ran out (the store follows), and arm
 * the loop's timer for the next to run out. */
void sm_sa_leases_check(struct sm *sm);

/* The rpc layer's GSI handler (mad_rpc_set_gsi); @ctx is the struct sm.  The
 * answer goes back to @from as it came: QP, SL, P_Key index and GRH. */
void sm_sa_in(void *ctx, const uint8_t *msg, size_t len, const struct mad_addr *from);

#endif

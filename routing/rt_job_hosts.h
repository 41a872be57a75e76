/* SPDX-License-Identifier: MIT */
/*
 * rt_job_hosts.h - hosts as a batch scheduler names them, found in the
 * fabric by NodeDescription, and their rails.
 *
 * A CA reports a NodeDescription such as "node17 mlx5_3": the first word is
 * the host's name, the second the device.  Every CA port with a LID cabled
 * to a switch whose description starts with a host's name is one of its
 * endpoints; a host with several (HCAs, ports) has rails.  Rails are numbered
 * over the whole fabric: the distinct (device, port) pairs in natural order
 * (mlx5_2 before mlx5_10), so HCA i of every node is on rail i.  A name
 * without a dot also matches a description whose first word is that name
 * and a domain ("node17" is "node17.cluster"), when only one host does.
 *
 * Rail validation (as ibdiagnet --rail_validation): every leaf switch has
 * the rail most of its endpoints are on; an endpoint on a leaf of another
 * rail is misplaced, and named.
 */
#ifndef IBSMD_RT_JOB_HOSTS_H
#define IBSMD_RT_JOB_HOSTS_H

#include <stdint.h>

#include "ibsmd/routing.h"

#define RT_HOST_NAME_MAX 64	/* bytes of a host name, the NUL included */
#define RT_MAX_RAILS 255

struct rt_hosts;

/* The hosts of view @v (its descriptions are borrowed: @v must outlive the
 * result).  0 or -ENOMEM. */
int rt_hosts_build(const struct ibsmd_rt_view *v, struct rt_hosts **out);
void rt_hosts_free(struct rt_hosts *h);

uint32_t rt_hosts_count(const struct rt_hosts *h);
unsigned rt_hosts_rails(const struct rt_hosts *h);

/* Is @name a host name as the control socket takes it: 1 to
 * RT_HOST_NAME_MAX - 1 bytes of letters, digits, '.', '-', '_'? */
bool rt_host_name_ok(const char *name);

/* A job's ranks as endpoints (rt_job.h's spec arrays), malloc'd. */
struct rt_job_ranks {
	uint32_t nranks;
	uint32_t *first;	/* [nranks + 1] */
	uint16_t *lids;
	uint8_t *rails;
};
void rt_job_ranks_free(struct rt_job_ranks *r);

/*
 * The endpoints of hosts @names[0..n-1], in that (rank) order, into @out.
 * 0; -EINVAL when a name is no host name or comes twice (*@bad its index);
 * -ENOENT when a host is not in the fabric (*@bad the first such index,
 * *@unknown how many); -ENOMEM.
 */
int rt_hosts_job(const struct rt_hosts *h, const char *const *names, uint32_t n,
		 struct rt_job_ranks *out, uint32_t *bad, uint32_t *unknown);

/* One endpoint on a leaf of another rail. */
struct rt_rail_misplaced {
	uint32_t node;		/* the CA's node index in the view */
	uint8_t port;
	uint8_t rail, leaf_rail;
	uint32_t leaf;		/* the leaf switch's node index */
};

struct rt_rail_check {
	uint32_t hosts;		/* hosts with more than one endpoint */
	unsigned rails;
	uint32_t endpoints;	/* of those hosts */
	uint32_t leaves;	/* leaf switches they are on */
	uint32_t misplaced;	/* endpoints on a leaf of another rail */
	struct rt_rail_misplaced first[16];	/* the first of them */
};

/* Check that every host's endpoint of rail i is on a rail-i leaf.  0 (the
 * verdict in @out), -ENOMEM. */
int rt_hosts_rail_check(const struct rt_hosts *h, struct rt_rail_check *out);

/* The description of rail @rail: "mlx5_3 port 1" into @buf. */
void rt_hosts_rail_name(const struct rt_hosts *h, unsigned rail, char *buf, size_t len);

#endif

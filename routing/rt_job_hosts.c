// SPDX-License-Identifier: MIT
/*
 * rt_job_hosts.c - hosts by NodeDescription, their endpoints and rails (see
 * rt_job_hosts.h).
 *
 * Build: every CA port with a LID on a switch becomes an endpoint with its
 * host (the description's first word) and device (the second); endpoints are
 * sorted by host, device (natural order) and port, so a host's endpoints are
 * consecutive and in rail order; the distinct (device, port) pairs, sorted
 * the same way, are the rails.  Lookups are binary searches over the hosts
 * by full name and by the name up to its first dot.
 */
#define _GNU_SOURCE	/* qsort_r */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/rt_job_hosts.h"

#define DEV_MAX 32

struct hep {
	char host[RT_HOST_NAME_MAX];
	char dev[DEV_MAX];
	uint32_t node, leaf;
	uint16_t lid;
	uint8_t port;
	uint8_t rail;
};

struct rail {
	char dev[DEV_MAX];
	uint8_t port;
};

struct host {
	const char *name;	/* in eps[first].host */
	size_t short_len;	/* up to the first '.' */
	uint32_t first, n;
};

struct rt_hosts {
	const struct ibsmd_rt_view *v;
	struct hep *eps;
	uint32_t neps;
	struct host *hosts;	/* by name */
	uint32_t nhosts;
	uint32_t *by_short;	/* host indices by short name */
	struct rail *rails;
	unsigned nrails;
};

/* Natural order: runs of digits compare as numbers. */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			size_t la = 0, lb = 0;
			while (isdigit((unsigned char)a[la]))
				la++;
			while (isdigit((unsigned char)b[lb]))
				lb++;
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = strncmp(a, b, la);
			if (c)
				return c;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int hep_cmp(const void *x, const void *y)
{
	const struct hep *a = x, *b = y;
	int c = strcmp(a->host, b->host);

	if (c == 0)
		c = natural_cmp(a->dev, b->dev);
	return c ? c : a->port - b->port;
}

static int rail_cmp(const void *x, const void *y)
{
	const struct rail *a = x, *b = y;
	int c = natural_cmp(a->dev, b->dev);

	return c ? c : a->port - b->port;
}

bool rt_host_name_ok(const char *name)
{
	size_t n = 0;

	for (; name && name[n]; n++)
		if (!isalnum((unsigned char)name[n]) && !strchr("._-", name[n]))
			return false;
	return n > 0 && n < RT_HOST_NAME_MAX;
}

/* The first two words of @desc into @host and @dev; false when the first is
 * empty or too long. */
static bool split_desc(const char *desc, char *host, char *dev)
{
	size_t i = 0, k = 0;

	while (desc[i] == ' ' || desc[i] == '\t')
		i++;
	while (desc[i] && desc[i] != ' ' && desc[i] != '\t') {
		if (k + 1 >= RT_HOST_NAME_MAX)
			return false;
		host[k++] = desc[i++];
	}
	host[k] = '\0';
	while (desc[i] == ' ' || desc[i] == '\t')
		i++;
	for (k = 0; desc[i] && desc[i] != ' ' && desc[i] != '\t' && k + 1 < DEV_MAX;)
		dev[k++] = desc[i++];
	dev[k] = '\0';
	return host[0] != '\0';
}

static int collect(struct rt_hosts *h)
{
	const struct ibsmd_rt_view *v = h->v;
	size_t cap = 0;

	for (uint32_t n = 0; n < v->nnodes; n++)
		if (!ibsmd_is_switch(v, n))
			cap += v->nodes[n].nports;
	h->eps = malloc((cap + 1) * sizeof(*h->eps));
	if (!h->eps)
		return -ENOMEM;
	for (uint32_t n = 0; n < v->nnodes; n++) {
		const struct ibsmd_rt_node *nd = &v->nodes[n];
		char host[RT_HOST_NAME_MAX], dev[DEV_MAX];
		if (ibsmd_is_switch(v, n) || !nd->desc || !split_desc(nd->desc, host, dev))
			continue;
		for (unsigned p = 1; p <= nd->nports; p++) {
			const struct ibsmd_rt_port *pt = &nd->ports[p];
			if (!pt->lid || pt->lid > v->max_lid || !ibsmd_is_switch(v, pt->peer))
				continue;
			struct hep *e = &h->eps[h->neps++];
			memcpy(e->host, host, sizeof(host));
			memcpy(e->dev, dev, sizeof(dev));
			e->node = n;
			e->leaf = pt->peer;
			e->lid = pt->lid;
			e->port = (uint8_t)p;
		}
	}
	if (h->neps)
		qsort(h->eps, h->neps, sizeof(*h->eps), hep_cmp);
	return 0;
}

static int number_rails(struct rt_hosts *h)
{
	h->rails = malloc(((size_t)h->neps + 1) * sizeof(*h->rails));
	if (!h->rails)
		return -ENOMEM;
	for (uint32_t i = 0; i < h->neps; i++) {
		memcpy(h->rails[i].dev, h->eps[i].dev, DEV_MAX);
		h->rails[i].port = h->eps[i].port;
	}
	if (h->neps)
		qsort(h->rails, h->neps, sizeof(*h->rails), rail_cmp);
	unsigned n = 0;
	for (uint32_t i = 0; i < h->neps; i++)
		if (n == 0 || rail_cmp(&h->rails[n - 1], &h->rails[i]))
			h->rails[n++] = h->rails[i];
	h->nrails = n;
	for (uint32_t i = 0; i < h->neps; i++) {
		struct rail key;
		memcpy(key.dev, h->eps[i].dev, DEV_MAX);
		key.port = h->eps[i].port;
		struct rail *r = bsearch(&key, h->rails, n, sizeof(*h->rails), rail_cmp);
		size_t idx = (size_t)(r - h->rails);
		/* past RT_MAX_RAILS rails, the last ones share the last number */
		h->eps[i].rail = (uint8_t)(idx < RT_MAX_RAILS ? idx : RT_MAX_RAILS - 1);
	}
	return 0;
}

static int short_cmp_idx(const void *x, const void *y, void *arg)
{
	const struct host *hosts = arg;
	const struct host *a = &hosts[*(const uint32_t *)x];
	const struct host *b = &hosts[*(const uint32_t *)y];
	size_t n = a->short_len < b->short_len ? a->short_len : b->short_len;
	int c = strncmp(a->name, b->name, n);

	return c ? c : (a->short_len > b->short_len) - (a->short_len < b->short_len);
}

static int group_hosts(struct rt_hosts *h)
{
	h->hosts = malloc(((size_t)h->neps + 1) * sizeof(*h->hosts));
	h->by_short = malloc(((size_t)h->neps + 1) * sizeof(*h->by_short));
	if (!h->hosts || !h->by_short)
		return -ENOMEM;
	for (uint32_t i = 0; i < h->neps; i++) {
		if (h->nhosts && !strcmp(h->hosts[h->nhosts - 1].name, h->eps[i].host)) {
			h->hosts[h->nhosts - 1].n++;
			continue;
		}
		const char *name = h->eps[i].host;
		h->hosts[h->nhosts++] = (struct host){ name, strcspn(name, "."), i, 1 };
	}
	for (uint32_t i = 0; i < h->nhosts; i++)
		h->by_short[i] = i;
	qsort_r(h->by_short, h->nhosts, sizeof(*h->by_short), short_cmp_idx, h->hosts);
	return 0;
}

int rt_hosts_build(const struct ibsmd_rt_view *v, struct rt_hosts **out)
{
	struct rt_hosts *h = calloc(1, sizeof(*h));
	int rc;

	if (!h)
		return -ENOMEM;
	h->v = v;
	rc = collect(h);
	if (rc == 0)
		rc = number_rails(h);
	if (rc == 0)
		rc = group_hosts(h);
	if (rc) {
		rt_hosts_free(h);
		return rc;
	}
	*out = h;
	return 0;
}

void rt_hosts_free(struct rt_hosts *h)
{
	if (!h)
		return;
	free(h->eps);
	free(h->hosts);
	free(h->by_short);
	free(h->rails);
	free(h);
}

uint32_t rt_hosts_count(const struct rt_hosts *h)
{
	return h->nhosts;
}

unsigned rt_hosts_rails(const struct rt_hosts *h)
{
	return h->nrails;
}

void rt_hosts_rail_name(const struct rt_hosts *h, unsigned rail, char *buf, size_t len)
{
	if (rail < h->nrails)
		snprintf(buf, len, "%s%sport %u", h->rails[rail].dev, h->rails[rail].dev[0] ? " " : "",
			 h->rails[rail].port);
	else
		snprintf(buf, len, "?");
}

/* The host called @name, or NULL (also when a short name is ambiguous). */
static const struct host *find_host(const struct rt_hosts *h, const char *name)
{
	uint32_t lo = 0, hi = h->nhosts;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int c = strcmp(h->hosts[mid].name, name);
		if (c == 0)
			return &h->hosts[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (strchr(name, '.'))
		return NULL;
	size_t len = strlen(name);
	lo = 0;
	hi = h->nhosts;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		const struct host *x = &h->hosts[h->by_short[mid]];
		size_t n = x->short_len < len ? x->short_len : len;
		int c = strncmp(x->name, name, n);
		if (c == 0)
			c = (x->short_len > len) - (x->short_len < len);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= h->nhosts)
		return NULL;
	const struct host *x = &h->hosts[h->by_short[lo]];
	if (x->short_len != len || strncmp(x->name, name, len))
		return NULL;
	if (lo + 1 < h->nhosts) {
		const struct host *y = &h->hosts[h->by_short[lo + 1]];
		if (y->short_len == len && !strncmp(y->name, name, len))
			return NULL;	/* two hosts answer to it */
	}
	return x;
}

static int strp_cmp(const void *a, const void *b)
{
	return strcmp(**(const char *const *const *)a, **(const char *const *const *)b);
}

void rt_job_ranks_free(struct rt_job_ranks *r)
{
	free(r->first);
	free(r->lids);
	free(r->rails);
	memset(r, 0, sizeof(*r));
}

/* The first name of @names that comes twice, or UINT32_MAX. */
static int find_twice(const char *const *names, uint32_t n, uint32_t *twice)
{
	const char *const **p = malloc(((size_t)n + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		p[i] = &names[i];
	qsort(p, n, sizeof(*p), strp_cmp);
	*twice = UINT32_MAX;
	for (uint32_t i = 1; i < n; i++)
		if (!strcmp(*p[i], *p[i - 1])) {
			uint32_t a = (uint32_t)(p[i] - names), b = (uint32_t)(p[i - 1] - names);
			uint32_t later = a > b ? a : b;
			*twice = later < *twice ? later : *twice;
		}
	free(p);
	return 0;
}

int rt_hosts_job(const struct rt_hosts *h, const char *const *names, uint32_t n,
		 struct rt_job_ranks *out, uint32_t *bad, uint32_t *unknown)
{
	const struct host **at;
	uint32_t twice, neps = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	*unknown = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!rt_host_name_ok(names[i])) {
			*bad = i;
			return -EINVAL;
		}
	rc = find_twice(names, n, &twice);
	if (rc)
		return rc;
	if (twice != UINT32_MAX) {
		*bad = twice;
		return -EINVAL;
	}
	if (!(at = malloc(((size_t)n + 1) * sizeof(*at))))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		at[i] = find_host(h, names[i]);
		if (!at[i] && (*unknown)++ == 0)
			*bad = i;
		else if (at[i])
			neps += at[i]->n;
	}
	if (*unknown) {
		free(at);
		return -ENOENT;
	}
	out->nranks = n;
	out->first = malloc(((size_t)n + 1) * sizeof(*out->first));
	out->lids = malloc(((size_t)neps + 1) * sizeof(*out->lids));
	out->rails = malloc((size_t)neps + 1);
	if (!out->first || !out->lids || !out->rails) {
		free(at);
		rt_job_ranks_free(out);
		return -ENOMEM;
	}
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		out->first[i] = k;
		for (uint32_t e = at[i]->first; e < at[i]->first + at[i]->n; e++) {
			out->lids[k] = h->eps[e].lid;
			out->rails[k++] = h->eps[e].rail;
		}
	}
	out->first[n] = k;
	free(at);
	return 0;
}

static int leaf_cmp(const void *x, const void *y, void *arg)
{
	const struct hep *eps = arg;
	uint32_t a = eps[*(const uint32_t *)x].leaf, b = eps[*(const uint32_t *)y].leaf;

	return (a > b) - (a < b);
}

int rt_hosts_rail_check(const struct rt_hosts *h, struct rt_rail_check *out)
{
	uint32_t *idx = malloc(((size_t)h->neps + 1) * sizeof(*idx)), n = 0;
	uint32_t count[RT_MAX_RAILS];

	memset(out, 0, sizeof(*out));
	if (!idx)
		return -ENOMEM;
	out->rails = h->nrails;
	for (uint32_t i = 0; i < h->nhosts; i++) {
		if (h->hosts[i].n < 2)
			continue;
		out->hosts++;
		for (uint32_t e = h->hosts[i].first; e < h->hosts[i].first + h->hosts[i].n; e++)
			idx[n++] = e;
	}
	out->endpoints = n;
	qsort_r(idx, n, sizeof(*idx), leaf_cmp, h->eps);
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i, leaf = h->eps[idx[i]].leaf;
		unsigned best = 0;
		memset(count, 0, sizeof(count));
		while (j < n && h->eps[idx[j]].leaf == leaf)
			count[h->eps[idx[j++]].rail]++;
		for (unsigned r = 1; r < RT_MAX_RAILS; r++)
			best = count[r] > count[best] ? r : best;
		out->leaves++;
		for (uint32_t k = i; k < j; k++) {
			const struct hep *e = &h->eps[idx[k]];
			if (e->rail == best)
				continue;
			if (out->misplaced < sizeof(out->first) / sizeof(out->first[0]))
				out->first[out->misplaced] = (struct rt_rail_misplaced){
					.node = e->node, .port = e->port, .rail = e->rail,
					.leaf_rail = (uint8_t)best, .leaf = leaf };
			out->misplaced++;
		}
		i = j;
	}
	free(idx);
	return 0;
}

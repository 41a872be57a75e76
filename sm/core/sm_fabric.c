// SPDX-License-Identifier: MIT
/*
 * sm_fabric.c - the sweep's fabric view: topology plus device attributes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/core/sm_fabric.h"

void sm_fabric_init(struct sm_fabric *f)
{
	memset(f, 0, sizeof(*f));
	topo_init(&f->topo);
	f->local_node = TOPO_NONE;
}

void sm_fabric_free(struct sm_fabric *f)
{
	for (uint32_t i = 0; i < f->topo.n; i++) {
		free(f->attrs[i].pi);
		free(f->attrs[i].pi_valid);
		free(f->attrs[i].refused);
	}
	free(f->attrs);
	free(f->issues);
	sm_mkey_free(&f->mkeys);
	topo_free(&f->topo);
	sm_fabric_init(f);
}

uint32_t sm_fabric_add_node(struct sm_fabric *f, uint8_t type, uint8_t nports,
			    uint64_t guid)
{
	if (f->topo.n == f->attrs_cap) {
		uint32_t cap = f->attrs_cap ? f->attrs_cap * 2 : 64;
		struct sm_node_attrs *a = realloc(f->attrs, cap * sizeof(*a));
		if (!a)
			return TOPO_NONE;
		f->attrs = a;
		f->attrs_cap = cap;
	}
	struct sm_node_attrs *a = &f->attrs[f->topo.n];
	memset(a, 0, sizeof(*a));
	a->pi = calloc((size_t)nports + 1, sizeof(*a->pi));
	a->pi_valid = calloc((size_t)nports + 1, sizeof(*a->pi_valid));
	uint32_t idx = a->pi && a->pi_valid ? topo_add_node(&f->topo, type, nports, guid)
					     : TOPO_NONE;
	if (idx == TOPO_NONE) {
		free(a->pi);
		free(a->pi_valid);
	}
	return idx;
}

static const struct topo *sort_topo;	/* for qsort's comparison */

static int cmp_guid(const void *a, const void *b)
{
	uint64_t x = sort_topo->nodes[*(const uint32_t *)a].guid;
	uint64_t y = sort_topo->nodes[*(const uint32_t *)b].guid;

	return x < y ? -1 : x > y;
}

int sm_fabric_sort(struct sm_fabric *f)
{
	uint32_t n = f->topo.n;
	uint32_t *perm = malloc((n + 1) * sizeof(*perm));
	struct sm_node_attrs *attrs = malloc((f->attrs_cap + 1) * sizeof(*attrs));
	int rc = perm && attrs ? 0 : -ENOMEM;

	for (uint32_t i = 0; rc == 0 && i < n; i++)
		perm[i] = i;
	if (rc == 0) {
		sort_topo = &f->topo;
		qsort(perm, n, sizeof(*perm), cmp_guid);
		rc = topo_reorder(&f->topo, perm);
	}
	if (rc == 0) {
		uint32_t local = f->local_node;
		for (uint32_t i = 0; i < n; i++) {
			attrs[i] = f->attrs[perm[i]];
			if (perm[i] == local)
				f->local_node = i;
		}
		free(f->attrs);
		f->attrs = attrs;
		attrs = NULL;
	}
	free(perm);
	free(attrs);
	return rc;
}

int sm_fabric_issue(struct sm_fabric *f, enum sm_issue_kind kind, uint64_t guid,
		    uint8_t port, const char *fmt, ...)
{
	if (f->nissues == f->issues_cap) {
		size_t cap = f->issues_cap ? f->issues_cap * 2 : 16;
		struct sm_issue *is = realloc(f->issues, cap * sizeof(*is));
		if (!is)
			return -ENOMEM;
		f->issues = is;
		f->issues_cap = cap;
	}
	struct sm_issue *is = &f->issues[f->nissues++];
	va_list ap;

	is->kind = kind;
	is->guid = guid;
	is->port = port;
	is->probe = false;
	va_start(ap, fmt);
	vsnprintf(is->detail, sizeof(is->detail), fmt, ap);
	va_end(ap);
	return 0;
}

const char *sm_issue_kind_name(enum sm_issue_kind kind)
{
	switch (kind) {
	case SM_ISSUE_UNRESPONSIVE: return "unresponsive";
	case SM_ISSUE_DUPLICATE_GUID: return "duplicate_guid";
	case SM_ISSUE_HOP_LIMIT: return "hop_limit";
	case SM_ISSUE_BAD_ANSWER: return "error";
	case SM_ISSUE_MKEY_FOREIGN: return "mkey_foreign";
	case SM_ISSUE_MKEY_UNKNOWN: return "mkey_unknown";
	}
	return "error";
}

void sm_fabric_port_path(const struct sm_fabric *f, uint32_t node, uint8_t port,
			 struct topo_path *out)
{
	const struct topo_node *n = &f->topo.nodes[node];
	const struct topo_port *tp = &n->ports[port];

	*out = n->path;
	if (n->type == MAD_NODE_SWITCH || (node == f->local_node && port == f->local_port) ||
	    tp->peer == TOPO_NONE ||
	    f->topo.nodes[tp->peer].type != MAD_NODE_SWITCH)
		return;
	struct topo_path via = f->topo.nodes[tp->peer].path;
	if (mad_drpath_push(&via, tp->peer_port) == 0)
		*out = via;
}

bool sm_fabric_ext_speeds(const struct sm_fabric *f, uint32_t node, uint8_t port)
{
	const struct sm_node_attrs *a = &f->attrs[node];

	if (f->topo.nodes[node].type == MAD_NODE_SWITCH)
		port = 0;
	return a->pi_valid[port] && (a->pi[port].cap_mask & MAD_CAP_IS_EXT_SPEEDS_SUPPORTED);
}

uint32_t sm_fabric_port_info_mod(const struct sm_fabric *f, uint32_t node, uint8_t port)
{
	return port | (sm_fabric_ext_speeds(f, node, port) ? MAD_PORT_INFO_EXT_SPEEDS : 0);
}

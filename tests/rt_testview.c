// SPDX-License-Identifier: MIT
/*
 * rt_testview.c - routing views for tests (see rt_testview.h).
 *
 * The topology file goes through topofile_load(); LIDs are then written into
 * the topo's ports, and the view is built from the topo by topo_view_build(),
 * as the daemon's routing stage builds it from a sweep (a file gives no
 * physical states, so every link counts as up).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/model/topofile.h"
#include "tests/rt_testview.h"

char rtv_last_log[1024];

static void rtv_log(int prio, const char *fmt, ...)
{
	va_list ap;

	(void)prio;
	va_start(ap, fmt);
	vsnprintf(rtv_last_log, sizeof(rtv_last_log), fmt, ap);
	va_end(ap);
	if (getenv("RTV_VERBOSE"))
		fprintf(stderr, "%s\n", rtv_last_log);
}

static void number_lids(struct topo *t)
{
	uint16_t lid = 1;

	for (uint32_t n = 0; n < t->n; n++)
		if (t->nodes[n].type == MAD_NODE_SWITCH)
			t->nodes[n].ports[0].lid = lid++;
	for (uint32_t n = 0; n < t->n; n++)
		for (unsigned p = 1; t->nodes[n].type != MAD_NODE_SWITCH &&
		     p <= t->nodes[n].nports; p++)
			if (t->nodes[n].ports[p].peer != TOPO_NONE)
				t->nodes[n].ports[p].lid = lid++;
}

/* The port whose port GUID is @guid (switches answer on port 0). */
static struct topo_port *port_by_guid(struct topo *t, uint64_t guid)
{
	for (uint32_t n = 0; n < t->n; n++) {
		struct topo_node *tn = &t->nodes[n];
		unsigned first = tn->type == MAD_NODE_SWITCH ? 0 : 1;
		unsigned last = tn->type == MAD_NODE_SWITCH ? 0 : tn->nports;
		for (unsigned p = first; p <= last; p++)
			if (tn->ports[p].guid == guid)
				return &tn->ports[p];
	}
	return NULL;
}

static int read_lids(struct topo *t, const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long guid;
	char word[32];
	int lid, rc = 0;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -errno;
	}
	/* strtoull: a GUID above 0x7fff... does not fit %lli */
	while (rc == 0 && fscanf(f, "%i %31s", &lid, word) == 2) {
		guid = strtoull(word, NULL, 0);
		struct topo_port *p = port_by_guid(t, guid);
		if (!p) {
			fprintf(stderr, "%s: no port has GUID 0x%llx\n", path, guid);
			rc = -EINVAL;
		} else if (lid < 1 || lid > IBSMD_MAX_UCAST_LID) {
			fprintf(stderr, "%s: LID %d is no unicast LID\n", path, lid);
			rc = -ERANGE;
		} else {
			p->lid = (uint16_t)lid;
		}
	}
	fclose(f);
	return rc;
}

static int build_view(struct rtv *r)
{
	const struct topo *t = &r->topo;
	uint32_t top = 0;

	for (uint32_t n = 0; n < t->n; n++) {
		for (unsigned p = 0; p <= t->nodes[n].nports; p++) {
			const struct topo_port *tp = &t->nodes[n].ports[p];
			if (tp->lid && tp->lid + (1u << tp->lmc) - 1 > top)
				top = tp->lid + (1u << tp->lmc) - 1;
		}
	}
	if (top > UINT16_MAX)
		return -ERANGE;
	int rc = topo_view_build(t, (uint16_t)top, &r->view);
	if (rc)
		return rc;
	r->v = r->view.v;
	r->lft = calloc(t->n + 1, sizeof(*r->lft));
	if (!r->lft)
		return -ENOMEM;
	for (uint32_t n = 0; n < t->n; n++)
		if (t->nodes[n].type == MAD_NODE_SWITCH && !(r->lft[n] = malloc(top + 1)))
			return -ENOMEM;
	r->ctx = (struct ibsmd_rt_ctx){ .view = &r->v, .lft = r->lft, .log = rtv_log };
	rtv_clear(r);
	return 0;
}

int rtv_load(struct rtv *r, const char *topofile, const char *lidfile,
	     const char *const *options)
{
	char err[512];
	int rc;

	memset(r, 0, sizeof(*r));
	rc = topofile_load(topofile, &r->topo, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s\n", err);
		return rc;
	}
	if (lidfile)
		rc = read_lids(&r->topo, lidfile);
	else
		number_lids(&r->topo);
	if (rc == 0)
		rc = build_view(r);
	if (rc) {
		rtv_free(r);
		return rc;
	}
	for (unsigned i = 0; options && options[i]; i++)
		r->ctx.noptions = i + 1;
	r->ctx.options = options;
	return 0;
}

static void free_view(struct rtv *r)
{
	for (uint32_t n = 0; r->lft && n < r->topo.n; n++)
		free(r->lft[n]);
	free(r->lft);
	r->lft = NULL;
	topo_view_free(&r->view);
}

int rtv_set_lmc(struct rtv *r, unsigned lmc)
{
	struct topo *t = &r->topo;
	uint32_t lid = 1;

	if (lmc > 7)
		return -EINVAL;
	for (uint32_t n = 0; n < t->n; n++)
		if (t->nodes[n].type == MAD_NODE_SWITCH)
			t->nodes[n].ports[0].lid = (uint16_t)lid++;
	for (uint32_t n = 0; n < t->n; n++)
		for (unsigned p = 1; t->nodes[n].type != MAD_NODE_SWITCH &&
		     p <= t->nodes[n].nports; p++) {
			struct topo_port *tp = &t->nodes[n].ports[p];
			if (tp->peer == TOPO_NONE)
				continue;
			lid = (lid + (1u << lmc) - 1) & ~((1u << lmc) - 1);
			if (lid + (1u << lmc) - 1 > IBSMD_MAX_UCAST_LID)
				return -ERANGE;
			tp->lid = (uint16_t)lid;
			tp->lmc = (uint8_t)lmc;
			lid += 1u << lmc;
		}
	const char *const *options = r->ctx.options;
	unsigned noptions = r->ctx.noptions;
	free_view(r);
	int rc = build_view(r);
	r->ctx.options = options;
	r->ctx.noptions = noptions;
	return rc;
}

void rtv_clear(struct rtv *r)
{
	for (uint32_t n = 0; n < r->v.nnodes; n++)
		if (r->lft[n])
			memset(r->lft[n], IBSMD_NO_PORT, (size_t)r->v.max_lid + 1);
}

void rtv_free(struct rtv *r)
{
	free_view(r);
	topo_free(&r->topo);
	memset(r, 0, sizeof(*r));
}

char *rtv_topogen(const char *args)
{
	const char *top = getenv("top_builddir");
	char *path = strdup("/tmp/rt-topogen-XXXXXX");
	char cmd[1024];
	int fd;

	if (!path || (fd = mkstemp(path)) < 0) {
		free(path);
		return NULL;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s/contrib/topogen/ibsmd-topogen %s -o %s",
		 top ? top : ".", args, path);
	if (system(cmd) != 0) {
		fprintf(stderr, "failed: %s\n", cmd);
		unlink(path);
		free(path);
		return NULL;
	}
	return path;
}

int rtv_load_generated(struct rtv *r, const char *args, const char *const *options)
{
	char *path = rtv_topogen(args);

	if (!path)
		return -1;
	int rc = rtv_load(r, path, NULL, options);
	unlink(path);
	free(path);
	return rc;
}

const char *rtv_srcpath(const char *rel)
{
	static char buf[1024];
	const char *top = getenv("top_srcdir");

	snprintf(buf, sizeof(buf), "%s/%s", top ? top : ".", rel);
	return buf;
}

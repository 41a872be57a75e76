/* SPDX-License-Identifier: MIT */
/*
 * rt_testview.h - routing views for the routing tests and timing programs.
 *
 * Loads a topology file (ibsim net or ibnetdiscover format) with the topology
 * reader, gives LIDs the way an SM would (every switch's port 0, then every
 * linked CA port, in node order, from LID 1; or from a "LID PORTGUID" list),
 * and builds the struct ibsmd_rt_view and LFT rows an engine is handed.
 */
#ifndef IBSMD_TESTS_RT_TESTVIEW_H
#define IBSMD_TESTS_RT_TESTVIEW_H

#include "mad/mad_topo.h"
#include "routing/rt.h"

struct rtv {
	struct topo topo;
	struct ibsmd_rt_view v;
	struct ibsmd_rt_node *nodes;
	struct ibsmd_rt_port *ports;
	uint32_t *lid_node;
	uint8_t *lid_port;
	uint8_t **lft;		/* rows for switches, NULL for the others */
	struct ibsmd_rt_ctx ctx;
};

/* The last line the engines logged (tests look for their messages). */
extern char rtv_last_log[1024];

/*
 * Load @topofile into @r.  With @lidfile NULL, LIDs are numbered as above;
 * else each line of @lidfile is "LID PORTGUID" (hex or decimal).  @options
 * (NULL-terminated, may be NULL) become ctx.options.  0 or -errno (with a
 * message on stderr).  rtv_free() releases everything.
 */
int rtv_load(struct rtv *r, const char *topofile, const char *lidfile,
	     const char *const *options);
void rtv_free(struct rtv *r);

/* Set every LFT entry to IBSMD_NO_PORT. */
void rtv_clear(struct rtv *r);

/* "$top_builddir/contrib/topogen/ibsmd-topogen ARGS" into a temporary file;
 * returns its path (malloc'd; unlink and free it) or NULL. */
char *rtv_topogen(const char *args);

/* rtv_load() of what rtv_topogen(@args) writes, with @options; the file is
 * removed again.  0 or -1. */
int rtv_load_generated(struct rtv *r, const char *args, const char *const *options);

/* $top_srcdir (or ".") joined with @rel, in a static buffer. */
const char *rtv_srcpath(const char *rel);

#endif

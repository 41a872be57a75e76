/* SPDX-License-Identifier: MIT */
/*
 * rt_testview.h - routing views for the routing tests and timing programs.
 *
 * Loads a topology file (ibsim net or ibnetdiscover format) with the topology
 * reader, gives LIDs the way an SM would (every switch's port 0, then every
 * linked CA port, in node order, from LID 1; or from a "LID PORTGUID" list),
 * and builds the struct ibsmd_rt_view (with the daemon's builder,
 * mad/model/topo_view.c) and the LFT rows an engine is handed.
 */
#ifndef IBSMD_TESTS_RT_TESTVIEW_H
#define IBSMD_TESTS_RT_TESTVIEW_H

#include "mad/model/topo_view.h"
#include "routing/rt.h"

struct rtv {
	struct topo topo;
	struct topo_view view;	/* the view and the arrays behind it */
	struct ibsmd_rt_view v;	/* view.v, where the tests look */
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

/* Number the LIDs again with LMC @lmc (0..7) on every CA port: switches
 * from LID 1, then each CA port at the next multiple of 2^lmc; the view and
 * its LFT rows are built anew (all IBSMD_NO_PORT).  0 or -errno. */
int rtv_set_lmc(struct rtv *r, unsigned lmc);

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

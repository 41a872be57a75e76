# routing/: the engine API (public header), built-in engines, plugin loader, validation.
noinst_LTLIBRARIES += routing/libibsmd_routing.la
routing_libibsmd_routing_la_SOURCES = \
	routing/ibsmd/routing.h routing/rt.h \
	routing/rt_chain.c routing/rt_guids.h routing/rt_guids.c routing/rt_sandbox.h routing/rt_sandbox.c routing/rt_validate.c routing/rt_cdg.c \
	routing/rt_par.h routing/rt_par.c routing/rt_path_sl.h routing/rt_path_sl.c \
	routing/rt_quality.h routing/rt_quality.c routing/rt_traffic.h routing/rt_traffic.c \
	routing/rt_minhop.c routing/rt_updn.c routing/rt_levels.h routing/rt_levels.c routing/rt_ftree.c routing/rt_file.c \
	routing/rt_dfsssp.c routing/rt_adaptive.h routing/rt_adaptive.c routing/rt_ar.h routing/rt_ar.c \
	routing/rt_rebalance.h routing/rt_rebalance.c \
	routing/rt_job.h routing/rt_job_int.h routing/rt_job.c routing/rt_job_net.c \
	routing/rt_job_pattern.c routing/rt_job_colour.c routing/rt_job_init.c \
	routing/rt_job_search.c routing/rt_job_shifts.c routing/rt_job_paths.c routing/rt_job_ebb.c routing/rt_job_hosts.h routing/rt_job_hosts.c
routing_libibsmd_routing_la_CPPFLAGS = $(AM_CPPFLAGS) -DIBSMD_BUILTIN_ENGINE
routing_libibsmd_routing_la_LIBADD = $(LIBS) -lm
ROUTING_LIBS = routing/libibsmd_routing.la $(MODEL_LIBS)

ibsmdincludedir = $(includedir)/ibsmd
ibsmdinclude_HEADERS = routing/ibsmd/routing.h
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = routing/ibsmd-routing.pc
EXTRA_DIST += routing/ibsmd-routing.pc.in

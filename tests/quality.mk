# tests/: the routing quality figures (routing/rt_quality.c) and the traffic
# model (routing/rt_traffic.c), smquery
# route-check, and the quality comparison against OpenSM (contrib/bench/quality.sh,
# run by hand: it needs ibsim, opensm and infiniband-diags).
if HAVE_CHECK
check_PROGRAMS += tests/check_rt_quality
tests_check_rt_quality_SOURCES = tests/check_rt_quality.c tests/rt_testview.c tests/rt_testview.h
tests_check_rt_quality_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_quality_LDADD = $(ROUTING_LIBS) $(MAD_LIBS) $(CHECK_LIBS) -lm
TESTS += tests/check_rt_quality
# the engine adaptive: its AR groups and their EBB in the traffic model
check_PROGRAMS += tests/check_rt_adaptive
tests_check_rt_adaptive_SOURCES = tests/check_rt_adaptive.c tests/rt_testview.c tests/rt_testview.h
tests_check_rt_adaptive_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_adaptive_LDADD = $(ROUTING_LIBS) $(MAD_LIBS) $(CHECK_LIBS) -lm
TESTS += tests/check_rt_adaptive
# AR groups through the engine API (ABI 3): the chain, the sandbox, the checks
check_PROGRAMS += tests/check_rt_ar
tests_check_rt_ar_SOURCES = tests/check_rt_ar.c tests/rt_testview.c tests/rt_testview.h
tests_check_rt_ar_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_ar_LDADD = $(ROUTING_LIBS) $(MAD_LIBS) $(CHECK_LIBS) -lm
TESTS += tests/check_rt_ar
# congestion-aware rebalancing on the traffic model's port loads
check_PROGRAMS += tests/check_rt_rebalance
tests_check_rt_rebalance_SOURCES = tests/check_rt_rebalance.c tests/rt_testview.c tests/rt_testview.h
tests_check_rt_rebalance_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_rebalance_LDADD = $(ROUTING_LIBS) $(MAD_LIBS) $(CHECK_LIBS) -lm
TESTS += tests/check_rt_rebalance
# job-aware routing (routing/rt_job*.c) on generated fat trees
check_PROGRAMS += tests/check_rt_job
tests_check_rt_job_SOURCES = tests/check_rt_job.c tests/rt_testview.c tests/rt_testview.h
tests_check_rt_job_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_job_LDADD = $(ROUTING_LIBS) $(MAD_LIBS) $(CHECK_LIBS) -lm
TESTS += tests/check_rt_job
check_PROGRAMS += tests/check_rt_job_hosts
tests_check_rt_job_hosts_SOURCES = tests/check_rt_job_hosts.c tests/rt_testview.c tests/rt_testview.h
tests_check_rt_job_hosts_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_job_hosts_LDADD = $(ROUTING_LIBS) $(MAD_LIBS) $(CHECK_LIBS) -lm
TESTS += tests/check_rt_job_hosts
endif
# a plugin with good LFTs and bad AR groups (check_rt_ar)
check_LTLIBRARIES += tests/rt_arbad.la
tests_rt_arbad_la_SOURCES = tests/rt_arbad_plugin.c
tests_rt_arbad_la_CPPFLAGS = -I$(top_srcdir)/routing
tests_rt_arbad_la_LDFLAGS = $(PLUGIN_FLAGS)

# smquery route-check: golden reports on check_smquery_mkdb's stores (tests/db.mk)
TESTS += tests/check_smquery_routecheck.sh
dist_noinst_SCRIPTS += tests/check_smquery_routecheck.sh

# contrib/bench/quality.sh (by hand, or from make bench): the quality figures of
# LFTs read back with ibroute, OpenSM's and ibsmd's, on the same fabric
noinst_PROGRAMS += contrib/bench/quality_from_ibroute
contrib_bench_quality_from_ibroute_SOURCES = contrib/bench/quality_from_ibroute.c \
	tests/rt_testview.c tests/rt_testview.h
contrib_bench_quality_from_ibroute_LDADD = $(ROUTING_LIBS) $(MAD_LIBS) -lm
dist_noinst_SCRIPTS += contrib/bench/quality.sh

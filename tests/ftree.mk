# tests/: the ftree routing engine (routing/rt_ftree.c): Check suite.  Time it
# with tests/rt_engine_time TOPOFILE ftree (tests/updn.mk).
# Views come from tests/rt_testview.c (shared with the updn tests).
if HAVE_CHECK
check_PROGRAMS += tests/check_rt_ftree
tests_check_rt_ftree_SOURCES = tests/check_rt_ftree.c tests/rt_testview.c tests/rt_testview.h
tests_check_rt_ftree_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_ftree_LDADD = $(ROUTING_LIBS) $(MAD_LIBS) $(CHECK_LIBS)
TESTS += tests/check_rt_ftree
endif

# the ftree engine's LFTs, by digest, as they were before the speed work
# (tests/bench_route on topogen trees and a real cluster)
TESTS += tests/route_digest.sh
dist_noinst_SCRIPTS += tests/route_digest.sh

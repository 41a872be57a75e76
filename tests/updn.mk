# tests/: the updn, dfsssp and file routing engines, LMC multipath in every
# engine, the channel dependency graph check, and validation and CDG results
# on any number of cores (routing/rt_updn.c, rt_dfsssp.c, rt_file.c, rt_cdg.c,
# rt_par.c).  rt_testview.c builds
# routing views from topology files; fixtures live in tests/rt/.
# rt_engine_time is a timing program (not a test): rt_engine_time TOPOFILE [ENGINE];
# rt_path_sl prints an engine's path SLs for ibdmchk (tests/interop/ibdmchk.sh).
EXTRA_DIST += tests/rt
if HAVE_CHECK
RT_TEST_SOURCES = tests/rt_testview.c tests/rt_testview.h
RT_TEST_LIBS = $(ROUTING_LIBS) $(MAD_LIBS) $(CHECK_LIBS)

check_PROGRAMS += tests/check_rt_updn tests/check_rt_cdg tests/check_rt_file \
	tests/check_rt_par tests/rt_engine_time
tests_check_rt_updn_SOURCES = tests/check_rt_updn.c $(RT_TEST_SOURCES)
tests_check_rt_updn_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_updn_LDADD = $(RT_TEST_LIBS)
tests_check_rt_cdg_SOURCES = tests/check_rt_cdg.c $(RT_TEST_SOURCES)
tests_check_rt_cdg_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_cdg_LDADD = $(RT_TEST_LIBS)
tests_check_rt_file_SOURCES = tests/check_rt_file.c $(RT_TEST_SOURCES)
tests_check_rt_file_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_file_LDADD = $(RT_TEST_LIBS)
tests_check_rt_par_SOURCES = tests/check_rt_par.c $(RT_TEST_SOURCES)
tests_check_rt_par_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_par_LDADD = $(RT_TEST_LIBS)
tests_rt_engine_time_SOURCES = tests/rt_engine_time.c $(RT_TEST_SOURCES)
tests_rt_engine_time_LDADD = $(ROUTING_LIBS) $(MAD_LIBS)
check_PROGRAMS += tests/check_rt_dfsssp tests/check_rt_lmc tests/rt_path_sl
tests_rt_path_sl_SOURCES = tests/rt_path_sl.c $(RT_TEST_SOURCES)
tests_rt_path_sl_LDADD = $(ROUTING_LIBS) $(MAD_LIBS)
tests_check_rt_dfsssp_SOURCES = tests/check_rt_dfsssp.c $(RT_TEST_SOURCES)
tests_check_rt_dfsssp_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_dfsssp_LDADD = $(RT_TEST_LIBS)
tests_check_rt_lmc_SOURCES = tests/check_rt_lmc.c $(RT_TEST_SOURCES)
tests_check_rt_lmc_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_rt_lmc_LDADD = $(RT_TEST_LIBS)
TESTS += tests/check_rt_updn tests/check_rt_cdg tests/check_rt_file \
	tests/check_rt_dfsssp tests/check_rt_lmc tests/check_rt_par
endif

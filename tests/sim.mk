# tests/: the simulated fabric (the topology reader's tests: tests/model.mk).
# check_mad_sim: SMP semantics and fault injection on tests/topo/chain.topo.
# bench_sim_load: load a fabric and DR-walk every node (not run by make check).
EXTRA_DIST += tests/topo

noinst_PROGRAMS += contrib/bench/bench_sim_load
contrib_bench_bench_sim_load_SOURCES = contrib/bench/bench_sim_load.c
contrib_bench_bench_sim_load_LDADD = $(MAD_LIBS)

if HAVE_CHECK
check_PROGRAMS += tests/check_mad_sim
tests_check_mad_sim_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_mad_sim_LDADD = $(MAD_LIBS) $(CHECK_LIBS)
TESTS += tests/check_mad_sim
# check_mad_sim_ar: adaptive routing on the sim's switches (tests/topo/ar.topo).
check_PROGRAMS += tests/check_mad_sim_ar
tests_check_mad_sim_ar_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_mad_sim_ar_LDADD = $(MAD_LIBS) $(CHECK_LIBS)
TESTS += tests/check_mad_sim_ar
endif

# tests/: the topology reader and the simulated fabric.
# check_mad_topofile: golden parses and error messages (tests/topo/).
# check_mad_sim: SMP semantics and fault injection on tests/topo/chain.topo.
# fuzz_topofile: the fuzz target, run here over its seed corpus.
# bench_sim_load: load a fabric and DR-walk every node (not run by make check).
EXTRA_DIST += tests/topo tests/fuzz/corpus-topofile

check_PROGRAMS += tests/fuzz/fuzz_topofile
tests_fuzz_fuzz_topofile_SOURCES = tests/fuzz/fuzz_topofile.c tests/fuzz/fuzz_main.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_topofile_LDADD = $(MAD_LIBS)
TESTS += tests/fuzz/fuzz_topofile

noinst_PROGRAMS += contrib/bench/bench_sim_load
contrib_bench_bench_sim_load_SOURCES = contrib/bench/bench_sim_load.c
contrib_bench_bench_sim_load_LDADD = $(MAD_LIBS)

if HAVE_CHECK
check_PROGRAMS += tests/check_mad_topofile tests/check_mad_sim
tests_check_mad_topofile_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_mad_topofile_LDADD = $(MAD_LIBS) $(CHECK_LIBS)
tests_check_mad_sim_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_mad_sim_LDADD = $(MAD_LIBS) $(CHECK_LIBS)
TESTS += tests/check_mad_topofile tests/check_mad_sim
endif

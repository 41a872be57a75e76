# tests/: the fabric model (mad/model/), linked on its own: no mad/, no SQLite.
# check_topo: GUID index, links, reorder, value names.
# check_topofile: golden parses and error messages (tests/topo/).
# check_topo_text: strings from the fabric and files made safe to show.
# fuzz_topofile: the reader's fuzz target, run here over its seed corpus.
EXTRA_DIST += tests/fuzz/corpus-topofile
check_PROGRAMS += tests/fuzz/fuzz_topofile
tests_fuzz_fuzz_topofile_SOURCES = tests/fuzz/fuzz_topofile.c tests/fuzz/fuzz_main.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_topofile_LDADD = $(MODEL_LIBS)
TESTS += tests/fuzz/fuzz_topofile

if HAVE_CHECK
check_PROGRAMS += tests/check_topo tests/check_topofile tests/check_topo_text
tests_check_topo_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_topo_LDADD = $(MODEL_LIBS) $(CHECK_LIBS)
tests_check_topofile_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_topofile_LDADD = $(MODEL_LIBS) $(CHECK_LIBS)
tests_check_topo_text_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_topo_text_LDADD = $(MODEL_LIBS) $(CHECK_LIBS)
TESTS += tests/check_topo tests/check_topofile tests/check_topo_text
endif

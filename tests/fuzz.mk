# tests/fuzz/: `make fuzz` builds each fuzz target with libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer (clang), and runs it for FUZZ_SECONDS (60) from
# its seed corpus in the tree.  The library sources the targets test are
# compiled once, straight from the automake source lists and FUZZ_JOBS at a
# time, into one archive (fuzz-out/libfuzz.a) each target links what it uses
# from, so the gcc build of the same tree is untouched; the binaries, the
# corpus they grow and any crash input go to fuzz-out/.  `make check` replays
# the seed corpora with the plain build (tests.mk, model.mk).  FUZZ_TARGETS
# picks some: make fuzz FUZZ_TARGETS=fuzz_mad FUZZ_SECONDS=600.
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_JOBS = $$(nproc)
FUZZ_TARGETS = fuzz_mad fuzz_topofile fuzz_config fuzz_partitions fuzz_partitions_osm \
	fuzz_qos fuzz_import_opensm fuzz_rtfile fuzz_sa fuzz_sa_agent fuzz_perf fuzz_cc fuzz_text
FUZZ_BASE_CFLAGS = -g -O1 -fno-omit-frame-pointer -fno-sanitize-recover=all \
	-DFUZZ_LIBFUZZER -DIBSMD_BUILTIN_ENGINE
FUZZ_CFLAGS = $(FUZZ_BASE_CFLAGS) -fsanitize=fuzzer,address,undefined
# the library's objects: instrumented for libFuzzer, without its main()
FUZZ_LIB_CFLAGS = $(FUZZ_BASE_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined
FUZZ_CC_FLAGS = $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) -std=gnu11
# a target: the .c files among its prerequisites (found through VPATH) and the
# archive, compiled and linked
FUZZ_COMPILE = srcs=; for f in $^; do case $$f in *.c|*.a) srcs="$$srcs $$f";; esac; done; \
	$(FUZZ_CC) $(FUZZ_CC_FLAGS) $(FUZZ_CFLAGS) -o $@ $$srcs
# every library the targets test: the archive's sources
FUZZ_LIB_SRC = $(sm_libibsmd_sm_la_SOURCES) $(db_libibsmd_db_la_SOURCES) \
	$(routing_libibsmd_routing_la_SOURCES) $(mad_libibsmd_mad_la_SOURCES) \
	$(mad_model_libibsmd_model_la_SOURCES)
FUZZ_MAD_LIBS = $(UMAD_LIBS) $(IBMAD_LIBS) $(LIBS)
FUZZ_SM_LIBS = $(YAML_LIBS) $(SQLITE_LIBS) $(SYSTEMD_LIBS) $(FUZZ_MAD_LIBS) -lm -lpthread
EXTRA_DIST += tests/fuzz.mk

# Every library source, one object each (its path with / as _), FUZZ_JOBS at
# a time; the archive made anew when any changes.
fuzz-out/libfuzz.a: $(FUZZ_LIB_SRC)
	@rm -rf fuzz-out/obj && $(MKDIR_P) fuzz-out/obj; echo "  FUZZAR   $@"
	@for f in $^; do case $$f in *.c) echo "fuzz-out/obj/$$(echo "$$f" | tr / _).o $$f";; \
		esac; done | xargs -n 2 -P "$(FUZZ_JOBS)" \
		$(FUZZ_CC) $(FUZZ_CC_FLAGS) $(FUZZ_LIB_CFLAGS) -c -o
	@rm -f $@ && $(AR) rcs $@ fuzz-out/obj/*.o

fuzz-out/fuzz_topofile: tests/fuzz/fuzz_topofile.c tests/fuzz/fuzz_main.c fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(LIBS)
fuzz-out/fuzz_text: tests/fuzz/fuzz_text.c tests/fuzz/fuzz_main.c \
		fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(LIBS)
fuzz-out/fuzz_mad: tests/fuzz/fuzz_mad.c tests/fuzz/fuzz_main.c fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_MAD_LIBS)
fuzz-out/fuzz_rtfile: tests/fuzz/fuzz_rtfile.c tests/fuzz/fuzz_main.c tests/rt_testview.c \
		fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_MAD_LIBS) -lm
fuzz-out/fuzz_config: tests/fuzz/fuzz_config.c tests/fuzz/fuzz_main.c fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_SM_LIBS)
fuzz-out/fuzz_partitions: tests/fuzz/fuzz_partitions.c tests/fuzz/fuzz_main.c fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_SM_LIBS)
fuzz-out/fuzz_partitions_osm: tests/fuzz/fuzz_partitions_osm.c tests/fuzz/fuzz_main.c \
		fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_SM_LIBS)
fuzz-out/fuzz_qos: tests/fuzz/fuzz_qos.c tests/fuzz/fuzz_main.c fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_SM_LIBS)
fuzz-out/fuzz_import_opensm: tests/fuzz/fuzz_import_opensm.c tests/fuzz/fuzz_main.c \
		fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_SM_LIBS)
fuzz-out/fuzz_sa: tests/fuzz/fuzz_sa.c tests/fuzz/fuzz_main.c fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_MAD_LIBS)
fuzz-out/fuzz_perf: tests/fuzz/fuzz_perf.c tests/fuzz/fuzz_main.c fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_MAD_LIBS)
fuzz-out/fuzz_cc: tests/fuzz/fuzz_cc.c tests/fuzz/fuzz_main.c fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_MAD_LIBS)
fuzz-out/fuzz_sa_agent: tests/fuzz/fuzz_sa_agent.c tests/fuzz/fuzz_main.c fuzz-out/libfuzz.a
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_SM_LIBS)

# One target after the other, each from a copy of its seed corpus; the first
# finding stops the run (libFuzzer exits non-zero and leaves its input in fuzz-out/).
fuzz: $(FUZZ_TARGETS:%=fuzz-out/%)
	@set -e; for t in $(FUZZ_TARGETS); do \
		c=$$(sed -n 's/^const char fuzz_corpus\[\] = "\(.*\)";/\1/p' \
			'$(abs_top_srcdir)/tests/fuzz/'$$t.c); \
		rm -rf fuzz-out/$$t.corpus && $(MKDIR_P) fuzz-out/$$t.corpus; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s from tests/fuzz/$$c"; \
		top_srcdir='$(abs_top_srcdir)' fuzz-out/$$t -max_total_time=$(FUZZ_SECONDS) \
			-print_final_stats=1 -artifact_prefix=fuzz-out/$$t- \
			fuzz-out/$$t.corpus '$(abs_top_srcdir)/tests/fuzz/'$$c \
			> fuzz-out/$$t.log 2>&1 || { tail -n 60 fuzz-out/$$t.log; exit 1; }; \
		grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' fuzz-out/$$t.log | tail -n 2; \
	done
clean-local: clean-fuzz
clean-fuzz:
	rm -rf fuzz-out
.PHONY: fuzz clean-fuzz

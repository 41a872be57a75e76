# tests/fuzz/: `make fuzz` builds each fuzz target with libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer (clang), and runs it for FUZZ_SECONDS (60) from
# its seed corpus in the tree.  The targets and the library sources they test are
# compiled together straight from the automake source lists, so the gcc build
# of the same tree is untouched; the binaries, the corpus they grow and any
# crash input go to fuzz-out/.  `make check` replays the seed corpora with the
# plain build (tests.mk, model.mk).  FUZZ_TARGETS picks some: make fuzz
# FUZZ_TARGETS=fuzz_mad FUZZ_SECONDS=600.
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_TARGETS = fuzz_mad fuzz_topofile fuzz_config fuzz_partitions fuzz_partitions_osm \
	fuzz_qos fuzz_import_opensm fuzz_rtfile fuzz_sa fuzz_sa_agent fuzz_perf fuzz_cc fuzz_text
FUZZ_CFLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -DFUZZ_LIBFUZZER -DIBSMD_BUILTIN_ENGINE
# the .c files among the prerequisites (found through VPATH), compiled and linked
FUZZ_COMPILE = srcs=; for f in $^; do case $$f in *.c) srcs="$$srcs $$f";; esac; done; \
	$(FUZZ_CC) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) \
	-std=gnu11 $(FUZZ_CFLAGS) -o $@ $$srcs
FUZZ_MODEL_SRC = $(mad_model_libibsmd_model_la_SOURCES)
FUZZ_MAD_SRC = $(mad_libibsmd_mad_la_SOURCES) $(FUZZ_MODEL_SRC)
FUZZ_ROUTING_SRC = $(routing_libibsmd_routing_la_SOURCES) $(FUZZ_MAD_SRC)
FUZZ_SM_SRC = $(sm_libibsmd_sm_la_SOURCES) $(db_libibsmd_db_la_SOURCES) $(FUZZ_ROUTING_SRC)
FUZZ_MAD_LIBS = $(UMAD_LIBS) $(IBMAD_LIBS) $(LIBS)
EXTRA_DIST += tests/fuzz.mk

fuzz-out/fuzz_topofile: tests/fuzz/fuzz_topofile.c tests/fuzz/fuzz_main.c $(FUZZ_MODEL_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(LIBS)
fuzz-out/fuzz_text: tests/fuzz/fuzz_text.c tests/fuzz/fuzz_main.c sm/util/sm_log.c \
		$(FUZZ_MODEL_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(LIBS)
fuzz-out/fuzz_mad: tests/fuzz/fuzz_mad.c tests/fuzz/fuzz_main.c $(FUZZ_MAD_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_MAD_LIBS)
fuzz-out/fuzz_rtfile: tests/fuzz/fuzz_rtfile.c tests/fuzz/fuzz_main.c tests/rt_testview.c \
		$(FUZZ_ROUTING_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_MAD_LIBS) -lm
fuzz-out/fuzz_config: tests/fuzz/fuzz_config.c tests/fuzz/fuzz_main.c $(FUZZ_SM_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(YAML_LIBS) $(SQLITE_LIBS) $(SYSTEMD_LIBS) $(FUZZ_MAD_LIBS) -lm -lpthread
fuzz-out/fuzz_partitions: tests/fuzz/fuzz_partitions.c tests/fuzz/fuzz_main.c $(FUZZ_SM_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(YAML_LIBS) $(SQLITE_LIBS) $(SYSTEMD_LIBS) $(FUZZ_MAD_LIBS) -lm -lpthread
fuzz-out/fuzz_partitions_osm: tests/fuzz/fuzz_partitions_osm.c tests/fuzz/fuzz_main.c \
		$(FUZZ_SM_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(YAML_LIBS) $(SQLITE_LIBS) $(SYSTEMD_LIBS) $(FUZZ_MAD_LIBS) -lm -lpthread
fuzz-out/fuzz_qos: tests/fuzz/fuzz_qos.c tests/fuzz/fuzz_main.c $(FUZZ_SM_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(YAML_LIBS) $(SQLITE_LIBS) $(SYSTEMD_LIBS) $(FUZZ_MAD_LIBS) -lm -lpthread
fuzz-out/fuzz_import_opensm: tests/fuzz/fuzz_import_opensm.c tests/fuzz/fuzz_main.c \
		$(FUZZ_SM_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(YAML_LIBS) $(SQLITE_LIBS) $(SYSTEMD_LIBS) $(FUZZ_MAD_LIBS) -lm -lpthread
fuzz-out/fuzz_sa: tests/fuzz/fuzz_sa.c tests/fuzz/fuzz_main.c $(FUZZ_MAD_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_MAD_LIBS)
fuzz-out/fuzz_perf: tests/fuzz/fuzz_perf.c tests/fuzz/fuzz_main.c $(FUZZ_MAD_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_MAD_LIBS)
fuzz-out/fuzz_cc: tests/fuzz/fuzz_cc.c tests/fuzz/fuzz_main.c $(FUZZ_MAD_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(FUZZ_MAD_LIBS)
fuzz-out/fuzz_sa_agent: tests/fuzz/fuzz_sa_agent.c tests/fuzz/fuzz_main.c $(FUZZ_SM_SRC)
	@$(MKDIR_P) fuzz-out; echo "  FUZZCC   $@"
	@$(FUZZ_COMPILE) $(YAML_LIBS) $(SQLITE_LIBS) $(SYSTEMD_LIBS) $(FUZZ_MAD_LIBS) -lm -lpthread

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

# sm/: smquery, the command-line client of the store.
bin_PROGRAMS += smquery
smquery_SOURCES = sm/smquery/smq.h sm/smquery/smquery.c sm/smquery/smq_out.c sm/smquery/smq_node.c sm/smquery/smq_fabric.c \
	sm/smquery/smq_topology.c sm/smquery/smq_dot.c sm/smquery/smq_tiers.c sm/smquery/smq_history.c sm/smquery/smq_metrics.c sm/smquery/smq_lft.c sm/smquery/smq_route.c sm/smquery/smq_osm.c \
	sm/smquery/smq_osm_sl.h sm/smquery/smq_osm_sl.c \
	sm/smquery/smq_part.c \
	sm/smquery/smq_check.h sm/smquery/smq_check.c sm/smquery/smq_path_sl.h sm/smquery/smq_path_sl.c sm/smquery/smq_ctl.h sm/smquery/smq_ctl.c sm/smquery/smq_job.h sm/smquery/smq_job.c sm/smquery/smq_job_check.h sm/smquery/smq_job_check.c sm/smquery/smq_counters.c \
	sm/smquery/smq_map.h sm/smquery/smq_map.c sm/smquery/smq_map_data.c sm/smquery/smq_map_lz.c sm/smquery/smq_isolate.c
smquery_SOURCES += sm/smquery/smq_map_problems.c sm/smquery/smq_cc.c
nodist_smquery_SOURCES = sm/smquery/smq_map_page.h
smquery_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
# The store, the model and the routing library: not the daemon's library, no
# libyaml, no wire format (tests/layers.sh checks it).
smquery_LDADD = $(ROUTING_LIBS) $(DB_LIBS)
dist_man_MANS += sm/smquery/smquery.1
EXTRA_DIST += sm/smquery/README.md
# the map's page template as a C string
sm/smquery/smq_map_page.h: $(srcdir)/sm/smquery/smq_map_page.html
	$(AM_V_GEN)$(MKDIR_P) sm && $(AWK) 'BEGIN { print "/* generated from sm/smquery/smq_map_page.html */"; \
		print "static const char smq_map_page[] =" } \
		{ out = ""; for (i = 1; i <= length($$0); i++) { c = substr($$0, i, 1); \
		  out = out (c == "\\" || c == "\"" ? "\\" c : c) } printf "\"%s\\n\"\n", out } \
		END { print ";" }' $(srcdir)/sm/smquery/smq_map_page.html > $@-t && mv $@-t $@
BUILT_SOURCES += sm/smquery/smq_map_page.h
sm/smquery-smq_map.$(OBJEXT): sm/smquery/smq_map_page.h
CLEANFILES += sm/smquery/smq_map_page.h
EXTRA_DIST += sm/smquery/smq_map_page.html

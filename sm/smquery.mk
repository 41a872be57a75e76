# sm/: smquery, the command-line client of the store.
bin_PROGRAMS += smquery
smquery_SOURCES = sm/smq.h sm/smquery.c sm/smq_out.c sm/smq_node.c sm/smq_fabric.c \
	sm/smq_topology.c sm/smq_dot.c sm/smq_tiers.c sm/smq_history.c sm/smq_metrics.c sm/smq_lft.c sm/smq_route.c sm/smq_osm.c \
	sm/smq_part.c \
	sm/smq_check.h sm/smq_check.c sm/smq_path_sl.h sm/smq_path_sl.c sm/smq_ctl.h sm/smq_ctl.c sm/smq_counters.c \
	sm/smq_map.h sm/smq_map.c sm/smq_map_data.c sm/smq_map_lz.c sm/smq_isolate.c
nodist_smquery_SOURCES = sm/smq_map_page.h
smquery_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
# The store, the model and the routing library: not the daemon's library, no
# libyaml, no wire format (tests/layers.sh checks it).
smquery_LDADD = $(ROUTING_LIBS) $(DB_LIBS)
dist_man_MANS += sm/smquery.1
# the map's page template as a C string
sm/smq_map_page.h: $(srcdir)/sm/smq_map_page.html
	$(AM_V_GEN)$(MKDIR_P) sm && $(AWK) 'BEGIN { print "/* generated from sm/smq_map_page.html */"; \
		print "static const char smq_map_page[] =" } \
		{ out = ""; for (i = 1; i <= length($$0); i++) { c = substr($$0, i, 1); \
		  out = out (c == "\\" || c == "\"" ? "\\" c : c) } printf "\"%s\\n\"\n", out } \
		END { print ";" }' $(srcdir)/sm/smq_map_page.html > $@-t && mv $@-t $@
BUILT_SOURCES += sm/smq_map_page.h
sm/smquery-smq_map.$(OBJEXT): sm/smq_map_page.h
CLEANFILES += sm/smq_map_page.h
EXTRA_DIST += sm/smq_map_page.html

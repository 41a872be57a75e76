# sm/: smquery, the command-line client of the store.
bin_PROGRAMS += smquery
smquery_SOURCES = sm/smq.h sm/smquery.c sm/smq_out.c sm/smq_node.c sm/smq_fabric.c \
	sm/smq_topology.c sm/smq_history.c sm/smq_metrics.c sm/smq_lft.c sm/smq_route.c sm/smq_osm.c \
	sm/smq_check.h sm/smq_check.c sm/smq_ctl.h sm/smq_ctl.c sm/smq_counters.c
smquery_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
# The store, the model and the routing library: not the daemon's library, no
# libyaml, no wire format (tests/layers.sh checks it).
smquery_LDADD = $(ROUTING_LIBS) $(DB_LIBS)
dist_man_MANS += sm/smquery.1

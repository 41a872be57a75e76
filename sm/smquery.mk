# sm/: smquery, the command-line client of the store.
bin_PROGRAMS += smquery
smquery_SOURCES = sm/smq.h sm/smquery.c sm/smq_out.c sm/smq_node.c sm/smq_fabric.c \
	sm/smq_topology.c sm/smq_history.c sm/smq_lft.c sm/smq_route.c sm/smq_osm.c
smquery_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
smquery_LDADD = $(DB_LIBS)
dist_man_MANS += sm/smquery.1

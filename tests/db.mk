# tests/: Check suites for db/ and smquery.
if HAVE_CHECK
DB_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(SQLITE_CFLAGS)
DB_TEST_LIBS = $(DB_LIBS) $(CHECK_LIBS) $(SQLITE_LIBS)
check_LTLIBRARIES += tests/libdbfixture.la
tests_libdbfixture_la_SOURCES = tests/check_db_fixture.h tests/check_db_fixture.c
tests_libdbfixture_la_CFLAGS = $(DB_TEST_CFLAGS)

DB_CHECKS = tests/check_db_open tests/check_db_topo tests/check_db_misc tests/check_db_history \
	tests/check_db_counters tests/check_db_sa tests/check_db_metrics
check_PROGRAMS += $(DB_CHECKS)
TESTS += $(DB_CHECKS)
tests_check_db_open_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_db_open_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)
tests_check_db_topo_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_db_topo_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)
tests_check_db_misc_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_db_misc_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)
tests_check_db_history_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_db_history_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)
tests_check_db_counters_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_db_counters_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)
tests_check_db_sa_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_db_sa_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)
tests_check_db_metrics_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_db_metrics_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)

# smquery: golden outputs on a database built by a helper, and round trips
check_PROGRAMS += tests/check_smquery_mkdb
tests_check_smquery_mkdb_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_smquery_mkdb_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)
TESTS += tests/check_smquery.sh tests/check_smquery_ibsim.sh
dist_noinst_SCRIPTS += tests/check_smquery.sh tests/check_smquery_ibsim.sh
# smquery's pictures of the fabric: Graphviz, the HTML map, its packed LFTs
check_PROGRAMS += tests/check_smq_lz
tests_check_smq_lz_SOURCES = tests/check_smq_lz.c sm/smquery/smq_map_lz.c
tests_check_smq_lz_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_smq_lz_LDADD = $(CHECK_LIBS)
TESTS += tests/check_smq_lz
# what the fabric lost (the map's problems): links down, unanswered ports
check_PROGRAMS += tests/check_db_lost
tests_check_db_lost_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_db_lost_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)
TESTS += tests/check_db_lost
TESTS += tests/check_smquery_map.sh
dist_noinst_SCRIPTS += tests/check_smquery_map.sh
# the map in headless Chromium, routes against ibtracert under ibsim
TESTS += tests/map_browser.sh
dist_noinst_SCRIPTS += tests/map_browser.sh
# the broken links of the 3,456-host tree seen in Chromium's screenshot,
# kept in tests/artifacts/
TESTS += tests/map_problems.sh
dist_noinst_SCRIPTS += tests/map_problems.sh tests/map_pixels.py

# smquery without the daemon's library or libyaml; db/ without mad/
TESTS += tests/layers.sh tests/folder_graph.sh
dist_noinst_SCRIPTS += tests/layers.sh tests/folder_graph.sh contrib/folder-graph.py
# the daemon's metrics file and light-sweep records; promtool on the metrics
TESTS += tests/metrics.sh
dist_noinst_SCRIPTS += tests/metrics.sh
# the daemon's HTTP endpoint against well-behaved and hostile clients
TESTS += tests/metrics_http.sh
dist_noinst_SCRIPTS += tests/metrics_http.sh
# the real components: prometheus scraping ibsmd over HTTP and through
# prometheus-node-exporter's textfile collector; the dashboard's queries
TESTS += tests/prometheus.sh
dist_noinst_SCRIPTS += tests/prometheus.sh
# the alert rules and scrape example (promtool check and test)
TESTS += tests/prometheus_rules.sh
dist_noinst_SCRIPTS += tests/prometheus_rules.sh
EXTRA_DIST += tests/golden

# ibdmchk (ibutils) checks the routes ibsmd programs, from smquery dump-opensm;
# the control run on broken LFTs uses check_smquery_mkdb
TESTS += tests/interop/ibdmchk.sh
dist_noinst_SCRIPTS += tests/interop/ibdmchk.sh
endif

# smquery lft = ibroute and smquery route = ibtracert under ibsim
TESTS += tests/interop/smquery-ibroute.sh
dist_noinst_SCRIPTS += tests/interop/smquery-ibroute.sh

# the screenshots map_problems.sh keeps
clean-local: clean-map-artifacts
clean-map-artifacts:
	rm -rf tests/artifacts
.PHONY: clean-map-artifacts

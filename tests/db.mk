# tests/: Check suites for db/ and smquery.
if HAVE_CHECK
DB_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(SQLITE_CFLAGS)
DB_TEST_LIBS = $(DB_LIBS) $(CHECK_LIBS) $(SQLITE_LIBS)
check_LTLIBRARIES += tests/libdbfixture.la
tests_libdbfixture_la_SOURCES = tests/check_db_fixture.h tests/check_db_fixture.c
tests_libdbfixture_la_CFLAGS = $(DB_TEST_CFLAGS)

DB_CHECKS = tests/check_db_open tests/check_db_topo tests/check_db_misc
check_PROGRAMS += $(DB_CHECKS)
TESTS += $(DB_CHECKS)
tests_check_db_open_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_db_open_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)
tests_check_db_topo_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_db_topo_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)
tests_check_db_misc_CFLAGS = $(DB_TEST_CFLAGS)
tests_check_db_misc_LDADD = tests/libdbfixture.la $(DB_TEST_LIBS)
endif

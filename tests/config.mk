# tests/config.mk: the service around the daemon: --check-config, log
# reopening, sd_notify, the systemd unit, the store's path, the man pages
# against --help.  (check_sm_config is in tests.mk.)
if HAVE_CHECK
check_PROGRAMS += tests/check_sm_notify tests/check_sm_log
tests_check_sm_notify_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_notify_LDADD = $(SM_LIBS) $(CHECK_LIBS)
tests_check_sm_log_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_log_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_notify tests/check_sm_log
endif

# ibsmd --check-config [-v] end to end
TESTS += tests/check_config.sh
dist_noinst_SCRIPTS += tests/check_config.sh

# systemd-analyze verify on the unit, pointed at the built ibsmd (skips without it)
TESTS += tests/systemd.sh
dist_noinst_SCRIPTS += tests/systemd.sh

# smquery with no options finds the store and socket of the installed ibsmd.yaml
TESTS += tests/store_path.sh
dist_noinst_SCRIPTS += tests/store_path.sh

# ibsmd(8) and smquery(1) name the options --help names (skips without groff)
TESTS += tests/man_help.sh
dist_noinst_SCRIPTS += tests/man_help.sh

# tests/: the umad backend.  check_mad_umad: spec parsing and error messages
# without hardware.  mad_probe: a directed-route walk over any transport,
# printed canonically.  interop/probe-vs-sim.sh: the same fabric through
# ibsim+umad and through the sim backend must print alike (skips without
# ibsim).  contrib/ibsim/ibsim-ns.sh runs ibsim for it and for other tests.
noinst_PROGRAMS += tests/mad_probe
tests_mad_probe_SOURCES = tests/mad_probe.c
tests_mad_probe_LDADD = $(MAD_LIBS)

TESTS += tests/interop/probe-vs-sim.sh
dist_noinst_SCRIPTS += tests/interop/probe-vs-sim.sh contrib/ibsim/ibsim-ns.sh

if HAVE_CHECK
check_PROGRAMS += tests/check_mad_umad
tests_check_mad_umad_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_mad_umad_LDADD = $(MAD_LIBS) $(CHECK_LIBS)
TESTS += tests/check_mad_umad
endif

# interop: a port whose SM class another SM holds is reported as such (the
# registration failure simulated by a preloaded umad_register, under ibsim)
check_LTLIBRARIES += tests/umad_sm_held.la
tests_umad_sm_held_la_SOURCES = tests/umad_sm_held.c
tests_umad_sm_held_la_LDFLAGS = $(PLUGIN_FLAGS)
TESTS += tests/interop/sm-class-held.sh
dist_noinst_SCRIPTS += tests/interop/sm-class-held.sh

# mcast_join: an MCMemberRecord join or leave from a host (interop/mcast.sh)
noinst_PROGRAMS += tests/mcast_join
tests_mcast_join_SOURCES = tests/mcast_join.c
tests_mcast_join_CFLAGS = $(AM_CFLAGS) $(IBMAD_CFLAGS) $(UMAD_CFLAGS)
tests_mcast_join_LDADD = $(MAD_LIBS) $(IBMAD_LIBS) $(UMAD_LIBS)

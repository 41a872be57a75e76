# tests/: Check suites for mad/ core and sm/.  Other areas: tests/<area>.mk.
EXTRA_DIST += tests/topo/ftree-io.topo
EXTRA_DIST += tests/check_util.h tests/topo/twoswitch.topo tests/topo/port0.topo tests/topo/ft3r4.topo tests/topo/ndr.topo tests/topo/quantum.topo
# what every shell test sources (temp directory, fail, skip, golden files, ibsim)
EXTRA_DIST += tests/lib.sh
EXTRA_DIST += tests/qos
if HAVE_CHECK
TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
TEST_LIBS = $(MAD_LIBS) $(CHECK_LIBS)

check_PROGRAMS += tests/check_mad_smp tests/check_mad_attr tests/check_mad_ar tests/check_mad_rpc
tests_check_mad_smp_CFLAGS = $(TEST_CFLAGS)
tests_check_mad_smp_LDADD = $(TEST_LIBS)
tests_check_mad_attr_CFLAGS = $(TEST_CFLAGS)
tests_check_mad_attr_LDADD = $(TEST_LIBS)
tests_check_mad_ar_CFLAGS = $(TEST_CFLAGS)
tests_check_mad_ar_LDADD = $(TEST_LIBS)
tests_check_mad_rpc_CFLAGS = $(TEST_CFLAGS)
tests_check_mad_rpc_LDADD = $(TEST_LIBS)
TESTS += tests/check_mad_smp tests/check_mad_attr tests/check_mad_ar tests/check_mad_rpc
# mad/mad_attr.c compiled into the test, to reach its tables
check_PROGRAMS += tests/check_mad_fields
tests_check_mad_fields_CFLAGS = $(TEST_CFLAGS)
tests_check_mad_fields_LDADD = $(MODEL_LIBS) $(IBMAD_LIBS) $(CHECK_LIBS)
TESTS += tests/check_mad_fields
check_PROGRAMS += tests/check_mad_sa
tests_check_mad_sa_CFLAGS = $(TEST_CFLAGS)
tests_check_mad_sa_LDADD = $(TEST_LIBS)
TESTS += tests/check_mad_sa
check_PROGRAMS += tests/check_mad_perf
tests_check_mad_perf_CFLAGS = $(TEST_CFLAGS)
tests_check_mad_perf_LDADD = $(TEST_LIBS)
TESTS += tests/check_mad_perf
check_PROGRAMS += tests/check_mad_cc
tests_check_mad_cc_CFLAGS = $(TEST_CFLAGS)
tests_check_mad_cc_LDADD = $(TEST_LIBS)
TESTS += tests/check_mad_cc
check_PROGRAMS += tests/check_mad_rmpp
tests_check_mad_rmpp_CFLAGS = $(TEST_CFLAGS)
tests_check_mad_rmpp_LDADD = $(TEST_LIBS)
TESTS += tests/check_mad_rmpp
endif

if HAVE_CHECK
check_PROGRAMS += tests/check_sm_sweep tests/check_sm_hw
tests_check_sm_sweep_SOURCES = tests/check_sm_sweep.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_sweep_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_sweep_LDADD = $(SM_LIBS) $(CHECK_LIBS)
tests_check_sm_hw_SOURCES = tests/check_sm_hw.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_hw_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_hw_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_sweep tests/check_sm_hw
check_PROGRAMS += tests/check_sm_isolate
tests_check_sm_isolate_SOURCES = tests/check_sm_isolate.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_isolate_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_isolate_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_isolate
check_PROGRAMS += tests/check_sm_names
tests_check_sm_names_SOURCES = tests/check_sm_names.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_names_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_names_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_names
check_PROGRAMS += tests/check_sm_store_queue
tests_check_sm_store_queue_SOURCES = tests/check_sm_store_queue.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_store_queue_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_store_queue_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_store_queue
check_PROGRAMS += tests/check_sm_rebalance
tests_check_sm_rebalance_SOURCES = tests/check_sm_rebalance.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_rebalance_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_rebalance_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_rebalance
# check_sm_perf_feed: counters from a sim traffic pattern to isolation and rebalancing
check_PROGRAMS += tests/check_sm_perf_feed
tests_check_sm_perf_feed_SOURCES = tests/check_sm_perf_feed.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_perf_feed_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_perf_feed_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_perf_feed
# check_sm_patch: fast link repair on the 16-host 3-level fat tree
check_PROGRAMS += tests/check_sm_patch
tests_check_sm_patch_SOURCES = tests/check_sm_patch.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_patch_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_patch_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_patch
endif

# adaptive routing programmed by sweeps on the sim (sm_ar.c): wire golden, read-back
if HAVE_CHECK
check_PROGRAMS += tests/check_sm_ar
tests_check_sm_ar_SOURCES = tests/check_sm_ar.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_ar_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_ar_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_ar
endif

if HAVE_CHECK
check_PROGRAMS += tests/check_sm_mkey
tests_check_sm_mkey_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_mkey_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_mkey
endif

if HAVE_CHECK
check_PROGRAMS += tests/check_sm_perf
tests_check_sm_perf_SOURCES = tests/check_sm_perf.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_perf_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_perf_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_perf
check_PROGRAMS += tests/check_sm_perf_pma
tests_check_sm_perf_pma_SOURCES = tests/check_sm_perf_pma.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_perf_pma_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_perf_pma_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_perf_pma
check_PROGRAMS += tests/check_mad_sim_cc
tests_check_mad_sim_cc_SOURCES = tests/check_mad_sim_cc.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_mad_sim_cc_CFLAGS = $(TEST_CFLAGS)
tests_check_mad_sim_cc_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_mad_sim_cc
check_PROGRAMS += tests/check_sm_cc
tests_check_sm_cc_SOURCES = tests/check_sm_cc.c tests/check_sm_fixture.h tests/check_sm_fixture.c
tests_check_sm_cc_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_cc_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_cc
endif

if HAVE_CHECK
check_PROGRAMS += tests/check_sm_path_sl
tests_check_sm_path_sl_SOURCES = tests/check_sm_path_sl.c
tests_check_sm_path_sl_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_path_sl_LDADD = tests/libdbfixture.la $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_path_sl
check_PROGRAMS += tests/check_sm_sa
tests_check_sm_sa_SOURCES = tests/check_sm_sa.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_sa_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_sa_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_sa
endif

if HAVE_CHECK
check_PROGRAMS += tests/check_sm_pkey
tests_check_sm_pkey_SOURCES = tests/check_sm_pkey.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_pkey_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_pkey_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_pkey
check_PROGRAMS += tests/check_sm_pkey_osm
tests_check_sm_pkey_osm_SOURCES = tests/check_sm_pkey_osm.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_pkey_osm_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_pkey_osm_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_pkey_osm
endif

if HAVE_CHECK
check_PROGRAMS += tests/check_sm_mcast
tests_check_sm_mcast_SOURCES = tests/check_sm_mcast.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c tests/check_sim_flood.h tests/check_sim_flood.c
tests_check_sm_mcast_CFLAGS = $(TEST_CFLAGS) $(IBMAD_CFLAGS)
tests_check_sm_mcast_LDADD = $(SM_LIBS) $(CHECK_LIBS) $(IBMAD_LIBS)
TESTS += tests/check_sm_mcast
endif

if HAVE_CHECK
check_PROGRAMS += tests/check_sm_rereg
tests_check_sm_rereg_SOURCES = tests/check_sm_rereg.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c tests/check_sim_flood.h tests/check_sim_flood.c
tests_check_sm_rereg_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_check_sm_rereg_LDADD = $(SM_LIBS) $(CHECK_LIBS) $(SQLITE_LIBS)
TESTS += tests/check_sm_rereg
endif

if HAVE_CHECK
check_PROGRAMS += tests/check_sm_ha
tests_check_sm_ha_SOURCES = tests/check_sm_ha.c tests/check_sm_fixture.h tests/check_sm_fixture.c \
	tests/check_sim_flood.h tests/check_sim_flood.c tests/check_sm_peers.h tests/check_sm_peers.c
tests_check_sm_ha_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_ha_LDADD = $(SM_LIBS) $(CHECK_LIBS) -lpthread
TESTS += tests/check_sm_ha
# jobs in the daemon: routed at once by the MASTER, kept by the STANDBY, routed
# again after a failover, ended on the base routes (sm/jobs/)
check_PROGRAMS += tests/check_sm_jobs
tests_check_sm_jobs_SOURCES = tests/check_sm_jobs.c tests/check_sm_peers.h tests/check_sm_peers.c
tests_check_sm_jobs_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_jobs_LDADD = $(SM_LIBS) $(CHECK_LIBS) -lpthread
TESTS += tests/check_sm_jobs
endif

EXTRA_DIST += tests/config
if HAVE_CHECK
check_PROGRAMS += tests/check_sm_config
tests_check_sm_config_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_config_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_config
endif

if HAVE_CHECK
check_PROGRAMS += tests/check_sm_osm_qos
tests_check_sm_osm_qos_SOURCES = tests/check_sm_osm_qos.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_osm_qos_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_osm_qos_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_osm_qos
check_PROGRAMS += tests/check_sm_osm_guid2lid
tests_check_sm_osm_guid2lid_SOURCES = tests/check_sm_osm_guid2lid.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_osm_guid2lid_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_osm_guid2lid_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_osm_guid2lid
check_PROGRAMS += tests/check_sm_lid
tests_check_sm_lid_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_lid_LDADD = tests/libdbfixture.la $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_lid
check_PROGRAMS += tests/check_sm_trap_limit
tests_check_sm_trap_limit_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_trap_limit_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_trap_limit
# check_sm_mad_in: every trap repressed, a refused repress said once, Trap 144 sweeps
check_PROGRAMS += tests/check_sm_mad_in
tests_check_sm_mad_in_SOURCES = tests/check_sm_mad_in.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_mad_in_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_mad_in_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_mad_in
check_PROGRAMS += tests/check_sm_carry
tests_check_sm_carry_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_carry_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_carry
endif

if HAVE_CHECK
check_PROGRAMS += tests/check_rt
tests_check_rt_CFLAGS = $(TEST_CFLAGS)
tests_check_rt_LDADD = $(ROUTING_LIBS) $(CHECK_LIBS)
TESTS += tests/check_rt
endif

# fuzz targets: replay their corpus in make check (fuzz_main.c)
EXTRA_DIST += tests/fuzz/corpus-mad
check_PROGRAMS += tests/fuzz/fuzz_mad
tests_fuzz_fuzz_mad_SOURCES = tests/fuzz/fuzz_mad.c tests/fuzz/fuzz_main.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_mad_LDADD = $(MAD_LIBS)
TESTS += tests/fuzz/fuzz_mad
EXTRA_DIST += tests/fuzz/corpus-sa
check_PROGRAMS += tests/fuzz/fuzz_sa
tests_fuzz_fuzz_sa_SOURCES = tests/fuzz/fuzz_sa.c tests/fuzz/fuzz_main.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_sa_LDADD = $(MAD_LIBS)
TESTS += tests/fuzz/fuzz_sa
EXTRA_DIST += tests/fuzz/corpus-perf
check_PROGRAMS += tests/fuzz/fuzz_perf
tests_fuzz_fuzz_perf_SOURCES = tests/fuzz/fuzz_perf.c tests/fuzz/fuzz_main.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_perf_LDADD = $(MAD_LIBS)
TESTS += tests/fuzz/fuzz_perf
EXTRA_DIST += tests/fuzz/corpus-cc
check_PROGRAMS += tests/fuzz/fuzz_cc
tests_fuzz_fuzz_cc_SOURCES = tests/fuzz/fuzz_cc.c tests/fuzz/fuzz_main.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_cc_LDADD = $(MAD_LIBS)
TESTS += tests/fuzz/fuzz_cc
check_PROGRAMS += tests/fuzz/fuzz_text
tests_fuzz_fuzz_text_SOURCES = tests/fuzz/fuzz_text.c tests/fuzz/fuzz_main.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_text_LDADD = $(SM_LIBS)
TESTS += tests/fuzz/fuzz_text
EXTRA_DIST += tests/fuzz/corpus-text
check_PROGRAMS += tests/fuzz/fuzz_sa_agent
tests_fuzz_fuzz_sa_agent_SOURCES = tests/fuzz/fuzz_sa_agent.c tests/fuzz/fuzz_main.c \
	tests/fuzz/fuzz.h
tests_fuzz_fuzz_sa_agent_LDADD = $(SM_LIBS)
TESTS += tests/fuzz/fuzz_sa_agent

# interop: smquery topology against ibnetdiscover, both backends (needs ibsim)
TESTS += tests/interop/topology.sh
dist_noinst_SCRIPTS += tests/interop/topology.sh

# interop: two ibsmd under ibsim: election, SIGKILL failover, handover back
TESTS += tests/interop/ha.sh
dist_noinst_SCRIPTS += tests/interop/ha.sh
EXTRA_DIST += tests/interop/sm_peers.sh
# ... and with OpenSM as the peer, in both directions
TESTS += tests/interop/ha-opensm.sh
dist_noinst_SCRIPTS += tests/interop/ha-opensm.sh
TESTS += tests/interop/ha-opensm-key.sh
dist_noinst_SCRIPTS += tests/interop/ha-opensm-key.sh

# benchmark programs (make bench), not tests
noinst_PROGRAMS += tests/bench_route
tests_bench_route_SOURCES = tests/bench_route.c
tests_bench_route_LDADD = $(SM_LIBS)

# interop: the running daemon under ibsim (sminfo, Unlink/ReLink, SIGTERM)
TESTS += tests/interop/daemon.sh
dist_noinst_SCRIPTS += tests/interop/daemon.sh

# interop: the SA agent asked by saquery under ibsim (and survives it)
TESTS += tests/interop/sa.sh
dist_noinst_SCRIPTS += tests/interop/sa.sh
# interop: congestion control under ibsim (no CC agent: one CongestionInfo each)
TESTS += tests/interop/cc.sh
dist_noinst_SCRIPTS += tests/interop/cc.sh
# smquery partitions and mcast against golden files (sim backend)
TESTS += tests/smquery_partitions.sh
dist_noinst_SCRIPTS += tests/smquery_partitions.sh
# smquery cc against golden files (sim backend, with and without CC agents)
TESTS += tests/smquery_cc.sh
dist_noinst_SCRIPTS += tests/smquery_cc.sh
# partitions under ibsim: smpquery pkeys, saquery -p by partition, SIGHUP
TESTS += tests/interop/partitions.sh
dist_noinst_SCRIPTS += tests/interop/partitions.sh
# ibsmd --import-opensm: opensm -c's output and a site's opensm.conf converted, worst input
TESTS += tests/import_opensm.sh
dist_noinst_SCRIPTS += tests/import_opensm.sh
# ibsmd --import-opensm on OpenSM's qos-policy.conf and qos_* keys: golden files, worst input
TESTS += tests/import_opensm_qos.sh
dist_noinst_SCRIPTS += tests/import_opensm_qos.sh
# interop: one OpenSM partitions.conf, the same P_KeyTables from OpenSM and ibsmd
TESTS += tests/interop/partitions-opensm.sh
dist_noinst_SCRIPTS += tests/interop/partitions-opensm.sh
# interop: OpenSM's guid2lid seeds a cold ibsmd start with OpenSM's LIDs
TESTS += tests/interop/guid2lid.sh
dist_noinst_SCRIPTS += tests/interop/guid2lid.sh
# QoS under ibsim, against OpenSM: SL2VL and VLArb tables, PathRecord SLs
TESTS += tests/interop/qos.sh
dist_noinst_SCRIPTS += tests/interop/qos.sh
# multicast under ibsim: saquery -g/MCMR, joins from hosts, ibroute -M trees
TESTS += tests/interop/mcast.sh
dist_noinst_SCRIPTS += tests/interop/mcast.sh

# interop: --routing adaptive under ibsim (no AR there): static tables valid
# (ibtracert, ibdmchk), nothing of AR sent to the switches
TESTS += tests/interop/adaptive.sh
dist_noinst_SCRIPTS += tests/interop/adaptive.sh
TESTS += tests/interop/perfmgr.sh
dist_noinst_SCRIPTS += tests/interop/perfmgr.sh

# routing plugins, built against the public header only, loaded by check_rt
EXTRA_DIST += contrib/routing-example/Makefile
check_LTLIBRARIES += tests/rt_example.la tests/rt_badabi.la tests/rt_minhop_plugin.la \
	tests/rt_badswitch.la
PLUGIN_FLAGS = -module -avoid-version -shared -rpath /nowhere
tests_rt_example_la_SOURCES = contrib/routing-example/example_engine.c
tests_rt_example_la_CPPFLAGS = -I$(top_srcdir)/routing
tests_rt_example_la_LDFLAGS = $(PLUGIN_FLAGS)
# the built-in min-hop engine's own source, built as a plugin this time
tests_rt_minhop_plugin_la_SOURCES = routing/rt_minhop.c
tests_rt_minhop_plugin_la_LDFLAGS = $(PLUGIN_FLAGS)
tests_rt_badabi_la_SOURCES = tests/rt_badabi_plugin.c
tests_rt_badabi_la_CPPFLAGS = -I$(top_srcdir)/routing
tests_rt_badabi_la_LDFLAGS = $(PLUGIN_FLAGS)
tests_rt_badswitch_la_SOURCES = tests/rt_badswitch_plugin.c
tests_rt_badswitch_la_CPPFLAGS = -I$(top_srcdir)/routing
tests_rt_badswitch_la_LDFLAGS = $(PLUGIN_FLAGS)
# plugins that crash, hang, exit and write past their rows: one source, four ways
check_LTLIBRARIES += tests/rt_crash.la tests/rt_hang.la tests/rt_exit.la tests/rt_overrun.la
tests_rt_crash_la_SOURCES = tests/rt_misbehave_plugin.c
tests_rt_crash_la_CPPFLAGS = -I$(top_srcdir)/routing -DMISBEHAVE=CRASH
tests_rt_crash_la_LDFLAGS = $(PLUGIN_FLAGS)
tests_rt_hang_la_SOURCES = tests/rt_misbehave_plugin.c
tests_rt_hang_la_CPPFLAGS = -I$(top_srcdir)/routing -DMISBEHAVE=HANG
tests_rt_hang_la_LDFLAGS = $(PLUGIN_FLAGS)
tests_rt_exit_la_SOURCES = tests/rt_misbehave_plugin.c
tests_rt_exit_la_CPPFLAGS = -I$(top_srcdir)/routing -DMISBEHAVE=EXIT
tests_rt_exit_la_LDFLAGS = $(PLUGIN_FLAGS)
tests_rt_overrun_la_SOURCES = tests/rt_misbehave_plugin.c
tests_rt_overrun_la_CPPFLAGS = -I$(top_srcdir)/routing -DMISBEHAVE=OVERRUN
tests_rt_overrun_la_LDFLAGS = $(PLUGIN_FLAGS)
# command-line paths too long are refused, not cut short
TESTS += tests/cli_limits.sh
dist_noinst_SCRIPTS += tests/cli_limits.sh
# the mkey: keys from ibsmd.yaml to the fabric and the store
TESTS += tests/mkey_daemon.sh
dist_noinst_SCRIPTS += tests/mkey_daemon.sh
# no secret in what ibsmd prints, logs, stores or smquery shows
TESTS += tests/secrets_hidden.sh
dist_noinst_SCRIPTS += tests/secrets_hidden.sh
# hostile NodeDescriptions through the daemon's log and every smquery output
TESTS += tests/hostile_fabric.sh
dist_noinst_SCRIPTS += tests/hostile_fabric.sh tests/text_safe.py
EXTRA_DIST += tests/topo/hostile.topo tests/hostile_strings.h
# the daemon with plugins that misbehave: --once still succeeds, SIGTERM is prompt
TESTS += tests/plugin_sandbox.sh
dist_noinst_SCRIPTS += tests/plugin_sandbox.sh
# the ftree engine's own source as a plugin: its path_sl answers cross the sandbox
check_LTLIBRARIES += tests/rt_ftree_plugin.la
tests_rt_ftree_plugin_la_SOURCES = routing/rt_ftree.c routing/rt_levels.c routing/rt_guids.c \
	mad/model/topo_text.c
tests_rt_ftree_plugin_la_LDFLAGS = $(PLUGIN_FLAGS)

# jobs through the daemon and smquery: start, worst values, restart, end
TESTS += tests/jobs.sh tests/slurm_hooks.sh tests/slurm_real.sh
dist_noinst_SCRIPTS += tests/jobs.sh tests/slurm_hooks.sh tests/slurm_real.sh
# the running daemon and its control socket (sim backend, no ibsim needed)
TESTS += tests/control.sh tests/ext-speeds.sh tests/isolate.sh
dist_noinst_SCRIPTS += tests/control.sh tests/ext-speeds.sh tests/isolate.sh
TESTS += tests/daemon_loop.sh
dist_noinst_SCRIPTS += tests/daemon_loop.sh
# ibsmd.yaml and the partitions file nested too deep or as big as they may be
TESTS += tests/big_files.sh
dist_noinst_SCRIPTS += tests/big_files.sh
# port_move: the SM moves to its node's other port when its own goes down
TESTS += tests/port_move.sh
dist_noinst_SCRIPTS += tests/port_move.sh
# port_list (interop): the port list on the umad backend under ibsim
TESTS += tests/interop/port_list.sh
dist_noinst_SCRIPTS += tests/interop/port_list.sh
# patch_daemon: a dead link patched by the running daemon before its heavy sweep
TESTS += tests/patch_daemon.sh
dist_noinst_SCRIPTS += tests/patch_daemon.sh
# traps: a port sending 1,000 a second is reported once and held (sm_trap_limit.c)
TESTS += tests/trap_storm.sh
dist_noinst_SCRIPTS += tests/trap_storm.sh

# interop: ibsmd takes over a fabric OpenSM brought up (needs ibsim, opensm)
TESTS += tests/interop/takeover.sh
dist_noinst_SCRIPTS += tests/interop/takeover.sh

# interop: SL to VL tables under ibsim, whose switches lack optimized programming
TESTS += tests/interop/sl2vl.sh
dist_noinst_SCRIPTS += tests/interop/sl2vl.sh

EXTRA_DIST += tests/fuzz/corpus-partitions
check_PROGRAMS += tests/fuzz/fuzz_partitions
tests_fuzz_fuzz_partitions_SOURCES = tests/fuzz/fuzz_partitions.c tests/fuzz/fuzz_main.c \
	tests/fuzz/fuzz.h tests/fuzz/fuzz_partitions.h
tests_fuzz_fuzz_partitions_LDADD = $(SM_LIBS)
TESTS += tests/fuzz/fuzz_partitions
EXTRA_DIST += tests/fuzz/corpus-partitions-osm
check_PROGRAMS += tests/fuzz/fuzz_partitions_osm
tests_fuzz_fuzz_partitions_osm_SOURCES = tests/fuzz/fuzz_partitions_osm.c tests/fuzz/fuzz_main.c \
	tests/fuzz/fuzz.h tests/fuzz/fuzz_partitions.h
tests_fuzz_fuzz_partitions_osm_LDADD = $(SM_LIBS)
TESTS += tests/fuzz/fuzz_partitions_osm
EXTRA_DIST += tests/fuzz/corpus-import-opensm
check_PROGRAMS += tests/fuzz/fuzz_import_opensm
tests_fuzz_fuzz_import_opensm_SOURCES = tests/fuzz/fuzz_import_opensm.c tests/fuzz/fuzz_main.c \
	tests/fuzz/fuzz.h
tests_fuzz_fuzz_import_opensm_LDADD = $(SM_LIBS)
TESTS += tests/fuzz/fuzz_import_opensm
EXTRA_DIST += tests/fuzz/corpus-qos
check_PROGRAMS += tests/fuzz/fuzz_qos
tests_fuzz_fuzz_qos_SOURCES = tests/fuzz/fuzz_qos.c tests/fuzz/fuzz_main.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_qos_LDADD = $(SM_LIBS)
TESTS += tests/fuzz/fuzz_qos
EXTRA_DIST += tests/fuzz/corpus-config
check_PROGRAMS += tests/fuzz/fuzz_config
tests_fuzz_fuzz_config_SOURCES = tests/fuzz/fuzz_config.c tests/fuzz/fuzz_main.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_config_LDADD = $(SM_LIBS)
TESTS += tests/fuzz/fuzz_config

EXTRA_DIST += tests/fuzz/corpus-rtfile
if HAVE_CHECK
check_PROGRAMS += tests/fuzz/fuzz_rtfile
tests_fuzz_fuzz_rtfile_SOURCES = tests/fuzz/fuzz_rtfile.c tests/fuzz/fuzz_main.c tests/fuzz/fuzz.h \
	tests/rt_testview.c tests/rt_testview.h
tests_fuzz_fuzz_rtfile_LDADD = $(ROUTING_LIBS) $(MAD_LIBS)
TESTS += tests/fuzz/fuzz_rtfile
endif

if HAVE_CHECK
check_PROGRAMS += tests/check_sm_qos
tests_check_sm_qos_SOURCES = tests/check_sm_qos.c tests/check_sm_fixture.h \
	tests/check_sm_fixture.c
tests_check_sm_qos_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_qos_LDADD = $(SM_LIBS) $(CHECK_LIBS)
TESTS += tests/check_sm_qos
endif

# contrib/: `make bench` (not part of make check).  contrib/bench/reference.sh
# first measures the machine reference (OpenSM's cold bring-up of the 1,024-host
# tree under ibsim) that absolute figures are read against; contrib/bench/run.sh brings
# a 3-level fat tree up under ibsim with ibsmd and with OpenSM (ftree, minhop),
# each in its own network namespace, and prints wall time, SMPs, peak RSS and
# ibsim's CPU time with the ratios ibsmd / OpenSM and ibsmd's SMPs against the
# fabric's minimum; results also in bench-out/results.txt.
# BENCH_SIZE=small: the 1,024-host radix-16 tree instead of the 8,192-host one.
# Then contrib/bench/scale.sh: the sim backend and the routing engines at scale
# (dfsssp: its time on the 8,192-host tree and its layer counts);
# contrib/bench/quality.sh: route quality of OpenSM's and ibsmd's engines,
# tables read back with ibroute; contrib/bench/control.sh: the control socket's
# latency during a cold heavy sweep of the 27,648-host tree; contrib/bench/ha.sh:
# failover time on the sim backend, 8,192 hosts (tests/check_sm_ha with HA_TOPO);
# contrib/bench/killtest.sh: SIGKILL at random points, 200 times (KILLS), on a
# flapping fabric, the store checked after each (integrity, LIDs, topology);
# contrib/bench/map.sh: the fabric map in headless Chromium, 8k and 27k hosts;
# contrib/bench/patch.sh: the traffic model's static and AR EBB on 128, 1k and
# 8k hosts, and a dead top switch link patched on the 27k tree (bench_patch);
# contrib/bench/jobs.sh: job-aware routing on random fragmented placements (8k and
# 27k hosts), a job started through the daemon at 27k, the rail check;
# contrib/bench/rebalance.sh: rebalancing a steady hot spot on the traffic model,
# 1,024 and 8,192 hosts; contrib/bench/perf.sh: the performance manager's pass
# on the 8,192-host tree and its store's size per host and day on the 27,648-host tree;
# contrib/bench/metrics.sh: the Prometheus metrics of the 27,648-host tree, series,
# size and rendering time per shape, against treydock/infiniband_exporter's count.
dist_noinst_SCRIPTS += contrib/bench/reference.sh contrib/bench/run.sh contrib/bench/scale.sh contrib/bench/control.sh \
	contrib/bench/soak.sh contrib/bench/ha.sh contrib/bench/killtest.sh contrib/bench/map.sh \
	contrib/bench/patch.sh contrib/bench/perf.sh contrib/bench/metrics.sh contrib/bench/cc.sh
# bench_patch: a dead top switch link patched on the sim (contrib/bench/patch.sh).
noinst_PROGRAMS += contrib/bench/bench_patch
contrib_bench_bench_patch_SOURCES = contrib/bench/bench_patch.c
contrib_bench_bench_patch_LDADD = $(SM_LIBS)
# bench_ar_restart: the AR SMPs a restarted daemon sends (contrib/bench/patch.sh).
noinst_PROGRAMS += contrib/bench/bench_ar_restart
contrib_bench_bench_ar_restart_SOURCES = contrib/bench/bench_ar_restart.c
contrib_bench_bench_ar_restart_LDADD = $(SM_LIBS)
# ctl_latency: times "status" requests on a running ibsmd's control socket.
noinst_PROGRAMS += contrib/bench/ctl_latency
contrib_bench_ctl_latency_SOURCES = contrib/bench/ctl_latency.c

bench: ibsmd$(EXEEXT) smquery$(EXEEXT) contrib/topogen/ibsmd-topogen$(EXEEXT) \
		contrib/bench/bench_sim_load$(EXEEXT) tests/bench_route$(EXEEXT) \
		tests/rt_engine_time$(EXEEXT) \
		contrib/bench/quality_from_ibroute$(EXEEXT) contrib/bench/ctl_latency$(EXEEXT) \
		tests/check_sm_ha$(EXEEXT) contrib/bench/bench_patch$(EXEEXT) \
		contrib/bench/bench_ar_restart$(EXEEXT) \
		contrib/bench/rebalance_model$(EXEEXT) \
		contrib/bench/bench_perf$(EXEEXT) contrib/bench/bench_jobs$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/reference.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/run.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/scale.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/quality.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/control.sh'
	BENCH_TRAFFIC=shift BENCH_RADIX=24 top_srcdir='$(abs_top_srcdir)' \
		top_builddir='$(abs_top_builddir)' $(SHELL) '$(abs_top_srcdir)/contrib/bench/control.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/ha.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/killtest.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/map.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/patch.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/rebalance.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/perf.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/metrics.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/cc.sh'
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) '$(abs_top_srcdir)/contrib/bench/jobs.sh'
.PHONY: bench
# bench_sa: PathRecord Gets per second and their latency on a sim fabric.
noinst_PROGRAMS += contrib/bench/bench_sa
contrib_bench_bench_sa_SOURCES = contrib/bench/bench_sa.c
contrib_bench_bench_sa_LDADD = $(SM_LIBS) -lpthread
# rebalance_model: congestion-aware rebalancing on the traffic model at scale
# (contrib/bench/rebalance.sh).
noinst_PROGRAMS += contrib/bench/rebalance_model
contrib_bench_rebalance_model_SOURCES = contrib/bench/rebalance_model.c \
	tests/rt_testview.c tests/rt_testview.h
contrib_bench_rebalance_model_LDADD = $(ROUTING_LIBS) $(MAD_LIBS) -lm
dist_noinst_SCRIPTS += contrib/bench/rebalance.sh
# bench_perf: the performance manager's sampling pass and the store's growth.
noinst_PROGRAMS += contrib/bench/bench_perf
contrib_bench_bench_perf_SOURCES = contrib/bench/bench_perf.c
contrib_bench_bench_perf_LDADD = $(SM_LIBS)
# bench_jobs: job-aware routing on random fragmented placements (contrib/bench/jobs.sh).
dist_noinst_SCRIPTS += contrib/bench/jobs.sh
noinst_PROGRAMS += contrib/bench/bench_jobs
contrib_bench_bench_jobs_SOURCES = contrib/bench/bench_jobs.c tests/rt_testview.c tests/rt_testview.h
contrib_bench_bench_jobs_LDADD = $(ROUTING_LIBS) $(MAD_LIBS) -lm

# sm/telemetry/: the performance manager, isolation of bad links, rebalancing.
sm_libibsmd_sm_la_SOURCES += \
	sm/telemetry/sm_perf.h sm/telemetry/sm_perf.c \
	sm/telemetry/sm_perf_feed.h sm/telemetry/sm_perf_feed.c \
	sm/telemetry/sm_isolate_policy.h sm/telemetry/sm_isolate_policy.c \
	sm/telemetry/sm_isolate.h sm/telemetry/sm_isolate.c \
	sm/telemetry/sm_rebalance.h sm/telemetry/sm_rebalance.c \
	sm/telemetry/sm_sim_traffic.h sm/telemetry/sm_sim_traffic.c
EXTRA_DIST += sm/telemetry/README.md

# sm/core/: the ground every subsystem stands on: struct sm, workers, the SM
# state, the store queue, what a sweep knows, M_Keys, the configuration.
sm_libibsmd_sm_la_SOURCES += \
	sm/core/sm.h sm/core/sm_job.c sm/core/sm_counts.c \
	sm/core/sm_config.h sm/core/sm_config.c sm/core/sm_cc_want.h sm/core/sm_cc_want.c \
	sm/core/sm_state.h sm/core/sm_state.c \
	sm/core/sm_store_queue.h sm/core/sm_store_queue.c \
	sm/core/sm_fabric.h sm/core/sm_fabric.c \
	sm/core/sm_names.h sm/core/sm_names.c \
	sm/core/sm_mkey.h sm/core/sm_mkey.c \
	sm/core/sm_routes.h sm/core/sm_routes.c \
	sm/core/sm_lft_send.h sm/core/sm_lft_send.c \
	sm/core/sm_sl2vl_table.h sm/core/sm_sl2vl_table.c
EXTRA_DIST += sm/core/README.md

# sm/sweep/: the heavy sweep's pipeline and the light sweep.
sm_libibsmd_sm_la_SOURCES += \
	sm/sweep/sm_sweep.h sm/sweep/sm_sweep.c sm/sweep/sm_light.c \
	sm/sweep/sm_discover.h sm/sweep/sm_discover.c \
	sm/sweep/sm_carry.h sm/sweep/sm_carry.c \
	sm/sweep/sm_port_guids.h sm/sweep/sm_port_guids.c \
	sm/sweep/sm_lid.h sm/sweep/sm_lid.c \
	sm/sweep/sm_route.h sm/sweep/sm_route.c \
	sm/sweep/sm_program.h sm/sweep/sm_program.c \
	sm/sweep/sm_link.h sm/sweep/sm_link.c \
	sm/sweep/sm_sl2vl.h sm/sweep/sm_sl2vl.c \
	sm/sweep/sm_path_sl_store.h sm/sweep/sm_path_sl_store.c
EXTRA_DIST += sm/sweep/README.md

# sm/ha/: other SMs (SMInfo, election, polling, handover) and the MADs that
# arrive unasked: SMInfo from peers, traps, counted per source.
sm_libibsmd_sm_la_SOURCES += \
	sm/ha/sm_ha.h sm/ha/sm_ha.c \
	sm/ha/sm_trap_limit.h sm/ha/sm_trap_limit.c \
	sm/ha/sm_mad_in.h sm/ha/sm_mad_in.c
EXTRA_DIST += sm/ha/README.md

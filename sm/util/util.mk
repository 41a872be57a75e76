# sm/util/: what the daemon is built on and that knows nothing of an SM.
sm_libibsmd_sm_la_SOURCES += \
	sm/util/sm_log.h sm/util/sm_log.c \
	sm/util/sm_arena.h sm/util/sm_arena.c \
	sm/util/sm_sorted.h \
	sm/util/sm_file.h sm/util/sm_file.c \
	sm/util/sm_yaml.h sm/util/sm_yaml.c \
	sm/util/sm_ydoc.h sm/util/sm_ydoc.c \
	sm/util/sm_loop.h sm/util/sm_loop.c \
	sm/util/sm_notify.h sm/util/sm_notify.c \
	sm/util/sm_addr.h sm/util/sm_addr.c
EXTRA_DIST += sm/util/README.md

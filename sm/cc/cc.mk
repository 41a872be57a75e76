# sm/cc/: congestion control (class 0x21) after a heavy sweep.
sm_libibsmd_sm_la_SOURCES += sm/cc/sm_cc.h sm/cc/sm_cc.c
EXTRA_DIST += sm/cc/README.md

# sm/repair/: adaptive routing's tables, and the fast repair of a dead link.
sm_libibsmd_sm_la_SOURCES += \
	sm/repair/sm_ar.h sm/repair/sm_ar.c sm/repair/sm_ar_store.c \
	sm/repair/sm_patch.h sm/repair/sm_patch_int.h sm/repair/sm_patch.c sm/repair/sm_patch_ar.c
EXTRA_DIST += sm/repair/README.md

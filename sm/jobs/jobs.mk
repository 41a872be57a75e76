# sm/jobs/: the jobs the batch scheduler runs, and the routes shaped for them.
sm_libibsmd_sm_la_SOURCES += \
	sm/jobs/sm_jobs.h sm/jobs/sm_jobs_int.h sm/jobs/sm_jobs.c sm/jobs/sm_jobs_sweep.c
EXTRA_DIST += sm/jobs/README.md

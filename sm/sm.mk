# sm/: the daemon.  The SM's logic is one library, so tests can drive it; each
# folder adds its own sources (sm/*/*.mk), from the ground up: util, core, then
# the subsystems, then the life cycle here at sm/'s root (see sm/README.md).
noinst_LTLIBRARIES += sm/libibsmd_sm.la
sm_libibsmd_sm_la_SOURCES =
include sm/util/util.mk
include sm/core/core.mk
include sm/telemetry/telemetry.mk
include sm/cc/cc.mk
include sm/repair/repair.mk
include sm/jobs/jobs.mk
include sm/osm/osm.mk
include sm/ha/ha.mk
include sm/sa/sa.mk
include sm/sweep/sweep.mk
# the life cycle: open and close, the daemon's loop, reload, the control socket,
# the metrics file and endpoint
sm_libibsmd_sm_la_SOURCES += \
	sm/sm_life.h sm/sm_life.c \
	sm/sm_reload.h sm/sm_reload.c \
	sm/sm_daemon.h sm/sm_daemon.c \
	sm/sm_ctl.h sm/sm_ctl.c \
	sm/sm_metrics.h sm/sm_metrics.c \
	sm/sm_metrics_http.h sm/sm_metrics_http.c
sm_libibsmd_sm_la_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS) $(SYSTEMD_CFLAGS)
sm_libibsmd_sm_la_LIBADD = $(YAML_LIBS) $(SYSTEMD_LIBS)
SM_LIBS = sm/libibsmd_sm.la $(ROUTING_LIBS) $(DB_LIBS) $(MAD_LIBS)

sbin_PROGRAMS += ibsmd
ibsmd_SOURCES = sm/sm_main.c
ibsmd_LDADD = $(SM_LIBS)
dist_man_MANS += sm/ibsmd.8 sm/ibsmd.yaml.5
EXTRA_DIST += sm/README.md

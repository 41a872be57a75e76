# db/: the SQLite store (schema, migrations, every SQL statement of the project).
noinst_LTLIBRARIES += db/libibsmd_db.la
db_libibsmd_db_la_SOURCES = \
	db/db.h db/db_int.h \
	db/db_conn.c \
	db/db_schema.c \
	db/db_sweep.c \
	db/db_light.c db/db_cc.c \
	db/db_prune.c \
	db/db_metrics.c \
	db/db_metrics_int.h \
	db/db_metrics_text.c \
	db/db_metrics_links.c \
	db/db_metrics_ports.c \
	db/db_event.c \
	db/db_lost.c \
	db/db_topo.c \
	db/db_status.c \
	db/db_lid.c \
	db/db_ar.c \
	db/db_sa.c \
	db/db_mkey.c \
	db/db_isolate.c \
	db/db_job.c \
	db/db_part.c \
	db/db_counters.c \
	db/db_path_sl.c
db_libibsmd_db_la_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
db_libibsmd_db_la_LIBADD = $(SQLITE_LIBS)
DB_LIBS = db/libibsmd_db.la $(MODEL_LIBS)

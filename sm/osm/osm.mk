# sm/osm/: OpenSM's files: its opensm.conf converted, its guid2lid seeded.
sm_libibsmd_sm_la_SOURCES += \
	sm/osm/sm_osm_guid2lid.h sm/osm/sm_osm_guid2lid.c \
	sm/osm/sm_osm_import.h sm/osm/sm_osm_import.c sm/osm/sm_osm_conf.c sm/osm/sm_osm_qos.c
EXTRA_DIST += sm/osm/README.md

# sm/sa/: the subnet administrator, with partitions and multicast groups.
sm_libibsmd_sm_la_SOURCES += \
	sm/sa/sm_sa.h sm/sa/sm_sa.c sm/sa/sm_sa_records.h \
	sm/sa/sm_sa_index.h sm/sa/sm_sa_index.c \
	sm/sa/sm_sa_node.c sm/sa/sm_sa_port.c sm/sa/sm_sa_path.c sm/sa/sm_sa_multipath.c \
	sm/sa/sm_sa_link.c sm/sa/sm_sa_switch.c sm/sa/sm_sa_port_tables.c sm/sa/sm_sa_sminfo.c \
	sm/sa/sm_sa_guid_info.c sm/sa/sm_sa_alias.h sm/sa/sm_sa_alias.c sm/sa/sm_sa_alias_program.c \
	sm/sa/sm_sa_service.h sm/sa/sm_sa_service.c \
	sm/sa/sm_sa_inform.h sm/sa/sm_sa_inform.c \
	sm/sa/sm_sa_store.h sm/sa/sm_sa_store.c \
	sm/sa/sm_pkey.h sm/sa/sm_pkey.c sm/sa/sm_pkey_file.c sm/sa/sm_pkey_osm.c \
	sm/sa/sm_qos.h sm/sa/sm_qos_file.c sm/sa/sm_qos_match.c sm/sa/sm_qos_tables.c \
	sm/sa/sm_sa_qos.c \
	sm/sa/sm_pkey_program.h sm/sa/sm_pkey_program.c \
	sm/sa/sm_mcast.h sm/sa/sm_mcast.c sm/sa/sm_mcast_tree.c \
	sm/sa/sm_mcast_program.h sm/sa/sm_mcast_program.c \
	sm/sa/sm_sa_mcmember.c \
	sm/sa/sm_part_store.h sm/sa/sm_part_store.c
EXTRA_DIST += sm/sa/README.md

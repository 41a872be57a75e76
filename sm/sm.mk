# sm/: the daemon.  The SM's logic is a library so tests can drive it.
noinst_LTLIBRARIES += sm/libibsmd_sm.la
sm_libibsmd_sm_la_SOURCES = \
	sm/sm.h sm/sm.c \
	sm/sm_arena.h sm/sm_arena.c \
	sm/sm_log.h sm/sm_log.c \
	sm/sm_config.h sm/sm_config.c sm/sm_file.h sm/sm_file.c \
	sm/sm_fabric.h sm/sm_fabric.c \
	sm/sm_mkey.h sm/sm_mkey.c \
	sm/sm_discover.h sm/sm_discover.c \
	sm/sm_port_guids.h sm/sm_port_guids.c \
	sm/sm_carry.h sm/sm_carry.c \
	sm/sm_lid.h sm/sm_lid.c \
	sm/sm_route.h sm/sm_route.c \
	sm/sm_program.h sm/sm_program.c sm/sm_ar.h sm/sm_ar.c sm/sm_ar_store.c \
	sm/sm_sl2vl.h sm/sm_sl2vl.c \
	sm/sm_link.h sm/sm_link.c \
	sm/sm_sweep.c \
	sm/sm_light.c \
	sm/sm_patch.h sm/sm_patch.c sm/sm_patch_int.h sm/sm_patch_ar.c \
	sm/sm_mad_in.h sm/sm_mad_in.c \
	sm/sm_store_queue.h sm/sm_store_queue.c \
	sm/sm_sa.h sm/sm_sa.c sm/sm_sa_records.h \
	sm/sm_sa_node.c sm/sm_sa_port.c sm/sm_sa_path.c sm/sm_sa_multipath.c sm/sm_path_sl_store.c sm/sm_sa_link.c \
	sm/sm_sa_switch.c sm/sm_sa_port_tables.c sm/sm_sa_sminfo.c \
	sm/sm_sa_service.h sm/sm_sa_service.c sm/sm_sa_inform.h sm/sm_sa_inform.c \
	sm/sm_sa_store.h sm/sm_sa_store.c \
	sm/sm_sa_index.h sm/sm_sa_index.c \
	sm/sm_pkey.h sm/sm_pkey.c sm/sm_pkey_file.c \
	sm/sm_pkey_program.h sm/sm_pkey_program.c \
	sm/sm_mcast.h sm/sm_mcast.c sm/sm_mcast_tree.c \
	sm/sm_mcast_program.h sm/sm_mcast_program.c \
	sm/sm_sa_mcmember.c \
	sm/sm_part_store.h sm/sm_part_store.c \
	sm/sm_trap_limit.h sm/sm_trap_limit.c \
	sm/sm_state.h sm/sm_state.c \
	sm/sm_ha.h sm/sm_ha.c \
	sm/sm_loop.h sm/sm_loop.c \
	sm/sm_reload.h sm/sm_reload.c \
	sm/sm_notify.h sm/sm_notify.c \
	sm/sm_daemon.h sm/sm_daemon.c \
	sm/sm_ctl.h sm/sm_ctl.c \
	sm/sm_isolate_policy.h sm/sm_isolate_policy.c \
	sm/sm_isolate.h sm/sm_isolate.c \
	sm/sm_rebalance.h sm/sm_rebalance.c \
	sm/sm_sorted.h \
	sm/sm_perf.h sm/sm_perf.c sm/sm_perf_feed.h sm/sm_perf_feed.c \
	sm/sm_sim_traffic.h sm/sm_sim_traffic.c
sm_libibsmd_sm_la_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS) $(SYSTEMD_CFLAGS)
sm_libibsmd_sm_la_LIBADD = $(YAML_LIBS) $(SYSTEMD_LIBS)
SM_LIBS = sm/libibsmd_sm.la $(ROUTING_LIBS) $(DB_LIBS) $(MAD_LIBS)

sbin_PROGRAMS += ibsmd
ibsmd_SOURCES = sm/sm_main.c
ibsmd_LDADD = $(SM_LIBS)
dist_man_MANS += sm/ibsmd.8 sm/ibsmd.yaml.5

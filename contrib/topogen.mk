# contrib/: ibsmd-topogen, the topology generator (see contrib/topogen/ibsmd-topogen.1)
bin_PROGRAMS += contrib/topogen/ibsmd-topogen
contrib_topogen_ibsmd_topogen_SOURCES = contrib/topogen/ibsmd-topogen.c \
	contrib/topogen/topogen.h contrib/topogen/topogen_fabric.c \
	contrib/topogen/topogen_fattree.c contrib/topogen/topogen_grid.c \
	contrib/topogen/topogen_dragonfly.c
dist_man_MANS += contrib/topogen/ibsmd-topogen.1

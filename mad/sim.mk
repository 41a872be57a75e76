# mad/: the simulated fabric backend and the topology file reader.
mad_libibsmd_mad_la_SOURCES += \
	mad/mad_topofile.h mad/mad_topofile.c \
	mad/mad_sim.h mad/mad_sim.c

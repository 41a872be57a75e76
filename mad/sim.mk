# mad/: the simulated fabric backend (its fabric comes from db/model/topofile.c).
mad_libibsmd_mad_la_SOURCES += \
	mad/mad_sim.h mad/mad_sim_priv.h mad/mad_sim.c mad/mad_sim_sma.c \
	mad/mad_sim_mkey.c mad/mad_sim_ar.c \
	mad/mad_sim_route.c mad/mad_sim_gsi.c mad/mad_sim_data.c mad/mad_sim_transport.c

# mad/sim/: the simulated fabric backend, a transport beside umad (its fabric comes from mad/model/topofile.c).
mad_libibsmd_mad_la_SOURCES += \
	mad/sim/mad_sim.h mad/sim/mad_sim_priv.h mad/sim/mad_sim.c mad/sim/mad_sim_sma.c \
	mad/sim/mad_sim_mkey.c mad/sim/mad_sim_ar.c \
	mad/sim/mad_sim_route.c mad/sim/mad_sim_gsi.c mad/sim/mad_sim_data.c mad/sim/mad_sim_transport.c \
	mad/sim/mad_sim_perf.c mad/sim/mad_sim_cc.c mad/sim/mad_sim_host.c

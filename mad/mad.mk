# mad/: wire formats, transports, rpc.  Backends add their sources in sim.mk, umad.mk.
noinst_LTLIBRARIES += mad/libibsmd_mad.la
mad_libibsmd_mad_la_SOURCES = \
	mad/mad_bytes.h mad/mad_smp.h mad/mad_smp.c \
	mad/mad_gmp.h mad/mad_gmp.c mad/mad_sa.h mad/mad_sa.c mad/mad_rmpp.h mad/mad_rmpp.c mad/mad_perf.h mad/mad_perf.c \
	mad/mad_sa_mcmember.h mad/mad_sa_mcmember.c \
	mad/mad_attr.h mad/mad_attr.c mad/mad_ar.h mad/mad_ar.c mad/mad_cc.h mad/mad_cc.c \
	mad/mad_transport.h mad/mad_transport.c mad/mad_umad_port.h mad/mad_umad_port.c \
	mad/mad_rpc.h mad/mad_rpc.c
mad_libibsmd_mad_la_CFLAGS = $(AM_CFLAGS) $(UMAD_CFLAGS) $(IBMAD_CFLAGS)
mad_libibsmd_mad_la_LIBADD = $(UMAD_LIBS) $(IBMAD_LIBS)
MAD_LIBS = mad/libibsmd_mad.la $(MODEL_LIBS)
EXTRA_DIST += mad/README.md

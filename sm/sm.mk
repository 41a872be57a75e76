# sm/: the daemon.
sbin_PROGRAMS += ibsmd
ibsmd_SOURCES = sm/sm_main.c
ibsmd_LDADD = $(MAD_LIBS)

# mad/: the libibumad backend.
mad_libibsmd_mad_la_SOURCES += mad/mad_umad.c

# mad/model/: the fabric model (struct topo), the names of the IBA values it holds,
# the topology file reader and the routing view of a model.  Wire-free: it links
# nothing but libc, so the store and smquery use it without mad/ (which fills it).
noinst_LTLIBRARIES += mad/model/libibsmd_model.la
mad_model_libibsmd_model_la_SOURCES = \
	mad/model/topo.h mad/model/topo.c \
	mad/model/topo_names.h mad/model/topo_names.c \
	mad/model/topo_rate.h mad/model/topo_rate.c \
	mad/model/topo_text.h mad/model/topo_text.c \
	mad/model/topofile.h mad/model/topofile.c \
	mad/model/topo_view.h mad/model/topo_view.c
MODEL_LIBS = mad/model/libibsmd_model.la

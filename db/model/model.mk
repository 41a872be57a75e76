# db/model/: the fabric model (struct topo), the names of the IBA values it holds,
# the topology file reader and the routing view of a model.  Wire-free: it links
# nothing but libc, so the store and smquery use it without mad/ (which fills it).
noinst_LTLIBRARIES += db/model/libibsmd_model.la
db_model_libibsmd_model_la_SOURCES = \
	db/model/topo.h db/model/topo.c \
	db/model/topo_names.h db/model/topo_names.c \
	db/model/topo_rate.h db/model/topo_rate.c \
	db/model/topofile.h db/model/topofile.c \
	db/model/topo_view.h db/model/topo_view.c
MODEL_LIBS = db/model/libibsmd_model.la

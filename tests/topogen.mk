# tests/: ibsmd-topogen (golden files, structure, arguments, ibsim interop)
TOPOGEN_TESTS = tests/topogen/golden.sh tests/topogen/structure.sh \
	tests/topogen/args.sh tests/topogen/ibsim.sh
TESTS += $(TOPOGEN_TESTS)
dist_noinst_SCRIPTS += $(TOPOGEN_TESTS)
dist_noinst_DATA += tests/topogen/netcheck.awk tests/topogen/canon.awk \
	tests/topogen/fattree-2-4.net tests/topogen/fattree-3-4.net \
	tests/topogen/fattree-2-6-over.net tests/topogen/fattree-2-4-remove.net \
	tests/topogen/fattree-2-4-rails.net tests/topogen/fattree-2-4-miswire.net \
	tests/topogen/torus-2x2.net tests/topogen/torus-3-hosts2.net \
	tests/topogen/mesh-2x3.net tests/topogen/dragonfly-small.net

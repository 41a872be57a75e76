# tests/: bring-up acceptance under ibsim.  interop/bringup.sh runs
# `ibsmd --backend umad --once` on generated fat trees, ibsim's net-examples
# and the real clusters in tests/topo/real/, and checks the result with
# infiniband-diags (iblinkinfo, ibroute, ibtracert) and a second run that must
# keep every LID and send no LFT block.  Skips without ibsim or the diags.
TESTS += tests/interop/bringup.sh
dist_noinst_SCRIPTS += tests/interop/bringup.sh

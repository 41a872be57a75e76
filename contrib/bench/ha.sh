#!/bin/sh
# SPDX-License-Identifier: MIT
#
# ha.sh - `make bench`: failover on the sim backend at scale.  Two SM daemons
# on one simulated 3-level radix-32 fat tree (8,192 hosts), routed by ftree:
# the master (H0) is killed, and the time from its death to "subnet up" under
# the standby (H2) is measured, with the LFT blocks written and the LIDs
# changed across the failover; then a STANDBY's SMPs a minute over
# BENCH_HA_LOAD_S seconds (default 60), with ha.standby_sweeps 0 and 1, each
# followed by a takeover (tests/check_sm_ha with HA_TOPO).  Appends to
# $BENCH_OUT/ha.txt.  BENCH_RADIX picks another tree (default 32; 48 is the
# 27,648-host tree of DESIGN.md's figures).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
out=${BENCH_OUT:-$top_builddir/bench-out}
radix=${BENCH_RADIX:-32}
mkdir -p "$out"
make_workdir bench-ha

"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix "$radix" \
	-o "$work/ft.topo"
echo "== failover on the sim backend, 3-level radix-$radix tree," \
	"$(date -u '+%Y-%m-%d %H:%M:%S'), $(nproc) cores" | tee -a "$out/ha.txt"
HA_TOPO=$work/ft.topo HA_ROUTING=ftree HA_LOAD_S=${BENCH_HA_LOAD_S:-60} \
	"$top_builddir/tests/check_sm_ha" >"$work/log" 2>&1 || { cat "$work/log"; exit 1; }
grep -E "takeover|LFT blocks|handover|standby load" "$work/log" | tee -a "$out/ha.txt"

#!/bin/sh
# SPDX-License-Identifier: MIT
#
# scale.sh - the in-process figures of `make bench`: no ibsim, no OpenSM.
#
#  1. the simulated fabric: load the 3-level radix-48 fat tree (27,648 hosts,
#     2,880 switches) and walk every node by directed route (bench_sim_load);
#  2. routing: every engine on fat trees of 1k, 8k and 27k hosts and on a 3D
#     torus (bench_route: LIDs assigned as the daemon does, compute + validate),
#     wall time, CPU time and peak RSS;
#  3. the dfsssp engine: CPU time, virtual layers (SLs) and EBB on the 8k tree,
#     the tori, the default dragonfly and the real clusters (rt_engine_time);
#  4. the whole daemon on the sim backend for the 27k tree (ibsmd --once), and
#     for the 8k tree with the simulator's VL15 buffers (8 SMPs per port, SMPs
#     beyond dropped: its default) and without that limit.
# Results are printed and appended to $BENCH_OUT/scale.txt.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
out=${BENCH_OUT:-$top_builddir/bench-out}
engines=${BENCH_ENGINES:-minhop updn ftree dfsssp}
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
mkdir -p "$out"
make_workdir bench-scale

say() { echo "$*" | tee -a "$out/scale.txt"; }

say "== scale benchmark $(date -u '+%Y-%m-%d %H:%M:%S') on $(nproc) cores"
"$topogen" fattree --levels 3 --radix 16 -o "$work/ft-1k.topo"
"$topogen" fattree --levels 3 --radix 32 -o "$work/ft-8k.topo"
"$topogen" fattree --levels 3 --radix 48 -o "$work/ft-27k.topo"
"$topogen" torus --dims 8x8x8 --hosts-per-switch 4 -o "$work/torus-8x8x8.topo"

say "-- simulated fabric, 27,648 hosts"
"$top_builddir/contrib/bench/bench_sim_load" "$work/ft-27k.topo" 2>&1 | tee -a "$out/scale.txt"

say "-- routing stage (compute + validation) per engine"
for f in ft-1k ft-8k ft-27k torus-8x8x8; do
	for e in $engines; do
		# dfsssp: one Dijkstra per LID and pass; the 27k tree takes minutes
		[ "$e.$f" = dfsssp.ft-27k ] && continue
		"$top_builddir/tests/bench_route" "$work/$f.topo" "$e" 2>/dev/null |
			sed "s|^$work/||; s|^|$e: |" | tee -a "$out/scale.txt" || true
	done
done

say "-- dfsssp: CPU time, layers (SLs) and EBB"
"$topogen" torus --dims 4x4x4 --hosts-per-switch 2 -o "$work/torus-4x4x4.topo"
"$topogen" dragonfly -o "$work/dragonfly.topo"
for f in "$work/ft-8k.topo" "$work/torus-8x8x8.topo" "$work/torus-4x4x4.topo" \
	"$work/dragonfly.topo" "$top_srcdir"/tests/topo/real/*.topo; do
	"$top_builddir/tests/rt_engine_time" "$f" dfsssp 2>&1 |
		grep -E '^dfsssp:|^quality:' | sed "s|^|${f##*/}: |" | tee -a "$out/scale.txt" || true
done

say "-- ibsmd --once on the sim backend, 27,648 hosts"
/usr/bin/time -f "%e s wall, %M KB peak RSS" "$top_builddir/ibsmd" \
	--backend "sim:$work/ft-27k.topo" --db "$work/27k.db" --once 2>&1 |
	grep -E 'discovery:|routing:|programming:|subnet up|peak RSS' |
	sed 's/^.*notice: //' | tee -a "$out/scale.txt"

say "-- ibsmd --once on the sim backend, 8,192 hosts, VL15 buffer per port: 8 SMPs (drops on), none"
for buf in 8 0; do
	/usr/bin/time -f "%e s wall, %M KB peak RSS" "$top_builddir/ibsmd" \
		--backend "sim:$work/ft-8k.topo,smp-buffer=$buf" --db "$work/8k-$buf.db" --once 2>&1 |
		grep -E 'discovery:|subnet up|peak RSS' |
		sed "s/^.*notice: //; s/^/smp-buffer=$buf: /" | tee -a "$out/scale.txt"
done
